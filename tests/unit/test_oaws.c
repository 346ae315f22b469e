/* test_oaws.c: OAWS (thesis ch. 5) and FCW throttling. The schedulers driven through their hooks
 * with a hand-made SmView: eq. 5.1's qualification under eq. 5.2 (oaws-static) and eq. 5.4
 * (oaws-dyn), the Divergent Load Classifier and its history miss rate, the FCW flow of Fig. 5.3
 * and FCW-only throttling; then Fig. 5.1's example on one SM (tests/sm_rig.h), where GTO
 * occludes the MSHRs and OAWS does not. */
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "exp/json.h"
#include "policy/fcw.h"
#include "policy/policy.h"
#include "policy/warp/oaws.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One scheduler of a one-scheduler SM, made the way the SM makes it. */
typedef struct Os {
    Config c;
    const WarpSchedOps *ops;
    PolicyCtx ctx;
    void *self;
    Oaws *o; /* the shared state */
} Os;

/* Scheduler `name` with overrides ("smr=0", ...). */
static void os_make(Os *t, const char *name, const char *const *kv, uint32_t n)
{
    char err[256], key[96];
    config_init(&t->c);
    CHECK(config_set(&t->c, "sm.sched", name, err, sizeof err));
    for (uint32_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        snprintf(key, sizeof key, "sm.sched.%s.%.*s", name, (int)(eq - kv[i]), kv[i]);
        CHECK(config_set(&t->c, key, eq + 1, err, sizeof err));
    }
    CHECK(policy_check_config(&t->c, err, sizeof err));
    t->ops = policy_warp(name);
    CHECK(t->ops);
    policy_ctx_init(&t->ctx, &t->ops->meta, "sm.sched", &t->c, NULL, "t", 0, 0);
    t->ctx.count = 1;
    t->o = t->ops->create_shared(&t->ctx);
    t->ctx.shared = t->o;
    t->self = t->ops->create(&t->ctx);
}

static void os_free(Os *t)
{
    t->ops->destroy(t->self);
    t->ops->destroy_shared(t->o);
    policy_ctx_free(&t->ctx);
}

static WarpSlotInfo slots[64];
static uint64_t ages[64];
static SmView view;

/* n live warps in slots 0..n-1, slot i the i-th oldest; mshr_used + mshr_free MSHR entries. */
static void view_reset(uint32_t n, uint32_t mshr_used, uint32_t mshr_free)
{
    memset(slots, 0, sizeof slots);
    view = (SmView){.max_warps = 48, .n_sched = 1, .mshr_used = mshr_used, .mshr_free = mshr_free, .slot = slots};
    for (uint32_t i = 0; i < n; i++) {
        slots[i] = (WarpSlotInfo){.live = true, .has_next = true, .age = i, .next_lanes = 32};
        ages[i] = i;
        view.live_mask |= 1ull << i;
    }
}

/* The MSHR has 32 entries, n of them free. */
static void set_free(uint32_t n)
{
    view.mshr_used = 32 - n;
    view.mshr_free = n;
}

/* Slot s's next instruction is a global load at pc with `lanes` active lanes. */
static void next_load(uint32_t s, uint32_t pc, uint32_t lanes)
{
    slots[s].next_op = WOP_LOAD;
    slots[s].next_space = WSPACE_GLOBAL;
    slots[s].next_global_load = true;
    slots[s].next_pc = pc;
    slots[s].next_lanes = (uint8_t)lanes;
}

static WarpSchedView sched_view(void)
{
    return (WarpSchedView){.ready = view.live_mask, .valid = view.live_mask, .age = ages, .sm = &view};
}

static bool qualifies(Os *t, uint32_t s)
{
    WarpSchedView v = sched_view();
    return t->ops->may_issue(t->self, s, &slots[s], &v);
}

static void issue(Os *t, uint32_t s)
{
    WarpSchedView v = sched_view();
    t->ops->on_issue(t->self, s, &v);
}

static void serviced(Os *t, uint32_t s, uint32_t pc, uint32_t accesses, uint32_t misses)
{
    WarpLoadDone e = {.slot = s, .pc = pc, .accesses = accesses, .misses = misses, .fully_cached = misses == 0};
    t->ops->on_load_serviced(t->self, &e);
}

TEST(oaws_static_qualification_eq_5_1)
{
    Os t;
    os_make(&t, "oaws-static", NULL, 0); /* SMR 50% */
    view_reset(8, 0, 32);
    /* Before the DLC has seen pc 0x40 divergent, its loads are coherent: they always qualify
     * and count one predicted miss while in flight. */
    next_load(1, 0x40, 32);
    set_free(0);
    EXPECT(qualifies(&t, 1));
    issue(&t, 1);
    EXPECT_EQ_U(t.o->inflight, 1);
    EXPECT_EQ_U(t.o->loads_coh, 1);
    serviced(&t, 1, 0x40, 32, 20); /* 32 accesses: divergent, into the DLC */
    EXPECT_EQ_U(t.o->inflight, 0);
    ASSERT(oaws_dlc_find(&t.o->dlc, 0x40));
    EXPECT_EQ_U(t.o->actual_misses, 0); /* counted for loads predicted divergent only */

    /* Miss_pred = 32 active threads x 50% = 16 <= Avail_mshr - Miss_inflight */
    set_free(16);
    EXPECT(qualifies(&t, 1));
    set_free(15);
    EXPECT(!qualifies(&t, 1));
    EXPECT_EQ_U(t.o->denied, 1);
    set_free(32);
    issue(&t, 1); /* in flight: 16 */
    EXPECT_EQ_U(t.o->inflight, 16);
    next_load(2, 0x40, 32);
    EXPECT(qualifies(&t, 2)); /* 16 + 16 <= 32 */
    issue(&t, 2);
    EXPECT_EQ_U(t.o->inflight, 32);
    next_load(3, 0x40, 32);
    EXPECT(!qualifies(&t, 3)); /* 16 + 32 > 32: at most two divergent loads at once (5.3) */
    serviced(&t, 1, 0x40, 32, 10); /* slot 1's load leaves the LD/ST unit */
    EXPECT_EQ_U(t.o->inflight, 16);
    EXPECT(qualifies(&t, 3));
    EXPECT_EQ_U(t.o->loads_div, 2);
    EXPECT_EQ_U(t.o->pred_misses, 32);
    EXPECT_EQ_U(t.o->actual_misses, 10);

    /* Div_pred is the active threads: 5 lanes predict ceil(2.5) = 3 misses. */
    next_load(4, 0x40, 5);
    set_free(19);
    EXPECT(qualifies(&t, 4)); /* 3 + 16 <= 19 */
    set_free(18);
    EXPECT(!qualifies(&t, 4));
    /* Stores, ALU instructions and coherent loads always qualify. */
    set_free(0);
    slots[5].next_op = WOP_STORE;
    slots[5].next_space = WSPACE_GLOBAL;
    EXPECT(qualifies(&t, 5));
    slots[6].next_op = WOP_INT_ADD;
    EXPECT(qualifies(&t, 6));
    next_load(7, 0x80, 32);
    EXPECT(qualifies(&t, 7));
    EXPECT_EQ_U(t.o->denied, 3);
    os_free(&t);

    /* Miss_pred is capped at the MSHR entries: with 8, a load predicted 32 misses (SMR 100%)
     * qualifies once all 8 are free and nothing is in flight. */
    const char *all[] = {"smr=100"};
    os_make(&t, "oaws-static", all, 1);
    view_reset(4, 0, 8);
    next_load(0, 0x40, 32);
    serviced(&t, 0, 0x40, 32, 32);
    EXPECT(qualifies(&t, 0));
    view.mshr_used = 1, view.mshr_free = 7;
    EXPECT(!qualifies(&t, 0));
    os_free(&t);

    /* SMR 0%: every divergent load is predicted to miss nothing and qualifies, even when the
     * predictions in flight exceed the free entries: static OAWS is then GTO (thesis 5.5.6). */
    const char *none[] = {"smr=0"};
    os_make(&t, "oaws-static", none, 1);
    view_reset(4, 0, 32);
    next_load(0, 0x40, 32);
    next_load(1, 0x40, 32);
    issue(&t, 0); /* not yet known divergent: one miss in flight */
    serviced(&t, 2, 0x40, 32, 32);
    set_free(0);
    EXPECT_EQ_U(t.o->inflight, 1);
    EXPECT(qualifies(&t, 1));
    EXPECT_EQ_U(t.o->denied, 0);
    os_free(&t);

    /* div_pred = history (not the thesis'): Div_pred is at most the pc's mean accesses, here
     * (4 + 7) / 2 rounded up = 6, so 3 misses at SMR 50% instead of 16. */
    const char *hist[] = {"div_pred=history"};
    os_make(&t, "oaws-static", hist, 1);
    view_reset(4, 0, 32);
    next_load(0, 0x40, 32);
    serviced(&t, 1, 0x40, 4, 4);
    serviced(&t, 1, 0x40, 7, 7);
    bool div;
    EXPECT_EQ_U(oaws_predict(t.o, 0, &slots[0], &view, &div), 3);
    slots[0].next_lanes = 4; /* and never more than the active threads */
    EXPECT_EQ_U(oaws_predict(t.o, 0, &slots[0], &view, &div), 2);
    os_free(&t);
}

TEST(oaws_dlc_update_and_history_miss_rate)
{
    OawsDlc d;
    oaws_dlc_init(&d, 2);
    EXPECT(oaws_dlc_find(&d, 8) == NULL);
    oaws_dlc_update(&d, 8, 32, 8);
    const OawsDlcEntry *e = oaws_dlc_find(&d, 8);
    ASSERT(e);
    EXPECT_EQ_U(e->inst, 1);
    EXPECT_EQ_U(e->acc, 32);
    EXPECT_EQ_U(e->miss, 8);
    /* HMR = #miss / #acc = 1/4: 32 threads predict 8 misses, 5 threads ceil(1.25) = 2 */
    EXPECT_EQ_U(oaws_dlc_misses(e, 32), 8);
    EXPECT_EQ_U(oaws_dlc_misses(e, 5), 2);
    oaws_dlc_update(&d, 16, 4, 3);
    oaws_dlc_update(&d, 8, 32, 0); /* 8 misses in 64 accesses: HMR 1/8 */
    e = oaws_dlc_find(&d, 8);
    EXPECT_EQ_U(e->inst, 2);
    EXPECT_EQ_U(e->acc, 64);
    EXPECT_EQ_U(oaws_dlc_misses(e, 32), 4);
    /* A third pc in the 2-entry table replaces the one updated longest ago (16). */
    oaws_dlc_update(&d, 24, 8, 8);
    EXPECT(oaws_dlc_find(&d, 16) == NULL);
    EXPECT(oaws_dlc_find(&d, 8) && oaws_dlc_find(&d, 24));
    EXPECT_EQ_U(d.inserts, 3);
    EXPECT_EQ_U(d.evictions, 1);
    /* #inst is 5 bits: at 31 the three fields are halved together (the rate stays). */
    for (int i = 0; i < 28; i++)
        oaws_dlc_update(&d, 8, 32, 32);
    e = oaws_dlc_find(&d, 8);
    EXPECT_EQ_U(e->inst, 30);
    oaws_dlc_update(&d, 8, 32, 32);
    EXPECT_EQ_U(e->inst, 15);
    EXPECT_EQ_U(e->acc, (64 + 29 * 32) / 2);
    EXPECT_EQ_U(e->miss, (8 + 29 * 32) / 2);
    EXPECT_EQ_U(oaws_dlc_misses(e, 32), 31); /* ceil(32 x 468 / 496) */
    oaws_dlc_clear(&d); /* each kernel starts empty */
    EXPECT(oaws_dlc_find(&d, 8) == NULL && oaws_dlc_find(&d, 24) == NULL);
    oaws_dlc_free(&d);

    /* The scheduler clears its DLC when a kernel starts. */
    Os t;
    os_make(&t, "oaws-dyn", NULL, 0);
    view_reset(2, 0, 32);
    serviced(&t, 0, 0x40, 32, 8);
    serviced(&t, 0, 0x48, 2, 2); /* coherent: not entered */
    EXPECT(oaws_dlc_find(&t.o->dlc, 0x40) && !oaws_dlc_find(&t.o->dlc, 0x48));
    FrontKernel k = {.name = "k"};
    t.ops->on_kernel_start(t.self, &k);
    EXPECT(oaws_dlc_find(&t.o->dlc, 0x40) == NULL);
    os_free(&t);
}

TEST(oaws_dyn_prediction_eq_5_4)
{
    Os t;
    os_make(&t, "oaws-dyn", NULL, 0); /* FCW starts at 4 */
    view_reset(8, 0, 32);
    serviced(&t, 0, 0x40, 32, 8); /* HMR(0x40) = 1/4 */
    EXPECT_EQ_U(t.o->ft.fcw, 4);
    /* the load was partially cached, by a warp of priority 0 < FCW: CNT = 64 - (4 - 0) */
    EXPECT_EQ_U(t.o->ft.cnt, 60);
    bool div;
    for (uint32_t s = 0; s < 8; s++)
        next_load(s, 0x40, 32);
    /* Locality warps (priority 0..3): 32 x 1/4 + GTO_gprio; thrashing warps: 32 (100%). */
    EXPECT_EQ_U(oaws_predict(t.o, 0, &slots[0], &view, &div), 8);
    EXPECT(div);
    EXPECT_EQ_U(oaws_predict(t.o, 3, &slots[3], &view, &div), 8 + 3);
    EXPECT_EQ_U(oaws_predict(t.o, 4, &slots[4], &view, &div), 32);
    EXPECT_EQ_U(oaws_predict(t.o, 7, &slots[7], &view, &div), 32);
    slots[4].next_lanes = 6; /* branch divergence: a thrashing warp with 6 active threads */
    EXPECT_EQ_U(oaws_predict(t.o, 4, &slots[4], &view, &div), 6);
    /* The oldest warp waits at a barrier: it takes no place, the others move up. */
    view.barrier_mask = 1;
    EXPECT_EQ_U(oaws_prio(t.o, 4, &view), 3);
    EXPECT_EQ_U(oaws_predict(t.o, 4, &slots[4], &view, &div), 2 + 3); /* ceil(6/4) + 3 */
    EXPECT_EQ_U(oaws_predict(t.o, 1, &slots[1], &view, &div), 8);
    view.barrier_mask = 0;
    /* Qualification: a thrashing warp needs all 32 entries free and nothing in flight. */
    slots[4].next_lanes = 32;
    EXPECT(qualifies(&t, 4));
    issue(&t, 0); /* 8 in flight */
    EXPECT(!qualifies(&t, 4));
    EXPECT(qualifies(&t, 2)); /* 10 + 8 <= 32 */
    set_free(12);
    EXPECT(!qualifies(&t, 2)); /* 10 + 8 > 12: held back although a locality warp */
    EXPECT_EQ_U(t.o->pred_locality, 1);
    EXPECT_EQ_U(t.o->pred_thrashing, 0);
    /* A fully cached divergent load of the issued warp counts CNT up. */
    serviced(&t, 0, 0x40, 32, 0);
    EXPECT_EQ_U(t.o->inflight, 0);
    EXPECT_EQ_U(t.o->ft.cnt, 61);
    EXPECT_EQ_U(t.o->fcw_loads, 2);
    EXPECT_EQ_U(t.o->fcw_sum, 8);
    os_free(&t);
}

TEST(oaws_fcw_flow_fig_5_3)
{
    FcwTrain f;
    fcw_train_init(&f, 4, 8, 2, 6); /* FCW 4, C_max 8, at least 2, at most 6 */
    EXPECT_EQ_U(f.cnt, 4);
    for (int i = 0; i < 3; i++)
        fcw_train_load(&f, true, 0); /* (A) CNT + 1 per fully cached load */
    EXPECT_EQ_U(f.cnt, 7);
    EXPECT_EQ_U(f.fcw, 4);
    fcw_train_load(&f, true, 0); /* (B) saturated: FCW + 1, CNT back to C_max / 2 */
    EXPECT_EQ_U(f.fcw, 5);
    EXPECT_EQ_U(f.cnt, 4);
    EXPECT_EQ_U(f.up, 1);
    fcw_train_load(&f, false, 9); /* (C), (D): a thrashing warp's partially cached load: - 1 */
    EXPECT_EQ_U(f.cnt, 3);
    fcw_train_load(&f, false, 2); /* (E): a locality warp's: - (FCW - prio) = 3: CNT 0, FCW - 1 */
    EXPECT_EQ_U(f.fcw, 4);
    EXPECT_EQ_U(f.cnt, 4);
    EXPECT_EQ_U(f.down, 1);
    for (int i = 0; i < 40; i++) /* up to W_max, where CNT saturates without overflowing */
        fcw_train_load(&f, true, 0);
    EXPECT_EQ_U(f.fcw, 6);
    EXPECT_EQ_U(f.cnt, 8);
    EXPECT_EQ_U(f.up, 3);
    for (int i = 0; i < 40; i++) /* down to the minimum, where CNT stays at 0 */
        fcw_train_load(&f, false, 0);
    EXPECT_EQ_U(f.fcw, 2);
    EXPECT_EQ_U(f.cnt, 0);
    EXPECT_EQ_U(f.down, 5);

    /* FCW-only throttling: only warps of global priority below FCW issue divergent loads;
     * warps waiting at a barrier take no place. */
    const char *kv[] = {"fcw=2", "cmax=4"};
    Os t;
    os_make(&t, "fcw", kv, 2);
    view_reset(6, 0, 32);
    for (uint32_t s = 0; s < 6; s++)
        next_load(s, 0x40, 32);
    EXPECT(qualifies(&t, 2)); /* not yet known divergent */
    serviced(&t, 0, 0x40, 32, 0); /* now it is (fully cached: CNT 2 -> 3) */
    EXPECT_EQ_U(t.o->ft.fcw, 2);
    EXPECT_EQ_U(t.o->ft.cnt, 3);
    EXPECT(qualifies(&t, 0) && qualifies(&t, 1));
    EXPECT(!qualifies(&t, 2));
    slots[2].next_op = WOP_INT_ADD; /* a thrashing warp's other instructions go */
    slots[2].next_global_load = false;
    EXPECT(qualifies(&t, 2));
    next_load(2, 0x40, 32);
    view.barrier_mask = 1;
    EXPECT(qualifies(&t, 1) && qualifies(&t, 2));
    EXPECT(!qualifies(&t, 3));
    EXPECT_EQ_U(t.o->denied, 2);
    /* Another fully cached divergent load: CNT reaches C_max 4, FCW 3, and slot 3 may go. */
    issue(&t, 1);
    serviced(&t, 1, 0x40, 32, 0);
    EXPECT_EQ_U(t.o->ft.fcw, 3);
    EXPECT_EQ_U(t.o->ft.cnt, 2);
    EXPECT(qualifies(&t, 3));
    /* A partially cached one of the warp of priority 0 (slot 1, slot 0 being at the barrier):
     * CNT 2 - (3 - 0) -> 0: FCW 2. Coherent loads do not count. */
    issue(&t, 1);
    serviced(&t, 1, 0x40, 2, 2);
    EXPECT_EQ_U(t.o->ft.fcw, 3);
    issue(&t, 1);
    serviced(&t, 1, 0x40, 32, 5);
    EXPECT_EQ_U(t.o->ft.fcw, 2);
    EXPECT(!qualifies(&t, 3));
    EXPECT_EQ_U(t.o->fcw_loads, 3);
    EXPECT_EQ_U(t.o->n_fly, 0);
    os_free(&t);
}

/* ---- Fig. 5.1 on one SM ---------------------------------------------------------------------- */

typedef struct Fig51 {
    uint64_t cycles, held, stall_mshr, occlusion, access_time;
    int64_t load[3]; /* cycles the loads of A, B and C issued */
    int64_t data[3]; /* cycles their users issued (the data was back) */
} Fig51;

/* Thesis Fig. 5.1: warps A, B and C of one CTA, in that age order, each loading and then
 * computing (the load's user and 4 independent adds). Branch divergence left A and B 6 active
 * threads and C 2, each thread reading its own line: 6, 6 and 2 requests. The L1D has 8 MSHR
 * entries and allocates on fill; the L2 replies 20 cycles after it takes a request. */
static bool fig51(const char *sched, const char *key, const char *value, Fig51 *out)
{
    Rig *r = rig_new();
    char err[256];
    r->c.l1d.n_sets = 8;
    r->c.l1d.assoc = 4;
    r->c.l1d.alloc = CACHE_ALLOC_FILL;
    r->c.l1d.mshr_entries = 8;
    r->c.l1d.miss_queue = 8;
    r->m.latency = 20;
    r->f.tell_mask = true;
    bool ok = config_set(&r->c, "sm.sched", sched, err, sizeof err) &&
              (!key || config_set(&r->c, key, value, err, sizeof err)) && rig_start(r, 96, 1);
    const uint64_t base[3] = {0x10000, 0x20000, 0x30000};
    const uint32_t mask[3] = {0x3F, 0x3F, 0x3};
    for (uint32_t w = 0; w < 3 && ok; w++) {
        MockInst p[8];
        uint32_t n = 0;
        p[n++] = ld(1, base[w], 128);
        p[n++] = alu(2, 1);
        for (uint32_t i = 0; i < 4; i++)
            p[n++] = alu((uint16_t)(3 + i), 0);
        p[n++] = ex();
        for (uint32_t i = 0; i < n; i++)
            p[i].mask = mask[w];
        script(&r->f, w, p, n);
    }
    if (ok) {
        rig_launch(r, 0);
        ok = rig_run(r, 2000) && r->f.bad == 0 && r->n_done == 1 && r->sm.l1d.miss == 14;
    }
    *out = (Fig51){.cycles = r->done_at[0], .held = r->sm.held, .stall_mshr = r->sm.stall_mshr,
                   .occlusion = r->sm.occlusion[0] + r->sm.occlusion[1],
                   .access_time = r->sm.access_time[0] + r->sm.access_time[1]};
    for (uint32_t w = 0; w < 3; w++) {
        out->load[w] = issued_at(&r->f, w, 0);
        out->data[w] = issued_at(&r->f, w, 8);
    }
    rig_free(r);
    return ok;
}

TEST(oaws_avoids_the_occlusion_of_fig_5_1)
{
    Fig51 g, o, d;
    ASSERT(fig51("gto", NULL, NULL, &g));
    /* SMR 100%: every divergent load is predicted to miss all its active threads, here exactly
     * its requests, as Fig. 5.1 assumes. */
    ASSERT(fig51("oaws-static", "sm.sched.oaws-static.smr", "100", &o));
    ASSERT(fig51("oaws-dyn", NULL, NULL, &d));

    /* GTO (Fig. 5.1(b)): A's load at 1 takes 6 entries (accesses 2..7, back from 23 on); B's at 7
     * takes the other 2, and its 4 other accesses replay (MSHR stalls, 10..22) until A's replies
     * free entries from 23: memory occlusion, 13 cycles. C's load can only follow at 26, so C's
     * data is back late (its user issues at 53). */
    EXPECT_EQ_I(g.load[0], 1);
    EXPECT_EQ_I(g.load[1], 7);
    EXPECT_EQ_I(g.load[2], 26);
    EXPECT_EQ_U(g.stall_mshr, 13);
    EXPECT_EQ_U(g.occlusion, 13);
    EXPECT_EQ_U(g.held, 0);
    EXPECT_EQ_I(g.data[2], 53);

    /* OAWS (Fig. 5.1(c)): once A's load has left the LD/ST unit (7), the DLC knows the pc as
     * divergent; B's 6 predicted misses do not fit the 2 free entries and B is held, while C's 2
     * do: C's load goes at 7. B's qualifies when A's entries are all back (28); GTO order puts
     * A's computation, ready the same cycle, first. No access ever waits for an MSHR entry. */
    EXPECT_EQ_I(o.load[0], 1);
    EXPECT_EQ_I(o.load[2], 7);
    EXPECT_EQ_I(o.load[1], 34);
    EXPECT_EQ_U(o.stall_mshr, 0);
    EXPECT_EQ_U(o.occlusion, 0);
    EXPECT(o.held > 0);
    EXPECT_EQ_I(o.data[2], 35); /* C's data back 18 cycles sooner */
    EXPECT(o.access_time < g.access_time);
    /* Not shown by the thesis' sketch: here B's load, held until A's data is back, waits behind
     * A's computation, so the CTA ends later (66 cycles against 58) although nothing was
     * occluded: with one scheduler and nothing else for the LD/ST unit to do, B's occluded
     * accesses under GTO cost no one but C. */
    EXPECT_EQ_U(g.cycles, 58);
    EXPECT_EQ_U(o.cycles, 66);

    /* Dynamic OAWS predicts with A's history (HMR 6/6) plus the warps' priorities: C (priority
     * 2) waits for 4 free entries, B for 7 or, once A has exited and B is the oldest, 6; nothing
     * is occluded either. */
    EXPECT_EQ_U(d.stall_mshr, 0);
    EXPECT_EQ_U(d.occlusion, 0);
    EXPECT(d.load[2] > d.load[0] && d.load[2] < d.load[1]);
}

/* ---- whole runs --------------------------------------------------------------------------- */

/* `warpsim run --preset oaws ARGS workloads/synthetic/atax-small.syn`: its result file. */
static JsonValue *run_atax(const char *args)
{
    char a[1000];
    snprintf(a, sizeof a, "--preset oaws %s workloads/synthetic/atax-small.syn", args);
    return test_run_json(a);
}

#define total test_total

TEST(oaws_runs_on_the_oaws_preset)
{
    JsonValue *gto = run_atax("");
    JsonValue *smr0 = run_atax("-o sm.sched=oaws-static -o sm.sched.oaws-static.smr=0");
    JsonValue *stat = run_atax("-o sm.sched=oaws-static");
    JsonValue *dyn = run_atax("-o sm.sched=oaws-dyn");
    JsonValue *fcw = run_atax("-o sm.sched=fcw -o sm.sched.fcw.fcw=2 -o sm.sched.fcw.wmax=2");
    ASSERT(gto && smr0 && stat && dyn && fcw);
    JsonValue *runs[] = {gto, smr0, stat, dyn, fcw};
    for (int i = 0; i < 5; i++) {
        EXPECT_STR(json_str(json_get(runs[i], "status")), "complete");
        /* the LD/ST stall causes add up to the replays */
        EXPECT_EQ_U(total(runs[i], "sm.ldst.stall_mshr") + total(runs[i], "sm.ldst.stall_icnt") +
                        total(runs[i], "sm.ldst.stall_other"),
                    total(runs[i], "sm.ldst.replay"));
        EXPECT(total(runs[i], "ldst.occlusion_share_divergent") >= 0);
    }
    /* SMR 0% qualifies every load: static OAWS is then GTO, cycle for cycle (thesis 5.5.6). */
    EXPECT_EQ_U(total(smr0, "sim.cycles"), total(gto, "sim.cycles"));
    EXPECT_EQ_U(total(smr0, "sm.sched.oaws-static.denied"), 0);
    /* OAWS holds divergent loads back instead of letting them occlude the MSHRs. */
    EXPECT(total(stat, "sm.sched.oaws-static.denied") > 0);
    EXPECT(total(stat, "sm.ldst.stall_mshr") < total(gto, "sm.ldst.stall_mshr"));
    EXPECT(total(dyn, "sm.sched.oaws-dyn.denied") > 0);
    EXPECT(total(dyn, "sm.ldst.stall_mshr") < total(gto, "sm.ldst.stall_mshr"));
    EXPECT(total(dyn, "sm.sched.oaws-dyn.dlc_inserts") > 0);
    EXPECT(total(dyn, "sm.sched.oaws-dyn.fcw_loads") > 0);
    EXPECT(total(dyn, "sm.sched.oaws-dyn.pred_misses") > 0);
    /* FCW pinned at 2 warps per SM (one per scheduler): the rest of the warps wait. */
    EXPECT(total(fcw, "sm.sched.fcw.denied") > 0);
    EXPECT_EQ_U(total(fcw, "sm.sched.fcw.fcw_sum"), 2 * total(fcw, "sm.sched.fcw.fcw_loads"));
    for (int i = 0; i < 5; i++)
        json_free(runs[i]);
}
