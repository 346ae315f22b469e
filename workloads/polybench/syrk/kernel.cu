/* kernel.cu: SYRK (C = alpha A A^T + beta C; A is n x m, C is n x n, both row-major float) as
 * PolyBench/GPU computes it: one 2-D kernel, 32 x 8 blocks, one thread per element of C
 * (the full matrix, not one triangle).
 *
 * threadIdx.x runs along j, the column of C, so the 32 lanes of a warp share i and have 32
 * consecutive j: A[i][k] is one address for the whole warp, A[j][k] touches 32 rows m floats
 * apart (32 cache lines, memory-divergent), C[i][j] is coalesced. The 8 warps of a block
 * share their j range and so re-read the same A[j][k] lines (inter-warp locality). The sum
 * accumulates in C in global memory, as in the original. */

extern "C" __global__ void syrk_kernel(int n, int m, float alpha, float beta, float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= beta;
        for (int k = 0; k < m; k++)
            c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
    }
}
