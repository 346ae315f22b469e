// graphcond.cu: conditional and child graph nodes, each result checked against what the host
// expects: IF with an ELSE body, chosen by a kernel's cudaGraphSetConditional; a WHILE node
// whose handle takes its default at each launch and whose body, filled by a capture into it
// (cudaStreamBeginCaptureToGraph), counts down; a SWITCH of three bodies given values 0 to 3;
// a child graph node, cloned and moved; a clone of a graph with a conditional node; and misuse
// (a handle of another graph, an IF of three bodies, and on warpsim a WHILE that cannot end).
#include "check.h"

#include <cstdio>

__global__ void choose(const int *in, cudaGraphConditionalHandle h)
{
    cudaGraphSetConditional(h, (unsigned)*in);
}

__global__ void mark(int *out, int slot, int value)
{
    out[slot] = value;
}

// one WHILE iteration: count down, log the step, and go on while the counter is positive
__global__ void step(int *counter, int *log, cudaGraphConditionalHandle h)
{
    int c = --*counter;
    log[c] += 1;
    cudaGraphSetConditional(h, c > 0);
}

static int *d_in, *d_out, *d_counter, *d_log;

static void set_in(int v)
{
    CHECK(cudaMemcpy(d_in, &v, sizeof v, cudaMemcpyHostToDevice));
}

static void read_out(int *out, int n)
{
    CHECK(cudaMemcpy(out, d_out, n * sizeof *out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *dep, void *fn, void **args)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
    p.kernel.func = fn;
    p.kernel.gridDim = dim3(1);
    p.kernel.blockDim = dim3(1);
    p.kernel.kernelParams = args;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p));
    return n;
}

static cudaGraphNode_t add_cond(cudaGraph_t g, const cudaGraphNode_t *dep, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t **bodies)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p));
    *bodies = p.conditional.phGraph_out;
    return n;
}

static int if_else()
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *choose_args[] = {&d_in, &h};
    cudaGraphNode_t a = add_kernel(g, NULL, (void *)choose, choose_args);
    cudaGraph_t *bodies;
    add_cond(g, &a, h, cudaGraphCondTypeIf, 2, &bodies);
    int slot = 0, yes = 11, no = 22;
    void *yes_args[] = {&d_out, &slot, &yes}, *no_args[] = {&d_out, &slot, &no};
    add_kernel(bodies[0], NULL, (void *)mark, yes_args);
    add_kernel(bodies[1], NULL, (void *)mark, no_args);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    int bad = 0, out[1];
    for (int v = 0; v < 3; v++) {
        set_in(v);
        CHECK(cudaGraphLaunch(x, 0));
        read_out(out, 1);
        bad += MISS(out[0] != (v ? yes : no));
    }
    // the clone's conditional node runs its own copies of the bodies on the same handle
    cudaGraph_t c;
    cudaGraphExec_t cx;
    CHECK(cudaGraphClone(&c, g));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphInstantiate(&cx, c, 0));
    set_in(1);
    CHECK(cudaGraphLaunch(cx, 0));
    read_out(out, 1);
    bad += MISS(out[0] != yes);
    size_t n = 0;
    CHECK(cudaGraphGetNodes(c, NULL, &n));
    bad += MISS(n != 2);
    CHECK(cudaGraphExecDestroy(x)); // after its graph: the executable holds its own bodies
    CHECK(cudaGraphExecDestroy(cx));
    CHECK(cudaGraphDestroy(c));
    return bad;
}

static int while_loop()
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraph_t *bodies;
    add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, &bodies);
    // fill the body by capture: the step kernel after an empty node given as the first dependency
    cudaGraphNode_t first;
    CHECK(cudaGraphAddEmptyNode(&first, bodies[0], NULL, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamBeginCaptureToGraph(s, bodies[0], &first, NULL, 1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status;
    cudaGraph_t into = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t n_deps = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &into, &deps, NULL, &n_deps));
    int bad = MISS(status != cudaStreamCaptureStatusActive) + MISS(into != bodies[0]) + MISS(n_deps != 1) +
              MISS(n_deps == 1 && deps[0] != first);
    step<<<1, 1, 0, s>>>(d_counter, d_log, h);
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, NULL, &deps, NULL, &n_deps));
    cudaGraphNode_t last = n_deps == 1 ? deps[0] : NULL;
    // set the dependencies back to the empty node, then add the step: the next node waits on both
    CHECK(cudaStreamUpdateCaptureDependencies(s, &first, NULL, 1, cudaStreamSetCaptureDependencies));
    CHECK(cudaStreamUpdateCaptureDependencies(s, &last, NULL, 1, cudaStreamAddCaptureDependencies));
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, NULL, &deps, NULL, &n_deps));
    bad += MISS(n_deps != 2);
    CHECK(cudaStreamEndCapture(s, NULL));
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, NULL, NULL, NULL, NULL));
    bad += MISS(status != cudaStreamCaptureStatusNone);
    CHECK(cudaStreamDestroy(s));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(bodies[0], NULL, &n));
    bad += MISS(n != 2);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    // the handle is 1 at each launch (it ended at 0 the launch before): as many steps as counts
    const int counts[] = {5, 3, 1};
    for (int run = 0; run < 3; run++) {
        int c = counts[run], log[8] = {0};
        CHECK(cudaMemcpy(d_counter, &c, sizeof c, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(d_log, 0, sizeof log));
        CHECK(cudaGraphLaunch(x, 0));
        CHECK(cudaMemcpy(log, d_log, sizeof log, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&c, d_counter, sizeof c, cudaMemcpyDeviceToHost));
        bad += MISS(c != 0);
        for (int i = 0; i < counts[run]; i++)
            bad += MISS(log[i] != 1);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    return bad;
}

static int switch_and_child()
{
    cudaGraph_t g, child;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphConditionalHandle h;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *choose_args[] = {&d_in, &h};
    cudaGraphNode_t a = add_kernel(g, NULL, (void *)choose, choose_args);
    cudaGraph_t *bodies;
    cudaGraphNode_t sw = add_cond(g, &a, h, cudaGraphCondTypeSwitch, 3, &bodies);
    int slots[3] = {0, 1, 2}, values[3] = {100, 101, 102};
    void *args[3][3];
    for (int i = 0; i < 3; i++) {
        args[i][0] = &d_out;
        args[i][1] = &slots[i];
        args[i][2] = &values[i];
        add_kernel(bodies[i], NULL, (void *)mark, args[i]);
    }
    // a child graph of one kernel after the switch, added by copy; a second one moved in
    int child_slot = 3, child_value = 7, moved_slot = 4, moved_value = 8;
    void *child_args[] = {&d_out, &child_slot, &child_value}, *moved_args[] = {&d_out, &moved_slot, &moved_value};
    add_kernel(child, NULL, (void *)mark, child_args);
    cudaGraphNode_t cn, mn;
    CHECK(cudaGraphAddChildGraphNode(&cn, g, &sw, 1, child));
    CHECK(cudaGraphDestroy(child)); // the node has its own copy
    cudaGraph_t moved;
    CHECK(cudaGraphCreate(&moved, 0));
    add_kernel(moved, NULL, (void *)mark, moved_args);
    cudaGraphNodeParams p = {cudaGraphNodeTypeGraph};
    p.graph.graph = moved;
    p.graph.ownership = cudaGraphChildGraphOwnershipMove;
    CHECK(cudaGraphAddNode(&mn, g, &cn, NULL, 1, &p));
    cudaGraphNodeType type;
    cudaGraph_t got;
    CHECK(cudaGraphNodeGetType(cn, &type));
    int bad = MISS(type != cudaGraphNodeTypeGraph);
    CHECK(cudaGraphNodeGetType(sw, &type));
    bad += MISS(type != cudaGraphNodeTypeConditional);
    CHECK(cudaGraphChildGraphNodeGetGraph(mn, &got));
    bad += MISS(got != moved);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int v = 0; v < 4; v++) {
        int out[5];
        set_in(v);
        CHECK(cudaGraphLaunch(x, 0));
        read_out(out, 5);
        for (int i = 0; i < 3; i++)
            bad += MISS(out[i] != (i == v ? values[i] : 0));
        bad += MISS(out[3] != child_value) + MISS(out[4] != moved_value);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    return bad;
}

static int misuse()
{
    cudaGraph_t g, other;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphCreate(&other, 0));
    cudaGraphConditionalHandle h, ho;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    CHECK(cudaGraphConditionalHandleCreate(&ho, other, 0, 0));
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = ho;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t n;
    int bad = MISS_ERR(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p.conditional.handle = h;
    p.conditional.size = 3;
    bad += MISS_ERR(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    cudaGetLastError();
    if (on_warpsim()) { // a GPU would spin for ever on a WHILE whose empty body keeps it at 1
        p.conditional.type = cudaGraphCondTypeWhile;
        p.conditional.size = 1;
        CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p));
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0));
        bad += MISS_ERR(cudaGraphLaunch(x, 0), cudaErrorLaunchTimeout);
        cudaGetLastError();
        CHECK(cudaGraphExecDestroy(x));
    }
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(other));
    return bad;
}

int main()
{
    CHECK(cudaMalloc(&d_in, sizeof(int)));
    CHECK(cudaMalloc(&d_out, 8 * sizeof(int)));
    CHECK(cudaMalloc(&d_counter, sizeof(int)));
    CHECK(cudaMalloc(&d_log, 8 * sizeof(int)));
    CHECK(cudaMemset(d_out, 0, 8 * sizeof(int)));
    int bad = if_else() + while_loop() + switch_and_child() + misuse();
    printf("graphcond: %d mismatches\n", bad);
    return bad != 0;
}
