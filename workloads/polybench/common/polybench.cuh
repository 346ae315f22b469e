/* polybench.cuh: device code the PolyBench/GPU-style kernels share, included by their
 * kernel.cu: CORR and COVAR's column means, 2MM and 3MM's accumulating matrix product. Each
 * kernel calls one of these functions, which nvcc inlines. */
#ifndef POLYBENCH_CUH
#define POLYBENCH_CUH

/* CORR and COVAR's first kernel: one thread per column j = 1..m of the 1-based (n+1) x (m+1)
 * data, walking down it, so a warp reads one row segment per step. The sum is accumulated in
 * place in global memory, as the original does. */
__device__ void pb_column_mean(float *mean, const float *data, int m, int n, float float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j > m)
        return;
    mean[j] = 0.0f;
    for (int i = 1; i <= n; i++)
        mean[j] += data[i * (m + 1) + j];
    mean[j] /= float_n;
}

/* out (rows x cols) += left (rows x inner) * right (inner x cols), row-major, for 2MM and 3MM:
 * one thread per output element on a 2-D grid, threadIdx.x along the output column, the sum
 * accumulated in out in global memory as the original does. */
__device__ void pb_matmul_acc(int rows, int cols, int inner, const float *left, const float *right, float *out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols) {
        for (int k = 0; k < inner; k++)
            out[i * cols + j] += left[i * inner + k] * right[k * cols + j];
    }
}

#endif
