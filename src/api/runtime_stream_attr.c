/* runtime_stream_attr.c: stream attributes (cudaStreamSetAttribute, cudaStreamGetAttribute) and
 * cudaCtxResetPersistingL2Cache in warpsim's libcudart replacement.
 *
 * A stream keeps the attributes CUDA lets a stream have and reports them back. They are hints
 * to the hardware, and none changes the model: an access policy window asks for persisting L2
 * lines, which the modelled L2 does not have (runtime_device.c reports the sizes a device of
 * compute capability 8.0 or later would; below 8.0 a window must be empty, as the maximum
 * window is 0); the synchronisation policy is how a host thread waits, and the device is
 * synchronous; the memory synchronisation domains and NVLink scheduling hint have no subject
 * on one simulated device. The priority attribute is the stream's priority, clamped to the
 * device's range (0 to 0) as cudaStreamCreateWithPriority does. */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* cudaLaunchAttributeID values valid for streams (driver_types.h) */
enum { ATTR_ACCESS_POLICY_WINDOW = 1, ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8, ATTR_MEM_SYNC_DOMAIN_MAP = 9,
       ATTR_MEM_SYNC_DOMAIN = 10, ATTR_NVLINK_UTIL_CENTRIC = 16, N_ATTRS = 17 };
enum { cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2 };
enum { cudaDevAttrMaxAccessPolicyWindowSize = 109 };
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device); /* runtime_device.c */

/* cudaLaunchAttributeValue: a 64-byte union; the access policy window is its first member. */
typedef union {
    struct {
        void *base_ptr;
        size_t num_bytes;
        float hitRatio;
        int hitProp, missProp;
    } window;
    uint8_t bytes[64];
} AttrValue;
_Static_assert(sizeof(AttrValue) == 64, "cudaLaunchAttributeValue layout");

typedef struct StreamAttrs {
    cudaStream_t stream; /* a program's stream, or a default-stream handle (0, 1, 2) */
    AttrValue v[N_ATTRS];
    struct StreamAttrs *next;
} StreamAttrs;

static StreamAttrs *stream_attrs;

static StreamAttrs **find(cudaStream_t s)
{
    StreamAttrs **p = &stream_attrs;
    while (*p && (*p)->stream != s)
        p = &(*p)->next;
    return p;
}

/* CUDA's defaults: no window, cudaSyncPolicyAuto (1), priority 0, the rest 0. */
static void defaults(AttrValue *v)
{
    memset(v, 0, N_ATTRS * sizeof *v);
    v[ATTR_SYNC_POLICY].bytes[0] = 1;
}

void rt_stream_attr_forget(cudaStream_t stream)
{
    StreamAttrs **p = find(stream);
    if (*p) {
        StreamAttrs *a = *p;
        *p = a->next;
        free(a);
    }
}

static bool stream_attr(int id)
{
    return id == ATTR_ACCESS_POLICY_WINDOW || id == ATTR_SYNC_POLICY || id == ATTR_PRIORITY ||
           id == ATTR_MEM_SYNC_DOMAIN_MAP || id == ATTR_MEM_SYNC_DOMAIN || id == ATTR_NVLINK_UTIL_CENTRIC;
}

static cudaError_t check_window(const char *call, const AttrValue *v)
{
    int max_window = 0;
    cudaError_t e = cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0);
    if (e != cudaSuccess)
        return e;
    if (v->window.num_bytes > (size_t)max_window)
        return rt_fail(cudaErrorInvalidValue, call, "an access policy window of %zu bytes: the device's largest is "
                       "%d (accessPolicyMaxWindowSize; persisting L2 needs compute capability 8.0)",
                       v->window.num_bytes, max_window);
    if (!(v->window.hitRatio >= 0.0f && v->window.hitRatio <= 1.0f))
        return rt_fail(cudaErrorInvalidValue, call, "hitRatio %g: expected 0 to 1", (double)v->window.hitRatio);
    if (v->window.hitProp < cudaAccessPropertyNormal || v->window.hitProp > cudaAccessPropertyPersisting ||
        v->window.missProp < cudaAccessPropertyNormal || v->window.missProp > cudaAccessPropertyStreaming)
        return rt_fail(cudaErrorInvalidValue, call, "hitProp %d, missProp %d: expected a cudaAccessProperty (a miss "
                       "cannot persist)", v->window.hitProp, v->window.missProp);
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int id, const AttrValue *value)
{
    const char *call = "cudaStreamSetAttribute";
    ENTER(call);
    if (!value)
        return rt_fail(cudaErrorInvalidValue, call, "null value");
    if (!stream_attr(id))
        return rt_fail(cudaErrorInvalidValue, call, "attribute %d is not one a stream has", id);
    if (id == ATTR_ACCESS_POLICY_WINDOW) {
        cudaError_t e = check_window(call, value);
        if (e != cudaSuccess)
            return e;
    }
    StreamAttrs **p = find(stream);
    if (!*p) {
        *p = xcalloc(1, sizeof **p);
        (*p)->stream = stream;
        defaults((*p)->v);
    }
    (*p)->v[id] = *value;
    if (id == ATTR_PRIORITY) {
        memset(&(*p)->v[id], 0, sizeof(AttrValue)); /* clamped to the range, 0 to 0 */
        if ((uintptr_t)stream > 2)
            stream->priority = 0;
    }
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int id, AttrValue *value)
{
    const char *call = "cudaStreamGetAttribute";
    ENTER(call);
    if (!value)
        return rt_fail(cudaErrorInvalidValue, call, "null value");
    if (!stream_attr(id))
        return rt_fail(cudaErrorInvalidValue, call, "attribute %d is not one a stream has", id);
    StreamAttrs **p = find(stream);
    AttrValue d[N_ATTRS];
    defaults(d);
    *value = *p ? (*p)->v[id] : d[id];
    return cudaSuccess;
}

/* No line of the modelled L2 persists: nothing to demote. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    ENTER("cudaCtxResetPersistingL2Cache");
    return cudaSuccess;
}

RT_PER_THREAD(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute);
RT_PER_THREAD(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute);
