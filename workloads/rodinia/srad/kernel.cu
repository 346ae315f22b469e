/* kernel.cu: SRAD (speckle reducing anisotropic diffusion), Rodinia v2 structure.
 *
 * Each iteration runs two kernels over 16x16 tiles of the rows x cols image J (row-major).
 * srad_coef: every thread loads its pixel and its tile's four halos into shared memory (every
 * thread of a halo row/column loads the same halo element, so a warp - two tile rows - touches
 * one or two lines per halo load), computes the four directional derivatives and the diffusion
 * coefficient, and stores them (dN, dS, dW, dE, C) to global memory.
 * srad_update: loads C (plus the south and east neighbours' C through shared halos) and the
 * derivatives and moves J by lambda/4 times the divergence. Image borders reuse the edge pixel
 * (zero flux). rows and cols must be multiples of 16. */
#include "../common/rodinia_math.h" /* srad_coefficient, shared with the host's reference */

#define TILE 16

extern "C" __global__ void srad_coef(float *d_n, float *d_s, float *d_w, float *d_e, const float *j_img,
                                     float *c_out, int cols, int rows, float q0sqr)
{
    __shared__ float pix[TILE][TILE];
    __shared__ float halo_n[TILE][TILE], halo_s[TILE][TILE], halo_w[TILE][TILE], halo_e[TILE][TILE];
    __shared__ float coef[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int corner = cols * TILE * by + TILE * bx; /* the tile's top-left pixel */
    int idx = corner + cols * ty + tx;

    /* halos: the row above/below the tile and the column left/right of it, clamped at the
     * image border to the tile's own edge row/column */
    int n_idx = by == 0 ? corner + tx : corner - cols + tx;
    int s_idx = by == gridDim.y - 1 ? corner + cols * (TILE - 1) + tx : corner + cols * TILE + tx;
    int w_idx = bx == 0 ? corner + cols * ty : corner + cols * ty - 1;
    int e_idx = bx == gridDim.x - 1 ? corner + cols * ty + TILE - 1 : corner + cols * ty + TILE;
    halo_n[ty][tx] = j_img[n_idx];
    halo_s[ty][tx] = j_img[s_idx];
    halo_w[ty][tx] = j_img[w_idx];
    halo_e[ty][tx] = j_img[e_idx];
    pix[ty][tx] = j_img[idx];
    __syncthreads();

    float jc = pix[ty][tx];
    float n = (ty == 0 ? halo_n[ty][tx] : pix[ty - 1][tx]) - jc;
    float s = (ty == TILE - 1 ? halo_s[ty][tx] : pix[ty + 1][tx]) - jc;
    float w = (tx == 0 ? halo_w[ty][tx] : pix[ty][tx - 1]) - jc;
    float e = (tx == TILE - 1 ? halo_e[ty][tx] : pix[ty][tx + 1]) - jc;

    coef[ty][tx] = srad_coefficient(n, s, w, e, jc, q0sqr);
    __syncthreads();

    c_out[idx] = coef[ty][tx];
    d_e[idx] = e;
    d_w[idx] = w;
    d_s[idx] = s;
    d_n[idx] = n;
}

extern "C" __global__ void srad_update(const float *d_n, const float *d_s, const float *d_w, const float *d_e,
                                       float *j_img, const float *c_in, int cols, int rows, float lambda,
                                       float q0sqr)
{
    __shared__ float c_tile[TILE][TILE], c_south[TILE][TILE], c_east[TILE][TILE];
    __shared__ float pix[TILE][TILE], result[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int corner = cols * TILE * by + TILE * bx;
    int idx = corner + cols * ty + tx;

    /* the south and east neighbours' coefficients, clamped at the image border */
    int s_idx = by == gridDim.y - 1 ? corner + cols * (TILE - 1) + tx : corner + cols * TILE + tx;
    int e_idx = bx == gridDim.x - 1 ? corner + cols * ty + TILE - 1 : corner + cols * ty + TILE;
    c_south[ty][tx] = c_in[s_idx];
    c_east[ty][tx] = c_in[e_idx];
    c_tile[ty][tx] = c_in[idx];
    pix[ty][tx] = j_img[idx];
    __syncthreads();

    float cn = c_tile[ty][tx], cw = cn;
    float cs = ty == TILE - 1 ? c_south[ty][tx] : c_tile[ty + 1][tx];
    float ce = tx == TILE - 1 ? c_east[ty][tx] : c_tile[ty][tx + 1];
    float div = cn * d_n[idx] + cs * d_s[idx] + cw * d_w[idx] + ce * d_e[idx];
    result[ty][tx] = pix[ty][tx] + 0.25f * lambda * div;
    __syncthreads();

    j_img[idx] = result[ty][tx];
}
