// graphmem.cu: graph memory nodes, each result checked against the CPU: a graph built node by
// node that allocates, uses and frees its buffers, launched three times; a graph captured from
// two streams with cudaMallocAsync and cudaFreeAsync (the second stream, forked and joined by
// events, destroyed before the capture ends), whose output buffer outlives the launch and is
// freed by cudaFree, by a graph of one free node, and by cudaFreeAsync between launches; and
// misuse (launching again before the allocation is freed, freeing memory no graph allocated).
#include "check.h"

#include <cstdio>
#include <cstring>

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

__global__ void negate(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = -in[i];
}

static const int n = 1000;
static const size_t bytes = n * sizeof(float);
static float h_in[n], h_sq[n], h_neg[n];

static int check(const char *what)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += MISS(h_sq[i] != h_in[i] * h_in[i] || h_neg[i] != -h_in[i] * h_in[i]);
    printf("graphmem: %s: %d mismatches\n", what, bad);
    memset(h_sq, 0, sizeof h_sq);
    memset(h_neg, 0, sizeof h_neg);
    return bad;
}

// The work of both graphs: in -> sq (copied back on s2) -> neg (copied back); sq and in are freed.
static void negate_squares(cudaStream_t s1, float **neg_out)
{
    cudaStream_t s2;
    cudaEvent_t sq_done, neg_done, s2_done;
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&sq_done));
    CHECK(cudaEventCreate(&neg_done));
    CHECK(cudaEventCreate(&s2_done));
    float *in, *sq, *neg;
    CHECK(cudaMallocAsync(&in, bytes, s1));
    CHECK(cudaMallocAsync(&sq, bytes, s1));
    CHECK(cudaMemcpyAsync(in, h_in, bytes, cudaMemcpyHostToDevice, s1));
    square<<<(n + 127) / 128, 128, 0, s1>>>(in, sq, n);
    CHECK(cudaEventRecord(sq_done, s1));
    CHECK(cudaStreamWaitEvent(s2, sq_done, 0));
    CHECK(cudaMemcpyAsync(h_sq, sq, bytes, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaFreeAsync(in, s1));
    CHECK(cudaMallocAsync(&neg, bytes, s1));
    negate<<<(n + 127) / 128, 128, 0, s1>>>(sq, neg, n);
    CHECK(cudaEventRecord(neg_done, s1));
    CHECK(cudaMemcpyAsync(h_neg, neg, bytes, cudaMemcpyDeviceToHost, s1));
    if (neg_out)
        *neg_out = neg;
    else
        CHECK(cudaFreeAsync(neg, s1));
    CHECK(cudaStreamWaitEvent(s2, neg_done, 0));
    CHECK(cudaFreeAsync(sq, s2));
    CHECK(cudaEventRecord(s2_done, s2));
    CHECK(cudaStreamWaitEvent(s1, s2_done, 0));
    CHECK(cudaStreamDestroy(s2)); // joined back: it may go before the capture ends
    CHECK(cudaEventDestroy(sq_done));
    CHECK(cudaEventDestroy(neg_done));
    CHECK(cudaEventDestroy(s2_done));
}

int main()
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        h_in[i] = (float)(i % 29) - 14.0f;

    // ---- built node by node ----
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.bytesize = bytes;
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    cudaGraphNode_t a_in, a_sq, up, k1, down1, f_in, a_neg, k2, down2, f_sq, f_neg;
    CHECK(cudaGraphAddMemAllocNode(&a_in, g, NULL, 0, &ap));
    float *in = (float *)ap.dptr;
    CHECK(cudaGraphAddMemAllocNode(&a_sq, g, &a_in, 1, &ap));
    float *sq = (float *)ap.dptr;
    bad += MISS(!in || !sq || in == sq);
    CHECK(cudaGraphAddMemcpyNode1D(&up, g, &a_sq, 1, in, h_in, bytes, cudaMemcpyHostToDevice));
    int nn = n;
    void *args1[] = {&in, &sq, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)square;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args1;
    CHECK(cudaGraphAddKernelNode(&k1, g, &up, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&down1, g, &k1, 1, h_sq, sq, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&f_in, g, &k1, 1, in));
    CHECK(cudaGraphAddMemAllocNode(&a_neg, g, &f_in, 1, &ap));
    float *neg = (float *)ap.dptr;
    void *args2[] = {&sq, &neg, &nn};
    kp.func = (void *)negate;
    kp.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&k2, g, &a_neg, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&down2, g, &k2, 1, h_neg, neg, bytes, cudaMemcpyDeviceToHost));
    cudaGraphNode_t sq_users[] = {down1, k2};
    CHECK(cudaGraphAddMemFreeNode(&f_sq, g, sq_users, 2, sq));
    CHECK(cudaGraphAddMemFreeNode(&f_neg, g, &down2, 1, neg));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(a_in, &t));
    bad += MISS(t != cudaGraphNodeTypeMemAlloc);
    CHECK(cudaGraphNodeGetType(f_in, &t));
    bad += MISS(t != cudaGraphNodeTypeMemFree);
    cudaMemAllocNodeParams got;
    CHECK(cudaGraphMemAllocNodeGetParams(a_neg, &got));
    bad += MISS(got.dptr != neg || got.bytesize != bytes);
    void *freed = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(f_sq, &freed));
    bad += MISS(freed != sq);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphDestroy(g));
    for (int it = 0; it < 3; it++) {
        CHECK(cudaGraphLaunch(x, 0));
        CHECK(cudaStreamSynchronize(0));
        bad += MISS(check("explicit graph"));
    }
    CHECK(cudaGraphExecDestroy(x));

    // ---- captured from two streams ----
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t cg;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    negate_squares(s, NULL);
    CHECK(cudaStreamEndCapture(s, &cg));
    CHECK(cudaGraphInstantiate(&x, cg, 0));
    CHECK(cudaGraphDestroy(cg));
    for (int it = 0; it < 2; it++) {
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        bad += MISS(check("captured graph"));
    }
    CHECK(cudaGraphExecDestroy(x));

    // ---- the output outlives the launch ----
    float *kept = NULL;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    negate_squares(s, &kept);
    CHECK(cudaStreamEndCapture(s, &cg));
    CHECK(cudaGraphInstantiate(&x, cg, 0));
    CHECK(cudaGraphDestroy(cg));
    CHECK(cudaGraphLaunch(x, s));
    bad += MISS(check("kept output, launch 1"));
    float back[n];
    CHECK(cudaMemcpy(back, kept, bytes, cudaMemcpyDeviceToHost)); // usable after the launch
    for (int i = 0; i < n; i++)
        bad += MISS(back[i] != -h_in[i] * h_in[i]);
    // launching again before the allocation is freed fails
    cudaError_t e = cudaGraphLaunch(x, s);
    bad += MISS(e != cudaErrorInvalidValue);
    cudaGetLastError();
    printf("graphmem: a second launch before the free: %s\n", cudaGetErrorName(e));
    CHECK(cudaFree(kept));
    CHECK(cudaGraphLaunch(x, s));
    bad += MISS(check("kept output, launch 2"));
    // freed by a graph of one free node
    cudaGraph_t fg;
    cudaGraphNode_t fn;
    CHECK(cudaGraphCreate(&fg, 0));
    CHECK(cudaGraphAddMemFreeNode(&fn, fg, NULL, 0, kept));
    cudaGraphExec_t fx;
    CHECK(cudaGraphInstantiate(&fx, fg, 0));
    CHECK(cudaGraphDestroy(fg));
    CHECK(cudaGraphLaunch(fx, s));
    CHECK(cudaGraphLaunch(x, s));
    bad += MISS(check("kept output, launch 3"));
    CHECK(cudaFreeAsync(kept, s));
    // freeing twice, and freeing memory no graph allocated
    bad += MISS_ERR(cudaFree(kept), cudaErrorInvalidValue);
    cudaGetLastError();
    float *plain;
    CHECK(cudaMalloc(&plain, bytes));
    CHECK(cudaGraphCreate(&fg, 0));
    bad += MISS_ERR(cudaGraphAddMemFreeNode(&fn, fg, NULL, 0, plain), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphDestroy(fg));
    CHECK(cudaFree(plain));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(fx));
    CHECK(cudaStreamDestroy(s));
    printf("graphmem: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
