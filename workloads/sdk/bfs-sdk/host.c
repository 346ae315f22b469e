/* host.c: queue-based BFS (see kernel.cu) on a uniform random graph
 * (workloads/common/wl_graph.h), from node 0.
 *
 * How it differs from rodinia/bfs in frontier handling: rodinia/bfs keeps the frontier as a
 * flag per node and launches one thread per node of the whole graph each level (most of them
 * find their flag clear and exit); here the frontier is an explicit queue of node ids, each
 * level launches ceil(frontier / 256) blocks of 256 threads, one per queued node, and the next
 * queue is built with atomics (atomicCAS claims a node, shared then global atomicAdd append
 * it). The host reads back the next queue's length after each launch, swaps the two queues and
 * stops when the length is 0.
 *
 * Arguments: nodes, degree (mean out-degree), seed. Sizes as rodinia/bfs, so that the three
 * BFS codes can be compared on one graph:
 *   small (default) nodes=65536 degree=5: frontiers of up to some 30000 nodes (120 blocks).
 *   paper nodes=1000000 degree=5: about 5 M edges (Rodinia's graph1MW_6 has 1 M nodes and
 *     about 6 M edges).
 * Check: the levels must equal a CPU queue-based BFS exactly. */
#include "wl.h"
#include "wl_graph.h"

#include <stdio.h>
#include <stdlib.h>

#define THREADS 256 /* BFS_SDK_THREADS of kernel.cu */

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nodes", "degree", "seed"};
    long val[] = {65536, 5, 1};
    wl_args(argc, argv, 3, keys, val);
    WlGraph g = wl_graph_random("bfs-sdk", val[0], val[1], val[2]);
    int n = g.n_nodes;
    int *cost = malloc(n * sizeof *cost), *want = malloc(n * sizeof *want);
    if (!cost || !want) {
        fprintf(stderr, "bfs-sdk: out of memory\n");
        return 1;
    }
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;

    wl_init();
    CUfunction expand = wl_kernel("bfs_sdk_expand");
    CUdeviceptr d_nodes = wl_upload(g.nodes, n * sizeof *g.nodes);
    CUdeviceptr d_edges = wl_upload(g.edges, g.n_edges * sizeof *g.edges);
    CUdeviceptr d_cost = wl_upload(cost, n * sizeof *cost);
    /* every node enters a queue at most once, so n entries each suffice */
    CUdeviceptr d_frontier = wl_alloc(n * sizeof(int)), d_next = wl_alloc(n * sizeof(int));
    CUdeviceptr d_count = wl_alloc(sizeof(int));
    int source = 0, n_frontier = 1, level = 0;
    wl_copy_to(d_frontier, &source, sizeof source);

    void *args[] = {&d_nodes, &d_edges, &d_frontier, &n_frontier, &d_next, &d_count, &d_cost, &level};
    while (n_frontier > 0) {
        wl_zero(d_count, sizeof(int));
        wl_launch(expand, (unsigned)((n_frontier + THREADS - 1) / THREADS), 1, 1, THREADS, 1, 1, 0, args);
        wl_download(&n_frontier, d_count, sizeof n_frontier);
        CUdeviceptr t = d_frontier; /* args[2] and args[4] point at these two */
        d_frontier = d_next;
        d_next = t;
        level++;
    }
    wl_download(cost, d_cost, n * sizeof *cost);

    int reached = wl_graph_bfs(&g, 0, want);
    printf("bfs-sdk: %d nodes, %ld edges, %d reached, %d launches\n", n, g.n_edges, reached, level);

    double err = wl_max_err_i(cost, want, n);
    wl_graph_free(&g);
    free(cost), free(want);
    return wl_finish("bfs-sdk", err, 0);
}
