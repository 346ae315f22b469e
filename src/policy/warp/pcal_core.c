/* pcal_core.c: what static and dynamic PCAL share (pcal.h): each scheduler's split of its warps
 * into token holders, active warps without a token and throttled warps; GTO issue among the
 * active ones; the L1D bypass of the warps without a token (bypass_l1d); the re-activation of
 * throttled warps as warps without a token while the L2 and DRAM are under-used (CIAO, seeds/003
 * sec. V-B); and the stats. Invariants: tokens <= warps; the token holders are the oldest active
 * warps; the groups are recomputed only when a scheduler's live warps or the settings change.
 * Time is read from the views (the SM skips idle cycles): warp-cycles are added up between two
 * looks of a scheduler, and windows end at the first look at or after their last cycle.
 *
 * Stats (sm[i].sched.<statpcal|pcal>.*): token_warp_cycles, nontoken_warp_cycles,
 * throttled_warp_cycles, token_grants, bypass_lookups, bypassed, bw_windows, bw_reactivated,
 * bw_deactivated, extra_max; dynamic PCAL adds windows, warp_changes, token_changes, searches,
 * settled, settled_warps_sum, settled_tokens_sum. */
#include "policy/warp/pcal.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct Pcal {
    PcalShared *sh;
    uint32_t index;
    int last;             /* greedy warp */
    bool grouped;
    uint64_t cand_seen;   /* the live warps not at a barrier the groups were made for */
    uint32_t gen_seen;    /* ... and the settings' generation */
    uint64_t active, token;
    bool timed;           /* since is set (not before the first look of a kernel) */
    uint64_t since;       /* warp-cycles are counted up to this cycle */
} Pcal;

PcalShared *pcal_shared_new(const PolicyCtx *ctx, uint32_t warps, uint32_t tokens, double bw_thresh,
                            uint64_t bw_window, bool dynamic)
{
    PcalShared *sh = xcalloc(1, sizeof *sh);
    sh->n_sched = ctx->cfg->sm.n_sched;
    CHECK(sh->n_sched <= PCAL_MAX_SCHED);
    sh->sched_slots = (ctx->cfg->sm.max_warps + sh->n_sched - 1) / sh->n_sched;
    sh->warps = warps;
    sh->tokens = tokens;
    sh->bw_thresh = bw_thresh;
    sh->bw_window = bw_window;
    sh->bw_enabled = !dynamic;
#define C(f, n, h) policy_stat_counter(ctx, &sh->f, n, h)
    C(token_warp_cycles, "token_warp_cycles", "warp-cycles of warps holding a token (they allocate in the L1D)");
    C(nontoken_warp_cycles, "nontoken_warp_cycles",
      "warp-cycles of active warps without a token (they issue; their L1D misses bypass the L1D)");
    C(throttled_warp_cycles, "throttled_warp_cycles", "warp-cycles of throttled warps (live, not at a barrier, not issuing)");
    C(token_grants, "token_grants", "times a warp received a token (became one of the oldest `tokens`)");
    C(bypass_lookups, "bypass_lookups", "L1D lookups of loads of warps without a token (hits are served)");
    C(bypassed, "bypassed", "L1D misses of warps without a token, sent past the L1D (no line allocated)");
    C(bw_windows, "bw_windows", "bandwidth windows ended (bw_window cycles each)");
    C(bw_reactivated, "bw_reactivated",
      "throttled warps re-activated (per scheduler) without a token because the L2 and DRAM were under-used");
    C(bw_deactivated, "bw_deactivated", "re-activated warps throttled again because the L2 or DRAM was busy");
    C(extra_max, "extra_max", "the most warps per scheduler re-activated for bandwidth at once");
    if (dynamic) {
        C(windows, "windows", "hill-climbing windows ended (window cycles each)");
        C(warp_changes, "warp_changes", "changes of the active-warp limit (the TLP search)");
        C(token_changes, "token_changes", "changes of the token count");
        C(searches, "searches", "searches started (at the start of a kernel other than the last one)");
        C(settled, "settled", "searches that settled on a setting");
        C(settled_warps_sum, "settled_warps_sum", "sum of the active-warp limits searches settled on (per scheduler)");
        C(settled_tokens_sum, "settled_tokens_sum", "sum of the token counts searches settled on (per scheduler)");
    }
#undef C
    return sh;
}

void pcal_shared_free(void *shared)
{
    PcalShared *sh = shared;
    free(sh->dyn);
    free(sh);
}

void pcal_set(PcalShared *sh, uint32_t warps, uint32_t tokens)
{
    CHECK(tokens <= warps);
    if (warps == sh->warps && tokens == sh->tokens)
        return;
    sh->warp_changes += warps != sh->warps;
    sh->token_changes += tokens != sh->tokens;
    sh->warps = warps;
    sh->tokens = tokens;
    sh->gen++;
}

void *pcal_create(const PolicyCtx *ctx)
{
    Pcal *p = xcalloc(1, sizeof *p);
    p->sh = ctx->shared;
    p->index = ctx->index;
    p->last = -1;
    return p;
}

void pcal_destroy(void *self) { free(self); }

/* The end of a hill-climbing window: the SM's IPC over it goes to the search. */
static void window_tick(PcalShared *sh, const WarpSchedView *v)
{
    uint64_t now = v->cycle, insts = v->sm->warp_insts;
    if (!sh->win_started || now >= sh->win_next) {
        if (sh->win_started && now > sh->win_start) {
            sh->windows++;
            sh->on_window(sh, (double)(insts - sh->win_insts) / (double)(now - sh->win_start));
        }
        sh->win_started = true;
        sh->win_start = now;
        sh->win_insts = insts;
        sh->win_next = now + sh->window;
    }
}

/* The end of a bandwidth window: one more warp per scheduler without a token while the L2 and
 * the DRAM are both below the threshold and some warp is throttled; one fewer otherwise. */
static void bandwidth_tick(PcalShared *sh, const WarpSchedView *v)
{
    uint64_t now = v->cycle;
    if (sh->bw_started && now < sh->bw_next)
        return;
    MemBusySample s = mem_busy_sample(v->sm->mem);
    if (sh->bw_started) {
        double l2, dram;
        mem_busy_util(v->sm->mem, &sh->bw_last, &s, &l2, &dram);
        bool throttled = false;
        for (uint32_t i = 0; i < sh->n_sched; i++)
            throttled |= sh->n_throttled[i] > 0;
        sh->bw_windows++;
        if (MAX(l2, dram) < sh->bw_thresh) {
            if (throttled && sh->warps + sh->extra < sh->sched_slots) {
                sh->extra++;
                sh->bw_reactivated++;
                sh->extra_max = MAX(sh->extra_max, sh->extra);
                sh->gen++;
            }
        } else if (sh->extra) {
            sh->extra--;
            sh->bw_deactivated++;
            sh->gen++;
        }
    }
    sh->bw_started = true;
    sh->bw_last = s;
    sh->bw_next = now + sh->bw_window;
}

/* The oldest `tokens` of cand hold tokens, the oldest warps + extra are active. */
static void regroup(Pcal *p, uint64_t cand, const uint64_t *age)
{
    PcalShared *sh = p->sh;
    uint64_t active = 0, token = 0;
    sh->n_cand[p->index] = popcount_u64(cand);
    uint32_t n_active = sh->warps + sh->extra;
    for (uint32_t n = 0; n < n_active && cand; n++) {
        int s = warp_sched_oldest(cand, age);
        cand &= ~(1ull << s);
        active |= 1ull << s;
        if (n < sh->tokens)
            token |= 1ull << s;
    }
    sh->token_grants += popcount_u64(token & ~p->token);
    sh->n_throttled[p->index] = popcount_u64(cand);
    p->active = active;
    p->token = token;
}

/* Every look: count the warp-cycles since the last one, end the windows that are due, and
 * regroup if the warps or the settings changed. */
static void look(Pcal *p, const WarpSchedView *v)
{
    PcalShared *sh = p->sh;
    uint64_t now = v->cycle;
    if (!p->timed) {
        p->timed = true;
        p->since = now;
    } else if (now > p->since) {
        uint64_t d = now - p->since;
        sh->token_warp_cycles += popcount_u64(p->token) * d;
        sh->nontoken_warp_cycles += popcount_u64(p->active & ~p->token) * d;
        sh->throttled_warp_cycles += sh->n_throttled[p->index] * d;
        p->since = now;
    }
    if (sh->on_window)
        window_tick(sh, v);
    if (sh->bw_enabled && sh->bw_thresh > 0 && v->sm->mem)
        bandwidth_tick(sh, v);
    uint64_t cand = v->valid & ~v->sm->barrier_mask;
    if (!p->grouped || cand != p->cand_seen || sh->gen != p->gen_seen) {
        p->grouped = true;
        p->cand_seen = cand;
        p->gen_seen = sh->gen;
        regroup(p, cand, v->age);
    }
}

bool pcal_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    Pcal *p = self;
    look(p, v);
    return p->active >> slot & 1;
}

int pcal_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const Pcal *)self)->last, v); }

void pcal_on_issue(void *self, uint32_t slot, const WarpSchedView *v) { ((Pcal *)self)->last = (int)slot; }

void pcal_on_warp_exit(void *self, uint32_t slot)
{
    Pcal *p = self;
    if (p->last == (int)slot)
        p->last = -1;
    p->active &= ~(1ull << slot); /* its place goes to the next warp at the next look */
    p->token &= ~(1ull << slot);
    /* The groups must be made again even when the live mask looks unchanged at that look: a
     * new CTA's warp may take this slot first, and as the youngest warp it has no claim to the
     * place. Keyed on the mask alone, the slot stayed out of `active` for good, and with
     * one-warp CTAs (gaussian's ge_fan2) every slot ended up so: no warp could issue. */
    p->grouped = false;
}

bool pcal_bypass_l1d(void *self, uint32_t slot, uint64_t look_ups)
{
    Pcal *p = self;
    bool bypass = !(p->token >> slot & 1);
    p->sh->bypass_lookups += bypass ? look_ups : 0;
    return bypass;
}

/* The throttled group as of the last look (warps at a barrier are in no group). */
uint64_t pcal_throttled(const void *self)
{
    const Pcal *p = self;
    return p->grouped ? p->cand_seen & ~p->active : 0;
}

void pcal_on_l1d_miss(void *self, const WarpL1dEvent *e)
{
    Pcal *p = self;
    p->sh->bypassed += !(p->token >> e->slot & 1);
}

void pcal_on_kernel_start(void *self, const FrontKernel *k)
{
    Pcal *p = self;
    PcalShared *sh = p->sh;
    /* nothing is counted for the time between kernels */
    p->active = p->token = 0;
    p->grouped = p->timed = false;
    sh->n_throttled[p->index] = 0;
    if (p->index != 0) /* every scheduler hears it; the SM-wide state changes once */
        return;
    sh->extra = 0;
    sh->bw_started = sh->win_started = false;
    sh->gen++;
    if (sh->on_kernel)
        sh->on_kernel(sh, k);
}

int pcal_group(const void *self, uint32_t slot)
{
    const Pcal *p = self;
    return (p->token >> slot & 1) ? 2 : (p->active >> slot & 1) ? 1 : 0;
}
