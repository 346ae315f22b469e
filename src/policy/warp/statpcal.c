/* statpcal.c: static PCAL, CIAO's "statPCAL" baseline (seeds/003 sec. V-B; PCAL: Li et al.,
 * HPCA 2015). Each scheduler lets its `warps` oldest warps issue, in GTO order; the oldest
 * `tokens` of them hold a token and cache in the L1D, the others' misses bypass it. Both are
 * fixed for the run. "When statPCAL detects under-utilization of L2 and/or main memory
 * bandwidth, it activates throttled warps and makes these warps directly access the underlying
 * memory": every bw_window cycles, while the L2 and the DRAM are both used below bw_thresh, one
 * more throttled warp per scheduler issues without a token; once either is at or above it, one
 * fewer. The shared logic is pcal_core.c; the choices where the papers are silent are in
 * docs/pcal.md. Options: sm.sched.statpcal.{warps,tokens,bw_thresh,bw_window}. */
#include "policy/warp/pcal.h"

#include "base/base.h"

#include <stddef.h>

typedef struct StatPcalOpts {
    uint32_t warps, tokens;
    double bw_thresh;
    uint64_t bw_window;
} StatPcalOpts;

static const OptDesc statpcal_opts[] = {
    {"warps", OPT_U32, offsetof(StatPcalOpts, warps), "4", 1, 64, NULL, "warps",
     "active warps of each scheduler (the TLP limit): its oldest live ones"},
    {"tokens", OPT_U32, offsetof(StatPcalOpts, tokens), "4", 0, 64, NULL, "warps",
     "of them, warps holding a token (allowed to allocate in the L1D): the oldest; at most `warps`"},
    {"bw_thresh", OPT_F64, offsetof(StatPcalOpts, bw_thresh), "0.5", 0, 1, NULL, "",
     "re-activate a throttled warp (without a token) while both the L2's and the DRAM's utilisation are below this "
     "(0: never)"},
    {"bw_window", OPT_U64, offsetof(StatPcalOpts, bw_window), "1000", 10, 100000000, NULL, "cycles",
     "core cycles over which the utilisation is measured (one step of re-activation per window)"},
};

static void *statpcal_create_shared(const PolicyCtx *ctx)
{
    const StatPcalOpts *o = ctx->opts;
    if (o->tokens > o->warps)
        fatal("sm.sched.statpcal.tokens (%u) must not exceed sm.sched.statpcal.warps (%u)", o->tokens, o->warps);
    return pcal_shared_new(ctx, o->warps, o->tokens, o->bw_thresh, o->bw_window, false);
}

const WarpSchedOps warp_statpcal_ops = {
    .meta = {.name = "statpcal",
             .help = "static PCAL: GTO among each scheduler's `warps` oldest warps, the `tokens` oldest of them "
                     "caching in the L1D, the rest bypassing it; throttled warps re-activated (bypassing) while "
                     "the L2 and DRAM are under-used",
             POLICY_OPTS(statpcal_opts, StatPcalOpts)},
    .create_shared = statpcal_create_shared,
    .destroy_shared = pcal_shared_free,
    .create = pcal_create,
    .destroy = pcal_destroy,
    .may_issue = pcal_may_issue,
    .pick = pcal_pick,
    .on_issue = pcal_on_issue,
    .on_warp_exit = pcal_on_warp_exit,
    .bypass_l1d = pcal_bypass_l1d,
    .throttled = pcal_throttled,
    .on_l1d_miss = pcal_on_l1d_miss,
    .on_kernel_start = pcal_on_kernel_start,
};
