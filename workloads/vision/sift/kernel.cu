/* kernel.cu: a SIFT-style feature stage in two kernels: Gaussian blur and difference of
 * Gaussians, then DoG extrema and a dense gradient-orientation histogram at every pixel.
 *
 * sift_dog (row-major): 16 x 16 blocks, one pixel a thread. A block stages its 16 x 16 tile and
 * a 4-pixel apron (24 x 24, clamped to the image) in shared memory with row-segment loads, blurs
 * it with two 9-tap Gaussians (sigma1, sigma2 in constant memory) separably, rows then columns,
 * and writes blur = G(sigma1) * img and dog = G(sigma2) * img - blur.
 *
 * sift_orient (column-major): one block of one warp per pixel, the grid walking the image
 * column by column (blockIdx.x is the row y, blockIdx.y the column x). The block builds an
 * 8-bin histogram of the gradient orientations of `blur` over the 16 x 16 window at rows
 * y-8..y+7, columns x-8..x+7 (clamped), each sample weighted by its gradient magnitude and a
 * Gaussian window (sift_window in constant memory). Thread t takes window row t % 16 and the
 * eight columns 8 (t / 16) .. 8 (t / 16) + 7, so each load of the warp reads two columns (8
 * apart) of the 16 window rows: 16 lines or more, one a row (column-major). The gradient is the
 * central difference of the clamped neighbours; a block whose window and its neighbours lie
 * inside the image's columns skips the column clamps (the branch is the same for the whole
 * block). Each thread sums its samples into its own shared row, and the 32 rows are added in a
 * fixed order (the same every run). Thread 0 also flags the pixel as a DoG extremum: 1
 * (maximum) or -1 (minimum) when dog is strictly above (below) its 8 clamped neighbours and
 * |dog| exceeds the threshold, else 0. */

#define R 4
#define TAPS (2 * R + 1)
#define T 16              /* sift_dog's tile */
#define SPAN (T + 2 * R)  /* the tile with its apron */
#define WIN 16            /* the orientation window */
#define BINS 8
#define THREADS 32 /* sift_orient's block */
#define PER_THREAD (WIN * WIN / THREADS) /* samples a thread: 8 */

__constant__ float sift_g1[TAPS], sift_g2[TAPS];
__constant__ float sift_window[WIN * WIN];

__device__ __forceinline__ int clampi(int v, int hi)
{
    return min(max(v, 0), hi);
}

extern "C" __global__ void sift_dog(float *blur, float *dog, const float *img, int w, int h)
{
    __shared__ float tile[SPAN][SPAN];
    __shared__ float rows1[SPAN][T], rows2[SPAN][T];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    int x0 = blockIdx.x * T - R, y0 = blockIdx.y * T - R;

    for (int k = tid; k < SPAN * SPAN; k += T * T) {
        int r = k / SPAN, c = k % SPAN;
        tile[r][c] = img[(size_t)clampi(y0 + r, h - 1) * w + clampi(x0 + c, w - 1)];
    }
    __syncthreads();

    /* Rows: the 24 tile rows at the block's 16 columns. */
    for (int k = tid; k < SPAN * T; k += T * T) {
        int r = k / T, c = k % T;
        float s1 = 0.0f, s2 = 0.0f;
#pragma unroll
        for (int i = 0; i < TAPS; i++) {
            s1 += sift_g1[i] * tile[r][c + i];
            s2 += sift_g2[i] * tile[r][c + i];
        }
        rows1[r][c] = s1;
        rows2[r][c] = s2;
    }
    __syncthreads();

    /* Columns. */
    float l1 = 0.0f, l2 = 0.0f;
#pragma unroll
    for (int i = 0; i < TAPS; i++) {
        l1 += sift_g1[i] * rows1[ty + i][tx];
        l2 += sift_g2[i] * rows2[ty + i][tx];
    }
    size_t p = (size_t)(blockIdx.y * T + ty) * w + blockIdx.x * T + tx;
    blur[p] = l1;
    dog[p] = l2 - l1;
}

/* The orientation bin (0..7, 45 degrees each, counter-clockwise from +x) of gradient (dx, dy):
 * bins 4..7 are bins 0..3 of the opposite gradient, so the lower half (dy < 0) flips dx. */
__device__ __forceinline__ int orient_bin(float dx, float dy)
{
    float ax = fabsf(dx), ay = fabsf(dy), ex = dy < 0.0f ? -dx : dx;
    int bin = ex > 0.0f ? (ay < ax ? 0 : 1) : (ay > ax ? 2 : 3);
    return dy < 0.0f ? bin + 4 : bin;
}

/* Add a thread's PER_THREAD samples, image columns u0.. of the image row at `row`, into its
 * histogram row: magnitude times window weight into the bin of each gradient. The gradient's
 * neighbours are the samples either side and the same columns of `up` and `down`; columns are
 * clamped to the image only when clamp_cols is set. */
template <bool clamp_cols>
__device__ __forceinline__ void add_samples(float *part_row, const float *row, const float *up, const float *down,
                                            int u0, int w, const float *weights)
{
    float across[PER_THREAD + 2]; /* the row at columns u0-1..u0+PER_THREAD */
#pragma unroll
    for (int i = 0; i < PER_THREAD + 2; i++)
        across[i] = row[clamp_cols ? clampi(u0 - 1 + i, w - 1) : u0 - 1 + i];
#pragma unroll
    for (int i = 0; i < PER_THREAD; i++) {
        int u = clamp_cols ? clampi(u0 + i, w - 1) : u0 + i;
        float dx = across[i + 2] - across[i], dy = down[u] - up[u];
        part_row[orient_bin(dx, dy)] += sqrtf(dx * dx + dy * dy) * weights[i];
    }
}

extern "C" __global__ void sift_orient(float *hist, int *keys, const float *blur, const float *dog, int w, int h,
                                       float threshold)
{
    __shared__ float part[THREADS][BINS + 1]; /* +1: rows of 9 put a warp's 32 rows in 32 banks */
    __shared__ float sums[THREADS / BINS][BINS];
    __shared__ float around[9]; /* dog at the pixel's 3 x 3 neighbourhood */
    int t = threadIdx.x, y = blockIdx.x, x = blockIdx.y;
    int r = t % WIN, c0 = PER_THREAD * (t / WIN);

#pragma unroll
    for (int b = 0; b < BINS; b++)
        part[t][b] = 0.0f;
    if (t < 9)
        around[t] = dog[(size_t)clampi(y + t / 3 - 1, h - 1) * w + clampi(x + t % 3 - 1, w - 1)];

    /* This thread's samples: window row r (image row v), columns c0.. (image columns u0..). */
    int v = y - WIN / 2 + r, u0 = x - WIN / 2 + c0;
    const float *row = blur + (size_t)clampi(v, h - 1) * w;
    const float *up = blur + (size_t)clampi(v - 1, h - 1) * w;
    const float *down = blur + (size_t)clampi(v + 1, h - 1) * w;
    const float *weights = sift_window + r * WIN + c0;
    if (x - WIN / 2 - 1 >= 0 && x + WIN / 2 < w) /* the whole block: no column to clamp */
        add_samples<false>(part[t], row, up, down, u0, w, weights);
    else
        add_samples<true>(part[t], row, up, down, u0, w, weights);
    __syncthreads();

    /* Thread t adds bin t % 8 of rows t / 8, t / 8 + 4, ...; then threads 0..7 add those sums. */
    int b = t % BINS, g = t / BINS;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < BINS; i++)
        s += part[g + i * (THREADS / BINS)][b];
    sums[g][b] = s;
    __syncthreads();
    size_t p = (size_t)y * w + x;
    if (t < BINS) {
        float total = 0.0f;
#pragma unroll
        for (int k = 0; k < THREADS / BINS; k++)
            total += sums[k][t];
        hist[p * BINS + t] = total;
    }

    if (t == 0) {
        float d = around[4];
        bool is_max = fabsf(d) > threshold, is_min = is_max;
#pragma unroll
        for (int k = 0; k < 9; k++)
            if (k != 4) {
                is_max = is_max && d > around[k];
                is_min = is_min && d < around[k];
            }
        keys[p] = is_max ? 1 : is_min ? -1 : 0;
    }
}
