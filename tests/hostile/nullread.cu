// nullread.cu: each thread loads through a pointer from a table in device memory; one entry
// (thread 37 of block 1) is a null pointer. The kernel fails with cudaErrorIllegalAddress; the
// message names the thread and the null address.
#include "hostile.h"

__global__ void gather(const int *const *table, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = *table[i];
}

int main()
{
    const int n = 256;
    int *values, *out;
    const int **table;
    CHECK(cudaMalloc((void **)&values, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&table, n * sizeof(int *)));
    CHECK(cudaMemset(values, 0, n * sizeof(int)));
    const int *h[n];
    for (int i = 0; i < n; i++)
        h[i] = i == 64 + 37 ? nullptr : values + i;
    CHECK(cudaMemcpy(table, h, sizeof h, cudaMemcpyHostToDevice));
    gather<<<4, 64>>>(table, out);
    expect_fault();
    return 0;
}
