/* runtime_graph_update.c: changing what a graph's nodes do, in a graph (cudaGraphKernelNodeSetParams,
 * ...) or in an executable without instantiating it again (cudaGraphExecKernelNodeSetParams,
 * ..., cudaGraphExecUpdate), in warpsim's libcudart replacement.
 *
 * A setter builds the node's new op with the checks of the call that adds such a node, and
 * replaces the op of the node, or of the executable's copy of it (found by the node it came
 * from); the kind of node must stay, as CUDA requires. cudaGraphExecUpdate takes the ops of
 * another graph of the same shape: as many nodes, of the same kinds, each with as many
 * dependencies, in the same order (nodes added in the same order, as a capture of the same
 * stream work makes them); graphs with memory nodes cannot be updated, as in CUDA. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* Replace *dst by the new op of the same kind (taken), or release it on a kind mismatch. */
static cudaError_t replace(const char *call, RtOp *dst, RtOp *op)
{
    if (dst->kind != op->kind) {
        rt_graph_op_free(op);
        return rt_fail(cudaErrorInvalidValue, call, "the node is of another kind");
    }
    rt_graph_op_free(dst);
    *dst = *op;
    return cudaSuccess;
}

/* The op of node in an executable (exec) or in its graph (exec NULL). */
static RtOp *op_of(const char *call, cudaGraphExec_t exec, cudaGraphNode_t node)
{
    if (!node) {
        rt_fail(cudaErrorInvalidValue, call, "null node");
        return NULL;
    }
    if (!exec)
        return &node->op;
    for (size_t i = 0; i < exec->n; i++)
        if (exec->nodes[i] == node)
            return &exec->ops[i];
    rt_fail(cudaErrorInvalidValue, call, "the node is not one of the graph the executable was made from");
    return NULL;
}

/* Build op (e the result of building it) and put it in node's place. */
static cudaError_t set_op(const char *call, cudaGraphExec_t exec, cudaGraphNode_t node, cudaError_t e, RtOp *op)
{
    if (e != cudaSuccess)
        return e;
    RtOp *dst = op_of(call, exec, node);
    if (!dst) {
        rt_graph_op_free(op);
        return cudaErrorInvalidValue;
    }
    return replace(call, dst, op);
}

#define SETTER(name, exec, node, build)                                                                 \
    do {                                                                                                \
        API_LOCKED;                                                                                     \
        RtOp op_;                                                                                       \
        cudaError_t e_ = build(#name, p, &op_);                                                         \
        return set_op(#name, exec, node, e_, &op_);                                                     \
    } while (0)

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p)
{
    SETTER(cudaGraphKernelNodeSetParams, NULL, node, rt_graph_kernel_op);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *p)
{
    if (!x)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams", "null graph executable");
    SETTER(cudaGraphExecKernelNodeSetParams, x, node, rt_graph_kernel_op);
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
    SETTER(cudaGraphMemcpyNodeSetParams, NULL, node, rt_graph_memcpy_op);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
    if (!x)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecMemcpyNodeSetParams", "null graph executable");
    SETTER(cudaGraphExecMemcpyNodeSetParams, x, node, rt_graph_memcpy_op);
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    SETTER(cudaGraphMemsetNodeSetParams, NULL, node, rt_graph_memset_op);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    if (!x)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecMemsetNodeSetParams", "null graph executable");
    SETTER(cudaGraphExecMemsetNodeSetParams, x, node, rt_graph_memset_op);
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    SETTER(cudaGraphHostNodeSetParams, NULL, node, rt_graph_host_op);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    if (!x)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecHostNodeSetParams", "null graph executable");
    SETTER(cudaGraphExecHostNodeSetParams, x, node, rt_graph_host_op);
}

static cudaError_t memcpy1d(cudaGraphExec_t x, cudaGraphNode_t node, void *dst, const void *src, size_t count,
                            int kind, const char *call)
{
    API_LOCKED;
    RtOp op = {.kind = RT_OP_MEMCPY, .dst = dst, .src = src, .width = count, .height = 1, .copy_kind = kind};
    return set_op(call, x, node, cudaSuccess, &op);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count, int kind)
{
    return memcpy1d(NULL, node, dst, src, count, kind, "cudaGraphMemcpyNodeSetParams1D");
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x, cudaGraphNode_t node, void *dst, const void *src,
                                               size_t count, int kind)
{
    if (!x)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecMemcpyNodeSetParams1D", "null graph executable");
    return memcpy1d(x, node, dst, src, count, kind, "cudaGraphExecMemcpyNodeSetParams1D");
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
    API_LOCKED;
    cudaError_t e = rt_graph_node_is("cudaGraphHostNodeGetParams", node, p, RT_OP_HOST, "a host node");
    if (e != cudaSuccess)
        return e;
    p->fn = node->op.fn;
    p->userData = node->op.data;
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
    API_LOCKED;
    cudaError_t e = rt_graph_node_is("cudaGraphMemsetNodeGetParams", node, p, RT_OP_MEMSET, "a memset node");
    if (e != cudaSuccess)
        return e;
    *p = (struct cudaMemsetParams){.dst = node->op.dst, .pitch = node->op.dpitch, .value = node->op.value,
                                   .elementSize = node->op.elem, .width = node->op.width, .height = node->op.height};
    return cudaSuccess;
}

/* ---- cudaGraphExecUpdate ---- */

/* cudaGraphExecUpdateResult, cudaGraphExecUpdateResultInfo (driver_types.h) */
enum { UPDATE_SUCCESS = 0, UPDATE_TOPOLOGY_CHANGED = 2, UPDATE_NODE_TYPE_CHANGED = 3, UPDATE_NOT_SUPPORTED = 6 };

typedef struct {
    int result;
    cudaGraphNode_t errorNode, errorFromNode;
} UpdateInfo;
_Static_assert(sizeof(UpdateInfo) == 24, "cudaGraphExecUpdateResultInfo layout");

static cudaError_t update_fail(UpdateInfo *info, int result, cudaGraphNode_t node, const char *why)
{
    if (info)
        *info = (UpdateInfo){.result = result, .errorNode = node};
    return rt_fail(cudaErrorGraphExecUpdateFailure, "cudaGraphExecUpdate", "%s", why);
}

/* Memory nodes hold their allocations; nodes with bodies would need those updated too. */
static bool updatable(RtOpKind k)
{
    return k != RT_OP_MEMALLOC && k != RT_OP_MEMFREE && k != RT_OP_GRAPH && k != RT_OP_COND;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g, UpdateInfo *info)
{
    API_LOCKED;
    if (!x || !g)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphExecUpdate", "null %s", x ? "graph" : "graph executable");
    if (g->n != x->n)
        return update_fail(info, UPDATE_TOPOLOGY_CHANGED, NULL, "the graph has another number of nodes");
    /* the graph's nodes pair with the executable's in the dependency order of each */
    size_t *order = xmalloc((g->n ? g->n : 1) * sizeof *order);
    if (!rt_graph_order(g, order)) {
        free(order);
        return update_fail(info, UPDATE_TOPOLOGY_CHANGED, NULL, "the graph's dependencies make a cycle");
    }
    cudaGraphNode_t bad = NULL;
    int why = UPDATE_SUCCESS;
    for (size_t i = 0; i < g->n && !bad; i++) {
        const RtOp *op = &g->nodes[order[i]]->op;
        if (!updatable(op->kind) || !updatable(x->ops[i].kind))
            why = UPDATE_NOT_SUPPORTED;
        else if (op->kind != x->ops[i].kind)
            why = UPDATE_NODE_TYPE_CHANGED;
        if (why != UPDATE_SUCCESS)
            bad = g->nodes[order[i]];
    }
    if (!bad && (bad = rt_graph_exec_topology_differs(x, g, order)))
        why = UPDATE_TOPOLOGY_CHANGED;
    if (bad) {
        free(order);
        return update_fail(info, why, bad, why == UPDATE_NOT_SUPPORTED ? "graphs with memory, child graph or "
                           "conditional nodes cannot be updated"
                           : why == UPDATE_NODE_TYPE_CHANGED ? "a node is of another kind"
                           : "a node has other dependencies");
    }
    for (size_t i = 0; i < g->n; i++) {
        rt_graph_op_free(&x->ops[i]);
        x->ops[i] = rt_graph_op_copy(&g->nodes[order[i]]->op);
        x->nodes[i] = g->nodes[order[i]];
    }
    free(order);
    if (info)
        *info = (UpdateInfo){.result = UPDATE_SUCCESS};
    return cudaSuccess;
}

/* ---- disabling a node of an executable ---- */

/* The executable's place of node, which only kernel, copy and memset nodes may have for these
 * calls (CUDA's rule); -1 with the error reported. */
static long enable_slot(const char *call, cudaGraphExec_t x, cudaGraphNode_t node)
{
    if (!x || !node) {
        rt_fail(cudaErrorInvalidValue, call, "null %s", x ? "node" : "graph executable");
        return -1;
    }
    for (size_t i = 0; i < x->n; i++)
        if (x->nodes[i] == node) {
            RtOpKind k = x->ops[i].kind;
            if (k == RT_OP_KERNEL || k == RT_OP_MEMCPY || k == RT_OP_MEMSET)
                return (long)i;
            rt_fail(cudaErrorInvalidValue, call, "only kernel, memcpy and memset nodes can be disabled");
            return -1;
        }
    rt_fail(cudaErrorInvalidValue, call, "the node is not one of the graph the executable was made from");
    return -1;
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t x, cudaGraphNode_t node, unsigned isEnabled)
{
    API_LOCKED;
    long i = enable_slot("cudaGraphNodeSetEnabled", x, node);
    if (i < 0)
        return cudaErrorInvalidValue;
    x->disabled[i] = !isEnabled;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t x, cudaGraphNode_t node, unsigned *isEnabled)
{
    API_LOCKED;
    if (!isEnabled)
        return rt_fail(cudaErrorInvalidValue, "cudaGraphNodeGetEnabled", "null pointer");
    long i = enable_slot("cudaGraphNodeGetEnabled", x, node);
    if (i < 0)
        return cudaErrorInvalidValue;
    *isEnabled = !x->disabled[i];
    return cudaSuccess;
}
