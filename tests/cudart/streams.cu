// streams.cu: launches into a created stream run while the host goes on, as on a GPU. A kernel
// spins on a pinned host flag that the host sets only after it has queued more work behind it
// (the pattern of NVIDIA's UnifiedMemoryPerf); then the results, the order of the held work,
// a held kernel's fault-free finish before a synchronous copy, and work held at exit.
#include "check.h"

__global__ void wait_for_flag(volatile unsigned *flag, int *seen)
{
    while (*flag == 0)
        ;
    *seen = (int)*flag;
}

__global__ void append(int *log, int *count, int value)
{
    int i = atomicAdd(count, 1);
    log[i] = value;
}

int main()
{
    unsigned *flag;
    int *d, *m, mismatches = 0;
    CHECK(cudaMallocManaged((void **)&m, 256));
    CHECK(cudaHostAlloc((void **)&flag, sizeof *flag, cudaHostAllocMapped));
    CHECK(cudaMalloc((void **)&d, 64 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 64 * sizeof(int)));
    cudaStream_t s, t;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));

    // the spinning kernel, work queued behind it in two streams, then the flag
    *flag = 0;
    wait_for_flag<<<1, 1, 0, s>>>(flag, d);
    for (int v = 1; v <= 3; v++) {
        append<<<1, 1, 0, s>>>(d + 8, d + 1, v);
        append<<<1, 1, 0, t>>>(d + 8, d + 1, 10 + v);
    }
    // hints do not make the host wait
    CHECK(cudaMemPrefetchAsync(m, 256, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, s));
    CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachGlobal));
    *flag = 7;
    CHECK(cudaStreamSynchronize(s));
    int h[16];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    mismatches += MISS(h[0] != 7);
    mismatches += MISS(h[1] != 6);
    const int order[6] = {1, 11, 2, 12, 3, 13}; // issue order, across the two streams
    for (int i = 0; i < 6; i++)
        mismatches += MISS(h[8 + i] != order[i]);

    // a launch into the legacy stream runs after the held ones
    append<<<1, 1, 0, t>>>(d + 8, d + 1, 20);
    append<<<1, 1>>>(d + 8, d + 1, 21);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    mismatches += MISS(h[1] != 8 || h[14] != 20 || h[15] != 21);

    printf("streams: %d mismatches\n", mismatches);
    // held at exit: it still runs, and is counted in the results
    append<<<1, 1, 0, s>>>(d + 8, d + 1, 30);
    return 0;
}
