/* sm_scoreboard.c: when a warp may issue (thesis 1.1.1: I-buffer and scoreboard).
 *
 * A warp's earliest issue cycle (ready_at) is cached and recomputed only when something about
 * the warp changes: its next instruction is fetched into the one-entry I-buffer fetch_lat
 * cycles after its last issue; it waits until every register its next instruction reads or
 * writes is released (ALU results at a fixed latency, loads when their data is back:
 * UINT64_MAX until then) and until a scoreboard entry is free. A warp at a barrier, exited, or
 * waiting to exit with loads outstanding has ready_at UINT64_MAX (it waits for an event). The
 * schedulers' per-slot view (WarpSlotInfo) is refreshed here too. */
#include "core/sm_internal.h"

#include "base/base.h"

static bool sb_mentions(const WinstStatic *s, uint16_t reg)
{
    for (uint32_t i = 0; i < s->n_src; i++)
        if (s->src[i] == reg)
            return true;
    for (uint32_t i = 0; i < s->n_dst; i++)
        if (s->dst[i] == reg)
            return true;
    return false;
}

void sm_sb_compact(Warp *w, uint64_t now)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->n_sb; i++)
        if (w->sb[i].release > now)
            w->sb[k++] = w->sb[i];
    w->n_sb = k;
}

/* The cycle by which `need` entries are free: the need-th earliest release (pending loads,
 * UINT64_MAX, never count: then the warp waits for their data). */
__attribute__((noinline)) static uint64_t sb_free_by(const Warp *w, uint32_t need)
{
    uint64_t t = 0;
    uint32_t freed = 0;
    while (freed < need) {
        uint64_t next = UINT64_MAX;
        for (uint32_t i = 0; i < w->n_sb; i++)
            if (w->sb[i].release > t && w->sb[i].release < next)
                next = w->sb[i].release;
        if (next == UINT64_MAX)
            return UINT64_MAX;
        for (uint32_t i = 0; i < w->n_sb; i++)
            freed += w->sb[i].release == next;
        t = next;
    }
    return t;
}

/* cp.async.wait_group (s): every group older than the async_keep most recent committed ones
 * (wait_all: every group, the open one committed first) has no copy in flight. */
__attribute__((noinline)) static bool async_waited(const Warp *w, const WinstStatic *s)
{
    uint64_t committed = (uint64_t)w->async_open + ((s->flags & WINST_F_ASYNC_COMMIT) ? 1 : 0);
    if (committed <= s->async_keep)
        return true;
    uint64_t limit = committed - s->async_keep; /* groups below this id must be complete */
    for (uint32_t j = 0; j < SM_ASYNC_SLOTS; j++)
        if (w->async_pend[j] && w->async_gid[j] < limit)
            return false;
    return true;
}

static void warp_compute_ready(Sm *sm, Warp *w, uint64_t now)
{
    w->raw = false;
    if (!w->live || w->exited || w->at_barrier) {
        w->ready_at = UINT64_MAX;
        return;
    }
    if (!w->next) {
        w->next = sm_front_peek(sm, w);
        CHECK(w->next); /* every stream ends with an exit, which retires the warp */
    }
    uint64_t t = w->ibuf_ready;
    const WinstStatic *s = w->next;
    /* one pass: drop the entries written by now (sm_sb_compact), wait for the rest; the count and
     * the entries in locals, as the entries' stores may alias them */
    ScoreboardEntry *sb = w->sb;
    const uint32_t n_sb = w->n_sb;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n_sb; i++) {
        ScoreboardEntry e = sb[i];
        if (e.release <= now)
            continue;
        sb[k++] = e;
        if (e.release > t && t != UINT64_MAX && sb_mentions(s, e.reg))
            t = e.release;
    }
    w->n_sb = k;
    if (s->op == WOP_EXIT && (w->loads_pending || w->stores_pending))
        t = UINT64_MAX; /* retire only when every load is back and every store acknowledged */
    if ((s->flags & WINST_F_ASYNC_WAIT) && !async_waited(w, s))
        t = UINT64_MAX; /* a copy's return wakes it (rec_check_done) */
    /* Copies in flight hold load records as pending registers do: together they stay within
     * sm.max_pending_regs, which sizes the record pool. A copy needs one. */
    uint32_t need = s->n_dst + ((s->flags & WINST_F_ASYNC) && s->op == WOP_LOAD);
    uint32_t cap = sm->max_pending_regs - w->async_n;
    if (t != UINT64_MAX && w->n_sb + need > cap)
        t = need > cap ? UINT64_MAX : MAX(t, sb_free_by(w, w->n_sb + need - cap));
    w->raw = t > w->ibuf_ready && s->op != WOP_EXIT;
    w->ready_at = t;
}

/* The schedulers' per-slot view of warp w, for a policy that reads it; apart, so that the warp
 * update's common path makes no call after the front end's peek. */
__attribute__((noinline)) static void slot_info_refresh(Sm *sm, Warp *w, uint32_t slot)
{
    WarpSlotInfo *si = &sm->slot_info[slot];
    const bool live = w->live;
    const WinstStatic *next = w->next;
    const uint32_t loads_pending = w->loads_pending;
    si->live = live;
    si->has_next = live && next;
    si->loads_pending = loads_pending;
    if (live && next) {
        const WinstStatic *s = next;
        si->next_pc = s->pc;
        si->next_op = s->op;
        si->next_space = s->space;
        si->next_global_load = s->op == WOP_LOAD && (s->space == WSPACE_GLOBAL || s->space == WSPACE_LOCAL);
        si->next_lanes = sm->front->peek_mask ? sm_lanes_of(w, sm_front_peek_mask(sm, w)) : w->lanes;
    }
}

void sm_warp_update(Sm *sm, Warp *w, uint64_t now)
{
    sm->sched_epoch++;
    warp_compute_ready(sm, w, now);
    uint32_t slot = w->slot;
    uint64_t bit = 1ull << slot;
    /* read once: the byte-wide stores below may alias them as far as the compiler knows */
    const bool live = w->live;
    const WinstStatic *next = w->next;
    const uint64_t ready_at = w->ready_at;
    const uint32_t loads_pending = w->loads_pending;
    sm->waiting_mask = ready_at == UINT64_MAX ? sm->waiting_mask | bit : sm->waiting_mask & ~bit;
    bool mem_next = live && next && winst_is_mem(next);
    if (next)
        sm->next_unit[slot] = (uint8_t)sm_unit_of(next);
    sm->mem_next_mask = mem_next ? sm->mem_next_mask | bit : sm->mem_next_mask & ~bit;
    sm->ready_at[slot] = ready_at;
    sm->mem_wait_mask = live && loads_pending ? sm->mem_wait_mask | bit : sm->mem_wait_mask & ~bit;
    sm->raw_mask = live && w->raw ? sm->raw_mask | bit : sm->raw_mask & ~bit;
    if (!sm->sched_ops->ignores_sm_view)
        slot_info_refresh(sm, w, slot);
}
