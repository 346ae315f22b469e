/* test_coalescer.c: Fermi coalescing into 128-byte lines and shared-memory bank conflicts. */
#include "../test.h"

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
