/* libor_math.h: one Monte Carlo path of the LIBOR market model and the value of a swaption
 * portfolio on it, written once for libor's kernel (nvcc compiles it as a device function) and
 * its host program's CPU reference (a static inline function; include it after wl.h).
 *
 * The model (as in Giles' LIBOR code that GPGPU-Sim's ISPASS 2009 benchmarks include): N
 * forward rates L[i] over periods of length delta, all starting at L0, evolved over NMAT time
 * steps with one normal draw z_n each under the spot measure with volatilities lambda; then
 * NOPT receiver swaptions, each with a maturity (in periods) and a swap rate, are valued from
 * the discount factors B and annuities S of the rates beyond NMAT, and discounted to time 0.
 * The working arrays (L: N floats, B and S: N - NMAT each) are the caller's: per-thread local
 * memory in the kernel. */
#ifndef LIBOR_MATH_H
#define LIBOR_MATH_H

#ifdef __CUDACC__
#define LB_FN __device__
#else
#include <math.h>
#define LB_FN static inline
#endif

#define LIBOR_N 80    /* forward rates */
#define LIBOR_NMAT 40 /* time steps */
#define LIBOR_NOPT 15 /* swaptions */

/* The portfolio's value on the path whose draws are z[n * z_stride], n < LIBOR_NMAT. */
LB_FN float libor_path_value(float *L, float *B, float *S, const float *z, int z_stride, float delta, float L0,
                             const float *lambda, const int *maturities, const float *swaprates)
{
    for (int i = 0; i < LIBOR_N; i++)
        L[i] = L0;
    /* The rates evolve one step at a time; rate i's drift sums over the rates n+1..i. */
    for (int n = 0; n < LIBOR_NMAT; n++) {
        float sqez = sqrtf(delta) * z[n * z_stride], v = 0.0f;
        for (int i = n + 1; i < LIBOR_N; i++) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            L[i] *= expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
    }
    /* Discount factors and annuities at the last step. */
    float b = 1.0f, s = 0.0f;
    for (int n = LIBOR_NMAT; n < LIBOR_N; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - LIBOR_NMAT] = b;
        S[n - LIBOR_NMAT] = s;
    }
    float value = 0.0f;
    for (int k = 0; k < LIBOR_NOPT; k++) {
        int m = maturities[k] - 1;
        float swap = B[m] + swaprates[k] * S[m] - 1.0f;
        if (swap < 0.0f)
            value += -100.0f * swap;
    }
    /* back to time 0 through the rates as each was frozen */
    for (int n = 0; n < LIBOR_NMAT; n++)
        value = value / (1.0f + delta * L[n]);
    return value;
}

#endif
