// drvctx.cu: driver calls after runtime calls with no context made current by the program, as
// CUDA allows (its runtime makes the device's primary context current in each thread that
// calls it; cuda-samples' ptxjit and cudaCompressibleMemory rely on it): in the main thread
// cuCtxGetDevice, then PTX through cuLinkCreate / cuLinkAddData / cuLinkComplete and
// cuModuleLoadData, launched on cudaMalloc'd memory; in a second thread, which calls the
// runtime first too, cuCtxGetCurrent and cuMemAlloc. A thread that never calls the runtime has
// no context (CUDA_ERROR_INVALID_CONTEXT). Built with -lcuda -lpthread; exits 1 on a mismatch.
#include "check.h"

#include <cuda.h>
#include <pthread.h>

// p[i] = i * 2 for i < n
static const char fill_ptx[] = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry fill(.param .u64 p, .param .u32 n)
{
    .reg .pred %done;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;

    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.u32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %done, %r5, %r1;
    @%done bra END;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 4;
    add.u64 %rd2, %rd2, %rd3;
    shl.b32 %r4, %r5, 1;
    st.global.u32 [%rd2], %r4;
END:
    ret;
}
)";

static int thread_result;

static void *runtime_thread(void *)
{
    void *p;
    CUcontext ctx = NULL;
    CUdeviceptr d = 0;
    int bad = MISS(cudaMalloc(&p, 64) != cudaSuccess);
    bad += MISS(cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || ctx == NULL);
    bad += MISS(cuMemAlloc(&d, 64) != CUDA_SUCCESS);
    bad += MISS(cuMemFree(d) != CUDA_SUCCESS || cudaFree(p) != cudaSuccess);
    thread_result = bad;
    return NULL;
}

static void *driver_only_thread(void *)
{
    CUdeviceptr d = 0;
    thread_result = MISS(cuMemAlloc(&d, 64) != CUDA_ERROR_INVALID_CONTEXT);
    return NULL;
}

int main()
{
    const unsigned n = 1000;
    int *buf;
    CHECK(cudaMalloc((void **)&buf, n * sizeof(int)));
    int bad = 0;
    CUdevice dev = -1;
    bad += MISS(cuCtxGetDevice(&dev) != CUDA_SUCCESS || dev != 0);

    CUlinkState link;
    void *image = NULL;
    size_t size = 0;
    CUmodule mod;
    CUfunction f;
    bad += MISS(cuLinkCreate(0, NULL, NULL, &link) != CUDA_SUCCESS);
    bad += MISS(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)fill_ptx, sizeof fill_ptx, "fill.ptx", 0, NULL, NULL) !=
                CUDA_SUCCESS);
    bad += MISS(cuLinkComplete(link, &image, &size) != CUDA_SUCCESS);
    bad += MISS(cuModuleLoadData(&mod, image) != CUDA_SUCCESS);
    bad += MISS(cuLinkDestroy(link) != CUDA_SUCCESS);
    bad += MISS(cuModuleGetFunction(&f, mod, "fill") != CUDA_SUCCESS);
    CUdeviceptr p = (CUdeviceptr)buf;
    unsigned count = n;
    void *params[] = {&p, &count};
    bad += MISS(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL) != CUDA_SUCCESS);
    int back[n];
    CHECK(cudaMemcpy(back, buf, sizeof back, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        bad += MISS(back[i] != (int)(2 * i));

    pthread_t t;
    pthread_create(&t, NULL, runtime_thread, NULL);
    pthread_join(t, NULL);
    bad += thread_result;
    pthread_create(&t, NULL, driver_only_thread, NULL);
    pthread_join(t, NULL);
    bad += thread_result;

    CHECK(cudaFree(buf));
    printf("drvctx: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
