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

/* ---- exclusive prefix sum, 256 elements per block ---- */

/* out[i] = in[0] + ... + in[i-1] within the block, for i <= n (in[n] counts as 0), and the
 * block's sum in sums[block]. */
extern "C" __global__ void ii_scan_block(const int *in, int *out, int *sums, int n)
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
extern "C" __global__ void ii_scan_add(int *out, const int *block_base, int m)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < m)
        out[i] += block_base[blockIdx.x];
}

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

/* Byte-wise comparison of two URLs (a shorter prefix first); padding (length -1) sorts last. */
__device__ int url_cmp(const char *text, int4 a, int4 b)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    int n = min(a.y, b.y);
    for (int i = 0; i < n; i++) {
        int ca = (unsigned char)text[a.x + i], cb = (unsigned char)text[b.x + i];
        if (ca != cb)
            return ca - cb;
    }
    return a.y - b.y;
}

/* One compare-exchange per thread: thread t orders elements i and i + j, where i is t with a
 * zero bit inserted at j's position; blocks of size k alternate ascending and descending. */
extern "C" __global__ void ii_sort(const char *text, int4 *pairs, int half, int k, int j)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int4 a = pairs[i], b = pairs[l];
    int c = url_cmp(text, a, b);
    if ((i & k) == 0 ? c > 0 : c < 0) {
        pairs[i] = b;
        pairs[l] = a;
    }
}

extern "C" __global__ void ii_group_mark(const char *text, const int4 *pairs, int n, int *first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        first[i] = i == 0 || url_cmp(text, pairs[i - 1], pairs[i]) != 0;
}

/* start[g] = index of group g's first pair; start[groups] = n. */
extern "C" __global__ void ii_group_start(const int *first, const int *group_of, int n, int *start)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first[i])
        start[group_of[i]] = i;
    if (i == 0)
        start[group_of[n]] = n;
}
