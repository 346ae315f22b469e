/* kernel.cu: sparse matrix-vector product y = A x in the jagged diagonal storage (JDS) format,
 * in the shape of Parboil's SPMV (the Linebacker study's SP).
 *
 * The host sorts the rows by their count of nonzeros, longest first (perm: sorted position ->
 * row), and stores the k-th nonzero of every sorted row in the k-th jagged diagonal, contiguous
 * from jd_start[k], one slot per sorted row: thread r reads slot jd_start[k] + r of each
 * diagonal, so the data and column loads of a warp are coalesced. Each warp runs to the longest
 * row it holds (warp_nnz, its first row's count since the rows are sorted); shorter rows read
 * the padding zeros the host put there. The x gathers follow the columns: a warp's rows are
 * rows of one length, spread over the matrix by the sort, so its gathers touch many lines. */
extern "C" __global__ void spmv_jds(float *y, const float *data, const int *cols, const int *perm, const float *x,
                                    int rows, const int *jd_start, const int *warp_nnz)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    int bound = warp_nnz[r / 32];
    float sum = 0.0f;
    for (int k = 0; k < bound; k++) {
        int j = jd_start[k] + r;
        sum += data[j] * x[cols[j]];
    }
    y[perm[r]] = sum;
}
