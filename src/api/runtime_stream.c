/* runtime_stream.c: streams and events of warpsim's libcudart replacement (see runtime.c).
 *
 * The simulated device is synchronous: every launch and copy has completed when its call
 * returns, so streams are accepted and ignored, and synchronising with one, or with an event,
 * has nothing to wait for. An event holds the simulated time at which it was recorded, and
 * the time between two events is simulated time (kernels take it; copies take none). */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>

enum { cudaEventDisableTiming = 2 };

/* ---- streams ---- */

enum { cudaStreamNonBlocking = 1 };

static cudaError_t stream_create(const char *call, cudaStream_t *pStream, unsigned flags, int priority)
{
    API_LOCKED;
    static unsigned long long next_id = 1; /* 0: the legacy default stream */
    if (!pStream)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (flags & ~(unsigned)cudaStreamNonBlocking)
        return rt_fail(cudaErrorInvalidValue, call, "flags 0x%x: only cudaStreamNonBlocking (1) is defined", flags);
    *pStream = xcalloc(1, sizeof **pStream);
    **pStream = (struct CUstream_st){.flags = flags, .priority = priority, .id = next_id++};
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return stream_create("cudaStreamCreate", pStream, 0, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags)
{
    return stream_create("cudaStreamCreateWithFlags", pStream, flags, 0);
}

/* The device has no stream priorities (cudaDevAttrStreamPrioritiesSupported is 0, and
 * cudaDeviceGetStreamPriorityRange gives 0 to 0): as in CUDA, a priority outside the range
 * is clamped to it. */
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned flags, int priority)
{
    return stream_create("cudaStreamCreateWithPriority", pStream, flags, 0);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    ENTER("cudaDeviceGetStreamPriorityRange");
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

/* What the stream queries share: the answer has somewhere to go; NULL is the default stream. */
static cudaError_t stream_query(const char *call, const void *out)
{
    ENTER(call);
    if (!out)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    cudaError_t e = stream_query("cudaStreamGetPriority", priority);
    if (e == cudaSuccess)
        *priority = stream ? stream->priority : 0;
    return e;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags)
{
    cudaError_t e = stream_query("cudaStreamGetFlags", flags);
    if (e == cudaSuccess)
        *flags = stream ? stream->flags : 0;
    return e;
}

cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *streamId)
{
    cudaError_t e = stream_query("cudaStreamGetId", streamId);
    if (e == cudaSuccess)
        *streamId = stream ? stream->id : 0;
    return e;
}

cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device)
{
    cudaError_t e = stream_query("cudaStreamGetDevice", device);
    if (e == cudaSuccess)
        *device = 0;
    return e;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus)
{
    cudaError_t e = stream_query("cudaStreamIsCapturing", pCaptureStatus);
    if (e == cudaSuccess) /* cudaStreamCaptureStatusActive or None */
        *pCaptureStatus = rt_capturing(stream) ? 1 : 0;
    return e;
}

/* Host work in stream order: everything before it in the stream has completed when the call
 * is made, so it runs at once, outside the library's lock (CUDA forbids it to call the API,
 * but a program that does must not deadlock). A stream callback hears the stream's status:
 * the sticky error of a kernel that faulted, else success. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void *), void *userData)
{
    {
        ENTER("cudaLaunchHostFunc");
        if (!fn)
            return rt_fail(cudaErrorInvalidValue, "cudaLaunchHostFunc", "null function");
        if (rt_capturing(stream)) {
            RtOp op = {.kind = RT_OP_HOST, .fn = fn, .data = userData};
            return rt_capture_op(stream, &op, "cudaLaunchHostFunc");
        }
    }
    fn(userData);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, void (*callback)(cudaStream_t, cudaError_t, void *),
                                  void *userData, unsigned flags)
{
    cudaError_t status;
    {
        API_LOCKED;
        cudaError_t e = rt_init("cudaStreamAddCallback");
        if (e != cudaSuccess)
            return e;
        if (!callback)
            return rt_fail(cudaErrorInvalidValue, "cudaStreamAddCallback", "null callback");
        if (flags != 0)
            return rt_fail(cudaErrorInvalidValue, "cudaStreamAddCallback", "flags %u: must be 0", flags);
        api_flush();
        status = rt_sticky != cudaSuccess ? rt_sticky_fail() : cudaSuccess;
    }
    callback(stream, status, userData);
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    API_LOCKED;
    if (!stream)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy", "the default stream cannot be destroyed");
    if (rt_capturing(stream)) {
        cudaError_t e = rt_capture_leave(stream, "cudaStreamDestroy");
        if (e != cudaSuccess)
            return e;
    }
    rt_stream_attr_forget(stream);
    free(stream->deps);
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

/* In a capture, waiting on an event recorded in it joins the stream to the capture. */
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    ENTER("cudaStreamWaitEvent");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent", "null event");
    if (event->capture_id)
        return rt_capture_event_wait(stream, event, "cudaStreamWaitEvent");
    return cudaSuccess;
}

/* ---- events ---- */

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
    free(event->deps);
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    ENTER("cudaEventRecord");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "null event");
    event->capture_id = 0;
    if (rt_capturing(stream))
        rt_capture_event_record(event, stream);
    else
        event->ns = warpsim_time_ns(rt_sim);
    return cudaSuccess;
}

/* cudaEventRecordExternal (1), the one flag, matters only inside a graph capture. */
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
    if (flags & ~1u)
        return rt_fail(cudaErrorInvalidValue, "cudaEventRecordWithFlags",
                       "flags 0x%x: only cudaEventRecordExternal (1) is defined", flags);
    return cudaEventRecord(event, stream);
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

RT_PER_THREAD(cudaStreamSynchronize_ptsz, cudaStreamSynchronize);
RT_PER_THREAD(cudaStreamQuery_ptsz, cudaStreamQuery);
RT_PER_THREAD(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent);
RT_PER_THREAD(cudaEventRecord_ptsz, cudaEventRecord);
RT_PER_THREAD(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags);
RT_PER_THREAD(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc);
RT_PER_THREAD(cudaStreamAddCallback_ptsz, cudaStreamAddCallback);
RT_PER_THREAD(cudaStreamGetPriority_ptsz, cudaStreamGetPriority);
RT_PER_THREAD(cudaStreamGetFlags_ptsz, cudaStreamGetFlags);
RT_PER_THREAD(cudaStreamGetId_ptsz, cudaStreamGetId);
RT_PER_THREAD(cudaStreamGetDevice_ptsz, cudaStreamGetDevice);
RT_PER_THREAD(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing);
