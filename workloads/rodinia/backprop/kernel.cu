/* kernel.cu: the two GPU steps of Rodinia-style back-propagation training for a network with
 * `in` input units, 16 hidden units and one output; 16 x 16 thread blocks, one block per 16
 * input units (grid 1 x in/16).
 *
 * The input-to-hidden weights are row-major (in + 1) x (hid + 1) floats: row r holds the
 * weights leaving input unit r (row 0: the bias unit), column j those entering hidden unit j
 * (column 0 unused). Thread (tx, ty) of block by handles input unit 16 by + ty + 1 and hidden
 * unit tx + 1: rows are 17 floats long, so a warp's loads span two rows, a few lines
 * (coherent). bp_layerforward multiplies each weight by its input in shared memory, sums each
 * column of the 16 x 16 tile by a pairwise tree, writes the tile back over the weights (as the
 * original does; the host uploads them again before the update) and stores the block's
 * 16 column sums. bp_adjust_weights applies the delta rule with momentum to every weight and,
 * in block 0, to the bias row. */

#define TILE 16
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bp_layerforward(const float *input, float *weights, float *partial_sum, int in, int hid)
{
    __shared__ float input_node[TILE];
    __shared__ float tile[TILE][TILE];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = TILE * by + ty + 1;
    int index = (hid + 1) * row + tx + 1;

    if (tx == 0)
        input_node[ty] = input[row];
    __syncthreads();
    tile[ty][tx] = weights[index];
    __syncthreads();
    tile[ty][tx] = tile[ty][tx] * input_node[ty];
    __syncthreads();
    for (int s = 1; s < TILE; s *= 2) {
        if (ty % (2 * s) == 0)
            tile[ty][tx] = tile[ty][tx] + tile[ty + s][tx];
        __syncthreads();
    }
    weights[index] = tile[ty][tx];
    __syncthreads();
    if (tx == 0)
        partial_sum[by * hid + ty] = tile[tx][ty];
}

extern "C" __global__ void bp_adjust_weights(const float *delta, int hid, const float *ly, int in, float *w,
                                             float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = TILE * by + ty + 1, col = tx + 1;
    int index = (hid + 1) * row + col;

    float dw = fmaf(MOMENTUM, oldw[index], ETA * delta[col] * ly[row]);
    w[index] += dw;
    oldw[index] = dw;
    __syncthreads();
    if (ty == 0 && by == 0) { /* the bias row */
        dw = fmaf(MOMENTUM, oldw[col], ETA * delta[col]);
        w[col] += dw;
        oldw[col] = dw;
    }
}
