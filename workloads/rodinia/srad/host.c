/* host.c: SRAD v2 (Rodinia): speckle reducing anisotropic diffusion of a rows x cols image.
 *
 * Like the original, every iteration computes the mean and variance of the region of interest
 * (rows and columns 0..127) on the host from the current image, uploads the image, runs
 * srad_coef then srad_update on a (cols/16) x (rows/16) grid of 16x16 blocks, and downloads the
 * image again. The input is J = exp(U) with U uniform in [0, 1); lambda = 0.5.
 *
 * Arguments: rows, cols (multiples of 16), iters, seed. Sizes:
 *   small (default) rows=cols=256, iters=2: 256 blocks per kernel, 4 launches; the same
 *     tile-and-halo access pattern as the paper size.
 *   paper rows=cols=2048, iters=2: LAS Table 4.2 lists SRAD with 4 kernels and 65536 CTAs,
 *     which is 2 iterations of 2 kernels over 128 x 128 blocks (Rodinia's 2048 x 2048 run).
 * Check: a CPU version doing the same float operations; tolerance 1e-4 relative. */
#include "wl.h"
#include "../common/rodinia_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TILE 16
#define ROI 128 /* the region of interest is rows and columns 0..ROI-1 */

/* q0^2 = variance / mean^2 over the region of interest (the speckle scale) */
static float roi_q0sqr(const float *img, int rows, int cols)
{
    int r_end = rows < ROI ? rows : ROI, c_end = cols < ROI ? cols : ROI;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < r_end; i++)
        for (int j = 0; j < c_end; j++) {
            double v = img[(size_t)i * cols + j];
            sum += v;
            sum2 += v * v;
        }
    double size = (double)r_end * c_end;
    double mean = sum / size, var = sum2 / size - mean * mean;
    return (float)(var / (mean * mean));
}

/* One iteration on the CPU with the kernels' float operations. */
static void cpu_iteration(float *img, float *dn, float *ds, float *dw, float *de, float *c, int rows, int cols,
                          float lambda, float q0sqr)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t k = (size_t)i * cols + j;
            float jc = img[k];
            float n = img[(size_t)(i > 0 ? i - 1 : i) * cols + j] - jc;
            float s = img[(size_t)(i < rows - 1 ? i + 1 : i) * cols + j] - jc;
            float w = img[(size_t)i * cols + (j > 0 ? j - 1 : j)] - jc;
            float e = img[(size_t)i * cols + (j < cols - 1 ? j + 1 : j)] - jc;
            c[k] = srad_coefficient(n, s, w, e, jc, q0sqr);
            dn[k] = n, ds[k] = s, dw[k] = w, de[k] = e;
        }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t k = (size_t)i * cols + j;
            float cn = c[k], cw = cn;
            float cs = c[(size_t)(i < rows - 1 ? i + 1 : i) * cols + j];
            float ce = c[(size_t)i * cols + (j < cols - 1 ? j + 1 : j)];
            float div = cn * dn[k] + cs * ds[k] + cw * dw[k] + ce * de[k];
            img[k] = img[k] + 0.25f * lambda * div;
        }
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"rows", "cols", "iters", "seed"};
    long val[] = {256, 256, 2, 1};
    wl_args(argc, argv, 4, keys, val);
    if (val[0] < TILE || val[1] < TILE || val[0] % TILE || val[1] % TILE || val[0] * val[1] > (1L << 30) ||
        val[2] < 1) {
        fprintf(stderr, "srad: rows and cols must be positive multiples of %d (rows*cols <= 2^30), iters >= 1\n",
                TILE);
        return 2;
    }
    int rows = (int)val[0], cols = (int)val[1], iters = (int)val[2];
    size_t size = (size_t)rows * cols, bytes = size * sizeof(float);
    float lambda = 0.5f;

    wl_seed((uint64_t)val[3]);
    float *img = malloc(bytes), *ref = malloc(bytes), *dn = malloc(bytes), *ds = malloc(bytes);
    float *dw = malloc(bytes), *de = malloc(bytes), *c = malloc(bytes);
    if (!img || !ref || !dn || !ds || !dw || !de || !c) {
        fprintf(stderr, "srad: out of memory\n");
        return 1;
    }
    for (size_t k = 0; k < size; k++)
        img[k] = ref[k] = expf(wl_randf());

    wl_init();
    CUfunction k_coef = wl_kernel("srad_coef"), k_update = wl_kernel("srad_update");
    CUdeviceptr d_img = wl_alloc(bytes), d_c = wl_alloc(bytes);
    CUdeviceptr d_n = wl_alloc(bytes), d_s = wl_alloc(bytes), d_w = wl_alloc(bytes), d_e = wl_alloc(bytes);
    for (int it = 0; it < iters; it++) {
        float q0sqr = roi_q0sqr(img, rows, cols);
        wl_copy_to(d_img, img, bytes);
        void *args1[] = {&d_n, &d_s, &d_w, &d_e, &d_img, &d_c, &cols, &rows, &q0sqr};
        wl_launch(k_coef, cols / TILE, rows / TILE, 1, TILE, TILE, 1, 0, args1);
        void *args2[] = {&d_n, &d_s, &d_w, &d_e, &d_img, &d_c, &cols, &rows, &lambda, &q0sqr};
        wl_launch(k_update, cols / TILE, rows / TILE, 1, TILE, TILE, 1, 0, args2);
        wl_download(img, d_img, bytes);
    }

    for (int it = 0; it < iters; it++)
        cpu_iteration(ref, dn, ds, dw, de, c, rows, cols, lambda, roi_q0sqr(ref, rows, cols));

    double err = wl_max_err_f(img, ref, size);
    free(img), free(ref), free(dn), free(ds), free(dw), free(de), free(c);
    return wl_finish("srad", err, 1e-4);
}
