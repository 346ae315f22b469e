/* host.c: a Gabor filter bank (scales x orientations) applied to a w x h image (see kernel.cu).
 *
 * The bank's filters are the real (cosine) Gabor functions
 *     g(u, v) = exp(-(u'^2 + gamma^2 v'^2) / (2 sigma^2)) cos(2 pi u' / lambda),
 *     u' = u cos(theta) + v sin(theta), v' = -u sin(theta) + v cos(theta),
 * on a 9 x 9 window, with theta = o * pi / orients for o < orients, wavelength
 * lambda = 3 * 2^(s/2) pixels for s < scales, sigma = 0.56 lambda (a one-octave bandwidth) and
 * aspect gamma = 0.5; each is made zero-mean (no response to flat regions) and scaled to absolute
 * sum 1. The host computes them, copies the bank into constant memory, and launches gabor_filter
 * once per filter (scale by scale, orientation by orientation), each on ceil(w/16) x ceil(h/16)
 * blocks of 16 x 16 threads writing its own response image.
 *
 * Sizes:
 *   paper  w=480 h=384 scales=4 orients=17: LAS Table 4.2 lists Gabor with 68 kernels and 49017
 *          CTAs. 68 launches are 4 scales of 17 orientations (about 10.6 degrees apart). 49017
 *          CTAs do not split evenly over 68 launches (720.8 each, and 49017 = 3 x 16339 is odd,
 *          so no bank of equal-sized launches or of several orientations per scale reaches it);
 *          720 CTAs a launch is the nearest count that an image in 16 x 16 tiles gives sensibly
 *          (721 = 7 x 103), here 30 x 24 tiles of a 480 x 384 image: 48960 CTAs in all, 57
 *          (0.12%) fewer than the table.
 *   small  w=480 h=64 scales=1 orients=4 (the defaults): 120 CTAs a launch, 4 launches; rows
 *          1920 bytes apart as at paper size.
 *
 * Input: pixels uniform in [0, 1) from the seed. Check: every response image against a CPU
 * correlation in double with the same clamped borders; floats are compared to 1e-5 (relative;
 * responses are at most 1 in magnitude, and a misplaced tap changes one by about 1e-2). */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { R = 4, SIDE = 2 * R + 1, TAPS = SIDE * SIDE, MAX_FILTERS = 128, B = 16 };

static void make_filter(float *f, double lambda, double theta)
{
    const double pi = 3.14159265358979323846, sigma = 0.56 * lambda, gamma = 0.5;
    double g[TAPS], mean = 0, abs_sum = 0;
    for (int v = -R; v <= R; v++)
        for (int u = -R; u <= R; u++) {
            double up = u * cos(theta) + v * sin(theta), vp = -u * sin(theta) + v * cos(theta);
            double e = exp(-(up * up + gamma * gamma * vp * vp) / (2 * sigma * sigma)) * cos(2 * pi * up / lambda);
            g[(v + R) * SIDE + u + R] = e;
            mean += e / TAPS;
        }
    for (int k = 0; k < TAPS; k++)
        abs_sum += fabs(g[k] -= mean);
    for (int k = 0; k < TAPS; k++)
        f[k] = (float)(g[k] / abs_sum);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"w", "h", "scales", "orients", "seed"};
    long val[] = {480, 64, 1, 4, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 1 || val[0] > 16384 || val[1] < 1 || val[1] > 16384 || val[2] < 1 || val[3] < 1 ||
        val[2] * val[3] > MAX_FILTERS) {
        fprintf(stderr, "gabor: need w, h in 1..16384, scales, orients >= 1, scales * orients <= %d\n", MAX_FILTERS);
        return 2;
    }
    int w = (int)val[0], h = (int)val[1], scales = (int)val[2], orients = (int)val[3];
    int n_filters = scales * orients;
    size_t n = (size_t)w * h;

    wl_seed((uint64_t)val[4]);
    float *bank = calloc(MAX_FILTERS * TAPS, sizeof *bank), *img = malloc(n * sizeof *img);
    float *out = malloc(n * n_filters * sizeof *out);
    if (!bank || !img || !out) {
        fprintf(stderr, "gabor: out of memory\n");
        return 1;
    }
    for (int s = 0; s < scales; s++)
        for (int o = 0; o < orients; o++)
            make_filter(bank + (s * orients + o) * TAPS, 3.0 * pow(2.0, s / 2.0), o * 3.14159265358979323846 / orients);
    for (size_t p = 0; p < n; p++)
        img[p] = wl_randf();

    wl_init();
    CUfunction kernel = wl_kernel("gabor_filter");
    size_t bank_bytes;
    CUdeviceptr d_bank = wl_symbol("gabor_bank", &bank_bytes);
    if (bank_bytes != MAX_FILTERS * TAPS * sizeof *bank) {
        fprintf(stderr, "gabor: gabor_bank is %zu bytes, expected %zu\n", bank_bytes, MAX_FILTERS * TAPS * sizeof *bank);
        return 1;
    }
    wl_copy_to(d_bank, bank, bank_bytes);
    CUdeviceptr d_img = wl_upload(img, n * sizeof *img), d_out = wl_alloc(n * n_filters * sizeof *out);
    for (int k = 0; k < n_filters; k++) {
        CUdeviceptr d_resp = d_out + k * n * sizeof *out;
        void *args[] = {&d_resp, &d_img, &w, &h, &k};
        wl_launch(kernel, (unsigned)(w + B - 1) / B, (unsigned)(h + B - 1) / B, 1, B, B, 1, 0, args);
    }
    wl_download(out, d_out, n * n_filters * sizeof *out);

    /* CPU reference, one response at a time. */
    double err = 0;
    for (int k = 0; k < n_filters; k++) {
        const float *f = bank + k * TAPS, *got = out + k * n;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double sum = 0;
                for (int i = 0; i < SIDE; i++)
                    for (int j = 0; j < SIDE; j++)
                        sum += (double)f[i * SIDE + j] * img[(size_t)clampi(y + i - R, 0, h - 1) * w + clampi(x + j - R, 0, w - 1)];
                double d = fabs(got[(size_t)y * w + x] - sum) / fmax(1.0, fabs(sum));
                if (!(d <= err)) /* NaN counts as the worst */
                    err = isnan(d) ? INFINITY : d;
            }
    }
    free(bank), free(img), free(out);
    return wl_finish("gabor", err, 1e-5);
}
