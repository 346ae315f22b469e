/* kernel.cu: 2-D finite-difference time-domain step (PolyBench/GPU FDTD-2D).
 *
 * Fields are row-major: ex is nx x (ny+1), ey is (nx+1) x ny, hz is nx x ny. Each time step is
 * three launches, one thread per (i, j) with x walking j, so every load of a warp is one row
 * segment. */

/* ey from hz; row 0 takes the source value of step t. */
extern "C" __global__ void fdtd_step_ey(const float *fict, float *ey, const float *hz, int nx, int ny, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    if (i == 0)
        ey[j] = fict[t];
    else
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

/* ex from hz; column 0 is left alone. */
extern "C" __global__ void fdtd_step_ex(float *ex, const float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j > 0 && j < ny)
        ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

/* hz from the new ex and ey; the last row and column are left alone. */
extern "C" __global__ void fdtd_step_hz(const float *ex, const float *ey, float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx - 1 && j < ny - 1)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j]
                                                  + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
