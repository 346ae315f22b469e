/* runtime_texture.c: texture objects of warpsim's libcudart replacement (see runtime.c).
 *
 * Texture objects over linear device memory, what tex1Dfetch reads: 1 to 4 channels of 8,
 * 16 or 32 bits, signed, unsigned or float, read as elements or as normalised floats. The
 * memory must be a device allocation; the object's handle is the simulator's texture handle,
 * the value a kernel receives as its cudaTextureObject_t. Other resource types (CUDA arrays,
 * pitched 2D memory) are not supported. */
#include "api/runtime_internal.h"

#include "base/base.h"

typedef unsigned long long cudaTextureObject_t;

enum { cudaResourceTypeLinear = 2 };
enum { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };

struct cudaResourceDesc {
    int resType;
    union {
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
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
_Static_assert(sizeof(struct cudaTextureDesc) == 72, "cudaTextureDesc layout");
_Static_assert(offsetof(struct cudaTextureDesc, normalizedCoords) == 40, "cudaTextureDesc layout");

static uint64_t *rt_textures; /* live texture objects */
static uint32_t rt_n_textures, rt_cap_textures;

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc)
{
    static const char call[] = "cudaCreateTextureObject";
    ENTER(call);
    if (!pTexObject || !pResDesc)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (pResDesc->resType != cudaResourceTypeLinear)
        return rt_fail(cudaErrorNotSupported, call, "resource type %d: only linear memory (cudaResourceTypeLinear, "
                       "read with tex1Dfetch) is supported", pResDesc->resType);
    const struct cudaChannelFormatDesc *c = &pResDesc->res.linear.desc;
    int bits[4] = {c->x, c->y, c->z, c->w}, channels = 0;
    while (channels < 4 && bits[channels] != 0)
        channels++;
    bool ok = channels > 0 && (bits[0] == 8 || bits[0] == 16 || bits[0] == 32) && c->f >= 0 &&
              c->f <= cudaChannelFormatKindFloat && !(c->f == cudaChannelFormatKindFloat && bits[0] == 8);
    for (int i = 0; i < 4; i++)
        ok &= i < channels ? bits[i] == bits[0] : bits[i] == 0;
    if (!ok)
        return rt_fail(cudaErrorInvalidChannelDescriptor, call, "channels of %d, %d, %d, %d bits, kind %d", c->x,
                       c->y, c->z, c->w, c->f);
    uint32_t elem = (uint32_t)channels * (uint32_t)bits[0] / 8;
    size_t bytes = pResDesc->res.linear.sizeInBytes;
    cudaError_t e = rt_check_device(pResDesc->res.linear.devPtr, bytes ? bytes : 1, call, "the texture's memory");
    if (e != cudaSuccess)
        return e;
    WarpsimTexture t = {
        .base = (uint64_t)(uintptr_t)pResDesc->res.linear.devPtr,
        .count = bytes / elem,
        .channels = (uint32_t)channels,
        .channel_bytes = (uint32_t)bits[0] / 8,
        .format = c->f == cudaChannelFormatKindFloat ? WARPSIM_TEX_FLOAT
                  : c->f == cudaChannelFormatKindSigned ? WARPSIM_TEX_SIGNED : WARPSIM_TEX_UNSIGNED,
        .normalized = pTexDesc && pTexDesc->readMode == cudaReadModeNormalizedFloat && bits[0] < 32 &&
                      c->f != cudaChannelFormatKindFloat,
    };
    uint64_t h;
    e = rt_status(warpsim_texture_create(rt_sim, &t, &h));
    if (e != cudaSuccess)
        return e;
    if (rt_n_textures == rt_cap_textures) {
        rt_cap_textures = rt_cap_textures ? 2 * rt_cap_textures : 16;
        rt_textures = xrealloc(rt_textures, rt_cap_textures * sizeof *rt_textures);
    }
    rt_textures[rt_n_textures++] = h;
    *pTexObject = h;
    return cudaSuccess;
}

void rt_texture_reset(void)
{
    while (rt_n_textures > 0)
        warpsim_texture_destroy(rt_sim, rt_textures[--rt_n_textures]);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    ENTER("cudaDestroyTextureObject");
    if (texObject == 0)
        return cudaSuccess;
    for (uint32_t i = 0; i < rt_n_textures; i++)
        if (rt_textures[i] == texObject) {
            rt_textures[i] = rt_textures[--rt_n_textures];
            return rt_status(warpsim_texture_destroy(rt_sim, texObject));
        }
    return rt_fail(cudaErrorInvalidValue, "cudaDestroyTextureObject", "%llu is not a texture object", texObject);
}
