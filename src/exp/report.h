/* report.h: `warpsim report RESULTS_DIR`: tables, figures and one HTML page from the results of
 * a sweep (layout in store.h, formats in docs/experiments.md). The tables are report_table.c's,
 * the files and figures report.c's. */
#ifndef WARPSIM_EXP_REPORT_H
#define WARPSIM_EXP_REPORT_H

#include "exp/json.h"
#include "exp/spec.h"
#include "exp/table.h"

#include <stdbool.h>

/* argv[0] is the subcommand name ("report"). Returns the exit status. */
int report_main(int argc, char **argv);

/* What a figure draws, as indices into the spec: the workloads (all, or those of its class=), the
 * variants (all, or its variants= in that order), the name each drawn variant is shown under
 * (labels=) and the variant each is normalised to (baseline=: one for all or one each; by default
 * the spec's baseline). */
typedef struct ExpView {
    uint32_t n_workloads, n_variants;
    uint32_t *workloads; /* n_workloads spec workload indices, in the spec's order */
    uint32_t *variants;  /* n_variants spec variant indices, in the figure's order */
    uint32_t *baselines; /* per drawn variant: the spec index of the variant it is normalised to */
    const char **labels; /* per drawn variant: its label (points into the spec) */
} ExpView;

/* The view of fig, or of the whole spec when fig is NULL. Names are resolved as the spec parser
 * checked them. */
void exp_view_init(ExpView *v, const ExpSpec *s, const ExpFigure *fig);
void exp_view_free(ExpView *v);

/* One metric per workload (rows) x variant (columns) of the whole spec, from
 * results[w * n_variants + v] (NULL: missing), divided by the baseline variant's value of the
 * same workload when normalise, then geometric-mean rows when geomean: "gmean:<class>" for each
 * workload class (when the workloads fall in more than one class) and "gmean" over all
 * workloads. */
ExpTable *exp_report_metric_table(const ExpSpec *s, JsonValue *const *results, const char *metric,
                                  bool normalise, bool geomean);

/* A breakdown: rows "workload/variant", columns the components (the figure's metrics, or the
 * buckets of a histogram when the figure names one histogram); with norm=baseline the segments
 * are fractions of the total of the drawn variant's baseline for the same workload, with
 * norm=total fractions of the bar's own total. Only the figure's view is drawn. */
ExpTable *exp_report_stacked_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig);

/* The table of a heatmap figure for the i-th workload of its view, under its one drawn variant:
 * rows the histograms FAMILY.ROW of the run's total (FAMILY the figure's metric; in the result's
 * order, labelled ROW), columns the buckets of the first of them, values the counts (missing for a
 * bucket a row lacks). NULL when the run has no result or no such histogram. */
ExpTable *exp_report_heatmap_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig, uint32_t i);

/* The table of a figure of any kind but series and heatmap (NULL for those): bars and line figures the metric
 * table of their view (normalised per drawn variant to its baseline, with their geometric-mean
 * rows), stacked figures the breakdown above, cdf figures rows "workload" (one drawn variant) or
 * "workload/variant", columns the histogram's buckets, values the cumulative fraction of the
 * run's total up to and including each bucket (missing when the total is 0). */
ExpTable *exp_report_figure_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig);

/* The number of geometric-mean rows exp_report_metric_table appends (0 without geomean). */
uint32_t exp_report_n_gmean_rows(const ExpSpec *s, bool geomean);

/* The same tables for a view (what report.c draws), and what their titles say of the view. */
ExpTable *exp_view_metric_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results, const char *metric,
                                bool normalise, bool geomean);
ExpTable *exp_view_stacked_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results,
                                 const ExpFigure *fig);
ExpTable *exp_view_cdf_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results, const ExpFigure *fig);
ExpTable *exp_view_heatmap_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results,
                                 const ExpFigure *fig, uint32_t i);
uint32_t exp_view_n_gmean_rows(const ExpSpec *s, const ExpView *vw, bool geomean);
/* True when every drawn variant has the same baseline. */
bool exp_view_one_baseline(const ExpView *vw);
/* How values are normalised: "normalised to lru" (of: "to the total of lru"), or with a baseline
 * per variant "normalised per variant (S0+Stall / static0, ...)". */
void exp_view_norm_desc(const ExpSpec *s, const ExpView *vw, const char *of, char *buf, size_t len);

#endif
