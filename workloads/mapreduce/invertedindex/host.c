/* host.c: InvertedIndex (IIX), a Mars-style GPU MapReduce job (see kernel.cu).
 *
 * Input: about `bytes` of synthetic HTML generated from `seed`: documents of 2-16 KB, each a
 * title line and paragraph lines of 8-16 tokens; a token is a word of a 4096-word Zipf
 * vocabulary or, with probability 0.08, a link <a href="URL">word</a> to one of 4096 URLs
 * (http://www.SITE.com/PATH.html on 256 sites), also Zipf-distributed, so popular pages are
 * linked from many documents. That is about one link per 125 bytes: the paper size then
 * yields between 2^15 and 2^16 links, so its sort takes 136 launches and the whole job about
 * 150, in line with the 149 kernel launches the thesis reports for IIX. As in the Mars
 * version, each document is cut into records of about 1 KB ending at a line break.
 *
 * The host runs the Mars flow with 256-thread blocks and one record per thread: map count,
 * a prefix sum on the GPU with the total read back to size the pair buffer, map, a bitonic
 * sort of the pairs on the GPU (one launch per step), and the grouping (mark, prefix sum,
 * group starts). Every URL's group, and the documents in it, must equal a CPU index exactly
 * (the sort is not stable, so the documents of a group are compared as a sorted list).
 *
 * Arguments: bytes, seed. Sizes:
 *   small (default) bytes=393216: about 390 records (2 blocks) of the same 1 KB shape as at
 *     paper size and about 2,600 links (sorted as 4096).
 *   paper bytes=6800000: the 6.8 MB input of the thesis's Tables 3.2, 4.2 and 5.2 (about
 *     6,500 records in 26 blocks, 44,500 links). CIAO's Table II lists 28 MB for the same
 *     application. */
#include "wl.h"
#include "../common/mapreduce_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URLS 4096
#define SITES 256
#define CHUNK 1024 /* record size before extending past the next line break */

/* The kernels' int4 records {offset, length, document, 0} and pairs {URL offset, URL length,
 * document, 0}. */
struct quad {
    int off, len, doc, pad;
};

/* Appends printf-style text to buf at *at (buf is large enough). */
#define PUT(...) (*at += sprintf(buf + *at, __VA_ARGS__))

static char vocab[MR_VOCAB][16], urls[URLS][48];
static double word_cdf[MR_VOCAB], url_cdf[URLS];

/* One document of about `target` bytes, written at buf + *at. */
static void make_doc(char *buf, long *at, int doc, int target)
{
    long start = *at;
    PUT("<html><head><title>document %d</title></head><body>\n", doc);
    while (*at - start < target) {
        PUT("<p>");
        int tokens = 8 + (int)wl_rand_below(9);
        for (int t = 0; t < tokens; t++) {
            const char *sep = t ? " " : "";
            if (wl_randf() < 0.08f)
                PUT("%s<a href=\"%s\">%s</a>", sep, urls[mr_zipf(url_cdf, URLS)],
                    vocab[mr_zipf(word_cdf, MR_VOCAB)]);
            else
                PUT("%s%s", sep, vocab[mr_zipf(word_cdf, MR_VOCAB)]);
        }
        PUT("</p>\n");
    }
    PUT("</body></html>\n");
}

/* Order of (URL, document) entries: the URL bytes as mr_key_order (ii_sort), then the document. */
static const char *cmp_text;
static int entry_cmp(const void *pa, const void *pb)
{
    const struct quad *a = pa, *b = pb;
    int n = a->len < b->len ? a->len : b->len;
    int c = memcmp(cmp_text + a->off, cmp_text + b->off, n);
    if (!c)
        c = a->len - b->len;
    return c ? c : a->doc - b->doc;
}

static int url_differs(const struct quad *a, const struct quad *b)
{
    return a->len != b->len || memcmp(cmp_text + a->off, cmp_text + b->off, a->len);
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"bytes", "seed"};
    long val[] = {393216, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 500000000) {
        fprintf(stderr, "invertedindex: need 1 <= bytes <= 5e8\n");
        return 2;
    }
    long want_size = val[0];
    wl_seed((uint64_t)val[1]);

    /* Vocabulary, URLs on their sites, then documents up to `bytes`. */
    mr_make_vocab(vocab, word_cdf, 'a');
    mr_make_urls(urls, url_cdf, URLS, SITES, 10);
    char *text = malloc(want_size + 20000);
    long size = 0;
    int n_docs = 0;
    long *doc_start = malloc(sizeof *doc_start * (want_size / 2048 + 2));
    while (size < want_size) {
        doc_start[n_docs] = size;
        make_doc(text, &size, n_docs, 2048 + (int)wl_rand_below(14337));
        n_docs++;
    }
    doc_start[n_docs] = size;

    /* Records: per document, CHUNK bytes extended past the next line break. */
    int max_recs = (int)(size / CHUNK) + n_docs + 1;
    struct quad *recs = malloc(sizeof *recs * max_recs);
    int n_recs = 0;
    for (int d = 0; d < n_docs; d++)
        for (long s = doc_start[d]; s < doc_start[d + 1];) {
            long e = s + CHUNK < doc_start[d + 1] ? s + CHUNK : doc_start[d + 1];
            while (e < doc_start[d + 1] && text[e - 1] != '\n')
                e++;
            recs[n_recs++] = (struct quad){(int)s, (int)(e - s), d, 0};
            s = e;
        }

    wl_init();
    mr_k_scan_block = wl_kernel("ii_scan_block");
    mr_k_scan_add = wl_kernel("ii_scan_add");
    CUfunction k_count = wl_kernel("ii_map_count"), k_map = wl_kernel("ii_map"), k_sort = wl_kernel("ii_sort");
    CUfunction k_mark = wl_kernel("ii_group_mark"), k_start = wl_kernel("ii_group_start");

    /* Map: count, prefix sum, emit. */
    CUdeviceptr d_text = wl_upload(text, size), d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_nlinks = wl_alloc(4 * (size_t)n_recs), d_link_at = wl_alloc(4 * ((size_t)n_recs + 1));
    void *count_args[] = {&d_text, &d_recs, &n_recs, &d_nlinks};
    mr_launch(k_count, n_recs, count_args);
    int n_pairs = mr_scan(d_nlinks, d_link_at, n_recs);
    int padded;
    CUdeviceptr d_pairs = mr_alloc_pairs(n_pairs, &(struct quad){0, -1, 0, 0}, &padded);
    void *map_args[] = {&d_text, &d_recs, &n_recs, &d_link_at, &d_pairs};
    mr_launch(k_map, n_recs, map_args);

    /* Group: bitonic sort, then the group boundaries. */
    struct mr_groups grp = mr_group(k_sort, k_mark, k_start, d_text, d_pairs, n_pairs, padded);
    int groups = grp.n_groups;

    struct quad *pairs = malloc(sizeof *pairs * (n_pairs + 1));
    int *start = malloc(sizeof *start * (groups + 1));
    wl_download(pairs, d_pairs, sizeof *pairs * n_pairs);
    wl_download(start, grp.start, sizeof *start * (groups + 1));

    /* CPU reference: every link of every document, sorted by URL, then document. */
    struct quad *want = malloc(sizeof *want * (size / 10 + 1));
    int n_want = 0;
    static const char open[] = "<a href=\"";
    for (int d = 0; d < n_docs; d++) {
        char save = text[doc_start[d + 1]];
        text[doc_start[d + 1]] = 0; /* strstr stays inside the document */
        for (char *p = strstr(text + doc_start[d], open); p; p = strstr(p, open)) {
            p += strlen(open);
            char *q = strchr(p, '"');
            want[n_want++] = (struct quad){(int)(p - text), (int)(q - p), d, 0};
            p = q;
        }
        text[doc_start[d + 1]] = save;
    }
    cmp_text = text;
    qsort(want, n_want, sizeof *want, entry_cmp);

    /* Compare group by group: each pair's URL, and the group's sorted documents. */
    long bad = labs((long)n_want - n_pairs);
    int g = 0;
    for (int i = 0; i < n_want && n_want == n_pairs; g++) {
        int e = i + 1;
        while (e < n_want && !url_differs(&want[i], &want[e]))
            e++;
        if (g >= groups || start[g] != i || start[g + 1] != e) {
            bad++;
        } else {
            qsort(pairs + i, e - i, sizeof *pairs, entry_cmp);
            for (int p = i; p < e; p++)
                bad += url_differs(&pairs[p], &want[i]) || pairs[p].doc != want[p].doc;
        }
        i = e;
    }
    if (n_want == n_pairs)
        bad += labs((long)g - groups);
    printf("invertedindex: %ld bytes, %d documents, %d records, %d links to %d URLs (sorted as %d)\n", size, n_docs,
           n_recs, n_pairs, groups, padded);

    free(text), free(doc_start), free(recs), free(pairs), free(start), free(want);
    return wl_finish("invertedindex", (double)bad, 0);
}
