/* host.c: Gram-Schmidt QR (A = Q R), PolyBench/GPU style: for each column k the host launches
 * kernel 1 (one 256-thread block; thread 0 computes R[k][k], the norm of column k), kernel 2
 * (Q's column k) and kernel 3 (project the later columns on q_k and subtract), the last two
 * with 256-thread blocks and ceil(n / 256) blocks: 3 n launches in all. A, Q and R are n x n
 * (PolyBench's ni = nj).
 *
 * The input is uniform in [0, 1) plus n/4 on the diagonal: PolyBench's own initialisation is
 * rank one, and a well-conditioned matrix keeps the float results comparable with the
 * double-precision reference. The check covers A (overwritten with the orthogonal
 * residuals), Q and R's upper triangle.
 *
 * Arguments: n, seed. Sizes:
 *   small (default) n=128: 384 launches; kernels 2 and 3 get one block each, as the
 *     application does at this n; about 0.8 M warp instructions.
 *     Kernel 1 (one thread walking a column) dominates the simulated cycles, as it does at
 *     any size.
 *   paper n=2048 (thesis Table 4.2: "default", PolyBench/GPU 1.0's 2048). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "gramschm", 128);
    size_t nn = (size_t)n * n, bytes = nn * sizeof(float);

    float *a = pb_alloc(nn, sizeof(float));
    float *got = pb_alloc(3 * nn, sizeof(float)), *want = pb_alloc(3 * nn, sizeof(float)); /* A, Q, R */
    double *ra = pb_alloc(nn, sizeof *ra), *rq = pb_alloc(nn, sizeof *rq), *rr = pb_alloc(nn, sizeof *rr);
    for (size_t x = 0; x < nn; x++)
        a[x] = wl_randf();
    for (int i = 0; i < n; i++)
        a[(size_t)i * n + i] += 0.25f * n;

    wl_init();
    CUfunction k1 = wl_kernel("gramschmidt_kernel1"), k2 = wl_kernel("gramschmidt_kernel2");
    CUfunction k3 = wl_kernel("gramschmidt_kernel3");
    CUdeviceptr d_a = wl_upload(a, bytes), d_r = wl_alloc(bytes), d_q = wl_alloc(bytes);
    for (int k = 0; k < n; k++) {
        void *args[] = {&n, &n, &d_a, &d_r, &d_q, &k};
        wl_launch(k1, 1, 1, 1, 256, 1, 1, 0, args);
        pb_launch_1d(k2, n, args);
        pb_launch_1d(k3, n, args);
    }
    wl_download(got, d_a, bytes);
    wl_download(got + nn, d_q, bytes);
    wl_download(got + 2 * nn, d_r, bytes);

    /* CPU reference in double, the same classical Gram-Schmidt */
    for (size_t x = 0; x < nn; x++)
        ra[x] = a[x];
    for (int k = 0; k < n; k++) {
        double nrm = 0;
        for (int i = 0; i < n; i++)
            nrm += ra[(size_t)i * n + k] * ra[(size_t)i * n + k];
        rr[(size_t)k * n + k] = sqrt(nrm);
        for (int i = 0; i < n; i++)
            rq[(size_t)i * n + k] = ra[(size_t)i * n + k] / rr[(size_t)k * n + k];
        for (int j = k + 1; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++)
                s += rq[(size_t)i * n + k] * ra[(size_t)i * n + j];
            rr[(size_t)k * n + j] = s;
            for (int i = 0; i < n; i++)
                ra[(size_t)i * n + j] -= rq[(size_t)i * n + k] * s;
        }
    }
    for (size_t x = 0; x < nn; x++) {
        want[x] = (float)ra[x];
        want[nn + x] = (float)rq[x];
    }
    /* R: only the upper triangle is written; compare the lower part as zeros on both sides */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            size_t x = 2 * nn + (size_t)i * n + j;
            want[x] = j >= i ? (float)rr[(size_t)i * n + j] : 0.0f;
            if (j < i)
                got[x] = 0.0f;
        }

    double err = wl_max_err_f(got, want, 3 * nn);
    free(a), free(got), free(want), free(ra), free(rq), free(rr);
    return wl_finish("gramschm", err, 1e-3);
}
