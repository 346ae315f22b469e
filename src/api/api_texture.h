/* api_texture.h: what the runtime's and the driver's texture objects share (api_texture.c):
 * the simulator's description of a texture over linear memory, pitched 2D memory or an array,
 * and its sampling. Each library reads its own descriptors (cudaResourceDesc,
 * CUDA_RESOURCE_DESC, ...) into these calls. */
#ifndef WARPSIM_API_TEXTURE_H
#define WARPSIM_API_TEXTURE_H

#include "api/api_array.h"

#include <stdbool.h>

/* The row alignment a pitched 2D texture needs (cudaDevAttrTexturePitchAlignment). */
#define API_PITCH_ALIGN 32

/* The sampling of a texture: cudaTextureDesc's and CUDA_TEXTURE_DESC's fields. */
typedef struct ApiTexSampling {
    int address[3];          /* the address modes (the same values in both APIs) */
    bool linear_filter;
    bool read_normalized;    /* 8 and 16-bit integers read as floats in [0, 1] / [-1, 1] */
    bool normalized_coords;
    bool srgb, seamless_cube;
    float border[4];
} ApiTexSampling;

/* count elements at base, in device memory (checked against the simulator's map). */
ApiErr api_tex_linear(WarpsimSim *s, WarpsimTexture *t, uint64_t base, uint64_t bytes, uint32_t channels,
                      uint32_t channel_bytes, WarpsimTexFormat format, char *msg, size_t msg_len);
/* width x height elements, rows pitch bytes apart (a multiple of API_PITCH_ALIGN). */
ApiErr api_tex_pitch2d(WarpsimSim *s, WarpsimTexture *t, uint64_t base, uint64_t width, uint64_t height,
                       uint64_t pitch, uint32_t channels, uint32_t channel_bytes, WarpsimTexFormat format, char *msg,
                       size_t msg_len);
/* An array (surface: a surface object over it). */
void api_tex_array(WarpsimTexture *t, const ApiArray *a, bool surface);
/* The sampling of a texture described by the calls above (linear memory, which tex1Dfetch
 * reads: the read mode only). */
ApiErr api_tex_sampling(WarpsimTexture *t, const ApiTexSampling *smp, char *msg, size_t msg_len);

#endif
