/* host.c: nearest neighbour (Rodinia NN): the k records nearest to a query point.
 *
 * Like the original, one launch of nn_distance computes every record's distance to the query
 * (lat 30, lng 90) with 256-thread blocks (a 2-D grid past 65535 blocks); the host downloads the
 * distances and selects the k nearest by k passes of selection. Records are (lat, lng) pairs,
 * lat uniform in [0, 90) and lng in [0, 360), in place of the original's hurricane files.
 *
 * Arguments: n (records), k, seed. Sizes:
 *   small (default) n=262144: 1024 blocks; the access pattern (8-byte records, two float loads
 *     per thread) does not depend on n.
 *   paper n=1310720: LAS Table 4.2 lists NN with 1 kernel and 5120 CTAs (5120 x 256 records).
 *     CIAO Table II's 334 KB working set is Rodinia's filelist_4 input (42764 records).
 * Check: every distance against the CPU's (tolerance 1e-5 relative), and the distances of the k
 * selected records against the CPU's k smallest (so ties may pick either record). */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct latlng {
    float lat, lng;
};

/* Indices of the k smallest of dist[0..n) in increasing order, k passes of selection. dist is
 * left as it was. */
static void k_nearest(const float *dist, int n, int k, int *out, unsigned char *taken)
{
    for (int i = 0; i < n; i++)
        taken[i] = 0;
    for (int r = 0; r < k; r++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!taken[i] && (best < 0 || dist[i] < dist[best]))
                best = i;
        taken[best] = 1;
        out[r] = best;
    }
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "k", "seed"};
    long val[] = {262144, 5, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < 1 || val[0] > (1L << 28) || val[1] < 1 || val[1] > val[0]) {
        fprintf(stderr, "nn: n must be in 1..2^28 and k in 1..n\n");
        return 2;
    }
    int n = (int)val[0], k = (int)val[1];
    float lat = 30.0f, lng = 90.0f;

    wl_seed((uint64_t)val[2]);
    struct latlng *rec = malloc(n * sizeof *rec);
    float *dist = malloc(n * sizeof *dist), *want = malloc(n * sizeof *want);
    int *got_k = malloc(k * sizeof *got_k), *want_k = malloc(k * sizeof *want_k);
    unsigned char *taken = malloc(n);
    if (!rec || !dist || !want || !got_k || !want_k || !taken) {
        fprintf(stderr, "nn: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        rec[i].lat = 90.0f * wl_randf();
        rec[i].lng = 360.0f * wl_randf();
    }

    wl_init();
    CUfunction kern = wl_kernel("nn_distance");
    CUdeviceptr d_rec = wl_upload(rec, n * sizeof *rec), d_dist = wl_alloc(n * sizeof *dist);
    unsigned blocks = (unsigned)(n + 255) / 256;
    unsigned gy = (blocks + 65534) / 65535, gx = (blocks + gy - 1) / gy;
    void *args[] = {&d_rec, &d_dist, &n, &lat, &lng};
    wl_launch(kern, gx, gy, 1, 256, 1, 1, 0, args);
    wl_download(dist, d_dist, n * sizeof *dist);
    k_nearest(dist, n, k, got_k, taken);

    for (int i = 0; i < n; i++) {
        float dlat = lat - rec[i].lat, dlng = lng - rec[i].lng;
        want[i] = sqrtf(dlat * dlat + dlng * dlng);
    }
    k_nearest(want, n, k, want_k, taken);
    for (int r = 0; r < k; r++)
        printf("nn: %d: record %d (%.4f, %.4f) distance %.6f\n", r, got_k[r], rec[got_k[r]].lat,
               rec[got_k[r]].lng, dist[got_k[r]]);

    double err = wl_max_err_f(dist, want, n);
    for (int r = 0; r < k; r++) { /* the selected records must be as near as the true k nearest */
        double d = fabs((double)want[got_k[r]] - want[want_k[r]]) / fmax(1.0, fabs((double)want[want_k[r]]));
        err = fmax(err, d);
    }
    free(rec), free(dist), free(want), free(got_k), free(want_k), free(taken);
    return wl_finish("nn", err, 1e-5);
}
