/* sim.c: the embedding API (include/warpsim.h): one simulated GPU, its device memory and its
 * loaded modules, shared by the libcuda and libcudart replacements.
 *
 * A launch runs to completion before the call returns (the simulated GPU is synchronous, like
 * GPGPU-Sim's default), either on the timing model (gpu_run_kernel driving the PTX interpreter
 * through ptx_front_ops) or, with --functional, on the interpreter alone. Register counts for
 * occupancy come from ptxas's report when the module carries one (see ptxinfo.h) or the caller
 * sets them (from a cubin), else a documented guess (kernel_regs).
 *
 * This runs inside users' programs, so bad input never ends the process: the configuration
 * arguments go through the error-returning readers of conf/ (the command line wraps the same
 * ones to exit), and warpsim_create returns NULL with their message. Device memory is checked:
 * host copies must stay inside one allocation or variable, and a kernel's faults (illegal or
 * misaligned addresses, assert, trap) come back as their own statuses, counted in sim.faults
 * and noted in the name of the kernel's block of stats. gpu.max_host_mb bounds the host memory
 * the simulated memory's pages take. The timing model numbers a launch's CTAs in 32 bits, so it
 * refuses a larger (legal) grid, which --functional runs.
 *
 * A kernel that never finishes is stopped by a run limit, in both modes on by default:
 * gpu.spin_insts warp instructions since a CTA last completed or a thread last wrote global or
 * local memory, gpu.stall_insts since a CTA last completed (gpu.c, ptx_run_kernel). The launch
 * fails with WARPSIM_E_CYCLE_LIMIT and a message naming the limit and how to raise it, and the
 * run's status is "stopped: spin_insts" (or stall_insts, max_cycles). A kernel stopped on the
 * timing model (a deadlock, a run limit) leaves its CTAs on the GPU, so later launches on it are
 * refused, with the reason it was stopped.
 *
 * Results (stats_result.h): the status of the first kernel that did not complete (fault,
 * deadlock, a run limit) is the run's; the result files are brought up to date after every
 * kernel, so SIGTERM or SIGINT (when the program does not handle them itself) writes the
 * kernels completed so far with status "killed" and ends the program; warpsim_destroy writes
 * them atomically. Under `warpsim exec` the status also goes to the file descriptor
 * $WARPSIM_STATUS_FD ("ok STATUS" or "error STATUS" when a file could not be written), from
 * which the command makes its exit status.
 *
 * --trace-out DIR writes every launch's warp instructions, as the timing model executes them,
 * and the host-device copies as an Accel-Sim trace (front/trace/trace.h, docs/traces.md). */
#define _GNU_SOURCE /* dladdr */
#include "warpsim.h"

#include "base/base.h"
#include "conf/config_args.h"
#include "core/gpu.h"
#include "front/ptx/ptx.h"
#include "front/trace/trace.h"
#include "mem/addrdec.h"
#include "policy/policy.h"
#include "sim/ptxinfo.h"
#include "sim/sim_internal.h"
#include "sim/sim_texture.h"
#include "stats/stats_result.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIM_MAX_ARGS 256

WarpsimStatus sim_fail(WarpsimSim *s, WarpsimStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    fprintf(stderr, "warpsim: %s\n", s->err);
    return st;
}

/* Presets and other data files are found relative to this library when WARPSIM_HOME is unset. */
static void set_home_from_library(void)
{
    if (getenv("WARPSIM_HOME"))
        return;
    Dl_info info;
    if (!dladdr((void *)warpsim_create, &info) || !info.dli_fname)
        return;
    char dir[1024], probe[1100];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = 0;
    /* build/lib/libcuda.so.1 -> the repository two levels up; build/warpsim -> one level up */
    const char *ups[] = {"/../..", "/.."};
    for (int i = 0; i < 2; i++) {
        snprintf(probe, sizeof probe, "%s%s/configs/gtx480.cfg", dir, ups[i]);
        FILE *f = fopen(probe, "r");
        if (f) {
            fclose(f);
            snprintf(probe, sizeof probe, "%s%s", dir, ups[i]);
            setenv("WARPSIM_HOME", probe, 0);
            return;
        }
    }
}

static uint64_t *functional_counter(WarpsimSim *s, uint64_t *v, const char *name, const char *help)
{
    stats_counter(&s->fstats, v, "%s", help, name);
    return v;
}

/* The checks the command line makes after its arguments (cli_config_finish), and, for the
 * timing model, the address mapping's, which building it would otherwise make, exiting. */
static int check_config(WarpsimSim *s, char *err, size_t err_len)
{
    Config *c = &s->cfg;
    AddrDecoder dec;
    return config_check(c, err, err_len) && policy_check_config(c, err, err_len) &&
           (s->functional || addrdec_parse(&dec, c->mem.addr_map, c->mem.n_partitions, c->mem.subpartitions,
                                           c->dram.n_banks, err, err_len));
}

/* The arguments of warpsim.h into s; 0 with a message in err on the first bad one. */
static int apply_args(WarpsimSim *s, int argc, const char *const *argv, char *err, size_t err_len)
{
    /* With no machine named, the gtx480 preset comes first, so that -o overrides apply to it. */
    static const char *const default_machine[] = {"--preset", "gtx480"};
    bool have_config = false;
    for (int i = 0; i < argc; i++)
        have_config |= !strcmp(argv[i], "--preset") || !strcmp(argv[i], "--config") ||
                       !strcmp(argv[i], "--gpgpusim-config");
    int first = 0;
    if (!have_config && config_apply_arg(&s->cfg, 2, default_machine, &first, err, err_len) != CONFIG_ARG_APPLIED)
        return 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool needs_value = !strcmp(a, "--name") || !strcmp(a, "--json") || !strcmp(a, "--csv") ||
                           !strcmp(a, "--stats") || !strcmp(a, "--trace-out");
        ConfigArgResult r = config_apply_arg(&s->cfg, argc, argv, &i, err, err_len);
        if (r == CONFIG_ARG_ERROR)
            return 0;
        if (r == CONFIG_ARG_APPLIED)
            continue;
        if (!strcmp(a, "--functional")) {
            s->functional = true;
        } else if (!strcmp(a, "--quiet")) {
            s->quiet = true;
        } else if (needs_value && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[2] == 'n')
                snprintf(s->name, sizeof s->name, "%s", v);
            else if (a[2] == 't' && a[3] == 'r')
                s->trace_out = xstrdup(v);
            else
                *(a[2] == 'j' ? &s->json : a[2] == 'c' ? &s->csv : &s->text) = xstrdup(v);
        } else {
            snprintf(err, err_len, "%s: %s", a,
                     needs_value ? "expected a value after it" : "unknown option (see warpsim --help)");
            return 0;
        }
    }
    if (s->functional && s->trace_out) {
        snprintf(err, err_len, "--trace-out records the timing model's warp instructions: it cannot be combined "
                 "with --functional");
        return 0;
    }
    return check_config(s, err, err_len);
}

static const Stats *info_stats(const WarpsimSim *s)
{
    return s->gpu ? &s->gpu->stats : &s->fstats;
}

static StatsRunInfo run_info(const WarpsimSim *s)
{
    return (StatsRunInfo){.workload = s->name, .config = &s->cfg, .wall_seconds = wall_seconds() - s->t0,
                          .peak_rss_mib = peak_rss_mib(),
                          .core_mhz = s->cfg.gpu.core_mhz, .status = s->status[0] ? s->status : NULL};
}

WarpsimSim *warpsim_create(int argc, const char *const *argv, char *err, size_t err_len)
{
    set_home_from_library();
    WarpsimSim *s = xcalloc(1, sizeof *s);
    config_init(&s->cfg);
    snprintf(s->name, sizeof s->name, "program");
    if (!apply_args(s, argc, argv, err, err_len) ||
        (s->trace_out && !(s->trace = trace_writer_create(s->trace_out, err, err_len)))) {
        free(s->json);
        free(s->csv);
        free(s->text);
        free(s->trace_out);
        free(s);
        return NULL;
    }
    s->mem = ptx_memory_create();
    ptx_memory_set_limit(s->mem, s->cfg.gpu.max_host_mb << 20);
    s->cdp = ptx_cdp_create(s->mem, 2048, 8u << 20); /* CUDA's default limits */
    if (s->functional) {
        stats_init(&s->fstats);
        functional_counter(s, &s->f_warp_insts, "sim.warp_insts", "warp instructions executed");
        functional_counter(s, &s->f_thread_insts, "sim.thread_insts", "thread instructions executed");
        functional_counter(s, &s->f_ctas, "sim.ctas", "CTAs run");
        functional_counter(s, &s->f_kernels, "sim.kernels", "kernels run");
    } else {
        s->gpu = gpu_create(&s->cfg);
        gpu_set_progress(s->gpu, !s->quiet);
    }
    stats_counter(s->gpu ? &s->gpu->stats : &s->fstats, &s->faults, "sim.faults",
                  "kernels stopped by a fault: an illegal or misaligned address, a failed assert, trap");
    s->t0 = wall_seconds();
    StatsRunInfo info = run_info(s);
    s->result = stats_result_create(s->json, s->csv, s->text, info_stats(s), &info);
    stats_guard_arm(s->result, true);
    return s;
}

WarpsimSim *warpsim_create_from_env(char *err, size_t err_len)
{
    const char *env = getenv("WARPSIM_ARGS");
    char *copy = xstrdup(env ? env : "");
    const char *argv[SIM_MAX_ARGS];
    int argc = 0;
    for (char *tok = strtok(copy, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        if (argc == SIM_MAX_ARGS) {
            snprintf(err, err_len, "WARPSIM_ARGS: more than %d arguments", SIM_MAX_ARGS);
            free(copy);
            return NULL;
        }
        argv[argc++] = tok;
    }
    WarpsimSim *s = warpsim_create(argc, argv, err, err_len);
    free(copy);
    return s;
}

/* "ok STATUS" or "error STATUS" to $WARPSIM_STATUS_FD, for `warpsim exec` (cmd_exec.c), and a
 * line "returned" when the program was given a fault's error (warpsim_fault_returned). */
static void report_status(const char *status, bool written, bool returned)
{
    const char *env = getenv("WARPSIM_STATUS_FD");
    uint64_t fd;
    if (!env || !parse_u64(env, &fd) || fd > 1024)
        return;
    char line[1200];
    int n = snprintf(line, sizeof line, "%s %s\n%s", written ? "ok" : "error", status, returned ? "returned\n" : "");
    if (write((int)fd, line, (size_t)MIN(n, (int)sizeof line - 1)) < 0)
        fprintf(stderr, "warpsim: WARPSIM_STATUS_FD=%s: %s\n", env, strerror(errno));
}

void warpsim_destroy(WarpsimSim *s)
{
    if (!s)
        return;
    const Stats *st = info_stats(s);
    StatsRunInfo info = run_info(s);
    if (!s->quiet)
        stats_write_text(stderr, st, &info);
    bool written = stats_result_write(s->result, st, &info);
    char err[600];
    if (s->trace && !trace_writer_finish(s->trace, err, sizeof err)) {
        fprintf(stderr, "warpsim: --trace-out: %s\n", err);
        written = false;
    }
    stats_result_free(s->result);
    report_status(info.status ? info.status : STATS_STATUS_COMPLETE, written, s->fault_returned);
    while (s->modules) {
        WarpsimModule *m = s->modules;
        s->modules = m->next;
        ptx_module_free(m->ptx);
        ptxinfo_free(&m->info);
        free(m);
    }
    if (s->gpu)
        gpu_destroy(s->gpu);
    else
        stats_free(&s->fstats);
    ptx_cdp_destroy(s->cdp);
    ptx_memory_destroy(s->mem);
    free(s->json);
    free(s->csv);
    free(s->text);
    free(s->trace_out);
    free(s);
}

const char *warpsim_error(const WarpsimSim *s)
{
    return s->err;
}

const char *warpsim_results_file(const WarpsimSim *s)
{
    return s->json ? s->json : s->csv ? s->csv : s->text;
}

void warpsim_device_info(const WarpsimSim *s, WarpsimDeviceInfo *out)
{
    const Config *c = &s->cfg;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "warpsim");
    out->n_sms = c->gpu.n_clusters * c->gpu.cores_per_cluster;
    out->core_mhz = (uint32_t)c->gpu.core_mhz;
    out->mem_mhz = (uint32_t)c->gpu.dram_mhz;
    out->bus_bits = c->mem.n_partitions * c->dram.bus_bytes * 8;
    out->max_threads_per_sm = c->sm.max_threads;
    out->max_threads_per_cta = c->sm.max_threads < 1024 ? c->sm.max_threads : 1024;
    out->max_ctas_per_sm = c->sm.max_ctas;
    out->regs_per_sm = c->sm.n_regs;
    out->smem_per_sm = c->sm.smem_bytes;
    out->l2_bytes = c->l2.n_sets * c->l2.assoc * c->l2.line_bytes * c->mem.n_partitions * c->mem.subpartitions;
    out->global_bytes = 4ull << 30;
    char cc[16];
    config_format_option(&c->gpu, config_find("gpu.compute_capability", NULL), cc, sizeof cc);
    CHECK(sscanf(cc, "%u.%u", &out->cc_major, &out->cc_minor) == 2); /* the option's choices are M.m */
}

WarpsimStatus warpsim_module_load(WarpsimSim *s, const char *ptx_text, const char *name, WarpsimModule **out)
{
    *out = NULL;
    if (!ptx_text)
        return sim_fail(s, WARPSIM_E_INPUT, "module %s: no PTX text", name ? name : "?");
    char err[1024];
    char *with_builtins = ptx_builtins_define(ptx_text); /* printf and assert */
    PtxModule *pm = ptx_module_parse(with_builtins ? with_builtins : ptx_text, name ? name : "module.ptx", err,
                                     sizeof err);
    free(with_builtins);
    if (!pm)
        return sim_fail(s, WARPSIM_E_PTX, "%s", err);
    uint32_t wmma_line = ptx_module_wmma_line(pm);
    if (wmma_line && s->cfg.sm.n_tensor_units == 0) {
        ptx_module_free(pm);
        return sim_fail(s, WARPSIM_E_PTX, "%s:%u: wmma needs tensor cores, which the configured machine does not have "
                    "(sm.n_tensor_units = 0; the qv100 preset has them)", name ? name : "module.ptx", wmma_line);
    }
    WarpsimModule *m = xcalloc(1, sizeof *m);
    m->ptx = pm;
    ptxinfo_scan(&m->info, ptx_text);
    m->next = s->modules;
    s->modules = m;
    *out = m;
    return WARPSIM_OK;
}

char *warpsim_ptx_link(WarpsimSim *s, const char *const *texts, uint32_t n)
{
    char err[512];
    char *out = ptx_link(texts, n, err, sizeof err);
    if (!out)
        sim_fail(s, WARPSIM_E_PTX, "%s", err);
    return out;
}

int warpsim_ptx_is_device_runtime(const char *ptx_text)
{
    return ptx_defines_builtins(ptx_text);
}

void warpsim_module_unload(WarpsimSim *s, WarpsimModule *m)
{
    for (WarpsimModule **p = &s->modules; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            ptx_memory_unbind(s->mem, m->ptx);
            ptx_module_free(m->ptx);
            ptxinfo_free(&m->info);
            free(m);
            return;
        }
}

void warpsim_kernel_set_regs(WarpsimModule *m, const char *kernel, uint32_t regs)
{
    ptxinfo_set(&m->info, kernel, regs);
}

void warpsim_module_add_ptxinfo(WarpsimModule *m, const char *ptxas_report)
{
    ptxinfo_scan(&m->info, ptxas_report);
}

/* Without ptxas's report: the registers the PTX declares, at most 32. nvcc declares one virtual
 * register per value (often hundreds), which ptxas folds into a few dozen; 32 is a typical
 * allocation of the suite's kernels (docs/cuda.md). */
#define SIM_REGS_GUESS_MAX 32

static uint32_t kernel_regs(const WarpsimModule *m, const PtxKernelInfo *ki)
{
    uint32_t regs;
    if (ptxinfo_regs(&m->info, ki->name, &regs))
        return regs;
    return ki->regs_estimate < SIM_REGS_GUESS_MAX ? ki->regs_estimate : SIM_REGS_GUESS_MAX;
}

WarpsimStatus warpsim_kernel_info(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                  WarpsimKernelInfo *out)
{
    const PtxKernelInfo *ki = ptx_module_kernel(m->ptx, kernel);
    if (!ki)
        return sim_fail(s, WARPSIM_E_NOT_FOUND, "no kernel '%s' in the module", kernel);
    out->name = ki->name;
    out->n_params = ki->n_params;
    out->param_offset = ki->param_offset;
    out->param_size = ki->param_size;
    out->param_bytes = ki->param_bytes;
    out->regs_per_thread = kernel_regs(m, ki);
    out->smem_static_bytes = ki->smem_static_bytes;
    out->local_bytes = ki->local_bytes;
    return WARPSIM_OK;
}

WarpsimStatus warpsim_kernel_occupancy(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                       uint32_t block_threads, uint32_t dynamic_smem, uint32_t *ctas_per_sm)
{
    const PtxKernelInfo *ki = ptx_module_kernel(m->ptx, kernel);
    if (!ki)
        return sim_fail(s, WARPSIM_E_NOT_FOUND, "no kernel '%s' in the module", kernel);
    if (block_threads == 0)
        return sim_fail(s, WARPSIM_E_INPUT, "kernel %s: a block of 0 threads", kernel);
    FrontKernel k = {.grid = {1, 1, 1}, .block = {block_threads, 1, 1}, .regs_per_thread = kernel_regs(m, ki)};
    uint64_t smem = (uint64_t)ki->smem_static_bytes + dynamic_smem;
    k.smem_bytes_per_cta = (uint32_t)MIN(smem, (uint64_t)UINT32_MAX);
    *ctas_per_sm = block_threads > s->cfg.sm.max_threads ? 0 : sm_ctas_per_empty_sm(&s->cfg.sm, &k);
    return WARPSIM_OK;
}

/* The module's variables placed in the simulated memory (on its first use): initialisers that do
 * not fit gpu.max_host_mb fail the call that needed them, and the next use tries again. */
static WarpsimStatus place_module(WarpsimSim *s, const WarpsimModule *m, const char *what, const char *name)
{
    if (ptx_memory_place(s->mem, m->ptx))
        return WARPSIM_OK;
    return sim_fail(s, WARPSIM_E_MEMORY, "%s %s: the module's initialised variables would take the simulated device "
                "memory past gpu.max_host_mb = %llu MiB of host memory", what, name,
                (unsigned long long)s->cfg.gpu.max_host_mb);
}

WarpsimStatus warpsim_symbol(WarpsimSim *s, const WarpsimModule *m, const char *name, uint64_t *addr,
                             uint64_t *size)
{
    if (place_module(s, m, "variable", name) != WARPSIM_OK)
        return WARPSIM_E_MEMORY;
    uint64_t sz = 0;
    uint64_t a = ptx_memory_symbol(s->mem, m->ptx, name, &sz);
    if (!a)
        return sim_fail(s, WARPSIM_E_NOT_FOUND, "no .global or .const variable '%s' in the module", name);
    *addr = a;
    if (size)
        *size = sz;
    return WARPSIM_OK;
}

/* The launch must fit one SM, or the timing model could never place a CTA. */
static WarpsimStatus check_launch(WarpsimSim *s, const char *kernel, const uint32_t grid[3],
                                  const uint32_t block[3], uint32_t smem, uint32_t regs)
{
    const SmConfig *c = &s->cfg.sm;
    for (int d = 0; d < 3; d++) {
        if (grid[d] == 0 || block[d] == 0)
            return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: grid %ux%ux%u, block %ux%ux%u: every dimension "
                        "must be at least 1", kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
    }
    if (grid[1] > 65535 || grid[2] > 65535 || grid[0] > 0x7fffffffu)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: grid %ux%ux%u exceeds 2147483647x65535x65535",
                    kernel, grid[0], grid[1], grid[2]);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    uint32_t max_threads = c->max_threads < 1024 ? c->max_threads : 1024;
    if (threads > max_threads)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: block %ux%ux%u has %llu threads, more than %u "
                    "(sm.max_threads, at most 1024)", kernel, block[0], block[1], block[2],
                    (unsigned long long)threads, max_threads);
    if (block[2] > 64)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: block z dimension %u exceeds 64", kernel, block[2]);
    uint64_t warps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    if (warps > c->max_warps)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: %llu warps per CTA, more than sm.max_warps = %u",
                    kernel, (unsigned long long)warps, c->max_warps);
    if (smem > c->smem_bytes)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: %u bytes of shared memory per CTA, more than "
                    "sm.smem_bytes = %u", kernel, smem, c->smem_bytes);
    uint64_t unit = c->reg_alloc_unit;
    uint64_t per_warp = ((uint64_t)regs * WARP_SIZE + unit - 1) / unit * unit;
    if (per_warp * warps > c->n_regs)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: %u registers per thread x %llu threads need more "
                    "than sm.n_regs = %u", kernel, regs, (unsigned long long)threads, c->n_regs);
    return WARPSIM_OK;
}

/* A launch the interpreter stopped at a fault: say why, with what the CUDA libraries need to
 * tell faults apart, and note the kind and the PTX line in the name of the kernel's block of
 * stats (the last one), so that the result files record it too. */
static WarpsimStatus kernel_fault(WarpsimSim *s, Stats *st, PtxFault kind, const char *msg)
{
    static const struct {
        WarpsimStatus status;
        const char *what;
    } kinds[] = {
        [PTX_FAULT_NONE] = {WARPSIM_E_FAULT, "fault"},
        [PTX_FAULT_FAILURE] = {WARPSIM_E_FAULT, "launch failure"},
        [PTX_FAULT_ILLEGAL_ADDRESS] = {WARPSIM_E_ILLEGAL_ADDRESS, "illegal address"},
        [PTX_FAULT_MISALIGNED] = {WARPSIM_E_MISALIGNED, "misaligned address"},
        [PTX_FAULT_ASSERT] = {WARPSIM_E_ASSERT, "assert"},
        [PTX_FAULT_HOST_MEMORY] = {WARPSIM_E_MEMORY, "host memory"},
        [PTX_FAULT_INST_LIMIT] = {WARPSIM_E_FAULT, "instruction limit"},
    };
    if (st->n_kernels > 0) {
        KernelStats *ks = &st->kernels[st->n_kernels - 1];
        const char *colon = strchr(msg, ':'), *line_end = colon ? strchr(colon + 1, ':') : NULL;
        char name[sizeof ks->name];
        snprintf(name, sizeof name, "%s [fault: %s at %.*s]", ks->name, kinds[kind].what,
                 line_end ? (int)(line_end - msg) : 0, msg);
        memcpy(ks->name, name, sizeof name);
    }
    if (kind == PTX_FAULT_HOST_MEMORY)
        return sim_fail(s, WARPSIM_E_MEMORY, "%s (gpu.max_host_mb)", msg);
    return sim_fail(s, kinds[kind].status, "%s", msg);
}

void warpsim_fault_returned(WarpsimSim *s)
{
    if (s)
        s->fault_returned = true;
}

/* A run limit (gpu.KEY) stopped the kernel: the run's status, unless an earlier kernel gave it
 * one ("stopped: max_cycles" is STATS_STATUS_MAX_CYCLES). */
static void limit_status(WarpsimSim *s, const char *key)
{
    if (!s->status[0])
        snprintf(s->status, sizeof s->status, "stopped: %s", key + strlen("gpu."));
}

/* After a kernel: the first that did not complete gives the run its status; the result files
 * (what a signal writes) take in the kernel. */
static WarpsimStatus kernel_done(WarpsimSim *s, WarpsimStatus st)
{
    if (!s->status[0] && (st == WARPSIM_E_FAULT || st >= WARPSIM_E_ILLEGAL_ADDRESS))
        snprintf(s->status, sizeof s->status, "%s%s", STATS_STATUS_FAULT, s->err);
    else if (!s->status[0] && (st == WARPSIM_E_DEADLOCK || st == WARPSIM_E_CYCLE_LIMIT))
        snprintf(s->status, sizeof s->status, "%s",
                 st == WARPSIM_E_DEADLOCK ? STATS_STATUS_DEADLOCK : STATS_STATUS_MAX_CYCLES);
    StatsRunInfo info = run_info(s);
    stats_result_update(s->result, info_stats(s), &info);
    return st;
}

/* The name of a launch's block of stats: the kernel's, and for a device-side launch its depth
 * and the kernel that launched it. */
static void launch_label(const WarpsimSim *s, const char *kernel, char *out, size_t len)
{
    if (s->cdp_depth)
        snprintf(out, len, "%s [device launch, depth %u, by %s]", kernel, s->cdp_depth, s->cdp_parent);
    else
        snprintf(out, len, "%s", kernel);
}

/* A launch; grid_ws: a cooperative launch's grid workspace (0: not cooperative). Then the
 * launches and copies its threads queued (sim_cdp.c). */
WarpsimStatus sim_launch(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                         const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params, size_t params_len,
                         uint64_t grid_ws)
{
    const PtxKernelInfo *ki = ptx_module_kernel(m->ptx, kernel);
    if (!ki)
        return sim_fail(s, WARPSIM_E_NOT_FOUND, "launch: no kernel '%s' in the module", kernel);
    if (params_len != ki->param_bytes)
        return sim_fail(s, WARPSIM_E_INPUT, "launch of %s: %zu bytes of parameters, the kernel takes %u",
                    kernel, params_len, ki->param_bytes);
    if (s->gpu_stopped != WARPSIM_OK)
        return sim_fail(s, s->gpu_stopped, "launch of %s: the timing model was stopped by an earlier launch (%s), whose "
                    "CTAs it still holds; create a new simulator to run more", kernel, gpu_stop_reason(s->gpu));
    uint32_t regs = kernel_regs(m, ki);
    WarpsimStatus st = check_launch(s, kernel, grid, block, ki->smem_static_bytes + dyn_smem_bytes, regs);
    if (st == WARPSIM_OK)
        st = place_module(s, m, "launch of", kernel);
    if (st != WARPSIM_OK)
        return st;
    uint64_t n_ctas = (uint64_t)grid[0] * grid[1] * grid[2];
    if (!s->functional && n_ctas > UINT32_MAX)
        return sim_fail(s, WARPSIM_E_UNSUPPORTED, "launch of %s: a grid of %llu blocks: the timing model numbers "
                    "blocks in 32 bits (at most 4294967295 per launch); --functional runs it", kernel,
                    (unsigned long long)n_ctas);
    char err[1024];
    PtxLaunch *l = ptx_launch_create(m->ptx, kernel, grid, block, dyn_smem_bytes, params, params_len, s->mem,
                                     err, sizeof err);
    if (!l)
        return sim_fail(s, WARPSIM_E_LAUNCH, "launch of %s: %s", kernel, err);
    ptx_launch_count_faults(l, &s->faults);
    ptx_launch_set_device_runtime(l, s->cdp, s->cdp_depth);
    char label[sizeof ((FrontKernel *)NULL)->name];
    launch_label(s, kernel, label, sizeof label);
    uint32_t n_work = 0;
    PtxDeviceWork *work = NULL;
    if (grid_ws) { /* its CTAs are co-resident: --functional runs them taking turns */
        ptx_launch_set_grid_workspace(l, grid_ws);
        ptx_launch_set_coresident(l, n_ctas);
    } else if (s->functional) { /* CTAs that wait: as many beside them as the machine holds */
        uint64_t fit = 0;
        if (warpsim_cooperative_max_blocks(s, m, kernel, block, dyn_smem_bytes, &fit) == WARPSIM_OK)
            ptx_launch_set_resident_max(l, fit);
    }
    if (s->functional) {
        stats_kernel_begin(&s->fstats);
        ptx_launch_set_limits(l, s->cfg.gpu.spin_insts, s->cfg.gpu.stall_insts);
        PtxRunStats rs;
        bool ok = ptx_run_kernel(l, &rs, err, sizeof err);
        rs = ptx_launch_stats(l);
        s->f_warp_insts += rs.warp_insts;
        s->f_thread_insts += rs.thread_insts;
        s->f_ctas += rs.ctas;
        s->f_kernels++;
        stats_kernel_end(&s->fstats, label);
        PtxFault fault = ptx_launch_fault_kind(l);
        PtxStop stop = ptx_launch_stop(l);
        if (ok)
            work = ptx_launch_take_device_work(l, &n_work);
        ptx_launch_destroy(l);
        if (ok) {
            kernel_done(s, WARPSIM_OK);
            return n_work ? sim_cdp_run(s, m, kernel, work, n_work) : WARPSIM_OK;
        }
        if (stop == PTX_STOP_NONE)
            return kernel_done(s, kernel_fault(s, &s->fstats, fault, err));
        const char *key = stop == PTX_STOP_SPIN ? "gpu.spin_insts" : "gpu.stall_insts";
        limit_status(s, key);
        return kernel_done(s, sim_fail(s, WARPSIM_E_CYCLE_LIMIT,
                                   "%s. Stopped by %s = %llu: the kernel may wait for something that never happens, "
                                   "such as a flag no thread sets, or a CTA that does not fit on the machine beside "
                                   "the waiting ones. If it is only slow, raise the limit: "
                                   "-o %s=N (0: no limit)", err, key,
                                   (unsigned long long)(stop == PTX_STOP_SPIN ? s->cfg.gpu.spin_insts
                                                                              : s->cfg.gpu.stall_insts), key));
    }
    FrontKernel fk;
    ptx_launch_describe(l, &fk);
    memcpy(fk.name, label, sizeof fk.name);
    fk.regs_per_thread = regs;
    fk.footprint = ptx_kernel_footprint;
    fk.footprint_ctx = l;
    GpuRunStatus gs;
    if (s->trace) { /* the same run, its warp instructions also written */
        TraceTee tee;
        trace_tee_init(&tee, &ptx_front_ops, l, s->trace);
        gs = gpu_run_kernel(s->gpu, &tee.ops, &tee, &fk, stderr);
    } else {
        gs = gpu_run_kernel(s->gpu, &ptx_front_ops, l, &fk, stderr);
    }
    const char *fault = ptx_launch_error(l);
    if (fault) {
        st = kernel_fault(s, &s->gpu->stats, ptx_launch_fault_kind(l), fault);
    } else if (gs == GPU_RUN_DEADLOCK) {
        st = sim_fail(s, WARPSIM_E_DEADLOCK, "kernel %s: the timing model deadlocked (report above)", kernel);
    } else if (gs == GPU_RUN_CYCLE_LIMIT) {
        const char *key = gpu_stop_limit(s->gpu);
        limit_status(s, key);
        if (!strcmp(key, "gpu.max_cycles")) {
            st = sim_fail(s, WARPSIM_E_CYCLE_LIMIT, "%s", gpu_stop_reason(s->gpu));
        } else { /* the timing model has printed it */
            snprintf(s->err, sizeof s->err, "%s", gpu_stop_reason(s->gpu));
            st = WARPSIM_E_CYCLE_LIMIT;
        }
    }
    if (gs != GPU_RUN_OK)
        s->gpu_stopped = st;
    if (st == WARPSIM_OK)
        work = ptx_launch_take_device_work(l, &n_work);
    ptx_launch_destroy(l);
    st = kernel_done(s, st);
    return n_work ? sim_cdp_run(s, m, kernel, work, n_work) : st;
}

WarpsimStatus warpsim_launch(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                             size_t params_len)
{
    return sim_launch(s, m, kernel, grid, block, dyn_smem_bytes, params, params_len, 0);
}

WarpsimStatus warpsim_launch_cooperative(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                                         const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                                         size_t params_len)
{
    uint64_t n_ctas = (uint64_t)grid[0] * grid[1] * grid[2], fit;
    WarpsimStatus st = warpsim_cooperative_max_blocks(s, m, kernel, block, dyn_smem_bytes, &fit);
    if (st != WARPSIM_OK)
        return st;
    if (n_ctas > fit)
        return sim_fail(s, WARPSIM_E_LAUNCH, "cooperative launch of %s: %llu blocks, but at most %llu of %ux%ux%u threads "
                    "fit on the device at once", kernel, (unsigned long long)n_ctas, (unsigned long long)fit,
                    block[0], block[1], block[2]);
    /* the grid workspace: grid.sync() counts arrivals in its second word */
    uint64_t ws = ptx_memory_alloc(s->mem, 8);
    if (!ptx_memory_set(s->mem, ws, 0, 8)) {
        ptx_memory_free(s->mem, ws);
        return sim_over_limit(s, "the grid workspace of a cooperative launch", 8);
    }
    st = sim_launch(s, m, kernel, grid, block, dyn_smem_bytes, params, params_len, ws);
    ptx_memory_free(s->mem, ws);
    return st;
}

WarpsimStatus warpsim_cooperative_max_blocks(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                             const uint32_t block[3], uint32_t dyn_smem_bytes, uint64_t *max_blocks)
{
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    uint32_t per_sm = 0;
    WarpsimStatus st = warpsim_kernel_occupancy(s, m, kernel, (uint32_t)MIN(threads, (uint64_t)UINT32_MAX),
                                                dyn_smem_bytes, &per_sm);
    WarpsimDeviceInfo di;
    warpsim_device_info(s, &di);
    *max_blocks = st == WARPSIM_OK ? (uint64_t)per_sm * di.n_sms : 0;
    return st;
}

double warpsim_time_ns(const WarpsimSim *s)
{
    if (!s->gpu)
        return 0;
    return (double)s->gpu->sim_cycles * 1000.0 / s->cfg.gpu.core_mhz;
}
