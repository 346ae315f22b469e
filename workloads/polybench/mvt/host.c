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

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "seed"};
    long val[] = {1024, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 46340) { /* n * n must fit the kernels' int indices */
        fprintf(stderr, "mvt: n must be in 1..46340\n");
        return 2;
    }
    int n = (int)val[0];
    size_t nn = (size_t)n * n;

    wl_seed((uint64_t)val[1]);
    float *a = malloc(nn * sizeof *a);
    float *x1 = malloc(n * sizeof *x1), *x2 = malloc(n * sizeof *x2);
    float *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
    float *got = malloc(2 * n * sizeof *got), *want = malloc(2 * n * sizeof *want); /* x1 then x2 */
    double *acc = malloc(n * sizeof *acc);
    if (!a || !x1 || !x2 || !y1 || !y2 || !got || !want || !acc) {
        fprintf(stderr, "mvt: out of memory\n");
        return 1;
    }
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
    unsigned blocks = (unsigned)(n + 255) / 256;
    void *args1[] = {&n, &d_a, &d_x1, &d_y1};
    wl_launch(k1, blocks, 1, 1, 256, 1, 1, 0, args1);
    void *args2[] = {&n, &d_a, &d_x2, &d_y2};
    wl_launch(k2, blocks, 1, 1, 256, 1, 1, 0, args2);
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
