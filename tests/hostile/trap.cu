// trap.cu: one thread (block 2, thread 3) executes the PTX trap instruction. The kernel fails
// with cudaErrorLaunchFailure ("unspecified launch failure"), sticky like every kernel fault.
#include "hostile.h"

__global__ void maybe_trap(int *out, int victim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == victim)
        asm volatile("trap;");
    out[i] = i;
}

int main()
{
    int *out;
    CHECK(cudaMalloc((void **)&out, 256 * sizeof(int)));
    maybe_trap<<<4, 64>>>(out, 2 * 64 + 3);
    expect_fault();
    return 0;
}
