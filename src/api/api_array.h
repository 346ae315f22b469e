/* api_array.h: what the runtime's and the driver's CUDA arrays and copies of boxes share
 * (api_array.c): an array's shape, checks and layout, and the walk of a copy between linear
 * memory and arrays. Each library keeps its own handles and turns an ApiErr into its own error
 * code and message. */
#ifndef WARPSIM_API_ARRAY_H
#define WARPSIM_API_ARRAY_H

#include "warpsim.h"

#include <stddef.h>

/* Why a shared check failed; the message says the rest. */
typedef enum ApiErr {
    API_OK,
    API_E_VALUE,       /* a bad argument */
    API_E_UNSUPPORTED, /* valid in CUDA, beyond what warpsim does */
    API_E_MEMORY,      /* a size that overflows */
} ApiErr;

/* Write the message of a failed check into msg (len bytes) and return e. */
ApiErr api_say(ApiErr e, char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An array's flags: the same bits in both APIs (cudaArrayLayered and CUDA_ARRAY3D_LAYERED, ...). */
enum { API_ARRAY_LAYERED = 1, API_ARRAY_SURFACE_LDST = 2, API_ARRAY_CUBEMAP = 4, API_ARRAY_TEXTURE_GATHER = 8 };

/* A CUDA array: one device allocation at base, laid out by warpsim_array_layout. Its slices are
 * the depth of a 3D array, the layers of a layered one, the six faces (times the layers) of a
 * cube map. */
typedef struct ApiArray {
    uint32_t channels, channel_bytes, elem; /* elem: bytes per element */
    WarpsimTexFormat format;
    uint64_t width, height, depth; /* elements, as allocated (CUDA's: height 0 a 1D array, depth 0
                                      none); a layered array's depth is its layers, a cube map's
                                      its faces */
    unsigned flags;
    uint64_t base;
    WarpsimArrayLayout layout;
} ApiArray;

/* An array of width x height x depth elements of `channels` channels of channel_bytes: the
 * extent and flags checked against each other and the layout computed (base left 0). */
ApiErr api_array_init(ApiArray *a, uint32_t channels, uint32_t channel_bytes, WarpsimTexFormat format, uint64_t width,
                      uint64_t height, uint64_t depth, unsigned flags, char *msg, size_t msg_len);

/* One side of a copy: linear memory at ptr (host or device; rows `pitch` bytes apart, slices
 * `slice` bytes apart), or an array; (x bytes, y, z): where the box starts in it. */
typedef struct ApiSide {
    char *ptr;
    size_t pitch, slice;
    const ApiArray *a;
    size_t x, y, z;
} ApiSide;

ApiSide api_side_linear(const void *ptr, size_t pitch, size_t slice);
ApiSide api_side_array(const ApiArray *a, size_t x_bytes, size_t y, size_t z);
/* An array side must hold a box of width bytes x height rows x depth slices; a linear one needs
 * a pointer, and rows that fit its pitch. `what`: "source" or "destination". */
ApiErr api_side_check(const ApiSide *s, size_t width, size_t height, size_t depth, const char *what, char *msg,
                      size_t msg_len);
/* The box copied run by run (an array's runs end with its 64-byte tile rows): copy(ctx, dst,
 * src, n) for each stretch contiguous on both sides. Stops at copy's first nonzero result and
 * returns it; 0 when done. The addresses of array and device sides are device addresses. */
typedef int (*ApiRunCopy)(void *ctx, char *dst, const char *src, size_t n);
int api_box_copy(const ApiSide *dst, const ApiSide *src, size_t width, size_t height, size_t depth, ApiRunCopy copy,
                 void *ctx);

#endif
