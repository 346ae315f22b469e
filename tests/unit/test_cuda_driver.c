/* test_cuda_driver.c: the libcuda replacement (src/api/driver.c), called in-process the way a
 * driver-API host program calls it: device queries, modules from PTX text and from a file with
 * ptxas's report beside it, memory, launches with kernelParams and with `extra`, __device__
 * variables, events, and the errors a bad module or a bad launch must give. The simulator runs
 * the timing model on the gtx480 preset (WARPSIM_ARGS is set before the first cuInit). */
#include "../test.h"

#include "../cuda_exec.h"

#include "base/base.h"

#include <cuda/cuda.h>
#include <dlfcn.h>
#include <stdlib.h>

CUresult cuGetExportTable(const void **ppExportTable, const void *pExportTableId); /* not in cuda.h */

static CUmodule drv_module(void)
{
    static CUmodule mod;
    if (mod)
        return mod;
    setenv("WARPSIM_ARGS", "--quiet", 1);
    if (cuInit(0) != CUDA_SUCCESS)
        return NULL;
    CUcontext ctx;
    if (cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        return NULL;
    char *text = read_file("tests/ptx/driver_api.ptx", NULL);
    if (!text)
        return NULL;
    CUresult r = cuModuleLoadData(&mod, text);
    free(text);
    return r == CUDA_SUCCESS ? mod : NULL;
}

TEST(cuda_driver_device_queries)
{
    ASSERT(drv_module());
    int n = 0, v = 0;
    EXPECT_EQ_I(cuDeviceGetCount(&n), CUDA_SUCCESS);
    EXPECT_EQ_I(n, 1);
    CUdevice dev;
    EXPECT_EQ_I(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ_I(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 30); /* gtx480: 15 clusters x 2 */
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 32);
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 1536);
    /* every attribute the runtime answers, by its number (CUdevice_attribute numbers them as
     * cudaDeviceAttr): the compute mode (default), the copy engines */
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, (CUdevice_attribute)20, dev), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 0);
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, (CUdevice_attribute)40, dev), CUDA_SUCCESS);
    EXPECT_EQ_I(v, 1);
    EXPECT_EQ_I(cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, dev), CUDA_ERROR_INVALID_VALUE);
    /* the driver's private tables, which libnvrtc asks for: none, and an answer */
    const void *table = &v;
    EXPECT_EQ_I(cuGetExportTable(&table, NULL), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(table == NULL);
    const char *s = NULL;
    EXPECT_EQ_I(cuGetErrorString(CUDA_ERROR_INVALID_PTX, &s), CUDA_SUCCESS);
    EXPECT_STR(s, "a PTX JIT compilation failed");
}

TEST(cuda_driver_saxpy_kernel_params_and_extra)
{
    CUmodule mod = drv_module();
    ASSERT(mod);
    CUfunction f;
    ASSERT(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
    enum { N = 3000 };
    static float x[N], y[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = (float)(N - i);
    }
    CUdeviceptr dx, dy;
    ASSERT(cuMemAlloc(&dx, sizeof x) == CUDA_SUCCESS && cuMemAlloc(&dy, sizeof y) == CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyHtoD(dx, x, sizeof x), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyHtoD(dy, y, sizeof y), CUDA_SUCCESS);
    float a = 2.0f;
    int n = N;
    void *params[] = {&a, &dx, &dy, &n};
    EXPECT_EQ_I(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxSynchronize(), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(got, dy, sizeof got), CUDA_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != 2.0f * x[i] + y[i];
    EXPECT_EQ_I(bad, 0);
    /* The same launch through `extra`: one packed buffer in the kernel's .param layout. */
    struct {
        float a;
        uint32_t pad;
        CUdeviceptr x, y;
        int n;
    } buf = {1.0f, 0, dx, dy, N};
    size_t size = 28; /* f32 at 0, pointers at 8 and 16, s32 at 24 */
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    EXPECT_EQ_I(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, NULL, extra), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemcpyDtoH(got, dy, sizeof got), CUDA_SUCCESS);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != 3.0f * x[i] + y[i];
    EXPECT_EQ_I(bad, 0);
    size = 24;
    EXPECT_EQ_I(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuMemFree(dx), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemFree(dy), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemFree(dy), CUDA_ERROR_INVALID_VALUE); /* freed twice */
}

TEST(cuda_driver_device_variables_and_events)
{
    CUmodule mod = drv_module();
    ASSERT(mod);
    CUdeviceptr scale = 0, calls = 0;
    size_t bytes = 0;
    ASSERT(cuModuleGetGlobal(&scale, &bytes, mod, "dev_scale") == CUDA_SUCCESS);
    EXPECT_EQ_U(bytes, 4);
    ASSERT(cuModuleGetGlobal(&calls, NULL, mod, "dev_calls") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuModuleGetGlobal(&calls, NULL, mod, "no_such_variable"), CUDA_ERROR_NOT_FOUND);
    float s = 0.25f;
    EXPECT_EQ_I(cuMemcpyHtoD(scale, &s, 4), CUDA_SUCCESS);
    EXPECT_EQ_I(cuMemsetD32(calls, 0, 1), CUDA_SUCCESS);
    float y[64];
    for (int i = 0; i < 64; i++)
        y[i] = (float)i;
    CUdeviceptr dy;
    ASSERT(cuMemAlloc(&dy, sizeof y) == CUDA_SUCCESS);
    cuMemcpyHtoD(dy, y, sizeof y);
    CUfunction f;
    ASSERT(cuModuleGetFunction(&f, mod, "scale_by_global") == CUDA_SUCCESS);
    CUevent start, end;
    ASSERT(cuEventCreate(&start, 0) == CUDA_SUCCESS && cuEventCreate(&end, 0) == CUDA_SUCCESS);
    int n = 64;
    void *params[] = {&dy, &n};
    cuEventRecord(start, NULL);
    for (int k = 0; k < 3; k++)
        EXPECT_EQ_I(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    cuEventRecord(end, NULL);
    float ms = -1;
    EXPECT_EQ_I(cuEventElapsedTime(&ms, start, end), CUDA_SUCCESS);
    EXPECT(ms > 0 && ms < 1); /* three tiny kernels: some simulated microseconds */
    float got[64];
    unsigned n_calls = 0;
    cuMemcpyDtoH(got, dy, sizeof got);
    cuMemcpyDtoH(&n_calls, calls, 4);
    EXPECT_EQ_U(n_calls, 3);
    EXPECT_NEAR(got[63], 63.0 / 64, 0);
    cuEventDestroy(start);
    cuEventDestroy(end);
    cuMemFree(dy);
}

TEST(cuda_driver_register_counts_from_ptxinfo)
{
    ASSERT(drv_module());
    CUmodule mod;
    ASSERT(cuModuleLoad(&mod, "tests/ptx/driver_api.ptx") == CUDA_SUCCESS);
    CUfunction f;
    int regs = 0;
    ASSERT(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_SUCCESS);
    EXPECT_EQ_I(regs, 10); /* tests/ptx/driver_api.ptxinfo */
    ASSERT(cuModuleGetFunction(&f, mod, "scale_by_global") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_SUCCESS);
    EXPECT_EQ_I(regs, 8);
    EXPECT_EQ_I(cuModuleUnload(mod), CUDA_SUCCESS);
    EXPECT_EQ_I(cuModuleLoad(&mod, "tests/ptx/no_such_file.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
}

TEST(cuda_driver_errors)
{
    CUmodule mod = drv_module();
    ASSERT(mod);
    CUmodule bad;
    EXPECT_EQ_I(cuModuleLoadData(&bad, ".version 9.0\n.target sm_75\n.address_size 64\n"
                                       ".visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n"),
                CUDA_ERROR_INVALID_PTX);
    EXPECT_EQ_I(cuModuleLoadData(&bad, "\177ELF\2\1\1"), CUDA_ERROR_INVALID_IMAGE);
    CUfunction f;
    EXPECT_EQ_I(cuModuleGetFunction(&f, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    ASSERT(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
    float a = 1;
    CUdeviceptr d = 0;
    int n = 0;
    void *params[] = {&a, &d, &d, &n};
    EXPECT_EQ_I(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 20, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
}

TEST(cuda_driver_fault_on_timing_model)
{
    /* Lanes store 64 B apart into a 16-byte shared array: a fault in the first warp. The timing
     * model must retire the CTAs and the launch fail with an illegal address, not abort; the
     * error is sticky, as on a GPU, until the context is destroyed. */
    ASSERT(drv_module());
    CUmodule mod;
    ASSERT(cuModuleLoadData(&mod, ".version 7.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry k() { .reg .b32 %r<4>; .shared .align 4 .b8 s[16];\n"
                                  " mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 6; mov.u32 %r3, s;\n"
                                  " add.u32 %r2, %r2, %r3; st.shared.u32 [%r2], %r1; ret; }\n") == CUDA_SUCCESS);
    CUfunction f;
    ASSERT(cuModuleGetFunction(&f, mod, "k") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr d;
    EXPECT_EQ_I(cuMemAlloc(&d, 64), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT_EQ_I(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    /* a new context: the simulator goes on, a good kernel runs */
    CUcontext ctx = NULL;
    EXPECT_EQ_I(cuCtxGetCurrent(&ctx), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxDestroy(ctx), CUDA_SUCCESS);
    EXPECT_EQ_I(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    CUfunction g;
    ASSERT(cuModuleGetFunction(&g, drv_module(), "scale_by_global") == CUDA_SUCCESS);
    ASSERT(cuMemAlloc(&d, 64 * 4) == CUDA_SUCCESS);
    int n = 64;
    void *params[] = {&d, &n};
    EXPECT_EQ_I(cuLaunchKernel(g, 2, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    cuMemFree(d);
    cuModuleUnload(mod);
}

/* Every entry point of CUDA 13.0's libcuda.so.1 (tests/cudart/cuda13_driver.syms, from
 * src/api/driver_exports.sh) is defined, unversioned as NVIDIA's are: implemented, or failing
 * with CUDA_ERROR_NOT_SUPPORTED (driver_unsupported.c), never a loader error. */
TEST(cuda_driver_library_exports_every_symbol)
{
    if (!have_library())
        return;
    char path[1100];
    snprintf(path, sizeof path, "%s/libcuda.so.1", lib_dir());
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT(h);
    char *list = read_file("tests/cudart/cuda13_driver.syms", NULL);
    ASSERT(list);
    unsigned n = 0;
    for (char *save = NULL, *name = strtok_r(list, "\n", &save); name; name = strtok_r(NULL, "\n", &save), n++)
        if (!dlsym(h, name)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s is not exported", name);
            test_fail(__FILE__, __LINE__, msg);
        }
    free(list);
    EXPECT_EQ_U(n, 637); /* CUDA 13.0's count: a truncated list must not pass */
    /* one that is not implemented: the error; the versioned forms of implemented ones: there */
    int (*graph_create)(void *, unsigned) = (int (*)(void *, unsigned))dlsym(h, "cuGraphCreate");
    ASSERT(graph_create);
    EXPECT_EQ_I(graph_create(NULL, 0), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(dlsym(h, "cuMemcpyHtoD_v2_ptds") != NULL && dlsym(h, "cuLaunchKernel_ptsz") != NULL);
    EXPECT(dlsym(h, "ptx_module_parse") == NULL); /* the simulator's own symbols stay inside */
    EXPECT(dlsym(h, "xmalloc") == NULL);
    dlclose(h);
}
