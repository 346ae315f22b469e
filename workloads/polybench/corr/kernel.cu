/* kernel.cu: correlation matrix of the m columns of an n x m data matrix (PolyBench/GPU CORR).
 *
 * Same 1-based row-major layout as COVAR (row length m+1, row and column 0 unused). Four
 * kernels: column means, column standard deviations, normalisation, and the upper triangle of
 * the correlation matrix mirrored into the lower one. */

#include "../common/polybench.cuh"

/* The column means, one thread per column (see pb_column_mean). */
extern "C" __global__ void corr_mean(float *mean, const float *data, int m, int n, float float_n)
{
    pb_column_mean(mean, data, m, n, float_n);
}

/* One thread per column j. A (near-)constant column gets 1 so the division below stays finite. */
extern "C" __global__ void corr_std(const float *mean, float *stddev, const float *data, int m, int n,
                                    float float_n, float eps)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j > m)
        return;
    stddev[j] = 0.0f;
    for (int i = 1; i <= n; i++) {
        float d = data[i * (m + 1) + j] - mean[j];
        stddev[j] += d * d;
    }
    stddev[j] /= float_n;
    stddev[j] = sqrtf(stddev[j]);
    if (stddev[j] <= eps)
        stddev[j] = 1.0f;
}

/* One thread per element: centre and scale it. */
extern "C" __global__ void corr_reduce(const float *mean, const float *stddev, float *data, int m, int n,
                                       float float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= m) {
        data[i * (m + 1) + j] -= mean[j];
        data[i * (m + 1) + j] /= sqrtf(float_n) * stddev[j];
    }
}

/* One thread per column j1 < m: a 1 on the diagonal, then for every j2 > j1 the dot product of
 * the two columns accumulated straight into symmat (lanes m+2 floats apart), then mirrored. */
extern "C" __global__ void corr_corr(float *symmat, const float *data, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 >= m)
        return;
    symmat[j1 * (m + 1) + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 <= m; j2++) {
        float *s = symmat + j1 * (m + 1) + j2;
        *s = 0.0f;
        for (int i = 1; i <= n; i++)
            *s += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
        symmat[j2 * (m + 1) + j1] = *s;
    }
}
