/* cli.h: subcommands of the warpsim command line and their shared configuration options. */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stdbool.h>

#include "conf/config.h"
#include "core/gpu.h"

/* Consume one configuration argument at argv[*i] if it is one (--preset NAME, --config FILE,
 * --gpgpusim-config FILE, -o key=value), applying it to c in command-line order. Returns
 * false if argv[*i] is not a configuration argument. Errors exit 1 naming the argument
 * (config_apply_arg, conf/config_args.h, is the same without the exit). */
bool cli_config_arg(Config *c, int argc, char **argv, int *i);
/* After the arguments: validate (ranges across options, policy names). */
void cli_config_finish(Config *c);

int cli_run_main(int argc, char **argv);
int cli_trace_main(int argc, char **argv);
/* `warpsim trace run`: `warpsim run` with the workload taken as a trace. */
int cli_run_trace_main(int argc, char **argv);

/* Where a run's results go. */
typedef struct CliRunOutputs {
    const char *json, *csv, *text; /* NULL: not written */
    bool quiet;                    /* no progress, no text summary on stdout */
} CliRunOutputs;

/* Run the next kernel of a workload on g (copies first, if it has any) and set *status;
 * false when none is left. */
typedef bool (*CliKernelStep)(void *ctx, Gpu *g, GpuRunStatus *status);
/* Run a workload's kernels on a new timing model of cfg with step, writing its results: the
 * exit status of `warpsim run` (cli_exit_status, 1 when a result file was not written). */
int cli_run_kernels(const Config *cfg, const char *name, const CliRunOutputs *o, CliKernelStep step, void *ctx);
int cli_bench_main(int argc, char **argv);
int cli_exec_main(int argc, char **argv);
int cli_list_main(int argc, char **argv);
int cli_slices_main(int argc, char **argv);
/* `warpsim run NAME`: run a suite workload (workloads/manifest); argv as given to run. */
int cli_run_workload(int argc, char **argv, const char *name);
/* The exit status of a run that ended with this result status (stats.h): 0 complete,
 * 3 deadlock, 4 stopped by a run limit (gpu.max_cycles, gpu.spin_insts, gpu.stall_insts),
 * 5 kernel fault, 1 anything else. */
int cli_exit_status(const char *status);

#endif
