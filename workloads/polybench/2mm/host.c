/* host.c: 2MM (C = A B, then E = C D), PolyBench/GPU style: two 2-D kernels, 32 x 8 blocks,
 * a ceil(n / 32) x ceil(n / 8) grid each, one thread per output element, launched once each
 * in order. All matrices are n x n (PolyBench's ni = nj = nk = nl).
 *
 * Arguments: n, seed. Sizes:
 *   small (default) n=128: 4 x 16 = 64 blocks per kernel, about 0.9 M warp instructions; the
 *     access pattern (one address per warp for the left operand, coalesced rows of the right
 *     one) does not depend on n.
 *   paper n=2048 (thesis Tables 4.2, 5.2: "default", PolyBench/GPU 1.0's 2048). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

/* out (n x n) = left * right in double, from float inputs */
static void matmul_ref(int n, const float *left, const float *right, double *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)left[(size_t)i * n + k] * right[(size_t)k * n + j];
            out[(size_t)i * n + j] = s;
        }
}

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "2mm", 128);
    size_t nn = (size_t)n * n, bytes = nn * sizeof(float);

    float *a = pb_alloc(nn, sizeof(float)), *b = pb_alloc(nn, sizeof(float)), *d = pb_alloc(nn, sizeof(float));
    float *c = pb_alloc(nn, sizeof(float)), *e = pb_alloc(nn, sizeof(float)), *want = pb_alloc(nn, sizeof(float));
    double *ref = pb_alloc(nn, sizeof *ref);
    for (size_t x = 0; x < nn; x++) {
        a[x] = wl_randf();
        b[x] = wl_randf();
        d[x] = wl_randf();
    }

    wl_init();
    CUfunction k1 = wl_kernel("mm2_kernel1"), k2 = wl_kernel("mm2_kernel2");
    CUdeviceptr d_a = wl_upload(a, bytes), d_b = wl_upload(b, bytes), d_d = wl_upload(d, bytes);
    CUdeviceptr d_c = wl_alloc(bytes), d_e = wl_alloc(bytes);
    wl_zero(d_c, bytes); /* the kernels accumulate into their outputs */
    wl_zero(d_e, bytes);
    void *args1[] = {&n, &n, &n, &d_a, &d_b, &d_c};
    pb_launch_2d(k1, n, n, args1);
    void *args2[] = {&n, &n, &n, &d_c, &d_d, &d_e};
    pb_launch_2d(k2, n, n, args2);
    wl_download(e, d_e, bytes);

    /* CPU reference: C in double, rounded to float as the GPU holds it, then E */
    matmul_ref(n, a, b, ref);
    for (size_t x = 0; x < nn; x++)
        c[x] = (float)ref[x];
    matmul_ref(n, c, d, ref);
    for (size_t x = 0; x < nn; x++)
        want[x] = (float)ref[x];

    double err = wl_max_err_f(e, want, nn);
    free(a), free(b), free(c), free(d), free(e), free(want), free(ref);
    return wl_finish("2mm", err, 1e-3);
}
