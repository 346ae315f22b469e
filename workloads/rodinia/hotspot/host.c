/* host.c: Rodinia-style HotSpot (see kernel.cu) on an n x n grid of cells.
 *
 * Input, from `seed`: temperatures uniform in 323..343 K and power uniform in 0..0.5 per
 * cell; the chip constants (a 16 mm x 16 mm x 0.5 mm silicon die, ambient 80) and the time
 * step derived from them follow the original. The host launches the kernel on 16 x 16 blocks,
 * ceil(n / (16 - 2 pyramid))^2 of them, each advancing `pyramid` steps (the last launch
 * fewer if `iters` is not a multiple), swapping source and destination buffers between
 * launches, until `iters` steps are done. A CPU reference advances the whole grid one step at
 * a time with the same edge rule; floats are compared to 1e-5 (relative; a misplaced
 * neighbour changes a cell by about 1e-3).
 *
 * Arguments: n, pyramid (steps per launch), iters (total steps), seed. Sizes:
 *   small (default) n=256 pyramid=2 iters=4: two launches of 484 blocks.
 *   paper n=1024 pyramid=2 iters=2: one launch of 86^2 = 7396 blocks, the 1 kernel and 7396
 *     CTAs of LAS Table 4.2 (Rodinia's 1024 run; CIAO's 2 MB input is the 512 x 512 one). */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TILE = 16 };

/* The original's chip model. */
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define FACTOR_CHIP 0.5
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100.0
#define MAX_PD 3.0e6
#define PRECISION 0.001
#define AMB_TEMP 80.0f

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "pyramid", "iters", "seed"};
    long val[] = {256, 2, 4, 1};
    wl_args(argc, argv, 4, keys, val);
    if (val[0] < 1 || val[0] > 16384 || val[1] < 1 || val[1] > 7 || val[2] < 1) {
        fprintf(stderr, "hotspot: need n in 1..16384, pyramid in 1..7, iters >= 1\n");
        return 2;
    }
    int n = (int)val[0], pyramid = (int)val[1], iters = (int)val[2];
    int rows = n, cols = n;
    size_t cells = (size_t)rows * cols;

    wl_seed((uint64_t)val[3]);
    float *temp = malloc(cells * sizeof *temp), *power = malloc(cells * sizeof *power);
    float *got = malloc(cells * sizeof *got), *want = malloc(cells * sizeof *want), *next = malloc(cells * sizeof *next);
    if (!temp || !power || !got || !want || !next) {
        fprintf(stderr, "hotspot: out of memory\n");
        return 1;
    }
    for (size_t c = 0; c < cells; c++) {
        temp[c] = 323.0f + 20.0f * wl_randf();
        power[c] = 0.5f * wl_randf();
    }
    double grid_height = CHIP_HEIGHT / rows, grid_width = CHIP_WIDTH / cols;
    float cap = (float)(FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height);
    float rx = (float)(grid_width / (2.0 * K_SI * T_CHIP * grid_height));
    float ry = (float)(grid_height / (2.0 * K_SI * T_CHIP * grid_width));
    float rz = (float)(T_CHIP / (K_SI * grid_height * grid_width));
    float step = (float)(PRECISION / (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI)));

    wl_init();
    CUfunction kernel = wl_kernel("hotspot_step");
    CUdeviceptr d_power = wl_upload(power, cells * sizeof *power);
    CUdeviceptr d_temp[2] = {wl_upload(temp, cells * sizeof *temp), wl_alloc(cells * sizeof *temp)};
    int border = pyramid, inner = TILE - 2 * pyramid; /* the ghost zone: pyramid cells per side */
    unsigned bcols = (unsigned)((cols + inner - 1) / inner), brows = (unsigned)((rows + inner - 1) / inner);
    int src = 0;
    for (int t = 0; t < iters; t += pyramid) {
        int steps = iters - t < pyramid ? iters - t : pyramid;
        void *args[] = {&steps, &d_power, &d_temp[src], &d_temp[1 - src], &cols, &rows, &border, &border,
                        &cap, &rx, &ry, &rz, &step};
        wl_launch(kernel, bcols, brows, 1, TILE, TILE, 1, 0, args);
        src = 1 - src;
    }
    wl_download(got, d_temp[src], cells * sizeof *got);

    /* CPU reference: one step at a time over the whole grid; a neighbour off the chip is the
     * cell itself. */
    float step_div_cap = step / cap, rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
    memcpy(want, temp, cells * sizeof *want);
    for (int it = 0; it < iters; it++) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                float t = want[(size_t)y * cols + x];
                float tn = want[(size_t)(y > 0 ? y - 1 : y) * cols + x];
                float ts = want[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x];
                float tw = want[(size_t)y * cols + (x > 0 ? x - 1 : x)];
                float te = want[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)];
                next[(size_t)y * cols + x] = t + step_div_cap * (power[(size_t)y * cols + x] + (ts + tn - 2.0f * t) * ry_1 +
                                                                 (te + tw - 2.0f * t) * rx_1 + (AMB_TEMP - t) * rz_1);
            }
        float *swap = want;
        want = next, next = swap;
    }

    double err = wl_max_err_f(got, want, cells);
    free(temp), free(power), free(got), free(want), free(next);
    return wl_finish("hotspot", err, 1e-5);
}
