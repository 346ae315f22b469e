/* host.c: BICG (s = A^T r, q = A p), PolyBench/GPU style: kernel 1 (s, thread j walks column
 * j, coalesced) then kernel 2 (q, thread i walks row i, memory-divergent), both 1-D with
 * 256-thread blocks and ceil(n / 256) blocks, launched once each.
 *
 * Arguments: n (A is n x n), seed. Sizes:
 *   small (default) n=1024: A's rows are 4 KB apart, a multiple of the 32-set x 128 B L1D
 *     span, so a warp's 32 row loads fall into one set under the conventional index, exactly
 *     as at paper size. Only 4 blocks per kernel (the application's own block count at this
 *     n), about 0.39 M warp instructions. n=512 runs 4x shorter but puts the 32 lines in
 *     two sets.
 *   paper n=8192 (thesis Tables 3.2, 4.2, 5.2; CIAO Table II uses 4096). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "bicg", 1024);
    size_t nn = (size_t)n * n;

    float *a = pb_alloc(nn, sizeof *a), *r = pb_alloc(n, sizeof *r), *p = pb_alloc(n, sizeof *p);
    float *got = pb_alloc(2 * n, sizeof *got), *want = pb_alloc(2 * n, sizeof *want); /* s then q */
    double *acc = pb_alloc(n, sizeof *acc);
    for (size_t e = 0; e < nn; e++)
        a[e] = wl_randf();
    for (int i = 0; i < n; i++) {
        r[i] = wl_randf();
        p[i] = wl_randf();
    }

    wl_init();
    CUfunction k1 = wl_kernel("bicg_kernel1"), k2 = wl_kernel("bicg_kernel2");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof *a);
    CUdeviceptr d_r = wl_upload(r, n * sizeof *r), d_p = wl_upload(p, n * sizeof *p);
    CUdeviceptr d_s = wl_alloc(n * sizeof(float)), d_q = wl_alloc(n * sizeof(float));
    void *args1[] = {&n, &n, &d_a, &d_r, &d_s};
    pb_launch_1d(k1, n, args1);
    void *args2[] = {&n, &n, &d_a, &d_p, &d_q};
    pb_launch_1d(k2, n, args2);
    wl_download(got, d_s, n * sizeof(float));
    wl_download(got + n, d_q, n * sizeof(float));

    /* CPU reference in double */
    for (int j = 0; j < n; j++)
        acc[j] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            acc[j] += (double)r[i] * a[(size_t)i * n + j];
    for (int j = 0; j < n; j++)
        want[j] = (float)acc[j];
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += (double)a[(size_t)i * n + j] * p[j];
        want[n + i] = (float)s;
    }

    double err = wl_max_err_f(got, want, 2 * (size_t)n);
    free(a), free(r), free(p), free(got), free(want), free(acc);
    return wl_finish("bicg", err, 1e-3);
}
