/* index_metrics.h: metrics of set-index functions (FUP paper sec. III).
 *
 * Intra-warp concentration (FUP paper eq. 1, thesis eq. 3.1): for one warp load, the number of
 * accesses it makes to the cache (its distinct lines after coalescing) divided by the number of
 * distinct sets those lines map to. 1 is ideal; 32 means a 32-line load falls in one set.
 * The functions are pure, allocation-free and cheap, so the SM can call them on every load to
 * fill its stats; balance (eq. 2) and the `warpsim index` study are in analysis/index_study.h. */
#ifndef WARPSIM_INDEX_METRICS_H
#define WARPSIM_INDEX_METRICS_H

#include <stdint.h>

/* Concentration histogram buckets: 1 | (1,2] | (2,4] | (4,8] | (8,16] | (16,32] | >32. */
#define INDEX_METRIC_CONC_BUCKETS 7

/* Distinct sets among the sets of one load's accesses (one entry per distinct line).
 * O(n^2) comparisons, no allocation: n is at most a few dozen. */
uint32_t index_metric_sets_touched(const uint32_t *sets, uint32_t n_acc);

/* Eq. 1: n_acc / n_sets_touched; 0 for a load without accesses. */
double index_metric_concentration(uint32_t n_acc, uint32_t n_sets_touched);

/* Eq. 1 for the sets of one load's accesses (one entry per distinct line). */
double index_metric_concentration_of_sets(const uint32_t *sets, uint32_t n_acc);

/* Histogram bucket (0 .. INDEX_METRIC_CONC_BUCKETS-1) of a load's concentration, computed
 * exactly from the two counts: bucket 0 is concentration 1 (or no access), bucket k >= 1 is
 * (2^(k-1), 2^k], the last bucket everything above 32. */
unsigned index_metric_conc_bucket(uint32_t n_acc, uint32_t n_sets_touched);
/* "1", "(1,2]", ..., ">32"; "?" out of range. */
const char *index_metric_conc_bucket_name(unsigned bucket);

#endif
