/* driver.c: warpsim's replacement for the CUDA driver library (libcuda.so.1): its state, the
 * simulator behind it, errors, versions and the entry points it does not serve.
 *
 * Host programs written against the driver API (cuda.h) run unmodified on the simulated GPU:
 * every call maps onto the embedding API (warpsim.h). There is one device and one context;
 * streams and events exist but everything is synchronous, so an event's time is the simulated
 * time at which it was recorded. The simulator is configured from WARPSIM_ARGS when cuInit runs
 * (or the runtime's first call: a program using both APIs sees one device, api_lock.c) and
 * writes its results when the program exits; a bad configuration makes cuInit print why,
 * once, and fail with CUDA_ERROR_INVALID_VALUE from then on. Errors print a message naming the
 * call and return the CUresult a real driver would. A kernel fault (an illegal or misaligned
 * address, a failed assert, trap) is sticky, as on a GPU: every later call that needs the
 * context returns it until the context is destroyed. Host threads may share the device: one
 * (recursive) lock serialises the entry points. A program linked with the static CUDA runtime
 * (nvcc's default) enters through cuGetProcAddress, which warpsim does not provide: it gets a
 * one-line hint to rebuild with -cudart shared.
 *
 * The library's files, one concept each (driver_internal.h is what they share):
 *   driver.c             state, the simulator, errors, versions, cuGetProcAddress
 *   driver_device.c      device queries
 *   driver_context.c     the context and each thread's stack of current contexts
 *   driver_module.c      modules from PTX text or fat binaries, functions, globals
 *   driver_link.c        cuLink*: the "linking" of one PTX input
 *   driver_launch.c      launches and occupancy
 *   driver_memory.c      allocations, pinned host memory, copies, memsets, pointer queries
 *   driver_array.c       CUDA arrays and cuMemcpy2D
 *   driver_texture.c     texture and surface objects
 *   driver_vmm.c         virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap)
 *   driver_stream.c      streams and events
 *   driver_unsupported.c every other export of NVIDIA's libcuda.so.1: CUDA_ERROR_NOT_SUPPORTED */
#include "api/driver_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Exported but not declared by cuda.h: the entry point of the static runtime and the
 * private-table query. */
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags);
CUresult cuGetExportTable(const void **ppExportTable, const void *pExportTableId);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags,
                             int *symbolStatus);

CUresult drv_sticky;

CUresult drv_result(WarpsimStatus st)
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

CUresult drv_sticky_fail(void)
{
    warpsim_fault_returned(drv_sim);
    return drv_sticky;
}

CUresult drv_fail(CUresult r, const char *call, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "warpsim: %s: %s\n", call, msg);
    return r;
}

CUresult drv_api_fail(ApiErr e, const char *call, const char *msg)
{
    CUresult r = e == API_E_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED
                 : e == API_E_MEMORY    ? CUDA_ERROR_OUT_OF_MEMORY
                                        : CUDA_ERROR_INVALID_VALUE;
    return drv_fail(r, call, "%s", msg);
}

/* The codes this library returns: their names (cuGetErrorName) and messages (cuGetErrorString). */
#define DRV_ERR(code, msg) {code, #code, msg}
static const struct {
    CUresult r;
    const char *name, *msg;
} drv_errors[] = {
    DRV_ERR(CUDA_SUCCESS, "no error"),
    DRV_ERR(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
    DRV_ERR(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
    DRV_ERR(CUDA_ERROR_NOT_INITIALIZED, "initialization error (cuInit has not run)"),
    DRV_ERR(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
    DRV_ERR(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
    DRV_ERR(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
    DRV_ERR(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"),
    DRV_ERR(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
    DRV_ERR(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for execution on the device"),
    DRV_ERR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access is not supported between these two devices"),
    DRV_ERR(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed"),
    DRV_ERR(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid"),
    DRV_ERR(CUDA_ERROR_FILE_NOT_FOUND, "file not found"),
    DRV_ERR(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
    DRV_ERR(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
    DRV_ERR(CUDA_ERROR_NOT_READY, "device not ready"),
    DRV_ERR(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
    DRV_ERR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch"),
    DRV_ERR(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated"),
    DRV_ERR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled"),
    DRV_ERR(CUDA_ERROR_ASSERT, "device-side assert triggered"),
    DRV_ERR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "part or all of the requested memory range is already mapped"),
    DRV_ERR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "pointer does not correspond to a registered memory region"),
    DRV_ERR(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"),
    DRV_ERR(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure"),
    DRV_ERR(CUDA_ERROR_NOT_PERMITTED, "operation not permitted"),
    DRV_ERR(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
    DRV_ERR(CUDA_ERROR_UNKNOWN, "unknown error"),
};
#undef DRV_ERR

static CUresult error_text(CUresult error, bool name, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof drv_errors / sizeof drv_errors[0]; i++)
        if (drv_errors[i].r == error) {
            *pStr = name ? drv_errors[i].name : drv_errors[i].msg;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    return error_text(error, false, pStr);
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    return error_text(error, true, pStr);
}

CUresult cuInit(unsigned int flags)
{
    API_LOCKED;
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_sim)
        return CUDA_SUCCESS;
    /* The simulator is the process's (api_lock.c): the runtime may have made it already. */
    static bool said; /* a bad WARPSIM_ARGS is said once; a retry would only say it again */
    char err[1024];
    if (!api_sim_open(err, sizeof err)) {
        if (!said && !api_sim_closed())
            fprintf(stderr, "warpsim: WARPSIM_ARGS: %s\n", err);
        said = true;
        return api_sim_closed() ? CUDA_ERROR_DEINITIALIZED : CUDA_ERROR_INVALID_VALUE;
    }
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

