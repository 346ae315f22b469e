/* kernel.cu: one frame of a particle filter tracking a disc through a noisy video, in the
 * style of Rodinia's float particle filter: one thread per particle, 512-thread blocks.
 *
 * pf_likelihood moves each particle (the resampled position plus drift and noise) and
 * scores it against the frame: for each of the disc's `count` pixel offsets it stores the
 * video index in the particle's row of ind (rows count ints apart, so lanes write `count`
 * different lines) and then reads those indices back and gathers the pixels (both
 * memory-divergent), turns the mean log-likelihood into a weight and reduces the block's
 * weights in shared memory. pf_sum (one thread) adds the block sums and builds the CDF of the
 * normalised weights and the first resampling point u[0]. pf_normalize normalises the
 * weights and spaces the resampling points 1/N apart; pf_find_index gives every particle the
 * first CDF entry at or above its point, a linear search (all lanes read the same entry, then
 * leave the loop at different times), and copies that particle's position.
 *
 * The video is x-major with the frame index innermost: pixel (x, y) of frame k is
 * I[(x * ny + y) * nframes + k]. The original builds the CDF and u[0] in one thread of the
 * normalising kernel while other blocks may still be normalising the weights it reads; doing
 * it in the single-thread sum kernel gives the same values without that race. Each particle
 * draws its noise from its own 32-bit LCG; a normal deviate is approximated by a scaled sum of
 * four uniforms and the weight's exponential is computed from exactly rounded operations, so
 * the host can check every step bit for bit (with a Box-Muller transform and expf, an ulp of
 * difference now and then moves a particle across a CDF boundary and the runs diverge). A
 * pixel's log-likelihood is ((I - 100)^2 - (I - 228)^2) / 2000: the original's divisor of 50
 * makes a mean of about +-330, whose exponential overflows a float. */

#define BLOCK 512
#define DRIFT_X 1.0f
#define DRIFT_Y -2.0f
#define NOISE_X 5.0f
#define NOISE_Y 2.0f

/* pf_uniform, pf_normal, pf_exp and pf_round, shared with the host's reference. */
#include "../common/rodinia_math.h"

extern "C" __global__ void pf_likelihood(float *arrayX, float *arrayY, const float *xj, const float *yj, int *ind,
                                         const int *objxy, float *likelihood, const unsigned char *I,
                                         float *weights, int n, int count, int max_size, int k, int ny, int nframes,
                                         unsigned *seed, float *partial_sums)
{
    __shared__ float buffer[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];
        weights[i] = 1.0f / (float)n;
        arrayX[i] = fmaf(NOISE_X, pf_normal(seed, i), arrayX[i] + DRIFT_X);
        arrayY[i] = fmaf(NOISE_Y, pf_normal(seed, i), arrayY[i] + DRIFT_Y);
    }
    __syncthreads();
    if (i < n) {
        int cx = pf_round(arrayX[i]), cy = pf_round(arrayY[i]);
        for (int j = 0; j < count; j++) {
            int px = cx + objxy[2 * j], py = cy + objxy[2 * j + 1];
            int at = abs((px * ny + py) * nframes + k);
            ind[i * count + j] = at < max_size ? at : 0;
        }
        float sum = 0.0f;
        for (int j = 0; j < count; j++) {
            float v = I[ind[i * count + j]];
            sum += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 2000.0f;
        }
        likelihood[i] = sum / (float)count;
        weights[i] = weights[i] * pf_exp(likelihood[i]);
    }
    buffer[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < n)
        buffer[threadIdx.x] = weights[i];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buffer[threadIdx.x] += buffer[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial_sums[blockIdx.x] = buffer[0];
}

extern "C" __global__ void pf_sum(float *partial_sums, int n_blocks, const float *weights, float *CDF, float *u,
                                  unsigned *seed, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float total = 0.0f;
        for (int b = 0; b < n_blocks; b++)
            total += partial_sums[b];
        partial_sums[0] = total;
        float acc = 0.0f;
        for (int x = 0; x < n; x++) {
            acc += weights[x] / total;
            CDF[x] = acc;
        }
        u[0] = (1.0f / (float)n) * pf_uniform(seed, 0);
    }
}

extern "C" __global__ void pf_normalize(float *weights, int n, const float *partial_sums, float *u)
{
    __shared__ float total, u0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        total = partial_sums[0];
        u0 = u[0];
    }
    __syncthreads();
    if (i < n) {
        weights[i] = weights[i] / total;
        u[i] = u0 + (float)i / (float)n; /* u[0] is rewritten with the value every block read */
    }
}

extern "C" __global__ void pf_find_index(const float *arrayX, const float *arrayY, const float *CDF, const float *u,
                                         float *xj, float *yj, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int index = -1;
        for (int x = 0; x < n; x++)
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        if (index == -1)
            index = n - 1;
        xj[i] = arrayX[index];
        yj[i] = arrayY[index];
    }
}
