/* host.c: KMN, k-means clustering as Mars-style GPU MapReduce jobs (see kernel.cu); CIAO's
 * Table II "KMN [8]" (LWS, 4 warps for Best-SWL, 1% of the shared memory, barriers).
 *
 * Input: n points of `dim` integer coordinates in [0, 1024), generated from `seed` around k
 * random spots (each point a spot plus a uniform offset of up to +-64 per coordinate); the k
 * initial centres are the first k points. Integer coordinates and integer means make every
 * distance and centre exact, so the CPU reference below must agree bit for bit.
 *
 * Each of the `iters` iterations is one MapReduce job with 256-thread blocks (Mars's flow):
 * map count, a prefix sum on the GPU with the total read back, map (nearest centre per point),
 * the bitonic sort of the {centre, point} pairs, the grouping, and reduce (one 128-thread
 * block per non-empty centre, writing its new position). After the last job the host reads the centres
 * back and compares them, and the sizes of the clusters, with the CPU's.
 *
 * Arguments: n, dim, k, iters, seed. Sizes:
 *   small (default) n=4096 dim=4 k=32 iters=2: 16 blocks for the map, pairs sorted as 4096.
 *   paper n=10752 dim=4 k=32 iters=4: Table II's 168 KB input is 10,752 points of four
 *     4-byte coordinates. The paper gives neither the dimension, the number of centres nor
 *     the iterations; these are our choices (docs/ciao.md). */
#include "wl.h"
#include "../common/mapreduce_host.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* The kernels' int4 pairs {centre, point, 0, 0}; the padding sorts last. */
static const int pad_pair[4] = {INT_MAX, INT_MAX, 0, 0};

/* The nearest centre of point x (lowest index on a tie), as kmn_map. */
static int nearest(const int *x, const int *centres, int dim, int k)
{
    int best = 0;
    int best_d = -1;
    for (int c = 0; c < k; c++) {
        int d2 = 0;
        for (int d = 0; d < dim; d++) {
            int t = x[d] - centres[c * dim + d];
            d2 += t * t;
        }
        if (best_d < 0 || d2 < best_d) {
            best_d = d2;
            best = c;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "dim", "k", "iters", "seed"};
    long val[] = {4096, 4, 32, 2, 1};
    wl_args(argc, argv, 5, keys, val);
    /* coordinates below 1024 keep a group's int sum exact up to 2^21 points */
    if (val[0] < 2 || val[0] > 2000000 || val[1] < 1 || val[1] > 64 || val[2] < 1 || val[2] > val[0] ||
        val[2] > 4096 || val[3] < 1 || val[3] > 1000) {
        fprintf(stderr, "kmn: need 2 <= n <= 2e6, 1 <= dim <= 64, 1 <= k <= min(n, 4096), 1 <= iters <= 1000\n");
        return 2;
    }
    int n = (int)val[0], dim = (int)val[1], k = (int)val[2], iters = (int)val[3];
    wl_seed((uint64_t)val[4]);
    int *spots = malloc(sizeof *spots * k * dim), *points = malloc(sizeof *points * n * dim);
    for (int i = 0; i < k * dim; i++)
        spots[i] = 64 + (int)wl_rand_below(1024 - 128);
    for (int p = 0; p < n; p++) {
        int s = (int)wl_rand_below((uint32_t)k);
        for (int d = 0; d < dim; d++)
            points[p * dim + d] = spots[s * dim + d] - 64 + (int)wl_rand_below(129);
    }

    wl_init();
    mr_k_scan_block = wl_kernel("kmn_scan_block");
    mr_k_scan_add = wl_kernel("kmn_scan_add");
    CUfunction k_count = wl_kernel("kmn_map_count"), k_map = wl_kernel("kmn_map"), k_sort = wl_kernel("kmn_sort"),
               k_mark = wl_kernel("kmn_group_mark"), k_start = wl_kernel("kmn_group_start"),
               k_reduce = wl_kernel("kmn_reduce");
    CUdeviceptr d_points = wl_upload(points, sizeof *points * n * dim);
    CUdeviceptr d_centres = wl_upload(points, sizeof *points * k * dim); /* the first k points */
    CUdeviceptr d_keys = 0; /* the pairs have no key bytes */
    for (int it = 0; it < iters; it++) {
        CUdeviceptr d_npairs = wl_alloc(4 * (size_t)n), d_pair_at = wl_alloc(4 * ((size_t)n + 1));
        void *count_args[] = {&n, &d_npairs};
        mr_launch(k_count, n, count_args);
        int n_pairs = mr_scan(d_npairs, d_pair_at, n), padded;
        CUdeviceptr d_pairs = mr_alloc_pairs(n_pairs, pad_pair, &padded);
        void *map_args[] = {&d_points, &d_centres, &n, &dim, &k, &d_pair_at, &d_pairs};
        mr_launch(k_map, n, map_args);
        struct mr_groups grp = mr_group(k_sort, k_mark, k_start, d_keys, d_pairs, n_pairs, padded);
        void *reduce_args[] = {&d_points, &d_pairs, &grp.start, &grp.n_groups, &dim, &d_centres};
        wl_launch(k_reduce, (unsigned)grp.n_groups, 1, 1, 128, 1, 1, 0, reduce_args); /* KMN_REDUCE_THREADS */
        wl_free(d_npairs), wl_free(d_pair_at), wl_free(d_pairs);
        mr_free_groups(&grp);
    }
    int *got = malloc(sizeof *got * k * dim);
    wl_download(got, d_centres, sizeof *got * k * dim);

    /* CPU reference: the same iterations; then the cluster sizes under both sets of centres. */
    int *want = malloc(sizeof *want * k * dim);
    long *sum = malloc(sizeof *sum * k * dim), *size = malloc(sizeof *size * k);
    for (int i = 0; i < k * dim; i++)
        want[i] = points[i];
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < k * dim; i++)
            sum[i] = 0;
        for (int c = 0; c < k; c++)
            size[c] = 0;
        for (int p = 0; p < n; p++) {
            int c = nearest(points + p * dim, want, dim, k);
            size[c]++;
            for (int d = 0; d < dim; d++)
                sum[c * dim + d] += points[p * dim + d];
        }
        for (int c = 0; c < k; c++)
            for (int d = 0; d < dim && size[c]; d++)
                want[c * dim + d] = (int)(sum[c * dim + d] / size[c]);
    }
    double err = wl_max_err_i(got, want, (size_t)k * dim);
    int empty = 0;
    for (int c = 0; c < k; c++)
        empty += size[c] == 0;
    printf("kmn: %d points of %d coordinates, %d centres (%d empty in the last iteration), %d iterations\n", n, dim, k,
           empty, iters);
    free(spots), free(points), free(got), free(want), free(sum), free(size);
    return wl_finish("kmn", err, 0);
}
