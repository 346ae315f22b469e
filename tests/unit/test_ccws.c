/* test_ccws.c: Cache-Conscious Wavefront Scheduling (src/policy/warp/ccws.c). The scheduler
 * driven through its hooks with a hand-made SmView: eq. 1's lost-locality detected score, the
 * decay and the cap, the cutoff's admission order and which warps' loads wait, the victim tag
 * arrays; then on one SM (tests/sm_rig.h), where the L1D feeds the VTAs and a CTA with barriers
 * finishes under heavy throttling; then whole runs on the oaws preset. */
#include "../policy_rig.h"
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "exp/json.h"
#include "policy/policy.h"
#include "policy/warp/ccws.h"
#include "stats/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef PolicyRig Cs;

/* ccws with overrides ("k_throttle=0", ...). */
static void cs_make(Cs *t, const char *const *kv, uint32_t n) { prig_warp(t, "ccws", kv, n); }

static WarpSlotInfo slots[64];
static uint64_t ages[64];
static SmView view;

/* n warps launched in slots 0..n-1, slot i the i-th oldest. */
static void launch(Cs *t, uint32_t n) { prig_launch(t, slots, ages, &view, n); }

static WarpSchedView at(uint64_t cycle)
{
    return (WarpSchedView){.ready = view.live_mask, .valid = view.live_mask, .age = ages, .cycle = cycle, .sm = &view};
}

/* Slot s issues n instructions (adds) at `cycle`. */
static void issue_n(Cs *t, uint32_t s, uint32_t n, uint64_t cycle)
{
    WarpSchedView v = at(cycle);
    slots[s].next_op = WOP_INT_ADD;
    slots[s].next_global_load = false;
    for (uint32_t i = 0; i < n; i++)
        t->warp->on_issue(t->self, s, &v);
}

static void evict(Cs *t, uint32_t s, uint64_t line, uint64_t cycle)
{
    WarpL1dEvent e = {.slot = s, .line_addr = line, .cycle = cycle};
    t->warp->on_l1d_evict(t->self, &e);
}

static void miss(Cs *t, uint32_t s, uint64_t line, uint64_t cycle)
{
    WarpL1dEvent e = {.slot = s, .pc = 8, .line_addr = line, .cycle = cycle};
    t->warp->on_l1d_miss(t->self, &e);
}

/* Whether slot s may issue at `cycle` with a global load (or an add) next. */
static bool may(Cs *t, uint32_t s, bool load, uint64_t cycle)
{
    slots[s].next_op = load ? WOP_LOAD : WOP_INT_ADD;
    slots[s].next_space = load ? WSPACE_GLOBAL : WSPACE_NONE;
    slots[s].next_global_load = load;
    WarpSchedView v = at(cycle);
    return t->warp->may_issue(t->self, s, &slots[s], &v);
}

/* The slots of 0..n-1 that may issue a load at `cycle`. */
static uint32_t loaders(Cs *t, uint32_t n, uint64_t cycle)
{
    uint32_t m = 0;
    for (uint32_t s = 0; s < n; s++)
        m |= (uint32_t)may(t, s, true, cycle) << s;
    return m;
}

static uint64_t lls(const Cs *t, uint32_t s, uint64_t cycle) { return ccws_lls(t->shared, s, cycle); }

TEST(ccws_score_eq_1_decay_and_cap)
{
    Cs t;
    cs_make(&t, NULL, 0); /* Table 5.3: K_THROTTLE 8, base score 100 */
    launch(&t, 4);        /* cutoff 4 x 100 = 400 */
    for (uint32_t s = 0; s < 4; s++)
        EXPECT_EQ_U(lls(&t, s, 0), 100);
    EXPECT_EQ_U(ccws_llds(t.shared), 0);

    /* Warp 0 issues 10 instructions; line 6 that it brought in is evicted. Warp 1 missing on it
     * is no lost locality (not its line); warp 0 missing on it is: VTA hits 1, instructions 10,
     * LLDS = 1 / 10 * 8 * 400 = 320. */
    issue_n(&t, 0, 10, 50);
    evict(&t, 0, 6, 60);
    miss(&t, 1, 6, 70);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    EXPECT_EQ_U(lls(&t, 1, 70), 100);
    miss(&t, 0, 6, 100);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    EXPECT_EQ_U(ccws_llds(t.shared), 320);
    EXPECT_EQ_U(prig_stat(&t, "llds_sum"), 320);
    /* one point a cycle, down to the base */
    EXPECT_EQ_U(lls(&t, 0, 100), 320);
    EXPECT_EQ_U(lls(&t, 0, 150), 270);
    EXPECT_EQ_U(lls(&t, 0, 319), 101);
    EXPECT_EQ_U(lls(&t, 0, 320), 100);
    EXPECT_EQ_U(lls(&t, 0, 5000), 100);
    EXPECT_EQ_U(lls(&t, 1, 100), 100);

    /* Warp 1 loses locality at 130: hits 2, instructions 10, LLDS = 2 / 10 * 8 * 400 = 640.
     * Warp 0 has decayed to 290 meanwhile. */
    evict(&t, 1, 9, 126);
    miss(&t, 1, 9, 130);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 2);
    EXPECT_EQ_U(lls(&t, 1, 130), 640);
    EXPECT_EQ_U(lls(&t, 0, 130), 290);
    EXPECT_EQ_U(prig_stat(&t, "llds_sum"), 960);

    /* No score exceeds the LLDS of the moment. 10 instructions without a VTA hit: LLDS = 2 / 20
     * * 8 * 400 = 320 caps warp 1; 60 more: 2 / 80 * 8 * 400 = 80, below the base, and both
     * scores are at the base at once. */
    issue_n(&t, 2, 10, 135);
    EXPECT_EQ_U(ccws_llds(t.shared), 320);
    EXPECT_EQ_U(lls(&t, 1, 135), 320);
    EXPECT_EQ_U(lls(&t, 0, 135), 285);
    issue_n(&t, 2, 60, 140);
    EXPECT_EQ_U(ccws_llds(t.shared), 80);
    EXPECT_EQ_U(lls(&t, 0, 140), 100);
    EXPECT_EQ_U(lls(&t, 1, 140), 100);
    /* A third VTA hit raises the cap again (3 / 80 * 8 * 400 = 120), to warp 3's new score:
     * the scores the cap took down stay down, as capping every cycle would leave them. */
    evict(&t, 3, 11, 150);
    miss(&t, 3, 11, 150);
    EXPECT_EQ_U(ccws_llds(t.shared), 120);
    EXPECT_EQ_U(lls(&t, 3, 150), 120);
    EXPECT_EQ_U(lls(&t, 0, 150), 100);
    EXPECT_EQ_U(lls(&t, 1, 150), 100);

    /* Warp 3 exits: its hit and its instructions leave the totals, and the cutoff is 3 x 100:
     * LLDS = 2 / 80 * 8 * 300 = 60. */
    t.warp->on_warp_exit(t.self, 3);
    EXPECT_EQ_U(ccws_llds(t.shared), 60);
    EXPECT_EQ_U(lls(&t, 3, 160), 100);

    /* K_THROTTLE 0: VTA hits are found, but no score ever rises. */
    prig_free(&t);
    const char *k0[] = {"k_throttle=0"};
    cs_make(&t, k0, 1);
    launch(&t, 4);
    issue_n(&t, 0, 1, 10);
    evict(&t, 0, 6, 10);
    miss(&t, 0, 6, 20);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    EXPECT_EQ_U(lls(&t, 0, 20), 100);
    EXPECT_EQ_U(loaders(&t, 4, 20), 0xF);
    prig_free(&t);
}

TEST(ccws_cutoff_admission_and_held_loads)
{
    Cs t;
    cs_make(&t, NULL, 0);
    launch(&t, 4); /* cutoff 400 */

    /* All at the base: every warp may load (4 x 100 reaches the cutoff only with the last). */
    EXPECT_EQ_U(loaders(&t, 4, 10), 0xF);
    EXPECT_EQ_U(prig_stat(&t, "decisions"), 1); /* one decision a cycle */
    EXPECT_EQ_U(prig_stat(&t, "admitted_sum"), 4);
    EXPECT_EQ_U(prig_stat(&t, "throttled"), 0);

    /* Warp 0 at 320 (as in the test above, from cycle 100): 320, then 420 with warp 1, the
     * warp that reaches the cutoff, admitted; warps 2 and 3 may not load, but issue adds. */
    issue_n(&t, 0, 10, 50);
    evict(&t, 0, 6, 60);
    miss(&t, 0, 6, 100);
    EXPECT_EQ_U(loaders(&t, 4, 100), 0x3);
    EXPECT(may(&t, 2, false, 100) && may(&t, 3, false, 100));
    EXPECT_EQ_U(prig_stat(&t, "held_loads"), 2);
    EXPECT_EQ_U(prig_stat(&t, "decisions"), 2);
    EXPECT_EQ_U(prig_stat(&t, "admitted_sum"), 6);
    EXPECT_EQ_U(prig_stat(&t, "throttled"), 1);
    /* As warp 0's score decays: 300 + 100 still reaches 400 at 120; 299 + 100 does not, warp 2
     * joins at 121; at 220, 200 + 100 + 100 reaches it; at 221 all four. */
    EXPECT_EQ_U(loaders(&t, 4, 120), 0x3);
    EXPECT_EQ_U(loaders(&t, 4, 121), 0x7);
    EXPECT_EQ_U(loaders(&t, 4, 220), 0x7);
    EXPECT_EQ_U(loaders(&t, 4, 221), 0xF);

    /* Ties go to the older warp: with slot 3 the oldest at the base, it is the one admitted. */
    prig_free(&t);
    cs_make(&t, NULL, 0);
    launch(&t, 4);
    ages[1] = 3, ages[2] = 2, ages[3] = 1;
    issue_n(&t, 0, 10, 50);
    evict(&t, 0, 6, 60);
    miss(&t, 0, 6, 100);
    EXPECT_EQ_U(loaders(&t, 4, 100), 0x9);

    /* A warp above the cutoff on its own is the only one admitted (a VTA hit after one
     * instruction: 1 / 1 * 8 * 400 = 3200). */
    prig_free(&t);
    cs_make(&t, NULL, 0);
    launch(&t, 4);
    issue_n(&t, 0, 1, 10);
    evict(&t, 0, 6, 10);
    miss(&t, 0, 6, 20);
    EXPECT_EQ_U(lls(&t, 0, 20), 3200);
    EXPECT_EQ_U(loaders(&t, 4, 20), 0x1);
    /* A warp waiting at a barrier takes no place: with warp 0 there, the others all load (300
     * of 400). The scheduler sees warp 0 waiting in barrier_mask. */
    view.barrier_mask = 1;
    EXPECT_EQ_U(loaders(&t, 4, 21) & 0xE, 0xE);
    view.barrier_mask = 0;
    EXPECT_EQ_U(loaders(&t, 4, 22), 0x1);
    prig_free(&t);
}

TEST(ccws_victim_tag_arrays)
{
    Cs t;
    cs_make(&t, NULL, 0); /* 16 entries a warp, 8-way: 2 sets, the line's low bit */
    launch(&t, 2);
    issue_n(&t, 0, 4, 1);
    issue_n(&t, 1, 4, 1);

    /* Eviction enters the owner's VTA: a later miss by that warp hits it (once: the hit takes
     * the entry), a miss by another warp does not. */
    evict(&t, 0, 100, 10);
    EXPECT_EQ_U(prig_stat(&t, "vta_inserts"), 1);
    miss(&t, 1, 100, 11);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    miss(&t, 0, 100, 12);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    miss(&t, 0, 100, 13);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 1);
    EXPECT_EQ_U(prig_stat(&t, "vta_probes"), 3);

    /* LRU within a set: line 1 in the odd set, then lines 0, 2, ..., 14 fill the even set; 0
     * again moves to MRU (no replacement); 16 then pushes out the LRU entry, 2. */
    evict(&t, 1, 1, 20);
    for (uint64_t line = 0; line <= 14; line += 2)
        evict(&t, 1, line, 20);
    evict(&t, 1, 0, 21);
    EXPECT_EQ_U(prig_stat(&t, "vta_replaced"), 0);
    evict(&t, 1, 16, 22);
    EXPECT_EQ_U(prig_stat(&t, "vta_replaced"), 1);
    const uint64_t hit[] = {0, 4, 16, 1, 14}, gone[] = {2};
    uint64_t before = prig_stat(&t, "vta_hits");
    for (uint32_t i = 0; i < ARRAY_LEN(hit); i++)
        miss(&t, 1, hit[i], 30);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), before + ARRAY_LEN(hit));
    miss(&t, 1, gone[0], 31);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), before + ARRAY_LEN(hit));

    /* An exited warp's VTA is emptied, and lines told for a slot with no live warp are
     * dropped: the slot's next warp starts with nothing lost. */
    evict(&t, 0, 40, 40);
    t.warp->on_warp_exit(t.self, 0);
    uint64_t inserts = prig_stat(&t, "vta_inserts");
    evict(&t, 0, 42, 41);
    EXPECT_EQ_U(prig_stat(&t, "vta_inserts"), inserts);
    t.warp->on_cta_launch(t.self, 1, 0, 1);
    before = prig_stat(&t, "vta_hits");
    miss(&t, 0, 40, 42);
    miss(&t, 0, 42, 42);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), before);
    prig_free(&t);

    /* Another geometry: 4 entries, 2-way (2 sets). */
    const char *small[] = {"vta_entries=4", "vta_ways=2"};
    cs_make(&t, small, 2);
    launch(&t, 1);
    issue_n(&t, 0, 1, 1);
    evict(&t, 0, 0, 2);
    evict(&t, 0, 2, 2);
    evict(&t, 0, 4, 2); /* pushes out 0 */
    evict(&t, 0, 3, 2); /* the other set */
    miss(&t, 0, 0, 3);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 0);
    miss(&t, 0, 2, 3);
    miss(&t, 0, 4, 3);
    miss(&t, 0, 3, 3);
    EXPECT_EQ_U(prig_stat(&t, "vta_hits"), 3);
    EXPECT_EQ_U(prig_stat(&t, "vta_replaced"), 1);
    prig_free(&t);
}

/* ---- on one SM --------------------------------------------------------------------------- */

static uint64_t sm_stat(const Rig *r, const char *name) { return test_stat(&r->st, "sm[0].sched.ccws.%s", name); }

TEST(ccws_vta_fed_by_the_l1d)
{
    /* Lines A, B, C and D share a set of the rig's 2-way L1D (allocate on miss, LRU). Warp 0
     * loads A, B, C (evicting A into its VTA) and A again (a VTA hit, evicting B into its VTA),
     * then waits at two barriers. Between them warp 1 loads B: a miss, but not in its own VTA;
     * it evicts C, warp 0's. After warp 0 has exited, warp 1 loads D (evicting A, whose warp
     * has exited: nobody's), C (not in its VTA: C went to warp 0's; evicting B, its own) and B
     * again: its VTA hit (evicting D, its own). */
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", "ccws", err, sizeof err));
    ASSERT(rig_start(r, 64, 1));
    const uint64_t A = 0x10000, B = 0x10200, C = 0x10400, D = 0x10600;
    const Tags *tg = &r->sm.l1d.tags;
    ASSERT(tags_set_of(tg, A) == tags_set_of(tg, B) && tags_set_of(tg, A) == tags_set_of(tg, C) &&
           tags_set_of(tg, A) == tags_set_of(tg, D));
    MockInst w0[] = {ld(1, A, 0), alu(2, 1), ld(3, B, 0), alu(4, 3), ld(5, C, 0), alu(6, 5),
                     ld(7, A, 0), alu(8, 7), bar(), bar(), ex()};
    MockInst w1[] = {bar(), ld(1, B, 0), alu(2, 1), bar(), alu(3, 0), alu(4, 3), alu(5, 4),
                     ld(6, D, 0), alu(7, 6), ld(8, C, 0), alu(9, 8), ld(10, B, 0), alu(11, 10), ex()};
    script(&r->f, 0, w0, 11);
    script(&r->f, 1, w1, 14);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 4000) && r->f.bad == 0 && r->n_done == 1);
    EXPECT(issued_at(&r->f, 0, 80) < issued_at(&r->f, 1, 56)); /* warp 0 exited before D */
    EXPECT_EQ_U(r->sm.l1d.miss, 8);
    EXPECT_EQ_U(sm_stat(r, "vta_probes"), 8);
    EXPECT_EQ_U(sm_stat(r, "vta_inserts"), 5); /* A, B, C into warp 0's; B, D into warp 1's */
    EXPECT_EQ_U(sm_stat(r, "vta_hits"), 2);    /* warp 0's A, warp 1's B */
    rig_free(r);
}

TEST(ccws_barrier_under_heavy_throttling)
{
    /* A CTA of 8 warps, each loading its own line of one L1D set (2 ways: they thrash), again
     * after a barrier, and again after a second. K_THROTTLE 64 gives a warp that loses its line
     * a score far above the cutoff: it alone loads. Warps at the barrier take no place, so the
     * ones it waits for get theirs and the CTA finishes. */
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", "ccws", err, sizeof err));
    ASSERT(config_set(&r->c, "sm.sched.ccws.k_throttle", "64", err, sizeof err));
    ASSERT(rig_start(r, 256, 1));
    for (uint32_t w = 0; w < 8; w++) {
        uint64_t x = 0x10000 + (uint64_t)w * 0x200, y = 0x40000 + (uint64_t)w * 0x200;
        MockInst p[] = {ld(1, x, 0), alu(2, 1), ld(3, y, 0), alu(4, 3), bar(), ld(5, x, 0), alu(6, 5),
                        ld(7, y, 0), alu(8, 7), bar(), ld(9, x, 0), alu(10, 9), ex()};
        script(&r->f, w, p, 13);
    }
    rig_launch(r, 0);
    ASSERT(rig_run(r, 100000));
    EXPECT_EQ_U(r->f.bad, 0);
    EXPECT_EQ_U(r->n_done, 1);
    EXPECT(sm_stat(r, "vta_hits") > 0);
    EXPECT(sm_stat(r, "held_loads") > 0);
    EXPECT(sm_stat(r, "throttled") > 0);
    EXPECT(sm_stat(r, "admitted_sum") < 8 * sm_stat(r, "decisions"));
    rig_free(r);
}

/* ---- whole runs ---------------------------------------------------------------------------- */

/* `warpsim run --preset oaws ARGS atax --size small`: its result file (the program's own
 * check passed, or the run fails); NULL (and a note) when the suite's atax is not built. */
static JsonValue *run_atax(const char *args, bool *skipped)
{
    char dir[512], host[1100], a[1000];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    snprintf(host, sizeof host, "%.*sworkloads/polybench/atax/host", slash ? (int)(slash - dir + 1) : 0, dir);
    *skipped = access(host, X_OK) != 0;
    if (*skipped) {
        printf("note ccws_runs_on_the_oaws_preset: %s is not built (make builds it): skipped\n", host);
        return NULL;
    }
    snprintf(a, sizeof a, "--preset oaws %s atax --size small", args);
    return test_run_json(a);
}

#define total test_total

TEST(ccws_runs_on_the_oaws_preset)
{
    bool skipped;
    JsonValue *gto = run_atax("", &skipped);
    if (skipped)
        return;
    JsonValue *ccws = run_atax("-o sm.sched=ccws", &skipped);
    JsonValue *k0 = run_atax("-o sm.sched=ccws -o sm.sched.ccws.k_throttle=0", &skipped);
    ASSERT(gto && ccws && k0);
    EXPECT_STR(json_str(json_get(ccws, "status")), "complete");
    /* ATAX's divergent loads thrash the L1D: warps lose their lines, CCWS throttles them and the
     * L1D misses less than under GTO. */
    EXPECT(total(ccws, "sm.sched.ccws.vta_hits") > 0);
    EXPECT(total(ccws, "sm.sched.ccws.held_loads") > 0);
    EXPECT(total(ccws, "sm.sched.ccws.throttled") > 0);
    EXPECT(total(ccws, "sm.sched.ccws.admitted_sum") < 8 * total(ccws, "sm.sched.ccws.decisions"));
    EXPECT(total(ccws, "sm.l1d.miss") < total(gto, "sm.l1d.miss"));
    /* K_THROTTLE 0 never raises a score: GTO, cycle for cycle. */
    EXPECT_EQ_U(total(k0, "sim.cycles"), total(gto, "sim.cycles"));
    EXPECT_EQ_U(total(k0, "sm.sched.ccws.held_loads"), 0);
    EXPECT(total(k0, "sm.sched.ccws.vta_hits") > 0);
    json_free(gto);
    json_free(ccws);
    json_free(k0);
}
