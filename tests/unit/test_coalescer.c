/* test_coalescer.c: Fermi coalescing into 128-byte lines and shared-memory bank conflicts. */
#include "../test.h"

#include "base/base.h"
#include "core/coalescer.h"

static void strided(Winst *w, uint64_t base, uint64_t stride, uint8_t bytes)
{
    memset(w, 0, sizeof *w);
    w->s.op = WOP_LOAD;
    w->s.space = WSPACE_GLOBAL;
    w->s.access_bytes = bytes;
    w->active_mask = 0xFFFFFFFFu;
    for (int l = 0; l < WARP_SIZE; l++)
        w->addr[l] = base + (uint64_t)l * stride;
}

TEST(coalescer_lines_and_segments)
{
    Winst w;
    CoalAccess acc[COAL_MAX_ACCESSES];
    strided(&w, 0x1000, 4, 4); /* 32 consecutive floats: one line, all four segments */
    EXPECT_EQ_U(coalesce(&w, 128, acc), 1);
    EXPECT_EQ_U(acc[0].line_addr, 0x1000);
    EXPECT_EQ_U(acc[0].segments, 0xF);
    EXPECT_EQ_U(acc[0].n_lanes, 32);
    strided(&w, 0x1040, 4, 4); /* misaligned by half a line: two lines */
    EXPECT_EQ_U(coalesce(&w, 128, acc), 2);
    EXPECT_EQ_U(acc[0].segments, 0xC);
    EXPECT_EQ_U(acc[1].segments, 0x3);
    strided(&w, 0, 4096, 4); /* the divergent column walk: 32 lines */
    EXPECT_EQ_U(coalesce(&w, 128, acc), 32);
    EXPECT_EQ_U(acc[31].line_addr, 31 * 4096);
    strided(&w, 0, 0, 4); /* every lane the same word */
    EXPECT_EQ_U(coalesce(&w, 128, acc), 1);
    w.active_mask = 0;
    EXPECT_EQ_U(coalesce(&w, 128, acc), 0);
}

TEST(coalescer_bank_conflicts)
{
    Winst w;
    strided(&w, 0, 4, 4); /* consecutive words: 32 banks, no conflict */
    EXPECT_EQ_U(coalesce_bank_conflicts(&w, 32), 1);
    strided(&w, 0, 8, 4); /* stride 2 words: two lanes per bank */
    EXPECT_EQ_U(coalesce_bank_conflicts(&w, 32), 2);
    strided(&w, 0, 128, 4); /* stride 32 words: all in bank 0 */
    EXPECT_EQ_U(coalesce_bank_conflicts(&w, 32), 32);
    strided(&w, 0, 0, 4); /* broadcast */
    EXPECT_EQ_U(coalesce_bank_conflicts(&w, 32), 1);
}

/* Brute force: distinct words (at most WARP_SIZE * 4, as the simulator counts them), the most in
 * one bank. */
static uint32_t conflicts_reference(const Winst *w, uint32_t n_banks)
{
    uint64_t words[WARP_SIZE * 4];
    uint32_t n = 0, bytes = w->s.access_bytes ? w->s.access_bytes : 4, per_bank[64] = {0}, worst = 1;
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
        for (uint32_t b = 0; (w->active_mask >> lane & 1) && b < bytes && n < WARP_SIZE * 4; b += 4) {
            uint64_t word = (w->addr[lane] + b) / 4;
            bool seen = false;
            for (uint32_t i = 0; i < n && !seen; i++)
                seen = words[i] == word;
            if (!seen)
                words[n++] = word;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = ++per_bank[words[i] % n_banks];
        worst = MAX(worst, c);
    }
    return worst;
}

/* The fast paths (distinct words without a search; a hash set otherwise) against brute force on
 * strided, broadcast, overlapping, unaligned, wide and random accesses under random masks. */
TEST(coalescer_bank_conflicts_match_brute_force)
{
    uint64_t x = 12345;
    Winst w;
    static const uint8_t sizes[] = {1, 2, 4, 8, 12, 16, 32};
    static const uint64_t strides[] = {0, 1, 2, 4, 8, 12, 16, 36, 128, 132, 4096};
    uint32_t checked = 0, conflicted = 0;
    for (int iter = 0; iter < 4000; iter++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint8_t bytes = sizes[(x >> 33) % 7];
        strided(&w, (x >> 20) % 4096 & ~(uint64_t)((x >> 60) & 1 ? 0 : 3), strides[(x >> 40) % 11], bytes);
        if ((x >> 50) % 3 == 0)
            w.active_mask = (uint32_t)(x >> 7) | 1;
        if ((x >> 52) % 5 == 0) /* random addresses, some repeated */
            for (int l = 0; l < WARP_SIZE; l++)
                w.addr[l] = ((x >> (l % 40)) * (uint64_t)(l + 3)) % 512 & ~3ull;
        if ((x >> 58) % 3 == 0) /* groups of 2, 4 or 16 lanes on one address */
            for (int l = 0; l < WARP_SIZE; l++)
                w.addr[l] = w.addr[l / (2 << ((x >> 5) % 3 * 2 % 5)) * (2 << ((x >> 5) % 3 * 2 % 5))];
        if ((x >> 55) % 7 == 0)
            w.addr[(x >> 3) % WARP_SIZE] = w.addr[(x >> 9) % WARP_SIZE]; /* an overlap */
        for (uint32_t banks = 16; banks <= 32; banks *= 2) {
            uint32_t got = coalesce_bank_conflicts(&w, banks), want = conflicts_reference(&w, banks);
            if (got != want)
                printf("  access %u bytes, mask %08x, lane 0 at %llu, %u banks: %u, expected %u\n", bytes,
                       w.active_mask, (unsigned long long)w.addr[0], banks, got, want);
            EXPECT_EQ_U(got, want);
            checked++;
            conflicted += want > 1;
        }
    }
    EXPECT_EQ_U(checked, 8000);
    EXPECT(conflicted > 1000); /* the cases are not all conflict-free */
}

/* coalesce as a linear search finds each line: the reference for the hashed look-up. */
static uint32_t coalesce_reference(const Winst *w, uint32_t line_bytes, CoalAccess *out)
{
    uint32_t n = 0, bytes = w->s.access_bytes ? w->s.access_bytes : 4;
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        if (!(w->active_mask >> lane & 1))
            continue;
        uint64_t first = w->addr[lane], last = first + bytes - 1;
        for (uint64_t line = first / line_bytes * line_bytes; line <= last / line_bytes * line_bytes; line += line_bytes) {
            uint32_t seg = 0;
            for (uint64_t b = MAX(first, line); b <= MIN(last, line + line_bytes - 1); b++)
                if ((b - line) / 32 < 32)
                    seg |= 1u << ((b - line) / 32);
            uint32_t i = 0;
            while (i < n && out[i].line_addr != line)
                i++;
            if (i == n) {
                if (n == COAL_MAX_ACCESSES)
                    break;
                out[n++] = (CoalAccess){.line_addr = line};
            }
            out[i].segments |= seg;
            out[i].n_lanes++;
        }
    }
    return n;
}

TEST(coalescer_lines_match_brute_force)
{
    uint64_t x = 777;
    Winst w;
    static const uint8_t sizes[] = {1, 4, 8, 16, 100, 255};
    static const uint64_t strides[] = {0, 4, 8, 64, 128, 132, 4096, 4100};
    uint32_t checked = 0, capped = 0, many = 0;
    for (int iter = 0; iter < 3000; iter++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint8_t bytes = sizes[(x >> 33) % 6];
        strided(&w, (x >> 20) % 100000, strides[(x >> 40) % 8], bytes);
        if ((x >> 50) % 3 == 0)
            w.active_mask = (uint32_t)(x >> 7) | 1;
        if ((x >> 52) % 4 == 0) /* scattered lanes, some on one line, some lines hashing alike */
            for (int l = 0; l < WARP_SIZE; l++)
                w.addr[l] = ((x >> (l % 40)) * (uint64_t)(l + 3)) % 8 * 0x10000 + (x >> l % 20) % 3 * 128 + l;
        uint32_t line_bytes = (x >> 60) % 3 == 0 ? 2048 : (x >> 60) & 1 ? 128 : 32; /* 2048: segments past the 32nd */
        CoalAccess got[COAL_MAX_ACCESSES], want[COAL_MAX_ACCESSES];
        uint32_t n = coalesce(&w, line_bytes, got), n_want = coalesce_reference(&w, line_bytes, want);
        EXPECT_EQ_U(n, n_want);
        for (uint32_t i = 0; i < n && i < n_want; i++) {
            EXPECT_EQ_U(got[i].line_addr, want[i].line_addr);
            EXPECT_EQ_U(got[i].segments, want[i].segments);
            EXPECT_EQ_U(got[i].n_lanes, want[i].n_lanes);
        }
        checked++;
        capped += n == COAL_MAX_ACCESSES;
        many += n > 8;
    }
    EXPECT_EQ_U(checked, 3000);
    EXPECT(capped > 50 && many > 500); /* the cap and scattered warps are among the cases */
}
