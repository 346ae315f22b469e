/* ptx_value.h: how PTX values sit in the interpreter's 64-bit registers and in literals
 * (internal to src/front/ptx): floats as their IEEE bits, integers of every width zero- or
 * sign-extended, halves converted through double; and the integer comparison and conversion
 * that both the interpreter (ptx_alu.c) and the address evaluator (ptx_slice.c) compute.
 *
 * The bit casts go through memcpy, the only portable way to reinterpret bits in C; a .f32 is
 * the low 32 bits of its register, whatever lies above them. */
#ifndef WARPSIM_PTX_VALUE_H
#define WARPSIM_PTX_VALUE_H

#include "front/ptx/ptx_ir.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline float ptx_as_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline double ptx_as_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ptx_from_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t ptx_from_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* All ones in the low `bytes` bytes. */
static inline uint64_t ptx_zmask(unsigned bytes) { return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1; }
/* The low `bytes` bytes of v, sign-extended (sgn) or zero-extended to 64 bits. */
static inline uint64_t ptx_ext(uint64_t v, unsigned bytes, bool sgn)
{
    if (bytes >= 8)
        return v;
    unsigned sh = 64 - 8 * bytes;
    return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : v & ptx_zmask(bytes);
}

/* An integer comparison (CMP_EQ .. CMP_HS) of two values already extended from their type. */
static inline bool ptx_int_compare(uint8_t cmp, uint64_t a, uint64_t b, bool sgn)
{
    switch (cmp) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return sgn ? (int64_t)a < (int64_t)b : a < b;
    case CMP_LE: return sgn ? (int64_t)a <= (int64_t)b : a <= b;
    case CMP_GT: return sgn ? (int64_t)a > (int64_t)b : a > b;
    case CMP_GE: return sgn ? (int64_t)a >= (int64_t)b : a >= b;
    case CMP_LO: return a < b;
    case CMP_LS: return a <= b;
    case CMP_HI: return a > b;
    case CMP_HS: return a >= b;
    default: return false;
    }
}

/* cvt between integer types: v read as type s (extended), converted to type d with optional
 * saturation, and written as d is held in a register (sign-extended if signed). */
static inline uint64_t ptx_int_convert(uint64_t v, uint8_t s, uint8_t d, bool sat)
{
    unsigned sb = ptx_type_bytes(s), db = ptx_type_bytes(d);
    bool ss = ptx_type_signed(s), ds = ptx_type_signed(d);
    uint64_t x = ptx_ext(v, sb, ss);
    if (sat) {
        if (ss) {
            int64_t y = (int64_t)x;
            int64_t lo = ds ? (db >= 8 ? INT64_MIN : -(int64_t)(1ull << (8 * db - 1))) : 0;
            int64_t hi = ds ? (db >= 8 ? INT64_MAX : (int64_t)((1ull << (8 * db - 1)) - 1))
                            : (db >= 8 ? INT64_MAX : (int64_t)ptx_zmask(db));
            if (y < lo)
                y = lo;
            if (y > hi)
                y = hi;
            x = (uint64_t)y;
        } else {
            uint64_t hi = ds ? ((1ull << (8 * db - 1)) - 1) : ptx_zmask(db);
            if (x > hi)
                x = hi;
        }
    }
    return ds ? ptx_ext(x, db, true) : x & ptx_zmask(db);
}

/* IEEE half precision (cvt and f16 comparisons). The double holds every half exactly; NaNs
 * come back as the host's quiet NaN with the half's sign. */
double ptx_f16_to_f64(uint16_t h);
/* The same value as a float, (float)ptx_f16_to_f64(h), without branches for finite halves: the
 * bits moved into a float's fields and scaled by 2^112, exact for normal and subnormal halves
 * alike (a multiplication by a power of two, in any rounding mode). */
static inline float ptx_f16_to_f32(uint16_t h)
{
    uint32_t em = h & 0x7fffu, sign = (uint32_t)(h & 0x8000u) << 16, bits;
    if (em >= 0x7c00u)
        bits = em == 0x7c00u ? 0x7f800000u : 0x7fc00000u;
    else
        bits = (uint32_t)ptx_from_f32(ptx_as_f32((uint64_t)em << 13) * 0x1p112f);
    return ptx_as_f32(bits | sign);
}
/* Round x to a half as rnd says (RND_RZ, RND_RM, RND_RP; anything else to nearest even, which
 * expects the host's default rounding mode); NaN gives the canonical quiet NaN 0x7E00. */
uint16_t ptx_f64_to_f16(double x, uint8_t rnd);

#endif
