// badlaunch.cu: a launch the device cannot run (2048 threads per block) must fail with
// cudaErrorInvalidValue (CUDA 13.0's code for it), without spoiling later work (the error is not sticky); then
// the usual CHECK on an invalid launch reports it and exits with status 1.
#include "check.h"

__global__ void fill(int *x, int v)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main()
{
    int *dx, h[64];
    CHECK(cudaMalloc((void **)&dx, sizeof h));
    fill<<<1, 2048>>>(dx, 1);
    cudaError_t e = cudaGetLastError();
    printf("2048 threads per block: %s\n", cudaGetErrorName(e));
    if (e != cudaErrorInvalidValue)
        return 2;
    if (cudaGetLastError() != cudaSuccess) // reading the error reset it
        return 3;
    fill<<<2, 32>>>(dx, 7);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, dx, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        if (h[i] != 7)
            return 4;
    printf("a valid launch after it: ok\n");
    fill<<<dim3(1, 1, 1), dim3(4, 1, 128)>>>(dx, 1); // 512 threads, but z above 64
    CHECK(cudaGetLastError());
    printf("not reached\n");
    return 0;
}
