/* driver_stream.c: streams and events of warpsim's libcuda replacement (see driver.c).
 *
 * The simulated GPU is synchronous: every call completes its work before it returns, so a
 * stream is a name for nothing to wait on (one object serves every cuStreamCreate), a query
 * finds it idle, and an event holds the simulated time at which it was recorded. */
#include "api/driver_internal.h"

#include "base/base.h"

#include <stdlib.h>

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

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    return cuStreamCreate(phStream, flags);
}

CUresult cuStreamQuery(CUstream hStream)
{
    NEED_CTX();
    return CUDA_SUCCESS; /* its work is done */
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    NEED_CTX();
    return hEvent ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventQuery(CUevent hEvent)
{
    NEED_CTX();
    return hEvent ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

DRV_ALIAS(cuStreamSynchronize_ptsz, cuStreamSynchronize);
DRV_ALIAS(cuStreamQuery_ptsz, cuStreamQuery);
DRV_ALIAS(cuStreamWaitEvent_ptsz, cuStreamWaitEvent);
DRV_ALIAS(cuEventRecord_ptsz, cuEventRecord);
