/* test_linebacker.c: Linebacker (seeds/004): the register file's idle space (SUR, DUR), the
 * Load Monitor's classification over windows, the Victim Tag Table's register numbers (eq. 2)
 * and replacement, and the register-file victim cache on an L1D's miss path (selection by the
 * line's last load, register hits served in place, store invalidation, partitions reclaimed by
 * CTAs, bank conflicts). */
#include "../rf_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "core/regfile.h"
#include "exp/json.h"
#include "mem/l1d.h"
#include "policy/mpath/lb_ctl.h"
#include "policy/mpath/lb_monitor.h"
#include "policy/mpath/lb_vtt.h"
#include "policy/policy.h"
#include "stats/stats.h"

/* The gtx980 file: 65536 registers = 2048 warp registers; CTAs of 256 threads x 24 registers
 * take 8 warps x 768 = 6144 registers = 192 warp registers each, first fit from RN 0. */
TEST(linebacker_regfile_sur_dur_and_lrn)
{
    Regfile rf;
    regfile_init(&rf, 65536, 32);
    EXPECT_EQ_U(rf.n_wregs, 2048);
    EXPECT_EQ_U(regfile_warp_regs(6144), 192);
    EXPECT_EQ_U(regfile_alloc(&rf, 0, 192, 0), 0);
    EXPECT_EQ_U(regfile_alloc(&rf, 1, 192, 0), 192);
    EXPECT_EQ_U(regfile_alloc(&rf, 2, 192, 0), 384);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 576);
    EXPECT_EQ_U(regfile_dur(&rf), 0);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 576);
    EXPECT(!regfile_range_idle(&rf, 575, 1));
    EXPECT(regfile_range_idle(&rf, 576, 2048 - 576));
    EXPECT(!regfile_range_idle(&rf, 576, 2048 - 575)); /* leaves the file */
    /* throttling the last CTA: its registers become DUR, LRN drops to CTA 1's last */
    regfile_set_active(&rf, 2, false, 100);
    EXPECT_EQ_U(regfile_dur(&rf), 192);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 576);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 384);
    EXPECT(regfile_range_idle(&rf, 384, 192));
    RegfileView v = regfile_view(&rf, 100);
    EXPECT(regfile_view_idle(&v, 384) && !regfile_view_idle(&v, 383) && !regfile_view_idle(&v, 2048));
    EXPECT_EQ_U(v.sur + v.dur, 2048 - 384);
    /* CTA 0 completes: a hole at 0 that the next CTA of the same size takes */
    regfile_release(&rf, 0, 300);
    EXPECT_EQ_U(regfile_sur(&rf), 2048 - 384);
    EXPECT_EQ_U(regfile_alloc(&rf, 0, 192, 300), 0);
    regfile_set_active(&rf, 2, true, 400);
    EXPECT_EQ_U(regfile_dur(&rf), 0);
    EXPECT_EQ_U(regfile_lrn_end(&rf), 576);
    /* the integrals: 1472 SUR for 300 cycles, 1664 for 0..100 cycles more ... */
    regfile_kernel_end(&rf, 500);
    /* SUR: 1472 x [0,300) + 1664 x [300,300) + 1472 x [300,500) = 1472 x 500;
     * DUR: 192 x [100,400) */
    EXPECT_EQ_U(rf.sur_cycles, 1472ull * 500);
    EXPECT_EQ_U(rf.dur_cycles, 192ull * 300);
    EXPECT_EQ_U(rf.cycles, 500);
    regfile_free(&rf);
}

/* ---- Load Monitor ---------------------------------------------------------------------- */

static void accesses(LbMonitor *m, uint32_t pc, uint32_t hits, uint32_t misses, uint64_t now)
{
    for (uint32_t i = 0; i < hits; i++)
        lb_monitor_access(m, pc, true, now);
    for (uint32_t i = 0; i < misses; i++)
        lb_monitor_access(m, pc, false, now);
}

TEST(linebacker_lm_hashed_pc)
{
    EXPECT_EQ_U(lb_hpc(0x10), 16);
    EXPECT_EQ_U(lb_hpc(0x3e0), 31);          /* bits 5..9 */
    EXPECT_EQ_U(lb_hpc(0x3f0), 31 ^ 16);
    EXPECT_EQ_U(lb_hpc(0xffffffffu), 3);     /* six 5-bit pieces of 31 cancel; the top 2 bits are 3 */
}

/* Windows of 100 cycles, 20%: load A (pc 0x10) hits 3 of 10 (30%: high), B (pc 0x18) 2 of 10
 * (20%: not above the threshold). A is high in windows 1 and 2: selected; B is not. */
TEST(linebacker_lm_two_windows_select)
{
    LbMonitor m;
    lb_monitor_start(&m, 100, 20, 1000);
    accesses(&m, 0x10, 3, 7, 1010);
    accesses(&m, 0x18, 2, 8, 1020);
    EXPECT_EQ_U(m.state, LB_MONITORING);
    accesses(&m, 0x10, 5, 5, 1150); /* ends window 1: A high */
    EXPECT_EQ_U(m.windows, 1);
    EXPECT_EQ_U(m.e[16].valid, 1);
    EXPECT_EQ_U(m.e[24].valid, 0);
    EXPECT_EQ_U(m.e[16].pc, 0x10);
    EXPECT_EQ_U(m.e[16].hit, 5); /* counts restart, the pc and valid field stay */
    accesses(&m, 0x18, 1, 1, 1160); /* B 50% now: high in window 2 only */
    lb_monitor_advance(&m, 1199);
    EXPECT_EQ_U(m.state, LB_MONITORING);
    lb_monitor_advance(&m, 1200);
    EXPECT_EQ_U(m.state, LB_SELECTED);
    EXPECT_EQ_U(m.windows, 2);
    EXPECT_EQ_U(m.selected, 1u << 16); /* B has one bit: not selected */
    EXPECT(lb_monitor_selects(&m, 16) && !lb_monitor_selects(&m, 24));
    accesses(&m, 0x18, 9, 0, 1300); /* monitoring is over: nothing counts */
    EXPECT_EQ_U(m.e[24].hit, 0);
}

/* A and B high in window 1, only A in window 2 (a subset): nothing is tagged and monitoring goes
 * on; A high again in window 3: A selected. */
TEST(linebacker_lm_subset_keeps_monitoring)
{
    LbMonitor m;
    lb_monitor_start(&m, 100, 20, 0);
    accesses(&m, 0x10, 5, 5, 10);
    accesses(&m, 0x18, 5, 5, 20);
    accesses(&m, 0x10, 5, 5, 110);
    accesses(&m, 0x18, 1, 9, 120);
    lb_monitor_advance(&m, 200);
    EXPECT_EQ_U(m.windows, 2);
    EXPECT_EQ_U(m.state, LB_MONITORING);
    accesses(&m, 0x10, 5, 5, 210);
    lb_monitor_advance(&m, 300);
    EXPECT_EQ_U(m.state, LB_SELECTED);
    EXPECT_EQ_U(m.selected, 1u << 16);
}

/* No high load in the first two windows (one of them empty): disabled. */
TEST(linebacker_lm_disabled_without_high_loads)
{
    LbMonitor m;
    lb_monitor_start(&m, 100, 20, 0);
    accesses(&m, 0x10, 1, 9, 10);
    lb_monitor_advance(&m, 150);
    EXPECT_EQ_U(m.state, LB_MONITORING); /* one window is not enough to give up */
    lb_monitor_advance(&m, 250);
    EXPECT_EQ_U(m.state, LB_DISABLED);
    EXPECT_EQ_U(m.windows, 2);
    EXPECT(!lb_monitor_selects(&m, 16));
    /* high in window 1, nothing in window 2: disabled too */
    lb_monitor_start(&m, 100, 20, 0);
    accesses(&m, 0x10, 9, 1, 10);
    lb_monitor_advance(&m, 200);
    EXPECT_EQ_U(m.state, LB_DISABLED);
}

/* ---- Victim Tag Table -------------------------------------------------------------------- */

TEST(linebacker_vtt_register_numbers_eq2)
{
    LbVtt v;
    lb_vtt_init(&v, 48, 4, 511, 2048, 32); /* gtx980: 8 partitions of 192 registers */
    EXPECT_EQ_U(v.n_parts, 8);
    EXPECT_EQ_U(lb_vtt_rn(&v, 0, 0, 0), 511);
    EXPECT_EQ_U(lb_vtt_rn(&v, 1, 0, 0), 703);
    EXPECT_EQ_U(lb_vtt_rn(&v, 2, 5, 3), 511 + 2 * 192 + 5 * 4 + 3); /* 918 */
    EXPECT_EQ_U(lb_vtt_rn(&v, 7, 47, 3), 2046);
    EXPECT_EQ_U(lb_vtt_set(&v, 48 * 7 + 5), 5);
    lb_vtt_free(&v);
    lb_vtt_init(&v, 48, 1, 511, 2048, 32); /* 1-way partitions: 32 of 48 registers */
    EXPECT_EQ_U(v.n_parts, 32);
    EXPECT_EQ_U(lb_vtt_rn(&v, 31, 47, 0), 2046);
    lb_vtt_free(&v);
    lb_vtt_init(&v, 48, 16, 511, 2048, 32); /* 16-way: 2 partitions */
    EXPECT_EQ_U(v.n_parts, 2);
    lb_vtt_free(&v);
    lb_vtt_init(&v, 48, 4, 511, 1024, 32); /* gtx480's 128 KB: (1024 - 511) / 192 = 2 */
    EXPECT_EQ_U(v.n_parts, 2);
    lb_vtt_free(&v);
}

/* Two usable partitions (2 and 5) of 2 sets x 2 ways: lines of set 1 fill partition 2, then 5;
 * a lookup in partition 5 searched two; the next line replaces the LRU way; taking partition 5's
 * registers drops its lines. */
TEST(linebacker_vtt_search_order_and_replacement)
{
    LbVtt v;
    lb_vtt_init(&v, 2, 2, 0, 64, 32);
    EXPECT_EQ_U(v.n_parts, 16);
    LbVttSlot s;
    EXPECT(!lb_vtt_insert(&v, 1, &s)); /* nothing usable */
    EXPECT_EQ_U(lb_vtt_set_usable(&v, 2, true), 0);
    EXPECT_EQ_U(lb_vtt_set_usable(&v, 5, true), 0);
    EXPECT_EQ_U(v.n_usable, 2);
    for (uint64_t line = 1; line <= 7; line += 2) { /* set 1 */
        ASSERT(lb_vtt_insert(&v, line, &s));
        EXPECT(!s.replaced);
    }
    EXPECT(lb_vtt_lookup(&v, 1, &s));
    EXPECT_EQ_U(s.part, 2);
    EXPECT_EQ_U(s.searched, 1);
    EXPECT_EQ_U(s.rn, 2 * 4 + 1 * 2 + 0);
    EXPECT(lb_vtt_lookup(&v, 7, &s));
    EXPECT_EQ_U(s.part, 5);
    EXPECT_EQ_U(s.way, 1);
    EXPECT_EQ_U(s.searched, 2);
    EXPECT_EQ_U(s.rn, 5 * 4 + 1 * 2 + 1);
    EXPECT(!lb_vtt_lookup(&v, 9, &s));
    EXPECT_EQ_U(s.searched, 2);
    /* LRU of set 1: line 3 (1 and 7 were hit since) */
    ASSERT(lb_vtt_insert(&v, 9, &s));
    EXPECT(s.replaced);
    EXPECT(!lb_vtt_lookup(&v, 3, &s));
    EXPECT(lb_vtt_lookup(&v, 9, &s));
    EXPECT_EQ_U(s.part, 2);
    EXPECT_EQ_U(s.way, 1);
    /* an invalidated way is taken before any LRU */
    EXPECT(lb_vtt_invalidate(&v, 7));
    EXPECT(!lb_vtt_invalidate(&v, 7));
    ASSERT(lb_vtt_insert(&v, 11, &s));
    EXPECT(!s.replaced);
    EXPECT_EQ_U(s.part, 5);
    EXPECT_EQ_U(lb_vtt_set_usable(&v, 5, false), 2); /* lines 5 and 11 */
    EXPECT(!lb_vtt_lookup(&v, 5, &s));
    EXPECT(lb_vtt_lookup(&v, 1, &s));
    lb_vtt_free(&v);
}

/* ---- the component on an L1D's miss path ------------------------------------------------- */

typedef RfRig LbRig;

/* A direct-mapped L1D of one set (every line conflicts) with Linebacker in `mode`, a register
 * file of n_regs whose VTT has 2 sets of 2-way partitions at offset 0. */
static void lbrig_init(LbRig *r, const char *mode, uint32_t n_regs, const char *const *kv, uint32_t n)
{
    char err[512];
    rf_rig_config(r, n_regs);
    CHECK(config_set(&r->c, "l1d.linebacker", mode, err, sizeof err));
    static const char *const vtt[] = {"sets=2", "ways=2", "offset=0"};
    rf_rig_options(r, "l1d.linebacker", vtt, 3);
    rf_rig_options(r, "l1d.linebacker", kv, n);
    rf_rig_start(r);
}

#define lbrig_free rf_rig_free
#define lbrig_tell_rf rf_rig_tell_rf

static L1dResult lbrig_load(LbRig *r, uint64_t line, uint32_t pc, uint64_t now, uint32_t *lat)
{
    ReplAccess a = {.warp_uid = 1, .pc = pc};
    return l1d_load(&r->l1, line * 128, 0, &a, now, lat);
}

/* Every read in the miss queue comes back now; stores are acknowledged. */
static void lbrig_return(LbRig *r, uint64_t now)
{
    MemReq *q;
    uint32_t tokens[64];
    while ((q = memreq_queue_pop(&r->l1.miss_q)) != NULL) {
        if (q->kind != MREQ_READ) {
            mempool_put(&r->pool, q);
            continue;
        }
        q->is_reply = true;
        CHECK(l1d_fill(&r->l1, q, tokens, now) >= 0);
    }
}

static uint64_t lb_stat(const LbRig *r, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "sm[0].l1d.linebacker.%s", name);
    return stats_get(&r->st, key, NULL);
}

/* Victim Caching (vc): a 1-line L1D; registers 0..15 idle = partitions 0..3 (4 registers each).
 * Line 0 is evicted by line 1 into register 0 (partition 0, set 0, way 0); a miss on it is a
 * register hit served in place (the L1D keeps line 1); a store invalidates it. */
TEST(linebacker_vc_serves_and_store_invalidates)
{
    LbRig r;
    lbrig_init(&r, "vc", 16 * 32, NULL, 0);
    lbrig_tell_rf(&r, 0);
    uint32_t lat = 0;
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 1, &lat), L1D_MISS);
    lbrig_return(&r, 5);
    EXPECT_EQ_U(lbrig_load(&r, 1, 0x18, 6, &lat), L1D_MISS); /* line 0 -> register 0 */
    lbrig_return(&r, 10);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 1);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 20, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 3); /* one partition searched, its bank free */
    EXPECT_EQ_U(r.l1.mpath_hit, 1);
    EXPECT_EQ_U(lbrig_load(&r, 1, 0x18, 21, &lat), L1D_HIT); /* line 1 stayed in the L1D */
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 22, &lat), L1D_HIT); /* still in its register */
    EXPECT_EQ_U(lb_stat(&r, "hit"), 2);
    ReplAccess st = {.warp_uid = 1, .sectors = 0};
    EXPECT_EQ_U(l1d_store(&r.l1, 0, 4, &st, 23), L1D_SENT);
    EXPECT_EQ_U(lb_stat(&r, "invalidate"), 1);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 24, &lat), L1D_MISS); /* to the L2 now */
    EXPECT_EQ_U(lb_stat(&r, "miss"), 3); /* with the first misses of lines 0 and 1 */
    lbrig_free(&r);
}

/* A CTA that takes the registers of partition 0 drops its line; with no usable partition the
 * victims find no room. */
TEST(linebacker_cta_reclaims_partition)
{
    LbRig r;
    lbrig_init(&r, "vc", 4 * 32, NULL, 0); /* one partition */
    lbrig_tell_rf(&r, 0);
    uint32_t lat;
    lbrig_load(&r, 0, 0x10, 1, &lat);
    lbrig_return(&r, 5);
    lbrig_load(&r, 1, 0x10, 6, &lat);
    lbrig_return(&r, 10);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 1);
    regfile_alloc(&r.rf, 0, 1, 20); /* a CTA of one warp register: RN 0 */
    lbrig_tell_rf(&r, 20);
    EXPECT_EQ_U(lb_stat(&r, "reclaim"), 1);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 21, &lat), L1D_MISS); /* line 1 -> no room */
    lbrig_return(&r, 25);
    EXPECT_EQ_U(lb_stat(&r, "no_room"), 1);
    /* the CTA becomes inactive (DUR): the partition is usable again */
    regfile_set_active(&r.rf, 0, false, 30);
    lbrig_tell_rf(&r, 30);
    lbrig_load(&r, 2, 0x10, 31, &lat); /* line 0 -> register */
    lbrig_return(&r, 35);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 2);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 40, &lat), L1D_HIT);
    lbrig_free(&r);
}

/* Selective Victim Caching: windows of 100 cycles. Load 0x10 re-reads its two lines (hits in the
 * tags-only VTT), load 0x18 streams. After two windows only 0x10's victims are kept. */
TEST(linebacker_svc_keeps_only_selected_loads_victims)
{
    static const char *const kv[] = {"window=100"};
    LbRig r;
    lbrig_init(&r, "svc", 16 * 32, kv, 1);
    lbrig_tell_rf(&r, 0);
    uint32_t lat;
    uint64_t t = 1, stream = 100;
    for (uint32_t w = 0; w < 2; w++) {
        for (uint32_t i = 0; i < 4; i++) {
            lbrig_load(&r, i % 2, 0x10, t++, &lat); /* 0, 1, 0, 1: each a miss whose tag the VTT kept */
            lbrig_return(&r, t++);
            lbrig_load(&r, stream++, 0x18, t++, &lat);
            lbrig_return(&r, t++);
        }
        t = 100 * (w + 1) + 1;
    }
    lbrig_load(&r, stream++, 0x18, 201, &lat); /* ends window 2 */
    lbrig_return(&r, 202);
    EXPECT_EQ_U(lb_stat(&r, "windows"), 2);
    EXPECT_EQ_U(lb_stat(&r, "kernels_selected"), 1);
    EXPECT_EQ_U(lb_stat(&r, "selected_loads"), 1);
    EXPECT(lb_stat(&r, "monitor_hit") >= 4);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 0);
    /* now: 0x10's line 0 evicted by a streaming line is kept, the streaming line is not */
    lbrig_load(&r, 0, 0x10, 210, &lat);
    lbrig_return(&r, 211);
    lbrig_load(&r, stream++, 0x18, 212, &lat);
    lbrig_return(&r, 213);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 1);
    lbrig_load(&r, 1, 0x10, 214, &lat); /* evicts a streaming line: skipped */
    lbrig_return(&r, 215);
    EXPECT_EQ_U(lb_stat(&r, "skip"), 3); /* the streaming lines evicted at 201, 210 and 214 */
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 220, &lat), L1D_HIT);
    EXPECT_EQ_U(lb_stat(&r, "hit"), 1);
    lbrig_free(&r);
}

/* lb: the selection as in svc, but the only idle registers are those of a throttled CTA. A CTA
 * holds all 16 registers: nothing is kept. It becomes inactive (backed up): the selected load's
 * victim goes into its registers and is served from there; a store invalidates it (the store
 * goes on to the L2) and the next load of the line misses. */
TEST(linebacker_lb_victims_in_a_throttled_ctas_registers)
{
    static const char *const kv[] = {"window=100"};
    LbRig r;
    lbrig_init(&r, "lb", 16 * 32, kv, 1);
    regfile_alloc(&r.rf, 0, 16, 0);
    lbrig_tell_rf(&r, 0);
    uint32_t lat;
    uint64_t t = 1;
    for (uint32_t w = 0; w < 2; w++) {
        for (uint32_t i = 0; i < 4; i++) {
            lbrig_load(&r, i % 2, 0x10, t++, &lat);
            lbrig_return(&r, t++);
        }
        t = 100 * (w + 1) + 1;
    }
    lbrig_load(&r, 2, 0x18, 201, &lat); /* ends window 2: 0x10 selected */
    lbrig_return(&r, 202);
    EXPECT_EQ_U(lb_stat(&r, "kernels_selected"), 1);
    lbrig_load(&r, 0, 0x10, 203, &lat);
    lbrig_return(&r, 204);
    lbrig_load(&r, 3, 0x18, 205, &lat); /* evicts line 0: no usable partition */
    lbrig_return(&r, 206);
    EXPECT_EQ_U(lb_stat(&r, "no_room"), 2); /* and line 1, evicted at 201 */
    EXPECT_EQ_U(lb_stat(&r, "insert"), 0);
    regfile_set_active(&r.rf, 0, false, 210); /* throttled, its backup done */
    lbrig_tell_rf(&r, 210);
    lbrig_load(&r, 0, 0x10, 211, &lat);
    lbrig_return(&r, 212);
    lbrig_load(&r, 4, 0x18, 213, &lat); /* line 0 -> the CTA's register 0 */
    lbrig_return(&r, 214);
    EXPECT_EQ_U(lb_stat(&r, "insert"), 1);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 220, &lat), L1D_HIT);
    EXPECT_EQ_U(lb_stat(&r, "hit"), 1);
    ReplAccess st = {.warp_uid = 1};
    EXPECT_EQ_U(l1d_store(&r.l1, 0, 4, &st, 221), L1D_SENT);
    EXPECT_EQ_U(lb_stat(&r, "invalidate"), 1);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 222, &lat), L1D_MISS);
    EXPECT_EQ_U(lb_stat(&r, "hit"), 1);
    lbrig_free(&r);
}

/* Two register hits on one bank in one cycle: the second waits a cycle (1 bank). */
TEST(linebacker_bank_conflict_adds_latency)
{
    static const char *const kv[] = {"banks=1", "ports=2"};
    LbRig r;
    lbrig_init(&r, "vc", 16 * 32, kv, 2);
    lbrig_tell_rf(&r, 0);
    uint32_t lat;
    for (uint64_t line = 0; line < 3; line++) { /* lines 0 and 1 end in registers */
        lbrig_load(&r, line, 0x10, 1 + 2 * line, &lat);
        lbrig_return(&r, 2 + 2 * line);
    }
    EXPECT_EQ_U(lb_stat(&r, "insert"), 2);
    EXPECT_EQ_U(lbrig_load(&r, 0, 0x10, 50, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 3); /* set 0: partition 0 */
    EXPECT_EQ_U(lbrig_load(&r, 1, 0x10, 50, &lat), L1D_HIT);
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 3 + 1); /* set 1, partition 0 too: same cycle, same bank */
    EXPECT_EQ_U(lb_stat(&r, "bank_conflict"), 1);
    EXPECT_EQ_U(lb_stat(&r, "bank_wait"), 1);
    lbrig_free(&r);
}

TEST(linebacker_options_rejected)
{
    Config c;
    char err[256];
    config_init(&c);
    EXPECT(!config_set(&c, "l1d.linebacker", "full", err, sizeof err));
    EXPECT(config_set(&c, "l1d.linebacker", "lb", err, sizeof err));
    EXPECT(policy_check_config(&c, err, sizeof err));
    EXPECT(config_set(&c, "l1d.linebacker.buffer", "0", err, sizeof err) == 0 ||
           !policy_check_config(&c, err, sizeof err));
    config_init(&c);
    EXPECT(config_set(&c, "l1d.linebacker", "lb", err, sizeof err));
    EXPECT(config_set(&c, "l1d.linebacker.ipc_bound", "0", err, sizeof err) == 0 ||
           !policy_check_config(&c, err, sizeof err));
    config_init(&c);
    EXPECT(config_set(&c, "l1d.linebacker", "svc", err, sizeof err));
    c.l1d.line_bytes = 64;
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "l1d.line_bytes must be 128");
    config_init(&c);
    EXPECT(config_set(&c, "l2.linebacker", "vc", err, sizeof err));
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "l2.linebacker");
    config_init(&c);
    EXPECT(config_set(&c, "l1d.linebacker", "vc", err, sizeof err));
    EXPECT(config_set(&c, "l1d.linebacker.ways", "3", err, sizeof err) == 0 ||
           !policy_check_config(&c, err, sizeof err));
}

/* ---- CTA Throttling Logic (decisions only) -------------------------------------------- */

/* Windows of 1000 cycles, bounds +/-10%. IPC 1.0 (first window: nothing to compare), 1.2 (+20%:
 * throttle), 1.25 (+4.2%: keep), 1.0 (-20%: restore), 0.95 (-5%: keep), 1.05 (+10.5%: throttle),
 * 1.15 (+9.5%: keep), 0 (-100%: restore), 0.5 (the previous IPC is 0: keep). */
TEST(linebacker_ctl_throttling_decisions_on_an_ipc_series)
{
    static const uint64_t insts[] = {1000, 1200, 1250, 1000, 950, 1050, 1150, 0, 500};
    static const LbCtlAction want[] = {LB_CTL_KEEP, LB_CTL_THROTTLE, LB_CTL_KEEP, LB_CTL_RESTORE, LB_CTL_KEEP,
                                       LB_CTL_THROTTLE, LB_CTL_KEEP, LB_CTL_RESTORE, LB_CTL_KEEP};
    LbIpcMonitor m;
    lb_ipc_start(&m, 1000, 0.1, -0.1, 50000, 7);
    uint64_t total = 7, now = 50000;
    for (uint32_t i = 0; i < ARRAY_LEN(insts); i++) {
        EXPECT(!lb_ipc_window_due(&m, now + 999));
        now += 1000;
        EXPECT(lb_ipc_window_due(&m, now));
        total += insts[i];
        EXPECT_EQ_U(lb_ipc_window_end(&m, total), want[i]);
    }
    EXPECT_EQ_U(m.windows, ARRAY_LEN(insts));
    EXPECT_NEAR(m.prev_ipc, 0.0, 1e-12);
    EXPECT_NEAR(m.cur_ipc, 0.5, 1e-12);
}

/* Four CTAs of 192 warp registers (24 KB) at FRN 0, 192, 384, 576; BP starts at 0x100000. */
TEST(linebacker_ctl_backup_restore_addresses)
{
    LbCtaManager m;
    lb_ctam_kernel_begin(&m, 192, 0x100000);
    EXPECT_EQ_U(m.lrn, LB_CTL_NONE);
    for (uint32_t hw = 0; hw < 4; hw++)
        lb_ctam_launch(&m, hw, 192 * hw);
    EXPECT_EQ_U(m.lrn, 767);
    EXPECT_EQ_U(lb_ctam_pick_restore(&m), LB_CTL_NONE);
    /* throttle: the largest hardware id, backed up at BP */
    EXPECT_EQ_U(lb_ctam_pick_throttle(&m), 3);
    EXPECT_EQ_U(lb_ctam_backup_begin(&m, 3), 0x100000);
    EXPECT(!m.cta[3].act && !m.cta[3].done);
    EXPECT_EQ_U(lb_ctam_pick_throttle(&m), 2);
    lb_ctam_backup_done(&m, 3);
    EXPECT_EQ_U(m.cta[3].ba, 0x100000);
    EXPECT_EQ_U(m.bp, 0x100000 + 192 * 128); /* 0x106000 */
    EXPECT_EQ_U(m.lrn, 575);
    EXPECT_EQ_U(m.cta[3].frn, LB_CTL_NONE);
    EXPECT(m.cta[3].done);
    /* and the next one */
    EXPECT_EQ_U(lb_ctam_backup_begin(&m, 2), 0x106000);
    lb_ctam_backup_done(&m, 2);
    EXPECT_EQ_U(m.cta[2].ba, 0x106000);
    EXPECT_EQ_U(m.bp, 0x10c000);
    EXPECT_EQ_U(m.lrn, 383);
    /* restore: the last backed up, from BP - #reg x 128 */
    EXPECT_EQ_U(lb_ctam_pick_restore(&m), 2);
    EXPECT_EQ_U(lb_ctam_restore(&m, 2, 384), 0x106000);
    EXPECT_EQ_U(m.bp, 0x106000);
    EXPECT_EQ_U(m.lrn, 575);
    EXPECT(m.cta[2].act && !m.cta[2].done);
    EXPECT_EQ_U(lb_ctam_pick_restore(&m), 3);
    /* never the last active CTA */
    lb_ctam_finish(&m, 0);
    lb_ctam_finish(&m, 2);
    EXPECT_EQ_U(lb_ctam_pick_throttle(&m), LB_CTL_NONE);
    EXPECT_EQ_U(m.lrn, 383);
    EXPECT_EQ_U(lb_ctam_restore(&m, 3, 0), 0x100000);
    EXPECT_EQ_U(m.bp, 0x100000);
    EXPECT_EQ_U(lb_ctam_pick_throttle(&m), 3);
}

/* ---- whole runs ------------------------------------------------------------------------ */

/* syrk-small on gtx980 (its CTAs leave most of the register file idle). Its lines thrash the
 * L1D: vc serves most misses from registers; svc monitors two 2000-cycle windows first and skips
 * victims of loads it did not select; the stats agree with the L1D's. */
TEST(linebacker_runs_on_the_gtx980_preset)
{
    const char *wl = "workloads/synthetic/syrk-small.syn";
    char a[512];
    snprintf(a, sizeof a, "--preset gtx980 %s", wl);
    JsonValue *base = test_run_json(a);
    snprintf(a, sizeof a, "--preset gtx980 -o l1d.linebacker=vc %s", wl);
    JsonValue *vc = test_run_json(a);
    snprintf(a, sizeof a, "--preset gtx980 -o l1d.linebacker=svc -o l1d.linebacker.window=2000 %s", wl);
    JsonValue *svc = test_run_json(a);
    ASSERT(base && vc && svc);
    EXPECT_EQ_U(test_total(base, "sm.l1d.mpath_hit"), 0);
    EXPECT_EQ_U(test_total(base, "sm.rf.kernel_cycles") > 0, 1);
    EXPECT(test_total(base, "sm.rf.sur_cycles") < test_total(base, "sm.rf.kernel_cycles") * 2048);
    EXPECT(test_total(base, "sm.rf.sur_cycles") > test_total(base, "sm.rf.kernel_cycles") * 1024);
    EXPECT_EQ_U(test_total(base, "sm.rf.dur_cycles"), 0);
    for (int i = 0; i < 2; i++) {
        JsonValue *j = i ? svc : vc;
        EXPECT(test_total(j, "sm.l1d.linebacker.hit") > 0);
        EXPECT_EQ_U(test_total(j, "sm.l1d.linebacker.hit"), test_total(j, "sm.l1d.mpath_hit"));
        EXPECT(test_total(j, "sm.l1d.miss") < test_total(base, "sm.l1d.miss"));
        EXPECT(test_total(j, "sim.cycles") < test_total(base, "sim.cycles"));
        EXPECT_EQ_U(test_total(j, "sm.l1d.access"), test_total(base, "sm.l1d.access"));
    }
    EXPECT_EQ_U(test_total(vc, "sm.l1d.linebacker.windows"), 0);
    EXPECT_EQ_U(test_total(vc, "sm.l1d.linebacker.skip"), 0);
    EXPECT_EQ_U(test_total(svc, "sm.l1d.linebacker.kernels_selected") +
                    test_total(svc, "sm.l1d.linebacker.kernels_disabled"), 16);
    EXPECT(test_total(svc, "sm.l1d.linebacker.windows") >= 32);
    EXPECT(test_total(svc, "sm.l1d.linebacker.skip") > 0);
    json_free(base);
    json_free(vc);
    json_free(svc);
}
