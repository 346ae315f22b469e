/* kernel.cu: LBM, one time step of a D3Q19 lattice-Boltzmann fluid (BGK collision), in the shape
 * of Parboil's LBM: a structure-of-arrays lattice (distribution q of every cell contiguous, x
 * fastest), one thread per cell, one CTA per (y, z) row of nx cells, no shared memory.
 *
 * Each cell pulls its 19 distributions from its neighbours (periodic in x, y and z), bouncing
 * back from solid neighbours (halfway bounce-back), relaxes them towards the local equilibrium
 * and writes them to the other lattice: 19 loads at offsets of one cell or one row from the
 * thread's own cell (coalesced, shifted), the flag loads, and 19 coalesced stores a cell. The
 * stores are as many as the loads: LBM is the write-heavy, memory-coherent benchmark of the
 * OAWS study (thesis Table 5.2). Solid cells copy their distributions unchanged. */

#define Q 19

__constant__ int lbm_ex[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int lbm_ey[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int lbm_ez[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant__ int lbm_opp[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
__constant__ float lbm_w[Q] = {1.0f / 3,  1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18,
                               1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36,
                               1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

extern "C" __global__ void lbm_step(const float *src, float *dst, const int *solid, int nx, int ny, int nz,
                                    float omega)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    if (x >= nx)
        return;
    long n = (long)nx * ny * nz;
    long cell = ((long)z * ny + y) * nx + x;
    float f[Q];
    if (solid[cell]) {
        for (int q = 0; q < Q; q++)
            dst[q * n + cell] = src[q * n + cell];
        return;
    }
    for (int q = 0; q < Q; q++) {
        int sx = (x - lbm_ex[q] + nx) % nx, sy = (y - lbm_ey[q] + ny) % ny, sz = (z - lbm_ez[q] + nz) % nz;
        long from = ((long)sz * ny + sy) * nx + sx;
        f[q] = solid[from] ? src[lbm_opp[q] * n + cell] : src[q * n + from];
    }
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
    for (int q = 0; q < Q; q++) {
        rho += f[q];
        ux += f[q] * lbm_ex[q];
        uy += f[q] * lbm_ey[q];
        uz += f[q] * lbm_ez[q];
    }
    ux /= rho;
    uy /= rho;
    uz /= rho;
    float uu = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int q = 0; q < Q; q++) {
        float eu = 3.0f * (lbm_ex[q] * ux + lbm_ey[q] * uy + lbm_ez[q] * uz);
        float feq = lbm_w[q] * rho * (1.0f + eu + 0.5f * eu * eu - uu);
        dst[q * n + cell] = f[q] + omega * (feq - f[q]);
    }
}
