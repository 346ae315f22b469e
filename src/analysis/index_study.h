/* index_study.h: balance and whole-stream metrics of set-index functions (the per-load ones are in
 * policy/index_metrics.h), and the `warpsim index` study command.
 *
 * Intra-warp concentration (FUP paper eq. 1, thesis eq. 3.1): for one warp load, the number of
 * accesses it makes to the cache (its distinct lines after coalescing) divided by the number of
 * distinct sets those lines map to. 1 is ideal; 32 means a 32-line load falls in one set.
 * Balance (FUP paper eq. 2, from Kharbutli et al.): how evenly a cache's accumulated accesses
 * spread over all its sets; 1 is a perfectly random spread, larger is worse.
 *
 * The metric functions are pure, allocation-free and cheap, so that the L1D can call them on
 * every load to fill its stats. */
#ifndef WARPSIM_INDEX_STUDY_H
#define WARPSIM_INDEX_STUDY_H

#include <stdint.h>

#include "policy/index_metrics.h"
#include "policy/policy.h"

/* Most distinct lines one warp load can make (64 lanes, each straddling two lines). */
#define INDEX_STUDY_MAX_LINES 128

/* Eq. 1 for one warp load given by its lanes' byte addresses: lanes in the same line make one
 * access. n_lanes <= INDEX_STUDY_MAX_LINES. *n_acc_out and *n_touched_out (either may be
 * NULL) receive the two counts. */
double index_study_load_concentration(const IndexFn *fn, const uint64_t *lane_addrs, uint32_t n_lanes,
                                      uint32_t *n_acc_out, uint32_t *n_touched_out);

/* Eq. 2 over per-set access counts b[0..n_sets) (unused sets included, as zeros):
 *   sum_j b_j (b_j + 1) / 2  /  ( m / (2 n_sets) * (m + 2 n_sets - 1) ),  m = sum_j b_j.
 * 1.0 when m == 0. */
double index_study_balance(const uint64_t *set_counts, uint32_t n_sets);

/* `warpsim index ...` (argv[0] is "index"): prints, for every registered index function, the
 * line "<name> concentration <x> balance <y> sets <s> over_assoc <z>" for a synthetic strided
 * stream (after '#' comment lines describing the stream).
 * Returns 0, or 1 after a one-line error on stderr for bad arguments. See
 * docs/index-functions.md. */
int index_study_main(int argc, char **argv);

#endif
