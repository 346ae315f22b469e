/* kernel.cu: sparse matrix-vector product y = A x, CSR format, scalar kernel (SHOC Spmv).
 *
 * One thread per row: thread r walks its row's nonzeros val[start..end) and col[start..end)
 * and gathers x[col]. Neighbouring threads walk different rows, so the val and col loads of a
 * warp touch up to 32 lines, and the x gathers are random. (SHOC reads x through the texture
 * cache; here it is an ordinary global load.) */
extern "C" __global__ void spmv_csr_scalar(const float *val, const int *col, const int *row_start, int rows,
                                           const float *x, float *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        int end = row_start[r + 1];
        for (int j = row_start[r]; j < end; j++)
            sum += val[j] * x[col[j]];
        y[r] = sum;
    }
}
