/* cmd_run.c: `warpsim run`: simulate one workload on one configuration and write its stats.
 *
 *   warpsim run [--preset NAME] [--config FILE] [--gpgpusim-config FILE] [-o key=value]...
 *               WORKLOAD [--json FILE] [--csv FILE] [--stats FILE] [--quiet]
 *
 * WORKLOAD is a synthetic stream description (.syn), or the name of a suite workload
 * (workloads/manifest), which runs its host program on the simulated GPU (cmd_exec.c). The text summary goes to stdout unless
 * --quiet; --json/--csv/--stats write result files that carry the version, workload name and
 * resolved config. Exit status: 0 done, 1 bad input, 3 deadlock, 4 cycle limit reached. */
#include "cli/cli.h"

#include "base/base.h"
#include "core/gpu.h"
#include "front/synth/synth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef void (*StatsWriter)(FILE *, const Stats *, const StatsRunInfo *);

static void write_result(const char *path, StatsWriter w, const Stats *st, const StatsRunInfo *info)
{
    if (!path)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        fatal("%s: cannot write: %s", path, strerror(errno));
    w(f, st, info);
    if (fclose(f) != 0)
        fatal("%s: cannot write: %s", path, strerror(errno));
}

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
    double t0 = wall_seconds();
    GpuRunStatus status = GPU_RUN_OK;
    for (uint32_t k = 0; k < synth_n_kernels(prog) && status == GPU_RUN_OK; k++) {
        SynthFront *f = synth_front_create(prog, k);
        status = gpu_run_kernel(g, &synth_front_ops, f, synth_kernel(prog, k), stderr);
        synth_front_destroy(f);
    }
    char name[256];
    workload_name(workload, name, sizeof name);
    StatsRunInfo info = {.workload = name, .config = &g->cfg, .wall_seconds = wall_seconds() - t0,
                         .core_mhz = cfg.gpu.core_mhz};
    if (!quiet)
        stats_write_text(stdout, &g->stats, &info);
    write_result(json, stats_write_json, &g->stats, &info);
    write_result(csv, stats_write_csv, &g->stats, &info);
    write_result(text, stats_write_text, &g->stats, &info);
    gpu_destroy(g);
    synth_free(prog);
    if (status == GPU_RUN_CYCLE_LIMIT)
        fprintf(stderr, "warpsim: stopped at gpu.max_cycles\n");
    return status == GPU_RUN_OK ? 0 : status == GPU_RUN_DEADLOCK ? 3 : 4;
}
