/* sm_ctl.c: the SM's side of CTA throttling (policy.h SmCtaCtl): a miss-path component that
 * has CTA hooks may hold a CTA's warps from issue, mark its registers dynamically unused, cap
 * the CTAs the dispatcher gives the SM, and move lines to and from memory through the L1D's
 * miss queue. Without such a component none of this runs: held_mask stays 0, the cap stays
 * UINT32_MAX and ctl_due UINT64_MAX. */
#include "core/sm_internal.h"

#include "base/base.h"

static uint64_t ctl_insts(void *self) { return ((Sm *)self)->warp_insts; }

static uint64_t cta_warps(const SmCta *c) { return (c->n_warps >= 64 ? ~0ull : (1ull << c->n_warps) - 1) << c->first_slot; }

static bool ctl_cta_drained(void *self, uint32_t slot)
{
    Sm *sm = self;
    const SmCta *c = &sm->ctas[slot];
    CHECK(slot < sm->cfg->sm.max_ctas && c->live);
    for (uint32_t i = 0; i < c->n_warps; i++)
        if (sm->warps[c->first_slot + i].loads_pending)
            return false;
    return true;
}

static void ctl_cta_hold(void *self, uint32_t slot, bool hold, uint64_t now)
{
    Sm *sm = self;
    const SmCta *c = &sm->ctas[slot];
    CHECK(slot < sm->cfg->sm.max_ctas && c->live);
    sm->sched_epoch++;
    if (hold) {
        sm->held_mask |= cta_warps(c);
    } else {
        sm->held_mask &= ~cta_warps(c);
        sm_wake(sm, now);
    }
}

static void ctl_cta_regs_active(void *self, uint32_t slot, bool active, uint64_t now)
{
    Sm *sm = self;
    regfile_set_active(&sm->rf, slot, active, now);
    sm_regfile_changed(sm, now);
}

static void ctl_set_cta_limit(void *self, uint32_t limit)
{
    Sm *sm = self;
    if (limit > sm->cta_limit)
        sm->cta_room_grew = true; /* the dispatcher asks again without waiting for a completion */
    sm->cta_limit = limit;
}

static bool ctl_send(void *self, uint64_t addr, bool write, uint32_t tag, uint64_t now)
{
    Sm *sm = self;
    return l1d_send_ctl(&sm->l1d, addr, write, tag, now);
}

void sm_ctl_init(Sm *sm)
{
    sm->ctl = (SmCtaCtl){.sm = sm, .insts = ctl_insts, .cta_drained = ctl_cta_drained, .cta_hold = ctl_cta_hold,
                         .cta_regs_active = ctl_cta_regs_active, .set_cta_limit = ctl_set_cta_limit, .send = ctl_send};
    sm->cta_limit = UINT32_MAX;
    sm->ctl_due = UINT64_MAX;
}

/* The controller hears of an event: it runs again at the next cycle. */
static void ctl_wake(Sm *sm, uint64_t now)
{
    sm->ctl_due = MIN(sm->ctl_due, now + 1);
    sm_wake(sm, sm->ctl_due);
}

void sm_ctl_cta_event(Sm *sm, const SmCta *c, bool launched, uint64_t now)
{
    if (sm->l1d.ctl_k < 0)
        return;
    MpathCtaEvent e = {.launched = launched, .slot = (uint32_t)(c - sm->ctas), .frn = c->frn,
                       .n_wregs = regfile_warp_regs(c->regs), .max_ctas = sm->cfg->sm.max_ctas, .cycle = now};
    l1d_cta_event(&sm->l1d, &e, &sm->ctl);
    ctl_wake(sm, now);
}

void sm_ctl_reply(Sm *sm, MemReq *r, uint64_t now)
{
    l1d_ctl_reply(&sm->l1d, r, now);
    ctl_wake(sm, now);
}

void sm_ctl_tick(Sm *sm, uint64_t now)
{
    if (sm->ctl_due > now)
        return;
    sm->ctl_due = l1d_ctl_tick(&sm->l1d, now, &sm->ctl);
    CHECK(sm->ctl_due > now);
}
