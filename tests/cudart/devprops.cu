// devprops.cu: what the simulated device reports: cudaGetDeviceProperties, cudaDeviceGetAttribute,
// the runtime and driver versions, a kernel's attributes (its register count from the cubin) and
// occupancy, the device limits and the profiler markers, then one launch that uses them.
#include "check.h"

#include <cuda_profiler_api.h>

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

int main()
{
    int count = 0, dev = -1, rt = 0, drv = 0, sms = 0, warp = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaRuntimeGetVersion(&rt));
    CHECK(cudaDriverGetVersion(&drv));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, scale));
    printf("devices: %d (current %d), runtime %d, driver %d\n", count, dev, rt, drv);
    int cc_major = -1, cc_minor = -1;
    CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&cc_minor, cudaDevAttrComputeCapabilityMinor, 0));
    printf("name: %s, compute capability %d.%d (attributes %d.%d)\n", p.name, p.major, p.minor, cc_major, cc_minor);
    printf("SMs: %d, warp size %d, max threads per block %d, per SM %d\n", p.multiProcessorCount, p.warpSize,
           p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor);
    printf("block dims max %d x %d x %d, grid max %d x %d x %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
           p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("global memory %zu MiB, shared per block %zu, registers per block %d, L2 %d bytes, bus %d bits\n",
           p.totalGlobalMem >> 20, p.sharedMemPerBlock, p.regsPerBlock, p.l2CacheSize, p.memoryBusWidth);
    int clock_khz = 0, mem_clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
    printf("clock %d kHz, memory clock %d kHz, per SM: shared %zu, registers %d, blocks %d\n", clock_khz,
           mem_clock_khz, p.sharedMemPerMultiprocessor, p.regsPerMultiprocessor, p.maxBlocksPerMultiProcessor);
    printf("scale: %d registers, %zu bytes shared, max %d threads per block\n", fa.numRegs, fa.sharedSizeBytes,
           fa.maxThreadsPerBlock);
    int occ256 = 0, occ1024 = 0, occ_smem = 0, occ_big = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ256, scale, 256, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ1024, scale, 1024, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&occ_smem, scale, 64, 20000, cudaOccupancyDefault));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_big, scale, 64, (size_t)1 << 20));
    printf("occupancy: %d blocks of 256, %d of 1024, %d of 64 with 20000 B shared, %d with 1 MiB\n", occ256,
           occ1024, occ_smem, occ_big);
    size_t stack = 0, heap = 0;
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)64 << 20));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("limits: stack %zu, heap %zu MiB\n", stack, heap >> 20);
    CHECK(cudaProfilerStart());
    int bad = count != 1 || dev != 0 || sms != p.multiProcessorCount || warp != 32 || fa.numRegs <= 0 ||
              p.maxThreadsPerBlock <= 0;
    const int n = 1000;
    float x[n], *dx;
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    CHECK(cudaMalloc((void **)&dx, sizeof x));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    scale<<<(n + p.maxThreadsPerBlock - 1) / p.maxThreadsPerBlock, p.maxThreadsPerBlock>>>(dx, 3.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(x, dx, sizeof x, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += MISS(x[i] != 3.0f * i);
    CHECK(cudaProfilerStop());
    CHECK(cudaDeviceReset());
    printf("devprops: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
