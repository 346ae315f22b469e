/* host.c: SimilarityScore (SS), a Mars-style GPU MapReduce job (see kernel.cu).
 *
 * Input: `docs` document feature vectors of `dim` features generated from `seed`, each an
 * integer 0-99 stored as a float (as the Mars version generates them), and one map record per
 * document pair a < b, in row order. With integer features every dot product and norm is an
 * exact float sum, so the GPU and CPU scores differ at most by the last rounding of the
 * square roots and the division.
 *
 * The host runs the Mars flow with 256-thread blocks and one pair per thread: map count, a
 * prefix sum on the GPU with the total read back to size the output, map, and a bitonic sort
 * of the (score, pair) results by score on the GPU, one launch per step. Every pair must
 * appear once, with a score within 1e-5 of the CPU's cosine similarity, in non-increasing
 * score order (checked as the sorted CPU scores, rank by rank).
 *
 * Arguments: docs, dim, seed. Sizes:
 *   small (default) docs=181 dim=128: 16,290 pairs, 64 blocks for the map, sorted as 16384.
 *   paper docs=1024 dim=128: 523,776 pairs. CIAO's Table II lists 23 MB for SS; in Mars's
 *     layout a pair record takes 40 bytes (key, value and their offsets), so 1024 documents
 *     give 21 MB of records plus the 0.5 MB feature matrix, the closest power of two. */
#include "wl.h"
#include "../common/mapreduce_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The kernel's int2 records and int4 pairs {score bits, doc a, doc b, 0}. */
struct rec {
    int a, b;
};
struct pair {
    float score;
    int a, b, pad;
};

static int by_score_desc(const void *pa, const void *pb)
{
    float a = *(const float *)pa, b = *(const float *)pb;
    return a > b ? -1 : a < b;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"docs", "dim", "seed"};
    long val[] = {181, 128, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 2 || val[0] > 8192 || val[1] < 4 || val[1] > 4096 || val[1] % 4) {
        fprintf(stderr, "similarityscore: need 2 <= docs <= 8192, 4 <= dim <= 4096, dim a multiple of 4\n");
        return 2;
    }
    int docs = (int)val[0], dim = (int)val[1];
    wl_seed((uint64_t)val[2]);
    float *features = malloc(sizeof *features * docs * dim);
    for (long i = 0; i < (long)docs * dim; i++)
        features[i] = (float)wl_rand_below(100);
    int n_recs = docs * (docs - 1) / 2;
    struct rec *recs = malloc(sizeof *recs * n_recs);
    int r = 0;
    for (int a = 0; a < docs; a++)
        for (int b = a + 1; b < docs; b++)
            recs[r++] = (struct rec){a, b};

    wl_init();
    mr_k_scan_block = wl_kernel("ss_scan_block");
    mr_k_scan_add = wl_kernel("ss_scan_add");
    CUfunction k_count = wl_kernel("ss_map_count"), k_map = wl_kernel("ss_map"), k_sort = wl_kernel("ss_sort");

    /* Map: count, prefix sum, emit. */
    CUdeviceptr d_features = wl_upload(features, sizeof *features * docs * dim);
    CUdeviceptr d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_npairs = wl_alloc(4 * (size_t)n_recs), d_pair_at = wl_alloc(4 * ((size_t)n_recs + 1));
    void *count_args[] = {&d_recs, &n_recs, &d_npairs};
    mr_launch(k_count, n_recs, count_args);
    int n_pairs = mr_scan(d_npairs, d_pair_at, n_recs);
    int padded;
    CUdeviceptr d_pairs = mr_alloc_pairs(n_pairs, &(struct pair){0, -1, -1, 0}, &padded);
    void *map_args[] = {&d_features, &dim, &d_recs, &n_recs, &d_pair_at, &d_pairs};
    mr_launch(k_map, n_recs, map_args);

    /* Sort by score, one launch per step (ss_sort takes no key buffer). */
    mr_sort(k_sort, NULL, d_pairs, padded);
    struct pair *pairs = malloc(sizeof *pairs * (n_pairs + 1));
    wl_download(pairs, d_pairs, sizeof *pairs * n_pairs);

    /* CPU reference: the cosine of every pair (exact sums, as in ss_map), sorted. */
    float *want = malloc(sizeof *want * n_recs), *want_sorted = malloc(sizeof *want_sorted * n_recs);
    float *norm2 = malloc(sizeof *norm2 * docs);
    for (int d = 0; d < docs; d++) {
        float s = 0;
        for (int i = 0; i < dim; i++)
            s += features[(long)d * dim + i] * features[(long)d * dim + i];
        norm2[d] = s;
    }
    for (r = 0; r < n_recs; r++) {
        const float *x = features + (long)recs[r].a * dim, *y = features + (long)recs[r].b * dim;
        float dot = 0;
        for (int i = 0; i < dim; i++)
            dot += x[i] * y[i];
        float norms = sqrtf(norm2[recs[r].a]) * sqrtf(norm2[recs[r].b]);
        want[r] = want_sorted[r] = dot / norms;
    }
    qsort(want_sorted, n_recs, sizeof *want_sorted, by_score_desc);

    /* Each output pair once, its score against the CPU's, the order against the sorted scores. */
    double err = n_pairs == n_recs ? 0 : INFINITY;
    unsigned char *seen = calloc(n_recs, 1);
    float *got = malloc(sizeof *got * (n_pairs + 1)), *want_got = malloc(sizeof *want_got * (n_pairs + 1));
    for (int p = 0; p < n_pairs && err == 0; p++) {
        int a = pairs[p].a, b = pairs[p].b;
        if (a < 0 || a >= b || b >= docs) {
            err = INFINITY;
            break;
        }
        int idx = a * docs - a * (a + 1) / 2 + (b - a - 1); /* record index of (a, b) */
        if (seen[idx]++)
            err = INFINITY;
        got[p] = pairs[p].score;
        want_got[p] = want[idx];
    }
    if (err == 0) {
        double e1 = wl_max_err_f(got, want_got, n_pairs), e2 = wl_max_err_f(got, want_sorted, n_pairs);
        err = e1 > e2 ? e1 : e2;
    }
    printf("similarityscore: %d documents of %d features, %d pairs (sorted as %d), best %g\n", docs, dim, n_pairs,
           padded, n_pairs ? pairs[0].score : 0.0);

    free(features), free(recs), free(pairs), free(want), free(want_sorted), free(norm2), free(seen), free(got);
    free(want_got);
    return wl_finish("similarityscore", err, 1e-5);
}
