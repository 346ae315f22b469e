/* test_sm_tables.c: the SM's per-op lookups and the shortcuts of its cycle (sm_internal.h),
 * held to their plain definitions. */
#include "../sm_rig.h"
#include "../test.h"

#include "core/sm_internal.h"
#include "policy/policy.h"

TEST(sm_op_units_match_definition)
{
    for (uint32_t op = 0; op < WOP_COUNT; op++) {
        bool sfu = op == WOP_SFU || op == WOP_INT_DIV || op == WOP_FP_DIV || (op >= WOP_DP_ADD && op <= WOP_DP_DIV);
        EXPECT_EQ_U(sm_on_sfu((uint8_t)op), sfu);
        WinstStatic s = {.op = (uint8_t)op};
        SmUnit u = winst_is_mem(&s) ? SM_UNIT_LDST : op == WOP_TENSOR ? SM_UNIT_TENSOR : sfu ? SM_UNIT_SFU : SM_UNIT_SP;
        EXPECT_EQ_U(sm_unit_of(&s), u);
    }
}

/* Two warps of loads, stores and dependent adds: at every cycle sm_ldst_quiet says, the LD/ST
 * unit's cycle changes nothing and its next event is the timed returns'. */
TEST(sm_ldst_quiet_means_nothing_to_do)
{
    Rig *r = rig_new();
    r->c.l1d.hit_lat = 3;
    r->m.latency = 20;
    ASSERT(rig_start(r, 64, 1));
    MockInst p[] = {alu(1, 0), ld(2, 0x10000, 4), alu(3, 2), alu(4, 3), st(4, 0x20000, 4), ld(5, 0x10000, 4),
                    alu(6, 5), ex()};
    script(&r->f, 0, p, 8);
    script(&r->f, 1, p, 8);
    rig_launch(r, 0);
    uint32_t quiet = 0, busy = 0;
    while (r->now < 2000 && (sm_busy(&r->sm) || r->m.n || r->sm.l1d.miss_q.n)) {
        Sm *sm = &r->sm;
        if (sm_ldst_quiet(sm, r->now)) {
            quiet++;
            EXPECT_EQ_U(sm_ldst_next_event(sm, r->now), sm->ring_next_ready);
            bool active = sm->ldst.active;
            uint32_t lq = sm->ldst.lq_n, rq = sm->ldst.rq_n, loads = sm->loads;
            uint64_t ring = sm->ring_next_ready;
            EXPECT(!sm_ldst_cycle(sm, r->now));
            EXPECT(sm->ldst.active == active && sm->ldst.lq_n == lq && sm->ldst.rq_n == rq);
            EXPECT(sm->ring_next_ready == ring && sm->loads == loads && !sm->replies.head);
        } else {
            busy++;
        }
        rig_step(r);
    }
    EXPECT(!sm_busy(&r->sm) && r->f.bad == 0);
    EXPECT(quiet > 0 && busy > 0);
    rig_free(r);
}

/* GTO with and without ignores_sm_view: the SM keeps no view for it, and it issues the same. */
static uint64_t run_logged(const WarpSchedOps *ops, MockExec *log, uint32_t *n_log)
{
    Rig *r = rig_new();
    r->m.latency = 15;
    if (!rig_start(r, 128, 1))
        return 0;
    r->sm.sched_ops = ops; /* the same instances: gto's state is all in them */
    MockInst a[] = {alu(1, 0), alu(2, 1), ld(3, 0x10000, 4), alu(4, 3), alu(5, 4), alu(6, 5), ex()};
    MockInst b[] = {ld(1, 0x30000, 8), alu(2, 1), alu(3, 0), alu(4, 3), bar(), alu(5, 2), ex()};
    for (uint32_t w = 0; w < 4; w++)
        script(&r->f, w, w & 1 ? b : a, 7);
    rig_launch(r, 0);
    rig_run(r, 3000);
    uint64_t insts = r->sm.warp_insts;
    *n_log = r->f.n_log;
    memcpy(log, r->f.log, sizeof r->f.log);
    rig_free(r);
    return insts;
}

TEST(sm_policy_ignoring_view_issues_the_same)
{
    const WarpSchedOps *gto = policy_warp("gto");
    ASSERT(gto && gto->ignores_sm_view);
    WarpSchedOps seeing = *gto;
    seeing.ignores_sm_view = false;
    static MockExec a[MOCK_LOG], b[MOCK_LOG];
    uint32_t na = 0, nb = 0;
    uint64_t ia = run_logged(gto, a, &na), ib = run_logged(&seeing, b, &nb);
    EXPECT(ia > 20);
    EXPECT_EQ_U(ia, ib);
    ASSERT(na == nb);
    for (uint32_t i = 0; i < na; i++)
        EXPECT(a[i].warp == b[i].warp && a[i].pc == b[i].pc && a[i].cycle == b[i].cycle);
}
