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
    WarpsimStatus gpu_stopped; /* how a kernel was stopped on the timing model, its CTAs left resident */
    StatsResult *result;
};

/* Record the message of a failed call in s->err, print it and return st. */
WarpsimStatus sim_fail(WarpsimSim *s, WarpsimStatus st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* WARPSIM_E_OUT_OF_MEMORY with a message if bytes more would pass gpu.max_host_mb. */
WarpsimStatus sim_over_limit(WarpsimSim *s, const char *what, size_t bytes);

#endif
