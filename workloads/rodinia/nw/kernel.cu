/* kernel.cu: Needleman-Wunsch global alignment (Rodinia NW), 16x16 tiles in shared memory.
 *
 * The score matrix is (n+1) x (n+1) ints, row-major with `cols` = n+1 columns; row 0 and
 * column 0 hold the gap penalties. The n x n interior is cut into 16x16 tiles, and one launch
 * handles one anti-diagonal of tiles, one 16-thread block per tile: nw_upper for the
 * anti-diagonals up to the main one, nw_lower for those after it. A block loads its tile's
 * substitution scores (one row per step, coalesced), the score row above the tile (coalesced)
 * and the score column left of it (16 different rows: memory divergent), sweeps the tile's
 * 31 cell anti-diagonals in shared memory, and writes the tile back row by row. */
#define TILE 16

static __device__ int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

/* Fill tile (tile_x, tile_y) of the interior, given its top and left neighbours are done. */
/* Not static: a static function's shared arrays get a name hashed from the source path, which
 * would make the PTX differ between checkouts. */
__device__ void nw_tile(const int *subst, int *score, int cols, int penalty, int tile_x, int tile_y)
{
    __shared__ int cell[TILE + 1][TILE + 1]; /* row/column 0: the neighbours' edge scores */
    __shared__ int sub[TILE][TILE];
    int tx = threadIdx.x;
    int origin = cols * TILE * tile_y + TILE * tile_x; /* score index of the tile's top-left neighbour */
    int first = origin + cols + 1 + tx;                /* this thread's column in the tile's first row */

    if (tx == 0)
        cell[0][0] = score[origin];
    for (int r = 0; r < TILE; r++)
        sub[r][tx] = subst[first + cols * r];
    __syncthreads();
    cell[tx + 1][0] = score[origin + cols * (tx + 1)];
    __syncthreads();
    cell[0][tx + 1] = score[origin + 1 + tx];
    __syncthreads();

    /* upper-left half of the tile: anti-diagonals of 1..16 cells, thread tx takes row tx (the
     * transpose of Rodinia's column-per-thread sweep, with the same bank-conflict degree) */
    for (int d = 0; d < TILE; d++) {
        if (tx <= d) {
            int y = tx + 1, x = d - tx + 1;
            cell[y][x] = max3(cell[y - 1][x - 1] + sub[y - 1][x - 1], cell[y][x - 1] - penalty,
                              cell[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    /* lower-right half: anti-diagonals of 15..1 cells */
    for (int d = TILE - 2; d >= 0; d--) {
        if (tx <= d) {
            int y = tx + TILE - d, x = TILE - tx;
            cell[y][x] = max3(cell[y - 1][x - 1] + sub[y - 1][x - 1], cell[y][x - 1] - penalty,
                              cell[y - 1][x] - penalty);
        }
        __syncthreads();
    }

    for (int r = 0; r < TILE; r++)
        score[first + cols * r] = cell[r + 1][tx + 1];
}

/* Tile anti-diagonal `diag` (1..tiles): block b takes tile (b, diag-1-b). */
extern "C" __global__ void nw_upper(const int *subst, int *score, int cols, int penalty, int diag, int tiles)
{
    int b = blockIdx.x;
    nw_tile(subst, score, cols, penalty, b, diag - 1 - b);
}

/* Tile anti-diagonal `diag` counted back from the corner (tiles-1..1): block b takes tile
 * (b + tiles - diag, tiles - 1 - b). */
extern "C" __global__ void nw_lower(const int *subst, int *score, int cols, int penalty, int diag, int tiles)
{
    int b = blockIdx.x;
    nw_tile(subst, score, cols, penalty, b + tiles - diag, tiles - 1 - b);
}
