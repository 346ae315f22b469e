/* host.c: SPMV in the jagged diagonal format (Parboil-style; the Linebacker study's SP), `iters`
 * launches of spmv_jds (kernel.cu) on one matrix, one thread per row, 192-thread CTAs as
 * Parboil's.
 *
 * The matrix: `rows` rows of a banded sparse matrix like the finite-element matrices Parboil's
 * inputs are (its large input, Dubcova3, has 146,689 rows and about 25 nonzeros a row). Row i
 * has a count of nonzeros uniform in [nnz / 2, 3 nnz / 2], the diagonal and columns drawn within
 * `band` of it (distinct), values and x uniform in [-1, 1). The host builds JDS from it: rows
 * sorted by count, longest first (a stable sort, so the input decides ties), the diagonals
 * padded with zeros to each warp's longest row.
 *
 * Sizes:
 *   paper  rows=146689 nnz=25 band=2048 iters=10: the dimensions of Parboil's large input (3.7 M
 *          nonzeros, 764 CTAs); the matrix itself is ours. Parboil times repeated launches of
 *          the kernel on the same data; ten show the reuse of x and the L2.
 *   small  rows=16384 nnz=25 band=1024 iters=2 (the defaults): 86 CTAs a launch.
 *
 * Check: y against a CPU product in double over the original (unsorted) rows, tolerance 1e-4
 * relative. */
#include "wl.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { WARP = 32, BLOCK = 192 };


/* Sort indices by count, longest first, ties by index: a stable order without qsort_r. */
static void sort_rows(int *perm, const int *count, int rows)
{
    /* counting sort: counts are small (at most 3 nnz / 2 + 1) */
    int max = 0;
    for (int i = 0; i < rows; i++)
        max = count[i] > max ? count[i] : max;
    int *start = calloc((size_t)max + 2, sizeof *start);
    if (!start) {
        fprintf(stderr, "spmv-jds: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < rows; i++)
        start[max - count[i] + 1]++;
    for (int c = 1; c <= max + 1; c++)
        start[c] += start[c - 1];
    for (int i = 0; i < rows; i++)
        perm[start[max - count[i]]++] = i;
    free(start);
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"rows", "nnz", "band", "iters", "seed"};
    long val[] = {16384, 25, 1024, 2, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 1 || val[0] > (1 << 24) || val[1] < 1 || val[1] > 1000 || val[2] < val[1] || val[2] > INT_MAX / 4 ||
        val[3] < 1) {
        fprintf(stderr, "spmv-jds: rows must be 1..16777216, nnz 1..1000, band nnz..%d, iters at least 1\n",
                INT_MAX / 4);
        return 2;
    }
    int rows = (int)val[0], nnz = (int)val[1], band = (int)val[2], iters = (int)val[3];
    wl_seed((uint64_t)val[4]);

    /* the matrix, row by row (CSR on the host) */
    int *count = malloc((size_t)rows * sizeof *count), *row_start = malloc(((size_t)rows + 1) * sizeof *row_start);
    if (!count || !row_start) {
        fprintf(stderr, "spmv-jds: out of memory\n");
        return 1;
    }
    long total = 0;
    for (int i = 0; i < rows; i++) {
        int lo = nnz / 2 > 0 ? nnz / 2 : 1, c = lo + (int)wl_rand_below((uint32_t)(nnz + 1));
        int width = 2 * band + 1 < rows ? 2 * band + 1 : rows;
        count[i] = c < width ? c : width;
        row_start[i] = (int)total;
        total += count[i];
    }
    row_start[rows] = (int)total;
    int *col = malloc((size_t)total * sizeof *col);
    float *a = malloc((size_t)total * sizeof *a), *x = malloc((size_t)rows * sizeof *x);
    float *y = malloc((size_t)rows * sizeof *y);
    if (!col || !a || !x || !y) {
        fprintf(stderr, "spmv-jds: out of memory\n");
        return 1;
    }
    for (int i = 0; i < rows; i++) {
        int *c = col + row_start[i];
        int lo = i - band < 0 ? 0 : i - band, hi = i + band >= rows ? rows - 1 : i + band;
        c[0] = i;
        for (int k = 1; k < count[i];) { /* distinct columns in the band */
            int j = lo + (int)wl_rand_below((uint32_t)(hi - lo + 1)), seen = 0;
            for (int m = 0; m < k && !seen; m++)
                seen = c[m] == j;
            if (!seen)
                c[k++] = j;
        }
        for (int k = 0; k < count[i]; k++)
            a[row_start[i] + k] = 2.0f * wl_randf() - 1.0f;
    }
    for (int i = 0; i < rows; i++)
        x[i] = 2.0f * wl_randf() - 1.0f;

    /* JDS: sorted rows, diagonals padded to each warp's longest row */
    int *perm = malloc((size_t)rows * sizeof *perm);
    int n_warps = (rows + WARP - 1) / WARP, *warp_nnz = malloc((size_t)n_warps * sizeof *warp_nnz);
    if (!perm || !warp_nnz) {
        fprintf(stderr, "spmv-jds: out of memory\n");
        return 1;
    }
    sort_rows(perm, count, rows);
    for (int w = 0; w < n_warps; w++)
        warp_nnz[w] = count[perm[w * WARP]];
    int n_diags = count[perm[0]];
    int *jd_start = malloc(((size_t)n_diags + 1) * sizeof *jd_start);
    long slots = 0;
    for (int k = 0; k < n_diags; k++) { /* diagonal k: the rows of the warps whose longest row exceeds k */
        jd_start[k] = (int)slots;
        int w = 0;
        while (w < n_warps && warp_nnz[w] > k)
            w++;
        long covered = (long)w * WARP < rows ? (long)w * WARP : rows;
        slots += covered;
    }
    jd_start[n_diags] = (int)slots;
    float *jd_data = calloc((size_t)slots + 1, sizeof *jd_data);
    int *jd_col = calloc((size_t)slots + 1, sizeof *jd_col);
    if (!jd_start || !jd_data || !jd_col || slots > INT_MAX) {
        fprintf(stderr, "spmv-jds: out of memory\n");
        return 1;
    }
    for (int r = 0; r < rows; r++) {
        int i = perm[r];
        for (int k = 0; k < count[i]; k++) {
            jd_data[jd_start[k] + r] = a[row_start[i] + k];
            jd_col[jd_start[k] + r] = col[row_start[i] + k];
        }
    }

    wl_init();
    CUfunction f = wl_kernel("spmv_jds");
    CUdeviceptr d_y = wl_alloc((size_t)rows * sizeof(float));
    CUdeviceptr d_data = wl_upload(jd_data, ((size_t)slots + 1) * sizeof *jd_data);
    CUdeviceptr d_col = wl_upload(jd_col, ((size_t)slots + 1) * sizeof *jd_col);
    CUdeviceptr d_perm = wl_upload(perm, (size_t)rows * sizeof *perm);
    CUdeviceptr d_x = wl_upload(x, (size_t)rows * sizeof *x);
    CUdeviceptr d_start = wl_upload(jd_start, ((size_t)n_diags + 1) * sizeof *jd_start);
    CUdeviceptr d_warp = wl_upload(warp_nnz, (size_t)n_warps * sizeof *warp_nnz);
    void *args[] = {&d_y, &d_data, &d_col, &d_perm, &d_x, &rows, &d_start, &d_warp};
    for (int it = 0; it < iters; it++)
        wl_launch(f, (unsigned)((rows + BLOCK - 1) / BLOCK), 1, 1, BLOCK, 1, 1, 0, args);
    wl_download(y, d_y, (size_t)rows * sizeof *y);

    double err = 0;
    for (int i = 0; i < rows; i++) {
        double want = 0;
        for (int k = row_start[i]; k < row_start[i + 1]; k++)
            want += (double)a[k] * x[col[k]];
        double e = (y[i] - want) / (fabs(want) > 1 ? fabs(want) : 1);
        e = e < 0 ? -e : e;
        err = e > err ? e : err;
    }
    printf("spmv-jds: %d rows, %ld nonzeros, %d diagonals, %ld slots (%.1f%% padding)\n", rows, total, n_diags,
           slots, 100.0 * (double)(slots - total) / (double)slots);
    free(count);
    free(row_start);
    free(col);
    free(a);
    free(x);
    free(y);
    free(perm);
    free(warp_nnz);
    free(jd_start);
    free(jd_data);
    free(jd_col);
    return wl_finish("spmv-jds", err, 1e-4);
}
