/* runtime_graph_edge.c: a graph's dependencies (runtime_graph.h). Each node keeps the nodes it
 * depends on; cudaGraphAddDependencies and cudaGraphRemoveDependencies edit them afterwards,
 * cudaGraphDestroyNode removes a node with its edges, and the queries list them. Edges are
 * only full-completion ones (cudaGraphEdgeData all zero: CUDA's default type and ports);
 * programmatic edges are refused. An edge that closes a cycle is accepted, as NVIDIA's runtime
 * accepts it (seen on an H200): the cycle is an error when the graph is instantiated or used to
 * update an executable, where rt_graph_order finds no dependency order. Otherwise that order is
 * the order of addition where that is one, else each node after the nodes it depends on (depth
 * first, in the order of addition), which is what the synchronous device runs. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void rt_graph_link(cudaGraph_t graph, cudaGraphNode_t n, const cudaGraphNode_t *deps, size_t n_deps)
{
    n->graph = graph;
    n->n_deps = n_deps;
    n->deps = xmalloc((n_deps ? n_deps : 1) * sizeof *n->deps);
    if (n_deps)
        memcpy(n->deps, deps, n_deps * sizeof *deps);
    if (graph->n == graph->cap) {
        graph->cap = graph->cap ? 2 * graph->cap : 16;
        graph->nodes = xrealloc(graph->nodes, graph->cap * sizeof *graph->nodes);
    }
    n->idx = graph->n;
    graph->nodes[graph->n++] = n;
}

cudaError_t rt_graph_check_deps(const char *call, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps)
{
    if (n_deps && !deps)
        return rt_fail(cudaErrorInvalidValue, call, "null dependency list");
    for (size_t i = 0; i < n_deps; i++) {
        if (!deps[i] || deps[i]->graph != graph)
            return rt_fail(cudaErrorInvalidValue, call, "dependency %zu is not a node of this graph", i);
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return rt_fail(cudaErrorInvalidValue, call, "dependencies %zu and %zu are the same node", j, i);
    }
    return cudaSuccess;
}

cudaError_t rt_graph_node_is(const char *call, cudaGraphNode_t node, const void *out, RtOpKind kind,
                             const char *what)
{
    if (!node || !out)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", node ? "pointer" : "node");
    if (node->op.kind != kind)
        return rt_fail(cudaErrorInvalidValue, call, "not %s", what);
    return cudaSuccess;
}

void rt_graph_node_free(cudaGraphNode_t n)
{
    rt_graph_op_free(&n->op);
    free(n->deps);
    free(n);
}

/* Depth first from each node in the order of addition, a node after its dependencies; an
 * explicit stack (a chain of captured launches may be long). */
bool rt_graph_order(cudaGraph_t graph, size_t *order)
{
    size_t n = graph->n, done = 0;
    uint8_t *state = xcalloc(n ? n : 1, 1); /* 0 new, 1 on the stack, 2 placed */
    size_t *stack = xmalloc((n ? n : 1) * sizeof *stack), *next = xcalloc(n ? n : 1, sizeof *next);
    for (size_t root = 0; root < n; root++) {
        if (state[root])
            continue;
        size_t sp = 0;
        stack[sp++] = root;
        state[root] = 1;
        while (sp) {
            size_t v = stack[sp - 1];
            cudaGraphNode_t node = graph->nodes[v];
            if (next[v] < node->n_deps) {
                size_t d = node->deps[next[v]++]->idx;
                if (state[d] == 1) /* back on the stack: a cycle */
                    goto out;
                if (!state[d]) {
                    state[d] = 1;
                    stack[sp++] = d;
                }
                continue;
            }
            state[v] = 2;
            order[done++] = v;
            sp--;
        }
    }
out:
    free(state);
    free(stack);
    free(next);
    return done == n;
}

/* pos[idx]: where each node of graph is in order. */
static size_t *positions(cudaGraph_t graph, const size_t *order)
{
    size_t *pos = xmalloc((graph->n ? graph->n : 1) * sizeof *pos);
    for (size_t i = 0; i < graph->n; i++)
        pos[order[i]] = i;
    return pos;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Node's dependencies as ascending positions, into out (node->n_deps of them). */
static void dep_positions(cudaGraphNode_t node, const size_t *pos, size_t *out)
{
    for (size_t k = 0; k < node->n_deps; k++)
        out[k] = pos[node->deps[k]->idx];
    qsort(out, node->n_deps, sizeof *out, cmp_size);
}

void rt_graph_exec_deps(cudaGraphExec_t x, cudaGraph_t graph, const size_t *order)
{
    size_t *pos = positions(graph, order), edges = 0;
    for (size_t i = 0; i < graph->n; i++)
        edges += graph->nodes[i]->n_deps;
    x->n = graph->n;
    x->dep_first = xmalloc((x->n + 1) * sizeof *x->dep_first);
    x->dep_pos = xmalloc((edges ? edges : 1) * sizeof *x->dep_pos);
    size_t at = 0;
    for (size_t i = 0; i < x->n; i++) {
        cudaGraphNode_t node = graph->nodes[order[i]];
        x->dep_first[i] = at;
        dep_positions(node, pos, x->dep_pos + at);
        at += node->n_deps;
    }
    x->dep_first[x->n] = at;
    free(pos);
}

cudaGraphNode_t rt_graph_exec_topology_differs(cudaGraphExec_t x, cudaGraph_t graph, const size_t *order)
{
    size_t *pos = positions(graph, order), cap = 16;
    size_t *mine = xmalloc(cap * sizeof *mine);
    cudaGraphNode_t bad = NULL;
    for (size_t i = 0; i < graph->n && !bad; i++) {
        cudaGraphNode_t node = graph->nodes[order[i]];
        size_t n = x->dep_first[i + 1] - x->dep_first[i];
        if (node->n_deps != n) {
            bad = node;
            break;
        }
        if (n > cap) {
            cap = n;
            mine = xrealloc(mine, cap * sizeof *mine);
        }
        dep_positions(node, pos, mine);
        if (n && memcmp(mine, x->dep_pos + x->dep_first[i], n * sizeof *mine))
            bad = node;
    }
    free(mine);
    free(pos);
    return bad;
}

/* ---- editing ---- */

static long dep_index(cudaGraphNode_t to, cudaGraphNode_t from)
{
    for (size_t k = 0; k < to->n_deps; k++)
        if (to->deps[k] == from)
            return (long)k;
    return -1;
}


static void add_edge(cudaGraphNode_t from, cudaGraphNode_t to)
{
    to->deps = xrealloc(to->deps, (to->n_deps + 1) * sizeof *to->deps);
    to->deps[to->n_deps++] = from;
}

static void remove_edge(cudaGraphNode_t from, cudaGraphNode_t to)
{
    long k = dep_index(to, from);
    CHECK(k >= 0);
    memmove(to->deps + k, to->deps + k + 1, (to->n_deps - (size_t)k - 1) * sizeof *to->deps);
    to->n_deps--;
}

/* The common checks of both edits: the lists, the nodes, and edge data of the default kind. */
static cudaError_t check_edges(const char *call, cudaGraph_t graph, const cudaGraphNode_t *from,
                               const cudaGraphNode_t *to, const cudaGraphEdgeData *data, size_t n)
{
    if (!graph)
        return rt_fail(cudaErrorInvalidValue, call, "null graph");
    if (n && (!from || !to))
        return rt_fail(cudaErrorInvalidValue, call, "null %s list", from ? "to" : "from");
    for (size_t i = 0; i < n; i++) {
        if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph)
            return rt_fail(cudaErrorInvalidValue, call, "edge %zu: a node that is not one of this graph's", i);
        if (from[i] == to[i])
            return rt_fail(cudaErrorInvalidValue, call, "edge %zu: a node cannot depend on itself", i);
    }
    return rt_graph_check_edges(call, data, n);
}

cudaError_t rt_graph_check_edges(const char *call, const cudaGraphEdgeData *data, size_t n)
{
    static const cudaGraphEdgeData zero;
    for (size_t i = 0; data && i < n; i++)
        if (memcmp(&data[i], &zero, sizeof zero))
            return rt_fail(cudaErrorNotSupported, call, "edge %zu: ports or type other than 0 (programmatic "
                           "dependencies) are not supported", i);
    return cudaSuccess;
}

/* Add (or remove) edge i, to[i] depending on from[i], for i = 0, 1, ... until one is refused:
 * the edges before it stay edited, as on an H200. */
static cudaError_t edit_edges(const char *call, cudaGraph_t graph, const cudaGraphNode_t *from,
                              const cudaGraphNode_t *to, const cudaGraphEdgeData *data, size_t n, bool add)
{
    cudaError_t e = check_edges(call, graph, from, to, data, n);
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        bool exists = dep_index(to[i], from[i]) >= 0;
        if (add && exists)
            e = rt_fail(cudaErrorInvalidValue, call, "edge %zu: the dependency exists already", i);
        else if (!add && !exists)
            e = rt_fail(cudaErrorInvalidValue, call, "edge %zu: no such dependency", i);
        else
            (add ? add_edge : remove_edge)(from[i], to[i]);
    }
    return e;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t n)
{
    API_LOCKED;
    return edit_edges("cudaGraphAddDependencies", graph, from, to, edgeData, n, true);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t n)
{
    API_LOCKED;
    return edit_edges("cudaGraphRemoveDependencies", graph, from, to, edgeData, n, false);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    API_LOCKED;
    if (!node)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphDestroyNode", "null node");
    cudaGraph_t g = node->graph;
    if (rt_graph_capturing(g))
        return rt_fail(cudaErrorStreamCaptureUnsupported, "cudaGraphDestroyNode", "the graph is being captured into");
    for (size_t i = 0; i < g->n; i++)
        if (dep_index(g->nodes[i], node) >= 0)
            remove_edge(node, g->nodes[i]);
    memmove(g->nodes + node->idx, g->nodes + node->idx + 1, (g->n - node->idx - 1) * sizeof *g->nodes);
    g->n--;
    for (size_t i = node->idx; i < g->n; i++)
        g->nodes[i]->idx = i;
    rt_graph_node_free(node);
    return cudaSuccess;
}

/* ---- queries ---- */

/* CUDA's list convention: with no array, the count; else up to *n entries, the rest NULL, and
 * *n lowered to the count. Edge data, when asked for, is the default (all zero). */
static void put(cudaGraphNode_t *out, cudaGraphEdgeData *data, size_t cap, size_t *found, cudaGraphNode_t v)
{
    if (out && *found < cap) {
        out[*found] = v;
        if (data)
            memset(&data[*found], 0, sizeof *data);
    }
    ++*found;
}

static void finish(cudaGraphNode_t *out, cudaGraphEdgeData *data, size_t *n, size_t found)
{
    if (!out) {
        *n = found;
        return;
    }
    for (size_t i = found; i < *n; i++) {
        out[i] = NULL;
        if (data)
            memset(&data[i], 0, sizeof *data);
    }
    if (found < *n)
        *n = found;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps, cudaGraphEdgeData *edgeData,
                                         size_t *n)
{
    API_LOCKED;
    if (!node || !n)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeGetDependencies", "null %s", node ? "count" : "node");
    size_t found = 0, cap = deps ? *n : 0;
    for (size_t k = 0; k < node->n_deps; k++)
        put(deps, edgeData, cap, &found, node->deps[k]);
    finish(deps, edgeData, n, found);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *out, cudaGraphEdgeData *edgeData,
                                           size_t *n)
{
    API_LOCKED;
    if (!node || !n)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeGetDependentNodes", "null %s", node ? "count" : "node");
    size_t found = 0, cap = out ? *n : 0;
    for (size_t i = 0; i < node->graph->n; i++)
        if (dep_index(node->graph->nodes[i], node) >= 0)
            put(out, edgeData, cap, &found, node->graph->nodes[i]);
    finish(out, edgeData, n, found);
    return cudaSuccess;
}

/* The edges, by the dependent node's order of addition, then its dependencies' order. */
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *n)
{
    API_LOCKED;
    if (!graph || !n)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphGetEdges", "null %s", graph ? "count" : "graph");
    if (!from != !to)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphGetEdges", "null %s list with a %s list", from ? "to" : "from",
                       from ? "from" : "to");
    size_t found = 0, cap = from ? *n : 0;
    for (size_t i = 0; i < graph->n; i++)
        for (size_t k = 0; k < graph->nodes[i]->n_deps; k++) {
            if (from && found < cap)
                to[found] = graph->nodes[i];
            put(from, edgeData, cap, &found, graph->nodes[i]->deps[k]);
        }
    if (from)
        for (size_t i = found; i < *n; i++)
            to[i] = NULL;
    finish(from, edgeData, n, found);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph)
{
    API_LOCKED;
    if (!pNode || !originalNode || !clonedGraph)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeFindInClone", "null %s",
                       !pNode ? "pointer" : !originalNode ? "node" : "graph");
    if (clonedGraph->clone_of == originalNode->graph)
        for (size_t i = 0; i < clonedGraph->n; i++)
            if (clonedGraph->nodes[i]->origin == originalNode) {
                *pNode = clonedGraph->nodes[i];
                return cudaSuccess;
            }
    return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeFindInClone", "the graph is not a clone of the node's graph, "
                   "or the node was added after the clone was made");
}
