/* kernel.cu: SRAD (speckle reducing anisotropic diffusion), Rodinia v1 structure: 1D grids of
 * 512 threads, one pixel a thread, no shared memory but in the reduction.
 *
 * The Nr x Nc image is column-major (pixel ei = row + Nr * col). Neighbours are found through
 * four index arrays (i_n, i_s: the rows above and below each row; j_w, j_e: the columns left
 * and right of each column; clamped at the border), so every neighbour load first loads an
 * index. Each iteration: srad1_prepare writes the pixels and their squares, srad1_reduce sums
 * both over the whole image (the region of interest is the whole image) in passes of 512
 * elements a block, srad1_coef writes the four derivatives and the diffusion coefficient, and
 * srad1_update moves the image. srad1_extract (exp(I / 255)) and srad1_compress (log(I) * 255)
 * run once before and after the iterations. */
#include "../common/rodinia_math.h" /* srad_coefficient, shared with the host's reference */

#define SRAD1_THREADS 512

extern "C" __global__ void srad1_extract(float *img, int n)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < n)
        img[ei] = expf(img[ei] / 255.0f);
}

extern "C" __global__ void srad1_prepare(const float *img, float *sums, float *sums2, int n)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < n) {
        float v = img[ei];
        sums[ei] = v;
        sums2[ei] = v * v;
    }
}

/* One pass of the sum: block b adds elements (512 b + t) * stride, t < 512, of the n left, by
 * halving in shared memory, and writes the block's sums over its first element, which the next
 * pass (stride * 512, n / 512 elements) reads. */
extern "C" __global__ void srad1_reduce(float *sums, float *sums2, int n, int stride)
{
    __shared__ float s1[SRAD1_THREADS], s2[SRAD1_THREADS];
    int t = threadIdx.x, i = blockIdx.x * SRAD1_THREADS + t;
    s1[t] = i < n ? sums[(size_t)i * stride] : 0.0f;
    s2[t] = i < n ? sums2[(size_t)i * stride] : 0.0f;
    __syncthreads();
    for (int half = SRAD1_THREADS / 2; half > 0; half /= 2) {
        if (t < half) {
            s1[t] += s1[t + half];
            s2[t] += s2[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        size_t first = (size_t)blockIdx.x * SRAD1_THREADS * stride;
        sums[first] = s1[0];
        sums2[first] = s2[0];
    }
}

extern "C" __global__ void srad1_coef(const float *img, const int *i_n, const int *i_s, const int *j_w,
                                      const int *j_e, float *d_n, float *d_s, float *d_w, float *d_e, float *c,
                                      int nr, int n, float q0sqr)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < n) {
        int row = ei % nr, col = ei / nr;
        float jc = img[ei];
        float dn = img[i_n[row] + nr * col] - jc;
        float ds = img[i_s[row] + nr * col] - jc;
        float dw = img[row + nr * j_w[col]] - jc;
        float de = img[row + nr * j_e[col]] - jc;
        c[ei] = srad_coefficient(dn, ds, dw, de, jc, q0sqr);
        d_n[ei] = dn;
        d_s[ei] = ds;
        d_w[ei] = dw;
        d_e[ei] = de;
    }
}

extern "C" __global__ void srad1_update(float *img, const int *i_s, const int *j_e, const float *d_n,
                                        const float *d_s, const float *d_w, const float *d_e, const float *c,
                                        int nr, int n, float lambda)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < n) {
        int row = ei % nr, col = ei / nr;
        float cn = c[ei], cw = cn; /* the north and west faces use the pixel's own coefficient */
        float cs = c[i_s[row] + nr * col];
        float ce = c[row + nr * j_e[col]];
        float div = cn * d_n[ei] + cs * d_s[ei] + cw * d_w[ei] + ce * d_e[ei];
        img[ei] = img[ei] + 0.25f * lambda * div;
    }
}

extern "C" __global__ void srad1_compress(float *img, int n)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < n)
        img[ei] = logf(img[ei]) * 255.0f;
}
