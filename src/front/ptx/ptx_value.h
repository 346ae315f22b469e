/* ptx_value.h: how PTX values sit in the interpreter's 64-bit registers and in literals
 * (internal to src/front/ptx): floats as their IEEE bits, integers of every width zero- or
 * sign-extended, halves converted through double.
 *
 * The bit casts go through memcpy, the only portable way to reinterpret bits in C; a .f32 is
 * the low 32 bits of its register, whatever lies above them. */
#ifndef WARPSIM_PTX_VALUE_H
#define WARPSIM_PTX_VALUE_H

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

/* IEEE half precision (cvt and f16 comparisons). The double holds every half exactly; NaNs
 * come back as the host's quiet NaN with the half's sign. */
double ptx_f16_to_f64(uint16_t h);
/* Round x to a half as rnd says (RND_RZ, RND_RM, RND_RP; anything else to nearest even, which
 * expects the host's default rounding mode); NaN gives the canonical quiet NaN 0x7E00. */
uint16_t ptx_f64_to_f16(double x, uint8_t rnd);

#endif
