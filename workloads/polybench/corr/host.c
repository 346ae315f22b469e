/* host.c: PolyBench/GPU CORR, the correlation matrix of m variables over n observations.
 *
 * Launches as the original: corr_mean and corr_std on 256x1 blocks ((m/256) CTAs), corr_reduce
 * on 32x8 blocks ((m/32) x (n/8) CTAs), corr_corr on 256x1 blocks ((m/256) CTAs). The layout is
 * the original's 1-based one ((n+1) x (m+1) data, (m+1) x (m+1) symmat) with its constants
 * float_n = 3214212.01 and eps = 0.005. corr_corr leaves symmat[m][m] alone (its thread
 * j1 = m has no j2 > j1), so the host sets that 1 after the copy back.
 *
 * Sizes:
 *   paper  m=n=2048: PolyBench/GPU's default (the thesis' DaCache table lists "default"; CIAO's
 *          table gives a 2 MB footprint for CORR, which would be m=n=512).
 *   small  m=256 n=64 (the defaults): about 0.6 M warp instructions, almost all in corr_corr.
 *          As in COVAR the last kernel has only m/256 CTAs at any size and is slow to simulate;
 *          the small size keeps its coherent column loads, divergent symmat stores and a
 *          working set larger than the L1.
 *
 * Input: uniform floats in [0, 4) from the seed, wide enough that every column's deviation
 * (with the original's float_n) exceeds eps, so the correlations are O(1) rather than tiny and
 * the relative check below means something. Check: symmat indices 1..m against a CPU version
 * with the same operations and order. */
#include "wl.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FLOAT_N 3214212.01f
#define EPS 0.005f

static void corr_cpu(float *symmat, float *data, float *mean, float *sd, int m, int n)
{
    int w = m + 1;
    for (int j = 1; j <= m; j++) {
        mean[j] = 0.0f;
        for (int i = 1; i <= n; i++)
            mean[j] += data[i * w + j];
        mean[j] /= FLOAT_N;
    }
    for (int j = 1; j <= m; j++) {
        sd[j] = 0.0f;
        for (int i = 1; i <= n; i++) {
            float d = data[i * w + j] - mean[j];
            sd[j] += d * d;
        }
        sd[j] = sqrtf(sd[j] / FLOAT_N);
        if (sd[j] <= EPS)
            sd[j] = 1.0f;
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            data[i * w + j] -= mean[j];
            data[i * w + j] /= sqrtf(FLOAT_N) * sd[j];
        }
    for (int j1 = 1; j1 < m; j1++) {
        symmat[j1 * w + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 <= m; j2++) {
            float s = 0.0f;
            for (int i = 1; i <= n; i++)
                s += data[i * w + j1] * data[i * w + j2];
            symmat[j1 * w + j2] = symmat[j2 * w + j1] = s;
        }
    }
    symmat[m * w + m] = 1.0f;
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"m", "n", "seed"};
    long val[] = {256, 64, 1};
    wl_args(argc, argv, 3, keys, val);
    int m = (int)val[0], n = (int)val[1];
    if (val[0] < 1 || val[1] < 1 || (double)(val[0] + 1) * (val[0] + val[1] + 1) > INT_MAX) {
        fprintf(stderr, "corr: m and n must be positive and (m+1) * (m+n+1) at most %d\n", INT_MAX);
        return 2;
    }
    size_t data_n = (size_t)(n + 1) * (m + 1), sym_n = (size_t)(m + 1) * (m + 1);

    wl_seed((uint64_t)val[2]);
    float *data = calloc(data_n, sizeof *data), *mean = calloc(m + 1, sizeof *mean);
    float *sd = calloc(m + 1, sizeof *sd);
    float *sym = calloc(sym_n, sizeof *sym), *ref = calloc(sym_n, sizeof *ref);
    if (!data || !mean || !sd || !sym || !ref) {
        fprintf(stderr, "corr: out of memory\n");
        return 1;
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            data[(size_t)i * (m + 1) + j] = 4.0f * wl_randf();

    wl_init();
    CUfunction k_mean = wl_kernel("corr_mean");
    CUfunction k_std = wl_kernel("corr_std");
    CUfunction k_reduce = wl_kernel("corr_reduce");
    CUfunction k_corr = wl_kernel("corr_corr");
    CUdeviceptr d_data = wl_upload(data, data_n * sizeof *data);
    CUdeviceptr d_mean = wl_alloc((m + 1) * sizeof *mean);
    CUdeviceptr d_std = wl_alloc((m + 1) * sizeof *sd);
    CUdeviceptr d_sym = wl_alloc(sym_n * sizeof *sym);
    wl_zero(d_sym, sym_n * sizeof *sym);

    float float_n = FLOAT_N, eps = EPS;
    unsigned cols = (unsigned)(m + 255) / 256;
    void *mean_args[] = {&d_mean, &d_data, &m, &n, &float_n};
    wl_launch(k_mean, cols, 1, 1, 256, 1, 1, 0, mean_args);
    void *std_args[] = {&d_mean, &d_std, &d_data, &m, &n, &float_n, &eps};
    wl_launch(k_std, cols, 1, 1, 256, 1, 1, 0, std_args);
    void *reduce_args[] = {&d_mean, &d_std, &d_data, &m, &n, &float_n};
    wl_launch(k_reduce, (unsigned)(m + 31) / 32, (unsigned)(n + 7) / 8, 1, 32, 8, 1, 0, reduce_args);
    void *corr_args[] = {&d_sym, &d_data, &m, &n};
    wl_launch(k_corr, cols, 1, 1, 256, 1, 1, 0, corr_args);
    wl_download(sym, d_sym, sym_n * sizeof *sym);
    sym[(size_t)m * (m + 1) + m] = 1.0f;

    corr_cpu(ref, data, mean, sd, m, n);
    double err = wl_max_err_f(sym, ref, sym_n);
    free(data);
    free(mean);
    free(sd);
    free(sym);
    free(ref);
    return wl_finish("corr", err, 1e-3);
}
