// wild.cu: a kernel whose 16384 threads each store 4 MiB past the previous one, far outside
// their 4000-byte allocation. On a GPU the kernel fails with cudaErrorIllegalAddress, reported
// at the next synchronisation and sticky (every later call returns it); warpsim must say the
// same, name the first faulting thread, its address and the nearest allocation, and spend no
// host memory on the wild addresses.
#include "hostile.h"

__global__ void scatter(int *p, size_t stride)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    p[i * stride] = (int)i;
}

int main()
{
    int *d;
    CHECK(cudaMalloc((void **)&d, 4000));
    scatter<<<64, 256>>>(d, 1 << 20);
    expect_fault();
    return 0;
}
