/* host.c: CUDA SDK style separable convolution of a w x h image (see kernel.cu).
 *
 * One iteration is convsep_rows (input -> intermediate) on (w/128) x (h/4) blocks of 16 x 4,
 * then convsep_cols (intermediate -> output) on (w/16) x (h/64) blocks of 16 x 8, with a
 * 17-tap filter (radius 8) in constant memory; w must be a multiple of 128 and h of 64. Every
 * iteration recomputes the same output from the same input, as the sample's warm-up run and
 * timed runs do.
 *
 * Sizes:
 *   paper  w=h=1024 iters=17: an iteration launches w*h/512 + w*h/1024 = 2048 + 1024 = 3072
 *          CTAs, and LAS Table 4.2 lists CONV with 34 kernels and 52224 CTAs, which is exactly
 *          17 iterations at 1024 x 1024 (the sample's one warm-up and 16 timed iterations, on a
 *          1024 x 1024 image instead of its default 3072 x 3072).
 *   small  w=1024 h=256 iters=1 (the defaults): 512 + 256 CTAs, rows 4 KB apart as at paper
 *          size; the column pass's 64-row blocks still have blocks above and below.
 *
 * Input: pixels uniform in [0, 1) and 17 filter taps uniform in [0, 1) scaled to sum to 1, from
 * the seed (an asymmetric filter, so a reversed filter fails the check). Check: a CPU reference
 * of both passes with the same zero padding, in double; floats are compared to 1e-5 (relative;
 * a wrong or misplaced tap changes a pixel by about 1e-2). */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

enum { R = 8, TAPS = 2 * R + 1 };

/* One pass of the reference: dst[p] = sum over k of f[R - k] * src[p + k * step], the k with
 * `pos + k` outside 0..n-1 reading zero. */
static void ref_pass(float *dst, const float *src, const float *f, int w, int h, int along_rows)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int pos = along_rows ? x : y, n = along_rows ? w : h;
            size_t step = along_rows ? 1 : (size_t)w, p = (size_t)y * w + x;
            double sum = 0;
            for (int k = -R; k <= R; k++)
                if (pos + k >= 0 && pos + k < n)
                    sum += (double)f[R - k] * src[p + (ptrdiff_t)k * (ptrdiff_t)step];
            dst[p] = (float)sum;
        }
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"w", "h", "iters", "seed"};
    long val[] = {1024, 256, 1, 1};
    wl_args(argc, argv, 4, keys, val);
    if (val[0] < 128 || val[0] % 128 || val[1] < 64 || val[1] % 64 || (double)val[0] * val[1] > INT_MAX ||
        val[2] < 1) {
        fprintf(stderr, "convsep: need w a positive multiple of 128, h of 64, w * h <= %d, iters >= 1\n", INT_MAX);
        return 2;
    }
    int w = (int)val[0], h = (int)val[1], iters = (int)val[2];
    size_t n = (size_t)w * h;

    wl_seed((uint64_t)val[3]);
    float filter[TAPS], total = 0;
    for (int k = 0; k < TAPS; k++)
        total += filter[k] = wl_randf();
    for (int k = 0; k < TAPS; k++)
        filter[k] /= total;
    float *in = malloc(n * sizeof *in), *tmp = malloc(n * sizeof *tmp);
    float *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    if (!in || !tmp || !out || !ref) {
        fprintf(stderr, "convsep: out of memory\n");
        return 1;
    }
    for (size_t p = 0; p < n; p++)
        in[p] = wl_randf();
    ref_pass(tmp, in, filter, w, h, 1);
    ref_pass(ref, tmp, filter, w, h, 0);

    wl_init();
    CUfunction rows = wl_kernel("convsep_rows");
    CUfunction cols = wl_kernel("convsep_cols");
    size_t filter_bytes;
    CUdeviceptr d_filter = wl_symbol("convsep_filter", &filter_bytes);
    if (filter_bytes != sizeof filter) {
        fprintf(stderr, "convsep: convsep_filter is %zu bytes, expected %zu\n", filter_bytes, sizeof filter);
        return 1;
    }
    wl_copy_to(d_filter, filter, sizeof filter);
    CUdeviceptr d_in = wl_upload(in, n * sizeof *in);
    CUdeviceptr d_tmp = wl_alloc(n * sizeof *tmp), d_out = wl_alloc(n * sizeof *out);
    void *row_args[] = {&d_tmp, &d_in, &w, &h};
    void *col_args[] = {&d_out, &d_tmp, &w, &h};
    for (int it = 0; it < iters; it++) {
        wl_launch(rows, (unsigned)w / 128, (unsigned)h / 4, 1, 16, 4, 1, 0, row_args);
        wl_launch(cols, (unsigned)w / 16, (unsigned)h / 64, 1, 16, 8, 1, 0, col_args);
    }
    wl_download(out, d_out, n * sizeof *out);

    double err = wl_max_err_f(out, ref, n);
    free(in), free(tmp), free(out), free(ref);
    return wl_finish("convsep", err, 1e-5);
}
