// smem.cu: one thread (block 0, thread 100) reads its dynamic shared array far past the 512
// bytes the launch gave the block. The kernel fails with cudaErrorIllegalAddress.
#include "hostile.h"

__global__ void stage(const int *in, int *out, int far)
{
    extern __shared__ int s[];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncthreads();
    out[i] = s[i == 100 ? far : 127 - i];
}

int main()
{
    int *in, *out;
    CHECK(cudaMalloc((void **)&in, 128 * sizeof(int)));
    CHECK(cudaMalloc((void **)&out, 128 * sizeof(int)));
    CHECK(cudaMemset(in, 0, 128 * sizeof(int)));
    stage<<<1, 128, 128 * sizeof(int)>>>(in, out, 1 << 20);
    expect_fault();
    return 0;
}
