/* host.c: PolyBench/GPU COVAR, the covariance matrix of m variables over n observations.
 *
 * Launches as the original: covar_mean on 256x1 blocks ((m/256) CTAs), covar_reduce on 32x8
 * blocks ((m/32) x (n/8) CTAs), covar_covar on 256x1 blocks ((m/256) CTAs). Arrays keep the
 * original's 1-based layout ((n+1) x (m+1) data, (m+1) x (m+1) symmat) and its float_n constant
 * (the mean divides by 3214212.01, not by n).
 *
 * Sizes:
 *   paper  m=n=2048: PolyBench/GPU's default (the thesis' DaCache table lists "default").
 *   small  m=256 n=64 (the defaults): about 0.65 M warp instructions, almost all in
 *          covar_covar. That kernel has only m/256 CTAs at any size (8 at paper size), so it
 *          cannot fill 30 SMs, and its divergent stores make it slow to simulate (about 5 M
 *          cycles here). The small size keeps its pattern: coherent column loads, a divergent
 *          store to symmat (lanes (m+2)*4 bytes apart) every step, and a working set (8 warps
 *          x 2 columns x 64 rows, a line each: 128 KB) that still overflows the 16 KB L1.
 *
 * Input: uniform floats in [0, 1) from the seed; the mean is then tiny (float_n is large) and
 * the covariances are sums of n positive products, about n/4. Check: the upper and lower
 * triangles (indices 1..m) against a CPU version with the same summation order. */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

#define FLOAT_N 3214212.01f

static void covar_cpu(float *symmat, float *data, float *mean, int m, int n)
{
    int w = m + 1;
    pb_column_means(mean, data, m, n, FLOAT_N);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            data[i * w + j] -= mean[j];
    for (int j1 = 1; j1 <= m; j1++)
        for (int j2 = j1; j2 <= m; j2++) {
            float s = 0.0f;
            for (int i = 1; i <= n; i++)
                s += data[i * w + j1] * data[i * w + j2];
            symmat[j1 * w + j2] = symmat[j2 * w + j1] = s;
        }
}

int main(int argc, char **argv)
{
    int m, n;
    pb_args_mn(argc, argv, "covar", 256, 64, &m, &n);
    size_t data_n = (size_t)(n + 1) * (m + 1), sym_n = (size_t)(m + 1) * (m + 1);
    float *data = pb_alloc(data_n, sizeof(float)), *mean = pb_alloc(m + 1, sizeof(float));
    float *sym = pb_alloc(sym_n, sizeof(float)), *ref = pb_alloc(sym_n, sizeof(float));
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            data[(size_t)i * (m + 1) + j] = wl_randf();

    wl_init();
    CUfunction k_mean = wl_kernel("covar_mean");
    CUfunction k_reduce = wl_kernel("covar_reduce");
    CUfunction k_covar = wl_kernel("covar_covar");
    CUdeviceptr d_data = wl_upload(data, data_n * sizeof *data);
    CUdeviceptr d_mean = wl_alloc((m + 1) * sizeof *mean);
    CUdeviceptr d_sym = wl_alloc(sym_n * sizeof *sym);
    wl_zero(d_sym, sym_n * sizeof *sym);

    float float_n = FLOAT_N;
    void *mean_args[] = {&d_mean, &d_data, &m, &n, &float_n};
    pb_launch_1d(k_mean, m, mean_args);
    void *reduce_args[] = {&d_mean, &d_data, &m, &n};
    pb_launch_2d(k_reduce, m, n, reduce_args);
    void *covar_args[] = {&d_sym, &d_data, &m, &n};
    pb_launch_1d(k_covar, m, covar_args);
    wl_download(sym, d_sym, sym_n * sizeof *sym);

    covar_cpu(ref, data, mean, m, n);
    double err = wl_max_err_f(sym, ref, sym_n);
    free(data);
    free(mean);
    free(sym);
    free(ref);
    return wl_finish("covar", err, 1e-3);
}
