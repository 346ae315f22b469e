// reduce.cu: a sum in shared memory with __syncthreads, first with a static __shared__ array,
// then with dynamic shared memory (the third <<<>>> argument), timed with events (simulated
// time: 0 under --functional). Integer sums, so the check against the CPU is exact.
#include "check.h"

#define BLOCK 256

__global__ void sum_static(const int *in, int *out, int n)
{
    __shared__ int buf[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void sum_dynamic(const int *in, int *out, int n)
{
    extern __shared__ int dbuf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dbuf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            dbuf[threadIdx.x] += dbuf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = dbuf[0];
}

int main()
{
    const int n = 20000, blocks = (n + BLOCK - 1) / BLOCK;
    int *in = (int *)malloc(n * sizeof(int)), part[2][blocks];
    long long want = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (i * 7919) % 1000 - 300;
        want += in[i];
    }
    int *din, *dout;
    CHECK(cudaMalloc((void **)&din, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&dout, 2 * blocks * sizeof(int)));
    CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    cudaEvent_t start, mid, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&mid));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    sum_static<<<blocks, BLOCK>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(mid, 0));
    sum_dynamic<<<blocks, BLOCK, BLOCK * sizeof(int)>>>(din, dout + blocks, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms1 = -1, ms2 = -1;
    CHECK(cudaEventElapsedTime(&ms1, start, mid));
    CHECK(cudaEventElapsedTime(&ms2, mid, stop));
    CHECK(cudaMemcpy(part, dout, sizeof part, cudaMemcpyDeviceToHost));
    long long got[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < blocks; b++)
            got[k] += part[k][b];
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(mid));
    CHECK(cudaEventDestroy(stop));
    int bad = got[0] != want || got[1] != want || ms1 < 0 || ms2 < 0;
    printf("reduce: sum %lld (static), %lld (dynamic), expected %lld; kernel times %.6f ms, %.6f ms\n",
           got[0], got[1], want, ms1, ms2);
    return bad;
}
