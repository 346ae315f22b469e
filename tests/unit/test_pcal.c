/* test_pcal.c: PCAL (src/policy/warp/pcal_core.c, statpcal.c, pcal.c). The schedulers driven
 * through their hooks with hand-made views: tokens by age, barriers, the bandwidth
 * re-activation against a hand-made MemBusy; on one SM (tests/sm_rig.h): a warp without a token
 * misses past the L1D while the token holder allocates; the hill-climbing on a made-up IPC
 * series, alone and through the scheduler's windows. */
#include "../policy_rig.h"
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "exp/json.h"
#include "mem/tags.h"
#include "policy/policy.h"
#include "policy/warp/pcal.h"
#include "stats/stats.h"

#include <stdio.h>
#include <string.h>

/* One scheduler of a one-scheduler SM with n warps; slot s has age ages[s]. */
typedef struct Pc {
    PolicyRig p;
    WarpSlotInfo slot[64];
    uint64_t age[64];
    SmView view;
    uint64_t valid;
} Pc;

static void pc_make(Pc *t, const char *name, const char *const *kv, uint32_t n_kv, const uint64_t *ages, uint32_t n)
{
    memset(t, 0, sizeof *t);
    prig_warp(&t->p, name, kv, n_kv);
    t->view = (SmView){.max_warps = 48, .n_sched = 1, .mshr_free = 32, .slot = t->slot};
    for (uint32_t i = 0; i < n; i++) {
        t->slot[i] = (WarpSlotInfo){.live = true, .has_next = true, .age = ages[i], .next_lanes = 32};
        t->age[i] = ages[i];
        t->valid |= 1ull << i;
    }
    t->view.live_mask = t->valid;
    t->view.live_warps = n;
}

/* The ready warps (all valid ones) the scheduler lets issue at `cycle`. */
static uint64_t pc_allowed(Pc *t, uint64_t cycle)
{
    WarpSchedView v = {.ready = t->valid, .valid = t->valid, .age = t->age, .cycle = cycle, .sm = &t->view};
    uint64_t allowed = 0;
    for (uint64_t m = t->valid; m; m &= m - 1) {
        uint32_t s = (uint32_t)__builtin_ctzll(m);
        if (t->p.warp->may_issue(t->p.self, s, &t->slot[s], &v))
            allowed |= 1ull << s;
    }
    return allowed;
}

/* Bit s: slot s holds a token. */
static uint64_t pc_tokens(const Pc *t)
{
    uint64_t tok = 0;
    for (uint32_t s = 0; s < 64; s++)
        tok |= (uint64_t)(pcal_group(t->p.self, s) == 2) << s;
    return tok;
}

TEST(pcal_tokens_go_to_the_oldest)
{
    /* Five warps whose launch order is not their slot order: the oldest are 1, 3, 4, 2, 0. With
     * three active and two tokens: 1 and 3 cache, 4 issues without a token, 2 and 0 wait. */
    static const uint64_t ages[] = {40, 10, 30, 11, 20};
    static const char *const kv[] = {"warps=3", "tokens=2"};
    Pc t;
    pc_make(&t, "statpcal", kv, 2, ages, 5);
    EXPECT_EQ_U(pc_allowed(&t, 1), 0x1A);
    EXPECT_EQ_U(pc_tokens(&t), 0x0A);
    EXPECT_EQ_I(pcal_group(t.p.self, 4), 1);
    EXPECT_EQ_I(pcal_group(t.p.self, 2), 0);
    /* the L1D asks: token holders allocate, the others bypass */
    EXPECT(!t.p.warp->bypass_l1d(t.p.self, 1, 1));
    EXPECT(t.p.warp->bypass_l1d(t.p.self, 4, 1));
    EXPECT_EQ_U(prig_stat(&t.p, "bypass_lookups"), 1);
    EXPECT_EQ_U(prig_stat(&t.p, "token_grants"), 2);
    /* Warp 1 exits: 3 and 4 hold the tokens, 2 becomes active without one. */
    t.p.warp->on_warp_exit(t.p.self, 1);
    t.valid &= ~2ull;
    EXPECT_EQ_U(pc_allowed(&t, 5), 0x1C);
    EXPECT_EQ_U(pc_tokens(&t), 0x18);
    EXPECT_EQ_U(prig_stat(&t.p, "token_grants"), 3);
    /* Warp 3 waits at a barrier: it takes no place, so 0 gets one (4 and 2 the tokens). */
    t.view.barrier_mask = 0x8;
    EXPECT_EQ_U(pc_allowed(&t, 6), 0x15);
    EXPECT_EQ_U(pc_tokens(&t), 0x14);
    /* warp-cycles, counted from the first look (cycle 1): cycles 1..5 with 1 token (1's went
     * with it), 1 active without one and 2 throttled; cycle 5..6 with 2 + 1 + 1 */
    EXPECT_EQ_U(prig_stat(&t.p, "token_warp_cycles"), 4 + 2);
    EXPECT_EQ_U(prig_stat(&t.p, "nontoken_warp_cycles"), 4 + 1);
    EXPECT_EQ_U(prig_stat(&t.p, "throttled_warp_cycles"), 8 + 1);
    prig_free(&t.p);
}

TEST(pcal_a_slot_taken_by_a_new_warp_between_looks)
{
    /* Five warps of one-warp CTAs, ages 10..14, four active. Warp 0 exits and, before the
     * scheduler looks again, a new CTA's warp (age 20) takes slot 0: the live mask is the same,
     * but the place goes to the oldest throttled warp (4), not to the newcomer. */
    static const uint64_t ages[] = {10, 11, 12, 13, 14};
    static const char *const kv[] = {"warps=4", "tokens=4", "bw_thresh=0"};
    Pc t;
    pc_make(&t, "statpcal", kv, 3, ages, 5);
    EXPECT_EQ_U(pc_allowed(&t, 1), 0x0F);
    t.p.warp->on_warp_exit(t.p.self, 0);
    t.age[0] = t.slot[0].age = 20;
    EXPECT_EQ_U(pc_allowed(&t, 2), 0x1E);
    EXPECT_EQ_U(pc_tokens(&t), 0x1E);
    /* Each of the four active warps replaced in turn (gaussian's ge_fan2 at small size): the
     * newcomers are active again once they are the oldest. Keyed on the live mask alone, every
     * slot ended up outside `active` and nothing could issue (the statPCAL deadlock). */
    for (uint32_t s = 1; s <= 4; s++) {
        t.p.warp->on_warp_exit(t.p.self, s);
        t.age[s] = t.slot[s].age = 20 + s;
    }
    EXPECT_EQ_U(pc_allowed(&t, 3), 0x0F);
    EXPECT_EQ_U(pc_tokens(&t), 0x0F);
    prig_free(&t.p);
}

TEST(pcal_options_are_range_checked)
{
    /* the registry checks each option's range (tokens > warps is refused when statpcal is made:
     * a fatal error, not testable here) */
    Config c;
    char err[256];
    config_init(&c);
    EXPECT(config_set(&c, "sm.sched", "statpcal", err, sizeof err));
    EXPECT(!config_set(&c, "sm.sched.statpcal.bw_thresh", "1.5", err, sizeof err) ||
           !policy_check_config(&c, err, sizeof err));
    config_init(&c);
    EXPECT(config_set(&c, "sm.sched", "pcal", err, sizeof err));
    EXPECT(!config_set(&c, "sm.sched.pcal.step", "0", err, sizeof err) || !policy_check_config(&c, err, sizeof err));
}

/* ---- the bandwidth re-activation ------------------------------------------------------------ */

typedef struct Mem {
    MemBusy b;
    uint64_t l2_clock, dram_clock;
} Mem;

/* One window of 100 L2 and 100 DRAM cycles with the given utilisations (2 slices, 2 channels). */
static void mem_window(Mem *m, double l2, double dram)
{
    m->l2_clock += 100;
    m->dram_clock += 100;
    m->b.l2_requests += (uint64_t)(l2 * 200);
    m->b.dram_busy_cycles += (uint64_t)(dram * 200);
}

TEST(pcal_reactivates_throttled_warps_when_bandwidth_is_under_used)
{
    static const uint64_t ages[] = {0, 1, 2, 3};
    static const char *const kv[] = {"warps=1", "tokens=1", "bw_thresh=0.5", "bw_window=100"};
    Pc t;
    Mem m = {0};
    m.b = (MemBusy){.l2_cycle = &m.l2_clock, .dram_cycle = &m.dram_clock, .n_l2_slices = 2, .n_dram_channels = 2};
    pc_make(&t, "statpcal", kv, 4, ages, 4);
    t.view.mem = &m.b;
    EXPECT_EQ_U(pc_allowed(&t, 0), 0x1); /* the first window starts */
    /* DRAM busy 80%: nothing re-activated */
    mem_window(&m, 0.1, 0.8);
    EXPECT_EQ_U(pc_allowed(&t, 100), 0x1);
    EXPECT_EQ_U(prig_stat(&t.p, "bw_windows"), 1);
    EXPECT_EQ_U(prig_stat(&t.p, "bw_reactivated"), 0);
    /* the L2 busy, the DRAM not: still nothing */
    mem_window(&m, 0.6, 0.2);
    EXPECT_EQ_U(pc_allowed(&t, 200), 0x1);
    /* not a window yet (150 < 300): nothing is decided */
    mem_window(&m, 0.1, 0.1);
    EXPECT_EQ_U(pc_allowed(&t, 250), 0x1);
    EXPECT_EQ_U(prig_stat(&t.p, "bw_windows"), 2);
    /* both under-used: the oldest throttled warp issues, without a token */
    EXPECT_EQ_U(pc_allowed(&t, 300), 0x3);
    EXPECT_EQ_U(pc_tokens(&t), 0x1);
    EXPECT(t.p.warp->bypass_l1d(t.p.self, 1, 1));
    mem_window(&m, 0.2, 0.3);
    EXPECT_EQ_U(pc_allowed(&t, 400), 0x7);
    EXPECT_EQ_U(prig_stat(&t.p, "bw_reactivated"), 2);
    /* busy again: one fewer per window */
    mem_window(&m, 0.2, 0.9);
    EXPECT_EQ_U(pc_allowed(&t, 500), 0x3);
    EXPECT_EQ_U(prig_stat(&t.p, "bw_deactivated"), 1);
    EXPECT_EQ_U(prig_stat(&t.p, "extra_max"), 2);
    /* a new kernel: nothing re-activated */
    t.p.warp->on_kernel_start(t.p.self, NULL);
    EXPECT_EQ_U(pc_allowed(&t, 600), 0x1);
    prig_free(&t.p);
}

TEST(pcal_bw_thresh_0_never_reactivates)
{
    static const uint64_t ages[] = {0, 1, 2};
    static const char *const kv[] = {"warps=1", "tokens=0", "bw_thresh=0", "bw_window=100"};
    Pc t;
    Mem m = {0};
    m.b = (MemBusy){.l2_cycle = &m.l2_clock, .dram_cycle = &m.dram_clock, .n_l2_slices = 2, .n_dram_channels = 2};
    pc_make(&t, "statpcal", kv, 4, ages, 3);
    t.view.mem = &m.b;
    for (uint64_t c = 0; c <= 500; c += 100) {
        mem_window(&m, 0, 0);
        EXPECT_EQ_U(pc_allowed(&t, c), 0x1);
    }
    EXPECT_EQ_U(pc_tokens(&t), 0); /* no token: even the one active warp bypasses */
    EXPECT(t.p.warp->bypass_l1d(t.p.self, 0, 1));
    EXPECT_EQ_U(prig_stat(&t.p, "bw_windows"), 0);
    prig_free(&t.p);
}

/* ---- on one SM: the bypass -------------------------------------------------------------------- */

TEST(pcal_nontoken_miss_bypasses_the_l1d)
{
    /* Two warps, one token. Warp 0 (the older, with the token) loads A, warp 1 (without) loads
     * B; after a barrier warp 0 loads B and warp 1 loads A. A was allocated: warp 1's load of
     * it hits (a warp without a token is served by hits). B was not: warp 0's load misses. */
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", "statpcal", err, sizeof err));
    ASSERT(config_set(&r->c, "sm.sched.statpcal.warps", "2", err, sizeof err));
    ASSERT(config_set(&r->c, "sm.sched.statpcal.tokens", "1", err, sizeof err));
    ASSERT(rig_start(r, 64, 1));
    const uint64_t A = 0x10000, B = 0x10080;
    MockInst w0[] = {ld(1, A, 0), alu(2, 1), bar(), ld(3, B, 0), alu(4, 3), ex()};
    MockInst w1[] = {ld(1, B, 0), alu(2, 1), bar(), alu(5, 0), alu(6, 5), ld(3, A, 0), alu(4, 3), ex()};
    script(&r->f, 0, w0, 6);
    script(&r->f, 1, w1, 8);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 4000) && r->f.bad == 0 && r->n_done == 1);
    EXPECT_EQ_U(r->sm.l1d.miss, 3);
    EXPECT_EQ_U(r->sm.l1d.hit, 1);
    EXPECT_EQ_U(r->sm.l1d.bypass_sched, 1);
    EXPECT_EQ_U(r->sm.l1d.bypass, 1);
    EXPECT_EQ_U(test_stat(&r->st, "sm[0].sched.statpcal.bypassed"), 1);
    EXPECT_EQ_U(test_stat(&r->st, "sm[0].sched.statpcal.bypass_lookups"), 2);
    uint32_t way;
    const Tags *tg = &r->sm.l1d.tags;
    EXPECT_EQ_U(tags_probe(tg, A, tags_set_of(tg, A), &way), TAGS_HIT);
    EXPECT_EQ_U(tags_probe(tg, B, tags_set_of(tg, B), &way), TAGS_HIT); /* warp 0 brought it in */
    rig_free(r);
}

/* ---- dynamic PCAL: hill-climbing ------------------------------------------------------------ */

TEST(pcal_climb_steps_on_a_metric_series)
{
    PcalClimb c;
    pcal_climb_start(&c, 8, 2);
    EXPECT_EQ_U(c.phase, PCAL_WARMUP);
    pcal_climb_window(&c, 9.0); /* the warm-up is not measured */
    EXPECT_EQ_U(c.phase, PCAL_SEARCH_WARPS);
    EXPECT_EQ_U(c.warps, 8);
    /* IPC per window with (warps, tokens): (8,8) 1.0, (6,6) 1.2, (4,4) 1.5, (2,2) 1.1 */
    static const double ipc[] = {1.0, 1.2, 1.5, 1.1};
    static const uint32_t next_warps[] = {6, 4, 2, 4};
    for (int i = 0; i < 4; i++) {
        pcal_climb_window(&c, ipc[i]);
        EXPECT_EQ_U(c.warps, next_warps[i]);
    }
    /* back at 4 warps; the token search starts from 4 tokens: its first step runs with 2 */
    EXPECT_EQ_U(c.phase, PCAL_SEARCH_TOKENS);
    EXPECT_EQ_U(c.tokens, 2);
    pcal_climb_window(&c, 1.5); /* ties are kept: fewer tokens for the same IPC */
    EXPECT_EQ_U(c.tokens, 0);
    EXPECT_EQ_U(c.warps, 4);
    pcal_climb_window(&c, 1.4); /* worse: back to 2 tokens, settled */
    EXPECT_EQ_U(c.phase, PCAL_SETTLED);
    EXPECT_EQ_U(c.tokens, 2);
    EXPECT_EQ_U(c.warps, 4);
    pcal_climb_window(&c, 100.0);
    EXPECT_EQ_U(c.tokens, 2);
    EXPECT_EQ_U(c.warps, 4);

    /* a first step that is worse: back to the start, then the tokens */
    pcal_climb_start(&c, 3, 1);
    pcal_climb_window(&c, 0.0);
    pcal_climb_window(&c, 2.0);
    EXPECT_EQ_U(c.warps, 2);
    pcal_climb_window(&c, 1.9);
    EXPECT_EQ_U(c.warps, 3);
    EXPECT_EQ_U(c.tokens, 2);
    /* down to one warp: the warp search ends there */
    pcal_climb_start(&c, 2, 4);
    pcal_climb_window(&c, 0.0);
    pcal_climb_window(&c, 1.0);
    EXPECT_EQ_U(c.warps, 1);
    pcal_climb_window(&c, 1.0);
    EXPECT_EQ_U(c.phase, PCAL_SEARCH_TOKENS);
    EXPECT_EQ_U(c.warps, 1);
    EXPECT_EQ_U(c.tokens, 0);
}

TEST(pcal_windows_drive_the_search)
{
    /* pcal on a 6-warp scheduler, windows of 100 cycles, step 2; the SM's instruction count is
     * made up so that each window's IPC is the one wanted. */
    static const uint64_t ages[] = {0, 1, 2, 3, 4, 5};
    static const char *const kv[] = {"window=100", "step=2", "bw_thresh=0"};
    Pc t;
    pc_make(&t, "pcal", kv, 3, ages, 6);
    FrontKernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "k1");
    t.p.warp->on_kernel_start(t.p.self, &k);
    EXPECT_EQ_U(pc_allowed(&t, 0), 0x3F); /* starts as GTO: all active, all with tokens */
    EXPECT_EQ_U(pc_tokens(&t), 0x3F);
    /* warm-up; then (6,6) IPC 1, (4,4) IPC 2, (2,2) IPC 1.5: back to 4 warps, tokens 2 */
    static const double ipc[] = {3.0, 1.0, 2.0, 1.5};
    static const uint64_t allowed[] = {0x3F, 0x0F, 0x03, 0x0F};
    static const uint64_t tokens[] = {0x3F, 0x0F, 0x03, 0x03};
    for (int i = 0; i < 4; i++) {
        t.view.warp_insts += (uint64_t)(ipc[i] * 100);
        EXPECT_EQ_U(pc_allowed(&t, 100 * (uint64_t)(i + 1)), allowed[i]);
        EXPECT_EQ_U(pc_tokens(&t), tokens[i]);
    }
    EXPECT_EQ_U(prig_stat(&t.p, "windows"), 4);
    EXPECT_EQ_U(prig_stat(&t.p, "warp_changes"), 4);  /* 24 (the start) -> 6 -> 4 -> 2 -> 4 */
    EXPECT_EQ_U(prig_stat(&t.p, "token_changes"), 3); /* 24 -> 6 -> 4 -> 2 (-> 2) */
    /* (4,2) IPC 1.0: worse, settled at (4,4) */
    t.view.warp_insts += 100;
    EXPECT_EQ_U(pc_allowed(&t, 500), 0x0F);
    EXPECT_EQ_U(pc_tokens(&t), 0x0F);
    EXPECT_EQ_U(prig_stat(&t.p, "settled"), 1);
    EXPECT_EQ_U(prig_stat(&t.p, "settled_warps_sum"), 4);
    EXPECT_EQ_U(prig_stat(&t.p, "settled_tokens_sum"), 4);
    /* the same kernel again keeps the setting; another starts a new search */
    t.p.warp->on_kernel_start(t.p.self, &k);
    EXPECT_EQ_U(pc_allowed(&t, 600), 0x0F);
    snprintf(k.name, sizeof k.name, "k2");
    t.p.warp->on_kernel_start(t.p.self, &k);
    EXPECT_EQ_U(pc_allowed(&t, 700), 0x3F);
    EXPECT_EQ_U(prig_stat(&t.p, "searches"), 2);
    prig_free(&t.p);
}

/* ---- whole runs ------------------------------------------------------------------------------ */

#define total test_total

TEST(pcal_whole_runs_on_syrk_small)
{
    const char *w = "workloads/synthetic/syrk-small.syn";
    char a[4][256];
    snprintf(a[0], sizeof a[0], "%s", w);
    /* every warp active with a token, no re-activation: GTO, cycle for cycle */
    snprintf(a[1], sizeof a[1], "-o sm.sched=statpcal -o sm.sched.statpcal.warps=64 -o sm.sched.statpcal.tokens=64 "
             "-o sm.sched.statpcal.bw_thresh=0 %s", w);
    snprintf(a[2], sizeof a[2], "-o sm.sched=statpcal -o sm.sched.statpcal.warps=2 -o sm.sched.statpcal.tokens=1 %s", w);
    /* a window longer than the run: the search never leaves its start, GTO */
    snprintf(a[3], sizeof a[3], "-o sm.sched=pcal -o sm.sched.pcal.window=100000000 %s", w);
    JsonValue *j[4];
    for (int i = 0; i < 4; i++)
        j[i] = test_run_json(a[i]);
    ASSERT(j[0] && j[1] && j[2] && j[3]);
    EXPECT_EQ_U(total(j[1], "sim.cycles"), total(j[0], "sim.cycles"));
    EXPECT_EQ_U(total(j[1], "sm.l1d.bypass"), 0);
    EXPECT_EQ_U(total(j[3], "sim.cycles"), total(j[0], "sim.cycles"));
    EXPECT_EQ_U(total(j[3], "sm.sched.pcal.windows"), 0);
    /* one token per scheduler: the others' misses bypass, and the counts agree */
    EXPECT_STR(json_str(json_get(j[2], "status")), "complete");
    EXPECT(total(j[2], "sm.l1d.bypass_sched") > 0);
    EXPECT_EQ_U(total(j[2], "sm.l1d.bypass_sched"), total(j[2], "sm.sched.statpcal.bypassed"));
    EXPECT(total(j[2], "sm.sched.statpcal.bypass_lookups") >= total(j[2], "sm.sched.statpcal.bypassed"));
    EXPECT(total(j[2], "sm.sched.statpcal.throttled_warp_cycles") > 0);
    for (int i = 0; i < 4; i++)
        json_free(j[i]);
}

TEST(statpcal_completes_one_warp_ctas)
{
    /* One-warp CTAs whose slots are taken by new warps while the others wait for memory: the
     * run deadlocked (every warp held) when the groups were cached by the live mask alone. */
    JsonValue *j = test_run_json("-o sm.sched=statpcal workloads/synthetic/onewarp-ctas.syn");
    ASSERT(j);
    EXPECT_STR(json_str(json_get(j, "status")), "complete");
    EXPECT_EQ_U(total(j, "sm.ctas_done"), 1920);
    json_free(j);
}

/* ---- the sm.sched.active_warps series (WarpSchedOps.throttled) ------------------------------ */

TEST(sched_active_warps_series_leaves_out_throttled_warps)
{
    const char *w = "workloads/synthetic/syrk-small.syn"; /* 64 CTAs of 8 warps on 30 SMs */
    char a[2][256];
    snprintf(a[0], sizeof a[0], "-o gpu.sample_cycles=2000 %s", w);
    snprintf(a[1], sizeof a[1], "-o gpu.sample_cycles=2000 -o sm.sched=swl -o sm.sched.swl.limit=1 %s", w);
    JsonValue *j[2];
    for (int i = 0; i < 2; i++)
        j[i] = test_run_json(a[i]);
    ASSERT(j[0] && j[1]);
    const JsonValue *gto_act = json_get(json_get(j[0], "series"), "sm.sched.active_warps");
    const JsonValue *gto_res = json_get(json_get(j[0], "series"), "sm.active_warps");
    const JsonValue *swl_act = json_get(json_get(j[1], "series"), "sm.sched.active_warps");
    const JsonValue *swl_res = json_get(json_get(j[1], "series"), "sm.active_warps");
    ASSERT(gto_act && gto_res && swl_act && swl_res && gto_act->n > 2 && swl_act->n > 2);
    /* GTO throttles nothing: every live warp counts (the resident ones, sm.active_warps, also
     * count the exited warps of CTAs still running); 512 warps are resident at first */
    EXPECT_EQ_U((uint64_t)json_number(&gto_res->items[0], -1), 512);
    EXPECT(json_number(&gto_act->items[0], 0) > 480);
    for (uint32_t i = 0; i < gto_act->n; i++)
        EXPECT(json_number(&gto_act->items[i], 999) <= json_number(&gto_res->items[i], -1));
    /* SWL with one warp per scheduler: two per SM (2 schedulers, 30 SMs), all SMs busy at first */
    EXPECT(json_number(&swl_res->items[0], 0) > 60);
    EXPECT_EQ_U((uint64_t)json_number(&swl_act->items[0], -1), 60);
    for (uint32_t i = 0; i < swl_act->n; i++)
        EXPECT(json_number(&swl_act->items[i], 99) <= 60);
    for (int i = 0; i < 2; i++)
        json_free(j[i]);
}
