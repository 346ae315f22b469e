/* test_cuda_driver.c: the libcuda replacement (src/api/driver*.c), called in-process the way a
 * driver-API host program calls it: device queries and properties, contexts and each thread's
 * stack of them, modules from PTX text, from a file with ptxas's report beside it and from fat
 * binaries, cuLink* of one PTX input, memory, launches with kernelParams and with `extra`,
 * occupancy, __device__ variables, events, the errors a bad module or a bad launch must give,
 * and every export of NVIDIA's library resolving. The simulator runs the timing model on the
 * gtx480 preset (WARPSIM_ARGS is set before the first cuInit). test_cuda_driver_mem.c has the
 * memory calls. */
#include "../test.h"

#include "../cuda_exec.h"

#include "base/base.h"
#include "front/fatbin/fatbin.h"

#include <cuda/cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

CUresult cuGetExportTable(const void **ppExportTable, const void *pExportTableId); /* not in cuda.h */
#undef cuDeviceGetUuid
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev); /* the CUDA 9.2 form, under its own name */

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
    CUevent start = NULL, end = NULL;
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
     * model must retire the CTAs, not abort; as on a GPU the launch itself succeeds (a fault is
     * asynchronous) and the next call fails with an illegal address, sticky until the context
     * is destroyed. */
    ASSERT(drv_module());
    CUmodule mod;
    ASSERT(cuModuleLoadData(&mod, ".version 7.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry k() { .reg .b32 %r<4>; .shared .align 4 .b8 s[16];\n"
                                  " mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 6; mov.u32 %r3, s;\n"
                                  " add.u32 %r2, %r2, %r3; st.shared.u32 [%r2], %r1; ret; }\n") == CUDA_SUCCESS);
    CUfunction f;
    ASSERT(cuModuleGetFunction(&f, mod, "k") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
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

TEST(cuda_driver_properties_uuid_and_peers)
{
    ASSERT(drv_module());
    CUdevprop p;
    memset(&p, 0xff, sizeof p);
    EXPECT_EQ_I(cuDeviceGetProperties(&p, 0), CUDA_SUCCESS);
    int v = 0;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0);
    EXPECT_EQ_I(p.maxThreadsPerBlock, v);
    EXPECT_EQ_I(p.maxThreadsPerBlock, 1024); /* gtx480 */
    EXPECT_EQ_I(p.maxThreadsDim[2], 64);
    EXPECT_EQ_I(p.maxGridSize[0], 0x7fffffff);
    EXPECT_EQ_I(p.SIMDWidth, 32);
    EXPECT_EQ_I(p.totalConstantMemory, 65536);
    EXPECT_EQ_I(p.textureAlign, 512);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0);
    EXPECT(v > 0 && p.clockRate == v);
    EXPECT_EQ_I(cuDeviceGetProperties(&p, 1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT_EQ_I(cuDeviceGetProperties(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    /* one name-based UUID, the same from both entry points and every call */
    CUuuid a, b;
    memset(&b, 0, sizeof b);
    EXPECT_EQ_I(cuDeviceGetUuid_v2(&a, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuDeviceGetUuid(&b, 0), CUDA_SUCCESS);
    EXPECT(!memcmp(a.bytes, b.bytes, 16));
    EXPECT_EQ_I((a.bytes[6] & 0xf0), 0x50);
    EXPECT_EQ_I((a.bytes[8] & 0xc0), 0x80);
    EXPECT_EQ_I(cuDeviceGetUuid_v2(&a, 3), CUDA_ERROR_INVALID_DEVICE);
    int can = -1;
    EXPECT_EQ_I(cuDeviceCanAccessPeer(&can, 0, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(can, 0);
    EXPECT_EQ_I(cuDeviceCanAccessPeer(&can, 0, 1), CUDA_ERROR_INVALID_DEVICE);
    const char *name = NULL;
    EXPECT_EQ_I(cuGetErrorName(CUDA_ERROR_NOT_SUPPORTED, &name), CUDA_SUCCESS);
    EXPECT_STR(name, "CUDA_ERROR_NOT_SUPPORTED");
}

/* Another host thread: no context until it pushes one, then allocations work there. */
static void *ctx_thread(void *arg)
{
    CUcontext ctx = arg, cur = ctx;
    CUdeviceptr d = 0;
    int *ok = xcalloc(1, sizeof *ok);
    *ok = cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL && cuMemAlloc(&d, 64) == CUDA_ERROR_INVALID_CONTEXT &&
          cuCtxPopCurrent(&cur) == CUDA_ERROR_INVALID_CONTEXT && cuCtxPushCurrent(ctx) == CUDA_SUCCESS &&
          cuMemAlloc(&d, 64) == CUDA_SUCCESS && cuMemFree(d) == CUDA_SUCCESS &&
          cuCtxPopCurrent(&cur) == CUDA_SUCCESS && cur == ctx && cuCtxGetCurrent(&cur) == CUDA_SUCCESS && !cur;
    return ok;
}

TEST(cuda_driver_context_stack_per_thread)
{
    ASSERT(drv_module());
    CUcontext ctx = NULL, got = NULL;
    ASSERT(cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && ctx);
    CUdevice dev = -1;
    EXPECT_EQ_I(cuCtxGetDevice(&dev), CUDA_SUCCESS);
    EXPECT_EQ_I(dev, 0);
    unsigned ver = 0, flags = 99;
    EXPECT_EQ_I(cuCtxGetApiVersion(ctx, &ver), CUDA_SUCCESS);
    EXPECT_EQ_U(ver, 3020);
    EXPECT_EQ_I(cuCtxGetFlags(&flags), CUDA_SUCCESS);
    EXPECT_EQ_U(flags, 0); /* the primary context's */
    /* push twice, pop twice: still current; a third pop empties this thread's stack */
    EXPECT_EQ_I(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxPopCurrent(&got), CUDA_SUCCESS);
    EXPECT(got == ctx);
    EXPECT_EQ_I(cuCtxGetCurrent(&got), CUDA_SUCCESS);
    EXPECT(got == ctx);
    EXPECT_EQ_I(cuCtxPopCurrent(NULL), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxGetCurrent(&got), CUDA_SUCCESS);
    EXPECT(got == NULL);
    EXPECT_EQ_I(cuCtxGetDevice(&dev), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ_I(cuCtxGetApiVersion(NULL, &ver), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ_I(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ_I(cuCtxPushCurrent((CUcontext)&ver), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ_I(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    /* another thread sees none, pushes it, works, pops it */
    pthread_t t;
    ASSERT(pthread_create(&t, NULL, ctx_thread, ctx) == 0);
    void *res = NULL;
    pthread_join(t, &res);
    EXPECT(res && *(int *)res);
    free(res);
    EXPECT_EQ_I(cuCtxGetCurrent(&got), CUDA_SUCCESS); /* this thread's stack is its own */
    EXPECT(got == ctx);
    /* cuCtxCreate pushes; destroying pops it */
    CUcontext c2 = NULL;
    CUctxCreateParams params = {0};
    EXPECT_EQ_I(cuCtxCreate(&c2, &params, CU_CTX_MAP_HOST, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(cuCtxGetFlags(&flags), CUDA_SUCCESS);
    EXPECT_EQ_U(flags, CU_CTX_MAP_HOST);
    EXPECT_EQ_I(cuCtxCreate(&c2, &params, 0x100, 0), CUDA_ERROR_INVALID_VALUE);
}

/* MaxPotentialBlockSize on gtx480 (1536 threads, 8 CTAs, 48 KiB of shared memory per SM, 30
 * SMs) for saxpy at ptxas's 10 registers, so that neither registers nor shared memory limit
 * it unless asked: the largest whole-warp size whose blocks fill an SM is 768. */
static size_t smem_64_per_thread(int block) { return (size_t)block * 64; }

TEST(cuda_driver_occupancy)
{
    ASSERT(drv_module());
    CUmodule mod;
    ASSERT(cuModuleLoad(&mod, "tests/ptx/driver_api.ptx") == CUDA_SUCCESS);
    CUfunction f;
    ASSERT(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
    int n = -1, grid = -1, block = -1;
    EXPECT_EQ_I(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 256, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(n, 6); /* 1536 threads / 256 */
    EXPECT_EQ_I(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 32, 0, CU_OCCUPANCY_DEFAULT),
                CUDA_SUCCESS);
    EXPECT_EQ_I(n, 8); /* the CTA slots */
    EXPECT_EQ_I(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 20000), CUDA_SUCCESS);
    EXPECT_EQ_I(n, 2); /* 49152 / 20000 bytes of shared memory */
    EXPECT_EQ_I(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 0, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 32, 0, 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(block, 768);
    EXPECT_EQ_I(grid, 60); /* 2 blocks x 30 SMs */
    /* 64 bytes per thread: one 768-thread block fills the shared memory, and so does any
     * smaller block that still fits; 768 comes first */
    EXPECT_EQ_I(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, smem_64_per_thread, 0, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(block, 768);
    EXPECT_EQ_I(grid, 30);
    /* a limit that is no whole number of warps is tried first, as is */
    EXPECT_EQ_I(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, NULL, 0, 100, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(block, 100);
    EXPECT_EQ_I(grid, 240);
    EXPECT_EQ_I(cuOccupancyMaxPotentialBlockSize(NULL, &block, f, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ_I(cuOccupancyMaxPotentialBlockSize(&grid, &block, NULL, NULL, 0, 0), CUDA_ERROR_INVALID_HANDLE);
    cuModuleUnload(mod);
}

/* saxpy of the module or image given: y = 2x + y over 100 elements; the mismatches. */
static int run_saxpy(CUmodule mod, const char *kernel, bool n_first)
{
    CUfunction f;
    if (cuModuleGetFunction(&f, mod, kernel) != CUDA_SUCCESS)
        return -1;
    float x[100], y[100];
    for (int i = 0; i < 100; i++)
        x[i] = (float)i, y[i] = 1;
    CUdeviceptr dx, dy;
    cuMemAlloc(&dx, sizeof x);
    cuMemAlloc(&dy, sizeof y);
    cuMemcpyHtoD(dx, x, sizeof x);
    cuMemcpyHtoD(dy, y, sizeof y);
    float a = 2;
    int n = 100;
    void *p1[] = {&a, &dx, &dy, &n}, *p2[] = {&n, &a, &dx, &dy};
    int bad = cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, NULL, n_first ? p2 : p1, NULL) != CUDA_SUCCESS ? 100 : 0;
    cuMemcpyDtoH(y, dy, sizeof y);
    for (int i = 0; i < 100; i++)
        bad += y[i] != 2.0f * (float)i + 1;
    cuMemFree(dx);
    cuMemFree(dy);
    return bad;
}

TEST(cuda_driver_fatbin_modules)
{
    ASSERT(drv_module());
    size_t len = 0;
    char *fb = read_file("tests/fatbin/kernel.default.fatbin", &len);
    ASSERT(fb && len > 1000);
    CUmodule mod;
    ASSERT(cuModuleLoadData(&mod, fb) == CUDA_SUCCESS);
    memset(fb, 0, len); /* the module keeps its own copy */
    CUfunction f;
    int regs = 0;
    ASSERT(cuModuleGetFunction(&f, mod, "_Z4mat4iPK6float4S1_PS_") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_SUCCESS);
    EXPECT_EQ_I(regs, 28); /* ptxas's, from the sm_75 cubin (tests/fatbin/kernel.ptxinfo) */
    ASSERT(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
    EXPECT_EQ_I(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_SUCCESS);
    EXPECT_EQ_I(regs, 10);
    EXPECT_EQ_I(run_saxpy(mod, "saxpy", true), 0);
    EXPECT_EQ_I(cuModuleUnload(mod), CUDA_SUCCESS);
    free(fb);
    /* nvcc's wrapper of one, as __cudaRegisterFatBinary gets it, and a file */
    fb = read_file("tests/fatbin/kernel.lz4.fatbin", &len);
    ASSERT(fb);
    struct {
        unsigned magic, version;
        const void *data, *unused;
    } wrapper = {0x466243B1u, 1, fb, NULL};
    ASSERT(cuModuleLoadFatBinary(&mod, &wrapper) == CUDA_SUCCESS);
    EXPECT_EQ_I(run_saxpy(mod, "saxpy", true), 0);
    cuModuleUnload(mod);
    ASSERT(cuModuleLoad(&mod, "tests/fatbin/kernel.none.fatbin") == CUDA_SUCCESS);
    EXPECT_EQ_I(run_saxpy(mod, "saxpy", true), 0);
    cuModuleUnload(mod);
    /* a file cut short: refused, not read past its end; no PTX in it: said so */
    char path[600];
    snprintf(path, sizeof path, "%s/cut.fatbin", test_tmpdir());
    FILE *out = fopen(path, "wb");
    ASSERT(out && fwrite(fb, 1, len / 2, out) == len / 2);
    fclose(out);
    EXPECT_EQ_I(cuModuleLoad(&mod, path), CUDA_ERROR_INVALID_IMAGE);
    Fatbin parsed;
    char err[256];
    ASSERT(fatbin_parse(fb, len, &parsed, err, sizeof err));
    for (uint32_t i = 0; i < parsed.n_entries; i++) /* every entry a cubin (u16 kind): nothing to run */
        if (parsed.entries[i].kind == FATBIN_KIND_PTX)
            fb[parsed.entries[i].offset] = FATBIN_KIND_ELF;
    fatbin_free(&parsed);
    EXPECT_EQ_I(cuModuleLoadData(&mod, fb), CUDA_ERROR_NO_BINARY_FOR_GPU);
    free(fb);
}

TEST(cuda_driver_link_one_ptx_input)
{
    CUmodule base = drv_module();
    ASSERT(base);
    char *ptx = read_file("tests/ptx/driver_api.ptx", NULL);
    ASSERT(ptx);
    char info[64], error[256];
    memset(info, 'x', sizeof info);
    memset(error, 'x', sizeof error);
    float wall = -1;
    CUjit_option opts[] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    void *vals[] = {&wall, info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error,
                    (void *)1};
    CUlinkState link;
    ASSERT(cuLinkCreate(6, opts, vals, &link) == CUDA_SUCCESS);
    EXPECT_EQ_I(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1, "driver_api.ptx", 0, NULL, NULL),
                CUDA_SUCCESS);
    void *image = NULL;
    size_t size = 0;
    EXPECT_EQ_I(cuLinkComplete(link, &image, &size), CUDA_SUCCESS);
    EXPECT_EQ_U(size, strlen(ptx) + 1); /* the linked image is the PTX itself */
    EXPECT(image && !strcmp(image, ptx));
    EXPECT_STR(info, "");
    EXPECT_STR(error, "");
    EXPECT(vals[2] == NULL); /* the bytes written to each log */
    memcpy(&wall, &vals[0], sizeof wall);
    EXPECT_NEAR(wall, 0, 0);
    CUmodule mod;
    ASSERT(cuModuleLoadData(&mod, image) == CUDA_SUCCESS);
    EXPECT_EQ_I(run_saxpy(mod, "saxpy", false), 0);
    cuModuleUnload(mod);
    /* a second input, and one that is not PTX: refused, saying why in the error log */
    vals[4] = (void *)(uintptr_t)sizeof error;
    EXPECT_EQ_I(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "tests/ptx/driver_api.ptx", 0, NULL, NULL),
                CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_CONTAINS(error, "linking separate PTX modules is not provided");
    EXPECT_EQ_I(cuLinkComplete(link, &image, &size), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ_I(cuLinkDestroy(link), CUDA_SUCCESS);
    EXPECT_EQ_I(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);
    ASSERT(cuLinkCreate(0, NULL, NULL, &link) == CUDA_SUCCESS);
    EXPECT_EQ_I(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, ptx, 16, "k.cubin", 0, NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ_I(cuLinkAddData(link, (CUjitInputType)42, ptx, 16, NULL, 0, NULL, NULL),
                CUDA_ERROR_INVALID_VALUE);
    cuLinkDestroy(link);
    /* a bad PTX input fails when added, with the parser's message in the error log; a file */
    ASSERT(cuLinkCreate(2, opts + 3, vals + 3, &link) == CUDA_SUCCESS);
    vals[4] = (void *)(uintptr_t)sizeof error;
    static char bad[] = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tfrob.u32 %r1;\n}\n";
    EXPECT_EQ_I(cuLinkAddData(link, CU_JIT_INPUT_PTX, bad, sizeof bad, "bad.ptx", 0, NULL, NULL),
                CUDA_ERROR_INVALID_PTX);
    EXPECT_CONTAINS(error, "bad.ptx:6");
    cuLinkDestroy(link);
    ASSERT(cuLinkCreate(0, NULL, NULL, &link) == CUDA_SUCCESS);
    EXPECT_EQ_I(cuLinkComplete(link, &image, &size), CUDA_ERROR_INVALID_VALUE); /* nothing added */
    EXPECT_EQ_I(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "tests/ptx/driver_api.ptx", 0, NULL, NULL), CUDA_SUCCESS);
    EXPECT_EQ_I(cuLinkComplete(link, &image, &size), CUDA_SUCCESS);
    EXPECT(!strcmp(image, ptx));
    cuLinkDestroy(link);
    EXPECT_EQ_I(cuLinkCreate(1, NULL, NULL, &link), CUDA_ERROR_INVALID_VALUE);
    free(ptx);
}
