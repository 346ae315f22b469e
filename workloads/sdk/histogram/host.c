/* host.c: CUDA SDK style 256-bin histogram of a byte array.
 *
 * One run is hist256_partial on 240 blocks of 192 threads (the sample's partial-histogram count
 * and block size) followed by hist256_merge on 256 blocks of 256 threads, one per bin. The
 * program does `runs` runs over the same input, as the sample does a warm-up run and then its
 * timed runs.
 *
 * Sizes:
 *   paper  bytes=67108864 runs=2: the sample's 64 MB input. LAS lists Histogram with 8 launches
 *          and 9860 CTAs, which fits two runs (warm-up plus one timed run) of both the sample's
 *          64-bin (4370 + 64 CTAs) and 256-bin (240 + 256 CTAs) histograms on 64 MB; we keep the
 *          256-bin one: 4 launches.
 *   small  bytes=1048576 runs=2 (the defaults): about 1 M warp instructions. The loop is the
 *          same grid-strided coalesced read with four shared atomics a word; each thread makes
 *          about 6 trips instead of 364.
 *
 * Input: uniform random bytes from the seed (bytes must be a multiple of 4: the kernel reads
 * 32-bit words). Check: the 256 counts against a CPU count, exactly. */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINS 256
#define PARTIALS 240

int main(int argc, char **argv)
{
    const char *const keys[] = {"bytes", "runs", "seed"};
    long val[] = {1048576, 2, 1};
    wl_args(argc, argv, 3, keys, val);
    long bytes = val[0];
    int runs = (int)val[1];
    if (bytes < 4 || bytes % 4 || bytes > 0xFFFFFFFFL || runs < 1) {
        fprintf(stderr, "histogram: bytes must be a positive multiple of 4 below 4 GB, runs at least 1\n");
        return 2;
    }
    unsigned n_words = (unsigned)(bytes / 4), n_partial = PARTIALS;

    wl_seed((uint64_t)val[2]);
    unsigned char *data = malloc((size_t)bytes);
    if (!data) {
        fprintf(stderr, "histogram: out of memory\n");
        return 1;
    }
    for (long k = 0; k < bytes; k += 8) {
        uint64_t r = wl_rand();
        memcpy(data + k, &r, bytes - k < 8 ? (size_t)(bytes - k) : 8);
    }
    int ref[BINS] = {0}, got[BINS];
    for (long k = 0; k < bytes; k++)
        ref[data[k]]++;

    wl_init();
    CUfunction partial = wl_kernel("hist256_partial");
    CUfunction merge = wl_kernel("hist256_merge");
    CUdeviceptr d_data = wl_upload(data, (size_t)bytes);
    CUdeviceptr d_partial = wl_alloc((size_t)PARTIALS * BINS * sizeof(unsigned));
    CUdeviceptr d_hist = wl_alloc(BINS * sizeof(unsigned));

    void *partial_args[] = {&d_partial, &d_data, &n_words};
    void *merge_args[] = {&d_hist, &d_partial, &n_partial};
    for (int r = 0; r < runs; r++) {
        wl_launch(partial, PARTIALS, 1, 1, 192, 1, 1, 0, partial_args);
        wl_launch(merge, BINS, 1, 1, 256, 1, 1, 0, merge_args);
    }
    unsigned counts[BINS];
    wl_download(counts, d_hist, sizeof counts);
    for (int b = 0; b < BINS; b++)
        got[b] = (int)counts[b];

    free(data);
    return wl_finish("histogram", wl_max_err_i(got, ref, BINS), 0);
}
