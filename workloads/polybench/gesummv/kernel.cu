/* kernel.cu: GESUMMV (y = alpha A x + beta B x) as PolyBench/GPU computes it: one 1-D
 * kernel, 256-thread blocks, thread i walks row i of both row-major n x n float matrices.
 *
 * Each iteration has two fully divergent loads (A and B: 32 lanes, 32 rows, 32 cache lines
 * each) that compete for the L1D. The partial sums live in global memory (tmp, y), as in the
 * original. */

extern "C" __global__ void gesummv_kernel(int n, float alpha, float beta, float *a, float *b, float *x,
                                          float *y, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += b[i * n + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
