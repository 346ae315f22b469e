/* test_cuda_ptxgaps.c: tests/cudart/ptxgaps (nvcc 13), the PTX of small CUDA features (warpSize,
 * __match_any_sync / __match_all_sync, bmsk, half and half2 arithmetic, CUB's block reduce and
 * scan, __syncthreads_count / _and / _or), checked against the CPU by the program itself, functionally and on the timing model.
 * Device printf and assert have their own programs (test_hostile.c). */
#include "../test.h"

#include "../cuda_exec.h"

TEST(cuda_ptxgaps_program)
{
    if (!have_library())
        return;
    static char out[16384];
    const char *modes[] = {"--functional --quiet", "--quiet"};
    for (int m = 0; m < 2; m++) {
        EXPECT_EQ_I(run_prog("tests/cudart/bin", "ptxgaps", modes[m], out, sizeof out), 0);
        EXPECT_CONTAINS(out, "ptxgaps: warp ops, 3300 half ops, CUB reduce and scan, 72 barrier reductions: 0 mismatches");
    }
}
