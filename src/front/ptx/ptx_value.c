/* ptx_value.c: IEEE half precision to and from double, for cvt and the f16 comparisons of the
 * PTX interpreter (the rest of ptx_value.h is inline).
 *
 * A double holds every half exactly, so widening is exact and f16 operands are computed on as
 * doubles. Narrowing rounds once: the magnitude is scaled to a whole number of the result's last
 * places, rounded (floor, ceil, or to nearest even by nearbyint in the default host mode) and
 * scaled back, so subnormal results and overflow take the same path as normal ones. */
#include "front/ptx/ptx_value.h"

#include "front/ptx/ptx_ir.h"

#include <math.h>
#include <string.h>

double ptx_f16_to_f64(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v;
    /* 2^(e - 25) built from its bits: exact, and no library call (ldexp) per conversion */
    uint64_t pow_bits = (uint64_t)(1023 + (e ? e : 1) - 25) << 52;
    double pw;
    memcpy(&pw, &pow_bits, sizeof pw);
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = m * pw; /* m x 2^-24 */
    else
        v = (m + 1024) * pw;
    return (h & 0x8000) ? -v : v;
}

uint16_t ptx_f64_to_f16(double x, uint8_t rnd)
{
    if (isnan(x))
        return 0x7E00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    bool away_up = (rnd == RND_RP && !sign) || (rnd == RND_RM && sign); /* magnitude rounds up */
    bool toward0 = rnd == RND_RZ || (rnd == RND_RP && sign) || (rnd == RND_RM && !sign);
    if (isinf(a))
        return sign | 0x7C00;
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int q = e - 1 < -14 ? -24 : e - 1 - 10;
    double n = ldexp(a, -q), r;
    if (toward0)
        r = floor(n);
    else if (away_up)
        r = ceil(n);
    else
        r = nearbyint(n); /* ties to even in the default mode */
    double mag = ldexp(r, q);
    if (mag > 65504.0)
        return sign | (toward0 ? 0x7BFF : 0x7C00);
    if (mag == 0)
        return sign;
    if (mag < ldexp(1, -14))
        return sign | (uint16_t)ldexp(mag, 24);
    frexp(mag, &e);
    int be = e - 1 + 15;
    uint16_t man = (uint16_t)(ldexp(mag, -(e - 1) + 10) - 1024);
    return sign | (uint16_t)(be << 10) | man;
}
