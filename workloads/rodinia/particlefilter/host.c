/* host.c: Rodinia-style float particle filter (see kernel.cu).
 *
 * Input, from `seed`: a video of nframes frames of nx x ny 8-bit pixels, 100 in the
 * background and 228 inside a disc of radius 5 that starts at the centre and moves by
 * (+1, -2) pixels per frame, plus rounded noise of deviation 5 (approximately normal); the
 * disc's 69 pixel offsets (dx^2 + dy^2 < 25) are the likelihood's sample points. All np
 * particles start at the centre with per-particle noise seeds. As in the original, for each
 * frame after the first the host launches the likelihood kernel (ceil(np / 512) blocks of
 * 512), the single-thread sum kernel, the normalising and the index-finding kernels, and at
 * the end reads positions and weights back to estimate the disc's position. A CPU reference
 * repeats every step with the kernel's arithmetic in the same order (the block reduction as
 * the kernel's tree), so positions, weights and the estimate agree exactly in practice
 * (the check allows 1e-4; a particle resampled differently is off by far more).
 *
 * Arguments: nx, ny, nframes, np, seed. Sizes:
 *   small (default) = paper: nx=128 ny=128 nframes=10 np=1000, Rodinia's default run (the
 *     thesis's and Linebacker's "default"). That is only 2 blocks per launch, but the
 *     index search is quadratic in np, so more particles would not keep the run short. */
#include "wl.h"
#include "../common/rodinia_math.h" /* the kernel's generator and arithmetic */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 512, RADIUS = 5 };

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nx", "ny", "nframes", "np", "seed"};
    long val[] = {128, 128, 10, 1000, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 16 || val[1] < 16 || val[2] < 2 || val[3] < 1 || val[0] * val[1] * val[2] > 400000000 ||
        val[3] > 1000000) {
        fprintf(stderr, "particlefilter: need nx, ny >= 16, nframes >= 2, np in 1..1e6, nx * ny * nframes <= 4e8\n");
        return 2;
    }
    int nx = (int)val[0], ny = (int)val[1], nframes = (int)val[2], np = (int)val[3];
    int max_size = nx * ny * nframes;

    /* The disc's offsets. */
    int objxy[2 * (2 * RADIUS + 1) * (2 * RADIUS + 1)], count = 0;
    for (int dx = -RADIUS; dx <= RADIUS; dx++)
        for (int dy = -RADIUS; dy <= RADIUS; dy++)
            if (dx * dx + dy * dy < RADIUS * RADIUS) {
                objxy[2 * count] = dx;
                objxy[2 * count + 1] = dy;
                count++;
            }

    /* The video. */
    wl_seed((uint64_t)val[4]);
    unsigned char *video = malloc(max_size);
    if (!video) {
        fprintf(stderr, "particlefilter: out of memory\n");
        return 1;
    }
    for (int k = 0; k < nframes; k++) {
        int cx = nx / 2 + k, cy = ny / 2 - 2 * k;
        for (int x = 0; x < nx; x++)
            for (int y = 0; y < ny; y++) {
                int inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) < RADIUS * RADIUS;
                float noise = ((wl_randf() + wl_randf()) + (wl_randf() + wl_randf()) - 2.0f) * 1.7320508f;
                int v = (inside ? 228 : 100) + (int)lrintf(5.0f * noise);
                video[((size_t)x * ny + y) * nframes + k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    }

    size_t fbytes = np * sizeof(float);
    float *x0 = malloc(fbytes), *y0 = malloc(fbytes);
    unsigned *seed0 = malloc(np * sizeof *seed0);
    if (!x0 || !y0 || !seed0) {
        fprintf(stderr, "particlefilter: out of memory\n");
        return 1;
    }
    for (int i = 0; i < np; i++) {
        x0[i] = (float)(nx / 2);
        y0[i] = (float)(ny / 2);
        seed0[i] = (unsigned)(wl_rand() >> 32);
    }

    wl_init();
    CUfunction k_like = wl_kernel("pf_likelihood"), k_sum = wl_kernel("pf_sum");
    CUfunction k_norm = wl_kernel("pf_normalize"), k_find = wl_kernel("pf_find_index");
    int blocks = (np + BLOCK - 1) / BLOCK;
    CUdeviceptr d_ax = wl_upload(x0, fbytes), d_ay = wl_upload(y0, fbytes);
    CUdeviceptr d_xj = wl_upload(x0, fbytes), d_yj = wl_upload(y0, fbytes);
    CUdeviceptr d_cdf = wl_alloc(fbytes), d_u = wl_alloc(fbytes), d_like = wl_alloc(fbytes);
    CUdeviceptr d_w = wl_alloc(fbytes), d_ind = wl_alloc((size_t)np * count * sizeof(int));
    CUdeviceptr d_obj = wl_upload(objxy, 2 * count * sizeof(int)), d_video = wl_upload(video, max_size);
    CUdeviceptr d_seed = wl_upload(seed0, np * sizeof *seed0), d_psum = wl_alloc(blocks * sizeof(float));
    for (int k = 1; k < nframes; k++) {
        void *la[] = {&d_ax, &d_ay, &d_xj, &d_yj, &d_ind, &d_obj, &d_like, &d_video, &d_w, &np,
                      &count, &max_size, &k, &ny, &nframes, &d_seed, &d_psum};
        wl_launch(k_like, blocks, 1, 1, BLOCK, 1, 1, 0, la);
        void *sa[] = {&d_psum, &blocks, &d_w, &d_cdf, &d_u, &d_seed, &np};
        wl_launch(k_sum, 1, 1, 1, 1, 1, 1, 0, sa);
        void *na[] = {&d_w, &np, &d_psum, &d_u};
        wl_launch(k_norm, blocks, 1, 1, BLOCK, 1, 1, 0, na);
        void *fa[] = {&d_ax, &d_ay, &d_cdf, &d_u, &d_xj, &d_yj, &np};
        wl_launch(k_find, blocks, 1, 1, BLOCK, 1, 1, 0, fa);
    }
    /* got: arrayX, arrayY, weights, then the estimate (x, y) */
    float *got = malloc((3 * (size_t)np + 2) * sizeof *got), *want = malloc((3 * (size_t)np + 2) * sizeof *want);
    if (!got || !want) {
        fprintf(stderr, "particlefilter: out of memory\n");
        return 1;
    }
    wl_download(got, d_ax, fbytes);
    wl_download(got + np, d_ay, fbytes);
    wl_download(got + 2 * np, d_w, fbytes);

    /* CPU reference, step for step. */
    float *ax = want, *ay = want + np, *w = want + 2 * np;
    float *xj = malloc(fbytes), *yj = malloc(fbytes), *cdf = malloc(fbytes), *u = malloc(fbytes);
    float *psum = malloc(blocks * sizeof *psum), buf[BLOCK];
    if (!xj || !yj || !cdf || !u || !psum) {
        fprintf(stderr, "particlefilter: out of memory\n");
        return 1;
    }
    memcpy(ax, x0, fbytes), memcpy(ay, y0, fbytes), memcpy(xj, x0, fbytes), memcpy(yj, y0, fbytes);
    for (int k = 1; k < nframes; k++) {
        for (int i = 0; i < np; i++) {
            w[i] = 1.0f / (float)np;
            ax[i] = fmaf(5.0f, pf_normal(seed0, i), xj[i] + 1.0f);
            ay[i] = fmaf(2.0f, pf_normal(seed0, i), yj[i] - 2.0f);
            int cx = pf_round(ax[i]), cy = pf_round(ay[i]);
            float sum = 0.0f;
            for (int j = 0; j < count; j++) {
                int at = abs(((cx + objxy[2 * j]) * ny + cy + objxy[2 * j + 1]) * nframes + k);
                float v = video[at < max_size ? at : 0];
                sum += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 2000.0f;
            }
            w[i] = w[i] * pf_exp(sum / (float)count);
        }
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < BLOCK; t++)
                buf[t] = b * BLOCK + t < np ? w[b * BLOCK + t] : 0.0f;
            for (int s = BLOCK / 2; s > 0; s >>= 1)
                for (int t = 0; t < s; t++)
                    buf[t] += buf[t + s];
            psum[b] = buf[0];
        }
        float total = 0.0f, acc = 0.0f;
        for (int b = 0; b < blocks; b++)
            total += psum[b];
        for (int x = 0; x < np; x++) {
            acc += w[x] / total;
            cdf[x] = acc;
        }
        float u0 = (1.0f / (float)np) * pf_uniform(seed0, 0);
        for (int i = 0; i < np; i++) {
            w[i] = w[i] / total;
            u[i] = u0 + (float)i / (float)np;
        }
        for (int i = 0; i < np; i++) {
            int index = np - 1;
            for (int x = 0; x < np; x++)
                if (cdf[x] >= u[i]) {
                    index = x;
                    break;
                }
            xj[i] = ax[index];
            yj[i] = ay[index];
        }
    }

    /* The estimate: the weighted mean position. */
    double ex = 0, ey = 0, wx = 0, wy = 0;
    for (int i = 0; i < np; i++) {
        ex += (double)got[i] * got[2 * np + i], ey += (double)got[np + i] * got[2 * np + i];
        wx += (double)ax[i] * w[i], wy += (double)ay[i] * w[i];
    }
    got[3 * np] = (float)ex, got[3 * np + 1] = (float)ey;
    want[3 * np] = (float)wx, want[3 * np + 1] = (float)wy;
    printf("particlefilter: estimate (%.2f, %.2f), disc at (%d, %d) in the last frame\n", ex, ey,
           nx / 2 + nframes - 1, ny / 2 - 2 * (nframes - 1));

    double err = wl_max_err_f(got, want, 3 * (size_t)np + 2);
    free(video), free(x0), free(y0), free(seed0), free(got), free(want);
    free(xj), free(yj), free(cdf), free(u), free(psum);
    return wl_finish("particlefilter", err, 1e-4);
}
