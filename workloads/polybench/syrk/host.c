/* host.c: SYRK (C = alpha A A^T + beta C), PolyBench/GPU style: one 2-D kernel, 32 x 8 blocks,
 * a ceil(n / 32) x ceil(n / 8) grid, one thread per element of C, launched once.
 *
 * Arguments: n (C is n x n), m (A is n x m: the row length and the inner loop count), seed.
 * Sizes:
 *   small (default) n=64 m=512: A's rows stay 2 KB apart as at paper size, so the divergent
 *     load A[j][k] spreads a warp's 32 lines over 2 sets under the conventional index (16 per
 *     set, twice the ways), as the thesis reports for SYRK. A shorter m would change that
 *     (m=128: 4 lines per set, all hits). n=64 gives 2 x 8 = 16 blocks and about 0.45 M warp
 *     instructions; the run time grows with n * n * m (n=128: 64 blocks, 4x as long).
 *   paper n=512 m=512 (thesis Tables 3.2, 4.2, 5.2: 512 x 512). */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "m", "seed"};
    long val[] = {64, 512, 1};
    wl_args(argc, argv, 3, keys, val);
    /* n * n and n * m must fit the kernel's int indices */
    if (val[0] < 1 || val[1] < 1 || val[0] > 46340 || val[0] * val[1] > 0x7fffffffL) {
        fprintf(stderr, "syrk: need n >= 1, m >= 1, n * n and n * m below 2^31\n");
        return 2;
    }
    int n = (int)val[0], m = (int)val[1];
    size_t nn = (size_t)n * n, nm = (size_t)n * m;
    float alpha = 1.5f, beta = 1.2f;

    wl_seed((uint64_t)val[2]);
    float *a = malloc(nm * sizeof *a), *c = malloc(nn * sizeof *c);
    float *got = malloc(nn * sizeof *got), *want = malloc(nn * sizeof *want);
    if (!a || !c || !got || !want) {
        fprintf(stderr, "syrk: out of memory\n");
        return 1;
    }
    for (size_t e = 0; e < nm; e++)
        a[e] = wl_randf();
    for (size_t e = 0; e < nn; e++)
        c[e] = wl_randf();

    wl_init();
    CUfunction k = wl_kernel("syrk_kernel");
    CUdeviceptr d_a = wl_upload(a, nm * sizeof *a), d_c = wl_upload(c, nn * sizeof *c);
    void *args[] = {&n, &m, &alpha, &beta, &d_a, &d_c};
    wl_launch(k, (unsigned)(n + 31) / 32, (unsigned)(n + 7) / 8, 1, 32, 8, 1, 0, args);
    wl_download(got, d_c, nn * sizeof *got);

    /* CPU reference in double */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k2 = 0; k2 < m; k2++)
                s += (double)a[(size_t)i * m + k2] * a[(size_t)j * m + k2];
            want[(size_t)i * n + j] = (float)(beta * (double)c[(size_t)i * n + j] + alpha * s);
        }

    double err = wl_max_err_f(got, want, nn);
    free(a), free(c), free(got), free(want);
    return wl_finish("syrk", err, 1e-3);
}
