/* kernel.cu: blocked LU decomposition without pivoting (Rodinia LUD), 16x16 blocks.
 *
 * The n x n matrix (row-major, n a multiple of 16) is factored in place into unit-lower L and
 * upper U. Step `off` (a multiple of 16) runs three kernels:
 *   lud_diagonal   1 block of 16 threads factors the 16x16 diagonal block in shared memory
 *                  (thread i owns column i of the loads and row/column i of the updates);
 *   lud_perimeter  one 32-thread block per block to the right of / below the diagonal block:
 *                  threads 0..15 solve the row block U12 = L11^-1 A12, threads 16..31 the
 *                  column block L21 = A21 U11^-1, each with the diagonal block in shared memory;
 *   lud_internal   a 16x16 block per trailing block: A22 -= L21 U12 from two shared tiles.
 * All global loads and stores go 16 consecutive floats of one row at a time. */
#define BS 16

extern "C" __global__ void lud_diagonal(float *a, int n, int off)
{
    __shared__ float d[BS][BS];
    int tx = threadIdx.x;
    float *base = a + (size_t)off * n + off;

    for (int i = 0; i < BS; i++)
        d[i][tx] = base[i * n + tx];
    __syncthreads();

    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) { /* column i of L below the diagonal */
            for (int j = 0; j < i; j++)
                d[tx][i] -= d[tx][j] * d[j][i];
            d[tx][i] /= d[i][i];
        }
        __syncthreads();
        if (tx > i) { /* row i+1 of U right of the diagonal */
            for (int j = 0; j < i + 1; j++)
                d[i + 1][tx] -= d[i + 1][j] * d[j][tx];
        }
        __syncthreads();
    }

    /* row 0 is unchanged */
    for (int i = 1; i < BS; i++)
        base[i * n + tx] = d[i][tx];
}

extern "C" __global__ void lud_perimeter(float *a, int n, int off)
{
    __shared__ float d[BS][BS], row[BS][BS], col[BS][BS];
    int tx = threadIdx.x;
    int k = tx % BS;                   /* the column this thread loads */
    int blk = off + (blockIdx.x + 1) * BS; /* first row/column of this perimeter block */
    float *diag = a + (size_t)off * n + off;
    float *rowblk = a + (size_t)off * n + blk; /* right of the diagonal block */
    float *colblk = a + (size_t)blk * n + off; /* below it */

    if (tx < BS) {
        for (int i = 0; i < BS / 2; i++)
            d[i][k] = diag[i * n + k];
        for (int i = 0; i < BS; i++)
            row[i][k] = rowblk[i * n + k];
    } else {
        for (int i = BS / 2; i < BS; i++)
            d[i][k] = diag[i * n + k];
        for (int i = 0; i < BS; i++)
            col[i][k] = colblk[i * n + k];
    }
    __syncthreads();

    if (tx < BS) { /* forward substitution with unit-lower L11, column k of the row block */
        for (int i = 1; i < BS; i++)
            for (int j = 0; j < i; j++)
                row[i][k] -= d[i][j] * row[j][k];
    } else { /* row k of the column block times U11^-1 */
        for (int i = 0; i < BS; i++) {
            for (int j = 0; j < i; j++)
                col[k][i] -= col[k][j] * d[j][i];
            col[k][i] /= d[i][i];
        }
    }
    __syncthreads();

    if (tx < BS) {
        for (int i = 1; i < BS; i++)
            rowblk[i * n + k] = row[i][k];
    } else {
        for (int i = 0; i < BS; i++)
            colblk[i * n + k] = col[i][k];
    }
}

extern "C" __global__ void lud_internal(float *a, int n, int off)
{
    __shared__ float row[BS][BS], col[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int grow = off + (blockIdx.y + 1) * BS, gcol = off + (blockIdx.x + 1) * BS;

    row[ty][tx] = a[(size_t)(off + ty) * n + gcol + tx];
    col[ty][tx] = a[(size_t)(grow + ty) * n + off + tx];
    __syncthreads();

    float sum = 0.0f;
    for (int i = 0; i < BS; i++)
        sum += col[ty][i] * row[i][tx];
    a[(size_t)(grow + ty) * n + gcol + tx] -= sum;
}
