/* host.c: MVT (x1 += A y1, x2 += A^T y2), PolyBench/GPU style: kernel 1 (thread i walks row i,
 * memory-divergent) then kernel 2 (thread i walks column i, coalesced), both 1-D with
 * 256-thread blocks and ceil(n / 256) blocks, launched once each.
 *
 * Arguments: n (A is n x n), seed. Sizes:
 *   small (default) n=1024: A's rows are 4 KB apart, a multiple of the 32-set x 128 B L1D
 *     span, so a warp's 32 row loads fall into one set under the conventional index, exactly
 *     as at paper size. Only 4 blocks per kernel (the application's own block count at this
 *     n), about 0.39 M warp instructions. n=512 runs 4x shorter but puts the 32 lines in
 *     two sets.
 *   paper n=8192 (thesis Tables 3.2, 4.2, 5.2: "8K"; CIAO Table II uses 4096). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "mvt", 1024);
    size_t nn = (size_t)n * n;

    float *a = pb_alloc(nn, sizeof *a);
    float *x1 = pb_alloc(n, sizeof *x1), *x2 = pb_alloc(n, sizeof *x2);
    float *y1 = pb_alloc(n, sizeof *y1), *y2 = pb_alloc(n, sizeof *y2);
    float *got = pb_alloc(2 * n, sizeof *got), *want = pb_alloc(2 * n, sizeof *want); /* x1 then x2 */
    double *acc = pb_alloc(n, sizeof *acc);
    for (size_t e = 0; e < nn; e++)
        a[e] = wl_randf();
    for (int i = 0; i < n; i++) {
        x1[i] = wl_randf();
        x2[i] = wl_randf();
        y1[i] = wl_randf();
        y2[i] = wl_randf();
    }

    wl_init();
    CUfunction k1 = wl_kernel("mvt_kernel1"), k2 = wl_kernel("mvt_kernel2");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof *a);
    CUdeviceptr d_x1 = wl_upload(x1, n * sizeof *x1), d_x2 = wl_upload(x2, n * sizeof *x2);
    CUdeviceptr d_y1 = wl_upload(y1, n * sizeof *y1), d_y2 = wl_upload(y2, n * sizeof *y2);
    void *args1[] = {&n, &d_a, &d_x1, &d_y1};
    pb_launch_1d(k1, n, args1);
    void *args2[] = {&n, &d_a, &d_x2, &d_y2};
    pb_launch_1d(k2, n, args2);
    wl_download(got, d_x1, n * sizeof(float));
    wl_download(got + n, d_x2, n * sizeof(float));

    /* CPU reference in double */
    for (int i = 0; i < n; i++) {
        double s = x1[i];
        for (int j = 0; j < n; j++)
            s += (double)a[(size_t)i * n + j] * y1[j];
        want[i] = (float)s;
    }
    for (int i = 0; i < n; i++)
        acc[i] = x2[i];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            acc[i] += (double)a[(size_t)j * n + i] * y2[j];
    for (int i = 0; i < n; i++)
        want[n + i] = (float)acc[i];

    double err = wl_max_err_f(got, want, 2 * (size_t)n);
    free(a), free(x1), free(x2), free(y1), free(y2), free(got), free(want), free(acc);
    return wl_finish("mvt", err, 1e-3);
}
