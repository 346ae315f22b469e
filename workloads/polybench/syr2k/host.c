/* host.c: SYR2K (C = alpha A B^T + alpha B A^T + beta C), PolyBench/GPU style: one 2-D kernel,
 * 32 x 8 blocks, a ceil(n / 32) x ceil(n / 8) grid, one thread per element of C, launched once.
 *
 * Arguments: n (C is n x n), m (A and B are n x m: the row length and the inner loop count),
 * seed. Sizes:
 *   small (default) n=64 m=256: A's and B's rows stay 1 KB apart as at paper size, so each
 *     divergent load (A[j][k], B[j][k]) spreads a warp's 32 lines over 4 sets under the
 *     conventional index, as the thesis reports for SYR2K. n=64 gives 2 x 8 = 16 blocks and
 *     about 0.42 M warp instructions; the run time grows with n * n * m (n=128: 64 blocks,
 *     4x as long).
 *   paper n=256 m=256 (thesis Tables 3.2, 4.2, 5.2: 256 x 256; CIAO Table II's 48 MB is
 *     n=m=2048). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int n, m;
    pb_args_nm(argc, argv, "syr2k", 64, 256, &n, &m);
    size_t nn = (size_t)n * n, nm = (size_t)n * m;
    float alpha = 1.5f, beta = 1.2f;

    float *a = pb_alloc(nm, sizeof(float)), *b = pb_alloc(nm, sizeof(float));
    float *c = pb_alloc(nn, sizeof(float));
    float *got = pb_alloc(nn, sizeof(float)), *want = pb_alloc(nn, sizeof(float));
    for (size_t e = 0; e < nm; e++) {
        a[e] = wl_randf();
        b[e] = wl_randf();
    }
    for (size_t e = 0; e < nn; e++)
        c[e] = wl_randf();

    wl_init();
    CUfunction k = wl_kernel("syr2k_kernel");
    CUdeviceptr d_a = wl_upload(a, nm * sizeof *a), d_b = wl_upload(b, nm * sizeof *b);
    CUdeviceptr d_c = wl_upload(c, nn * sizeof *c);
    void *args[] = {&n, &m, &alpha, &beta, &d_a, &d_b, &d_c};
    pb_launch_2d(k, n, n, args);
    wl_download(got, d_c, nn * sizeof *got);

    pb_syrk_ref(n, m, alpha, beta, a, b, c, want);

    double err = wl_max_err_f(got, want, nn);
    free(a), free(b), free(c), free(got), free(want);
    return wl_finish("syr2k", err, 1e-3);
}
