/* ptx_tex.c: texture fetches (tex) and surface accesses (suld.b, sust.b) of the PTX
 * interpreter, on the texture and surface objects of ptx_mem.c (PtxTexture, ptx.h).
 *
 * tex follows the CUDA Programming Guide's appendix on texture fetching. A coordinate is
 * scaled by its dimension's size when the object has normalised coordinates; point sampling
 * takes texel floor(x), linear filtering texels i = floor(x - 0.5) and i + 1 with weight
 * alpha = frac(x - 0.5) held, as the guide says the hardware does, in 9-bit fixed point with 8
 * fractional bits. The texels' weights are whole 1/256ths too (tex_weights), computed the way
 * an H200 computes them (measured with tools/native/texprobe.cu, docs/cuda.md): alpha rounded
 * half up; in 2D the product of the two alphas rounded and the other three weights by
 * difference, so that they sum to 1 exactly; in 3D nearly so (tex_weights). Each texel index goes through its dimension's
 * address mode: wrap and mirror (which CUDA allows only with normalised coordinates: otherwise
 * clamp), clamp to the edge, or border (a texel outside reads the border colour's float bits,
 * also in an integer read, as the driver API's documentation says). Linear memory
 * (tex1Dfetch) takes integer indices and reads zeros outside, as before. A cube map picks its
 * face by the coordinate of largest magnitude (the guide's table; on a tie z before y before x,
 * as the hardware does) and samples the face with clamp; filtering does not cross faces (no
 * seamless cube maps). Layer indices are clamped to the layers there are.
 *
 * To the timing model a fetch is one load per lane in the texture space, the bytes of one
 * element at the first texel it reads (a filtered fetch's other texels are its neighbours,
 * mostly in the same 64-byte tile row of an array); see docs/cuda.md.
 *
 * Surfaces: x is a byte offset (a multiple of the access size), y, z and the layer indices; an
 * access outside the surface faults (.trap), is moved to the nearest element inside (.clamp),
 * or reads zeros and writes nothing (.zero). */
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_value.h"

#include <math.h>
#include <stdio.h>

/* One channel's raw bits as the 32-bit value a tex instruction returns. */
static uint32_t tex_channel(const PtxTexture *t, uint64_t raw)
{
    unsigned bits = 8 * t->channel_bytes;
    if (t->format == PTX_TEX_FLOAT)
        return t->channel_bytes == 2 ? (uint32_t)ptx_from_f32((float)ptx_f16_to_f64((uint16_t)raw)) : (uint32_t)raw;
    bool sg = t->format == PTX_TEX_SIGNED;
    int64_t v = (int64_t)ptx_ext(raw, t->channel_bytes, sg);
    if (t->normalized && bits < 32) { /* cudaReadModeNormalizedFloat */
        float f = sg ? (float)v / (float)((1u << (bits - 1)) - 1) : (float)v / (float)((1u << bits) - 1);
        return (uint32_t)ptx_from_f32(f < -1.0f ? -1.0f : f);
    }
    return (uint32_t)v;
}

/* Texel index i of a dimension of n texels through address mode `mode`; -1: the border. */
static int64_t address(int64_t i, int64_t n, unsigned mode)
{
    switch (mode) {
    case PTX_ADDR_WRAP:
        i %= n;
        return i < 0 ? i + n : i;
    case PTX_ADDR_MIRROR: {
        int64_t p = i % (2 * n);
        p = p < 0 ? p + 2 * n : p;
        return p < n ? p : 2 * n - 1 - p;
    }
    case PTX_ADDR_BORDER:
        return i < 0 || i >= n ? -1 : i;
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* floorf without the library's rounding-mode sequence: a float of magnitude 2^23 or more (or
 * NaN, or an infinity) is already integral; below that the truncation is exact. The sign of a
 * zero may differ from floorf's, which no caller sees. */
static inline float tex_floorf(float x)
{
    if (!(fabsf(x) < 8388608.0f))
        return x;
    float t = (float)(int32_t)x;
    return t > x ? t - 1.0f : t;
}

/* floor of a texel coordinate, kept in a range where the index arithmetic cannot overflow
 * (NaN counts as 0). */
static int64_t texel_floor(float x)
{
    if (!(x == x))
        return 0;
    float f = tex_floorf(x);
    return f < -(float)(1 << 30) ? -(1 << 30) : f > (float)(1 << 30) ? (1 << 30) : (int64_t)f;
}

/* The cube map face a direction points at and the face's normalised (s, t) coordinates. */
static unsigned cube_face(float x, float y, float z, float *u, float *v)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
    unsigned face;
    if (az >= ax && az >= ay) { /* ties: z, then y, then x (measured) */
        face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
    } else if (ay >= ax) {
        face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
    } else {
        face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
    }
    *u = m > 0 ? (s / m + 1.0f) * 0.5f : 0.5f;
    *v = m > 0 ? (t / m + 1.0f) * 0.5f : 0.5f;
    return face;
}

/* Where one lane samples: up to three dimensions, each two texels (lo, lo + 1) and the weight
 * of the second in 1/256ths (or one texel), and the slice (layer, face). */
typedef struct Sample {
    int64_t idx[3][2];
    unsigned a[3];
    unsigned taps[3];
    uint64_t slice;
} Sample;

/* a * b / 256 rounded half up: the hardware's product of two 1/256th weights. */
static unsigned tex_mul8(unsigned a, unsigned b) { return (a * b + 128) >> 8; }

/* The weight of each texel of a filtered fetch, w[z][y][x] in 1/256ths, from the alphas of the
 * filtered dimensions; the weights sum to 256. These reproduce every fetch of an H200 measured in
 * 1D and 2D (including products that fall on a half). In 3D the weight is split along z, each
 * half along x and each quarter along y, every split rounded half up: 97.5% of the measured
 * fetches exactly, the rest within 1/256 in two weights (docs/cuda.md). */
static void tex_weights(const Sample *s, unsigned w[2][2][2])
{
    unsigned a0 = s->a[0], a1 = s->a[1], a2 = s->a[2];
    if (s->taps[2] == 2) {
        for (unsigned z = 0; z < 2; z++) {
            unsigned zw = z ? a2 : 256 - a2, xw[2] = {zw - tex_mul8(zw, a0), tex_mul8(zw, a0)};
            for (unsigned x = 0; x < 2; x++) {
                w[z][1][x] = tex_mul8(xw[x], a1);
                w[z][0][x] = xw[x] - w[z][1][x];
            }
        }
    } else if (s->taps[1] == 2) {
        unsigned p = tex_mul8(a0, a1);
        w[0][0][0] = 256 - a0 - a1 + p, w[0][0][1] = a0 - p, w[0][1][0] = a1 - p, w[0][1][1] = p;
    } else {
        w[0][0][0] = 256 - a0, w[0][0][1] = a0;
    }
}

static void locate(const PtxTexture *t, const PtxInst *in, const float *c, const int32_t *ic, uint32_t layer,
                   Sample *s)
{
    bool ints = in->type2 == PT_S32, cube = in->mode == TEXG_CUBE || in->mode == TEXG_ACUBE;
    unsigned dims = in->mode == TEXG_3D ? 3 : in->mode == TEXG_1D || in->mode == TEXG_A1D ? 1 : 2;
    uint32_t size[3] = {t->width, t->height, t->depth};
    float coord[3] = {c[0], c[1], c[2]};
    bool norm = t->norm_coords;
    uint64_t layers = t->cube ? t->slices / 6 : t->slices;
    s->slice = in->mode == TEXG_A1D || in->mode == TEXG_A2D || in->mode == TEXG_ACUBE
                   ? (layer < layers ? layer : layers - 1) : 0;
    if (cube) {
        s->slice = s->slice * 6 + cube_face(c[0], c[1], c[2], &coord[0], &coord[1]);
        norm = true;
    }
    for (unsigned d = 0; d < 3; d++) {
        s->taps[d] = 1;
        s->a[d] = 0;
        if (d >= dims) {
            s->idx[d][0] = 0;
            continue;
        }
        int64_t n = size[d];
        unsigned mode = cube ? PTX_ADDR_CLAMP : t->address[d];
        if (!norm && (mode == PTX_ADDR_WRAP || mode == PTX_ADDR_MIRROR))
            mode = PTX_ADDR_CLAMP;
        if (t->kind == PTX_TEXK_LINEAR)
            mode = PTX_ADDR_BORDER; /* tex1Dfetch: zeros outside */
        int64_t i;
        if (ints) {
            i = ic[d];
        } else {
            float x = norm ? coord[d] * (float)n : coord[d];
            if (t->linear_filter) {
                x -= 0.5f;
                i = texel_floor(x);
                float frac = x - tex_floorf(x); /* 9-bit fixed point, 8 fractional bits, half up */
                s->a[d] = (unsigned)tex_floorf(frac * 256.0f + 0.5f);
                s->taps[d] = 2;
                s->idx[d][1] = address(i + 1, n, mode);
            } else {
                i = texel_floor(x);
            }
        }
        s->idx[d][0] = address(i, n, mode);
    }
}

/* Whether all of t's texels lie inside one live allocation: its last byte is at the largest
 * x, y and slice (ptx_tex_offset grows with each). */
static bool tex_inside(PtxMemory *mem, const PtxTexture *t)
{
    uint64_t eb = (uint64_t)t->channels * t->channel_bytes, slices = (uint64_t)t->depth * t->slices;
    if (!t->width || !t->height || !slices || !eb)
        return false;
    uint64_t span = ptx_tex_offset(&t->layout, t->width * eb - 1, t->height - 1, slices - 1) + 1;
    return span <= UINT32_MAX && ptx_mem_valid(mem, t->base, (unsigned)span, false);
}

/* tex.GEOM.v4.T.C d, [handle, {coordinates}]: a texel (or a filtered blend of texels) of the
 * object, one channel per destination (channels the format lacks read 0). */
void ptx_exec_tex(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out)
{
    const uint64_t *hv = w->regs + (size_t)in->o[1].reg * WARP_SIZE;
    const PtxOperand *cv = &in->o[2], *d = &in->o[0];
    bool layered = in->mode == TEXG_A1D || in->mode == TEXG_A2D || in->mode == TEXG_ACUBE;
    const PtxTexture *t = NULL;
    uint64_t handle = 0;
    bool inside = false; /* every texel of t lies in live memory: no tap needs checking */
    FOR_LANES(active, i) {
        if (!t || hv[i] != handle) { /* the lanes of a warp nearly always share one object */
            handle = hv[i];
            t = ptx_memory_texture(l->mem, handle);
            inside = t && !t->surface && tex_inside(l->mem, t);
        }
        if (!t || t->surface) {
            char msg[96];
            snprintf(msg, sizeof msg, "tex: 0x%llx is not a texture object", (unsigned long long)hv[i]);
            ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
            return;
        }
        /* the coordinates, after the layer when layered */
        uint64_t raw[4] = {0, 0, 0, 0};
        for (unsigned k = 0; k < cv->n; k++)
            if (cv->vreg[k] != PTX_NO_REG)
                raw[k] = w->regs[(size_t)cv->vreg[k] * WARP_SIZE + i];
        const uint64_t *cr = raw + layered;
        float c[3];
        int32_t ic[3];
        for (unsigned k = 0; k < 3; k++) {
            c[k] = ptx_as_f32(cr[k]);
            ic[k] = (int32_t)cr[k];
        }
        Sample s;
        locate(t, in, c, ic, layered ? (uint32_t)raw[0] : 0, &s);
        uint32_t eb = t->channels * t->channel_bytes;
        bool filter = t->linear_filter && in->type2 != PT_S32;
        unsigned wts[2][2][2];
        if (filter)
            tex_weights(&s, wts);
        float acc[4] = {0, 0, 0, 0};
        uint32_t bits[4] = {0, 0, 0, 0};
        uint64_t first = t->base;
        bool have_first = false;
        for (unsigned c2 = 0; c2 < s.taps[2]; c2++)
            for (unsigned c1 = 0; c1 < s.taps[1]; c1++)
                for (unsigned c0 = 0; c0 < s.taps[0]; c0++) {
                    int64_t x = s.idx[0][c0], y = s.idx[1][c1], z = s.idx[2][c2];
                    float wt = filter ? (float)wts[c2][c1][c0] / 256.0f : 1.0f;
                    uint32_t v[4];
                    if (x < 0 || y < 0 || z < 0) {
                        bool zero = t->kind == PTX_TEXK_LINEAR;
                        for (unsigned k = 0; k < 4; k++) /* integer reads too: the float's bits */
                            v[k] = zero ? 0 : (uint32_t)ptx_from_f32(t->border[k]);
                    } else {
                        uint64_t addr = t->base + ptx_tex_offset(&t->layout, (uint64_t)x * eb, (uint64_t)y,
                                                                 (uint64_t)z + s.slice);
                        if (!inside && !ptx_mem_valid(l->mem, addr, eb, false)) { /* its memory was freed */
                            char why[320];
                            ptx_memory_describe(l->mem, addr, eb, why, sizeof why);
                            ptx_access_fault(l, w, i, pc, PTX_FAULT_ILLEGAL_ADDRESS, ACC_TEX, eb, SP_GLOBAL, addr, why);
                            return;
                        }
                        if (!have_first)
                            first = addr, have_first = true;
                        for (unsigned k = 0; k < 4; k++)
                            v[k] = k < t->channels ? tex_channel(t, ptx_mem_load(l->mem, addr + k * t->channel_bytes,
                                                                                 t->channel_bytes))
                                                   : 0;
                    }
                    for (unsigned k = 0; k < 4; k++) {
                        if (filter)
                            acc[k] += wt * ptx_as_f32(v[k]);
                        else
                            bits[k] = v[k];
                    }
                }
        for (unsigned k = 0; k < 4; k++) {
            uint32_t v = filter ? (uint32_t)ptx_from_f32(acc[k]) : bits[k];
            if (d->vreg[k] != PTX_NO_REG)
                w->regs[(size_t)d->vreg[k] * WARP_SIZE + i] =
                    in->type == PT_S32 ? (uint64_t)(int64_t)(int32_t)v : (uint64_t)v;
        }
        if (out) {
            out->addr[i] = first;
            out->s.access_bytes = (uint8_t)eb;
        }
    }
}

/* suld.b / sust.b: vec elements of the type's bytes at byte x of row y of slice z. */
void ptx_exec_surface(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out)
{
    bool load = in->op == OP_SULD;
    const PtxOperand *h = &in->o[load ? 1 : 0], *cv = &in->o[load ? 2 : 1], *vals = &in->o[load ? 0 : 2];
    bool layered = in->mode == TEXG_A1D || in->mode == TEXG_A2D;
    unsigned tb = ptx_type_bytes(in->type), bytes = tb * in->vec;
    FOR_LANES(active, i) {
        const PtxTexture *t = ptx_memory_texture(l->mem, w->regs[(size_t)h->reg * WARP_SIZE + i]);
        if (!t || !t->surface) {
            char msg[96];
            snprintf(msg, sizeof msg, "%s: 0x%llx is not a surface object", load ? "suld" : "sust",
                     (unsigned long long)w->regs[(size_t)h->reg * WARP_SIZE + i]);
            ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
            return;
        }
        int64_t c[4] = {0, 0, 0, 0};
        for (unsigned k = 0; k < cv->n; k++)
            if (cv->vreg[k] != PTX_NO_REG)
                c[k] = (int32_t)w->regs[(size_t)cv->vreg[k] * WARP_SIZE + i];
        /* x in bytes, y, z (the slice: depth or layer) */
        int64_t x = c[layered], y = in->mode == TEXG_1D || in->mode == TEXG_A1D ? 0 : c[layered + 1];
        int64_t z = in->mode == TEXG_3D ? c[2] : layered ? c[0] : 0;
        int64_t row = (int64_t)t->width * t->channels * t->channel_bytes;
        int64_t lim[3] = {row - (int64_t)bytes, (int64_t)t->height - 1,
                          (int64_t)(in->mode == TEXG_3D ? t->depth : t->slices) - 1};
        int64_t *p[3] = {&x, &y, &z};
        bool outside = false;
        for (unsigned k = 0; k < 3; k++)
            outside |= *p[k] < 0 || *p[k] > lim[k];
        if (x % bytes) {
            char why[96];
            snprintf(why, sizeof why, "surface byte offset %lld: not a multiple of %u", (long long)x, bytes);
            ptx_access_fault(l, w, i, pc, PTX_FAULT_MISALIGNED, load ? ACC_SULD : ACC_SUST, bytes, SP_GLOBAL,
                             t->base, why);
            return;
        }
        if (outside && in->boolop == SU_TRAP) {
            char why[192];
            snprintf(why, sizeof why, "outside the surface: byte %lld of rows of %lld bytes, row %lld of %u, "
                     "slice %lld of %lld", (long long)x, (long long)row, (long long)y, t->height, (long long)z,
                     (long long)lim[2] + 1);
            ptx_access_fault(l, w, i, pc, PTX_FAULT_ILLEGAL_ADDRESS, load ? ACC_SULD : ACC_SUST, bytes, SP_GLOBAL,
                             t->base, why);
            return;
        }
        if (outside && in->boolop == SU_CLAMP)
            for (unsigned k = 0; k < 3; k++)
                *p[k] = *p[k] < 0 ? 0 : *p[k] > lim[k] ? lim[k] / (k ? 1 : bytes) * (k ? 1 : bytes) : *p[k];
        bool skip = outside && in->boolop == SU_ZERO;
        uint64_t addr = t->base + ptx_tex_offset(&t->layout, (uint64_t)x, (uint64_t)y, (uint64_t)z);
        if (!skip && !ptx_mem_valid(l->mem, addr, bytes, false)) {
            char why[320];
            ptx_memory_describe(l->mem, addr, bytes, why, sizeof why);
            ptx_access_fault(l, w, i, pc, PTX_FAULT_ILLEGAL_ADDRESS, load ? ACC_SULD : ACC_SUST, bytes, SP_GLOBAL,
                             addr, why);
            return;
        }
        for (unsigned k = 0; k < in->vec; k++) {
            uint16_t r = vals->vreg[k];
            if (load) {
                if (r != PTX_NO_REG)
                    w->regs[(size_t)r * WARP_SIZE + i] = skip ? 0 : ptx_mem_load(l->mem, addr + k * tb, tb);
            } else if (!skip && r != PTX_NO_REG &&
                       !ptx_mem_store(l->mem, addr + k * tb, w->regs[(size_t)r * WARP_SIZE + i], tb)) {
                ptx_store_refused(l, addr + k * tb, pc);
                return;
            }
        }
        if (out) {
            out->addr[i] = addr;
            out->s.access_bytes = (uint8_t)bytes;
        }
    }
}
