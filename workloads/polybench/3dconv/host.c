/* host.c: PolyBench/GPU 3DCONV, a 3-D stencil over an ni x nj x nk float volume (k contiguous).
 *
 * As the original, the host loops over the interior planes i = 1 .. ni-2 and launches
 * conv3d_plane once per plane, with 32x8 blocks on an (nk/32) x (nj/8) grid.
 *
 * Sizes:
 *   paper  ni=nj=nk=256: PolyBench/GPU's default (the thesis' DaCache and OAWS tables list
 *          "default"): 254 launches of 256 CTAs.
 *   small  ni=34 nj=64 nk=256 (the defaults): 32 launches of 64 CTAs, about 1.8 M warp
 *          instructions. Fewer planes cut the launch count and fewer rows the CTAs a launch;
 *          rows keep the paper's 1 KB length, so a warp's loads and their L1 sets are the
 *          paper's, and planes (64 KB) stay a multiple of the L1's 4 KB way as the paper's
 *          256 KB are.
 *
 * Input: uniform floats in [0, 1) from the seed. Check: every interior element against a CPU
 * version with the same terms and order. */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static void conv3d_cpu(const float *a, float *b, int ni, int nj, int nk)
{
    size_t plane = (size_t)nj * nk;
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            for (int k = 1; k < nk - 1; k++) {
#define A(di, dj, dk) a[(i + (di)) * plane + (size_t)(j + (dj)) * nk + (k + (dk))]
                b[i * plane + (size_t)j * nk + k] = 2.0f * A(-1, -1, -1) + 4.0f * A(1, -1, -1)
                                                  + 5.0f * A(-1, -1, -1) + 7.0f * A(1, -1, -1)
                                                  - 8.0f * A(-1, -1, -1) + 10.0f * A(1, -1, -1)
                                                  - 3.0f * A(0, -1, 0) + 6.0f * A(0, 0, 0)
                                                  - 9.0f * A(0, 1, 0) + 2.0f * A(-1, -1, 1)
                                                  + 4.0f * A(1, -1, 1) + 5.0f * A(-1, 0, 1)
                                                  + 7.0f * A(1, 0, 1) - 8.0f * A(-1, 1, 1)
                                                  + 10.0f * A(1, 1, 1);
#undef A
            }
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"ni", "nj", "nk", "seed"};
    long val[] = {34, 64, 256, 1};
    wl_args(argc, argv, 4, keys, val);
    int ni = (int)val[0], nj = (int)val[1], nk = (int)val[2];
    if (val[0] < 3 || val[1] < 3 || val[2] < 3 || (double)val[0] * val[1] * val[2] > INT_MAX) {
        fprintf(stderr, "3dconv: ni, nj and nk must be at least 3, their product at most %d\n", INT_MAX);
        return 2;
    }
    size_t n = (size_t)ni * nj * nk;

    wl_seed((uint64_t)val[3]);
    float *a = malloc(n * sizeof *a), *b = calloc(n, sizeof *b), *ref = calloc(n, sizeof *ref);
    if (!a || !b || !ref) {
        fprintf(stderr, "3dconv: out of memory\n");
        return 1;
    }
    for (size_t x = 0; x < n; x++)
        a[x] = wl_randf();

    wl_init();
    CUfunction conv = wl_kernel("conv3d_plane");
    CUdeviceptr d_a = wl_upload(a, n * sizeof *a);
    CUdeviceptr d_b = wl_alloc(n * sizeof *b);
    wl_zero(d_b, n * sizeof *b); /* the faces are never written */

    for (int i = 1; i < ni - 1; i++) {
        void *args[] = {&d_a, &d_b, &ni, &nj, &nk, &i};
        wl_launch(conv, (unsigned)(nk + 31) / 32, (unsigned)(nj + 7) / 8, 1, 32, 8, 1, 0, args);
    }
    wl_download(b, d_b, n * sizeof *b);

    conv3d_cpu(a, ref, ni, nj, nk);
    double err = wl_max_err_f(b, ref, n);
    free(a);
    free(b);
    free(ref);
    return wl_finish("3dconv", err, 1e-4);
}
