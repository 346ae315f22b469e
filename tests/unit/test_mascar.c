/* test_mascar.c: MASCAR (src/policy/warp/mascar.c) and the cache access re-execution queue it
 * pairs with (sm.reexec_queue, src/core/sm_reexec.c). The scheduler driven through its hooks
 * with a hand-made SmView: the mode switches and the owner warp; the re-execution queue on one
 * SM (tests/sm_rig.h), where a hit goes under a divergent load's refused misses; then whole runs
 * on the oaws preset. */
#include "../policy_rig.h"
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "exp/json.h"
#include "policy/policy.h"
#include "stats/stats.h"

#include <string.h>

/* ---- the scheduler on its own ------------------------------------------------------------- */

/* One scheduler of a one-scheduler SM with n warps, slot i the i-th oldest, every next
 * instruction an add; 32 MSHR entries free and an empty 8-entry miss queue. */
typedef struct Ms {
    PolicyRig p;
    WarpSlotInfo slot[64];
    uint64_t age[64];
    SmView view;
} Ms;

static void ms_make(Ms *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    prig_warp(&t->p, "mascar", NULL, 0);
    t->view = (SmView){.max_warps = 48, .n_sched = 1, .mshr_free = 32, .miss_queue_cap = 8, .slot = t->slot};
    for (uint32_t i = 0; i < n; i++) {
        t->slot[i] = (WarpSlotInfo){.live = true, .has_next = true, .age = i, .next_op = WOP_INT_ADD};
        t->age[i] = i;
        t->view.live_mask |= 1ull << i;
    }
}

static void set_memory(Ms *t, uint32_t s, bool mem)
{
    t->slot[s].next_op = mem ? WOP_LOAD : WOP_INT_ADD;
    t->slot[s].next_space = mem ? WSPACE_GLOBAL : WSPACE_NONE;
}

/* The ready slots the policy lets issue at `cycle`, and which of them it picks. */
static int ms_pick(Ms *t, uint64_t ready, uint64_t cycle, uint64_t *allowed)
{
    WarpSchedView v = {.ready = ready, .valid = t->view.live_mask, .age = t->age, .cycle = cycle, .sm = &t->view};
    for (uint64_t m = ready; m; m &= m - 1) {
        uint32_t s = (uint32_t)__builtin_ctzll(m);
        if (!t->p.warp->may_issue(t->p.self, s, &t->slot[s], &v))
            v.ready &= ~(1ull << s);
    }
    *allowed = v.ready;
    return v.ready ? t->p.warp->pick(t->p.self, &v) : -1;
}

static void ms_issue(Ms *t, uint32_t s, uint64_t cycle)
{
    WarpSchedView v = {.ready = 1ull << s, .valid = t->view.live_mask, .age = t->age, .cycle = cycle, .sm = &t->view};
    t->p.warp->on_issue(t->p.self, s, &v);
}

TEST(mascar_mode_switches_and_owner)
{
    Ms t;
    ms_make(&t, 4);
    uint64_t allowed;
    /* Memory priority: warps 1 and 2 have a load next, 0 and 3 an add. The memory warps go
     * first, in GTO order among them (1, the older); nothing is held. */
    set_memory(&t, 1, true);
    set_memory(&t, 2, true);
    EXPECT_EQ_I(ms_pick(&t, 0xF, 1, &allowed), 1);
    EXPECT_EQ_U(allowed, 0xF);
    ms_issue(&t, 1, 1); /* greedy: while 1 has memory next it stays first */
    EXPECT_EQ_I(ms_pick(&t, 0xF, 2, &allowed), 1);
    ms_issue(&t, 2, 2); /* 2 issued the SM's last memory instruction */
    EXPECT_EQ_I(ms_pick(&t, 0xF, 3, &allowed), 2);
    EXPECT_EQ_U(prig_stat(&t.p, "saturated_cycles"), 0);

    /* One free MSHR entry: saturated, execution priority. The owner is the warp that issued the
     * last memory instruction (2, though 1 is older); 1's load is held; compute goes first, in
     * GTO order (the greedy warp 2 has memory next, so the oldest compute warp, 0). */
    t.view.mshr_free = 1;
    EXPECT_EQ_I(ms_pick(&t, 0xF, 4, &allowed), 0);
    EXPECT_EQ_U(allowed, 0xD);
    EXPECT_EQ_U(prig_stat(&t.p, "saturated_cycles"), 1);
    EXPECT_EQ_U(prig_stat(&t.p, "owner_changes"), 0);
    /* only memory warps ready: the owner's load goes */
    EXPECT_EQ_I(ms_pick(&t, 0x6, 5, &allowed), 2);
    EXPECT_EQ_U(allowed, 0x4);
    /* The owner's next instruction is an add: ownership passes to the oldest warp with memory
     * next (1), and 2 is just a compute warp. */
    set_memory(&t, 2, false);
    EXPECT_EQ_I(ms_pick(&t, 0x6, 6, &allowed), 2);
    EXPECT_EQ_U(allowed, 0x6);
    EXPECT_EQ_U(prig_stat(&t.p, "owner_changes"), 1);
    set_memory(&t, 3, true);
    EXPECT_EQ_I(ms_pick(&t, 0x8, 7, &allowed), -1); /* 3 is not the owner */
    EXPECT_EQ_U(allowed, 0);
    /* The owner exits: the next to ask chooses again (3, the only memory warp left). */
    t.p.warp->on_warp_exit(t.p.self, 1);
    t.slot[1].live = false;
    t.view.live_mask &= ~2ull;
    EXPECT_EQ_I(ms_pick(&t, 0x8, 7, &allowed), 3);
    EXPECT_EQ_U(prig_stat(&t.p, "owner_changes"), 2);
    /* A warp at a barrier cannot be the owner. */
    t.view.barrier_mask = 0x8;
    set_memory(&t, 0, true);
    EXPECT_EQ_I(ms_pick(&t, 0x1, 8, &allowed), 0);
    EXPECT_EQ_U(prig_stat(&t.p, "owner_changes"), 3);
    t.view.barrier_mask = 0;

    /* A miss queue with one free slot saturates too; two free slots and two free entries do
     * not: memory priority again, nothing held, no owner. */
    t.view.mshr_free = 32;
    t.view.miss_queue_used = 7;
    EXPECT_EQ_I(ms_pick(&t, 0x9, 9, &allowed), 0);
    EXPECT_EQ_U(allowed, 0x1);
    EXPECT_EQ_U(prig_stat(&t.p, "saturated_cycles"), 6);
    t.view.miss_queue_used = 6;
    t.view.mshr_free = 2;
    EXPECT_EQ_I(ms_pick(&t, 0xD, 10, &allowed), 0);
    EXPECT_EQ_U(allowed, 0xD);
    EXPECT_EQ_U(prig_stat(&t.p, "saturated_cycles"), 6);
    prig_free(&t.p);
}

/* ---- the re-execution queue on one SM ------------------------------------------------------ */

/* One warp: a one-line load of H (and a use of it, so H is in the L1D), a load of four lines
 * A..A+384 (lane l reads A + (l / 8) * 128) with two MSHR entries, a load of H again, a use of
 * that, and a use of the four-line load. Returns the rig after the run. */
static Rig *hit_under_miss(uint32_t reexec)
{
    Rig *r = rig_new();
    r->c.l1d.mshr_entries = 2;
    r->c.sm.reexec_queue = reexec;
    r->m.latency = 10;
    CHECK(rig_start(r, 32, 1));
    const uint64_t H = 0x80000, A = 0x40000;
    MockInst p[] = {ld(1, H, 0), alu(2, 1), ld(3, A, 16), ld(4, H, 0), alu(5, 4), alu(6, 3), ex()};
    script(&r->f, 0, p, 7);
    rig_launch(r, 0);
    CHECK(rig_run(r, 1000));
    CHECK(r->f.bad == 0);
    return r;
}

TEST(sm_reexec_queue_hits_under_misses)
{
    Rig *base = hit_under_miss(0), *rq = hit_under_miss(4);
    /* Without the queue the second load of H waits for the unit, which the four-line load holds
     * until a fill frees an MSHR entry for its third and fourth accesses. */
    int64_t use_h0 = issued_at(&base->f, 0, 32), use_h1 = issued_at(&rq->f, 0, 32);
    EXPECT(use_h0 > 0 && use_h1 > 0);
    EXPECT(use_h1 + 5 < use_h0);
    EXPECT_EQ_U(base->sm.stall_mshr, base->sm.ldst_replay);
    EXPECT(base->sm.stall_mshr > 0);
    /* With it the two refused accesses wait there, the unit goes on and H hits at once: the
     * use of H issues within a few cycles of the load, one hit latency after it. */
    EXPECT_EQ_U(rq->sm.reexec_deferred, 2);
    EXPECT_EQ_U(rq->sm.reexec_done, 2);
    EXPECT(rq->sm.stall_reexec > 0);
    EXPECT_EQ_U(rq->sm.ldst_replay, 0);
    EXPECT_EQ_I(use_h1, issued_at(&rq->f, 0, 24) + (int64_t)rq->c.l1d.hit_lat + 1);
    /* The same lines go to memory, each once, and the use of the four-line load waits for all
     * of them either way. */
    EXPECT_EQ_U(rq->m.reads, 5);
    EXPECT_EQ_U(base->m.reads, 5);
    EXPECT_EQ_U(rq->sm.l1d.miss, base->sm.l1d.miss);
    EXPECT_EQ_U(rq->sm.l1d.hit, base->sm.l1d.hit);
    int64_t use_a0 = issued_at(&base->f, 0, 40), use_a1 = issued_at(&rq->f, 0, 40);
    EXPECT(use_a1 > (int64_t)rq->m.reply_at[4]);
    EXPECT(use_a1 <= use_a0);
    EXPECT_EQ_U(mshr_in_use(&rq->sm.l1d.mshr), 0);
    EXPECT_EQ_U(rq->pool.in_use, 0);
    EXPECT_EQ_U(rq->sm.ldst.rq_n, 0);
    rig_free(base);
    rig_free(rq);
}

TEST(sm_reexec_queue_full_holds_the_unit)
{
    /* A queue of one: the third access waits there, the fourth meets a full queue and holds the
     * unit as without one. */
    Rig *r = hit_under_miss(1);
    EXPECT_EQ_U(r->sm.reexec_deferred, 1);
    EXPECT_EQ_U(r->sm.reexec_done, 1);
    EXPECT(r->sm.ldst_replay > 0);
    EXPECT_EQ_U(r->m.reads, 5);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

/* ---- whole runs ---------------------------------------------------------------------------- */

TEST(mascar_runs_on_the_oaws_preset)
{
    const char *syn = "workloads/synthetic/atax-small.syn";
    char a[3][400];
    snprintf(a[0], sizeof a[0], "--preset oaws %s", syn);
    snprintf(a[1], sizeof a[1], "--preset oaws -o sm.reexec_queue=32 %s", syn);
    snprintf(a[2], sizeof a[2], "--preset oaws -o sm.sched=mascar -o sm.reexec_queue=32 %s", syn);
    JsonValue *gto = test_run_json(a[0]), *rq = test_run_json(a[1]), *m = test_run_json(a[2]);
    ASSERT(gto && rq && m);
    EXPECT_STR(json_str(json_get(m, "status")), "complete");
    /* ATAX's divergent loads fill the MSHRs: the queue takes refused accesses and later hits
     * go under them; MASCAR finds the SM saturated and holds non-owner loads back. */
    EXPECT(test_total(rq, "sm.ldst.reexec_deferred") > 0);
    EXPECT_EQ_U(test_total(rq, "sm.ldst.reexec_deferred"), test_total(rq, "sm.ldst.reexec_done"));
    EXPECT(test_total(rq, "sm.ldst.stall_mshr") < test_total(gto, "sm.ldst.stall_mshr"));
    EXPECT(test_total(m, "sm.sched.mascar.saturated_cycles") > 0);
    EXPECT(test_total(m, "sm.sched.mascar.owner_changes") > 0);
    EXPECT(test_total(m, "sm.sched.held") > 0);
    EXPECT_EQ_U(test_total(gto, "sm.sched.held"), 0);
    EXPECT(test_total(gto, "sim.warp_insts") > 0);
    EXPECT_EQ_U(test_total(m, "sim.warp_insts"), test_total(gto, "sim.warp_insts"));
    json_free(gto);
    json_free(rq);
    json_free(m);
}
