/* kernel.cu: SimilarityScore (SS) as a GPU MapReduce job in the style of the Mars framework.
 *
 * Input: `docs` feature vectors of `dim` floats (row-major, dim a multiple of 4) and one
 * record per document pair, recs[r] = {doc a, doc b} with a < b, in row order (a, a+1),
 * (a, a+2), ... Thread r maps record r: it computes the cosine similarity
 * a.b / (|a| |b|) reading both vectors 16 bytes at a time. Along a warp, a is usually the
 * same document (one address for all lanes) while b steps by one document: the lanes' b loads
 * are dim * 4 bytes apart, 32 different lines per load.
 *
 * Phases: ss_map_count (one pair per record), an exclusive prefix sum of the counts
 * (ss_scan_*), ss_map (emits {score, doc a, doc b, 0}), then a bitonic sort of the pairs by
 * score, highest first (ss_sort, one launch per step over a power-of-two array padded with
 * doc -1 entries that sort last). As in Mars, there is no reduce stage: the sorted pairs are
 * the result. */

/* ---- exclusive prefix sum, 256 elements per block ---- */

/* out[i] = in[0] + ... + in[i-1] within the block, for i <= n (in[n] counts as 0), and the
 * block's sum in sums[block]. */
extern "C" __global__ void ss_scan_block(const int *in, int *out, int *sums, int n)
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
extern "C" __global__ void ss_scan_add(int *out, const int *block_base, int m)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < m)
        out[i] += block_base[blockIdx.x];
}

/* ---- map ---- */

extern "C" __global__ void ss_map_count(const int2 *recs, int n_recs, int *n_pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_recs)
        n_pairs[r] = recs[r].x >= 0;
}

extern "C" __global__ void ss_map(const float *features, int dim, const int2 *recs, int n_recs, const int *pair_at,
                                  int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    if (rec.x < 0)
        return;
    const float4 *a = (const float4 *)(features + (size_t)rec.x * dim);
    const float4 *b = (const float4 *)(features + (size_t)rec.y * dim);
    float ab = 0, aa = 0, bb = 0;
    for (int i = 0; i < dim / 4; i++) {
        float4 x = a[i], y = b[i];
        ab += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
        aa += x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w;
        bb += y.x * y.x + y.y * y.y + y.z * y.z + y.w * y.w;
    }
    float score = ab / (sqrtf(aa) * sqrtf(bb));
    pairs[pair_at[r]] = make_int4(__float_as_int(score), rec.x, rec.y, 0);
}

/* ---- sort by score ---- */

/* Negative when a comes first: higher score first; padding (doc -1) last. */
__device__ int score_cmp(int4 a, int4 b)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    float sa = __int_as_float(a.x), sb = __int_as_float(b.x);
    return sa > sb ? -1 : sa < sb;
}

/* One compare-exchange per thread: thread t orders elements i and i + j, where i is t with a
 * zero bit inserted at j's position; blocks of size k alternate ascending and descending. */
extern "C" __global__ void ss_sort(int4 *pairs, int half, int k, int j)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int4 a = pairs[i], b = pairs[l];
    int c = score_cmp(a, b);
    if ((i & k) == 0 ? c > 0 : c < 0) {
        pairs[i] = b;
        pairs[l] = a;
    }
}
