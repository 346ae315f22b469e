/* host.c: Rodinia's CFD solver (euler3d, see kernel.cu) on a synthetic unstructured mesh.
 *
 * The original reads a mesh (fvcorr.domn.097K: 97046 elements, 4 faces each) that is not in
 * this tree. Ours is made from `seed`: the elements are the cells of a strip `width` cells
 * wide and nel / width rows long (the last row may be partial), each with four faces: west
 * and east (the strip wraps around in x), south (row 0: a wall, the "wing") and north (the
 * last row: the far field; a face onto a missing cell of the partial row is far field too).
 * Face normals are near the axes with random tilts of up to 0.1, equal and opposite on the two
 * sides of a face; volumes are 1 +- 0.2. The element numbering is shuffled within windows of
 * 512, so that, as in a real mesh ordered for locality, neighbours are near in memory but not
 * adjacent. The flow starts as the free stream everywhere: Mach 1.2 along x, density 1.4,
 * pressure 1 (the original's far-field conditions, angle of attack 0).
 *
 * Like the original: arrays padded to a multiple of 192 elements (nelr), per iteration a
 * device-to-device copy of the variables, cfd_step, then cfd_flux and cfd_time_step for each
 * of the 3 Runge-Kutta stages (7 kernels).
 *
 * Arguments: nel (elements), width (cells a row), iters (time steps), seed. Sizes:
 *   small (default) nel=24576 width=256 iters=2: 128 blocks, 14 kernels.
 *   paper nel=97046 width=256 iters=5: the element count of Rodinia's 97K input (506 blocks);
 *     5 of the original's 2000 iterations (35 kernels).
 * Check: a CPU version running the same code (cfd_math.h) on the same mesh; nvcc's fused
 * multiply-adds round differently, so the tolerance is 1e-4 relative. */
#include "wl.h"
#include "../common/cfd_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 192
#define SHUFFLE 512 /* the numbering is shuffled within windows of this many elements */

/* One face normal: the axis direction `axis` (0 x, 1 y) with the other two components random
 * tilts in [-0.1, 0.1). */
static CfdVec tilted(int axis)
{
    CfdVec n = {(wl_randf() - 0.5f) * 0.2f, (wl_randf() - 0.5f) * 0.2f, (wl_randf() - 0.5f) * 0.2f};
    if (axis == 0)
        n.x = 1.0f;
    else
        n.y = 1.0f;
    return n;
}

/* Face j of element e (unshuffled): its neighbour and normal. */
static void set_face(int *nb, float *normals, int nelr, int e, int j, int other, CfdVec n)
{
    nb[e + j * nelr] = other;
    normals[e + (j + 0 * CFD_NNB) * nelr] = n.x;
    normals[e + (j + 1 * CFD_NNB) * nelr] = n.y;
    normals[e + (j + 2 * CFD_NNB) * nelr] = n.z;
}

static CfdVec neg(CfdVec v)
{
    CfdVec r = {-v.x, -v.y, -v.z};
    return r;
}

/* The mesh in grid order: faces 0 west, 1 east, 2 south, 3 north. */
static void make_mesh(int nel, int nelr, int width, int *nb, float *normals, float *areas)
{
    for (int e = 0; e < nel; e++)
        areas[e] = 1.0f + (wl_randf() - 0.5f) * 0.4f;
    for (int e = 0; e < nel; e++) {
        int x = e % width, y = e / width;
        int east = y * width + (x + 1) % width, north = e + width;
        CfdVec n = tilted(0); /* the east face, the east neighbour's west face */
        if (east < nel) {
            set_face(nb, normals, nelr, e, 1, east, n);
            set_face(nb, normals, nelr, east, 0, e, neg(n));
        } else {
            set_face(nb, normals, nelr, e, 1, CFD_FAR_FIELD, n);
            set_face(nb, normals, nelr, y * width, 0, CFD_FAR_FIELD, neg(n));
        }
        n = tilted(1); /* the north face, the north neighbour's south face */
        if (north < nel) {
            set_face(nb, normals, nelr, e, 3, north, n);
            set_face(nb, normals, nelr, north, 2, e, neg(n));
        } else {
            set_face(nb, normals, nelr, e, 3, CFD_FAR_FIELD, n);
        }
        if (y == 0)
            set_face(nb, normals, nelr, e, 2, CFD_WING, neg(tilted(1)));
    }
}

/* Renumber the elements by perm (new id of old element e): the per-element arrays and the
 * neighbour ids. */
static void renumber(const int *perm, int nel, int nelr, int *nb, float *normals, float *areas)
{
    int *nb2 = malloc((size_t)nelr * CFD_NNB * sizeof *nb2);
    float *normals2 = malloc((size_t)nelr * CFD_NNB * 3 * sizeof *normals2), *areas2 = malloc(nelr * sizeof *areas2);
    if (!nb2 || !normals2 || !areas2) {
        fprintf(stderr, "cfd: out of memory\n");
        exit(1);
    }
    memcpy(nb2, nb, (size_t)nelr * CFD_NNB * sizeof *nb2);
    memcpy(normals2, normals, (size_t)nelr * CFD_NNB * 3 * sizeof *normals2);
    memcpy(areas2, areas, nelr * sizeof *areas2);
    for (int e = 0; e < nel; e++) {
        int p = perm[e];
        areas[p] = areas2[e];
        for (int j = 0; j < CFD_NNB; j++) {
            int other = nb2[e + j * nelr];
            nb[p + j * nelr] = other >= 0 ? perm[other] : other;
            for (int c = 0; c < 3; c++)
                normals[p + (j + c * CFD_NNB) * nelr] = normals2[e + (j + c * CFD_NNB) * nelr];
        }
    }
    free(nb2), free(normals2), free(areas2);
}

/* The free stream and its flux vectors. */
static CfdFarField far_field(float *state)
{
    const float mach = 1.2f;
    float density = 1.4f, pressure = 1.0f;
    float sound = sqrtf(CFD_GAMMA * pressure / density), speed = mach * sound;
    state[0] = density;
    state[1] = density * speed;
    state[2] = state[3] = 0.0f;
    state[4] = 0.5f * density * speed * speed + pressure / (CFD_GAMMA - 1.0f);
    CfdState s = cfd_state(state, 0, 1);
    CfdFarField ff = {s.density, s.energy, s.momentum, s.fc_mx, s.fc_my, s.fc_mz, s.fc_e};
    return ff;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"nel", "width", "iters", "seed"};
    long val[] = {24576, 256, 2, 1};
    wl_args(argc, argv, 4, keys, val);
    if (val[0] < 1 || val[0] > 10000000 || val[1] < 3 || val[1] > val[0] || val[2] < 1 || val[2] > 100000) {
        fprintf(stderr, "cfd: need 1 <= nel <= 1e7, 3 <= width <= nel, 1 <= iters <= 100000\n");
        return 2;
    }
    int nel = (int)val[0], width = (int)val[1], iters = (int)val[2];
    int nelr = (nel + THREADS - 1) / THREADS * THREADS;
    size_t var_bytes = (size_t)nelr * CFD_NVAR * sizeof(float);

    /* Padding elements are far-field on every face with unit volume, so they compute finite
     * values that nothing reads. */
    int *nb = malloc((size_t)nelr * CFD_NNB * sizeof *nb), *perm = malloc(nel * sizeof *perm);
    float *normals = calloc((size_t)nelr * CFD_NNB * 3, sizeof *normals), *areas = malloc(nelr * sizeof *areas);
    float *vars = malloc(var_bytes), *old = malloc(var_bytes), *fluxes = malloc(var_bytes);
    float *steps = malloc(nelr * sizeof *steps), *got = malloc(var_bytes);
    if (!nb || !perm || !normals || !areas || !vars || !old || !fluxes || !steps || !got) {
        fprintf(stderr, "cfd: out of memory\n");
        return 1;
    }
    for (int k = 0; k < nelr * CFD_NNB; k++)
        nb[k] = CFD_FAR_FIELD;
    for (int e = 0; e < nelr; e++)
        areas[e] = 1.0f;
    wl_seed((uint64_t)val[3]);
    make_mesh(nel, nelr, width, nb, normals, areas);
    for (int e = 0; e < nel; e++)
        perm[e] = e;
    for (int w = 0; w < nel; w += SHUFFLE) {
        int len = nel - w < SHUFFLE ? nel - w : SHUFFLE;
        for (int k = len - 1; k > 0; k--) {
            int r = (int)wl_rand_below((uint32_t)k + 1), t = perm[w + k];
            perm[w + k] = perm[w + r];
            perm[w + r] = t;
        }
    }
    renumber(perm, nel, nelr, nb, normals, areas);
    float ff_state[CFD_NVAR];
    CfdFarField ff = far_field(ff_state);
    for (int k = 0; k < CFD_NVAR; k++)
        for (int e = 0; e < nelr; e++)
            vars[e + k * nelr] = ff_state[k];

    wl_init();
    CUfunction k_step = wl_kernel("cfd_step"), k_flux = wl_kernel("cfd_flux"), k_time = wl_kernel("cfd_time_step");
    wl_copy_to(wl_symbol("cfd_ff", NULL), &ff, sizeof ff);
    CUdeviceptr d_nb = wl_upload(nb, (size_t)nelr * CFD_NNB * sizeof *nb);
    CUdeviceptr d_normals = wl_upload(normals, (size_t)nelr * CFD_NNB * 3 * sizeof *normals);
    CUdeviceptr d_areas = wl_upload(areas, nelr * sizeof *areas), d_vars = wl_upload(vars, var_bytes);
    CUdeviceptr d_old = wl_alloc(var_bytes), d_fluxes = wl_alloc(var_bytes), d_steps = wl_alloc(nelr * sizeof *steps);
    unsigned blocks = (unsigned)(nelr / THREADS);
    int stage;
    void *step_args[] = {&d_vars, &d_areas, &d_steps, &nelr};
    void *flux_args[] = {&d_nb, &d_normals, &d_vars, &d_fluxes, &nelr};
    void *time_args[] = {&stage, &d_old, &d_vars, &d_steps, &d_fluxes, &nelr};
    for (int it = 0; it < iters; it++) {
        WL_CHECK(cuMemcpyDtoD(d_old, d_vars, var_bytes));
        wl_launch(k_step, blocks, 1, 1, THREADS, 1, 1, 0, step_args);
        for (stage = 0; stage < CFD_RK; stage++) {
            wl_launch(k_flux, blocks, 1, 1, THREADS, 1, 1, 0, flux_args);
            wl_launch(k_time, blocks, 1, 1, THREADS, 1, 1, 0, time_args);
        }
    }
    wl_download(got, d_vars, var_bytes);

    /* CPU reference: the same steps element by element. */
    for (int it = 0; it < iters; it++) {
        memcpy(old, vars, var_bytes);
        for (int e = 0; e < nelr; e++)
            steps[e] = cfd_step_factor(vars, areas, e, nelr);
        for (stage = 0; stage < CFD_RK; stage++) {
            for (int e = 0; e < nelr; e++) {
                float flux[CFD_NVAR];
                cfd_element_flux(nb, normals, vars, e, nelr, &ff, flux);
                for (int k = 0; k < CFD_NVAR; k++)
                    fluxes[e + k * nelr] = flux[k];
            }
            for (int e = 0; e < nelr; e++) {
                float factor = steps[e] / (float)(CFD_RK + 1 - stage);
                for (int k = 0; k < CFD_NVAR; k++)
                    vars[e + k * nelr] = old[e + k * nelr] + factor * fluxes[e + k * nelr];
            }
        }
    }
    double dev = 0;
    for (int e = 0; e < nel; e++)
        dev = fmax(dev, fabs(vars[e] - ff_state[0]));
    printf("cfd: %d elements (%d padded), %d iterations, %d kernels, largest density change %.4f\n", nel, nelr, iters,
           7 * iters, dev);

    double err = 0;
    for (int k = 0; k < CFD_NVAR; k++)
        err = fmax(err, wl_max_err_f(got + (size_t)k * nelr, vars + (size_t)k * nelr, nel));
    free(nb), free(perm), free(normals), free(areas), free(vars), free(old), free(fluxes), free(steps), free(got);
    return wl_finish("cfd", err, 1e-4);
}
