/* host.c: LIBOR market model Monte Carlo, swaption portfolio valuation (see kernel.cu and
 * ../common/libor_math.h), as the GPGPU-Sim ISPASS 2009 benchmark LIB runs it: 80 forward
 * rates starting at 5.1%, quarterly periods (delta 0.25), 40 time steps, volatility 0.2 for
 * every rate, 15 swaptions (maturities 4, 8, 20, 28 and 40 periods, swap rates 4.5%, 5% and
 * 5.5% each), 64-thread blocks. Like Giles' code, two kernels: the portfolio's value alone
 * (libor_paths), then the value and its path-wise sensitivities to the 80 initial rates by an
 * adjoint pass over the stored rates of every step (libor_sens).
 *
 * The normal draws are generated on the host (Box-Muller from the wl.h generator) and uploaded,
 * step-major (z[n * paths + path]). The host averages the paths' values into the price and
 * their sensitivities into the portfolio's deltas.
 *
 * Arguments: paths (a multiple of 64), seed. Sizes:
 *   small (default) paths=512: 8 blocks, one on each of 8 SMs (each thread's work is that of
 *     the paper size; 2048 paths take half a minute on the timing model).
 *   paper paths=4096: the benchmark's 64 blocks of 64 threads.
 * Check: every path's value (from both kernels) and sensitivities against the CPU running the
 * same code (libor_math.h). The kernels' expf and fused multiply-adds round differently: the
 * values agree to 5e-5 relative, the sensitivities, through 40 reverse steps, to about 1e-4
 * (seeds 1-3), so the tolerance is 5e-4 relative (below 1 absolute). The adjoint itself was
 * checked against finite differences in double precision when it was written. */
#include "wl.h"
#include "../common/libor_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 64

int main(int argc, char **argv)
{
    static const char *const keys[] = {"paths", "seed"};
    long val[] = {512, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < THREADS || val[0] % THREADS || val[0] > (1L << 22)) {
        fprintf(stderr, "libor: paths must be a positive multiple of %d, at most 2^22\n", THREADS);
        return 2;
    }
    int n_paths = (int)val[0];
    float delta = 0.25f, L0 = 0.051f;
    float lambda[LIBOR_N], swaprates[LIBOR_NOPT];
    int maturities[LIBOR_NOPT];
    static const int mat_set[5] = {4, 8, 20, 28, 40};
    static const float rate_set[3] = {0.045f, 0.05f, 0.055f};
    for (int i = 0; i < LIBOR_N; i++)
        lambda[i] = 0.2f;
    for (int k = 0; k < LIBOR_NOPT; k++) {
        maturities[k] = mat_set[k / 3];
        swaprates[k] = rate_set[k % 3];
    }

    size_t n_z = (size_t)LIBOR_NMAT * n_paths;
    size_t n_sens = (size_t)LIBOR_N * n_paths;
    float *z = malloc(n_z * sizeof *z), *got = malloc(n_paths * sizeof *got), *want = malloc(n_paths * sizeof *want);
    float *got2 = malloc(n_paths * sizeof *got2), *want2 = malloc(n_paths * sizeof *want2);
    float *sens = malloc(n_sens * sizeof *sens), *sens_want = malloc(n_sens * sizeof *sens_want);
    if (!z || !got || !want || !got2 || !want2 || !sens || !sens_want) {
        fprintf(stderr, "libor: out of memory\n");
        return 1;
    }
    wl_seed((uint64_t)val[1]);
    for (size_t i = 0; i < n_z; i += 2) {
        double u1 = 1.0 - wl_randf(), u2 = wl_randf(); /* u1 in (0, 1] */
        double r = sqrt(-2.0 * log(u1));
        z[i] = (float)(r * cos(6.283185307179586 * u2));
        if (i + 1 < n_z)
            z[i + 1] = (float)(r * sin(6.283185307179586 * u2));
    }

    wl_init();
    CUfunction paths = wl_kernel("libor_paths"), k_sens = wl_kernel("libor_sens");
    wl_copy_to(wl_symbol("libor_lambda", NULL), lambda, sizeof lambda);
    wl_copy_to(wl_symbol("libor_maturities", NULL), maturities, sizeof maturities);
    wl_copy_to(wl_symbol("libor_swaprates", NULL), swaprates, sizeof swaprates);
    CUdeviceptr d_z = wl_upload(z, n_z * sizeof *z), d_values = wl_alloc(n_paths * sizeof *got);
    CUdeviceptr d_values2 = wl_alloc(n_paths * sizeof *got2), d_sens = wl_alloc(n_sens * sizeof *sens);
    void *args[] = {&d_z, &d_values, &n_paths, &delta, &L0};
    wl_launch(paths, (unsigned)(n_paths / THREADS), 1, 1, THREADS, 1, 1, 0, args);
    void *sens_args[] = {&d_z, &d_values2, &d_sens, &n_paths, &delta, &L0};
    wl_launch(k_sens, (unsigned)(n_paths / THREADS), 1, 1, THREADS, 1, 1, 0, sens_args);
    wl_download(got, d_values, n_paths * sizeof *got);
    wl_download(got2, d_values2, n_paths * sizeof *got2);
    wl_download(sens, d_sens, n_sens * sizeof *sens);

    static float L2[LIBOR_N * (LIBOR_NMAT + 1)];
    float L_b[LIBOR_N], B[LIBOR_N - LIBOR_NMAT], S[LIBOR_N - LIBOR_NMAT];
    float B_b[LIBOR_N - LIBOR_NMAT], S_b[LIBOR_N - LIBOR_NMAT];
    double price = 0, price_want = 0, delta_sum = 0;
    for (int p = 0; p < n_paths; p++) {
        want[p] = libor_path_value(L2, B, S, z + p, n_paths, delta, L0, lambda, maturities, swaprates);
        want2[p] = libor_path_sens(L2, L_b, B, S, B_b, S_b, z + p, n_paths, delta, L0, lambda, maturities, swaprates);
        for (int i = 0; i < LIBOR_N; i++)
            sens_want[(size_t)i * n_paths + p] = L_b[i];
        price += got[p];
        price_want += want[p];
    }
    for (size_t k = 0; k < n_sens; k++)
        delta_sum += sens[k];
    printf("libor: %d paths, portfolio value %.6f (CPU %.6f), sensitivity to a parallel shift %.3f\n", n_paths,
           price / n_paths, price_want / n_paths, delta_sum / n_paths);

    double err = wl_max_err_f(got, want, n_paths);
    double err2 = wl_max_err_f(got2, want2, n_paths), err3 = wl_max_err_f(sens, sens_want, n_sens);
    err = err2 > err ? err2 : err;
    err = err3 > err ? err3 : err;
    free(z), free(got), free(want), free(got2), free(want2), free(sens), free(sens_want);
    return wl_finish("libor", err, 5e-4);
}
