/* host.c: 3MM (E = A B, F = C D, G = E F), PolyBench/GPU style: three 2-D kernels, 32 x 8
 * blocks, a ceil(n / 32) x ceil(n / 8) grid each, one thread per output element, launched
 * once each in order. All matrices are n x n (PolyBench's ni = nj = nk = nl = nm).
 *
 * Arguments: n, seed. Sizes:
 *   small (default) n=128: 4 x 16 = 64 blocks per kernel, about 1.3 M warp instructions; the
 *     access pattern (one address per warp for the left operand, coalesced rows of the right
 *     one) does not depend on n.
 *   paper n=512 (thesis Tables 4.2, 5.2: "default", PolyBench/GPU 1.0's 512). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

/* out (n x n) = left * right, accumulated in double and rounded to float */
static void matmul_ref(int n, const float *left, const float *right, float *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)left[(size_t)i * n + k] * right[(size_t)k * n + j];
            out[(size_t)i * n + j] = (float)s;
        }
}

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "3mm", 128);
    size_t nn = (size_t)n * n, bytes = nn * sizeof(float);

    float *a = pb_alloc(nn, sizeof(float)), *b = pb_alloc(nn, sizeof(float));
    float *c = pb_alloc(nn, sizeof(float)), *d = pb_alloc(nn, sizeof(float));
    float *e = pb_alloc(nn, sizeof(float)), *f = pb_alloc(nn, sizeof(float));
    float *g = pb_alloc(nn, sizeof(float)), *want = pb_alloc(nn, sizeof(float));
    for (size_t x = 0; x < nn; x++) {
        a[x] = wl_randf();
        b[x] = wl_randf();
        c[x] = wl_randf();
        d[x] = wl_randf();
    }

    wl_init();
    CUfunction k1 = wl_kernel("mm3_kernel1"), k2 = wl_kernel("mm3_kernel2"), k3 = wl_kernel("mm3_kernel3");
    CUdeviceptr d_a = wl_upload(a, bytes), d_b = wl_upload(b, bytes);
    CUdeviceptr d_c = wl_upload(c, bytes), d_d = wl_upload(d, bytes);
    CUdeviceptr d_e = wl_alloc(bytes), d_f = wl_alloc(bytes), d_g = wl_alloc(bytes);
    wl_zero(d_e, bytes); /* the kernels accumulate into their outputs */
    wl_zero(d_f, bytes);
    wl_zero(d_g, bytes);
    void *args1[] = {&n, &n, &n, &d_a, &d_b, &d_e};
    pb_launch_2d(k1, n, n, args1);
    void *args2[] = {&n, &n, &n, &d_c, &d_d, &d_f};
    pb_launch_2d(k2, n, n, args2);
    void *args3[] = {&n, &n, &n, &d_e, &d_f, &d_g};
    pb_launch_2d(k3, n, n, args3);
    wl_download(g, d_g, bytes);

    /* CPU reference: E and F rounded to float as the GPU holds them, then G */
    matmul_ref(n, a, b, e);
    matmul_ref(n, c, d, f);
    matmul_ref(n, e, f, want);

    double err = wl_max_err_f(g, want, nn);
    free(a), free(b), free(c), free(d), free(e), free(f), free(g), free(want);
    return wl_finish("3mm", err, 1e-3);
}
