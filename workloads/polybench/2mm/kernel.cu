/* kernel.cu: 2MM (C = A B, then E = C D; all row-major float) as PolyBench/GPU computes it:
 * two 2-D kernels, 32 x 8 blocks, one thread per output element, the sum accumulated in the
 * output matrix in global memory.
 *
 * threadIdx.x runs along j, the output column: the left operand's element is one address per
 * warp and the right operand's row is read 32 floats at a time (coalesced), which makes
 * this a memory-coherent workload. */

#include "../common/polybench.cuh"

/* C (ni x nj) += A (ni x nk) * B (nk x nj) */
extern "C" __global__ void mm2_kernel1(int ni, int nj, int nk, float *a, float *b, float *c)
{
    pb_matmul_acc(ni, nj, nk, a, b, c);
}

/* E (ni x nl) += C (ni x nj) * D (nj x nl) */
extern "C" __global__ void mm2_kernel2(int ni, int nj, int nl, float *c, float *d, float *e)
{
    pb_matmul_acc(ni, nl, nj, c, d, e);
}
