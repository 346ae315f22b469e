/* rodinia_math.h: arithmetic that a Rodinia-style kernel and its host program's CPU reference
 * must do alike, written once. nvcc compiles it into kernel.cu as device functions; the C
 * compiler compiles it into host.c as static inline functions (include it after wl.h). Both
 * sides then run the same float operations in the same order. */
#ifndef RODINIA_MATH_H
#define RODINIA_MATH_H

#ifdef __CUDACC__
#define RD_FN __device__
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
#define RD_FN static inline
#endif

/* ---- particlefilter: noise, weights, pixel rounding ---- */

/* A uniform draw in [0, 1) from particle i's 32-bit LCG seed[i], which it advances. */
RD_FN float pf_uniform(unsigned *seed, int i)
{
    unsigned s = seed[i] * 1103515245u + 12345u;
    seed[i] = s;
    return (float)(s >> 8) * (1.0f / 16777216.0f);
}

/* Sum of four uniforms, centred and scaled to unit variance. */
RD_FN float pf_normal(unsigned *seed, int i)
{
    float a = pf_uniform(seed, i), b = pf_uniform(seed, i), c = pf_uniform(seed, i), d = pf_uniform(seed, i);
    return (((a + b) + (c + d)) - 2.0f) * 1.7320508f;
}

/* The float whose bits are `bits`. */
RD_FN float pf_float_bits(int bits)
{
#ifdef __CUDACC__
    return __int_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

/* exp(x) from exactly rounded operations only, so the host can repeat it bit for bit (expf
 * uses the approximate ex2 instruction): x = n ln2 + r with |r| <= ln2 / 2, e^r by its
 * degree-7 Taylor polynomial (error below half an ulp), 2^n built from its exponent bits. */
RD_FN float pf_exp(float x)
{
    float n = fminf(fmaxf(rintf(x * 1.44269504f), -126.0f), 127.0f);
    float r = fmaf(n, -0.693145751953125f, x); /* ln 2 split in two for an exact product */
    r = fmaf(n, -1.42860677e-6f, r);
    float p = 1.0f / 5040.0f;
    p = fmaf(p, r, 1.0f / 720.0f);
    p = fmaf(p, r, 1.0f / 120.0f);
    p = fmaf(p, r, 1.0f / 24.0f);
    p = fmaf(p, r, 1.0f / 6.0f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    return p * pf_float_bits(((int)n + 127) << 23);
}

/* A position's pixel: rounded half up. */
RD_FN int pf_round(float v)
{
    return (int)floorf(v + 0.5f);
}

/* ---- srad: the diffusion coefficient ---- */

/* The coefficient of a pixel jc from its differences n, s, w, e to the four neighbours: the
 * normalized gradient magnitude and Laplacian give the instantaneous coefficient of variation,
 * compared with the speckle scale q0sqr; clamped to [0, 1]. */
RD_FN float srad_coefficient(float n, float s, float w, float e, float jc, float q0sqr)
{
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    return c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
}

#endif
