/* host.c: WordCount (WC), a Mars-style GPU MapReduce job (see kernel.cu).
 *
 * Input: `bytes` of synthetic upper-case text generated from `seed`: lines of 8-16 words drawn
 * from a 4096-word vocabulary with a Zipf (1/rank) distribution, where frequent words are
 * short (2-4 letters) and rare ones long (up to 14), as in natural text. As in the Mars
 * version, the text is cut into records of about 2 KB that end at a word boundary, and only
 * words of at least six letters are counted.
 *
 * The host runs the Mars flow with 256-thread blocks and one record per thread: map count,
 * two prefix sums (pairs and key bytes) on the GPU with the totals read back to size the
 * intermediate buffers, map, a bitonic sort of the pairs on the GPU (one launch per step over
 * the pair count rounded up to a power of two), group (mark, prefix sum, group starts) and a
 * reduce kernel that sums each word's values. The (word, count) list, in sorted word order,
 * must equal a CPU count exactly.
 *
 * Arguments: bytes, seed. Sizes:
 *   small = paper (default) bytes=90112: the 88 KB input of CIAO's Table II; 44 records (one
 *     block for the map), about 7,500 words of six letters or more, sorted as 8192 pairs.
 *     The input is already small, so both sizes are the same. */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 4096
#define CHUNK 2048 /* record size before extending to the next word boundary */
#define MIN_WORD 6 /* as in kernel.cu */

/* The kernels' int2 records and int4 pairs. */
struct rec {
    int off, len;
};
struct pair {
    int key, len, val, aux;
};

static CUfunction k_scan_block, k_scan_add;

/* 256-thread blocks covering n threads (at least one block: the kernels check n). */
static unsigned blocks(long n)
{
    return n > 256 ? (unsigned)((n + 255) / 256) : 1;
}

/* Exclusive prefix sum of in[0..n) into out[0..n] (out[n] = total) on the GPU. */
static void scan_rec(CUdeviceptr in, CUdeviceptr out, int n)
{
    int nb = n / 256 + 1;
    CUdeviceptr sums = wl_alloc((size_t)nb * 4);
    void *a[] = {&in, &out, &sums, &n};
    wl_launch(k_scan_block, nb, 1, 1, 256, 1, 1, 0, a);
    if (nb > 1) {
        CUdeviceptr base = wl_alloc((size_t)(nb + 1) * 4);
        scan_rec(sums, base, nb);
        int m = n + 1;
        void *b[] = {&out, &base, &m};
        wl_launch(k_scan_add, nb, 1, 1, 256, 1, 1, 0, b);
        wl_free(base);
    }
    wl_free(sums);
}

/* The scan, then the total read back (the host sizes the next buffers with it). */
static int scan(CUdeviceptr in, CUdeviceptr out, int n)
{
    scan_rec(in, out, n);
    int total;
    wl_download(&total, out + (CUdeviceptr)n * 4, 4);
    return total;
}

static int is_letter(char c)
{
    return c >= 'A' && c <= 'Z';
}

/* Text of `size` bytes: Zipf-distributed words from a generated vocabulary. */
static char *make_text(long size)
{
    static char vocab[VOCAB][16];
    static double cdf[VOCAB];
    double sum = 0;
    for (int r = 0; r < VOCAB; r++) {
        int len = 2 + (int)(0.7 * log2(r + 1.0)) + (int)wl_rand_below(3);
        if (len > 14)
            len = 14;
        for (int c = 0; c < len; c++)
            vocab[r][c] = (char)('A' + wl_rand_below(26));
        vocab[r][len] = 0;
        sum += 1.0 / (r + 1);
        cdf[r] = sum;
    }
    char *text = malloc(size + 1);
    long at = 0;
    while (at < size) {
        int words = 8 + (int)wl_rand_below(9);
        for (int w = 0; w < words && at < size; w++) {
            double u = wl_randf() * sum;
            int lo = 0, hi = VOCAB - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (cdf[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (const char *s = vocab[lo]; *s && at < size; s++)
                text[at++] = *s;
            if (at < size)
                text[at++] = w + 1 < words ? ' ' : '\n';
        }
    }
    text[size] = 0;
    return text;
}

/* Comparison of two (offset, length) words of a buffer, the same order as key_cmp. */
static const char *cmp_base;
static int word_cmp(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    int n = a[1] < b[1] ? a[1] : b[1];
    int c = memcmp(cmp_base + a[0], cmp_base + b[0], n);
    return c ? c : a[1] - b[1];
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"bytes", "seed"};
    long val[] = {90112, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 200000000) {
        fprintf(stderr, "wordcount: need 1 <= bytes <= 2e8\n");
        return 2;
    }
    long size = val[0];
    wl_seed((uint64_t)val[1]);
    char *text = make_text(size);

    /* Records: CHUNK bytes, extended to the next non-letter. */
    int n_recs = 0;
    struct rec *recs = malloc(sizeof *recs * (size / CHUNK + 2));
    for (long s = 0; s < size;) {
        long e = s + CHUNK < size ? s + CHUNK : size;
        while (e < size && is_letter(text[e]))
            e++;
        recs[n_recs++] = (struct rec){(int)s, (int)(e - s)};
        s = e;
    }

    wl_init();
    k_scan_block = wl_kernel("wc_scan_block");
    k_scan_add = wl_kernel("wc_scan_add");
    CUfunction k_count = wl_kernel("wc_map_count"), k_map = wl_kernel("wc_map"), k_sort = wl_kernel("wc_sort");
    CUfunction k_mark = wl_kernel("wc_group_mark"), k_start = wl_kernel("wc_group_start");
    CUfunction k_reduce = wl_kernel("wc_reduce");

    /* Map: count, prefix sums, emit. */
    CUdeviceptr d_text = wl_upload(text, size), d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_nwords = wl_alloc(4 * (size_t)n_recs), d_nbytes = wl_alloc(4 * (size_t)n_recs);
    void *count_args[] = {&d_text, &d_recs, &n_recs, &d_nwords, &d_nbytes};
    wl_launch(k_count, blocks(n_recs), 1, 1, 256, 1, 1, 0, count_args);
    CUdeviceptr d_word_at = wl_alloc(4 * ((size_t)n_recs + 1)), d_byte_at = wl_alloc(4 * ((size_t)n_recs + 1));
    int n_pairs = scan(d_nwords, d_word_at, n_recs);
    int key_bytes = scan(d_nbytes, d_byte_at, n_recs);

    int padded = 2;
    while (padded < n_pairs)
        padded *= 2;
    CUdeviceptr d_keys = wl_alloc(key_bytes), d_pairs = wl_alloc(sizeof(struct pair) * (size_t)padded);
    struct pair *pad = malloc(sizeof *pad * (padded - n_pairs + 1));
    for (int i = 0; i < padded - n_pairs; i++)
        pad[i] = (struct pair){0, -1, 0, 0};
    wl_copy_to(d_pairs + sizeof(struct pair) * (size_t)n_pairs, pad, sizeof(struct pair) * (size_t)(padded - n_pairs));
    void *map_args[] = {&d_text, &d_recs, &n_recs, &d_word_at, &d_byte_at, &d_keys, &d_pairs};
    wl_launch(k_map, blocks(n_recs), 1, 1, 256, 1, 1, 0, map_args);

    /* Group: bitonic sort, one launch per step. */
    int half = padded / 2;
    for (int k = 2; k <= padded; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            void *a[] = {&d_keys, &d_pairs, &half, &k, &j};
            wl_launch(k_sort, blocks(half), 1, 1, 256, 1, 1, 0, a);
        }
    CUdeviceptr d_first = wl_alloc(4 * (size_t)n_pairs), d_group_of = wl_alloc(4 * ((size_t)n_pairs + 1));
    void *mark_args[] = {&d_keys, &d_pairs, &n_pairs, &d_first};
    wl_launch(k_mark, blocks(n_pairs), 1, 1, 256, 1, 1, 0, mark_args);
    int groups = scan(d_first, d_group_of, n_pairs);
    CUdeviceptr d_start = wl_alloc(4 * ((size_t)groups + 1));
    void *start_args[] = {&d_first, &d_group_of, &n_pairs, &d_start};
    wl_launch(k_start, blocks(n_pairs), 1, 1, 256, 1, 1, 0, start_args);

    /* Reduce: one thread per word. */
    CUdeviceptr d_out = wl_alloc(sizeof(struct pair) * (size_t)groups);
    void *reduce_args[] = {&d_pairs, &d_start, &groups, &d_out};
    wl_launch(k_reduce, blocks(groups), 1, 1, 256, 1, 1, 0, reduce_args);

    struct pair *out = malloc(sizeof *out * (groups + 1));
    char *got_keys = malloc(key_bytes + 1);
    wl_download(out, d_out, sizeof *out * groups);
    wl_download(got_keys, d_keys, key_bytes);

    /* CPU reference: every word of MIN_WORD letters or more, sorted, counted. */
    int (*words)[2] = malloc(sizeof *words * (size / MIN_WORD + 1));
    int n_words = 0;
    for (long i = 0; i < size;) {
        long s = i;
        while (i < size && is_letter(text[i]))
            i++;
        if (i - s >= MIN_WORD) {
            words[n_words][0] = (int)s;
            words[n_words][1] = (int)(i - s);
            n_words++;
        }
        if (i == s)
            i++;
    }
    cmp_base = text;
    qsort(words, n_words, sizeof *words, word_cmp);

    /* Compare group by group: the word (from the key buffer) and its count. */
    long bad = labs((long)n_words - n_pairs);
    int g = 0;
    for (int i = 0; i < n_words; g++) {
        int e = i + 1;
        while (e < n_words && word_cmp(words[i], words[e]) == 0)
            e++;
        if (g >= groups) {
            bad++;
        } else if (out[g].len != words[i][1] || memcmp(got_keys + out[g].key, text + words[i][0], out[g].len) ||
                   out[g].val != e - i) {
            bad++;
        }
        i = e;
    }
    bad += labs((long)g - groups);
    printf("wordcount: %ld bytes, %d records, %d words of %d+ letters, %d distinct (sorted as %d)\n", size, n_recs,
           n_words, MIN_WORD, groups, padded);

    free(text), free(recs), free(pad), free(out), free(got_keys), free(words);
    return wl_finish("wordcount", (double)bad, 0);
}
