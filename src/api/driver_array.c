/* driver_array.c: CUDA arrays and 2D copies of warpsim's libcuda replacement (see driver.c).
 *
 * An array is one device allocation laid out as the runtime's arrays are (api_array.c: tiles of
 * 64 bytes x 8 rows for arrays of two or more dimensions, rows for 1D ones), of 1, 2 or 4
 * channels of 8, 16 or 32-bit integers or 16 or 32-bit floats (the CUarray_format values of
 * those; the packed and video formats are refused). The CUarray handle is a host structure the
 * library keeps a list of, so a stale handle is refused. cuMemcpy2D copies a box of rows
 * between host memory, device memory, unified addresses (told apart by the simulator's map) and
 * arrays, walked as the runtime walks its copies: each run both sides keep contiguous is one
 * checked copy, so a box that leaves an allocation fails as a flat copy would. */
#include "api/driver_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* Sizes and offsets as CUDA 13's cuda.h gives them (x86-64). */
_Static_assert(sizeof(CUDA_MEMCPY2D) == 128 && offsetof(CUDA_MEMCPY2D, dstArray) == 96, "CUDA_MEMCPY2D layout");
_Static_assert(sizeof(CUDA_ARRAY_DESCRIPTOR) == 24 && offsetof(CUDA_ARRAY_DESCRIPTOR, NumChannels) == 20,
               "CUDA_ARRAY_DESCRIPTOR layout");
_Static_assert(sizeof(CUDA_ARRAY3D_DESCRIPTOR) == 40 && offsetof(CUDA_ARRAY3D_DESCRIPTOR, Flags) == 32,
               "CUDA_ARRAY3D_DESCRIPTOR layout");

struct CUarray_st {
    ApiArray a;
    CUarray_format format;
    struct CUarray_st *next;
};

static struct CUarray_st *drv_arrays; /* live arrays */

CUresult drv_format(const char *call, CUarray_format format, unsigned channels, uint32_t *channel_bytes,
                    WarpsimTexFormat *kind)
{
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: *channel_bytes = 1; *kind = WARPSIM_TEX_UNSIGNED; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: *channel_bytes = 2; *kind = WARPSIM_TEX_UNSIGNED; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: *channel_bytes = 4; *kind = WARPSIM_TEX_UNSIGNED; break;
    case CU_AD_FORMAT_SIGNED_INT8: *channel_bytes = 1; *kind = WARPSIM_TEX_SIGNED; break;
    case CU_AD_FORMAT_SIGNED_INT16: *channel_bytes = 2; *kind = WARPSIM_TEX_SIGNED; break;
    case CU_AD_FORMAT_SIGNED_INT32: *channel_bytes = 4; *kind = WARPSIM_TEX_SIGNED; break;
    case CU_AD_FORMAT_HALF: *channel_bytes = 2; *kind = WARPSIM_TEX_FLOAT; break;
    case CU_AD_FORMAT_FLOAT: *channel_bytes = 4; *kind = WARPSIM_TEX_FLOAT; break;
    default:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "array format 0x%x: warpsim takes 8, 16 and 32-bit integers "
                        "and 16 and 32-bit floats, not packed, compressed or video formats", (unsigned)format);
    }
    if (channels != 1 && channels != 2 && channels != 4)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%u channels: 1, 2 or 4", channels);
    return CUDA_SUCCESS;
}

const ApiArray *drv_array_of(CUarray handle)
{
    for (struct CUarray_st *a = drv_arrays; a; a = a->next)
        if (a == handle)
            return &a->a;
    return NULL;
}

static CUresult array_create(const char *call, CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    NEED_CTX();
    if (!out)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    uint32_t bytes;
    WarpsimTexFormat kind;
    CUresult r = drv_format(call, d->Format, d->NumChannels, &bytes, &kind);
    if (r != CUDA_SUCCESS)
        return r;
    ApiArray shape;
    char msg[512];
    ApiErr e = api_array_init(&shape, d->NumChannels, bytes, kind, d->Width, d->Height, d->Depth, d->Flags, msg,
                              sizeof msg);
    if (e != API_OK)
        return drv_api_fail(e, call, msg);
    CUdeviceptr base;
    if ((r = drv_dev_alloc(call, &base, shape.layout.bytes)) != CUDA_SUCCESS)
        return r;
    struct CUarray_st *a = xcalloc(1, sizeof *a);
    a->a = shape;
    a->a.base = base;
    a->format = d->Format;
    a->next = drv_arrays;
    drv_arrays = a;
    *out = a;
    return CUDA_SUCCESS;
}

/* A 1D (Height 0) or 2D array. */
CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    if (!pAllocateArray)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuArrayCreate", "null pointer");
    CUDA_ARRAY3D_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height, 0, pAllocateArray->Format,
                                 pAllocateArray->NumChannels, 0};
    return array_create("cuArrayCreate", pHandle, &d);
}

/* 1D, 2D, 3D, layered and cube-map arrays (CUDA_ARRAY3D_LAYERED, _CUBEMAP, _SURFACE_LDST,
 * _TEXTURE_GATHER). */
CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    if (!pAllocateArray)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate", "null pointer");
    return array_create("cuArray3DCreate", pHandle, pAllocateArray);
}

CUresult cuArrayDestroy(CUarray hArray)
{
    NEED_INIT();
    for (struct CUarray_st **p = &drv_arrays; *p; p = &(*p)->next)
        if (*p == hArray) {
            *p = hArray->next;
            CUresult r = drv_result(warpsim_free(drv_sim, hArray->a.base));
            free(hArray);
            return r;
        }
    return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuArrayDestroy", "%p is not an array", (void *)hArray);
}

static CUresult array_query(const char *call, const void *out, CUarray handle)
{
    if (!out)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (!drv_array_of(handle))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, call, "%p is not an array", (void *)handle);
    return CUDA_SUCCESS;
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    NEED_INIT();
    CUresult r = array_query("cuArrayGetDescriptor", pArrayDescriptor, hArray);
    if (r == CUDA_SUCCESS)
        *pArrayDescriptor = (CUDA_ARRAY_DESCRIPTOR){hArray->a.width, hArray->a.height, hArray->format,
                                                    hArray->a.channels};
    return r;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    NEED_INIT();
    CUresult r = array_query("cuArray3DGetDescriptor", pArrayDescriptor, hArray);
    if (r == CUDA_SUCCESS)
        *pArrayDescriptor = (CUDA_ARRAY3D_DESCRIPTOR){hArray->a.width, hArray->a.height, hArray->a.depth,
                                                      hArray->format, hArray->a.channels, hArray->a.flags};
    return r;
}

/* ---- 2D copies ---- */

/* Where a side's bytes are: the host's memory, or the device's (arrays are device memory). */
typedef enum { SIDE_HOST, SIDE_DEVICE, SIDE_UNIFIED } SideKind;

static CUresult side_of(const char *call, const char *what, CUmemorytype type, const void *host, CUdeviceptr dev,
                        CUarray array, size_t x, size_t y, size_t pitch, ApiSide *out, SideKind *kind)
{
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        *out = api_side_linear(host, pitch, 0);
        *kind = SIDE_HOST;
        break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: /* a unified address: device or host memory, as the map says */
        *out = api_side_linear((const void *)(uintptr_t)dev, pitch, 0);
        *kind = type == CU_MEMORYTYPE_DEVICE ? SIDE_DEVICE : SIDE_UNIFIED;
        break;
    case CU_MEMORYTYPE_ARRAY: {
        const ApiArray *a = drv_array_of(array);
        if (!a)
            return drv_fail(CUDA_ERROR_INVALID_HANDLE, call, "the %s, %p, is not an array", what, (void *)array);
        *out = api_side_array(a, 0, 0, 0);
        *kind = SIDE_DEVICE;
        break;
    }
    default:
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s memory type %d is not CUDA's", what, (int)type);
    }
    out->x = x;
    out->y = y;
    return CUDA_SUCCESS;
}

typedef struct RunCopy {
    SideKind dst, src;
    CUresult r;
} RunCopy;

static bool on_device(SideKind k, const char *p)
{
    WarpsimRange r;
    return k == SIDE_DEVICE || (k == SIDE_UNIFIED && warpsim_mem_find(drv_sim, (uintptr_t)p, 1, &r) && !r.is_mapped);
}

/* One run of the box: a checked copy in the direction its two sides give. */
static int run_copy(void *ctx, char *dst, const char *src, size_t n)
{
    RunCopy *c = ctx;
    bool d = on_device(c->dst, dst), s = on_device(c->src, src);
    if (!d && !s)
        memmove(dst, src, n);
    else if (d && s)
        c->r = drv_result(warpsim_memcpy_dtod(drv_sim, (uintptr_t)dst, (uintptr_t)src, n));
    else if (d)
        c->r = drv_result(warpsim_memcpy_htod(drv_sim, (uintptr_t)dst, src, n));
    else
        c->r = drv_result(warpsim_memcpy_dtoh(drv_sim, dst, (uintptr_t)src, n));
    return c->r != CUDA_SUCCESS;
}

static CUresult memcpy_2d(const char *call, const CUDA_MEMCPY2D *p)
{
    NEED_CTX();
    if (!p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    ApiSide dst, src;
    RunCopy c = {.r = CUDA_SUCCESS};
    CUresult r;
    if ((r = side_of(call, "destination", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes,
                     p->dstY, p->dstPitch, &dst, &c.dst)) != CUDA_SUCCESS ||
        (r = side_of(call, "source", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes,
                     p->srcY, p->srcPitch, &src, &c.src)) != CUDA_SUCCESS)
        return r;
    if (p->WidthInBytes == 0 || p->Height == 0)
        return CUDA_SUCCESS;
    char msg[512];
    ApiErr e;
    if ((e = api_side_check(&dst, p->WidthInBytes, p->Height, 1, "destination", msg, sizeof msg)) != API_OK ||
        (e = api_side_check(&src, p->WidthInBytes, p->Height, 1, "source", msg, sizeof msg)) != API_OK)
        return drv_api_fail(e, call, msg);
    api_box_copy(&dst, &src, p->WidthInBytes, p->Height, 1, run_copy, &c);
    return c.r;
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return memcpy_2d("cuMemcpy2D", pCopy);
}

/* No alignment is required of either side here in any case. */
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    return memcpy_2d("cuMemcpy2DUnaligned", pCopy);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return memcpy_2d("cuMemcpy2DAsync", pCopy);
}

DRV_ALIAS(cuMemcpy2D_v2_ptds, cuMemcpy2D_v2);
DRV_ALIAS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned_v2);
DRV_ALIAS(cuMemcpy2DAsync_v2_ptsz, cuMemcpy2DAsync_v2);
