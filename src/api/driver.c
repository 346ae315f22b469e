/* driver.c: warpsim's replacement for the CUDA driver library (libcuda.so.1).
 *
 * Host programs written against the driver API (cuda.h) run unmodified on the simulated GPU:
 * every call maps onto the embedding API (warpsim.h). There is one device and one context;
 * streams and events exist but everything is synchronous, so an event's time is the simulated
 * time at which it was recorded. The simulator is configured from WARPSIM_ARGS when cuInit runs
 * and writes its results when the program exits; a bad configuration makes cuInit print why,
 * once, and fail with CUDA_ERROR_INVALID_VALUE from then on. Errors print a message naming the
 * call and return the CUresult a real driver would. A kernel fault (an illegal or misaligned
 * address, a failed assert, trap) is sticky, as on a GPU: every later call that needs the
 * context returns it until the context is destroyed. Host threads may share the device: one
 * (recursive) lock serialises the entry points. A program linked with the static CUDA runtime
 * (nvcc's default) enters through cuGetProcAddress, which warpsim does not provide: it gets a
 * one-line hint to rebuild with -cudart shared. */
#include "warpsim.h"

#include "api/api_lock.h"
#include "api/device_attr.h"
#include "base/base.h"

#include <cuda/cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CUctx_st {
    int unused;
};
struct CUstream_st {
    int unused;
};
struct CUevent_st {
    double ns;
};
struct CUfunc_st {
    struct CUmod_st *mod;
    WarpsimKernelInfo info;
    struct CUfunc_st *next;
};
struct CUmod_st {
    WarpsimModule *m;
    struct CUfunc_st *funcs;
};

/* Exported but not declared by cuda.h: the CUDA 12 form of cuCtxCreate, the entry point of the
 * static runtime, and the private-table query. */
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags);
CUresult cuGetExportTable(const void **ppExportTable, const void *pExportTableId);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags,
                             int *symbolStatus);

static WarpsimSim *drv_sim;
static bool drv_init_failed; /* WARPSIM_ARGS was bad: cuInit fails for good */
static struct CUctx_st drv_ctx;
static CUcontext drv_current;
static CUresult drv_sticky;  /* a kernel fault, until the context is destroyed */

static void drv_exit(void)
{
    API_LOCKED;
    warpsim_destroy(drv_sim);
    drv_sim = NULL;
}

static CUresult drv_result(WarpsimStatus st)
{
    switch (st) {
    case WARPSIM_OK: return CUDA_SUCCESS;
    case WARPSIM_E_INPUT: return CUDA_ERROR_INVALID_VALUE;
    case WARPSIM_E_PTX: return CUDA_ERROR_INVALID_PTX;
    case WARPSIM_E_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case WARPSIM_E_LAUNCH: return CUDA_ERROR_INVALID_VALUE;
    case WARPSIM_E_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case WARPSIM_E_UNSUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    case WARPSIM_E_FAULT: return drv_sticky = CUDA_ERROR_LAUNCH_FAILED;
    case WARPSIM_E_DEADLOCK: return drv_sticky = CUDA_ERROR_LAUNCH_FAILED;
    case WARPSIM_E_CYCLE_LIMIT: return drv_sticky = CUDA_ERROR_LAUNCH_TIMEOUT;
    case WARPSIM_E_ILLEGAL_ADDRESS: return drv_sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
    case WARPSIM_E_MISALIGNED: return drv_sticky = CUDA_ERROR_MISALIGNED_ADDRESS;
    case WARPSIM_E_ASSERT: return drv_sticky = CUDA_ERROR_ASSERT;
    }
    return CUDA_ERROR_UNKNOWN;
}

/* Every entry point that needs the simulator starts here (two statements: only at the top of a
 * function body): it holds the lock until it returns. */
#define NEED_INIT()                                                                                     \
    API_LOCKED;                                                                                         \
    do {                                                                                                \
        if (!drv_sim)                                                                                   \
            return CUDA_ERROR_NOT_INITIALIZED;                                                          \
    } while (0)

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    static const struct {
        CUresult r;
        const char *s;
    } msgs[] = {
        {CUDA_SUCCESS, "no error"},
        {CUDA_ERROR_INVALID_VALUE, "invalid argument"},
        {CUDA_ERROR_OUT_OF_MEMORY, "out of memory"},
        {CUDA_ERROR_NOT_INITIALIZED, "initialization error (cuInit has not run)"},
        {CUDA_ERROR_DEINITIALIZED, "driver shutting down"},
        {CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"},
        {CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"},
        {CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"},
        {CUDA_ERROR_INVALID_CONTEXT, "invalid device context"},
        {CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed"},
        {CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid"},
        {CUDA_ERROR_FILE_NOT_FOUND, "file not found"},
        {CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"},
        {CUDA_ERROR_NOT_FOUND, "named symbol not found"},
        {CUDA_ERROR_NOT_READY, "device not ready"},
        {CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"},
        {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch"},
        {CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated"},
        {CUDA_ERROR_ASSERT, "device-side assert triggered"},
        {CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"},
        {CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure"},
        {CUDA_ERROR_NOT_SUPPORTED, "operation not supported"},
        {CUDA_ERROR_UNKNOWN, "unknown error"},
    };
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++)
        if (msgs[i].r == error) {
            *pStr = msgs[i].s;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    return cuGetErrorString(error, pStr);
}

CUresult cuInit(unsigned int flags)
{
    API_LOCKED;
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_sim)
        return CUDA_SUCCESS;
    if (drv_init_failed) /* said once; a retry would only say it again */
        return CUDA_ERROR_INVALID_VALUE;
    char err[1024];
    drv_sim = warpsim_create_from_env(err, sizeof err);
    if (!drv_sim) {
        fprintf(stderr, "warpsim: WARPSIM_ARGS: %s\n", err);
        drv_init_failed = true;
        return CUDA_ERROR_INVALID_VALUE;
    }
    atexit(drv_exit);
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

/* The static CUDA runtime (nvcc's default -cudart static) looks every driver function up
 * through here; warpsim serves only programs linked with the shared runtime, so say how to get
 * one, once, and let the static runtime fail. */
static CUresult proc_address_refused(void **pfn)
{
    static bool said;
    API_LOCKED;
    if (pfn)
        *pfn = NULL;
    if (!said)
        fprintf(stderr, "warpsim: cuGetProcAddress: not provided; the program is probably linked with the static "
                        "CUDA runtime (nvcc's default), which warpsim cannot serve: rebuild it with nvcc -cudart "
                        "shared\n");
    said = true;
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* The driver's private interfaces, which NVIDIA's own libraries ask for (libnvrtc does, after
 * cuInit): none here. Without the export, such a library calls a null pointer; with this
 * answer it goes on without them (NVRTC compiles). */
CUresult cuGetExportTable(const void **ppExportTable, const void *pExportTableId)
{
    (void)pExportTableId;
    if (ppExportTable)
        *ppExportTable = NULL;
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags)
{
    return proc_address_refused(pfn);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags,
                             int *symbolStatus)
{
    if (symbolStatus)
        *symbolStatus = 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
    return proc_address_refused(pfn);
}

CUresult cuDeviceGetCount(int *count)
{
    NEED_INIT();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    NEED_INIT();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    snprintf(name, (size_t)len, "%s", di.name);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    *bytes = (size_t)di.global_bytes;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    switch (api_device_attribute(&di, (int)attrib, pi)) { /* CUdevice_attribute numbers them as the runtime */
    case API_ATTR_OK:
        return CUDA_SUCCESS;
    case API_ATTR_UNKNOWN:
        fprintf(stderr, "warpsim: cuDeviceGetAttribute: %d is not a CUDA device attribute\n", (int)attrib);
        return CUDA_ERROR_INVALID_VALUE;
    default:
        fprintf(stderr, "warpsim: cuDeviceGetAttribute: attribute %d (%s) is not modelled\n", (int)attrib,
                api_device_attr_name((int)attrib));
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di; /* the configured machine's (gpu.compute_capability) */
    warpsim_device_info(drv_sim, &di);
    *major = (int)di.cc_major;
    *minor = (int)di.cc_minor;
    return CUDA_SUCCESS;
}

/* ---- contexts: one, shared by every creator ---- */

static CUresult ctx_make(CUcontext *pctx, CUdevice dev)
{
    NEED_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pctx = drv_current = &drv_ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_make(pctx, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
    return ctx_make(pctx, dev);
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = ctx_make(pctx, dev);
    drv_current = NULL; /* retaining does not make it current */
    return r;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    NEED_INIT();
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* Destroying the context clears a sticky fault (the allocations stay: one context is shared). */
CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    NEED_INIT();
    if (ctx != &drv_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (drv_current == ctx)
        drv_current = NULL;
    drv_sticky = CUDA_SUCCESS;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    NEED_INIT();
    if (ctx && ctx != &drv_ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    drv_current = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    NEED_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = drv_current;
    return CUDA_SUCCESS;
}

/* NEED_INIT, a current context, and no sticky fault. */
#define NEED_CTX()                                                                                      \
    NEED_INIT();                                                                                        \
    do {                                                                                                \
        if (!drv_current)                                                                               \
            return CUDA_ERROR_INVALID_CONTEXT;                                                          \
        if (drv_sticky != CUDA_SUCCESS)                                                                 \
            return drv_sticky;                                                                          \
    } while (0)

CUresult cuCtxSynchronize(void)
{
    NEED_CTX();
    return CUDA_SUCCESS;
}

/* ---- modules ---- */

static CUresult module_from_text(CUmodule *module, const char *text, const char *name)
{
    NEED_CTX();
    if (!module || !text)
        return CUDA_ERROR_INVALID_VALUE;
    if (!memcmp(text, "\177ELF", 4)) {
        fprintf(stderr, "warpsim: %s: a cubin (ELF) image; warpsim runs PTX, so load the PTX text\n", name);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    WarpsimModule *m;
    WarpsimStatus st = warpsim_module_load(drv_sim, text, name, &m);
    if (st != WARPSIM_OK)
        return drv_result(st);
    struct CUmod_st *mod = xcalloc(1, sizeof *mod);
    mod->m = m;
    *module = mod;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    NEED_CTX();
    if (!fname)
        return CUDA_ERROR_INVALID_VALUE;
    char *text = read_file(fname, NULL);
    if (!text) {
        fprintf(stderr, "warpsim: cuModuleLoad: %s: %s\n", fname, strerror(errno));
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    CUresult r = module_from_text(module, text, fname);
    free(text);
    if (r != CUDA_SUCCESS)
        return r;
    /* k.ptx -> k.ptxinfo: ptxas's report beside the PTX gives the register counts */
    char info_path[4096];
    snprintf(info_path, sizeof info_path, "%s", fname);
    size_t n = strlen(info_path);
    if (n > 4 && !strcmp(info_path + n - 4, ".ptx") && n + 4 < sizeof info_path)
        strcat(info_path, "info");
    else if (n + 8 < sizeof info_path)
        strcat(info_path, ".ptxinfo");
    char *info = read_file(info_path, NULL);
    if (info) {
        warpsim_module_add_ptxinfo((*module)->m, info);
        free(info);
    }
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return module_from_text(module, image, "module.ptx");
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    return module_from_text(module, image, "module.ptx");
}

CUresult cuModuleUnload(CUmodule hmod)
{
    NEED_INIT();
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    while (hmod->funcs) {
        struct CUfunc_st *f = hmod->funcs;
        hmod->funcs = f->next;
        free(f);
    }
    warpsim_module_unload(drv_sim, hmod->m);
    free(hmod);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    NEED_CTX();
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    for (struct CUfunc_st *f = hmod->funcs; f; f = f->next)
        if (!strcmp(f->info.name, name)) {
            *hfunc = f;
            return CUDA_SUCCESS;
        }
    struct CUfunc_st *f = xcalloc(1, sizeof *f);
    WarpsimStatus st = warpsim_kernel_info(drv_sim, hmod->m, name, &f->info);
    if (st != WARPSIM_OK) {
        free(f);
        return drv_result(st);
    }
    f->mod = hmod;
    f->next = hmod->funcs;
    hmod->funcs = f;
    *hfunc = f;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    NEED_CTX();
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t addr = 0, size = 0;
    WarpsimStatus st = warpsim_symbol(drv_sim, hmod->m, name, &addr, &size);
    if (st != WARPSIM_OK)
        return drv_result(st);
    if (dptr)
        *dptr = addr;
    if (bytes)
        *bytes = (size_t)size;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    NEED_INIT();
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)di.max_threads_per_cta; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)hfunc->info.smem_static_bytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)hfunc->info.local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)hfunc->info.regs_per_thread; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = 75; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* ---- memory ---- */

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    NEED_CTX();
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    uint64_t used = warpsim_mem_allocated(drv_sim);
    if (free_bytes)
        *free_bytes = (size_t)(di.global_bytes - MIN(di.global_bytes, used));
    if (total)
        *total = (size_t)di.global_bytes;
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    NEED_CTX();
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    uint64_t used = warpsim_mem_allocated(drv_sim);
    if (bytesize > di.global_bytes - MIN(di.global_bytes, used)) {
        fprintf(stderr, "warpsim: cuMemAlloc: %zu bytes: the device has %llu of its %llu bytes free\n", bytesize,
                (unsigned long long)(di.global_bytes - MIN(di.global_bytes, used)),
                (unsigned long long)di.global_bytes);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *dptr = warpsim_malloc(drv_sim, bytesize);
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    NEED_CTX();
    return drv_result(warpsim_free(drv_sim, dptr));
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_htod(drv_sim, dst, src, n));
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_dtoh(drv_sim, dst, src, n));
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_dtod(drv_sim, dst, src, n));
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memset(drv_sim, dst, uc, n));
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n)
{
    NEED_CTX();
    if (n && !dst)
        return CUDA_ERROR_INVALID_VALUE;
    if ((ui & 0xff) * 0x01010101u == ui)
        return drv_result(warpsim_memset(drv_sim, dst, (int)(ui & 0xff), n * 4));
    uint32_t buf[1024];
    for (size_t i = 0; i < 1024; i++)
        buf[i] = ui;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < 1024 ? n - done : 1024;
        CUresult r = drv_result(warpsim_memcpy_htod(drv_sim, dst + done * 4, buf, k * 4));
        if (r != CUDA_SUCCESS)
            return r;
        done += k;
    }
    return CUDA_SUCCESS;
}

/* ---- launches ---- */

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
                        void **extra)
{
    NEED_CTX();
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    const WarpsimKernelInfo *ki = &f->info;
    uint8_t stack_buf[512];
    uint8_t *buf = ki->param_bytes <= sizeof stack_buf ? stack_buf : xmalloc(ki->param_bytes);
    memset(buf, 0, ki->param_bytes);
    CUresult r = CUDA_SUCCESS;
    if (params) {
        for (uint32_t i = 0; i < ki->n_params; i++) {
            if (!params[i]) {
                fprintf(stderr, "warpsim: cuLaunchKernel %s: kernelParams[%u] is null\n", ki->name, i);
                r = CUDA_ERROR_INVALID_VALUE;
                break;
            }
            memcpy(buf + ki->param_offset[i], params[i], ki->param_size[i]);
        }
    } else if (extra) {
        const void *ptr = NULL;
        size_t size = 0;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                ptr = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                size = *(const size_t *)extra[i + 1];
            else
                r = CUDA_ERROR_INVALID_VALUE;
        }
        if (r == CUDA_SUCCESS && (!ptr || size != ki->param_bytes)) {
            fprintf(stderr, "warpsim: cuLaunchKernel %s: `extra` gives %zu bytes of parameters, the kernel "
                            "takes %u\n", ki->name, size, ki->param_bytes);
            r = CUDA_ERROR_INVALID_VALUE;
        }
        if (r == CUDA_SUCCESS)
            memcpy(buf, ptr, size);
    } else if (ki->n_params > 0) {
        fprintf(stderr, "warpsim: cuLaunchKernel %s: the kernel takes %u parameters and none were given\n",
                ki->name, ki->n_params);
        r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r == CUDA_SUCCESS) {
        const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
        r = drv_result(warpsim_launch(drv_sim, f->mod->m, ki->name, grid, block, smem, buf, ki->param_bytes));
    }
    if (buf != stack_buf)
        free(buf);
    return r;
}

/* ---- streams and events: the simulated GPU is synchronous ---- */

static struct CUstream_st drv_stream;

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    NEED_CTX();
    if (!phStream)
        return CUDA_ERROR_INVALID_VALUE;
    *phStream = &drv_stream;
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    NEED_INIT();
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    NEED_CTX();
    return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    NEED_CTX();
    if (!phEvent)
        return CUDA_ERROR_INVALID_VALUE;
    *phEvent = xcalloc(1, sizeof **phEvent);
    (*phEvent)->ns = -1;
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    NEED_INIT();
    if (!hEvent)
        return CUDA_ERROR_INVALID_HANDLE;
    free(hEvent);
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    NEED_CTX();
    if (!hEvent)
        return CUDA_ERROR_INVALID_HANDLE;
    hEvent->ns = warpsim_time_ns(drv_sim);
    return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    NEED_CTX();
    return hEvent ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
    NEED_CTX();
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    if (!start || !end)
        return CUDA_ERROR_INVALID_HANDLE;
    if (start->ns < 0 || end->ns < 0)
        return CUDA_ERROR_NOT_READY;
    *ms = (float)((end->ns - start->ns) / 1e6);
    return CUDA_SUCCESS;
}
