/* gpu.h: the whole simulated GPU: SMs, interconnect, L2 slices, DRAM controllers, and the one
 * documented tick order across the core / interconnect / L2 / DRAM clock domains.
 *
 * A simulation context: everything mutable hangs off struct Gpu, so two GPUs can run in one
 * process. gpu_run_kernel runs one kernel to completion on a front end. */
#ifndef WARPSIM_GPU_H
#define WARPSIM_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/config.h"
#include "core/sm.h"
#include "front/front.h"
#include "mem/addrdec.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "mem/l2.h"
#include "stats/stats.h"

enum { DOMAIN_CORE, DOMAIN_ICNT, DOMAIN_L2, DOMAIN_DRAM, DOMAIN_COUNT };

/* How gpu_run_kernel ended: the kernel completed, or it was stopped with CTAs still resident:
 * deadlock (nothing could move, or no progress for gpu.watchdog_cycles) or a run limit
 * (gpu.max_cycles, gpu.spin_insts, gpu.stall_insts: gpu_stop_limit names it). */
typedef enum GpuRunStatus { GPU_RUN_OK, GPU_RUN_DEADLOCK, GPU_RUN_CYCLE_LIMIT } GpuRunStatus;

struct Gpu {
    Config cfg;
    Stats stats;
    MemPool pool;
    struct GpuPar *par; /* gpu.threads > 1: the threads that run the SMs (gpu_par.h), else NULL */
    const FrontOps *front_ops; /* the running kernel's front end */
    void *front_self;
    AddrDecoder addrdec;
    uint32_t n_sms, n_clusters, sms_per_cluster, n_slices, n_partitions;
    Sm *sms;
    L2Slice *slices;
    Dram **drams;
    MemReqQueue *dram_delay; /* per partition: L2 -> DRAM requests serving mem.dram_lat */
    uint64_t *dram_wake;     /* per partition: the controller's next event (dram_next_event after its last tick) */
    uint64_t *dram_due;      /* per partition: the earlier of dram_wake and its delay queue head's ready cycle */
    /* per slice: the last DRAM-bound read it routed, whose location a read of the same span of
     * addrdec.same_loc_bits shares (a line's other sectors) */
    struct GpuFetchLoc {
        bool valid;
        uint64_t addr;
        AddrLoc loc;
    } *fetch_loc;
    uint32_t *cluster_rr;    /* per cluster: next SM to inject from */
    /* A cluster whose every miss-queue head the request network refused is not tried again
     * before its port frees (inject_wake, an interconnect cycle), a destination it waits for
     * frees a credit (credit_wait: per destination, bits of the clusters) or one of its SMs
     * gets a new head (L1d.inject_wake); a retry before then would change nothing. */
    uint64_t *inject_wake, *credit_wait;
    /* bits: the clusters asleep on credits (inject_wake UINT64_MAX), which clusters of one SM
     * leave out of the injection loop: only a credit wakes them, as an SM's new head comes
     * only to an empty miss queue, which a refused cluster's is not */
    uint64_t *credit_asleep;
    uint64_t dram_delay_cycles;
    Icnt req_net, reply_net;
    uint32_t missq_total, replies_total; /* requests in SM miss queues, replies in L2 slices */
    MemReqQueue *eject;  /* per cluster: the ejection buffer (icnt.ejection_buffer > 0) */
    uint32_t eject_total; /* replies in all ejection buffers */
    /* bits (base.h), so that the interconnect and L2 loops visit only these: the slices with
     * requests in their input queue, the slices with replies, the clusters whose ejection
     * buffer holds replies */
    uint64_t *slice_input, *slice_replies, *eject_queued;
    uint64_t *missq_queued; /* bits: the SMs whose L1D miss queue holds requests (L1d.queued_bits) */
    double period[DOMAIN_COUNT]; /* femtoseconds per cycle */
    uint64_t cycle[DOMAIN_COUNT];
    /* the running kernel */
    const FrontKernel *kernel;
    const CtaSchedOps *cta_ops;
    void *cta_sched;
    PolicyCtx cta_ctx;
    CtaSmInfo *cta_sm;       /* per SM, what the CTA scheduler sees */
    uint32_t cta_room_empty; /* CTAs of the kernel an empty SM holds */
    uint8_t *launched;
    uint32_t n_ctas, next_unlaunched, n_launched, n_done;
    uint32_t cta_last_cluster;  /* the cluster dispatched to last (GPGPU-Sim's m_last_cluster_issue) */
    uint32_t *cta_last_core;    /* per cluster, its SM dispatched to last (m_cta_issue_next_core) */
    bool dispatch_pending;
    uint64_t last_progress;
    char stop_reason[512];  /* why the last kernel was stopped ("" if it completed) */
    const char *stop_limit; /* the run limit that stopped it, or NULL */
    /* gpu.spin_insts and gpu.stall_insts: the warp instructions issued (over all SMs) when a
     * check last saw a CTA completion and a global or local store or atomic, and what it saw */
    uint64_t insts_at_done, insts_at_write, limit_writes;
    uint32_t limit_done;
    /* progress line */
    bool progress_line;
    double start_wall, last_report_wall;
    /* time series (gpu.sample_cycles) */
    uint64_t next_sample;
    uint32_t series_ipc, series_warps, series_l1d_hit, series_unthrottled;
    uint64_t last_thread_insts, last_l1d_access, last_l1d_hit;
    /* stats */
    uint64_t sim_cycles, sim_warp_insts, sim_thread_insts, kernels;
    uint64_t reply_stall; /* L2 reply-queue heads the reply network refused, per slice-cycle */
    uint64_t reply_held;  /* replies delivered that their cluster could not take, per cluster-cycle */
    MemBusy mem_busy;     /* L2 and DRAM running totals that policies sample (SmView.mem) */
};
typedef struct Gpu Gpu;

/* Build from a validated config (policy names checked). */
Gpu *gpu_create(const Config *cfg);
void gpu_destroy(Gpu *g);
/* A host-device copy touched [addr, addr + bytes): with mem.copy_warms_l2 its 32-byte chunks
 * are put into the L2 (l2_copy_fill), in address order; otherwise nothing. */
void gpu_copy_touch(Gpu *g, uint64_t addr, uint64_t bytes);
/* Run one kernel to completion. A kernel that is stopped instead has its reason printed to
 * `report` (stderr if NULL): a deadlock with a state dump, gpu.spin_insts and gpu.stall_insts in
 * one line naming the limit; gpu.max_cycles is left to the caller. */
GpuRunStatus gpu_run_kernel(Gpu *g, const FrontOps *ops, void *front, const FrontKernel *k, FILE *report);
/* Why the last gpu_run_kernel stopped the kernel: one line without a trailing newline, naming
 * what ended it (and a run limit's way to raise it); "" if the kernel completed. */
const char *gpu_stop_reason(const Gpu *g);
/* The option of the run limit that stopped the last kernel ("gpu.max_cycles", "gpu.spin_insts",
 * "gpu.stall_insts"), NULL if none did. */
const char *gpu_stop_limit(const Gpu *g);
/* Print a progress line on stderr during long runs. */
void gpu_set_progress(Gpu *g, bool on);

#endif
