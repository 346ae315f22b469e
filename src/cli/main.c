/* main.c: the warpsim command line: dispatch to subcommands. */
#include "analysis/index_study.h"
#include "base/base.h"
#include "cli/cli.h"
#include "conf/config.h"
#include "exp/report.h"
#include "exp/sweep.h"
#include "policy/policy.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: warpsim COMMAND [ARGS]\n"
          "  run [CONFIG] WORKLOAD [--json F] [--csv F] [--stats F] [--quiet]\n"
          "                        simulate a synthetic stream (.syn file)\n"
          "  run [CONFIG] NAME [--size small|paper] [--functional] [--json F] ... [-- ARGS]\n"
          "                        simulate a suite workload (warpsim list)\n"
          "  run [CONFIG] TRACE_DIR ... [--trace-out DIR]\n"
          "                        simulate an Accel-Sim trace (kernelslist.g); --trace-out writes any\n"
          "                        run's warp instructions as one (docs/traces.md)\n"
          "  trace run [CONFIG] DIR ...  |  trace check DIR\n"
          "                        run a trace (as run DIR), or read all of it and report\n"
          "  exec [CONFIG] [--functional] [--json F] [--stats F] [--quiet] PROGRAM [ARGS...]\n"
          "                        run a CUDA program on the simulated GPU\n"
          "  list                  the workload suite (workloads/manifest)\n"
          "  bench [--gpgpusim-config F] [--only NAME] [-j N]\n"
          "                        simulation-speed benchmarks\n"
          "  index (--stride BYTES | --pattern NAME) [--sets N] [--line B] ...\n"
          "                        intra-warp concentration and balance of every set-index function\n"
          "  sweep SPEC [-j N] [--results DIR] [--emit slurm|parallel]\n"
          "                        run an experiment: every workload x variant, in parallel\n"
          "  report RESULTS_DIR    tables, SVG figures and an HTML page from a sweep's results\n"
          "  slices FILE.ptx [--kernel NAME]\n"
          "                        global accesses whose address can be pre-computed (locality-aware\n"
          "                        scheduling), their data arrays, and why not where not\n"
          "  --help-config         every configuration option\n"
          "  --list-policies       every policy and miss-path component, by kind, with its options\n"
          "  --version\n"
          "CONFIG: --preset NAME | --config FILE | --gpgpusim-config FILE | -o key=value, in order;\n"
          "        -j N: the SMs on N threads (gpu.threads), the same results\n",
          f);
}

typedef int (*Command)(int, char **);

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--version")) {
        printf("warpsim %s\n", WARPSIM_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--help-config")) {
        config_help(stdout);
        policy_help_options(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--list-policies")) {
        policy_list(stdout);
        return 0;
    }
    static const struct { const char *name; Command fn; } commands[] = {
        {"run", cli_run_main},
        {"exec", cli_exec_main},
        {"list", cli_list_main},
        {"bench", cli_bench_main},
        {"index", index_study_main},
        {"sweep", sweep_main},
        {"report", report_main},
        {"slices", cli_slices_main},
        {"trace", cli_trace_main},
    };
    for (size_t i = 0; i < ARRAY_LEN(commands); i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: unknown command '%s' (warpsim --help lists them)\n", cmd);
    return 1;
}
