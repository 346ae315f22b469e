/* cmd_trace.c: `warpsim trace`: Accel-Sim traces (docs/traces.md).
 *
 *   warpsim trace run [CONFIG] DIR [--json F] [--csv F] [--stats F] [--quiet] [--trace-out D]
 *       run the trace in DIR (kernelslist.g and its kernel files) on the timing model, as
 *       `warpsim run DIR` does;
 *   warpsim trace check DIR
 *       read every kernel's every instruction without simulating: one line per kernel, or the
 *       first error "file:line: what is wrong" and exit status 1.
 * Writing a trace is an option of the runs: `warpsim run|exec ... --trace-out DIR`. */
#include "cli/cli.h"

#include "base/base.h"
#include "front/trace/trace.h"

#include <stdio.h>
#include <string.h>

static int trace_check(const char *dir)
{
    TraceList list;
    char err[600];
    if (!trace_list_load(dir, &list, err, sizeof err))
        fatal("%s", err);
    uint64_t total = 0;
    uint32_t kernels = 0, copies = 0;
    for (uint32_t i = 0; i < list.n; i++) {
        const TraceCmd *c = &list.cmds[i];
        if (c->kind != TRACE_CMD_KERNEL) {
            copies++;
            continue;
        }
        TraceKernel *k = trace_kernel_open(c->path, err, sizeof err);
        uint64_t n = 0;
        if (!k || !trace_kernel_check(k, &n, err, sizeof err))
            fatal("%s", err);
        const FrontKernel *fk = trace_kernel_info(k);
        printf("%s: %s grid (%u,%u,%u) block (%u,%u,%u) regs %u smem %u version %u: %llu warp instructions\n",
               c->path, fk->name, fk->grid[0], fk->grid[1], fk->grid[2], fk->block[0], fk->block[1], fk->block[2],
               fk->regs_per_thread, fk->smem_bytes_per_cta, trace_kernel_version(k), (unsigned long long)n);
        trace_kernel_close(k);
        total += n;
        kernels++;
    }
    printf("%u kernels, %u copies, %llu warp instructions\n", kernels, copies, (unsigned long long)total);
    trace_list_free(&list);
    return 0;
}

int cli_trace_main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "run"))
        return cli_run_trace_main(argc - 1, argv + 1);
    if (argc == 3 && !strcmp(argv[1], "check"))
        return trace_check(argv[2]);
    fatal("trace: expected 'trace run [CONFIG] DIR [--json F] ...' or 'trace check DIR' (see warpsim --help)");
}
