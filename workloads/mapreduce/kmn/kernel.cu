/* kernel.cu: KMN, k-means clustering as a GPU MapReduce job in the style of the Mars framework
 * (the "KMN [8]" of CIAO's Table II; Rodinia's kmeans is the suite's `kmeans`).
 *
 * Input: n points of `dim` integer coordinates, point-major (points[p * dim + d]), and k
 * centres in the same layout. One iteration is one MapReduce job:
 *   kmn_map_count  one pair per point (Mars's count pass);
 *   kmn_scan_*     exclusive prefix sum of the counts: each thread's output slot;
 *   kmn_map        thread p reads its point and every centre, and emits {nearest centre, p};
 *   kmn_sort       one step (k, j) of a bitonic sort by (centre, point), one launch per step,
 *                  over a power-of-two array padded with centre INT_MAX entries that sort last;
 *   kmn_group_mark, kmn_scan_*, kmn_group_start: the groups of one centre;
 *   kmn_reduce     one block per group: its threads gather the group's points through the
 *                  sorted pairs, a shared-memory tree sum adds them up, and the centre becomes
 *                  the integer mean of their coordinates.
 * The host launches `iters` jobs; each reduce writes the centres the next map reads. */

#include "../common/mapreduce.cuh"

MR_SCAN_KERNELS(kmn) /* kmn_scan_block, kmn_scan_add */

/* ---- map ---- */

extern "C" __global__ void kmn_map_count(int n, int *n_pairs)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n)
        n_pairs[p] = 1;
}

/* Pair {centre, point, 0, 0}: the nearest centre by squared distance, the lowest index on a tie. */
extern "C" __global__ void kmn_map(const int *points, const int *centres, int n, int dim, int k, const int *pair_at,
                                   int4 *pairs)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    const int *x = points + p * dim;
    int best = 0;
    int best_d = -1; /* at most 64 * 1023^2: an int */
    for (int c = 0; c < k; c++) {
        const int *y = centres + c * dim;
        int d2 = 0;
        for (int d = 0; d < dim; d++) {
            int t = x[d] - y[d];
            d2 += t * t;
        }
        if (best_d < 0 || d2 < best_d) {
            best_d = d2;
            best = c;
        }
    }
    pairs[pair_at[p]] = make_int4(best, p, 0, 0);
}

/* ---- group: bitonic sort by (centre, point), group boundaries ---- */

/* The pairs carry no key bytes: the order is on the centre, then the point. */
__device__ int kmn_order(const char *buf, int4 a, int4 b)
{
    if (a.x != b.x)
        return a.x < b.x ? -1 : 1;
    return (a.y > b.y) - (a.y < b.y);
}

/* Groups are the pairs of one centre. */
__device__ int kmn_centre_order(const char *buf, int4 a, int4 b)
{
    return (a.x > b.x) - (a.x < b.x);
}

/* buf is unused: the kernels take it first as the suite's group stage passes it (mapreduce_host.h). */
extern "C" __global__ void kmn_sort(const char *buf, int4 *pairs, int half, int k, int j)
{
    mr_sort_step<kmn_order>(buf, pairs, half, k, j);
}

extern "C" __global__ void kmn_group_mark(const char *buf, const int4 *pairs, int n, int *first)
{
    mr_group_mark<kmn_centre_order>(buf, pairs, n, first);
}

extern "C" __global__ void kmn_group_start(const int *first, const int *group_of, int n, int *start)
{
    mr_group_start(first, group_of, n, start);
}

/* ---- reduce ---- */

#define KMN_REDUCE_THREADS 128

/* One block per group (centre): its threads stride over the group's points, gathering their
 * coordinates through the sorted pairs, and a tree sum in shared memory (512 bytes, with
 * barriers) gives the total; the centre becomes the integer mean (rounded toward zero),
 * coordinate by coordinate. A centre that no point chose keeps its place (it has no group). */
extern "C" __global__ void kmn_reduce(const int *points, const int4 *pairs, const int *start, int groups, int dim,
                                      int *centres)
{
    __shared__ int part[KMN_REDUCE_THREADS];
    int g = blockIdx.x, t = threadIdx.x;
    if (g >= groups)
        return;
    int s = start[g], e = start[g + 1];
    int c = pairs[s].x;
    for (int d = 0; d < dim; d++) {
        int sum = 0;
        for (int i = s + t; i < e; i += KMN_REDUCE_THREADS)
            sum += points[pairs[i].y * dim + d];
        part[t] = sum;
        __syncthreads();
        for (int half = KMN_REDUCE_THREADS / 2; half > 0; half >>= 1) {
            if (t < half)
                part[t] += part[t + half];
            __syncthreads();
        }
        if (t == 0)
            centres[c * dim + d] = part[0] / (e - s);
        __syncthreads();
    }
}
