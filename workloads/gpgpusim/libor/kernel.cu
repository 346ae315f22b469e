/* kernel.cu: LIBOR market model Monte Carlo (the GPGPU-Sim ISPASS 2009 benchmark LIB): one
 * thread per path, 64-thread blocks.
 *
 * A thread evolves its path's 80 forward rates over 40 steps and values the 15-swaption
 * portfolio (libor_math.h). Its rates, discount factors and annuities are arrays indexed in
 * loops, so they live in local memory: most of the kernel's memory traffic is local, each
 * thread re-reading and re-writing its 80 rates 40 times. The normal draws z are read
 * coalesced (step n of all paths is contiguous); the volatilities, maturities and swap rates
 * are in constant memory, read by all threads alike. */
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
