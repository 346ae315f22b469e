/* addrdec.c: physical address -> memory partition, L2 slice, DRAM bank, row and column.
 *
 * Reads GPGPU-Sim's -gpgpu_mem_addr_mapping syntax (its manual, "address mapping", and
 * addrdec.cc for the details): "dramid@N;<mask>", where <mask> has 64 significant characters,
 * bit 63 first, R = row, B = bank, C = column, S = burst (byte within the burst), 0 = unused;
 * '.', ' ' and '|' are separators and ignored. Letters may be either case.
 *
 * The channel (partition) comes from the address at bit N and is taken out of the address
 * before the mask is applied, so the mask describes the address *within* a partition:
 *   - n_partitions a power of two (2^k): channel = bits [N, N+k); the bits above N+k shift
 *     down by k. (GPGPU-Sim widens the R/B/C masks by k bits at N instead; same result.)
 *   - otherwise (GTX480: 6): channel = (addr >> N) % n and the rest of the address is
 *     ((addr >> N) / n) << N | (addr & (2^N - 1)), exactly as GPGPU-Sim does when the
 *     channel count is not a power of two ("gap" in its addrdec.cc).
 * Choices documented here:
 *   - As in GPGPU-Sim, the S bits count as column bits too: `col` is the byte column in the
 *     row (S bits low), so two addresses of one burst share bank/row and differ in col only.
 *   - The L2 slice within the partition is the low log2(subpartitions) bits of the bank,
 *     as GPGPU-Sim forms its sub-partition id. With the GTX480 and QV100 masks the lowest
 *     bank bit is bit N of the partition address, i.e. the first bit above the channel.
 *   - The "dramid@N;" prefix is required (the explicit 'D' channel-bit form is not read).
 * Errors name mem.addr_map (or mem.subpartitions / dram.n_banks) and say what was expected. */
#include "mem/addrdec.h"

#include "base/base.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Gather the bits of v selected by mask into the low bits of the result, in order. */
static uint64_t pack_bits(uint64_t mask, uint64_t v)
{
    uint64_t out = 0;
    unsigned pos = 0;
    while (mask) {
        unsigned i = (unsigned)__builtin_ctzll(mask);
        out |= ((v >> i) & 1u) << pos++;
        mask &= mask - 1;
    }
    return out;
}

/* Fill d->lut from the masks: byte k's table entry v holds pack_bits of (v << 8k) for each
 * field, which the gathers of the separate bytes sum to (their packed bits never overlap). */
static void build_luts(AddrDecoder *d)
{
    uint64_t all = d->bank_mask | d->row_mask | d->col_mask;
    d->n_lut_bytes = all ? (unsigned)(63 - __builtin_clzll(all)) / 8 + 1 : 0;
    for (unsigned k = 0; k < d->n_lut_bytes; k++)
        for (uint64_t v = 0; v < 256; v++) {
            uint64_t a = v << (8 * k);
            d->lut[k][v].bank = (uint32_t)pack_bits(d->bank_mask, a);
            d->lut[k][v].row = (uint32_t)pack_bits(d->row_mask, a);
            d->lut[k][v].col = (uint32_t)pack_bits(d->col_mask, a);
        }
}

#define ADDR_MAP_FORM "'dramid@<bit>;' then 64 mask characters of R B C S 0 (dots ignored)"

int addrdec_parse(AddrDecoder *d, const char *spec, uint32_t n_partitions, uint32_t subpartitions,
                  uint32_t n_banks, char *err, size_t err_len)
{
    memset(d, 0, sizeof *d);
    if (n_partitions == 0)
        return fail(err, err_len, "mem.n_partitions: expected at least 1");
    if (!is_pow2_u64(subpartitions))
        return fail(err, err_len, "mem.subpartitions: expected a power of two, got %u", subpartitions);

    const char *p = spec;
    if (strncmp(p, "dramid@", 7) != 0)
        return fail(err, err_len, "mem.addr_map: expected %s, got '%s'", ADDR_MAP_FORM, spec);
    p += 7;
    if (!isdigit((unsigned char)*p))
        return fail(err, err_len, "mem.addr_map: expected a bit number after 'dramid@', got '%s'", spec);
    unsigned chan_bit = 0;
    while (isdigit((unsigned char)*p)) {
        chan_bit = chan_bit * 10 + (unsigned)(*p - '0');
        if (chan_bit > 63)
            return fail(err, err_len, "mem.addr_map: dramid bit must be 0..63 in '%s'", spec);
        p++;
    }
    if (*p != ';')
        return fail(err, err_len, "mem.addr_map: expected ';' after 'dramid@%u' in '%s'", chan_bit, spec);
    p++;

    int bit = 63;
    for (; *p; p++) {
        char c = (char)toupper((unsigned char)*p);
        if (c == '.' || c == ' ' || c == '|')
            continue;
        if (bit < 0)
            return fail(err, err_len, "mem.addr_map: mask longer than 64 bits in '%s'", spec);
        uint64_t m = 1ull << bit;
        switch (c) {
        case 'R': d->row_mask |= m; break;
        case 'B': d->bank_mask |= m; break;
        case 'C': d->col_mask |= m; break;
        case 'S': d->burst_mask |= m; d->col_mask |= m; break;
        case '0': break;
        default:
            return fail(err, err_len, "mem.addr_map: unexpected character '%c' in the mask (expected R, B, C, S, 0 or '.')",
                        *p);
        }
        bit--;
    }
    if (bit != -1)
        return fail(err, err_len, "mem.addr_map: mask has %d bits, expected 64, in '%s'", 63 - bit, spec);

    unsigned chan_bits = is_pow2_u64(n_partitions) ? log2_u64(n_partitions) : 0;
    if (chan_bit + chan_bits > 64)
        return fail(err, err_len, "mem.addr_map: dramid@%u leaves no room for %u channel bits", chan_bit, chan_bits);
    unsigned bank_bits = popcount_u64(d->bank_mask);
    if (bank_bits > 31 || (1u << bank_bits) > n_banks)
        return fail(err, err_len, "mem.addr_map: the mask has %u bank bits (%llu banks) but dram.n_banks is %u",
                    bank_bits, 1ull << MIN(bank_bits, 63u), n_banks);
    if (bank_bits < log2_u64(subpartitions))
        return fail(err, err_len,
                    "mem.addr_map: %u bank bits cannot select among mem.subpartitions = %u L2 slices",
                    bank_bits, subpartitions);
    /* Rows stop at 31 bits: the DRAM model keeps UINT32_MAX for "no row open". */
    if (popcount_u64(d->row_mask) > 31 || popcount_u64(d->col_mask) > 32)
        return fail(err, err_len, "mem.addr_map: at most 31 row bits and 32 column bits are supported");

    d->n_partitions = n_partitions;
    d->subpartitions = subpartitions;
    /* the slice is the bank's low bits (addrdec_decode_local): their positions in the address */
    d->sub_mask = 0;
    uint64_t bm = d->bank_mask;
    for (unsigned i = 0; i < log2_u64(subpartitions); i++, bm &= bm - 1)
        d->sub_mask |= bm & -bm;
    d->chan_bit = chan_bit;
    uint64_t bank_row = d->bank_mask | d->row_mask;
    d->same_loc_bits = bank_row ? MIN(chan_bit, (unsigned)__builtin_ctzll(bank_row)) : chan_bit;
    build_luts(d);
    return 1;
}

void addrdec_init(AddrDecoder *d, const Config *cfg)
{
    char err[512];
    if (!addrdec_parse(d, cfg->mem.addr_map, cfg->mem.n_partitions, cfg->mem.subpartitions, cfg->dram.n_banks,
                       err, sizeof err))
        fatal("%s", err);
}

void addrdec_decode(const AddrDecoder *d, uint64_t addr, AddrLoc *out)
{
    unsigned n = d->chan_bit;
    uint64_t low = n ? addr & ((1ull << n) - 1) : 0;
    uint64_t high = addr >> n; /* n <= 63 */
    uint64_t chan, rest;
    if (is_pow2_u64(d->n_partitions)) {
        unsigned k = log2_u64(d->n_partitions);
        chan = high & (d->n_partitions - 1);
        uint64_t above = k < 64 ? high >> k : 0;
        rest = (n < 64 ? above << n : 0) | low;
    } else {
        chan = high % d->n_partitions;
        rest = ((high / d->n_partitions) << n) | low;
    }
    addrdec_decode_local(d, (uint32_t)chan, rest, out);
}

void addrdec_decode_local(const AddrDecoder *d, uint32_t partition, uint64_t local, AddrLoc *out)
{
    out->partition = partition;
    out->local = local;
    uint32_t bank = 0, row = 0, col = 0;
    for (unsigned k = 0; k < d->n_lut_bytes; k++) {
        const AddrLutEntry *e = &d->lut[k][(local >> (8 * k)) & 0xff];
        bank += e->bank;
        row += e->row;
        col += e->col;
    }
    out->bank = bank;
    out->row = row;
    out->col = col;
    out->slice = partition * d->subpartitions + (out->bank & (d->subpartitions - 1));
}
