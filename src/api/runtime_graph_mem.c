/* runtime_graph_mem.c: graph memory nodes in warpsim's libcudart replacement
 * (cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode, and cudaMallocAsync / cudaFreeAsync on a
 * captured stream).
 *
 * CUDA gives an allocation node its address when the node is made, and the memory exists from
 * the node's run in a launch until a free node, cudaFree or cudaFreeAsync frees it; the graph
 * may be launched again only after that. Here the address is a device allocation reserved when
 * the node is made and kept while any graph or executable holds the node (so kernels of the
 * graph, and the program after a launch, use it as ordinary device memory); a launch makes it
 * live, a free marks it free again. The reservation goes back to the device when nothing holds
 * it and it is not live. An allocation is never shared with another node, so two allocations of
 * one graph never have one address (CUDA may give a later one the address of one freed before
 * it); programs may not rely on either. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

typedef struct GraphMem {
    uint64_t addr;
    size_t bytes;
    bool live;      /* allocated by a launch, not yet freed */
    unsigned holds; /* nodes and executable ops that hold the reservation */
    struct GraphMem *next;
} GraphMem;

static GraphMem *graph_mems;
static uint64_t used_high, reserved_high; /* cudaDeviceGetGraphMemAttribute's high-water marks */

static GraphMem **find(uint64_t addr)
{
    GraphMem **p = &graph_mems;
    while (*p && (*p)->addr != addr)
        p = &(*p)->next;
    return p;
}

static void usage(uint64_t *used, uint64_t *reserved)
{
    *used = *reserved = 0;
    for (const GraphMem *g = graph_mems; g; g = g->next) {
        *reserved += g->bytes;
        if (g->live)
            *used += g->bytes;
    }
}

static void note_usage(void)
{
    uint64_t used, reserved;
    usage(&used, &reserved);
    used_high = MAX(used_high, used);
    reserved_high = MAX(reserved_high, reserved);
}

/* Give the reservation back once nothing holds it and it is free. */
static void settle(GraphMem **p)
{
    GraphMem *g = *p;
    if (g->live || g->holds)
        return;
    warpsim_free(rt_sim, g->addr);
    *p = g->next;
    free(g);
}

cudaError_t rt_graph_mem_reserve(const char *call, size_t bytes, RtOp *op)
{
    *op = (RtOp){.kind = RT_OP_EMPTY};
    if (bytes == 0)
        return rt_fail(cudaErrorInvalidValue, call, "an allocation of 0 bytes");
    void *p = NULL;
    cudaError_t e = rt_dev_alloc(call, &p, bytes);
    if (e != cudaSuccess)
        return e;
    GraphMem *g = xcalloc(1, sizeof *g);
    g->addr = (uint64_t)(uintptr_t)p;
    g->bytes = bytes;
    g->holds = 1; /* op's */
    g->next = graph_mems;
    graph_mems = g;
    note_usage();
    *op = (RtOp){.kind = RT_OP_MEMALLOC, .dst = p, .width = bytes};
    return cudaSuccess;
}

void rt_graph_mem_hold(const RtOp *op, int delta)
{
    GraphMem **p = find((uint64_t)(uintptr_t)op->dst);
    if (!*p)
        return;
    (*p)->holds += (unsigned)delta;
    settle(p);
}

cudaError_t rt_graph_mem_free_op(const char *call, void *ptr, RtOp *op)
{
    *op = (RtOp){.kind = RT_OP_EMPTY};
    if (!*find((uint64_t)(uintptr_t)ptr))
        return rt_fail(cudaErrorInvalidValue, call, "%p is not the address of a graph's allocation (an allocation "
                       "node or cudaMallocAsync in a stream capture)", ptr);
    *op = (RtOp){.kind = RT_OP_MEMFREE, .dst = ptr};
    return cudaSuccess;
}

/* Free a live graph allocation. */
static cudaError_t free_live(const char *call, GraphMem **p)
{
    if (!(*p)->live)
        return rt_fail(cudaErrorInvalidValue, call, "the graph allocation at %p is not allocated now (freed already, "
                       "or its graph has not run)", (void *)(uintptr_t)(*p)->addr);
    (*p)->live = false;
    settle(p);
    return cudaSuccess;
}

cudaError_t rt_graph_mem_can_run(const RtOp *op, const char *call)
{
    if (op->kind != RT_OP_MEMALLOC || !(*find((uint64_t)(uintptr_t)op->dst))->live)
        return cudaSuccess;
    return rt_fail(cudaErrorInvalidValue, call, "the graph allocates %p, which its last launch allocated and nothing "
                   "has freed: free it first (a free node, cudaFree or cudaFreeAsync)", op->dst);
}

cudaError_t rt_graph_mem_run(const RtOp *op, const char *call)
{
    GraphMem **p = find((uint64_t)(uintptr_t)op->dst);
    if (!*p) /* a free node whose allocation has gone back to the device */
        return rt_fail(cudaErrorInvalidValue, call, "%p is not a graph allocation now", op->dst);
    if (op->kind == RT_OP_MEMFREE)
        return free_live(call, p);
    cudaError_t e = rt_graph_mem_can_run(op, call);
    if (e != cudaSuccess)
        return e;
    (*p)->live = true;
    note_usage();
    return cudaSuccess;
}

bool rt_graph_mem_release(const char *call, void *ptr, cudaError_t *e)
{
    GraphMem **p = find((uint64_t)(uintptr_t)ptr);
    if (!*p)
        return false;
    *e = free_live(call, p);
    return true;
}

cudaError_t rt_graph_mem_capture_alloc(cudaStream_t stream, void **ptr, size_t bytes, const char *call)
{
    ENTER(call);
    if (!ptr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    RtOp op;
    cudaError_t e = rt_graph_mem_reserve(call, bytes, &op);
    if (e != cudaSuccess)
        return e;
    *ptr = op.dst;
    e = rt_capture_op(stream, &op, call);
    if (e != cudaSuccess)
        *ptr = NULL;
    return e;
}

cudaError_t rt_graph_mem_capture_free(cudaStream_t stream, void *ptr, const char *call)
{
    ENTER(call);
    RtOp op;
    cudaError_t e = rt_graph_mem_free_op(call, ptr, &op);
    return e != cudaSuccess ? e : rt_capture_op(stream, &op, call);
}

/* ---- the API ---- */

/* cudaMemPoolProps, cudaMemAllocNodeParams (driver_types.h): only the fields read here. */
enum { cudaMemAllocationTypePinned = 1, cudaMemLocationTypeDevice = 1 };

struct cudaMemAllocNodeParams {
    struct {
        int allocType, handleTypes;
        struct {
            int type, id;
        } location;
        uint8_t rest[72]; /* win32 attributes, max size, usage, reserved */
    } poolProps;
    const void *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
_Static_assert(sizeof(struct cudaMemAllocNodeParams) == 120, "cudaMemAllocNodeParams layout");

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n_deps, struct cudaMemAllocNodeParams *p)
{
    const char *call = "cudaGraphAddMemAllocNode";
    ENTER(call);
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null parameters");
    if (p->poolProps.allocType != cudaMemAllocationTypePinned)
        return rt_fail(cudaErrorInvalidValue, call, "poolProps.allocType %d: expected cudaMemAllocationTypePinned",
                       p->poolProps.allocType);
    if (p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
        return rt_fail(cudaErrorInvalidValue, call, "poolProps.location: expected device 0 (type "
                       "cudaMemLocationTypeDevice), not type %d id %d", p->poolProps.location.type,
                       p->poolProps.location.id);
    if (p->accessDescCount && !p->accessDescs)
        return rt_fail(cudaErrorInvalidValue, call, "null accessDescs");
    RtOp op;
    cudaError_t e = rt_graph_mem_reserve(call, p->bytesize, &op);
    if (e != cudaSuccess)
        return e;
    void *addr = op.dst;
    e = rt_graph_add_node(call, pGraphNode, graph, deps, n_deps, &op);
    if (e == cudaSuccess)
        p->dptr = addr;
    return e;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    size_t n_deps, void *dptr)
{
    ENTER("cudaGraphAddMemFreeNode");
    RtOp op;
    cudaError_t e = rt_graph_mem_free_op("cudaGraphAddMemFreeNode", dptr, &op);
    return e != cudaSuccess ? e : rt_graph_add_node("cudaGraphAddMemFreeNode", pGraphNode, graph, deps, n_deps, &op);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *p)
{
    API_LOCKED;
    cudaError_t e = rt_graph_node_is("cudaGraphMemAllocNodeGetParams", node, p, RT_OP_MEMALLOC, "an allocation node");
    if (e != cudaSuccess)
        return e;
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = cudaMemAllocationTypePinned;
    p->poolProps.location.type = cudaMemLocationTypeDevice;
    p->bytesize = node->op.width;
    p->dptr = node->op.dst;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    API_LOCKED;
    cudaError_t e = rt_graph_node_is("cudaGraphMemFreeNodeGetParams", node, dptr_out, RT_OP_MEMFREE, "a free node");
    if (e != cudaSuccess)
        return e;
    *(void **)dptr_out = node->op.dst;
    return cudaSuccess;
}

/* Nothing to trim: a reservation goes back to the device as soon as nothing holds it. */
cudaError_t cudaDeviceGraphMemTrim(int device)
{
    ENTER("cudaDeviceGraphMemTrim");
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceGraphMemTrim", "device %d: the simulator has one device, 0",
                       device);
    return cudaSuccess;
}

/* cudaGraphMemAttributeType: used and reserved memory, now and at most (uint64_t values) */
enum { GRAPH_MEM_USED = 0, GRAPH_MEM_USED_HIGH = 1, GRAPH_MEM_RESERVED = 2, GRAPH_MEM_RESERVED_HIGH = 3 };

cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value)
{
    const char *call = "cudaDeviceGetGraphMemAttribute";
    ENTER(call);
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "device %d: the simulator has one device, 0", device);
    if (!value)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    uint64_t used, reserved;
    usage(&used, &reserved);
    switch (attr) {
    case GRAPH_MEM_USED: *(uint64_t *)value = used; return cudaSuccess;
    case GRAPH_MEM_USED_HIGH: *(uint64_t *)value = used_high; return cudaSuccess;
    case GRAPH_MEM_RESERVED: *(uint64_t *)value = reserved; return cudaSuccess;
    case GRAPH_MEM_RESERVED_HIGH: *(uint64_t *)value = reserved_high; return cudaSuccess;
    }
    return rt_fail(cudaErrorInvalidValue, call, "attribute %d: not a cudaGraphMemAttributeType", attr);
}

/* Only the high-water marks may be set, and only to 0 (a reset), as CUDA documents. */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value)
{
    const char *call = "cudaDeviceSetGraphMemAttribute";
    ENTER(call);
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "device %d: the simulator has one device, 0", device);
    if (!value || *(uint64_t *)value != 0 || (attr != GRAPH_MEM_USED_HIGH && attr != GRAPH_MEM_RESERVED_HIGH))
        return rt_fail(cudaErrorInvalidValue, call, "only the high-water marks (attributes 1, 3) may be set, to 0");
    uint64_t used, reserved;
    usage(&used, &reserved);
    if (attr == GRAPH_MEM_USED_HIGH)
        used_high = used;
    else
        reserved_high = reserved;
    return cudaSuccess;
}
