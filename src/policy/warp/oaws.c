/* oaws.c: what OAWS's schedulers share (Wang's thesis, ch. 5; see oaws.h): per SM, the
 * Divergent Load Classifier, Miss_inflight, the FCW estimate and the warps' global GTO
 * priorities; per scheduler, GTO order among the warps that qualify.
 *
 * Qualification (eq. 5.1, thesis 5.2.1): a warp whose next instruction is a global/local load
 * of a pc the DLC knows as divergent qualifies when Miss_pred(pc, w) <= Avail_mshr -
 * Miss_inflight: the L1D's free MSHR entries now, less the predicted misses of the loads issued
 * and not yet looked up in full (the SM's on_load_serviced ends them; their actual misses then
 * hold MSHR entries of their own). Other instructions, stores and coherent loads (pcs the DLC
 * does not know) always qualify; a coherent load counts one predicted miss while in flight.
 * Div_pred(pc, w) is the warp's active threads (thesis 5.3, like DAWS): WarpSlotInfo.next_lanes.
 * The qualified warps are scheduled in GTO order (Fig. 5.2 (3)). FCW-only throttling predicts
 * nothing: it holds back the divergent loads of thrashing warps (priority not below FCW).
 *
 * Choices the thesis leaves open, made here:
 * - Miss_pred is rounded up and capped at the L1D's MSHR entries: a warp that needs them all
 *   qualifies once they are all free and nothing is in flight, instead of never (with the
 *   thesis' 32 entries and 32 lanes the cap only bites for eq. 5.4's younger locality warps).
 * - A load predicted to miss nothing always qualifies, so that static OAWS with SMR 0% is GTO,
 *   as thesis 5.5.6 says; eq. 5.1 read literally would hold it back while Miss_inflight exceeds
 *   the free entries.
 * - The prediction is made when the warp is asked about, from the DLC as it is then, rather
 *   than stored in the instruction buffer when the instruction arrives (5.4.3's hardware
 *   shortcut, which only makes it a little older).
 * - GTO_gprio (eq. 5.4) and the priority that splits locality from thrashing warps (5.4.2) are
 *   the warp's place in launch order among the SM's live warps (0: the oldest), the GTO order
 *   across the SM's schedulers, leaving out warps waiting at a barrier (or FCW throttling could
 *   hold the rest of their CTA forever); the FCW estimate (Fig. 5.3) is fed the priority at
 *   issue.
 * - FCW starts at 4 (DaCache's start, 4.2.4; chapter 5 gives none), C_max is 128 (5.4.3's 7-bit
 *   counter), W_max 48, and at least one warp per scheduler stays a locality warp. The estimate
 *   is kept across kernels; the DLC is cleared at each kernel (5.4.3).
 * - FCW-only throttling ("only scheduling locality warps", 5.4.2) holds a thrashing warp back
 *   only when its next instruction is a divergent load (a pc in the DLC), as OAWS's qualification
 *   acts on divergent loads alone (Fig. 5.2). Holding all its instructions would pin a kernel
 *   without divergent loads, which never move FCW, at FCW's start (4 of 48 warps), where the
 *   thesis finds no harm to coherent benchmarks (5.5.2).
 * Not the thesis': div_pred = history bounds Div_pred by the pc's mean line accesses per
 * instance (#acc / #inst, rounded up), for loads that touch fewer lines than they have threads.
 *
 * Stats (sm[i].sched.<name>.*): denied, dlc_inserts, dlc_evictions; with a prediction
 * (oaws-static, oaws-dyn): loads_divergent, loads_coherent, pred_misses, actual_misses; with FCW
 * (oaws-dyn, fcw): fcw_up, fcw_down, fcw_loads, fcw_sum; oaws-dyn also pred_locality,
 * pred_thrashing. */
#include "policy/warp/oaws.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

Oaws *oaws_shared_create(const PolicyCtx *ctx, const OawsParams *p)
{
    Oaws *o = xcalloc(1, sizeof *o);
    o->p = *p;
    o->prio = xcalloc(64, sizeof *o->prio);
    o->cap_fly = 16;
    o->fly = xcalloc(o->cap_fly, sizeof *o->fly);
    bool predicts = p->mode != OAWS_FCW, fcw = p->mode != OAWS_STATIC;
    oaws_dlc_init(&o->dlc, p->dlc_entries);
    if (fcw) {
        uint32_t n_sched = ctx->count ? ctx->count : 1;
        fcw_train_init(&o->ft, p->fcw, p->cmax, MIN(n_sched, p->wmax), p->wmax);
    }
#define C(f, n, h) policy_stat_counter(ctx, &o->f, n, h)
    C(denied, "denied",
      p->mode == OAWS_FCW ? "ready warps held back (per cycle): a divergent load of a thrashing warp"
                          : "ready warps held back (per cycle): their divergent load failed eq. 5.1");
    C(dlc.inserts, "dlc_inserts", "divergent load pcs entered into the DLC");
    C(dlc.evictions, "dlc_evictions", "DLC entries replaced by a new pc (the table was full)");
    if (predicts) {
        C(loads_div, "loads_divergent", "global loads issued whose pc the DLC knew as divergent");
        C(loads_coh, "loads_coherent", "global loads issued whose pc the DLC did not know (coherent: 1 miss predicted)");
        C(pred_misses, "pred_misses", "Miss_pred summed over the divergent loads issued");
        C(actual_misses, "actual_misses", "L1D misses (merges included) of the divergent loads issued");
    }
    if (p->mode == OAWS_DYN) {
        C(pred_locality, "pred_locality", "divergent loads issued by locality warps (eq. 5.4)");
        C(pred_thrashing, "pred_thrashing", "divergent loads issued by thrashing warps (100% miss rate)");
    }
    if (fcw) {
        C(ft.up, "fcw_up", "times the FCW estimate grew (Fig. 5.3)");
        C(ft.down, "fcw_down", "times the FCW estimate shrank");
        C(fcw_loads, "fcw_loads", "divergent loads looked up in full (what the FCW estimate counts)");
        C(fcw_sum, "fcw_sum", "FCW summed over those loads (mean FCW = fcw_sum / fcw_loads)");
    }
#undef C
    return o;
}

void oaws_shared_destroy(void *shared)
{
    Oaws *o = shared;
    oaws_dlc_free(&o->dlc);
    free(o->prio);
    free(o->fly);
    free(o);
}

uint32_t oaws_prio(Oaws *o, uint32_t slot, const SmView *sm)
{
    /* Warps waiting at a barrier take no place: otherwise a throttle that let only them go
     * would never release it (GPGPU-Sim's oldest-first order puts waiting warps last too). */
    uint64_t key = sm->live_mask & ~sm->barrier_mask;
    if (!o->prio_valid || key != o->prio_key) {
        for (uint64_t m = sm->live_mask; m; m &= m - 1) {
            uint32_t s = (uint32_t)__builtin_ctzll(m), older = 0;
            for (uint64_t k = key; k; k &= k - 1)
                older += sm->slot[__builtin_ctzll(k)].age < sm->slot[s].age;
            o->prio[s] = older;
        }
        o->prio_key = key;
        o->prio_valid = true;
    }
    return slot < 64 && (sm->live_mask >> slot & 1) ? o->prio[slot] : 0;
}

uint32_t oaws_predict(Oaws *o, uint32_t slot, const WarpSlotInfo *w, const SmView *sm, bool *divergent)
{
    const OawsDlcEntry *e = oaws_dlc_find(&o->dlc, w->next_pc);
    *divergent = e != NULL;
    if (!e)
        return 1; /* thesis 5.2.1: a coherent load is predicted one miss */
    uint32_t div_pred = w->next_lanes, pred;
    if (o->p.div_history && e->inst) /* the pc's mean accesses per instance, if fewer */
        div_pred = MIN(div_pred, (e->acc + e->inst - 1) / e->inst);
    if (o->p.mode == OAWS_STATIC) {
        pred = (div_pred * o->p.smr_percent + 99) / 100; /* eq. 5.2 */
    } else {
        uint32_t g = oaws_prio(o, slot, sm);
        pred = g < o->ft.fcw ? oaws_dlc_misses(e, div_pred) + g /* eq. 5.4, a locality warp */
                             : div_pred;                       /* a thrashing warp: 100% */
    }
    return MIN(pred, sm->mshr_used + sm->mshr_free);
}

void *oaws_create(const PolicyCtx *ctx)
{
    OawsSched *s = xcalloc(1, sizeof *s);
    s->o = ctx->shared;
    s->last = -1;
    return s;
}

void oaws_destroy(void *self) { free(self); }

int oaws_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const OawsSched *)self)->last, v); }

bool oaws_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    Oaws *o = ((OawsSched *)self)->o;
    bool ok;
    if (!w->next_global_load) {
        ok = true;
    } else if (o->p.mode == OAWS_FCW) { /* a thrashing warp's divergent load waits */
        ok = !oaws_dlc_find(&o->dlc, w->next_pc) || oaws_prio(o, slot, v->sm) < o->ft.fcw;
    } else {
        bool divergent;
        uint32_t pred = oaws_predict(o, slot, w, v->sm, &divergent);
        ok = !divergent || pred == 0 || (uint64_t)pred + o->inflight <= v->sm->mshr_free; /* eq. 5.1 */
    }
    o->denied += !ok;
    return ok;
}

void oaws_on_issue(void *self, uint32_t slot, const WarpSchedView *v)
{
    OawsSched *s = self;
    Oaws *o = s->o;
    s->last = (int)slot;
    const WarpSlotInfo *w = &v->sm->slot[slot];
    if (!w->next_global_load)
        return;
    OawsFlight f = {.slot = slot, .pc = w->next_pc, .prio = oaws_prio(o, slot, v->sm)};
    if (o->p.mode != OAWS_FCW) {
        f.pred = oaws_predict(o, slot, w, v->sm, &f.divergent);
        o->inflight += f.pred;
        if (f.divergent) {
            o->loads_div++;
            o->pred_misses += f.pred;
            if (o->p.mode == OAWS_DYN)
                *(f.prio < o->ft.fcw ? &o->pred_locality : &o->pred_thrashing) += 1;
        } else {
            o->loads_coh++;
        }
    }
    if (o->n_fly == o->cap_fly) { /* a few loads of a warp can wait for the LD/ST unit at once */
        o->cap_fly *= 2;
        o->fly = xrealloc(o->fly, o->cap_fly * sizeof *o->fly);
    }
    o->fly[o->n_fly++] = f;
}

void oaws_on_warp_exit(void *self, uint32_t slot)
{
    OawsSched *s = self;
    if (s->last == (int)slot)
        s->last = -1;
}

void oaws_on_load_serviced(void *self, const WarpLoadDone *e)
{
    Oaws *o = ((OawsSched *)self)->o;
    /* the oldest flight of this warp and pc (loads of a warp are looked up in issue order) */
    OawsFlight f = {.slot = e->slot, .pc = e->pc, .prio = e->slot < 64 ? o->prio[e->slot] : 0};
    for (uint32_t i = 0; i < o->n_fly; i++)
        if (o->fly[i].slot == e->slot && o->fly[i].pc == e->pc) {
            f = o->fly[i];
            memmove(&o->fly[i], &o->fly[i + 1], (o->n_fly - i - 1) * sizeof *o->fly);
            o->n_fly--;
            break;
        }
    o->inflight -= MIN(f.pred, o->inflight);
    if (f.divergent)
        o->actual_misses += e->misses;
    if (e->accesses <= 2) /* thesis 1.1.2: only divergent loads train the DLC and FCW */
        return;
    oaws_dlc_update(&o->dlc, e->pc, e->accesses, e->misses);
    if (o->p.mode != OAWS_STATIC) {
        o->fcw_loads++;
        o->fcw_sum += o->ft.fcw;
        fcw_train_load(&o->ft, e->fully_cached, f.prio);
    }
}

void oaws_on_kernel_start(void *self, const FrontKernel *k)
{
    Oaws *o = ((OawsSched *)self)->o;
    oaws_dlc_clear(&o->dlc); /* thesis 5.4.3 */
}
