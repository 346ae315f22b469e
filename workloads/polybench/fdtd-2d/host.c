/* host.c: PolyBench/GPU FDTD-2D, tmax time steps of a 2-D electromagnetic field update.
 *
 * Each step launches fdtd_step_ey, fdtd_step_ex and fdtd_step_hz in that order, all with 32x8
 * blocks on an (ny/32) x (nx/8) grid, as the original; the source term of step t is fict[t].
 *
 * Sizes:
 *   paper  nx=ny=2048 tmax=500: PolyBench/GPU's default (the thesis' DaCache and OAWS tables
 *          and Linebacker list "default"): 1500 launches of 16384 CTAs.
 *   small  nx=64 ny=1024 tmax=6 (the defaults): 18 launches of 256 CTAs, about 1.4 M warp
 *          instructions. Rows of 4 KB (ex: 4 KB + 4 bytes) are, like the paper's 8 KB, a
 *          multiple of the L1's 4 KB way, so a warp's row segments and the rows a stencil
 *          pairs map to L1 sets as at paper size; fewer rows and steps only shorten the run.
 *
 * Input: fields uniform in [0, 1) and fict[t] = t, from the seed. Check: all three fields after
 * the last step against a CPU version with the same operations in the same order. The only
 * difference is nvcc's fused multiply-adds, and the iteration amplifies it (about 5e-7 after 6
 * steps, 4e-4 after 500 steps at 128x128), hence a 1e-2 tolerance; a wrong coefficient, index or
 * boundary is off by O(1). */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static void fdtd_cpu(const float *fict, float *ex, float *ey, float *hz, int nx, int ny, int tmax)
{
    for (int t = 0; t < tmax; t++) {
        for (int j = 0; j < ny; j++)
            ey[j] = fict[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++)
                hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j]
                                                          + ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
}

static float *fill(size_t n)
{
    float *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "fdtd-2d: out of memory\n");
        exit(1);
    }
    for (size_t k = 0; k < n; k++)
        p[k] = wl_randf();
    return p;
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"nx", "ny", "tmax", "seed"};
    long val[] = {64, 1024, 6, 1};
    wl_args(argc, argv, 4, keys, val);
    int nx = (int)val[0], ny = (int)val[1], tmax = (int)val[2];
    if (val[0] < 2 || val[1] < 2 || val[2] < 1 || (double)(val[0] + 1) * (val[1] + 1) > INT_MAX) {
        fprintf(stderr, "fdtd-2d: need nx, ny >= 2, (nx+1) * (ny+1) <= %d, tmax >= 1\n", INT_MAX);
        return 2;
    }
    size_t ex_n = (size_t)nx * (ny + 1), ey_n = (size_t)(nx + 1) * ny, hz_n = (size_t)nx * ny;

    wl_seed((uint64_t)val[3]);
    float *ex = fill(ex_n), *ey = fill(ey_n), *hz = fill(hz_n);
    float *fict = malloc(tmax * sizeof *fict);
    size_t all_n = ex_n + ey_n + hz_n;
    float *out = malloc(all_n * sizeof *out), *ref = malloc(all_n * sizeof *ref);
    if (!fict || !out || !ref) {
        fprintf(stderr, "fdtd-2d: out of memory\n");
        return 1;
    }
    for (int t = 0; t < tmax; t++)
        fict[t] = (float)t;

    wl_init();
    CUfunction k_ey = wl_kernel("fdtd_step_ey");
    CUfunction k_ex = wl_kernel("fdtd_step_ex");
    CUfunction k_hz = wl_kernel("fdtd_step_hz");
    CUdeviceptr d_fict = wl_upload(fict, tmax * sizeof *fict);
    CUdeviceptr d_ex = wl_upload(ex, ex_n * sizeof *ex);
    CUdeviceptr d_ey = wl_upload(ey, ey_n * sizeof *ey);
    CUdeviceptr d_hz = wl_upload(hz, hz_n * sizeof *hz);

    unsigned gx = (unsigned)(ny + 31) / 32, gy = (unsigned)(nx + 7) / 8;
    for (int t = 0; t < tmax; t++) {
        void *ey_args[] = {&d_fict, &d_ey, &d_hz, &nx, &ny, &t};
        wl_launch(k_ey, gx, gy, 1, 32, 8, 1, 0, ey_args);
        void *ex_args[] = {&d_ex, &d_hz, &nx, &ny};
        wl_launch(k_ex, gx, gy, 1, 32, 8, 1, 0, ex_args);
        void *hz_args[] = {&d_ex, &d_ey, &d_hz, &nx, &ny};
        wl_launch(k_hz, gx, gy, 1, 32, 8, 1, 0, hz_args);
    }
    wl_download(out, d_ex, ex_n * sizeof *out);
    wl_download(out + ex_n, d_ey, ey_n * sizeof *out);
    wl_download(out + ex_n + ey_n, d_hz, hz_n * sizeof *out);

    fdtd_cpu(fict, ex, ey, hz, nx, ny, tmax);
    for (size_t k = 0; k < ex_n; k++)
        ref[k] = ex[k];
    for (size_t k = 0; k < ey_n; k++)
        ref[ex_n + k] = ey[k];
    for (size_t k = 0; k < hz_n; k++)
        ref[ex_n + ey_n + k] = hz[k];
    double err = wl_max_err_f(out, ref, all_n);
    free(ex);
    free(ey);
    free(hz);
    free(fict);
    free(out);
    free(ref);
    return wl_finish("fdtd-2d", err, 1e-2);
}
