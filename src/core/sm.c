/* sm.c: one streaming multiprocessor (see sm.h): CTAs, warps, barriers and the cycle.
 *
 * Per cycle, in this order: one interconnect reply fills the L1D and wakes its loads; timed
 * returns (L1D hits, shared, constant) that are due complete; the LD/ST unit presents one
 * access (sm_ldst.c); each scheduler issues at most one instruction (sm_issue.c). A warp's
 * earliest issue cycle is cached (sm_scoreboard.c), so an SM whose warps all wait sleeps
 * (next_wake) until a reply or a timed event; a cycle it would have slept but for a sector reply
 * that only counts its request down is taken in short (self_wake, sm_ldst_count_down). Completed
 * CTAs are queued for the GPU. */
#include "core/sm_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static void unit_timing(Sm *sm, const AluConfig *a)
{
    static const WinstOp ops[] = {WOP_INT_ADD, WOP_INT_MUL, WOP_INT_MAD, WOP_INT_DIV, WOP_FP_ADD,
                                  WOP_FP_MUL,  WOP_FP_MAD,  WOP_FP_DIV,  WOP_DP_ADD,  WOP_DP_MUL,
                                  WOP_DP_MAD,  WOP_DP_DIV,  WOP_SFU,     WOP_TENSOR};
    const uint32_t lat[] = {a->int_add_lat, a->int_mul_lat, a->int_mad_lat, a->int_div_lat, a->fp_add_lat,
                            a->fp_mul_lat,  a->fp_mad_lat,  a->fp_div_lat,  a->dp_add_lat,  a->dp_mul_lat,
                            a->dp_mad_lat,  a->dp_div_lat,  a->sfu_lat,     a->tensor_lat};
    const uint32_t ii[] = {a->int_add_ii, a->int_mul_ii, a->int_mad_ii, a->int_div_ii, a->fp_add_ii,
                           a->fp_mul_ii,  a->fp_mad_ii,  a->fp_div_ii,  a->dp_add_ii,  a->dp_mul_ii,
                           a->dp_mad_ii,  a->dp_div_ii,  a->sfu_ii,     a->tensor_ii};
    for (uint32_t i = 0; i < WOP_COUNT; i++) {
        sm->lat[i] = a->int_add_lat; /* branch, nop, barrier, exit: the integer pipeline */
        sm->ii[i] = a->int_add_ii;
    }
    for (size_t i = 0; i < ARRAY_LEN(ops); i++) {
        sm->lat[ops[i]] = lat[i];
        sm->ii[ops[i]] = ii[i];
    }
}

/* The scheduler policy: the SM-wide state first, then one instance per scheduler. */
static void sched_create(Sm *sm, const Config *cfg, Stats *st)
{
    const WarpSchedOps *ops = sm->sched_ops;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "sm[%u].sched.%s", sm->id, ops->meta.name);
    policy_ctx_init(&sm->shared_ctx, &ops->meta, "sm.sched", cfg, st, prefix, sm->id, 0);
    sm->shared_ctx.count = sm->n_sched;
    sm->sched_shared = ops->create_shared ? ops->create_shared(&sm->shared_ctx) : NULL;
    for (uint32_t i = 0; i < sm->n_sched; i++) {
        PolicyCtx *ctx = &sm->sched_ctx[i];
        snprintf(prefix, sizeof prefix, "sm[%u].sched[%u].%s", sm->id, i, ops->meta.name);
        /* Scheduler instances register no stats of their own: per-SM state does that. */
        policy_ctx_init(ctx, &ops->meta, "sm.sched", cfg, NULL, prefix, sm->id, i);
        ctx->count = sm->n_sched;
        ctx->shared = sm->sched_shared;
        sm->sched[i] = ops->create ? ops->create(ctx) : NULL;
    }
}

void sm_init(Sm *sm, uint32_t id, const Config *cfg, MemPool *pool, Stats *st)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->max_warps = cfg->sm.max_warps;
    sm->n_sched = cfg->sm.n_sched;
    sm->sched_rotate = cfg->sm.sched_rotate && sm->n_sched > 1;
    sm->dual_issue = cfg->sm.issue_per_warp > 1;
    sm->max_pending_regs = cfg->sm.max_pending_regs;
    CHECK(sm->max_warps <= 64 && sm->n_sched <= 8);
    sm->warps = xcalloc(sm->max_warps, sizeof *sm->warps);
    sm->sb_store = xcalloc((size_t)sm->max_warps * cfg->sm.max_pending_regs, sizeof *sm->sb_store);
    for (uint32_t w = 0; w < sm->max_warps; w++) {
        sm->warps[w].sb = &sm->sb_store[(size_t)w * cfg->sm.max_pending_regs];
        sm->warps[w].id = id * sm->max_warps + w;
        sm->warps[w].slot = (uint8_t)w;
    }
    sm->ctas = xcalloc(cfg->sm.max_ctas, sizeof *sm->ctas);
    sm->age = xcalloc(sm->max_warps, sizeof *sm->age);
    sm->ready_at = xcalloc(sm->max_warps, sizeof *sm->ready_at);
    sm->slot_info = xcalloc(sm->max_warps, sizeof *sm->slot_info);
    sm->view = (SmView){.id = id, .max_warps = sm->max_warps, .n_sched = sm->n_sched,
                        .miss_queue_cap = cfg->l1d.miss_queue, .slot = sm->slot_info};
    sm->sched_ops = policy_warp(cfg->sm.sched);
    CHECK(sm->sched_ops);
    sched_create(sm, cfg, st);
    sm->pool_units[SM_UNIT_SP] = cfg->sm.n_sp_units;
    sm->pool_units[SM_UNIT_SFU] = cfg->sm.n_sfu_units;
    for (int u = SM_UNIT_SP; u <= SM_UNIT_SFU; u++)
        sm->pool_busy[u] = xcalloc(MAX(sm->pool_units[u], 1u), sizeof *sm->pool_busy[u]);
    sm->tensor_busy = xcalloc(MAX(cfg->sm.n_tensor_units, 1u), sizeof *sm->tensor_busy);
    sm->pool_free_at[SM_UNIT_SP] = cfg->sm.n_sp_units ? 0 : UINT64_MAX; /* never free without units */
    sm->pool_free_at[SM_UNIT_SFU] = cfg->sm.n_sfu_units ? 0 : UINT64_MAX;
    sm->next_unit = xcalloc(sm->max_warps, sizeof *sm->next_unit);
    unit_timing(sm, &cfg->alu);
    l1d_init(&sm->l1d, (uint16_t)id, cfg, pool, st);
    l1d_smem_unused(&sm->l1d, cfg->sm.smem_bytes);
    regfile_init(&sm->rf, cfg->sm.n_regs, cfg->sm.max_ctas);
    sm_ctl_init(sm);
    sm_ldst_init(sm, st);
    sm_connect_l1d_events(sm);
    if (cfg->sm.icache_sets)
        icache_init(&sm->ic, cfg->sm.icache_sets, cfg->sm.icache_assoc, cfg->sm.icache_line, cfg->sm.icache_mshr);
#define C(field, name, help) stats_counter(st, &sm->field, "sm[%u]." name, help, id)
    C(cycles_active, "cycles_active", "cycles with at least one CTA resident");
    C(rf.sur_cycles, "rf.sur_cycles",
      "statically unused warp registers (128 B; allocated to no resident CTA) summed over kernel cycles");
    C(rf.dur_cycles, "rf.dur_cycles",
      "dynamically unused warp registers (held by inactive CTAs) summed over kernel cycles");
    C(rf.cycles, "rf.kernel_cycles",
      "kernel cycles of this SM (from its first CTA of each kernel to the kernel's end): rf.sur_cycles / "
      "rf.kernel_cycles is the average SUR in warp registers");
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
    C(dual_issued, "sched.dual_issued", "scheduler-cycles that also issued the warp's next instruction (sm.issue_per_warp)");
    C(idle_no_ready, "sched.no_ready", "scheduler-cycles with live warps but none ready");
    C(stall_ldst, "sched.ldst_stall", "scheduler-cycles whose only ready warps wanted the busy LD/ST unit");
    C(held, "sched.held", "scheduler-cycles whose ready warps the policy all held back (may_issue)");
    C(stall_structural, "sched.stall_structural",
      "scheduler-cycles without issue whose ready warps' unit was busy: the LD/ST unit (sched.ldst_stall) or a "
      "pipeline (LAS thesis Fig. 5.3: structural hazard)");
    C(stall_raw, "sched.stall_raw",
      "scheduler-cycles with live warps, none ready and none held by a busy unit, one waiting on the scoreboard "
      "(RAW hazard)");
    C(stall_idle, "sched.stall_idle",
      "scheduler-cycles with live warps, none ready, none waiting on the scoreboard: at a barrier, an empty "
      "I-buffer, exit (idle or control hazard; stall_raw + stall_idle + the pipeline part of stall_structural = "
      "sched.no_ready)");
    C(ldst_busy, "ldst.busy", "cycles the LD/ST unit held an instruction");
    C(ldst_replay, "ldst.replay", "cycles the LD/ST unit replayed an access after a reservation failure");
    C(stall_coal, "ldst.stall_coal",
      "LD/ST stall cycles, coalescing: the L1D took an access of a global-memory instruction with more of its "
      "accesses to come (thesis Fig. 2.5 LDST_COAL)");
    C(stall_mshr, "ldst.stall_mshr",
      "LD/ST stall cycles, MSHR: an access refused for want of an MSHR entry or merge room (LDST_MSHR)");
    C(stall_icnt, "ldst.stall_icnt",
      "LD/ST stall cycles, interconnect: an access refused because the miss queue or the interconnect was full "
      "(LDST_ICNT)");
    C(stall_other, "ldst.stall_other",
      "LD/ST stall cycles, other reservation failures: no replaceable line, a miss-path component's port "
      "(stall_mshr + stall_icnt + stall_other = ldst.replay)");
    if (sm->cfg->sm.reexec_queue) {
        C(reexec_deferred, "ldst.reexec_deferred",
          "global-load accesses refused for want of an MSHR entry or miss-queue room that waited in the re-execution "
          "queue (sm.reexec_queue) instead of holding the LD/ST unit");
        C(reexec_done, "ldst.reexec_done", "re-executed accesses the L1D took");
        C(stall_reexec, "ldst.stall_reexec",
          "cycles the re-execution queue held accesses and its head did not get through (thesis Fig. 5.5 MASCAR_Replay)");
    }
    C(occlusion[0], "ldst.occlusion_coherent",
      "memory occlusion time of coherent global loads: cycles from issue to the last L1D lookup beyond one per "
      "access (and the L1 latency queue's) (thesis 2.3.2)");
    C(occlusion[1], "ldst.occlusion_divergent", "memory occlusion time of divergent global loads (as for coherent)");
    C(access_time[0], "ldst.access_time_coherent",
      "L1D access time of coherent global loads: cycles from issue until all their data is back (thesis 2.3.2)");
    C(access_time[1], "ldst.access_time_divergent", "L1D access time of divergent global loads (as for coherent)");
    C(ctas_done, "ctas_done", "CTAs completed");
    C(ic.hits, "icache.hit", "instruction fetches that hit the instruction cache (sm.icache_sets)");
    C(ic.misses, "icache.miss", "instruction cache lines fetched from the L2");
#undef C
    static const char *const mpli_labels[SM_MPLI_BUCKETS] = {"0", "1", "2", "3-31", "32"};
    char name[64];
    snprintf(name, sizeof name, "sm[%u].l1d.mpli_divergent", id);
    stats_histogram(st, sm->mpli_div, SM_MPLI_BUCKETS, mpli_labels, name,
                    "divergent global loads by misses per load instruction (MPLI; 0: fully cached)");
    snprintf(name, sizeof name, "sm[%u].l1d.mpli_coherent", id);
    stats_histogram(st, sm->mpli_coh, SM_MPLI_BUCKETS, mpli_labels, name,
                    "coherent global loads (at most 2 line accesses) by misses per load instruction");
    sm->n_ranks = (sm->max_warps + sm->n_sched - 1) / sm->n_sched;
    sm->issue_rank = xcalloc(sm->n_ranks, sizeof *sm->issue_rank);
    sm->rank_names = xcalloc(sm->n_ranks, sizeof *sm->rank_names);
    sm->rank_labels = xcalloc(sm->n_ranks, sizeof *sm->rank_labels);
    for (uint32_t r = 0; r < sm->n_ranks; r++) {
        snprintf(sm->rank_names[r], sizeof sm->rank_names[r], "%u", r);
        sm->rank_labels[r] = sm->rank_names[r];
    }
    snprintf(name, sizeof name, "sm[%u].sched.issue_rank", id);
    stats_histogram(st, sm->issue_rank, sm->n_ranks, sm->rank_labels, name,
                    "instructions issued, by the issuing warp's GTO priority in its scheduler (0: oldest)");
    static const char *const cls[2] = {"coherent", "divergent"};
    for (int d = 0; d < 2; d++) {
        sm->mshr_rank[d] = xcalloc(sm->n_ranks, sizeof *sm->mshr_rank[d]);
        sm->loads_rank[d] = xcalloc(sm->n_ranks, sizeof *sm->loads_rank[d]);
        snprintf(name, sizeof name, "sm[%u].l1d.mshr_rank_%s", id, cls[d]);
        stats_histogram(st, sm->mshr_rank[d], sm->n_ranks, sm->rank_labels, name,
                        d ? "MSHR entries allocated by divergent global loads, by the issuing warp's GTO priority in "
                            "its scheduler at issue (thesis Fig. 2.7; per load: over l1d.loads_rank_divergent)"
                          : "MSHR entries allocated by coherent global loads, by GTO priority (as for divergent)");
        snprintf(name, sizeof name, "sm[%u].l1d.loads_rank_%s", id, cls[d]);
        stats_histogram(st, sm->loads_rank[d], sm->n_ranks, sm->rank_labels, name,
                        d ? "divergent global loads looked up in full, by the issuing warp's GTO priority at issue"
                          : "coherent global loads looked up in full, by GTO priority");
    }
    for (unsigned b = 0; b < INDEX_METRIC_CONC_BUCKETS; b++)
        sm->conc_labels[b] = index_metric_conc_bucket_name(b);
    snprintf(name, sizeof name, "sm[%u].l1d.concentration", id);
    stats_histogram(st, sm->conc_hist, INDEX_METRIC_CONC_BUCKETS, sm->conc_labels, name,
                    "divergent loads by intra-warp concentration (accesses per set touched)");
}

void sm_free(Sm *sm)
{
    for (uint32_t i = 0; i < sm->n_sched; i++) {
        if (sm->sched_ops->destroy)
            sm->sched_ops->destroy(sm->sched[i]);
        policy_ctx_free(&sm->sched_ctx[i]);
    }
    if (sm->sched_ops->destroy_shared)
        sm->sched_ops->destroy_shared(sm->sched_shared);
    policy_ctx_free(&sm->shared_ctx);
    l1d_free(&sm->l1d);
    regfile_free(&sm->rf);
    sm_ldst_free(sm);
    if (sm->ic.sets)
        icache_free(&sm->ic);
    free(sm->issue_rank);
    for (int d = 0; d < 2; d++) {
        free(sm->mshr_rank[d]);
        free(sm->loads_rank[d]);
    }
    free(sm->rank_names);
    free(sm->rank_labels);
    free(sm->warps);
    free(sm->sb_store);
    free(sm->ctas);
    free(sm->age);
    free(sm->ready_at);
    free(sm->slot_info);
    free(sm->pool_busy[SM_UNIT_SP]);
    free(sm->pool_busy[SM_UNIT_SFU]);
    free(sm->tensor_busy);
    free(sm->next_unit);
}

void sm_set_front(Sm *sm, const FrontOps *ops, void *self)
{
    sm->front = ops;
    sm->front_self = self;
}

void sm_regfile_changed(Sm *sm, uint64_t now)
{
    if (!sm->l1d.n_mpath)
        return;
    RegfileView v = regfile_view(&sm->rf, now);
    l1d_regfile_changed(&sm->l1d, &v);
}

static uint32_t regs_of_cta(const SmConfig *c, const FrontKernel *k)
{
    uint32_t unit = c->reg_alloc_unit;
    uint32_t per_warp = (k->regs_per_thread * WARP_SIZE + unit - 1) / unit * unit;
    return per_warp * front_kernel_warps_per_cta(k);
}

/* How many of `need` fit in `free_units` (need 0: no limit from this resource). */
static uint32_t fits(uint64_t free_units, uint64_t need) { return need ? (uint32_t)MIN(free_units / need, 64) : 64; }

/* CTAs of k that fit beside what is in use: the one rule for the dispatcher and the occupancy API. */
static uint32_t cta_room(const SmConfig *c, const SmUsage *u, const FrontKernel *k)
{
    uint32_t room = c->max_ctas - u->ctas;
    room = MIN(room, fits(c->max_threads - u->threads, front_kernel_threads_per_cta(k)));
    room = MIN(room, fits(c->max_warps - u->warps, front_kernel_warps_per_cta(k)));
    room = MIN(room, fits(c->n_regs - u->regs, regs_of_cta(c, k)));
    room = MIN(room, fits(c->smem_bytes - u->smem, k->smem_bytes_per_cta));
    return room;
}

uint32_t sm_ctas_per_empty_sm(const SmConfig *c, const FrontKernel *k)
{
    const SmUsage none = {0};
    return cta_room(c, &none, k);
}

uint32_t sm_cta_room(const Sm *sm, const FrontKernel *k, bool empty)
{
    SmUsage u = {sm->n_live_ctas, sm->threads_used, sm->warps_used, sm->regs_used, sm->smem_used};
    if (empty)
        memset(&u, 0, sizeof u);
    uint32_t room = cta_room(&sm->cfg->sm, &u, k);
    if (!empty && sm->cta_limit != UINT32_MAX) /* a CTA controller's cap (sm_ctl.c) */
        room = MIN(room, sm->cta_limit > sm->n_live_ctas ? sm->cta_limit - sm->n_live_ctas : 0);
    return room;
}

bool sm_can_take(const Sm *sm, const FrontKernel *k) { return sm_cta_room(sm, k, false) > 0; }

void sm_kernel_begin(Sm *sm, const FrontKernel *k, uint64_t now)
{
    CHECK(!sm->held_mask);
    sm->cta_limit = UINT32_MAX; /* a CTA controller throttles within one kernel */
    sm_wake(sm, now); /* the GPU runs every SM's first cycle of the kernel */
    l1d_kernel_begin(&sm->l1d, now);
    for (uint32_t i = 0; i < sm->n_sched && sm->sched_ops->on_kernel_start; i++)
        sm->sched_ops->on_kernel_start(sm->sched[i], k);
}

static void account_sleep(Sm *sm, uint64_t now);

void sm_account_sleep(Sm *sm, uint64_t now)
{
    if (now > sm->accounted || sm->stall_sleep)
        account_sleep(sm, now);
    sm_ldst_account(sm, now);
}

void sm_kernel_end(Sm *sm, uint64_t now)
{
    regfile_kernel_end(&sm->rf, now);
    sm_regfile_changed(sm, now); /* closes the components' integrals over the same window */
    if (sm->cfg->sm.l1d_flush)
        l1d_flush(&sm->l1d, now);
    for (uint32_t i = 0; i < sm->n_sched && sm->sched_ops->on_kernel_end; i++)
        sm->sched_ops->on_kernel_end(sm->sched[i]);
}

bool sm_take_done_cta(Sm *sm, uint32_t *cta_id)
{
    if (!sm->n_done_ctas)
        return false;
    *cta_id = sm->done_ctas[--sm->n_done_ctas];
    return true;
}

/* The cycles the SM slept through: nothing could issue, so each counts as active while CTAs
 * were resident and, as if it had run, as no_ready for every scheduler with live warps, or
 * after a stalled cycle (stall_sleep) as that cycle counted its schedulers' stalls. */
static void account_sleep(Sm *sm, uint64_t now)
{
    if (now > sm->accounted && sm->n_live_ctas) {
        uint64_t skipped = now - sm->accounted;
        sm->cycles_active += skipped;
        if (sm->stall_sleep) {
            sm_stall_add(sm, &sm->stall, skipped);
        } else {
            for (uint32_t k = 0; k < sm->n_sched; k++)
                if (sm->sched_mask[k])
                    sm_count_no_ready(sm, k, skipped);
        }
    }
    sm->accounted = MAX(sm->accounted, now);
    sm->stall_sleep = false;
}

/* Scheduler k's live warps changed: count again, for each, the older ones among them (the GTO
 * rank's value, read on each issue). */
static void older_live_refresh(Sm *sm, uint32_t k)
{
    uint64_t live = sm->sched_mask[k];
    for (uint64_t m = live; m; m &= m - 1) {
        uint32_t slot = (uint32_t)__builtin_ctzll(m);
        sm->older_live[slot] = (uint8_t)popcount_u64(live & sm->older[slot]);
    }
}

void sm_launch_cta(Sm *sm, const FrontKernel *k, uint32_t cta_id, uint64_t now)
{
    account_sleep(sm, now);
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
    c->regs = regs_of_cta(&sm->cfg->sm, k);
    c->frn = regfile_alloc(&sm->rf, slot, regfile_warp_regs(c->regs), now);
    sm_regfile_changed(sm, now);
    c->smem_bytes = k->smem_bytes_per_cta;
    sm->n_live_ctas++;
    sm->threads_used += c->threads;
    sm->warps_used += nw;
    sm->regs_used += c->regs;
    sm->smem_used += c->smem_bytes;
    l1d_smem_unused(&sm->l1d, sm->cfg->sm.smem_bytes - sm->smem_used);
    sm->front->cta_start(sm->front_self, cta_id, sm->id, sm->id * sm->max_warps + first);
    for (uint32_t i = 0; i < nw; i++) {
        Warp *w = &sm->warps[first + i];
        w->live = true;
        w->exited = w->at_barrier = false;
        sm->barrier_mask &= ~(1ull << (first + i));
        w->cta_slot = (uint16_t)slot;
        w->age = sm->age[first + i] = sm->next_age++;
        sm->older[first + i] = ~(1ull << (first + i)); /* the youngest: every other warp is older */
        for (uint32_t x = 0; x < sm->max_warps; x++)
            if (x != first + i)
                sm->older[x] &= ~(1ull << (first + i));
        w->next = NULL;
        sm_ibuf_start(sm, w, first + i, now);
        w->n_sb = 0;
        w->loads_pending = 0;
        w->stores_pending = 0;
        w->async_open = w->async_n = 0;
        memset(w->async_pend, 0, sizeof w->async_pend);
        w->lanes = (uint8_t)MIN(WARP_SIZE, c->threads - i * WARP_SIZE);
        sm->slot_info[first + i] = (WarpSlotInfo){.cta_id = cta_id, .cta_slot = slot, .age = w->age};
        sm_warp_update(sm, w, now);
        sm->sched_mask[(first + i) % sm->n_sched] |= 1ull << (first + i);
    }
    sm->sched_epoch++;
    for (uint32_t i = 0; i < sm->n_sched; i++)
        older_live_refresh(sm, i);
    for (uint32_t i = 0; i < sm->n_sched && sm->sched_ops->on_cta_launch; i++)
        sm->sched_ops->on_cta_launch(sm->sched[i], cta_id, first, nw);
    sm_wake(sm, now);
    sm_ctl_cta_event(sm, c, true, now);
}

static void cta_finish(Sm *sm, SmCta *c, uint64_t now)
{
    sm_front_order(sm, sm->front->exec_parallel);
    sm->front->cta_end(sm->front_self, c->cta_id);
    c->live = false;
    sm->n_live_ctas--;
    sm->threads_used -= c->threads;
    sm->warps_used -= c->n_warps;
    sm->slots_owned &= ~((c->n_warps >= 64 ? ~0ull : (1ull << c->n_warps) - 1) << c->first_slot);
    sm->regs_used -= c->regs;
    regfile_release(&sm->rf, (uint32_t)(c - sm->ctas), now);
    sm_regfile_changed(sm, now);
    sm->smem_used -= c->smem_bytes;
    l1d_smem_unused(&sm->l1d, sm->cfg->sm.smem_bytes - sm->smem_used);
    sm->ctas_done++;
    CHECK(sm->n_done_ctas < ARRAY_LEN(sm->done_ctas));
    sm->done_ctas[sm->n_done_ctas++] = c->cta_id;
    for (uint32_t i = 0; i < sm->n_sched && sm->sched_ops->on_cta_done; i++)
        sm->sched_ops->on_cta_done(sm->sched[i], c->cta_id);
    sm_ctl_cta_event(sm, c, false, now);
}

static void barrier_check(Sm *sm, SmCta *c, uint64_t now)
{
    if (c->n_at_barrier == 0 || c->n_at_barrier < c->n_live_warps)
        return;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        Warp *w = &sm->warps[c->first_slot + i];
        if (w->live && w->at_barrier) {
            /* released warps issue from the next cycle on, whichever scheduler they belong to
             * (the last warp arrives partway through the schedulers' pass) */
            w->at_barrier = false;
            sm->barrier_mask &= ~(1ull << (c->first_slot + i));
            w->ibuf_ready = MAX(w->ibuf_ready, now + 1);
            sm_warp_update(sm, w, now);
        }
    }
    c->n_at_barrier = 0;
    sm_wake(sm, now + 1);
}

void sm_barrier_arrive(Sm *sm, Warp *w, uint64_t now)
{
    SmCta *c = &sm->ctas[w->cta_slot];
    w->at_barrier = true;
    sm->barrier_mask |= 1ull << w->slot;
    c->n_at_barrier++;
    barrier_check(sm, c, now);
}

void sm_warp_retire(Sm *sm, uint32_t slot, uint64_t now)
{
    Warp *w = &sm->warps[slot];
    SmCta *c = &sm->ctas[w->cta_slot];
    w->live = false;
    sm->fetch_mask &= ~(1ull << slot);
    sm_warp_update(sm, w, now);
    sm->sched_mask[slot % sm->n_sched] &= ~(1ull << slot);
    sm->sched_epoch++;
    older_live_refresh(sm, slot % sm->n_sched);
    if (sm->sched_ops->on_warp_exit)
        sm->sched_ops->on_warp_exit(sm->sched[slot % sm->n_sched], slot);
    if (--c->n_live_warps == 0)
        cta_finish(sm, c, now);
    else
        barrier_check(sm, c, now);
}

bool sm_cycle(Sm *sm, uint64_t now)
{
    if (sm->next_wake > now)
        return false;
    if (now > sm->accounted || sm->stall_sleep) { /* else it would only clear stall_sleep */
        /* Asked only here, after a sleep: an SM that runs every cycle pays nothing for it. */
        if (sm->self_wake > now && sm_ldst_count_down(sm)) { /* accounted later, as a slept cycle */
            sm->next_wake = sm->replies.head ? now + 1 : sm->self_wake;
            return true;
        }
        account_sleep(sm, now);
    }
    sm->accounted = now + 1;
    if (sm->n_live_ctas)
        sm->cycles_active++;
    if (sm->ctl_due <= now) /* the controller's tick, when it is due */
        sm_ctl_tick(sm, now);
    bool progress = !sm_ldst_quiet(sm, now) && sm_ldst_cycle(sm, now);
    uint64_t next = UINT64_MAX;
    progress |= sm_schedule(sm, now, &next);
    if (sm->fetch_mask && sm_fetch(sm, now)) { /* after issue, as GPGPU-Sim's stages run in reverse order */
        progress = true;
        next = MIN(next, now + 2); /* the fetched warp's first issue */
    }
    if (sm->fetch_mask)
        next = now + 1;
    if (sm->ldst.blocked) { /* what this cycle did may wake it: then its next event is now + 1 */
        sm_ldst_check_missq(sm); /* the fetch unit's request */
        sm_ldst_sched_changed(sm);
    }
    next = MIN(next, sm_ldst_next_event(sm, now));
    next = MIN(next, sm->ctl_due);
    /* A scheduler waited for a busy unit. After a cycle that changed something, the next one
     * may differ: look again. After one that changed nothing, every cycle until the unit's next
     * event (or a reply, a drain, a timed return) would repeat it: sleep, and count them later. */
    if (sm->stall_wait && progress)
        next = now + 1;
    const uint64_t wake = MAX(next, now + 1);
    sm->next_wake = sm->self_wake = wake;
    if (sm->stall_wait && !progress && wake > now + 1) {
        sm->stall_sleep = true;
        sm->stall = sm->sched_memo.add; /* nothing issued: what sm_schedule counted */
    }
    return progress;
}

void sm_sample(Sm *sm)
{
    if (sm->sched_ops->on_sample)
        sm->sched_ops->on_sample(sm->sched[0]);
    sm_ldst_sched_changed(sm);
    if (sm->ldst.wake)
        sm_wake(sm, 0); /* the next core cycle */
}

uint32_t sm_unthrottled_warps(const Sm *sm)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < sm->n_sched; k++) {
        uint64_t live = sm->sched_mask[k];
        if (sm->sched_ops->throttled)
            live &= ~sm->sched_ops->throttled(sm->sched[k]);
        n += popcount_u64(live);
    }
    return n;
}

bool sm_busy(const Sm *sm)
{
    return sm->n_live_ctas || sm->ldst.active || sm->ldst.lq_n || sm->ldst.rq_n || sm->replies.head || sm->ring[SM_RING_HIT].n || sm->l1d.miss_q.n ||
           mshr_in_use(&sm->l1d.mshr);
}

void sm_dump(const Sm *sm, FILE *f, uint64_t now)
{
    fprintf(f,
            "sm[%u]: %u CTAs, next_wake %llu, ldst %s (access %u/%u), L1 latency queue %u%s, L1D MSHRs %u/%u, "
            "miss queue %u, replies %u, re-execution queue %u\n",
            sm->id, sm->n_live_ctas, (unsigned long long)sm->next_wake, sm->ldst.active ? "busy" : "idle",
            sm->ldst.pos, sm->ldst.n, sm->ldst.lq_n, sm->ldst.lq_cap && sm->ldst.blocked ? " (head blocked)" : "",
            mshr_in_use(&sm->l1d.mshr), sm->l1d.mshr.n_entries, sm->l1d.miss_q.n, sm->replies.n, sm->ldst.rq_n);
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
