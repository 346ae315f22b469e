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

#include "../common/mapreduce.cuh"

MR_SCAN_KERNELS(ss) /* ss_scan_block, ss_scan_add */

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

/* Negative when a comes first: higher score first; padding (doc -1) last. The pairs carry no
 * key bytes, so the buffer is unused. */
__device__ int score_order(const char *, int4 a, int4 b)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    float sa = __int_as_float(a.x), sb = __int_as_float(b.x);
    return sa > sb ? -1 : sa < sb;
}

/* One step (k, j) of the bitonic sort by score_order. */
extern "C" __global__ void ss_sort(int4 *pairs, int half, int k, int j)
{
    mr_sort_step<score_order>(0, pairs, half, k, j);
}
