/* host.c: PolyBench/GPU 2DCONV, a 3x3 convolution over an ni x nj float matrix.
 *
 * One launch of conv2d with 32x8 blocks on a (nj/32) x (ni/8) grid, as the original.
 *
 * Sizes:
 *   paper  ni=nj=4096: PolyBench/GPU's default, 64 MB per matrix as the CIAO table lists; the
 *          thesis (DaCache) and Linebacker also run the default.
 *   small  ni=nj=1024 (the defaults): 4096 CTAs of 8 warps, about 2.1 M warp instructions.
 *          Each load of a warp still touches one or two 128-byte lines, and rows are 4 KB apart,
 *          a multiple of the L1's 4 KB way like the paper's 16 KB, so the three input rows of
 *          a CTA map to the same L1 sets as at paper size.
 *
 * Input: uniform floats in [0, 1) from the seed. Check: every interior element against a CPU
 * convolution with the same coefficients and order (only FMA contraction can differ). */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static void conv2d_cpu(const float *a, float *b, int ni, int nj)
{
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            const float *up = a + (i - 1) * nj + j, *mid = a + i * nj + j, *down = a + (i + 1) * nj + j;
            b[i * nj + j] = 0.2f * up[-1] - 0.3f * mid[-1] + 0.4f * down[-1]
                          + 0.5f * up[0] + 0.6f * mid[0] + 0.7f * down[0]
                          - 0.8f * up[1] - 0.9f * mid[1] + 0.1f * down[1];
        }
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"ni", "nj", "seed"};
    long val[] = {1024, 1024, 1};
    wl_args(argc, argv, 3, keys, val);
    int ni = (int)val[0], nj = (int)val[1];
    if (val[0] < 3 || val[1] < 3 || (double)val[0] * val[1] > INT_MAX) { /* the kernel indexes with int */
        fprintf(stderr, "2dconv: ni and nj must be at least 3, ni * nj at most %d\n", INT_MAX);
        return 2;
    }
    size_t n = (size_t)ni * nj;

    wl_seed((uint64_t)val[2]);
    float *a = malloc(n * sizeof *a), *b = calloc(n, sizeof *b), *ref = calloc(n, sizeof *ref);
    if (!a || !b || !ref) {
        fprintf(stderr, "2dconv: out of memory\n");
        return 1;
    }
    for (size_t k = 0; k < n; k++)
        a[k] = wl_randf();

    wl_init();
    CUfunction conv = wl_kernel("conv2d");
    CUdeviceptr d_a = wl_upload(a, n * sizeof *a);
    CUdeviceptr d_b = wl_alloc(n * sizeof *b);
    wl_zero(d_b, n * sizeof *b); /* the border is never written */

    void *args[] = {&d_a, &d_b, &ni, &nj};
    wl_launch(conv, (unsigned)(nj + 31) / 32, (unsigned)(ni + 7) / 8, 1, 32, 8, 1, 0, args);
    wl_download(b, d_b, n * sizeof *b);

    conv2d_cpu(a, ref, ni, nj);
    double err = wl_max_err_f(b, ref, n);
    free(a);
    free(b);
    free(ref);
    return wl_finish("2dconv", err, 1e-4);
}
