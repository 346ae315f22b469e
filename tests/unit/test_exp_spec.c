/* test_exp_spec.c: the experiment spec parser: a full spec, suites, canonical round trip, and
 * malformed specs failing with file:line and what was expected. */
#include "../test.h"

#include "exp/spec.h"

#include <stdlib.h>

static const char *full_spec =
    "# L1D indexing on divergent kernels\n"
    "preset gtx480\n"
    "set gpu.max_cycles=5000   # keep runs short\n"
    "workload atax1 workloads/synthetic/atax1.syn class=divergent\n"
    "workload mvt \"workloads/my dir/mvt.syn\" class=divergent -- 512 \"a b\"\n"
    "workload hs workloads/synthetic/hs.syn\n"
    "variant conv: l1d.index=conv\n"
    "variant fup : l1d.index=fup l1d.n_sets=64\n"
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
    ASSERT(s->n_variants == 2);
    EXPECT_STR(s->variants[1].name, "fup");
    ASSERT(s->variants[1].overrides.n == 2);
    EXPECT_STR(s->variants[1].overrides.v[1], "l1d.n_sets=64");
    EXPECT_EQ_U(s->baseline, 1);
    ASSERT(s->n_figures == 3);
    EXPECT(s->figures[0].kind == EXP_FIG_BARS && s->figures[0].normalise && s->figures[0].geomean);
    EXPECT_STR(s->figures[0].title, "IPC vs. fup");
    EXPECT(s->figures[1].kind == EXP_FIG_STACKED && !s->figures[1].normalise && !s->figures[1].geomean);
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
    EXPECT(!s.figures[0].normalise && !s.figures[0].geomean);
    exp_spec_free(&s);
    const char *bad = "name s\nworkload a w.syn\nvariant x: l1d.assoc=4\nbaseline x\n"
                      "figure t: kind=series metric=sim.ipc geomean=yes\n";
    ExpSpec b;
    EXPECT(!exp_spec_parse(&b, bad, "s.spec", err, sizeof err));
    EXPECT_CONTAINS(err, "s.spec:5: figure 't': a series figure plots time");
    exp_spec_free(&b);
}
