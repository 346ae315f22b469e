/* test_dram.c: one DRAM controller driven directly with MemReq structs owned by the test.
 * Expected cycles are computed from the configured timing (GTX480 GDDR5 defaults), so the
 * tests follow the options rather than pinning magic numbers. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "mem/dram.h"
#include "policy/policy.h"
#include "stats/stats.h"

#include <stdlib.h>
#include <string.h>

#define LINE 128u

typedef struct Rig {
    Config cfg;
    Stats st;
    Dram *d;
} Rig;

static void rig_open(Rig *g, const char *sched)
{
    snprintf(g->cfg.dram.sched, sizeof g->cfg.dram.sched, "%s", sched);
    stats_init(&g->st);
    g->d = dram_create(&g->cfg, 0, &g->st);
}

/* Defaults, then open. */
static void rig_init(Rig *g, const char *sched)
{
    config_init(&g->cfg);
    rig_open(g, sched);
}

static void rig_close(Rig *g)
{
    dram_destroy(g->d);
    stats_free(&g->st);
}

static uint64_t dstat(const Rig *g, const char *name)
{
    char full[96];
    int found = 0;
    snprintf(full, sizeof full, "dram[0].%s", name);
    uint64_t v = stats_get(&g->st, full, &found);
    EXPECT(found);
    return v;
}

static MemReq mkreq(MemReqKind kind, uint32_t bank, uint32_t row, uint64_t addr)
{
    MemReq r;
    memset(&r, 0, sizeof r);
    r.kind = (uint8_t)kind;
    r.bank = bank;
    r.row = row;
    r.addr = addr;
    r.size_bytes = LINE;
    return r;
}

/* Timing derived from the config, as the controller documents it. */
typedef struct Timing {
    uint64_t bus;      /* data-bus cycles per column command */
    uint64_t ncols;    /* column commands per line */
    uint64_t colgap;   /* cycles between two column commands of one request (same bank group) */
    uint64_t data;     /* first column command to the end of the last data, minus tCL */
} Timing;

static Timing timing_of(const DramConfig *c)
{
    Timing t;
    uint64_t per_col = (uint64_t)c->bus_bytes * c->chips * c->burst;
    t.bus = (c->burst + c->data_ratio - 1) / c->data_ratio;
    t.ncols = (LINE + per_col - 1) / per_col;
    t.colgap = MAX(MAX(c->tCCD, c->tCCDL), t.bus);
    t.data = (t.ncols - 1) * t.colgap + t.bus;
    return t;
}

/* Tick every cycle from `from` until a reply pops or `limit`; the cycle it popped (or limit). */
static uint64_t run_to_reply(Rig *g, uint64_t from, uint64_t limit, MemReq **out)
{
    for (uint64_t t = from; t < limit; t++) {
        dram_tick(g->d, t);
        MemReq *r = dram_pop_reply(g->d, t);
        if (r) {
            *out = r;
            return t;
        }
    }
    *out = NULL;
    return limit;
}

TEST(dram_single_read_latency)
{
    Rig g;
    rig_init(&g, "frfcfs");
    Timing tm = timing_of(&g.cfg.dram);
    EXPECT_EQ_U(tm.ncols, 2); /* GTX480: 4 B x 2 chips x burst 8 = 64 B per column command */
    EXPECT_EQ_U(tm.bus, 2);
    MemReq a = mkreq(MREQ_READ, 3, 7, 0x1000);
    EXPECT_EQ_U(dram_next_event(g.d, 0), UINT64_MAX);
    dram_push(g.d, &a, 0);
    MemReq *got;
    uint64_t t = run_to_reply(&g, 0, 1000, &got);
    ASSERT(got == &a);
    EXPECT(a.is_reply);
    /* ACT at 0, column commands at tRCD and tRCD + colgap, data tCL later, bus cycles each. */
    EXPECT_EQ_U(t, g.cfg.dram.tRCD + g.cfg.dram.tCL + tm.data);
    EXPECT_EQ_U(a.ready, t);
    EXPECT_EQ_U(dstat(&g, "reads"), 1);
    EXPECT_EQ_U(dstat(&g, "activates"), 1);
    EXPECT_EQ_U(dstat(&g, "row_misses"), 1);
    EXPECT_EQ_U(dstat(&g, "row_hits"), 0);
    EXPECT_EQ_U(dstat(&g, "busy_cycles"), tm.ncols * tm.bus);
    EXPECT_EQ_U(dram_pending(g.d), 0);
    EXPECT_EQ_U(dram_next_event(g.d, t + 1), UINT64_MAX);
    rig_close(&g);
}

TEST(dram_row_hit_is_faster)
{
    Rig g;
    rig_init(&g, "frfcfs");
    Timing tm = timing_of(&g.cfg.dram);
    MemReq a = mkreq(MREQ_READ, 5, 9, 0x2000), b = mkreq(MREQ_READ, 5, 9, 0x2080);
    dram_push(g.d, &a, 0);
    MemReq *got;
    uint64_t t1 = run_to_reply(&g, 0, 1000, &got);
    ASSERT(got == &a);
    dram_push(g.d, &b, t1);
    uint64_t t2 = run_to_reply(&g, t1, t1 + 1000, &got);
    ASSERT(got == &b);
    /* The row is still open: no ACT, just the column commands. */
    EXPECT_EQ_U(t2 - t1, g.cfg.dram.tCL + tm.data);
    EXPECT(t2 - t1 < t1);
    EXPECT_EQ_U(dstat(&g, "activates"), 1);
    EXPECT_EQ_U(dstat(&g, "precharges"), 0);
    EXPECT_EQ_U(dstat(&g, "row_hits"), 1);
    EXPECT_EQ_U(dstat(&g, "row_misses"), 1);
    rig_close(&g);
}

/* A (row 1) is in service; then B (row 2, older) and C (row 1, younger) wait for the same bank.
 * Returns the order in which the replies came back as a 3-letter string. */
static void reorder_case(const char *sched, char order[4], uint64_t *hits)
{
    Rig g;
    rig_init(&g, sched);
    MemReq a = mkreq(MREQ_READ, 2, 1, 0xA), b = mkreq(MREQ_READ, 2, 2, 0xB), c = mkreq(MREQ_READ, 2, 1, 0xC);
    dram_push(g.d, &a, 0);
    dram_tick(g.d, 0); /* the bank takes A */
    dram_push(g.d, &b, 1);
    dram_push(g.d, &c, 2);
    int n = 0;
    for (uint64_t t = 1; t < 2000 && n < 3; t++) {
        dram_tick(g.d, t);
        MemReq *r;
        while ((r = dram_pop_reply(g.d, t)) != NULL)
            order[n++] = (char)('A' + (r->addr - 0xA));
    }
    order[n] = 0;
    *hits = dstat(&g, "row_hits");
    rig_close(&g);
}

TEST(dram_frfcfs_serves_row_hit_first)
{
    char order[4];
    uint64_t hits;
    reorder_case("frfcfs", order, &hits);
    EXPECT_STR(order, "ACB");
    EXPECT_EQ_U(hits, 1);
}

TEST(dram_fcfs_keeps_arrival_order)
{
    char order[4];
    uint64_t hits;
    reorder_case("fcfs", order, &hits);
    EXPECT_STR(order, "ABC");
    EXPECT_EQ_U(hits, 0);
}

TEST(dram_banks_overlap_rows_conflict)
{
    Rig g;
    rig_init(&g, "frfcfs");
    const DramConfig *c = &g.cfg.dram;
    Timing tm = timing_of(c);
    uint64_t single = c->tRCD + c->tCL + tm.data;

    /* Two banks (different bank groups): the second ACT waits tRRD, then everything overlaps. */
    MemReq a = mkreq(MREQ_READ, 0, 1, 0), b = mkreq(MREQ_READ, 1, 1, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    MemReq *got;
    uint64_t t1 = run_to_reply(&g, 0, 1000, &got);
    EXPECT(got == &a);
    uint64_t t2 = run_to_reply(&g, t1 + 1, 1000, &got);
    EXPECT(got == &b);
    EXPECT(t2 < 2 * single);
    EXPECT(t2 >= single + c->tRRD);
    rig_close(&g);

    /* Same bank, two rows: PRE after tRAS (and tRTPL after the last read), ACT after tRP and
     * tRC, then the second access. */
    rig_init(&g, "frfcfs");
    a = mkreq(MREQ_READ, 0, 1, 0);
    b = mkreq(MREQ_READ, 0, 2, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    t1 = run_to_reply(&g, 0, 1000, &got);
    EXPECT(got == &a);
    t2 = run_to_reply(&g, t1 + 1, 1000, &got);
    EXPECT(got == &b);
    uint64_t last_col = c->tRCD + (tm.ncols - 1) * tm.colgap;
    uint64_t pre = MAX((uint64_t)c->tRAS, last_col + c->tRTPL);
    uint64_t act2 = MAX(pre + c->tRP, (uint64_t)c->tRC);
    EXPECT_EQ_U(t1, single);
    EXPECT_EQ_U(t2, act2 + single);
    EXPECT(t2 - t1 >= c->tRP + c->tRCD);
    EXPECT_EQ_U(dstat(&g, "precharges"), 1);
    EXPECT_EQ_U(dstat(&g, "activates"), 2);
    EXPECT_EQ_U(dstat(&g, "row_misses"), 2);
    rig_close(&g);
}

/* Bank 0: `first` to row 1, then a read of row 2, both at cycle 0, with tRC out of the way so
 * that PRE timing decides when row 2 opens. Returns the read's reply cycle; *first_end gets the
 * first request's data end. */
static uint64_t conflict_case(uint32_t tras, uint32_t trtpl, MemReqKind first, uint64_t *first_end, Config *cfg_out)
{
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.tRC = 1;
    g.cfg.dram.tRAS = tras;
    g.cfg.dram.tRTPL = trtpl;
    rig_open(&g, "frfcfs");
    MemReq a = mkreq(first, 0, 1, 0), b = mkreq(MREQ_READ, 0, 2, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    MemReq *got = NULL;
    uint64_t t = 0;
    while (t < 1000) {
        t = run_to_reply(&g, t, 1000, &got) + 1;
        if (got == &b)
            break;
    }
    *first_end = a.ready;
    *cfg_out = g.cfg;
    rig_close(&g);
    return got == &b ? t - 1 : UINT64_MAX;
}

TEST(dram_precharge_constraints)
{
    Config c;
    uint64_t end1;
    /* tRAS bounds the PRE: ACT 0, PRE at tRAS, ACT at tRAS + tRP. */
    uint64_t t = conflict_case(28, 2, MREQ_READ, &end1, &c);
    Timing tm = timing_of(&c.dram);
    uint64_t single = c.dram.tRCD + c.dram.tCL + tm.data;
    uint64_t last_col = c.dram.tRCD + (tm.ncols - 1) * tm.colgap;
    ASSERT(last_col + 2 < 28);
    EXPECT_EQ_U(t, 28 + c.dram.tRP + single);
    /* tRTPL bounds it: PRE at the last read column command + tRTPL. */
    t = conflict_case(1, 4, MREQ_READ, &end1, &c);
    EXPECT_EQ_U(t, last_col + 4 + c.dram.tRP + single);
    /* tWR bounds it after a write: PRE tWR after the write data. */
    t = conflict_case(1, 2, MREQ_WRITE, &end1, &c);
    EXPECT_EQ_U(end1, last_col + c.dram.tWL + tm.bus);
    EXPECT_EQ_U(t, end1 + c.dram.tWR + c.dram.tRP + single);
}

typedef struct WriteLog {
    int n;
    MemReq *last;
} WriteLog;

static void on_write_done(void *ctx, MemReq *r)
{
    WriteLog *w = ctx;
    w->n++;
    w->last = r;
}

TEST(dram_data_bus_is_shared)
{
    /* A read on bank 0 and a write on bank 1: the write's data (tWL after its command) may not
     * start before the read's data (tCL after its command) has left the bus. */
    Rig g;
    rig_init(&g, "frfcfs");
    const DramConfig *c = &g.cfg.dram;
    Timing tm = timing_of(c);
    WriteLog log = {0, NULL};
    dram_set_write_done(g.d, on_write_done, &log);
    MemReq rd = mkreq(MREQ_READ, 0, 1, 0), w = mkreq(MREQ_WRITE, 1, 1, 1);
    dram_push(g.d, &rd, 0);
    dram_push(g.d, &w, 0);
    MemReq *got;
    uint64_t t = run_to_reply(&g, 0, 1000, &got);
    ASSERT(got == &rd);
    for (uint64_t u = t + 1; u < t + 100; u++)
        dram_tick(g.d, u);
    ASSERT(log.n == 1);
    uint64_t first_w = MAX((uint64_t)c->tRRD + c->tRCD, rd.ready - c->tWL);
    ASSERT(first_w > (uint64_t)c->tRRD + c->tRCD); /* the bus, not tRCD, decides */
    EXPECT_EQ_U(w.ready, first_w + (tm.ncols - 1) * tm.colgap + c->tWL + tm.bus);
    rig_close(&g);

    /* With tCCD and tCCDL at 1, reads of two bank groups still space their column commands by
     * the bus time: both lines need 2 * ncols bus slots after the first data. */
    config_init(&g.cfg);
    g.cfg.dram.tCCD = 1;
    g.cfg.dram.tCCDL = 1;
    g.cfg.dram.tRRD = 1;
    rig_open(&g, "frfcfs");
    MemReq a = mkreq(MREQ_READ, 0, 1, 0), b = mkreq(MREQ_READ, 1, 1, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    run_to_reply(&g, 0, 1000, &got);
    uint64_t t2 = run_to_reply(&g, a.ready + 1, 1000, &got);
    EXPECT(got == &b);
    /* a's first column at tRCD, its data starts tCL later; 2 * ncols transfers back to back. */
    EXPECT_EQ_U(t2, c->tRCD + c->tCL + 2 * tm.ncols * tm.bus);
    rig_close(&g);
}

TEST(dram_one_command_per_cycle)
{
    /* Without tRRD two banks could activate together; the command bus takes one per cycle. */
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.tRRD = 0;
    rig_open(&g, "frfcfs");
    MemReq a = mkreq(MREQ_READ, 0, 1, 0), b = mkreq(MREQ_READ, 1, 1, 1), c = mkreq(MREQ_READ, 2, 1, 2);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    dram_push(g.d, &c, 0);
    EXPECT(dram_tick(g.d, 0));
    EXPECT_EQ_U(dstat(&g, "activates"), 1);
    EXPECT(!dram_tick(g.d, 0)); /* ticking the same cycle again issues nothing more */
    EXPECT_EQ_U(dstat(&g, "activates"), 1);
    EXPECT(dram_tick(g.d, 1));
    EXPECT_EQ_U(dstat(&g, "activates"), 2);
    EXPECT_EQ_U(dram_next_event(g.d, 2), 2);
    EXPECT(dram_tick(g.d, 2));
    EXPECT_EQ_U(dstat(&g, "activates"), 3);
    EXPECT(!dram_tick(g.d, 3)); /* nothing can issue until tRCD after the first ACT */
    EXPECT_EQ_U(dram_next_event(g.d, 3), g.cfg.dram.tRCD);
    rig_close(&g);
}

TEST(dram_tccd_between_bank_groups)
{
    /* Two reads in different bank groups with tCCD = tCCDL = 5 (longer than the bus time): all
     * four column commands are tCCD apart, from tRCD on. */
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.tCCD = 5;
    g.cfg.dram.tCCDL = 5;
    g.cfg.dram.tRRD = 1;
    rig_open(&g, "frfcfs");
    const DramConfig *c = &g.cfg.dram;
    Timing tm = timing_of(c);
    ASSERT(tm.bus < 5 && tm.ncols == 2);
    MemReq a = mkreq(MREQ_READ, 0, 1, 0), b = mkreq(MREQ_READ, 1, 1, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    MemReq *got;
    uint64_t t1 = run_to_reply(&g, 0, 1000, &got);
    uint64_t t2 = run_to_reply(&g, t1 + 1, 1000, &got);
    EXPECT_EQ_U(MAX(a.ready, b.ready), t2);
    EXPECT_EQ_U(t2, c->tRCD + 3 * c->tCCD + c->tCL + tm.bus);
    rig_close(&g);
}

/* Cycles at which ACTs issued, watching the activates counter while ticking every cycle. */
static int act_cycles(Rig *g, uint64_t *acts, int max, uint64_t limit)
{
    int n = 0;
    uint64_t prev = 0;
    for (uint64_t t = 0; t < limit; t++) {
        dram_tick(g->d, t);
        while (dram_pop_reply(g->d, t))
            ;
        uint64_t now_acts = dstat(g, "activates");
        if (now_acts != prev && n < max)
            acts[n++] = t;
        prev = now_acts;
    }
    return n;
}

TEST(dram_trrd_and_trc)
{
    /* tRAS short so that tRC (not tRAS + tRP) bounds the same-bank re-activation; tRRD odd so
     * it cannot be confused with another constraint. */
    for (uint32_t trrd = 6; trrd <= 9; trrd += 3) {
        Rig g;
        config_init(&g.cfg);
        g.cfg.dram.tRAS = 10;
        g.cfg.dram.tRRD = trrd;
        rig_open(&g, "frfcfs");
        const DramConfig *c = &g.cfg.dram;
        Timing tm = timing_of(c);
        ASSERT(c->tRCD + (tm.ncols - 1) * tm.colgap + c->tRTPL + c->tRP < c->tRC);
        MemReq r[5] = {mkreq(MREQ_READ, 0, 1, 0), mkreq(MREQ_READ, 1, 1, 1), mkreq(MREQ_READ, 2, 1, 2),
                       mkreq(MREQ_READ, 3, 1, 3), mkreq(MREQ_READ, 0, 2, 4)};
        for (int i = 0; i < 5; i++)
            dram_push(g.d, &r[i], 0);
        uint64_t acts[8];
        int n = act_cycles(&g, acts, 8, 1000);
        ASSERT(n == 5);
        EXPECT_EQ_U(acts[0], 0);
        EXPECT_EQ_U(acts[1], trrd);
        for (int i = 1; i < n; i++)
            EXPECT(acts[i] - acts[i - 1] >= trrd);
        /* Bank 0 re-activates (row 2) exactly tRC after its first ACT. */
        EXPECT_EQ_U(acts[4], c->tRC);
        EXPECT_EQ_U(dram_pending(g.d), 0);
        rig_close(&g);
    }
}

TEST(dram_queue_bound)
{
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.queue = 4;
    rig_open(&g, "frfcfs");
    MemReq r[5];
    for (int i = 0; i < 4; i++) {
        EXPECT(dram_can_accept(g.d));
        r[i] = mkreq(MREQ_READ, 0, (uint32_t)i, (uint64_t)i);
        dram_push(g.d, &r[i], 0);
    }
    EXPECT(!dram_can_accept(g.d));
    EXPECT_EQ_U(dram_pending(g.d), 4);
    /* Nothing happens until cycle 3: the queue stays full for 3 cycles. */
    dram_tick(g.d, 3); /* the bank takes the oldest request, freeing one entry */
    EXPECT(dram_can_accept(g.d));
    EXPECT_EQ_U(dstat(&g, "queue_full"), 3);
    r[4] = mkreq(MREQ_READ, 0, 9, 4);
    dram_push(g.d, &r[4], 3);
    EXPECT(!dram_can_accept(g.d));
    EXPECT_EQ_U(dram_pending(g.d), 5);
    rig_close(&g);
}

TEST(dram_writes_no_reply_and_turnaround)
{
    Rig g;
    rig_init(&g, "frfcfs");
    const DramConfig *c = &g.cfg.dram;
    Timing tm = timing_of(c);
    WriteLog log = {0, NULL};
    dram_set_write_done(g.d, on_write_done, &log);
    /* A write, then a read of the same row: the read waits tCDLR after the write data. */
    MemReq w = mkreq(MREQ_WRITE, 4, 3, 0x40), rd = mkreq(MREQ_READ, 4, 3, 0x80);
    dram_push(g.d, &w, 0);
    dram_push(g.d, &rd, 0);
    MemReq *got;
    uint64_t t = run_to_reply(&g, 0, 1000, &got);
    ASSERT(got == &rd); /* the write never comes back */
    EXPECT(!w.is_reply);
    EXPECT_EQ_U(log.n, 1);
    EXPECT(log.last == &w);
    uint64_t last_wcol = c->tRCD + (tm.ncols - 1) * tm.colgap;
    uint64_t wdata_end = last_wcol + c->tWL + tm.bus;
    EXPECT_EQ_U(w.ready, wdata_end);
    uint64_t first_rcol = MAX(wdata_end + c->tCDLR, last_wcol + tm.colgap);
    EXPECT_EQ_U(t, first_rcol + (tm.ncols - 1) * tm.colgap + c->tCL + tm.bus);
    EXPECT_EQ_U(dstat(&g, "writes"), 1);
    EXPECT_EQ_U(dstat(&g, "reads"), 1);
    EXPECT_EQ_U(dstat(&g, "busy_cycles"), 2 * tm.ncols * tm.bus);
    EXPECT_EQ_U(dram_next_event(g.d, t + 1), UINT64_MAX);

    /* A lone write leaves nothing to pop, and the controller drains. */
    MemReq w2 = mkreq(MREQ_WRITEBACK, 7, 1, 0x100);
    w2.size_bytes = 32; /* a partial line: one column command */
    dram_push(g.d, &w2, t + 1);
    for (uint64_t u = t + 1; u < t + 200; u++) {
        dram_tick(g.d, u);
        EXPECT(dram_pop_reply(g.d, u) == NULL);
    }
    EXPECT_EQ_U(dstat(&g, "writes"), 2);
    EXPECT_EQ_U(dstat(&g, "busy_cycles"), 2 * tm.ncols * tm.bus + tm.bus);
    EXPECT_EQ_U(dram_pending(g.d), 0);
    EXPECT_EQ_U(log.n, 2);
    rig_close(&g);
}

TEST(dram_return_queue_backpressure)
{
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.return_queue = 1;
    rig_open(&g, "frfcfs");
    MemReq a = mkreq(MREQ_READ, 0, 1, 0), b = mkreq(MREQ_READ, 1, 1, 1);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    for (uint64_t t = 0; t < 300; t++)
        dram_tick(g.d, t);
    /* a waits in the return queue; b's last column command cannot issue. */
    EXPECT_EQ_U(dstat(&g, "reads"), 1);
    EXPECT_EQ_U(dram_pending(g.d), 2);
    EXPECT_EQ_U(dram_next_event(g.d, 300), 300); /* a is ready to pop */
    EXPECT(dram_pop_reply(g.d, 300) == &a);
    uint64_t next = dram_next_event(g.d, 301);
    EXPECT_EQ_U(next, 301); /* b's last column command may go now */
    MemReq *got;
    uint64_t t = run_to_reply(&g, 301, 1000, &got);
    EXPECT(got == &b);
    EXPECT_EQ_U(t, 301 + g.cfg.dram.tCL + timing_of(&g.cfg.dram).bus);
    rig_close(&g);
}

/* A mixed stream: reads and writes over a few banks and rows, arriving over time. */
#define MIX_N 40
typedef struct MixResult {
    uint64_t reply_cycle[MIX_N];
    uint64_t acts, pres, hits, busy, steps;
} MixResult;

static void mix_requests(MemReq *r, uint64_t *arrive)
{
    uint64_t seed = 12345;
    for (int i = 0; i < MIX_N; i++) {
        uint64_t x = rng_next(&seed);
        r[i] = mkreq((x & 7) == 0 ? MREQ_WRITE : MREQ_READ, (uint32_t)((x >> 8) % 6), (uint32_t)((x >> 16) % 3),
                     (uint64_t)i);
        arrive[i] = (uint64_t)i * 7 + ((x >> 24) % 5);
    }
}

/* skip = 0: tick every cycle; skip = 1: jump from event to event with dram_next_event. */
static void run_mix(const char *sched, int skip, MixResult *out)
{
    Rig g;
    config_init(&g.cfg);
    g.cfg.dram.queue = 8;
    rig_open(&g, sched);
    MemReq r[MIX_N];
    uint64_t arrive[MIX_N];
    mix_requests(r, arrive);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < MIX_N; i++)
        out->reply_cycle[i] = UINT64_MAX;
    int next_in = 0;
    uint64_t t = 0;
    while (t < 100000) {
        while (next_in < MIX_N && arrive[next_in] <= t && dram_can_accept(g.d))
            dram_push(g.d, &r[next_in++], t);
        dram_tick(g.d, t);
        MemReq *p;
        while ((p = dram_pop_reply(g.d, t)) != NULL)
            out->reply_cycle[p->addr] = t;
        out->steps++;
        if (next_in == MIX_N && dram_pending(g.d) == 0)
            break;
        if (!skip) {
            t++;
            continue;
        }
        uint64_t nx = dram_next_event(g.d, t + 1);
        /* The next arrival matters only when it can enter the queue. */
        if (next_in < MIX_N && dram_can_accept(g.d))
            nx = MIN(nx, MAX(arrive[next_in], t + 1));
        if (nx == UINT64_MAX)
            break;
        t = nx;
    }
    out->acts = dstat(&g, "activates");
    out->pres = dstat(&g, "precharges");
    out->hits = dstat(&g, "row_hits");
    out->busy = dstat(&g, "busy_cycles");
    rig_close(&g);
}

TEST(dram_next_event_matches_cycle_by_cycle)
{
    const char *scheds[] = {"frfcfs", "fcfs"};
    for (int s = 0; s < 2; s++) {
        MixResult a, b;
        run_mix(scheds[s], 0, &a);
        run_mix(scheds[s], 1, &b);
        int reads = 0;
        for (int i = 0; i < MIX_N; i++) {
            EXPECT_EQ_U(a.reply_cycle[i], b.reply_cycle[i]);
            reads += a.reply_cycle[i] != UINT64_MAX;
        }
        EXPECT(reads > MIX_N / 2);
        EXPECT_EQ_U(a.acts, b.acts);
        EXPECT_EQ_U(a.pres, b.pres);
        EXPECT_EQ_U(a.hits, b.hits);
        EXPECT_EQ_U(a.busy, b.busy);
        EXPECT(b.steps < a.steps); /* the skipping run really skipped */
    }
    /* And for one read, the first event after the column commands is the reply itself. */
    Rig g;
    rig_init(&g, "frfcfs");
    MemReq x = mkreq(MREQ_READ, 1, 1, 0);
    dram_push(g.d, &x, 0);
    uint64_t t = 0, last = 0;
    MemReq *got = NULL;
    for (int steps = 0; steps < 20 && !got; steps++) {
        t = dram_next_event(g.d, t);
        ASSERT(t != UINT64_MAX);
        dram_tick(g.d, t);
        got = dram_pop_reply(g.d, t);
        last = t++;
    }
    EXPECT(got == &x);
    EXPECT_EQ_U(last, g.cfg.dram.tRCD + g.cfg.dram.tCL + timing_of(&g.cfg.dram).data);
    rig_close(&g);
}

TEST(dram_deterministic_and_policies_differ)
{
    MixResult a, b, f;
    run_mix("frfcfs", 1, &a);
    run_mix("frfcfs", 1, &b);
    EXPECT(!memcmp(&a, &b, sizeof a));
    run_mix("fcfs", 1, &f);
    EXPECT(a.hits > f.hits); /* FR-FCFS finds more row hits on the same stream */
}

TEST(dram_policy_contract)
{
    DramSchedEntry q[4] = {{.bank = 1, .row = 5, .arrival = 0}, {.bank = 2, .row = 5, .arrival = 1},
                           {.bank = 1, .row = 6, .arrival = 2}, {.bank = 1, .row = 6, .arrival = 3}};
    ASSERT(policy_count(POLICY_DRAM) >= 2);
    for (uint32_t i = 0; i < policy_count(POLICY_DRAM); i++) {
        const DramSchedOps *ops = policy_dram(policy_name_at(POLICY_DRAM, i));
        ASSERT(ops && ops->pick && ops->meta.name && ops->meta.help);
        EXPECT_EQ_I(ops->pick(q, 4, 3, UINT32_MAX), -1); /* no request for bank 3 */
        EXPECT_EQ_I(ops->pick(q, 0, 1, UINT32_MAX), -1);
        EXPECT_EQ_I(ops->pick(q, 4, 2, 9), 1);          /* the only one of bank 2 */
        EXPECT_EQ_I(ops->pick(q, 4, 1, UINT32_MAX), 0); /* closed bank: oldest */
        int p = ops->pick(q, 4, 1, 6);
        EXPECT(p == 0 || p == 2); /* oldest, or the oldest row hit, never the younger hit */
    }
    EXPECT_EQ_I(policy_dram("frfcfs")->pick(q, 4, 1, 6), 2);
    EXPECT_EQ_I(policy_dram("fcfs")->pick(q, 4, 1, 6), 0);
}

TEST(dram_dump_lists_state)
{
    Rig g;
    rig_init(&g, "frfcfs");
    MemReq a = mkreq(MREQ_READ, 3, 7, 0x1230), b = mkreq(MREQ_WRITE, 3, 8, 0x4560);
    dram_push(g.d, &a, 0);
    dram_push(g.d, &b, 0);
    dram_tick(g.d, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT(f);
    dram_dump(g.d, f);
    fclose(f);
    EXPECT_CONTAINS(buf, "dram[0]: sched frfcfs, queue 1/");
    EXPECT_CONTAINS(buf, "queue[0] write addr=0x4560 bank=3 row=8");
    EXPECT_CONTAINS(buf, "bank[3] group=3 row=7 queued=1 serving read addr=0x1230");
    EXPECT_CONTAINS(buf, "next=COL");
    free(buf);
    rig_close(&g);
}

/* Bursts per access size (GPGPU-Sim's dram_atom_size): a column command moves bus_bytes x chips
 * x burst = 64 bytes on the GTX480 and holds the data bus burst / data_ratio = 2 cycles, so a
 * request of n bytes takes ceil(n / 64) column commands: a 32-byte sector one, a 128-byte line
 * two, 256 bytes four. Checked from the data bus's busy cycles of one read of each size. */
TEST(dram_bursts_per_access_size)
{
    static const uint32_t sizes[] = {4, 32, 64, 65, 96, 128, 256};
    static const uint64_t cols[] = {1, 1, 1, 2, 2, 2, 4};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        Rig g;
        rig_init(&g, "frfcfs");
        MemReq a = mkreq(MREQ_READ, 1, 3, 0x2000);
        a.size_bytes = sizes[i];
        dram_push(g.d, &a, 0);
        MemReq *got;
        run_to_reply(&g, 0, 1000, &got);
        ASSERT(got == &a);
        EXPECT_EQ_U(dstat(&g, "busy_cycles"), cols[i] * 2);
        rig_close(&g);
    }
}
