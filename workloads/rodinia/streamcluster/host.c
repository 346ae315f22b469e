/* host.c: the gain step of Rodinia's streamcluster (see kernel.cu), driven over a series of
 * candidate centres.
 *
 * Input: n points of dim coordinates uniform in [0, 1), weight 1, from `seed`. The host opens
 * `centres` random points as the first centres, serves every point from its nearest one and
 * sets the facility cost z to 1/64 of the mean cost per centre, which keeps the number of
 * centres K roughly between 10 and 20 (Rodinia's default kmin and kmax) as candidates open
 * and centres close. Then, like the local search of the original (pFL calling pgain), it
 * evaluates `launches` random non-centre candidates in turn. Each evaluation does what the original's pgain does: number the current
 * centres (centre_table), clear the switch flags and the n x (K + 1) work array, upload the
 * point records, launch the kernel on ceil(n / 512) blocks of 512 threads, read work and
 * flags back and decide on the CPU: a centre whose members would lose less by moving to x
 * than z saves is closed; if opening x then costs less than it saves, the switching points
 * and the members of closed centres move to x. The original repeats this hundreds of times
 * per stream chunk; like the papers' simulations (two invocations at 256 K points), this
 * runs a fixed number. A CPU reference repeats every step with the kernel's arithmetic, so
 * the final assignment must match exactly and the gains and costs to 1e-4.
 *
 * Arguments: n, dim, centres (initial K), launches, seed. Sizes:
 *   small (default) n=32768 dim=32 centres=10 launches=4: 64 blocks; the same coalesced
 *     coordinate loop followed by 32-byte-strided record loads and (K + 1)-float-strided
 *     work updates as at paper size, with fewer dimensions to bound the run time.
 *   paper n=262144 dim=256 centres=10 launches=2: the thesis's 256 K points with two kernel
 *     invocations; 256 dimensions and kmin=10 as Rodinia's default run. */
#include "wl.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The point record, laid out as the kernel's struct Point (32 bytes). */
struct point {
    float weight;
    uint64_t coord; /* a pointer in the original; unused here */
    int64_t assign;
    float cost;
};
_Static_assert(sizeof(struct point) == 32, "point record must be 32 bytes like the kernel's");

struct problem {
    int n, dim;
    const float *coord; /* dimension-major: coord[d * n + i] */
    float z;
};

/* Squared distance between points i and x, summed in the kernel's order with its fmaf. */
static float dist2(const struct problem *pr, int i, int x)
{
    float dist = 0.0f;
    for (int d = 0; d < pr->dim; d++) {
        float diff = pr->coord[(size_t)d * pr->n + i] - pr->coord[(size_t)d * pr->n + x];
        dist = fmaf(diff, diff, dist);
    }
    return dist;
}

/* The kernel's work on the CPU, for the reference. */
static void gain_rows(const struct problem *pr, int x, const struct point *p, int K, const int *table, float *work,
                      bool *sw)
{
    for (int i = 0; i < pr->n; i++) {
        float x_cost = dist2(pr, i, x) * p[i].weight;
        float *row = &work[(size_t)i * (K + 1)];
        if (x_cost < p[i].cost) {
            sw[i] = true;
            row[K] += x_cost - p[i].cost;
        } else {
            row[table[p[i].assign]] += p[i].cost - x_cost;
        }
    }
}

/* Number the centres; returns K. */
static int number_centres(int n, const bool *is_centre, int *table)
{
    int K = 0;
    for (int i = 0; i < n; i++)
        if (is_centre[i])
            table[i] = K++;
    return K;
}

/* The CPU half of pgain: decide from the work rows and flags, apply if worth it. Returns the
 * gain (0 when x is not opened). lower has room for K floats. */
static float decide(const struct problem *pr, int x, struct point *p, bool *is_centre, const int *table, int K,
                    const float *work, const bool *sw, float *lower)
{
    int n = pr->n, stride = K + 1;
    float cost_of_opening = pr->z;
    for (int c = 0; c < K; c++)
        lower[c] = pr->z; /* closing centre c saves z ... */
    for (int i = 0; i < n; i++)
        for (int c = 0; c < K; c++)
            lower[c] += work[(size_t)i * stride + c]; /* ... minus what its members would pay */
    for (int c = 0; c < K; c++)
        if (lower[c] > 0)
            cost_of_opening -= lower[c];
    for (int i = 0; i < n; i++)
        cost_of_opening += work[(size_t)i * stride + K]; /* the switching points' savings */
    if (!(cost_of_opening < 0))
        return 0.0f;
    for (int i = 0; i < n; i++)
        if (sw[i] || lower[table[p[i].assign]] > 0) {
            p[i].cost = dist2(pr, i, x) * p[i].weight;
            p[i].assign = x;
        }
    for (int i = 0; i < n; i++)
        if (is_centre[i] && lower[table[i]] > 0)
            is_centre[i] = false;
    is_centre[x] = true;
    return -cost_of_opening;
}

/* The next candidate: a random point that is not a centre (the draws depend only on the
 * generator and the centre set, so both runs see the same sequence). */
static int next_candidate(int n, const bool *is_centre)
{
    int x;
    do
        x = (int)wl_rand_below((uint32_t)n);
    while (is_centre[x]);
    return x;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "dim", "centres", "launches", "seed"};
    long val[] = {32768, 32, 10, 4, 1};
    wl_args(argc, argv, 5, keys, val);
    if (val[0] < 2 || val[1] < 1 || val[2] < 1 || val[2] >= val[0] || val[3] < 1 || val[0] * val[1] > 200000000 ||
        val[0] * (val[2] + val[3] + 1) > 500000000) {
        fprintf(stderr, "streamcluster: need n >= 2, dim >= 1, centres in 1..n-1, launches >= 1, n * dim <= 2e8, "
                        "n * (centres + launches + 1) <= 5e8\n");
        return 2;
    }
    int n = (int)val[0], dim = (int)val[1], k0 = (int)val[2], launches = (int)val[3];
    uint64_t seed = (uint64_t)val[4];
    int kmax = k0 + launches; /* K grows by at most one per launch */

    wl_seed(seed);
    float *coord = malloc((size_t)n * dim * sizeof *coord);
    struct point *p0 = malloc(n * sizeof *p0), *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
    bool *centre0 = calloc(n, 1), *is_centre = malloc(n), *want_centre = malloc(n), *sw = malloc(n);
    int *table = malloc(n * sizeof *table);
    float *work = malloc((size_t)n * (kmax + 1) * sizeof *work), *lower = malloc((kmax + 1) * sizeof *lower);
    float *gain = malloc(launches * sizeof *gain), *want_gain = malloc(launches * sizeof *want_gain);
    float *cost = malloc(n * sizeof *cost), *want_cost = malloc(n * sizeof *want_cost);
    int *assign = malloc(n * sizeof *assign), *want_assign = malloc(n * sizeof *want_assign);
    if (!coord || !p0 || !p || !q || !centre0 || !is_centre || !want_centre || !sw || !table || !work || !lower ||
        !gain || !want_gain || !cost || !want_cost || !assign || !want_assign) {
        fprintf(stderr, "streamcluster: out of memory\n");
        return 1;
    }
    for (size_t e = 0; e < (size_t)n * dim; e++)
        coord[e] = wl_randf();
    struct problem pr = {n, dim, coord, 0.0f};

    /* First solution: k0 random centres, every point served by its nearest. */
    for (int c = 0; c < k0; c++) {
        table[c] = next_candidate(n, centre0); /* table holds the centres' ids for now */
        centre0[table[c]] = true;
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
        float best = INFINITY;
        int at = 0;
        for (int c = 0; c < k0; c++) {
            float d = dist2(&pr, i, table[c]);
            if (d < best)
                best = d, at = table[c];
        }
        p0[i] = (struct point){1.0f, 0, at, best * 1.0f};
        total += best;
    }
    pr.z = (float)(total / k0 / 64);

    wl_init();
    CUfunction kernel = wl_kernel("pgain_kernel");
    CUdeviceptr d_coord = 0, d_points = wl_alloc(n * sizeof *p), d_table = wl_alloc(n * sizeof *table);
    CUdeviceptr d_switch = wl_alloc(n), d_work = wl_alloc((size_t)n * (kmax + 1) * sizeof *work);
    unsigned blocks = (unsigned)((n + 511) / 512), by = (blocks + 65534) / 65535, bx = (blocks + by - 1) / by;

    /* The run on the device: the kernel fills work and flags, the host decides. */
    memcpy(p, p0, n * sizeof *p);
    memcpy(is_centre, centre0, n);
    wl_seed(seed * 7919 + 17);
    int opened = 0;
    for (int l = 0; l < launches; l++) {
        int x = next_candidate(n, is_centre);
        int K = number_centres(n, is_centre, table), stride = K + 1;
        long long x_ll = x;
        wl_copy_to(d_table, table, n * sizeof *table);
        wl_zero(d_switch, n);
        wl_zero(d_work, (size_t)n * stride * sizeof *work);
        wl_copy_to(d_points, p, n * sizeof *p);
        if (!d_coord) /* the coordinates go up once, on the first call */
            d_coord = wl_upload(coord, (size_t)n * dim * sizeof *coord);
        void *args[] = {&n, &dim, &x_ll, &d_points, &K, &stride, &d_coord, &d_work, &d_table, &d_switch};
        wl_launch(kernel, bx, by, 1, 512, 1, 1, 0, args);
        wl_download(work, d_work, (size_t)n * stride * sizeof *work);
        wl_download(sw, d_switch, n);
        gain[l] = decide(&pr, x, p, is_centre, table, K, work, sw, lower);
        opened += gain[l] > 0;
    }

    /* CPU reference. */
    memcpy(q, p0, n * sizeof *q);
    memcpy(want_centre, centre0, n);
    wl_seed(seed * 7919 + 17);
    for (int l = 0; l < launches; l++) {
        int x = next_candidate(n, want_centre);
        int K = number_centres(n, want_centre, table);
        memset(work, 0, (size_t)n * (K + 1) * sizeof *work);
        memset(sw, 0, n);
        gain_rows(&pr, x, q, K, table, work, sw);
        want_gain[l] = decide(&pr, x, q, want_centre, table, K, work, sw, lower);
    }

    for (int i = 0; i < n; i++) {
        cost[i] = p[i].cost, want_cost[i] = q[i].cost;
        assign[i] = (int)p[i].assign, want_assign[i] = (int)q[i].assign;
    }
    printf("streamcluster: %d of %d candidates opened, %d centres at the end\n", opened, launches,
           number_centres(n, is_centre, table));
    double err = fmax(wl_max_err_f(gain, want_gain, launches), wl_max_err_f(cost, want_cost, n));
    if (wl_max_err_i(assign, want_assign, n) != 0)
        err = INFINITY;
    free(coord), free(p0), free(p), free(q), free(centre0), free(is_centre), free(want_centre), free(sw);
    free(table), free(work), free(lower), free(gain), free(want_gain), free(cost), free(want_cost);
    free(assign), free(want_assign);
    return wl_finish("streamcluster", err, 1e-4);
}
