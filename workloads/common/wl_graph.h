/* wl_graph.h: the random graph and the CPU reference of the suite's breadth-first searches
 * (rodinia/bfs, sdk/bfs-sdk, gpgpusim/bfs-gpgpusim), written once. Include it after wl.h.
 *
 * The graph is CSR-like: node v's out-edges are edges[first .. first + count). Node v gets
 * 1 + rand(2 * degree - 1) out-edges (mean `degree`) to uniformly random destinations, drawn
 * from the wl.h generator (degrees first, then the edge list), so a seed gives one graph. */
#ifndef WL_GRAPH_H
#define WL_GRAPH_H

#include "wl.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct WlNode {
    int first, count; /* the layout of the kernels' 8-byte node records */
} WlNode;

typedef struct WlGraph {
    int n_nodes;
    long n_edges;
    WlNode *nodes;
    int *edges;
} WlGraph;

/* Check the sizes (nodes <= 5e7, degree <= 1000, nodes * (2 degree - 1) <= 1e9) and draw the
 * graph from `seed`; exits 2 on bad sizes (with `name` in the message), 1 out of memory. */
static inline WlGraph wl_graph_random(const char *name, long n_nodes, long degree, long seed)
{
    if (n_nodes < 1 || n_nodes > 50000000 || degree < 1 || degree > 1000 || n_nodes * (2 * degree - 1) > 1000000000) {
        fprintf(stderr, "%s: need 1 <= nodes <= 5e7, 1 <= degree <= 1000, nodes * (2 degree - 1) <= 1e9\n", name);
        exit(2);
    }
    WlGraph g = {(int)n_nodes, 0, malloc(n_nodes * sizeof(WlNode)), NULL};
    if (!g.nodes) {
        fprintf(stderr, "%s: out of memory\n", name);
        exit(1);
    }
    wl_seed((uint64_t)seed);
    for (int v = 0; v < g.n_nodes; v++) {
        g.nodes[v].first = (int)g.n_edges;
        g.nodes[v].count = 1 + (int)wl_rand_below(2 * (uint32_t)degree - 1);
        g.n_edges += g.nodes[v].count;
    }
    g.edges = malloc(g.n_edges * sizeof *g.edges);
    if (!g.edges) {
        fprintf(stderr, "%s: out of memory\n", name);
        exit(1);
    }
    for (long e = 0; e < g.n_edges; e++)
        g.edges[e] = (int)wl_rand_below((uint32_t)g.n_nodes);
    return g;
}

/* The BFS levels from `source` into level[] (-1 where unreachable), by a queue; returns the
 * number of nodes reached. */
static inline int wl_graph_bfs(const WlGraph *g, int source, int *level)
{
    int *queue = malloc(g->n_nodes * sizeof *queue);
    if (!queue) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int v = 0; v < g->n_nodes; v++)
        level[v] = -1;
    int head = 0, tail = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->nodes[v].first; e < g->nodes[v].first + g->nodes[v].count; e++)
            if (level[g->edges[e]] < 0) {
                level[g->edges[e]] = level[v] + 1;
                queue[tail++] = g->edges[e];
            }
    }
    free(queue);
    return tail;
}

static inline void wl_graph_free(WlGraph *g)
{
    free(g->nodes);
    free(g->edges);
    g->nodes = NULL;
    g->edges = NULL;
}

#endif
