/* test_cerf.c: CERF, the register file and the L1D as one storage (Linebacker's comparison,
 * seeds/004 sec. 5): the register side's capacity from statically unused registers, lines the
 * L1D replaces kept there and served in place, LRU replacement, store invalidation, registers
 * taken back by CTAs, bank conflicts, bad options and a whole run. */
#include "../rf_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "core/regfile.h"
#include "exp/json.h"
#include "mem/l1d.h"
#include "policy/mpath/lb_vtt.h"
#include "policy/policy.h"
#include "stats/stats.h"

/* ---- the register side's shape -------------------------------------------------------- */

/* gtx980: 64 L1D sets and 2048 warp registers give 32 register-side ways; way w of set s is
 * register 64 w + s. A CTA of 420 warp registers (cfd's) takes RN 0..419, so ways 0..6 (RN
 * 0..447) are not usable: 25 ways = 1600 registers = 200 KB beyond the L1D's 48 KB. */
TEST(cerf_capacity_from_unused_registers)
{
    LbVtt v;
    lb_vtt_init(&v, 64, 1, 0, 2048, 2048 / 64);
    EXPECT_EQ_U(v.n_parts, 32);
    EXPECT_EQ_U(lb_vtt_rn(&v, 7, 5, 0), 7 * 64 + 5);
    Regfile rf;
    regfile_init(&rf, 65536, 32);
    RegfileView view = regfile_view(&rf, 0);
    EXPECT_EQ_U(lb_vtt_on_regfile(&v, &view), 0);
    EXPECT_EQ_U(v.n_usable, 32);
    EXPECT_EQ_U(v.usable_wregs, 2048);
    regfile_alloc(&rf, 0, 420, 100);
    view = regfile_view(&rf, 100);
    EXPECT_EQ_U(lb_vtt_on_regfile(&v, &view), 0);
    EXPECT_EQ_U(v.n_usable, 25);
    EXPECT_EQ_U(v.usable_wregs, 1600);
    LbVttSlot s;
    ASSERT(lb_vtt_insert(&v, 5, &s)); /* set 5, the first usable way: 7 */
    EXPECT_EQ_U(s.part, 7);
    EXPECT_EQ_U(s.rn, 453);
    ASSERT(lb_vtt_insert(&v, 64 + 5, &s)); /* same set, next way */
    EXPECT_EQ_U(s.rn, 8 * 64 + 5);
    /* a second CTA takes RN 420..839: ways 7..13 go (RN up to 895), with line 5 and line 69 */
    regfile_alloc(&rf, 1, 420, 300);
    view = regfile_view(&rf, 300);
    EXPECT_EQ_U(lb_vtt_on_regfile(&v, &view), 2);
    EXPECT_EQ_U(v.n_usable, 18);
    EXPECT(!lb_vtt_lookup(&v, 5, &s));
    /* the integral covers the sm.rf counters' window only, from the first CTA on: 1600 for 200
     * cycles (not the 2048 of the 100 cycles before it) */
    EXPECT_EQ_U(v.usable_cycles, 1600ull * 200);
    regfile_free(&rf);
    lb_vtt_free(&v);
}

/* ---- the component on an L1D's miss path ------------------------------------------------- */

typedef RfRig CerfRig;

/* A direct-mapped L1D of one set (every line conflicts) with CERF; a register file of n_wregs
 * warp registers, so the register side is one set of n_wregs ways (way w: register w). */
static void crig_init(CerfRig *r, uint32_t n_wregs, bool flush, const char *const *kv, uint32_t n)
{
    char err[512];
    rf_rig_config(r, n_wregs * 32);
    r->c.sm.l1d_flush = flush;
    CHECK(config_set(&r->c, "l1d.cerf", "on", err, sizeof err));
    rf_rig_options(r, "l1d.cerf", kv, n);
    rf_rig_start(r);
    rf_rig_tell_rf(r, 0);
}

#define crig_free rf_rig_free
#define crig_tell_rf rf_rig_tell_rf

/* A load of `line`; a miss's reply comes back at once (the next cycle). */
static L1dResult crig_load(CerfRig *r, uint64_t line, uint64_t now, uint32_t *lat)
{
    ReplAccess a = {.warp_uid = 1, .pc = 0x10};
    L1dResult res = l1d_load(&r->l1, line * 128, 0, &a, now, lat);
    MemReq *q;
    uint32_t tokens[64];
    while ((q = memreq_queue_pop(&r->l1.miss_q)) != NULL) {
        if (q->kind != MREQ_READ) {
            mempool_put(&r->pool, q);
            continue;
        }
        q->is_reply = true;
        CHECK(l1d_fill(&r->l1, q, tokens, now + 1) >= 0);
    }
    return res;
}

static uint64_t cerf_stat(const CerfRig *r, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "sm[0].l1d.cerf.%s", name);
    return stats_get(&r->st, key, NULL);
}

/* Four idle registers. Lines 0..4 in turn: each evicts the one before into the register side
 * (0 -> RN 0, 1 -> RN 1, 2 -> RN 2, 3 -> RN 3). A miss on line 0 is a register hit served in
 * place after the L1D hit latency plus lat (2): the L1D keeps line 4. Line 5 then evicts 4,
 * which replaces the least recently used register line: 1 (0 was just read). */
TEST(cerf_serves_register_hits_in_place_lru)
{
    static const char *const kv[] = {"lat=2"};
    CerfRig r;
    crig_init(&r, 4, false, kv, 1);
    uint32_t lat = 0;
    for (uint64_t line = 0; line < 5; line++)
        EXPECT_EQ_U(crig_load(&r, line, 10 * line, &lat), L1D_MISS);
    EXPECT_EQ_U(cerf_stat(&r, "insert"), 4);
    EXPECT_EQ_U(cerf_stat(&r, "replace"), 0);
    EXPECT_EQ_U(crig_load(&r, 0, 100, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 2);
    EXPECT_EQ_U(r.l1.mpath_hit, 1);
    EXPECT_EQ_U(cerf_stat(&r, "hit"), 1);
    EXPECT_EQ_U(crig_load(&r, 4, 101, &lat), L1D_HIT); /* still in the L1D */
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat);
    EXPECT_EQ_U(r.l1.mpath_hit, 1);
    EXPECT_EQ_U(crig_load(&r, 5, 110, &lat), L1D_MISS); /* 4 -> the register of line 1 */
    EXPECT_EQ_U(cerf_stat(&r, "replace"), 1);
    EXPECT_EQ_U(crig_load(&r, 1, 120, &lat), L1D_MISS);
    EXPECT_EQ_U(crig_load(&r, 0, 130, &lat), L1D_HIT);
    EXPECT_EQ_U(crig_load(&r, 4, 131, &lat), L1D_HIT); /* in a register now */
    EXPECT_EQ_U(cerf_stat(&r, "hit"), 3);
    EXPECT_EQ_U(cerf_stat(&r, "replace"), 2); /* 1's miss evicted 5: it replaced line 2 */
    EXPECT_EQ_U(cerf_stat(&r, "probe"), 10); /* every L1D miss: 7 to the L2, 3 register hits */
    crig_free(&r);
}

/* A store invalidates the register copy (the next load goes to the L2); a CTA that takes the
 * registers drops their lines and leaves no room; when it completes the space comes back. */
TEST(cerf_store_invalidates_cta_reclaims)
{
    CerfRig r;
    crig_init(&r, 2, false, NULL, 0);
    uint32_t lat;
    crig_load(&r, 0, 1, &lat);
    crig_load(&r, 1, 3, &lat); /* 0 -> RN 0 */
    crig_load(&r, 2, 5, &lat); /* 1 -> RN 1 */
    EXPECT_EQ_U(cerf_stat(&r, "insert"), 2);
    ReplAccess st = {.warp_uid = 1};
    EXPECT_EQ_U(l1d_store(&r.l1, 0, 4, &st, 10), L1D_SENT);
    EXPECT_EQ_U(cerf_stat(&r, "invalidate"), 1);
    EXPECT_EQ_U(crig_load(&r, 0, 11, &lat), L1D_MISS); /* 2 -> RN 0, the invalid way */
    EXPECT_EQ_U(cerf_stat(&r, "replace"), 0);
    EXPECT_EQ_U(crig_load(&r, 1, 13, &lat), L1D_HIT); /* served from RN 1 */
    regfile_alloc(&r.rf, 0, 1, 20);  /* a CTA of one warp register: RN 0, with line 2 */
    crig_tell_rf(&r, 20);
    EXPECT_EQ_U(cerf_stat(&r, "reclaim"), 1);
    EXPECT_EQ_U(crig_load(&r, 2, 21, &lat), L1D_MISS); /* 0 -> RN 1, the only way left: 1 goes */
    EXPECT_EQ_U(cerf_stat(&r, "replace"), 1);
    regfile_alloc(&r.rf, 1, 1, 30); /* RN 1, with line 0 */
    crig_tell_rf(&r, 30);
    EXPECT_EQ_U(cerf_stat(&r, "reclaim"), 2);
    EXPECT_EQ_U(crig_load(&r, 3, 31, &lat), L1D_MISS); /* 2 leaves the L1D: nowhere to go */
    EXPECT_EQ_U(cerf_stat(&r, "no_room"), 1);
    EXPECT_EQ_U(crig_load(&r, 1, 33, &lat), L1D_MISS); /* replaced at 21 */
    regfile_release(&r.rf, 1, 40);
    crig_tell_rf(&r, 40);
    crig_load(&r, 4, 41, &lat); /* 1 -> RN 1 */
    EXPECT_EQ_U(crig_load(&r, 1, 43, &lat), L1D_HIT);
    /* usable registers over time: 2 for [0,20) (before the first CTA: not counted, as in
     * sm.rf), 1 for [20,30), 0 for [30,40) */
    EXPECT_EQ_U(cerf_stat(&r, "usable_cycles"), 1 * 10);
    crig_free(&r);
}

/* One bank: three register hits in one cycle wait 0, 1 and 2 cycles; a hit in the cycle a line
 * moves in waits for that write. */
TEST(cerf_bank_conflict_adds_latency)
{
    static const char *const kv[] = {"banks=1"};
    CerfRig r;
    crig_init(&r, 4, false, kv, 1);
    uint32_t lat;
    for (uint64_t line = 0; line < 3; line++) /* 0 and 1 in registers, 2 in the L1D */
        crig_load(&r, line, 10 * line, &lat);
    EXPECT_EQ_U(cerf_stat(&r, "bank_conflict"), 0);
    EXPECT_EQ_U(crig_load(&r, 0, 50, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat);
    EXPECT_EQ_U(crig_load(&r, 1, 50, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 1);
    EXPECT_EQ_U(crig_load(&r, 0, 50, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 2);
    EXPECT_EQ_U(cerf_stat(&r, "bank_conflict"), 2);
    EXPECT_EQ_U(cerf_stat(&r, "bank_wait"), 3);
    /* a line moving in at 60 takes the bank: a hit at 60 waits for it */
    crig_load(&r, 3, 60, &lat); /* 2 -> a register at 60 */
    EXPECT_EQ_U(crig_load(&r, 1, 60, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 1);
    crig_free(&r);
}

/* With sm.l1d_flush the register side is emptied at a kernel's start; without, it is kept. */
TEST(cerf_kernel_start_flush)
{
    for (int flush = 0; flush < 2; flush++) {
        CerfRig r;
        crig_init(&r, 2, flush, NULL, 0);
        uint32_t lat;
        crig_load(&r, 0, 1, &lat);
        crig_load(&r, 1, 3, &lat); /* 0 -> RN 0 */
        l1d_kernel_begin(&r.l1, 10);
        EXPECT_EQ_U(crig_load(&r, 0, 11, &lat), flush ? L1D_MISS : L1D_HIT);
        crig_free(&r);
    }
}

TEST(cerf_options_rejected)
{
    Config c;
    char err[256];
    config_init(&c);
    EXPECT(config_set(&c, "l1d.cerf", "on", err, sizeof err));
    EXPECT(policy_check_config(&c, err, sizeof err));
    EXPECT(config_set(&c, "l1d.cerf.banks", "0", err, sizeof err) == 0 || !policy_check_config(&c, err, sizeof err));
    config_init(&c);
    EXPECT(!config_set(&c, "l1d.cerf", "maybe", err, sizeof err));
    config_init(&c);
    EXPECT(config_set(&c, "l1d.cerf", "on", err, sizeof err));
    EXPECT(config_set(&c, "l1d.linebacker", "vc", err, sizeof err));
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "choose one");
    config_init(&c);
    EXPECT(config_set(&c, "l1d.cerf", "on", err, sizeof err));
    c.l1d.line_bytes = 64;
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "l1d.cerf: a line in the register file");
    config_init(&c);
    EXPECT(config_set(&c, "l2.cerf", "on", err, sizeof err));
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "l2.cerf");
}

/* ---- a whole run ----------------------------------------------------------------------- */

/* syrk-small on gtx980 (one CTA per busy SM: most of each register file is idle): the lines
 * the L1D replaces are served from registers, the run is shorter, the L1D sees the same
 * accesses, and the register side never holds more than the idle registers. */
TEST(cerf_runs_on_the_gtx980_preset)
{
    const char *wl = "workloads/synthetic/syrk-small.syn";
    char a[512];
    snprintf(a, sizeof a, "--preset gtx980 %s", wl);
    JsonValue *base = test_run_json(a);
    snprintf(a, sizeof a, "--preset gtx980 -o l1d.cerf=on %s", wl);
    JsonValue *cerf = test_run_json(a);
    ASSERT(base && cerf);
    EXPECT(test_total(cerf, "sm.l1d.cerf.hit") > 0);
    EXPECT_EQ_U(test_total(cerf, "sm.l1d.cerf.hit"), test_total(cerf, "sm.l1d.mpath_hit"));
    EXPECT(test_total(cerf, "sm.l1d.miss") < test_total(base, "sm.l1d.miss"));
    EXPECT(test_total(cerf, "sim.cycles") < test_total(base, "sim.cycles"));
    EXPECT_EQ_U(test_total(cerf, "sm.l1d.access"), test_total(base, "sm.l1d.access"));
    EXPECT(test_total(cerf, "sm.l1d.cerf.insert") > 0);
    EXPECT(test_total(cerf, "sm.l1d.cerf.usable_cycles") > 0);
    EXPECT(test_total(base, "sm.l1d.cerf.hit") < 0); /* no component, no stats: the default is unchanged */
    json_free(base);
    json_free(cerf);
}
