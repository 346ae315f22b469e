// runtime_api.cu: the runtime calls beyond allocation, copies and launches that programs use:
// pitched 2D memory (cudaMallocPitch, cudaMemcpy2D, cudaMemset2D) under a kernel that walks
// its rows; streams' flags, priorities and ids; host functions and stream callbacks in stream
// order; device flags and preferences; page-locked host memory and pointer attributes; and an
// entry point the simulator does not implement, which must fail with cudaErrorNotSupported and
// let the program go on.
#include "check.h"

#include <cstring>

__global__ void scale_rows(float *m, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] = row[x] * 2.0f + (float)y;
    }
}

__global__ void add_one(int *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

static int order[4], n_order;
static void host_fn(void *tag) { order[n_order++] = *(int *)tag; }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *tag)
{
    order[n_order++] = status == cudaSuccess ? *(int *)tag : -1;
}

int main()
{
    int bad = 0;

    // pitched 2D memory: 37 x 20 floats, rows padded to the device's alignment
    const int w = 37, h = 20;
    float host[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            host[y][x] = (float)(y * 100 + x);
    float *m;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&m, &pitch, w * sizeof(float), h));
    bad += MISS(pitch < w * sizeof(float) || pitch % 32 != 0);
    CHECK(cudaMemset2D(m, pitch, 0xff, pitch, h));
    CHECK(cudaMemcpy2D(m, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    scale_rows<<<dim3(1, h), 64>>>(m, pitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemset2D((char *)m + 5 * pitch, pitch, 0, 4 * sizeof(float), 2)); // rows 5-6, x < 4
    CHECK(cudaMemcpy2D(back, w * sizeof(float), m, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = (y == 5 || y == 6) && x < 4 ? 0.0f : host[y][x] * 2.0f + (float)y;
            bad += MISS(back[y][x] != want);
        }
    bad += MISS_ERR(cudaMemcpy2D(back, 8, m, pitch, 16, 1, cudaMemcpyDeviceToHost), cudaErrorInvalidValue); // as CUDA 13.0 does
    bad += MISS_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    printf("runtime_api: pitch %zu bytes for rows of %zu\n", pitch, w * sizeof(float));

    // streams
    int least = -1, greatest = -1, prio = -1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, greatest - 1));
    CHECK(cudaStreamCreate(&s2));
    unsigned flags = 9;
    unsigned long long id1 = 0, id2 = 0;
    CHECK(cudaStreamGetPriority(s1, &prio));
    CHECK(cudaStreamGetFlags(s1, &flags));
    CHECK(cudaStreamGetId(s1, &id1));
    CHECK(cudaStreamGetId(s2, &id2));
    // warpsim models no priorities: its range is 0 to 0 (an H200's 0 to -5); a priority past the
    // greatest is clamped to it
    bad += MISS(greatest > least || prio != greatest || flags != cudaStreamNonBlocking || id1 == id2);

    // host work in stream order, after a kernel
    int tags[3] = {1, 2, 3};
    scale_rows<<<dim3(1, h), 64, 0, s1>>>(m, pitch, w, h);
    CHECK(cudaLaunchHostFunc(s1, host_fn, &tags[0]));
    CHECK(cudaStreamAddCallback(s1, callback, &tags[1], 0));
    CHECK(cudaLaunchHostFunc(s2, host_fn, &tags[2]));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaDeviceSynchronize());
    // s1's two in its order; s2's (a blocking stream, but s1 is not) may run before, between or after
    int at1 = -1, at2 = -1;
    for (int k = 0; k < n_order && k < 3; k++)
        at1 = order[k] == 1 ? k : at1, at2 = order[k] == 2 ? k : at2;
    bad += MISS(n_order != 3 || order[0] + order[1] + order[2] != 6 || at1 < 0 || at2 < at1);
    printf("runtime_api: host work ran in the order %d %d %d\n", order[0], order[1], order[2]);
    bad += MISS_ERR(cudaStreamAddCallback(s1, callback, &tags[1], 1), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));

    // the device's flags and preferences
    unsigned dflags = 0;
    int cache = -1, chosen = -1, peer = -1;
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    CHECK(cudaGetDeviceFlags(&dflags));
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    CHECK(cudaDeviceGetCacheConfig((cudaFuncCache *)&cache));
    CHECK(cudaChooseDevice(&chosen, &want));
    CHECK(cudaDeviceCanAccessPeer(&peer, 0, 0));
    CHECK(cudaFuncSetCacheConfig(scale_rows, cudaFuncCachePreferShared));
    bad += MISS(dflags != (cudaDeviceScheduleBlockingSync | cudaDeviceMapHost) || cache != cudaFuncCachePreferL1 || chosen != 0 || peer != 0);

    // page-locked host memory and what pointers are
    static float page[1024];
    cudaPointerAttributes a;
    CHECK(cudaHostRegister(page, sizeof page, cudaHostRegisterPortable));
    CHECK(cudaPointerGetAttributes(&a, page + 10));
    bad += MISS(a.type != cudaMemoryTypeHost || a.hostPointer != page + 10);
    CHECK(cudaPointerGetAttributes(&a, m));
    bad += MISS(a.type != cudaMemoryTypeDevice || a.devicePointer != m || a.device != 0);
    CHECK(cudaHostUnregister(page));
    bad += MISS_ERR(cudaHostUnregister(page), cudaErrorHostMemoryNotRegistered);
    (void)cudaGetLastError();
    CHECK(cudaPointerGetAttributes(&a, page));
    bad += MISS(a.type != cudaMemoryTypeUnregistered);
    CHECK(cudaMemcpy(page, m, 16, cudaMemcpyDeviceToHost)); // still usable as plain memory
    bad += MISS(page[0] != (host[0][0] * 2.0f) * 2.0f);

    // peer access with one device: an error (as on a GPU), not the end of the program
    cudaError_t e = cudaDeviceEnablePeerAccess(0, 0);
    bad += MISS(e != cudaErrorPeerAccessUnsupported);
    bad += MISS_ERR(cudaGetLastError(), cudaErrorPeerAccessUnsupported);
    bad += MISS_ERR(cudaGetLastError(), cudaSuccess);
    printf("runtime_api: peer access %s\n", cudaGetErrorName(e));

    // copies "between devices": device 0 and itself is a device-to-device copy; another device
    // is an error
    float *p2;
    CHECK(cudaMalloc(&p2, 64));
    CHECK(cudaMemcpyPeer(p2, 0, m, 0, 32));
    CHECK(cudaMemcpyPeerAsync(p2 + 8, 0, m, 0, 32, 0));
    CHECK(cudaMemcpy(page, p2, 64, cudaMemcpyDeviceToHost));
    bad += MISS(page[0] != (host[0][0] * 2.0f) * 2.0f || page[8] != page[0] || page[15] != page[7]);
    bad += MISS_ERR(cudaMemcpyPeer(p2, 1, m, 0, 32), cudaErrorInvalidDevice);
    (void)cudaGetLastError();
    CHECK(cudaFree(p2));

    // a launch with attributes (cudaLaunchKernelEx, cudaLaunchKernelExC in the library): hints
    // and the cooperative flag are taken; an attribute the simulator lacks is an error
    int *ones, got_ones[128];
    CHECK(cudaMalloc(&ones, sizeof got_ones));
    CHECK(cudaMemset(ones, 0, sizeof got_ones));
    cudaLaunchAttribute la[2];
    la[0].id = cudaLaunchAttributePriority;
    la[0].val.priority = 1;
    la[1].id = cudaLaunchAttributeCooperative;
    la[1].val.cooperative = 0; // (cooperative launches need compute capability 6.0; the test runs on 2.0)
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3(2);
    lc.blockDim = dim3(64);
    lc.attrs = la;
    lc.numAttrs = 2;
    CHECK(cudaLaunchKernelEx(&lc, add_one, ones));
    la[1].id = cudaLaunchAttributeProgrammaticEvent;
    bad += MISS_ERR(cudaLaunchKernelEx(&lc, add_one, ones), cudaErrorNotSupported);
    (void)cudaGetLastError();
    CHECK(cudaMemcpy(got_ones, ones, sizeof got_ones, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++)
        bad += MISS(got_ones[i] != 1);
    CHECK(cudaFree(ones));

    CHECK(cudaFree(m));
    printf("runtime_api: %d mismatches\n", bad);
    printf("runtime_api: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
