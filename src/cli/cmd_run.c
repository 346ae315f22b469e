/* cmd_run.c: `warpsim run`: simulate one workload on one configuration and write its stats.
 *
 *   warpsim run [--preset NAME] [--config FILE] [--gpgpusim-config FILE] [-o key=value]...
 *               WORKLOAD [--json FILE] [--csv FILE] [--stats FILE] [--quiet]
 *
 * WORKLOAD is a synthetic stream description (.syn), an Accel-Sim trace (a folder holding
 * kernelslist.g, or that file: its copies and kernels in order, docs/traces.md), or the name
 * of a suite workload (workloads/manifest), which runs its host program on the simulated GPU
 * (cmd_exec.c). --trace-out DIR also writes the run's warp instructions as a trace. The text summary goes to stdout unless
 * --quiet; --json/--csv/--stats write result files that carry the version, workload name, status
 * and resolved config, each written atomically (a failed write leaves the previous file).
 * SIGTERM or SIGINT stops the run: between kernels here, after which the results say "killed"
 * and the process ends with the signal; inside a kernel the handler writes the kernels
 * completed so far (stats_result.c). Exit status: 0 complete, 1 bad input or a result file
 * not written, 3 deadlock, 4 stopped by a run limit (gpu.max_cycles, gpu.spin_insts,
 * gpu.stall_insts), 5 kernel fault (suite workloads), or the signal that killed the run. */
#include "cli/cli.h"

#include "base/base.h"
#include "core/gpu.h"
#include "front/synth/synth.h"
#include "front/trace/trace.h"
#include "stats/stats_result.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The workload's display name: its file name without folder and extension. */
static void workload_name(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    snprintf(out, len, "%s", base ? base + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

/* A trace's display name: its folder's name (the list file's folder when given the file). */
static void trace_name(const char *path, char *out, size_t len)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = 0;
    if (n >= 13 && !strcmp(buf + n - 13, "kernelslist.g")) {
        char *slash = strrchr(buf, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(buf, sizeof buf, ".");
    }
    const char *base = strrchr(buf, '/');
    snprintf(out, len, "%s", base ? base + 1 : buf);
}

/* The workload argument: the first that is neither an option nor an option's value. */
static const char *find_workload(int argc, char **argv)
{
    static const char *const with_value[] = {"--preset", "--config", "--gpgpusim-config", "-o", "-j", "--json",
                                             "--csv", "--stats", "--size", "--name", "--trace-out"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return NULL;
        bool takes = false;
        for (size_t k = 0; k < ARRAY_LEN(with_value); k++)
            takes |= !strcmp(argv[i], with_value[k]);
        if (takes)
            i++;
        else if (argv[i][0] != '-')
            return argv[i];
    }
    return NULL;
}

/* ---- the kernels of a synthetic stream ---- */

typedef struct SynthRun {
    SynthProgram *prog;
    uint32_t next;
    TraceWriter *w;
} SynthRun;

/* Run a front end's kernel, through the trace writer when there is one. */
static GpuRunStatus run_front(Gpu *g, const FrontOps *ops, void *self, const FrontKernel *k, TraceWriter *w)
{
    if (!w)
        return gpu_run_kernel(g, ops, self, k, stderr);
    TraceTee tee;
    trace_tee_init(&tee, ops, self, w);
    return gpu_run_kernel(g, &tee.ops, &tee, k, stderr);
}

static bool synth_step(void *ctx, Gpu *g, GpuRunStatus *status)
{
    SynthRun *r = ctx;
    if (r->next == synth_n_kernels(r->prog))
        return false;
    SynthFront *f = synth_front_create(r->prog, r->next);
    *status = run_front(g, &synth_front_ops, f, synth_kernel(r->prog, r->next), r->w);
    synth_front_destroy(f);
    r->next++;
    return true;
}

/* ---- the copies and kernels of a trace (kernelslist.g) ---- */

typedef struct TraceRun {
    TraceList list;
    uint32_t next;
    TraceWriter *w;
} TraceRun;

static bool trace_step(void *ctx, Gpu *g, GpuRunStatus *status)
{
    TraceRun *r = ctx;
    for (; r->next < r->list.n; r->next++) {
        const TraceCmd *c = &r->list.cmds[r->next];
        if (c->kind == TRACE_CMD_KERNEL)
            break;
        gpu_copy_touch(g, c->addr, c->bytes); /* both directions, as sim.c's copies */
        if (r->w)
            trace_writer_copy(r->w, c->kind == TRACE_CMD_HTOD, c->addr, c->bytes);
    }
    if (r->next == r->list.n)
        return false;
    char err[600];
    TraceKernel *k = trace_kernel_open(r->list.cmds[r->next++].path, err, sizeof err);
    if (!k)
        fatal("%s", err);
    *status = run_front(g, &trace_front_ops, k, trace_kernel_info(k), r->w);
    if (trace_kernel_error(k))
        fatal("%s", trace_kernel_error(k));
    trace_kernel_close(k);
    return true;
}

/* A trace: a folder holding kernelslist.g, or that file. */
static bool is_trace(const char *path)
{
    struct stat st;
    char list[4200];
    size_t n = strlen(path);
    snprintf(list, sizeof list, "%s/kernelslist.g", path);
    return (n >= 13 && !strcmp(path + n - 13, "kernelslist.g")) || (stat(list, &st) == 0 && S_ISREG(st.st_mode));
}

static int run_main(int argc, char **argv, bool trace);

int cli_run_main(int argc, char **argv) { return run_main(argc, argv, false); }
int cli_run_trace_main(int argc, char **argv) { return run_main(argc, argv, true); }

/* trace: the workload is a trace, whatever it looks like. */
static int run_main(int argc, char **argv, bool trace)
{
    /* A name without a folder or extension is a suite workload, run through its host program. */
    const char *w = find_workload(argc, argv);
    if (!trace && w && !strchr(w, '/') && !strchr(w, '.') && !is_trace(w))
        return cli_run_workload(argc, argv, w);
    Config cfg;
    config_init(&cfg);
    const char *workload = NULL, *trace_out = NULL;
    CliRunOutputs out = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_config_arg(&cfg, argc, argv, &i))
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--stats") || !strcmp(a, "--trace-out")) {
            if (i + 1 >= argc)
                fatal("%s: expected a %s name after it", a, a[2] == 't' && a[3] == 'r' ? "folder" : "file");
            const char **dst = a[2] == 'j' ? &out.json : a[2] == 'c' ? &out.csv : a[3] == 't' ? &out.text : &trace_out;
            *dst = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            out.quiet = true;
        } else if (a[0] == '-') {
            fatal("run: unknown option '%s' (see warpsim --help)", a);
        } else if (workload) {
            fatal("run: more than one workload ('%s' and '%s')", workload, a);
        } else {
            workload = a;
        }
    }
    if (!workload)
        fatal("%s: expected a workload (%s)", trace ? "trace run" : "run",
              trace ? "a folder holding kernelslist.g, or that file"
                    : "a .syn stream description, a trace folder or a name from warpsim list");
    cli_config_finish(&cfg);
    char err[600];
    TraceWriter *tw = NULL;
    if (trace_out && !(tw = trace_writer_create(trace_out, err, sizeof err)))
        fatal("--trace-out: %s", err);
    char name[256];
    int status;
    if (trace || is_trace(workload)) {
        TraceRun r = {.w = tw};
        if (!trace_list_load(workload, &r.list, err, sizeof err))
            fatal("%s", err);
        trace_name(workload, name, sizeof name);
        status = cli_run_kernels(&cfg, name, &out, trace_step, &r);
        trace_list_free(&r.list);
    } else {
        SynthRun r = {.prog = synth_load_file(workload), .w = tw};
        workload_name(workload, name, sizeof name);
        status = cli_run_kernels(&cfg, name, &out, synth_step, &r);
        synth_free(r.prog);
    }
    if (tw && !trace_writer_finish(tw, err, sizeof err)) {
        fprintf(stderr, "warpsim: --trace-out: %s\n", err);
        status = status ? status : 1;
    }
    return status;
}

int cli_run_kernels(const Config *cfg, const char *name, const CliRunOutputs *o, CliKernelStep step, void *ctx)
{
    Gpu *g = gpu_create(cfg);
    gpu_set_progress(g, !o->quiet);
    StatsRunInfo info = {.workload = name, .config = &g->cfg, .core_mhz = cfg->gpu.core_mhz};
    StatsResult *res = stats_result_create(o->json, o->csv, o->text, &g->stats, &info);
    stats_guard_arm(res, false);
    double t0 = wall_seconds();
    GpuRunStatus status = GPU_RUN_OK;
    while (status == GPU_RUN_OK) {
        if (stats_guard_set_direct(res, true))
            break; /* a signal between kernels: stop here */
        bool ran = step(ctx, g, &status);
        stats_guard_set_direct(res, false);
        if (!ran)
            break;
        info.wall_seconds = wall_seconds() - t0;
        info.peak_rss_mib = peak_rss_mib();
        stats_result_update(res, &g->stats, &info);
    }
    int sig = stats_guard_signal();
    info.wall_seconds = wall_seconds() - t0;
    info.peak_rss_mib = peak_rss_mib();
    char stopped[64]; /* "stopped: " and the run limit that stopped it, as sim.c says it */
    if (status == GPU_RUN_CYCLE_LIMIT)
        snprintf(stopped, sizeof stopped, "%s%s", STATS_STATUS_STOPPED, gpu_stop_limit(g) + strlen("gpu."));
    info.status = sig ? STATS_STATUS_KILLED
                : status == GPU_RUN_DEADLOCK ? STATS_STATUS_DEADLOCK
                : status == GPU_RUN_CYCLE_LIMIT ? stopped : STATS_STATUS_COMPLETE;
    if (!o->quiet)
        stats_write_text(stdout, &g->stats, &info);
    bool written = stats_result_write(res, &g->stats, &info);
    /* The spin and stall limits' reasons were printed when they were met (gpu.c). */
    bool say_why = status == GPU_RUN_CYCLE_LIMIT && !strcmp(gpu_stop_limit(g), "gpu.max_cycles");
    if (say_why && !sig)
        fprintf(stderr, "warpsim: %s\n", gpu_stop_reason(g));
    int exit_status = written ? cli_exit_status(info.status) : 1;
    stats_result_free(res);
    gpu_destroy(g);
    if (sig) {
        fflush(NULL);
        raise(sig); /* the default action again: end as the signal asked */
    }
    return exit_status;
}

int cli_exit_status(const char *status)
{
    if (!strcmp(status, STATS_STATUS_DEADLOCK))
        return 3;
    if (!strncmp(status, STATS_STATUS_STOPPED, strlen(STATS_STATUS_STOPPED)))
        return 4;
    if (!strncmp(status, STATS_STATUS_FAULT, strlen(STATS_STATUS_FAULT)))
        return 5;
    return strcmp(status, STATS_STATUS_COMPLETE) ? 1 : 0;
}
