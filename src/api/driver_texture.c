/* driver_texture.c: texture and surface objects of warpsim's libcuda replacement (see
 * driver.c).
 *
 * Texture objects over linear device memory (tex1Dfetch), pitched 2D memory and arrays
 * (driver_array.c), and surface objects over arrays, described to the simulator as the
 * runtime's are (api_texture.c). CUDA_TEXTURE_DESC's flags: CU_TRSF_READ_AS_INTEGER keeps 8 and
 * 16-bit integers integers (without it they read as floats in [0, 1] or [-1, 1]; 32-bit ones
 * never are), CU_TRSF_NORMALIZED_COORDINATES; sRGB, seamless cube-map filtering, mipmapped
 * arrays and resource views are refused. The library keeps each object's descriptors for
 * cuTexObjectGetResourceDesc and the like. */
#include "api/driver_internal.h"

#include "api/api_texture.h"
#include "base/base.h"

#include <string.h>

/* Sizes and offsets as CUDA 13's cuda.h gives them (x86-64). */
_Static_assert(sizeof(CUDA_RESOURCE_DESC) == 144 && offsetof(CUDA_RESOURCE_DESC, flags) == 136,
               "CUDA_RESOURCE_DESC layout");
_Static_assert(offsetof(CUDA_RESOURCE_DESC, res.pitch2D.pitchInBytes) == 40, "CUDA_RESOURCE_DESC layout");
_Static_assert(sizeof(CUDA_TEXTURE_DESC) == 104 && offsetof(CUDA_TEXTURE_DESC, borderColor) == 40,
               "CUDA_TEXTURE_DESC layout");

typedef struct DrvTexture {
    uint64_t handle;
    bool surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
} DrvTexture;

static DrvTexture *drv_texs;
static uint32_t drv_n_texs, drv_cap_texs;

/* The simulator's object for a resource (textures: with td's sampling). */
static CUresult describe(const char *call, const CUDA_RESOURCE_DESC *r, const CUDA_TEXTURE_DESC *td, bool surface,
                         WarpsimTexture *t)
{
    uint32_t bytes;
    WarpsimTexFormat kind;
    char msg[512];
    ApiErr e = API_OK;
    CUresult cr;
    switch (surface && r->resType != CU_RESOURCE_TYPE_ARRAY ? -1 : (int)r->resType) {
    case CU_RESOURCE_TYPE_LINEAR:
        if ((cr = drv_format(call, r->res.linear.format, r->res.linear.numChannels, &bytes, &kind)) != CUDA_SUCCESS)
            return cr;
        e = api_tex_linear(drv_sim, t, r->res.linear.devPtr, r->res.linear.sizeInBytes, r->res.linear.numChannels,
                           bytes, kind, msg, sizeof msg);
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        if ((cr = drv_format(call, r->res.pitch2D.format, r->res.pitch2D.numChannels, &bytes, &kind)) != CUDA_SUCCESS)
            return cr;
        e = api_tex_pitch2d(drv_sim, t, r->res.pitch2D.devPtr, r->res.pitch2D.width, r->res.pitch2D.height,
                            r->res.pitch2D.pitchInBytes, r->res.pitch2D.numChannels, bytes, kind, msg, sizeof msg);
        break;
    case CU_RESOURCE_TYPE_ARRAY: {
        const ApiArray *a = drv_array_of(r->res.array.hArray);
        if (!a)
            return drv_fail(CUDA_ERROR_INVALID_HANDLE, call, "%p is not an array", (void *)r->res.array.hArray);
        api_tex_array(t, a, surface);
        break;
    }
    default:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "resource type %d: %s", (int)r->resType,
                        surface ? "a surface is an array (CU_RESOURCE_TYPE_ARRAY)"
                                : "linear memory, pitched 2D memory and arrays are supported, not mipmapped arrays");
    }
    if (e == API_OK && td) {
        ApiTexSampling smp = {.linear_filter = td->filterMode == CU_TR_FILTER_MODE_LINEAR,
                              .read_normalized = !(td->flags & CU_TRSF_READ_AS_INTEGER),
                              .normalized_coords = (td->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0,
                              .srgb = (td->flags & CU_TRSF_SRGB) != 0,
                              .seamless_cube = (td->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0};
        for (int i = 0; i < 3; i++)
            smp.address[i] = (int)td->addressMode[i]; /* CUaddress_mode numbers them as the runtime */
        memcpy(smp.border, td->borderColor, sizeof smp.border);
        e = api_tex_sampling(t, &smp, msg, sizeof msg);
    }
    return e == API_OK ? CUDA_SUCCESS : drv_api_fail(e, call, msg);
}

static CUresult object_create(const char *call, CUtexObject *out, const CUDA_RESOURCE_DESC *res,
                              const CUDA_TEXTURE_DESC *td, bool surface)
{
    NEED_CTX();
    if (!out || !res || (!surface && !td))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    WarpsimTexture t;
    CUresult r = describe(call, res, td, surface, &t);
    if (r != CUDA_SUCCESS)
        return r;
    uint64_t h;
    if ((r = drv_result(warpsim_texture_create(drv_sim, &t, &h))) != CUDA_SUCCESS)
        return r;
    if (drv_n_texs == drv_cap_texs) {
        drv_cap_texs = drv_cap_texs ? 2 * drv_cap_texs : 16;
        drv_texs = xrealloc(drv_texs, drv_cap_texs * sizeof *drv_texs);
    }
    DrvTexture *d = &drv_texs[drv_n_texs++];
    memset(d, 0, sizeof *d);
    d->handle = h;
    d->surface = surface;
    d->res = *res;
    if (td)
        d->tex = *td;
    *out = h;
    return CUDA_SUCCESS;
}

static DrvTexture *object_of(uint64_t h, bool surface)
{
    for (uint32_t i = 0; i < drv_n_texs; i++)
        if (drv_texs[i].handle == h && drv_texs[i].surface == surface)
            return &drv_texs[i];
    return NULL;
}

static CUresult object_destroy(const char *call, uint64_t h, bool surface)
{
    NEED_INIT();
    DrvTexture *d = object_of(h, surface);
    if (!d)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%llu is not a %s object", (unsigned long long)h,
                        surface ? "surface" : "texture");
    *d = drv_texs[--drv_n_texs];
    return drv_result(warpsim_texture_destroy(drv_sim, h));
}

static CUresult object_query(const char *call, uint64_t h, bool surface, const void *out, DrvTexture **d)
{
    if (!out)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    *d = object_of(h, surface);
    return *d ? CUDA_SUCCESS
              : drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%llu is not a %s object", (unsigned long long)h,
                         surface ? "surface" : "texture");
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    if (pResViewDesc)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuTexObjectCreate", "resource views are not supported");
    return object_create("cuTexObjectCreate", pTexObject, pResDesc, pTexDesc, false);
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    return object_destroy("cuTexObjectDestroy", texObject, false);
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    NEED_INIT();
    DrvTexture *d;
    CUresult r = object_query("cuTexObjectGetResourceDesc", texObject, false, pResDesc, &d);
    if (r == CUDA_SUCCESS)
        *pResDesc = d->res;
    return r;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    NEED_INIT();
    DrvTexture *d;
    CUresult r = object_query("cuTexObjectGetTextureDesc", texObject, false, pTexDesc, &d);
    if (r == CUDA_SUCCESS)
        *pTexDesc = d->tex;
    return r;
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    return object_create("cuSurfObjectCreate", pSurfObject, pResDesc, NULL, true);
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    return object_destroy("cuSurfObjectDestroy", surfObject, true);
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    NEED_INIT();
    DrvTexture *d;
    CUresult r = object_query("cuSurfObjectGetResourceDesc", surfObject, true, pResDesc, &d);
    if (r == CUDA_SUCCESS)
        *pResDesc = d->res;
    return r;
}
