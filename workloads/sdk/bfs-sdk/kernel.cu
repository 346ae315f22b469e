/* kernel.cu: breadth-first search over a frontier queue, in the style of the queue-based GPU
 * BFS codes (the CUDA SDK-era and Parboil BFS): one thread per frontier node, one launch per
 * level, the next frontier built with atomics through a per-block shared-memory queue.
 *
 * The graph is CSR-like: nodes[v] = {first edge, edge count} (8-byte records) and edges[] the
 * destination ids; cost[] holds the levels, -1 for not yet reached. A thread walks its node's
 * edge list; a neighbour still at -1 is claimed with atomicCAS (exactly one thread wins, so
 * every node enters a queue once) and appended to the block's shared queue with a shared
 * atomicAdd. At the end one atomicAdd on the global tail reserves the block's range of the next
 * queue and the block copies its queue there, coalesced. A block whose queue is full appends
 * the rest to the global queue one atomicAdd each. */

#define BFS_SDK_THREADS 256
#define BFS_SDK_QUEUE 2048 /* shared queue entries a block (8 KB) */

struct Node {
    int first; /* index of the node's first edge in edges[] */
    int count; /* number of edges */
};

extern "C" __global__ void bfs_sdk_expand(const Node *nodes, const int *edges, const int *frontier, int n_frontier,
                                          int *next, int *next_count, int *cost, int level)
{
    __shared__ int queue[BFS_SDK_QUEUE];
    __shared__ int queued, base;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        queued = 0;
    __syncthreads();

    if (tid < n_frontier) {
        int v = frontier[tid];
        int first = nodes[v].first, end = first + nodes[v].count;
        for (int e = first; e < end; e++) {
            int w = edges[e];
            /* a plain load first: most neighbours are already claimed, and an atomic costs more */
            if (cost[w] < 0 && atomicCAS(&cost[w], -1, level + 1) == -1) {
                int slot = atomicAdd(&queued, 1);
                if (slot < BFS_SDK_QUEUE)
                    queue[slot] = w;
                else
                    next[atomicAdd(next_count, 1)] = w;
            }
        }
    }
    __syncthreads();

    int n = min(queued, BFS_SDK_QUEUE);
    if (threadIdx.x == 0)
        base = atomicAdd(next_count, n);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        next[base + i] = queue[i];
}
