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
#include "wl_graph.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nodes", "degree", "seed"};
    long val[] = {65536, 5, 1};
    wl_args(argc, argv, 3, keys, val);
    WlGraph g = wl_graph_random("bfs", val[0], val[1], val[2]);
    int n = g.n_nodes;
    int *cost = malloc(n * sizeof *cost), *want = malloc(n * sizeof *want);
    bool *mask = calloc(n, 1), *visited = calloc(n, 1);
    if (!cost || !want || !mask || !visited) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;
    mask[0] = visited[0] = true;

    wl_init();
    CUfunction expand = wl_kernel("bfs_expand"), advance = wl_kernel("bfs_advance");
    CUdeviceptr d_nodes = wl_upload(g.nodes, n * sizeof *g.nodes);
    CUdeviceptr d_edges = wl_upload(g.edges, g.n_edges * sizeof *g.edges);
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
    int reached = wl_graph_bfs(&g, 0, want);
    printf("bfs: %d nodes, %ld edges, %d reached, %d rounds\n", n, g.n_edges, reached, rounds);

    double err = wl_max_err_i(cost, want, n);
    wl_graph_free(&g);
    free(cost), free(want), free(mask), free(visited);
    return wl_finish("bfs", err, 0);
}
