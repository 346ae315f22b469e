/* runtime_graph.c: CUDA graphs and stream capture in warpsim's libcudart replacement (see
 * runtime.c).
 *
 * A graph is a recorded sequence of stream-ordered work: kernel launches (their parameters
 * packed when the node is made), 1D and pitched copies, memsets of 1-, 2- or 4-byte elements,
 * host functions, empty nodes and memory nodes (runtime_graph_mem.c), each with the nodes it
 * depends on (runtime_graph_edge.c edits those); runtime_graph_update.c changes them.
 * cudaGraphInstantiate copies the nodes in a dependency order (rt_graph_order), and
 * cudaGraphLaunch runs them one after another on the synchronous device, stopping at the first
 * that fails. A graph executable does not refer to its graph, which may be destroyed.
 *
 * Stream capture (cudaStreamBeginCapture .. cudaStreamEndCapture) records, instead of running,
 * the work a program puts into the captured stream: kernel launches, cudaMemcpyAsync,
 * cudaMemsetAsync, cudaLaunchHostFunc, cudaMallocAsync and cudaFreeAsync. Each node depends on the stream's last ones. Another
 * stream joins the capture by waiting on an event recorded in a captured stream (the fork and
 * join of cudaEventRecord / cudaStreamWaitEvent), and its nodes then depend on that event's.
 * The legacy and per-thread default streams cannot be captured here (the program's own streams
 * can), and work the program puts into other streams, or synchronous calls, run at once. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* A capture in progress: the graph it fills, and the streams that joined it. */
typedef struct RtCapture {
    unsigned long long id;
    cudaGraph_t graph;
    bool into_program_graph; /* cudaStreamBeginCaptureToGraph: the graph is the program's */
    cudaStream_t origin;
    cudaStream_t *streams;
    size_t n_streams;
} RtCapture;

_Static_assert(sizeof(struct cudaKernelNodeParams) == 56, "cudaKernelNodeParams layout");
_Static_assert(sizeof(struct cudaMemsetParams) == 40, "cudaMemsetParams layout");
_Static_assert(sizeof(struct cudaHostNodeParams) == 16, "cudaHostNodeParams layout");

RtOp rt_graph_op_copy(const RtOp *op)
{
    RtOp c = *op;
    if (op->kind == RT_OP_KERNEL) {
        c.params = xmalloc(op->param_bytes ? op->param_bytes : 1);
        memcpy(c.params, op->params, op->param_bytes);
    }
    if (op->kind == RT_OP_MEMALLOC)
        rt_graph_mem_hold(op, +1);
    if (op->kind == RT_OP_GRAPH || op->kind == RT_OP_COND)
        rt_graph_body_copy(op, &c);
    return c;
}

void rt_graph_op_free(RtOp *op)
{
    free(op->params);
    op->params = NULL;
    if (op->kind == RT_OP_MEMALLOC)
        rt_graph_mem_hold(op, -1);
    if (op->kind == RT_OP_GRAPH || op->kind == RT_OP_COND)
        rt_graph_body_free(op);
    op->kind = RT_OP_EMPTY; /* released: nothing more to free */
}

/* ---- graphs and their nodes ---- */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned flags)
{
    API_LOCKED;
    if (!pGraph)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphCreate", "null pointer");
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphCreate", "flags %u: expected 0", flags);
    *pGraph = xcalloc(1, sizeof **pGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    API_LOCKED;
    if (!graph)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphDestroy", "null graph");
    rt_graph_free(graph);
    return cudaSuccess;
}

void rt_graph_free(cudaGraph_t graph)
{
    for (size_t i = 0; i < graph->n; i++)
        rt_graph_node_free(graph->nodes[i]);
    for (size_t i = 0; i < graph->n_handles; i++)
        rt_cond_release(graph->handles[i]);
    free(graph->nodes);
    free(graph->handles);
    free(graph);
}

cudaError_t rt_graph_add_node(const char *call, cudaGraphNode_t *pNode, cudaGraph_t graph,
                              const cudaGraphNode_t *deps, size_t n_deps, RtOp *op)
{
    cudaError_t e = !pNode || !graph ? rt_fail(cudaErrorInvalidValue, call, "null %s", !pNode ? "node pointer" : "graph")
                                     : rt_graph_check_deps(call, graph, deps, n_deps);
    if (e != cudaSuccess) {
        rt_graph_op_free(op);
        return e;
    }
    cudaGraphNode_t n = xcalloc(1, sizeof *n);
    n->op = *op;
    op->params = NULL; /* the node's now */
    op->kind = RT_OP_EMPTY;
    rt_graph_link(graph, n, deps, n_deps);
    *pNode = n;
    return cudaSuccess;
}

cudaError_t rt_graph_kernel_op(const char *call, const struct cudaKernelNodeParams *p, RtOp *op)
{
    *op = (RtOp){.kind = RT_OP_EMPTY};
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null parameters");
    if (p->extra)
        return rt_fail(cudaErrorInvalidValue, call, "extra: expected NULL (the parameters go in kernelParams)");
    cudaError_t e = rt_kernel_op(rt_kernel_of(p->func), p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes,
                                 call, op);
    if (e != cudaSuccess)
        rt_graph_op_free(op);
    return e;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n_deps, const struct cudaKernelNodeParams *p)
{
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_graph_kernel_op("cudaGraphAddKernelNode", p, &op);
    return e != cudaSuccess ? e : rt_graph_add_node("cudaGraphAddKernelNode", pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n_deps, void *dst, const void *src, size_t count, int kind)
{
    API_LOCKED;
    RtOp op = {.kind = RT_OP_MEMCPY, .dst = dst, .src = src, .width = count, .height = 1, .copy_kind = kind};
    return rt_graph_add_node("cudaGraphAddMemcpyNode1D", pGraphNode, graph, deps, n_deps, &op);
}

_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms layout");

/* A copy between pitched pointers of one slice (depth 1); CUDA arrays are not supported here. */
cudaError_t rt_graph_memcpy_op(const char *call, const struct cudaMemcpy3DParms *p, RtOp *op)
{
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null parameters");
    if (p->srcArray || p->dstArray)
        return rt_fail(cudaErrorNotSupported, call, "a copy to or from a CUDA array: only pitched pointers are "
                       "supported in graph copies");
    if (p->extent.depth > 1)
        return rt_fail(cudaErrorNotSupported, call, "extent depth %zu: only copies of one slice (depth 1) are "
                       "supported", p->extent.depth);
    size_t spitch = p->srcPtr.pitch ? p->srcPtr.pitch : p->extent.width;
    size_t dpitch = p->dstPtr.pitch ? p->dstPtr.pitch : p->extent.width;
    if (p->extent.height > 1 && (p->extent.width > spitch || p->extent.width > dpitch))
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in pitches of %zu (destination) and %zu "
                       "(source)", p->extent.width, dpitch, spitch);
    *op = (RtOp){.kind = RT_OP_MEMCPY, .width = p->extent.width, .height = p->extent.depth ? p->extent.height : 0,
                 .dpitch = dpitch, .spitch = spitch, .copy_kind = p->kind};
    op->src = (const char *)p->srcPtr.ptr + p->srcPos.y * spitch + p->srcPos.x;
    op->dst = (char *)p->dstPtr.ptr + p->dstPos.y * dpitch + p->dstPos.x;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n_deps, const struct cudaMemcpy3DParms *p)
{
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_graph_memcpy_op("cudaGraphAddMemcpyNode", p, &op);
    return e != cudaSuccess ? e : rt_graph_add_node("cudaGraphAddMemcpyNode", pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t rt_graph_memset_op(const char *call, const struct cudaMemsetParams *p, RtOp *op)
{
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null parameters");
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return rt_fail(cudaErrorInvalidValue, call, "elementSize %u: expected 1, 2 or 4", p->elementSize);
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu elements of %u bytes in a pitch of %zu", p->width,
                       p->elementSize, p->pitch);
    *op = (RtOp){.kind = RT_OP_MEMSET, .dst = p->dst, .width = p->width, .height = p->height, .dpitch = p->pitch,
                 .value = p->value, .elem = p->elementSize};
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n_deps, const struct cudaMemsetParams *p)
{
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_graph_memset_op("cudaGraphAddMemsetNode", p, &op);
    return e != cudaSuccess ? e : rt_graph_add_node("cudaGraphAddMemsetNode", pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t rt_graph_host_op(const char *call, const struct cudaHostNodeParams *p, RtOp *op)
{
    if (!p || !p->fn)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", p ? "function" : "parameters");
    *op = (RtOp){.kind = RT_OP_HOST, .fn = p->fn, .data = p->userData};
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                 size_t n_deps, const struct cudaHostNodeParams *p)
{
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_graph_host_op("cudaGraphAddHostNode", p, &op);
    return e != cudaSuccess ? e : rt_graph_add_node("cudaGraphAddHostNode", pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                  size_t n_deps)
{
    API_LOCKED;
    RtOp op = {.kind = RT_OP_EMPTY};
    return rt_graph_add_node("cudaGraphAddEmptyNode", pGraphNode, graph, deps, n_deps, &op);
}

/* The nodes (all, or only those without dependencies): their count, or the first *n of them. */
static cudaError_t list_nodes(const char *call, cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n, bool roots)
{
    API_LOCKED;
    if (!graph || !n)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", graph ? "count" : "graph");
    size_t found = 0;
    for (size_t i = 0; i < graph->n; i++) {
        if (roots && graph->nodes[i]->n_deps)
            continue;
        if (nodes && found < *n)
            nodes[found] = graph->nodes[i];
        found++;
    }
    if (!nodes || found < *n)
        *n = found;
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    return list_nodes("cudaGraphGetNodes", graph, nodes, numNodes, false);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numRootNodes)
{
    return list_nodes("cudaGraphGetRootNodes", graph, nodes, numRootNodes, true);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int *pType)
{
    API_LOCKED;
    if (!node || !pType)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeGetType", "null %s", node ? "pointer" : "node");
    /* cudaGraphNodeTypeKernel, Memcpy, Memset, Host, Graph, Empty, MemAlloc, MemFree, Conditional */
    static const int types[] = {[RT_OP_KERNEL] = 0, [RT_OP_MEMCPY] = 1, [RT_OP_MEMSET] = 2, [RT_OP_HOST] = 3,
                                [RT_OP_GRAPH] = 4, [RT_OP_EMPTY] = 5, [RT_OP_MEMALLOC] = 10,
                                [RT_OP_MEMFREE] = 11, [RT_OP_COND] = 13};
    *pType = types[node->op.kind];
    return cudaSuccess;
}

/* A copy of the graph: each node depends on the copies of its dependencies. */
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    API_LOCKED;
    if (!pGraphClone || !originalGraph)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphClone", "null %s", pGraphClone ? "graph" : "pointer");
    *pGraphClone = rt_graph_clone(originalGraph);
    return cudaSuccess;
}

cudaGraph_t rt_graph_clone(cudaGraph_t originalGraph)
{
    cudaGraph_t g = xcalloc(1, sizeof *g);
    g->clone_of = originalGraph;
    cudaGraphNode_t *deps = NULL;
    for (size_t i = 0; i < originalGraph->n; i++) {
        cudaGraphNode_t o = originalGraph->nodes[i], n = xcalloc(1, sizeof *n);
        n->op = rt_graph_op_copy(&o->op);
        n->origin = o;
        deps = xrealloc(deps, (o->n_deps ? o->n_deps : 1) * sizeof *deps);
        for (size_t k = 0; k < o->n_deps; k++)
            deps[k] = NULL; /* set below: a dependency may come later in the order of addition */
        rt_graph_link(g, n, deps, o->n_deps);
    }
    for (size_t i = 0; i < g->n; i++)
        for (size_t k = 0; k < g->nodes[i]->n_deps; k++)
            g->nodes[i]->deps[k] = g->nodes[originalGraph->nodes[i]->deps[k]->idx];
    free(deps);
    rt_cond_clone_handles(g, originalGraph);
    return g;
}

/* ---- executable graphs ---- */

enum { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
       cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8 };

static cudaError_t instantiate(const char *call, cudaGraphExec_t *pExec, cudaGraph_t graph, unsigned long long flags)
{
    API_LOCKED;
    if (!pExec || !graph)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", pExec ? "graph" : "pointer");
    if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        return rt_fail(cudaErrorNotSupported, call, "cudaGraphInstantiateFlagDeviceLaunch: graphs launched from the "
                       "device are not supported");
    if (flags & ~0xfull)
        return rt_fail(cudaErrorInvalidValue, call, "flags 0x%llx: not CUDA's", flags);
    return rt_graph_instantiate(call, graph, pExec);
}

cudaError_t rt_graph_instantiate(const char *call, cudaGraph_t graph, cudaGraphExec_t *pExec)
{
    size_t *order = xmalloc((graph->n ? graph->n : 1) * sizeof *order);
    if (!rt_graph_order(graph, order)) {
        free(order);
        return rt_fail(cudaErrorInvalidValue, call, "the graph's dependencies make a cycle");
    }
    cudaGraphExec_t x = xcalloc(1, sizeof *x);
    rt_graph_exec_deps(x, graph, order);
    x->ops = xcalloc(x->n ? x->n : 1, sizeof *x->ops); /* all RT_OP_KERNEL with nothing to free */
    x->nodes = xmalloc((x->n ? x->n : 1) * sizeof *x->nodes);
    x->disabled = xcalloc(x->n ? x->n : 1, sizeof *x->disabled);
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < x->n && e == cudaSuccess; i++) {
        e = rt_graph_op_instance(call, &graph->nodes[order[i]]->op, &x->ops[i]);
        x->nodes[i] = graph->nodes[order[i]];
    }
    free(order);
    if (e != cudaSuccess) {
        rt_graph_exec_free(x);
        return e;
    }
    *pExec = x;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate("cudaGraphInstantiate", pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate("cudaGraphInstantiateWithFlags", pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    API_LOCKED;
    if (!graphExec)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecDestroy", "null graph executable");
    rt_graph_exec_free(graphExec);
    return cudaSuccess;
}

void rt_graph_exec_free(cudaGraphExec_t x)
{
    for (size_t i = 0; i < x->n; i++)
        rt_graph_op_free(&x->ops[i]);
    free(x->ops);
    free(x->nodes);
    free(x->dep_first);
    free(x->dep_pos);
    free(x->disabled);
    free(x);
}

/* The nodes in dependency order, now (the device is synchronous). */
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    ENTER("cudaGraphLaunch");
    if (!graphExec)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphLaunch", "null graph executable");
    if (rt_capturing(stream))
        return rt_fail(cudaErrorStreamCaptureUnsupported, "cudaGraphLaunch", "launching a graph into a captured "
                       "stream is not supported");
    for (size_t i = 0; i < graphExec->n; i++) { /* a launch that cannot allocate does nothing */
        cudaError_t e = rt_graph_mem_can_run(&graphExec->ops[i], "cudaGraphLaunch");
        if (e != cudaSuccess)
            return e;
    }
    rt_cond_launch_defaults(graphExec);
    return rt_async_error(rt_graph_exec_run(graphExec, "cudaGraphLaunch"));
}

cudaError_t rt_graph_exec_run(cudaGraphExec_t x, const char *call)
{
    for (size_t i = 0; i < x->n; i++) {
        cudaError_t e = x->disabled[i] ? cudaSuccess : rt_op_run(&x->ops[i], call);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

/* Nothing to upload: the nodes run from the host's memory. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    ENTER("cudaGraphUpload");
    if (!graphExec)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphUpload", "null graph executable");
    return cudaSuccess;
}

/* ---- stream capture ---- */

static RtCapture **rt_captures; /* the captures in progress */
static size_t rt_n_captures;

bool rt_own_stream(cudaStream_t s)
{
    return (uintptr_t)s > 2;
}

bool rt_capturing(cudaStream_t stream)
{
    return rt_own_stream(stream) && stream->capture;
}

bool rt_graph_capturing(cudaGraph_t graph)
{
    for (size_t i = 0; i < rt_n_captures; i++)
        if (rt_captures[i]->graph == graph)
            return true;
    return false;
}

static void set_deps(cudaStream_t s, const cudaGraphNode_t *deps, size_t n)
{
    s->deps = xrealloc(s->deps, (n ? n : 1) * sizeof *s->deps);
    memcpy(s->deps, deps, n * sizeof *deps);
    s->n_deps = n;
}

static void join(RtCapture *c, cudaStream_t s)
{
    c->streams = xrealloc(c->streams, (c->n_streams + 1) * sizeof *c->streams);
    c->streams[c->n_streams++] = s;
    s->capture = c;
    s->n_deps = 0;
}

enum { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2 };

/* A capture of stream into graph (a new one unless into a program's graph), after deps. */
static cudaError_t begin_capture(const char *call, cudaStream_t stream, int mode, cudaGraph_t into,
                                 const cudaGraphNode_t *deps, const cudaGraphEdgeData *edges, size_t n_deps)
{
    if (!rt_own_stream(stream))
        return rt_fail(cudaErrorStreamCaptureUnsupported, call, "the default stream: capture a stream of the "
                       "program's (cudaStreamCreate)");
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return rt_fail(cudaErrorInvalidValue, call, "mode %d: not a cudaStreamCaptureMode", mode);
    if (stream->capture)
        return rt_fail(cudaErrorIllegalState, call, "the stream is being captured already");
    if (into) {
        cudaError_t e = rt_graph_check_edges(call, edges, n_deps);
        if (e == cudaSuccess)
            e = rt_graph_check_deps(call, into, deps, n_deps);
        if (e == cudaSuccess && rt_graph_capturing(into))
            e = rt_fail(cudaErrorIllegalState, call, "another capture is filling the graph");
        if (e != cudaSuccess)
            return e;
    }
    static unsigned long long next_id = 1;
    RtCapture *c = xcalloc(1, sizeof *c);
    c->id = next_id++;
    c->graph = into ? into : xcalloc(1, sizeof *c->graph);
    c->into_program_graph = into != NULL;
    c->origin = stream;
    join(c, stream);
    if (into && n_deps)
        set_deps(stream, deps, n_deps);
    rt_captures = xrealloc(rt_captures, (rt_n_captures + 1) * sizeof *rt_captures);
    rt_captures[rt_n_captures++] = c;
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode)
{
    ENTER("cudaStreamBeginCapture");
    return begin_capture("cudaStreamBeginCapture", stream, mode, NULL, NULL, NULL, 0);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *edges, size_t n_deps, int mode)
{
    ENTER("cudaStreamBeginCaptureToGraph");
    if (!graph)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamBeginCaptureToGraph", "null graph");
    return begin_capture("cudaStreamBeginCaptureToGraph", stream, mode, graph, deps, edges, n_deps);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    ENTER("cudaStreamEndCapture");
    if (!rt_capturing(stream))
        return rt_fail(cudaErrorIllegalState, "cudaStreamEndCapture", "the stream is not being captured");
    RtCapture *c = stream->capture;
    if (!pGraph && !c->into_program_graph)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamEndCapture", "null pointer");
    if (c->origin != stream)
        return rt_fail(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture", "the capture began in another "
                       "stream: end it there");
    for (size_t i = 0; i < c->n_streams; i++) {
        c->streams[i]->capture = NULL;
        c->streams[i]->n_deps = 0;
    }
    for (size_t i = 0; i < rt_n_captures; i++)
        if (rt_captures[i] == c)
            rt_captures[i] = rt_captures[--rt_n_captures];
    if (pGraph)
        *pGraph = c->graph;
    free(c->streams);
    free(c);
    return cudaSuccess;
}

enum { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };

/* The capture's state; the dependency list stays valid until the stream's next call. */
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int *status, unsigned long long *id, cudaGraph_t *graph,
                                     const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges, size_t *n_deps)
{
    ENTER("cudaStreamGetCaptureInfo");
    if (!status)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamGetCaptureInfo", "null status pointer");
    bool on = rt_capturing(stream);
    *status = on ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (id)
        *id = on ? stream->capture->id : 0;
    if (graph)
        *graph = on ? stream->capture->graph : NULL;
    if (deps)
        *deps = on ? stream->deps : NULL;
    if (edges) /* default edges: CUDA may answer NULL for them */
        *edges = NULL;
    if (n_deps)
        *n_deps = on ? stream->n_deps : 0;
    return cudaSuccess;
}

enum { cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1 };

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t n_deps, unsigned flags)
{
    const char *call = "cudaStreamUpdateCaptureDependencies";
    ENTER(call);
    if (!rt_capturing(stream))
        return rt_fail(cudaErrorIllegalState, call, "the stream is not being captured");
    if (flags > cudaStreamSetCaptureDependencies)
        return rt_fail(cudaErrorInvalidValue, call, "flags %u: expected cudaStreamAddCaptureDependencies or "
                       "cudaStreamSetCaptureDependencies", flags);
    cudaError_t e = rt_graph_check_edges(call, edges, n_deps);
    if (e == cudaSuccess)
        e = rt_graph_check_deps(call, stream->capture->graph, deps, n_deps);
    if (e != cudaSuccess)
        return e;
    if (flags == cudaStreamSetCaptureDependencies)
        stream->n_deps = 0;
    for (size_t i = 0; i < n_deps; i++) {
        bool have = false;
        for (size_t j = 0; j < stream->n_deps && !have; j++)
            have = stream->deps[j] == deps[i];
        if (!have) {
            stream->deps = xrealloc(stream->deps, (stream->n_deps + 1) * sizeof *stream->deps);
            stream->deps[stream->n_deps++] = deps[i];
        }
    }
    return cudaSuccess;
}

cudaError_t rt_capture_leave(cudaStream_t stream, const char *call)
{
    RtCapture *c = stream->capture;
    if (c->origin == stream)
        return rt_fail(cudaErrorStreamCaptureUnmatched, call, "the capture began in this stream: end it first "
                       "(cudaStreamEndCapture)");
    for (size_t i = 0; i < c->n_streams; i++)
        if (c->streams[i] == stream)
            c->streams[i] = c->streams[--c->n_streams];
    stream->capture = NULL;
    stream->n_deps = 0;
    return cudaSuccess;
}

cudaError_t rt_capture_op(cudaStream_t stream, RtOp *op, const char *call)
{
    cudaGraphNode_t n = NULL;
    cudaError_t e = rt_graph_add_node(call, &n, stream->capture->graph, stream->deps, stream->n_deps, op);
    if (e == cudaSuccess)
        set_deps(stream, &n, 1);
    return e;
}

void rt_capture_event_record(cudaEvent_t event, cudaStream_t stream)
{
    event->capture_id = stream->capture->id;
    event->deps = xrealloc(event->deps, (stream->n_deps ? stream->n_deps : 1) * sizeof *event->deps);
    memcpy(event->deps, stream->deps, stream->n_deps * sizeof *event->deps);
    event->n_deps = stream->n_deps;
}

cudaError_t rt_capture_event_wait(cudaStream_t stream, cudaEvent_t event, const char *call)
{
    RtCapture *c = NULL;
    for (size_t i = 0; i < rt_n_captures && !c; i++)
        if (rt_captures[i]->id == event->capture_id)
            c = rt_captures[i];
    if (!c) /* its capture has ended: nothing to wait for on a synchronous device */
        return cudaSuccess;
    if (!rt_own_stream(stream))
        return rt_fail(cudaErrorStreamCaptureUnsupported, call, "the default stream cannot join a capture");
    if (stream->capture && stream->capture != c)
        return rt_fail(cudaErrorStreamCaptureInvalidated, call, "the stream is part of another capture");
    if (!stream->capture)
        join(c, stream);
    /* the stream's next node depends on its own last ones and the event's */
    for (size_t i = 0; i < event->n_deps; i++) {
        bool have = false;
        for (size_t j = 0; j < stream->n_deps && !have; j++)
            have = stream->deps[j] == event->deps[i];
        if (!have) {
            stream->deps = xrealloc(stream->deps, (stream->n_deps + 1) * sizeof *stream->deps);
            stream->deps[stream->n_deps++] = event->deps[i];
        }
    }
    return cudaSuccess;
}

/* The mode decides which calls a capture forbids in other threads; nothing is forbidden here. */
cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    static _Thread_local int thread_mode = cudaStreamCaptureModeGlobal;
    if (!mode)
        return rt_fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode", "null pointer");
    if (*mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
        return rt_fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode", "mode %d: not a "
                       "cudaStreamCaptureMode", *mode);
    int old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

RT_PER_THREAD(cudaGraphLaunch_ptsz, cudaGraphLaunch);
RT_PER_THREAD(cudaGraphUpload_ptsz, cudaGraphUpload);
RT_PER_THREAD(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture);
RT_PER_THREAD(cudaStreamEndCapture_ptsz, cudaStreamEndCapture);
RT_PER_THREAD(cudaStreamBeginCaptureToGraph_ptsz, cudaStreamBeginCaptureToGraph);
RT_PER_THREAD(cudaStreamGetCaptureInfo_ptsz, cudaStreamGetCaptureInfo);
RT_PER_THREAD(cudaStreamUpdateCaptureDependencies_ptsz, cudaStreamUpdateCaptureDependencies);
