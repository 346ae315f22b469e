/* coalescer.c: see coalescer.h. Line size is a power of two of at least 32 bytes. */
#include "core/coalescer.h"

#include <stdbool.h>

/* The lines found so far, by a hash of the line: index + 1 into out (0: empty). Twice as
 * many slots as lines can be found, so a probe ends at an empty slot. */
#define COAL_TABLE (2 * COAL_MAX_ACCESSES)

static uint32_t line_hash(uint64_t line) { return (uint32_t)(line * 0x9E3779B97F4A7C15ull >> 57) % COAL_TABLE; }

/* The 32-byte segments of `line` that bytes first..last touch (within the line). */
static uint32_t line_segments(uint64_t line, uint64_t line_bytes, uint64_t first, uint64_t last)
{
    uint64_t lo = first > line ? first : line;
    uint64_t hi = last < line + line_bytes - 1 ? last : line + line_bytes - 1;
    uint64_t s_lo = (lo - line) / 32, s_hi = (hi - line) / 32; /* segments s_lo..s_hi, the first 32 kept */
    if (s_lo >= 32)
        return 0;
    uint32_t upto = s_hi >= 31 ? UINT32_MAX : (2u << s_hi) - 1;
    return upto & ~((1u << s_lo) - 1);
}

uint32_t coalesce(const Winst *w, uint32_t line_bytes, CoalAccess *out)
{
    _Static_assert(COAL_MAX_ACCESSES < 255 && (COAL_TABLE & (COAL_TABLE - 1)) == 0, "a table slot holds index + 1");
    uint8_t table[COAL_TABLE] = {0};
    uint32_t n = 0, last_i = 0, bytes = w->s.access_bytes ? w->s.access_bytes : 4;
    uint64_t line_mask = ~(uint64_t)(line_bytes - 1);
    for (uint32_t m = w->active_mask; m; m &= m - 1) {
        uint64_t first = w->addr[__builtin_ctz(m)], last = first + bytes - 1;
        for (uint64_t line = first & line_mask; line <= (last & line_mask); line += line_bytes) {
            uint32_t seg = line_segments(line, line_bytes, first, last);
            uint32_t i = last_i; /* lanes of a warp mostly follow the one before into its line */
            if (i >= n || out[i].line_addr != line) {
                uint32_t h = line_hash(line);
                while (table[h] && out[table[h] - 1].line_addr != line)
                    h = (h + 1) % COAL_TABLE;
                if (!table[h]) {
                    if (n == COAL_MAX_ACCESSES)
                        break;
                    out[n] = (CoalAccess){.line_addr = line};
                    table[h] = (uint8_t)++n;
                }
                i = table[h] - 1u;
            }
            out[i].segments |= seg;
            out[i].n_lanes++;
            last_i = i;
        }
    }
    return n;
}

/* The words an access touches, at most WARP_SIZE * 4 of them (a wider access is cut there). */
#define BANK_MAX_WORDS (WARP_SIZE * 4)

/* Whether the active lanes' words are distinct but for lanes at the address of the lane before
 * them, without looking further: 4-byte aligned lanes at increasing addresses, each at least an
 * access beyond the one before or at the same one (rows, columns, any positive stride,
 * broadcasts, and groups of lanes reading one address: the usual shared-memory patterns). */
static bool distinct_words(const Winst *w, uint32_t bytes)
{
    if (bytes % 4)
        return false;
    uint64_t prev = UINT64_MAX, next = 0;
    for (uint32_t m = w->active_mask; m; m &= m - 1) {
        uint64_t a = w->addr[__builtin_ctz(m)];
        if (a == prev)
            continue;
        if (a % 4 || a < next)
            return false;
        prev = a;
        next = a + bytes;
    }
    return true;
}

uint32_t coalesce_bank_conflicts(const Winst *w, uint32_t n_banks)
{
    uint32_t bytes = w->s.access_bytes ? w->s.access_bytes : 4, n_words = 0;
    uint32_t per_bank[64] = {0}, worst = 1;
    if (distinct_words(w, bytes)) {
        uint64_t prev = UINT64_MAX;
        for (uint32_t m = w->active_mask; m; m &= m - 1) {
            uint64_t a = w->addr[__builtin_ctz(m)];
            if (a == prev)
                continue;
            prev = a;
            for (uint32_t b = 0; b < bytes && n_words < BANK_MAX_WORDS; b += 4, n_words++) {
                uint32_t k = (uint32_t)((a + b) / 4 % n_banks);
                if (++per_bank[k] > worst)
                    worst = per_bank[k];
            }
        }
        return worst;
    }
    /* Repeated words (broadcasts, overlaps) count once: a set of word + 1 (0: empty slot) by
     * open addressing, twice as large as it can get. */
    uint64_t set[2 * BANK_MAX_WORDS] = {0};
    for (uint32_t m = w->active_mask; m; m &= m - 1)
        for (uint32_t b = 0; b < bytes && n_words < BANK_MAX_WORDS; b += 4) {
            uint64_t word = (w->addr[__builtin_ctz(m)] + b) / 4;
            uint32_t h = (uint32_t)(word * 0x9E3779B97F4A7C15ull >> 56);
            while (set[h] && set[h] != word + 1)
                h = (h + 1) % (2 * BANK_MAX_WORDS);
            if (set[h])
                continue;
            set[h] = word + 1;
            n_words++;
            uint32_t k = (uint32_t)(word % n_banks);
            if (++per_bank[k] > worst)
                worst = per_bank[k];
        }
    return worst;
}
