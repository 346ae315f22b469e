/* kernel.cu: sparse matrix-vector product y = A x, CSR format, vector kernel (SHOC Spmv).
 *
 * One warp per row: lane l of the warp for row r takes nonzeros start+l, start+l+32, ... (so
 * the val and col loads are coalesced), gathers x[col] (random), and the warp adds its 32
 * partial sums with a shuffle reduction; lane 0 writes y[r]. */
extern "C" __global__ void spmv_csr_vector(const float *val, const int *col, const int *row_start, int rows,
                                           const float *x, float *y)
{
    int lane = threadIdx.x & 31;
    int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (r < rows) { /* the whole warp takes the same branch */
        float sum = 0.0f;
        int end = row_start[r + 1];
        for (int j = row_start[r] + lane; j < end; j += 32)
            sum += val[j] * x[col[j]];
        for (int d = 16; d > 0; d /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, d);
        if (lane == 0)
            y[r] = sum;
    }
}
