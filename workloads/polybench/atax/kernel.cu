/* kernel.cu: ATAX (y = A^T (A x)) as PolyBench/GPU computes it: two 1-D kernels over a
 * row-major nx x ny float matrix, one thread per output element, 256-thread blocks.
 *
 * Kernel 1 gives thread i row i of A, so the 32 lanes of a warp load from 32 rows at once:
 * 32 different cache lines per load (the memory-divergent kernel). Kernel 2 gives thread j
 * column j, so a warp reads 32 consecutive floats of one row (coalesced). Both accumulate
 * straight into global memory as the original does, so every iteration also loads and
 * stores the partial sum. */

extern "C" __global__ void atax_kernel1(int nx, int ny, float *A, float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        tmp[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            tmp[i] += A[i * ny + j] * x[j];
    }
}

extern "C" __global__ void atax_kernel2(int nx, int ny, float *A, float *y, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        y[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            y[j] += A[i * ny + j] * tmp[i];
    }
}
