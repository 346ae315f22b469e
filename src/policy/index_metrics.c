/* index_metrics.c: the set-index metrics of the FUP paper (see index_metrics.h). Pure,
 * allocation-free functions: the SM calls them on every divergent load, the index study on
 * synthetic streams. */
#include "policy/index_metrics.h"

uint32_t index_metric_sets_touched(const uint32_t *sets, uint32_t n_acc)
{
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n_acc; i++) {
        uint32_t j = 0;
        while (j < i && sets[j] != sets[i])
            j++;
        distinct += j == i;
    }
    return distinct;
}

double index_metric_concentration(uint32_t n_acc, uint32_t n_sets_touched)
{
    return n_acc && n_sets_touched ? (double)n_acc / n_sets_touched : 0.0;
}

double index_metric_concentration_of_sets(const uint32_t *sets, uint32_t n_acc)
{
    return index_metric_concentration(n_acc, index_metric_sets_touched(sets, n_acc));
}

unsigned index_metric_conc_bucket(uint32_t n_acc, uint32_t n_sets_touched)
{
    unsigned b = 0;
    uint64_t limit = n_sets_touched;
    while ((uint64_t)n_acc > limit && b < INDEX_METRIC_CONC_BUCKETS - 1) {
        b++;
        limit <<= 1;
    }
    return b;
}

const char *index_metric_conc_bucket_name(unsigned bucket)
{
    static const char *const names[INDEX_METRIC_CONC_BUCKETS] = {"1",      "(1,2]",   "(2,4]", "(4,8]",
                                                                 "(8,16]", "(16,32]", ">32"};
    return bucket < INDEX_METRIC_CONC_BUCKETS ? names[bucket] : "?";
}
