/* api_array.c: CUDA arrays and copies of boxes, shared by the runtime and driver libraries
 * (api_array.h).
 *
 * An array is one device allocation holding its elements in the layout of
 * warpsim_array_layout: arrays of two or more dimensions in tiles of 64 bytes x 8 rows, as a
 * GPU's block-linear layout keeps a 2D neighbourhood in few cache lines, 1D arrays row-major
 * (include/warpsim.h says why). Every copy is a box of rows: width bytes x height rows x depth
 * slices, each side either linear memory or an array addressed through its layout, copied in
 * the runs both sides keep contiguous, each run one checked flat copy of the library's, so a
 * box that leaves an allocation fails as a flat copy would. */
#include "api/api_array.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>

ApiErr api_say(ApiErr e, char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return e;
}

ApiErr api_array_init(ApiArray *a, uint32_t channels, uint32_t channel_bytes, WarpsimTexFormat format, uint64_t width,
                      uint64_t height, uint64_t depth, unsigned flags, char *msg, size_t msg_len)
{
    unsigned known = API_ARRAY_LAYERED | API_ARRAY_SURFACE_LDST | API_ARRAY_CUBEMAP | API_ARRAY_TEXTURE_GATHER;
    if (flags & ~known)
        return api_say(API_E_UNSUPPORTED, msg, msg_len, "flags 0x%x: only layered, surface load/store, cube-map and "
                   "texture-gather arrays are supported", flags);
    bool layered = flags & API_ARRAY_LAYERED, cube = flags & API_ARRAY_CUBEMAP;
    const char *bad = NULL;
    if (width == 0)
        bad = "a width of 0";
    else if (cube && (width != height || depth == 0 || depth % 6 || (!layered && depth != 6)))
        bad = "a cube map has square faces and a depth of 6 (times its layers, if layered)";
    else if (layered && depth == 0)
        bad = "a layered array has a depth (its layers) of at least 1";
    else if (!layered && !cube && depth && !height)
        bad = "a 3D array has a height";
    if (bad)
        return api_say(API_E_VALUE, msg, msg_len, "extent %llu x %llu x %llu, flags 0x%x: %s", (unsigned long long)width,
                   (unsigned long long)height, (unsigned long long)depth, flags, bad);
    uint32_t elem = channels * channel_bytes;
    *a = (ApiArray){.channels = channels, .channel_bytes = channel_bytes, .elem = elem, .format = format,
                    .width = width, .height = height, .depth = depth, .flags = flags};
    if (width > UINT64_MAX / elem || !warpsim_array_layout(width * elem, height, depth, height != 0, &a->layout))
        return api_say(API_E_MEMORY, msg, msg_len, "an array of %llu x %llu x %llu elements of %u bytes",
                   (unsigned long long)width, (unsigned long long)height, (unsigned long long)depth, elem);
    return API_OK;
}

ApiSide api_side_linear(const void *ptr, size_t pitch, size_t slice)
{
    return (ApiSide){.ptr = (char *)(uintptr_t)ptr, .pitch = pitch, .slice = slice}; /* a source is only read */
}

ApiSide api_side_array(const ApiArray *a, size_t x_bytes, size_t y, size_t z)
{
    return (ApiSide){.a = a, .x = x_bytes, .y = y, .z = z};
}

/* The address of byte xb of row y of slice z of the box, and the bytes contiguous from it. */
static char *side_at(const ApiSide *s, size_t xb, size_t y, size_t z, size_t *run)
{
    if (s->a) {
        uint64_t r, off = warpsim_array_offset(&s->a->layout, s->x + xb, s->y + y, s->z + z, &r);
        *run = (size_t)r;
        return (char *)(uintptr_t)(s->a->base + off);
    }
    *run = SIZE_MAX;
    return s->ptr + (s->z + z) * s->slice + (s->y + y) * s->pitch + s->x + xb;
}

ApiErr api_side_check(const ApiSide *s, size_t width, size_t height, size_t depth, const char *what, char *msg,
                      size_t msg_len)
{
    if (s->a) {
        const WarpsimArrayLayout *l = &s->a->layout;
        if (s->x + width < s->x || s->x + width > l->width_bytes || s->y + height < s->y || s->y + height > l->height ||
            s->z + depth < s->z || s->z + depth > l->slices)
            return api_say(API_E_VALUE, msg, msg_len, "a box of %zu bytes x %zu rows x %zu slices at (%zu bytes, %zu, "
                       "%zu) leaves the %s array of %llu bytes x %llu rows x %llu slices", width, height, depth, s->x,
                       s->y, s->z, what, (unsigned long long)l->width_bytes, (unsigned long long)l->height,
                       (unsigned long long)l->slices);
        return API_OK;
    }
    if (!s->ptr)
        return api_say(API_E_VALUE, msg, msg_len, "null %s pointer", what);
    if ((height > 1 || depth > 1) && s->x + width > s->pitch)
        return api_say(API_E_VALUE, msg, msg_len, "rows of %zu bytes at byte %zu in a %s pitch of %zu", width, s->x,
                   what, s->pitch);
    return API_OK;
}

int api_box_copy(const ApiSide *dst, const ApiSide *src, size_t width, size_t height, size_t depth, ApiRunCopy copy,
                 void *ctx)
{
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++)
            for (size_t x = 0; x < width;) {
                size_t rd, rs;
                char *d = side_at(dst, x, y, z, &rd), *s = side_at(src, x, y, z, &rs);
                size_t n = MIN(width - x, MIN(rd, rs));
                int r = copy(ctx, d, s, n);
                if (r != 0)
                    return r;
                x += n;
            }
    return 0;
}
