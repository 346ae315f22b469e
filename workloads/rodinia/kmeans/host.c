/* host.c: Rodinia-style k-means (see kernel.cu).
 *
 * Input: npoints points of nfeatures floats drawn around 16 random blob centres (uniform
 * offsets of +-0.25 per feature, from `seed`), so that the clustering converges as it does on
 * real data. As in the original, the host uploads the points point-major, transposes them on
 * the device once, takes the first nclusters points as the initial centres and iterates:
 * upload the centres, launch the assignment kernel (256-thread blocks on a square 2-D grid of
 * ceil(npoints / 256) blocks), read the memberships back, count the points that changed
 * cluster and recompute the centres on the CPU as feature means; it stops when no point
 * changed or after `iters` iterations. A CPU reference repeats the whole clustering with the
 * kernel's arithmetic (fmaf), so memberships must match exactly and centres to 1e-5.
 *
 * Arguments: npoints, nfeatures, nclusters, iters (iteration cap), seed. Sizes:
 *   small (default) npoints=16384 nfeatures=34 nclusters=5 iters=3: 64 blocks; 34 features
 *     (as Rodinia's kdd_cup inputs) keep the transpose's lanes 136 B apart, a different
 *     line each, as at paper size. The cap of 3 iterations (of the 17 this input needs) bounds the run time.
 *   paper npoints=28000 nfeatures=136 nclusters=5 iters=500: the thesis's "28k 4x features"
 *     (read here as 28 K points with four times kdd_cup's 34 features), Rodinia's default of
 *     5 clusters and its cap of 500 iterations. */
#include "wl.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One centre update as the original does it on the CPU: per-cluster sums in point order, then
 * means; an empty cluster keeps its centre. Returns the number of points that changed. */
static int update_centres(const float *points, const int *member, int *old_member, float *centres, float *sums,
                          int *count, int npoints, int nfeatures, int nclusters)
{
    int changed = 0;
    memset(sums, 0, (size_t)nclusters * nfeatures * sizeof *sums);
    memset(count, 0, nclusters * sizeof *count);
    for (int p = 0; p < npoints; p++) {
        int c = member[p];
        changed += c != old_member[p];
        old_member[p] = c;
        count[c]++;
        for (int f = 0; f < nfeatures; f++)
            sums[c * nfeatures + f] += points[(size_t)p * nfeatures + f];
    }
    for (int c = 0; c < nclusters; c++)
        if (count[c] > 0)
            for (int f = 0; f < nfeatures; f++)
                centres[c * nfeatures + f] = sums[c * nfeatures + f] / (float)count[c];
    return changed;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"npoints", "nfeatures", "nclusters", "iters", "seed"};
    long val[] = {16384, 34, 5, 3, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 1 || val[1] < 1 || val[2] < 1 || val[2] > val[0] || val[3] < 1 || val[0] * val[1] > 200000000) {
        fprintf(stderr, "kmeans: need npoints, nfeatures, iters >= 1, nclusters in 1..npoints, npoints * nfeatures <= 2e8\n");
        return 2;
    }
    int npoints = (int)val[0], nfeatures = (int)val[1], nclusters = (int)val[2], iters = (int)val[3];
    size_t nvals = (size_t)npoints * nfeatures, ncvals = (size_t)nclusters * nfeatures;

    enum { BLOBS = 16 };
    wl_seed((uint64_t)val[4]);
    float *points = malloc(nvals * sizeof *points), *blob = malloc((size_t)BLOBS * nfeatures * sizeof *blob);
    float *centres = malloc(ncvals * sizeof *centres), *want = malloc(ncvals * sizeof *want);
    float *sums = malloc(ncvals * sizeof *sums);
    int *member = malloc(npoints * sizeof *member), *old = malloc(npoints * sizeof *old);
    int *want_member = malloc(npoints * sizeof *want_member), *count = malloc(nclusters * sizeof *count);
    if (!points || !blob || !centres || !want || !sums || !member || !old || !want_member || !count) {
        fprintf(stderr, "kmeans: out of memory\n");
        return 1;
    }
    for (int i = 0; i < BLOBS * nfeatures; i++)
        blob[i] = wl_randf();
    for (int p = 0; p < npoints; p++) {
        int b = (int)wl_rand_below(BLOBS);
        for (int f = 0; f < nfeatures; f++)
            points[(size_t)p * nfeatures + f] = blob[b * nfeatures + f] + 0.5f * (wl_randf() - 0.5f);
    }

    wl_init();
    CUfunction transpose = wl_kernel("kmeans_transpose"), assign = wl_kernel("kmeans_assign");
    CUdeviceptr d_points = wl_upload(points, nvals * sizeof *points);
    CUdeviceptr d_features = wl_alloc(nvals * sizeof *points);
    CUdeviceptr d_centres = wl_alloc(ncvals * sizeof *centres), d_member = wl_alloc(npoints * sizeof *member);
    unsigned blocks = (unsigned)((npoints + 255) / 256), side = (unsigned)sqrt((double)blocks);
    while (side * side < blocks)
        side++;
    void *targs[] = {&d_points, &d_features, &npoints, &nfeatures};
    wl_launch(transpose, blocks, 1, 1, 256, 1, 1, 0, targs);

    /* GPU clustering: the kernel assigns, the host updates the centres. */
    memcpy(centres, points, ncvals * sizeof *centres);
    for (int p = 0; p < npoints; p++)
        old[p] = -1;
    void *aargs[] = {&d_features, &d_centres, &d_member, &npoints, &nfeatures, &nclusters};
    int rounds = 0, changed;
    do {
        wl_copy_to(d_centres, centres, ncvals * sizeof *centres);
        wl_launch(assign, side, side, 1, 256, 1, 1, 0, aargs);
        wl_download(member, d_member, npoints * sizeof *member);
        changed = update_centres(points, member, old, centres, sums, count, npoints, nfeatures, nclusters);
        rounds++;
    } while (changed > 0 && rounds < iters);

    /* CPU reference: the same clustering with the kernel's arithmetic. */
    memcpy(want, points, ncvals * sizeof *want);
    for (int p = 0; p < npoints; p++)
        old[p] = -1;
    int want_rounds = 0, want_changed;
    do {
        for (int p = 0; p < npoints; p++) {
            float best = FLT_MAX;
            int nearest = 0;
            for (int c = 0; c < nclusters; c++) {
                float dist = 0.0f;
                for (int f = 0; f < nfeatures; f++) {
                    float diff = points[(size_t)p * nfeatures + f] - want[c * nfeatures + f];
                    dist = fmaf(diff, diff, dist);
                }
                if (dist < best) {
                    best = dist;
                    nearest = c;
                }
            }
            want_member[p] = nearest;
        }
        want_changed = update_centres(points, want_member, old, want, sums, count, npoints, nfeatures, nclusters);
        want_rounds++;
    } while (want_changed > 0 && want_rounds < iters);
    printf("kmeans: %d iterations (reference %d), %d points changed in the last\n", rounds, want_rounds, changed);

    double err = wl_max_err_f(centres, want, ncvals);
    if (rounds != want_rounds || wl_max_err_i(member, want_member, npoints) != 0)
        err = INFINITY;
    free(points), free(blob), free(centres), free(want), free(sums);
    free(member), free(old), free(want_member), free(count);
    return wl_finish("kmeans", err, 1e-5);
}
