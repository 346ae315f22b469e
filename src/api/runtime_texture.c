/* runtime_texture.c: texture and surface objects of warpsim's libcudart replacement (see
 * runtime.c).
 *
 * Texture objects over linear device memory (what tex1Dfetch reads), pitched 2D memory and
 * CUDA arrays (runtime_array.c; tex1D, tex2D, tex3D, their layered forms, texCubemap), and
 * surface objects over arrays (surf*read, surf*write): CUDA documents arrays made with
 * cudaArraySurfaceLoadStore, but an H200 makes and accesses a surface on any array, and
 * destroys an unknown surface handle without an error; warpsim does the same.
 * Elements are 1 to 4 channels of 8, 16 or 32 bits, signed, unsigned or float, read as
 * elements or as normalised floats; the sampling (address modes, filtering, normalised
 * coordinates, border colour) is the interpreter's (src/front/ptx/ptx_tex.c). An object's
 * handle is the simulator's, the value a kernel receives; the library keeps each object's
 * descriptors for cudaGetTextureObjectResourceDesc and the like. */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <string.h>

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
       cudaResourceTypePitch2D = 3 };
enum { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };

struct cudaResourceDesc {
    int resType;
    union {
        struct {
            RtArray *array;
        } array;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        int reserved[32];
    } res;
    unsigned flags;
};

struct cudaTextureDesc {
    int addressMode[3];
    int filterMode;
    int readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};

/* Sizes and offsets as CUDA 13's headers give them (x86-64). */
_Static_assert(sizeof(struct cudaResourceDesc) == 144, "cudaResourceDesc layout");
_Static_assert(offsetof(struct cudaResourceDesc, res.linear.sizeInBytes) == 40, "cudaResourceDesc layout");
_Static_assert(offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56, "cudaResourceDesc layout");
_Static_assert(sizeof(struct cudaTextureDesc) == 72, "cudaTextureDesc layout");
_Static_assert(offsetof(struct cudaTextureDesc, normalizedCoords) == 40, "cudaTextureDesc layout");

/* A live texture or surface object and the descriptors it was made from. */
typedef struct RtTexture {
    uint64_t handle;
    bool surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
} RtTexture;

static RtTexture *rt_textures;
static uint32_t rt_n_textures, rt_cap_textures;

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* The simulator's object for a resource (textures: with td's sampling); api_texture.c checks
 * and fills it as it does the driver's. */
static cudaError_t describe(const struct cudaResourceDesc *r, const struct cudaTextureDesc *td, bool surface,
                            const char *call, WarpsimTexture *t)
{
    uint32_t channels, bits;
    WarpsimTexFormat format;
    char msg[512];
    ApiErr e;
    switch (surface && r->resType != cudaResourceTypeArray ? -1 : r->resType) {
    case cudaResourceTypeLinear:
        if (!rt_channels(&r->res.linear.desc, &channels, &bits, &format, call))
            return rt_last;
        e = api_tex_linear(rt_sim, t, (uint64_t)(uintptr_t)r->res.linear.devPtr, r->res.linear.sizeInBytes, channels,
                           bits / 8, format, msg, sizeof msg);
        break;
    case cudaResourceTypePitch2D:
        if (!rt_channels(&r->res.pitch2D.desc, &channels, &bits, &format, call))
            return rt_last;
        e = api_tex_pitch2d(rt_sim, t, (uint64_t)(uintptr_t)r->res.pitch2D.devPtr, r->res.pitch2D.width,
                            r->res.pitch2D.height, r->res.pitch2D.pitchInBytes, channels, bits / 8, format, msg,
                            sizeof msg);
        break;
    case cudaResourceTypeArray: {
        const RtArray *a = rt_array_of(r->res.array.array);
        if (!a)
            return rt_fail(cudaErrorInvalidResourceHandle, call, "%p is not an array", (void *)r->res.array.array);
        api_tex_array(t, &a->a, surface);
        e = API_OK;
        break;
    }
    default:
        return rt_fail(cudaErrorNotSupported, call, "resource type %d: %s", r->resType,
                       surface ? "a surface is an array (cudaResourceTypeArray)"
                               : "linear memory, pitched 2D memory and arrays are supported, not mipmapped arrays");
    }
    if (e == API_OK && td) {
        ApiTexSampling smp = {.linear_filter = td->filterMode == cudaFilterModeLinear,
                              .read_normalized = td->readMode == cudaReadModeNormalizedFloat,
                              .normalized_coords = td->normalizedCoords != 0, .srgb = td->sRGB != 0,
                              .seamless_cube = td->seamlessCubemap != 0};
        for (int i = 0; i < 3; i++)
            smp.address[i] = td->addressMode[i];
        memcpy(smp.border, td->borderColor, sizeof smp.border);
        e = api_tex_sampling(t, &smp, msg, sizeof msg);
    }
    return e == API_OK ? cudaSuccess : rt_api_fail(e, call, msg);
}

static cudaError_t object_create(unsigned long long *out, const struct cudaResourceDesc *res, const struct cudaTextureDesc *td,
                                 bool surface, const char *call)
{
    ENTER(call);
    if (!out || !res || (!surface && !td))
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    WarpsimTexture t;
    cudaError_t e = describe(res, td, surface, call, &t);
    if (e != cudaSuccess)
        return e;
    uint64_t h;
    e = rt_status(warpsim_texture_create(rt_sim, &t, &h));
    if (e != cudaSuccess)
        return e;
    if (rt_n_textures == rt_cap_textures) {
        rt_cap_textures = rt_cap_textures ? 2 * rt_cap_textures : 16;
        rt_textures = xrealloc(rt_textures, rt_cap_textures * sizeof *rt_textures);
    }
    RtTexture *r = &rt_textures[rt_n_textures++];
    memset(r, 0, sizeof *r);
    r->handle = h;
    r->surface = surface;
    r->res = *res;
    if (td)
        r->tex = *td;
    *out = h;
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc)
{
    if (pResViewDesc)
        return rt_fail(cudaErrorNotSupported, "cudaCreateTextureObject", "resource views are not supported");
    return object_create(pTexObject, pResDesc, pTexDesc, false, "cudaCreateTextureObject");
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    return object_create(pSurfObject, pResDesc, NULL, true, "cudaCreateSurfaceObject");
}

void rt_texture_reset(void)
{
    while (rt_n_textures > 0)
        warpsim_texture_destroy(rt_sim, rt_textures[--rt_n_textures].handle);
}

static RtTexture *object_of(uint64_t h, bool surface)
{
    for (uint32_t i = 0; i < rt_n_textures; i++)
        if (rt_textures[i].handle == h && rt_textures[i].surface == surface)
            return &rt_textures[i];
    return NULL;
}

static cudaError_t object_destroy(unsigned long long h, bool surface, const char *call)
{
    ENTER(call);
    if (h == 0)
        return cudaSuccess;
    RtTexture *r = object_of(h, surface);
    if (!r && surface) /* a surface destroyed twice, or never made: quiet, as on an H200 */
        return cudaSuccess;
    if (!r)
        return rt_fail(cudaErrorInvalidValue, call, "%llu is not a %s object", h, surface ? "surface" : "texture");
    *r = rt_textures[--rt_n_textures];
    return rt_status(warpsim_texture_destroy(rt_sim, h));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return object_destroy(texObject, false, "cudaDestroyTextureObject");
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return object_destroy(surfObject, true, "cudaDestroySurfaceObject");
}

static cudaError_t object_query(unsigned long long h, bool surface, const void *out, const char *call, RtTexture **r)
{
    if (!out)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    *r = object_of(h, surface);
    return *r ? cudaSuccess
              : rt_fail(cudaErrorInvalidValue, call, "%llu is not a %s object", h, surface ? "surface" : "texture");
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    API_LOCKED;
    RtTexture *r;
    cudaError_t e = object_query(texObject, false, pResDesc, "cudaGetTextureObjectResourceDesc", &r);
    if (e == cudaSuccess)
        *pResDesc = r->res;
    return e;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    API_LOCKED;
    RtTexture *r;
    cudaError_t e = object_query(texObject, false, pTexDesc, "cudaGetTextureObjectTextureDesc", &r);
    if (e == cudaSuccess)
        *pTexDesc = r->tex;
    return e;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    API_LOCKED;
    RtTexture *r;
    cudaError_t e = object_query(surfObject, true, pResDesc, "cudaGetSurfaceObjectResourceDesc", &r);
    if (e == cudaSuccess)
        *pResDesc = r->res;
    return e;
}
