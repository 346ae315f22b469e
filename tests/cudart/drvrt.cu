// drvrt.cu: one program using both the runtime and the driver API, as CUDA allows (the runtime
// works in the device's primary context): a kernel loaded from PTX text with cuModuleLoadData
// and launched with cuLaunchKernel on memory from cudaMalloc, then a <<<>>> kernel on memory
// from cuMemAlloc, the results read back through the other API. Built with -lcuda. Checks every
// element against the CPU; exits 1 on a mismatch.
#include "check.h"

#include <cuda.h>

#define CHECK_DRV(call)                                                                               \
    do {                                                                                              \
        CUresult r_ = (call);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                     \
            const char *name_ = "?";                                                                  \
            cuGetErrorName(r_, &name_);                                                               \
            fprintf(stderr, "CUDA driver error: %s at %s:%d: %s\n", name_, __FILE__, __LINE__, #call); \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

// p[i] = p[i] * a + i, for i < n
static const char scale_ptx[] = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry scale_add(.param .u64 p, .param .f32 a, .param .u32 n)
{
    .reg .pred %done;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<4>;

    ld.param.u64 %rd1, [p];
    ld.param.f32 %f1, [a];
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
    ld.global.f32 %f2, [%rd2];
    cvt.rn.f32.u32 %f3, %r5;
    fma.rn.f32 %f2, %f2, %f1, %f3;
    st.global.f32 [%rd2], %f2;
END:
    ret;
}
)";

__global__ void negate(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = -p[i];
}

int main()
{
    const int n = 3000;
    const size_t bytes = n * sizeof(float);
    float host[n], back[n];
    for (int i = 0; i < n; i++)
        host[i] = 0.25f * i - 100.0f;

    // The runtime first: it initialises the device and the primary context.
    float *rt_buf;
    CHECK(cudaMalloc((void **)&rt_buf, bytes));
    CHECK(cudaMemcpy(rt_buf, host, bytes, cudaMemcpyHostToDevice));

    CHECK_DRV(cuInit(0));
    CUdevice dev;
    CHECK_DRV(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CHECK_DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_DRV(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CHECK_DRV(cuModuleLoadData(&mod, scale_ptx));
    CUfunction f;
    CHECK_DRV(cuModuleGetFunction(&f, mod, "scale_add"));

    // A driver launch on runtime memory.
    CUdeviceptr p = (CUdeviceptr)rt_buf;
    float a = 3.0f;
    unsigned int count = n;
    void *params[] = {&p, &a, &count};
    CHECK_DRV(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CHECK_DRV(cuCtxSynchronize());
    CHECK(cudaMemcpy(back, rt_buf, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += MISS(back[i] != host[i] * 3.0f + (float)i);

    // A runtime launch on driver memory, read back through the driver.
    CUdeviceptr d;
    CHECK_DRV(cuMemAlloc(&d, bytes));
    CHECK_DRV(cuMemcpyHtoD(d, host, bytes));
    negate<<<(n + 255) / 256, 256>>>((float *)d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK_DRV(cuMemcpyDtoH(back, d, bytes));
    for (int i = 0; i < n; i++)
        bad += MISS(back[i] != -host[i]);

    // Memory both APIs count: the driver sees the runtime's allocation and its own.
    size_t free_b, total_b;
    CHECK_DRV(cuMemGetInfo(&free_b, &total_b));
    bad += MISS(total_b - free_b < 2 * bytes);

    CHECK_DRV(cuMemFree(d));
    CHECK_DRV(cuModuleUnload(mod));
    CHECK(cudaFree(rt_buf));
    CHECK_DRV(cuDevicePrimaryCtxRelease(dev));
    printf("drvrt: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
