/* host.c: ATAX (y = A^T (A x)), PolyBench/GPU style: kernel 1 (tmp = A x, thread i walks row i,
 * memory-divergent) then kernel 2 (y = A^T tmp, thread j walks column j, coalesced), both
 * 1-D with 256-thread blocks and ceil(n / 256) blocks, launched once each.
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
    int n = pb_args_n(argc, argv, "atax", 1024);
    size_t nn = (size_t)n * n;

    float *a = pb_alloc(nn, sizeof *a), *x = pb_alloc(n, sizeof *x);
    float *y = pb_alloc(n, sizeof *y), *want = pb_alloc(n, sizeof *want);
    double *tmp = pb_alloc(n, sizeof *tmp), *acc = pb_alloc(n, sizeof *acc);
    for (size_t e = 0; e < nn; e++)
        a[e] = wl_randf();
    for (int j = 0; j < n; j++)
        x[j] = wl_randf();

    wl_init();
    CUfunction k1 = wl_kernel("atax_kernel1"), k2 = wl_kernel("atax_kernel2");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof *a), d_x = wl_upload(x, n * sizeof *x);
    CUdeviceptr d_y = wl_alloc(n * sizeof *y), d_tmp = wl_alloc(n * sizeof(float));
    void *args1[] = {&n, &n, &d_a, &d_x, &d_tmp};
    pb_launch_1d(k1, n, args1);
    void *args2[] = {&n, &n, &d_a, &d_y, &d_tmp};
    pb_launch_1d(k2, n, args2);
    wl_download(y, d_y, n * sizeof *y);

    /* CPU reference in double: tmp = A x, y = A^T tmp */
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += (double)a[(size_t)i * n + j] * x[j];
        tmp[i] = s;
    }
    for (int j = 0; j < n; j++)
        acc[j] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            acc[j] += (double)a[(size_t)i * n + j] * tmp[i];
    for (int j = 0; j < n; j++)
        want[j] = (float)acc[j];

    double err = wl_max_err_f(y, want, n);
    free(a), free(x), free(y), free(want), free(tmp), free(acc);
    return wl_finish("atax", err, 1e-3);
}
