/* mapreduce_host.h: the host side the Mars-style MapReduce workloads share, as static
 * inline functions (include it from a host.c, after wl.h):
 *   - launches over 256-thread blocks, one map record (or pair, or group) per thread;
 *   - the GPU prefix sum whose total the host reads back to size the next buffers;
 *   - the power-of-two pair buffer with its padding, the bitonic sort (one launch per step)
 *     and the grouping (mark, prefix sum, group starts), driving the kernels that
 *     common/mapreduce.cuh defines;
 *   - the synthetic inputs' building blocks: Zipf draws, random words, a Zipf vocabulary and
 *     text made of it, and URLs on random sites.
 * The order of the device allocations and frees here is part of each workload's behaviour:
 * it fixes the simulated addresses. */
#ifndef MAPREDUCE_HOST_H
#define MAPREDUCE_HOST_H

#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MR_PAIR_BYTES 16 /* the kernels' pairs are int4 */

/* ---- launches and the prefix sum ---- */

/* The workload's prefix-sum kernels (<prefix>_scan_block and _scan_add), set after wl_init. */
static CUfunction mr_k_scan_block, mr_k_scan_add;

/* 256-thread blocks covering n threads (at least one block: the kernels check n). */
static inline unsigned mr_blocks(long n)
{
    return n > 256 ? (unsigned)((n + 255) / 256) : 1;
}

/* f over n threads in 256-thread blocks. */
static inline void mr_launch(CUfunction f, long n, void **args)
{
    wl_launch(f, mr_blocks(n), 1, 1, 256, 1, 1, 0, args);
}

/* Exclusive prefix sum of in[0..n) into out[0..n] (out[n] = total) on the GPU. */
static inline void mr_scan_rec(CUdeviceptr in, CUdeviceptr out, int n)
{
    int nb = n / 256 + 1;
    CUdeviceptr sums = wl_alloc((size_t)nb * 4);
    void *a[] = {&in, &out, &sums, &n};
    wl_launch(mr_k_scan_block, nb, 1, 1, 256, 1, 1, 0, a);
    if (nb > 1) {
        CUdeviceptr base = wl_alloc((size_t)(nb + 1) * 4);
        mr_scan_rec(sums, base, nb);
        int m = n + 1;
        void *b[] = {&out, &base, &m};
        wl_launch(mr_k_scan_add, nb, 1, 1, 256, 1, 1, 0, b);
        wl_free(base);
    }
    wl_free(sums);
}

/* The scan, then the total read back (the host sizes the next buffers with it). */
static inline int mr_scan(CUdeviceptr in, CUdeviceptr out, int n)
{
    mr_scan_rec(in, out, n);
    int total;
    wl_download(&total, out + (CUdeviceptr)n * 4, 4);
    return total;
}

/* ---- pairs: padded buffer, sort, groups ---- */

/* A device buffer for n_pairs pairs, rounded up to a power of two (at least 2) in *padded for
 * the bitonic sort; the entries past n_pairs are copies of *pad, which sorts last. */
static inline CUdeviceptr mr_alloc_pairs(int n_pairs, const void *pad, int *padded)
{
    int p = 2;
    while (p < n_pairs)
        p *= 2;
    CUdeviceptr d = wl_alloc((size_t)MR_PAIR_BYTES * p);
    char *tail = malloc((size_t)MR_PAIR_BYTES * (p - n_pairs + 1));
    for (int i = 0; i < p - n_pairs; i++)
        memcpy(tail + (size_t)MR_PAIR_BYTES * i, pad, MR_PAIR_BYTES);
    wl_copy_to(d + (size_t)MR_PAIR_BYTES * n_pairs, tail, (size_t)MR_PAIR_BYTES * (p - n_pairs));
    free(tail);
    *padded = p;
    return d;
}

/* Bitonic sort of the padded pair buffer, one k_sort launch per step (k, j). The kernel takes
 * the key buffer *keys first, or no key buffer when keys is NULL. */
static inline void mr_sort(CUfunction k_sort, CUdeviceptr *keys, CUdeviceptr pairs, int padded)
{
    int half = padded / 2;
    for (int k = 2; k <= padded; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            void *a[] = {keys, &pairs, &half, &k, &j};
            mr_launch(k_sort, half, keys ? a : a + 1);
        }
}

/* The grouping's device buffers: first[i] (sorted pair i starts a group), group_of[0..n] (its
 * prefix sum: pair i's group) and start[0..n_groups] (group g's first pair; start[n_groups]
 * is the pair count). */
struct mr_groups {
    CUdeviceptr first, group_of, start;
    int n_groups;
};

/* Mars's group stage over the padded pair buffer: the bitonic sort (k_sort), then k_mark
 * flags the group starts, a prefix sum numbers the groups and k_start records where each
 * starts. The three kernels take the key buffer `keys` first. */
static inline struct mr_groups mr_group(CUfunction k_sort, CUfunction k_mark, CUfunction k_start, CUdeviceptr keys,
                                        CUdeviceptr pairs, int n_pairs, int padded)
{
    mr_sort(k_sort, &keys, pairs, padded);
    struct mr_groups g;
    g.first = wl_alloc(4 * (size_t)n_pairs);
    g.group_of = wl_alloc(4 * ((size_t)n_pairs + 1));
    void *mark_args[] = {&keys, &pairs, &n_pairs, &g.first};
    mr_launch(k_mark, n_pairs, mark_args);
    g.n_groups = mr_scan(g.first, g.group_of, n_pairs);
    g.start = wl_alloc(4 * ((size_t)g.n_groups + 1));
    void *start_args[] = {&g.first, &g.group_of, &n_pairs, &g.start};
    mr_launch(k_start, n_pairs, start_args);
    return g;
}

/* Frees the grouping's buffers, first, group_of and start in that order. */
static inline void mr_free_groups(const struct mr_groups *g)
{
    wl_free(g->first), wl_free(g->group_of), wl_free(g->start);
}

/* ---- synthetic inputs ---- */

#define MR_VOCAB 4096 /* words in a generated vocabulary */

/* Index of a Zipf(1/rank)-distributed draw, given the running sums cdf[0..n). */
static inline int mr_zipf(const double *cdf, int n)
{
    double u = wl_randf() * cdf[n - 1];
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* len random letters from `first` on ('a' or 'A'), NUL-terminated. */
static inline void mr_random_letters(char *s, int len, char first)
{
    for (int c = 0; c < len; c++)
        s[c] = (char)(first + wl_rand_below(26));
    s[len] = 0;
}

/* MR_VOCAB random words and their Zipf running sums: the frequent words (low ranks) short,
 * 2-4 letters, the rare ones up to 14, as in natural text. */
static inline void mr_make_vocab(char vocab[][16], double *cdf, char first)
{
    double sum = 0;
    for (int r = 0; r < MR_VOCAB; r++) {
        int len = 2 + (int)(0.7 * log2(r + 1.0)) + (int)wl_rand_below(3);
        mr_random_letters(vocab[r], len > 14 ? 14 : len, first);
        cdf[r] = sum += 1.0 / (r + 1);
    }
}

/* Text of `size` bytes (NUL-terminated): lines of 8-16 Zipf-distributed words of a vocabulary
 * generated into `vocab` with letters from `first` on. */
static inline char *mr_make_text(long size, char vocab[][16], char first)
{
    static double cdf[MR_VOCAB];
    mr_make_vocab(vocab, cdf, first);
    char *text = malloc(size + 1);
    long at = 0;
    while (at < size) {
        int words = 8 + (int)wl_rand_below(9);
        for (int w = 0; w < words && at < size; w++) {
            for (const char *s = vocab[mr_zipf(cdf, MR_VOCAB)]; *s && at < size; s++)
                text[at++] = *s;
            if (at < size)
                text[at++] = w + 1 < words ? ' ' : '\n';
        }
    }
    text[size] = 0;
    return text;
}

/* n URLs http://www.SITE.com/PATH.html, each on one of n_sites random sites (4-10 letters)
 * with a path of 3 to 2 + path_lens letters, and their Zipf running sums. */
static inline void mr_make_urls(char urls[][48], double *cdf, int n, int n_sites, int path_lens)
{
    static char sites[256][16];
    for (int s = 0; s < n_sites; s++)
        mr_random_letters(sites[s], 4 + (int)wl_rand_below(7), 'a');
    double sum = 0;
    for (int u = 0; u < n; u++) {
        char path[16];
        mr_random_letters(path, 3 + (int)wl_rand_below(path_lens), 'a');
        sprintf(urls[u], "http://www.%s.com/%s.html", sites[wl_rand_below(n_sites)], path);
        cdf[u] = sum += 1.0 / (u + 1);
    }
}

#endif
