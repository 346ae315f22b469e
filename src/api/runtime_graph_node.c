/* runtime_graph_node.c: cudaGraphAddNode, CUDA 12's one call for a node of any kind, in
 * warpsim's libcudart replacement: cudaGraphNodeParams names the kind and holds its parameters,
 * which are those of the call that adds such a node (cudaGraphAddKernelNode, ...), checked the
 * same way. Event, external-semaphore and the other kinds warpsim does not model fail with
 * cudaErrorNotSupported, naming the kind. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stddef.h>
#include <string.h>

enum {
    NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3, NODE_GRAPH = 4, NODE_EMPTY = 5,
    NODE_WAIT_EVENT = 6, NODE_EVENT_RECORD = 7, NODE_SEM_SIGNAL = 8, NODE_SEM_WAIT = 9, NODE_MEM_ALLOC = 10,
    NODE_MEM_FREE = 11, NODE_CONDITIONAL = 13
};
enum { cudaGraphChildGraphOwnershipClone = 0, cudaGraphChildGraphOwnershipMove = 1 };

/* cudaGraphNodeParams (driver_types.h): the V2 parameter structures have the layouts of the
 * first ones (cudaKernelNodeParams, cudaMemsetParams, cudaHostNodeParams, ...). */
struct cudaGraphNodeParams {
    int type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParams kernel;
        struct {
            int flags, reserved[3];
            struct cudaMemcpy3DParms copyParams;
        } memcpy;
        struct cudaMemsetParams memset;
        struct cudaHostNodeParams host;
        struct {
            cudaGraph_t graph;
            int ownership;
        } graph;
        unsigned char alloc[120]; /* cudaMemAllocNodeParamsV2 (runtime_graph_mem.c) */
        struct {
            void *dptr;
        } free;
        struct cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};
_Static_assert(sizeof(struct cudaGraphNodeParams) == 256, "cudaGraphNodeParams layout");
_Static_assert(offsetof(struct cudaGraphNodeParams, kernel) == 16, "cudaGraphNodeParams layout");
_Static_assert(sizeof(struct cudaConditionalNodeParams) == 24, "cudaConditionalNodeParams layout");

struct cudaMemAllocNodeParams;
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n_deps, struct cudaMemAllocNodeParams *p);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    size_t n_deps, void *dptr);

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                             const cudaGraphEdgeData *edges, size_t n_deps, struct cudaGraphNodeParams *p)
{
    const char *call = "cudaGraphAddNode";
    ENTER(call);
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null parameters");
    cudaError_t e = rt_graph_check_edges(call, edges, n_deps);
    if (e != cudaSuccess)
        return e;
    RtOp op = {.kind = RT_OP_EMPTY};
    switch (p->type) {
    case NODE_KERNEL:
        e = rt_graph_kernel_op(call, &p->kernel, &op);
        break;
    case NODE_MEMCPY:
        e = p->memcpy.flags ? rt_fail(cudaErrorInvalidValue, call, "memcpy.flags %d: expected 0", p->memcpy.flags)
                            : rt_graph_memcpy_op(call, &p->memcpy.copyParams, &op);
        break;
    case NODE_MEMSET:
        e = rt_graph_memset_op(call, &p->memset, &op);
        break;
    case NODE_HOST:
        e = rt_graph_host_op(call, &p->host, &op);
        break;
    case NODE_GRAPH:
        if (p->graph.ownership != cudaGraphChildGraphOwnershipClone &&
            p->graph.ownership != cudaGraphChildGraphOwnershipMove)
            return rt_fail(cudaErrorInvalidValue, call, "graph.ownership %d: expected "
                           "cudaGraphChildGraphOwnershipClone or Move", p->graph.ownership);
        e = rt_graph_child_op(call, p->graph.graph, p->graph.ownership == cudaGraphChildGraphOwnershipMove, &op);
        break;
    case NODE_EMPTY:
        break;
    case NODE_MEM_ALLOC:
        return cudaGraphAddMemAllocNode(pGraphNode, graph, deps, n_deps, (struct cudaMemAllocNodeParams *)p->alloc);
    case NODE_MEM_FREE:
        return cudaGraphAddMemFreeNode(pGraphNode, graph, deps, n_deps, p->free.dptr);
    case NODE_CONDITIONAL:
        return rt_graph_add_conditional(call, pGraphNode, graph, deps, n_deps, &p->conditional);
    case NODE_WAIT_EVENT:
    case NODE_EVENT_RECORD:
    case NODE_SEM_SIGNAL:
    case NODE_SEM_WAIT:
        return rt_fail(cudaErrorNotSupported, call, "%s nodes are not supported",
                       p->type == NODE_WAIT_EVENT     ? "event wait"
                       : p->type == NODE_EVENT_RECORD ? "event record"
                                                      : "external semaphore");
    default:
        return rt_fail(cudaErrorInvalidValue, call, "type %d: not a cudaGraphNodeType", p->type);
    }
    return e != cudaSuccess ? e : rt_graph_add_node(call, pGraphNode, graph, deps, n_deps, &op);
}

