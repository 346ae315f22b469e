/* test_lb_throttle.c: Linebacker's CTA throttling (src/policy/mpath/lb_throttle.c, seeds/004
 * sec. 3.2 and 4.1): the decisions on a scripted IPC series, the backup and restore addresses
 * (BP, BA) and the 6-entry buffer, first against a scripted SM, then on the real SM (the SM rig)
 * with l1d.linebacker=lb. */
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "core/sm.h"
#include "exp/json.h"
#include "policy/mpath/lb_throttle.h"
#include "policy/policy.h"

#include <string.h>

/* ---- a scripted SM ---------------------------------------------------------------------- */

typedef struct FakeSm {
    uint64_t insts;
    bool drained[LB_CTL_MAX_CTAS], held[LB_CTL_MAX_CTAS], regs_inactive[LB_CTL_MAX_CTAS];
    uint32_t limit;
    uint64_t addr[256];
    bool write[256];
    uint32_t n_sent;
    bool refuse; /* the miss queue is full */
} FakeSm;

static uint64_t f_insts(void *s) { return ((FakeSm *)s)->insts; }
static bool f_drained(void *s, uint32_t slot) { return ((FakeSm *)s)->drained[slot]; }
static void f_hold(void *s, uint32_t slot, bool hold, uint64_t now) { ((FakeSm *)s)->held[slot] = hold; }
static void f_regs(void *s, uint32_t slot, bool active, uint64_t now) { ((FakeSm *)s)->regs_inactive[slot] = !active; }
static void f_limit(void *s, uint32_t limit) { ((FakeSm *)s)->limit = limit; }
static bool f_send(void *s, uint64_t addr, bool write, uint32_t tag, uint64_t now)
{
    FakeSm *f = s;
    if (f->refuse)
        return false;
    CHECK(f->n_sent < 256);
    f->addr[f->n_sent] = addr;
    f->write[f->n_sent++] = write;
    return true;
}

static void launch(LbThrottle *t, const SmCtaCtl *ctl, uint32_t hw, uint32_t n_wregs)
{
    MpathCtaEvent e = {.launched = true, .slot = hw, .frn = hw * n_wregs, .n_wregs = n_wregs, .max_ctas = 32};
    lb_throttle_cta(t, &e, ctl);
}

/* Tick every cycle from `from` to `to` (inclusive); acknowledge each write and answer each read
 * the cycle after it was sent. */
static void run_to(LbThrottle *t, const SmCtaCtl *ctl, FakeSm *f, uint64_t from, uint64_t to, bool selected)
{
    for (uint64_t c = from; c <= to; c++) {
        uint32_t before = f->n_sent;
        lb_throttle_tick(t, c, selected, ctl);
        for (uint32_t i = before; i < f->n_sent; i++)
            lb_throttle_reply(t, f->write[i]);
    }
}

/* Windows of 100 cycles, +/-10%, 4 CTAs of 8 warp registers on SM 1 (BP0 = 2^40 + 2^20).
 * Window 1 (IPC 1.0): monitoring, nothing. Window 2 ends with loads selected: CTA 3 (the
 * largest hardware id) is throttled without comparing; once drained its 8 registers go to
 * BP0 .. BP0 + 7 x 128, then its registers are DUR and BP = BP0 + 1024. Window 3: IPC 1.3 (+30%):
 * CTA 2 too, to BP0 + 1024. Window 4, IPC 1.7 (+31%) while that backup waits for its loads: the
 * decision is skipped.
 * Window 5: IPC drops 50%: the cap rises to 3 and CTA 2 (throttled last, BA = BP0 + 1024) comes
 * back. CTA 0 completes: CTA 3 comes back from BP0 before any new CTA. */
TEST(linebacker_throttle_decisions_and_backup_addresses)
{
    FakeSm f = {.limit = UINT32_MAX};
    SmCtaCtl ctl = {.sm = &f, .insts = f_insts, .cta_drained = f_drained, .cta_hold = f_hold,
                    .cta_regs_active = f_regs, .set_cta_limit = f_limit, .send = f_send};
    LbThrottle t;
    lb_throttle_init(&t, 6, 100, 0.1, 1);
    const uint64_t bp0 = (1ull << 40) + (1ull << 20);
    EXPECT_EQ_U(t.bp0, bp0);
    lb_throttle_kernel_begin(&t, 0);
    for (uint32_t hw = 0; hw < 4; hw++)
        launch(&t, &ctl, hw, 8);
    f.insts = 100;
    EXPECT_EQ_U(lb_throttle_tick(&t, 100, false, &ctl), 200); /* window 1: monitoring */
    EXPECT_EQ_U(f.limit, UINT32_MAX);
    f.insts = 200;
    EXPECT_EQ_U(lb_throttle_tick(&t, 200, true, &ctl), 201); /* selected: throttle one */
    EXPECT(f.held[3] && !f.held[2]);
    EXPECT_EQ_U(f.limit, 3);
    EXPECT_EQ_U(t.op, LB_BUF_DRAIN);
    run_to(&t, &ctl, &f, 201, 210, true); /* its loads are not back: nothing is sent */
    EXPECT_EQ_U(f.n_sent, 0);
    f.drained[3] = true;
    run_to(&t, &ctl, &f, 211, 230, true);
    EXPECT_EQ_U(f.n_sent, 8);
    for (uint32_t i = 0; i < 8; i++)
        EXPECT(f.write[i] && f.addr[i] == bp0 + 128 * i);
    EXPECT_EQ_U(t.op, LB_BUF_IDLE);
    EXPECT(f.regs_inactive[3]);
    EXPECT_EQ_U(t.cm.bp, bp0 + 8 * 128);
    EXPECT_EQ_U(t.cm.cta[3].ba, bp0);
    EXPECT(t.cm.cta[3].done && !t.cm.cta[3].act && t.cm.cta[3].frn == LB_CTL_NONE);
    EXPECT_EQ_U(t.cm.lrn, 23); /* CTA 2's last register */
    EXPECT_EQ_U(t.backup_bytes, 8 * 128);
    f.insts = 330;
    run_to(&t, &ctl, &f, 231, 300, true); /* window 3: +30% */
    EXPECT(f.held[2]);
    EXPECT_EQ_U(f.limit, 2);
    f.insts = 500;
    run_to(&t, &ctl, &f, 301, 400, true); /* +31% again, CTA 2 still draining: skipped */
    EXPECT_EQ_U(t.skipped, 1);
    EXPECT_EQ_U(t.throttles, 2);
    f.drained[2] = true;
    f.insts = 585;
    run_to(&t, &ctl, &f, 401, 500, true); /* IPC 0.85 after 1.7: -50% */
    EXPECT_EQ_U(f.n_sent, 16);
    for (uint32_t i = 8; i < 16; i++)
        EXPECT(f.write[i] && f.addr[i] == bp0 + 1024 + 128 * (i - 8));
    EXPECT_EQ_U(t.restore_decisions, 1);
    EXPECT_EQ_U(f.limit, 3);
    EXPECT_EQ_U(t.op, LB_BUF_RESTORE);
    EXPECT(!f.regs_inactive[2] && f.held[2]); /* registers taken back, warps wait for them */
    EXPECT_EQ_U(t.cm.bp, bp0 + 1024);
    run_to(&t, &ctl, &f, 501, 540, true);
    EXPECT_EQ_U(f.n_sent, 24);
    for (uint32_t i = 16; i < 24; i++)
        EXPECT(!f.write[i] && f.addr[i] == bp0 + 1024 + 128 * (i - 16));
    EXPECT(!f.held[2]);
    EXPECT_EQ_U(t.restores, 1);
    EXPECT_EQ_U(lb_throttle_active(&t), 3);
    /* CTA 0 completes: the one still throttled comes back first */
    MpathCtaEvent done = {.launched = false, .slot = 0};
    lb_throttle_cta(&t, &done, &ctl);
    run_to(&t, &ctl, &f, 541, 560, true);
    EXPECT_EQ_U(f.n_sent, 32);
    for (uint32_t i = 24; i < 32; i++)
        EXPECT(!f.write[i] && f.addr[i] == bp0 + 128 * (i - 24));
    EXPECT(!f.held[3] && !f.regs_inactive[3]);
    EXPECT_EQ_U(t.cm.bp, bp0);
    EXPECT_EQ_U(lb_throttle_inactive(&t), 0);
    EXPECT_EQ_U(t.restore_bytes, 16 * 128);
}

/* The buffer holds 6 registers: with the miss queue refusing, a backup reads 6 and waits; a
 * restore keeps at most 6 reads in flight and writes one arrived line a cycle. */
TEST(linebacker_throttle_buffer_holds_six)
{
    FakeSm f = {.limit = UINT32_MAX, .drained = {true, true}};
    SmCtaCtl ctl = {.sm = &f, .insts = f_insts, .cta_drained = f_drained, .cta_hold = f_hold,
                    .cta_regs_active = f_regs, .set_cta_limit = f_limit, .send = f_send};
    LbThrottle t;
    lb_throttle_init(&t, 6, 100, 0.1, 0);
    lb_throttle_kernel_begin(&t, 0);
    launch(&t, &ctl, 0, 20);
    launch(&t, &ctl, 1, 20);
    f.insts = 100;
    lb_throttle_tick(&t, 100, false, &ctl);
    f.insts = 200;
    f.refuse = true;
    for (uint64_t c = 200; c < 220; c++)
        lb_throttle_tick(&t, c, true, &ctl);
    EXPECT_EQ_U(t.read, 6);
    EXPECT_EQ_U(t.in_buf, 6);
    EXPECT_EQ_U(f.n_sent, 0);
    f.refuse = false;
    for (uint64_t c = 220; c < 260; c++)
        lb_throttle_tick(&t, c, true, &ctl); /* no acknowledgement yet */
    EXPECT_EQ_U(f.n_sent, 20);
    EXPECT_EQ_U(t.op, LB_BUF_BACKUP);
    for (uint32_t i = 0; i < 20; i++)
        lb_throttle_reply(&t, true);
    lb_throttle_tick(&t, 260, true, &ctl);
    EXPECT_EQ_U(t.op, LB_BUF_IDLE);
    /* CTA 0 completes: CTA 1 comes back; no reply yet: 6 reads in flight */
    MpathCtaEvent done = {.launched = false, .slot = 0};
    lb_throttle_cta(&t, &done, &ctl);
    for (uint64_t c = 261; c < 270; c++)
        lb_throttle_tick(&t, c, true, &ctl);
    EXPECT_EQ_U(f.n_sent, 26);
    EXPECT_EQ_U(t.in_buf, 6);
    for (uint32_t i = 0; i < 3; i++)
        lb_throttle_reply(&t, false);
    lb_throttle_tick(&t, 270, true, &ctl); /* one written, one more read */
    EXPECT_EQ_U(t.written, 1);
    EXPECT_EQ_U(f.n_sent, 27);
}

/* ---- on the real SM ----------------------------------------------------------------------- */

static Rig *g_rig;

/* A synthetic IPC series in place of the SM's count: 1 instruction a cycle until cycle 40, then 2. */
static uint64_t scripted_insts(void *sm) { return g_rig->now <= 40 ? g_rig->now : 40 + 2 * (g_rig->now - 40); }

static uint64_t rig_lb_stat(Rig *r, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "sm[0].l1d.linebacker.%s", name);
    return stats_get(&r->st, key, NULL);
}

/* Four one-warp CTAs of 16 warp registers (CTA s at RN 16 s) on the rig's SM with
 * l1d.linebacker=lb and 20-cycle windows; each warp loads one line seven times (seven load
 * pcs), each load feeding an add. CTAs 0 and 1 start at cycle 0, 2 and 3 at cycle 20: the first
 * load (a miss and a merge in window 1, two hits in window 2) is high in both windows, and is
 * selected at cycle 40: CTA 3 is throttled. Its warp issues
 * nothing from then until its registers are back; the dispatcher's room is 0 (cap 3, 4
 * resident); its 16 registers go to memory as 16 line writes to 2^40 .. 2^40 + 15 x 128 and
 * become dynamically unused. The scripted IPC doubles in window 3: a second throttle, skipped
 * while the first backup is busy. CTA 0 completes while the backup runs: CTA 3 comes back as
 * soon as it ends (16 line reads from 2^40), before any new CTA; then it runs to its end; its
 * warp issues again the cycle its last register is written. */
TEST(linebacker_throttle_on_the_sm)
{
    Rig *r = rig_new();
    char err[256];
    CHECK(config_set(&r->c, "l1d.linebacker", "lb", err, sizeof err));
    CHECK(config_set(&r->c, "l1d.linebacker.window", "20", err, sizeof err));
    CHECK(config_set(&r->c, "l1d.linebacker.sets", "4", err, sizeof err));
    CHECK(config_set(&r->c, "l1d.linebacker.ways", "4", err, sizeof err));
    CHECK(config_set(&r->c, "l1d.linebacker.offset", "0", err, sizeof err));
    MockInst p[15];
    for (uint32_t i = 0; i < 7; i++) {
        p[2 * i] = ld((uint16_t)(1 + 2 * i), 0x4000, 0);
        p[2 * i + 1] = alu((uint16_t)(2 + 2 * i), (uint16_t)(1 + 2 * i));
    }
    p[14] = ex();
    script(&r->f, 0, p, 15);
    ASSERT(rig_start(r, 32, 6));
    g_rig = r;
    r->sm.ctl.insts = scripted_insts;
    rig_launch(r, 0);
    rig_launch(r, 1);
    uint64_t throttled_at = 0, backed_up_at = 0, restored_at = 0;
    uint64_t rooms_when_throttled = 99;
    for (uint32_t i = 0; i < 2000 && !restored_at; i++) {
        if (r->now == 20) {
            rig_launch(r, 2);
            rig_launch(r, 3);
            EXPECT_EQ_U(r->sm.ctas[3].frn, 48);
        }
        rig_step(r);
        if (!throttled_at && rig_lb_stat(r, "throttles")) {
            throttled_at = r->now - 1;
            rooms_when_throttled = sm_cta_room(&r->sm, &r->k, false);
        }
        if (!backed_up_at && rig_lb_stat(r, "backup_cycles"))
            backed_up_at = r->now - 1;
        if (rig_lb_stat(r, "restores") && !r->sm.held_mask)
            restored_at = r->now - 1;
    }
    EXPECT_EQ_U(throttled_at, 40);
    EXPECT_EQ_U(rooms_when_throttled, 0);
    EXPECT(backed_up_at > throttled_at && restored_at > backed_up_at);
    /* CTA 0 completed before the backup ended: the restore began the cycle the backup ended */
    EXPECT(r->done_at[0] < backed_up_at);
    EXPECT_EQ_U(rig_lb_stat(r, "restore_cycles"), restored_at - backed_up_at);
    EXPECT_EQ_U(r->m.writes, 16);
    EXPECT_EQ_U(rig_lb_stat(r, "backup_bytes"), 16 * 128);
    EXPECT_EQ_U(rig_lb_stat(r, "throttle_decisions"), 2);
    EXPECT_EQ_U(rig_lb_stat(r, "skipped"), 1);
    EXPECT_EQ_U(r->n_done >= 1, 1);
    EXPECT_EQ_U(r->done[0], 0);
    /* the restore read the backup lines in order, after the load's one miss */
    EXPECT_EQ_U(r->m.reads, 17);
    for (uint32_t i = 0; i < 16; i++)
        EXPECT_EQ_U(r->m.lines[1 + i], (1ull << 40) + 128 * i);
    /* warp 3 issued nothing while throttled */
    for (uint32_t i = 0; i < r->f.n_log; i++)
        if (r->f.log[i].warp == 3)
            EXPECT(r->f.log[i].cycle <= throttled_at || r->f.log[i].cycle >= restored_at);
    ASSERT(rig_run(r, 5000));
    EXPECT_EQ_U(r->n_done, 4);
    EXPECT_EQ_U(rig_lb_stat(r, "restore_bytes"), 16 * 128);
    EXPECT_EQ_U(regfile_dur(&r->sm.rf), 0);
    EXPECT_EQ_U(r->f.bad, 0);
    rig_free(r);
}

/* syrk-small on gtx980 with 2000-cycle windows: four CTAs per SM, loads selected on every SM,
 * CTAs throttled and brought back; every backed-up byte is read back, the throttled CTAs'
 * registers were dynamically unused and the VTT used them (more usable space than svc), and the
 * L1D sees the same accesses as the baseline. */
TEST(linebacker_throttle_runs_on_the_gtx980_preset)
{
    const char *wl = "workloads/synthetic/syrk-small.syn";
    char a[512];
    snprintf(a, sizeof a, "--preset gtx980 %s", wl);
    JsonValue *base = test_run_json(a);
    snprintf(a, sizeof a, "--preset gtx980 -o l1d.linebacker=svc -o l1d.linebacker.window=2000 %s", wl);
    JsonValue *svc = test_run_json(a);
    snprintf(a, sizeof a, "--preset gtx980 -o l1d.linebacker=lb -o l1d.linebacker.window=2000 %s", wl);
    JsonValue *lb = test_run_json(a);
    ASSERT(base && svc && lb);
    uint64_t throttles = test_total(lb, "sm.l1d.linebacker.throttles");
    EXPECT(throttles > 0);
    EXPECT_EQ_U(test_total(lb, "sm.l1d.linebacker.restores"), throttles);
    /* all CTAs of the kernel have the same #reg: whole multiples of it move */
    uint64_t bytes = test_total(lb, "sm.l1d.linebacker.backup_bytes");
    EXPECT(bytes > 0 && bytes % (throttles * 128) == 0);
    EXPECT_EQ_U(test_total(lb, "sm.l1d.linebacker.restore_bytes"), bytes);
    EXPECT(test_total(lb, "sm.rf.dur_cycles") > 0);
    EXPECT_EQ_U(test_total(svc, "sm.rf.dur_cycles"), 0);
    EXPECT(test_total(lb, "sm.l1d.linebacker.usable_cycles") > test_total(svc, "sm.l1d.linebacker.usable_cycles"));
    EXPECT_EQ_U(test_total(lb, "sm.l1d.access"), test_total(base, "sm.l1d.access"));
    EXPECT_EQ_U(test_total(base, "sm.rf.dur_cycles"), 0);
    json_free(base);
    json_free(svc);
    json_free(lb);
}
