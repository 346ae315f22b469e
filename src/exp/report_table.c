/* report_table.c: the tables of `warpsim report` (see report.h): what a figure draws (its view)
 * and the values behind it, computed from the runs' results. Values are normalised per workload
 * to the spec's baseline variant (or, per figure, to one baseline per drawn variant: "S0+Stall
 * over Static0", thesis Figs. 4.8-4.9) and summarised by geometric means, overall and per
 * workload class, as in the papers' figures. Missing runs are left blank (NAN), never treated as
 * zero. Drawing and writing the files is report.c's. */
#include "exp/report.h"

#include "base/base.h"
#include "exp/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void exp_view_init(ExpView *vw, const ExpSpec *s, const ExpFigure *fig)
{
    memset(vw, 0, sizeof *vw);
    vw->workloads = xmalloc((s->n_workloads ? s->n_workloads : 1) * sizeof *vw->workloads);
    for (uint32_t w = 0; w < s->n_workloads; w++)
        if (!fig || !fig->class_name || !strcmp(s->workloads[w].class_name, fig->class_name))
            vw->workloads[vw->n_workloads++] = w;
    uint32_t nv = fig && fig->variants.n ? fig->variants.n : s->n_variants;
    vw->variants = xmalloc((nv ? nv : 1) * sizeof *vw->variants);
    vw->baselines = xmalloc((nv ? nv : 1) * sizeof *vw->baselines);
    vw->labels = xmalloc((nv ? nv : 1) * sizeof *vw->labels);
    for (uint32_t j = 0; j < nv; j++) {
        int v = fig && fig->variants.n ? exp_spec_find_variant(s, fig->variants.v[j]) : (int)j;
        int b = (int)s->baseline;
        if (fig && fig->baselines.n)
            b = exp_spec_find_variant(s, fig->baselines.v[fig->baselines.n == 1 ? 0 : j]);
        if (v < 0 || b < 0)
            continue; /* not from a parsed spec: left out */
        vw->variants[vw->n_variants] = (uint32_t)v;
        vw->baselines[vw->n_variants] = (uint32_t)b;
        vw->labels[vw->n_variants] = fig && fig->labels.n == nv ? fig->labels.v[j] : s->variants[v].name;
        vw->n_variants++;
    }
}

void exp_view_free(ExpView *vw)
{
    free(vw->workloads);
    free(vw->variants);
    free(vw->baselines);
    free(vw->labels);
    memset(vw, 0, sizeof *vw);
}

/* Distinct non-empty workload classes of the view's workloads in order of first appearance;
 * returns how many. */
static uint32_t classes_of(const ExpSpec *s, const ExpView *vw, const char **out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < vw->n_workloads; i++) {
        const char *c = s->workloads[vw->workloads[i]].class_name;
        bool seen = !c[0];
        for (uint32_t k = 0; k < n && !seen; k++)
            seen = !strcmp(out[k], c);
        if (!seen)
            out[n++] = c;
    }
    return n;
}

/* Per-class means only say something when the workloads are not all in one class. */
static bool per_class_means(const ExpSpec *s, const ExpView *vw, uint32_t n_classes)
{
    if (n_classes > 1)
        return true;
    for (uint32_t i = 0; i < vw->n_workloads; i++)
        if (n_classes == 1 && !s->workloads[vw->workloads[i]].class_name[0])
            return true;
    return false;
}

uint32_t exp_view_n_gmean_rows(const ExpSpec *s, const ExpView *vw, bool geomean)
{
    if (!geomean)
        return 0;
    const char **cls = xcalloc(s->n_workloads + 1, sizeof *cls);
    uint32_t n = classes_of(s, vw, cls);
    free(cls);
    return 1 + (per_class_means(s, vw, n) ? n : 0);
}

uint32_t exp_report_n_gmean_rows(const ExpSpec *s, bool geomean)
{
    ExpView vw;
    exp_view_init(&vw, s, NULL);
    uint32_t n = exp_view_n_gmean_rows(s, &vw, geomean);
    exp_view_free(&vw);
    return n;
}

static double metric_of(JsonValue *const *results, const ExpSpec *s, uint32_t w, uint32_t v, const char *metric)
{
    const JsonValue *r = results[w * s->n_variants + v];
    double x;
    return r && exp_metric_value(json_get(r, "total"), metric, &x) ? x : NAN;
}

/* True when every drawn variant has the same baseline. */
bool exp_view_one_baseline(const ExpView *vw)
{
    for (uint32_t j = 1; j < vw->n_variants; j++)
        if (vw->baselines[j] != vw->baselines[0])
            return false;
    return true;
}

/* How values are normalised, for titles: "normalised to lru" (of: "to the total of lru"), or
 * with a baseline per variant "normalised per variant (S0+Stall / static0, ...)". */
void exp_view_norm_desc(const ExpSpec *s, const ExpView *vw, const char *of, char *buf, size_t len)
{
    if (!vw->n_variants || exp_view_one_baseline(vw)) {
        snprintf(buf, len, "normalised to %s%s", of, s->variants[vw->n_variants ? vw->baselines[0] : s->baseline].name);
        return;
    }
    int k = snprintf(buf, len, "normalised per variant (%s", of);
    size_t n = k > 0 ? (size_t)k : 0;
    for (uint32_t j = 0; j < vw->n_variants && n < len; j++) {
        k = snprintf(buf + n, len - n, "%s%s / %s", j ? ", " : "", vw->labels[j], s->variants[vw->baselines[j]].name);
        n += k > 0 ? (size_t)k : 0;
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

ExpTable *exp_view_metric_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results, const char *metric,
                                bool normalise, bool geomean)
{
    char title[1024], how[768];
    exp_view_norm_desc(s, vw, "", how, sizeof how);
    if (normalise)
        snprintf(title, sizeof title, "%s %s", metric, how);
    else
        snprintf(title, sizeof title, "%s", metric);
    uint32_t nw = vw->n_workloads, nv = vw->n_variants;
    ExpTable *t = exp_table_new(title, "workload", nw, nv);
    for (uint32_t j = 0; j < nv; j++)
        exp_table_set_col(t, j, vw->labels[j]);
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t w = vw->workloads[i];
        exp_table_set_row(t, i, s->workloads[w].name);
        for (uint32_t j = 0; j < nv; j++) {
            double x = metric_of(results, s, w, vw->variants[j], metric);
            if (normalise) {
                /* Missing or zero baseline: the value is missing, not infinite. */
                double b = metric_of(results, s, w, vw->baselines[j], metric);
                x = isfinite(b) && b != 0 ? x / b : NAN;
            }
            *exp_table_at(t, i, j) = x;
        }
    }
    if (!geomean)
        return t;
    const char **cls = xcalloc(s->n_workloads + 1, sizeof *cls);
    uint32_t n_cls = classes_of(s, vw, cls);
    double *col = xmalloc((nw ? nw : 1) * sizeof *col);
    char label[EXP_NAME_LEN + 8];
    for (uint32_t k = 0; per_class_means(s, vw, n_cls) && k < n_cls; k++) {
        snprintf(label, sizeof label, "gmean:%s", cls[k]);
        uint32_t r = exp_table_add_row(t, label);
        for (uint32_t j = 0; j < nv; j++) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < nw; i++)
                if (!strcmp(s->workloads[vw->workloads[i]].class_name, cls[k]))
                    col[n++] = *exp_table_at(t, i, j);
            *exp_table_at(t, r, j) = exp_geomean(col, n, 1, NULL);
        }
    }
    uint32_t r = exp_table_add_row(t, "gmean");
    for (uint32_t j = 0; j < nv; j++)
        *exp_table_at(t, r, j) = exp_geomean(&t->v[j], nw, t->n_cols, NULL);
    free(col);
    free(cls);
    return t;
}

ExpTable *exp_report_metric_table(const ExpSpec *s, JsonValue *const *results, const char *metric,
                                  bool normalise, bool geomean)
{
    ExpView vw;
    exp_view_init(&vw, s, NULL);
    ExpTable *t = exp_view_metric_table(s, &vw, results, metric, normalise, geomean);
    exp_view_free(&vw);
    return t;
}

/* The bucket labels of histogram `name`, taken from the first result that has it; false if none
 * has it as a histogram. */
static bool histogram_buckets(const ExpSpec *s, JsonValue *const *results, const char *name, ExpStrList *out)
{
    for (uint32_t i = 0; i < s->n_workloads * s->n_variants; i++) {
        const JsonValue *h = results[i] ? json_get(json_get(results[i], "total"), name) : NULL;
        if (h && h->type == JSON_OBJECT) {
            for (uint32_t k = 0; k < h->n; k++)
                exp_strlist_push(out, h->keys[k]);
            return true;
        }
    }
    return false;
}

/* The components of a stacked figure: its metrics, or the bucket labels of its one histogram. */
static void stacked_components(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig,
                               ExpStrList *out, bool *from_hist)
{
    *from_hist = fig->metrics.n == 1 && histogram_buckets(s, results, fig->metrics.v[0], out);
    if (*from_hist)
        return;
    for (uint32_t k = 0; k < fig->metrics.n; k++)
        exp_strlist_push(out, fig->metrics.v[k]);
}

/* Component k of a stacked figure for one run. */
static double component_of(JsonValue *const *results, const ExpSpec *s, uint32_t w, uint32_t v,
                           const ExpFigure *fig, const ExpStrList *comp, bool hist, uint32_t k)
{
    char metric[600];
    if (hist)
        snprintf(metric, sizeof metric, "%s:%s", fig->metrics.v[0], comp->v[k]);
    else
        snprintf(metric, sizeof metric, "%s", comp->v[k]);
    return metric_of(results, s, w, v, metric);
}

/* Row label of a run in stacked and cdf tables. */
static void run_label(const ExpSpec *s, const ExpView *vw, uint32_t i, uint32_t j, bool with_variant, char *buf,
                      size_t len)
{
    if (with_variant)
        snprintf(buf, len, "%s/%s", s->workloads[vw->workloads[i]].name, vw->labels[j]);
    else
        snprintf(buf, len, "%s", s->workloads[vw->workloads[i]].name);
}

ExpTable *exp_view_stacked_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results,
                                 const ExpFigure *fig)
{
    ExpStrList comp = { 0 };
    bool hist;
    stacked_components(s, results, fig, &comp, &hist);
    char title[1024], how[768], name[512];
    exp_view_norm_desc(s, vw, "the total of ", how, sizeof how);
    snprintf(title, sizeof title, "%s%s%s", fig->title ? fig->title : fig->name,
             fig->norm == EXP_NORM_BASELINE ? ", " : fig->norm == EXP_NORM_TOTAL ? ", fractions of each bar's total" : "",
             fig->norm == EXP_NORM_BASELINE ? how : "");
    uint32_t nw = vw->n_workloads, nv = vw->n_variants;
    ExpTable *t = exp_table_new(title, "workload/variant", nw * nv, comp.n);
    for (uint32_t k = 0; k < comp.n; k++)
        exp_table_set_col(t, k, comp.v[k]);
    for (uint32_t i = 0; i < nw; i++)
        for (uint32_t j = 0; j < nv; j++) {
            uint32_t r = i * nv + j, w = vw->workloads[i];
            run_label(s, vw, i, j, true, name, sizeof name);
            exp_table_set_row(t, r, name);
            double total = 0;
            for (uint32_t k = 0; k < comp.n; k++) {
                double x = component_of(results, s, w, vw->variants[j], fig, &comp, hist, k);
                *exp_table_at(t, r, k) = x;
                total += isfinite(x) ? x : 0;
            }
            if (fig->norm == EXP_NORM_BASELINE) {
                total = 0;
                for (uint32_t k = 0; k < comp.n; k++) {
                    double x = component_of(results, s, w, vw->baselines[j], fig, &comp, hist, k);
                    total += isfinite(x) ? x : 0;
                }
            }
            if (fig->norm != EXP_NORM_NONE)
                for (uint32_t k = 0; k < comp.n; k++) {
                    double *x = exp_table_at(t, r, k);
                    *x = total > 0 ? *x / total : NAN;
                }
        }
    exp_strlist_free(&comp);
    return t;
}

ExpTable *exp_report_stacked_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig)
{
    ExpView vw;
    exp_view_init(&vw, s, fig);
    ExpTable *t = exp_view_stacked_table(s, &vw, results, fig);
    exp_view_free(&vw);
    return t;
}

ExpTable *exp_view_cdf_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results, const ExpFigure *fig)
{
    const char *hist = fig->metrics.v[0];
    ExpStrList buckets = { 0 };
    histogram_buckets(s, results, hist, &buckets);
    char title[512], name[512];
    snprintf(title, sizeof title, "%s: cumulative fraction of %s", fig->title ? fig->title : fig->name, hist);
    uint32_t nw = vw->n_workloads, nv = vw->n_variants;
    ExpTable *t = exp_table_new(title, nv == 1 ? "workload" : "workload/variant", nw * nv, buckets.n);
    for (uint32_t k = 0; k < buckets.n; k++)
        exp_table_set_col(t, k, buckets.v[k]);
    for (uint32_t i = 0; i < nw; i++)
        for (uint32_t j = 0; j < nv; j++) {
            uint32_t r = i * nv + j;
            run_label(s, vw, i, j, nv > 1, name, sizeof name);
            exp_table_set_row(t, r, name);
            const JsonValue *res = results[vw->workloads[i] * s->n_variants + vw->variants[j]];
            const JsonValue *h = res ? json_get(json_get(res, "total"), hist) : NULL;
            if (!h || h->type != JSON_OBJECT)
                continue;
            double total = 0, sum = 0;
            for (uint32_t k = 0; k < buckets.n; k++)
                total += json_number(json_get(h, buckets.v[k]), 0);
            for (uint32_t k = 0; k < buckets.n && total > 0; k++) {
                sum += json_number(json_get(h, buckets.v[k]), 0);
                *exp_table_at(t, r, k) = sum / total;
            }
        }
    exp_strlist_free(&buckets);
    return t;
}

ExpTable *exp_view_heatmap_table(const ExpSpec *s, const ExpView *vw, JsonValue *const *results,
                                 const ExpFigure *fig, uint32_t i)
{
    const char *family = fig->metrics.v[0];
    size_t flen = strlen(family);
    uint32_t w = vw->workloads[i];
    const JsonValue *res = vw->n_variants ? results[w * s->n_variants + vw->variants[0]] : NULL;
    const JsonValue *total = res ? json_get(res, "total") : NULL;
    /* The rows: every histogram FAMILY.ROW of the run, in the result's order. */
    ExpStrList rows = { 0 };
    const JsonValue *first = NULL;
    for (uint32_t k = 0; total && total->type == JSON_OBJECT && k < total->n; k++)
        if (!strncmp(total->keys[k], family, flen) && total->keys[k][flen] == '.' && total->keys[k][flen + 1] &&
            total->items[k].type == JSON_OBJECT) {
            exp_strlist_push(&rows, total->keys[k] + flen + 1);
            first = first ? first : &total->items[k];
        }
    if (!rows.n)
        return NULL;
    char title[1024], name[EXP_NAME_LEN * 2 + 8], hist[600];
    run_label(s, vw, i, 0, true, name, sizeof name);
    snprintf(title, sizeof title, "%s: %s", fig->title ? fig->title : family, name);
    ExpTable *t = exp_table_new(title, family, rows.n, first->n);
    for (uint32_t c = 0; c < first->n; c++)
        exp_table_set_col(t, c, first->keys[c]);
    for (uint32_t r = 0; r < rows.n; r++) {
        exp_table_set_row(t, r, rows.v[r]);
        snprintf(hist, sizeof hist, "%s.%s", family, rows.v[r]);
        const JsonValue *h = json_get(total, hist);
        for (uint32_t c = 0; c < first->n; c++)
            *exp_table_at(t, r, c) = json_number(json_get(h, first->keys[c]), NAN);
    }
    exp_strlist_free(&rows);
    return t;
}

ExpTable *exp_report_heatmap_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig, uint32_t i)
{
    ExpView vw;
    exp_view_init(&vw, s, fig);
    ExpTable *t = i < vw.n_workloads ? exp_view_heatmap_table(s, &vw, results, fig, i) : NULL;
    exp_view_free(&vw);
    return t;
}

ExpTable *exp_report_figure_table(const ExpSpec *s, JsonValue *const *results, const ExpFigure *fig)
{
    if (fig->kind == EXP_FIG_SERIES || fig->kind == EXP_FIG_HEATMAP)
        return NULL;
    ExpView vw;
    exp_view_init(&vw, s, fig);
    ExpTable *t = fig->kind == EXP_FIG_STACKED ? exp_view_stacked_table(s, &vw, results, fig)
                : fig->kind == EXP_FIG_CDF   ? exp_view_cdf_table(s, &vw, results, fig)
                : exp_view_metric_table(s, &vw, results, fig->metrics.v[0], fig->norm == EXP_NORM_BASELINE,
                                        fig->geomean);
    exp_view_free(&vw);
    return t;
}
