/* kernel.cu: 2MM (C = A B, then E = C D; all row-major float) as PolyBench/GPU computes it:
 * two 2-D kernels, 32 x 8 blocks, one thread per output element, the sum accumulated in the
 * output matrix in global memory.
 *
 * threadIdx.x runs along j, the output column: the left operand's element is one address per
 * warp and the right operand's row is read 32 floats at a time (coalesced), which makes
 * this a memory-coherent workload. */

/* C (ni x nj) += A (ni x nk) * B (nk x nj) */
extern "C" __global__ void mm2_kernel1(int ni, int nj, int nk, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        for (int k = 0; k < nk; k++)
            c[i * nj + j] += a[i * nk + k] * b[k * nj + j];
    }
}

/* E (ni x nl) += C (ni x nj) * D (nj x nl) */
extern "C" __global__ void mm2_kernel2(int ni, int nj, int nl, float *c, float *d, float *e)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        for (int k = 0; k < nj; k++)
            e[i * nl + j] += c[i * nj + k] * d[k * nl + j];
    }
}
