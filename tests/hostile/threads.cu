// threads.cu: four host threads drive the device at once, each with its own allocations and
// ten launches of a kernel that adds its thread number; one thread also makes a launch the
// device refuses, whose error only that thread's cudaGetLastError sees (the last error is per
// host thread, as in CUDA). Every result must be right, functionally and on the timing model.
#include "hostile.h"

#include <pthread.h>

#define N 4096
#define LAUNCHES 10

__global__ void add(int *x, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += v;
}

static int mismatches[4], errors[4];

static void *work(void *arg)
{
    int t = (int)(long)arg;
    int *h = new int[N], *d;
    for (int i = 0; i < N; i++)
        h[i] = i;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice));
    for (int k = 0; k < LAUNCHES; k++) {
        add<<<N / 256, 256>>>(d, t + 1, N);
        CHECK(cudaGetLastError());
        if (t == 2 && k == 5) {
            add<<<1, 4096>>>(d, 1000, N); // refused: more than 1024 threads per block
            errors[t] = cudaGetLastError() == cudaErrorInvalidValue;
        }
    }
    CHECK(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    for (int i = 0; i < N; i++)
        mismatches[t] += h[i] != i + LAUNCHES * (t + 1);
    delete[] h;
    return nullptr;
}

int main()
{
    pthread_t th[4];
    for (long t = 0; t < 4; t++)
        pthread_create(&th[t], nullptr, work, (void *)t);
    int bad = 0;
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], nullptr);
        bad += mismatches[t];
    }
    printf("threads: 4 threads x %d launches, %d mismatches, refused launch seen by its thread: %s\n", LAUNCHES,
           bad, errors[2] ? "yes" : "no");
    return bad != 0 || !errors[2];
}
