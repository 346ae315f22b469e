/* runtime_graph_body.c: graph nodes that hold graphs of their own, in warpsim's libcudart
 * replacement: child graph nodes (cudaGraphAddChildGraphNode) and conditional nodes
 * (cudaGraphConditionalHandleCreate, then cudaGraphAddNode of cudaGraphNodeTypeConditional:
 * IF with an optional ELSE, WHILE and SWITCH).
 *
 * A node's bodies are graphs it owns. Instantiating its graph instantiates them into
 * executables the executable's op owns, and running the op runs them as cudaGraphLaunch does,
 * one op after another on the synchronous device.
 *
 * A conditional handle is a 4-byte value in managed memory (host memory the device addresses in
 * place). The handle the program passes to its kernels is that value's address:
 * cudaGraphSetConditional in device code is a store to it (ptx_builtin.c defines it), and the
 * node reads it when it runs. A handle made with cudaGraphCondAssignDefault takes its default
 * value at the start of each cudaGraphLaunch of an executable whose conditional nodes use it;
 * any other keeps the value it was last given (CUDA leaves it undefined), first its default. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

enum { COND_IF = 0, COND_WHILE = 1, COND_SWITCH = 2 }; /* cudaGraphConditionalNodeType */
enum { cudaGraphCondAssignDefault = 1 };
/* Bodies of a SWITCH: CUDA sets no bound; this one keeps a bad size from exhausting memory. */
enum { COND_MAX_BODIES = 1 << 16 };

typedef struct RtCondHandle {
    uint64_t addr;         /* the managed allocation holding the value: the handle */
    volatile unsigned *value;
    unsigned dflt;
    bool assign_default;
    int refs; /* the graph it was made for, and each op and graph holding it */
} RtCondHandle;

static void cond_hold(RtCondHandle *h)
{
    if (h)
        h->refs++;
}

void rt_cond_release(RtCondHandle *h)
{
    if (!h || --h->refs > 0)
        return;
    if (api_sim()) /* at exit the simulator may have gone with its memory */
        warpsim_free(api_sim(), h->addr);
    free(h);
}

static void graph_take_handle(cudaGraph_t g, RtCondHandle *h)
{
    g->handles = xrealloc(g->handles, (g->n_handles + 1) * sizeof *g->handles);
    g->handles[g->n_handles++] = h;
    cond_hold(h);
}

void rt_cond_clone_handles(cudaGraph_t clone, cudaGraph_t graph)
{
    for (size_t i = 0; i < graph->n_handles; i++)
        graph_take_handle(clone, graph->handles[i]);
}

cudaError_t cudaGraphConditionalHandleCreate(unsigned long long *pHandle, cudaGraph_t graph, unsigned defaultValue,
                                             unsigned flags)
{
    const char *call = "cudaGraphConditionalHandleCreate";
    ENTER(call);
    if (!pHandle || !graph)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", graph ? "pointer" : "graph");
    if (flags & ~(unsigned)cudaGraphCondAssignDefault)
        return rt_fail(cudaErrorInvalidValue, call, "flags %#x: expected 0 or cudaGraphCondAssignDefault", flags);
    uint64_t addr = warpsim_malloc_managed(api_sim(), sizeof(unsigned));
    if (!addr)
        return rt_fail(cudaErrorMemoryAllocation, call, "no memory for the condition's value");
    RtCondHandle *h = xcalloc(1, sizeof *h);
    *h = (RtCondHandle){.addr = addr, .value = (volatile unsigned *)(uintptr_t)addr, .dflt = defaultValue,
                        .assign_default = flags & cudaGraphCondAssignDefault};
    *h->value = defaultValue;
    graph_take_handle(graph, h);
    *pHandle = addr;
    return cudaSuccess;
}

/* ---- the ops ---- */

/* Memory nodes allocate for the launch of the graph that holds them: not inside a body here
 * (CUDA refuses them in conditional bodies, and moves a child graph's to its parent). Checked
 * when the bodies are instantiated, since a conditional's are filled after the node is made. */
static cudaError_t check_body(const char *call, cudaGraph_t body, const RtOp *op)
{
    for (size_t i = 0; i < body->n; i++) {
        const RtOp *in = &body->nodes[i]->op;
        if (in->kind == RT_OP_MEMALLOC || in->kind == RT_OP_MEMFREE)
            return rt_fail(op->kind == RT_OP_GRAPH ? cudaErrorNotSupported : cudaErrorInvalidValue, call,
                           "a memory %s node in %s: not supported there",
                           in->kind == RT_OP_MEMALLOC ? "allocation" : "free",
                           op->kind == RT_OP_GRAPH ? "a child graph" : "a conditional node's body");
        for (unsigned b = 0; b < in->n_bodies; b++) {
            cudaError_t e = check_body(call, in->graphs[b], op);
            if (e != cudaSuccess)
                return e;
        }
    }
    return cudaSuccess;
}

void rt_graph_body_copy(const RtOp *op, RtOp *c)
{
    c->graphs = xmalloc(op->n_bodies * sizeof *c->graphs);
    for (unsigned i = 0; i < op->n_bodies; i++)
        c->graphs[i] = rt_graph_clone(op->graphs[i]);
    c->execs = NULL;
    cond_hold(c->cond);
}

void rt_graph_body_free(RtOp *op)
{
    for (unsigned i = 0; i < op->n_bodies; i++) {
        if (op->graphs && op->graphs[i])
            rt_graph_free(op->graphs[i]);
        if (op->execs && op->execs[i])
            rt_graph_exec_free(op->execs[i]);
    }
    free(op->graphs);
    free(op->execs);
    op->graphs = NULL;
    op->execs = NULL;
    op->n_bodies = 0;
    rt_cond_release(op->cond);
    op->cond = NULL;
}

cudaError_t rt_graph_op_instance(const char *call, const RtOp *op, RtOp *out)
{
    if (op->kind != RT_OP_GRAPH && op->kind != RT_OP_COND) {
        *out = rt_graph_op_copy(op);
        return cudaSuccess;
    }
    for (unsigned i = 0; i < op->n_bodies; i++) {
        cudaError_t e = check_body(call, op->graphs[i], op);
        if (e != cudaSuccess)
            return e;
    }
    *out = *op;
    out->graphs = NULL;
    out->execs = xcalloc(op->n_bodies, sizeof *out->execs);
    cond_hold(out->cond);
    for (unsigned i = 0; i < op->n_bodies; i++) {
        cudaError_t e = rt_graph_instantiate(call, op->graphs[i], &out->execs[i]);
        if (e != cudaSuccess) {
            rt_graph_op_free(out);
            return e;
        }
    }
    return cudaSuccess;
}

/* The executable launches a kernel, at any depth: what can change a condition. */
static bool launches_kernel(cudaGraphExec_t x)
{
    for (size_t i = 0; i < x->n; i++) {
        if (x->ops[i].kind == RT_OP_KERNEL)
            return true;
        for (unsigned b = 0; b < x->ops[i].n_bodies; b++)
            if (x->ops[i].execs && launches_kernel(x->ops[i].execs[b]))
                return true;
    }
    return false;
}

cudaError_t rt_graph_body_run(const RtOp *op, const char *call)
{
    if (op->kind == RT_OP_GRAPH)
        return rt_graph_exec_run(op->execs[0], call);
    unsigned v = *op->cond->value;
    switch (op->cond_type) {
    case COND_IF:
        return v ? rt_graph_exec_run(op->execs[0], call)
               : op->n_bodies == 2 ? rt_graph_exec_run(op->execs[1], call) : cudaSuccess;
    case COND_SWITCH:
        return v < op->n_bodies ? rt_graph_exec_run(op->execs[v], call) : cudaSuccess;
    default: /* COND_WHILE */
        while (v) {
            cudaError_t e = rt_graph_exec_run(op->execs[0], call);
            if (e != cudaSuccess)
                return e;
            unsigned now = *op->cond->value;
            /* a GPU would spin here for ever: say so instead */
            if (now == v && !launches_kernel(op->execs[0]))
                return rt_fail(cudaErrorLaunchTimeout, call, "a WHILE node's body launches no kernel and leaves "
                               "its condition at %u: it would run for ever", now);
            v = now;
        }
        return cudaSuccess;
    }
}

void rt_cond_launch_defaults(cudaGraphExec_t x)
{
    for (size_t i = 0; i < x->n; i++) {
        const RtOp *op = &x->ops[i];
        if (op->kind == RT_OP_COND && op->cond->assign_default)
            *op->cond->value = op->cond->dflt;
        for (unsigned b = 0; b < op->n_bodies; b++)
            if (op->execs)
                rt_cond_launch_defaults(op->execs[b]);
    }
}

/* ---- making the nodes ---- */

cudaError_t rt_graph_child_op(const char *call, cudaGraph_t child, bool move, RtOp *op)
{
    *op = (RtOp){.kind = RT_OP_EMPTY};
    if (!child)
        return rt_fail(cudaErrorInvalidValue, call, "null child graph");
    if (move && rt_graph_capturing(child))
        return rt_fail(cudaErrorIllegalState, call, "the child graph is being captured into");
    *op = (RtOp){.kind = RT_OP_GRAPH, .graphs = xmalloc(sizeof *op->graphs), .n_bodies = 1};
    op->graphs[0] = move ? child : rt_graph_clone(child);
    return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                       size_t n_deps, cudaGraph_t childGraph)
{
    const char *call = "cudaGraphAddChildGraphNode";
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_graph_child_op(call, childGraph, false, &op);
    return e != cudaSuccess ? e : rt_graph_add_node(call, pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    API_LOCKED;
    cudaError_t e = rt_graph_node_is("cudaGraphChildGraphNodeGetGraph",
                                     node, pGraph, RT_OP_GRAPH, "a child graph node");
    if (e != cudaSuccess)
        return e;
    *pGraph = node->op.graphs[0];
    return cudaSuccess;
}

cudaError_t rt_graph_add_conditional(const char *call, cudaGraphNode_t *pNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n_deps, struct cudaConditionalNodeParams *p)
{
    if (!graph || !pNode)
        return rt_fail(cudaErrorInvalidValue, call, "null %s", graph ? "node pointer" : "graph");
    RtCondHandle *h = NULL;
    for (size_t i = 0; i < graph->n_handles && !h; i++)
        if (graph->handles[i]->addr == p->handle)
            h = graph->handles[i];
    if (!h)
        return rt_fail(cudaErrorInvalidValue, call, "conditional handle %#llx was not made for this graph "
                       "(cudaGraphConditionalHandleCreate)", p->handle);
    bool size_ok = p->type == COND_IF    ? p->size == 1 || p->size == 2
                   : p->type == COND_WHILE ? p->size == 1
                   : p->type == COND_SWITCH ? p->size >= 1 && p->size <= COND_MAX_BODIES
                                            : false;
    if (p->type < COND_IF || p->type > COND_SWITCH)
        return rt_fail(cudaErrorInvalidValue, call, "conditional type %d: expected cudaGraphCondTypeIf, While or "
                       "Switch", p->type);
    if (!size_ok)
        return rt_fail(cudaErrorInvalidValue, call, "size %u: expected %s", p->size,
                       p->type == COND_IF ? "1 or 2 for an IF node" : p->type == COND_WHILE ? "1 for a WHILE node"
                                                                                          : "1 to 65536 for a SWITCH node");
    RtOp op = {.kind = RT_OP_COND, .graphs = xmalloc(p->size * sizeof *op.graphs), .n_bodies = p->size,
               .cond_type = p->type, .cond = h};
    cond_hold(h);
    for (unsigned i = 0; i < p->size; i++)
        op.graphs[i] = xcalloc(1, sizeof *op.graphs[i]);
    cudaGraph_t *bodies = op.graphs;
    cudaError_t e = rt_graph_add_node(call, pNode, graph, deps, n_deps, &op);
    if (e == cudaSuccess)
        p->phGraph_out = bodies; /* the node's own array, for the node's life (as CUDA's) */
    return e;
}
