/* kernel.cu: covariance of the m columns of an n x m data matrix (PolyBench/GPU COVAR).
 *
 * Arrays are row-major with one unused leading row and column (indices run 1..n and 1..m, row
 * length m+1), the original's layout. Three kernels: column means, centring, and the upper
 * triangle of the covariance matrix mirrored into the lower one. */

#include "../common/polybench.cuh"

/* The column means, one thread per column (see pb_column_mean). */
extern "C" __global__ void covar_mean(float *mean, const float *data, int m, int n, float float_n)
{
    pb_column_mean(mean, data, m, n, float_n);
}

/* One thread per element: subtract its column's mean. */
extern "C" __global__ void covar_reduce(const float *mean, float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= m)
        data[i * (m + 1) + j] -= mean[j];
}

/* One thread per column j1: for every j2 >= j1 it walks both columns down and accumulates the
 * dot product straight into symmat (lanes hit addresses m+2 floats apart), then mirrors it. */
extern "C" __global__ void covar_covar(float *symmat, const float *data, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 > m)
        return;
    for (int j2 = j1; j2 <= m; j2++) {
        float *s = symmat + j1 * (m + 1) + j2;
        *s = 0.0f;
        for (int i = 1; i <= n; i++)
            *s += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
        symmat[j2 * (m + 1) + j1] = *s;
    }
}
