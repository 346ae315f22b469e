/* kernel.cu: BICG, the BiCGStab sub-kernel (s = A^T r, q = A p), as PolyBench/GPU computes it:
 * two 1-D kernels over a row-major nx x ny float matrix, 256-thread blocks.
 *
 * Kernel 1 gives thread j column j of A: a warp reads 32 consecutive floats of one row
 * (coalesced). Kernel 2 gives thread i row i: the 32 lanes of a warp load from 32 rows, 32
 * different cache lines per load (the memory-divergent kernel). Both accumulate straight
 * into global memory, as the original does. */

extern "C" __global__ void bicg_kernel1(int nx, int ny, float *A, float *r, float *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] += r[i] * A[i * ny + j];
    }
}

extern "C" __global__ void bicg_kernel2(int nx, int ny, float *A, float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            q[i] += A[i * ny + j] * p[j];
    }
}
