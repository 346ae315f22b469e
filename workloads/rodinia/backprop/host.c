/* host.c: one Rodinia-style back-propagation training step (see kernel.cu) for a network of
 * `in` inputs, 16 hidden units and 1 output.
 *
 * Inputs, weights and the target come from `seed`: inputs uniform in [0, 1), weights uniform
 * in +-1/sqrt(in + 1) (so the hidden units do not saturate and the update is not trivially
 * zero), previous weight changes zero. As in the original, the host uploads the inputs and
 * the input-to-hidden weights, launches bp_layerforward on a 1 x in/16 grid of 16 x 16
 * blocks, reads the per-block column sums back and finishes on the CPU: hidden activations
 * (sum of the block sums plus the bias weight, then the sigmoid), the output, both error
 * terms and the hidden-to-output update. It then uploads the hidden deltas, the original
 * weights and the previous changes, launches bp_adjust_weights on the same grid and reads
 * the weights and changes back. A CPU reference computes the block sums by the kernel's tree
 * and the update with its fmaf, so everything must match to 1e-5 (exactly, in practice).
 *
 * Arguments: in (a multiple of 16), seed. Sizes:
 *   small (default) in=8192: 512 blocks per kernel, the same tiles and row stride.
 *   paper in=65536: Rodinia's default run, 4096 blocks per kernel (the two kernels and 8192
 *     CTAs of LAS Table 4.2; CIAO's 5 MB input). */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HID = 16, OUT = 1, TILE = 16 };
#define ETA 0.3f
#define MOMENTUM 0.3f

static float squash(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

/* The CPU part between the kernels: from the block sums to the hidden deltas, updating the
 * hidden-to-output weights (and their previous changes) on the way. */
static void middle(const float *partial, int blocks, const float *w_in, float w_hid[HID + 1][OUT + 1],
                   float dw_hid[HID + 1][OUT + 1], float target, float *delta_h)
{
    float hidden[HID + 1], out[OUT + 1], delta_o[OUT + 1];
    hidden[0] = 1.0f; /* bias unit */
    for (int j = 1; j <= HID; j++) {
        float sum = 0.0f;
        for (int b = 0; b < blocks; b++)
            sum += partial[b * HID + j - 1];
        hidden[j] = squash(sum + w_in[j]); /* row 0 of w_in: the bias weights */
    }
    for (int k = 1; k <= OUT; k++) {
        float sum = 0.0f;
        for (int j = 0; j <= HID; j++)
            sum += w_hid[j][k] * hidden[j];
        out[k] = squash(sum);
        delta_o[k] = out[k] * (1.0f - out[k]) * (target - out[k]);
    }
    delta_h[0] = 0.0f;
    for (int j = 1; j <= HID; j++) {
        float sum = 0.0f;
        for (int k = 1; k <= OUT; k++)
            sum += delta_o[k] * w_hid[j][k];
        delta_h[j] = hidden[j] * (1.0f - hidden[j]) * sum;
    }
    for (int k = 1; k <= OUT; k++)
        for (int j = 0; j <= HID; j++) {
            float dw = ETA * delta_o[k] * hidden[j] + MOMENTUM * dw_hid[j][k];
            w_hid[j][k] += dw;
            dw_hid[j][k] = dw;
        }
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"in", "seed"};
    long val[] = {8192, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < TILE || val[0] % TILE || val[0] > 16 * 1048576) {
        fprintf(stderr, "backprop: in must be a positive multiple of 16 up to 16777216\n");
        return 2;
    }
    int in = (int)val[0], hid = HID, blocks = in / TILE;
    size_t nw = (size_t)(in + 1) * (HID + 1);

    wl_seed((uint64_t)val[1]);
    float *units = malloc((in + 1) * sizeof *units), *w0 = malloc(nw * sizeof *w0);
    float *w = malloc(nw * sizeof *w), *dw = calloc(nw, sizeof *dw);
    float *want_w = malloc(nw * sizeof *want_w), *want_dw = calloc(nw, sizeof *want_dw);
    float *partial = malloc(blocks * HID * sizeof *partial), *want_partial = malloc(blocks * HID * sizeof *partial);
    if (!units || !w0 || !w || !dw || !want_w || !want_dw || !partial || !want_partial) {
        fprintf(stderr, "backprop: out of memory\n");
        return 1;
    }
    units[0] = 1.0f;
    for (int r = 1; r <= in; r++)
        units[r] = wl_randf();
    float scale = 1.0f / sqrtf((float)(in + 1));
    for (size_t e = 0; e < nw; e++)
        w0[e] = (2.0f * wl_randf() - 1.0f) * scale;
    float w_hid0[HID + 1][OUT + 1], w_hid[HID + 1][OUT + 1], want_hid[HID + 1][OUT + 1];
    float dw_hid[HID + 1][OUT + 1] = {{0}}, want_dw_hid[HID + 1][OUT + 1] = {{0}};
    for (int j = 0; j <= HID; j++)
        for (int k = 0; k <= OUT; k++)
            w_hid0[j][k] = (2.0f * wl_randf() - 1.0f) * 0.25f;
    float target = wl_randf(), delta_h[HID + 1], want_delta_h[HID + 1];

    wl_init();
    CUfunction forward = wl_kernel("bp_layerforward"), adjust = wl_kernel("bp_adjust_weights");
    CUdeviceptr d_units = wl_upload(units, (in + 1) * sizeof *units), d_w = wl_upload(w0, nw * sizeof *w0);
    CUdeviceptr d_partial = wl_alloc(blocks * HID * sizeof *partial);
    void *fargs[] = {&d_units, &d_w, &d_partial, &in, &hid};
    wl_launch(forward, 1, blocks, 1, TILE, TILE, 1, 0, fargs);
    wl_download(partial, d_partial, blocks * HID * sizeof *partial);
    memcpy(w_hid, w_hid0, sizeof w_hid);
    middle(partial, blocks, w0, w_hid, dw_hid, target, delta_h);
    CUdeviceptr d_delta = wl_upload(delta_h, sizeof delta_h), d_dw = wl_upload(dw, nw * sizeof *dw);
    wl_copy_to(d_w, w0, nw * sizeof *w0); /* the forward kernel overwrote them */
    void *aargs[] = {&d_delta, &hid, &d_units, &in, &d_w, &d_dw};
    wl_launch(adjust, 1, blocks, 1, TILE, TILE, 1, 0, aargs);
    wl_download(w, d_w, nw * sizeof *w);
    wl_download(dw, d_dw, nw * sizeof *dw);

    /* CPU reference: block sums by the kernel's pairwise tree, then the same steps. */
    for (int b = 0; b < blocks; b++)
        for (int tx = 0; tx < TILE; tx++) {
            float col[TILE];
            for (int ty = 0; ty < TILE; ty++) {
                int row = TILE * b + ty + 1;
                col[ty] = w0[(size_t)row * (HID + 1) + tx + 1] * units[row];
            }
            for (int s = 1; s < TILE; s *= 2)
                for (int ty = 0; ty < TILE; ty += 2 * s)
                    col[ty] = col[ty] + col[ty + s];
            want_partial[b * HID + tx] = col[0];
        }
    memcpy(want_hid, w_hid0, sizeof want_hid);
    middle(want_partial, blocks, w0, want_hid, want_dw_hid, target, want_delta_h);
    memcpy(want_w, w0, nw * sizeof *w0);
    for (int r = 1; r <= in; r++)
        for (int c = 1; c <= HID; c++) {
            size_t e = (size_t)r * (HID + 1) + c;
            float d = fmaf(MOMENTUM, want_dw[e], ETA * want_delta_h[c] * units[r]);
            want_w[e] += d;
            want_dw[e] = d;
        }
    for (int c = 1; c <= HID; c++) {
        float d = fmaf(MOMENTUM, want_dw[c], ETA * want_delta_h[c]);
        want_w[c] += d;
        want_dw[c] = d;
    }

    double err = fmax(wl_max_err_f(partial, want_partial, blocks * HID), wl_max_err_f(w, want_w, nw));
    err = fmax(err, wl_max_err_f(dw, want_dw, nw));
    err = fmax(err, wl_max_err_f(&w_hid[0][0], &want_hid[0][0], (HID + 1) * (OUT + 1)));
    free(units), free(w0), free(w), free(dw), free(want_w), free(want_dw), free(partial), free(want_partial);
    return wl_finish("backprop", err, 1e-5);
}
