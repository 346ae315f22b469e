/* sm.c: one streaming multiprocessor (see sm.h).
 *
 * Per cycle, in this order: one interconnect reply fills the L1D and wakes its loads; timed
 * returns (L1D hits, shared, constant) that are due complete; the LD/ST unit presents one
 * access; each scheduler issues at most one instruction. A warp's earliest issue cycle is
 * cached in ready_at and recomputed only when something about the warp changes, so an SM
 * whose warps all wait sleeps (next_wake) until a reply or a timed event. */
#include "core/sm.h"

#include "base/base.h"
#include "core/gpu.h"

#include <stdlib.h>
#include <string.h>

#define TOKEN(warp, rec) ((uint32_t)(warp) << 16 | (rec))
#define TOKEN_REC(t) ((t) & 0xFFFFu)
#define NO_REC 0xFFFFu

static void warp_update(Sm *sm, Warp *w, uint64_t now);

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

static void ring_push(TimedRing *r, uint64_t ready, uint32_t rec)
{
    CHECK(r->n < r->cap);
    uint32_t i = (r->head + r->n++) % r->cap;
    r->ready[i] = ready;
    r->rec[i] = rec;
}

static uint64_t ring_next(const TimedRing *r) { return r->n ? r->ready[r->head] : UINT64_MAX; }

static uint32_t ring_pop(TimedRing *r)
{
    uint32_t rec = r->rec[r->head];
    r->head = (r->head + 1) % r->cap;
    r->n--;
    return rec;
}

static void unit_timing(Sm *sm, const AluConfig *a)
{
    static const WinstOp ops[] = {WOP_INT_ADD, WOP_INT_MUL, WOP_INT_MAD, WOP_INT_DIV, WOP_FP_ADD,
                                  WOP_FP_MUL,  WOP_FP_MAD,  WOP_FP_DIV,  WOP_DP_ADD,  WOP_DP_MUL,
                                  WOP_DP_MAD,  WOP_DP_DIV,  WOP_SFU};
    const uint32_t lat[] = {a->int_add_lat, a->int_mul_lat, a->int_mad_lat, a->int_div_lat, a->fp_add_lat,
                            a->fp_mul_lat,  a->fp_mad_lat,  a->fp_div_lat,  a->dp_add_lat,  a->dp_mul_lat,
                            a->dp_mad_lat,  a->dp_div_lat,  a->sfu_lat};
    const uint32_t ii[] = {a->int_add_ii, a->int_mul_ii, a->int_mad_ii, a->int_div_ii, a->fp_add_ii,
                           a->fp_mul_ii,  a->fp_mad_ii,  a->fp_div_ii,  a->dp_add_ii,  a->dp_mul_ii,
                           a->dp_mad_ii,  a->dp_div_ii,  a->sfu_ii};
    for (uint32_t i = 0; i < WOP_COUNT; i++) {
        sm->lat[i] = a->int_add_lat; /* branch, nop, barrier, exit: the integer pipeline */
        sm->ii[i] = a->int_add_ii;
    }
    for (size_t i = 0; i < ARRAY_LEN(ops); i++) {
        sm->lat[ops[i]] = lat[i];
        sm->ii[ops[i]] = ii[i];
    }
}

/* Fermi: divides, double precision and transcendentals run on the SFU (no DP unit). */
static bool on_sfu(uint8_t op)
{
    return op == WOP_SFU || op == WOP_INT_DIV || op == WOP_FP_DIV || (op >= WOP_DP_ADD && op <= WOP_DP_DIV);
}

void sm_init(Sm *sm, uint32_t id, Gpu *gpu, const Config *cfg, MemPool *pool, Stats *st)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->gpu = gpu;
    sm->max_warps = cfg->sm.max_warps;
    sm->n_sched = cfg->sm.n_sched;
    CHECK(sm->max_warps <= 64 && sm->n_sched <= 8);
    sm->warps = xcalloc(sm->max_warps, sizeof *sm->warps);
    sm->sb_store = xcalloc((size_t)sm->max_warps * cfg->sm.max_pending_regs, sizeof *sm->sb_store);
    for (uint32_t w = 0; w < sm->max_warps; w++) {
        sm->warps[w].sb = &sm->sb_store[(size_t)w * cfg->sm.max_pending_regs];
        sm->warps[w].id = id * sm->max_warps + w;
    }
    sm->ctas = xcalloc(cfg->sm.max_ctas, sizeof *sm->ctas);
    sm->age = xcalloc(sm->max_warps, sizeof *sm->age);
    sm->ready_at = xcalloc(sm->max_warps, sizeof *sm->ready_at);
    sm->sched_ops = policy_warp(cfg->sm.sched);
    CHECK(sm->sched_ops);
    for (uint32_t i = 0; i < sm->n_sched; i++)
        sm->sched[i] = sm->sched_ops->create ? sm->sched_ops->create(sm->max_warps, cfg) : NULL;
    sm->sp_busy = xcalloc(cfg->sm.n_sp_units, sizeof *sm->sp_busy);
    sm->sfu_busy = xcalloc(cfg->sm.n_sfu_units, sizeof *sm->sfu_busy);
    unit_timing(sm, &cfg->alu);
    l1d_init(&sm->l1d, (uint16_t)id, cfg, pool, st);
    sm->n_recs = sm->max_warps * cfg->sm.max_pending_regs;
    CHECK(sm->n_recs < 0x10000);
    sm->recs = xcalloc(sm->n_recs, sizeof *sm->recs);
    for (uint32_t i = 0; i < sm->n_recs; i++)
        sm->recs[i].next_free = i + 1;
    sm->rec_free = 0;
    ring_init(&sm->hit_ring, COAL_MAX_ACCESSES * 4);
    ring_init(&sm->smem_ring, sm->max_warps + 4);
    ring_init(&sm->const_ring, sm->max_warps + 4);
#define C(field, name, help) stats_counter(st, &sm->field, "sm[%u]." name, help, id)
    C(cycles_active, "cycles_active", "cycles with at least one CTA resident");
    C(warp_insts, "warp_insts", "warp instructions issued");
    C(thread_insts, "thread_insts", "thread instructions issued (active lanes)");
    C(loads, "loads", "global/local load instructions");
    C(stores, "stores", "global/local store instructions");
    C(atomics, "atomics", "atomic instructions");
    C(shared_accesses, "shared", "shared-memory instructions");
    C(load_lines, "load_lines", "L1D line accesses of global/local loads (after coalescing)");
    C(load_insts_divergent, "loads_divergent", "load instructions with more than 2 line accesses (divergent)");
    C(conc_sum_micro, "l1d.concentration_sum_micro",
      "sum over divergent loads of their intra-warp concentration (eq. 1), in millionths");
    C(issued, "sched.issued", "scheduler-cycles that issued an instruction");
    C(idle_no_ready, "sched.no_ready", "scheduler-cycles with live warps but none ready");
    C(stall_ldst, "sched.ldst_stall", "scheduler-cycles whose only ready warps wanted the busy LD/ST unit");
    C(ldst_busy, "ldst.busy", "cycles the LD/ST unit held an instruction");
    C(ldst_replay, "ldst.replay", "cycles the LD/ST unit replayed an access after a reservation failure");
    C(ctas_done, "ctas_done", "CTAs completed");
#undef C
    for (unsigned b = 0; b < INDEX_METRIC_CONC_BUCKETS; b++)
        sm->conc_labels[b] = index_metric_conc_bucket_name(b);
    char name[64];
    snprintf(name, sizeof name, "sm[%u].l1d.concentration", id);
    stats_histogram(st, sm->conc_hist, INDEX_METRIC_CONC_BUCKETS, sm->conc_labels, name,
                    "divergent loads by intra-warp concentration (accesses per set touched)");
}

void sm_free(Sm *sm)
{
    for (uint32_t i = 0; i < sm->n_sched; i++)
        if (sm->sched_ops->destroy)
            sm->sched_ops->destroy(sm->sched[i]);
    l1d_free(&sm->l1d);
    ring_free(&sm->hit_ring);
    ring_free(&sm->smem_ring);
    ring_free(&sm->const_ring);
    free(sm->warps);
    free(sm->sb_store);
    free(sm->ctas);
    free(sm->age);
    free(sm->ready_at);
    free(sm->sp_busy);
    free(sm->sfu_busy);
    free(sm->recs);
}

void sm_set_front(Sm *sm, const FrontOps *ops, void *self)
{
    sm->front = ops;
    sm->front_self = self;
}

static uint32_t regs_of_cta(const Sm *sm, const FrontKernel *k)
{
    uint32_t unit = sm->cfg->sm.reg_alloc_unit;
    uint32_t per_warp = (k->regs_per_thread * WARP_SIZE + unit - 1) / unit * unit;
    return per_warp * front_kernel_warps_per_cta(k);
}

bool sm_can_take(const Sm *sm, const FrontKernel *k)
{
    const SmConfig *c = &sm->cfg->sm;
    return sm->n_live_ctas < c->max_ctas && sm->threads_used + front_kernel_threads_per_cta(k) <= c->max_threads &&
           sm->warps_used + front_kernel_warps_per_cta(k) <= sm->max_warps &&
           sm->regs_used + regs_of_cta(sm, k) <= c->n_regs && sm->smem_used + k->smem_bytes_per_cta <= c->smem_bytes;
}

void sm_launch_cta(Sm *sm, const FrontKernel *k, uint32_t cta_id, uint64_t now)
{
    uint32_t slot = 0;
    while (sm->ctas[slot].live)
        slot++;
    SmCta *c = &sm->ctas[slot];
    uint32_t nw = front_kernel_warps_per_cta(k);
    /* CTA warps take consecutive slots no resident CTA holds (a slot whose warp has exited
     * still belongs to its CTA until the whole CTA completes), so the front end sees warp ids
     * base..base+nw-1. All CTAs of a kernel are the same size, so a completed CTA always leaves
     * a hole large enough for the next and first fit cannot fail when sm_can_take said yes. */
    uint64_t run = nw >= 64 ? ~0ull : (1ull << nw) - 1;
    uint32_t first = 0;
    while (first + nw <= sm->max_warps && (sm->slots_owned & (run << first)))
        first++;
    CHECK(first + nw <= sm->max_warps);
    sm->slots_owned |= run << first;
    memset(c, 0, sizeof *c);
    c->live = true;
    c->cta_id = cta_id;
    c->first_slot = first;
    c->n_warps = c->n_live_warps = nw;
    c->threads = front_kernel_threads_per_cta(k);
    c->regs = regs_of_cta(sm, k);
    c->smem_bytes = k->smem_bytes_per_cta;
    sm->n_live_ctas++;
    sm->threads_used += c->threads;
    sm->warps_used += nw;
    sm->regs_used += c->regs;
    sm->smem_used += c->smem_bytes;
    sm->front->cta_start(sm->front_self, cta_id, sm->id, sm->id * sm->max_warps + first);
    for (uint32_t i = 0; i < nw; i++) {
        Warp *w = &sm->warps[first + i];
        w->live = true;
        w->exited = w->at_barrier = false;
        w->cta_slot = (uint16_t)slot;
        w->age = sm->age[first + i] = sm->next_age++;
        w->next = NULL;
        w->ibuf_ready = now + sm->cfg->sm.fetch_lat;
        w->n_sb = 0;
        w->loads_pending = 0;
        warp_update(sm, w, now);
        sm->sched_mask[(first + i) % sm->n_sched] |= 1ull << (first + i);
    }
    sm->next_wake = MIN(sm->next_wake, now);
}

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

static void warp_compute_ready(Sm *sm, Warp *w, uint64_t now);

/* Recompute the warp's earliest issue cycle after something about it changed, and keep the
 * SM's masks of waiting warps in step (the schedulers skip those without looking). */
static void warp_update(Sm *sm, Warp *w, uint64_t now)
{
    warp_compute_ready(sm, w, now);
    uint32_t slot = w->id - sm->id * sm->max_warps;
    uint64_t bit = 1ull << slot;
    sm->waiting_mask = w->ready_at == UINT64_MAX ? sm->waiting_mask | bit : sm->waiting_mask & ~bit;
    bool mem_next = w->live && w->next && winst_is_mem(w->next);
    sm->mem_next_mask = mem_next ? sm->mem_next_mask | bit : sm->mem_next_mask & ~bit;
    sm->ready_at[slot] = w->ready_at;
    sm->mem_wait_mask = w->live && w->loads_pending ? sm->mem_wait_mask | bit : sm->mem_wait_mask & ~bit;
}

static void warp_compute_ready(Sm *sm, Warp *w, uint64_t now)
{
    if (!w->live || w->exited || w->at_barrier) {
        w->ready_at = UINT64_MAX;
        return;
    }
    if (!w->next) {
        w->next = sm->front->peek(sm->front_self, w->id);
        CHECK(w->next); /* every stream ends with an exit, which retires the warp */
    }
    /* Drop scoreboard entries already written. */
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->n_sb; i++)
        if (w->sb[i].release > now)
            w->sb[k++] = w->sb[i];
    w->n_sb = k;
    uint64_t t = w->ibuf_ready;
    const WinstStatic *s = w->next;
    for (uint32_t i = 0; i < w->n_sb && t != UINT64_MAX; i++)
        if (sb_mentions(s, w->sb[i].reg) && w->sb[i].release > t)
            t = w->sb[i].release;
    if (s->op == WOP_EXIT && w->loads_pending)
        t = UINT64_MAX; /* retire only when every load is back */
    if (t != UINT64_MAX && w->n_sb + s->n_dst > sm->cfg->sm.max_pending_regs) {
        uint64_t first_free = UINT64_MAX;
        for (uint32_t i = 0; i < w->n_sb; i++)
            first_free = MIN(first_free, w->sb[i].release);
        t = MAX(t, first_free);
    }
    w->ready_at = t;
}

static void cta_finish(Sm *sm, SmCta *c, uint64_t now)
{
    sm->front->cta_end(sm->front_self, c->cta_id);
    c->live = false;
    sm->n_live_ctas--;
    sm->threads_used -= c->threads;
    sm->warps_used -= c->n_warps;
    sm->slots_owned &= ~((c->n_warps >= 64 ? ~0ull : (1ull << c->n_warps) - 1) << c->first_slot);
    sm->regs_used -= c->regs;
    sm->smem_used -= c->smem_bytes;
    sm->ctas_done++;
    gpu_cta_done(sm->gpu, sm->id, c->cta_id, now);
}

static void barrier_check(Sm *sm, SmCta *c, uint64_t now)
{
    if (c->n_at_barrier == 0 || c->n_at_barrier < c->n_live_warps)
        return;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        Warp *w = &sm->warps[c->first_slot + i];
        if (w->live && w->at_barrier) {
            w->at_barrier = false;
            warp_update(sm, w, now);
        }
    }
    c->n_at_barrier = 0;
    sm->next_wake = MIN(sm->next_wake, now + 1);
}

static void warp_retire(Sm *sm, uint32_t slot, uint64_t now)
{
    Warp *w = &sm->warps[slot];
    SmCta *c = &sm->ctas[w->cta_slot];
    w->live = false;
    warp_update(sm, w, now);
    sm->sched_mask[slot % sm->n_sched] &= ~(1ull << slot);
    if (sm->sched_ops->on_warp_exit)
        sm->sched_ops->on_warp_exit(sm->sched[slot % sm->n_sched], slot);
    if (--c->n_live_warps == 0)
        cta_finish(sm, c, now);
    else
        barrier_check(sm, c, now);
}

static uint32_t rec_alloc(Sm *sm, uint32_t slot, const WinstStatic *s)
{
    CHECK(sm->rec_free < sm->n_recs);
    uint32_t i = sm->rec_free;
    LoadRec *r = &sm->recs[i];
    sm->rec_free = r->next_free;
    r->warp = (uint16_t)slot;
    r->n_dst = s->n_dst;
    memcpy(r->dst, s->dst, sizeof r->dst);
    r->outstanding = 0;
    r->all_sent = false;
    return i;
}

/* A load's accesses are all back: write its registers and wake its warp. */
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
    r->next_free = sm->rec_free;
    sm->rec_free = i;
    warp_update(sm, w, now);
    sm->next_wake = MIN(sm->next_wake, now + 1);
}

static void rec_return(Sm *sm, uint32_t i, uint64_t now)
{
    CHECK(sm->recs[i].outstanding > 0);
    sm->recs[i].outstanding--;
    rec_check_done(sm, i, now);
}

void sm_deliver(Sm *sm, MemReq *r, uint64_t now)
{
    memreq_queue_push(&sm->replies, r);
    sm->next_wake = MIN(sm->next_wake, now);
}

void sm_miss_queue_drained(Sm *sm, uint64_t now)
{
    if (sm->ldst.blocked) {
        sm->ldst.wake = true;
        sm->next_wake = MIN(sm->next_wake, now);
    }
}

/* Account the replays the blocked LD/ST unit skipped, and let it retry this cycle. */
static void ldst_unblock(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (!u->blocked || now <= u->blocked_since)
        return;
    uint64_t skipped = now - u->blocked_since - 1;
    sm->ldst_replay += skipped;
    L1d *c = &sm->l1d;
    switch ((L1dResult)u->block_cause) {
    case L1D_FAIL_MSHR: c->fail_mshr += skipped; break;
    case L1D_FAIL_MERGE: c->fail_merge += skipped; break;
    case L1D_FAIL_LINE: c->fail_line += skipped; break;
    case L1D_FAIL_MISSQ: c->fail_missq += skipped; break;
    case L1D_FAIL_ICNT: c->fail_icnt += skipped; break;
    default: break;
    }
    u->blocked = false;
    u->wake = false;
}

static void process_reply(Sm *sm, uint64_t now)
{
    MemReq *r = memreq_queue_pop(&sm->replies);
    if (r->kind == MREQ_ATOMIC) {
        uint32_t rec = TOKEN_REC(r->token);
        mempool_put(sm->l1d.pool, r);
        if (rec != NO_REC)
            rec_return(sm, rec, now);
        return;
    }
    uint32_t tokens[1024];
    CHECK(sm->cfg->l1d.mshr_max_merge <= 1024);
    uint32_t n = l1d_fill(&sm->l1d, r, tokens, now);
    for (uint32_t i = 0; i < n; i++)
        rec_return(sm, TOKEN_REC(tokens[i]), now);
}

/* The LD/ST unit has presented every access of its instruction. */
static void ldst_finish(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    u->active = false;
    sm->ldst_busy += now - u->start + 1;
    bool timed = u->space == WSPACE_SHARED || u->space == WSPACE_CONST || u->space == WSPACE_PARAM;
    if (u->rec != NO_REC && !timed) {
        sm->recs[u->rec].all_sent = true;
        rec_check_done(sm, u->rec, now);
    }
}

/* Present the LD/ST unit's next access to the L1D; true if it made progress. */
static bool ldst_step(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (u->space == WSPACE_SHARED || u->space == WSPACE_CONST || u->space == WSPACE_PARAM) {
        if (now < u->busy_until)
            return false;
        ldst_finish(sm, now);
        return true;
    }
    const CoalAccess *a = &u->acc[u->pos];
    ReplAccess ra = {.warp_id = u->warp, .warp_uid = (uint32_t)sm->warps[u->warp].age, .pc = u->pc,
                     .n_lines = u->n_lines, .cycle = now};
    L1dResult res;
    if (u->op == WOP_LOAD && u->rec == NO_REC) {
        res = L1D_HIT; /* a load whose result nobody reads (no destination) costs a cycle only */
    } else if (u->op == WOP_LOAD) {
        res = l1d_load(&sm->l1d, a->line_addr, TOKEN(ra.warp_id, u->rec), &ra, now);
        if (res == L1D_HIT) {
            sm->recs[u->rec].outstanding++;
            ring_push(&sm->hit_ring, now + sm->cfg->l1d.hit_lat, u->rec);
        } else if (!l1d_failed(res)) {
            sm->recs[u->rec].outstanding++;
        }
    } else if (u->op == WOP_ATOMIC) {
        res = l1d_atomic(&sm->l1d, a->line_addr, u->bytes, TOKEN(ra.warp_id, u->rec), &ra, now);
        if (!l1d_failed(res) && u->rec != NO_REC)
            sm->recs[u->rec].outstanding++;
    } else {
        uint32_t bytes = 32u * (uint32_t)popcount_u32(a->segments);
        res = l1d_store(&sm->l1d, a->line_addr, bytes, &ra, now);
    }
    if (l1d_failed(res)) {
        sm->ldst_replay++;
        u->blocked = true;
        u->wake = false;
        u->block_cause = (uint8_t)res;
        u->blocked_since = now;
        return false;
    }
    if (++u->pos == u->n)
        ldst_finish(sm, now);
    return true;
}

/* Intra-warp concentration (FUP paper eq. 1) of a divergent load (more than 2 line accesses,
 * thesis 1.1.2) under the L1D's own index function. */
static void note_divergent_load(Sm *sm, const Ldst *u)
{
    uint32_t sets[COAL_MAX_ACCESSES];
    for (uint32_t i = 0; i < u->n; i++)
        sets[i] = tags_set_of(&sm->l1d.tags, u->acc[i].line_addr);
    uint32_t touched = index_metric_sets_touched(sets, u->n);
    sm->load_insts_divergent++;
    sm->conc_sum_micro += (uint64_t)(1e6 * index_metric_concentration(u->n, touched) + 0.5);
    sm->conc_hist[index_metric_conc_bucket(u->n, touched)]++;
}

static void issue_memory(Sm *sm, uint32_t slot, const Winst *wi, uint64_t now)
{
    Ldst *u = &sm->ldst;
    Warp *w = &sm->warps[slot];
    const WinstStatic *s = &wi->s;
    u->active = true;
    u->op = s->op;
    u->space = s->space;
    u->pc = s->pc;
    u->warp = (uint16_t)slot;
    u->pos = 0;
    u->bytes = s->access_bytes;
    u->rec = NO_REC;
    u->start = now;
    u->blocked = false;
    if (s->op != WOP_STORE && s->n_dst > 0) {
        u->rec = rec_alloc(sm, slot, s);
        w->loads_pending++;
        for (uint32_t d = 0; d < s->n_dst; d++)
            w->sb[w->n_sb++] = (ScoreboardEntry){s->dst[d], UINT64_MAX};
    }
    if (s->space == WSPACE_SHARED || s->space == WSPACE_CONST || s->space == WSPACE_PARAM) {
        bool shared = s->space == WSPACE_SHARED;
        u->n = 0;
        uint32_t passes = shared ? coalesce_bank_conflicts(wi, sm->cfg->smem.n_banks) : 1;
        u->busy_until = now + passes;
        sm->shared_accesses += shared;
        if (u->rec != NO_REC) {
            sm->recs[u->rec].outstanding = 1;
            sm->recs[u->rec].all_sent = true;
            if (shared)
                ring_push(&sm->smem_ring, now + sm->cfg->smem.lat + passes - 1, u->rec);
            else
                ring_push(&sm->const_ring, now + sm->cfg->sm.const_lat, u->rec);
        }
        return;
    }
    u->n = coalesce(wi, sm->cfg->l1d.line_bytes, u->acc);
    u->n_lines = u->n;
    if (s->op == WOP_LOAD) {
        sm->loads++;
        sm->load_lines += u->n;
        if (u->n > 2)
            note_divergent_load(sm, u);
    } else if (s->op == WOP_STORE) {
        sm->stores++;
    } else {
        sm->atomics++;
    }
    if (u->n == 0) /* no active lane */
        ldst_finish(sm, now);
}

/* Whether the functional unit the instruction needs can accept it this cycle. */
static bool unit_free(const Sm *sm, const WinstStatic *s, uint64_t now)
{
    if (winst_is_mem(s))
        return !sm->ldst.active;
    const uint64_t *busy = on_sfu(s->op) ? sm->sfu_busy : sm->sp_busy;
    uint32_t n = on_sfu(s->op) ? sm->cfg->sm.n_sfu_units : sm->cfg->sm.n_sp_units;
    for (uint32_t i = 0; i < n; i++)
        if (busy[i] <= now)
            return true;
    return false;
}

static void issue(Sm *sm, uint32_t slot, uint64_t now)
{
    Warp *w = &sm->warps[slot];
    const WinstStatic *s = w->next;
    Winst *wi = &sm->scratch;
    sm->front->exec(sm->front_self, w->id, wi);
    w->next = NULL;
    w->ibuf_ready = now + sm->cfg->sm.fetch_lat;
    sm->warp_insts++;
    sm->thread_insts += popcount_u32(wi->active_mask);
    uint8_t op = wi->s.op;
    if (winst_is_mem(&wi->s)) {
        issue_memory(sm, slot, wi, now);
    } else if (op == WOP_BARRIER) {
        SmCta *c = &sm->ctas[w->cta_slot];
        w->at_barrier = true;
        c->n_at_barrier++;
        barrier_check(sm, c, now);
    } else if (op == WOP_EXIT) {
        w->exited = true;
        warp_retire(sm, slot, now);
        return;
    } else {
        uint64_t *busy = on_sfu(op) ? sm->sfu_busy : sm->sp_busy;
        uint32_t n = on_sfu(op) ? sm->cfg->sm.n_sfu_units : sm->cfg->sm.n_sp_units;
        for (uint32_t i = 0; i < n; i++)
            if (busy[i] <= now) {
                busy[i] = now + sm->ii[op];
                break;
            }
        for (uint32_t d = 0; d < wi->s.n_dst; d++)
            w->sb[w->n_sb++] = (ScoreboardEntry){wi->s.dst[d], now + sm->lat[op]};
    }
    (void)s;
    warp_update(sm, w, now);
}

static bool schedule(Sm *sm, uint64_t now, uint64_t *next_ready)
{
    bool any = false;
    for (uint32_t k = 0; k < sm->n_sched; k++) {
        uint64_t live = sm->sched_mask[k], ready = 0, mem_wait = sm->mem_wait_mask & live;
        uint64_t cand = live & ~sm->waiting_mask, blocked_mem = 0;
        bool wanted_ldst = false;
        if (sm->ldst.active) { /* memory instructions cannot issue: look at them only for stats */
            blocked_mem = cand & sm->mem_next_mask;
            cand &= ~blocked_mem;
        }
        for (uint64_t m = cand; m; m &= m - 1) {
            uint32_t slot = (uint32_t)__builtin_ctzll(m);
            if (sm->ready_at[slot] > now) {
                *next_ready = MIN(*next_ready, sm->ready_at[slot]);
                continue;
            }
            if (unit_free(sm, sm->warps[slot].next, now))
                ready |= 1ull << slot;
            else
                *next_ready = MIN(*next_ready, now + 1);
        }
        for (uint64_t m = blocked_mem; m; m &= m - 1) {
            uint32_t slot = (uint32_t)__builtin_ctzll(m);
            if (sm->ready_at[slot] <= now) {
                wanted_ldst = true; /* one is enough: the SM stays awake for it */
                *next_ready = MIN(*next_ready, now + 1);
                break;
            }
            *next_ready = MIN(*next_ready, sm->ready_at[slot]);
        }
        if (!ready) {
            if (wanted_ldst)
                sm->stall_ldst++;
            else if (live)
                sm->idle_no_ready++;
            continue;
        }
        WarpSchedView v = {.ready = ready, .valid = live, .mem_wait = mem_wait, .age = sm->age, .cycle = now};
        int slot = sm->sched_ops->pick(sm->sched[k], &v);
        if (slot < 0) {
            sm->idle_no_ready++;
            *next_ready = MIN(*next_ready, now + 1);
            continue;
        }
        CHECK(ready >> slot & 1);
        if (sm->sched_ops->on_issue)
            sm->sched_ops->on_issue(sm->sched[k], (uint32_t)slot, &v);
        issue(sm, (uint32_t)slot, now);
        sm->issued++;
        any = true;
        *next_ready = MIN(*next_ready, now + 1);
    }
    return any;
}

bool sm_cycle(Sm *sm, uint64_t now)
{
    if (sm->next_wake > now)
        return false;
    bool progress = false;
    if (sm->n_live_ctas)
        sm->cycles_active++;
    if (sm->replies.head) {
        process_reply(sm, now);
        sm->ldst.wake = sm->ldst.blocked;
        progress = true;
    }
    if (sm->ldst.wake)
        ldst_unblock(sm, now);
    TimedRing *rings[3] = {&sm->hit_ring, &sm->smem_ring, &sm->const_ring};
    for (int i = 0; i < 3; i++)
        while (ring_next(rings[i]) <= now) {
            rec_return(sm, ring_pop(rings[i]), now);
            progress = true;
        }
    if (sm->ldst.active && !sm->ldst.blocked)
        progress |= ldst_step(sm, now);
    uint64_t next = UINT64_MAX;
    progress |= schedule(sm, now, &next);
    if (sm->ldst.active && !sm->ldst.blocked)
        next = MIN(next, MAX(now + 1, sm->ldst.busy_until));
    if (sm->replies.head)
        next = now + 1;
    for (int i = 0; i < 3; i++)
        next = MIN(next, ring_next(rings[i]));
    sm->next_wake = MAX(next, now + 1);
    return progress;
}

bool sm_busy(const Sm *sm)
{
    return sm->n_live_ctas || sm->ldst.active || sm->replies.head || sm->hit_ring.n || sm->l1d.miss_q.n ||
           mshr_in_use(&sm->l1d.mshr);
}

void sm_dump(const Sm *sm, FILE *f, uint64_t now)
{
    fprintf(f, "sm[%u]: %u CTAs, next_wake %llu, ldst %s (access %u/%u), L1D MSHRs %u/%u, miss queue %u, replies %u\n",
            sm->id, sm->n_live_ctas, (unsigned long long)sm->next_wake, sm->ldst.active ? "busy" : "idle",
            sm->ldst.pos, sm->ldst.n, mshr_in_use(&sm->l1d.mshr), sm->l1d.mshr.n_entries, sm->l1d.miss_q.n,
            sm->replies.n);
    for (uint32_t s = 0; s < sm->max_warps; s++) {
        const Warp *w = &sm->warps[s];
        if (!w->live)
            continue;
        fprintf(f, "  warp %u: pc %u op %s ready_at %s%llu loads_pending %u%s scoreboard %u\n", s,
                w->next ? w->next->pc : 0, w->next ? winst_op_name((WinstOp)w->next->op) : "-",
                w->ready_at == UINT64_MAX ? "never:" : "", (unsigned long long)(w->ready_at == UINT64_MAX ? 0 : w->ready_at),
                w->loads_pending, w->at_barrier ? " at-barrier" : "", w->n_sb);
    }
    (void)now;
}
