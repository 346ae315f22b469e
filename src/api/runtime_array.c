/* runtime_array.c: CUDA arrays of warpsim's libcudart replacement (see runtime.c).
 *
 * An array is one device allocation (cudaMalloc's, so the simulator's access checks and
 * cudaMemGetInfo see it) holding its elements in the layout of warpsim_array_layout, its shape
 * checked as the driver's arrays are (api_array.c says how). The cudaArray_t handle is a host
 * structure the library keeps a list of, so a stale or foreign handle is refused. Copies in and
 * out are in runtime_copy3d.c, texture and surface objects over arrays in runtime_texture.c. */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stdlib.h>

static RtArray *rt_arrays; /* live arrays */

bool rt_channels(const struct cudaChannelFormatDesc *c, uint32_t *channels, uint32_t *bits, WarpsimTexFormat *format,
                 const char *call)
{
    int b[4] = {c->x, c->y, c->z, c->w}, n = 0;
    while (n < 4 && b[n] != 0)
        n++;
    bool ok = n > 0 && (b[0] == 8 || b[0] == 16 || b[0] == 32) && c->f >= 0 && c->f <= cudaChannelFormatKindFloat &&
              !(c->f == cudaChannelFormatKindFloat && b[0] == 8);
    for (int i = 0; i < 4; i++)
        ok &= i < n ? b[i] == b[0] : b[i] == 0;
    if (!ok) {
        rt_fail(cudaErrorInvalidChannelDescriptor, call, "channels of %d, %d, %d, %d bits, kind %d: warpsim takes 1 "
                "to 4 channels of equal width, 8, 16 or 32-bit integers or 16 or 32-bit floats", c->x, c->y, c->z,
                c->w, c->f);
        return false;
    }
    *channels = (uint32_t)n;
    *bits = (uint32_t)b[0];
    *format = c->f == cudaChannelFormatKindFloat ? WARPSIM_TEX_FLOAT
              : c->f == cudaChannelFormatKindSigned ? WARPSIM_TEX_SIGNED : WARPSIM_TEX_UNSIGNED;
    return true;
}

RtArray *rt_array_of(const void *handle)
{
    for (RtArray *a = rt_arrays; a; a = a->next)
        if (a == handle)
            return a;
    return NULL;
}

/* The array of extent e (CUDA's conventions: height 0 a 1D array, depth 0 no third dimension;
 * a layered array's depth is its layers, a cube map's six faces, times its layers). */
static cudaError_t array_alloc(const char *call, RtArray **out, const struct cudaChannelFormatDesc *desc,
                               struct cudaExtent e, unsigned flags)
{
    ENTER(call);
    if (!out || !desc)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    *out = NULL;
    uint32_t channels, bits;
    WarpsimTexFormat format;
    if (!rt_channels(desc, &channels, &bits, &format, call))
        return rt_last;
    ApiArray shape;
    char msg[512];
    ApiErr ae = api_array_init(&shape, channels, bits / 8, format, e.width, e.height, e.depth, flags, msg, sizeof msg);
    if (ae != API_OK)
        return rt_api_fail(ae, call, msg);
    void *p;
    cudaError_t err = rt_dev_alloc(call, &p, shape.layout.bytes);
    if (err != cudaSuccess)
        return err;
    RtArray *a = xcalloc(1, sizeof *a);
    a->desc = *desc;
    a->a = shape;
    a->a.base = (uint64_t)(uintptr_t)p;
    a->next = rt_arrays;
    rt_arrays = a;
    *out = a;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(RtArray **array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned flags)
{
    if (flags & (cudaArrayLayered | cudaArrayCubemap))
        return rt_fail(cudaErrorInvalidValue, "cudaMallocArray", "flags 0x%x: layered arrays and cube maps are "
                       "made by cudaMalloc3DArray", flags);
    return array_alloc("cudaMallocArray", array, desc, (struct cudaExtent){width, height, 0}, flags);
}

cudaError_t cudaMalloc3DArray(RtArray **array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned flags)
{
    return array_alloc("cudaMalloc3DArray", array, desc, extent, flags);
}

cudaError_t cudaFreeArray(RtArray *array)
{
    static const char call[] = "cudaFreeArray";
    ENTER(call);
    if (!array)
        return cudaSuccess;
    for (RtArray **p = &rt_arrays; *p; p = &(*p)->next)
        if (*p == array) {
            *p = array->next;
            cudaError_t e = rt_dev_free(call, (void *)(uintptr_t)array->a.base);
            free(array);
            return e;
        }
    return rt_fail(cudaErrorInvalidResourceHandle, call, "%p is not an array", (void *)array);
}

void rt_array_reset(void)
{
    while (rt_arrays) {
        RtArray *a = rt_arrays;
        rt_arrays = a->next;
        free(a);
    }
}

static cudaError_t array_query(const char *call, const void *array, RtArray **out)
{
    *out = rt_array_of(array);
    return *out ? cudaSuccess : rt_fail(cudaErrorInvalidResourceHandle, call, "%p is not an array", array);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned *flags,
                             RtArray *array)
{
    API_LOCKED;
    RtArray *a;
    cudaError_t e = array_query("cudaArrayGetInfo", array, &a);
    if (e != cudaSuccess)
        return e;
    if (desc)
        *desc = a->desc;
    if (extent)
        *extent = (struct cudaExtent){a->a.width, a->a.height, a->a.depth};
    if (flags)
        *flags = a->a.flags;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, const RtArray *array)
{
    API_LOCKED;
    RtArray *a;
    cudaError_t e = array_query("cudaGetChannelDesc", array, &a);
    if (e != cudaSuccess)
        return e;
    if (!desc)
        return rt_fail(cudaErrorInvalidValue, "cudaGetChannelDesc", "null pointer");
    *desc = a->desc;
    return cudaSuccess;
}
