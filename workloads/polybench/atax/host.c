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

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "seed"};
    long val[] = {1024, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 46340) { /* n * n must fit the kernels' int indices */
        fprintf(stderr, "atax: n must be in 1..46340\n");
        return 2;
    }
    int n = (int)val[0];
    size_t nn = (size_t)n * n;

    wl_seed((uint64_t)val[1]);
    float *a = malloc(nn * sizeof *a), *x = malloc(n * sizeof *x);
    float *y = malloc(n * sizeof *y), *want = malloc(n * sizeof *want);
    double *tmp = malloc(n * sizeof *tmp), *acc = malloc(n * sizeof *acc);
    if (!a || !x || !y || !want || !tmp || !acc) {
        fprintf(stderr, "atax: out of memory\n");
        return 1;
    }
    for (size_t e = 0; e < nn; e++)
        a[e] = wl_randf();
    for (int j = 0; j < n; j++)
        x[j] = wl_randf();

    wl_init();
    CUfunction k1 = wl_kernel("atax_kernel1"), k2 = wl_kernel("atax_kernel2");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof *a), d_x = wl_upload(x, n * sizeof *x);
    CUdeviceptr d_y = wl_alloc(n * sizeof *y), d_tmp = wl_alloc(n * sizeof(float));
    unsigned blocks = (unsigned)(n + 255) / 256;
    void *args1[] = {&n, &n, &d_a, &d_x, &d_tmp};
    wl_launch(k1, blocks, 1, 1, 256, 1, 1, 0, args1);
    void *args2[] = {&n, &n, &d_a, &d_y, &d_tmp};
    wl_launch(k2, blocks, 1, 1, 256, 1, 1, 0, args2);
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
