/* host.c: CUDA SDK style matrix transpose, the naive kernel and the tiled shared-memory kernel.
 *
 * Both kernels use the SDK's 32x32 tiles moved by 32x8 blocks on a (w/32) x (h/32) grid; w and
 * h must be multiples of 32. The program launches transpose_naive `reps` times, checks its
 * result, then does the same for transpose_tiled, the order the sample runs its kernels in
 * (each one: a warm-up launch, then the timed ones).
 *
 * Sizes:
 *   paper  w=h=2048 reps=3: the LAS table lists Transpose with 24 launches and 98304 CTAs,
 *          4096 CTAs a launch, which fits a 2048x2048 matrix in 32x32 tiles and 3 launches for
 *          each of the sample's 8 kernels (warm-up, one outer-loop repetition, one inner-loop
 *          run); we keep the naive and the padded tiled kernel, 3 launches each.
 *   small  w=h=1024 reps=1 (the defaults): 1024 CTAs a launch, about 0.7 M warp instructions.
 *          Output rows 4 KB apart keep the naive kernel's stores one line per lane and, as at
 *          paper size, a multiple of 4 KB apart.
 *
 * Input: uniform floats in [0, 1) from the seed. Check: both results exactly (a transpose only
 * moves values), so the tolerance is 0. */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Run `f` reps times into a zeroed output and return the largest error of its result. */
static double run(CUfunction f, int reps, CUdeviceptr d_out, CUdeviceptr d_in, int w, int h,
                  float *out, const float *ref)
{
    size_t n = (size_t)w * h;
    wl_zero(d_out, n * sizeof *out);
    void *args[] = {&d_out, &d_in, &w, &h};
    for (int r = 0; r < reps; r++)
        wl_launch(f, (unsigned)w / 32, (unsigned)h / 32, 1, 32, 8, 1, 0, args);
    wl_download(out, d_out, n * sizeof *out);
    return wl_max_err_f(out, ref, n);
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"w", "h", "reps", "seed"};
    long val[] = {1024, 1024, 1, 1};
    wl_args(argc, argv, 4, keys, val);
    int w = (int)val[0], h = (int)val[1], reps = (int)val[2];
    if (val[0] < 32 || val[1] < 32 || val[0] % 32 || val[1] % 32 || (double)val[0] * val[1] > INT_MAX
        || reps < 1) {
        fprintf(stderr, "transpose: need w, h positive multiples of 32, w * h <= %d, reps >= 1\n", INT_MAX);
        return 2;
    }
    size_t n = (size_t)w * h;

    wl_seed((uint64_t)val[3]);
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
    if (!in || !out || !ref) {
        fprintf(stderr, "transpose: out of memory\n");
        return 1;
    }
    for (size_t k = 0; k < n; k++)
        in[k] = wl_randf();
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            ref[(size_t)x * h + y] = in[(size_t)y * w + x];

    wl_init();
    CUfunction naive = wl_kernel("transpose_naive");
    CUfunction tiled = wl_kernel("transpose_tiled");
    CUdeviceptr d_in = wl_upload(in, n * sizeof *in);
    CUdeviceptr d_out = wl_alloc(n * sizeof *out);

    double err_naive = run(naive, reps, d_out, d_in, w, h, out, ref);
    double err_tiled = run(tiled, reps, d_out, d_in, w, h, out, ref);
    if (err_naive > 0 || err_tiled > 0)
        fprintf(stderr, "transpose: max_err naive %g, tiled %g\n", err_naive, err_tiled);
    free(in);
    free(out);
    free(ref);
    return wl_finish("transpose", err_naive > err_tiled ? err_naive : err_tiled, 0);
}
