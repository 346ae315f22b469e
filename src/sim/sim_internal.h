/* sim_internal.h: what the files of the embedding API (sim.c, sim_memory.c) share: the
 * simulator's state and its error reporting. */
#ifndef WARPSIM_SIM_INTERNAL_H
#define WARPSIM_SIM_INTERNAL_H

#include "warpsim.h"

#include "conf/config.h"
#include "core/gpu.h"
#include "front/ptx/ptx.h"
#include "front/trace/trace.h"
#include "sim/ptxinfo.h"
#include "stats/stats_result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct WarpsimModule {
    PtxModule *ptx;
    PtxInfo info;
    WarpsimModule *next;
};

struct WarpsimSim {
    Config cfg;
    bool functional, quiet;
    char name[128];
    char *json, *csv, *text;
    char *trace_out;  /* --trace-out: the folder the launches' warp instructions are written to */
    TraceWriter *trace;
    Gpu *gpu;         /* timing model (NULL when functional) */
    Stats fstats;     /* functional mode's counters */
    uint64_t f_warp_insts, f_thread_insts, f_ctas, f_kernels;
    uint64_t faults;  /* kernels stopped by a fault (sim.faults) */
    PtxMemory *mem;
    WarpsimModule *modules;
    double t0;
    char err[1024];
    char status[1100]; /* of the first kernel that did not complete; "" while all did */
    bool fault_returned; /* a later call gave the program the fault's error (warpsim_fault_returned) */
    WarpsimStatus gpu_stopped; /* how a kernel was stopped on the timing model, its CTAs left resident */
    StatsResult *result;
    /* dynamic parallelism (sim_cdp.c): the device runtime, and the grid being launched: its
     * nesting depth (0: the host's launch) and the kernel that launched it */
    PtxDeviceRuntime *cdp;
    uint32_t cdp_depth;
    const char *cdp_parent;
};

/* Record the message of a failed call in s->err, print it and return st. */
WarpsimStatus sim_fail(WarpsimSim *s, WarpsimStatus st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A launch as the host's (sim.c), at nesting depth s->cdp_depth. */
WarpsimStatus sim_launch(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                         const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params, size_t params_len,
                         uint64_t grid_ws);
/* sim_cdp.c: run the n items of work a grid of kernel parent queued (its device-side launches
 * and copies; work is freed), each launch with its own work before the next item; the first
 * failure stops the rest, and is returned. */
WarpsimStatus sim_cdp_run(WarpsimSim *s, WarpsimModule *m, const char *parent, PtxDeviceWork *work, uint32_t n);
/* WARPSIM_E_OUT_OF_MEMORY with a message if bytes more would pass gpu.max_host_mb. */
WarpsimStatus sim_over_limit(WarpsimSim *s, const char *what, size_t bytes);

#endif
