/* api_texture.c: texture objects, shared by the runtime and driver libraries (api_texture.h).
 *
 * Elements are 1 to 4 channels of 8, 16 or 32 bits, signed, unsigned or float, read as
 * elements or as normalised floats; the sampling (address modes, filtering, normalised
 * coordinates, border colour) is the interpreter's (src/front/ptx/ptx_tex.c). */
#include "api/api_texture.h"

#include <stdio.h>
#include <string.h>

static void set_format(WarpsimTexture *t, uint32_t channels, uint32_t channel_bytes, WarpsimTexFormat format)
{
    t->channels = channels;
    t->channel_bytes = channel_bytes;
    t->format = format;
}

ApiErr api_tex_linear(WarpsimSim *s, WarpsimTexture *t, uint64_t base, uint64_t bytes, uint32_t channels,
                      uint32_t channel_bytes, WarpsimTexFormat format, char *msg, size_t msg_len)
{
    memset(t, 0, sizeof *t);
    if (!warpsim_mem_find(s, base, bytes ? bytes : 1, NULL))
        return api_say(API_E_VALUE, msg, msg_len, "the texture's memory 0x%llx (%llu bytes) is not inside a device "
                   "allocation", (unsigned long long)base, (unsigned long long)bytes);
    t->kind = WARPSIM_TEX_LINEAR;
    t->base = base;
    t->count = bytes / (channels * channel_bytes);
    set_format(t, channels, channel_bytes, format);
    return API_OK;
}

ApiErr api_tex_pitch2d(WarpsimSim *s, WarpsimTexture *t, uint64_t base, uint64_t width, uint64_t height,
                       uint64_t pitch, uint32_t channels, uint32_t channel_bytes, WarpsimTexFormat format, char *msg,
                       size_t msg_len)
{
    memset(t, 0, sizeof *t);
    uint64_t eb = channels * channel_bytes;
    if (width == 0 || height == 0 || pitch % API_PITCH_ALIGN || width > pitch / eb)
        return api_say(API_E_VALUE, msg, msg_len, "pitched 2D texture of %llu x %llu elements of %llu bytes in rows of "
                   "%llu bytes (a multiple of %d, at least the width)", (unsigned long long)width,
                   (unsigned long long)height, (unsigned long long)eb, (unsigned long long)pitch, API_PITCH_ALIGN);
    uint64_t bytes = pitch * (height - 1) + width * eb;
    if (height - 1 > UINT64_MAX / pitch || !warpsim_mem_find(s, base, bytes, NULL))
        return api_say(API_E_VALUE, msg, msg_len, "the texture's memory 0x%llx (%llu rows of %llu bytes) is not inside a "
                   "device allocation", (unsigned long long)base, (unsigned long long)height,
                   (unsigned long long)pitch);
    t->kind = WARPSIM_TEX_PITCH2D;
    t->base = base;
    t->width = width;
    t->height = height;
    t->pitch = pitch;
    set_format(t, channels, channel_bytes, format);
    return API_OK;
}

void api_tex_array(WarpsimTexture *t, const ApiArray *a, bool surface)
{
    memset(t, 0, sizeof *t);
    bool layered = a->flags & API_ARRAY_LAYERED, cube = a->flags & API_ARRAY_CUBEMAP;
    t->surface = surface;
    t->kind = WARPSIM_TEX_ARRAY;
    t->base = a->base;
    t->width = a->width;
    t->height = a->height;
    t->depth = layered || cube ? 0 : a->depth;
    t->layers = layered ? a->depth / (cube ? 6 : 1) : 0;
    t->cube = cube;
    t->layout = a->layout;
    set_format(t, a->channels, a->channel_bytes, a->format);
}

ApiErr api_tex_sampling(WarpsimTexture *t, const ApiTexSampling *smp, char *msg, size_t msg_len)
{
    t->normalized = smp->read_normalized && t->channel_bytes < 4 && t->format != WARPSIM_TEX_FLOAT;
    if (t->kind == WARPSIM_TEX_LINEAR)
        return API_OK; /* tex1Dfetch: the read mode only; no address modes, filtering or normalised coordinates */
    if (smp->srgb)
        return api_say(API_E_UNSUPPORTED, msg, msg_len, "sRGB textures are not supported");
    if (smp->seamless_cube && t->cube && smp->linear_filter)
        return api_say(API_E_UNSUPPORTED, msg, msg_len, "seamless cube-map filtering is not supported: filtering clamps "
                   "to each face, CUDA's default");
    for (int i = 0; i < 3; i++)
        t->address[i] = smp->address[i];
    t->linear_filter = smp->linear_filter;
    t->normalized_coords = smp->normalized_coords;
    memcpy(t->border, smp->border, sizeof t->border);
    if (t->linear_filter && t->format != WARPSIM_TEX_FLOAT && !t->normalized)
        return api_say(API_E_VALUE, msg, msg_len, "linear filtering of integer elements read as integers: filtering "
                   "needs float results");
    return API_OK;
}
