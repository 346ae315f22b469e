/* driver_context.c: the context of warpsim's libcuda replacement (see driver.c).
 *
 * There is one context, the device's: cuCtxCreate, cuDevicePrimaryCtxRetain and their kin all
 * answer it, and destroying it only clears a sticky fault (the simulator, its allocations and
 * modules stay). Which context is current is per host thread, as in CUDA: each thread has its
 * own stack of current contexts (cuCtxCreate and cuCtxPushCurrent push, cuCtxPopCurrent pops,
 * cuCtxSetCurrent replaces the top), so a thread that never made the context current has none
 * and gets CUDA_ERROR_INVALID_CONTEXT, and threads may hand the context on (threadMigration).
 * With a single context every entry of a stack is that context, so a stack is its depth. */
#include "api/driver_internal.h"

#include <limits.h>

static struct CUctx_st drv_ctx;
static bool drv_ctx_live;        /* created or retained, and not destroyed since */
static unsigned drv_ctx_flags;   /* the flags it was created with */
static _Thread_local unsigned drv_depth; /* entries of the calling thread's context stack */

bool drv_ctx_is_current(void)
{
    return drv_depth > 0 && drv_ctx_live;
}

CUcontext drv_context(void)
{
    return &drv_ctx;
}

static CUresult ctx_make(const char *call, CUcontext *pctx, unsigned flags, CUdevice dev, bool push)
{
    NEED_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return drv_fail(CUDA_ERROR_INVALID_DEVICE, call, "device %d: the simulator has one device, 0", dev);
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "flags 0x%x: not CUDA's context flags", flags);
    if (push && drv_depth == UINT_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    if (push || !drv_ctx_live) /* retaining the live context keeps its flags */
        drv_ctx_flags = flags;
    drv_ctx_live = true;
    if (push)
        drv_depth++;
    *pctx = &drv_ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_make("cuCtxCreate", pctx, flags, dev, true);
}

/* CUDA 13's form: execution affinity and CIG (graphics interop) parameters are not modelled. */
CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
    if (params && (params->numExecAffinityParams > 0 || params->cigParams))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuCtxCreate", "execution affinity and CIG parameters are not "
                        "supported: pass them empty");
    return ctx_make("cuCtxCreate", pctx, flags, dev, true);
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    return ctx_make("cuDevicePrimaryCtxRetain", pctx, 0, dev, false); /* retaining does not make it current */
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    NEED_INIT();
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static CUresult check_ctx(CUcontext ctx)
{
    return ctx == &drv_ctx && drv_ctx_live ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* Destroying the context pops it from the calling thread's stack and clears a sticky fault. */
CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    NEED_INIT();
    if (check_ctx(ctx) != CUDA_SUCCESS)
        return drv_fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxDestroy", "%p is not a live context", (void *)ctx);
    if (drv_depth > 0)
        drv_depth--;
    drv_ctx_live = false;
    drv_sticky = CUDA_SUCCESS;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    NEED_INIT();
    if (!ctx) { /* pops, or nothing on an empty stack */
        if (drv_depth > 0)
            drv_depth--;
        return CUDA_SUCCESS;
    }
    if (check_ctx(ctx) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (drv_depth == 0)
        drv_depth = 1;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    NEED_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = drv_ctx_is_current() ? &drv_ctx : NULL;
    return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    NEED_INIT();
    if (check_ctx(ctx) != CUDA_SUCCESS)
        return drv_fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxPushCurrent", "%p is not a live context", (void *)ctx);
    if (drv_depth == UINT_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    drv_depth++;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    NEED_INIT();
    if (drv_depth == 0)
        return drv_fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxPopCurrent", "no context is current in this thread");
    drv_depth--;
    if (pctx)
        *pctx = &drv_ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    NEED_INIT();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_ctx_is_current())
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = 0;
    return CUDA_SUCCESS;
}

/* CUDA 13's form: the device of a given context (NULL: the current one). */
CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    if (!ctx)
        return cuCtxGetDevice(device);
    NEED_INIT();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (check_ctx(ctx) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    NEED_INIT();
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_ctx_is_current())
        return CUDA_ERROR_INVALID_CONTEXT;
    *flags = drv_ctx_flags;
    return CUDA_SUCCESS;
}

/* 3020: the version of the API that contexts created by the _v2 entry points (CUDA 3.2 on)
 * report, the documentation's example. NULL: the current context. */
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    NEED_INIT();
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (ctx ? check_ctx(ctx) != CUDA_SUCCESS : !drv_ctx_is_current())
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    NEED_CTX();
    return CUDA_SUCCESS;
}

/* CUDA 13's form: a given context (NULL: the current one). */
CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    if (!ctx)
        return cuCtxSynchronize();
    NEED_INIT();
    if (check_ctx(ctx) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_CONTEXT;
    return drv_sticky != CUDA_SUCCESS ? drv_sticky_fail() : CUDA_SUCCESS;
}
