/* sim_texture.c: CUDA array layouts and the checks of texture and surface objects of the
 * embedding API (include/warpsim.h).
 *
 * An array's layout is the interpreter's (ptx_tex_offset): arrays of two or more dimensions in
 * tiles of 64 bytes x 8 rows, so that a 2D neighbourhood of texels shares cache lines as in a
 * GPU's block-linear layout (a 128-byte line holds 64 bytes of two rows, a 16 x 2 block of
 * floats, where a row-major layout would hold 32 x 1), slices one after another; 1D arrays
 * row-major, where tiling would only waste rows. The library's copies (runtime_copy3d.c) and
 * the interpreter's fetches both address an array through it. */
#include "sim/sim_texture.h"

#include <stdio.h>

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

int warpsim_array_layout(uint64_t width_bytes, uint64_t height, uint64_t slices, int tiled, WarpsimArrayLayout *out)
{
    WarpsimArrayLayout l = {.width_bytes = width_bytes, .height = height ? height : 1,
                            .slices = slices ? slices : 1, .tiled = tiled != 0};
    uint64_t rows = l.height;
    l.row_bytes = width_bytes;
    if (tiled) {
        if (width_bytes > UINT64_MAX - PTX_TILE_BYTES || rows > UINT64_MAX - PTX_TILE_ROWS)
            return 0;
        l.row_bytes = (width_bytes + PTX_TILE_BYTES - 1) / PTX_TILE_BYTES * PTX_TILE_BYTES;
        rows = (rows + PTX_TILE_ROWS - 1) / PTX_TILE_ROWS * PTX_TILE_ROWS;
    }
    if (!mul_ok(l.row_bytes, rows, &l.slice_bytes) || !mul_ok(l.slice_bytes, l.slices, &l.bytes))
        return 0;
    *out = l;
    return 1;
}

uint64_t warpsim_array_offset(const WarpsimArrayLayout *l, uint64_t xb, uint64_t y, uint64_t z, uint64_t *run)
{
    PtxTexLayout pl = {.row_bytes = l->row_bytes, .slice_bytes = l->slice_bytes, .tiled = l->tiled != 0};
    if (run) {
        uint64_t end = l->tiled ? (xb / PTX_TILE_BYTES + 1) * PTX_TILE_BYTES : l->width_bytes;
        *run = (end < l->width_bytes ? end : l->width_bytes) - xb;
    }
    return ptx_tex_offset(&pl, xb, y, z);
}

bool sim_texture_convert(const WarpsimTexture *t, PtxTexture *out, char *why, size_t why_len)
{
    uint32_t cb = t->channel_bytes;
    if (t->channels < 1 || t->channels > 4 || (cb != 1 && cb != 2 && cb != 4) ||
        (t->format == WARPSIM_TEX_FLOAT && cb == 1) || t->format > WARPSIM_TEX_FLOAT) {
        snprintf(why, why_len, "texture of %u channels of %u bytes (format %d): unsupported", t->channels, cb,
                 (int)t->format);
        return false;
    }
    uint64_t eb = (uint64_t)t->channels * cb;
    PtxTexture p = {.base = t->base, .channels = t->channels, .channel_bytes = cb,
                    .format = (uint8_t)(t->format == WARPSIM_TEX_FLOAT ? PTX_TEX_FLOAT
                                        : t->format == WARPSIM_TEX_SIGNED ? PTX_TEX_SIGNED : PTX_TEX_UNSIGNED),
                    .normalized = t->normalized != 0, .surface = t->surface != 0,
                    .linear_filter = t->linear_filter != 0, .norm_coords = t->normalized_coords != 0,
                    .width = 1, .height = 1, .depth = 1, .slices = 1, .dims = 1};
    for (int i = 0; i < 3; i++) {
        if (t->address[i] < 0 || t->address[i] > PTX_ADDR_BORDER) {
            snprintf(why, why_len, "address mode %d: not one of wrap (0), clamp (1), mirror (2), border (3)",
                     t->address[i]);
            return false;
        }
        p.address[i] = (uint8_t)t->address[i];
    }
    for (int i = 0; i < 4; i++)
        p.border[i] = t->border[i];
    if (p.linear_filter && p.format != PTX_TEX_FLOAT && !(p.normalized && cb < 4)) {
        snprintf(why, why_len, "linear filtering of %u-byte integer channels read as integers: filtering needs "
                 "float results (a float format, or cudaReadModeNormalizedFloat)", cb);
        return false;
    }
    uint64_t need = 0;
    switch (t->kind) {
    case WARPSIM_TEX_LINEAR:
        p.kind = PTX_TEXK_LINEAR;
        p.count = t->count;
        p.width = t->count > UINT32_MAX ? UINT32_MAX : (uint32_t)t->count;
        p.layout.row_bytes = p.layout.slice_bytes = t->count * eb;
        need = t->count;
        break;
    case WARPSIM_TEX_PITCH2D:
        p.kind = PTX_TEXK_PITCH2D;
        p.dims = 2;
        if (t->width == 0 || t->height == 0 || t->width > UINT32_MAX || t->height > UINT32_MAX ||
            t->pitch < t->width * eb) {
            snprintf(why, why_len, "pitched 2D texture of %llu x %llu elements of %llu bytes in rows of %llu bytes",
                     (unsigned long long)t->width, (unsigned long long)t->height, (unsigned long long)eb,
                     (unsigned long long)t->pitch);
            return false;
        }
        p.width = (uint32_t)t->width;
        p.height = (uint32_t)t->height;
        p.layout.row_bytes = t->pitch;
        p.layout.slice_bytes = t->pitch * t->height;
        need = 1;
        break;
    case WARPSIM_TEX_ARRAY: {
        p.kind = PTX_TEXK_ARRAY;
        p.cube = t->cube != 0;
        p.layered = t->layers != 0;
        p.dims = p.cube ? 2 : t->depth ? 3 : t->height ? 2 : 1;
        uint64_t h = t->height ? t->height : 1, d = t->depth && !p.cube ? t->depth : 1;
        uint64_t slices = (p.cube ? 6 : 1) * (p.layered ? t->layers : 1);
        if (p.layered && t->depth && !p.cube) {
            snprintf(why, why_len, "a layered array has no depth");
            return false;
        }
        if (t->width == 0 || t->width > UINT32_MAX || h > UINT32_MAX || d > UINT32_MAX || slices > UINT32_MAX ||
            (p.cube && t->width != t->height)) {
            snprintf(why, why_len, "array of %llu x %llu x %llu elements, %llu layers%s", (unsigned long long)t->width,
                     (unsigned long long)t->height, (unsigned long long)t->depth, (unsigned long long)t->layers,
                     p.cube ? ", a cube map (square faces)" : "");
            return false;
        }
        const WarpsimArrayLayout *l = &t->layout;
        if (l->width_bytes != t->width * eb || l->height < h || l->slices < d * slices) {
            snprintf(why, why_len, "array layout of %llu-byte rows, %llu rows, %llu slices does not hold the "
                     "texture's %llu x %llu x %llu elements", (unsigned long long)l->width_bytes,
                     (unsigned long long)l->height, (unsigned long long)l->slices, (unsigned long long)t->width,
                     (unsigned long long)h, (unsigned long long)(d * slices));
            return false;
        }
        p.width = (uint32_t)t->width;
        p.height = (uint32_t)h;
        p.depth = (uint32_t)d;
        p.slices = (uint32_t)slices;
        p.layout.row_bytes = l->row_bytes;
        p.layout.slice_bytes = l->slice_bytes;
        p.layout.tiled = l->tiled != 0;
        need = 1;
        break;
    }
    default:
        snprintf(why, why_len, "texture kind %d: unknown", (int)t->kind);
        return false;
    }
    if (need && !t->base) {
        snprintf(why, why_len, "texture at a null address");
        return false;
    }
    *out = p;
    return true;
}
