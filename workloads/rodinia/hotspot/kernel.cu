/* kernel.cu: Rodinia-style HotSpot, a 2-D thermal stencil advanced several time steps per
 * launch with the pyramid (ghost-zone) scheme: 16 x 16 thread blocks, one grid cell each.
 *
 * A block loads a 16 x 16 tile of temperature and power into shared memory, its tiles
 * overlapping the neighbours' by `iteration` cells on every side, and advances it
 * `iteration` steps in shared memory; after each step the valid region shrinks by one cell
 * per side, and only the inner (16 - 2 iteration)^2 cells, exact after all steps, are written
 * back. Cells outside the chip are not loaded; at the chip's edge a missing neighbour is
 * replaced by the cell itself. The loads and the store are row segments of 16 floats
 * (coherent). */

#define TILE 16
#define AMB_TEMP 80.0f

__device__ __forceinline__ bool in_range(int v, int lo, int hi)
{
    return v >= lo && v <= hi;
}

extern "C" __global__ void hotspot_step(int iteration, const float *power, const float *temp_src, float *temp_dst,
                                        int cols, int rows, int border_cols, int border_rows, float cap, float rx,
                                        float ry, float rz, float step)
{
    __shared__ float temp[TILE][TILE], pow_tile[TILE][TILE], next[TILE][TILE];
    float step_div_cap = step / cap, rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
    int tx = threadIdx.x, ty = threadIdx.y;

    /* This block's tile: it advances by the inner size, starting `border` cells outside. */
    int inner = TILE - 2 * iteration;
    int y0 = inner * blockIdx.y - border_rows, x0 = inner * blockIdx.x - border_cols;
    int y = y0 + ty, x = x0 + tx;
    int index = cols * y + x;
    if (in_range(y, 0, rows - 1) && in_range(x, 0, cols - 1)) {
        temp[ty][tx] = temp_src[index];
        pow_tile[ty][tx] = power[index];
    }
    __syncthreads();

    /* The part of the tile on the chip, in tile coordinates. */
    int valid_y0 = y0 < 0 ? -y0 : 0, valid_y1 = y0 + TILE - 1 > rows - 1 ? TILE - 1 - (y0 + TILE - rows) : TILE - 1;
    int valid_x0 = x0 < 0 ? -x0 : 0, valid_x1 = x0 + TILE - 1 > cols - 1 ? TILE - 1 - (x0 + TILE - cols) : TILE - 1;
    int n = max(ty - 1, valid_y0), s = min(ty + 1, valid_y1);
    int w = max(tx - 1, valid_x0), e = min(tx + 1, valid_x1);

    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (in_range(tx, i + 1, TILE - i - 2) && in_range(ty, i + 1, TILE - i - 2) &&
            in_range(tx, valid_x0, valid_x1) && in_range(ty, valid_y0, valid_y1)) {
            computed = true;
            float t = temp[ty][tx];
            next[ty][tx] = t + step_div_cap * (pow_tile[ty][tx] + (temp[s][tx] + temp[n][tx] - 2.0f * t) * ry_1 +
                                               (temp[ty][e] + temp[ty][w] - 2.0f * t) * rx_1 + (AMB_TEMP - t) * rz_1);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            temp[ty][tx] = next[ty][tx];
        __syncthreads();
    }
    if (computed)
        temp_dst[index] = next[ty][tx];
}
