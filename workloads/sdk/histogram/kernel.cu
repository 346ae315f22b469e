/* kernel.cu: 256-bin byte histogram (CUDA SDK histogram256 sample style).
 *
 * hist256_partial: each block keeps one 256-bin histogram per warp in shared memory (warps
 * never contend with each other, only lanes within a warp do), counts its grid-strided share
 * of the input words with shared-memory atomics, and writes the block's sum of its warps'
 * histograms as one partial histogram. hist256_merge: one block per bin adds that bin over all
 * partial histograms. */

#define BINS 256
#define PARTIAL_THREADS 192 /* 6 warps */
#define PARTIAL_WARPS (PARTIAL_THREADS / 32)
#define MERGE_THREADS 256

extern "C" __global__ void hist256_partial(unsigned *partial, const unsigned *words, unsigned n_words)
{
    __shared__ unsigned hist[PARTIAL_WARPS * BINS];
    unsigned *mine = hist + (threadIdx.x / 32) * BINS;

    for (unsigned k = threadIdx.x; k < PARTIAL_WARPS * BINS; k += PARTIAL_THREADS)
        hist[k] = 0;
    __syncthreads();

    /* Consecutive threads read consecutive words: every load of a warp is one 128-byte line. */
    for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n_words; pos += blockDim.x * gridDim.x) {
        unsigned w = words[pos];
        atomicAdd(mine + (w & 0xFFu), 1u);
        atomicAdd(mine + ((w >> 8) & 0xFFu), 1u);
        atomicAdd(mine + ((w >> 16) & 0xFFu), 1u);
        atomicAdd(mine + (w >> 24), 1u);
    }
    __syncthreads();

    for (unsigned bin = threadIdx.x; bin < BINS; bin += PARTIAL_THREADS) {
        unsigned sum = 0;
        for (unsigned wp = 0; wp < PARTIAL_WARPS; wp++)
            sum += hist[wp * BINS + bin];
        partial[blockIdx.x * BINS + bin] = sum;
    }
}

/* Block b sums bin b: thread t adds partial histograms t, t+256, ... (lanes read 1 KB apart),
 * then a shared-memory tree adds the 256 per-thread sums. */
extern "C" __global__ void hist256_merge(unsigned *hist, const unsigned *partial, unsigned n_partial)
{
    __shared__ unsigned sums[MERGE_THREADS];

    unsigned sum = 0;
    for (unsigned k = threadIdx.x; k < n_partial; k += MERGE_THREADS)
        sum += partial[blockIdx.x + k * BINS];
    sums[threadIdx.x] = sum;

    for (unsigned half = MERGE_THREADS / 2; half > 0; half /= 2) {
        __syncthreads();
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
    }
    if (threadIdx.x == 0)
        hist[blockIdx.x] = sums[0];
}
