// graphs.cu: CUDA graphs, each result checked against the CPU: a graph built node by node
// (memset of 4-byte elements, a pitched copy, kernels, a 1D copy back, a host node) launched
// three times, and a clone of it run after the original is destroyed; a graph captured from two
// streams that fork and join through events (nothing runs while capturing), launched twice with
// new input; and misuse (capturing the default stream, ending a capture never begun, a
// dependency from another graph).
#include "check.h"

#include <cstdio>
#include <cstring>

__global__ void add_into(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

__global__ void scale(float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= a;
}

static int host_calls;
static void CUDART_CB count_call(void *arg) { host_calls += *(int *)arg; }

int main()
{
    int bad = 0;
    const int n = 1000, rows = 10, cols = n / rows;
    const size_t bytes = n * sizeof(float);
    float hx[n], hy[n];
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 13);
    float *x, *y;
    size_t pitch;
    CHECK(cudaMallocPitch(&x, &pitch, cols * sizeof(float), rows)); // x: rows of cols, pitched
    CHECK(cudaMalloc(&y, bytes));
    float *xf;
    CHECK(cudaMalloc(&xf, bytes)); // x flattened, what the kernel reads

    // ---- built node by node ----
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t set, up, flat, add, sc, down, host, empty;
    cudaMemsetParams mp = {};
    mp.dst = y;
    mp.value = 0x3f800000; // 1.0f, a 4-byte pattern
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(hx, cols * sizeof(float), cols, rows);
    cp.dstPtr = make_cudaPitchedPtr(x, pitch, cols, rows);
    cp.extent = make_cudaExtent(cols * sizeof(float), rows, 1);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaGraphAddMemcpyNode(&up, g, NULL, 0, &cp));
    cudaMemcpy3DParms fp = {};
    fp.srcPtr = make_cudaPitchedPtr(x, pitch, cols, rows);
    fp.dstPtr = make_cudaPitchedPtr(xf, cols * sizeof(float), cols, rows);
    fp.extent = make_cudaExtent(cols * sizeof(float), rows, 1);
    fp.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphAddMemcpyNode(&flat, g, &up, 1, &fp));
    int nn = n;
    float two = 2.0f;
    void *add_args[] = {&y, &xf, &nn}, *scale_args[] = {&y, &two, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add_into;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = add_args;
    cudaGraphNode_t add_deps[] = {set, flat};
    CHECK(cudaGraphAddKernelNode(&add, g, add_deps, 2, &kp));
    kp.func = (void *)scale;
    kp.kernelParams = scale_args;
    CHECK(cudaGraphAddKernelNode(&sc, g, &add, 1, &kp));
    nn = -1; // the nodes hold the values they were given
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &sc, 1, hy, y, bytes, cudaMemcpyDeviceToHost));
    int one = 1;
    cudaHostNodeParams hp = {count_call, &one};
    CHECK(cudaGraphAddHostNode(&host, g, &down, 1, &hp));
    CHECK(cudaGraphAddEmptyNode(&empty, g, &host, 1));
    size_t count = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &count));
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    cudaGraphNodeType t1, t2;
    CHECK(cudaGraphNodeGetType(set, &t1));
    CHECK(cudaGraphNodeGetType(sc, &t2));
    bad += MISS(count != 8 || roots != 2 || t1 != cudaGraphNodeTypeMemset || t2 != cudaGraphNodeTypeKernel);
    printf("graphs: %zu nodes, %zu roots\n", count, roots);

    cudaGraphExec_t ge;
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int round = 0; round < 3; round++) {
        memset(hy, 0, sizeof hy);
        CHECK(cudaGraphLaunch(ge, 0));
        CHECK(cudaStreamSynchronize(0));
        for (int i = 0; i < n; i++)
            bad += MISS(hy[i] != 2.0f * (1.0f + hx[i]));
        bad += MISS(host_calls != round + 1);
    }
    cudaGraph_t clone;
    CHECK(cudaGraphClone(&clone, g));
    CHECK(cudaGraphDestroy(g)); // the executable and the clone stand alone
    cudaGraphExec_t ce;
    CHECK(cudaGraphInstantiateWithFlags(&ce, clone, 0));
    CHECK(cudaGraphDestroy(clone));
    for (int i = 0; i < n; i++)
        hx[i] = 1.0f;
    CHECK(cudaGraphLaunch(ce, 0));
    CHECK(cudaGraphLaunch(ge, 0));
    CHECK(cudaStreamSynchronize(0)); // host nodes run on a thread of their own on a GPU
    for (int i = 0; i < n; i++)
        bad += MISS(hy[i] != 4.0f);
    bad += MISS(host_calls != 5);
    CHECK(cudaGraphExecDestroy(ce));
    CHECK(cudaGraphExecDestroy(ge));

    // ---- captured from two streams: fork, two branches, join ----
    cudaStream_t s1, s2;
    cudaEvent_t fork, joined;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
    float *z;
    CHECK(cudaMalloc(&z, bytes));
    for (int i = 0; i < n; i++)
        hx[i] = (float)i;
    cudaStreamCaptureStatus st1, st2;
    int five = 5;
    float three = 3.0f;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamIsCapturing(s1, &st1));
    CHECK(cudaStreamIsCapturing(s2, &st2));
    bad += MISS(st1 != cudaStreamCaptureStatusActive || st2 != cudaStreamCaptureStatusNone);
    CHECK(cudaMemcpyAsync(xf, hx, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaStreamIsCapturing(s2, &st2));
    bad += MISS(st2 != cudaStreamCaptureStatusActive);
    CHECK(cudaMemsetAsync(y, 0, bytes, s1));
    add_into<<<(n + 255) / 256, 256, 0, s1>>>(y, xf, n); // y = x
    CHECK(cudaMemsetAsync(z, 0, bytes, s2));
    add_into<<<(n + 255) / 256, 256, 0, s2>>>(z, xf, n);
    scale<<<(n + 255) / 256, 256, 0, s2>>>(z, three, n); // z = 3x
    CHECK(cudaEventRecord(joined, s2));
    CHECK(cudaStreamWaitEvent(s1, joined, 0));
    add_into<<<(n + 255) / 256, 256, 0, s1>>>(y, z, n); // y = 4x
    CHECK(cudaMemcpyAsync(hy, y, bytes, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaLaunchHostFunc(s1, count_call, &five));
    CHECK(cudaGetLastError());
    bad += MISS(host_calls != 5); // recorded, not run
    cudaGraph_t cg;
    CHECK(cudaStreamEndCapture(s1, &cg));
    CHECK(cudaStreamIsCapturing(s1, &st1));
    CHECK(cudaStreamIsCapturing(s2, &st2));
    bad += MISS(st1 != cudaStreamCaptureStatusNone || st2 != cudaStreamCaptureStatusNone);
    CHECK(cudaGraphGetNodes(cg, NULL, &count));
    CHECK(cudaGraphGetRootNodes(cg, NULL, &roots));
    bad += MISS(count != 9 || roots != 1);
    printf("graphs: captured %zu nodes, %zu root\n", count, roots);
    memset(hy, 0, sizeof hy);
    CHECK(cudaStreamSynchronize(s1));
    for (int i = 0; i < n; i++) // nothing ran during the capture
        bad += MISS(hy[i] != 0.0f);
    CHECK(cudaGraphInstantiate(&ge, cg, 0));
    CHECK(cudaGraphLaunch(ge, s1));
    CHECK(cudaStreamSynchronize(s1));
    for (int i = 0; i < n; i++)
        bad += MISS(hy[i] != 4.0f * i);
    bad += MISS(host_calls != 10);
    for (int i = 0; i < n; i++)
        hx[i] = 0.5f; // the copy node reads the host buffer at each launch
    CHECK(cudaGraphLaunch(ge, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int i = 0; i < n; i++)
        bad += MISS(hy[i] != 2.0f);
    bad += MISS(host_calls != 15);
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(cg));

    // ---- misuse ----
    bad += MISS_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    bad += MISS_ERR(cudaStreamEndCapture(s1, &cg), cudaErrorIllegalState);
    cudaGraph_t g1, g2;
    CHECK(cudaGraphCreate(&g1, 0));
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphAddEmptyNode(&empty, g1, NULL, 0));
    bad += MISS_ERR(cudaGraphAddEmptyNode(&host, g2, &empty, 1), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    CHECK(cudaGraphDestroy(g1));
    CHECK(cudaGraphDestroy(g2));

    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(joined));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(x));
    CHECK(cudaFree(xf));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    printf("graphs: %d mismatches\n", bad);
    printf("graphs: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
