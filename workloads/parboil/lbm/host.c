/* host.c: LBM (Parboil-style lattice-Boltzmann, D3Q19 BGK), `steps` time steps of an nx x ny x nz
 * lattice, ping-ponging between two structure-of-arrays lattices (kernel.cu); one launch a step,
 * a CTA per (y, z) row of nx threads.
 *
 * The fluid: periodic in x, y and z, with solid walls at y = 0 and y = ny - 1 (a channel) and a
 * solid sphere of radius min(ny, nz) / 6 in the middle, as Parboil's input is a channel with an
 * obstacle. It starts at rest-density equilibrium moving in z at speed 0.05 (lattice units),
 * perturbed by a small random density, and relaxes with omega = 1.2.
 *
 * Sizes:
 *   paper  nx=120 ny=120 nz=150 steps=3: Parboil's lattice (the thesis' Table 5.2 lists LBM's
 *          "default" input), 2.16 M cells, CTAs of 120 threads (3 full warps and one of 24)
 *          as Parboil's. Parboil runs many more steps; each launches the same kernel on the same
 *          lattice, so a few steps show its memory behaviour.
 *   small  nx=64 ny=16 nz=16 steps=2 (the defaults): 256 CTAs of 2 warps a step.
 *
 * Check: every value of the lattice the last step wrote, against a CPU version with the same
 * operations in the same order. */
#include "wl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

enum { Q = 19 };
static const int ex[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int ey[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int ez[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
static const int opp[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
static const float wq[Q] = {1.0f / 3,  1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18,
                            1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36,
                            1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

static float equilibrium(int q, float rho, float ux, float uy, float uz)
{
    float uu = 1.5f * (ux * ux + uy * uy + uz * uz);
    float eu = 3.0f * (ex[q] * ux + ey[q] * uy + ez[q] * uz);
    return wq[q] * rho * (1.0f + eu + 0.5f * eu * eu - uu);
}

/* One step on the CPU, as the kernel does it. */
static void lbm_cpu(const float *src, float *dst, const int *solid, int nx, int ny, int nz, float omega)
{
    long n = (long)nx * ny * nz;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long cell = ((long)z * ny + y) * nx + x;
                float f[Q];
                if (solid[cell]) {
                    for (int q = 0; q < Q; q++)
                        dst[q * n + cell] = src[q * n + cell];
                    continue;
                }
                for (int q = 0; q < Q; q++) {
                    int sx = (x - ex[q] + nx) % nx, sy = (y - ey[q] + ny) % ny, sz = (z - ez[q] + nz) % nz;
                    long from = ((long)sz * ny + sy) * nx + sx;
                    f[q] = solid[from] ? src[opp[q] * n + cell] : src[q * n + from];
                }
                float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
                for (int q = 0; q < Q; q++) {
                    rho += f[q];
                    ux += f[q] * ex[q];
                    uy += f[q] * ey[q];
                    uz += f[q] * ez[q];
                }
                ux /= rho;
                uy /= rho;
                uz /= rho;
                for (int q = 0; q < Q; q++)
                    dst[q * n + cell] = f[q] + omega * (equilibrium(q, rho, ux, uy, uz) - f[q]);
            }
}

int main(int argc, char **argv)
{
    const char *const keys[] = {"nx", "ny", "nz", "steps", "seed"};
    long val[] = {64, 16, 16, 2, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 1 || val[0] > 1024 || val[1] < 3 || val[1] > 65535 || val[2] < 1 || val[2] > 65535 ||
        val[3] < 1 || (double)val[0] * val[1] * val[2] * Q > INT_MAX) {
        fprintf(stderr, "lbm: nx must be 1..1024, ny 3..65535, nz 1..65535, steps at least 1, and "
                        "19 x nx x ny x nz at most %d\n", INT_MAX);
        return 2;
    }
    int nx = (int)val[0], ny = (int)val[1], nz = (int)val[2], steps = (int)val[3];
    const float omega = 1.2f;
    long n = (long)nx * ny * nz;
    size_t bytes = (size_t)n * Q * sizeof(float);

    wl_seed((uint64_t)val[4]);
    /* the result is checked a slice at a time: at paper size a third whole lattice would be
     * 164 MB of this process's memory (the simulator's counts it: the host program runs in it) */
    const size_t slice = 1u << 16;
    float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(slice * sizeof *got);
    int *solid = calloc((size_t)n, sizeof *solid);
    if (!a || !b || !got || !solid) {
        fprintf(stderr, "lbm: out of memory\n");
        return 1;
    }
    int r = (ny < nz ? ny : nz) / 6;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                long cell = ((long)z * ny + y) * nx + x;
                int dx = x - nx / 2, dy = y - ny / 2, dz = z - nz / 2;
                solid[cell] = y == 0 || y == ny - 1 || dx * dx + dy * dy + dz * dz <= r * r;
                float rho = 1.0f + 0.01f * (wl_randf() - 0.5f);
                for (int q = 0; q < Q; q++)
                    a[q * n + cell] = equilibrium(q, rho, 0.0f, 0.0f, 0.05f);
            }

    wl_init();
    CUfunction step = wl_kernel("lbm_step");
    CUdeviceptr d_lat[2] = {wl_upload(a, bytes), wl_alloc(bytes)};
    CUdeviceptr d_solid = wl_upload(solid, (size_t)n * sizeof *solid);
    for (int s = 0; s < steps; s++) {
        void *args[] = {&d_lat[s & 1], &d_lat[(s + 1) & 1], &d_solid, &nx, &ny, &nz, (void *)&omega};
        wl_launch(step, (unsigned)ny, (unsigned)nz, 1, (unsigned)nx, 1, 1, 0, args);
    }
    float *lat[2] = {a, b};
    for (int s = 0; s < steps; s++)
        lbm_cpu(lat[s & 1], lat[(s + 1) & 1], solid, nx, ny, nz, omega);
    double err = 0;
    for (size_t at = 0, total = (size_t)n * Q; at < total; at += slice) {
        size_t len = total - at < slice ? total - at : slice;
        wl_download(got, d_lat[steps & 1] + at * sizeof *got, len * sizeof *got);
        double e = wl_max_err_f(got, lat[steps & 1] + at, len);
        err = e > err ? e : err;
    }
    free(a);
    free(b);
    free(got);
    free(solid);
    return wl_finish("lbm", err, 1e-4);
}
