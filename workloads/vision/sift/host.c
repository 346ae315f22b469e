/* host.c: a SIFT-style feature stage on a w x h image (see kernel.cu): sift_dog on
 * (w/16) x (h/16) blocks of 16 x 16, then sift_orient on h x w blocks of 32 threads, one block a
 * pixel (with at most 8 CTAs an SM on the Fermi presets, 8 warps an SM); w and h must be
 * multiples of 16.
 *
 * The blurs are 9-tap Gaussians with sigma1 = 1.6 (SIFT's base scale) and sigma2 = 1.6 sqrt(2)
 * (the next scale of an octave with two intervals), each normalised over its window; the
 * orientation window weights its 16 x 16 samples by a Gaussian of sigma 8 (half the window, as
 * SIFT weights its descriptor window) about the pixel; the DoG threshold is 0.03. The stage
 * works on one DoG level of one octave, so its extrema are extrema in the image plane only.
 *
 * Sizes:
 *   paper  w=h=512: 32 x 32 = 1024 + 512 x 512 = 262144 CTAs, 263168 in all, 2 kernels. LAS
 *          Table 4.2 lists SIFT with 2 kernels and 263164 CTAs, 4 (0.002%) fewer: about one
 *          CTA a pixel of a 512 x 512 image plus a tiled pass over it. 263164 = 4 x 11 x 5981
 *          is not a tiled kernel plus a per-pixel or tiled kernel over one sensible image (for
 *          images up to 4096 x 4096, the usual block shapes and the second kernel on the image,
 *          its half or its quarter, only odd shapes such as 2072 x 2024 give it), so we keep
 *          the 512 x 512 image and one CTA a pixel.
 *   small  w=512 h=16 (the defaults): 32 + 8192 CTAs, about 3.5 M warp instructions. Rows are
 *          2 KB apart as at paper size, so the 16 rows of a column load fall into 2 sets of
 *          a 32-set L1D (4 KB a way) at both sizes.
 *
 * Input: pixels uniform in [0, 1) from the seed. Check: blur and dog against a CPU reference of
 * the same separable blur in double, to 1e-5 (relative; a misplaced tap changes a pixel by about
 * 1e-2); then the histograms and extremum flags against a CPU reference that starts from the
 * GPU's blur and dog, so that orientation bins and comparisons see the same values: the flags
 * exactly, the histograms to 1e-5 (relative; a sample in the wrong bin moves about 1e-2). */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { R = 4, TAPS = 2 * R + 1, WIN = 16, BINS = 8 };
#define THRESHOLD 0.03f

static int clampi(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

static void gaussian(float *g, int n, int centre, double sigma)
{
    double sum = 0, d[WIN * WIN];
    for (int i = 0; i < n; i++)
        sum += d[i] = exp(-(double)(i - centre) * (i - centre) / (2 * sigma * sigma));
    for (int i = 0; i < n; i++)
        g[i] = (float)(d[i] / sum);
}

/* blur = g1 * img, dog = g2 * img - blur, separably (rows then columns) with clamped borders. */
static void ref_dog(float *blur, float *dog, const float *img, const float *g1, const float *g2, int w, int h)
{
    size_t n = (size_t)w * h;
    double *r1 = malloc(n * sizeof *r1), *r2 = malloc(n * sizeof *r2);
    if (!r1 || !r2) {
        fprintf(stderr, "sift: out of memory\n");
        exit(1);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s1 = 0, s2 = 0;
            for (int i = 0; i < TAPS; i++) {
                float p = img[(size_t)y * w + clampi(x + i - R, w - 1)];
                s1 += (double)g1[i] * p;
                s2 += (double)g2[i] * p;
            }
            r1[(size_t)y * w + x] = s1, r2[(size_t)y * w + x] = s2;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double l1 = 0, l2 = 0;
            for (int i = 0; i < TAPS; i++) {
                size_t q = (size_t)clampi(y + i - R, h - 1) * w + x;
                l1 += g1[i] * r1[q];
                l2 += g2[i] * r2[q];
            }
            blur[(size_t)y * w + x] = (float)l1;
            dog[(size_t)y * w + x] = (float)(l2 - l1);
        }
    free(r1), free(r2);
}

/* kernel.cu's orient_bin. */
static int orient_bin(float dx, float dy)
{
    float ax = fabsf(dx), ay = fabsf(dy), ex = dy < 0.0f ? -dx : dx;
    int bin = ex > 0.0f ? (ay < ax ? 0 : 1) : (ay > ax ? 2 : 3);
    return dy < 0.0f ? bin + 4 : bin;
}

/* The histogram and flag of pixel (x, y), as sift_orient computes them from blur and dog. */
static void ref_orient(float *hist, int *key, const float *blur, const float *dog, const float *window, int w, int h,
                       int x, int y)
{
    double sum[BINS] = {0};
    for (int r = 0; r < WIN; r++) {
        int v = y - WIN / 2 + r;
        const float *row = blur + (size_t)clampi(v, h - 1) * w;
        const float *up = blur + (size_t)clampi(v - 1, h - 1) * w, *down = blur + (size_t)clampi(v + 1, h - 1) * w;
        for (int c = 0; c < WIN; c++) {
            int u = x - WIN / 2 + c, uc = clampi(u, w - 1);
            float dx = row[clampi(u + 1, w - 1)] - row[clampi(u - 1, w - 1)];
            float dy = down[uc] - up[uc];
            sum[orient_bin(dx, dy)] += sqrt((double)dx * dx + (double)dy * dy) * window[r * WIN + c];
        }
    }
    for (int b = 0; b < BINS; b++)
        hist[b] = (float)sum[b];
    float d = dog[(size_t)y * w + x];
    int is_max = fabsf(d) > THRESHOLD, is_min = is_max;
    for (int dv = -1; dv <= 1; dv++)
        for (int du = -1; du <= 1; du++)
            if (dv || du) {
                float n = dog[(size_t)clampi(y + dv, h - 1) * w + clampi(x + du, w - 1)];
                is_max = is_max && d > n;
                is_min = is_min && d < n;
            }
    *key = is_max ? 1 : is_min ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"w", "h", "seed"};
    long val[] = {512, 16, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 16 || val[0] % 16 || val[0] > 65535 || val[1] < 16 || val[1] % 16 || val[1] > 65535) {
        fprintf(stderr, "sift: need w, h positive multiples of 16 up to 65535\n");
        return 2;
    }
    int w = (int)val[0], h = (int)val[1];
    size_t n = (size_t)w * h;
    float threshold = THRESHOLD;

    wl_seed((uint64_t)val[2]);
    float g1[TAPS], g2[TAPS], window[WIN * WIN];
    gaussian(g1, TAPS, R, 1.6);
    gaussian(g2, TAPS, R, 1.6 * sqrt(2.0));
    for (int r = 0; r < WIN; r++)
        for (int c = 0; c < WIN; c++) {
            double du = c - WIN / 2, dv = r - WIN / 2;
            window[r * WIN + c] = (float)exp(-(du * du + dv * dv) / (2 * 8.0 * 8.0));
        }
    float *img = malloc(n * sizeof *img), *blur = malloc(n * sizeof *blur), *dog = malloc(n * sizeof *dog);
    float *want_blur = malloc(n * sizeof *want_blur), *want_dog = malloc(n * sizeof *want_dog);
    float *hist = malloc(n * BINS * sizeof *hist), *want_hist = malloc(n * BINS * sizeof *want_hist);
    int *key = malloc(n * sizeof *key), *want_key = malloc(n * sizeof *want_key);
    if (!img || !blur || !dog || !want_blur || !want_dog || !hist || !want_hist || !key || !want_key) {
        fprintf(stderr, "sift: out of memory\n");
        return 1;
    }
    for (size_t p = 0; p < n; p++)
        img[p] = wl_randf();

    wl_init();
    CUfunction k_dog = wl_kernel("sift_dog"), k_orient = wl_kernel("sift_orient");
    const struct {
        const char *name;
        const void *data;
        size_t bytes;
    } consts[] = {{"sift_g1", g1, sizeof g1}, {"sift_g2", g2, sizeof g2}, {"sift_window", window, sizeof window}};
    for (int i = 0; i < 3; i++) {
        size_t bytes;
        CUdeviceptr d = wl_symbol(consts[i].name, &bytes);
        if (bytes != consts[i].bytes) {
            fprintf(stderr, "sift: %s is %zu bytes, expected %zu\n", consts[i].name, bytes, consts[i].bytes);
            return 1;
        }
        wl_copy_to(d, consts[i].data, bytes);
    }
    CUdeviceptr d_img = wl_upload(img, n * sizeof *img);
    CUdeviceptr d_blur = wl_alloc(n * sizeof *blur), d_dog = wl_alloc(n * sizeof *dog);
    CUdeviceptr d_hist = wl_alloc(n * BINS * sizeof *hist), d_key = wl_alloc(n * sizeof *key);
    void *dog_args[] = {&d_blur, &d_dog, &d_img, &w, &h};
    wl_launch(k_dog, (unsigned)w / 16, (unsigned)h / 16, 1, 16, 16, 1, 0, dog_args);
    void *orient_args[] = {&d_hist, &d_key, &d_blur, &d_dog, &w, &h, &threshold};
    wl_launch(k_orient, (unsigned)h, (unsigned)w, 1, 32, 1, 1, 0, orient_args);
    wl_download(blur, d_blur, n * sizeof *blur);
    wl_download(dog, d_dog, n * sizeof *dog);
    wl_download(hist, d_hist, n * BINS * sizeof *hist);
    wl_download(key, d_key, n * sizeof *key);

    ref_dog(want_blur, want_dog, img, g1, g2, w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            ref_orient(want_hist + ((size_t)y * w + x) * BINS, want_key + (size_t)y * w + x, blur, dog, window, w, h, x,
                       y);
    double err_blur = wl_max_err_f(blur, want_blur, n), err_dog = wl_max_err_f(dog, want_dog, n);
    double err_hist = wl_max_err_f(hist, want_hist, n * BINS), err_key = wl_max_err_i(key, want_key, n);
    size_t n_keys = 0;
    for (size_t p = 0; p < n; p++)
        n_keys += want_key[p] != 0;
    double err = fmax(fmax(err_blur, err_dog), err_hist);
    if (err > 1e-5 || err_key > 0)
        fprintf(stderr, "sift: max_err blur %g, dog %g, histograms %g, extremum flags %g\n", err_blur, err_dog,
                err_hist, err_key);
    fprintf(stderr, "sift: %zu DoG extrema\n", n_keys);
    free(img), free(blur), free(dog), free(want_blur), free(want_dog), free(hist), free(want_hist), free(key),
        free(want_key);
    return wl_finish("sift", err_key > 0 ? INFINITY : err, 1e-5);
}
