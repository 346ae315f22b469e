/* sm_issue.c: the warp schedulers of one SM and instruction issue (thesis 1.1.1).
 *
 * Warp slot w belongs to scheduler w mod sm.n_sched. Each cycle every scheduler collects its
 * ready warps (I-buffer full, scoreboard clear, functional unit free), lets the policy hold
 * some back (may_issue: counted as sched.held), and issues the one its policy picks. A cycle
 * with live warps but none ready counts as sched.no_ready, or sched.ldst_stall when the only
 * warps that could go wanted the busy LD/ST unit. Schedulers see the SM through one SmView,
 * refreshed once per cycle before the first scheduler looks (for a policy that reads it). */
#include "core/sm_internal.h"

#include "base/base.h"

/* The tensor-core unit of warp slot `slot`: one per sub-core (scheduler), shared round-robin
 * when there are fewer units than schedulers. */
static uint64_t *tensor_unit(const Sm *sm, uint32_t slot)
{
    return &sm->tensor_busy[(slot % sm->n_sched) % sm->cfg->sm.n_tensor_units];
}

/* Whether unit u, which the next instruction of warp slot `slot` needs, can accept it this
 * cycle (one of a pool's units is free when the earliest of its busy cycles has come). */
static bool unit_free(const Sm *sm, uint32_t slot, SmUnit u, uint64_t now)
{
    if (u == SM_UNIT_LDST)
        return sm_ldst_can_take(sm);
    if (u == SM_UNIT_TENSOR)
        return *tensor_unit(sm, slot) <= now;
    return sm->pool_free_at[u] <= now;
}

void sm_ibuf_start(Sm *sm, Warp *w, uint32_t slot, uint64_t now)
{
    w->ibuf_n = 0;
    if (!sm->cfg->sm.ibuffer) {
        w->ibuf_ready = now + sm->cfg->sm.fetch_lat;
        return;
    }
    w->ibuf_ready = UINT64_MAX;
    sm->fetch_mask |= 1ull << slot;
}

/* GPGPU-Sim's front end (sm.ibuffer): the fetch unit fills one warp's buffer a cycle, taking
 * the first warp with an empty buffer at or after the one it served last, round-robin; the
 * buffer is decoded the next cycle and issues from the cycle after. With an instruction cache
 * (sm.icache_sets) a miss sends the line's read and the warp waits for it (sm_icache.h);
 * without one every fetch hits. */
bool sm_fetch(Sm *sm, uint64_t now)
{
    uint64_t m = sm->fetch_mask;
    if (!m)
        return false;
    uint64_t later = sm->fetch_next < 64 ? m & (~0ull << sm->fetch_next) : 0;
    uint32_t slot = (uint32_t)__builtin_ctzll(later ? later : m);
    sm->fetch_next = slot + 1;
    Warp *w = &sm->warps[slot];
    if (sm->ic.sets) {
        if (!w->next)
            w->next = sm_front_peek(sm, w);
        CHECK(w->next);
        uint64_t addr = SM_CODE_BASE + w->next->pc;
        IcacheResult res = icache_fetch(&sm->ic, slot, addr);
        if (res == ICACHE_SEND &&
            !l1d_send_inst_fetch(&sm->l1d, icache_line_of(&sm->ic, addr), sm->cfg->sm.icache_line, now)) {
            icache_unsend(&sm->ic, addr); /* the port is busy: this warp again later */
            res = ICACHE_FULL;
        }
        if (res == ICACHE_FULL)
            return false;
        if (res != ICACHE_HIT) { /* the warp waits for its line (icache_fill) */
            sm->fetch_mask &= ~(1ull << slot);
            return true;
        }
    }
    sm->fetch_mask &= ~(1ull << slot);
    w->ibuf_n = sm->cfg->sm.ibuffer;
    w->ibuf_ready = now + 2;
    sm_warp_update(sm, w, now);
    return true;
}

/* The issued instruction leaves the buffer. The next one issues the next cycle if it is
 * there and follows in sequence; after a taken branch (or the last one) the buffer is empty
 * and waits for the fetch unit. */
static void ibuf_step(Sm *sm, Warp *w, uint32_t slot, uint32_t pc, uint64_t now)
{
    if (!sm->cfg->sm.ibuffer) {
        w->ibuf_ready = now + sm->cfg->sm.fetch_lat;
        return;
    }
    if (w->ibuf_n > 1) {
        w->next = sm_front_peek(sm, w);
        if (w->next && w->next->pc == pc + WINST_PC_STEP) {
            w->ibuf_n--;
            w->ibuf_ready = now + 1;
            return;
        }
    }
    sm_ibuf_start(sm, w, slot, now);
}

static void issue(Sm *sm, uint32_t slot, uint64_t now)
{
    Warp *w = &sm->warps[slot];
    Winst *wi = &sm->scratch;
    sm_front_exec(sm, w, wi);
    w->next = NULL;
    ibuf_step(sm, w, slot, wi->s.pc, now);
    sm->warp_insts++;
    w->lanes = sm_lanes_of(w, wi->active_mask);
    sm->thread_insts += w->lanes;
    uint8_t op = wi->s.op;
    if (wi->s.flags & WINST_F_ASYNC_COMMIT)
        w->async_open++; /* cp.async.commit_group: the open group is complete; later copies start the next */
    if (winst_is_mem(&wi->s)) {
        sm_issue_memory(sm, slot, wi, now);
    } else if (op == WOP_BARRIER) {
        sm_barrier_arrive(sm, w, now);
    } else if (op == WOP_EXIT) {
        w->exited = true;
        sm_warp_retire(sm, slot, now);
        return;
    } else if (op == WOP_TENSOR) {
        *tensor_unit(sm, slot) = now + sm->ii[op];
        sm_sb_add(sm, w, wi->s.dst, wi->s.n_dst, now + sm->lat[op], now);
    } else {
        SmUnit u = sm_on_sfu(op) ? SM_UNIT_SFU : SM_UNIT_SP;
        uint64_t *busy = sm->pool_busy[u];
        uint32_t n = sm->pool_units[u];
        /* The unit free the longest takes it (one is free: the scheduler asked). Which free unit
         * takes it does not matter: a free unit's cycle, at most now, is only ever compared with
         * a later cycle, so the pool behaves the same. The pool changes only here: its earliest
         * busy cycle too. */
        uint32_t j = 0;
        for (uint32_t i = 1; i < n; i++)
            j = busy[i] < busy[j] ? i : j;
        busy[j] = now + sm->ii[op];
        uint64_t t = busy[0];
        for (uint32_t i = 1; i < n; i++)
            t = MIN(t, busy[i]);
        sm->pool_free_at[u] = t;
        sm_sb_add(sm, w, wi->s.dst, wi->s.n_dst, now + sm->lat[op], now);
    }
    sm_warp_update(sm, w, now);
}

/* sm.issue_per_warp = 2 (GPGPU-Sim's dual issue, with its default of two different units): the
 * warp that just issued an instruction to unit `first` issues its next buffered one in the same
 * cycle if it follows in sequence, needs another unit that is free, the scoreboard allows it
 * and the policy does not hold it back. */
static bool issue_second(Sm *sm, uint32_t k, uint32_t slot, SmUnit first, const WarpSchedView *v, uint64_t now)
{
    Warp *w = &sm->warps[slot];
    if (!w->live || w->exited || w->ibuf_ready != now + 1 || !w->next || sm_unit_of(w->next) == first)
        return false; /* the buffer is empty, or the next instruction waits for the same unit */
    w->ibuf_ready = now;
    sm_warp_update(sm, w, now);
    bool ok = sm->ready_at[slot] <= now && unit_free(sm, slot, sm->next_unit[slot], now);
    const WarpSchedOps *ops = sm->sched_ops;
    if (ok && ops->may_issue)
        ok = ops->may_issue(sm->sched[k], slot, &sm->slot_info[slot], v);
    if (!ok) {
        w->ibuf_ready = now + 1;
        sm_warp_update(sm, w, now);
        return false;
    }
    if (ops->on_issue)
        ops->on_issue(sm->sched[k], slot, v);
    sm->issue_rank[MIN(sm_gto_rank(sm, slot), sm->n_ranks - 1)]++;
    issue(sm, slot, now);
    sm->dual_issued++;
    return true;
}

/* The SM-wide part of what the schedulers see, as of now. */
static void refresh_view(Sm *sm)
{
    SmView *v = &sm->view;
    const L1d *c = &sm->l1d;
    v->mshr_used = mshr_in_use(&c->mshr);
    v->mshr_free = c->mshr.n_entries - v->mshr_used;
    v->miss_queue_used = c->miss_q.n;
    v->ldst_busy = sm->ldst.active;
    v->ldst_blocked = sm->ldst.active && sm->ldst.blocked;
    v->ldst_warp = sm->ldst.warp;
    v->ldst_pc = sm->ldst.pc;
    v->ldst_pending = sm->ldst.active ? sm->ldst.n - sm->ldst.pos : 0;
    v->ldst_queued = sm->ldst.mq_n;
    v->live_ctas = sm->n_live_ctas;
    uint64_t live = 0;
    for (uint32_t k = 0; k < sm->n_sched; k++)
        live |= sm->sched_mask[k];
    v->live_warps = popcount_u64(live);
    v->live_mask = live;
    v->barrier_mask = sm->barrier_mask;
    v->warp_insts = sm->warp_insts;
    v->smem_unused = sm->cfg->sm.smem_bytes - sm->smem_used;
}

/* The earliest cycle unit u, busy now, frees up: units change otherwise only when an
 * instruction issues. The LD/ST unit's queue is not timed (its events wake the SM). */
static uint64_t unit_free_at(const Sm *sm, uint32_t slot, SmUnit u, uint64_t now)
{
    if (u == SM_UNIT_LDST)
        return now + 1;
    if (u == SM_UNIT_TENSOR)
        return *tensor_unit(sm, slot);
    return sm->pool_free_at[u];
}

/* Ready warps of scheduler k's candidates; the earliest future event goes to *next_ready, and
 * *busy tells whether a candidate could issue but for its busy unit. */
static uint64_t ready_warps(Sm *sm, uint64_t cand, uint64_t now, uint64_t *next_ready, bool *busy)
{
    uint64_t ready = 0, next = *next_ready; /* in a local: the stores through next_ready may alias ready_at */
    const uint64_t *ready_at = sm->ready_at;
    for (uint64_t m = cand; m; m &= m - 1) {
        uint32_t slot = (uint32_t)__builtin_ctzll(m);
        if (ready_at[slot] > now) {
            next = MIN(next, ready_at[slot]);
            continue;
        }
        SmUnit u = (SmUnit)sm->next_unit[slot];
        if (unit_free(sm, slot, u, now)) {
            ready |= 1ull << slot;
        } else {
            *busy = true;
            next = MIN(next, unit_free_at(sm, slot, u, now));
        }
    }
    *next_ready = next;
    return ready;
}

bool sm_schedule(Sm *sm, uint64_t now, uint64_t *next_ready)
{
    bool can_take = sm_ldst_can_take(sm); /* asked again after each issue, which may fill the unit */
    if (now < sm->sched_memo.until && sm->sched_memo.epoch == sm->sched_epoch && sm->sched_memo.can_take == can_take) {
        sm_stall_add(sm, &sm->sched_memo.add, 1); /* the last cycle again: nothing it read changed */
        sm->stall_wait = sm->sched_memo.stall_wait;
        *next_ready = MIN(*next_ready, sm->sched_memo.until);
        return false;
    }
    const bool can_take_before = can_take;
    const SmStall before = sm_stall_counts(sm);
    uint64_t next = *next_ready; /* in a local, as in ready_warps */
    bool any = false;
    sm->stall_wait = false;
    const WarpSchedOps *ops = sm->sched_ops;
    bool viewed = ops->ignores_sm_view; /* refreshed already, or never needed */
    /* sm.sched_rotate: which scheduler sees the shared units first this cycle */
    uint32_t n = sm->n_sched, first = 0;
    if (sm->sched_rotate) /* no division on the common power-of-two counts */
        first = (n & (n - 1)) == 0 ? (uint32_t)(now & (n - 1)) : (uint32_t)(now % n);
    const bool dual = sm->dual_issue;
    /* the fields every scheduler sees alike; the rest are set per scheduler */
    WarpSchedView v; /* filled for the first scheduler with a ready warp: most cycles have none */
    for (uint32_t i = 0, k = first; i < n; i++, k = k + 1 == n ? 0 : k + 1) {
        uint64_t live = sm->sched_mask[k];
        uint64_t cand = live & ~sm->waiting_mask & ~sm->held_mask, blocked_mem = 0; /* held: sm_ctl.c */
        bool wanted_ldst = false;
        if (!can_take) { /* memory instructions cannot issue: look at them only for stats */
            blocked_mem = cand & sm->mem_next_mask;
            cand &= ~blocked_mem;
            for (uint64_t m = blocked_mem; m; m &= m - 1) {
                uint32_t slot = (uint32_t)__builtin_ctzll(m);
                if (sm->ready_at[slot] <= now) {
                    wanted_ldst = true; /* one is enough: the LD/ST unit's next event decides */
                    break;
                }
                next = MIN(next, sm->ready_at[slot]);
            }
        }
        if (!cand && !blocked_mem) { /* every warp waits for an event: the common case */
            if (live)
                sm_count_no_ready(sm, k, 1);
            continue;
        }
        bool busy = false;
        uint64_t ready = ready_warps(sm, cand, now, &next, &busy);
        if (!ready) {
            if (wanted_ldst) {
                sm->stall_ldst++;
                sm->stall_structural++;
                sm->stall_wait = true;
            } else if (busy) {
                sm->idle_no_ready++;
                sm->stall_structural++;
                sm->stall_wait = true;
            } else if (live) {
                sm_count_no_ready(sm, k, 1);
            }
            continue;
        }
        if (!viewed) {
            refresh_view(sm);
            viewed = true;
        }
        v = (WarpSchedView){.ready = ready, .valid = live, .mem_wait = sm->mem_wait_mask & live, .age = sm->age,
                            .cycle = now, .sched = k, .sm = &sm->view};
        if (ops->may_issue) {
            for (uint64_t m = ready; m; m &= m - 1) {
                uint32_t slot = (uint32_t)__builtin_ctzll(m);
                if (!ops->may_issue(sm->sched[k], slot, &sm->slot_info[slot], &v))
                    v.ready &= ~(1ull << slot);
            }
            if (!v.ready) { /* the policy may change its mind without an event: look again */
                sm->held++;
                next = MIN(next, now + 1);
                continue;
            }
        }
        int slot = ops->pick(sm->sched[k], &v);
        if (slot < 0) {
            sm_count_no_ready(sm, k, 1);
            next = MIN(next, now + 1);
            continue;
        }
        CHECK(v.ready >> slot & 1);
        if (ops->on_issue)
            ops->on_issue(sm->sched[k], (uint32_t)slot, &v);
        sm->issue_rank[MIN(sm_gto_rank(sm, (uint32_t)slot), sm->n_ranks - 1)]++;
        SmUnit first_unit = (SmUnit)sm->next_unit[slot];
        issue(sm, (uint32_t)slot, now);
        sm->issued++;
        if (dual)
            issue_second(sm, k, (uint32_t)slot, first_unit, &v, now);
        can_take = sm_ldst_can_take(sm);
        any = true;
        next = MIN(next, now + 1);
    }
    if (!any) {
        /* what this cycle counted (sm_cycle's stall sleep reads it too); worth remembering only
         * when the next cycle is not due anyway */
        sm->sched_memo.add = sm_stall_since(sm, before);
        sm->sched_memo.stall_wait = sm->stall_wait;
        sm->sched_memo.epoch = sm->sched_epoch;
        sm->sched_memo.until = next > now + 1 ? next : 0;
        sm->sched_memo.can_take = can_take_before;
    }
    *next_ready = next;
    return any;
}
