// managed.cu: unified memory and mapped host memory, each checked against the CPU:
// cudaMallocManaged memory the host writes and reads directly around kernels, __managed__
// variables (initialised, atomics, an array, the symbol calls), the hints (prefetch, advice,
// stream attachment) and their misuse, copies and memsets on managed memory, pointer
// attributes, the device's managed-memory attributes, and pinned host memory the kernels use
// through cudaHostGetDevicePointer (cudaHostAlloc with cudaHostAllocMapped, and cudaHostRegister
// of ordinary, unaligned heap memory).
#include "check.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

__managed__ int hits = 7;
__managed__ float table[300];
__managed__ long long scale = 3;

__global__ void bump(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = a[i] * (int)scale + i;
        atomicAdd(&hits, 1);
        if (i < 300)
            table[i] += 0.5f * i;
    }
}

__global__ void axpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}

int main()
{
    int bad = 0;
    const int n = 1000;

    int attr;
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrManagedMemory, 0));
    bad += MISS(attr != 1);
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrConcurrentManagedAccess, 0));
    bad += MISS(attr != 1);
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrCanMapHostMemory, 0));
    bad += MISS(attr != 1);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    bad += MISS(prop.managedMemory != 1 || prop.concurrentManagedAccess != 1 || prop.canMapHostMemory != 1);

    // managed memory: the host writes it, a kernel updates it, the host reads the results
    int *a;
    CHECK(cudaMallocManaged(&a, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        a[i] = i % 17;
    bad += MISS(hits != 7 || scale != 3); // initialisers, read by the host before any launch
    scale = 5;                      // the host's write is what the kernel reads
    bump<<<(n + 127) / 128, 128>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        bad += MISS(a[i] != (i % 17) * 5 + i);
    bad += MISS(hits != 7 + n);
    for (int i = 0; i < 300; i++)
        bad += MISS(table[i] != 0.5f * i);

    // the symbol calls on __managed__ variables, named as the host code names them
    int h = 0;
    CHECK(cudaMemcpyFromSymbol(&h, hits, sizeof h));
    bad += MISS(h != 7 + n);
    h = 40;
    CHECK(cudaMemcpyToSymbol(hits, &h, sizeof h));
    bad += MISS(hits != 40);
    void *sym;
    CHECK(cudaGetSymbolAddress(&sym, hits));
    bad += MISS(sym != (void *)&hits);

    // the hints: accepted on managed memory, refused elsewhere
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    CHECK(cudaMemPrefetchAsync(a, n * sizeof(int), dev, 0, s));
    CHECK(cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetReadMostly, dev));
    CHECK(cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetPreferredLocation, host));
    CHECK(cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachSingle));
    CHECK(cudaStreamAttachMemAsync(s, a, n * sizeof(int), cudaMemAttachGlobal));
    CHECK(cudaMemPrefetchAsync(table, sizeof table, host, 0, s));
    CHECK(cudaStreamSynchronize(s));
    int *d;
    CHECK(cudaMalloc(&d, 64));
    bad += MISS_ERR(cudaMemPrefetchAsync(d, 64, dev, 0, s), cudaErrorInvalidValue);
    bad += MISS_ERR(cudaMemPrefetchAsync(a, (n + 1) * sizeof(int), dev, 0, s), cudaErrorInvalidValue);
    bad += MISS_ERR(cudaMemAdvise(a, 4, (cudaMemoryAdvise)9, dev), cudaErrorInvalidValue);
    cudaMemLocation dev1 = {cudaMemLocationTypeDevice, 1};
    bad += MISS_ERR(cudaMemPrefetchAsync(a, 4, dev1, 0, s), cudaErrorInvalidDevice);
    bad += MISS_ERR(cudaStreamAttachMemAsync(s, a, 8, cudaMemAttachSingle), cudaErrorInvalidValue);
    int *z;
    bad += MISS_ERR(cudaMallocManaged(&z, 0), cudaSuccess) || MISS(z != NULL); // as on a GPU
    bad += MISS_ERR(cudaMallocManaged(&d, 16, 8), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    // copies and memsets on managed memory, and what the pointers are
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float), cudaMemAttachHost));
    float *hx = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        hx[i] = 0.25f * i;
    CHECK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyDefault));
    CHECK(cudaMemset(y, 0, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        bad += MISS(x[i] != hx[i] || y[i] != 0.0f);
    for (int i = 0; i < n; i++)
        y[i] = 1.0f;
    axpy<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hx, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += MISS(y[i] != 1.0f + 0.5f * i || hx[i] != y[i]);
    CHECK(cudaMemset(x, 0, 4 * sizeof(float)));
    bad += MISS(x[0] != 0.0f || x[3] != 0.0f || x[4] != 1.0f);
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, x + 10));
    bad += MISS(pa.type != cudaMemoryTypeManaged || pa.devicePointer != x + 10 || pa.hostPointer != x + 10);
    CHECK(cudaPointerGetAttributes(&pa, &table[5]));
    bad += MISS(pa.type != cudaMemoryTypeManaged);
    size_t free1, free2, total;
    CHECK(cudaMemGetInfo(&free1, &total));
    CHECK(cudaFree(x));
    CHECK(cudaMemGetInfo(&free2, &total));
    // warpsim gives back exactly the bytes; a GPU's pages may round them or keep them
    bad += MISS(free2 < free1);

    // mapped pinned memory: a kernel writes it through its device pointer
    float *ph, *pd;
    CHECK(cudaHostAlloc(&ph, n * sizeof(float), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&pd, ph, 0));
    unsigned flags;
    CHECK(cudaHostGetFlags(&flags, ph));
    bad += MISS(pd != ph || flags != cudaHostAllocMapped);
    for (int i = 0; i < n; i++)
        ph[i] = 2.0f;
    axpy<<<(n + 255) / 256, 256>>>(y, pd, 1.0f, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        bad += MISS(ph[i] != 2.0f + y[i]);
    CHECK(cudaPointerGetAttributes(&pa, ph));
    bad += MISS(pa.type != cudaMemoryTypeHost || pa.devicePointer != ph);

    // registered heap memory, not page-aligned, mapped too
    char *heap = (char *)malloc(n * sizeof(float) + 12);
    float *r = (float *)(heap + 4), *rd;
    for (int i = 0; i < n; i++)
        r[i] = -1.0f;
    CHECK(cudaHostRegister(r, n * sizeof(float), cudaHostRegisterMapped));
    CHECK(cudaHostGetDevicePointer((void **)&rd, r, 0));
    axpy<<<(n + 255) / 256, 256>>>(pd, rd, 1.0f, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        bad += MISS(r[i] != -1.0f + ph[i]);
    CHECK(cudaHostUnregister(r));
    bad += MISS_ERR(cudaHostGetDevicePointer((void **)&rd, r, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    CHECK(cudaFreeHost(ph));
    CHECK(cudaFree(a));
    CHECK(cudaFree(y));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    free(heap);
    free(hx);
    printf("managed: %d mismatches\n", bad);
    printf("managed: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
