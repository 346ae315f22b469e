/* host.c: SRAD v1 (Rodinia): speckle reducing anisotropic diffusion of an Nr x Nc image, the
 * 1D version (see kernel.cu); rodinia/srad is v2, the 16x16-tiled shared-memory version.
 *
 * As in the original: srad1_extract once, then every iteration srad1_prepare, srad1_reduce
 * until one block is left (2 passes for up to 262144 pixels), a download of the two sums from
 * which the host computes the speckle scale q0^2 = variance / mean^2 over the whole image,
 * srad1_coef and srad1_update, and srad1_compress at the end; 512-thread blocks, lambda = 0.5.
 * The original reads a 502 x 458 ultrasound image (not in this tree); ours is a smooth pattern
 * with multiplicative uniform speckle, 0..255.
 *
 * Arguments: rows, cols, iters, seed. Sizes:
 *   small (default) rows=502 cols=458 iters=1: the paper's image (450 blocks a kernel), one
 *     iteration (6 kernels).
 *   paper rows=502 cols=458 iters=100: Rodinia's default run, 502 kernels (extract, 100 x
 *     prepare, reduce x 2, coef and update, compress), the 502 kernel invocations the OAWS
 *     thesis counts for SRAD1.
 * Check: a CPU version doing the same float operations (the sums in the kernels' tree order);
 * expf/logf and nvcc's fused multiply-adds round differently, so the tolerance is 1e-4
 * relative. */
#include "wl.h"
#include "../common/rodinia_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 512 /* SRAD1_THREADS of kernel.cu */

static unsigned blocks_for(long n)
{
    return (unsigned)((n + THREADS - 1) / THREADS);
}

/* The speckle scale from the image's sum and sum of squares, as the original (in float). */
static float q0sqr_of(float sum, float sum2, int n)
{
    float mean = sum / (float)n, var = sum2 / (float)n - mean * mean;
    return var / (mean * mean);
}

/* The sums of srad1_prepare + srad1_reduce in the kernels' order: 512-element blocks added by
 * halving, pass after pass. s1 and s2 (n floats) are overwritten. */
static void cpu_sums(float *s1, float *s2, int n, float *sum, float *sum2)
{
    float b1[THREADS], b2[THREADS];
    for (long left = n, stride = 1; ; stride *= THREADS) {
        long blocks = blocks_for(left);
        for (long b = 0; b < blocks; b++) {
            for (long t = 0; t < THREADS; t++) {
                long i = b * THREADS + t;
                b1[t] = i < left ? s1[i * stride] : 0.0f;
                b2[t] = i < left ? s2[i * stride] : 0.0f;
            }
            for (int half = THREADS / 2; half > 0; half /= 2)
                for (int t = 0; t < half; t++) {
                    b1[t] += b1[t + half];
                    b2[t] += b2[t + half];
                }
            s1[b * THREADS * stride] = b1[0];
            s2[b * THREADS * stride] = b2[0];
        }
        if (blocks == 1)
            break;
        left = blocks;
    }
    *sum = s1[0];
    *sum2 = s2[0];
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"rows", "cols", "iters", "seed"};
    long val[] = {502, 458, 1, 1};
    wl_args(argc, argv, 4, keys, val);
    if (val[0] < 2 || val[1] < 2 || val[0] * val[1] > (1L << 26) || val[2] < 1 || val[2] > 100000) {
        fprintf(stderr, "srad1: need rows, cols >= 2, rows * cols <= 2^26, 1 <= iters <= 100000\n");
        return 2;
    }
    int nr = (int)val[0], nc = (int)val[1], iters = (int)val[2], n = nr * nc;
    size_t bytes = (size_t)n * sizeof(float);
    float lambda = 0.5f;

    float *img = malloc(bytes), *ref = malloc(bytes), *s1 = malloc(bytes), *s2 = malloc(bytes);
    float *dn = malloc(bytes), *ds = malloc(bytes), *dw = malloc(bytes), *de = malloc(bytes), *c = malloc(bytes);
    int *i_n = malloc(nr * sizeof(int)), *i_s = malloc(nr * sizeof(int));
    int *j_w = malloc(nc * sizeof(int)), *j_e = malloc(nc * sizeof(int));
    if (!img || !ref || !s1 || !s2 || !dn || !ds || !dw || !de || !c || !i_n || !i_s || !j_w || !j_e) {
        fprintf(stderr, "srad1: out of memory\n");
        return 1;
    }
    wl_seed((uint64_t)val[3]);
    for (int col = 0; col < nc; col++)
        for (int row = 0; row < nr; row++) {
            float smooth = 0.5f + 0.25f * sinf(row * 0.031f) + 0.2f * cosf(col * 0.047f);
            img[row + (size_t)nr * col] = 255.0f * smooth * (0.6f + 0.4f * wl_randf());
        }
    for (int row = 0; row < nr; row++) {
        i_n[row] = row > 0 ? row - 1 : 0;
        i_s[row] = row < nr - 1 ? row + 1 : nr - 1;
    }
    for (int col = 0; col < nc; col++) {
        j_w[col] = col > 0 ? col - 1 : 0;
        j_e[col] = col < nc - 1 ? col + 1 : nc - 1;
    }

    wl_init();
    CUfunction k_extract = wl_kernel("srad1_extract"), k_prepare = wl_kernel("srad1_prepare");
    CUfunction k_reduce = wl_kernel("srad1_reduce"), k_coef = wl_kernel("srad1_coef");
    CUfunction k_update = wl_kernel("srad1_update"), k_compress = wl_kernel("srad1_compress");
    CUdeviceptr d_img = wl_upload(img, bytes), d_s1 = wl_alloc(bytes), d_s2 = wl_alloc(bytes);
    CUdeviceptr d_n = wl_alloc(bytes), d_s = wl_alloc(bytes), d_w = wl_alloc(bytes), d_e = wl_alloc(bytes);
    CUdeviceptr d_c = wl_alloc(bytes);
    CUdeviceptr d_in = wl_upload(i_n, nr * sizeof(int)), d_is = wl_upload(i_s, nr * sizeof(int));
    CUdeviceptr d_jw = wl_upload(j_w, nc * sizeof(int)), d_je = wl_upload(j_e, nc * sizeof(int));
    unsigned blocks = blocks_for(n);

    void *one_args[] = {&d_img, &n};
    wl_launch(k_extract, blocks, 1, 1, THREADS, 1, 1, 0, one_args);
    int kernels = 1;
    for (int it = 0; it < iters; it++) {
        void *prep_args[] = {&d_img, &d_s1, &d_s2, &n};
        wl_launch(k_prepare, blocks, 1, 1, THREADS, 1, 1, 0, prep_args);
        kernels++;
        for (int left = n, stride = 1; ; stride *= THREADS) {
            void *red_args[] = {&d_s1, &d_s2, &left, &stride};
            wl_launch(k_reduce, blocks_for(left), 1, 1, THREADS, 1, 1, 0, red_args);
            kernels++;
            if (blocks_for(left) == 1)
                break;
            left = (int)blocks_for(left);
        }
        float sum, sum2;
        wl_download(&sum, d_s1, sizeof sum);
        wl_download(&sum2, d_s2, sizeof sum2);
        float q0sqr = q0sqr_of(sum, sum2, n);
        void *coef_args[] = {&d_img, &d_in, &d_is, &d_jw, &d_je, &d_n, &d_s, &d_w, &d_e, &d_c, &nr, &n, &q0sqr};
        wl_launch(k_coef, blocks, 1, 1, THREADS, 1, 1, 0, coef_args);
        void *upd_args[] = {&d_img, &d_is, &d_je, &d_n, &d_s, &d_w, &d_e, &d_c, &nr, &n, &lambda};
        wl_launch(k_update, blocks, 1, 1, THREADS, 1, 1, 0, upd_args);
        kernels += 2;
    }
    wl_launch(k_compress, blocks, 1, 1, THREADS, 1, 1, 0, one_args);
    kernels++;
    float *got = malloc(bytes);
    if (!got) {
        fprintf(stderr, "srad1: out of memory\n");
        return 1;
    }
    wl_download(got, d_img, bytes);

    /* CPU reference */
    for (int k = 0; k < n; k++)
        ref[k] = expf(img[k] / 255.0f);
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < n; k++) {
            s1[k] = ref[k];
            s2[k] = ref[k] * ref[k];
        }
        float sum, sum2;
        cpu_sums(s1, s2, n, &sum, &sum2);
        float q0sqr = q0sqr_of(sum, sum2, n);
        for (int k = 0; k < n; k++) {
            int row = k % nr, col = k / nr;
            float jc = ref[k];
            dn[k] = ref[i_n[row] + nr * col] - jc;
            ds[k] = ref[i_s[row] + nr * col] - jc;
            dw[k] = ref[row + nr * j_w[col]] - jc;
            de[k] = ref[row + nr * j_e[col]] - jc;
            c[k] = srad_coefficient(dn[k], ds[k], dw[k], de[k], jc, q0sqr);
        }
        for (int k = 0; k < n; k++) {
            int row = k % nr, col = k / nr;
            float cn = c[k], cw = cn, cs = c[i_s[row] + nr * col], ce = c[row + nr * j_e[col]];
            float div = cn * dn[k] + cs * ds[k] + cw * dw[k] + ce * de[k];
            ref[k] = ref[k] + 0.25f * lambda * div;
        }
    }
    for (int k = 0; k < n; k++)
        ref[k] = logf(ref[k]) * 255.0f;
    printf("srad1: %d x %d image, %d iterations, %d kernels\n", nr, nc, iters, kernels);

    double err = wl_max_err_f(got, ref, n);
    free(img), free(ref), free(got), free(s1), free(s2), free(dn), free(ds), free(dw), free(de), free(c);
    free(i_n), free(i_s), free(j_w), free(j_e);
    return wl_finish("srad1", err, 1e-4);
}
