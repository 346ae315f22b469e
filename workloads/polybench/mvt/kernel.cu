/* kernel.cu: MVT (x1 += A y1, x2 += A^T y2) as PolyBench/GPU computes it: two 1-D kernels
 * over a row-major n x n float matrix, 256-thread blocks, one thread per output element.
 *
 * Kernel 1 gives thread i row i of A: the 32 lanes of a warp load from 32 rows, 32 different
 * cache lines per load (memory-divergent). Kernel 2 gives thread i column i: a warp reads 32
 * consecutive floats of one row (coalesced). Both add onto the vectors' initial values in
 * global memory, as the original does. */

extern "C" __global__ void mvt_kernel1(int n, float *a, float *x1, float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y1[j];
    }
}

extern "C" __global__ void mvt_kernel2(int n, float *a, float *x2, float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
    }
}
