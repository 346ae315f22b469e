/* spec.h: experiment specs (experiments/<name>): what to run and what to draw.
 *
 * A spec is a small line-oriented text file (format in docs/experiments.md):
 *   name l1d_index
 *   preset gtx480
 *   set gpu.max_cycles=2000000
 *   workload atax1 workloads/synthetic/atax1.syn class=divergent
 *   suite polybench class=divergent
 *   variant conv: l1d.index=conv
 *   variant fup: l1d.index=fup
 *   baseline conv
 *   figure ipc: metric=sim.ipc norm=baseline title="IPC over conv"
 *   figure pairs: metric=sim.ipc variants=fup baseline=conv labels=FUP class=divergent
 *   best best-fup: of=conv,fup min=sim.cycles
 * The parser checks everything it can without running anything (override keys and values
 * against the option table, names, references) and reports errors as "file:line: message". */
#ifndef WARPSIM_EXP_SPEC_H
#define WARPSIM_EXP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXP_NAME_LEN 64

typedef struct ExpStrList {
    char **v;
    uint32_t n, cap;
} ExpStrList;

void exp_strlist_push(ExpStrList *l, const char *s);
void exp_strlist_free(ExpStrList *l);

typedef struct ExpWorkload {
    char name[EXP_NAME_LEN];
    char *path;       /* workload file, relative to the directory the sweep runs in */
    char *class_name; /* "" when unclassified */
    ExpStrList args;  /* program arguments (sizes), passed after the workload */
} ExpWorkload;

typedef struct ExpVariant {
    char name[EXP_NAME_LEN];
    ExpStrList overrides; /* "key=value", applied after the spec's `set` lines */
    /* `best NAME: of=V1,V2,... min=METRIC` (or max=): a derived variant, never run: for each
     * workload, the report takes the run of the source variant (declared above, not derived) with
     * the smallest (largest) METRIC, e.g. Best-SWL from static warp limits. n_best_of 0: run. */
    uint32_t *best_of, n_best_of;
    char *best_metric;
    bool best_max;
} ExpVariant;

static inline bool exp_variant_derived(const ExpVariant *v) { return v->n_best_of > 0; }

/* `override WORKLOAD VARIANT: key=value ...`: overrides for that one run, applied after the
 * variant's (a per-workload setting such as SWL-Best's warp limit). */
typedef struct ExpRunOverride {
    uint32_t workload, variant;
    ExpStrList overrides;
} ExpRunOverride;

/* SERIES: a time series of the runs (gpu.sample_cycles), one line per variant, one figure per
 * workload. CDF: the cumulative distribution of one histogram's buckets, one line per workload
 * (and drawn variant). HEATMAP: a family of histograms METRIC.ROW as a matrix (rows x buckets),
 * one figure per workload of its one drawn variant (CIAO's interference matrix, Fig. 4a). */
typedef enum ExpFigureKind {
    EXP_FIG_BARS, EXP_FIG_STACKED, EXP_FIG_LINE, EXP_FIG_SERIES, EXP_FIG_CDF, EXP_FIG_HEATMAP
} ExpFigureKind;

/* NONE: raw values. BASELINE: each value divided by the same workload's value under the drawn
 * variant's baseline. TOTAL (stacked only): each bar's segments as fractions of its own total. */
typedef enum ExpNorm { EXP_NORM_NONE, EXP_NORM_BASELINE, EXP_NORM_TOTAL } ExpNorm;

typedef struct ExpFigure {
    char name[EXP_NAME_LEN];
    ExpFigureKind kind;
    ExpStrList metrics;    /* one for bars/line/cdf; the components of a stacked bar */
    ExpNorm norm;
    bool geomean;          /* add geometric-mean groups (overall, and per class) */
    bool group_by_variant; /* groups on the x axis are variants (default: workloads) */
    char *title, *ylabel;
    /* What is drawn, all checked against the spec when it is read: */
    ExpStrList variants;   /* variants=: the variants drawn, in order (empty: all, in spec order) */
    ExpStrList labels;     /* labels=: the names the drawn variants are shown under (empty: theirs) */
    ExpStrList baselines;  /* baseline=: what the drawn variants are normalised to: one variant
                            * for all, or one per drawn variant (empty: the spec's baseline) */
    char *class_name;      /* class=: only the workloads of this class (NULL: all) */
} ExpFigure;

typedef struct ExpSpec {
    char *path;
    char name[EXP_NAME_LEN];
    char *preset;      /* NULL: none */
    char *config_path; /* NULL: none */
    ExpStrList base_overrides;
    ExpWorkload *workloads;
    uint32_t n_workloads, cap_workloads;
    ExpVariant *variants;
    uint32_t n_variants, cap_variants;
    uint32_t baseline; /* index into variants */
    ExpRunOverride *run_overrides;
    uint32_t n_run_overrides, cap_run_overrides;
    ExpFigure *figures;
    uint32_t n_figures, cap_figures;
} ExpSpec;

/* Parse spec text; path names the file in messages and gives the default experiment name (its
 * file name up to the first '.', other characters than a name's replaced by '_').
 * Returns false with "path:line: message" in err. The spec must be freed either way. */
bool exp_spec_parse(ExpSpec *s, const char *text, const char *path, char *err, size_t err_len);
bool exp_spec_load(ExpSpec *s, const char *path, char *err, size_t err_len);
void exp_spec_free(ExpSpec *s);

/* The spec in canonical form (suites expanded): what a sweep stores beside its results so that
 * `warpsim report` reads the same experiment without the original files. Parses back equal:
 * every value that is not a plain word is quoted (blanks, carriage returns, quotes, '#'). */
void exp_spec_write(FILE *f, const ExpSpec *s);

int exp_spec_find_variant(const ExpSpec *s, const char *name);
int exp_spec_find_workload(const ExpSpec *s, const char *name);
/* The run (workload w, variant v)'s own overrides, or NULL. */
const ExpRunOverride *exp_spec_run_override(const ExpSpec *s, uint32_t w, uint32_t v);

const char *exp_figure_kind_name(ExpFigureKind k);
const char *exp_norm_name(ExpNorm n);

#endif
