// graphedges.cu: editing a graph's dependencies, each result checked against the CPU: a chain
// of kernel nodes added in reverse and ordered afterwards with cudaGraphAddDependencies (so the
// order of addition is not the order that must run), the queries (dependencies, dependent
// nodes, edges, root nodes), an edge removed and a node destroyed, a clone and
// cudaGraphNodeFindInClone, a disabled node, an executable updated from a graph whose edges
// changed; and misuse (a cycle, an edge twice, a missing edge, a self edge, a duplicate
// dependency, a programmatic edge).
#include "check.h"

#include <cstdio>

__global__ void affine(float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + b;
}

static cudaGraphNode_t add_affine(cudaGraph_t g, float *x, float *a, float *b, int *n)
{
    void *args[] = {&x, a, b, n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)affine;
    kp.gridDim = dim3((*n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g, NULL, 0, &kp));
    return node;
}

// x = x * a + b, applied for each (a, b) in turn: not commutative, so the order shows
static void host_affine(float *x, int n, const float *a, const float *b, int k)
{
    for (int j = 0; j < k; j++)
        for (int i = 0; i < n; i++)
            x[i] = x[i] * a[j] + b[j];
}

static int compare(const float *x, const float *d, int n)
{
    float out[1000];
    CHECK(cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += MISS(out[i] != x[i]);
    return bad;
}

// Launch x on d reset to h; the mismatches against the k affine steps (as, bs) applied to h.
static int launch_and_check(cudaGraphExec_t x, float *d, const float *h, int n, const float *as, const float *bs,
                            int k)
{
    float ref[1000];
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++)
        ref[i] = h[i];
    host_affine(ref, n, as, bs, k);
    return compare(ref, d, n);
}

int main()
{
    int bad = 0, n = 1000;
    float h[1000], *d;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 13);
    CHECK(cudaMalloc(&d, n * sizeof(float)));

    // three kernels added last-first (c, b, a), then a -> b -> c by edges
    float as[3] = {2.0f, 3.0f, 0.5f}, bs[3] = {1.0f, -4.0f, 2.0f};
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t kc = add_affine(g, d, &as[2], &bs[2], &n);
    cudaGraphNode_t kb = add_affine(g, d, &as[1], &bs[1], &n);
    cudaGraphNode_t ka = add_affine(g, d, &as[0], &bs[0], &n);
    cudaGraphNode_t from[2] = {ka, kb}, to[2] = {kb, kc};
    CHECK(cudaGraphAddDependencies(g, from, to, NULL, 2));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    bad += MISS(launch_and_check(x, d, h, n, as, bs, 3));

    // the queries
    size_t cnt = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &cnt));
    bad += MISS(cnt != 2);
    cudaGraphNode_t ef[4], et[4];
    cnt = 4;
    CHECK(cudaGraphGetEdges(g, ef, et, NULL, &cnt));
    int seen = 0; // the two edges, in any order
    for (int e = 0; e < 2; e++)
        seen |= (ef[e] == ka && et[e] == kb ? 1 : 0) | (ef[e] == kb && et[e] == kc ? 2 : 0);
    bad += MISS(cnt != 2 || seen != 3 || ef[2] != NULL || et[2] != NULL);
    cudaGraphNode_t deps[2];
    cnt = 2;
    CHECK(cudaGraphNodeGetDependencies(kc, deps, NULL, &cnt));
    bad += MISS(cnt != 1 || deps[0] != kb || deps[1] != NULL);
    cnt = 0;
    CHECK(cudaGraphNodeGetDependentNodes(ka, NULL, NULL, &cnt));
    bad += MISS(cnt != 1);
    cnt = 1;
    CHECK(cudaGraphNodeGetDependentNodes(ka, deps, NULL, &cnt));
    bad += MISS(deps[0] != kb);
    cudaGraphNode_t roots[3];
    cnt = 3;
    CHECK(cudaGraphGetRootNodes(g, roots, &cnt));
    bad += MISS(cnt != 1 || roots[0] != ka);
    printf("graphedges: reordered chain and queries, %d mismatches so far\n", bad);

    // misuse: an edge twice, a self edge, a missing edge, a duplicate dependency, a programmatic
    // edge; none changes the graph
    bad += MISS_ERR(cudaGraphAddDependencies(g, &ka, &kb, NULL, 1), cudaErrorInvalidValue);
    bad += MISS_ERR(cudaGraphAddDependencies(g, &ka, &ka, NULL, 1), cudaErrorInvalidValue);
    bad += MISS_ERR(cudaGraphRemoveDependencies(g, &ka, &kc, NULL, 1), cudaErrorInvalidValue);
    cudaGraphNode_t twice[2] = {ka, ka}, en;
    bad += MISS_ERR(cudaGraphAddEmptyNode(&en, g, twice, 2), cudaErrorInvalidValue);
    cudaGraphEdgeData prog = {};
    prog.type = cudaGraphDependencyTypeProgrammatic;
    cudaError_t pe = cudaGraphAddDependencies(g, &ka, &kc, &prog, 1);
    bad += MISS(pe != cudaErrorNotSupported && pe != cudaErrorInvalidValue);
    cnt = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &cnt));
    bad += MISS(cnt != 2);
    // a valid edge, then one that exists, in one call: it fails at the second, and the first
    // stays added (as on an H200)
    cudaGraphNode_t f2[2] = {ka, ka}, t2[2] = {kc, kb};
    bad += MISS_ERR(cudaGraphAddDependencies(g, f2, t2, NULL, 2), cudaErrorInvalidValue);
    cudaGetLastError();
    cnt = 0;
    CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &cnt));
    bad += MISS(cnt != 3);
    CHECK(cudaGraphRemoveDependencies(g, &ka, &kc, NULL, 1));
    // a cycle (c -> a) is added, as CUDA adds it, and refused when the graph is instantiated
    bad += MISS_ERR(cudaGraphAddDependencies(g, &kc, &ka, NULL, 1), cudaSuccess);
    cudaGraphExec_t xcyc;
    bad += MISS_ERR(cudaGraphInstantiate(&xcyc, g, 0), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphRemoveDependencies(g, &kc, &ka, NULL, 1));

    // a clone; then b's edges removed and b destroyed in the original: a -> c
    cudaGraph_t cl;
    CHECK(cudaGraphClone(&cl, g));
    cudaGraphNode_t kb_clone;
    CHECK(cudaGraphNodeFindInClone(&kb_clone, kb, cl));
    cnt = 2;
    CHECK(cudaGraphNodeGetDependencies(kb_clone, deps, NULL, &cnt));
    cudaGraphNode_t ka_clone;
    CHECK(cudaGraphNodeFindInClone(&ka_clone, ka, cl));
    bad += MISS(cnt != 1 || deps[0] != ka_clone || kb_clone == kb);
    CHECK(cudaGraphRemoveDependencies(g, &ka, &kb, NULL, 1));
    CHECK(cudaGraphDestroyNode(kb));
    CHECK(cudaGraphAddDependencies(g, &ka, &kc, NULL, 1));
    cnt = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &cnt));
    bad += MISS(cnt != 2);
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    float a2[2] = {as[0], as[2]}, b2[2] = {bs[0], bs[2]};
    bad += MISS(launch_and_check(x2, d, h, n, a2, b2, 2));
    // the clone still runs all three, in order
    cudaGraphExec_t xc;
    CHECK(cudaGraphInstantiate(&xc, cl, 0));
    bad += MISS(launch_and_check(xc, d, h, n, as, bs, 3));
    printf("graphedges: destroyed node and clone, %d mismatches so far\n", bad);

    // a disabled node is skipped at launch, and enabled again
    unsigned on = 0;
    CHECK(cudaGraphNodeSetEnabled(xc, kb_clone, 0));
    CHECK(cudaGraphNodeGetEnabled(xc, kb_clone, &on));
    bad += MISS(on != 0);
    bad += MISS(launch_and_check(xc, d, h, n, a2, b2, 2));
    CHECK(cudaGraphNodeSetEnabled(xc, kb_clone, 1));
    CHECK(cudaGraphNodeGetEnabled(xc, kb_clone, &on));
    bad += MISS(on != 1);

    // update: the clone's executable from a graph of the same nodes but other edges is refused
    // (a -> b, a -> c); from one of the same edges it is taken
    cudaGraph_t cl2;
    CHECK(cudaGraphClone(&cl2, cl));
    cudaGraphNode_t b2n, c2n, a2n;
    CHECK(cudaGraphNodeFindInClone(&b2n, kb_clone, cl2));
    cudaGraphExecUpdateResultInfo info;
    cnt = 1;
    CHECK(cudaGraphNodeGetDependentNodes(b2n, &c2n, NULL, &cnt));
    CHECK(cudaGraphNodeFindInClone(&a2n, ka_clone, cl2));
    CHECK(cudaGraphRemoveDependencies(cl2, &b2n, &c2n, NULL, 1));
    CHECK(cudaGraphAddDependencies(cl2, &a2n, &c2n, NULL, 1));
    bad += MISS_ERR(cudaGraphExecUpdate(xc, cl2, &info), cudaErrorGraphExecUpdateFailure);
    bad += MISS(info.result != cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();
    CHECK(cudaGraphRemoveDependencies(cl2, &a2n, &c2n, NULL, 1));
    CHECK(cudaGraphAddDependencies(cl2, &b2n, &c2n, NULL, 1));
    CHECK(cudaGraphExecUpdate(xc, cl2, &info));
    bad += MISS(info.result != cudaGraphExecUpdateSuccess);
    bad += MISS(launch_and_check(xc, d, h, n, as, bs, 3));

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(xc));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(cl));
    CHECK(cudaGraphDestroy(cl2));
    CHECK(cudaFree(d));
    printf("graphedges: %d mismatches\n", bad);
    return bad != 0;
}
