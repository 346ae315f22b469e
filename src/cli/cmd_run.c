/* cmd_run.c: `warpsim run`: simulate one workload on one configuration and write its stats.
 *
 *   warpsim run [--preset NAME] [--config FILE] [--gpgpusim-config FILE] [-o key=value]...
 *               WORKLOAD [--json FILE] [--csv FILE] [--stats FILE] [--quiet]
 *
 * WORKLOAD is a synthetic stream description (.syn), or the name of a suite workload
 * (workloads/manifest), which runs its host program on the simulated GPU (cmd_exec.c). The text summary goes to stdout unless
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
#include "stats/stats_result.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The workload's display name: its file name without folder and extension. */
static void workload_name(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    snprintf(out, len, "%s", base ? base + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

/* The workload argument: the first that is neither an option nor an option's value. */
static const char *find_workload(int argc, char **argv)
{
    static const char *const with_value[] = {"--preset", "--config", "--gpgpusim-config", "-o", "--json",
                                             "--csv", "--stats", "--size", "--name"};
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

int cli_run_main(int argc, char **argv)
{
    /* A name without a folder or extension is a suite workload, run through its host program. */
    const char *w = find_workload(argc, argv);
    if (w && !strchr(w, '/') && !strchr(w, '.'))
        return cli_run_workload(argc, argv, w);
    Config cfg;
    config_init(&cfg);
    const char *workload = NULL, *json = NULL, *csv = NULL, *text = NULL;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (cli_config_arg(&cfg, argc, argv, &i))
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--stats")) {
            if (i + 1 >= argc)
                fatal("%s: expected a file name after it", a);
            const char **dst = a[2] == 'j' ? &json : a[2] == 'c' ? &csv : &text;
            *dst = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-') {
            fatal("run: unknown option '%s' (see warpsim --help)", a);
        } else if (workload) {
            fatal("run: more than one workload ('%s' and '%s')", workload, a);
        } else {
            workload = a;
        }
    }
    if (!workload)
        fatal("run: expected a workload (a .syn stream description or a name from warpsim list)");
    cli_config_finish(&cfg);
    SynthProgram *prog = synth_load_file(workload);
    Gpu *g = gpu_create(&cfg);
    gpu_set_progress(g, !quiet);
    char name[256];
    workload_name(workload, name, sizeof name);
    StatsRunInfo info = {.workload = name, .config = &g->cfg, .core_mhz = cfg.gpu.core_mhz};
    StatsResult *res = stats_result_create(json, csv, text, &g->stats, &info);
    stats_guard_arm(res, false);
    double t0 = wall_seconds();
    GpuRunStatus status = GPU_RUN_OK;
    for (uint32_t k = 0; k < synth_n_kernels(prog) && status == GPU_RUN_OK; k++) {
        if (stats_guard_set_direct(res, true))
            break; /* a signal between kernels: stop here */
        SynthFront *f = synth_front_create(prog, k);
        status = gpu_run_kernel(g, &synth_front_ops, f, synth_kernel(prog, k), stderr);
        synth_front_destroy(f);
        stats_guard_set_direct(res, false);
        info.wall_seconds = wall_seconds() - t0;
        stats_result_update(res, &g->stats, &info);
    }
    int sig = stats_guard_signal();
    info.wall_seconds = wall_seconds() - t0;
    char stopped[64]; /* "stopped: " and the run limit that stopped it, as sim.c says it */
    if (status == GPU_RUN_CYCLE_LIMIT)
        snprintf(stopped, sizeof stopped, "%s%s", STATS_STATUS_STOPPED, gpu_stop_limit(g) + strlen("gpu."));
    info.status = sig ? STATS_STATUS_KILLED
                : status == GPU_RUN_DEADLOCK ? STATS_STATUS_DEADLOCK
                : status == GPU_RUN_CYCLE_LIMIT ? stopped : STATS_STATUS_COMPLETE;
    if (!quiet)
        stats_write_text(stdout, &g->stats, &info);
    bool written = stats_result_write(res, &g->stats, &info);
    /* The spin and stall limits' reasons were printed when they were met (gpu.c). */
    bool say_why = status == GPU_RUN_CYCLE_LIMIT && !strcmp(gpu_stop_limit(g), "gpu.max_cycles");
    if (say_why && !sig)
        fprintf(stderr, "warpsim: %s\n", gpu_stop_reason(g));
    int exit_status = written ? cli_exit_status(info.status) : 1;
    stats_result_free(res);
    gpu_destroy(g);
    synth_free(prog);
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
