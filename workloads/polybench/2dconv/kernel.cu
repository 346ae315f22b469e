/* kernel.cu: 2-D convolution with a fixed 3x3 filter (PolyBench/GPU 2DCONV).
 *
 * One thread per output element of the row-major ni x nj matrix b: x walks columns (j) so a
 * warp's 32 lanes read 32 consecutive floats of each of the three input rows. Border elements
 * are left untouched. */

extern "C" __global__ void conv2d(const float *a, float *b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i <= 0 || j <= 0 || i >= ni - 1 || j >= nj - 1)
        return;

    const float *above = a + (i - 1) * nj + j;
    const float *here = a + i * nj + j;
    const float *below = a + (i + 1) * nj + j;
    /* Summed column by column (left, centre, right), the order the original adds its terms in. */
    b[i * nj + j] = 0.2f * above[-1] - 0.3f * here[-1] + 0.4f * below[-1]
                  + 0.5f * above[0] + 0.6f * here[0] + 0.7f * below[0]
                  - 0.8f * above[1] - 0.9f * here[1] + 0.1f * below[1];
}
