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

/* ---- exclusive prefix sum, 256 elements per block ---- */

/* out[i] = in[0] + ... + in[i-1] within the block, for i <= n (in[n] counts as 0), and the
 * block's sum in sums[block]. */
extern "C" __global__ void pv_scan_block(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[256];
    int tid = threadIdx.x, i = blockIdx.x * 256 + tid;
    int v = i < n ? in[i] : 0;
    s[tid] = v;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int t = tid >= off ? s[tid - off] : 0;
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
    if (i <= n)
        out[i] = s[tid] - v;
    if (tid == 255)
        sums[blockIdx.x] = s[255];
}

/* Adds the scanned block sums to the block-local prefix sums. */
extern "C" __global__ void pv_scan_add(int *out, const int *block_base, int m)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < m)
        out[i] += block_base[blockIdx.x];
}

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

/* Order by hash, then the key bytes (a shorter prefix first); padding (length -1) sorts last. */
__device__ int key_cmp(const char *log, int4 a, int4 b)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    if (a.z != b.z)
        return (unsigned)a.z < (unsigned)b.z ? -1 : 1;
    int n = min(a.y, b.y);
    for (int i = 0; i < n; i++) {
        int ca = (unsigned char)log[a.x + i], cb = (unsigned char)log[b.x + i];
        if (ca != cb)
            return ca - cb;
    }
    return a.y - b.y;
}

/* One compare-exchange per thread: thread t orders elements i and i + j, where i is t with a
 * zero bit inserted at j's position; blocks of size k alternate ascending and descending. */
extern "C" __global__ void pv_sort(const char *log, int4 *pairs, int half, int k, int j)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int4 a = pairs[i], b = pairs[l];
    int c = key_cmp(log, a, b);
    if ((i & k) == 0 ? c > 0 : c < 0) {
        pairs[i] = b;
        pairs[l] = a;
    }
}

extern "C" __global__ void pv_group_mark(const char *log, const int4 *pairs, int n, int *first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        first[i] = i == 0 || key_cmp(log, pairs[i - 1], pairs[i]) != 0;
}

/* start[g] = index of group g's first pair; start[groups] = n. */
extern "C" __global__ void pv_group_start(const int *first, const int *group_of, int n, int *start)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first[i])
        start[group_of[i]] = i;
    if (i == 0)
        start[group_of[n]] = n;
}

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
