/* host.c: PageViewCount (PVC), two Mars-style GPU MapReduce jobs (see kernel.cu).
 *
 * Input: a web log of `entries` lines "URL<tab>IP<tab>DAY" generated from `seed`: the URL is
 * one of 1024 pages (http://www.SITE.com/PATH.html on 64 sites) and the visitor one of 4096,
 * both Zipf (1/rank) distributed; each visitor has a fixed IP and the day is 0-6, so popular
 * visitors revisit popular pages on the same day and the log holds duplicate entries. A line
 * is 45-60 bytes. PVC counts, per page, the distinct (IP, day) visits: job 1 removes the
 * duplicate entries, job 2 groups the remaining ones by URL.
 *
 * The host runs the Mars flow for each job with 256-thread blocks and one log entry per
 * thread: map count, a prefix sum on the GPU with the total read back, map, a bitonic sort of
 * the pairs on the GPU (one launch per step), grouping (mark, prefix sum, group starts) and a
 * reduce kernel; between the jobs the distinct entries go through the host. The per-URL
 * counts, in the jobs' (hash, URL) order, must equal a CPU count exactly.
 *
 * Arguments: entries, seed. Sizes:
 *   small (default) entries=4096: 16 blocks for the first map, both sorts over 4096 pairs
 *     (job 2's compares mostly meet equal hashes and read both URLs to the end, so the sorts
 *     dominate: 16384 entries would take about 12 M warp instructions).
 *   paper entries=100000: the 100K input of the thesis's Table 4.2 (about 5 MB of log; CIAO's
 *     Table II lists 13 MB for the application). */
#include "wl.h"
#include "../common/mapreduce_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGES 1024
#define SITES 64
#define VISITORS 4096
#define DAYS 7

/* The kernels' int2 records and int4 pairs / outputs. */
struct rec {
    int off, len;
};
struct quad {
    int off, len, val, aux;
};

/* The kernels of one job, named by its map and reduce. */
static CUfunction k_count, k_sort, k_mark, k_start;

/* One MapReduce job over n records in d_recs: map count, prefix sum, map, sort, group, reduce
 * (one thread per group, writing to *d_out, allocated here with out_size bytes per group).
 * Returns the number of groups. */
static int run_job(CUfunction k_map, CUfunction k_reduce, CUdeviceptr d_log, CUdeviceptr d_recs, int n,
                   CUdeviceptr *d_out, size_t out_size)
{
    CUdeviceptr d_npairs = wl_alloc(4 * (size_t)n), d_pair_at = wl_alloc(4 * ((size_t)n + 1));
    void *count_args[] = {&d_recs, &n, &d_npairs};
    mr_launch(k_count, n, count_args);
    int n_pairs = mr_scan(d_npairs, d_pair_at, n);
    int padded;
    CUdeviceptr d_pairs = mr_alloc_pairs(n_pairs, &(struct quad){0, -1, 0, 0}, &padded);
    void *map_args[] = {&d_log, &d_recs, &n, &d_pair_at, &d_pairs};
    mr_launch(k_map, n, map_args);

    struct mr_groups grp = mr_group(k_sort, k_mark, k_start, d_log, d_pairs, n_pairs, padded);
    *d_out = wl_alloc(out_size * (size_t)grp.n_groups);
    void *reduce_args[] = {&d_pairs, &grp.start, &grp.n_groups, d_out};
    mr_launch(k_reduce, grp.n_groups, reduce_args);

    wl_free(d_npairs), wl_free(d_pair_at), wl_free(d_pairs);
    mr_free_groups(&grp);
    return grp.n_groups;
}

/* FNV-1a, as hash_bytes in kernel.cu. */
static unsigned hash_bytes(const char *p, int len)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

/* Orders (offset, length) strings of the log: whole bytes (entry_cmp), or (hash, bytes) of the
 * URL, as mr_hashed_key_order in pv_sort (url_cmp; .val holds the hash). */
static const char *cmp_log;
static int bytes_cmp(const struct quad *a, const struct quad *b)
{
    int n = a->len < b->len ? a->len : b->len;
    int c = memcmp(cmp_log + a->off, cmp_log + b->off, n);
    return c ? c : a->len - b->len;
}
static int entry_cmp(const void *a, const void *b)
{
    return bytes_cmp(a, b);
}
static int url_cmp(const void *pa, const void *pb)
{
    const struct quad *a = pa, *b = pb;
    if (a->val != b->val)
        return (unsigned)a->val < (unsigned)b->val ? -1 : 1;
    return bytes_cmp(a, b);
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"entries", "seed"};
    long val[] = {4096, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 20000000) {
        fprintf(stderr, "pageviewcount: need 1 <= entries <= 2e7\n");
        return 2;
    }
    int n = (int)val[0];
    wl_seed((uint64_t)val[1]);

    /* Pages, visitors (with their IPs), then the log. */
    static char pages[PAGES][48], ips[VISITORS][16];
    static double page_cdf[PAGES], visitor_cdf[VISITORS];
    mr_make_urls(pages, page_cdf, PAGES, SITES, 8);
    double sum = 0;
    for (int v = 0; v < VISITORS; v++) {
        sprintf(ips[v], "%u.%u.%u.%u", 1 + wl_rand_below(254), wl_rand_below(256), wl_rand_below(256),
                1 + wl_rand_below(254));
        visitor_cdf[v] = sum += 1.0 / (v + 1);
    }
    char *log = malloc((size_t)n * 64 + 1);
    struct rec *recs = malloc(sizeof *recs * n);
    long size = 0;
    for (int i = 0; i < n; i++) {
        const char *page = pages[mr_zipf(page_cdf, PAGES)], *ip = ips[mr_zipf(visitor_cdf, VISITORS)];
        int len = sprintf(log + size, "%s\t%s\t%u", page, ip, wl_rand_below(DAYS));
        recs[i] = (struct rec){(int)size, len};
        log[size + len] = '\n';
        size += len + 1;
    }

    wl_init();
    mr_k_scan_block = wl_kernel("pv_scan_block");
    mr_k_scan_add = wl_kernel("pv_scan_add");
    k_count = wl_kernel("pv_map_count");
    k_sort = wl_kernel("pv_sort");
    k_mark = wl_kernel("pv_group_mark");
    k_start = wl_kernel("pv_group_start");
    CUdeviceptr d_log = wl_upload(log, size), d_recs = wl_upload(recs, sizeof *recs * n);

    /* Job 1: distinct entries, read back and uploaded as job 2's input. */
    CUdeviceptr d_distinct, d_counts;
    int n_distinct = run_job(wl_kernel("pv_map_entry"), wl_kernel("pv_reduce_first"), d_log, d_recs, n, &d_distinct,
                             sizeof(struct rec));
    struct rec *distinct = malloc(sizeof *distinct * (n_distinct + 1));
    wl_download(distinct, d_distinct, sizeof *distinct * n_distinct);
    wl_free(d_distinct);
    CUdeviceptr d_recs2 = wl_upload(distinct, sizeof *distinct * n_distinct);

    /* Job 2: distinct visits per URL. */
    int n_urls = run_job(wl_kernel("pv_map_url"), wl_kernel("pv_reduce_count"), d_log, d_recs2, n_distinct, &d_counts,
                         sizeof(struct quad));
    struct quad *got = malloc(sizeof *got * (n_urls + 1));
    wl_download(got, d_counts, sizeof *got * n_urls);

    /* CPU reference: sort the entries to drop duplicates, then sort the distinct entries' URLs
     * by (hash, URL) and count each run. */
    cmp_log = log;
    struct quad *e = malloc(sizeof *e * n);
    for (int i = 0; i < n; i++)
        e[i] = (struct quad){recs[i].off, recs[i].len, 0, 0};
    qsort(e, n, sizeof *e, entry_cmp);
    int n_want = 0;
    struct quad prev = {0, -1, 0, 0};
    for (int i = 0; i < n; i++)
        if (prev.len < 0 || entry_cmp(&prev, &e[i])) {
            prev = e[i];
            int len = (int)(strchr(log + e[i].off, '\t') - (log + e[i].off));
            e[n_want++] = (struct quad){e[i].off, len, (int)hash_bytes(log + e[i].off, len), 0};
        }
    long bad = labs((long)n_want - n_distinct);
    qsort(e, n_want, sizeof *e, url_cmp);
    int g = 0;
    for (int i = 0; i < n_want; g++) {
        int j = i + 1;
        while (j < n_want && !url_cmp(&e[i], &e[j]))
            j++;
        if (g >= n_urls || got[g].len != e[i].len || memcmp(log + got[g].off, log + e[i].off, e[i].len) ||
            got[g].val != j - i)
            bad++;
        i = j;
    }
    bad += labs((long)g - n_urls);
    printf("pageviewcount: %d entries (%ld bytes), %d distinct, %d URLs\n", n, size, n_distinct, n_urls);

    free(log), free(recs), free(distinct), free(got), free(e);
    return wl_finish("pageviewcount", (double)bad, 0);
}
