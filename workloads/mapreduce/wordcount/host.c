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
#include "../common/mapreduce_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 2048 /* record size before extending to the next word boundary */
#define MIN_WORD 6 /* as in kernel.cu */

/* The kernels' int2 records and int4 pairs. */
struct rec {
    int off, len;
};
struct pair {
    int key, len, val, aux;
};

static int is_letter(char c)
{
    return c >= 'A' && c <= 'Z';
}

/* Comparison of two (offset, length) words of a buffer, the order of mr_key_order (wc_sort). */
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
    static char vocab[MR_VOCAB][16];
    char *text = mr_make_text(size, vocab, 'A');

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
    mr_k_scan_block = wl_kernel("wc_scan_block");
    mr_k_scan_add = wl_kernel("wc_scan_add");
    CUfunction k_count = wl_kernel("wc_map_count"), k_map = wl_kernel("wc_map"), k_sort = wl_kernel("wc_sort");
    CUfunction k_mark = wl_kernel("wc_group_mark"), k_start = wl_kernel("wc_group_start");
    CUfunction k_reduce = wl_kernel("wc_reduce");

    /* Map: count, prefix sums, emit. */
    CUdeviceptr d_text = wl_upload(text, size), d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_nwords = wl_alloc(4 * (size_t)n_recs), d_nbytes = wl_alloc(4 * (size_t)n_recs);
    void *count_args[] = {&d_text, &d_recs, &n_recs, &d_nwords, &d_nbytes};
    mr_launch(k_count, n_recs, count_args);
    CUdeviceptr d_word_at = wl_alloc(4 * ((size_t)n_recs + 1)), d_byte_at = wl_alloc(4 * ((size_t)n_recs + 1));
    int n_pairs = mr_scan(d_nwords, d_word_at, n_recs);
    int key_bytes = mr_scan(d_nbytes, d_byte_at, n_recs);
    CUdeviceptr d_keys = wl_alloc(key_bytes);
    int padded;
    CUdeviceptr d_pairs = mr_alloc_pairs(n_pairs, &(struct pair){0, -1, 0, 0}, &padded);
    void *map_args[] = {&d_text, &d_recs, &n_recs, &d_word_at, &d_byte_at, &d_keys, &d_pairs};
    mr_launch(k_map, n_recs, map_args);

    /* Group: bitonic sort, then the group boundaries. */
    struct mr_groups grp = mr_group(k_sort, k_mark, k_start, d_keys, d_pairs, n_pairs, padded);
    int groups = grp.n_groups;

    /* Reduce: one thread per word. */
    CUdeviceptr d_out = wl_alloc(sizeof(struct pair) * (size_t)groups);
    void *reduce_args[] = {&d_pairs, &grp.start, &groups, &d_out};
    mr_launch(k_reduce, groups, reduce_args);

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

    free(text), free(recs), free(out), free(got_keys), free(words);
    return wl_finish("wordcount", (double)bad, 0);
}
