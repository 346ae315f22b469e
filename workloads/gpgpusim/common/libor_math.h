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
/* Loops stay loops: unrolled, ptxas keeps whole arrays in registers (168 a thread for
 * libor_sens, 45 for libor_paths) where the benchmark has them in local memory. */
#define LB_LOOP _Pragma("unroll 1")
#else
#include <math.h>
#define LB_FN static inline
#define LB_LOOP
#endif

#define LIBOR_N 80    /* forward rates */
#define LIBOR_NMAT 40 /* time steps */
#define LIBOR_NOPT 15 /* swaptions */

/* The portfolio's value on the path whose draws are z[n * z_stride], n < LIBOR_NMAT. */
LB_FN float libor_path_value(float *L, float *B, float *S, const float *z, int z_stride, float delta, float L0,
                             const float *lambda, const int *maturities, const float *swaprates)
{
    LB_LOOP
    for (int i = 0; i < LIBOR_N; i++)
        L[i] = L0;
    /* The rates evolve one step at a time; rate i's drift sums over the rates n+1..i. */
    LB_LOOP
    for (int n = 0; n < LIBOR_NMAT; n++) {
        float sqez = sqrtf(delta) * z[n * z_stride], v = 0.0f;
        LB_LOOP
        for (int i = n + 1; i < LIBOR_N; i++) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            L[i] *= expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
    }
    /* Discount factors and annuities at the last step. */
    float b = 1.0f, s = 0.0f;
    LB_LOOP
    for (int n = LIBOR_NMAT; n < LIBOR_N; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - LIBOR_NMAT] = b;
        S[n - LIBOR_NMAT] = s;
    }
    float value = 0.0f;
    LB_LOOP
    for (int k = 0; k < LIBOR_NOPT; k++) {
        int m = maturities[k] - 1;
        float swap = B[m] + swaprates[k] * S[m] - 1.0f;
        if (swap < 0.0f)
            value += -100.0f * swap;
    }
    /* back to time 0 through the rates as each was frozen */
    LB_LOOP
    for (int n = 0; n < LIBOR_NMAT; n++)
        value = value / (1.0f + delta * L[n]);
    return value;
}

/* The same value and its sensitivities L_b[i] = dV / dL_i(0), i < LIBOR_N, to the initial
 * rates, by an adjoint (reverse-mode) pass: the forward pass keeps the rates after every step,
 * L2[n * LIBOR_N + i] after n steps (LIBOR_N * (LIBOR_NMAT + 1) floats), and the reverse pass
 * walks back from the portfolio's sensitivities to the final rates (B_b, S_b: those to B and
 * S) through the steps. B, S, B_b and S_b hold LIBOR_N - LIBOR_NMAT floats each. */
LB_FN float libor_path_sens(float *L2, float *L_b, float *B, float *S, float *B_b, float *S_b, const float *z,
                            int z_stride, float delta, float L0, const float *lambda, const int *maturities,
                            const float *swaprates)
{
    LB_LOOP
    for (int i = 0; i < LIBOR_N; i++)
        L2[i] = L0;
    LB_LOOP
    for (int n = 0; n < LIBOR_NMAT; n++) {
        const float *Lo = L2 + n * LIBOR_N;
        float *Ln = L2 + (n + 1) * LIBOR_N;
        float sqez = sqrtf(delta) * z[n * z_stride], v = 0.0f;
        LB_LOOP
        for (int i = 0; i <= n; i++)
            Ln[i] = Lo[i];
        LB_LOOP
        for (int i = n + 1; i < LIBOR_N; i++) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            v += con1 * Lo[i] / (1.0f + delta * Lo[i]);
            Ln[i] = Lo[i] * expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
    }
    const float *L = L2 + LIBOR_NMAT * LIBOR_N;

    /* the portfolio (discounted value = undiscounted * discount) */
    float b = 1.0f, s = 0.0f;
    LB_LOOP
    for (int n = LIBOR_NMAT; n < LIBOR_N; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - LIBOR_NMAT] = b;
        S[n - LIBOR_NMAT] = s;
        B_b[n - LIBOR_NMAT] = 0.0f;
        S_b[n - LIBOR_NMAT] = 0.0f;
    }
    float discount = 1.0f, value = 0.0f;
    LB_LOOP
    for (int n = 0; n < LIBOR_NMAT; n++)
        discount = discount / (1.0f + delta * L[n]);
    LB_LOOP
    for (int k = 0; k < LIBOR_NOPT; k++) {
        int m = maturities[k] - 1;
        float swap = B[m] + swaprates[k] * S[m] - 1.0f;
        if (swap < 0.0f) {
            value += -100.0f * swap;
            B_b[m] += -100.0f * discount;
            S_b[m] += -100.0f * swaprates[k] * discount;
        }
    }
    value *= discount;

    /* back through the discount and the discount factors to the final rates */
    LB_LOOP
    for (int n = 0; n < LIBOR_NMAT; n++)
        L_b[n] = -value * delta / (1.0f + delta * L[n]);
    float b_b = 0.0f, s_b = 0.0f;
    LB_LOOP
    for (int n = LIBOR_N - 1; n >= LIBOR_NMAT; n--) {
        int j = n - LIBOR_NMAT;
        s_b += S_b[j];
        b_b += B_b[j] + delta * s_b;
        L_b[n] = -b_b * B[j] * delta / (1.0f + delta * L[n]);
        b_b = b_b / (1.0f + delta * L[n]);
    }

    /* back through the steps: rate i's new value depends on its old one directly and, through
     * the drift v, on the old rates n+1..i */
    LB_LOOP
    for (int n = LIBOR_NMAT - 1; n >= 0; n--) {
        const float *Lo = L2 + n * LIBOR_N, *Ln = L2 + (n + 1) * LIBOR_N;
        float v_b = 0.0f;
        LB_LOOP
        for (int i = LIBOR_N - 1; i > n; i--) {
            float lam = lambda[i - n - 1], con1 = delta * lam, f = 1.0f + delta * Lo[i];
            v_b += L_b[i] * Ln[i] * con1;
            L_b[i] = L_b[i] * (Ln[i] / Lo[i]) + v_b * con1 / (f * f);
        }
    }
    return value;
}

#endif
