/* test_exp_report.c: report arithmetic (normalisation, geometric means per class) against
 * hand-computed values, and `warpsim report` end to end on hand-written results: the tables'
 * numbers, SVG figures that are well-formed XML with the expected number of bars (or heat-map
 * cells), the HTML page. */
#include "../test.h"

#include "base/base.h"
#include "exp/report.h"
#include "exp/store.h"
#include "exp/table.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(exp_report_geomean_and_normalise)
{
    double v[] = { 2, 0.5, NAN, 4, -1, 8 };
    uint32_t used = 0;
    EXPECT_NEAR(exp_geomean(v, 6, 1, &used), pow(2 * 0.5 * 4 * 8, 0.25), 1e-12);
    EXPECT_EQ_U(used, 4); /* NAN and the negative value cannot enter */
    EXPECT_NEAR(exp_geomean(v, 3, 2, &used), 2.0, 1e-12); /* stride 2: 2, NAN, -1 */
    EXPECT_EQ_U(used, 1);
    EXPECT(isnan(exp_geomean(v + 2, 1, 1, &used)));
    EXPECT_EQ_U(used, 0);

    ExpTable *t = exp_table_new("t", "w", 2, 3);
    double vals[] = { 2, 4, 1, 0, 5, 5 };
    memcpy(t->v, vals, sizeof vals);
    exp_table_normalise(t, 1);
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 0.5, 1e-15);
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 1.0, 1e-15);
    EXPECT_NEAR(*exp_table_at(t, 0, 2), 0.25, 1e-15);
    EXPECT_NEAR(*exp_table_at(t, 1, 0), 0.0, 1e-15);
    EXPECT_NEAR(*exp_table_at(t, 1, 2), 1.0, 1e-15);
    exp_table_free(t);

    t = exp_table_new("", "w", 1, 2);
    *exp_table_at(t, 0, 1) = 3;
    exp_table_normalise(t, 0); /* missing baseline: the whole row is missing, not infinite */
    EXPECT(isnan(*exp_table_at(t, 0, 1)));
    exp_table_free(t);
}

/* ---- fixtures: a results directory written by hand ---- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

static const char *spec_text =
    "name rep\n"
    "workload a a.syn class=div\n"
    "workload b b.syn class=div\n"
    "workload c c.syn class=reg\n"
    "variant base:\n"
    "variant x: l1d.index=fup\n"
    "baseline base\n"
    "figure ipc: metric=sim.ipc\n"
    "figure ipc_by_variant: metric=sim.ipc group=variant geomean=no\n"
    "figure brk: kind=stacked metrics=l1d.hit,l1d.miss\n"
    "figure lat: kind=stacked metric=mem.lat norm=none\n"
    "figure trend: kind=line metric=sim.ipc norm=none\n";

/* ipc, hits, misses, latency buckets per run: a/base, a/x, b/base, b/x, c/base, c/x. */
static const double ipc[6] = { 2, 4, 1, 0.5, 4, 12 };
static const int hits[6] = { 6, 3, 10, 10, 1, 1 }, misses[6] = { 2, 1, 10, 30, 1, 0 };

static const char *make_results(void)
{
    static char dir[512];
    char path[1024], json[1024];
    snprintf(dir, sizeof dir, "%s/rep", test_tmpdir());
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/runs", dir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/experiment", dir);
    write_file(path, spec_text);
    const char *w[] = { "a", "b", "c" }, *v[] = { "base", "x" };
    for (int i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s/runs/%s__%s.json", dir, w[i / 2], v[i % 2]);
        snprintf(json, sizeof json,
                 "{\"warpsim_version\": \"0.1.0\", \"workload\": \"%s\", \"wall_seconds\": 0.5,\n"
                 " \"config\": {\"l1d.index\": \"%s\", \"l1d.n_sets\": 32},\n \"kernels\": [],\n"
                 " \"total\": {\"sim.ipc\": %g, \"l1d.hit\": %d, \"l1d.miss\": %d,"
                 " \"mem.lat\": {\"short\": %d, \"long<&>\": %d}}}\n",
                 w[i / 2], i % 2 ? "fup" : "conv", ipc[i], hits[i], misses[i], i + 1, 2 * i);
        write_file(path, json);
    }
    return dir;
}

static JsonValue **load_all(const ExpSpec *s, const char *dir)
{
    JsonValue **res = calloc(6, sizeof *res);
    char err[256];
    for (uint32_t w = 0; w < 3; w++)
        for (uint32_t v = 0; v < 2; v++)
            res[w * 2 + v] = exp_result_load(dir, s, w, v, err, sizeof err);
    return res;
}

TEST(exp_report_tables_hand_computed)
{
    const char *dir = make_results();
    ExpSpec s;
    char err[256];
    ASSERT(exp_spec_parse(&s, spec_text, "experiment", err, sizeof err));
    JsonValue **res = load_all(&s, dir);
    ASSERT(res[5]);
    ExpTable *t = exp_report_metric_table(&s, res, "sim.ipc", true, true);
    ASSERT(t->n_rows == 6 && t->n_cols == 2);
    EXPECT_STR(t->row_labels[3], "gmean:div");
    EXPECT_STR(t->row_labels[4], "gmean:reg");
    EXPECT_STR(t->row_labels[5], "gmean");
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 2.0, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 0.5, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 2, 1), 3.0, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 3, 1), 1.0, 1e-12);             /* sqrt(2 * 0.5) */
    EXPECT_NEAR(*exp_table_at(t, 4, 1), 3.0, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 5, 1), cbrt(3.0), 1e-12);       /* cbrt(2 * 0.5 * 3) */
    EXPECT_NEAR(*exp_table_at(t, 5, 0), 1.0, 1e-12);
    exp_table_free(t);
    EXPECT_EQ_U(exp_report_n_gmean_rows(&s, true), 3);

    /* Raw values and a ratio of two stats. */
    t = exp_report_metric_table(&s, res, "l1d.miss/l1d.hit", false, true);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 3.0, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 2, 1), 0.0, 0); /* 0 misses: shown, but cannot enter the geomean */
    EXPECT_NEAR(*exp_table_at(t, 5, 1), sqrt((1.0 / 3) * 3.0), 1e-12);
    exp_table_free(t);

    /* Breakdown normalised to the baseline's total: a/x = 3/8 hits, 1/8 misses. */
    ExpTable *b = exp_report_stacked_table(&s, res, &s.figures[2]);
    ASSERT(b->n_rows == 6 && b->n_cols == 2);
    EXPECT_STR(b->row_labels[1], "a/x");
    EXPECT_NEAR(*exp_table_at(b, 1, 0), 3.0 / 8, 1e-12);
    EXPECT_NEAR(*exp_table_at(b, 1, 1), 1.0 / 8, 1e-12);
    EXPECT_NEAR(*exp_table_at(b, 3, 1), 30.0 / 20, 1e-12);
    exp_table_free(b);
    /* A histogram's buckets become the components. */
    b = exp_report_stacked_table(&s, res, &s.figures[3]);
    ASSERT(b->n_cols == 2);
    EXPECT_STR(b->col_labels[1], "long<&>");
    EXPECT_NEAR(*exp_table_at(b, 4, 0), 5, 0);
    EXPECT_NEAR(*exp_table_at(b, 4, 1), 8, 0);
    exp_table_free(b);
    for (int i = 0; i < 6; i++)
        json_free(res[i]);
    free(res);
    exp_spec_free(&s);
}

/* A tiny XML well-formedness check: one root, balanced tags, quoted attributes, known entities,
 * no stray '<' or '&'. Returns NULL if well-formed, else what is wrong. */
static const char *xml_check(const char *p)
{
    static char why[128];
    char stack[64][32];
    int depth = 0, roots = 0;
    if (!strncmp(p, "<?xml", 5)) {
        p = strstr(p, "?>");
        if (!p)
            return "unterminated XML declaration";
        p += 2;
    }
    while (*p) {
        if (*p == '&') {
            const char *ents[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
            size_t k = 0;
            while (k < 5 && strncmp(p, ents[k], strlen(ents[k])))
                k++;
            if (k == 5)
                return "bad entity";
            p += strlen(ents[k]);
            continue;
        }
        if (*p == '>')
            return "stray '>'";
        if (*p != '<') {
            if (!depth && !strchr(" \t\r\n", *p))
                return "text outside the root element";
            p++;
            continue;
        }
        p++;
        bool closing = *p == '/';
        p += closing;
        char name[32];
        size_t n = 0;
        while ((isalnum((unsigned char)*p) || *p == '-' || *p == ':' || *p == '_') && n < 31)
            name[n++] = *p++;
        name[n] = 0;
        if (!n)
            return "element without a name";
        if (closing) {
            if (*p++ != '>')
                return "bad closing tag";
            if (!depth || strcmp(stack[depth - 1], name)) {
                snprintf(why, sizeof why, "</%s> does not close the open element", name);
                return why;
            }
            depth--;
            continue;
        }
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == '\t')
                p++;
            if (*p == '>' || (*p == '/' && p[1] == '>'))
                break;
            if (!isalpha((unsigned char)*p))
                return "bad attribute name";
            while (isalnum((unsigned char)*p) || *p == '-' || *p == ':' || *p == '_')
                p++;
            if (*p++ != '=' || (*p != '"' && *p != '\''))
                return "attribute without a quoted value";
            char q = *p++;
            while (*p && *p != q) {
                if (*p == '<')
                    return "'<' in an attribute value";
                p++;
            }
            if (!*p++)
                return "unterminated attribute value";
        }
        if (!depth)
            roots++;
        if (*p == '/') {
            p += 2;
            continue;
        }
        p++;
        if (depth == 64)
            return "too deep";
        snprintf(stack[depth++], 32, "%s", name);
    }
    if (depth)
        return "unclosed element";
    return roots == 1 ? NULL : "not exactly one root element";
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

TEST(exp_report_xml_checker_catches_errors)
{
    EXPECT(xml_check("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><rect/></g><text>a &amp; b</text></svg>\n") == NULL);
    EXPECT(xml_check("<svg><g></svg>") != NULL);
    EXPECT(xml_check("<svg><text>a & b</text></svg>") != NULL);
    EXPECT(xml_check("<svg a=1></svg>") != NULL);
    EXPECT(xml_check("<svg/><svg/>") != NULL);
    EXPECT(xml_check("<svg><text>1 < 2</text></svg>") != NULL);
}

/* Call a subcommand entry point with the blank-separated words of args. */
static int call(int (*fn)(int, char **), const char *args)
{
    char buf[2048], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", args);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    fflush(stdout);
    return fn(argc, argv);
}

/* `warpsim report DIR`, its warnings about incomplete runs kept off the test output. */
static int report_quietly(const char *dir)
{
    char args[1024];
    snprintf(args, sizeof args, "report %s --no-png --quiet", dir);
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    int status = call(report_main, args);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null);
    return status;
}

static char *slurp(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/report/%s", dir, name);
    return read_file(path, NULL);
}

TEST(exp_report_end_to_end)
{
    const char *dir = make_results();
    char args[1024];
    snprintf(args, sizeof args, "report %s --stat l1d.miss --no-png --quiet", dir);
    EXPECT_EQ_I(call(report_main, args), 0);

    char *csv = slurp(dir, "ipc.csv");
    ASSERT(csv);
    EXPECT_CONTAINS(csv, "workload,base,x\na,1,2\nb,1,0.5\nc,1,3\ngmean:div,1,1\ngmean:reg,1,3\ngmean,1,1.44224957");
    free(csv);
    char *txt = slurp(dir, "stat-l1d.miss.txt");
    ASSERT(txt);
    EXPECT_CONTAINS(txt, "l1d.miss\nworkload ");
    EXPECT_CONTAINS(txt, "l1d.miss normalised to base\n");
    free(txt);
    csv = slurp(dir, "stat-l1d.miss.csv");
    EXPECT_CONTAINS(csv, "workload,base,x\na,2,1\nb,10,30\nc,1,0\n");
    EXPECT_CONTAINS(csv, "\nworkload,base,x\na,1,0.5\nb,1,3\nc,1,0\n"); /* the normalised table */
    free(csv);

    static const struct { const char *file, *cls; int n; } figs[] = {
        { "ipc.svg", "<rect class=\"bar\"", 12 },           /* (3 workloads + 3 gmeans) x 2 variants */
        { "ipc_by_variant.svg", "<rect class=\"bar\"", 6 }, /* 2 variant groups x 3 workloads */
        { "brk.svg", "<rect class=\"seg\"", 12 },           /* 3 x 2 bars x 2 segments */
        { "lat.svg", "<rect class=\"seg\"", 12 },
        { "trend.svg", "<polyline class=\"line\"", 6 },     /* 3 workloads + 3 gmean lines */
    };
    char cmd[1200], out[2048];
    bool have_xmllint = test_run_cmd("command -v xmllint", out, sizeof out) == 0;
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        char *svg = slurp(dir, figs[i].file);
        ASSERT(svg);
        const char *why = xml_check(svg);
        if (why)
            printf("  %s: %s\n", figs[i].file, why);
        EXPECT(why == NULL);
        EXPECT_EQ_I(count(svg, figs[i].cls), figs[i].n);
        if (have_xmllint) {
            snprintf(cmd, sizeof cmd, "xmllint --noout '%s/report/%s'", dir, figs[i].file);
            EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
        }
        free(svg);
    }
    char *svg = slurp(dir, "ipc.svg");
    EXPECT_CONTAINS(svg, ">gmean:div</text>");
    EXPECT_CONTAINS(svg, "class=\"ref\""); /* the line at 1 */
    free(svg);
    svg = slurp(dir, "lat.svg");
    EXPECT_CONTAINS(svg, ">long&lt;&amp;&gt;</text>"); /* labels are escaped */
    free(svg);

    char *html = slurp(dir, "index.html");
    ASSERT(html);
    EXPECT_CONTAINS(html, "<h1>Experiment rep</h1>");
    EXPECT_EQ_I(count(html, "<svg "), 5);
    EXPECT_CONTAINS(html, "l1d.index = conv\n");
    EXPECT_CONTAINS(html, "<td>gmean:reg</td><td>1</td><td>3</td>");
    free(html);

    /* A missing run is reported and left blank; the rest still renders. */
    char path[1024];
    snprintf(path, sizeof path, "%s/runs/c__x.json", dir);
    remove(path);
    snprintf(args, sizeof args, "report %s --no-png --quiet", dir);
    EXPECT_EQ_I(call(report_main, args), 0);
    csv = slurp(dir, "ipc.csv");
    EXPECT_CONTAINS(csv, "\nc,1,\ngmean:div,1,1\ngmean:reg,1,\ngmean,1,1\n");
    free(csv);
}

TEST(exp_report_bad_input)
{
    EXPECT_EQ_I(call(report_main, "report /nonexistent/results"), 1);
    EXPECT_EQ_I(call(report_main, "report"), 1);
    EXPECT_EQ_I(call(report_main, "report a b"), 1);
}

/* Replace the status of run `run` ("c__x") of the fixture. */
static void set_status(const char *dir, const char *run, const char *status)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/runs/%s.json", dir, run);
    char *text = read_file(path, NULL), *out = malloc(strlen(text) + 256);
    const char *rest = strstr(text, "\"wall_seconds\"");
    sprintf(out, "%.*s\"status\": \"%s\", %s", (int)(rest - text), text, status, rest);
    write_file(path, out);
    free(out);
    free(text);
}

TEST(exp_report_incomplete_runs_left_out_and_marked)
{
    const char *dir = make_results();
    set_status(dir, "b__base", "killed");
    set_status(dir, "c__x", "stopped: max_cycles");
    set_status(dir, "a__x", "complete");
    int status = report_quietly(dir);
    EXPECT_EQ_I(status, 0);
    /* Left out of the numbers: b's baseline and c/x are blank, the means go without them. */
    char *csv = slurp(dir, "ipc.csv");
    EXPECT_CONTAINS(csv, "workload,base,x\na,1,2\nb,,\nc,1,\ngmean:div,1,2\ngmean:reg,1,\ngmean,1,2\n");
    free(csv);
    char *txt = slurp(dir, "ipc.txt");
    EXPECT_CONTAINS(txt, "\nb          (killed)          -\n");
    EXPECT_CONTAINS(txt, "\nc                 1  (stopped)\n");
    EXPECT_CONTAINS(txt, "\nnot complete, left out: b/base (killed), c/x (stopped: max_cycles)\n");
    free(txt);
    txt = slurp(dir, "brk.txt"); /* stacked: every segment of the run */
    EXPECT_CONTAINS(txt, "\nb/base             (killed)   (killed)\nb/x");
    EXPECT_CONTAINS(txt, "\nc/x               (stopped)  (stopped)\n");
    free(txt);
    char *html = slurp(dir, "index.html");
    EXPECT_CONTAINS(html, "4 of 6 runs have complete results");
    EXPECT_CONTAINS(html, "Not complete, left out of the tables and figures: b/base (killed), c/x (stopped: "
                          "max_cycles).");
    EXPECT_CONTAINS(html, "<td>b</td><td>(killed)</td><td>-</td>");
    free(html);
}

TEST(exp_report_files_written_atomically)
{
    const char *dir = make_results();
    char args[1024], path[1024];
    snprintf(args, sizeof args, "report %s --no-png --quiet", dir);
    EXPECT_EQ_I(call(report_main, args), 0);
    char *before = slurp(dir, "index.html");
    ASSERT(before && strlen(before) > 4096);
    /* On a full disk (a 4 KiB limit on file sizes, in a child) the report fails and the files
     * it could not write are the previous ones, whole. */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { 4096, 4096 };
        setrlimit(RLIMIT_FSIZE, &rl);
        _exit(call(report_main, args));
    }
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char *after = slurp(dir, "index.html");
    EXPECT_STR(after, before);
    free(after);
    free(before);
    snprintf(path, sizeof path, "ls '%s/report' | grep -c '[.]tmp[.]'", dir);
    char out[256];
    test_run_cmd(path, out, sizeof out);
    EXPECT_STR(out, "0\n");
}

/* ---- figures that draw part of the experiment (variants=, labels=, baseline=, class=) ---- */

static const char *view_spec_text =
    "name views\n"
    "workload a a.syn class=div\n"
    "workload b b.syn class=div\n"
    "workload c c.syn class=coh\n"
    "variant lru:\n"
    "variant s0: l1d.assoc=4\n"
    "variant s0s: l1d.assoc=2\n"
    "variant dyn:\n"
    "variant dyns:\n"
    "baseline lru\n"
    "figure stall: metric=sim.ipc variants=s0s,dyns baseline=s0,dyn labels=S0+Stall,Dyn+Stall class=div\n"
    "figure all: metric=sim.ipc norm=none variants=dyn,lru\n"
    "figure mpli: kind=stacked metric=h variants=lru,dyn norm=total\n"
    "figure mpli-base: kind=stacked metric=h variants=dyn baseline=s0\n"
    "figure rank: kind=cdf metric=h variants=lru\n"
    "figure rank2: kind=cdf metric=h variants=lru,dyn class=coh\n"
    "figure fc: metric=h:0/h norm=none variants=lru,s0 geomean=no\n";

/* ipc and histogram h {"0","1","2"} per run, workload-major: a, b, c x lru, s0, s0s, dyn, dyns. */
static const double view_ipc[15] = { 1, 2, 3, 4, 2, /* a */ 1, 4, 2, 5, 10, /* b */ 1, 1, 1, 1, 1 /* c */ };
static const int view_h[15][3] = {
    { 2, 1, 1 }, { 1, 1, 2 }, { 0, 0, 4 }, { 3, 1, 0 }, { 4, 0, 0 },
    { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 2, 1 }, { 0, 0, 1 },
    { 1, 1, 2 }, { 2, 2, 0 }, { 0, 4, 0 }, { 0, 0, 8 }, { 1, 1, 1 },
};

static const char *make_view_results(void)
{
    static char dir[512];
    char path[1024], json[1024];
    snprintf(dir, sizeof dir, "%s/views", test_tmpdir());
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/runs", dir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/experiment", dir);
    write_file(path, view_spec_text);
    const char *w[] = { "a", "b", "c" }, *v[] = { "lru", "s0", "s0s", "dyn", "dyns" };
    for (int i = 0; i < 15; i++) {
        snprintf(path, sizeof path, "%s/runs/%s__%s.json", dir, w[i / 5], v[i % 5]);
        snprintf(json, sizeof json,
                 "{\"warpsim_version\": \"0.1.0\", \"workload\": \"%s\", \"status\": \"complete\", \"wall_seconds\": 1,\n"
                 " \"config\": {}, \"kernels\": [],\n"
                 " \"total\": {\"sim.ipc\": %g, \"h\": {\"0\": %d, \"1\": %d, \"2\": %d}}}\n",
                 w[i / 5], view_ipc[i], view_h[i][0], view_h[i][1], view_h[i][2]);
        write_file(path, json);
    }
    return dir;
}

TEST(exp_report_figure_views_hand_computed)
{
    const char *dir = make_view_results();
    ExpSpec s;
    char err[256] = "";
    bool ok = exp_spec_parse(&s, view_spec_text, "experiment", err, sizeof err);
    EXPECT_STR(err, "");
    ASSERT(ok);
    JsonValue *res[15];
    for (uint32_t i = 0; i < 15; i++)
        res[i] = exp_result_load(dir, &s, i / 5, i % 5, err, sizeof err);
    ASSERT(res[14]);

    /* Each drawn variant over its own baseline, divergent workloads only, one class: one gmean. */
    ExpTable *t = exp_report_figure_table(&s, res, &s.figures[0]);
    ASSERT(t->n_rows == 3 && t->n_cols == 2);
    EXPECT_STR(t->col_labels[0], "S0+Stall");
    EXPECT_STR(t->col_labels[1], "Dyn+Stall");
    EXPECT_STR(t->row_labels[1], "b");
    EXPECT_STR(t->row_labels[2], "gmean");
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 3.0 / 2, 1e-12);  /* a: s0s / s0 */
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 2.0 / 4, 1e-12);  /* a: dyns / dyn */
    EXPECT_NEAR(*exp_table_at(t, 1, 0), 2.0 / 4, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 10.0 / 5, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 2, 0), sqrt(1.5 * 0.5), 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 2, 1), 1.0, 1e-12);
    EXPECT_CONTAINS(t->title, "sim.ipc normalised per variant (S0+Stall / s0, Dyn+Stall / dyn)");
    exp_table_free(t);

    /* Raw values in the figure's order. */
    t = exp_report_figure_table(&s, res, &s.figures[1]);
    ASSERT(t->n_rows == 6 && t->n_cols == 2); /* 3 workloads, gmean:div, gmean:coh, gmean */
    EXPECT_STR(t->col_labels[0], "dyn");
    EXPECT_NEAR(*exp_table_at(t, 1, 0), 5, 0);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 1, 0);
    exp_table_free(t);

    /* A distribution: each bar over its own total; b/lru has none, so no bar. */
    t = exp_report_figure_table(&s, res, &s.figures[2]);
    ASSERT(t->n_rows == 6 && t->n_cols == 3);
    EXPECT_STR(t->row_labels[1], "a/dyn");
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 0.5, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 0, 2), 0.25, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 1, 0), 0.75, 1e-12);
    EXPECT(isnan(*exp_table_at(t, 2, 0)));
    EXPECT_NEAR(*exp_table_at(t, 3, 1), 0.5, 1e-12);
    exp_table_free(t);

    /* Stacked over a baseline that is not drawn: dyn's segments over s0's total. */
    t = exp_report_stacked_table(&s, res, &s.figures[3]);
    ASSERT(t->n_rows == 3);
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 3.0 / 4, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 2.0, 1e-12); /* b: 2 / 1 */
    EXPECT_NEAR(*exp_table_at(t, 2, 2), 8.0 / 4, 1e-12);
    exp_table_free(t);

    /* Cumulative fractions; a run whose histogram is empty has no line. */
    t = exp_report_figure_table(&s, res, &s.figures[4]);
    ASSERT(t->n_rows == 3 && t->n_cols == 3);
    EXPECT_STR(t->corner, "workload");
    EXPECT_STR(t->row_labels[0], "a");
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 0.5, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 0.75, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 0, 2), 1.0, 1e-12);
    EXPECT(isnan(*exp_table_at(t, 1, 2)));
    EXPECT_NEAR(*exp_table_at(t, 2, 1), 0.5, 1e-12);
    exp_table_free(t);
    t = exp_report_figure_table(&s, res, &s.figures[5]);
    ASSERT(t->n_rows == 2);
    EXPECT_STR(t->row_labels[1], "c/dyn");
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 0.0, 0);
    EXPECT_NEAR(*exp_table_at(t, 1, 2), 1.0, 1e-12);
    exp_table_free(t);

    /* A bucket over its histogram's sum: the fully cached share. */
    t = exp_report_figure_table(&s, res, &s.figures[6]);
    ASSERT(t->n_rows == 3);
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 0.5, 1e-12);
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 0.25, 1e-12);
    EXPECT(isnan(*exp_table_at(t, 1, 0))); /* 0 / 0 */
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 1.0, 1e-12);
    exp_table_free(t);
    for (int i = 0; i < 15; i++)
        json_free(res[i]);
    exp_spec_free(&s);
}

TEST(exp_report_figure_views_end_to_end)
{
    const char *dir = make_view_results();
    set_status(dir, "b__dyns", "killed");
    int status = report_quietly(dir);
    EXPECT_EQ_I(status, 0);
    char *csv = slurp(dir, "stall.csv");
    ASSERT(csv);
    EXPECT_CONTAINS(csv, "workload,S0+Stall,Dyn+Stall\na,1.5,0.5\nb,0.5,\ngmean,0.8660254038,0.5\n");
    free(csv);
    char *txt = slurp(dir, "stall.txt");
    EXPECT_CONTAINS(txt, "(killed)");
    free(txt);
    static const struct { const char *file, *cls; int n; } figs[] = {
        { "stall.svg", "<rect class=\"bar\"", 5 },     /* (2 workloads + gmean) x 2, b/dyns killed */
        { "all.svg", "<rect class=\"bar\"", 12 },      /* (3 + 3 gmeans) x 2 */
        { "mpli.svg", "<rect class=\"seg\"", 15 },     /* 6 bars x 3 segments, but b/lru: no loads */
        { "rank.svg", "<circle class=\"point\"", 6 },  /* a and c, 3 buckets each; b has no loads */
        { "rank2.svg", "<polyline class=\"line\"", 2 },
    };
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        char *svg = slurp(dir, figs[i].file);
        ASSERT(svg);
        const char *why = xml_check(svg);
        if (why)
            printf("  %s: %s\n", figs[i].file, why);
        EXPECT(why == NULL);
        int n = count(svg, figs[i].cls);
        if (n != figs[i].n)
            printf("  %s: %d x %s\n", figs[i].file, n, figs[i].cls);
        EXPECT_EQ_I(n, figs[i].n);
        free(svg);
    }
    char *svg = slurp(dir, "stall.svg");
    EXPECT_CONTAINS(svg, ">Dyn+Stall</text>");
    free(svg);
    svg = slurp(dir, "rank.svg");
    EXPECT_CONTAINS(svg, ">cumulative fraction</text>");
    free(svg);
}

/* ---- heat maps: a family of histograms FAMILY.ROW drawn as a matrix ---- */

static const char *heat_spec_text =
    "name heat\n"
    "workload a a.syn\n"
    "workload b b.syn\n"
    "variant g:\n"
    "variant c: l1d.index=fup\n"
    "figure mx: kind=heatmap metric=sm[0].m variants=c labels=C title=\"who replaced whom\"\n";

/* a/c has a 2 x 3 matrix (row w01 lacks bucket w02) and look-alikes that are not rows of it; a/g
 * has other numbers; b/c has no matrix. */
static const char *make_heat_results(void)
{
    static char dir[512];
    char path[1024];
    snprintf(dir, sizeof dir, "%s/heat", test_tmpdir());
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/runs", dir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/experiment", dir);
    write_file(path, heat_spec_text);
    static const char *const runs[4][2] = {
        { "a__c", "\"sm[0].m\": 7, \"sm[0].m.w00\": {\"w00\": 5, \"w01\": 0, \"w02\": 2000},"
                  " \"sm[0].mm.w00\": {\"w00\": 9}, \"sm[0].m.w01\": {\"w00\": 3, \"w01\": 1}" },
        { "a__g", "\"sm[0].m.w00\": {\"w00\": 1}" },
        { "b__c", "\"sim.ipc\": 1" },
        { "b__g", "\"sim.ipc\": 1" },
    };
    for (int i = 0; i < 4; i++) {
        char json[1024];
        snprintf(path, sizeof path, "%s/runs/%s.json", dir, runs[i][0]);
        snprintf(json, sizeof json, "{\"warpsim_version\": \"0.1.0\", \"workload\": \"x\", \"status\": \"complete\","
                 " \"wall_seconds\": 1, \"config\": {}, \"kernels\": [], \"total\": {%s}}\n", runs[i][1]);
        write_file(path, json);
    }
    return dir;
}

TEST(exp_report_heatmap_table_hand_computed)
{
    const char *dir = make_heat_results();
    ExpSpec s;
    char err[256];
    ASSERT(exp_spec_parse(&s, heat_spec_text, "experiment", err, sizeof err));
    JsonValue *res[4] = { 0 };
    for (uint32_t i = 0; i < 4; i++)
        res[i] = exp_result_load(dir, &s, i / 2, i % 2, err, sizeof err);
    ASSERT(res[1] && res[2]);
    const ExpFigure *fig = &s.figures[0];
    EXPECT(exp_report_figure_table(&s, res, fig) == NULL); /* one table per workload, not one */
    ExpTable *t = exp_report_heatmap_table(&s, res, fig, 0);
    ASSERT(t);
    EXPECT_STR(t->title, "who replaced whom: a/C");
    EXPECT_STR(t->corner, "sm[0].m");
    EXPECT_EQ_U(t->n_rows, 2); /* sm[0].m (a number) and sm[0].mm.w00 are not rows */
    EXPECT_EQ_U(t->n_cols, 3);
    EXPECT_STR(t->row_labels[0], "w00");
    EXPECT_STR(t->row_labels[1], "w01");
    EXPECT_STR(t->col_labels[2], "w02");
    EXPECT_NEAR(*exp_table_at(t, 0, 0), 5, 0);
    EXPECT_NEAR(*exp_table_at(t, 0, 1), 0, 0);
    EXPECT_NEAR(*exp_table_at(t, 0, 2), 2000, 0);
    EXPECT_NEAR(*exp_table_at(t, 1, 0), 3, 0);
    EXPECT_NEAR(*exp_table_at(t, 1, 1), 1, 0);
    EXPECT(isnan(*exp_table_at(t, 1, 2))); /* a bucket the row lacks is missing, not 0 */
    exp_table_free(t);
    EXPECT(exp_report_heatmap_table(&s, res, fig, 1) == NULL); /* b/c has no matrix */
    EXPECT(exp_report_heatmap_table(&s, res, fig, 2) == NULL); /* no such workload */
    for (uint32_t i = 0; i < 4; i++)
        json_free(res[i]);
    exp_spec_free(&s);
}

TEST(exp_report_heatmap_end_to_end)
{
    const char *dir = make_heat_results();
    EXPECT_EQ_I(report_quietly(dir), 0);
    char *csv = slurp(dir, "mx-a.csv");
    ASSERT(csv);
    EXPECT_CONTAINS(csv, "sm[0].m,w00,w01,w02\nw00,5,0,2000\nw01,3,1,\n");
    free(csv);
    char *txt = slurp(dir, "mx-a.txt");
    EXPECT_CONTAINS(txt, "who replaced whom: a/C\n");
    free(txt);
    char *svg = slurp(dir, "mx-a.svg");
    ASSERT(svg);
    EXPECT(xml_check(svg) == NULL);
    EXPECT_EQ_I(count(svg, "class=\"cell\""), 5); /* the missing bucket draws nothing */
    EXPECT_EQ_I(count(svg, "class=\"scale\""), 10);
    /* The largest count is the darkest shade, 0 is white, 5 of 2000 nearly white. */
    EXPECT_CONTAINS(svg, "fill=\"#08306b\"><title>w00 / w02: 2000</title>");
    EXPECT_CONTAINS(svg, "fill=\"#ffffff\"><title>w00 / w01: 0</title>");
    EXPECT_CONTAINS(svg, "fill=\"#fefeff\"><title>w00 / w00: 5</title>");
    free(svg);
    char *html = slurp(dir, "index.html");
    EXPECT_CONTAINS(html, "who replaced whom: a/C");
    free(html);
    char *none = slurp(dir, "mx-b.svg"); /* b has no matrix: no figure, no table */
    EXPECT(none == NULL);
    free(none);
}

/* A derived variant (`best`): per workload, the source run with the largest (smallest) metric;
 * figures normalise to it like any variant, and a missing source leaves it blank. */
TEST(exp_report_best_derived_variant)
{
    const char *dir = make_results();
    char path[1024], args[1024];
    snprintf(path, sizeof path, "%s/experiment", dir);
    write_file(path, "name rep\n"
                     "workload a a.syn class=div\n"
                     "workload b b.syn class=div\n"
                     "workload c c.syn class=reg\n"
                     "variant base:\n"
                     "variant x: l1d.index=fup\n"
                     "best hi: of=base,x max=sim.ipc\n"
                     "best lowmiss: of=x,base min=l1d.miss/l1d.hit\n"
                     "baseline base\n"
                     "figure ipc: metric=sim.ipc geomean=no\n"
                     "figure over-hi: metric=sim.ipc variants=base,x baseline=hi geomean=no\n");
    snprintf(args, sizeof args, "report %s --no-png --quiet", dir);
    EXPECT_EQ_I(call(report_main, args), 0);
    /* ipc a 2|4, b 1|0.5, c 4|12; miss/hit a 1/3|1/3 (a tie: x, named first), b 1|3, c 1|0 */
    char *csv = slurp(dir, "ipc.csv");
    EXPECT_CONTAINS(csv, "workload,base,x,hi,lowmiss\na,1,2,2,2\nb,1,0.5,1,1\nc,1,3,3,3\n");
    free(csv);
    csv = slurp(dir, "over-hi.csv");
    EXPECT_CONTAINS(csv, "workload,base,x\na,0.5,1\nb,1,0.5\nc,0.3333333333,1\n");
    free(csv);
    char *html = slurp(dir, "index.html");
    EXPECT_CONTAINS(html, "hi, the source run with the largest sim.ipc:\n  a: x (4)\n  b: base (1)\n  c: x (12)\n");
    EXPECT_CONTAINS(html, "lowmiss, the source run with the smallest l1d.miss/l1d.hit:\n  a: x (0.3333333333)\n");
    EXPECT_CONTAINS(html, "6 of 6 runs have complete results");
    free(html);

    snprintf(path, sizeof path, "%s/runs/b__x.json", dir);
    remove(path);
    EXPECT_EQ_I(call(report_main, args), 0);
    csv = slurp(dir, "ipc.csv");
    EXPECT_CONTAINS(csv, "\nb,1,,,\n");
    free(csv);
    html = slurp(dir, "index.html");
    EXPECT_CONTAINS(html, "  b: none (b/x has no complete result)\n");
    free(html);
}
