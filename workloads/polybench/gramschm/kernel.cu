/* kernel.cu: Gram-Schmidt QR (A = Q R, A and Q ni x nj, R nj x nj, row-major float) as
 * PolyBench/GPU computes it: the host walks the columns k and launches three 1-D kernels per
 * column (256-thread blocks).
 *
 *   kernel 1: a single thread sums column k of A (stride nj) and stores R[k][k] = its norm;
 *   kernel 2: thread i scales row i's element of column k into Q (32 lanes, 32 rows);
 *   kernel 3: thread j > k projects column j on q_k (R[k][j]) and subtracts the projection;
 *             a warp reads 32 consecutive floats of a row of A (coalesced), Q[i][k] is one
 *             address per warp, and R[k][j] accumulates in global memory. */

extern "C" __global__ void gramschmidt_kernel1(int ni, int nj, float *a, float *r, float *q, int k)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0) {
        float nrm = 0.0f;
        for (int i = 0; i < ni; i++)
            nrm += a[i * nj + k] * a[i * nj + k];
        r[k * nj + k] = sqrtf(nrm);
    }
}

extern "C" __global__ void gramschmidt_kernel2(int ni, int nj, float *a, float *r, float *q, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ni)
        q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
}

extern "C" __global__ void gramschmidt_kernel3(int ni, int nj, float *a, float *r, float *q, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < nj) {
        r[k * nj + j] = 0.0f;
        for (int i = 0; i < ni; i++)
            r[k * nj + j] += q[i * nj + k] * a[i * nj + j];
        for (int i = 0; i < ni; i++)
            a[i * nj + j] -= q[i * nj + k] * r[k * nj + j];
    }
}
