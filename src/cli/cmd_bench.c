/* cmd_bench.c: `warpsim bench`: simulation-speed benchmarks, one line each:
 *   bench <name> <warp-instructions-per-second> <simulated-cycles-per-second> <simulated-cycles> <wall-seconds>
 * (a) divergent: the ATAX-kernel-1-like stream (workloads/synthetic/atax1.syn) on GPGPU-Sim's
 *     GTX480 configuration file as read by our reader (--gpgpusim-config), with the simulated
 *     cycles and L1D miss rate printed next to GPGPU-Sim's (docs/bench.md);
 * (b) compute: an ALU-bound stream (workloads/synthetic/compute.syn) on the gtx480 preset. */
#include "cli/cli.h"

#include "base/base.h"
#include "conf/gpgpusim.h"
#include "core/gpu.h"
#include "front/synth/synth.h"

#include <string.h>

/* Measured by Accel-Sim / GPGPU-Sim on the same stream (shared data README). */
#define REF_CYCLES 1482870.0
#define REF_L1D_MISS_RATE 0.90

static void bench_one(const char *name, const Config *cfg, const char *syn_rel)
{
    char path[1024];
    SynthProgram *prog = synth_load_file(data_path(syn_rel, path, sizeof path));
    Gpu *g = gpu_create(cfg);
    double t0 = wall_seconds();
    for (uint32_t k = 0; k < synth_n_kernels(prog); k++) {
        SynthFront *f = synth_front_create(prog, k);
        if (gpu_run_kernel(g, &synth_front_ops, f, synth_kernel(prog, k), stderr) != GPU_RUN_OK)
            fatal("bench %s: the run did not complete", name);
        synth_front_destroy(f);
    }
    double wall = wall_seconds() - t0;
    double cycles = (double)g->sim_cycles, insts = (double)g->sim_warp_insts;
    printf("bench %s %.0f %.0f %.0f %.3f\n", name, insts / wall, cycles / wall, cycles, wall);
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
}

int cli_bench_main(int argc, char **argv)
{
    const char *gpgpusim = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpgpusim-config") && i + 1 < argc)
            gpgpusim = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else
            fatal("bench: unknown argument '%s'", argv[i]);
    }
    if (!only || !strcmp(only, "divergent")) {
        if (!gpgpusim)
            fatal("bench: divergent needs --gpgpusim-config FILE (GPGPU-Sim's SM2_GTX480 gpgpusim.config)");
        Config cfg;
        config_init(&cfg);
        config_load_gpgpusim_flags(&cfg, gpgpusim, GPGPUSIM_QUIET);
        cli_config_finish(&cfg);
        bench_one("divergent", &cfg, "workloads/synthetic/atax1.syn");
    }
    if (!only || !strcmp(only, "compute")) {
        Config cfg;
        config_init(&cfg);
        char path[1024];
        config_load_file(&cfg, config_preset_path("gtx480", path, sizeof path));
        cli_config_finish(&cfg);
        bench_one("compute", &cfg, "workloads/synthetic/compute.syn");
    }
    return 0;
}
