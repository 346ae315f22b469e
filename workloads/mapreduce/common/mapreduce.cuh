/* mapreduce.cuh: the device code the Mars-style MapReduce workloads share, included by each
 * workload's kernel.cu:
 *   - the exclusive prefix sum that gives every map thread its output slots (and, over the
 *     group flags, every sorted pair its group);
 *   - one step of the bitonic sort of the intermediate pairs, under the workload's order;
 *   - the grouping of the sorted pairs: a flag on each pair that starts a group, then the
 *     index where each group starts.
 * The kernels keep the workload's own prefix (wc_scan_block, ii_sort, ...): the MR_*_KERNELS
 * macros below define them as thin wrappers of these functions, which nvcc inlines. */
#ifndef MAPREDUCE_CUH
#define MAPREDUCE_CUH

/* ---- exclusive prefix sum, 256 elements per block ---- */

/* out[i] = in[0] + ... + in[i-1] within the block, for i <= n (in[n] counts as 0), and the
 * block's sum in sums[block]. */
__device__ void mr_scan_block(const int *in, int *out, int *sums, int n)
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
__device__ void mr_scan_add(int *out, const int *block_base, int m)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < m)
        out[i] += block_base[blockIdx.x];
}

/* P_scan_block and P_scan_add for the workload prefix P. */
#define MR_SCAN_KERNELS(P)                                                                   \
    extern "C" __global__ void P##_scan_block(const int *in, int *out, int *sums, int n)   \
    {                                                                                        \
        mr_scan_block(in, out, sums, n);                                                     \
    }                                                                                        \
    extern "C" __global__ void P##_scan_add(int *out, const int *block_base, int m)        \
    {                                                                                        \
        mr_scan_add(out, block_base, m);                                                     \
    }

/* ---- pair orders ---- */

/* Pairs are int4 {key offset, key length, ...} into a byte buffer; padding entries have
 * length -1 and sort after every real pair. An order returns <0, 0 or >0 as strcmp does. */
typedef int (*mr_order)(const char *buf, int4 a, int4 b);

/* Byte-wise order of the keys (a shorter prefix first); with by_hash, the keys' hashes in .z
 * decide first and only equal hashes compare bytes. */
__device__ int mr_bytes_order(const char *buf, int4 a, int4 b, bool by_hash)
{
    if (a.y < 0 || b.y < 0)
        return (a.y < 0) - (b.y < 0);
    if (by_hash && a.z != b.z)
        return (unsigned)a.z < (unsigned)b.z ? -1 : 1;
    int n = min(a.y, b.y);
    for (int i = 0; i < n; i++) {
        int ca = (unsigned char)buf[a.x + i], cb = (unsigned char)buf[b.x + i];
        if (ca != cb)
            return ca - cb;
    }
    return a.y - b.y;
}

__device__ int mr_key_order(const char *buf, int4 a, int4 b)
{
    return mr_bytes_order(buf, a, b, false);
}

__device__ int mr_hashed_key_order(const char *buf, int4 a, int4 b)
{
    return mr_bytes_order(buf, a, b, true);
}

/* ---- group: bitonic sort, group boundaries ---- */

/* One compare-exchange per thread: thread t orders elements i and i + j, where i is t with a
 * zero bit inserted at j's position; blocks of size k alternate ascending and descending. */
template <mr_order order>
__device__ void mr_sort_step(const char *buf, int4 *pairs, int half, int k, int j)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int4 a = pairs[i], b = pairs[l];
    int c = order(buf, a, b);
    if ((i & k) == 0 ? c > 0 : c < 0) {
        pairs[i] = b;
        pairs[l] = a;
    }
}

/* first[i] = 1 where sorted pair i starts a group (its key differs from its predecessor's). */
template <mr_order order>
__device__ void mr_group_mark(const char *buf, const int4 *pairs, int n, int *first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        first[i] = i == 0 || order(buf, pairs[i - 1], pairs[i]) != 0;
}

/* start[g] = index of group g's first pair; start[groups] = n. group_of is first's prefix sum. */
__device__ void mr_group_start(const int *first, const int *group_of, int n, int *start)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (first[i])
        start[group_of[i]] = i;
    if (i == 0)
        start[group_of[n]] = n;
}

/* P_sort, P_group_mark and P_group_start for the workload prefix P, pairs in order ORDER over
 * the key buffer given as the kernels' first argument. */
#define MR_GROUP_KERNELS(P, ORDER)                                                                   \
    extern "C" __global__ void P##_sort(const char *buf, int4 *pairs, int half, int k, int j)      \
    {                                                                                                \
        mr_sort_step<ORDER>(buf, pairs, half, k, j);                                                 \
    }                                                                                                \
    extern "C" __global__ void P##_group_mark(const char *buf, const int4 *pairs, int n, int *first) \
    {                                                                                                \
        mr_group_mark<ORDER>(buf, pairs, n, first);                                                  \
    }                                                                                                \
    extern "C" __global__ void P##_group_start(const int *first, const int *group_of, int n,       \
                                               int *start)                                           \
    {                                                                                                \
        mr_group_start(first, group_of, n, start);                                                   \
    }

#endif
