// pools.cu: stream-ordered allocation and the default memory pool: cudaMallocAsync /
// cudaFreeAsync on a stream, cudaMallocFromPoolAsync, the pool's attributes, with a kernel in
// between whose result is checked.
#include "check.h"

#include <cstdint>

__global__ void fill(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3 * i + 1;
}

int main()
{
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX, got = 0, used = 0, high = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 4096;
    int *a, *b, host[n];
    CHECK(cudaMallocAsync((void **)&a, n * sizeof(int), s));
    CHECK(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    fill<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    CHECK(cudaMemcpyAsync(host, b, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    CHECK(cudaMemPoolTrimTo(pool, 0));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += MISS(host[i] != 3 * i + 1);
    bad += MISS(supported != 1 || got != threshold || used < 2 * n * sizeof(int) || high < used);
    printf("pools: supported %d, threshold kept %d, used %llu bytes at most, %d mismatches\n", supported,
           got == threshold, (unsigned long long)high, bad);
    CHECK(cudaStreamDestroy(s));
    printf("pools: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
