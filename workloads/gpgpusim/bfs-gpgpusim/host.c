/* host.c: BFS in the style of the GPGPU-Sim (ISPASS 2009) benchmark BFS (see kernel.cu) on a
 * uniform random graph (workloads/common/wl_graph.h), from node 0.
 *
 * How it differs from rodinia/bfs in frontier handling: rodinia/bfs runs two kernels a level
 * (expand writes the updating flags, a second kernel copies them into the frontier mask and
 * marks the nodes visited); here one kernel a level marks a neighbour visited, sets its level
 * and puts it in the next frontier the moment it finds it, and the host swaps the mask and
 * updating arrays between launches. Both scan all nodes each level (one thread per node) and
 * repeat until a launch raises no flag. The original benchmark keeps a single mask that the
 * kernel both reads and writes, so a node found in a level may be expanded in that same launch
 * and its level depends on the thread schedule; the two arrays keep the levels exact.
 *
 * Arguments: nodes, degree (mean out-degree), seed. Sizes:
 *   small (default) nodes=32768 degree=6: 64 blocks of 512, the same random gather/scatter over
 *     arrays larger than the L1D as at paper size.
 *   paper nodes=65536 degree=6: the benchmark's 65536-node input graph (its generator's mean
 *     degree is about 6, like Rodinia's graph1MW_6).
 * Check: the levels must equal a CPU queue-based BFS exactly. */
#include "wl.h"
#include "wl_graph.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nodes", "degree", "seed"};
    long val[] = {32768, 6, 1};
    wl_args(argc, argv, 3, keys, val);
    WlGraph g = wl_graph_random("bfs-gpgpusim", val[0], val[1], val[2]);
    int n = g.n_nodes;
    int *cost = malloc(n * sizeof *cost), *want = malloc(n * sizeof *want);
    bool *mask = calloc(n, 1);
    if (!cost || !want || !mask) {
        fprintf(stderr, "bfs-gpgpusim: out of memory\n");
        return 1;
    }
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;
    mask[0] = true; /* node 0 starts as the frontier and visited */

    wl_init();
    CUfunction level = wl_kernel("bfs_gs_level");
    CUdeviceptr d_nodes = wl_upload(g.nodes, n * sizeof *g.nodes);
    CUdeviceptr d_edges = wl_upload(g.edges, g.n_edges * sizeof *g.edges);
    CUdeviceptr d_mask = wl_upload(mask, n), d_visited = wl_upload(mask, n);
    CUdeviceptr d_updating = wl_alloc(n), d_cost = wl_upload(cost, n * sizeof *cost);
    CUdeviceptr d_more = wl_alloc(1);
    wl_zero(d_updating, n);

    unsigned threads = n < 512 ? (unsigned)n : 512, blocks = (unsigned)((n + 511) / 512);
    void *args[] = {&d_nodes, &d_edges, &d_mask, &d_updating, &d_visited, &d_cost, &d_more, &n};
    int rounds = 0;
    bool more;
    do {
        more = false;
        wl_copy_to(d_more, &more, 1);
        wl_launch(level, blocks, 1, 1, threads, 1, 1, 0, args);
        wl_download(&more, d_more, 1);
        CUdeviceptr t = d_mask; /* args[2] and args[3] point at these two */
        d_mask = d_updating;
        d_updating = t;
        rounds++;
    } while (more);
    wl_download(cost, d_cost, n * sizeof *cost);

    int reached = wl_graph_bfs(&g, 0, want);
    printf("bfs-gpgpusim: %d nodes, %ld edges, %d reached, %d rounds\n", n, g.n_edges, reached, rounds);

    double err = wl_max_err_i(cost, want, n);
    wl_graph_free(&g);
    free(cost), free(want), free(mask);
    return wl_finish("bfs-gpgpusim", err, 0);
}
