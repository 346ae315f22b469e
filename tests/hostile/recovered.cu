// recovered.cu: a program that expects its kernel's assert to fail, as NVIDIA's simpleAssert
// sample does: the synchronisation returns cudaErrorAssert, the program takes that as success
// and exits 0, which `warpsim exec` passes on (the fault is still reported on stderr).
#include <cassert>
#include <cstdio>

__global__ void must_fail(int n)
{
    assert(threadIdx.x < n);
}

int main()
{
    must_fail<<<2, 32>>>(16);
    cudaError_t e = cudaDeviceSynchronize();
    printf("recovered: synchronize: %s\n", cudaGetErrorName(e));
    return e == cudaErrorAssert ? 0 : 1;
}
