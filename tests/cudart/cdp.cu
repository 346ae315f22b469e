// cdp.cu: dynamic parallelism (kernels launching kernels, CUDA 12's CDP2), with cdp_leaf.cu:
// built with -rdc=true -lcudadevrt, each result checked against what the CPU expects.
//   nest    a kernel launching itself to depth 3, whose last level launches leaf() (defined in
//           the other object) with arguments of many types
//   tail    a launch into cudaStreamTailLaunch made before a normal one must run after it
//   heap    a kernel's cudaMalloc and cudaFree; memory one kernel allocates and a later one
//           frees; a request beyond cudaLimitMallocHeapSize fails
//   deep    a kernel launching itself until the nesting limit (24) refuses the launch with
//           cudaErrorLaunchMaxDepthExceeded
//   fan     with cudaLimitDevRuntimePendingLaunchCount 4, the fifth of 8 launches fails
//   copier  a stream, cudaMemcpyAsync into it, its destruction; a bad configuration; the last
//           error read and cleared; cudaGetErrorString on the device
// The checks of what a GPU leaves to its scheduling or undefined run only on warpsim.
#include "cdp.h"
#include "check.h"

#include <cstdio>

#define NEST_MAX 3
#define N_LEAVES 4

__global__ void nest(int *seen, long long *out, const int *pointee, int depth)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        seen[depth] = depth + 1;
    if (blockIdx.x != 0)
        return;
    if (depth < NEST_MAX) {
        if (threadIdx.x == 0) {
            nest<<<2, 64>>>(seen, out, pointee, depth + 1);
            printf("nest: depth %d launched depth %d\n", depth, depth + 1);
        }
        return;
    }
    int t = threadIdx.x;
    if (t < N_LEAVES) {
        Pair p = {t - 7, 0.5 * t};
        leaf<<<1, 1>>>(out, t, (char)('a' + t), (short)(-300 * t), 100000 * t, 5000000000LL * t, 1.25f * t,
                       -2.5 * t, p, pointee + t);
    }
}

__global__ void tail_parent(int *x, int *y)
{
    after_all<<<1, 1, 0, cudaStreamTailLaunch>>>(x, y); // launched first, runs last
    set_one<<<1, 1>>>(x);
}

__global__ void heap(int *res, size_t too_big)
{
    int t = threadIdx.x;
    int *p = nullptr;
    res[t * 4 + 0] = cudaMalloc((void **)&p, 64 * sizeof(int));
    int sum = 0;
    for (int k = 0; k < 64; k++)
        p[k] = k * (t + 1);
    for (int k = 0; k < 64; k++)
        sum += p[k];
    res[t * 4 + 1] = sum;
    res[t * 4 + 2] = cudaFree(p);
    int *q = (int *)1;
    res[t * 4 + 3] = cudaMalloc((void **)&q, too_big) * 1000 + (q == nullptr);
}

__global__ void heap_keep(int **slot)
{
    int *p = nullptr;
    if (cudaMalloc((void **)&p, 16 * sizeof(int)) == cudaSuccess)
        for (int k = 0; k < 16; k++)
            p[k] = k + 100;
    *slot = p;
}

__global__ void heap_release(int **slot, int *res)
{
    int sum = 0;
    for (int k = 0; k < 16; k++)
        sum += (*slot)[k];
    res[0] = sum;
    res[1] = cudaFree(*slot);
}

__global__ void deep(int *reached, int *err, int depth)
{
    atomicMax(reached, depth);
    deep<<<1, 1>>>(reached, err, depth + 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        *err = e;
}

__global__ void bump(int *count)
{
    atomicAdd(count, 1);
}

__global__ void fan(int *count, int *refused)
{
    for (int k = 0; k < 8; k++) {
        bump<<<1, 1>>>(count);
        if (cudaGetLastError() == cudaErrorLaunchPendingCountExceeded)
            (*refused)++;
    }
}

__global__ void copier(const int *src, int *dst, int n, char *msg, int *res)
{
    cudaStream_t s;
    res[0] = cudaStreamCreateWithFlags(&s, 0); // a kernel's streams must be non-blocking
    res[1] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    res[2] = cudaMemcpyAsync(dst, src, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
    res[3] = cudaStreamDestroy(s);
    res[4] = cudaStreamDestroy(s);
    cudaGetLastError();
    bump<<<1, 2048>>>(res + 8); // more threads than a block may have
    res[5] = cudaPeekAtLastError();
    res[6] = cudaGetLastError();
    res[7] = cudaGetLastError();
    const char *text = cudaGetErrorString(cudaErrorLaunchMaxDepthExceeded);
    int k = 0;
    for (; text[k] && k < 255; k++)
        msg[k] = text[k];
    msg[k] = 0;
}

int main()
{
    int bad = 0;
    // nest and leaf
    int *seen, *pointee;
    long long *out;
    CHECK(cudaMallocManaged(&seen, (NEST_MAX + 1) * sizeof(int)));
    CHECK(cudaMallocManaged(&pointee, N_LEAVES * sizeof(int)));
    CHECK(cudaMallocManaged(&out, N_LEAVES * sizeof(long long)));
    for (int t = 0; t < N_LEAVES; t++) {
        pointee[t] = 40 + t;
        out[t] = 0;
    }
    for (int d = 0; d <= NEST_MAX; d++)
        seen[d] = 0;
    nest<<<2, 64>>>(seen, out, pointee, 0);
    CHECK(cudaDeviceSynchronize());
    for (int d = 0; d <= NEST_MAX; d++)
        bad += MISS(seen[d] != d + 1);
    for (int t = 0; t < N_LEAVES; t++) {
        Pair p = {t - 7, 0.5 * t};
        long long want = leaf_checksum((char)('a' + t), (short)(-300 * t), 100000 * t, 5000000000LL * t, 1.25f * t,
                                       -2.5 * t, p, 40 + t);
        bad += MISS(out[t] != want);
    }
    // tail
    int *xy;
    CHECK(cudaMallocManaged(&xy, 2 * sizeof(int)));
    xy[0] = xy[1] = 0;
    tail_parent<<<1, 1>>>(xy, xy + 1);
    CHECK(cudaDeviceSynchronize());
    bad += MISS(xy[0] != 1 || xy[1] != 10);
    // heap
    int *res;
    CHECK(cudaMallocManaged(&res, 64 * sizeof(int)));
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
    heap<<<1, 4>>>(res, 2 << 20);
    CHECK(cudaDeviceSynchronize());
    for (int t = 0; t < 4; t++) {
        bad += MISS(res[t * 4 + 0] != cudaSuccess || res[t * 4 + 1] != 2016 * (t + 1));
        bad += MISS(res[t * 4 + 2] != cudaSuccess || res[t * 4 + 3] != cudaErrorMemoryAllocation * 1000 + 1);
    }
    int **slot;
    CHECK(cudaMalloc(&slot, sizeof(int *)));
    heap_keep<<<1, 1>>>(slot);
    heap_release<<<1, 1>>>(slot, res);
    CHECK(cudaDeviceSynchronize());
    bad += MISS(res[0] != 16 * 100 + 120 || res[1] != cudaSuccess);
    // deep
    res[0] = -1;
    res[1] = 0;
    deep<<<1, 1>>>(res, res + 1, 0);
    CHECK(cudaDeviceSynchronize());
    bad += MISS(res[0] != 24 || res[1] != cudaErrorLaunchMaxDepthExceeded);
    printf("cdp: nesting stopped at depth %d: %s\n", res[0], cudaGetErrorName((cudaError_t)res[1]));
    // fan
    size_t pending = 0;
    CHECK(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4));
    res[0] = res[1] = 0;
    fan<<<1, 1>>>(res, res + 1);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, pending));
    // a GPU may start (and finish) a child while its parent runs, freeing its slot: the split
    // of 8 into launched and refused is warpsim's, whose children wait for the parent's end
    bad += MISS(pending != 2048 || res[0] + res[1] != 8 || (on_warpsim() && (res[0] != 4 || res[1] != 4)));
    printf("cdp: %d of 8 launches with 4 pending at most, %d refused\n", res[0], res[1]);
    // copier
    int *src, *dst;
    char *msg;
    const int n = 1000;
    CHECK(cudaMallocManaged(&src, n * sizeof(int)));
    CHECK(cudaMallocManaged(&dst, n * sizeof(int)));
    CHECK(cudaMallocManaged(&msg, 256));
    for (int k = 0; k < n; k++) {
        src[k] = k * 3 + 1;
        dst[k] = 0;
    }
    for (int k = 0; k < 16; k++)
        res[k] = -1;
    res[8] = 0;
    copier<<<1, 1>>>(src, dst, n, msg, res);
    CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < n; k++)
        bad += MISS(dst[k] != k * 3 + 1);
    bad += MISS(res[0] != cudaErrorInvalidValue || res[1] != cudaSuccess || res[2] != cudaSuccess);
    // destroying a destroyed stream is undefined on a GPU; warpsim says so
    bad += MISS(res[3] != cudaSuccess || (on_warpsim() && res[4] != cudaErrorInvalidResourceHandle));
    bad += MISS(res[5] != cudaErrorInvalidConfiguration || res[6] != cudaErrorInvalidConfiguration);
    bad += MISS(res[7] != cudaSuccess || res[8] != 0);
    bad += MISS(strcmp(msg, cudaGetErrorString(cudaErrorLaunchMaxDepthExceeded)) != 0);
    printf("cdp: device error text: %s\n", msg);
    printf("cdp: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
