/* kernel.cu: breadth-first search in the style of Rodinia's CUDA BFS: one thread per node,
 * 512-thread blocks, two kernels per level.
 *
 * The graph is CSR-like: nodes[v] = {first edge, edge count} (8-byte records) and edges[]
 * the destination ids. Three byte arrays hold the frontier (mask), the next frontier being
 * built (updating) and the visited flags. Kernel 1 expands every frontier node: it walks the
 * node's edge list and, for each unvisited neighbour, writes cost and raises its updating
 * flag; the neighbour ids are effectively random, so these visited/cost/updating accesses
 * are memory-divergent. Kernel 2 turns the updating flags into the next frontier and raises
 * the host's stop flag whenever one is set. Several frontier nodes may write the same
 * neighbour in one level; they all write the same cost, so the race is benign. */

struct Node {
    int first; /* index of the node's first edge in edges[] */
    int count; /* number of edges */
};

extern "C" __global__ void bfs_expand(const Node *nodes, const int *edges, bool *mask, bool *updating,
                                      const bool *visited, int *cost, int n_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n_nodes && mask[v]) {
        mask[v] = false;
        int first = nodes[v].first, end = first + nodes[v].count;
        for (int e = first; e < end; e++) {
            int w = edges[e];
            if (!visited[w]) {
                cost[w] = cost[v] + 1;
                updating[w] = true;
            }
        }
    }
}

extern "C" __global__ void bfs_advance(bool *mask, bool *updating, bool *visited, bool *more, int n_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n_nodes && updating[v]) {
        mask[v] = true;
        visited[v] = true;
        *more = true;
        updating[v] = false;
    }
}
