// coop.cu: cooperative launches, checked against the CPU: a kernel that synchronises its whole
// grid three times (cooperative groups' this_grid().sync()) to reverse an array across blocks
// and scale it by a grid-wide sum, launched with as many blocks as fit on the device at once;
// a kernel whose first block spins on a flag the last block sets; one block more than fits on
// the device at once, which must fail with cudaErrorCooperativeLaunchTooLarge. On a device
// without cooperative launches (compute capability below 6.0) the launch must be refused with
// cudaErrorNotSupported.
#include "check.h"

#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void reverse_scale(const int *in, int *tmp, int *partial, int *total, int *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    int i = (int)grid.thread_rank();
    if (i < n)
        tmp[n - 1 - i] = in[i];
    grid.sync(); // every block's writes are visible to every other block
    __shared__ int sum;
    if (threadIdx.x == 0)
        sum = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&sum, tmp[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sum;
    grid.sync();
    if (i == 0) {
        int t = 0;
        for (int b = 0; b < (int)gridDim.x; b++)
            t += partial[b];
        *total = t;
    }
    grid.sync();
    if (i < n)
        out[i] = tmp[i] * (*total % 7 + 1);
}

__global__ void wait_for_last(volatile int *flag, int *seen)
{
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        *flag = 42;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        while (*flag != 42) {
        }
        *seen = *flag;
    }
}

int main()
{
    int bad = 0;
    int coop = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (!coop) {
        int x = 0, *p = &x;
        void *a[] = {&p, &p};
        cudaError_t e = cudaLaunchCooperativeKernel((void *)wait_for_last, 1, 32, a, 0, 0);
        bad += MISS(e != cudaErrorNotSupported || cudaGetLastError() != cudaErrorNotSupported);
        printf("coop: no cooperative launch on this device, refused: %s, %d mismatches\n", cudaGetErrorName(e), bad);
        return bad ? 1 : 0;
    }
    const int threads = 128;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reverse_scale, threads, 0));
    // every SM full: the barrier's spinning warps must not starve the blocks it waits for
    int fit = per_sm * sms, blocks = fit, n = blocks * threads - 5;
    bad += MISS(coop != 1 || fit < blocks);
    printf("coop: %d blocks of %d threads (%d fit: %d per SM x %d SMs)\n", blocks, threads, fit, per_sm, sms);

    int *in, *tmp, *partial, *total, *out;
    CHECK(cudaMallocManaged(&in, n * sizeof(int)));
    CHECK(cudaMallocManaged(&tmp, n * sizeof(int)));
    CHECK(cudaMallocManaged(&partial, blocks * sizeof(int)));
    CHECK(cudaMallocManaged(&total, sizeof(int)));
    CHECK(cudaMallocManaged(&out, n * sizeof(int)));
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (i * 37) % 101 - 50;
        sum += in[i];
    }
    void *args[] = {&in, &tmp, &partial, &total, &out, &n};
    CHECK(cudaLaunchCooperativeKernel((void *)reverse_scale, blocks, threads, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    int scale = (int)(sum % 7 + 1);
    bad += MISS(*total != sum);
    for (int i = 0; i < n; i++)
        bad += MISS(out[i] != in[n - 1 - i] * scale);

    int *flag, *seen;
    CHECK(cudaMallocManaged(&flag, sizeof(int)));
    CHECK(cudaMallocManaged(&seen, sizeof(int)));
    *flag = 0;
    *seen = 0;
    void *wargs[] = {&flag, &seen};
    CHECK(cudaLaunchCooperativeKernel((void *)wait_for_last, 4, 32, wargs, 0, 0));
    CHECK(cudaDeviceSynchronize());
    bad += MISS(*seen != 42);

    cudaError_t e = cudaLaunchCooperativeKernel((void *)reverse_scale, fit + 1, threads, args, 0, 0);
    bad += MISS(e != cudaErrorCooperativeLaunchTooLarge || cudaGetLastError() != cudaErrorCooperativeLaunchTooLarge);
    printf("coop: %d blocks: %s\n", fit + 1, cudaGetErrorName(e));

    CHECK(cudaFree(in));
    CHECK(cudaFree(tmp));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    CHECK(cudaFree(out));
    CHECK(cudaFree(flag));
    CHECK(cudaFree(seen));
    printf("coop: %d mismatches\n", bad);
    printf("coop: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
