/* test_exp_spec.c: the experiment spec parser: a full spec, suites, canonical round trip, and
 * malformed specs failing with file:line and what was expected. */
#include "../test.h"

#include "base/base.h"
#include "exp/spec.h"
#include "exp/store.h"

#include <stdlib.h>
#include <string.h>

static const char *full_spec =
    "# L1D indexing on divergent kernels\n"
    "preset gtx480\n"
    "set gpu.max_cycles=5000   # keep runs short\n"
    "workload atax1 workloads/synthetic/atax1.syn class=divergent\n"
    "workload mvt \"workloads/my dir/mvt.syn\" class=divergent -- 512 \"a b\"\n"
    "workload hs workloads/synthetic/hs.syn\n"
    "variant conv: l1d.index=conv\n"
    "variant fup : l1d.index=fup l1d.n_sets=64\n"
    "override mvt fup: l1d.assoc=8 \"sm.sched=gto\"\n"
    "best best: of=fup,conv max=\"sim.ipc\"\n"
    "baseline fup\n"
    "figure ipc: metric=sim.ipc title=\"IPC vs. fup\" # trailing\n"
    "figure miss: kind=stacked metrics=sm.l1d.miss,sm.l1d.hit norm=none group=variant\n"
    "figure trend: kind=line metric=l1d.miss_rate geomean=no ylabel=rate\n";

static void check_full(const ExpSpec *s)
{
    EXPECT_STR(s->preset, "gtx480");
    ASSERT(s->base_overrides.n == 1);
    EXPECT_STR(s->base_overrides.v[0], "gpu.max_cycles=5000");
    ASSERT(s->n_workloads == 3);
    EXPECT_STR(s->workloads[1].path, "workloads/my dir/mvt.syn");
    EXPECT_STR(s->workloads[1].class_name, "divergent");
    ASSERT(s->workloads[1].args.n == 2);
    EXPECT_STR(s->workloads[1].args.v[1], "a b");
    EXPECT_STR(s->workloads[2].class_name, "");
    ASSERT(s->n_variants == 3);
    EXPECT_STR(s->variants[1].name, "fup");
    EXPECT(!exp_variant_derived(&s->variants[1]));
    ASSERT(exp_variant_derived(&s->variants[2]) && s->variants[2].n_best_of == 2);
    EXPECT_EQ_U(s->variants[2].best_of[0], 1);
    EXPECT_EQ_U(s->variants[2].best_of[1], 0);
    EXPECT_STR(s->variants[2].best_metric, "sim.ipc");
    EXPECT(s->variants[2].best_max);
    ASSERT(s->variants[1].overrides.n == 2);
    EXPECT_STR(s->variants[1].overrides.v[1], "l1d.n_sets=64");
    EXPECT_EQ_U(s->baseline, 1);
    ASSERT(s->n_run_overrides == 1);
    const ExpRunOverride *o = exp_spec_run_override(s, 1, 1);
    ASSERT(o && o->overrides.n == 2);
    EXPECT_STR(o->overrides.v[0], "l1d.assoc=8");
    EXPECT(!exp_spec_run_override(s, 1, 0) && !exp_spec_run_override(s, 0, 1));
    ASSERT(s->n_figures == 3);
    EXPECT(s->figures[0].kind == EXP_FIG_BARS && s->figures[0].norm == EXP_NORM_BASELINE && s->figures[0].geomean);
    EXPECT_STR(s->figures[0].title, "IPC vs. fup");
    EXPECT(s->figures[1].kind == EXP_FIG_STACKED && s->figures[1].norm == EXP_NORM_NONE && !s->figures[1].geomean);
    EXPECT(s->figures[1].group_by_variant);
    ASSERT(s->figures[1].metrics.n == 2);
    EXPECT_STR(s->figures[1].metrics.v[1], "sm.l1d.hit");
    EXPECT(s->figures[2].kind == EXP_FIG_LINE && !s->figures[2].geomean);
    EXPECT_STR(s->figures[2].ylabel, "rate");
}

TEST(exp_spec_full_and_round_trip)
{
    ExpSpec s, t;
    char err[256] = "";
    bool ok = exp_spec_parse(&s, full_spec, "experiments/l1d_index", err, sizeof err);
    EXPECT_STR(err, "");
    ASSERT(ok);
    EXPECT_STR(s.name, "l1d_index");
    check_full(&s);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    exp_spec_write(f, &s);
    fclose(f);
    ok = exp_spec_parse(&t, buf, "results/x/experiment", err, sizeof err);
    EXPECT_STR(err, "");
    ASSERT(ok);
    EXPECT_STR(t.name, "l1d_index"); /* the name line wins over the file name */
    check_full(&t);
    free(buf);
    exp_spec_free(&s);
    exp_spec_free(&t);
}

/* A run's own overrides come after its variant's, so they win; other runs do not get them. */
TEST(exp_spec_run_override_argv)
{
    ExpSpec s;
    char err[256] = "";
    ASSERT(exp_spec_parse(&s, full_spec, "experiments/l1d_index", err, sizeof err));
    ExpStrList a = {0}, b = {0};
    exp_run_argv(&s, 1, 1, "warpsim", "o.json", &a);
    exp_run_argv(&s, 0, 1, "warpsim", "o.json", &b);
    uint32_t i = 0;
    while (i < a.n && strcmp(a.v[i], "l1d.n_sets=64"))
        i++;
    ASSERT(i + 4 < a.n);
    EXPECT_STR(a.v[i + 1], "-o");
    EXPECT_STR(a.v[i + 2], "l1d.assoc=8");
    EXPECT_STR(a.v[i + 4], "sm.sched=gto");
    uint32_t oa = 0, ob = 0; /* -o: the set line's, the variant's two, and the run's two */
    for (uint32_t k = 0; k < a.n; k++)
        oa += !strcmp(a.v[k], "-o");
    for (uint32_t k = 0; k < b.n; k++)
        ob += !strcmp(b.v[k], "-o");
    EXPECT_EQ_U(oa, 5);
    EXPECT_EQ_U(ob, 3);
    exp_strlist_free(&a);
    exp_strlist_free(&b);
    exp_spec_free(&s);
}

TEST(exp_spec_defaults_and_suite)
{
    char suite[512], text[1024], err[256] = "";
    snprintf(suite, sizeof suite, "%s/divergent.suite", test_tmpdir());
    FILE *f = fopen(suite, "w");
    ASSERT(f);
    fputs("# a suite\nworkload a a.syn class=div\nworkload b b.syn class=reg\nworkload c c.syn class=div\n", f);
    fclose(f);
    snprintf(text, sizeof text, "suite %s class=div\nworkload d d.syn\n", suite);
    ExpSpec s;
    bool ok = exp_spec_parse(&s, text, "x.spec", err, sizeof err);
    EXPECT_STR(err, "");
    ASSERT(ok);
    EXPECT_STR(s.name, "x");
    ASSERT(s.n_workloads == 3);
    EXPECT_STR(s.workloads[0].name, "a");
    EXPECT_STR(s.workloads[1].name, "c");
    EXPECT_STR(s.workloads[2].name, "d");
    ASSERT(s.n_variants == 1); /* no variants: one implicit "base" */
    EXPECT_STR(s.variants[0].name, "base");
    EXPECT_EQ_U(s.baseline, 0);
    exp_spec_free(&s);

    /* An error inside a suite names the suite file and its line. */
    f = fopen(suite, "w");
    ASSERT(f);
    fputs("workload a a.syn\nvariant x: l1d.assoc=2\n", f);
    fclose(f);
    snprintf(text, sizeof text, "suite %s\n", suite);
    EXPECT(!exp_spec_parse(&s, text, "x.spec", err, sizeof err));
    EXPECT_CONTAINS(err, "divergent.suite:2: a suite holds only 'workload' and 'suite' lines");
    exp_spec_free(&s);
}

/* A suite that names itself stops at the nesting limit with the line of the innermost. */
TEST(exp_spec_suite_cycle_is_an_error)
{
    char suite[512], line[600], text[700], err[1024] = "";
    snprintf(suite, sizeof suite, "%s/loop.suite", test_tmpdir());
    snprintf(line, sizeof line, "# loops\nsuite %s\n", suite);
    FILE *f = fopen(suite, "w");
    ASSERT(f);
    fputs(line, f);
    fclose(f);
    snprintf(text, sizeof text, "suite %s\n", suite);
    ExpSpec s;
    EXPECT(!exp_spec_parse(&s, text, "c.spec", err, sizeof err));
    EXPECT_CONTAINS(err, "loop.suite:2: suites nested more than 8 deep");
    exp_spec_free(&s);
}

TEST(exp_spec_errors_name_file_and_line)
{
    static const struct { const char *text, *msg; } bad[] = {
        { "workload a a.syn\nvariant v: l1d.assoc=1000\n", "e.spec:2: l1d.assoc: 1000 is out of range" },
        { "workload a a.syn\nvariant v: l1d.nope=1\n", "e.spec:2: unknown key 'l1d.nope'" },
        { "workload a a.syn\nvariant v: l1d.repl=nope\n", "e.spec:2: l1d.repl: unknown repl policy 'nope'" },
        { "workload a a.syn\nvariant v: l1d.repl.dacache.fcw=1000\n", "e.spec:2: l1d.repl.dacache.fcw" },
        { "workload a a.syn\nvariant v l1d.assoc=2\n", "e.spec:2: expected ':' after the variant name 'v'" },
        { "workload a a.syn\nvariant v: assoc\n", "e.spec:2: expected key=value, got 'assoc'" },
        { "\nworkload a a.syn\nworkload a b.syn\n", "e.spec:3: workload 'a' is declared twice" },
        { "workload a__b a.syn\n", "e.spec:1: workload name 'a__b' must not contain '__'" },
        { "workload a/b a.syn\n", "e.spec:1: workload name 'a/b': use only letters" },
        { "workload a\n", "e.spec:1: expected 'workload NAME PATH" },
        { "workload a a.syn size=3\n", "e.spec:1: workload 'a': unexpected 'size=3'" },
        { "workload a a.syn\nbaseline zz\nvariant v:\n", "e.spec:2: baseline 'zz' is not a declared variant" },
        { "preset gtx480\n", "e.spec: no workloads" },
        { "workload a a.syn\nfigure f: metric=x kind=pie\n", "e.spec:2: figure 'f': kind=pie: expected one of bars|stacked|line" },
        { "workload a a.syn\nfigure f: kind=bars\n", "e.spec:2: figure 'f': no metric=NAME given" },
        { "workload a a.syn\nfigure f: metric=a,b\n", "e.spec:2: figure 'f': a bars figure draws one metric (got 2)" },
        { "workload a a.syn\nfigure f: metric=a kind=stacked geomean=yes\n", "geomean applies to bars and line" },
        { "workload a a.syn\nfigure f: metric=a colour=red\n", "e.spec:2: figure 'f': unknown key 'colour'" },
        { "workload a a.syn\nfrobnicate 3\n", "e.spec:2: unknown statement 'frobnicate'" },
        { "workload a a.syn\npreset a b\n", "e.spec:2: expected 'preset VALUE' (one value)" },
        { "workload a \"a.syn\n", "e.spec:1: unterminated double quote" },
        { "suite nope/none\n", "e.spec:1: suite 'nope/none': cannot read nope/none" },
        { "\nsuite /dev/zero\n", "e.spec:2: suite '/dev/zero': cannot read /dev/zero: larger than the 64 MiB limit" },
        { "suite /\n", "e.spec:1: suite '/': cannot read /: Is a directory" },
        { "workload a a.syn\nvariant v:\nfigure f: metric=m variants=v,w\n",
          "e.spec:3: figure 'f': variants=: no variant 'w' is declared above" },
        { "workload a a.syn\nfigure f: metric=m variants=v\nvariant v:\n",
          "e.spec:2: figure 'f': variants=: no variant 'v' is declared above" },
        { "workload a a.syn\nvariant v:\nfigure f: metric=m variants=v,v\n", "variants=: 'v' is named twice" },
        { "workload a a.syn\nvariant v:\nvariant w:\nfigure f: metric=m labels=V\n",
          "e.spec:4: figure 'f': labels=: 1 labels for 2 drawn variants" },
        { "workload a a.syn\nvariant v:\nvariant w:\nfigure f: metric=m variants=w baseline=v,w\n",
          "figure 'f': baseline=: give one variant, or one per drawn variant (1), not 2" },
        { "workload a a.syn\nvariant v:\nfigure f: metric=m baseline=z\n", "baseline=: no variant 'z' is declared" },
        { "workload a a.syn class=d\nfigure f: metric=m class=c\n",
          "e.spec:2: figure 'f': class=c: no workload of that class is declared above" },
        { "workload a a.syn\nfigure f: metric=m norm=total\n", "norm=total (each bar as fractions of its own "
          "total) applies to stacked figures only" },
        { "workload a a.syn\nfigure f: metric=m norm=frac\n", "norm=frac: expected baseline|none|total" },
        { "workload a a.syn\nfigure f: kind=cdf metric=h norm=baseline\n", "a cdf figure plots cumulative" },
        { "workload a a.syn\nfigure f: kind=cdf metric=h geomean=yes\n", "a cdf figure plots cumulative" },
        { "workload a a.syn\nfigure f: kind=cdf metric=h,g\n", "a cdf figure draws one metric (got 2)" },
        { "workload a a.syn\nvariant v:\nfigure f: kind=heatmap metric=m\n",
          "e.spec:3: figure 'f': a heatmap figure draws the runs of one variant: give variants=V" },
        { "workload a a.syn\nvariant v:\nvariant w:\nfigure f: kind=heatmap metric=m variants=v,w\n",
          "a heatmap figure draws the runs of one variant" },
        { "workload a a.syn\nvariant v:\nfigure f: kind=heatmap metric=m variants=v norm=baseline\n",
          "a heatmap figure draws the counts of a family of histograms; norm, geomean and group do not apply" },
        { "workload a a.syn\nvariant v:\nfigure f: kind=heatmap metric=m variants=v group=variant\n",
          "norm, geomean and group do not apply" },
        { "workload a a.syn\nfigure f: kind=heat metric=m\n", "expected one of bars|stacked|line|series|cdf|heatmap" },
        { "workload a a.syn\nvariant v:\noverride b v: l1d.assoc=2\n",
          "e.spec:3: override: no workload 'b' is declared above" },
        { "workload a a.syn\noverride a v: l1d.assoc=2\nvariant v:\n", "e.spec:2: override: no variant 'v'" },
        { "workload a a.syn\nvariant v:\noverride a v:\n", "e.spec:3: override a v: expected key=value" },
        { "workload a a.syn\nvariant v:\noverride a v l1d.assoc=2\n", "expected ':' after the variant name 'v'" },
        { "workload a a.syn\nvariant v:\noverride a v: l1d.nope=2\n", "e.spec:3: unknown key 'l1d.nope'" },
        { "workload a a.syn\nvariant v:\noverride a v: l1d.assoc=2\noverride a v: l1d.assoc=4\n",
          "e.spec:4: override: the run a__v has one already" },
        { "workload a a.syn\nvariant v:\nbest b: of=v,w min=sim.cycles\n",
          "e.spec:3: best 'b': of=: 'w' is not a variant declared above" },
        { "workload a a.syn\nvariant v:\nbest b: of=v min=sim.cycles\nbest c: of=v,b min=x\n",
          "e.spec:4: best 'c': of=: 'b' is derived itself" },
        { "workload a a.syn\nvariant v:\nbest b: of=v,v min=x\n", "best 'b': of=: 'v' is named twice" },
        { "workload a a.syn\nvariant v:\nbest b: of=v\n", "e.spec:3: best 'b': expected of=VARIANT,... and min=" },
        { "workload a a.syn\nvariant v:\nbest b: of=v min=x max=y\n", "best 'b': give one of min= and max=" },
        { "workload a a.syn\nvariant v:\nbest b: of=v mean=x\n", "expected of=VARIANT,... and min=METRIC or "
          "max=METRIC, got 'mean=x'" },
        { "workload a a.syn\nvariant v:\nbest v: of=v min=x\n", "e.spec:3: variant 'v' is declared twice" },
        { "workload a a.syn\nvariant v:\nbest b: of=v min=x\noverride a b: l1d.assoc=2\n",
          "e.spec:4: override: 'b' is derived from other runs (best)" },
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ExpSpec s;
        err[0] = 0;
        EXPECT(!exp_spec_parse(&s, bad[i].text, "e.spec", err, sizeof err));
        EXPECT_CONTAINS(err, bad[i].msg);
        exp_spec_free(&s);
    }
    ExpSpec s;
    EXPECT(!exp_spec_load(&s, "/", err, sizeof err));
    EXPECT_STR(err, "/: cannot read: Is a directory");
    exp_spec_free(&s);
}

TEST(exp_spec_series_figure)
{
    char err[512];
    const char *text = "name s\npreset gtx480\nworkload a w.syn\nvariant x: l1d.assoc=4\nbaseline x\n"
                       "figure t: kind=series metric=sim.ipc\n";
    ExpSpec s;
    ASSERT(exp_spec_parse(&s, text, "s.spec", err, sizeof err));
    EXPECT_EQ_U(s.figures[0].kind, EXP_FIG_SERIES);
    EXPECT(s.figures[0].norm == EXP_NORM_NONE && !s.figures[0].geomean);
    exp_spec_free(&s);
    const char *bad = "name s\nworkload a w.syn\nvariant x: l1d.assoc=4\nbaseline x\n"
                      "figure t: kind=series metric=sim.ipc geomean=yes\n";
    ExpSpec b;
    EXPECT(!exp_spec_parse(&b, bad, "s.spec", err, sizeof err));
    EXPECT_CONTAINS(err, "s.spec:5: figure 't': a series figure plots time");
    exp_spec_free(&b);
}

TEST(exp_spec_heatmap_figure)
{
    char err[512];
    const char *text = "name s\nworkload a w.syn\nvariant g:\nvariant c: sm.sched=ciao-c sm.sched.ciao-c.matrix=true\n"
                       "figure m: kind=heatmap metric=sm[0].sched.ciao-c.matrix variants=c labels=CIAO-C\n";
    ExpSpec s;
    ASSERT(exp_spec_parse(&s, text, "s.spec", err, sizeof err));
    EXPECT_EQ_U(s.figures[0].kind, EXP_FIG_HEATMAP);
    EXPECT(s.figures[0].norm == EXP_NORM_NONE && !s.figures[0].geomean && !s.figures[0].group_by_variant);
    /* The canonical form reads back as the same figure. */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    exp_spec_write(m, &s);
    fclose(m);
    EXPECT_CONTAINS(buf, "figure m: kind=heatmap metric=sm[0].sched.ciao-c.matrix norm=none");
    ExpSpec back;
    EXPECT(exp_spec_parse(&back, buf, "back", err, sizeof err));
    EXPECT(back.n_figures == 1 && back.figures[0].kind == EXP_FIG_HEATMAP && back.figures[0].variants.n == 1);
    exp_spec_free(&back);
    free(buf);
    exp_spec_free(&s);
}

/* ---- canonical round trip over awkward values -------------------------------------------- */

/* A spec whose every free-text field holds v (where the field allows it: metrics hold no ',' and
 * are not empty, a class and an override value are not empty). */
static void awkward_spec(ExpSpec *s, const char *v)
{
    memset(s, 0, sizeof *s);
    s->path = xstrdup("awkward.spec");
    snprintf(s->name, sizeof s->name, "awkward");
    bool any = *v != 0, metric_ok = any && !strchr(v, ',');
    s->config_path = xstrdup(v);
    char kv[256];
    snprintf(kv, sizeof kv, "mem.addr_map=%s", v);
    if (any)
        exp_strlist_push(&s->base_overrides, kv);
    s->workloads = xcalloc(1, sizeof *s->workloads);
    s->n_workloads = s->cap_workloads = 1;
    snprintf(s->workloads[0].name, sizeof s->workloads[0].name, "w");
    s->workloads[0].path = xstrdup(v);
    s->workloads[0].class_name = xstrdup(v);
    exp_strlist_push(&s->workloads[0].args, v);
    exp_strlist_push(&s->workloads[0].args, "--");
    exp_strlist_push(&s->workloads[0].args, v);
    s->variants = xcalloc(2, sizeof *s->variants);
    s->n_variants = s->cap_variants = 2;
    snprintf(s->variants[0].name, sizeof s->variants[0].name, "base");
    snprintf(s->variants[1].name, sizeof s->variants[1].name, "other");
    if (any)
        exp_strlist_push(&s->variants[1].overrides, kv);
    s->baseline = 1;
    s->figures = xcalloc(2, sizeof *s->figures);
    s->n_figures = s->cap_figures = 2;
    ExpFigure *f = &s->figures[0];
    snprintf(f->name, sizeof f->name, "bars");
    exp_strlist_push(&f->metrics, metric_ok ? v : "sim.ipc");
    f->norm = EXP_NORM_BASELINE;
    f->geomean = true;
    f->title = xstrdup(v);
    f->ylabel = xstrdup(v);
    if (metric_ok) { /* a label holds no ',' and is not empty, like a metric */
        exp_strlist_push(&f->labels, v);
        exp_strlist_push(&f->labels, v);
    }
    exp_strlist_push(&f->baselines, "base");
    f = &s->figures[1];
    snprintf(f->name, sizeof f->name, "stack");
    f->kind = EXP_FIG_STACKED;
    exp_strlist_push(&f->metrics, metric_ok ? v : "a");
    exp_strlist_push(&f->metrics, "b c");
    f->group_by_variant = true;
    exp_strlist_push(&f->variants, "other");
    exp_strlist_push(&f->baselines, "other");
    f->class_name = xstrdup(v);
}

/* Equal strings, or both NULL. */
static void expect_same_opt(const char *a, const char *b)
{
    EXPECT((a == NULL) == (b == NULL));
    if (a && b)
        EXPECT_STR(a, b);
}

static void expect_same_list(const ExpStrList *a, const ExpStrList *b)
{
    EXPECT_EQ_U(a->n, b->n);
    for (uint32_t i = 0; i < a->n && i < b->n; i++)
        EXPECT_STR(a->v[i], b->v[i]);
}

static void expect_same_spec(const ExpSpec *a, const ExpSpec *b)
{
    EXPECT_STR(a->name, b->name);
    expect_same_opt(a->config_path, b->config_path);
    expect_same_list(&a->base_overrides, &b->base_overrides);
    ASSERT(a->n_workloads == b->n_workloads && a->n_variants == b->n_variants && a->n_figures == b->n_figures);
    for (uint32_t i = 0; i < a->n_workloads; i++) {
        EXPECT_STR(a->workloads[i].name, b->workloads[i].name);
        EXPECT_STR(a->workloads[i].path, b->workloads[i].path);
        EXPECT_STR(a->workloads[i].class_name, b->workloads[i].class_name);
        expect_same_list(&a->workloads[i].args, &b->workloads[i].args);
    }
    for (uint32_t i = 0; i < a->n_variants; i++) {
        EXPECT_STR(a->variants[i].name, b->variants[i].name);
        expect_same_list(&a->variants[i].overrides, &b->variants[i].overrides);
    }
    EXPECT_EQ_U(a->baseline, b->baseline);
    for (uint32_t i = 0; i < a->n_figures; i++) {
        const ExpFigure *f = &a->figures[i], *g = &b->figures[i];
        EXPECT_STR(f->name, g->name);
        EXPECT(f->kind == g->kind && f->norm == g->norm && f->geomean == g->geomean &&
               f->group_by_variant == g->group_by_variant);
        expect_same_list(&f->metrics, &g->metrics);
        expect_same_list(&f->variants, &g->variants);
        expect_same_list(&f->labels, &g->labels);
        expect_same_list(&f->baselines, &g->baselines);
        expect_same_opt(f->class_name, g->class_name);
        expect_same_opt(f->title, g->title);
        expect_same_opt(f->ylabel, g->ylabel);
    }
}

static char *spec_text(const ExpSpec *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    exp_spec_write(f, s);
    fclose(f);
    return buf;
}

/* Write, read back, compare; and the second writing is the first, to the byte (but for the
 * opening comment, which names the file read). */
static void round_trip(const ExpSpec *s, const char *what)
{
    char *text = spec_text(s), err[512] = "";
    ExpSpec t;
    bool ok = exp_spec_parse(&t, text, "results/x/experiment", err, sizeof err);
    if (!ok || test_failures_in_current())
        printf("    round trip of %s:\n%s    -> %s\n", what, text, err);
    EXPECT(ok);
    if (ok) {
        expect_same_spec(s, &t);
        char *again = spec_text(&t);
        EXPECT_STR(strchr(again, '\n'), strchr(text, '\n'));
        free(again);
    }
    exp_spec_free(&t);
    free(text);
}

/* What `warpsim sweep` writes, `warpsim report` reads back exactly: blanks, quotes, '#', '\\',
 * carriage returns and tabs in names, metrics, classes, paths and arguments, and every byte
 * value but the newline that ends a line. */
TEST(exp_spec_canonical_round_trip_awkward_values)
{
    static const char *const values[] = {
        "a b", "\"", "a\"b", "\"\"", "\\", "a\\", "\\\"", "#", "a#b", "a\rb", "\r", "a\r", "a\tb", "\t",
        " lead", "trail ", "  ", "", "--", "class=x", "metric=y", "a=b", "x:", ":", "a,b", "'q'", "\x01\x7f",
        "\xc3\xa9t\xc3\xa9", "\"a b\" # c \\ d\r",
    };
    ExpSpec s;
    int failures = test_failures_in_current();
    for (size_t i = 0; i < sizeof values / sizeof values[0] && test_failures_in_current() == failures; i++) {
        awkward_spec(&s, values[i]);
        round_trip(&s, values[i]);
        exp_spec_free(&s);
    }
    char v[4] = "a?b";
    for (int c = 1; c < 256 && test_failures_in_current() == failures; c++) {
        if (c == '\n')
            continue;
        v[1] = (char)c;
        awkward_spec(&s, v);
        round_trip(&s, v);
        exp_spec_free(&s);
        char one[2] = {(char)c, 0};
        awkward_spec(&s, one);
        round_trip(&s, one);
        exp_spec_free(&s);
    }
}

/* The experiment's name comes from the spec file's name when no 'name' line gives it; one that
 * is not a valid name is made one, so that the canonical spec can say it. */
TEST(exp_spec_name_from_awkward_file_name)
{
    static const struct { const char *path, *name; } cases[] = {
        { "experiments/my exp.spec", "my_exp" },
        { "experiments/a__b", "a_b" },
        { "experiments/\"q\"#1", "_q_1" },
        { "experiments/.hidden", "experiment" },
        { "experiments/a\nb", "a_b" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ExpSpec s;
        char err[256] = "";
        ASSERT(exp_spec_parse(&s, "workload a a.syn\n", cases[i].path, err, sizeof err));
        EXPECT_STR(s.name, cases[i].name);
        round_trip(&s, cases[i].path);
        exp_spec_free(&s);
    }
}

/* What a figure draws: a subset of the variants in its own order, under labels, each normalised
 * to its own baseline, over one class of workloads; cdf figures and norm=total. */
TEST(exp_spec_figure_selection)
{
    const char *text = "workload a a.syn class=div\nworkload b b.syn class=coh\n"
                       "variant lru:\nvariant s0: l1d.assoc=4\nvariant s0s: l1d.assoc=2\nvariant dyn:\nvariant dyns:\n"
                       "baseline lru\n"
                       "figure stall: metric=sim.ipc variants=s0s,dyns baseline=s0,dyn labels=\"S0+Stall,Dyn+Stall\" "
                       "class=div\n"
                       "figure all: metric=sim.ipc baseline=dyn\n"
                       "figure mpli: kind=stacked metric=sm.l1d.mpli_divergent variants=lru norm=total\n"
                       "figure rank: kind=cdf metric=sm.sched.issue_rank variants=lru\n";
    ExpSpec s;
    char err[512] = "";
    bool ok = exp_spec_parse(&s, text, "sel.spec", err, sizeof err);
    EXPECT_STR(err, "");
    ASSERT(ok && s.n_figures == 4);
    const ExpFigure *f = &s.figures[0];
    ASSERT(f->variants.n == 2 && f->baselines.n == 2 && f->labels.n == 2);
    EXPECT_STR(f->variants.v[1], "dyns");
    EXPECT_STR(f->baselines.v[0], "s0");
    EXPECT_STR(f->labels.v[0], "S0+Stall");
    EXPECT_STR(f->class_name, "div");
    EXPECT(f->norm == EXP_NORM_BASELINE && f->geomean);
    f = &s.figures[1];
    EXPECT(f->variants.n == 0 && f->baselines.n == 1 && f->class_name == NULL);
    f = &s.figures[2];
    EXPECT(f->kind == EXP_FIG_STACKED && f->norm == EXP_NORM_TOTAL && !f->geomean);
    f = &s.figures[3];
    EXPECT(f->kind == EXP_FIG_CDF && f->norm == EXP_NORM_NONE && !f->geomean);
    round_trip(&s, "selection");
    exp_spec_free(&s);
}
