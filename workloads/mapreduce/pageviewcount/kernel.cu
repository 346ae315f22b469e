/* kernel.cu: PageViewCount (PVC) as two GPU MapReduce jobs in the style of the Mars framework.
 *
 * Input: a web log, one entry per line "URL<tab>IP<tab>DAY", each line a record
 * recs[r] = {byte offset, length without the line break}. Thread r maps record r, so the 32
 * lanes of a warp read 32 different lines of the log.
 *
 * Job 1 removes duplicate entries (the same URL visited from the same IP on the same day):
 *   pv_map_count  one pair per record;
 *   pv_scan_*     exclusive prefix sum of the counts: each thread's output slot;
 *   pv_map_entry  hashes the whole entry and emits {entry offset, entry length, hash, 0};
 *   pv_sort       one step (k, j) of a bitonic sort by (hash, key bytes, key length), one
 *                 launch per step over a power-of-two array padded with length -1 entries
 *                 that sort last; equal hashes compare the two keys byte by byte;
 *   pv_group_mark, pv_scan_*, pv_group_start: the groups of equal keys;
 *   pv_reduce_first: one thread per group keeps the group's first entry.
 * The host reads the distinct entries back and uploads them as the input of job 2 (as Mars
 * does between the two jobs). Job 2 counts the distinct visits per page:
 *   pv_map_count, pv_scan_*, pv_map_url (finds the tab, hashes the URL, emits
 *   {URL offset, URL length, hash, IP offset}), pv_sort, pv_group_mark, pv_scan_*,
 *   pv_group_start, pv_reduce_count (one thread per URL: the size of its group). */

#include "../common/mapreduce.cuh"

MR_SCAN_KERNELS(pv) /* pv_scan_block, pv_scan_add */

/* ---- map ---- */

/* FNV-1a over len bytes. */
__device__ unsigned hash_bytes(const char *p, int len)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

/* Both jobs emit one pair per record. */
extern "C" __global__ void pv_map_count(const int2 *recs, int n_recs, int *n_pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_recs)
        n_pairs[r] = recs[r].y > 0;
}

extern "C" __global__ void pv_map_entry(const char *log, const int2 *recs, int n_recs, const int *pair_at, int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    if (rec.y > 0)
        pairs[pair_at[r]] = make_int4(rec.x, rec.y, (int)hash_bytes(log + rec.x, rec.y), 0);
}

extern "C" __global__ void pv_map_url(const char *log, const int2 *recs, int n_recs, const int *pair_at, int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    if (rec.y <= 0)
        return;
    const char *p = log + rec.x;
    int len = 0;
    while (len < rec.y && p[len] != '\t')
        len++;
    pairs[pair_at[r]] = make_int4(rec.x, len, (int)hash_bytes(p, len), rec.x + len + 1);
}

/* ---- group: bitonic sort by (hash, key), group boundaries ---- */

MR_GROUP_KERNELS(pv, mr_hashed_key_order) /* pv_sort, pv_group_mark, pv_group_start */

/* ---- reduce ---- */

/* Job 1: the first entry of each group, as a record {offset, length} for job 2. */
extern "C" __global__ void pv_reduce_first(const int4 *pairs, const int *start, int groups, int2 *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < groups) {
        int4 p = pairs[start[g]];
        out[g] = make_int2(p.x, p.y);
    }
}

/* Job 2: {URL offset, URL length, number of distinct visits} per URL. */
extern "C" __global__ void pv_reduce_count(const int4 *pairs, const int *start, int groups, int4 *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < groups) {
        int s = start[g];
        int4 p = pairs[s];
        out[g] = make_int4(p.x, p.y, start[g + 1] - s, 0);
    }
}
