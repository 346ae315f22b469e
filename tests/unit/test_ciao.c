/* test_ciao.c: CIAO's interference detection (src/policy/warp/ciao_detect.c) and CIAO-T
 * (src/policy/warp/ciao_t.c). The interference list's update sequence of Fig. 4c; the VTA that
 * records who evicted whose line; eq. 1's IRS against the cutoffs at the epoch boundaries;
 * stalls and reactivation in reverse order, driven through the hooks with a hand-made SmView;
 * then on one SM (tests/sm_rig.h), where the L1D feeds the VTA with the evicting warp; then
 * whole runs on the gtx480-16k preset. */
#include "../policy_rig.h"
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "exp/json.h"
#include "policy/policy.h"
#include "policy/warp/ciao.h"
#include "stats/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef PolicyRig Ct;

/* ciao-t with overrides ("high_epoch=100", ...). */
static void ct_make(Ct *t, const char *const *kv, uint32_t n) { prig_warp(t, "ciao-t", kv, n); }

static WarpSlotInfo slots[64];
static uint64_t ages[64];
static SmView view;

/* n warps of one CTA launched in slots 0..n-1, slot i the i-th oldest. */
static void launch(Ct *t, uint32_t n) { prig_launch(t, slots, ages, &view, n); }

static WarpSchedView at(void)
{
    return (WarpSchedView){.ready = view.live_mask, .valid = view.live_mask, .age = ages, .cycle = 1, .sm = &view};
}

/* Slot s issues n instructions. */
static void issue_n(Ct *t, uint32_t s, uint32_t n)
{
    WarpSchedView v = at();
    for (uint32_t i = 0; i < n; i++)
        t->warp->on_issue(t->self, s, &v);
}

/* The L1D replaced `line` that warp `owner` had brought in, by an access of `evictor`. */
static void evict(Ct *t, uint32_t owner, uint32_t evictor, uint64_t line)
{
    WarpL1dEvent e = {.slot = owner, .evictor = evictor, .line_addr = line, .cycle = 1};
    t->warp->on_l1d_evict(t->self, &e);
}

static void miss(Ct *t, uint32_t s, uint64_t line)
{
    WarpL1dEvent e = {.slot = s, .evictor = WARP_L1D_NOBODY, .pc = 8, .line_addr = line, .cycle = 1};
    t->warp->on_l1d_miss(t->self, &e);
}

/* `n` VTA hits of warp `victim`, each on a line `evictor` had evicted. */
static void interfere(Ct *t, uint32_t victim, uint32_t evictor, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        evict(t, victim, evictor, 1000 + i);
        miss(t, victim, 1000 + i);
    }
}

static bool may(Ct *t, uint32_t s)
{
    WarpSchedView v = at();
    return t->warp->may_issue(t->self, s, &slots[s], &v);
}

static const Ciao *det(const Ct *t) { return ciao_t_state(t->shared); }

static void exit_warp(Ct *t, uint32_t s)
{
    t->warp->on_warp_exit(t->self, s);
    view.live_mask &= ~(1ull << s);
    slots[s].live = false;
}

TEST(ciao_interference_list_fig_4c)
{
    /* Fig. 4c: W32 interferes with W34 (stored, counter 00), again and again (up to 11, where it
     * saturates); W42 then counts it down to 10, W32 back up to 11. The entry changes warp only
     * when its counter is 00: W42 three more times brings it to 00, the fourth replaces W32,
     * and the newcomer starts at 00. */
    CiaoIlist e = {.wid = CIAO_NONE};
    ciao_ilist_update(&e, 32);
    EXPECT_EQ_U(e.wid, 32);
    EXPECT_EQ_U(e.ctr, 0);
    for (uint32_t i = 1; i <= 3; i++) {
        ciao_ilist_update(&e, 32);
        EXPECT_EQ_U(e.ctr, i);
    }
    ciao_ilist_update(&e, 32);
    EXPECT_EQ_U(e.ctr, 3);
    ciao_ilist_update(&e, 42);
    EXPECT_EQ_U(e.wid, 32);
    EXPECT_EQ_U(e.ctr, 2);
    ciao_ilist_update(&e, 32);
    EXPECT_EQ_U(e.ctr, 3);
    for (uint32_t i = 0; i < 3; i++)
        ciao_ilist_update(&e, 42);
    EXPECT_EQ_U(e.wid, 32);
    EXPECT_EQ_U(e.ctr, 0);
    ciao_ilist_update(&e, 42);
    EXPECT_EQ_U(e.wid, 42);
    EXPECT_EQ_U(e.ctr, 0);
    ciao_ilist_update(&e, 42);
    EXPECT_EQ_U(e.ctr, 1);
}

TEST(ciao_vta_records_who_evicted_whose_line)
{
    Ct t;
    ct_make(&t, NULL, 0); /* Table I: 48 sets (one per warp), 8 tags each, FIFO */
    launch(&t, 4);
    EXPECT_EQ_U(det(&t)->n_sets, 48);
    EXPECT_EQ_U(det(&t)->ways, 8);

    /* Warp 2 evicts line 6 that warp 0 brought in: the entry goes into warp 0's set. Warp 1
     * missing on 6 finds nothing; warp 0 does: a VTA hit, and warp 2 interfered with warp 0. */
    evict(&t, 0, 2, 6);
    miss(&t, 1, 6);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    miss(&t, 0, 6);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    EXPECT_EQ_U(prig_stat(&t, "interference"), 1);
    EXPECT_EQ_U(det(&t)->hits[0], 1);
    EXPECT_EQ_U(det(&t)->hits[1], 0);
    EXPECT_EQ_U(det(&t)->hits[2], 0); /* the evictor's count is not raised */
    EXPECT_EQ_I(ciao_interferer(det(&t), 0), 2);
    EXPECT_EQ_I(ciao_interferer(det(&t), 2), -1);
    /* the hit took the entry */
    miss(&t, 0, 6);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    EXPECT_EQ_U(prig_stat(&t, "vta_probes"), 3);

    /* A line the warp evicted itself: a VTA hit (it counts in IRS), no interference. */
    evict(&t, 0, 0, 7);
    miss(&t, 0, 7);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 2);
    EXPECT_EQ_U(prig_stat(&t, "self_hits"), 1);
    EXPECT_EQ_U(prig_stat(&t, "interference"), 1);
    EXPECT_EQ_U(det(&t)->ilist[0].wid, 2);
    EXPECT_EQ_U(det(&t)->ilist[0].ctr, 0);

    /* FIFO: nine lines into warp 1's eight tags push the first out. */
    for (uint64_t line = 20; line < 29; line++)
        evict(&t, 1, 3, line);
    EXPECT_EQ_U(prig_stat(&t, "vta_replaced"), 1);
    miss(&t, 1, 20);
    EXPECT_EQ_U(det(&t)->hits[1], 0);
    miss(&t, 1, 21);
    EXPECT_EQ_U(det(&t)->hits[1], 1);
    EXPECT_EQ_I(ciao_interferer(det(&t), 1), 3);

    /* An evictor that has exited is nobody's interference; a warp's leaving empties its set
     * and the list entries that name it. */
    evict(&t, 0, 3, 40);
    evict(&t, 1, 3, 41);
    exit_warp(&t, 3);
    EXPECT_EQ_I(ciao_interferer(det(&t), 1), -1);
    miss(&t, 0, 40);
    EXPECT_EQ_U(det(&t)->hits[0], 3);
    EXPECT_EQ_U(prig_stat(&t, "interference"), 2);
    EXPECT_EQ_U(det(&t)->ilist[0].wid, 2);
    evict(&t, 2, 1, 50);
    exit_warp(&t, 2);
    EXPECT_EQ_U(det(&t)->vta_n[2], 0);
    prig_free(&t);

    /* Fewer sets than warps: warps 0 and 2 share a set but never hit each other's entries. */
    const char *two[] = {"vta_sets=2", "vta_ways=2"};
    ct_make(&t, two, 2);
    launch(&t, 4);
    evict(&t, 0, 1, 9);
    miss(&t, 2, 9);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    evict(&t, 2, 1, 10);
    evict(&t, 2, 1, 11); /* the set's third entry: warp 0's 9 goes */
    miss(&t, 0, 9);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    miss(&t, 2, 10);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    prig_free(&t);
}

TEST(ciao_irs_and_the_cutoffs_at_epoch_boundaries)
{
    /* Four warps; warp 0 has 12 VTA hits, each on a line warp 2 evicted. Eq. 1 at 5,000 SM
     * instructions: IRS_0 = 12 / (5000 / 4) = 0.0096, not above the high cutoff 0.01: nobody
     * is stalled at the first high-cutoff epoch. */
    Ct t;
    ct_make(&t, NULL, 0);
    launch(&t, 4);
    interfere(&t, 0, 2, 12);
    issue_n(&t, 3, 4000);
    EXPECT(ciao_irs(det(&t), 0) == 12.0 * 4 / 4000);
    EXPECT(ciao_irs(det(&t), 1) == 0);
    issue_n(&t, 3, 1000);
    EXPECT_EQ_U(prig_stat(&t, "high_epochs"), 1);
    EXPECT_EQ_U(prig_stat(&t, "low_epochs"), 50);
    EXPECT_EQ_U(prig_stat(&t, "irs_over_high"), 0);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    prig_free(&t);

    /* 13 hits: 13 / (5000 / 4) = 0.0104 > 0.01. Nothing happens before the epoch ends (4,999
     * instructions); at 5,000 warp 2 is stalled for warp 0 (the pair list's second field). */
    ct_make(&t, NULL, 0);
    launch(&t, 4);
    interfere(&t, 0, 2, 13);
    issue_n(&t, 3, 4999);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    issue_n(&t, 1, 1);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 2);
    EXPECT_EQ_U(det(&t)->pair[2].stalled_by, 0);
    EXPECT_EQ_U(det(&t)->pair[2].isolated_by, CIAO_NONE);
    EXPECT_EQ_U(prig_stat(&t, "stalls"), 1);
    EXPECT_EQ_U(prig_stat(&t, "irs_over_high"), 1);
    /* a stalled warp issues nothing (not only its loads); the others issue */
    EXPECT(!may(&t, 2));
    EXPECT(may(&t, 0) && may(&t, 1) && may(&t, 3));
    EXPECT_EQ_U(prig_stat(&t, "held"), 1);
    /* unless a warp of its CTA waits at a barrier */
    view.barrier_mask = 1u << 3;
    EXPECT(may(&t, 2));
    view.barrier_mask = 0;

    /* Low cutoff 0.005, every 100 instructions: IRS_0 = 52 / insts stays above it until 10,400
     * instructions, where it equals it: warp 2 comes back then, not at 10,300. */
    issue_n(&t, 3, 10300 - 5000);
    EXPECT(ciao_irs(det(&t), 0) > 0.005);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 2);
    EXPECT_EQ_U(prig_stat(&t, "reactivations"), 0);
    issue_n(&t, 3, 99);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 2);
    issue_n(&t, 3, 1);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    EXPECT_EQ_U(prig_stat(&t, "reactivations"), 1);
    EXPECT_EQ_U(det(&t)->pair[2].stalled_by, CIAO_NONE);
    EXPECT(may(&t, 2));
    EXPECT_EQ_U(prig_stat(&t, "low_epochs"), 104);
    EXPECT_EQ_U(prig_stat(&t, "high_epochs"), 2);
    prig_free(&t);

    /* A warp's IRS counts the SM's instructions since it arrived: a warp launched after 1,000
     * instructions, with 2 hits at 1,500, has 2 / (500 / 5) = 0.02. */
    ct_make(&t, NULL, 0);
    launch(&t, 4);
    issue_n(&t, 0, 1000);
    t.warp->on_cta_launch(t.self, 1, 4, 1);
    interfere(&t, 4, 0, 2);
    issue_n(&t, 0, 500);
    EXPECT(ciao_irs(det(&t), 4) == 2.0 * 5 / 500);
    prig_free(&t);
}

TEST(ciao_stall_then_reactivate_in_reverse_order)
{
    /* Six warps, epochs of 100 / 10 instructions. Warp 0 is interfered with by warp 2, warp 1
     * by warp 3, both far above the high cutoff: at the first high-cutoff epoch warp 2 is
     * stalled (warp 0 is visited first, the oldest), then warp 3, which is now the front of the
     * stalled list. */
    const char *kv[] = {"high_epoch=100", "low_epoch=10"};
    Ct t;
    ct_make(&t, kv, 2);
    launch(&t, 6);
    interfere(&t, 0, 2, 50);
    interfere(&t, 1, 3, 50);
    issue_n(&t, 5, 100);
    uint8_t list[64];
    ASSERT(ciao_t_stalled_list(t.shared, list) == 2);
    EXPECT_EQ_U(list[0], 3);
    EXPECT_EQ_U(list[1], 2);
    EXPECT_EQ_U(prig_stat(&t, "stalls"), 2);
    EXPECT_EQ_U(prig_stat(&t, "stalled_max"), 2);
    /* Both interfered warps stay above the low cutoff: nobody comes back. */
    issue_n(&t, 5, 50);
    EXPECT_EQ_U(ciao_t_stalled_list(t.shared, list), 2);
    /* Warp 0 finishes: warp 2 is not at the front, so it stays stalled. */
    exit_warp(&t, 0);
    issue_n(&t, 5, 50);
    EXPECT_EQ_U(ciao_t_stalled_list(t.shared, list), 2);
    /* Warp 1 finishes: the front (warp 3) comes back at the next low-cutoff epoch, and warp 2
     * at the one after. */
    exit_warp(&t, 1);
    issue_n(&t, 5, 10);
    ASSERT(ciao_t_stalled_list(t.shared, list) == 1);
    EXPECT_EQ_U(list[0], 2);
    EXPECT_EQ_U(prig_stat(&t, "reactivations"), 1);
    issue_n(&t, 5, 10);
    EXPECT_EQ_U(ciao_t_stalled_list(t.shared, list), 0);
    EXPECT_EQ_U(prig_stat(&t, "reactivations"), 2);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    prig_free(&t);

    /* Two warps that interfere with each other: the older one's epoch turn stalls the younger,
     * which (stalled) stalls nobody; one warp always issues. When the active one finishes,
     * the stalled one comes back at once. */
    ct_make(&t, kv, 2);
    launch(&t, 2);
    interfere(&t, 0, 1, 50);
    interfere(&t, 1, 0, 50);
    issue_n(&t, 0, 100);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 1);
    issue_n(&t, 0, 500);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 1);
    exit_warp(&t, 0);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    EXPECT_EQ_U(prig_stat(&t, "forced_reactivations"), 1);
    EXPECT(may(&t, 1));
    prig_free(&t);
}

/* ---- one SM --------------------------------------------------------------------------------- */

static uint64_t sm_stat(const Rig *r, const char *name) { return test_stat(&r->st, "sm[0].sched.ciao-t.%s", name); }

TEST(ciao_vta_fed_by_the_l1d)
{
    /* Lines A, B, C share a set of the rig's 2-way L1D (allocate on miss, LRU). Warp 0 loads
     * A and B and waits at two barriers; between them warp 1 loads C, which evicts A: into
     * warp 0's VTA set, with warp 1 as the evictor. After the second barrier warp 0 loads A
     * again (a VTA hit: warp 1 interfered; it evicts B, warp 0's own line) and B (a VTA hit it
     * caused itself), while warp 1 still runs a chain of adds. */
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", "ciao-t", err, sizeof err));
    ASSERT(rig_start(r, 64, 1));
    const uint64_t A = 0x10000, B = 0x10200, C = 0x10400;
    const Tags *tg = &r->sm.l1d.tags;
    ASSERT(tags_set_of(tg, A) == tags_set_of(tg, B) && tags_set_of(tg, A) == tags_set_of(tg, C));
    MockInst w0[] = {ld(1, A, 0), alu(2, 1), ld(3, B, 0), alu(4, 3), bar(), bar(),
                     ld(5, A, 0), alu(6, 5), ld(7, B, 0), alu(8, 7), ex()};
    MockInst w1[] = {bar(), ld(1, C, 0), alu(2, 1), bar(), alu(3, 0), alu(4, 3), alu(5, 4),
                     alu(6, 5), alu(7, 6), alu(8, 7), alu(9, 8), alu(10, 9), ex()};
    script(&r->f, 0, w0, 11);
    script(&r->f, 1, w1, 13);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 4000) && r->f.bad == 0 && r->n_done == 1);
    EXPECT(issued_at(&r->f, 0, 64) < issued_at(&r->f, 1, 96)); /* warp 0's B before warp 1's end */
    EXPECT_EQ_U(r->sm.l1d.miss, 5);
    EXPECT_EQ_U(sm_stat(r, "vta_probes"), 5);
    EXPECT(sm_stat(r, "vta_inserts") >= 2); /* A (by warp 1), B (by warp 0), ... */
    EXPECT_EQ_U(sm_stat(r, "vta_hits"), 2);
    EXPECT_EQ_U(sm_stat(r, "interference"), 1); /* A: warp 1 evicted it */
    EXPECT_EQ_U(sm_stat(r, "self_hits"), 1);    /* B: warp 0 evicted it */
    rig_free(r);
}

/* ---- whole runs ---------------------------------------------------------------------------- */

/* `warpsim run --preset gtx480-16k ARGS WL --size small`: its result file (the program's own
 * check passed, or the run fails); NULL (and a note) when the suite's program is not built. */
static JsonValue *run_small(const char *wl, const char *args, bool *skipped)
{
    char dir[512], host[1100], a[1000];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    snprintf(host, sizeof host, "%.*sworkloads/polybench/%s/host", slash ? (int)(slash - dir + 1) : 0, dir, wl);
    *skipped = access(host, X_OK) != 0;
    if (*skipped) {
        printf("note ciao_t_runs_on_the_gtx480_16k_preset: %s is not built (make builds it): skipped\n", host);
        return NULL;
    }
    snprintf(a, sizeof a, "--preset gtx480-16k %s %s --size small", args, wl);
    return test_run_json(a);
}

#define total test_total

TEST(ciao_t_runs_on_the_gtx480_16k_preset)
{
    bool skipped;
    JsonValue *gto = run_small("atax", "", &skipped);
    if (skipped)
        return;
    JsonValue *ct = run_small("atax", "-o sm.sched=ciao-t", &skipped);
    JsonValue *off = run_small("atax", "-o sm.sched=ciao-t -o sm.sched.ciao-t.high_cutoff=1e9", &skipped);
    ASSERT(gto && ct && off);
    EXPECT_STR(json_str(json_get(ct, "status")), "complete");
    /* ATAX's loads thrash the 16 KB L1D: warps evict each other's lines, CIAO-T stalls the
     * worst interferers and brings them back. */
    EXPECT(total(ct, "sm.sched.ciao-t.vta_hits") > 0);
    EXPECT(total(ct, "sm.sched.ciao-t.interference") > 0);
    EXPECT(total(ct, "sm.sched.ciao-t.stalls") > 0);
    EXPECT(total(ct, "sm.sched.ciao-t.held") > 0);
    EXPECT_EQ_U(total(ct, "sm.sched.ciao-t.stalls"),
                total(ct, "sm.sched.ciao-t.reactivations") + total(ct, "sm.sched.ciao-t.forced_reactivations"));
    EXPECT(total(ct, "sm.l1d.miss") < total(gto, "sm.l1d.miss"));
    /* A cutoff no IRS reaches stalls nobody: GTO, cycle for cycle. */
    EXPECT_EQ_U(total(off, "sim.cycles"), total(gto, "sim.cycles"));
    EXPECT_EQ_U(total(off, "sm.sched.ciao-t.stalls"), 0);
    EXPECT(total(off, "sm.sched.ciao-t.vta_hits") > 0);
    json_free(gto);
    json_free(ct);
    json_free(off);
}
