// graphupdate.cu: changing an instantiated graph, each result checked against the CPU: a
// kernel node's parameters set in the executable between launches (swapping the buffers, as a
// Jacobi iteration does), a memset, 1D copy and host node changed in the executable, a node of
// the graph changed before instantiation, and cudaGraphExecUpdate from a new capture of the
// same work with other arguments; and misuse (a node of another graph, a kernel's parameters
// set on a memset node, an update from a graph of another shape).
#include "check.h"

#include <cstdio>
#include <cstring>

__global__ void step(const float *in, float *out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * a + 1.0f;
}

static int host_sum;
static void CUDART_CB add_one(void *arg) { host_sum += *(int *)arg; }

int main()
{
    int bad = 0;
    const int n = 777;
    const size_t bytes = n * sizeof(float);
    float h[n], ref[n], out[n];
    for (int i = 0; i < n; i++)
        h[i] = ref[i] = (float)(i % 17);
    float *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));

    // a graph of one kernel node (a -> b), whose buffers swap at each launch
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    float k = 0.5f;
    int nn = n;
    void *args0[] = {&a, &b, &k, &nn}, *args1[] = {&b, &a, &k, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)step;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args0;
    cudaGraphNode_t kn, other_node;
    CHECK(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int it = 0; it < 5; it++) {
        kp.kernelParams = (it & 1) ? args1 : args0;
        CHECK(cudaGraphExecKernelNodeSetParams(x, kn, &kp));
        CHECK(cudaGraphLaunch(x, 0));
        for (int i = 0; i < n; i++)
            ref[i] = ref[i] * k + 1.0f;
    }
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpy(out, b, bytes, cudaMemcpyDeviceToHost)); // 5 steps: the last wrote b
    for (int i = 0; i < n; i++)
        bad += MISS(out[i] != ref[i]);
    printf("graphupdate: kernel node set 5 times, %d mismatches so far\n", bad);

    // the graph's node changed before instantiating again: a factor of 2 from a
    float two = 2.0f;
    void *args2[] = {&a, &b, &two, &nn};
    kp.kernelParams = args2;
    CHECK(cudaGraphKernelNodeSetParams(kn, &kp));
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphLaunch(x2, 0));
    CHECK(cudaMemcpy(out, b, bytes, cudaMemcpyDeviceToHost));
    float ra[n];
    CHECK(cudaMemcpy(ra, a, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += MISS(out[i] != ra[i] * 2.0f + 1.0f);

    // misuse: a node of another graph; kernel parameters on a memset node
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphAddEmptyNode(&other_node, g2, NULL, 0));
    bad += MISS_ERR(cudaGraphExecKernelNodeSetParams(x, other_node, &kp), cudaErrorInvalidValue);
    cudaGetLastError();

    // memset, copy and host nodes changed in the executable
    cudaGraph_t g3;
    CHECK(cudaGraphCreate(&g3, 0));
    cudaMemsetParams mp = {};
    mp.dst = a;
    mp.value = 0;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    cudaGraphNode_t ms, cp, hn;
    CHECK(cudaGraphAddMemsetNode(&ms, g3, NULL, 0, &mp));
    CHECK(cudaGraphAddMemcpyNode1D(&cp, g3, &ms, 1, out, a, bytes, cudaMemcpyDeviceToHost));
    int one = 1, ten = 10;
    cudaHostNodeParams hp = {add_one, &one};
    CHECK(cudaGraphAddHostNode(&hn, g3, &cp, 1, &hp));
    cudaGraphExec_t x3;
    CHECK(cudaGraphInstantiate(&x3, g3, 0));
    bad += MISS_ERR(cudaGraphExecKernelNodeSetParams(x3, ms, &kp), cudaErrorInvalidValue);
    cudaGetLastError();
    mp.value = 0x40400000; // 3.0f
    CHECK(cudaGraphExecMemsetNodeSetParams(x3, ms, &mp));
    CHECK(cudaGraphExecMemcpyNodeSetParams1D(x3, cp, out, a, bytes / 2, cudaMemcpyDeviceToHost));
    hp.userData = &ten;
    CHECK(cudaGraphExecHostNodeSetParams(x3, hn, &hp));
    for (int i = 0; i < n; i++)
        out[i] = -1.0f;
    CHECK(cudaGraphLaunch(x3, 0));
    CHECK(cudaStreamSynchronize(0)); // the host node runs on a thread of its own on a GPU
    for (int i = 0; i < n; i++)
        bad += MISS(out[i] != (i < n / 2 ? 3.0f : -1.0f));
    bad += MISS(host_sum != 10);
    cudaMemsetParams got;
    CHECK(cudaGraphMemsetNodeGetParams(ms, &got));
    bad += MISS(got.value != 0); // the graph's node kept its parameters
    printf("graphupdate: memset, copy and host nodes set, %d mismatches so far\n", bad);

    // cudaGraphExecUpdate from captures of the same work with other arguments
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaGraphExec_t xc = NULL;
    CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
    for (int i = 0; i < n; i++)
        ref[i] = h[i];
    for (int it = 0; it < 4; it++) {
        float f = 1.0f + it;
        cudaGraph_t cg;
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        CHECK(cudaMemsetAsync(it & 1 ? a : b, 0, bytes, s));
        step<<<(n + 127) / 128, 128, 0, s>>>(it & 1 ? b : a, it & 1 ? a : b, f, n);
        CHECK(cudaMemcpyAsync(out, it & 1 ? a : b, bytes, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamEndCapture(s, &cg));
        if (!xc) {
            CHECK(cudaGraphInstantiate(&xc, cg, 0));
        } else {
            cudaGraphExecUpdateResultInfo info;
            CHECK(cudaGraphExecUpdate(xc, cg, &info));
            bad += MISS(info.result != cudaGraphExecUpdateSuccess);
        }
        CHECK(cudaGraphLaunch(xc, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++) {
            ref[i] = ref[i] * f + 1.0f;
            bad += MISS(out[i] != ref[i]);
        }
        CHECK(cudaGraphDestroy(cg));
    }
    // an update from a graph of another shape fails, and says how
    cudaGraphExecUpdateResultInfo info;
    cudaError_t e = cudaGraphExecUpdate(xc, g, &info);
    bad += MISS(e != cudaErrorGraphExecUpdateFailure || info.result != cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();
    printf("graphupdate: 4 captures updated, update of another shape: %s\n", cudaGetErrorName(e));

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(x3));
    CHECK(cudaGraphExecDestroy(xc));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(g3));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    printf("graphupdate: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
