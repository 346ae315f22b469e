/* spmv_host.h: the host program the two SHOC Spmv CSR workloads share (spmv, one thread per
 * row, and spmv-vector, one warp per row), as a static function that their host.c calls with
 * the kernel's name and launch shape. Include it from a host.c, after wl.h.
 *
 * A random n x n matrix in CSR form, every entry nonzero with probability 1% (SHOC's density,
 * about n/100 nonzeros per row at random columns), values and x uniform in [0, 10) as in SHOC.
 * Like SHOC, the kernel runs `iters` times back to back on 128-thread blocks and the last
 * result is checked against a CPU CSR product in double (tolerance 1e-4 relative).
 * Arguments: n (rows, default 8192), iters (default 1), seed. */
#ifndef SPMV_HOST_H
#define SPMV_HOST_H

#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SPMV_DENSITY 0.01

struct spmv_csr {
    int rows, nnz;
    int *row_start, *col;
    float *val;
};

/* Every entry nonzero with probability SPMV_DENSITY: walk each row with geometric gaps.
 * Leaves a NULL array when out of memory. */
static void spmv_random_csr(struct spmv_csr *m, int n)
{
    size_t cap = (size_t)(SPMV_DENSITY * n * n * 1.1) + 16, nnz = 0;
    m->rows = n;
    m->row_start = malloc((n + 1) * sizeof(int));
    m->col = malloc(cap * sizeof(int));
    m->val = malloc(cap * sizeof(float));
    if (!m->row_start || !m->col || !m->val)
        return;
    double log_q = log(1.0 - SPMV_DENSITY);
    for (int i = 0; i < n; i++) {
        m->row_start[i] = (int)nnz;
        for (long j = -1;;) {
            j += 1 + (long)floor(log(1.0 - wl_randf()) / log_q);
            if (j >= n)
                break;
            if (nnz == cap) {
                cap *= 2;
                m->col = realloc(m->col, cap * sizeof(int));
                m->val = realloc(m->val, cap * sizeof(float));
                if (!m->col || !m->val)
                    return;
            }
            m->col[nnz] = (int)j;
            m->val[nnz] = 10.0f * wl_randf();
            nnz++;
        }
    }
    m->row_start[n] = (int)nnz;
    m->nnz = (int)nnz;
}

/* The whole program for workload `name`: kernel `kernel`(val, col, row_start, rows, x, y)
 * launched on 128-thread blocks that cover rows_per_block rows each. Returns the exit status. */
static int spmv_run(int argc, char **argv, const char *name, const char *kernel, int rows_per_block)
{
    static const char *const keys[] = {"n", "iters", "seed"};
    long val[] = {8192, 1, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 1 || val[0] > 65536 || val[1] < 1) {
        fprintf(stderr, "%s: n must be in 1..65536, iters >= 1\n", name);
        return 2;
    }
    int n = (int)val[0], iters = (int)val[1];

    wl_seed((uint64_t)val[2]);
    struct spmv_csr m = {0};
    spmv_random_csr(&m, n);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *want = malloc(n * sizeof *want);
    if (!m.row_start || !m.col || !m.val || !x || !y || !want) {
        fprintf(stderr, "%s: out of memory\n", name);
        return 1;
    }
    for (int i = 0; i < n; i++)
        x[i] = 10.0f * wl_randf();

    wl_init();
    CUfunction kern = wl_kernel(kernel);
    CUdeviceptr d_val = wl_upload(m.val, (size_t)m.nnz * sizeof(float));
    CUdeviceptr d_col = wl_upload(m.col, (size_t)m.nnz * sizeof(int));
    CUdeviceptr d_start = wl_upload(m.row_start, (n + 1) * sizeof(int));
    CUdeviceptr d_x = wl_upload(x, n * sizeof *x), d_y = wl_alloc(n * sizeof *y);
    void *args[] = {&d_val, &d_col, &d_start, &n, &d_x, &d_y};
    unsigned blocks = (unsigned)(n + rows_per_block - 1) / rows_per_block;
    for (int it = 0; it < iters; it++)
        wl_launch(kern, blocks, 1, 1, 128, 1, 1, 0, args);
    wl_download(y, d_y, n * sizeof *y);

    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = m.row_start[i]; j < m.row_start[i + 1]; j++)
            s += (double)m.val[j] * x[m.col[j]];
        want[i] = (float)s;
    }
    printf("%s: %d rows, %d nonzeros\n", name, n, m.nnz);

    double err = wl_max_err_f(y, want, n);
    free(m.row_start), free(m.col), free(m.val), free(x), free(y), free(want);
    return wl_finish(name, err, 1e-4);
}

#endif
