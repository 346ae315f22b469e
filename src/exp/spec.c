/* spec.c: the experiment spec reader (see spec.h; its canonical writer is spec_write.c).
 *
 * One statement per line, '#' starts a comment, tokens are separated by blanks and may be
 * double-quoted ("a b", with \" and \\ inside). Statements: name, preset, config, set, workload,
 * suite, manifest, variant, override, baseline, figure. Everything a sweep or report would trip
 * over later is checked here, so a bad spec fails before any run starts, with file:line. A
 * suite is a file of `workload` lines (workloads/suites/<name>, or a path) read in place, optionally filtered by
 * class. Relative paths are relative to the directory the sweep runs in (the repository root),
 * like every other warpsim path. */
#include "exp/spec.h"

#include "base/base.h"
#include "policy/policy.h"
#include "conf/config.h"
#include "exp/manifest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 256

void exp_strlist_push(ExpStrList *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = xstrdup(s);
}

void exp_strlist_free(ExpStrList *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

const char *exp_figure_kind_name(ExpFigureKind k)
{
    return k == EXP_FIG_STACKED ? "stacked" : k == EXP_FIG_LINE ? "line" : k == EXP_FIG_SERIES ? "series"
         : k == EXP_FIG_CDF ? "cdf" : k == EXP_FIG_HEATMAP ? "heatmap" : "bars";
}

const char *exp_norm_name(ExpNorm n)
{
    return n == EXP_NORM_BASELINE ? "baseline" : n == EXP_NORM_TOTAL ? "total" : "none";
}

typedef struct Ctx {
    ExpSpec *s;
    const char *file;
    unsigned line;
    char *err;
    size_t err_len;
    int depth; /* suite nesting */
    bool have_baseline;
    unsigned baseline_line;
    char baseline[EXP_NAME_LEN];
} Ctx;

__attribute__((format(printf, 2, 3))) static bool fail(Ctx *c, const char *fmt, ...)
{
    int n = c->line ? snprintf(c->err, c->err_len, "%s:%u: ", c->file, c->line)
                    : snprintf(c->err, c->err_len, "%s: ", c->file);
    if (n >= 0 && (size_t)n < c->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->err_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Split a line into tokens in place; '#' outside quotes ends the line. */
static int tokenize(Ctx *c, char *line, char **tok, bool *ok)
{
    int n = 0;
    char *p = line;
    *ok = true;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p || *p == '#')
            return n;
        if (n == MAX_TOKENS) {
            *ok = fail(c, "more than %d words on one line", MAX_TOKENS);
            return n;
        }
        char *out = p;
        tok[n++] = out;
        bool quoted = false;
        while (*p) {
            if (*p == '"') {
                quoted = !quoted;
                p++;
            } else if (!quoted && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '#')) {
                break;
            } else if (quoted && *p == '\\' && (p[1] == '"' || p[1] == '\\')) {
                *out++ = p[1];
                p += 2;
            } else {
                *out++ = *p++;
            }
        }
        if (quoted) {
            *ok = fail(c, "unterminated double quote");
            return n;
        }
        char end = *p; /* saved: out may equal p */
        *out = 0;
        if (!end || end == '#')
            return n;
        p++;
    }
}

static bool name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '-' || ch == '.' || ch == '+';
}

static bool valid_name(Ctx *c, const char *what, const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= EXP_NAME_LEN)
        return fail(c, "%s name '%s' must have 1 to %d characters", what, name, EXP_NAME_LEN - 1);
    for (const char *p = name; *p; p++)
        if (!name_char(*p))
            return fail(c, "%s name '%s': use only letters, digits and _ - . + (it names files)", what, name);
    if (strstr(name, "__") || name[0] == '.')
        return fail(c, "%s name '%s' must not contain '__' or start with '.' (result files are named "
                       "<workload>__<variant>)", what, name);
    return true;
}

/* Check one "key=value" override against the option table. */
static bool check_override(Ctx *c, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return fail(c, "expected key=value, got '%s'", kv);
    char key[128], msg[1024];
    size_t klen = (size_t)(eq - kv);
    if (klen >= sizeof key)
        return fail(c, "key too long in '%s'", kv);
    memcpy(key, kv, klen);
    key[klen] = 0;
    Config scratch;
    config_init(&scratch);
    if (!config_set(&scratch, key, eq + 1, msg, sizeof msg))
        return fail(c, "%s", msg);
    /* a policy's name, and its options' values, are checked by the policy registry */
    if (!policy_check_config(&scratch, msg, sizeof msg))
        return fail(c, "%s", msg);
    return true;
}

/* "name:" or "name" ":" at tok[1]; returns the index of the first token after the colon. */
static int name_colon(Ctx *c, char **tok, int n, const char *what, char *name)
{
    if (n < 2)
        return fail(c, "expected '%s NAME: ...'", what), -1;
    size_t len = strlen(tok[1]);
    int next;
    if (len && tok[1][len - 1] == ':') {
        tok[1][len - 1] = 0;
        next = 2;
    } else if (n >= 3 && !strcmp(tok[2], ":")) {
        next = 3;
    } else {
        return fail(c, "expected ':' after the %s name '%s'", what, tok[1]), -1;
    }
    if (!valid_name(c, what, tok[1]))
        return -1;
    snprintf(name, EXP_NAME_LEN, "%s", tok[1]);
    return next;
}

int exp_spec_find_variant(const ExpSpec *s, const char *name)
{
    for (uint32_t i = 0; i < s->n_variants; i++)
        if (!strcmp(s->variants[i].name, name))
            return (int)i;
    return -1;
}

int exp_spec_find_workload(const ExpSpec *s, const char *name)
{
    for (uint32_t i = 0; i < s->n_workloads; i++)
        if (!strcmp(s->workloads[i].name, name))
            return (int)i;
    return -1;
}

static bool parse_text(Ctx *c, const char *text, const char *filter_class);

static bool stmt_workload(Ctx *c, char **tok, int n, const char *filter_class)
{
    ExpSpec *s = c->s;
    if (n < 3)
        return fail(c, "expected 'workload NAME PATH [class=CLASS] [-- ARGS...]'");
    if (!valid_name(c, "workload", tok[1]))
        return false;
    if (exp_spec_find_workload(s, tok[1]) >= 0)
        return fail(c, "workload '%s' is declared twice", tok[1]);
    const char *cls = "";
    int i = 3;
    for (; i < n && strcmp(tok[i], "--"); i++) {
        if (!strncmp(tok[i], "class=", 6) && tok[i][6])
            cls = tok[i] + 6;
        else
            return fail(c, "workload '%s': unexpected '%s' (expected class=CLASS, or -- before program "
                           "arguments)", tok[1], tok[i]);
    }
    if (filter_class && strcmp(cls, filter_class))
        return true;
    if (s->n_workloads == s->cap_workloads) {
        s->cap_workloads = s->cap_workloads ? s->cap_workloads * 2 : 8;
        s->workloads = xrealloc(s->workloads, s->cap_workloads * sizeof *s->workloads);
    }
    ExpWorkload *w = &s->workloads[s->n_workloads++];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", tok[1]);
    w->path = xstrdup(tok[2]);
    w->class_name = xstrdup(cls);
    for (i++; i < n; i++)
        exp_strlist_push(&w->args, tok[i]);
    return true;
}

static bool stmt_suite(Ctx *c, char **tok, int n)
{
    if (n < 2 || n > 3 || (n == 3 && strncmp(tok[2], "class=", 6)))
        return fail(c, "expected 'suite NAME [class=CLASS]'");
    if (c->depth >= 8)
        return fail(c, "suites nested more than 8 deep");
    char path[1024];
    if (strchr(tok[1], '/'))
        snprintf(path, sizeof path, "%s", tok[1]);
    else
        snprintf(path, sizeof path, "workloads/suites/%s", tok[1]);
    char *text = read_file(path, NULL);
    if (!text)
        return fail(c, "suite '%s': cannot read %s: %s", tok[1], path, read_file_error(errno));
    Ctx sub = *c;
    sub.file = path;
    sub.line = 0;
    sub.depth++;
    bool ok = parse_text(&sub, text, n == 3 ? tok[2] + 6 : NULL);
    free(text);
    return ok;
}

static bool parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
        return *out = true, true;
    if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
        return *out = false, true;
    return false;
}

static void split_metrics(ExpStrList *l, const char *v)
{
    char *buf = xstrdup(v);
    for (char *save = NULL, *m = strtok_r(buf, ",", &save); m; m = strtok_r(NULL, ",", &save))
        if (*m)
            exp_strlist_push(l, m);
    free(buf);
}

/* A figure's variants=, labels=, baseline= and class= name what is declared above it. */
static bool figure_selection_ok(Ctx *c, const ExpFigure *f)
{
    const ExpSpec *s = c->s;
    for (uint32_t i = 0; i < f->variants.n; i++) {
        if (exp_spec_find_variant(s, f->variants.v[i]) < 0)
            return fail(c, "figure '%s': variants=: no variant '%s' is declared above", f->name, f->variants.v[i]);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(f->variants.v[i], f->variants.v[j]))
                return fail(c, "figure '%s': variants=: '%s' is named twice", f->name, f->variants.v[i]);
    }
    uint32_t drawn = f->variants.n ? f->variants.n : s->n_variants;
    if (f->labels.n && f->labels.n != drawn)
        return fail(c, "figure '%s': labels=: %u labels for %u drawn variants", f->name, f->labels.n, drawn);
    for (uint32_t i = 0; i < f->baselines.n; i++)
        if (exp_spec_find_variant(s, f->baselines.v[i]) < 0)
            return fail(c, "figure '%s': baseline=: no variant '%s' is declared above", f->name, f->baselines.v[i]);
    if (f->baselines.n > 1 && f->baselines.n != drawn)
        return fail(c, "figure '%s': baseline=: give one variant, or one per drawn variant (%u), not %u", f->name,
                    drawn, f->baselines.n);
    if (f->class_name) {
        bool any = false;
        for (uint32_t w = 0; w < s->n_workloads && !any; w++)
            any = !strcmp(s->workloads[w].class_name, f->class_name);
        if (!any)
            return fail(c, "figure '%s': class=%s: no workload of that class is declared above", f->name,
                        f->class_name);
    }
    return true;
}

static bool stmt_figure(Ctx *c, char **tok, int n)
{
    ExpSpec *s = c->s;
    char name[EXP_NAME_LEN];
    int i = name_colon(c, tok, n, "figure", name);
    if (i < 0)
        return false;
    for (uint32_t k = 0; k < s->n_figures; k++)
        if (!strcmp(s->figures[k].name, name))
            return fail(c, "figure '%s' is declared twice", name);
    if (s->n_figures == s->cap_figures) {
        s->cap_figures = s->cap_figures ? s->cap_figures * 2 : 4;
        s->figures = xrealloc(s->figures, s->cap_figures * sizeof *s->figures);
    }
    ExpFigure *f = &s->figures[s->n_figures++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->norm = EXP_NORM_BASELINE;
    bool geomean_set = false, norm_set = false;
    for (; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i])
            return fail(c, "figure '%s': expected key=value, got '%s'", name, tok[i]);
        *eq = 0;
        const char *k = tok[i], *v = eq + 1;
        if (!strcmp(k, "metric") || !strcmp(k, "metrics")) {
            split_metrics(&f->metrics, v);
        } else if (!strcmp(k, "kind")) {
            if (!strcmp(v, "bars"))
                f->kind = EXP_FIG_BARS;
            else if (!strcmp(v, "stacked"))
                f->kind = EXP_FIG_STACKED;
            else if (!strcmp(v, "line"))
                f->kind = EXP_FIG_LINE;
            else if (!strcmp(v, "series"))
                f->kind = EXP_FIG_SERIES;
            else if (!strcmp(v, "cdf"))
                f->kind = EXP_FIG_CDF;
            else if (!strcmp(v, "heatmap"))
                f->kind = EXP_FIG_HEATMAP;
            else
                return fail(c, "figure '%s': kind=%s: expected one of bars|stacked|line|series|cdf|heatmap", name,
                            v);
        } else if (!strcmp(k, "norm")) {
            if (!strcmp(v, "baseline"))
                f->norm = EXP_NORM_BASELINE;
            else if (!strcmp(v, "none"))
                f->norm = EXP_NORM_NONE;
            else if (!strcmp(v, "total"))
                f->norm = EXP_NORM_TOTAL;
            else
                return fail(c, "figure '%s': norm=%s: expected baseline|none|total", name, v);
            norm_set = true;
        } else if (!strcmp(k, "variants")) {
            exp_strlist_free(&f->variants);
            split_metrics(&f->variants, v);
        } else if (!strcmp(k, "labels")) {
            exp_strlist_free(&f->labels);
            split_metrics(&f->labels, v);
        } else if (!strcmp(k, "baseline")) {
            exp_strlist_free(&f->baselines);
            split_metrics(&f->baselines, v);
        } else if (!strcmp(k, "class")) {
            free(f->class_name);
            f->class_name = xstrdup(v);
        } else if (!strcmp(k, "group")) {
            if (!strcmp(v, "workload"))
                f->group_by_variant = false;
            else if (!strcmp(v, "variant"))
                f->group_by_variant = true;
            else
                return fail(c, "figure '%s': group=%s: expected workload|variant", name, v);
        } else if (!strcmp(k, "geomean")) {
            if (!parse_bool(v, &f->geomean))
                return fail(c, "figure '%s': geomean=%s: expected yes|no", name, v);
            geomean_set = true;
        } else if (!strcmp(k, "title")) {
            free(f->title);
            f->title = xstrdup(v);
        } else if (!strcmp(k, "ylabel")) {
            free(f->ylabel);
            f->ylabel = xstrdup(v);
        } else {
            return fail(c, "figure '%s': unknown key '%s' (expected metric, kind, norm, group, geomean, "
                           "variants, labels, baseline, class, title, ylabel)", name, k);
        }
    }
    if (!figure_selection_ok(c, f))
        return false;
    if (!f->metrics.n)
        return fail(c, "figure '%s': no metric=NAME given", name);
    if (f->kind != EXP_FIG_STACKED && f->metrics.n != 1)
        return fail(c, "figure '%s': a %s figure draws one metric (got %u); use kind=stacked for a "
                       "breakdown", name, exp_figure_kind_name(f->kind), f->metrics.n);
    if (f->kind == EXP_FIG_STACKED && f->geomean)
        return fail(c, "figure '%s': geomean applies to bars and line figures, not stacked", name);
    if (f->kind == EXP_FIG_SERIES && (f->geomean || f->group_by_variant))
        return fail(c, "figure '%s': a series figure plots time; geomean and group do not apply", name);
    if ((f->kind == EXP_FIG_CDF || f->kind == EXP_FIG_HEATMAP) &&
        (f->geomean || f->group_by_variant || (norm_set && f->norm != EXP_NORM_NONE)))
        return fail(c, "figure '%s': a %s; norm, geomean and group do not apply", name,
                    f->kind == EXP_FIG_CDF ? "cdf figure plots cumulative fractions of a histogram's buckets"
                                           : "heatmap figure draws the counts of a family of histograms");
    if (f->kind == EXP_FIG_HEATMAP && f->variants.n != 1)
        return fail(c, "figure '%s': a heatmap figure draws the runs of one variant: give variants=V", name);
    if (f->norm == EXP_NORM_TOTAL && f->kind != EXP_FIG_STACKED)
        return fail(c, "figure '%s': norm=total (each bar as fractions of its own total) applies to stacked "
                       "figures only", name);
    if (f->kind == EXP_FIG_SERIES || f->kind == EXP_FIG_CDF || f->kind == EXP_FIG_HEATMAP)
        f->norm = EXP_NORM_NONE;
    if (!geomean_set)
        f->geomean = f->kind == EXP_FIG_BARS || f->kind == EXP_FIG_LINE;
    return true;
}

/* The name of a `variant` or `best` line, not declared before: the index of the token after
 * its ':', or -1 (reported). */
static int variant_name(Ctx *c, char **tok, int n, const char *what, char *name)
{
    int i = name_colon(c, tok, n, what, name);
    if (i >= 0 && exp_spec_find_variant(c->s, name) >= 0)
        return fail(c, "variant '%s' is declared twice", name), -1;
    return i;
}

static ExpVariant *add_variant(ExpSpec *s, const char *name)
{
    if (s->n_variants == s->cap_variants) {
        s->cap_variants = s->cap_variants ? s->cap_variants * 2 : 4;
        s->variants = xrealloc(s->variants, s->cap_variants * sizeof *s->variants);
    }
    ExpVariant *v = &s->variants[s->n_variants++];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    return v;
}

static bool stmt_variant(Ctx *c, char **tok, int n)
{
    char name[EXP_NAME_LEN];
    int i = variant_name(c, tok, n, "variant", name);
    if (i < 0)
        return false;
    for (int k = i; k < n; k++)
        if (!check_override(c, tok[k]))
            return false;
    ExpVariant *v = add_variant(c->s, name);
    for (; i < n; i++)
        exp_strlist_push(&v->overrides, tok[i]);
    return true;
}

/* `best NAME: of=V1,V2,... min=METRIC` or max=METRIC (spec.h). */
static bool stmt_best(Ctx *c, char **tok, int n)
{
    ExpSpec *s = c->s;
    char name[EXP_NAME_LEN];
    int i = variant_name(c, tok, n, "best", name);
    if (i < 0)
        return false;
    ExpStrList of = {0};
    const char *metric = NULL;
    bool max = false;
    for (; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (eq && eq - tok[i] == 2 && !strncmp(tok[i], "of", 2)) {
            split_metrics(&of, eq + 1);
        } else if (eq && eq - tok[i] == 3 && (!strncmp(tok[i], "min", 3) || !strncmp(tok[i], "max", 3)) && eq[1]) {
            if (metric) {
                exp_strlist_free(&of);
                return fail(c, "best '%s': give one of min= and max=", name);
            }
            metric = eq + 1;
            max = tok[i][1] == 'a';
        } else {
            exp_strlist_free(&of);
            return fail(c, "best '%s': expected of=VARIANT,... and min=METRIC or max=METRIC, got '%s'", name, tok[i]);
        }
    }
    if (!of.n || !metric) {
        exp_strlist_free(&of);
        return fail(c, "best '%s': expected of=VARIANT,... and min=METRIC or max=METRIC", name);
    }
    uint32_t *src = xmalloc(of.n * sizeof *src);
    for (uint32_t k = 0; k < of.n; k++) {
        int v = exp_spec_find_variant(s, of.v[k]);
        bool twice = false;
        for (uint32_t j = 0; j < k; j++)
            twice |= src[j] == (uint32_t)v;
        if (v < 0 || exp_variant_derived(&s->variants[v]) || twice) {
            bool ok = fail(c, "best '%s': of=: '%s' %s", name, of.v[k],
                           v < 0 ? "is not a variant declared above" : twice ? "is named twice"
                                                                         : "is derived itself: name the variants it is taken from");
            free(src);
            exp_strlist_free(&of);
            return ok;
        }
        src[k] = (uint32_t)v;
    }
    ExpVariant *v = add_variant(s, name);
    v->best_of = src;
    v->n_best_of = of.n;
    v->best_metric = xstrdup(metric);
    v->best_max = max;
    exp_strlist_free(&of);
    return true;
}

const ExpRunOverride *exp_spec_run_override(const ExpSpec *s, uint32_t w, uint32_t v)
{
    for (uint32_t i = 0; i < s->n_run_overrides; i++)
        if (s->run_overrides[i].workload == w && s->run_overrides[i].variant == v)
            return &s->run_overrides[i];
    return NULL;
}

/* `override WORKLOAD VARIANT: key=value ...`, both declared above. */
static bool stmt_override(Ctx *c, char **tok, int n)
{
    ExpSpec *s = c->s;
    char vname[EXP_NAME_LEN];
    if (n < 3)
        return fail(c, "expected 'override WORKLOAD VARIANT: key=value ...'");
    int w = exp_spec_find_workload(s, tok[1]);
    if (w < 0)
        return fail(c, "override: no workload '%s' is declared above", tok[1]);
    int i = name_colon(c, tok + 1, n - 1, "variant", vname);
    if (i < 0)
        return false;
    i++; /* tok + 1 */
    int v = exp_spec_find_variant(s, vname);
    if (v < 0)
        return fail(c, "override: no variant '%s' is declared above", vname);
    if (exp_variant_derived(&s->variants[v]))
        return fail(c, "override: '%s' is derived from other runs (best): it has no runs to override", vname);
    if (exp_spec_run_override(s, (uint32_t)w, (uint32_t)v))
        return fail(c, "override: the run %s__%s has one already", tok[1], vname);
    if (i >= n)
        return fail(c, "override %s %s: expected key=value overrides after ':'", tok[1], vname);
    for (int k = i; k < n; k++)
        if (!check_override(c, tok[k]))
            return false;
    if (s->n_run_overrides == s->cap_run_overrides) {
        s->cap_run_overrides = s->cap_run_overrides ? s->cap_run_overrides * 2 : 4;
        s->run_overrides = xrealloc(s->run_overrides, s->cap_run_overrides * sizeof *s->run_overrides);
    }
    ExpRunOverride *o = &s->run_overrides[s->n_run_overrides++];
    memset(o, 0, sizeof *o);
    o->workload = (uint32_t)w;
    o->variant = (uint32_t)v;
    for (; i < n; i++)
        exp_strlist_push(&o->overrides, tok[i]);
    return true;
}

/* `manifest [class=CLASS] [paper=PAPER] [size=small|paper]`: every suite workload of
 * workloads/manifest that matches, run by name (`warpsim run NAME --size SIZE`). */
static bool stmt_manifest(Ctx *c, char **tok, int n)
{
    const char *cls = NULL, *paper = NULL, *size = "small";
    for (int i = 1; i < n; i++) {
        if (!strncmp(tok[i], "class=", 6))
            cls = tok[i] + 6;
        else if (!strncmp(tok[i], "paper=", 6))
            paper = tok[i] + 6;
        else if (!strcmp(tok[i], "size=small") || !strcmp(tok[i], "size=paper"))
            size = tok[i] + 5;
        else
            return fail(c, "manifest: unexpected '%s' (expected class=CLASS, paper=PAPER or size=small|paper)",
                        tok[i]);
    }
    Manifest m;
    char err[1024];
    if (!manifest_load(&m, err, sizeof err))
        return fail(c, "%s", err);
    bool ok = true;
    uint32_t added = 0;
    for (uint32_t i = 0; i < m.n && ok; i++) {
        ManifestEntry *e = &m.v[i];
        if (cls && strcmp(e->cls, cls))
            continue;
        if (paper) {
            char list[sizeof e->papers + 2], want[80];
            snprintf(list, sizeof list, ",%s,", e->papers);
            snprintf(want, sizeof want, ",%s,", paper);
            if (!strstr(list, want))
                continue;
        }
        char kw[] = "workload", dashes[] = "--", size_opt[] = "--size", class_arg[32], size_arg[8];
        snprintf(class_arg, sizeof class_arg, "class=%s", e->cls);
        snprintf(size_arg, sizeof size_arg, "%s", size);
        char *w[] = {kw, e->name, e->name, class_arg, dashes, size_opt, size_arg};
        ok = stmt_workload(c, w, (int)ARRAY_LEN(w), NULL);
        added++;
    }
    manifest_free(&m);
    if (ok && !added)
        return fail(c, "manifest: no workload matches");
    return ok;
}

static bool statement(Ctx *c, char **tok, int n, const char *filter_class)
{
    ExpSpec *s = c->s;
    const char *kw = tok[0];
    if (c->depth > 0 && strcmp(kw, "workload") && strcmp(kw, "suite"))
        return fail(c, "a suite holds only 'workload' and 'suite' lines, not '%s'", kw);
    if (!strcmp(kw, "workload"))
        return stmt_workload(c, tok, n, filter_class);
    if (!strcmp(kw, "suite"))
        return stmt_suite(c, tok, n);
    if (!strcmp(kw, "manifest"))
        return stmt_manifest(c, tok, n);
    if (!strcmp(kw, "variant"))
        return stmt_variant(c, tok, n);
    if (!strcmp(kw, "best"))
        return stmt_best(c, tok, n);
    if (!strcmp(kw, "override"))
        return stmt_override(c, tok, n);
    if (!strcmp(kw, "figure"))
        return stmt_figure(c, tok, n);
    if (!strcmp(kw, "set")) {
        if (n < 2)
            return fail(c, "expected 'set key=value ...'");
        for (int i = 1; i < n; i++) {
            if (!check_override(c, tok[i]))
                return false;
            exp_strlist_push(&s->base_overrides, tok[i]);
        }
        return true;
    }
    if (n != 2)
        return fail(c, "expected '%s VALUE' (one value)", kw);
    if (!strcmp(kw, "name")) {
        if (!valid_name(c, "experiment", tok[1]))
            return false;
        snprintf(s->name, sizeof s->name, "%s", tok[1]);
    } else if (!strcmp(kw, "preset")) {
        if (!valid_name(c, "preset", tok[1]))
            return false;
        free(s->preset);
        s->preset = xstrdup(tok[1]);
    } else if (!strcmp(kw, "config")) {
        free(s->config_path);
        s->config_path = xstrdup(tok[1]);
    } else if (!strcmp(kw, "baseline")) {
        snprintf(c->baseline, sizeof c->baseline, "%s", tok[1]);
        c->have_baseline = true;
        c->baseline_line = c->line;
    } else {
        return fail(c, "unknown statement '%s' (expected name, preset, config, set, workload, suite, "
                       "manifest, variant, best, override, baseline or figure)", kw);
    }
    return true;
}

static bool parse_text(Ctx *c, const char *text, const char *filter_class)
{
    const char *p = text;
    char *tok[MAX_TOKENS];
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = 0;
        c->line++;
        bool ok;
        int n = tokenize(c, line, tok, &ok);
        if (ok && n > 0)
            ok = statement(c, tok, n, filter_class);
        free(line);
        if (!ok)
            return false;
        p += len + (nl ? 1 : 0);
    }
    return true;
}

/* The default experiment name: the file's name up to its first '.', made a valid name (other
 * characters become '_', "__" one '_'), so that the canonical spec's 'name' line reads back. */
static void name_from_path(const char *path, char *name)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = 0;
    for (const char *p = base; *p && *p != '.' && n < EXP_NAME_LEN - 1; p++) {
        if (name_char(*p) && *p != '_')
            name[n++] = *p;
        else if (!n || name[n - 1] != '_')
            name[n++] = '_';
    }
    name[n] = 0;
    if (!n)
        snprintf(name, EXP_NAME_LEN, "experiment");
}

bool exp_spec_parse(ExpSpec *s, const char *text, const char *path, char *err, size_t err_len)
{
    memset(s, 0, sizeof *s);
    s->path = xstrdup(path);
    name_from_path(path, s->name);
    Ctx c = { s, path, 0, err, err_len, 0, false, 0, "" };
    if (!parse_text(&c, text, NULL))
        return false;
    c.line = 0;
    if (!s->n_workloads)
        return fail(&c, "no workloads (add 'workload NAME PATH' or 'suite NAME' lines)");
    if (!s->n_variants) {
        /* No variants: one run per workload with the base config. */
        s->variants = xcalloc(1, sizeof *s->variants);
        s->n_variants = s->cap_variants = 1;
        snprintf(s->variants[0].name, sizeof s->variants[0].name, "base");
    }
    if (c.have_baseline) {
        int b = exp_spec_find_variant(s, c.baseline);
        c.line = c.baseline_line;
        if (b < 0)
            return fail(&c, "baseline '%s' is not a declared variant", c.baseline);
        s->baseline = (uint32_t)b;
    }
    return true;
}

bool exp_spec_load(ExpSpec *s, const char *path, char *err, size_t err_len)
{
    char *text = read_file(path, NULL);
    if (!text) {
        memset(s, 0, sizeof *s);
        snprintf(err, err_len, "%s: cannot read: %s", path, read_file_error(errno));
        return false;
    }
    bool ok = exp_spec_parse(s, text, path, err, err_len);
    free(text);
    return ok;
}

void exp_spec_free(ExpSpec *s)
{
    for (uint32_t i = 0; i < s->n_workloads; i++) {
        free(s->workloads[i].path);
        free(s->workloads[i].class_name);
        exp_strlist_free(&s->workloads[i].args);
    }
    for (uint32_t i = 0; i < s->n_variants; i++) {
        exp_strlist_free(&s->variants[i].overrides);
        free(s->variants[i].best_of);
        free(s->variants[i].best_metric);
    }
    for (uint32_t i = 0; i < s->n_run_overrides; i++)
        exp_strlist_free(&s->run_overrides[i].overrides);
    free(s->run_overrides);
    for (uint32_t i = 0; i < s->n_figures; i++) {
        exp_strlist_free(&s->figures[i].metrics);
        exp_strlist_free(&s->figures[i].variants);
        exp_strlist_free(&s->figures[i].labels);
        exp_strlist_free(&s->figures[i].baselines);
        free(s->figures[i].class_name);
        free(s->figures[i].title);
        free(s->figures[i].ylabel);
    }
    exp_strlist_free(&s->base_overrides);
    free(s->workloads);
    free(s->variants);
    free(s->figures);
    free(s->preset);
    free(s->config_path);
    free(s->path);
    memset(s, 0, sizeof *s);
}
