/* cmd_bench.c: `warpsim bench`: simulation-speed benchmarks, one line each:
 *   bench <name> <warp-instructions-per-second> <simulated-cycles-per-second> <simulated-cycles> <wall-seconds>
 * (a) divergent: the ATAX-kernel-1-like stream (workloads/synthetic/atax1.syn) on GPGPU-Sim's
 *     GTX480 machine as read by our GPGPU-Sim reader: configs/gpgpusim/gtx480.config, or the
 *     file given with --gpgpusim-config; the simulated cycles and L1D miss rate are printed
 *     next to GPGPU-Sim's (docs/bench.md);
 * (b) compute: an ALU-bound stream (workloads/synthetic/compute.syn) on the gtx480 preset;
 * (c) ptx-functional: the PTX interpreter alone (no timing model) on the compute-heavy kernel
 *     of tests/ptx/compute.cu: `bench ptx-functional <thread-instructions-per-second>`;
 * (d) trace: the divergent stream written as an Accel-Sim trace (into a temporary folder, not
 *     timed) and run by the trace front end on the same machine, as (a)'s line; its simulated
 *     cycles must equal the divergent run's (docs/traces.md);
 * (e) program: a real CUDA program, the suite's atax at small size, through our libcudart, as
 *     `warpsim run` runs it (a child process), as (a)'s line with the child's CPU seconds added;
 * (f) paper: one paper-size suite workload (spmv, SHOC's default input) the same way;
 * (g) compute-ptx: a compute-bound real program the same way, the suite's libor (Monte Carlo
 *     LIBOR paths: floating-point work in registers, little memory traffic) at small size,
 *     where the PTX interpreter and the SM pipeline take the time.
 * -j N runs each with gpu.threads = N (the SMs on N threads; the same simulated cycles). */
#include "cli/cli.h"

#include "base/base.h"
#include "exp/json.h"
#include "conf/gpgpusim.h"
#include "core/gpu.h"
#include "front/ptx/ptx.h"
#include "front/synth/synth.h"
#include "front/trace/trace.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Measured by Accel-Sim / GPGPU-Sim on the same stream and machine (docs/bench.md). */
#define REF_CYCLES 1482870.0
#define REF_L1D_MISS_RATE 0.90

static void bench_line(const char *name, const Gpu *g, double wall)
{
    double cycles = (double)g->sim_cycles, insts = (double)g->sim_warp_insts;
    printf("bench %s %.0f %.0f %.0f %.3f\n", name, insts / wall, cycles / wall, cycles, wall);
}

/* The stream's kernels on g, each through the trace writer when there is one. */
static void run_synth(const char *name, Gpu *g, SynthProgram *prog, TraceWriter *tw)
{
    for (uint32_t k = 0; k < synth_n_kernels(prog); k++) {
        SynthFront *f = synth_front_create(prog, k);
        TraceTee tee;
        if (tw)
            trace_tee_init(&tee, &synth_front_ops, f, tw);
        if (gpu_run_kernel(g, tw ? &tee.ops : &synth_front_ops, tw ? (void *)&tee : f, synth_kernel(prog, k),
                           stderr) != GPU_RUN_OK)
            fatal("bench %s: the run did not complete", name);
        synth_front_destroy(f);
    }
}

/* Returns the simulated cycles. */
static uint64_t bench_one(const char *name, const Config *cfg, const char *syn_rel)
{
    char path[1024];
    SynthProgram *prog = synth_load_file(data_path(syn_rel, path, sizeof path));
    Gpu *g = gpu_create(cfg);
    double t0 = wall_seconds();
    run_synth(name, g, prog, NULL);
    double wall = wall_seconds() - t0;
    double cycles = (double)g->sim_cycles;
    uint64_t sim_cycles = g->sim_cycles;
    bench_line(name, g, wall);
    if (!strcmp(name, "divergent")) {
        double access = (double)stats_get(&g->stats, "sm.l1d.access", NULL);
        double miss = (double)stats_get(&g->stats, "sm.l1d.miss", NULL);
        double rate = access > 0 ? miss / access : 0;
        printf("bench divergent vs GPGPU-Sim: cycles %.0f (GPGPU-Sim %.0f, ratio %.2f), L1D miss rate %.3f (GPGPU-Sim %.2f)\n",
               cycles, REF_CYCLES, cycles / REF_CYCLES, rate, REF_L1D_MISS_RATE);
    }
    fflush(stdout);
    gpu_destroy(g);
    synth_free(prog);
    return sim_cycles;
}

/* (d): the stream written as a trace, then the trace run and timed; ref_cycles: (a)'s. */
static void bench_trace(const Config *cfg, const char *syn_rel, uint64_t ref_cycles)
{
    const char *tmp = getenv("TMPDIR");
    char dir[1024], path[1200], err[600];
    snprintf(dir, sizeof dir, "%s/warpsim-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fatal("bench trace: cannot create a temporary folder in %s", tmp && *tmp ? tmp : "/tmp");
    TraceWriter *tw = trace_writer_create(dir, err, sizeof err);
    if (!tw)
        fatal("bench trace: %s", err);
    SynthProgram *prog = synth_load_file(data_path(syn_rel, path, sizeof path));
    Gpu *g = gpu_create(cfg);
    run_synth("trace", g, prog, tw);
    gpu_destroy(g);
    synth_free(prog);
    if (!trace_writer_finish(tw, err, sizeof err))
        fatal("bench trace: %s", err);
    TraceList list;
    if (!trace_list_load(dir, &list, err, sizeof err))
        fatal("bench trace: %s", err);
    g = gpu_create(cfg);
    double t0 = wall_seconds();
    for (uint32_t i = 0; i < list.n; i++) {
        const TraceCmd *c = &list.cmds[i];
        if (c->kind != TRACE_CMD_KERNEL) {
            gpu_copy_touch(g, c->addr, c->bytes);
            continue;
        }
        TraceKernel *k = trace_kernel_open(c->path, err, sizeof err);
        if (!k)
            fatal("bench trace: %s", err);
        if (gpu_run_kernel(g, &trace_front_ops, k, trace_kernel_info(k), stderr) != GPU_RUN_OK || trace_kernel_error(k))
            fatal("bench trace: the run did not complete %s", trace_kernel_error(k) ? trace_kernel_error(k) : "");
        trace_kernel_close(k);
    }
    double wall = wall_seconds() - t0;
    bench_line("trace", g, wall);
    bool same = g->sim_cycles == ref_cycles;
    printf("bench trace vs divergent: cycles %llu (synthetic front end %llu): %s\n", (unsigned long long)g->sim_cycles,
           (unsigned long long)ref_cycles, same ? "same" : "DIFFERENT");
    fflush(stdout);
    for (uint32_t i = 0; i < list.n; i++)
        if (list.cmds[i].kind == TRACE_CMD_KERNEL)
            unlink(list.cmds[i].path);
    trace_list_free(&list);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    unlink(path);
    rmdir(dir);
    gpu_destroy(g);
    if (!same)
        fatal("bench trace: the trace run's cycles differ from the synthetic run's");
}

static void bench_ptx_functional(void)
{
    char path[1024], err[512];
    PtxModule *m = ptx_module_load(data_path("tests/ptx/compute.ptx", path, sizeof path), err, sizeof err);
    if (!m)
        fatal("bench ptx-functional: %s", err);
    enum { THREADS = 30 * 256, ITERS = 200 };
    PtxMemory *mem = ptx_memory_create();
    uint64_t din = ptx_memory_alloc(mem, THREADS * 4), dout = ptx_memory_alloc(mem, THREADS * 4);
    float in[THREADS];
    for (int i = 0; i < THREADS; i++)
        in[i] = 0.5f + (float)(i % 97) / 200.0f;
    ptx_memory_write(mem, din, in, sizeof in);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "compute_heavy");
    if (!ki || ki->n_params != 3)
        fatal("bench ptx-functional: tests/ptx/compute.ptx has no compute_heavy(in, out, iters)");
    uint64_t args[3] = {din, dout, ITERS};
    uint8_t buf[64] = {0};
    for (unsigned i = 0; i < 3; i++)
        memcpy(buf + ki->param_offset[i], &args[i], ki->param_size[i] <= 8 ? ki->param_size[i] : 8);
    uint32_t grid[3] = {THREADS / 256, 1, 1}, block[3] = {256, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "compute_heavy", grid, block, 0, buf, ki->param_bytes, mem, err, sizeof err);
    if (!l)
        fatal("bench ptx-functional: %s", err);
    PtxRunStats st;
    double t0 = wall_seconds();
    if (!ptx_run_kernel(l, &st, err, sizeof err))
        fatal("bench ptx-functional: %s", err);
    double wall = wall_seconds() - t0;
    printf("bench ptx-functional %.0f\n", (double)st.thread_insts / wall);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

static double children_cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

/* (e), (f): `warpsim run --preset gtx480 WORKLOAD --size SIZE` as a child, timed; its result
 * file gives the simulated cycles and warp instructions. */
static void bench_program(const char *name, const char *workload, const char *size, uint32_t threads)
{
    const char *tmp = getenv("TMPDIR");
    char self[1024], json[1100];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        fatal("bench %s: cannot find the warpsim executable (/proc/self/exe)", name);
    self[n] = 0;
    snprintf(json, sizeof json, "%s/warpsim-bench-%ld.json", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    double cpu0 = children_cpu_seconds(), t0 = wall_seconds();
    pid_t pid = fork();
    if (pid < 0)
        fatal("bench %s: fork failed", name);
    if (pid == 0) {
        char j[16];
        snprintf(j, sizeof j, "%u", threads);
        execl(self, self, "run", "--preset", "gtx480", "-j", j, workload, "--size", size, "--quiet", "--json", json,
              (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        ;
    double wall = wall_seconds() - t0, cpu = children_cpu_seconds() - cpu0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fatal("bench %s: `warpsim run --preset gtx480 %s --size %s` failed", name, workload, size);
    char err[256];
    char *text = read_file(json, NULL);
    JsonValue *v = text ? json_parse(text, err, sizeof err) : NULL;
    const JsonValue *total = json_get(v, "total");
    double cycles = json_number(json_get(total, "sim.cycles"), -1), insts = json_number(json_get(total, "sim.warp_insts"), -1);
    if (cycles < 0 || insts < 0)
        fatal("bench %s: %s has no total sim.cycles and sim.warp_insts", name, json);
    printf("bench %s %.0f %.0f %.0f %.3f (cpu %.3f s; %s --size %s)\n", name, insts / wall, cycles / wall, cycles, wall, cpu,
           workload, size);
    fflush(stdout);
    json_free(v);
    free(text);
    unlink(json);
}

int cli_bench_main(int argc, char **argv)
{
    const char *gpgpusim = NULL, *only = NULL;
    uint32_t threads = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpgpusim-config") && i + 1 < argc) {
            gpgpusim = argv[++i];
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 1 || n > 256)
                fatal("bench: -j %s: expected a number of threads from 1 to 256", argv[i]);
            threads = (uint32_t)n;
        } else {
            fatal("bench: unknown argument '%s'", argv[i]);
        }
    }
    static const char *const names[] = {"divergent", "trace", "compute", "ptx-functional", "program", "paper",
                                        "compute-ptx"};
    bool known = !only;
    for (size_t i = 0; i < sizeof names / sizeof *names && !known; i++)
        known = !strcmp(only, names[i]);
    if (!known)
        fatal("bench: --only %s: expected divergent, trace, compute, ptx-functional, program, paper or compute-ptx",
              only);
    if (!only || !strcmp(only, "divergent") || !strcmp(only, "trace")) {
        char path[1024];
        if (!gpgpusim)
            gpgpusim = data_path("configs/gpgpusim/gtx480.config", path, sizeof path);
        Config cfg;
        config_init(&cfg);
        config_load_gpgpusim_flags(&cfg, gpgpusim, GPGPUSIM_QUIET);
        cfg.gpu.threads = threads;
        cli_config_finish(&cfg);
        uint64_t cycles = bench_one("divergent", &cfg, "workloads/synthetic/atax1.syn");
        bench_trace(&cfg, "workloads/synthetic/atax1.syn", cycles);
    }
    if (!only || !strcmp(only, "compute")) {
        Config cfg;
        config_init(&cfg);
        char path[1024];
        config_load_file(&cfg, config_preset_path("gtx480", path, sizeof path));
        cfg.gpu.threads = threads;
        cli_config_finish(&cfg);
        bench_one("compute", &cfg, "workloads/synthetic/compute.syn");
    }
    if (!only || !strcmp(only, "ptx-functional"))
        bench_ptx_functional();
    if (!only || !strcmp(only, "program"))
        bench_program("program", "atax", "small", threads);
    if (!only || !strcmp(only, "paper"))
        bench_program("paper", "spmv", "paper", threads);
    if (!only || !strcmp(only, "compute-ptx"))
        bench_program("compute-ptx", "libor", "small", threads);
    return 0;
}
