/* kernel.cu: matrix transpose, naive and tiled (CUDA SDK transpose sample style).
 *
 * idata is h rows of w floats; odata gets w rows of h floats. A 32x8 block covers a 32x32 tile,
 * each thread moving four elements eight rows apart. */

#define TILE 32
#define ROWS 8

/* Reads rows of the tile (coalesced) and writes them as columns: the 32 lanes of a warp store
 * h floats apart, one line each. */
extern "C" __global__ void transpose_naive(float *odata, const float *idata, int w, int h)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        odata[x * h + y + r] = idata[(y + r) * w + x];
}

/* Stages the tile in shared memory so both the global read and the global write are row
 * segments. The extra column shifts each tile row by one bank, so reading a tile column hits
 * 32 different banks. */
extern "C" __global__ void transpose_tiled(float *odata, const float *idata, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        tile[threadIdx.y + r][threadIdx.x] = idata[(y + r) * w + x];

    __syncthreads();

    /* The block's tile lands at the mirrored tile position. */
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        odata[(y + r) * h + x] = tile[threadIdx.x][threadIdx.y + r];
}
