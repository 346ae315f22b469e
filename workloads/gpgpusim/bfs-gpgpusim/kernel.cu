/* kernel.cu: breadth-first search in the style of the GPGPU-Sim (ISPASS 2009) benchmark BFS:
 * one thread per node over all nodes, 512-thread blocks, one kernel per level.
 *
 * The graph is CSR-like: nodes[v] = {first edge, edge count} (8-byte records) and edges[] the
 * destination ids. A frontier node (mask set) clears its flag and walks its edge list; each
 * unvisited neighbour is marked visited, gets its level and is put in the next frontier
 * (updating) at once, and the host's flag is raised. There is no second kernel: the host
 * swaps mask and updating between levels (every frontier node cleared its own mask flag, so
 * the old mask is all clear). Two frontier nodes may both find a neighbour unvisited; both
 * write the same level and flags, so the race is benign. */

struct Node {
    int first; /* index of the node's first edge in edges[] */
    int count; /* number of edges */
};

extern "C" __global__ void bfs_gs_level(const Node *nodes, const int *edges, bool *mask, bool *updating,
                                        bool *visited, int *cost, bool *more, int n_nodes)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n_nodes && mask[v]) {
        mask[v] = false;
        int level = cost[v] + 1;
        int first = nodes[v].first, end = first + nodes[v].count;
        for (int e = first; e < end; e++) {
            int w = edges[e];
            if (!visited[w]) {
                visited[w] = true;
                cost[w] = level;
                updating[w] = true;
                *more = true;
            }
        }
    }
}
