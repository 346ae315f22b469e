/* pcal.c: dynamic PCAL, Linebacker's "PCAL" baseline (seeds/004 sec. 5: "a combination of
 * dynamic warp throttling and cache bypassing"; PCAL: Li et al., HPCA 2015). The groups, the
 * bypass and the bandwidth re-activation are pcal_core.c's; this file searches for the active
 * limit and the token count by hill-climbing on the SM's IPC over windows of `window` cycles:
 * after a warm-up window it starts from every live warp active and holding a token (GTO), takes
 * `step` warps off the active limit while IPC does not drop, puts the limit back at its best at
 * the first drop, then does the same with the token count (from the limit down to 0). Once
 * settled, the setting holds for the rest of the kernel and for later launches of the same
 * kernel, and throttled warps may be re-activated without a token for bandwidth as in statPCAL
 * (bw_thresh 0: not). A kernel with another name starts a new search. Choices where the papers
 * are silent: docs/pcal.md. Options: sm.sched.pcal.{window,step,bw_thresh,bw_window}. */
#include "policy/warp/pcal.h"

#include "base/base.h"

#include <stddef.h>
#include <string.h>

typedef struct PcalOpts {
    uint64_t window;
    uint32_t step;
    double bw_thresh;
    uint64_t bw_window;
} PcalOpts;

static const OptDesc pcal_opts[] = {
    {"window", OPT_U64, offsetof(PcalOpts, window), "10000", 100, 100000000, NULL, "cycles",
     "core cycles of one hill-climbing window (the SM's IPC over it is the metric)"},
    {"step", OPT_U32, offsetof(PcalOpts, step), "1", 1, 64, NULL, "warps",
     "warps per scheduler taken off the active limit, then off the token count, per window"},
    {"bw_thresh", OPT_F64, offsetof(PcalOpts, bw_thresh), "0.5", 0, 1, NULL, "",
     "once settled: re-activate a throttled warp (without a token) while both the L2's and the DRAM's utilisation "
     "are below this (0: never)"},
    {"bw_window", OPT_U64, offsetof(PcalOpts, bw_window), "1000", 10, 100000000, NULL, "cycles",
     "core cycles over which the utilisation is measured (one step of re-activation per window)"},
};

typedef struct PcalDyn {
    PcalClimb climb;
    uint32_t step;
    char kernel[128]; /* the kernel the search is for */
} PcalDyn;

/* ---- hill climbing ------------------------------------------------------------------------ */

void pcal_climb_start(PcalClimb *c, uint32_t warps, uint32_t step)
{
    *c = (PcalClimb){.phase = PCAL_WARMUP, .warps = warps, .tokens = warps, .best = warps, .step = step};
}

/* One step down of a knob, not below `floor`. */
static uint32_t step_down(uint32_t v, uint32_t step, uint32_t floor) { return v >= floor + step ? v - step : floor; }

/* The token phase starts from tokens = warps (the best setting so far): its first step. */
static void start_tokens(PcalClimb *c)
{
    c->phase = PCAL_SEARCH_TOKENS;
    c->tokens = c->best = c->warps;
    if (c->tokens == 0)
        c->phase = PCAL_SETTLED;
    else
        c->tokens = step_down(c->tokens, c->step, 0);
}

void pcal_climb_window(PcalClimb *c, double metric)
{
    switch (c->phase) {
    case PCAL_WARMUP:
        c->phase = PCAL_SEARCH_WARPS;
        c->best = c->warps;
        c->best_metric = -1.0;
        break;
    case PCAL_SEARCH_WARPS:
        if (metric >= c->best_metric) {
            c->best = c->warps;
            c->best_metric = metric;
            if (c->warps > 1) {
                c->warps = c->tokens = step_down(c->warps, c->step, 1);
                break;
            }
        } else {
            c->warps = c->tokens = c->best;
        }
        start_tokens(c);
        break;
    case PCAL_SEARCH_TOKENS:
        if (metric >= c->best_metric) {
            c->best = c->tokens;
            c->best_metric = metric;
            if (c->tokens > 0) {
                c->tokens = step_down(c->tokens, c->step, 0);
                break;
            }
        } else {
            c->tokens = c->best;
        }
        c->phase = PCAL_SETTLED;
        break;
    case PCAL_SETTLED:
        break;
    }
}

/* ---- the scheduler ------------------------------------------------------------------------ */

static void pcal_window(PcalShared *sh, double ipc)
{
    PcalDyn *d = sh->dyn;
    PcalClimb *c = &d->climb;
    if (c->phase == PCAL_SETTLED)
        return;
    if (c->phase == PCAL_WARMUP) { /* start from the live warps there are */
        uint32_t most = 1;
        for (uint32_t i = 0; i < sh->n_sched; i++)
            most = MAX(most, MIN(sh->n_cand[i], sh->sched_slots));
        c->warps = c->tokens = most;
    }
    pcal_climb_window(c, ipc);
    pcal_set(sh, c->warps, c->tokens);
    if (c->phase == PCAL_SETTLED) {
        sh->settled++;
        sh->settled_warps_sum += c->warps;
        sh->settled_tokens_sum += c->tokens;
        sh->bw_enabled = true;
    }
}

static void pcal_kernel(PcalShared *sh, const FrontKernel *k)
{
    PcalDyn *d = sh->dyn;
    const char *name = k ? k->name : "";
    if (sh->searches && strncmp(d->kernel, name, sizeof d->kernel - 1) == 0)
        return; /* the same kernel again: the search goes on, or its setting holds */
    snprintf(d->kernel, sizeof d->kernel, "%s", name);
    sh->searches++;
    sh->bw_enabled = false;
    pcal_climb_start(&d->climb, sh->sched_slots, d->step);
    pcal_set(sh, sh->sched_slots, sh->sched_slots);
}

static void *pcal_create_shared(const PolicyCtx *ctx)
{
    const PcalOpts *o = ctx->opts;
    PcalShared *sh = pcal_shared_new(ctx, 64, 64, o->bw_thresh, o->bw_window, true);
    PcalDyn *d = xcalloc(1, sizeof *d);
    d->step = o->step;
    pcal_climb_start(&d->climb, sh->sched_slots, d->step);
    sh->warps = sh->tokens = sh->sched_slots;
    sh->dyn = d;
    sh->window = o->window;
    sh->on_window = pcal_window;
    sh->on_kernel = pcal_kernel;
    return sh;
}

const WarpSchedOps warp_pcal_ops = {
    .meta = {.name = "pcal",
             .help = "dynamic PCAL: statpcal's token, bypass and bandwidth logic with the active-warp limit, then the "
                     "token count, found by hill-climbing on IPC over windows",
             POLICY_OPTS(pcal_opts, PcalOpts)},
    .create_shared = pcal_create_shared,
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
