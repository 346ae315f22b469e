// misaligned.cu: one thread (block 0, thread 5) loads an int from an address 2 bytes past a
// multiple of 4. The kernel fails with cudaErrorMisalignedAddress.
#include "hostile.h"

__global__ void load(const char *buf, int *out)
{
    int i = threadIdx.x;
    out[i] = *(const int *)(buf + 4 * i + (i == 5 ? 2 : 0));
}

int main()
{
    char *buf;
    int *out;
    CHECK(cudaMalloc((void **)&buf, 1024));
    CHECK(cudaMalloc((void **)&out, 256 * sizeof(int)));
    CHECK(cudaMemset(buf, 1, 1024));
    load<<<1, 64>>>(buf, out);
    expect_fault();
    return 0;
}
