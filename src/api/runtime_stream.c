/* runtime_stream.c: streams and events of warpsim's libcudart replacement (see runtime.c).
 *
 * The simulated device is synchronous: every launch and copy has completed when its call
 * returns, so streams are accepted and ignored, and synchronising with one, or with an event,
 * has nothing to wait for. An event holds the simulated time at which it was recorded, and
 * the time between two events is simulated time (kernels take it; copies take none). */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct CUevent_st *cudaEvent_t;

enum { cudaEventDisableTiming = 2 };

/* ---- streams ---- */

struct CUstream_st {
    int unused;
};

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    if (!pStream)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamCreate", "null pointer");
    *pStream = xcalloc(1, sizeof **pStream);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags)
{
    return cudaStreamCreate(pStream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (!stream)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy", "the default stream cannot be destroyed");
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    ENTER("cudaStreamSynchronize");
    return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    ENTER("cudaStreamQuery");
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    ENTER("cudaStreamWaitEvent");
    return cudaSuccess;
}

/* ---- events ---- */

struct CUevent_st {
    double ns;     /* simulated time when recorded; < 0: never recorded */
    unsigned flags;
};

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    if (!event)
        return rt_fail(cudaErrorInvalidValue, "cudaEventCreate", "null pointer");
    *event = xcalloc(1, sizeof **event);
    (*event)->ns = -1;
    (*event)->flags = flags;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy", "null event");
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    ENTER("cudaEventRecord");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "null event");
    event->ns = warpsim_time_ns(rt_sim);
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    ENTER("cudaEventSynchronize");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize", "null event");
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    ENTER("cudaEventQuery");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventQuery", "null event");
    return cudaSuccess;
}

/* Milliseconds of simulated time between the two records (kernels only: copies take none). */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    ENTER("cudaEventElapsedTime");
    if (!ms)
        return rt_fail(cudaErrorInvalidValue, "cudaEventElapsedTime", "null pointer");
    if (!start || !end)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "null event");
    if ((start->flags | end->flags) & cudaEventDisableTiming)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                       "an event created with cudaEventDisableTiming");
    if (start->ns < 0 || end->ns < 0)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "an event that was never recorded");
    *ms = (float)((end->ns - start->ns) / 1e6);
    return cudaSuccess;
}
