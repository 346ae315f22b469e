/* kernel.cu: WordCount (WC) as a GPU MapReduce job in the style of the Mars framework.
 *
 * Input: upper-case text cut into records of about 2 KB (each ends at a word boundary),
 * described by recs[r] = {byte offset, length}. Thread r maps record r, so the 32 lanes of a
 * warp walk 32 records about 2 KB apart byte by byte: every text load touches 32 lines.
 *
 * Phases (the host launches them in this order):
 *   wc_map_count   each thread counts its words of at least MIN_WORD letters and their bytes;
 *   wc_scan_*      exclusive prefix sums of both counts give every thread its output slots;
 *   wc_map         each thread copies its words into the key buffer at its byte slot and
 *                  writes one pair {key offset, key length, value 1} per word at its pair slot;
 *   wc_sort        one step (k, j) of a bitonic sort of the pairs by key string (the host
 *                  launches one step per launch, over a power-of-two array padded with
 *                  length -1 entries that sort last);
 *   wc_group_mark  flags each sorted pair whose key differs from its predecessor's;
 *   wc_group_start after a prefix sum of the flags, records where each group (word) starts;
 *   wc_reduce      one thread per word adds up its values: the word's count.
 * Like Mars, only words of at least six letters are emitted. */

#define MIN_WORD 6

/* ---- exclusive prefix sum, 256 elements per block ---- */

/* out[i] = in[0] + ... + in[i-1] within the block, for i <= n (in[n] counts as 0), and the
 * block's sum in sums[block]. */
extern "C" __global__ void wc_scan_block(const int *in, int *out, int *sums, int n)
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
extern "C" __global__ void wc_scan_add(int *out, const int *block_base, int m)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < m)
        out[i] += block_base[blockIdx.x];
}

/* ---- map ---- */

__device__ bool is_letter(char c)
{
    return c >= 'A' && c <= 'Z';
}

extern "C" __global__ void wc_map_count(const char *text, const int2 *recs, int n_recs, int *n_words,
                                        int *n_bytes)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int words = 0, bytes = 0, run = 0;
    for (int i = 0; i < rec.y; i++) {
        if (is_letter(p[i])) {
            run++;
        } else {
            if (run >= MIN_WORD) {
                words++;
                bytes += run;
            }
            run = 0;
        }
    }
    if (run >= MIN_WORD) {
        words++;
        bytes += run;
    }
    n_words[r] = words;
    n_bytes[r] = bytes;
}

extern "C" __global__ void wc_map(const char *text, const int2 *recs, int n_recs, const int *word_at,
                                  const int *byte_at, char *keys, int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int slot = word_at[r], key_at = byte_at[r], run = 0;
    for (int i = 0; i <= rec.y; i++) {
        if (i < rec.y && is_letter(p[i])) {
            run++;
            continue;
        }
        if (run >= MIN_WORD) {
            /* emit: copy the key bytes into the key buffer, then the pair */
            for (int c = 0; c < run; c++)
                keys[key_at + c] = p[i - run + c];
            pairs[slot++] = make_int4(key_at, run, 1, 0);
            key_at += run;
        }
        run = 0;
    }
}

/* ---- group: bitonic sort by key, group boundaries ---- */

/* Byte-wise comparison of two keys (a shorter prefix first); padding (length -1) sorts last. */
__device__ int key_cmp(const char *keys, int4 a, int4 b)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    int n = min(a.y, b.y);
    for (int i = 0; i < n; i++) {
        int ca = (unsigned char)keys[a.x + i], cb = (unsigned char)keys[b.x + i];
        if (ca != cb)
            return ca - cb;
    }
    return a.y - b.y;
}

/* One compare-exchange per thread: thread t orders elements i and i + j, where i is t with a
 * zero bit inserted at j's position; blocks of size k alternate ascending and descending. */
extern "C" __global__ void wc_sort(const char *keys, int4 *pairs, int half, int k, int j)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int4 a = pairs[i], b = pairs[l];
    int c = key_cmp(keys, a, b);
    if ((i & k) == 0 ? c > 0 : c < 0) {
        pairs[i] = b;
        pairs[l] = a;
    }
}

extern "C" __global__ void wc_group_mark(const char *keys, const int4 *pairs, int n, int *first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        first[i] = i == 0 || key_cmp(keys, pairs[i - 1], pairs[i]) != 0;
}

/* start[g] = index of group g's first pair; start[groups] = n. */
extern "C" __global__ void wc_group_start(const int *first, const int *group_of, int n, int *start)
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

/* out[g] = {key offset, key length, sum of the values} of word g. */
extern "C" __global__ void wc_reduce(const int4 *pairs, const int *start, int groups, int4 *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= groups)
        return;
    int s = start[g], e = start[g + 1], sum = 0;
    for (int i = s; i < e; i++)
        sum += pairs[i].z;
    out[g] = make_int4(pairs[s].x, pairs[s].y, sum, 0);
}
