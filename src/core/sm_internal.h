/* sm_internal.h: what the SM's files (sm.c, sm_scoreboard.c, sm_issue.c, sm_ldst.c) share and
 * nothing else may use. */
#ifndef WARPSIM_SM_INTERNAL_H
#define WARPSIM_SM_INTERNAL_H

#include "core/sm.h"

#include "base/base.h"

#define SM_NO_REC 0xFFFFu
#define SM_NO_ASYNC 0xFFu
#define SM_NO_SET UINT32_MAX
#define SM_NO_FILL UINT64_MAX


/* Something happened that needs the SM's cycle at `at` (any event but a reply put into the
 * response FIFO, which lowers next_wake only: see Sm.self_wake). */
static inline void sm_wake(Sm *sm, uint64_t at)
{
    sm->next_wake = MIN(sm->next_wake, at);
    sm->self_wake = MIN(sm->self_wake, at);
}

/* The bit count of an active mask of warp w, counted again only when the mask changes. */
static inline uint8_t sm_lanes_of(Warp *w, uint32_t mask)
{
    if (mask != w->counted_mask) {
        w->counted_mask = mask;
        w->counted_lanes = (uint8_t)popcount_u32(mask);
    }
    return w->counted_lanes;
}

/* The front end's calls. With gpu.threads > 1 (gpu_par.c) an SM's cycle may run beside other
 * SMs'; before its first call of the cycle that the front end does not allow in parallel
 * (FrontOps.peek_parallel, exec_parallel, WINST_F_ORDERED) it waits until the SMs before it
 * have finished the cycle, so that the front end sees those calls in one thread's order. */
static inline void sm_front_order(Sm *sm, bool parallel)
{
    if (sm->order && !parallel && !sm->order->waited)
        sm_order_wait(sm->order);
}

static inline const WinstStatic *sm_front_peek(Sm *sm, const Warp *w)
{
    sm_front_order(sm, sm->front->peek_parallel);
    return sm->front->peek(sm->front_self, w->id);
}

static inline uint32_t sm_front_peek_mask(Sm *sm, const Warp *w)
{
    sm_front_order(sm, sm->front->peek_parallel);
    return sm->front->peek_mask(sm->front_self, w->id);
}

/* Execute warp w's next instruction, whose static view is w->next. */
static inline void sm_front_exec(Sm *sm, const Warp *w, Winst *out)
{
    sm_front_order(sm, sm->front->exec_parallel && !(w->next->flags & WINST_F_ORDERED));
    sm->front->exec(sm->front_self, w->id, out);
}

/* The unit an instruction issues to. SP and SFU are indexes of Sm.pool_free_at. */
typedef enum SmUnit { SM_UNIT_SP, SM_UNIT_SFU, SM_UNIT_LDST, SM_UNIT_TENSOR } SmUnit;

/* Fermi: divides, double precision and transcendentals run on the SFU (no DP unit). A bit
 * per op (WOP_COUNT <= 32) rather than a chain of compares: it is asked on every issue. */
#define SM_SFU_OPS                                                                                          \
    ((1u << WOP_SFU) | (1u << WOP_INT_DIV) | (1u << WOP_FP_DIV) | (1u << WOP_DP_ADD) | (1u << WOP_DP_MUL) | \
     (1u << WOP_DP_MAD) | (1u << WOP_DP_DIV))
static inline bool sm_on_sfu(uint8_t op) { return SM_SFU_OPS >> op & 1; }

/* Each op's unit, two bits an op (SM_UNIT_SP is 0). */
#define SM_UNIT_BITS(op, u) ((uint64_t)(u) << (2 * (op)))
#define SM_OP_UNITS                                                                                          \
    (SM_UNIT_BITS(WOP_LOAD, SM_UNIT_LDST) | SM_UNIT_BITS(WOP_STORE, SM_UNIT_LDST) |                          \
     SM_UNIT_BITS(WOP_ATOMIC, SM_UNIT_LDST) | SM_UNIT_BITS(WOP_TENSOR, SM_UNIT_TENSOR) |                     \
     SM_UNIT_BITS(WOP_SFU, SM_UNIT_SFU) | SM_UNIT_BITS(WOP_INT_DIV, SM_UNIT_SFU) |                           \
     SM_UNIT_BITS(WOP_FP_DIV, SM_UNIT_SFU) | SM_UNIT_BITS(WOP_DP_ADD, SM_UNIT_SFU) |                         \
     SM_UNIT_BITS(WOP_DP_MUL, SM_UNIT_SFU) | SM_UNIT_BITS(WOP_DP_MAD, SM_UNIT_SFU) |                         \
     SM_UNIT_BITS(WOP_DP_DIV, SM_UNIT_SFU))
_Static_assert(WOP_COUNT <= 32, "an op's unit and SFU bit are read from 64- and 32-bit words");

static inline SmUnit sm_unit_of(const WinstStatic *s) { return (SmUnit)(SM_OP_UNITS >> (2 * s->op) & 3); }

/* sm_scoreboard.c: recompute a warp's earliest issue cycle after something about it changed,
 * and keep the SM's masks and the schedulers' slot info in step. */
void sm_warp_update(Sm *sm, Warp *w, uint64_t now);
/* Drop the entries whose registers are written by `now`. */
void sm_sb_compact(Warp *w, uint64_t now);
/* Record n destination registers written at `release` (UINT64_MAX: when a load is back);
 * inline, as it runs on every issue. */
static inline void sm_sb_add(Sm *sm, Warp *w, const uint16_t *regs, uint32_t n, uint64_t release, uint64_t now)
{
    uint32_t k = w->n_sb; /* in a local: the entries' stores may alias the count */
    if (k + n > sm->max_pending_regs) {
        sm_sb_compact(w, now);
        k = w->n_sb;
    }
    CHECK(k + n <= sm->max_pending_regs); /* warp_compute_ready waited for room */
    for (uint32_t d = 0; d < n; d++)
        w->sb[k++] = (ScoreboardEntry){regs[d], release};
    w->n_sb = k;
}

/* Scheduler k issued nothing for n cycles with live warps and none ready: a RAW stall when one
 * of them waits on the scoreboard, else an idle or control stall (barrier, empty I-buffer). */
static inline void sm_count_no_ready(Sm *sm, uint32_t k, uint64_t n)
{
    sm->idle_no_ready += n;
    if (sm->sched_mask[k] & sm->raw_mask)
        sm->stall_raw += n;
    else
        sm->stall_idle += n;
}

/* sm.c */
void sm_warp_retire(Sm *sm, uint32_t slot, uint64_t now);
/* The register file changed: miss-path components that keep lines in idle registers hear it. */
void sm_regfile_changed(Sm *sm, uint64_t now);

/* sm_ctl.c: CTA throttling by a miss-path component (SmCtaCtl). A CTA arrived or completed; a
 * controller request's reply; the controller's tick when it is due (sm->ctl_due). */
void sm_ctl_init(Sm *sm);
void sm_ctl_cta_event(Sm *sm, const SmCta *c, bool launched, uint64_t now);
void sm_ctl_reply(Sm *sm, MemReq *r, uint64_t now);
void sm_ctl_tick(Sm *sm, uint64_t now);
void sm_barrier_arrive(Sm *sm, Warp *w, uint64_t now);

/* The schedulers' stall counters (their low 32 bits, enough for one cycle's difference). */
static inline SmStall sm_stall_counts(const Sm *sm)
{
    return (SmStall){(uint32_t)sm->idle_no_ready, (uint32_t)sm->stall_ldst, (uint32_t)sm->stall_structural,
                     (uint32_t)sm->stall_raw, (uint32_t)sm->stall_idle};
}
/* What the counters gained since `before`. */
static inline SmStall sm_stall_since(const Sm *sm, SmStall before)
{
    SmStall now = sm_stall_counts(sm);
    return (SmStall){now.no_ready - before.no_ready, now.ldst - before.ldst, now.structural - before.structural,
                     now.raw - before.raw, now.idle - before.idle};
}
/* Add n times a cycle's counts. */
static inline void sm_stall_add(Sm *sm, const SmStall *a, uint64_t n)
{
    sm->idle_no_ready += n * a->no_ready;
    sm->stall_ldst += n * a->ldst;
    sm->stall_structural += n * a->structural;
    sm->stall_raw += n * a->raw;
    sm->stall_idle += n * a->idle;
}

/* sm_issue.c: each scheduler issues at most one instruction; true if any did. */
bool sm_schedule(Sm *sm, uint64_t now, uint64_t *next_ready);
/* sm.ibuffer > 0: the fetch unit refills one empty instruction buffer; true if it did. */
bool sm_fetch(Sm *sm, uint64_t now);
/* A warp starts with an empty instruction buffer (sm.ibuffer > 0) or its first instruction
 * fetch_lat cycles away. */
void sm_ibuf_start(Sm *sm, Warp *w, uint32_t slot, uint64_t now);

/* sm_ldst.c */
void sm_ldst_init(Sm *sm, Stats *st);
void sm_ldst_free(Sm *sm);
/* Whether a memory instruction can issue now: the LD/ST unit is idle or its queue has room. */
static inline bool sm_ldst_can_take(const Sm *sm) { return !sm->ldst.active || sm->ldst.mq_n < sm->ldst.mq_cap; }
void sm_issue_memory(Sm *sm, uint32_t slot, const Winst *wi, uint64_t now);
/* Replies, timed returns and one LD/ST step; true if anything happened. *next: the earliest
 * cycle the unit or a timed return needs the SM again. */
bool sm_ldst_cycle(Sm *sm, uint64_t now);
/* The SM woke for the response FIFO's head alone (before Sm.self_wake): if that reply only counts
 * its request down (a sector reply, not its request's last nor a sectored L1D's fill) and wakes
 * no blocked unit, take it as sm_ldst_cycle would and return true. The rest of the cycle would
 * then do what a cycle the SM sleeps through does, which account_sleep counts; false: the full
 * cycle, nothing done. */
bool sm_ldst_count_down(Sm *sm);
/* Count the replays the blocked unit slept through before `now`, leaving it blocked (a kernel
 * stopped with its CTAs resident: gpu.max_cycles, the run limits). */
void sm_ldst_account(Sm *sm, uint64_t now);
/* The earliest cycle the unit needs the SM again. */
uint64_t sm_ldst_next_event(const Sm *sm, uint64_t now);
/* A request another part of the SM put into the miss queue (an instruction fetch, a CTA
 * controller's line, a re-executed access) may fill it or take the last MSHR: the blocked
 * unit's access may now fail otherwise. */
static inline void sm_ldst_check_missq(Sm *sm)
{
    Ldst *u = &sm->ldst;
    if (u->blocked && sm->l1d.miss_q.n > u->block_missq)
        u->wake = true;
}
/* Nothing for the LD/ST side this cycle: no reply, no instruction in the unit or its queues, no
 * timed return due. sm_ldst_cycle would do nothing (and the next event is the rings'); an
 * ALU-bound SM is here on most cycles, so it is asked inline before that call. */
static inline bool sm_ldst_quiet(const Sm *sm, uint64_t now)
{
    const Ldst *u = &sm->ldst;
    return !sm->replies.head && !u->wake && !u->active && !u->rq_n && !u->lq_n && sm->ring_next_ready > now;
}
/* What the warp scheduler decides for a look-up of warp slot `warp`'s load, asked without
 * counting one (WarpSchedOps.bypass_l1d, steer): bit 0 bypass, bit 1 steer. */
static inline uint8_t sm_ldst_sched_choice(Sm *sm, uint32_t warp)
{
    const WarpSchedOps *ops = sm->sched_ops;
    void *self = sm->sched[warp % sm->n_sched];
    return (uint8_t)((ops->bypass_l1d && ops->bypass_l1d(self, warp, 0)) | (ops->steer && ops->steer(self, warp)) << 1);
}
/* The scheduler's hooks may have run (the SM's cycle, a sample): a blocked unit whose access it
 * would now decide otherwise looks it up again. */
static inline void sm_ldst_sched_changed(Sm *sm)
{
    Ldst *u = &sm->ldst;
    if (u->blocked && !u->wake && (sm->sched_ops->bypass_l1d || sm->sched_ops->steer) &&
        sm_ldst_sched_choice(sm, u->block_warp) != u->block_choice)
        u->wake = true;
}
/* One access's L1D lookup, accounted, without holding the unit on a failure. */
L1dResult sm_ldst_lookup(Sm *sm, const LqEntry *e, uint32_t waited, uint64_t now);
/* One access of load record i is back (or looked up, for an access that was owed). */
void sm_ldst_rec_return(Sm *sm, uint32_t i, uint64_t now);

/* sm_reexec.c: the cache access re-execution queue (sm.reexec_queue) */
/* Take the refused access e (res: why) into the queue: true if it is a global load's, refused
 * for want of an MSHR entry, merge room or miss-queue room, and there is room. */
bool sm_reexec_defer(Sm *sm, const LqEntry *e, L1dResult res);
/* Retry the queue's head (non-empty) if something changed since it was refused: true if it
 * took the L1D's port this cycle. */
bool sm_reexec_step(Sm *sm, uint64_t now);
/* The warp's priority in GTO order among its scheduler's live warps: how many are older (kept
 * in older_live whenever the live warps change, sm.c). */
static inline uint32_t sm_gto_rank(const Sm *sm, uint32_t slot) { return sm->older_live[slot]; }

#endif
