/* runtime_graph.h: what the graph files of warpsim's libcudart replacement share
 * (runtime_graph.c: graphs, executables, stream capture; runtime_graph_edge.c: dependencies,
 * their editing and the order they give; runtime_graph_update.c: changing a node's parameters
 * and updating an executable; runtime_graph_mem.c: memory allocation and free nodes;
 * runtime_graph_body.c: child graph and conditional nodes; runtime_graph_node.c:
 * cudaGraphAddNode and the capture calls that take edge data). */
#ifndef WARPSIM_RUNTIME_GRAPH_H
#define WARPSIM_RUNTIME_GRAPH_H

#include "api/runtime_internal.h"

struct CUgraphNode_st {
    RtOp op;
    cudaGraph_t graph;
    cudaGraphNode_t *deps; /* the nodes it depends on, each once */
    size_t n_deps;
    size_t idx;             /* its place in graph->nodes */
    cudaGraphNode_t origin; /* the node it is a clone of (cudaGraphNodeFindInClone), or NULL */
};

struct CUgraph_st {
    cudaGraphNode_t *nodes; /* in the order they were added (not a dependency order once edges
                               are added: rt_graph_order gives one) */
    size_t n, cap;
    cudaGraph_t clone_of; /* compared, never followed */
    struct RtCondHandle **handles; /* the conditional handles made for it (held) */
    size_t n_handles;
};

/* An executable: copies of its graph's ops in a dependency order, and the nodes they came from
 * (only compared, never followed: the graph may be gone), which the setters name them by. */
struct CUgraphExec_st {
    RtOp *ops;
    cudaGraphNode_t *nodes;
    size_t *dep_first, *dep_pos; /* node i depends on the ops at dep_pos[dep_first[i] ..
                                    dep_first[i + 1]), ascending: the topology cudaGraphExecUpdate
                                    compares */
    bool *disabled;              /* cudaGraphNodeSetEnabled */
    size_t n;
};

/* The node parameters of CUDA 13 (driver_types.h; sizes checked in runtime_graph.c). */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned value, elementSize;
    size_t width, height;
};

struct cudaHostNodeParams {
    void (*fn)(void *);
    void *userData;
};

/* The ops the node parameters describe, checked; the caller owns a kernel op's parameters
 * (rt_graph_op_free). */
cudaError_t rt_graph_kernel_op(const char *call, const struct cudaKernelNodeParams *p, RtOp *op);
cudaError_t rt_graph_memcpy_op(const char *call, const struct cudaMemcpy3DParms *p, RtOp *op);
cudaError_t rt_graph_memset_op(const char *call, const struct cudaMemsetParams *p, RtOp *op);
cudaError_t rt_graph_host_op(const char *call, const struct cudaHostNodeParams *p, RtOp *op);

/* Add op to graph after deps (nodes of the graph), taking op: its parameters and its hold on a
 * graph allocation are the node's, or are released on failure. */
cudaError_t rt_graph_add_node(const char *call, cudaGraphNode_t *pNode, cudaGraph_t graph,
                              const cudaGraphNode_t *deps, size_t n_deps, RtOp *op);
/* ---- dependencies (runtime_graph_edge.c) ---- */

typedef struct cudaGraphEdgeData_st {
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;

/* Edge data of the default kind (all zero), or none (NULL): the only kind supported. */
cudaError_t rt_graph_check_edges(const char *call, const cudaGraphEdgeData *data, size_t n);
/* Append node n to graph after deps (checked by the caller: nodes of graph). */
void rt_graph_link(cudaGraph_t graph, cudaGraphNode_t n, const cudaGraphNode_t *deps, size_t n_deps);
/* Check a dependency list of nodes of graph, each once (call names the API function). */
cudaError_t rt_graph_check_deps(const char *call, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps);
/* The checks of a node getter: a node, somewhere to write, and a node of kind (what: its name,
 * "a host node", for the message). */
cudaError_t rt_graph_node_is(const char *call, cudaGraphNode_t node, const void *out, RtOpKind kind,
                             const char *what);
/* Free a node and what it owns (not its place in its graph). */
void rt_graph_node_free(cudaGraphNode_t n);
/* order[0 .. graph->n): the nodes' indices in a dependency order, the order they were added
 * where that is one; false when the edges make a cycle (there is none). */
bool rt_graph_order(cudaGraph_t graph, size_t *order);
/* The executable's topology from its graph in that order (x->n set, dep_* filled). */
void rt_graph_exec_deps(cudaGraphExec_t x, cudaGraph_t graph, const size_t *order);
/* The first node (in that order) whose dependencies are not those of x's op in its place, or
 * NULL: graph has x's topology (x->n == graph->n). */
cudaGraphNode_t rt_graph_exec_topology_differs(cudaGraphExec_t x, cudaGraph_t graph, const size_t *order);
/* A capture is filling graph (its nodes cannot be destroyed). */
bool rt_graph_capturing(cudaGraph_t graph);

/* A copy of op with its own kernel parameters, its own hold on its graph allocation and its
 * own copies of its bodies. */
RtOp rt_graph_op_copy(const RtOp *op);
/* Release what an op owns. */
void rt_graph_op_free(RtOp *op);

/* A stream that joined another stream's capture leaves it (cudaStreamDestroy); the work it put
 * in the capture stays. The stream that began the capture cannot. */
cudaError_t rt_capture_leave(cudaStream_t stream, const char *call);

/* ---- graph allocations (runtime_graph_mem.c) ---- */

/* An allocation node's op: the device memory reserved for it now (its address is known when
 * the node is made, as in CUDA), held by op. */
cudaError_t rt_graph_mem_reserve(const char *call, size_t bytes, RtOp *op);
/* One hold more (+1) or less (-1) on the allocation an allocation node's op reserved. */
void rt_graph_mem_hold(const RtOp *op, int delta);
/* A free node's op for ptr, which must be a graph allocation. */
cudaError_t rt_graph_mem_free_op(const char *call, void *ptr, RtOp *op);
/* An allocation node's op may run: its allocation is not live (any other op may). */
cudaError_t rt_graph_mem_can_run(const RtOp *op, const char *call);
/* Run an allocation or free node's op (rt_op_run). */
cudaError_t rt_graph_mem_run(const RtOp *op, const char *call);
/* cudaFree or cudaFreeAsync of ptr: true if ptr is a graph allocation, which is then freed
 * (*e the result); false if it is not one. */
bool rt_graph_mem_release(const char *call, void *ptr, cudaError_t *e);
/* cudaMallocAsync and cudaFreeAsync on a captured stream: allocation and free nodes. */
cudaError_t rt_graph_mem_capture_alloc(cudaStream_t stream, void **ptr, size_t bytes, const char *call);
cudaError_t rt_graph_mem_capture_free(cudaStream_t stream, void *ptr, const char *call);

/* ---- graphs and executables as wholes (runtime_graph.c) ---- */

/* Free a graph, its nodes and its hold on its conditional handles. */
void rt_graph_free(cudaGraph_t graph);
/* A copy of a graph (cudaGraphClone). */
cudaGraph_t rt_graph_clone(cudaGraph_t graph);
/* An executable of graph (cudaGraphInstantiate without the flags). */
cudaError_t rt_graph_instantiate(const char *call, cudaGraph_t graph, cudaGraphExec_t *pExec);
void rt_graph_exec_free(cudaGraphExec_t x);
/* Run an executable's ops in order, stopping at the first that fails. */
cudaError_t rt_graph_exec_run(cudaGraphExec_t x, const char *call);

/* ---- child graph and conditional nodes (runtime_graph_body.c) ---- */

/* The executable's op of a graph's node op: a copy, with bodies instantiated. */
cudaError_t rt_graph_op_instance(const char *call, const RtOp *op, RtOp *out);
/* Copy (into c, a copy of op) and free the bodies and handle of a child graph or conditional. */
void rt_graph_body_copy(const RtOp *op, RtOp *c);
void rt_graph_body_free(RtOp *op);
/* A child graph node's op: a copy of child, or child itself when move (the node owns it). */
cudaError_t rt_graph_child_op(const char *call, cudaGraph_t child, bool move, RtOp *op);
/* cudaConditionalNodeParams (driver_types.h) */
struct cudaConditionalNodeParams {
    unsigned long long handle;
    int type;
    unsigned size;
    cudaGraph_t *phGraph_out;
};
/* Add a conditional node with its empty bodies, which p->phGraph_out then names. */
cudaError_t rt_graph_add_conditional(const char *call, cudaGraphNode_t *pNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n_deps, struct cudaConditionalNodeParams *p);
/* Release a hold on a conditional handle; give the clone of a graph the original's handles. */
void rt_cond_release(struct RtCondHandle *h);
void rt_cond_clone_handles(cudaGraph_t clone, cudaGraph_t graph);
/* At the start of a launch: the handles made with cudaGraphCondAssignDefault that x's
 * conditional nodes use, at any depth, take their default values. */
void rt_cond_launch_defaults(cudaGraphExec_t x);

#endif
