// vecadd.cu: c = a + b through the runtime API: cudaMalloc, cudaMemset, cudaMemcpy in every
// direction (cudaMemcpyDefault too), an async copy on a stream into pinned memory, and <<<>>>.
// Checks every element against the CPU; exits 1 on a mismatch.
#include "check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *back = (float *)malloc(bytes), *c;
    CHECK(cudaMallocHost((void **)&c, bytes));
    for (int i = 0; i < n; i++) {
        a[i] = 0.5f * i;
        b[i] = 1000.0f - i;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    CHECK(cudaMemset(dc, 0xff, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyDefault));
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyAsync(c, dc, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    // device to device, then back with the direction inferred
    CHECK(cudaMemcpy(da, dc, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(back, da, bytes, cudaMemcpyDefault));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += MISS(c[i] != a[i] + b[i] || back[i] != c[i]);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFreeHost(c));
    printf("vecadd: n=%d, %d mismatches\n", n, bad);
    return bad ? 1 : 0;
}
