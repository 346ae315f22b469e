/* gpu.c: runs kernels across four clock domains (gpu_build.c builds the machine).
 *
 * Tick order at one instant (GPGPU-Sim's order): core (CTA dispatch, then every awake SM),
 * interconnect (SM miss queues -> request network -> L2 input; L2 replies -> reply network ->
 * SMs), L2 (one request per slice, misses to the DRAM delay queues), DRAM (delay queue ->
 * controller, controller tick, replies back to the L2). Each domain advances at its own
 * period; the next instant is the earliest next tick of any domain.
 *
 * Idle skipping: every component reports whether it made progress and the earliest cycle it
 * could next do something. When a whole instant makes no progress, all domains jump to the
 * earliest such event. If no event exists while work is outstanding, or no progress is made
 * for gpu.watchdog_cycles core cycles, the run ends with a deadlock report naming the stuck
 * components and their queue contents.
 *
 * Run limits: a kernel that keeps issuing without ever finishing (a warp spinning on a flag
 * nobody sets) makes progress every cycle, so the watchdog never fires. Two budgets of warp
 * instructions, counted over all SMs, end it: gpu.spin_insts since a CTA of the kernel last
 * completed or one of its threads last wrote global or local memory (a store or an atomic), and
 * gpu.stall_insts since a CTA last completed. Instructions, not cycles: the simulator runs
 * about as many warp instructions a second whether one warp or every SM spins, so the budgets
 * bound the wall time of a stuck run, and a real kernel's count does not grow with its memory
 * latency. They are checked every LIMIT_CHECK_INSTANTS instants, from the SMs' counters.
 * gpu.max_cycles bounds a whole kernel. A stopped kernel leaves its CTAs resident;
 * gpu_stop_reason says why it was stopped. */
#include "core/gpu.h"

#include "core/gpu_par.h"

#include "base/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gpu_set_progress(Gpu *g, bool on) { g->progress_line = on; }

/* The CTA scheduler's view; per-SM entries are refreshed by sm_info before each use. */
static void sm_info(Gpu *g, uint32_t s)
{
    const Sm *sm = &g->sms[s];
    const SmConfig *c = &g->cfg.sm;
    g->cta_sm[s] = (CtaSmInfo){.live_ctas = sm->n_live_ctas,
                               .room = sm_cta_room(sm, g->kernel, false),
                               .room_empty = g->cta_room_empty,
                               .free_threads = c->max_threads - sm->threads_used,
                               .free_warps = sm->max_warps - sm->warps_used,
                               .free_regs = c->n_regs - sm->regs_used,
                               .free_smem_bytes = c->smem_bytes - sm->smem_used,
                               .free_cta_slots = c->max_ctas - sm->n_live_ctas};
}

static CtaSchedView cta_view(const Gpu *g, uint64_t now)
{
    return (CtaSchedView){.n_ctas = g->n_ctas, .launched = g->launched, .next_unlaunched = g->next_unlaunched,
                          .n_unlaunched = g->n_ctas - g->n_launched, .n_sms = g->n_sms, .sm = g->cta_sm,
                          .kernel = g->kernel, .cycle = now};
}

/* Collect the CTAs SM s completed; the CTA scheduler hears of each. */
static void collect_done(Gpu *g, uint32_t s, uint64_t now)
{
    uint32_t cta;
    while (sm_take_done_cta(&g->sms[s], &cta)) {
        g->n_done++;
        g->dispatch_pending = true;
        if (g->cta_ops->on_cta_done) {
            sm_info(g, s);
            CtaSchedView v = cta_view(g, now);
            g->cta_ops->on_cta_done(g->cta_sched, s, cta, &v);
        }
    }
}

/* One SM of cluster c, visited from the one after the SM served last, that has room and gets
 * CTAs from the CTA scheduler; false if none does. */
static bool dispatch_cluster(Gpu *g, uint32_t c, uint64_t now)
{
    for (uint32_t i = 1; i <= g->sms_per_cluster; i++) {
        uint32_t core = (g->cta_last_core[c] + i) % g->sms_per_cluster, s = c * g->sms_per_cluster + core;
        if (!sm_can_take(&g->sms[s], g->kernel))
            continue;
        sm_info(g, s);
        CtaSchedView v = cta_view(g, now);
        uint32_t ctas[64];
        uint32_t n = g->cta_ops->pick(g->cta_sched, s, &v, ctas);
        CHECK(n <= g->cta_sm[s].room);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t cta = ctas[k];
            CHECK(cta < g->n_ctas && !g->launched[cta]);
            g->launched[cta] = 1;
            g->n_launched++;
            while (g->next_unlaunched < g->n_ctas && g->launched[g->next_unlaunched])
                g->next_unlaunched++;
            sm_launch_cta(&g->sms[s], g->kernel, cta, now);
        }
        if (n) {
            g->cta_last_core[c] = core;
            return true;
        }
    }
    return false;
}

/* One dispatch round, as GPGPU-Sim's gpgpu_sim::issue_block2core: every cluster once, from the
 * one after the cluster served last, each giving one of its SMs a turn (round-robin within the
 * cluster), so consecutive CTAs spread over clusters before they share one. Both positions
 * carry over from one kernel to the next. */
static bool dispatch(Gpu *g, uint64_t now)
{
    bool any = false;
    uint32_t last = g->cta_last_cluster;
    for (uint32_t i = 1; i <= g->n_clusters && g->n_launched < g->n_ctas; i++) {
        uint32_t c = (last + i) % g->n_clusters;
        if (dispatch_cluster(g, c, now)) {
            g->cta_last_cluster = c;
            any = true;
        }
    }
    g->dispatch_pending = any;
    return any;
}

/* After SM s's cycle: the GPU collects what it completed. */
static inline void after_sm_cycle(Gpu *g, Sm *sm, uint64_t now)
{
    if (sm->n_done_ctas)
        collect_done(g, (uint32_t)(sm - g->sms), now);
    if (sm->cta_room_grew) { /* a CTA controller raised its cap (sm_ctl.c) */
        sm->cta_room_grew = false;
        g->dispatch_pending = true;
    }
}

/* gpu.threads > 1: the SMs' cycles first, then what each completed, in SM order. Apart, so
 * that the one-thread loop below stays as small as it was. */
static __attribute__((noinline)) bool core_tick_par(Gpu *g, uint64_t now)
{
    bool progress = gpu_par_cycle(g->par, now);
    const uint32_t *noted;
    for (uint32_t i = 0, n = gpu_par_noted(g->par, &noted); i < n; i++)
        after_sm_cycle(g, &g->sms[noted[i]], now);
    return progress;
}

static bool core_tick(Gpu *g, uint64_t now)
{
    bool progress = false;
    if (g->dispatch_pending)
        progress |= dispatch(g, now);
    if (g->front_ops->cycle_begin)
        g->front_ops->cycle_begin(g->front_self);
    if (g->par && !gpu_par_serial(g->par))
        return progress | core_tick_par(g, now);
    uint32_t ran = 0;
    for (Sm *sm = g->sms, *end = g->sms + g->n_sms; sm < end; sm++)
        if (sm->next_wake <= now) { /* asleep SMs cost one compare */
            ran++;
            progress |= sm_cycle(sm, now);
            after_sm_cycle(g, sm, now);
        }
    if (g->par) /* a cycle of few SMs on several threads would cost more than it saves */
        gpu_par_serial_ran(g->par, ran);
    return progress;
}

/* Decode a request's memory location once. */
static void route(const Gpu *g, MemReq *r)
{
    if (r->routed)
        return;
    AddrLoc loc;
    if (r->kind == MREQ_WRITEBACK) /* an L2 victim: only its partition-local address is known */
        addrdec_decode_local(&g->addrdec, r->slice / g->cfg.mem.subpartitions, r->local_addr, &loc);
    else
        addrdec_decode(&g->addrdec, r->addr, &loc);
    r->local_addr = loc.local;
    r->partition = loc.partition;
    r->slice = loc.slice;
    r->bank = loc.bank;
    r->row = loc.row;
    r->routed = true;
}

/* Route a read that slice i sends to DRAM: a line's sectors are fetched one after another,
 * and all but the first find their location from the one before instead of decoding it. */
static void route_fetch(Gpu *g, uint32_t i, MemReq *r)
{
    struct GpuFetchLoc *m = &g->fetch_loc[i];
    const unsigned k = g->addrdec.same_loc_bits;
    if (!m->valid || (r->addr >> k) != (m->addr >> k)) {
        addrdec_decode(&g->addrdec, r->addr, &m->loc);
        m->addr = r->addr;
        m->valid = true;
    }
    uint64_t low = (1ull << k) - 1; /* k < 64: below the channel bits */
    r->local_addr = m->loc.local ^ ((r->addr ^ m->addr) & low);
    r->partition = m->loc.partition;
    r->slice = m->loc.slice;
    r->bank = m->loc.bank;
    r->row = m->loc.row;
    r->routed = true;
}

/* Cluster c's ejection buffer (icnt.ejection_buffer), as GPGPU-Sim's simt_core_cluster::
 * icnt_cycle: one packet from the reply network while the buffer has room, and the buffer's
 * head on to its SM when the SM takes it (sm_can_accept_reply). The packet taken this cycle may
 * go on at once, so the buffer holds replies only while an SM's response FIFO is full. */
static bool eject_tick(Gpu *g, uint32_t c, uint64_t now)
{
    MemReqQueue *q = &g->eject[c];
    bool progress = false;
    if (icnt_ready(&g->reply_net, c, now)) {
        if (q->n < g->cfg.icnt.ejection_buffer) {
            memreq_queue_push(q, icnt_pop(&g->reply_net, c, now));
            bits_set(g->eject_queued, c);
            g->eject_total++;
            progress = true;
        } else {
            g->reply_held++;
        }
    }
    MemReq *r = q->head;
    if (r && sm_can_accept_reply(&g->sms[r->sm], r)) {
        memreq_queue_pop(q);
        if (!q->head)
            bits_clear(g->eject_queued, c);
        g->eject_total--;
        sm_deliver(&g->sms[r->sm], r, g->cycle[DOMAIN_CORE]);
        progress = true;
    }
    return progress;
}

/* Cluster c injects one request, its SMs taking turns; true if one did. */
static bool inject(Gpu *g, uint32_t c, uint64_t now)
{
    const uint32_t per = g->sms_per_cluster, cw = bits_words(g->n_clusters);
    const uint64_t port = g->req_net.src[c].busy_until;
    for (uint32_t k = 0, j = g->cluster_rr[c]; k < per; k++, j = j + 1 == per ? 0 : j + 1) {
        uint32_t s = c * per + j;
        L1d *l1 = &g->sms[s].l1d;
        MemReq *r = l1->miss_q.head;
        if (!r)
            continue;
        route(g, r);
        if (!icnt_can_push(&g->req_net, c, r->slice, now)) {
            if (!l1->icnt_refused) {
                l1->icnt_refused = true;
                sm_miss_queue_refused(&g->sms[s], g->cycle[DOMAIN_CORE]);
            }
            if (port <= now) /* refused for the destination's credits */
                bits_set(&g->credit_wait[(size_t)r->slice * cw], c);
            continue;
        }
        l1->icnt_refused = false;
        memreq_queue_pop(&l1->miss_q);
        if (!l1->miss_q.head)
            bits_clear(g->missq_queued, s);
        g->missq_total--;
        icnt_push(&g->req_net, c, r->slice, r, r->kind == MREQ_READ ? 0 : r->size_bytes, now);
        g->cluster_rr[c] = j + 1 == per ? 0 : j + 1;
        sm_miss_queue_drained(&g->sms[s], g->cycle[DOMAIN_CORE]);
        return true;
    }
    if (port > now) {
        g->inject_wake[c] = port;
    } else {
        g->inject_wake[c] = UINT64_MAX;
        bits_set(g->credit_asleep, c);
    }
    return false;
}

/* Destination i freed a credit: the clusters waiting for one try again. */
static void credit_freed(Gpu *g, uint32_t i)
{
    const uint32_t cw = bits_words(g->n_clusters);
    uint64_t *w = &g->credit_wait[(size_t)i * cw];
    for (uint32_t wi = 0; wi < cw; wi++, w++) {
        for (uint64_t m = *w; m; m &= m - 1)
            g->inject_wake[wi * 64 + (uint32_t)__builtin_ctzll(m)] = 0;
        g->credit_asleep[wi] &= ~*w;
        *w = 0;
    }
}

static bool icnt_tick(Gpu *g, uint64_t now)
{
    bool progress = false;
    /* The clusters with queued requests, from the bits of their SMs, in ascending order. */
    uint32_t last = UINT32_MAX, per = g->sms_per_cluster;
    for (uint32_t wi = 0; wi < bits_words(g->n_sms); wi++)
        if (per == 1) { /* an SM's bit is its cluster's; those asleep on credits are left out */
            for (uint64_t m = g->missq_queued[wi] & ~g->credit_asleep[wi]; m; m &= m - 1) {
                uint32_t c = wi * 64 + (uint32_t)__builtin_ctzll(m);
                if (g->inject_wake[c] <= now)
                    progress |= inject(g, c, now);
            }
        } else {
            for (uint64_t m = g->missq_queued[wi]; m; m &= m - 1) {
                uint32_t c = (wi * 64 + (uint32_t)__builtin_ctzll(m)) / per;
                if (c != last && g->inject_wake[c] <= now) /* not visited with an SM before this one */
                    progress |= inject(g, c, now);
                last = c;
            }
        }
    /* The slices with requests arriving or replies to send, in ascending order (visiting one
     * changes no other's bits). */
    for (uint32_t wi = 0; wi < bits_words(g->n_slices); wi++)
        for (uint64_t m = g->req_net.dst_queued[wi] | g->slice_replies[wi]; m; m &= m - 1) {
            uint32_t i = wi * 64 + (uint32_t)__builtin_ctzll(m);
            L2Slice *sl = &g->slices[i];
            bool popped = false;
            while (icnt_ready(&g->req_net, i, now) && l2_can_accept(sl, g->cycle[DOMAIN_L2])) {
                l2_push(sl, icnt_pop(&g->req_net, i, now), g->cycle[DOMAIN_L2]);
                bits_set(g->slice_input, i);
                g->mem_busy.l2_requests++;
                progress = popped = true;
            }
            if (popped)
                credit_freed(g, i);
            MemReq *rep = sl->replies.head;
            if (rep) {
                uint32_t dst = rep->sm / g->sms_per_cluster;
                if (icnt_can_push(&g->reply_net, i, dst, now)) {
                    memreq_queue_pop(&sl->replies);
                    l2_reply_left(sl, g->cycle[DOMAIN_L2]);
                    if (!sl->replies.head)
                        bits_clear(g->slice_replies, i);
                    g->replies_total--;
                    icnt_push(&g->reply_net, i, dst, rep, rep->kind == MREQ_WRITE ? 0 : rep->size_bytes, now);
                    progress = true;
                } else {
                    g->reply_stall++;
                }
            }
        }
    const uint32_t cw = bits_words(g->n_clusters);
    if (g->cfg.icnt.ejection_buffer) {
        for (uint32_t wi = 0; wi < cw; wi++)
            for (uint64_t m = g->reply_net.dst_queued[wi] | g->eject_queued[wi]; m; m &= m - 1)
                progress |= eject_tick(g, wi * 64 + (uint32_t)__builtin_ctzll(m), now);
        return progress;
    }
    for (uint32_t wi = 0; wi < cw; wi++)
        for (uint64_t m = g->reply_net.dst_queued[wi]; m; m &= m - 1) {
            uint32_t c = wi * 64 + (uint32_t)__builtin_ctzll(m);
            /* without an ejection buffer: every delivered packet its SM takes (sm.response_fifo) */
            while (icnt_ready(&g->reply_net, c, now)) {
                const MemReq *h = g->reply_net.dst[c].q.head;
                if (!sm_can_accept_reply(&g->sms[h->sm], h)) {
                    g->reply_held++;
                    break;
                }
                MemReq *r = icnt_pop(&g->reply_net, c, now);
                sm_deliver(&g->sms[r->sm], r, g->cycle[DOMAIN_CORE]);
                progress = true;
            }
        }
    return progress;
}

static bool l2_domain_tick(Gpu *g, uint64_t now)
{
    bool progress = false;
    /* Only a slice with input can act: it fills its DRAM queue only here, which empties at once. */
    for (uint32_t wi = 0; wi < bits_words(g->n_slices); wi++)
        for (uint64_t m = g->slice_input[wi]; m; m &= m - 1) {
            uint32_t i = wi * 64 + (uint32_t)__builtin_ctzll(m);
            L2Slice *sl = &g->slices[i];
            if (sl->try_at > now) /* not ready, or asleep */
                continue;
            progress |= l2_tick(sl, now);
            if (!sl->in.head)
                bits_clear(g->slice_input, i);
            if (sl->replies.head)
                bits_set(g->slice_replies, i);
            /* Misses and write-backs start their fixed DRAM latency. */
            MemReq *r;
            while ((r = memreq_queue_pop(&sl->to_dram)) != NULL) {
                if (r->kind == MREQ_READ && !r->routed)
                    route_fetch(g, i, r);
                else
                    route(g, r);
                r->ready = g->cycle[DOMAIN_DRAM] + g->dram_delay_cycles;
                memreq_queue_push(&g->dram_delay[r->partition], r);
                g->dram_due[r->partition] = MIN(g->dram_due[r->partition], r->ready);
                progress = true;
            }
        }
    return progress;
}

/* Inlined into the clock-domain loop: the inliner left it out once the core tick grew, at 2% of
 * the divergent stream's instructions. */
static inline __attribute__((always_inline)) bool dram_domain_tick(Gpu *g, uint64_t now)
{
    bool progress = false;
    Dram *const *drams = g->drams; /* in locals: the calls below could write g for all the compiler knows */
    MemReqQueue *q = g->dram_delay;
    uint64_t *wake = g->dram_wake, *due = g->dram_due;
    for (uint32_t p = 0, n = g->n_partitions; p < n; p++, q++) {
        if (due[p] > now) /* neither its delay queue's head nor its controller */
            continue;
        Dram *d = drams[p];
        while (q->head && q->head->ready <= now && dram_can_accept(d)) {
            if (dram_push(d, memreq_queue_pop(q), now)) /* a busy bank's queue waits: no tick */
                wake[p] = now;
            progress = true;
        }
        /* A controller waiting on its timing constraints is not ticked until it can act
         * (it is deterministic whatever cycles are skipped). */
        if (wake[p] > now) {
            due[p] = MIN(wake[p], q->head ? q->head->ready : UINT64_MAX);
            continue;
        }
        bool ticked = dram_tick(d, now), acted = ticked;
        MemReq *r;
        while ((r = dram_pop_reply(d, now)) != NULL) {
            CHECK(r->kind == MREQ_READ && r->is_reply);
            l2_fill(&g->slices[r->slice], r, g->cycle[DOMAIN_L2]);
            if (g->slices[r->slice].replies.head)
                bits_set(g->slice_replies, r->slice);
            acted = true;
        }
        /* After a command or a bank taking a request, the controller mostly has more to do the
         * next cycle (on divergent 6 times in 7): look then rather than work out when. A tick
         * that does nothing finds the exact wait, from the state it left. */
        wake[p] = ticked ? now + 1 : dram_next_event(d, now + 1);
        due[p] = MIN(wake[p], q->head ? q->head->ready : UINT64_MAX);
        progress |= acted;
    }
    return progress;
}

/* Earliest cycle of each domain at which something could happen. */
static void next_events(const Gpu *g, uint64_t ev[DOMAIN_COUNT])
{
    uint64_t core = g->dispatch_pending ? g->cycle[DOMAIN_CORE] : UINT64_MAX;
    for (uint32_t i = 0; i < g->n_sms; i++) /* a stalled SM's sleep stands for cycles it would run */
        core = MIN(core, g->sms[i].stall_sleep ? g->cycle[DOMAIN_CORE] : g->sms[i].next_wake);
    uint64_t icnt = MIN(icnt_next_event(&g->req_net), icnt_next_event(&g->reply_net));
    if (g->missq_total || g->replies_total || g->eject_total)
        icnt = g->cycle[DOMAIN_ICNT];
    uint64_t l2 = UINT64_MAX;
    for (uint32_t wi = 0; wi < bits_words(g->n_slices); wi++)
        for (uint64_t m = g->slice_input[wi]; m; m &= m - 1)
            l2 = MIN(l2, l2_next_event(&g->slices[wi * 64 + (uint32_t)__builtin_ctzll(m)]));
    uint64_t dram = UINT64_MAX;
    for (uint32_t p = 0; p < g->n_partitions; p++) {
        /* dram_wake: the controller's next event or, after a tick that changed it, the next cycle */
        dram = MIN(dram, MAX(g->dram_wake[p], g->cycle[DOMAIN_DRAM]));
        if (g->dram_delay[p].head)
            dram = MIN(dram, MAX(g->dram_delay[p].head->ready, g->cycle[DOMAIN_DRAM]));
    }
    ev[DOMAIN_CORE] = core;
    ev[DOMAIN_ICNT] = icnt;
    ev[DOMAIN_L2] = l2;
    ev[DOMAIN_DRAM] = dram;
}

static void deadlock_report(Gpu *g, FILE *f, const char *why)
{
    snprintf(g->stop_reason, sizeof g->stop_reason, "deadlock: %s at core cycle %llu (kernel '%s': %u of %u CTAs done)",
             why, (unsigned long long)g->cycle[DOMAIN_CORE], g->kernel->name, g->n_done, g->n_ctas);
    fprintf(f, "warpsim: %s\n", g->stop_reason);
    for (uint32_t i = 0; i < g->n_sms; i++)
        if (sm_busy(&g->sms[i]))
            sm_dump(&g->sms[i], f, g->cycle[DOMAIN_CORE]);
    for (uint32_t i = 0; i < g->n_slices; i++) {
        const L2Slice *s = &g->slices[i];
        if (s->in.n || s->to_dram.n || s->replies.n || mshr_in_use(&s->mshr))
            fprintf(f, "l2[%u]: input %u (head %s0x%llx), to-DRAM %u, replies %u, MSHRs %u/%u\n", i, s->in.n,
                    s->in.head ? "" : "none ", (unsigned long long)(s->in.head ? s->in.head->addr : 0), s->to_dram.n,
                    s->replies.n, mshr_in_use(&s->mshr), s->mshr.n_entries);
    }
    for (uint32_t p = 0; p < g->n_partitions; p++)
        if (dram_pending(g->drams[p]) || g->dram_delay[p].n) {
            fprintf(f, "dram[%u]: delay queue %u\n", p, g->dram_delay[p].n);
            dram_dump(g->drams[p], f);
        }
    fprintf(f, "interconnect: %u requests and %u replies in flight, %u replies in ejection buffers\n",
            icnt_in_flight(&g->req_net), icnt_in_flight(&g->reply_net), g->eject_total);
}

/* One time-series sample: rates over the period since the last one, occupancy now. After an
 * idle skip over several periods, the later ones record no activity, as is true. */
static void take_sample(Gpu *g)
{
    uint64_t thread_insts = 0, access = 0, hit = 0, warps = 0, unthrottled = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        const Sm *sm = &g->sms[i];
        thread_insts += sm->thread_insts;
        access += sm->l1d.access;
        hit += sm->l1d.hit;
        warps += sm->warps_used;
        unthrottled += sm_unthrottled_warps(sm);
    }
    uint64_t period = g->cfg.gpu.sample_cycles;
    stats_series_push(&g->stats, g->series_ipc, (double)(thread_insts - g->last_thread_insts) / (double)period);
    stats_series_push(&g->stats, g->series_warps, (double)warps);
    stats_series_push(&g->stats, g->series_unthrottled, (double)unthrottled);
    uint64_t da = access - g->last_l1d_access;
    stats_series_push(&g->stats, g->series_l1d_hit, da ? (double)(hit - g->last_l1d_hit) / (double)da : 0.0);
    g->last_thread_insts = thread_insts;
    g->last_l1d_access = access;
    g->last_l1d_hit = hit;
    for (uint32_t i = 0; i < g->n_sms; i++)
        sm_sample(&g->sms[i]);
    g->next_sample += period;
}

static void report_progress(Gpu *g)
{
    double now = wall_seconds();
    if (now - g->last_report_wall < 2.0)
        return;
    g->last_report_wall = now;
    uint64_t insts = 0;
    for (uint32_t i = 0; i < g->n_sms; i++)
        insts += g->sms[i].warp_insts;
    fprintf(stderr, "\rwarpsim: %s: cycle %llu, %u/%u CTAs, %llu warp insts, %.0f s   ", g->kernel->name,
            (unsigned long long)g->cycle[DOMAIN_CORE], g->n_done, g->n_ctas, (unsigned long long)insts,
            now - g->start_wall);
    fflush(stderr);
}

/* Warp instructions issued and global or local stores and atomics, over all SMs so far. */
static void count_insts(const Gpu *g, uint64_t *insts, uint64_t *writes)
{
    *insts = *writes = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        *insts += g->sms[i].warp_insts;
        *writes += g->sms[i].stores + g->sms[i].atomics;
    }
}

/* A run limit counting warp instructions since the kernel last got anywhere was met. */
static void stall_report(Gpu *g, FILE *f, uint64_t insts, const char *key, const char *since)
{
    snprintf(g->stop_reason, sizeof g->stop_reason,
             "kernel '%s' stopped at core cycle %llu: %llu warp instructions (%s) since %s, %u of %u CTAs done; it "
             "may wait for something that never happens, such as a flag no thread sets. If it is only slow, raise "
             "the limit: -o %s=N (0: no limit)",
             g->kernel->name, (unsigned long long)g->cycle[DOMAIN_CORE], (unsigned long long)insts, key, since,
             g->n_done, g->n_ctas, key);
    g->stop_limit = key;
    fprintf(f, "warpsim: %s\n", g->stop_reason);
}

/* The main loop's instants between two checks of gpu.spin_insts and gpu.stall_insts (the
 * progress line's 65,536 a multiple of it). */
#define LIMIT_CHECK_INSTANTS 256

/* gpu.spin_insts and gpu.stall_insts, counted from the check that first saw a CTA completion
 * or a write: true, with the report, when one is met. */
static bool limits_met(Gpu *g, FILE *f)
{
    uint64_t insts, writes;
    count_insts(g, &insts, &writes);
    if (g->n_done != g->limit_done) {
        g->limit_done = g->n_done;
        g->insts_at_done = insts;
    }
    if (writes != g->limit_writes) {
        g->limit_writes = writes;
        g->insts_at_write = insts;
    }
    const uint64_t spin = g->cfg.gpu.spin_insts, stall = g->cfg.gpu.stall_insts;
    uint64_t since_done = insts - g->insts_at_done, since_write = insts - MAX(g->insts_at_done, g->insts_at_write);
    if (stall && since_done >= stall) {
        stall_report(g, f, since_done, "gpu.stall_insts", "a CTA last completed");
        return true;
    }
    if (spin && since_write >= spin) {
        stall_report(g, f, since_write, "gpu.spin_insts",
                     "a CTA last completed or a thread last wrote global or local memory");
        return true;
    }
    return false;
}

const char *gpu_stop_reason(const Gpu *g) { return g->stop_reason; }
const char *gpu_stop_limit(const Gpu *g) { return g->stop_limit; }

static void sum_sm_stats(Gpu *g)
{
    uint64_t w = 0, t = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        w += g->sms[i].warp_insts;
        t += g->sms[i].thread_insts;
    }
    g->sim_warp_insts = w;
    g->sim_thread_insts = t;
}

/* Domain d ticks at its cycle, and its next tick's time is kept in at[d]; true on progress. */
static inline bool domain_tick(Gpu *g, int d, double at[DOMAIN_COUNT])
{
    uint64_t now = g->cycle[d];
    bool progress = false;
    switch (d) {
    case DOMAIN_CORE: progress = core_tick(g, now); break;
    case DOMAIN_ICNT: progress = icnt_tick(g, now); break;
    case DOMAIN_L2: progress = l2_domain_tick(g, now); break;
    case DOMAIN_DRAM: progress = dram_domain_tick(g, now); break;
    }
    g->cycle[d]++;
    at[d] = (double)g->cycle[d] * g->period[d];
    return progress;
}

/* The first core cycle at which a time-series sample or gpu.max_cycles is due. */
static uint64_t checks_due(const Gpu *g, uint64_t start_cycle, uint64_t limit)
{
    uint64_t due = g->next_sample ? g->next_sample : UINT64_MAX;
    if (limit && limit <= UINT64_MAX - start_cycle)
        due = MIN(due, start_cycle + limit);
    return due;
}

GpuRunStatus gpu_run_kernel(Gpu *g, const FrontOps *ops, void *front, const FrontKernel *k, FILE *report)
{
    if (!report)
        report = stderr;
    g->kernel = k;
    g->front_ops = ops;
    g->front_self = front;
    if (g->cfg.gpu.threads > 1 && g->n_sms > 1 && !g->par) /* the workers stay for later kernels */
        g->par = gpu_par_new(g->sms, g->n_sms, MIN(g->cfg.gpu.threads, g->n_sms), g->cfg.gpu.par_min_sms,
                             &g->pool);
    if (g->par)
        gpu_par_kernel_begin(g->par);
    g->n_ctas = front_kernel_n_ctas(k);
    free(g->launched);
    g->launched = xcalloc(g->n_ctas ? g->n_ctas : 1, 1);
    g->next_unlaunched = g->n_done = g->n_launched = 0;
    /* the dispatch positions carry over from the last kernel, as GPGPU-Sim's do */
    g->dispatch_pending = g->n_ctas > 0;
    g->cta_room_empty = sm_cta_room(&g->sms[0], k, true);
    if (g->cta_ops->on_kernel_begin)
        g->cta_ops->on_kernel_begin(g->cta_sched, k);
    ops->kernel_begin(front, k, g->n_sms * g->cfg.sm.max_warps);
    for (uint32_t i = 0; i < g->n_sms; i++) {
        sm_set_front(&g->sms[i], ops, front);
        sm_kernel_begin(&g->sms[i], k, g->cycle[DOMAIN_CORE]);
        g->sms[i].next_wake = g->cycle[DOMAIN_CORE];
    }
    stats_kernel_begin(&g->stats);
    g->start_wall = g->last_report_wall = wall_seconds();
    uint64_t start_cycle = g->cycle[DOMAIN_CORE];
    g->last_progress = start_cycle;
    g->stop_reason[0] = 0;
    g->stop_limit = NULL;
    count_insts(g, &g->insts_at_done, &g->limit_writes);
    g->insts_at_write = g->insts_at_done;
    g->limit_done = 0;
    GpuRunStatus status = GPU_RUN_OK;
    const uint64_t watchdog = g->cfg.gpu.watchdog_cycles, limit = g->cfg.gpu.max_cycles;
    const bool limits = g->cfg.gpu.spin_insts || g->cfg.gpu.stall_insts;
    uint32_t rounds = 0;
    double at[DOMAIN_COUNT]; /* each domain's next tick in time, as cycle x period, kept with cycle */
    for (int d = 0; d < DOMAIN_COUNT; d++)
        at[d] = (double)g->cycle[d] * g->period[d];
    uint64_t due = checks_due(g, start_cycle, limit);
    _Static_assert(DOMAIN_COUNT == 4, "the loop below ticks four domains");
    while (g->n_done < g->n_ctas) {
        /* The next instant: the earliest next tick of any domain; those due tick in order. */
        double t = MIN(MIN(at[DOMAIN_CORE], at[DOMAIN_ICNT]), MIN(at[DOMAIN_L2], at[DOMAIN_DRAM]));
        bool progress = false;
        if (at[DOMAIN_CORE] <= t)
            progress |= domain_tick(g, DOMAIN_CORE, at);
        if (at[DOMAIN_ICNT] <= t)
            progress |= domain_tick(g, DOMAIN_ICNT, at);
        if (at[DOMAIN_L2] <= t)
            progress |= domain_tick(g, DOMAIN_L2, at);
        if (at[DOMAIN_DRAM] <= t)
            progress |= domain_tick(g, DOMAIN_DRAM, at);
        uint64_t core_now = g->cycle[DOMAIN_CORE];
        if (progress) {
            g->last_progress = core_now;
        } else {
            uint64_t ev[DOMAIN_COUNT];
            next_events(g, ev);
            double target = INFINITY;
            for (int d = 0; d < DOMAIN_COUNT; d++)
                if (ev[d] != UINT64_MAX)
                    target = MIN(target, (double)ev[d] * g->period[d]);
            if (target == INFINITY) {
                deadlock_report(g, report, "no component has any work it can do");
                status = GPU_RUN_DEADLOCK;
                break;
            }
            /* Jump every domain to its first cycle at or after the target instant. */
            for (int d = 0; d < DOMAIN_COUNT; d++) {
                uint64_t c = (uint64_t)ceil(target / g->period[d] - 1e-9);
                if (c > g->cycle[d])
                    g->cycle[d] = c;
                at[d] = (double)g->cycle[d] * g->period[d];
            }
            if (g->cycle[DOMAIN_CORE] - g->last_progress > watchdog) {
                char why[128];
                snprintf(why, sizeof why, "no progress for %llu core cycles", (unsigned long long)watchdog);
                deadlock_report(g, report, why);
                status = GPU_RUN_DEADLOCK;
                break;
            }
        }
        if (g->cycle[DOMAIN_CORE] >= due) { /* a sample or gpu.max_cycles */
            while (g->next_sample && g->cycle[DOMAIN_CORE] >= g->next_sample)
                take_sample(g);
            if (limit && g->cycle[DOMAIN_CORE] - start_cycle >= limit) {
                snprintf(g->stop_reason, sizeof g->stop_reason,
                         "kernel '%s' stopped at gpu.max_cycles = %llu (%u of %u CTAs done); raise it with "
                         "-o gpu.max_cycles=N (0: no limit)", k->name, (unsigned long long)limit, g->n_done, g->n_ctas);
                g->stop_limit = "gpu.max_cycles";
                status = GPU_RUN_CYCLE_LIMIT;
                break;
            }
            due = checks_due(g, start_cycle, limit);
        }
        if (++rounds % LIMIT_CHECK_INSTANTS)
            continue;
        if (limits && limits_met(g, report)) {
            status = GPU_RUN_CYCLE_LIMIT;
            break;
        }
        if (g->progress_line && rounds % 65536 == 0)
            report_progress(g);
    }
    if (g->progress_line && wall_seconds() - g->start_wall >= 2.0)
        fputc('\n', stderr);
    g->sim_cycles += g->cycle[DOMAIN_CORE] - start_cycle;
    g->kernels++;
    for (uint32_t i = 0; i < g->n_sms; i++) /* the cycles of SMs still asleep (a stopped kernel) */
        sm_account_sleep(&g->sms[i], g->cycle[DOMAIN_CORE]);
    sum_sm_stats(g);
    for (uint32_t i = 0; i < g->n_slices; i++) /* the stalls of slices still asleep */
        l2_account_sleep(&g->slices[i], g->cycle[DOMAIN_L2]);
    stats_kernel_end(&g->stats, k->name);
    ops->kernel_end(front);
    for (uint32_t i = 0; i < g->n_sms; i++)
        sm_kernel_end(&g->sms[i], g->cycle[DOMAIN_CORE]);
    if (g->cta_ops->on_kernel_end)
        g->cta_ops->on_kernel_end(g->cta_sched);
    return status;
}
