/* kernel.cu: separable convolution (CUDA SDK convolutionSeparable style): a row pass and a column
 * pass with one filter of radius 8 in constant memory, zero outside the image.
 *
 * Each pass stages a tile and its apron (the R pixels either side that the tile's outputs read)
 * in shared memory, then computes several outputs per thread from it:
 *   convsep_rows: 16 x 4 blocks; a block covers 4 rows of 128 pixels, each thread 8 outputs 16
 *     pixels apart, and loads the 16-pixel steps either side as apron (R <= 16).
 *   convsep_cols: 16 x 8 blocks; a block covers 64 rows of 16 pixels, each thread 8 outputs 8
 *     rows apart, and loads the 8-row steps above and below as apron (R <= 8).
 * Global loads and stores are row segments of 16 floats (coherent); out[p] = sum over k in -R..R
 * of filter[R - k] * in[p + k] along the pass's direction. */

#define R 8
#define TAPS (2 * R + 1)
#define STEPS 8 /* outputs per thread */

#define ROW_BX 16
#define ROW_BY 4
#define ROW_SPAN ((STEPS + 2) * ROW_BX) /* a tile row with its apron steps: 160 pixels */
#define ROW_PITCH (ROW_SPAN + 16)       /* the two rows a warp reads sit 16 banks apart */

#define COL_BX 16
#define COL_BY 8
#define COL_SPAN ((STEPS + 2) * COL_BY) /* tile rows with the apron steps: 80 */

__constant__ float convsep_filter[TAPS];

extern "C" __global__ void convsep_rows(float *dst, const float *src, int w, int h)
{
    __shared__ float tile[ROW_BY][ROW_PITCH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int y = blockIdx.y * ROW_BY + ty;
    int x0 = blockIdx.x * (STEPS * ROW_BX) - ROW_BX; /* the first apron step */
    const float *row = src + (size_t)y * w;

#pragma unroll
    for (int s = 0; s < STEPS + 2; s++) {
        int x = x0 + s * ROW_BX + tx;
        tile[ty][s * ROW_BX + tx] = x >= 0 && x < w ? row[x] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int s = 1; s <= STEPS; s++) {
        int c = s * ROW_BX + tx;
        float sum = 0.0f;
#pragma unroll
        for (int k = -R; k <= R; k++)
            sum += convsep_filter[R - k] * tile[ty][c + k];
        dst[(size_t)y * w + x0 + c] = sum;
    }
}

extern "C" __global__ void convsep_cols(float *dst, const float *src, int w, int h)
{
    __shared__ float tile[COL_SPAN][COL_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * COL_BX + tx;
    int y0 = blockIdx.y * (STEPS * COL_BY) - COL_BY; /* the first apron step */

#pragma unroll
    for (int s = 0; s < STEPS + 2; s++) {
        int y = y0 + s * COL_BY + ty;
        tile[s * COL_BY + ty][tx] = y >= 0 && y < h ? src[(size_t)y * w + x] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int s = 1; s <= STEPS; s++) {
        int r = s * COL_BY + ty;
        float sum = 0.0f;
#pragma unroll
        for (int k = -R; k <= R; k++)
            sum += convsep_filter[R - k] * tile[r + k][tx];
        dst[(size_t)(y0 + r) * w + x] = sum;
    }
}
