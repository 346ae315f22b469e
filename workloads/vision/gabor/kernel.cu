/* kernel.cu: a Gabor filter bank applied to an image by direct 2-D convolution, one launch per
 * filter (orientation and scale).
 *
 * The bank's 9 x 9 filters sit in constant memory, one row of GABOR_TAPS floats per filter; a
 * launch gets the filter's index. One thread computes one output pixel, on 16 x 16 blocks: it
 * reads the 9 x 9 neighbourhood of its pixel straight from global memory (rows and columns
 * clamped to the image, so every load is in bounds) and writes the correlation
 *     out[y][x] = sum over dy, dx in -R..R of f[dy + R][dx + R] * img[y + dy][x + dx].
 * A warp covers two 16-pixel row segments, so each load touches 2-3 lines, and neighbouring
 * blocks read each other's border rows and columns (coherent, with inter-block reuse). */

#define R 4
#define SIDE (2 * R + 1)
#define GABOR_TAPS (SIDE * SIDE)
#define GABOR_MAX_FILTERS 128
#define B 16

__constant__ float gabor_bank[GABOR_MAX_FILTERS * GABOR_TAPS];

extern "C" __global__ void gabor_filter(float *out, const float *img, int w, int h, int filter)
{
    int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const float *f = gabor_bank + filter * GABOR_TAPS;

    const float *col[SIDE]; /* the row-0 addresses of the clamped columns */
#pragma unroll
    for (int i = 0; i < SIDE; i++)
        col[i] = img + min(max(x + i - R, 0), w - 1);

    /* Rows one at a time: with both loops unrolled ptxas takes 64 registers instead of 52. */
    float sum = 0.0f;
#pragma unroll 1
    for (int i = 0; i < SIDE; i++) {
        size_t row = (size_t)min(max(y + i - R, 0), h - 1) * w;
#pragma unroll
        for (int j = 0; j < SIDE; j++)
            sum += f[i * SIDE + j] * col[j][row];
    }
    out[(size_t)y * w + x] = sum;
}
