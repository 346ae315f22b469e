/* kernel.cu: SYR2K (C = alpha A B^T + alpha B A^T + beta C; A, B are n x m, C is n x n, all
 * row-major float) as PolyBench/GPU computes it: one 2-D kernel, 32 x 8 blocks, one thread
 * per element of C (the full matrix).
 *
 * threadIdx.x runs along j: A[i][k] and B[i][k] are one address per warp, while A[j][k] and
 * B[j][k] each touch 32 rows m floats apart (two memory-divergent loads per iteration).
 * C[i][j] is coalesced and holds the running sum in global memory, as in the original. */

extern "C" __global__ void syr2k_kernel(int n, int m, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= beta;
        for (int k = 0; k < m; k++)
            c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
    }
}
