/* kernel.cu: InvertedIndex (IIX) as a GPU MapReduce job in the style of the Mars framework.
 *
 * Input: HTML documents packed into one buffer, cut into records of about 1 KB that end at a
 * line break and never cross a document, described by recs[r] = {byte offset, length,
 * document id, 0}. Thread r maps record r: it scans the record byte by byte for links
 * <a href="URL"> and emits one pair {URL offset, URL length, document id} per link (the key
 * points into the input, it is not copied). The 32 lanes of a warp scan 32 records about
 * 1 KB apart, so every text load touches 32 lines.
 *
 * Phases (the host launches them in this order):
 *   ii_map_count   links per record;
 *   ii_scan_*      exclusive prefix sum of the counts: each thread's first output slot;
 *   ii_map         writes the pairs;
 *   ii_sort        one step (k, j) of a bitonic sort of the pairs by URL (one launch per
 *                  step, over a power-of-two array padded with length -1 entries that sort
 *                  last); comparing two URLs reads both strings from the input buffer;
 *   ii_group_mark  flags each sorted pair whose URL differs from its predecessor's;
 *   ii_group_start after a prefix sum of the flags, records where each URL's group starts.
 * The index is the sorted pairs plus the group starts: URL -> its documents. As in Mars,
 * there is no reduce stage. */

#include "../common/mapreduce.cuh"

MR_SCAN_KERNELS(ii) /* ii_scan_block, ii_scan_add */

/* ---- map ---- */

/* The link opening <a href=" (9 characters), matched one character at a time. Only its first
 * character is '<', so after a mismatch the match restarts at 1 on '<' and at 0 otherwise. */
#define OPEN_LEN 9

__device__ char open_char(int m)
{
    switch (m) {
    case 0: return '<';
    case 1: return 'a';
    case 2: return ' ';
    case 3: return 'h';
    case 4: return 'r';
    case 5: return 'e';
    case 6: return 'f';
    case 7: return '=';
    default: return '"';
    }
}

/* Scans one record; with `out` null only counts the links, else also writes their pairs from
 * out[0] on. Returns the number of links. */
__device__ int scan_links(const char *text, int4 rec, int4 *out)
{
    const char *p = text + rec.x;
    int matched = 0, url = 0, links = 0;
    for (int i = 0; i < rec.y; i++) {
        char c = p[i];
        if (matched == OPEN_LEN) { /* inside the URL */
            if (c == '"') {
                if (out)
                    out[links] = make_int4(rec.x + url, i - url, rec.z, 0);
                links++;
                matched = 0;
            }
        } else if (c == open_char(matched)) {
            if (++matched == OPEN_LEN)
                url = i + 1;
        } else {
            matched = c == '<';
        }
    }
    return links;
}

extern "C" __global__ void ii_map_count(const char *text, const int4 *recs, int n_recs, int *n_links)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_recs)
        n_links[r] = scan_links(text, recs[r], 0);
}

extern "C" __global__ void ii_map(const char *text, const int4 *recs, int n_recs, const int *link_at, int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_recs)
        scan_links(text, recs[r], pairs + link_at[r]);
}

/* ---- group: bitonic sort by URL, group boundaries ---- */

MR_GROUP_KERNELS(ii, mr_key_order) /* ii_sort, ii_group_mark, ii_group_start */
