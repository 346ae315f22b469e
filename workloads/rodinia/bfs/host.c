/* host.c: Rodinia-style BFS (see kernel.cu) on a uniform random graph.
 *
 * The graph has `nodes` nodes; node v gets 1 + rand(2 * degree - 1) out-edges (mean `degree`)
 * to uniformly random destinations, generated from `seed`. The search starts at node 0. As in
 * the original, the host clears a device stop flag, launches the expand and advance kernels
 * over ceil(nodes / 512) blocks of 512 threads, reads the flag back and repeats until no
 * kernel raised it (one round per BFS level, plus the last empty one). The costs (BFS levels,
 * -1 for unreachable nodes) must equal a CPU queue-based BFS exactly.
 *
 * Arguments: nodes, degree, seed. Sizes:
 *   small (default) nodes=65536 degree=5: 128 blocks, the same random gather/scatter over
 *     arrays far larger than the L1D as at paper size; about 10 levels.
 *   paper nodes=1000000 degree=5: about 5 M edges, the "5M edges" input of the thesis's
 *     tables (Rodinia's graph1MW_6 has 1 M nodes and about 6 M edges). */
#include "wl.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    int first, count;
};

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nodes", "degree", "seed"};
    long val[] = {65536, 5, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 1 || val[0] > 50000000 || val[1] < 1 || val[1] > 1000 || val[0] * (2 * val[1] - 1) > 1000000000) {
        fprintf(stderr, "bfs: need 1 <= nodes <= 5e7, 1 <= degree <= 1000, nodes * (2 degree - 1) <= 1e9\n");
        return 2;
    }
    int n = (int)val[0], degree = (int)val[1];

    /* The graph: degrees first, then the edge list they index. */
    wl_seed((uint64_t)val[2]);
    struct node *nodes = malloc(n * sizeof *nodes);
    if (!nodes) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    long n_edges = 0;
    for (int v = 0; v < n; v++) {
        nodes[v].first = (int)n_edges;
        nodes[v].count = 1 + (int)wl_rand_below(2 * degree - 1);
        n_edges += nodes[v].count;
    }
    int *edges = malloc(n_edges * sizeof *edges);
    int *cost = malloc(n * sizeof *cost), *want = malloc(n * sizeof *want), *queue = malloc(n * sizeof *queue);
    bool *mask = calloc(n, 1), *visited = calloc(n, 1);
    if (!edges || !cost || !want || !queue || !mask || !visited) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    for (long e = 0; e < n_edges; e++)
        edges[e] = (int)wl_rand_below((uint32_t)n);
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;
    mask[0] = visited[0] = true;

    wl_init();
    CUfunction expand = wl_kernel("bfs_expand"), advance = wl_kernel("bfs_advance");
    CUdeviceptr d_nodes = wl_upload(nodes, n * sizeof *nodes);
    CUdeviceptr d_edges = wl_upload(edges, n_edges * sizeof *edges);
    CUdeviceptr d_mask = wl_upload(mask, n), d_visited = wl_upload(visited, n);
    CUdeviceptr d_updating = wl_alloc(n), d_cost = wl_upload(cost, n * sizeof *cost);
    CUdeviceptr d_more = wl_alloc(1);
    wl_zero(d_updating, n);

    /* Like the original: one block of n threads when n fits, else 512-thread blocks. */
    unsigned threads = n < 512 ? (unsigned)n : 512, blocks = (unsigned)((n + 511) / 512);
    void *expand_args[] = {&d_nodes, &d_edges, &d_mask, &d_updating, &d_visited, &d_cost, &n};
    void *advance_args[] = {&d_mask, &d_updating, &d_visited, &d_more, &n};
    int rounds = 0;
    bool more;
    do {
        more = false;
        wl_copy_to(d_more, &more, 1);
        wl_launch(expand, blocks, 1, 1, threads, 1, 1, 0, expand_args);
        wl_launch(advance, blocks, 1, 1, threads, 1, 1, 0, advance_args);
        wl_download(&more, d_more, 1);
        rounds++;
    } while (more);
    wl_download(cost, d_cost, n * sizeof *cost);

    /* CPU reference: queue-based BFS from node 0. */
    for (int v = 0; v < n; v++)
        want[v] = -1;
    int head = 0, tail = 0, reached = 1;
    want[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++)
            if (want[edges[e]] < 0) {
                want[edges[e]] = want[v] + 1;
                queue[tail++] = edges[e];
                reached++;
            }
    }
    printf("bfs: %d nodes, %ld edges, %d reached, %d rounds\n", n, n_edges, reached, rounds);

    double err = wl_max_err_i(cost, want, n);
    free(nodes), free(edges), free(cost), free(want), free(queue), free(mask), free(visited);
    return wl_finish("bfs", err, 0);
}
