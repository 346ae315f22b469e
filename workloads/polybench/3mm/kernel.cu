/* kernel.cu: 3MM (E = A B, F = C D, G = E F; all row-major float) as PolyBench/GPU computes
 * it: three 2-D kernels, 32 x 8 blocks, one thread per output element, each sum accumulated
 * in the output matrix in global memory.
 *
 * threadIdx.x runs along the output column: the left operand's element is one address per
 * warp and the right operand's row is read 32 floats at a time (coalesced), a
 * memory-coherent workload. */

#include "../common/polybench.cuh"

/* E (ni x nj) = A (ni x nk) * B (nk x nj) */
extern "C" __global__ void mm3_kernel1(int ni, int nj, int nk, float *a, float *b, float *e)
{
    pb_matmul_acc(ni, nj, nk, a, b, e);
}

/* F (nj x nl) = C (nj x nm) * D (nm x nl) */
extern "C" __global__ void mm3_kernel2(int nj, int nl, int nm, float *c, float *d, float *f)
{
    pb_matmul_acc(nj, nl, nm, c, d, f);
}

/* G (ni x nl) = E (ni x nj) * F (nj x nl) */
extern "C" __global__ void mm3_kernel3(int ni, int nl, int nj, float *e, float *f, float *g)
{
    pb_matmul_acc(ni, nl, nj, e, f, g);
}
