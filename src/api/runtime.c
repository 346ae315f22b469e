/* runtime.c: warpsim's replacement for the CUDA runtime library (libcudart.so.13): its state,
 * the simulator behind it, and the error rules every entry point follows.
 *
 * Programs built by nvcc 13 with -cudart shared run unmodified on the simulated GPU. nvcc's
 * generated constructors register each object's fat binary, kernels and variables
 * (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar; see docs/fatbin.md); a
 * kernel is known by the address of its host stub, a variable by that of its host shadow. A
 * fat binary is only parsed at registration: its PTX (the highest-arch entry) is loaded into the
 * simulator, with the register counts ptxas chose read from its cubin, the first time one of
 * its kernels or variables is used. A fat binary nobody uses costs nothing, and a corrupt one
 * fails exactly the calls that need it, with cudaErrorInvalidKernelImage.
 *
 * One device, synchronous: every launch and copy completes before the call returns, streams
 * are accepted and ignored (except that a captured stream records its work into a graph), and
 * an event holds the simulated time at which it was recorded.
 * Errors follow the runtime's rules: a failing call prints a message on stderr, returns its
 * cudaError_t and records it as the last error (cudaGetLastError reads and clears it); a kernel
 * that faults leaves a sticky error that every later call returns until cudaDeviceReset. The
 * simulator is configured from WARPSIM_ARGS on first use and writes its results at exit; after
 * that, calls (from destructors) return cudaErrorCudartUnloading. A bad configuration fails
 * that first call with cudaErrorInitializationError, saying why, and every later call that
 * needs the device with the same error, silently. Host threads may share the device: one lock
 * serialises the entry points (each launch runs to completion under it), while the last error
 * and the <<<...>>> configurations are per thread, as in CUDA. The types mirror the layouts of CUDA 13's headers (driver_types.h, texture_types.h),
 * checked by static assertions beside them.
 *
 * The library's files, one concept each (runtime_internal.h is what they share):
 *   runtime.c           state, the simulator, errors (cudaGetLastError, cudaPeekAtLastError)
 *   runtime_module.c    fat-binary registration, loading its PTX on first use, kernel lookup
 *   runtime_launch.c    <<<...>>> configurations, launches, function attributes
 *   runtime_memory.c    allocations, copies, memset, __device__ / __constant__ variables
 *   runtime_device.c    device properties and attributes, synchronisation, reset, versions
 *   runtime_stream.c    streams and events
 *   runtime_texture.c   texture objects over linear memory
 *   runtime_managed.c   managed memory (cudaMallocManaged and its hints)
 *   runtime_graph.c     graphs and stream capture
 *   runtime_errors.c    the names and messages of the error codes */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

_Thread_local cudaError_t rt_last;
cudaError_t rt_sticky;

cudaError_t rt_fail(cudaError_t e, const char *call, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "warpsim: %s: %s (%s)\n", call, msg, cudaGetErrorName(e));
    rt_last = e;
    return e;
}

cudaError_t rt_api_fail(ApiErr e, const char *call, const char *msg)
{
    cudaError_t code = e == API_E_UNSUPPORTED ? cudaErrorNotSupported
                       : e == API_E_MEMORY    ? cudaErrorMemoryAllocation
                                              : cudaErrorInvalidValue;
    return rt_fail(code, call, "%s", msg);
}

cudaError_t rt_quiet_fail(cudaError_t e)
{
    rt_last = e;
    return e;
}

cudaError_t rt_sticky_fail(void)
{
    warpsim_fault_returned(rt_sim);
    return rt_quiet_fail(rt_sticky);
}

/* CUDA's runtime works in the device's primary context, which it makes current in each host
 * thread that calls it unless one is: a program that goes on with driver calls in that thread
 * (cuCtxGetDevice, cuLinkCreate, as cuda-samples' cudaCompressibleMemory and ptxjit do) finds
 * it there. The driver is warpsim's libcuda.so.1 when the program links it; found through the
 * dynamic linker, since this library does not depend on it. */
static void rt_driver_context(void)
{
    static _Thread_local bool done;
    if (done)
        return;
    done = true;
    int (*get)(void **), (*retain)(void **, int), (*set)(void *); /* CUresult: 0 is success */
    *(void **)&get = dlsym(RTLD_DEFAULT, "cuCtxGetCurrent");
    *(void **)&retain = dlsym(RTLD_DEFAULT, "cuDevicePrimaryCtxRetain");
    *(void **)&set = dlsym(RTLD_DEFAULT, "cuCtxSetCurrent");
    void *ctx = NULL;
    if (get && retain && set && get(&ctx) == 0 && !ctx && retain(&ctx, 0) == 0)
        set(ctx);
}

/* The simulator is the process's (api_lock.c), shared with libcuda.so.1's driver API. */
/* A kernel's cudaGetErrorString (the device runtime) gives the runtime's text. */
static const char *describe_error(int code)
{
    return cudaGetErrorString((cudaError_t)code);
}

cudaError_t rt_init(const char *call)
{
    API_LOCKED;
    if (api_sim()) {
        rt_driver_context();
        warpsim_set_error_describer(rt_sim, describe_error);
        return cudaSuccess;
    }
    if (api_sim_closed())
        return rt_quiet_fail(cudaErrorCudartUnloading);
    static bool said; /* a bad WARPSIM_ARGS is said once, not tried again */
    char err[1024];
    if (!api_sim_open(err, sizeof err)) {
        if (said)
            return rt_quiet_fail(cudaErrorInitializationError);
        said = true;
        return rt_fail(cudaErrorInitializationError, call, "WARPSIM_ARGS: %s", err);
    }
    rt_driver_context();
    warpsim_set_error_describer(rt_sim, describe_error);
    return cudaSuccess;
}

cudaError_t rt_status(WarpsimStatus st)
{
    switch (st) {
    case WARPSIM_OK: return cudaSuccess;
    case WARPSIM_E_INPUT: return rt_quiet_fail(cudaErrorInvalidValue);
    case WARPSIM_E_PTX: return rt_quiet_fail(cudaErrorInvalidPtx);
    case WARPSIM_E_NOT_FOUND: return rt_quiet_fail(cudaErrorSymbolNotFound);
    case WARPSIM_E_LAUNCH: return rt_quiet_fail(cudaErrorLaunchOutOfResources);
    case WARPSIM_E_MEMORY: return rt_quiet_fail(cudaErrorMemoryAllocation);
    case WARPSIM_E_UNSUPPORTED: return rt_quiet_fail(cudaErrorNotSupported);
    case WARPSIM_E_FAULT:
    case WARPSIM_E_DEADLOCK: return rt_quiet_fail(rt_sticky = cudaErrorLaunchFailure);
    case WARPSIM_E_CYCLE_LIMIT: return rt_quiet_fail(rt_sticky = cudaErrorLaunchTimeout);
    case WARPSIM_E_ILLEGAL_ADDRESS: return rt_quiet_fail(rt_sticky = cudaErrorIllegalAddress);
    case WARPSIM_E_MISALIGNED: return rt_quiet_fail(rt_sticky = cudaErrorMisalignedAddress);
    case WARPSIM_E_ASSERT: return rt_quiet_fail(rt_sticky = cudaErrorAssert);
    }
    return rt_quiet_fail(cudaErrorUnknown);
}

/* ---- errors ---- */

cudaError_t cudaGetLastError(void)
{
    API_LOCKED;
    api_flush();
    cudaError_t e = rt_sticky != cudaSuccess ? rt_sticky_fail() : rt_last;
    rt_last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    API_LOCKED;
    api_flush();
    return rt_sticky != cudaSuccess ? rt_sticky_fail() : rt_last;
}
