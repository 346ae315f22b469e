/* test_linebacker.c: Linebacker (seeds/004): the register file's idle space (SUR, DUR). */
#include "../test.h"

#include "core/regfile.h"

/* The gtx980 file: 65536 registers = 2048 warp registers; CTAs of 256 threads x 24 registers
 * take 8 warps x 768 = 6144 registers = 192 warp registers each, first fit from RN 0. */
TEST(linebacker_regfile_sur_dur_and_lrn)
{
    Regfile rf;
    regfile_init(&rf, 65536, 32);
    EXPECT_EQ_U(rf.n_wregs, 2048);
    EXPECT_EQ_U(regfile_warp_regs(6144), 192);
    EXPECT_EQ_U(regfile_alloc(&rf, 0, 192, 0), 0);
    EXPECT_EQ_U(regfile_alloc(&rf, 1, 192, 0), 192);
    EXPECT_EQ_U(regfile_alloc(&rf, 2, 192, 0), 384);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 576);
    EXPECT_EQ_U(regfile_dur(&rf), 0);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 576);
    EXPECT(!regfile_range_idle(&rf, 575, 1));
    EXPECT(regfile_range_idle(&rf, 576, 2048 - 576));
    EXPECT(!regfile_range_idle(&rf, 576, 2048 - 575)); /* leaves the file */
    /* throttling the last CTA: its registers become DUR, LRN drops to CTA 1's last */
    regfile_set_active(&rf, 2, false, 100);
    EXPECT_EQ_U(regfile_dur(&rf), 192);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 576);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 384);
    EXPECT(regfile_range_idle(&rf, 384, 192));
    RegfileView v = regfile_view(&rf, 100);
    EXPECT(regfile_view_idle(&v, 384) && !regfile_view_idle(&v, 383) && !regfile_view_idle(&v, 2048));
    EXPECT_EQ_U(v.sur + v.dur, 2048 - 384);
    /* CTA 0 completes: a hole at 0 that the next CTA of the same size takes */
    regfile_release(&rf, 0, 300);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 384);
    EXPECT_EQ_U(regfile_alloc(&rf, 0, 192, 300), 0);
    regfile_set_active(&rf, 2, true, 400);
    EXPECT_EQ_U(regfile_dur(&rf), 0);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 576);
    /* the integrals: 1472 SUR for 300 cycles, 1664 for 0..100 cycles more ... */
    regfile_kernel_end(&rf, 500);
    /* SUR: 1472 x [0,300) + 1664 x [300,300) + 1472 x [300,500) = 1472 x 500;
     * DUR: 192 x [100,400) */
    EXPECT_EQ_U(rf.sur_cycles, 1472ull * 500);
    EXPECT_EQ_U(rf.dur_cycles, 192ull * 300);
    EXPECT_EQ_U(rf.cycles, 500);
    regfile_free(&rf);
}
