/* lb_ctl.c: the IPC monitor and CTA manager of Linebacker's CTA Throttling Logic (lb_ctl.h). */
#include "policy/mpath/lb_ctl.h"

#include "base/base.h"

#include <string.h>

#define LB_WARP_REG_BYTES 128u

void lb_ipc_start(LbIpcMonitor *m, uint64_t window_cycles, double upper, double lower, uint64_t now, uint64_t insts)
{
    memset(m, 0, sizeof *m);
    m->window_cycles = window_cycles;
    m->upper = upper;
    m->lower = lower;
    m->window_start = now;
    m->insts_at_start = insts;
}

bool lb_ipc_window_due(const LbIpcMonitor *m, uint64_t now) { return now >= m->window_start + m->window_cycles; }

LbCtlAction lb_ipc_window_end(LbIpcMonitor *m, uint64_t insts)
{
    m->prev_ipc = m->cur_ipc;
    m->cur_ipc = (double)(insts - m->insts_at_start) / (double)m->window_cycles;
    m->window_start += m->window_cycles;
    m->insts_at_start = insts;
    if (m->windows++ == 0 || m->prev_ipc <= 0)
        return LB_CTL_KEEP;
    double var = (m->cur_ipc - m->prev_ipc) / m->prev_ipc; /* eq. 1 */
    if (var > m->upper)
        return LB_CTL_THROTTLE;
    if (var < m->lower)
        return LB_CTL_RESTORE;
    return LB_CTL_KEEP;
}

void lb_ctam_kernel_begin(LbCtaManager *m, uint32_t n_reg, uint64_t bp0)
{
    memset(m, 0, sizeof *m);
    m->n_reg = n_reg;
    m->bp0 = m->bp = bp0;
    m->lrn = LB_CTL_NONE;
}

/* LRN: the largest register number of the active CTAs. */
static void update_lrn(LbCtaManager *m)
{
    m->lrn = LB_CTL_NONE;
    for (uint32_t i = 0; i < LB_CTL_MAX_CTAS; i++) {
        const LbCtaInfo *c = &m->cta[i];
        if (c->live && c->act && m->n_reg) {
            uint32_t last = c->frn + m->n_reg - 1;
            if (m->lrn == LB_CTL_NONE || last > m->lrn)
                m->lrn = last;
        }
    }
}

void lb_ctam_launch(LbCtaManager *m, uint32_t hw, uint32_t frn)
{
    CHECK(hw < LB_CTL_MAX_CTAS && !m->cta[hw].live);
    m->cta[hw] = (LbCtaInfo){.live = true, .act = true, .frn = frn};
    update_lrn(m);
}

void lb_ctam_finish(LbCtaManager *m, uint32_t hw)
{
    CHECK(hw < LB_CTL_MAX_CTAS && m->cta[hw].live && m->cta[hw].act);
    memset(&m->cta[hw], 0, sizeof m->cta[hw]);
    update_lrn(m);
}

uint32_t lb_ctam_pick_throttle(const LbCtaManager *m)
{
    uint32_t n_active = 0, pick = LB_CTL_NONE;
    for (uint32_t i = 0; i < LB_CTL_MAX_CTAS; i++)
        if (m->cta[i].live && m->cta[i].act) {
            n_active++;
            pick = i;
        }
    return n_active > 1 ? pick : LB_CTL_NONE;
}

uint64_t lb_ctam_backup_begin(LbCtaManager *m, uint32_t hw)
{
    LbCtaInfo *c = &m->cta[hw];
    CHECK(hw < LB_CTL_MAX_CTAS && c->live && c->act);
    c->act = false;
    c->done = false;
    return m->bp;
}

void lb_ctam_backup_done(LbCtaManager *m, uint32_t hw)
{
    LbCtaInfo *c = &m->cta[hw];
    CHECK(hw < LB_CTL_MAX_CTAS && c->live && !c->act && !c->done);
    c->ba = m->bp;
    m->bp += (uint64_t)m->n_reg * LB_WARP_REG_BYTES;
    c->done = true;
    c->frn = LB_CTL_NONE;
    update_lrn(m);
}

uint32_t lb_ctam_pick_restore(const LbCtaManager *m)
{
    uint64_t top = m->bp - (uint64_t)m->n_reg * LB_WARP_REG_BYTES;
    for (uint32_t i = 0; i < LB_CTL_MAX_CTAS; i++)
        if (m->cta[i].live && !m->cta[i].act && m->cta[i].done && m->cta[i].ba == top)
            return i;
    return LB_CTL_NONE;
}

uint64_t lb_ctam_restore(LbCtaManager *m, uint32_t hw, uint32_t frn)
{
    LbCtaInfo *c = &m->cta[hw];
    CHECK(hw < LB_CTL_MAX_CTAS && c->live && !c->act && c->done && m->bp > m->bp0);
    m->bp -= (uint64_t)m->n_reg * LB_WARP_REG_BYTES;
    CHECK(c->ba == m->bp); /* the stack's top */
    c->act = true;
    c->done = false;
    c->frn = frn;
    update_lrn(m);
    return m->bp;
}
