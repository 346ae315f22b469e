/* kernel.cu: LIBOR market model Monte Carlo (the GPGPU-Sim ISPASS 2009 benchmark LIB): one
 * thread per path, 64-thread blocks, two kernels.
 *
 * libor_paths evolves a path's 80 forward rates over 40 steps and values the 15-swaption
 * portfolio; libor_sens does the same keeping the rates of every step and then computes the
 * value's sensitivities to the 80 initial rates by an adjoint pass (libor_math.h). The rates,
 * discount factors and annuities are arrays indexed in loops, so they live in local memory:
 * most of the memory traffic is local, libor_paths re-reading and re-writing its 80 rates 40
 * times, libor_sens writing 41 x 80 rates (13 KB a thread) and reading them back in reverse.
 * The normal draws z are read coalesced (step n of all paths is contiguous), and so are the
 * sensitivities written (rate i of all paths is contiguous); the volatilities, maturities and
 * swap rates are in constant memory, read by all threads alike. */
#include "../common/libor_math.h"

__constant__ float libor_lambda[LIBOR_N];
__constant__ int libor_maturities[LIBOR_NOPT];
__constant__ float libor_swaprates[LIBOR_NOPT];

extern "C" __global__ void libor_paths(const float *z, float *values, int n_paths, float delta, float L0)
{
    float L[LIBOR_N], B[LIBOR_N - LIBOR_NMAT], S[LIBOR_N - LIBOR_NMAT];
    int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path < n_paths)
        values[path] = libor_path_value(L, B, S, z + path, n_paths, delta, L0, libor_lambda, libor_maturities,
                                        libor_swaprates);
}

extern "C" __global__ void libor_sens(const float *z, float *values, float *sens, int n_paths, float delta, float L0)
{
    float L2[LIBOR_N * (LIBOR_NMAT + 1)], L_b[LIBOR_N];
    float B[LIBOR_N - LIBOR_NMAT], S[LIBOR_N - LIBOR_NMAT], B_b[LIBOR_N - LIBOR_NMAT], S_b[LIBOR_N - LIBOR_NMAT];
    int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path < n_paths) {
        values[path] = libor_path_sens(L2, L_b, B, S, B_b, S_b, z + path, n_paths, delta, L0, libor_lambda,
                                       libor_maturities, libor_swaprates);
        LB_LOOP
        for (int i = 0; i < LIBOR_N; i++)
            sens[i * n_paths + path] = L_b[i];
    }
}
