/* polybench_host.h: what the PolyBench/GPU-style host programs share, as static inline
 * functions (include it from a host.c, after wl.h):
 *   - the size arguments, checked against the limits the kernels' int indices set, and the
 *     seed, which seeds the input generator;
 *   - allocation that ends the program when memory runs out;
 *   - the suite's launch shapes: 256 x 1 blocks for 1-D kernels, 32 x 8 for 2-D ones;
 *   - parts of the CPU references: SYRK and SYR2K's, and CORR and COVAR's column means. */
#ifndef POLYBENCH_HOST_H
#define POLYBENCH_HOST_H

#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- arguments ---- */

/* The workload's name, for messages: set by the pb_args_* call that starts the program. */
static const char *pb_name = "polybench";

/* Arguments n (the matrices are n x n; default n_default) and seed. n * n must fit the
 * kernels' int indices; otherwise prints why and exits 2. Returns n. */
static inline int pb_args_n(int argc, char **argv, const char *name, long n_default)
{
    static const char *const keys[] = {"n", "seed"};
    long val[] = {n_default, 1};
    pb_name = name;
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 46340) {
        fprintf(stderr, "%s: n must be in 1..46340\n", name);
        exit(2);
    }
    wl_seed((uint64_t)val[1]);
    return (int)val[0];
}

/* Arguments n, m and seed of an n x n result from n x m inputs (SYRK, SYR2K): n * n and
 * n * m must fit the kernels' int indices; otherwise prints why and exits 2. */
static inline void pb_args_nm(int argc, char **argv, const char *name, long n_default, long m_default, int *n,
                              int *m)
{
    static const char *const keys[] = {"n", "m", "seed"};
    long val[] = {n_default, m_default, 1};
    pb_name = name;
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 1 || val[1] < 1 || val[0] > 46340 || val[0] * val[1] > 0x7fffffffL) {
        fprintf(stderr, "%s: need n >= 1, m >= 1, n * n and n * m below 2^31\n", name);
        exit(2);
    }
    wl_seed((uint64_t)val[2]);
    *n = (int)val[0], *m = (int)val[1];
}

/* Arguments m (variables), n (observations) and seed of CORR and COVAR, whose 1-based arrays
 * are (n+1) x (m+1) data and an (m+1) x (m+1) result: (m+1) * (m+n+1) must fit int;
 * otherwise prints why and exits 2. */
static inline void pb_args_mn(int argc, char **argv, const char *name, long m_default, long n_default, int *m,
                              int *n)
{
    static const char *const keys[] = {"m", "n", "seed"};
    long val[] = {m_default, n_default, 1};
    pb_name = name;
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 1 || val[1] < 1 || (double)(val[0] + 1) * (val[0] + val[1] + 1) > INT_MAX) {
        fprintf(stderr, "%s: m and n must be positive and (m+1) * (m+n+1) at most %d\n", name, INT_MAX);
        exit(2);
    }
    wl_seed((uint64_t)val[2]);
    *m = (int)val[0], *n = (int)val[1];
}

/* ---- memory and launches ---- */

/* count zeroed elements of `size` bytes; out of memory, prints so and exits 1. */
static inline void *pb_alloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", pb_name);
        exit(1);
    }
    return p;
}

/* A 1-D kernel over n threads: 256 x 1 blocks. */
static inline void pb_launch_1d(CUfunction f, int n, void **args)
{
    wl_launch(f, (unsigned)(n + 255) / 256, 1, 1, 256, 1, 1, 0, args);
}

/* A 2-D kernel over nx x ny threads (x the fast index): 32 x 8 blocks. */
static inline void pb_launch_2d(CUfunction f, int nx, int ny, void **args)
{
    wl_launch(f, (unsigned)(nx + 31) / 32, (unsigned)(ny + 7) / 8, 1, 32, 8, 1, 0, args);
}

/* ---- references ---- */

/* SYRK and SYR2K's reference in double: want = alpha A A^T + beta C when b is NULL, else
 * alpha (A B^T + B A^T) + beta C, for n x m inputs A, B and n x n C, rounded to float. */
static inline void pb_syrk_ref(int n, int m, float alpha, float beta, const float *a, const float *b, const float *c,
                               float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const float *ai = a + (size_t)i * m, *aj = a + (size_t)j * m;
            double s = 0;
            if (b) {
                const float *bi = b + (size_t)i * m, *bj = b + (size_t)j * m;
                for (int k = 0; k < m; k++)
                    s += (double)ai[k] * bj[k] + (double)bi[k] * aj[k];
            } else {
                for (int k = 0; k < m; k++)
                    s += (double)ai[k] * aj[k];
            }
            want[(size_t)i * n + j] = (float)(beta * (double)c[(size_t)i * n + j] + alpha * s);
        }
}

/* mean[j] for the columns j = 1..m of the 1-based (n+1) x (m+1) data: the sum of rows 1..n
 * over float_n, accumulated in mean[j] as pb_column_mean (common/polybench.cuh) does. */
static inline void pb_column_means(float *mean, const float *data, int m, int n, float float_n)
{
    int w = m + 1;
    for (int j = 1; j <= m; j++) {
        mean[j] = 0.0f;
        for (int i = 1; i <= n; i++)
            mean[j] += data[i * w + j];
        mean[j] /= float_n;
    }
}

#endif
