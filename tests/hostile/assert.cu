// assert.cu: a device-side assert fails in one thread (block 1, thread 13). As on a GPU, the
// thread's message goes to stderr ("file:line: function: block: [..], thread: [..] Assertion
// `...` failed.") and the kernel fails with cudaErrorAssert, sticky.
#include "hostile.h"

#include <cassert>

__global__ void check_positive(const int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(x[i] >= 0);
}

int main()
{
    const int n = 256;
    int h[n], *d;
    for (int i = 0; i < n; i++)
        h[i] = i == 64 + 13 ? -1 : i;
    CHECK(cudaMalloc((void **)&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_positive<<<4, 64>>>(d, n);
    expect_fault();
    return 0;
}
