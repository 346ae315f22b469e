/* lb_throttle.c: Linebacker's CTA throttling on the SM, with register backup and restore
 * through the 6-entry buffer (lb_throttle.h). */
#include "policy/mpath/lb_throttle.h"

#include "base/base.h"

#include <string.h>

#define LB_LINE 128u /* one warp register, one line */

void lb_throttle_init(LbThrottle *t, uint32_t entries, uint64_t window, double bound, uint32_t sm)
{
    memset(t, 0, sizeof *t);
    t->entries = entries;
    t->window = window;
    t->bound = bound;
    t->bp0 = LB_BACKUP_BASE + (uint64_t)sm * LB_BACKUP_SM_STRIDE;
    t->limit = UINT32_MAX;
}

void lb_throttle_kernel_begin(LbThrottle *t, uint64_t cycle)
{
    CHECK(t->op == LB_BUF_IDLE); /* every CTA of the last kernel came back and completed */
    t->started = t->on = false;
    t->kernel_start = cycle;
    t->limit = UINT32_MAX;
}

static uint32_t count_ctas(const LbThrottle *t, bool active)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < LB_CTL_MAX_CTAS; i++)
        n += t->cm.cta[i].live && t->cm.cta[i].act == active;
    return n;
}

uint32_t lb_throttle_active(const LbThrottle *t) { return count_ctas(t, true); }
uint32_t lb_throttle_inactive(const LbThrottle *t) { return count_ctas(t, false); }

void lb_throttle_cta(LbThrottle *t, const MpathCtaEvent *e, const SmCtaCtl *ctl)
{
    CHECK(e->slot < LB_CTL_MAX_CTAS);
    if (!e->launched) {
        lb_ctam_finish(&t->cm, e->slot); /* a throttled CTA cannot complete: it issues nothing */
        return;
    }
    if (!t->started) { /* Common Info at the kernel's first CTA; IPC windows from the kernel's start */
        t->started = true;
        lb_ctam_kernel_begin(&t->cm, e->n_wregs, t->bp0);
        lb_ipc_start(&t->ipc, t->window, t->bound, -t->bound, t->kernel_start, ctl->insts(ctl->sm));
    }
    CHECK(e->n_wregs == t->cm.n_reg); /* one kernel at a time: every CTA the same size */
    lb_ctam_launch(&t->cm, e->slot, e->frn);
    t->frn_of[e->slot] = e->frn;
}

static void start_op(LbThrottle *t, LbBufOp op, uint32_t hw, uint64_t addr, uint64_t now)
{
    t->op = op;
    t->hw = hw;
    t->n = t->cm.n_reg;
    t->addr = addr;
    t->read = t->sent = t->in_buf = t->acked = t->filled = t->written = 0;
    t->op_start = now;
}

/* One CTA fewer: the active one with the largest hardware id stops issuing; its backup starts
 * once its loads are back. */
static void throttle_one(LbThrottle *t, uint64_t now, const SmCtaCtl *ctl)
{
    if (t->op != LB_BUF_IDLE) {
        t->skipped++;
        return;
    }
    uint32_t hw = lb_ctam_pick_throttle(&t->cm);
    if (hw == LB_CTL_NONE)
        return;
    t->limit = lb_throttle_active(t) - 1;
    ctl->set_cta_limit(ctl->sm, t->limit);
    ctl->cta_hold(ctl->sm, hw, true, now);
    start_op(t, LB_BUF_DRAIN, hw, lb_ctam_backup_begin(&t->cm, hw), now);
    t->throttles++;
}

/* Fewer CTAs active than wanted and one throttled: bring the one throttled last back. */
static void balance(LbThrottle *t, uint64_t now, const SmCtaCtl *ctl)
{
    if (t->op != LB_BUF_IDLE || t->limit == UINT32_MAX || lb_throttle_active(t) >= t->limit)
        return;
    uint32_t hw = lb_ctam_pick_restore(&t->cm);
    if (hw == LB_CTL_NONE)
        return;
    /* its registers are where they were: the CTA kept its allocation while inactive */
    CHECK(t->cm.cta[hw].frn == LB_CTL_NONE); /* flushed at the backup's end */
    start_op(t, LB_BUF_RESTORE, hw, lb_ctam_restore(&t->cm, hw, t->frn_of[hw]), now);
    ctl->cta_regs_active(ctl->sm, hw, true, now); /* victim lines there are dropped (clean) */
    t->restores++;
}

static void decide(LbThrottle *t, LbCtlAction a, uint64_t now, const SmCtaCtl *ctl)
{
    if (a == LB_CTL_THROTTLE) {
        t->throttle_decisions++;
        throttle_one(t, now, ctl);
    } else if (a == LB_CTL_RESTORE) {
        t->restore_decisions++;
        if (t->limit != UINT32_MAX) {
            t->limit++;
            ctl->set_cta_limit(ctl->sm, t->limit); /* a throttled CTA first, else a new one */
        }
    }
}

/* A backup's cycle: one entry leaves as a write if the miss queue takes it, one register is
 * read into a free entry; done when every write is acknowledged. */
static void backup_step(LbThrottle *t, uint64_t now, const SmCtaCtl *ctl)
{
    if (t->in_buf && ctl->send(ctl->sm, t->addr + (uint64_t)t->sent * LB_LINE, true, t->sent, now)) {
        t->in_buf--;
        t->sent++;
        t->backup_bytes += LB_LINE;
    }
    if (t->read < t->n && t->in_buf < t->entries) {
        t->read++;
        t->in_buf++;
    }
    if (t->acked == t->n) {
        lb_ctam_backup_done(&t->cm, t->hw);
        ctl->cta_regs_active(ctl->sm, t->hw, false, now); /* the VTT may use them now */
        t->backup_cycles += now - t->op_start;
        t->op = LB_BUF_IDLE;
    }
}

/* A restore's cycle: one line that arrived is written into its register, one more read is sent
 * while an entry is free; done when all #reg are written: the warps issue again. */
static void restore_step(LbThrottle *t, uint64_t now, const SmCtaCtl *ctl)
{
    if (t->filled) {
        t->filled--;
        t->in_buf--;
        t->written++;
    }
    if (t->sent < t->n && t->in_buf < t->entries &&
        ctl->send(ctl->sm, t->addr + (uint64_t)t->sent * LB_LINE, false, t->sent, now)) {
        t->sent++;
        t->in_buf++;
        t->restore_bytes += LB_LINE;
    }
    if (t->written == t->n) {
        ctl->cta_hold(ctl->sm, t->hw, false, now);
        t->restore_cycles += now - t->op_start;
        t->op = LB_BUF_IDLE;
    }
}

/* One cycle of the buffer. */
static void buffer_step(LbThrottle *t, uint64_t now, const SmCtaCtl *ctl)
{
    if (t->op == LB_BUF_DRAIN && ctl->cta_drained(ctl->sm, t->hw)) {
        t->drain_cycles += now - t->op_start;
        t->op = LB_BUF_BACKUP; /* the first register is read this cycle */
    }
    if (t->op == LB_BUF_BACKUP)
        backup_step(t, now, ctl);
    else if (t->op == LB_BUF_RESTORE)
        restore_step(t, now, ctl);
}

void lb_throttle_reply(LbThrottle *t, bool write)
{
    if (write) {
        CHECK(t->op == LB_BUF_BACKUP && t->acked < t->sent);
        t->acked++;
    } else {
        CHECK(t->op == LB_BUF_RESTORE && t->filled < t->in_buf);
        t->filled++;
    }
}

uint64_t lb_throttle_tick(LbThrottle *t, uint64_t now, bool selected, const SmCtaCtl *ctl)
{
    if (!t->started)
        return UINT64_MAX;
    while (lb_ipc_window_due(&t->ipc, now)) {
        LbCtlAction a = lb_ipc_window_end(&t->ipc, ctl->insts(ctl->sm));
        t->ipc_windows++;
        if (!t->on) {
            if (!selected)
                continue; /* monitoring, or not cache-sensitive: no decision */
            t->on = true; /* the first decision: throttle one CTA without comparing */
            a = LB_CTL_THROTTLE;
        }
        decide(t, a, now, ctl);
    }
    buffer_step(t, now, ctl);
    balance(t, now, ctl);
    if (t->op != LB_BUF_IDLE)
        return now + 1;
    return t->ipc.window_start + t->ipc.window_cycles;
}
