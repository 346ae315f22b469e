/* report.h: `warpsim report RESULTS_DIR`: tables, figures and one HTML page from the results of
 * a sweep (layout in store.h, formats in docs/experiments.md). */
#ifndef WARPSIM_EXP_REPORT_H
#define WARPSIM_EXP_REPORT_H

#include "exp/json.h"
#include "exp/spec.h"
#include "exp/table.h"

#include <stdbool.h>

/* argv[0] is the subcommand name ("report"). Returns the exit status. */
int report_main(int argc, char **argv);

/* One metric per workload (rows) x variant (columns), from results[w * n_variants + v] (NULL:
 * missing), divided by the baseline variant's value of the same workload when normalise, then
 * geometric-mean rows when geomean: "gmean:<class>" for each workload class (when the workloads
 * fall in more than one class) and "gmean" over all workloads. */
ExpTable *exp_report_metric_table(const ExpSpec *s, JsonValue *const *results, const char *metric,
                                  bool normalise, bool geomean);

/* A breakdown: rows "workload/variant", columns the components (the figure's metrics, or the
 * buckets of a histogram when the figure names one histogram); normalised to the total of the
 * baseline variant of the same workload when normalise. */
ExpTable *exp_report_stacked_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig);

/* The number of geometric-mean rows exp_report_metric_table appends (0 without geomean). */
uint32_t exp_report_n_gmean_rows(const ExpSpec *s, bool geomean);

#endif
