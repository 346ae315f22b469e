/* sm_ldst.c: the LD/ST unit of one SM, its load records and timed returns (thesis 1.2.3).
 *
 * The unit takes one memory instruction at a time and presents its coalesced line accesses to
 * the L1D one per cycle. An access that meets a reservation failure is replayed: the
 * instruction keeps the unit (memory occlusion). Nothing can change until a fill or a
 * miss-queue drain, so the unit sleeps instead of replaying every cycle and the L1D accounts
 * the replays it skipped when it wakes (l1d_count_replays), so the stats equal cycle-by-cycle
 * replay. Shared-memory accesses take one pass per bank-conflict degree; constant and
 * parameter loads a fixed latency.
 *
 * A load (or atomic) with destinations has a LoadRec: its registers, its accesses still out,
 * and for global loads how many missed. The record's index is the token the L1D hands back on
 * a fill. When its last access has been looked up the warp scheduler hears on_load_serviced;
 * when the last access's data is back the registers are released and it hears on_load_done. Timed returns (hits, shared, constant) wait in rings ordered by
 * ready cycle. A scheduler that asks (on_l1d_miss, on_l1d_evict) also hears each new L1D miss
 * of a global load, and each line the L1D replaces, told to the live warp that brought it in. */
#include "core/sm_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static void ring_init(TimedRing *r, uint32_t cap)
{
    r->ready = xcalloc(cap, sizeof *r->ready);
    r->rec = xcalloc(cap, sizeof *r->rec);
    r->head = r->n = 0;
    r->cap = cap;
}

static void ring_free(TimedRing *r)
{
    free(r->ready);
    free(r->rec);
}

/* Insert in ready order; equal ready cycles keep their arrival order. Entries almost always
 * arrive in order (one fixed latency), so this is an append. */
static void ring_push(TimedRing *r, uint64_t ready, uint32_t rec)
{
    CHECK(r->n < r->cap);
    uint32_t pos = r->n++;
    while (pos > 0) {
        uint32_t prev = (r->head + pos - 1) % r->cap;
        if (r->ready[prev] <= ready)
            break;
        uint32_t at = (r->head + pos) % r->cap;
        r->ready[at] = r->ready[prev];
        r->rec[at] = r->rec[prev];
        pos--;
    }
    uint32_t i = (r->head + pos) % r->cap;
    r->ready[i] = ready;
    r->rec[i] = rec;
}

static uint64_t ring_next(const TimedRing *r) { return r->n ? r->ready[r->head] : UINT64_MAX; }

static void timed_return(Sm *sm, int ring, uint64_t ready, uint32_t rec)
{
    ring_push(&sm->ring[ring], ready, rec);
    sm->ring_next_ready = MIN(sm->ring_next_ready, ready);
}

static uint32_t ring_pop(TimedRing *r)
{
    uint32_t rec = r->rec[r->head];
    r->head = (r->head + 1) % r->cap;
    r->n--;
    return rec;
}

void sm_ldst_init(Sm *sm, Stats *st)
{
    sm->n_recs = sm->max_warps * sm->cfg->sm.max_pending_regs;
    CHECK(sm->n_recs < SM_NO_REC);
    sm->recs = xcalloc(sm->n_recs, sizeof *sm->recs);
    for (uint32_t i = 0; i < sm->n_recs; i++)
        sm->recs[i].next_free = i + 1;
    sm->rec_free = 0;
    sm->fill_tokens = xcalloc(sm->l1d.max_fill_tokens, sizeof *sm->fill_tokens);
    if (sm->cfg->sm.ldst_queue) {
        sm->ldst.mq_cap = sm->cfg->sm.ldst_queue;
        sm->ldst.mq = xcalloc(sm->ldst.mq_cap, sizeof *sm->ldst.mq);
    }
    if (sm->cfg->sm.reexec_queue) {
        sm->ldst.rq_cap = sm->cfg->sm.reexec_queue;
        sm->ldst.rq = xcalloc(sm->ldst.rq_cap, sizeof *sm->ldst.rq);
    }
    if (sm->cfg->sm.l1d_access == SM_L1D_QUEUED) {
        sm->ldst.lq_cap = sm->cfg->l1d.hit_lat;
        sm->ldst.lq = xcalloc(sm->ldst.lq_cap, sizeof *sm->ldst.lq);
    }
    sm->ring_next_ready = UINT64_MAX;
    /* one access a cycle, each back within the hit latency plus a miss-path component's (<= 1000) */
    ring_init(&sm->ring[SM_RING_HIT], COAL_MAX_ACCESSES * 4 + sm->cfg->l1d.hit_lat + 1000);
    ring_init(&sm->ring[SM_RING_SMEM], sm->max_warps + 4);
    ring_init(&sm->ring[SM_RING_CONST], sm->max_warps + 4);
}

void sm_ldst_free(Sm *sm)
{
    for (int i = 0; i < SM_RING_COUNT; i++)
        ring_free(&sm->ring[i]);
    free(sm->recs);
    free(sm->fill_tokens);
    free(sm->ldst.lq);
    free(sm->ldst.mq);
    free(sm->ldst.rq);
}

static uint32_t rec_alloc(Sm *sm, uint32_t slot, const WinstStatic *s)
{
    CHECK(sm->rec_free < sm->n_recs);
    uint32_t i = sm->rec_free;
    LoadRec *r = &sm->recs[i];
    sm->rec_free = r->next_free;
    r->warp = (uint16_t)slot;
    r->n_dst = s->n_dst;
    r->async_slot = SM_NO_ASYNC;
    memcpy(r->dst, s->dst, sizeof r->dst);
    r->outstanding = 0;
    r->all_sent = false;
    r->global = s->op == WOP_LOAD && (s->space == WSPACE_GLOBAL || s->space == WSPACE_LOCAL);
    r->pc = s->pc;
    r->n_access = r->n_miss = r->n_lines = r->sched_rank = r->n_mshr = 0;
    r->issued = r->occlusion = 0;
    return i;
}

/* A load's accesses are all back: write its registers, wake its warp, tell its scheduler. */
static void rec_check_done(Sm *sm, uint32_t i, uint64_t now)
{
    LoadRec *r = &sm->recs[i];
    if (!r->all_sent || r->outstanding)
        return;
    Warp *w = &sm->warps[r->warp];
    for (uint32_t d = 0; d < r->n_dst; d++)
        for (uint32_t e = 0; e < w->n_sb; e++)
            if (w->sb[e].reg == r->dst[d] && w->sb[e].release == UINT64_MAX) {
                w->sb[e].release = now;
                break;
            }
    w->loads_pending--;
    if (r->async_slot != SM_NO_ASYNC) { /* a cp.async: its group has one copy fewer in flight */
        w->async_pend[r->async_slot]--;
        w->async_n--;
    }
    if (r->global && r->n_lines) { /* thesis 2.3.2: issue to the last data written back */
        sm->occlusion[r->n_lines > 2] += r->occlusion;
        sm->access_time[r->n_lines > 2] += now - r->issued;
    }
    r->next_free = sm->rec_free;
    sm->rec_free = i;
    sm_warp_update(sm, w, now);
    sm_wake(sm, now + 1);
    if (r->global && sm->sched_ops->on_load_done) {
        WarpLoadDone e = {.slot = r->warp, .pc = r->pc, .accesses = r->n_access, .misses = r->n_miss,
                          .fully_cached = r->n_miss == 0, .cycle = now};
        sm->sched_ops->on_load_done(sm->sched[r->warp % sm->n_sched], &e);
    }
}

void sm_ldst_rec_return(Sm *sm, uint32_t i, uint64_t now)
{
    CHECK(sm->recs[i].outstanding > 0);
    sm->recs[i].outstanding--;
    rec_check_done(sm, i, now);
}

static void rec_return(Sm *sm, uint32_t i, uint64_t now) { sm_ldst_rec_return(sm, i, now); }

/* An instruction-cache line is back: its warps go back to the fetch unit. */
static void inst_line_back(Sm *sm, MemReq *r, uint64_t now)
{
    sm->fetch_mask |= icache_fill(&sm->ic, r->addr);
    mempool_put(sm->l1d.pool, r);
    sm_wake(sm, now + 1);
}

/* A sector reply q of request req (mem.sector_replies) has been taken: true when it was the last
 * of its request, which the caller then acts on; otherwise q is recycled. */
static bool part_is_last(Sm *sm, MemReq *q, MemReq *req)
{
    CHECK(req->subs_left > 0);
    if (req->subs_left == 1)
        return true;
    req->subs_left--;
    mempool_put(sm->l1d.pool, q);
    return false;
}

bool sm_can_accept_reply(const Sm *sm, const MemReq *r)
{
    uint32_t cap = sm->cfg->sm.response_fifo;
    return !cap || r->inst || sm->replies.n < cap;
}

void sm_deliver(Sm *sm, MemReq *r, uint64_t now)
{
    /* With a response FIFO (GPGPU-Sim's), an instruction line bypasses it to the fetch unit. */
    if (r->inst && sm->cfg->sm.response_fifo) {
        if (r->part) {
            MemReq *req = mempool_at(sm->l1d.pool, r->token);
            if (!part_is_last(sm, r, req))
                return;
            mempool_put(sm->l1d.pool, r);
            r = req;
        }
        inst_line_back(sm, r, now);
        sm_wake(sm, now); /* the fetch unit may take the line this cycle */
        return;
    }
    memreq_queue_push(&sm->replies, r);
    sm->next_wake = MIN(sm->next_wake, now); /* not self_wake: the reply may only count down */
}

void sm_miss_queue_drained(Sm *sm, uint64_t now)
{
    sm->ldst.rq_retry = true;
    if (sm->ldst.blocked) {
        sm->ldst.wake = true;
        sm_wake(sm, now);
    }
}

/* A full miss queue's refusal is counted as the interconnect's from now on (l1d.c queue_full). */
void sm_miss_queue_refused(Sm *sm, uint64_t now)
{
    if (sm->ldst.blocked && sm->ldst.block_cause == L1D_FAIL_MISSQ) {
        sm->ldst.wake = true;
        sm_wake(sm, now);
    }
}

/* n LD/ST stall cycles of a reservation failure, by its cause (thesis Fig. 2.5). */
static void count_stall(Sm *sm, L1dResult cause, uint64_t n)
{
    if (cause == L1D_FAIL_MSHR || cause == L1D_FAIL_MERGE)
        sm->stall_mshr += n;
    else if (cause == L1D_FAIL_MISSQ || cause == L1D_FAIL_ICNT)
        sm->stall_icnt += n;
    else
        sm->stall_other += n;
}

/* Account the replays the blocked LD/ST unit skipped, and let it retry this cycle. */
void sm_ldst_account(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (!u->blocked || now <= u->blocked_since + 1)
        return;
    uint64_t skipped = now - u->blocked_since - 1;
    sm->ldst_replay += skipped;
    l1d_count_replays(&sm->l1d, (L1dResult)u->block_cause, skipped);
    count_stall(sm, (L1dResult)u->block_cause, skipped);
    if (sm->sched_ops->bypass_l1d) /* each replay asked, with the answer it had at the block */
        sm->sched_ops->bypass_l1d(sm->sched[u->block_warp % sm->n_sched], u->block_warp, skipped);
    u->blocked_since = now - 1;
}

static void ldst_unblock(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (!u->blocked || now <= u->blocked_since)
        return;
    sm_ldst_account(sm, now);
    u->blocked = false;
    u->wake = false;
}

/* Act on the reply r (a whole request's); false when the L1D made its fill wait (r untouched). */
static bool reply_act(Sm *sm, MemReq *r, uint64_t now)
{
    if (r->inst) {
        inst_line_back(sm, r, now);
        return true;
    }
    if (r->ctl) { /* a CTA controller's line (sm_ctl.c) */
        sm_ctl_reply(sm, r, now);
        return true;
    }
    if (r->kind == MREQ_WRITE) { /* a store's acknowledgement: its warp may be waiting to exit */
        Warp *w = &sm->warps[r->token];
        mempool_put(sm->l1d.pool, r);
        CHECK(w->live && w->stores_pending > 0);
        if (--w->stores_pending == 0) {
            sm_warp_update(sm, w, now);
            sm_wake(sm, now + 1);
        }
        return true;
    }
    if (r->kind == MREQ_ATOMIC) {
        uint32_t rec = r->token;
        mempool_put(sm->l1d.pool, r);
        if (rec != SM_NO_REC)
            rec_return(sm, rec, now);
        return true;
    }
    uint64_t addr = r->addr;
    int n = l1d_fill(&sm->l1d, r, sm->fill_tokens, now); /* recycles r unless the fill must wait */
    if (n < 0)
        return false;
    sm->ldst.filled_addr = addr;
    for (int i = 0; i < n; i++)
        rec_return(sm, sm->fill_tokens[i], now);
    return true;
}

/* A sector reply q of a read for a sectored L1D: its sector is filled now (GPGPU-Sim's sectored
 * L1Ds fetch one sector per request). False when the fill must wait (q untouched). */
static bool sector_fill(Sm *sm, MemReq *q, MemReq *req, uint64_t now)
{
    uint32_t parent = q->token;
    q->token = req->token;
    uint64_t addr = q->addr;
    int n = l1d_fill(&sm->l1d, q, sm->fill_tokens, now); /* recycles q unless the fill must wait */
    if (n < 0) {
        q->token = parent;
        return false;
    }
    sm->ldst.filled_addr = addr;
    for (int i = 0; i < n; i++)
        rec_return(sm, sm->fill_tokens[i], now);
    if (--req->subs_left == 0)
        mempool_put(sm->l1d.pool, req);
    return true;
}

/* One reply from the response FIFO (sm->replies); false when the L1D made its fill wait
 * (retried later). A sector reply (mem.sector_replies) takes the cycle; the request is acted on
 * with its last. */
static bool process_reply(Sm *sm, uint64_t now)
{
    MemReq *r = memreq_queue_pop(&sm->replies);
    bool done;
    if (!r->part) {
        done = reply_act(sm, r, now);
    } else {
        MemReq *req = mempool_at(sm->l1d.pool, r->token);
        if (r->kind == MREQ_READ && !r->inst && tags_sectored(&sm->l1d.tags))
            done = sector_fill(sm, r, req, now);
        else if (!part_is_last(sm, r, req))
            done = true;
        else if ((done = reply_act(sm, req, now)))
            mempool_put(sm->l1d.pool, r);
    }
    if (!done)
        memreq_queue_push_front(&sm->replies, r);
    return done;
}

static bool timed_space(uint8_t space)
{
    return space == WSPACE_SHARED || space == WSPACE_CONST || space == WSPACE_PARAM;
}

/* The warp's scheduler hears that a global/local load has left the memory stage. */
static void tell_serviced(Sm *sm, uint32_t slot, uint32_t pc, uint32_t accesses, uint32_t misses, uint64_t now)
{
    if (!sm->sched_ops->on_load_serviced)
        return;
    WarpLoadDone e = {.slot = slot, .pc = pc, .accesses = accesses, .misses = misses, .fully_cached = misses == 0,
                      .cycle = now};
    sm->sched_ops->on_load_serviced(sm->sched[slot % sm->n_sched], &e);
}

/* The live slot of the SM's scheduled warps whose uid (launch number) is `uid`, or
 * WARP_L1D_NOBODY. */
static uint32_t live_slot_of_uid(const Sm *sm, uint32_t uid)
{
    for (uint32_t k = 0; k < sm->n_sched; k++)
        for (uint64_t m = sm->sched_mask[k]; m; m &= m - 1) {
            uint32_t slot = (uint32_t)__builtin_ctzll(m);
            if ((uint32_t)sm->warps[slot].age == uid)
                return slot;
        }
    return WARP_L1D_NOBODY;
}

/* The L1D replaced a line (its evict_hook): the scheduler of the warp that brought it in hears
 * it, if that warp is still live, with the live warp whose access replaced it. A line records
 * its warp's uid, the launch number, so the next warp of a slot never inherits the lines of the
 * one before. */
static void l1d_evicted(void *ctx, uint64_t line_addr, uint32_t inserted_by, uint32_t evicted_by, uint64_t now)
{
    Sm *sm = ctx;
    uint32_t slot = live_slot_of_uid(sm, inserted_by);
    if (slot == WARP_L1D_NOBODY)
        return;
    uint32_t evictor = evicted_by == inserted_by ? slot : live_slot_of_uid(sm, evicted_by);
    WarpL1dEvent e = {.slot = slot, .evictor = evictor, .line_addr = line_addr, .cycle = now};
    sm->sched_ops->on_l1d_evict(sm->sched[slot % sm->n_sched], &e);
}

void sm_connect_l1d_events(Sm *sm)
{
    bool want = sm->sched_ops->on_l1d_evict != NULL;
    sm->l1d.evict_hook = want ? l1d_evicted : NULL;
    sm->l1d.evict_hook_ctx = want ? sm : NULL;
}

/* The LD/ST unit has presented every access of its instruction. */
static void ldst_start(Sm *sm, const MemInst *m, uint64_t now);

/* The LD/ST unit has presented every access of its instruction; it takes the next waiting one,
 * whose first access goes next cycle, as an instruction issued now would. */
static void ldst_finish(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    u->active = false;
    sm->ldst_busy += now - u->start + 1;
    /* a load that the L1D never looks up (no destination, no active lane) leaves the stage now */
    bool global_load = u->op == WOP_LOAD && (u->space == WSPACE_GLOBAL || u->space == WSPACE_LOCAL);
    if (global_load && (u->rec == SM_NO_REC || u->n_lines == 0))
        tell_serviced(sm, u->warp, u->pc, u->n_lines, 0, now);
    if (u->rec != SM_NO_REC && !timed_space(u->space)) {
        sm->recs[u->rec].all_sent = true;
        rec_check_done(sm, u->rec, now);
    }
    if (u->mq_n) {
        const MemInst *m = &u->mq[u->mq_head];
        u->mq_head = (u->mq_head + 1) % u->mq_cap;
        u->mq_n--;
        ldst_start(sm, m, now); /* m's slot is not reused before it is copied */
    }
}

/* The LD/ST unit's current access, as the L1D (or the latency queue) takes it. */
static void ldst_entry(const Sm *sm, LqEntry *e)
{
    const Ldst *u = &sm->ldst;
    const CoalAccess *a = &u->acc[u->pos];
    *e = (LqEntry){.line_addr = a->line_addr, .rec = u->rec, .bytes = u->bytes, .pc = u->pc, .n_lines = u->n_lines,
                   .sched_rank = u->sched_rank, .sectors = a->segments,
                   .warp_uid = (uint32_t)sm->warps[u->warp].age, .warp = u->warp, .op = u->op, .flags = u->flags};
}

/* Every access of a global load has been looked up: count its misses per load instruction
 * (thesis 2.2.1) and tell the replacement policy (DaCache's partitioning counts fully cached
 * divergent loads here, thesis 4.2.4). */
static void load_serviced(Sm *sm, LoadRec *r, uint64_t now)
{
    uint32_t b = r->n_miss < 3 ? r->n_miss : r->n_miss < 32 ? 3 : 4;
    bool div = r->n_lines > 2;
    if (div)
        sm->mpli_div[b]++;
    else
        sm->mpli_coh[b]++;
    /* thesis 2.3.2: unhindered, the unit looks up one access a cycle from the cycle after issue
     * (each after the latency queue's lq_cap cycles, sm.l1d_access = queued); the rest is
     * memory occlusion: replays, and waiting for the unit held by other instructions */
    uint64_t least = r->issued + r->n_lines + sm->ldst.lq_cap;
    r->occlusion = now > least ? now - least : 0;
    uint32_t rank = MIN(r->sched_rank, sm->n_ranks - 1);
    sm->mshr_rank[div][rank] += r->n_mshr;
    sm->loads_rank[div][rank]++;
    ReplLoad l = {.warp_id = r->warp, .warp_uid = (uint32_t)sm->warps[r->warp].age, .pc = r->pc,
                  .sched_rank = r->sched_rank, .accesses = r->n_lines, .misses = r->n_miss, .cycle = now};
    l1d_load_serviced(&sm->l1d, &l);
    tell_serviced(sm, r->warp, r->pc, r->n_lines, r->n_miss, now);
}

/* After a reservation failure: sleep until something can change the outcome. */
static void ldst_block(Sm *sm, const LqEntry *e, L1dResult res, uint64_t now)
{
    Ldst *u = &sm->ldst;
    sm->ldst_replay++;
    count_stall(sm, res, 1);
    u->blocked = sm->cfg->sm.ldst_sleep; /* false: retried next cycle, and counted then */
    u->wake = false;
    u->block_cause = (uint8_t)res;
    u->block_missq = sm->l1d.miss_q.n;
    u->block_set = SM_NO_SET;
    u->block_warp = e->warp;
    u->block_choice = sm_ldst_sched_choice(sm, e->warp);
    if (res == L1D_FAIL_LINE && !sm->l1d.tags.repl->bypass) { /* no way to evict, whatever the policy */
        uint32_t set = tags_set_of(&sm->l1d.tags, e->line_addr);
        if (tags_set_reserved(&sm->l1d.tags, set))
            u->block_set = set;
    }
    u->blocked_since = now;
}

/* Look one access up in the L1D and account what it did; on a reservation failure nothing
 * happened. A hit's data is ready `waited` cycles sooner than the L1D says: the latency queue
 * has already held it that long. */
L1dResult sm_ldst_lookup(Sm *sm, const LqEntry *e, uint32_t waited, uint64_t now)
{
    ReplAccess ra = {.warp_id = e->warp, .warp_uid = e->warp_uid,
                     .cta = sm->ctas[sm->warps[e->warp].cta_slot].cta_id, .pc = e->pc, .n_lines = e->n_lines,
                     .sched_rank = e->sched_rank, .sectors = e->sectors, .cycle = now, .is_write = e->op != WOP_LOAD};
    L1dResult res;
    if (e->op == WOP_LOAD && e->rec == SM_NO_REC) {
        res = L1D_HIT; /* a load whose result nobody reads (no destination) costs a cycle only */
    } else if (e->op == WOP_LOAD) {
        uint32_t out = 0; /* the hit latency, or how many fills will return the record */
        LoadRec *r = &sm->recs[e->rec];
        uint32_t free_before = sm->l1d.mshr.n_free;
        ra.l2_only = e->flags & WINST_F_L2_ONLY;
        ra.steered = r->global && !ra.l2_only && sm->sched_ops->steer && sm->sched_ops->steer(sm->sched[e->warp % sm->n_sched], e->warp);
        if (sm->sched_ops->bypass_l1d)
            ra.sched_bypass = sm->sched_ops->bypass_l1d(sm->sched[e->warp % sm->n_sched], e->warp, 1);
        res = l1d_load(&sm->l1d, e->line_addr, e->rec, &ra, now, &out);
        r->n_mshr += free_before - sm->l1d.mshr.n_free;
        if (res == L1D_HIT) {
            r->outstanding++;
            timed_return(sm, SM_RING_HIT, now + out - MIN(out, waited), e->rec);
        } else if (!l1d_failed(res)) {
            r->outstanding += out;
            r->n_miss++;
        }
        if (res == L1D_MISS && r->global && sm->sched_ops->on_l1d_miss) {
            WarpL1dEvent ev = {.slot = e->warp, .evictor = WARP_L1D_NOBODY, .pc = e->pc, .line_addr = tags_line_addr(&sm->l1d.tags, e->line_addr),
                               .cycle = now};
            sm->sched_ops->on_l1d_miss(sm->sched[e->warp % sm->n_sched], &ev);
        }
        if (!l1d_failed(res) && ++r->n_access == r->n_lines && r->global)
            load_serviced(sm, r, now);
    } else if (e->op == WOP_ATOMIC) {
        res = l1d_atomic(&sm->l1d, e->line_addr, e->bytes, e->rec, &ra, now);
        if (!l1d_failed(res) && e->rec != SM_NO_REC)
            sm->recs[e->rec].outstanding++;
    } else {
        uint32_t bytes = 32u * (uint32_t)popcount_u32(e->sectors);
        res = l1d_store(&sm->l1d, e->line_addr, bytes, &ra, now);
    }
    return res;
}

/* Present one access to the L1D; false after a reservation failure that holds the unit (the
 * caller's access then stays where it is). A refused global load's access may instead wait in
 * the re-execution queue: then it counts as taken. */
static bool l1d_present(Sm *sm, const LqEntry *e, uint32_t waited, uint64_t now)
{
    L1dResult res = sm_ldst_lookup(sm, e, waited, now);
    if (!l1d_failed(res) || sm_reexec_defer(sm, e, res))
        return true;
    ldst_block(sm, e, res, now);
    return false;
}

/* Direct mode: present the LD/ST unit's next access to the L1D; queued mode: put it into the
 * latency queue if there is room. True if it made progress. */
static bool ldst_step(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (timed_space(u->space)) {
        if (now < u->busy_until)
            return false;
        ldst_finish(sm, now);
        return true;
    }
    if (u->lq_cap) {
        if (u->lq_n == u->lq_cap)
            return false;
        LqEntry *e = &u->lq[(u->lq_head + u->lq_n++) % u->lq_cap];
        ldst_entry(sm, e);
        /* one step of the queue per cycle: lq_cap cycles, and never before the one ahead */
        e->ready = u->lq_last_ready = MAX(now + u->lq_cap, u->lq_last_ready + 1);
        if (e->rec != SM_NO_REC)
            sm->recs[e->rec].outstanding++; /* owed until the L1D has looked it up */
    } else {
        LqEntry e;
        ldst_entry(sm, &e);
        if (!l1d_present(sm, &e, 0, now))
            return false;
    }
    if (++u->pos == u->n)
        ldst_finish(sm, now);
    else
        sm->stall_coal++; /* the unit stays with this instruction (thesis 2.3.1, LDST_COAL) */
    return true;
}

/* Queued mode: the latency queue's head meets the L1D when its time has come. */
static bool lq_step(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (!u->lq_n || u->blocked || u->lq[u->lq_head].ready > now)
        return false;
    const LqEntry *e = &u->lq[u->lq_head];
    if (!l1d_present(sm, e, u->lq_cap, now))
        return false;
    if (e->rec != SM_NO_REC) { /* l1d_present added what the record now waits for (at least 1) */
        CHECK(sm->recs[e->rec].outstanding > 1);
        rec_return(sm, e->rec, now);
    }
    u->lq_head = (u->lq_head + 1) % u->lq_cap;
    u->lq_n--;
    return true;
}

/* Intra-warp concentration (FUP paper eq. 1) of a divergent load (more than 2 line accesses,
 * thesis 1.1.2) under the L1D's own index function. */
static void note_divergent_load(Sm *sm, const CoalAccess *acc, uint32_t n)
{
    uint32_t sets[COAL_MAX_ACCESSES];
    for (uint32_t i = 0; i < n; i++)
        sets[i] = tags_set_of(&sm->l1d.tags, acc[i].line_addr);
    uint32_t touched = index_metric_sets_touched(sets, n);
    sm->load_insts_divergent++;
    sm->conc_sum_micro += (uint64_t)(1e6 * index_metric_concentration(n, touched) + 0.5);
    sm->conc_hist[index_metric_conc_bucket(n, touched)]++;
}

/* The LD/ST unit takes instruction m (idle, or its previous instruction just finished). */
static void ldst_start(Sm *sm, const MemInst *m, uint64_t now)
{
    Ldst *u = &sm->ldst;
    u->active = true;
    u->op = m->op;
    u->space = m->space;
    u->flags = m->flags;
    u->pc = m->pc;
    u->warp = m->warp;
    u->pos = 0;
    u->bytes = m->bytes;
    u->rec = m->rec;
    u->start = now;
    /* queued mode: blocked is the latency queue's head's, which a new instruction leaves as it
     * is (direct mode: the unit finished its last access, so it is not blocked) */
    CHECK(u->lq_cap || !u->blocked);
    u->n = u->n_lines = m->n;
    u->sched_rank = m->sched_rank;
    if (timed_space(m->space)) {
        u->n = 0;
        u->busy_until = now + m->passes;
        if (u->rec != SM_NO_REC) {
            sm->recs[u->rec].outstanding = 1;
            sm->recs[u->rec].all_sent = true;
            if (m->space == WSPACE_SHARED)
                timed_return(sm, SM_RING_SMEM, now + sm->cfg->smem.lat + m->passes - 1, u->rec);
            else
                timed_return(sm, SM_RING_CONST, now + sm->cfg->sm.const_lat, u->rec);
        }
        return;
    }
    memcpy(u->acc, m->acc, m->n * sizeof *u->acc);
    if (u->n == 0) /* no active lane */
        ldst_finish(sm, now);
}

void sm_issue_memory(Sm *sm, uint32_t slot, const Winst *wi, uint64_t now)
{
    Ldst *u = &sm->ldst;
    Warp *w = &sm->warps[slot];
    const WinstStatic *s = &wi->s;
    CHECK(sm_ldst_can_take(sm));
    MemInst one, *m = u->active ? &u->mq[(u->mq_head + u->mq_n++) % u->mq_cap] : &one;
    m->op = s->op;
    m->space = s->space;
    m->flags = s->space == WSPACE_GLOBAL ? s->flags : 0; /* local memory is the thread's own */
    m->pc = s->pc;
    m->warp = (uint16_t)slot;
    m->bytes = s->access_bytes;
    m->rec = SM_NO_REC;
    m->n = m->passes = 0;
    bool async = s->op == WOP_LOAD && (s->flags & WINST_F_ASYNC);
    if (s->op != WOP_STORE && (s->n_dst > 0 || async)) {
        m->rec = rec_alloc(sm, slot, s);
        w->loads_pending++;
        sm_sb_add(sm, w, s->dst, s->n_dst, UINT64_MAX, now);
        if (async) { /* a cp.async joins its warp's open group */
            uint32_t j = w->async_open % SM_ASYNC_SLOTS;
            if (w->async_pend[j] == 0)
                w->async_gid[j] = w->async_open;
            w->async_pend[j]++;
            w->async_n++;
            sm->recs[m->rec].async_slot = (uint8_t)j;
        }
    }
    if (timed_space(s->space)) {
        bool shared = s->space == WSPACE_SHARED;
        m->passes = shared ? coalesce_bank_conflicts(wi, sm->cfg->smem.n_banks) : 1;
        sm->shared_accesses += shared;
    } else {
        m->n = coalesce(wi, sm->cfg->l1d.line_bytes, m->acc);
        m->sched_rank = sm_gto_rank(sm, slot);
        if (s->op == WOP_LOAD) {
            if (m->rec != SM_NO_REC) {
                sm->recs[m->rec].n_lines = m->n;
                sm->recs[m->rec].sched_rank = m->sched_rank;
                sm->recs[m->rec].issued = now;
            }
            sm->loads++;
            sm->load_lines += m->n;
            sm->slot_info[slot].last_load_lines = m->n;
            if (m->n > 2)
                note_divergent_load(sm, m->acc, m->n);
        } else if (s->op == WOP_STORE) {
            sm->stores++;
            w->stores_pending += m->n; /* every access goes to the L2, which acknowledges it */
        } else {
            sm->atomics++;
        }
    }
    if (m == &one)
        ldst_start(sm, m, now);
}

/* Whether the reply just acted on can change the outcome of the blocked unit's access (waking
 * it when it cannot costs a look-up and changes no stat; not waking it when it can would).
 * - L1D_FAIL_ICNT: the access was neither a hit nor pending in an MSHR, and the MSHRs had room.
 *   A fill of another line leaves all of that; only a drain (sm_miss_queue_drained) empties
 *   the queue or clears the refusal.
 * - L1D_FAIL_LINE with every way of the set reserved (block_set): only a fill of that set
 *   frees a way; the MSHRs and the miss queue had room, and only requests sent, which wake the
 *   unit (ldst_check_missq), take it.
 * Any other cause wakes it, and any reply does with a miss-path store (a fill may move a line
 * there) or a re-execution queue (a fill may make room there for the refused access,
 * sm_reexec_defer). A scheduler that decides per look-up (bypass, steering) may change its
 * mind in any of its hooks: sm_ldst_sched_changed asks it after each of the SM's cycles. */
static bool reply_may_unblock(const Sm *sm)
{
    const Ldst *u = &sm->ldst;
    if (sm->l1d.n_mpath || u->rq_cap)
        return true;
    if (u->block_cause == L1D_FAIL_ICNT)
        return false;
    if (u->block_cause == L1D_FAIL_LINE && u->block_set != SM_NO_SET)
        return u->filled_addr != SM_NO_FILL && tags_set_of(&sm->l1d.tags, u->filled_addr) == u->block_set;
    return true;
}

bool sm_ldst_count_down(Sm *sm)
{
    const MemReq *q = sm->replies.head;
    const Ldst *u = &sm->ldst;
    if (!q->part || (q->kind == MREQ_READ && !q->inst && tags_sectored(&sm->l1d.tags)) || sm->l1d.n_mpath || u->rq_cap)
        return false;
    MemReq *req = mempool_at(sm->l1d.pool, q->token);
    /* Not when the full cycle would wake a blocked unit: its look-up would fail as before, but
     * a policy that counts the look-ups it sees (DaCache's stall) would count one more. */
    sm->ldst.filled_addr = SM_NO_FILL; /* as sm_ldst_cycle: what reply_may_unblock reads */
    if (req->subs_left == 1 || (u->blocked && (u->wake || reply_may_unblock(sm))))
        return false;
    part_is_last(sm, memreq_queue_pop(&sm->replies), req);
    sm->ldst.rq_retry = true;
    return true;
}

bool sm_ldst_cycle(Sm *sm, uint64_t now)
{
    bool progress = false;
    sm->ldst.filled_addr = SM_NO_FILL;
    if (sm->replies.head && process_reply(sm, now)) {
        sm->ldst.wake = sm->ldst.blocked && (sm->ldst.wake || reply_may_unblock(sm));
        sm->ldst.rq_retry = true;
        progress = true;
    }
    sm_ldst_check_missq(sm); /* a CTA controller's tick or reply may have sent a line */
    if (sm->ldst.wake)
        ldst_unblock(sm, now);
    /* one L1D lookup a cycle: a waiting re-execution goes before the unit's next access */
    bool port_taken = sm->ldst.rq_n && sm_reexec_step(sm, now);
    progress |= port_taken;
    if (sm->ldst.lq_n && !port_taken)
        progress |= lq_step(sm, now); /* before the timed returns: a hit there is ready now */
    if (sm->ring_next_ready <= now) {
        uint64_t next = UINT64_MAX;
        for (int i = 0; i < SM_RING_COUNT; i++) {
            while (ring_next(&sm->ring[i]) <= now) {
                rec_return(sm, ring_pop(&sm->ring[i]), now);
                progress = true;
            }
            next = MIN(next, ring_next(&sm->ring[i]));
        }
        sm->ring_next_ready = next;
    }
    if (sm->ldst.active && (sm->ldst.lq_cap || (!sm->ldst.blocked && !port_taken)))
        progress |= ldst_step(sm, now);
    return progress;
}

uint64_t sm_ldst_next_event(const Sm *sm, uint64_t now)
{
    const Ldst *u = &sm->ldst;
    uint64_t next = sm->ring_next_ready;
    if (sm->replies.head || u->rq_n || u->wake) /* the re-execution queue counts its waiting cycles */
        return MIN(next, now + 1);
    /* the unit's next pass (queued mode: while its queue has room or the access is timed) */
    if (u->active && (u->lq_cap ? timed_space(u->space) || u->lq_n < u->lq_cap : !u->blocked))
        next = MIN(next, MAX(now + 1, u->busy_until));
    if (u->lq_n && !u->blocked)
        next = MIN(next, MAX(now + 1, u->lq[u->lq_head].ready));
    return next;
}
