/* runtime_copy3d.c: copies to, from and between CUDA arrays, 3D copies and 3D pitched memory
 * of warpsim's libcudart replacement (see runtime.c).
 *
 * Every copy is a box of rows, walked as the driver's cuMemcpy2D walks one (api_array.c): each
 * run both sides keep contiguous is one checked flat copy (rt_copy), so a box that leaves an
 * allocation fails as a flat copy would. The legacy calls that copy `count` bytes
 * (cudaMemcpyToArray, ...) run on from the end of one array row into the next. Offsets and
 * widths are bytes in the 2D calls, elements of an array in cudaMemcpy3D (CUDA's conventions).
 * The Async forms are the same calls: the device is synchronous. */
#include "api/runtime_internal.h"

#include "base/base.h"

/* Sizes and offsets as CUDA 13's headers give them (x86-64). */
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms layout");
_Static_assert(offsetof(struct cudaMemcpy3DParms, dstArray) == 64, "cudaMemcpy3DParms layout");
_Static_assert(offsetof(struct cudaMemcpy3DParms, kind) == 152, "cudaMemcpy3DParms layout");

/* cudaMalloc3D's rows start at 512-byte boundaries, as cudaMallocPitch's do. */
#define RT_ROW_ALIGN 512

typedef ApiSide Side;

static Side linear_side(const void *ptr, size_t pitch, size_t slice)
{
    return api_side_linear(ptr, pitch, slice);
}

static Side array_side(const RtArray *a, size_t x, size_t y, size_t z)
{
    return api_side_array(&a->a, x, y, z);
}

typedef struct RunCopy {
    int kind;
    const char *call;
    cudaError_t e;
} RunCopy;

/* One run of a box: a checked flat copy. */
static int run_copy(void *ctx, char *dst, const char *src, size_t n)
{
    RunCopy *c = ctx;
    c->e = rt_copy(dst, src, n, c->kind, c->call);
    return c->e != cudaSuccess;
}

/* Copy the box, run by run; kind must agree with the array sides (arrays are device memory). */
static cudaError_t copy_box(const Side *dst, const Side *src, size_t width, size_t height, size_t depth, int kind,
                            const char *call)
{
    ENTER(call);
    if ((src->a && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) ||
        (dst->a && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault))
        return rt_fail(cudaErrorInvalidMemcpyDirection, call, "copy kind %d %s an array (device memory)", kind,
                       src->a ? "from" : "into");
    if (width == 0 || height == 0 || depth == 0)
        return cudaSuccess;
    char msg[512];
    ApiErr ae;
    if ((ae = api_side_check(dst, width, height, depth, "destination", msg, sizeof msg)) != API_OK ||
        (ae = api_side_check(src, width, height, depth, "source", msg, sizeof msg)) != API_OK)
        return rt_api_fail(ae, call, msg);
    RunCopy c = {kind, call, cudaSuccess};
    api_box_copy(dst, src, width, height, depth, run_copy, &c);
    return c.e;
}

/* The legacy copies of count bytes: from (x, y) of an array side on to the end of its row,
 * then from the start of the next row, as if the array's rows were one run of bytes. */
static cudaError_t copy_run_on(Side dst, Side src, size_t count, int kind, const char *call)
{
    while (count > 0) {
        size_t n = count;
        if (dst.a)
            n = MIN(n, dst.a->layout.width_bytes > dst.x ? dst.a->layout.width_bytes - dst.x : 1);
        if (src.a)
            n = MIN(n, src.a->layout.width_bytes > src.x ? src.a->layout.width_bytes - src.x : 1);
        cudaError_t e = copy_box(&dst, &src, n, 1, 1, kind, call);
        if (e != cudaSuccess)
            return e;
        count -= n;
        Side *sides[2] = {&dst, &src};
        for (int i = 0; i < 2; i++) {
            Side *s = sides[i];
            if (!s->a) {
                s->ptr += n;
            } else if ((s->x += n) == s->a->layout.width_bytes) {
                s->x = 0;
                s->y++;
            }
        }
    }
    return cudaSuccess;
}

static cudaError_t array_arg(const void *handle, const char *call, const RtArray **out)
{
    *out = rt_array_of(handle);
    return *out ? cudaSuccess : rt_fail(cudaErrorInvalidResourceHandle, call, "%p is not an array", handle);
}

/* ---- the legacy flat copies ---- */

static cudaError_t to_array(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind,
                            const char *call)
{
    API_LOCKED;
    const RtArray *a;
    cudaError_t e = array_arg(dst, call, &a);
    if (e != cudaSuccess)
        return e;
    return copy_run_on(array_side(a, wOffset, hOffset, 0), linear_side(src, 0, 0), count, kind, call);
}

static cudaError_t from_array(void *dst, const RtArray *src, size_t wOffset, size_t hOffset, size_t count, int kind,
                              const char *call)
{
    API_LOCKED;
    const RtArray *a;
    cudaError_t e = array_arg(src, call, &a);
    if (e != cudaSuccess)
        return e;
    return copy_run_on(linear_side(dst, 0, 0), array_side(a, wOffset, hOffset, 0), count, kind, call);
}

cudaError_t cudaMemcpyToArray(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind)
{
    return to_array(dst, wOffset, hOffset, src, count, kind, "cudaMemcpyToArray");
}

cudaError_t cudaMemcpyToArrayAsync(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   int kind, cudaStream_t stream)
{
    return to_array(dst, wOffset, hOffset, src, count, kind, "cudaMemcpyToArrayAsync");
}

cudaError_t cudaMemcpyFromArray(void *dst, const RtArray *src, size_t wOffset, size_t hOffset, size_t count, int kind)
{
    return from_array(dst, src, wOffset, hOffset, count, kind, "cudaMemcpyFromArray");
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, const RtArray *src, size_t wOffset, size_t hOffset, size_t count,
                                     int kind, cudaStream_t stream)
{
    return from_array(dst, src, wOffset, hOffset, count, kind, "cudaMemcpyFromArrayAsync");
}

cudaError_t cudaMemcpyArrayToArray(RtArray *dst, size_t wOffsetDst, size_t hOffsetDst, const RtArray *src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind)
{
    static const char call[] = "cudaMemcpyArrayToArray";
    API_LOCKED;
    const RtArray *d, *s;
    cudaError_t e;
    if ((e = array_arg(dst, call, &d)) != cudaSuccess || (e = array_arg(src, call, &s)) != cudaSuccess)
        return e;
    return copy_run_on(array_side(d, wOffsetDst, hOffsetDst, 0), array_side(s, wOffsetSrc, hOffsetSrc, 0), count,
                       kind, call);
}

/* ---- 2D copies ---- */

static cudaError_t to_array_2d(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                               size_t width, size_t height, int kind, const char *call)
{
    API_LOCKED;
    const RtArray *a;
    cudaError_t e = array_arg(dst, call, &a);
    if (e != cudaSuccess)
        return e;
    Side d = array_side(a, wOffset, hOffset, 0), s = linear_side(src, spitch, 0);
    if (height > 1 && width > spitch) /* what cudaMemcpy2D says of such a row */
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in a source pitch of %zu", width, spitch);
    return copy_box(&d, &s, width, height, 1, kind, call);
}

static cudaError_t from_array_2d(void *dst, size_t dpitch, const RtArray *src, size_t wOffset, size_t hOffset,
                                 size_t width, size_t height, int kind, const char *call)
{
    API_LOCKED;
    const RtArray *a;
    cudaError_t e = array_arg(src, call, &a);
    if (e != cudaSuccess)
        return e;
    Side d = linear_side(dst, dpitch, 0), s = array_side(a, wOffset, hOffset, 0);
    if (height > 1 && width > dpitch)
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in a destination pitch of %zu", width, dpitch);
    return copy_box(&d, &s, width, height, 1, kind, call);
}

cudaError_t cudaMemcpy2DToArray(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, int kind)
{
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind, "cudaMemcpy2DToArray");
}

cudaError_t cudaMemcpy2DToArrayAsync(RtArray *dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, int kind, cudaStream_t stream)
{
    return to_array_2d(dst, wOffset, hOffset, src, spitch, width, height, kind, "cudaMemcpy2DToArrayAsync");
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, const RtArray *src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, int kind)
{
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, "cudaMemcpy2DFromArray");
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, const RtArray *src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, int kind, cudaStream_t stream)
{
    return from_array_2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, "cudaMemcpy2DFromArrayAsync");
}

cudaError_t cudaMemcpy2DArrayToArray(RtArray *dst, size_t wOffsetDst, size_t hOffsetDst, const RtArray *src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, int kind)
{
    static const char call[] = "cudaMemcpy2DArrayToArray";
    API_LOCKED;
    const RtArray *d, *s;
    cudaError_t e;
    if ((e = array_arg(dst, call, &d)) != cudaSuccess || (e = array_arg(src, call, &s)) != cudaSuccess)
        return e;
    Side ds = array_side(d, wOffsetDst, hOffsetDst, 0), ss = array_side(s, wOffsetSrc, hOffsetSrc, 0);
    return copy_box(&ds, &ss, width, height, 1, kind, call);
}

/* ---- 3D copies and pitched 3D memory ---- */

/* One side of cudaMemcpy3D: its array (x in elements) or pitched pointer (x in bytes). */
static cudaError_t side_3d(RtArray *array, struct cudaPos pos, struct cudaPitchedPtr ptr, size_t depth,
                           const char *what, const char *call, Side *out)
{
    if (!array == !ptr.ptr)
        return rt_fail(cudaErrorInvalidValue, call, "the %s is %s", what,
                       array ? "both an array and a pointer" : "neither an array nor a pointer");
    if (array) {
        const RtArray *a;
        cudaError_t e = array_arg(array, call, &a);
        if (e != cudaSuccess)
            return e;
        *out = array_side(a, pos.x * a->a.elem, pos.y, pos.z);
        return cudaSuccess;
    }
    if (depth > 1 && ptr.ysize == 0)
        return rt_fail(cudaErrorInvalidValue, call, "a %s pointer of %zu slices with a ysize of 0", what, depth);
    *out = linear_side(ptr.ptr, ptr.pitch, ptr.pitch * ptr.ysize);
    out->x = pos.x;
    out->y = pos.y;
    out->z = pos.z;
    return cudaSuccess;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, const char *call)
{
    API_LOCKED;
    if (!p)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    /* A height or depth of 0 copies one row or slice, as a 1D or 2D copy means. */
    size_t h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
    Side dst, src;
    cudaError_t e;
    if ((e = side_3d(p->dstArray, p->dstPos, p->dstPtr, d, "destination", call, &dst)) != cudaSuccess ||
        (e = side_3d(p->srcArray, p->srcPos, p->srcPtr, d, "source", call, &src)) != cudaSuccess)
        return e;
    if (dst.a && src.a && dst.a->elem != src.a->elem)
        return rt_fail(cudaErrorInvalidValue, call, "arrays of %u-byte and %u-byte elements", dst.a->elem, src.a->elem);
    size_t elem = dst.a ? dst.a->elem : src.a ? src.a->elem : 1;
    if (p->extent.width > SIZE_MAX / elem)
        return rt_fail(cudaErrorInvalidValue, call, "a width of %zu elements", p->extent.width);
    return copy_box(&dst, &src, p->extent.width * elem, h, d, p->kind, call);
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) { return memcpy_3d(p, "cudaMemcpy3D"); }

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return memcpy_3d(p, "cudaMemcpy3DAsync");
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    static const char call[] = "cudaMalloc3D";
    if (!pitchedDevPtr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    size_t pitch = (extent.width + RT_ROW_ALIGN - 1) / RT_ROW_ALIGN * RT_ROW_ALIGN;
    size_t rows = extent.height * extent.depth;
    if ((extent.depth && rows / extent.depth != extent.height) || (rows && pitch > SIZE_MAX / rows))
        return rt_fail(cudaErrorMemoryAllocation, call, "%zu x %zu x %zu bytes", extent.width, extent.height,
                       extent.depth);
    void *p;
    cudaError_t e = rt_dev_alloc(call, &p, pitch * rows);
    if (e == cudaSuccess)
        *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return e;
}

static cudaError_t memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent e, const char *call)
{
    if (e.width > p.pitch)
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in a pitch of %zu", e.width, p.pitch);
    if (e.depth > 1 && p.ysize < e.height)
        return rt_fail(cudaErrorInvalidValue, call, "%zu rows per slice in a pointer of %zu (ysize)", e.height,
                       p.ysize);
    for (size_t z = 0; z < e.depth; z++)
        for (size_t y = 0; y < e.height; y++) {
            cudaError_t err = rt_memset((char *)p.ptr + (z * p.ysize + y) * p.pitch, value, e.width, call);
            if (err != cudaSuccess)
                return err;
        }
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return memset_3d(pitchedDevPtr, value, extent, "cudaMemset3D");
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    return memset_3d(pitchedDevPtr, value, extent, "cudaMemset3DAsync");
}

RT_PER_THREAD(cudaMemcpyToArray_ptds, cudaMemcpyToArray);
RT_PER_THREAD(cudaMemcpyToArrayAsync_ptsz, cudaMemcpyToArrayAsync);
RT_PER_THREAD(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray);
RT_PER_THREAD(cudaMemcpyFromArrayAsync_ptsz, cudaMemcpyFromArrayAsync);
RT_PER_THREAD(cudaMemcpyArrayToArray_ptds, cudaMemcpyArrayToArray);
RT_PER_THREAD(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray);
RT_PER_THREAD(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync);
RT_PER_THREAD(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray);
RT_PER_THREAD(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync);
RT_PER_THREAD(cudaMemcpy2DArrayToArray_ptds, cudaMemcpy2DArrayToArray);
RT_PER_THREAD(cudaMemcpy3D_ptds, cudaMemcpy3D);
RT_PER_THREAD(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync);
RT_PER_THREAD(cudaMemset3D_ptds, cudaMemset3D);
RT_PER_THREAD(cudaMemset3DAsync_ptsz, cudaMemset3DAsync);
