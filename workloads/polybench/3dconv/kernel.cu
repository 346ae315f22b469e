/* kernel.cu: 3-D convolution over one plane (PolyBench/GPU 3DCONV).
 *
 * The host launches this once per interior plane i. Within the plane, x walks k (the contiguous
 * dimension) and y walks j, so a warp reads 32 consecutive floats of each row it touches.
 * The sum is the original's: 15 products over 11 distinct points of the 3x3x3 neighbourhood
 * (some points appear with two or three coefficients), with its coefficients and order. */

extern "C" __global__ void conv3d_plane(const float *a, float *b, int ni, int nj, int nk, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i <= 0 || j <= 0 || k <= 0 || i >= ni - 1 || j >= nj - 1 || k >= nk - 1)
        return;

    int plane = nj * nk;
    /* p<di><dj>: the row at (i+di, j+dj) centred on column k; m = -1, z = 0, p = +1 */
    const float *pmm = a + (i - 1) * plane + (j - 1) * nk + k;
    const float *ppm = a + (i + 1) * plane + (j - 1) * nk + k;
    const float *pzm = a + i * plane + (j - 1) * nk + k;
    const float *pzz = a + i * plane + j * nk + k;
    const float *pzp = a + i * plane + (j + 1) * nk + k;
    const float *pmz = a + (i - 1) * plane + j * nk + k;
    const float *ppz = a + (i + 1) * plane + j * nk + k;
    const float *pmp = a + (i - 1) * plane + (j + 1) * nk + k;
    const float *ppp = a + (i + 1) * plane + (j + 1) * nk + k;

    b[i * plane + j * nk + k] = 2.0f * pmm[-1] + 4.0f * ppm[-1]
                              + 5.0f * pmm[-1] + 7.0f * ppm[-1]
                              - 8.0f * pmm[-1] + 10.0f * ppm[-1]
                              - 3.0f * pzm[0] + 6.0f * pzz[0]
                              - 9.0f * pzp[0] + 2.0f * pmm[1]
                              + 4.0f * ppm[1] + 5.0f * pmz[1]
                              + 7.0f * ppz[1] - 8.0f * pmp[1]
                              + 10.0f * ppp[1];
}
