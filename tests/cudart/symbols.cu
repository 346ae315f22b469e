// symbols.cu: __constant__ and __device__ variables: coefficients set with cudaMemcpyToSymbol
// (whole and at an offset), an initialised __device__ table read through cudaGetSymbolAddress,
// and a __device__ counter the kernel increments, read back with cudaMemcpyFromSymbol.
#include "check.h"

__constant__ float coef[4];
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ unsigned int big;

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float r = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3])) + table[i % 8];
    y[i] = r;
    if (r > 100.0f)
        atomicAdd(&big, 1u);
}

int main()
{
    const int n = 1000;
    float x[n], y[n], c[4] = {1.0f, 0.5f, 0.0f, 0.0f}, hi[2] = {0.25f, 0.125f}, t[8];
    for (int i = 0; i < n; i++)
        x[i] = (i % 37) * 0.25f;
    CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
    CHECK(cudaMemcpyToSymbol(coef, hi, sizeof hi, 2 * sizeof(float))); // coef[2], coef[3]
    unsigned zero = 0, got = 0;
    CHECK(cudaMemcpyToSymbol(big, &zero, sizeof zero));
    float *dx, *dy, *dt;
    CHECK(cudaMalloc((void **)&dx, sizeof x));
    CHECK(cudaMalloc((void **)&dy, sizeof y));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    poly<<<(n + 127) / 128, 128>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(&got, big, sizeof got));
    CHECK(cudaGetSymbolAddress((void **)&dt, table));
    CHECK(cudaMemcpy(t, dt, sizeof t, cudaMemcpyDeviceToHost));
    int bad = 0;
    unsigned want = 0;
    for (int i = 0; i < n; i++) {
        float v = x[i];
        float r = 1.0f + v * (0.5f + v * (0.25f + v * 0.125f)) + (float)(i % 8 + 1);
        bad += MISS(y[i] != r); // exact: the same operations in the same order (no fused multiply-add)
        want += r > 100.0f;
    }
    for (int i = 0; i < 8; i++)
        bad += MISS(t[i] != (float)(i + 1));
    bad += MISS(got != want);
    printf("symbols: %u values above 100 (expected %u), %d mismatches\n", got, want, bad);
    return bad ? 1 : 0;
}
