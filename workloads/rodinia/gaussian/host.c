/* host.c: Gaussian elimination (Rodinia Gaussian) of a x = b, then back substitution.
 *
 * Like the original, for every column t = 0..n-2 the host launches ge_fan1 (512-thread blocks,
 * ceil(n/512) of them) and then ge_fan2 (4x4 blocks on a ceil(n/4) x ceil(n/4) grid, the whole
 * grid every step even though the active part shrinks), 2(n-1) launches in all; it then
 * downloads m, a and b and solves the triangular system on the host. The input is diagonally
 * dominant (off-diagonal entries uniform in [0, 1), diagonal n) so elimination without pivoting
 * is stable; b is uniform in [0, 1).
 *
 * Arguments: n, seed. Sizes:
 *   small (default) n=96: 190 launches, 576 ge_fan2 blocks each; ge_fan1's warps touch 32 lines
 *     and ge_fan2's 4 lines per load as at paper size, and a and m (72 KB) overflow the L1D as
 *     they do at paper size.
 *   paper n=512: LAS Table 4.2 lists Gaussian with 1022 kernels (2 x 511 columns). Its 525308
 *     CTAs (1028 per step) imply other block shapes than Rodinia's defaults used here; CIAO
 *     Table II's 339 KB working set is Rodinia's 208 x 208 input.
 * Check: a, m, b and the solution against a CPU version doing the same float operations;
 * tolerance 1e-3 relative. */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Solve the upper-triangular system left in a (row-major) for x. */
static void back_substitute(const float *a, const float *b, float *x, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= a[(size_t)i * n + j] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "seed"};
    long val[] = {96, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 2 || val[0] > 16384) {
        fprintf(stderr, "gaussian: n must be in 2..16384\n");
        return 2;
    }
    int n = (int)val[0];
    size_t nn = (size_t)n * n;

    wl_seed((uint64_t)val[1]);
    /* got and want each hold a, m, b and x back to back, so one comparison covers them all */
    size_t total = 2 * nn + 2 * (size_t)n;
    float *got = calloc(total, sizeof(float)), *want = calloc(total, sizeof(float));
    if (!got || !want) {
        fprintf(stderr, "gaussian: out of memory\n");
        return 1;
    }
    float *a = got, *m = got + nn, *b = got + 2 * nn, *x = b + n;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = i == j ? (float)n : wl_randf();
        b[i] = wl_randf();
    }
    memcpy(want, got, total * sizeof(float));

    wl_init();
    CUfunction fan1 = wl_kernel("ge_fan1"), fan2 = wl_kernel("ge_fan2");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof(float)), d_m = wl_upload(m, nn * sizeof(float));
    CUdeviceptr d_b = wl_upload(b, n * sizeof(float));
    unsigned grid1 = (unsigned)(n + 511) / 512, grid2 = (unsigned)(n + 3) / 4;
    for (int t = 0; t < n - 1; t++) {
        void *args1[] = {&d_m, &d_a, &n, &t};
        wl_launch(fan1, grid1, 1, 1, 512, 1, 1, 0, args1);
        void *args2[] = {&d_m, &d_a, &d_b, &n, &t};
        wl_launch(fan2, grid2, grid2, 1, 4, 4, 1, 0, args2);
    }
    wl_download(a, d_a, nn * sizeof(float));
    wl_download(m, d_m, nn * sizeof(float));
    wl_download(b, d_b, n * sizeof(float));
    back_substitute(a, b, x, n);

    /* CPU: the same eliminations, step by step */
    float *ra = want, *rm = want + nn, *rb = want + 2 * nn, *rx = rb + n;
    for (int t = 0; t < n - 1; t++) {
        for (int i = t + 1; i < n; i++)
            rm[(size_t)i * n + t] = ra[(size_t)i * n + t] / ra[(size_t)t * n + t];
        for (int i = t + 1; i < n; i++) {
            float mult = rm[(size_t)i * n + t];
            for (int j = t; j < n; j++)
                ra[(size_t)i * n + j] -= mult * ra[(size_t)t * n + j];
            rb[i] -= mult * rb[t];
        }
    }
    back_substitute(ra, rb, rx, n);

    double err = wl_max_err_f(got, want, total);
    free(got), free(want);
    return wl_finish("gaussian", err, 1e-3);
}
