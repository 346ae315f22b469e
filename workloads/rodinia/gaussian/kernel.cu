/* kernel.cu: Gaussian elimination (Rodinia Gaussian), one pair of launches per column t.
 *
 * a is the n x n matrix (row-major), b the right-hand side, m the multipliers (n x n, column t
 * filled at step t). ge_fan1 (1-D blocks): thread i computes the multiplier of row t+1+i - one
 * row per thread, so a warp's 32 loads hit 32 different rows. ge_fan2 (2-D 4x4 blocks): thread
 * (x, y) updates a[t+1+x][t+y], with x (the row) varying fastest within a block, so a 16-thread
 * warp touches 4 rows of 4 consecutive elements; the y == 0 threads also update b. */
extern "C" __global__ void ge_fan1(float *m, const float *a, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t)
        return;
    int row = t + 1 + i;
    m[n * row + t] = a[n * row + t] / a[n * t + t];
}

extern "C" __global__ void ge_fan2(const float *m, float *a, float *b, int n, int t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n - 1 - t || y >= n - t)
        return;
    int row = t + 1 + x, col = t + y;
    float mult = m[n * row + t];
    a[n * row + col] -= mult * a[n * t + col];
    if (y == 0)
        b[row] -= mult * b[t];
}
