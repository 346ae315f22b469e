/* report.c: `warpsim report RESULTS_DIR` (see report.h).
 *
 * Reads the canonical spec a sweep stored beside its results (RESULTS_DIR/experiment) and every
 * runs/W__V.json, then for each figure of the spec writes a table (text and CSV), an SVG
 * figure and, when rsvg-convert is installed, a PNG; `--stat NAME` adds tables of any stat.
 * Everything is gathered in one HTML page with the configuration used. The tables' values
 * (normalisation, geometric means, a figure's view: some variants under labels of their own, the
 * workloads of one class) are report_table.c's. Missing runs are reported and left blank,
 * never treated as zero. A run whose status is not complete (stopped at gpu.max_cycles, a
 * deadlock, a fault, killed: its numbers cover part of the workload) is left out the same way,
 * marked with its status in every table ("(killed)") and listed under each table and on the
 * page. Every file is written atomically (base.h). */
#include "exp/report.h"

#include "base/base.h"
#include "exp/html.h"
#include "exp/store.h"
#include "exp/svg.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct Report {
    const ExpSpec *spec;
    JsonValue **results;     /* NULL: missing or not complete */
    char **incomplete;       /* the status of each run that is not complete, else NULL */
    char *left_out;          /* "w/v (status), ..." of those runs; NULL if none */
    const char *out_dir;
    bool png, quiet;
    const char *rsvg;        /* path of rsvg-convert, NULL if not installed */
    ExpStrList written;      /* files written, for the summary */
    AtomicFile html_file;
    FILE *html;
    int errors;
} Report;

/* An output file: its content is held until close_out writes it atomically. */
static FILE *open_out(Report *r, AtomicFile *a, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", r->out_dir, name);
    FILE *f = atomic_open(a, path);
    if (!f) {
        fprintf(stderr, "warpsim: report: %s: cannot write: %s\n", path, strerror(errno));
        r->errors++;
    }
    return f;
}

static void close_out(Report *r, AtomicFile *a, FILE *f, const char *path)
{
    if (!f)
        return;
    if (atomic_commit(a)) {
        exp_strlist_push(&r->written, path);
    } else {
        fprintf(stderr, "warpsim: report: %s: cannot write: %s\n", path, strerror(errno));
        r->errors++;
    }
}

/* Mark the cells of runs that are not complete with their status's first word: "(killed)".
 * Rows are the view's workloads (a metric table: columns its variants) or its workload/variant
 * pairs (stacked and cdf tables: every column). view NULL: the whole spec. */
static void mark_incomplete(const Report *r, ExpTable *t, const ExpView *view, bool per_run_rows)
{
    const ExpSpec *s = r->spec;
    ExpView all;
    if (!view)
        exp_view_init(&all, s, NULL);
    const ExpView *vw = view ? view : &all;
    for (uint32_t i = 0; i < vw->n_workloads; i++)
        for (uint32_t j = 0; j < vw->n_variants; j++) {
            const char *st = r->incomplete[vw->workloads[i] * s->n_variants + vw->variants[j]];
            if (!st)
                continue;
            char mark[64];
            snprintf(mark, sizeof mark, "(%.*s)", (int)MIN(strcspn(st, ":"), 40), st);
            for (uint32_t c = 0; c < t->n_cols; c++)
                if (per_run_rows || c == j)
                    exp_table_mark(t, per_run_rows ? i * vw->n_variants + j : i, c, mark);
        }
    if (!view)
        exp_view_free(&all);
}

/* A file name from a stat or figure name: anything but [A-Za-z0-9_.-] becomes '_'. */
static void file_stem(const char *name, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < len; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '-' || c == '.';
        out[k++] = ok ? c : '_';
    }
    out[k] = 0;
}

static void write_tables(Report *r, const char *stem, ExpTable *const *tables, uint32_t n)
{
    char name[300], path[4096];
    AtomicFile a;
    snprintf(name, sizeof name, "%s.txt", stem);
    FILE *f = open_out(r, &a, name, path, sizeof path);
    for (uint32_t i = 0; f && i < n; i++) {
        if (i)
            fputc('\n', f);
        exp_table_write_text(f, tables[i]);
    }
    if (f && r->left_out)
        fprintf(f, "\nnot complete, left out: %s\n", r->left_out);
    close_out(r, &a, f, path);
    for (uint32_t i = 0; i < n; i++) {
        if (!r->quiet) {
            exp_table_write_text(stdout, tables[i]);
            fputc('\n', stdout);
        }
        if (r->html)
            html_table(r->html, tables[i]);
    }
    snprintf(name, sizeof name, "%s.csv", stem);
    f = open_out(r, &a, name, path, sizeof path);
    for (uint32_t i = 0; f && i < n; i++) {
        if (i)
            fputc('\n', f);
        exp_table_write_csv(f, tables[i]);
    }
    close_out(r, &a, f, path);
}

static const char *find_in_path(const char *prog, char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, len, "%.*s/%s", (int)n, path, prog);
        if (n && access(buf, X_OK) == 0)
            return buf;
        path += n + (path[n] == ':');
    }
    return NULL;
}

static void export_png(Report *r, const char *svg_path, const char *stem)
{
    if (!r->png || !r->rsvg)
        return;
    char png[4096], tmp[4200];
    snprintf(png, sizeof png, "%s/%s.png", r->out_dir, stem);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", png, (long)getpid()); /* renamed over it when whole */
    pid_t pid = fork();
    if (pid == 0) {
        execl(r->rsvg, "rsvg-convert", "-o", tmp, svg_path, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "warpsim: report: rsvg-convert failed on %s\n", svg_path);
        remove(tmp);
        r->errors++;
        return;
    }
    if (rename(tmp, png) != 0) {
        fprintf(stderr, "warpsim: report: %s: cannot write: %s\n", png, strerror(errno));
        remove(tmp);
        r->errors++;
        return;
    }
    exp_strlist_push(&r->written, png);
}

/* Finish a figure's SVG file: into the HTML page and, when a converter is found, a PNG. */
static void close_svg(Report *r, AtomicFile *a, FILE *f, const char *path, const char *stem)
{
    close_out(r, a, f, path);
    if (f && r->html)
        html_inline_svg(r->html, path);
    if (f)
        export_png(r, path, stem);
}

/* Labels of table rows / columns as the const arrays svg wants. */
static const char *const *labels(char **v) { return (const char *const *)v; }

/* A series figure: for each workload, the metric's time series of every variant as lines
 * (x: core cycles at the end of each sample period). Runs without the series are left out. */
static void series_figure(Report *r, const ExpFigure *fig)
{
    const ExpSpec *s = r->spec;
    const char *metric = fig->metrics.v[0];
    ExpView vw;
    exp_view_init(&vw, s, fig);
    for (uint32_t i = 0; i < vw.n_workloads; i++) {
        uint32_t w = vw.workloads[i], nv = vw.n_variants, points = 0;
        uint64_t period = 0;
        const JsonValue **arr = xcalloc(nv ? nv : 1, sizeof *arr);
        for (uint32_t v = 0; v < nv; v++) {
            const JsonValue *res = r->results[w * s->n_variants + vw.variants[v]];
            const JsonValue *ser = res ? json_get(res, "series") : NULL;
            const JsonValue *a = ser ? json_get(ser, metric) : NULL;
            if (a && a->type == JSON_ARRAY) {
                arr[v] = a;
                points = MAX(points, a->n);
                period = (uint64_t)json_number(json_get(ser, "period_cycles"), 0);
            }
        }
        if (!points) {
            fprintf(stderr, "warpsim: report: figure %s: no run of %s has the time series '%s' (set gpu.sample_cycles)\n",
                    fig->name, s->workloads[w].name, metric);
            free(arr);
            continue;
        }
        char stem[160], name[192], path[4096], title[512];
        char wstem[EXP_NAME_LEN + 8];
        file_stem(s->workloads[w].name, wstem, sizeof wstem);
        snprintf(stem, sizeof stem, "%s-%s", fig->name, wstem);
        snprintf(title, sizeof title, "%s: %s", fig->title ? fig->title : metric, s->workloads[w].name);
        double *vals = xmalloc((size_t)nv * points * sizeof *vals);
        char **xl = xcalloc(points, sizeof *xl);
        const char **vl = xcalloc(nv ? nv : 1, sizeof *vl);
        for (uint32_t p = 0; p < points; p++) {
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)((p + 1) * period));
            xl[p] = xstrdup(buf);
        }
        for (uint32_t v = 0; v < nv; v++) {
            vl[v] = vw.labels[v];
            for (uint32_t p = 0; p < points; p++)
                vals[(size_t)v * points + p] = arr[v] && p < arr[v]->n ? json_number(&arr[v]->items[p], NAN) : NAN;
        }
        if (r->html)
            html_heading(r->html, 2, title);
        snprintf(name, sizeof name, "%s.svg", stem);
        AtomicFile a;
        FILE *f = open_out(r, &a, name, path, sizeof path);
        SvgLines c = { title, "core cycles", fig->ylabel ? fig->ylabel : metric, nv, points, vl,
                       (const char *const *)xl, vals, NAN };
        if (f)
            svg_lines(f, &c);
        close_svg(r, &a, f, path, stem);
        for (uint32_t p = 0; p < points; p++)
            free(xl[p]);
        free(xl);
        free(vl);
        free(vals);
        free(arr);
    }
    exp_view_free(&vw);
}

/* A heatmap figure: for each workload, the matrix of its one drawn variant's histograms
 * METRIC.ROW, rows x buckets, with its table (NAME-WORKLOAD.svg/.txt/.csv). */
static void heatmap_figure(Report *r, const ExpFigure *fig)
{
    const ExpSpec *s = r->spec;
    ExpView vw;
    exp_view_init(&vw, s, fig);
    for (uint32_t i = 0; i < vw.n_workloads && vw.n_variants; i++) {
        uint32_t w = vw.workloads[i];
        ExpTable *t = exp_view_heatmap_table(s, &vw, r->results, fig, i);
        if (!t) {
            const char *st = r->incomplete[w * s->n_variants + vw.variants[0]];
            fprintf(stderr, "warpsim: report: figure %s: %s/%s has no histograms '%s.*' (%s)\n", fig->name,
                    s->workloads[w].name, vw.labels[0], fig->metrics.v[0],
                    st ? "not complete" : r->results[w * s->n_variants + vw.variants[0]] ? "not in its result"
                                                                                        : "no result");
            continue;
        }
        char stem[160], name[192], path[4096], wstem[EXP_NAME_LEN + 8];
        file_stem(s->workloads[w].name, wstem, sizeof wstem);
        snprintf(stem, sizeof stem, "%s-%s", fig->name, wstem);
        if (r->html)
            html_heading(r->html, 2, t->title);
        snprintf(name, sizeof name, "%s.svg", stem);
        AtomicFile a;
        FILE *f = open_out(r, &a, name, path, sizeof path);
        SvgHeat c = { t->title, "bucket of each row's histogram", fig->ylabel ? fig->ylabel : fig->metrics.v[0],
                      t->n_rows, t->n_cols, labels(t->row_labels), labels(t->col_labels), t->v };
        if (f)
            svg_heatmap(f, &c);
        close_svg(r, &a, f, path, stem);
        write_tables(r, stem, &t, 1);
        exp_table_free(t);
    }
    exp_view_free(&vw);
}

static void figure(Report *r, const ExpFigure *fig)
{
    const ExpSpec *s = r->spec;
    if (fig->kind == EXP_FIG_SERIES) {
        series_figure(r, fig);
        return;
    }
    if (fig->kind == EXP_FIG_HEATMAP) {
        heatmap_figure(r, fig);
        return;
    }
    ExpView vw;
    exp_view_init(&vw, s, fig);
    char stem[128], path[4096], title[1024], ylabel[1024], how[768];
    file_stem(fig->name, stem, sizeof stem);
    const char *metric = fig->metrics.v[0];
    bool normalise = fig->norm == EXP_NORM_BASELINE;
    exp_view_norm_desc(s, &vw, "", how, sizeof how);
    if (fig->ylabel)
        snprintf(ylabel, sizeof ylabel, "%s", fig->ylabel);
    else if (fig->kind == EXP_FIG_STACKED)
        snprintf(ylabel, sizeof ylabel, "%s", normalise ? "fraction of baseline total"
                                              : fig->norm == EXP_NORM_TOTAL ? "fraction of total" : "count");
    else if (fig->kind == EXP_FIG_CDF)
        snprintf(ylabel, sizeof ylabel, "cumulative fraction");
    else if (normalise && exp_view_one_baseline(&vw))
        snprintf(ylabel, sizeof ylabel, "%s / %s", metric, s->variants[vw.baselines[0]].name);
    else
        snprintf(ylabel, sizeof ylabel, "%s%s", metric, normalise ? " / baseline" : "");
    if (fig->title)
        snprintf(title, sizeof title, "%s", fig->title);
    else if (fig->kind == EXP_FIG_STACKED || fig->kind == EXP_FIG_CDF)
        snprintf(title, sizeof title, "%s", fig->name);
    else
        snprintf(title, sizeof title, "%s%s%s", metric, normalise ? " " : "", normalise ? how : "");

    if (r->html)
        html_heading(r->html, 2, title);
    ExpTable *t;
    char svg_name[160];
    snprintf(svg_name, sizeof svg_name, "%s.svg", stem);
    AtomicFile a;
    FILE *f = open_out(r, &a, svg_name, path, sizeof path);
    double ref = normalise ? 1.0 : NAN;
    uint32_t nw = vw.n_workloads, nv = vw.n_variants;
    const char **wl = xmalloc((nw ? nw : 1) * sizeof *wl);
    for (uint32_t i = 0; i < nw; i++)
        wl[i] = s->workloads[vw.workloads[i]].name;
    if (fig->kind == EXP_FIG_STACKED) {
        t = exp_view_stacked_table(s, &vw, r->results, fig);
        mark_incomplete(r, t, &vw, true);
        uint32_t nk = t->n_cols;
        double *vals = xmalloc((size_t)(nw ? nw : 1) * (nv ? nv : 1) * (nk ? nk : 1) * sizeof *vals);
        for (uint32_t i = 0; i < nw; i++)
            for (uint32_t j = 0; j < nv; j++)
                for (uint32_t k = 0; k < nk; k++) {
                    size_t dst = fig->group_by_variant ? ((size_t)j * nw + i) * nk + k : ((size_t)i * nv + j) * nk + k;
                    vals[dst] = *exp_table_at(t, i * nv + j, k);
                }
        SvgBars c = { title, ylabel, fig->group_by_variant ? nv : nw, fig->group_by_variant ? nw : nv, nk,
                      fig->group_by_variant ? vw.labels : wl, fig->group_by_variant ? wl : vw.labels,
                      labels(t->col_labels), vals, 0, ref };
        if (f)
            svg_bars(f, &c);
        free(vals);
    } else if (fig->kind == EXP_FIG_CDF) {
        t = exp_view_cdf_table(s, &vw, r->results, fig);
        mark_incomplete(r, t, &vw, true);
        SvgLines c = { title, metric, ylabel, t->n_rows, t->n_cols, labels(t->row_labels), labels(t->col_labels),
                       t->v, NAN };
        if (f)
            svg_lines(f, &c);
    } else {
        t = exp_view_metric_table(s, &vw, r->results, metric, normalise, fig->geomean);
        mark_incomplete(r, t, &vw, false);
        uint32_t nr = t->n_rows, nc = t->n_cols;
        if (fig->kind == EXP_FIG_LINE) {
            SvgLines c = { title, "variant", ylabel, nr, nc, labels(t->row_labels), labels(t->col_labels), t->v, ref };
            if (f)
                svg_lines(f, &c);
        } else if (!fig->group_by_variant) {
            SvgBars c = { title, ylabel, nr, nc, 1, labels(t->row_labels), labels(t->col_labels), NULL, t->v,
                          exp_view_n_gmean_rows(s, &vw, fig->geomean), ref };
            if (f)
                svg_bars(f, &c);
        } else {
            double *tr = xmalloc((size_t)(nr ? nr : 1) * (nc ? nc : 1) * sizeof *tr);
            for (uint32_t i = 0; i < nr; i++)
                for (uint32_t j = 0; j < nc; j++)
                    tr[(size_t)j * nr + i] = t->v[(size_t)i * nc + j];
            SvgBars c = { title, ylabel, nc, nr, 1, labels(t->col_labels), labels(t->row_labels), NULL, tr, 0, ref };
            if (f)
                svg_bars(f, &c);
            free(tr);
        }
    }
    free(wl);
    exp_view_free(&vw);
    close_svg(r, &a, f, path, stem);
    write_tables(r, stem, &t, 1);
    exp_table_free(t);
}

static void stat_tables(Report *r, const char *stat)
{
    char stem[160];
    file_stem(stat, stem + 5, sizeof stem - 5);
    memcpy(stem, "stat-", 5);
    ExpTable *t[2] = { exp_report_metric_table(r->spec, r->results, stat, false, true),
                       exp_report_metric_table(r->spec, r->results, stat, true, true) };
    mark_incomplete(r, t[0], NULL, false);
    mark_incomplete(r, t[1], NULL, false);
    if (r->html)
        html_heading(r->html, 2, stat);
    write_tables(r, stem, t, 2);
    exp_table_free(t[0]);
    exp_table_free(t[1]);
}

/* The configuration section: the spec, the variants' overrides, and the resolved config of the
 * first baseline run found (the others differ only by their overrides). */
static void html_config(Report *r)
{
    const ExpSpec *s = r->spec;
    FILE *f = r->html;
    html_heading(f, 2, "Experiment");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    exp_spec_write(m, s);
    fclose(m);
    html_pre(f, buf);
    free(buf);

    ExpTable *wall = exp_table_new("wall seconds per run", "workload", s->n_workloads, s->n_variants);
    for (uint32_t v = 0; v < s->n_variants; v++)
        exp_table_set_col(wall, v, s->variants[v].name);
    for (uint32_t w = 0; w < s->n_workloads; w++) {
        exp_table_set_row(wall, w, s->workloads[w].name);
        for (uint32_t v = 0; v < s->n_variants; v++)
            *exp_table_at(wall, w, v) = json_number(json_get(r->results[w * s->n_variants + v], "wall_seconds"), NAN);
    }
    mark_incomplete(r, wall, NULL, false);
    html_heading(f, 2, "Runs");
    html_table(f, wall);
    exp_table_free(wall);

    for (uint32_t w = 0; w < s->n_workloads; w++) {
        const JsonValue *res = r->results[w * s->n_variants + s->baseline];
        const JsonValue *cfg = json_get(res, "config");
        if (!cfg)
            continue;
        char head[256];
        snprintf(head, sizeof head, "Resolved configuration of %s/%s (warpsim %s)", s->workloads[w].name,
                 s->variants[s->baseline].name, json_str(json_get(res, "warpsim_version")) ? json_str(json_get(res, "warpsim_version")) : "?");
        html_heading(f, 2, head);
        buf = NULL;
        len = 0;
        m = open_memstream(&buf, &len);
        for (uint32_t k = 0; k < cfg->n; k++) {
            const JsonValue *v = &cfg->items[k];
            if (v->type == JSON_STRING)
                fprintf(m, "%s = %s\n", cfg->keys[k], v->string);
            else if (v->type == JSON_BOOL)
                fprintf(m, "%s = %s\n", cfg->keys[k], v->boolean ? "true" : "false");
            else if (v->type == JSON_NUMBER && v->is_uint)
                fprintf(m, "%s = %llu\n", cfg->keys[k], (unsigned long long)v->uint);
            else if (v->type == JSON_NUMBER)
                fprintf(m, "%s = %.17g\n", cfg->keys[k], v->number);
        }
        fclose(m);
        html_pre(f, buf);
        free(buf);
        break;
    }
}

/* The derived variants' results (spec.h, `best`): for each workload, a copy of the source run
 * with the smallest (largest) metric, a tie to the one named first; none when a source run has
 * no complete result or lacks the metric. Returns what was chosen, as text (NULL: no derived
 * variant). */
static char *derive_best(const char *dir, const ExpSpec *s, JsonValue **results)
{
    char *text = NULL, err[512];
    size_t len = 0;
    FILE *m = NULL;
    for (uint32_t v = 0; v < s->n_variants; v++) {
        const ExpVariant *d = &s->variants[v];
        if (!exp_variant_derived(d))
            continue;
        if (!m)
            m = open_memstream(&text, &len);
        fprintf(m, "%s, the source run with the %s %s:\n", d->name, d->best_max ? "largest" : "smallest", d->best_metric);
        for (uint32_t w = 0; w < s->n_workloads; w++) {
            int best = -1;
            double best_x = 0;
            const char *why = NULL;
            for (uint32_t k = 0; k < d->n_best_of && !why; k++) {
                const JsonValue *r = results[w * s->n_variants + d->best_of[k]];
                double x;
                if (!r)
                    why = "has no complete result";
                else if (!exp_metric_value(json_get(r, "total"), d->best_metric, &x) || isnan(x))
                    why = "has no such metric";
                else if (best < 0 || (d->best_max ? x > best_x : x < best_x))
                    best = (int)d->best_of[k], best_x = x;
                if (why)
                    fprintf(m, "  %s: none (%s/%s %s)\n", s->workloads[w].name, s->workloads[w].name,
                            s->variants[d->best_of[k]].name, why);
            }
            if (why)
                continue;
            results[w * s->n_variants + v] = exp_result_load(dir, s, w, (uint32_t)best, err, sizeof err);
            fprintf(m, "  %s: %s (%.10g)\n", s->workloads[w].name, s->variants[best].name, best_x);
        }
    }
    if (m)
        fclose(m);
    return text;
}

static int usage(void)
{
    fputs("usage: warpsim report RESULTS_DIR [--out DIR] [--stat NAME]... [--no-png] [--quiet]\n"
          "  tables (text, CSV), SVG/PNG figures and index.html from the results of `warpsim sweep`;\n"
          "  written into RESULTS_DIR/report unless --out; --quiet: no tables on stdout\n", stderr);
    return 1;
}

int report_main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    ExpStrList stats = { 0 };
    bool png = true, quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--out") || !strcmp(a, "--stat")) && i + 1 < argc) {
            if (a[2] == 'o')
                out = argv[++i];
            else
                exp_strlist_push(&stats, argv[++i]);
        } else if (!strcmp(a, "--no-png")) {
            png = false;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-' || dir) {
            fprintf(stderr, "warpsim: report: unexpected argument '%s'\n", a);
            exp_strlist_free(&stats);
            return usage();
        } else {
            dir = a;
        }
    }
    if (!dir) {
        exp_strlist_free(&stats);
        return usage();
    }
    char spec_path[4096], out_buf[4096], err[512];
    snprintf(spec_path, sizeof spec_path, "%s/experiment", dir);
    ExpSpec s;
    if (!exp_spec_load(&s, spec_path, err, sizeof err)) {
        fprintf(stderr, "warpsim: report: %s\n  (RESULTS_DIR must be a directory written by `warpsim sweep`)\n", err);
        exp_spec_free(&s);
        exp_strlist_free(&stats);
        return 1;
    }
    if (!out) {
        snprintf(out_buf, sizeof out_buf, "%s/report", dir);
        out = out_buf;
    }
    if (!mkdir_p(out)) {
        fprintf(stderr, "warpsim: report: cannot create %s: %s\n", out, strerror(errno));
        exp_spec_free(&s);
        exp_strlist_free(&stats);
        return 1;
    }

    uint32_t n_runs = s.n_workloads * s.n_variants, n_found = 0, n_incomplete = 0;
    JsonValue **results = xcalloc(n_runs, sizeof *results);
    char **incomplete = xcalloc(n_runs, sizeof *incomplete);
    char *left_out = NULL;
    size_t left_out_len = 0;
    FILE *lo = open_memstream(&left_out, &left_out_len);
    for (uint32_t w = 0; w < s.n_workloads; w++)
        for (uint32_t v = 0; v < s.n_variants; v++) {
            uint32_t i = w * s.n_variants + v;
            if (exp_variant_derived(&s.variants[v])) {
                n_runs--; /* not a run: taken from the others below */
                continue;
            }
            results[i] = exp_result_load(dir, &s, w, v, err, sizeof err);
            const char *st = results[i] ? exp_result_status(results[i]) : NULL;
            if (st && strcmp(st, STATS_STATUS_COMPLETE)) {
                /* Its numbers cover part of the workload: left out, and said so. */
                fprintf(stderr, "warpsim: report: %s/%s: not complete (status %s): left out of tables and figures\n",
                        s.workloads[w].name, s.variants[v].name, st);
                fprintf(lo, "%s%s/%s (%s)", n_incomplete++ ? ", " : "", s.workloads[w].name, s.variants[v].name, st);
                incomplete[i] = xstrdup(st);
                json_free(results[i]);
                results[i] = NULL;
            } else if (results[i]) {
                n_found++;
            } else {
                fprintf(stderr, "warpsim: report: %s/%s: no result (%s)\n", s.workloads[w].name,
                        s.variants[v].name, err);
            }
        }
    fclose(lo);
    char *chosen = derive_best(dir, &s, results);
    int status = 0;
    if (!n_found) {
        fprintf(stderr, "warpsim: report: %s: none of the %u runs has a complete result; run `warpsim sweep` first\n",
                dir, n_runs);
        status = 1;
    } else {
        Report r = { .spec = &s, .results = results, .incomplete = incomplete,
                     .left_out = n_incomplete ? left_out : NULL, .out_dir = out, .png = png, .quiet = quiet };
        char rsvg[4096];
        r.rsvg = find_in_path("rsvg-convert", rsvg, sizeof rsvg);
        char html_path[4096], head[256];
        r.html = open_out(&r, &r.html_file, "index.html", html_path, sizeof html_path);
        snprintf(head, sizeof head, "Experiment %s", s.name);
        if (r.html) {
            html_begin(r.html, head);
            snprintf(head, sizeof head, "%u of %u runs have complete results; baseline variant: %s.", n_found, n_runs,
                     s.variants[s.baseline].name);
            html_text(r.html, head);
            if (r.left_out) {
                fputs("<p class=\"incomplete\">Not complete, left out of the tables and figures: ", r.html);
                html_escape(r.html, r.left_out);
                fputs(".</p>\n", r.html);
            }
            if (chosen)
                html_pre(r.html, chosen);
        }
        for (uint32_t i = 0; i < s.n_figures; i++)
            figure(&r, &s.figures[i]);
        for (uint32_t i = 0; i < stats.n; i++)
            stat_tables(&r, stats.v[i]);
        if (!s.n_figures && !stats.n)
            stat_tables(&r, "sim.ipc"); /* something to look at */
        if (r.html) {
            html_config(&r);
            html_end(r.html);
        }
        close_out(&r, &r.html_file, r.html, html_path);
        if (chosen && !quiet)
            fputs(chosen, stdout);
        if (png && !r.rsvg)
            printf("PNG export skipped: rsvg-convert is not installed (the SVG figures are complete)\n");
        if (n_found + n_incomplete < n_runs)
            printf("%u of %u runs have no result (left blank in tables and figures)\n", n_runs - n_found - n_incomplete,
                   n_runs);
        if (n_incomplete)
            printf("%u of %u runs are not complete (left out of tables and figures, marked with their status): %s\n",
                   n_incomplete, n_runs, left_out);
        printf("wrote %u files into %s", r.written.n, out);
        for (uint32_t i = 0; i < r.written.n && !quiet; i++)
            printf("%s%s", i ? " " : ": ", strrchr(r.written.v[i], '/') + 1);
        printf("\n");
        status = r.errors ? 1 : 0;
        exp_strlist_free(&r.written);
    }
    for (uint32_t i = 0; i < s.n_workloads * s.n_variants; i++)
        free(incomplete[i]);
    free(incomplete);
    free(left_out);
    free(chosen);
    for (uint32_t i = 0; i < s.n_workloads * s.n_variants; i++)
        json_free(results[i]);
    free(results);
    exp_spec_free(&s);
    exp_strlist_free(&stats);
    return status;
}
