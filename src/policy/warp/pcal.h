/* pcal.h: priority-based cache allocation (PCAL; Li et al., HPCA 2015), as the baselines of CIAO
 * (seeds/003, "statPCAL", sec. V-B) and Linebacker (seeds/004, dynamic "PCAL", sec. 5) use it.
 *
 * Each scheduler splits its live warps (those not waiting at a barrier), in GTO order (oldest
 * first), into three groups: the oldest `tokens` hold a token and cache normally; the next ones,
 * up to the active limit `warps` plus the `extra` warps re-activated for bandwidth, issue
 * without a token, so their L1D misses bypass the L1D (WarpSchedOps.bypass_l1d: no line is
 * allocated; their hits are served); the rest are throttled and do not issue. pcal_core.c holds
 * this split, the bypass, GTO issue among the active warps, the bandwidth re-activation and the
 * stats; statpcal.c fixes `warps` and `tokens` from its options, pcal.c searches for them
 * (pcal_climb: first the active limit, then the token count, by hill-climbing on IPC). */
#ifndef WARPSIM_POLICY_WARP_PCAL_H
#define WARPSIM_POLICY_WARP_PCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/policy.h"

#define PCAL_MAX_SCHED 8

/* ---- the dynamic search (pcal.c) ---------------------------------------------------------- */

typedef enum PcalPhase { PCAL_WARMUP, PCAL_SEARCH_WARPS, PCAL_SEARCH_TOKENS, PCAL_SETTLED } PcalPhase;

/* Hill-climbing over windows: the setting for the next window is (warps, tokens). */
typedef struct PcalClimb {
    PcalPhase phase;
    uint32_t warps, tokens;
    uint32_t best;      /* the best value so far of the knob being searched */
    double best_metric; /* the metric it gave */
    uint32_t step;
} PcalClimb;

/* Start a search from `warps` active warps per scheduler, all holding tokens; the first window
 * is a warm-up and is not measured. */
void pcal_climb_start(PcalClimb *c, uint32_t warps, uint32_t step);
/* The window that ran with (c->warps, c->tokens) ended with `metric` (higher is better): move
 * to the next setting. A step is kept when the metric is at least the best so far; the first
 * worse window puts the knob back to its best value and ends that phase. */
void pcal_climb_window(PcalClimb *c, double metric);

/* ---- the shared core (pcal_core.c) ------------------------------------------------------- */

typedef struct PcalShared PcalShared;
/* Called at each end of a `window`-cycle window with the SM's IPC over it (dynamic PCAL). */
typedef void (*PcalWindowFn)(PcalShared *sh, double ipc);
/* Called once per kernel start, after the core's own reset (dynamic PCAL). */
typedef void (*PcalKernelFn)(PcalShared *sh, const FrontKernel *k);

struct PcalShared {
    uint32_t warps, tokens, extra; /* per scheduler: the active limit, token holders, bandwidth extras */
    uint32_t gen;                  /* bumped at every change of the three */
    uint32_t n_sched, sched_slots; /* schedulers, and warp slots of each */
    uint32_t n_cand[PCAL_MAX_SCHED], n_throttled[PCAL_MAX_SCHED]; /* per scheduler, when it last looked */
    /* bandwidth re-activation */
    double bw_thresh;       /* re-activate while max(L2, DRAM utilisation) is below it (0: never) */
    uint64_t bw_window;     /* cycles over which the utilisation is measured */
    bool bw_enabled;        /* statpcal: always; pcal: once its search has settled */
    bool bw_started;
    uint64_t bw_next;
    MemBusySample bw_last;
    /* the dynamic search: called every `window` cycles (NULL: none) */
    PcalWindowFn on_window;
    PcalKernelFn on_kernel;
    void *dyn;
    uint64_t window, win_next, win_insts, win_start;
    bool win_started;
    /* stats */
    uint64_t token_warp_cycles, nontoken_warp_cycles, throttled_warp_cycles, token_grants;
    uint64_t bypass_lookups, bypassed;
    uint64_t bw_windows, bw_reactivated, bw_deactivated, extra_max;
    uint64_t windows, warp_changes, token_changes, searches, settled, settled_warps_sum, settled_tokens_sum;
};

/* The SM-wide state with its stats registered (`dynamic` adds the search's). */
PcalShared *pcal_shared_new(const PolicyCtx *ctx, uint32_t warps, uint32_t tokens, double bw_thresh,
                            uint64_t bw_window, bool dynamic);
void pcal_shared_free(void *shared);
/* New settings (per scheduler); the schedulers regroup their warps when they next look. */
void pcal_set(PcalShared *sh, uint32_t warps, uint32_t tokens);

/* The hooks of both schedulers. */
void *pcal_create(const PolicyCtx *ctx);
void pcal_destroy(void *self);
bool pcal_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v);
int pcal_pick(void *self, const WarpSchedView *v);
void pcal_on_issue(void *self, uint32_t slot, const WarpSchedView *v);
void pcal_on_warp_exit(void *self, uint32_t slot);
bool pcal_bypass_l1d(void *self, uint32_t slot, uint64_t look_ups);
uint64_t pcal_throttled(const void *self);
void pcal_on_l1d_miss(void *self, const WarpL1dEvent *e);
/* A kernel starts: no warp re-activated for bandwidth, windows start anew. */
void pcal_on_kernel_start(void *self, const FrontKernel *k);

/* Which group a warp of this scheduler is in (for tests): 2 token, 1 active without a token,
 * 0 throttled or not live. */
int pcal_group(const void *self, uint32_t slot);

#endif
