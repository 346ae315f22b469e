/* test_sm_hooks.c: what one SM tells its policies and what they decide, on the SM rig of
 * test_sm.c (tests/sm_rig.h): the warp scheduler's hooks and held cycles, the places a barrier
 * frees under limiting schedulers, loads serviced and done, barrier waiters, L1D misses and
 * evictions as the scheduler hears them, and the replacement policy's serviced loads. */
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "core/sm.h"
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

TEST(sm_scheduler_hooks_and_held)
{
    /* swl with a limit of 1 on one scheduler: of two ready warps only the older issues until
     * it exits; the younger is held back whenever it is the only ready one. */
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", "swl", err, sizeof err));
    ASSERT(config_set(&r->c, "sm.sched.swl.limit", "1", err, sizeof err));
    ASSERT(rig_start(r, 64, 1));
    EXPECT_STR(r->sm.sched_ops->meta.name, "swl");
    const uint64_t lat = r->c.alu.int_add_lat;
    MockInst p[] = {alu(1, 0), alu(2, 1), ex()};
    script(&r->f, 0, p, 3);
    script(&r->f, 1, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    ASSERT(r->f.n_log == 6);
    for (uint32_t i = 0; i < 6; i++) /* warp 0's three, then warp 1's */
        EXPECT_EQ_U(r->f.log[i].warp, i < 3 ? 0 : 1);
    EXPECT_EQ_I(issued_at(&r->f, 0, 16), 1 + lat + 1);
    EXPECT_EQ_I(issued_at(&r->f, 1, 0), 1 + lat + 2); /* the cycle after warp 0 exits */
    EXPECT_EQ_U(r->sm.held, lat - 1); /* warp 0 waiting on r1, warp 1 ready but held */
    EXPECT_EQ_U(r->sm.ctas_done, 1);
    rig_free(r);

    /* The same two warps under gto: warp 1 fills warp 0's stall and nothing is held. */
    r = rig_new();
    ASSERT(rig_start(r, 64, 1));
    script(&r->f, 0, p, 3);
    script(&r->f, 1, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_I(issued_at(&r->f, 1, 0), 2);
    EXPECT_EQ_U(r->sm.held, 0);
    rig_free(r);
}

/* swl with a limit of 1 and a barrier: the older warp waits at the barrier, gives up its place,
 * and the younger one runs to the barrier (without that, neither would ever go on). */
/* A policy that lets one warp of two issue at a time: a CTA with a barrier still finishes
 * (the waiter gives its place to the warp the barrier waits for). */
static void barrier_frees_a_place(const char *sched, const char *key)
{
    Rig *r = rig_new();
    char err[256];
    ASSERT(config_set(&r->c, "sm.sched", sched, err, sizeof err));
    ASSERT(config_set(&r->c, key, "1", err, sizeof err));
    ASSERT(rig_start(r, 64, 1));
    MockInst p[] = {alu(1, 0), bar(), alu(2, 0), ex()};
    script(&r->f, 0, p, 4);
    script(&r->f, 1, p, 4);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    EXPECT_EQ_U(r->f.n_log, 8);
    EXPECT(issued_at(&r->f, 1, 0) > issued_at(&r->f, 0, 8)); /* warp 1 starts once warp 0 waits */
    EXPECT(issued_at(&r->f, 0, 16) > issued_at(&r->f, 1, 8)); /* both leave the barrier */
    EXPECT_EQ_U(r->sm.ctas_done, 1);
    rig_free(r);
}

TEST(sm_swl_barrier_frees_its_place) { barrier_frees_a_place("swl", "sm.sched.swl.limit"); }
TEST(sm_twolevel_barrier_frees_its_place) { barrier_frees_a_place("twolevel", "sm.sched.twolevel.active"); }
TEST(sm_las_barrier_frees_its_place) { barrier_frees_a_place("las", "sm.sched.las.active"); }

/* A replacement policy that only records the loads the L1D reports serviced. */
static ReplLoad serviced_last;
static uint32_t serviced_n;
static void serviced_hook(void *self, const ReplLoad *l)
{
    (void)self;
    serviced_last = *l;
    serviced_n++;
}
static const ReplOps serviced_ops = {.meta = {.name = "serviced", .help = "test"},
                                     .on_load_serviced = serviced_hook};

TEST(sm_misses_per_load_and_issue_rank)
{
    Rig *r = rig_new();
    r->c.l1d.assoc = 4; /* room for the 4 lines in any set */
    ASSERT(rig_start(r, 32, 1));
    const ReplOps *own = r->sm.l1d.tags.repl;
    r->sm.l1d.tags.repl = &serviced_ops; /* nothing is evicted: only invalid ways are filled */
    serviced_n = 0;
    const uint64_t A = 0x10000, C = 0x30000;
    /* pc 0: a divergent load of 4 lines (all miss); pc 8: waits for it; pc 16: the same lines
     * (all hit); pc 24: one line elsewhere (a coherent miss); pc 32: exit */
    MockInst p[] = {ld(1, A, 16), alu(4, 1), ld(2, A, 16), ld(3, C, 4), ex()};
    script(&r->f, 0, p, 5);
    rig_launch(r, 0);
    bool idle = rig_run(r, 1000);
    r->sm.l1d.tags.repl = own;
    ASSERT(idle && r->f.bad == 0);
    const uint64_t div[SM_MPLI_BUCKETS] = {1, 0, 0, 1, 0}, coh[SM_MPLI_BUCKETS] = {0, 1, 0, 0, 0};
    for (int b = 0; b < SM_MPLI_BUCKETS; b++) {
        EXPECT_EQ_U(r->sm.mpli_div[b], div[b]);
        EXPECT_EQ_U(r->sm.mpli_coh[b], coh[b]);
    }
    EXPECT_EQ_U(serviced_n, 3);
    EXPECT_EQ_U(serviced_last.pc, 24);
    EXPECT_EQ_U(serviced_last.accesses, 1);
    EXPECT_EQ_U(serviced_last.misses, 1);
    EXPECT_EQ_U(serviced_last.sched_rank, 0);
    EXPECT_EQ_U(r->sm.issue_rank[0], 5); /* one warp: every issue is rank 0 */
    rig_free(r);
}

/* A scheduler that issues the oldest ready warp and records what the SM tells it: the loads
 * serviced and done, and the active lanes of each warp's next instruction at its issues. */
typedef struct HeardLoads {
    WarpLoadDone serviced[8], done[8];
    uint32_t n_serviced, n_done, n_picks;
    uint8_t lanes[16];
    uint32_t lanes_slot[16];
    uint64_t live_mask[16], barrier_mask[16];
} HeardLoads;
static HeardLoads heard;
static int heard_pick(void *self, const WarpSchedView *v)
{
    int s = warp_sched_oldest(v->ready, v->age);
    if (heard.n_picks < 16) {
        heard.lanes_slot[heard.n_picks] = (uint32_t)s;
        heard.live_mask[heard.n_picks] = v->sm->live_mask;
        heard.barrier_mask[heard.n_picks] = v->sm->barrier_mask;
        heard.lanes[heard.n_picks++] = v->sm->slot[s].next_lanes;
    }
    return s;
}
static void heard_serviced(void *self, const WarpLoadDone *e)
{
    if (heard.n_serviced < 8)
        heard.serviced[heard.n_serviced++] = *e;
}
static void heard_done(void *self, const WarpLoadDone *e)
{
    if (heard.n_done < 8)
        heard.done[heard.n_done++] = *e;
}
static const WarpSchedOps heard_ops = {.meta = {.name = "heard", .help = "test"}, .pick = heard_pick,
                                       .on_load_serviced = heard_serviced, .on_load_done = heard_done};

TEST(sm_scheduler_hears_loads_serviced)
{
    Rig *r = rig_new();
    r->c.l1d.assoc = 4; /* room for the 4 lines in any set */
    ASSERT(rig_start(r, 40, 1)); /* warp 0: 32 threads, warp 1: 8 */
    const WarpSchedOps *own = r->sm.sched_ops;
    r->sm.sched_ops = &heard_ops; /* the gto instances it was made with are not used */
    memset(&heard, 0, sizeof heard);
    const uint64_t A = 0x10000, C = 0x30000;
    MockInst nodst = ld(0, C, 4);
    nodst.s.n_dst = 0;
    /* warp 0, pc 0: a divergent load of 4 lines (all miss); pc 8: a load nobody reads (no
     * lookup); pc 16: waits for pc 0; pc 24: the same 4 lines (all hit); pc 32: exit.
     * warp 1 only exits. */
    MockInst p[] = {ld(1, A, 16), nodst, alu(4, 1), ld(2, A, 16), ex()};
    MockInst q[] = {ex()};
    script(&r->f, 0, p, 5);
    script(&r->f, 1, q, 1);
    rig_launch(r, 0);
    bool idle = rig_run(r, 1000);
    r->sm.sched_ops = own;
    ASSERT(idle && r->f.bad == 0);
    ASSERT(heard.n_serviced == 3);
    /* in the order they left the LD/ST unit; each before its data is back */
    EXPECT_EQ_U(heard.serviced[0].pc, 0);
    EXPECT_EQ_U(heard.serviced[0].accesses, 4);
    EXPECT_EQ_U(heard.serviced[0].misses, 4);
    EXPECT(!heard.serviced[0].fully_cached);
    EXPECT_EQ_U(heard.serviced[0].cycle, issued_at(&r->f, 0, 0) + 4); /* one access a cycle */
    EXPECT_EQ_U(heard.serviced[1].pc, 8);
    EXPECT_EQ_U(heard.serviced[1].accesses, 1);
    EXPECT_EQ_U(heard.serviced[1].misses, 0);
    EXPECT_EQ_U(heard.serviced[2].pc, 24);
    EXPECT_EQ_U(heard.serviced[2].accesses, 4);
    EXPECT_EQ_U(heard.serviced[2].misses, 0);
    EXPECT(heard.serviced[2].fully_cached);
    for (uint32_t i = 0; i < 3; i++)
        EXPECT_EQ_U(heard.serviced[i].slot, 0);
    ASSERT(heard.n_done == 2); /* loads with a destination only */
    EXPECT_EQ_U(heard.done[0].pc, 0);
    EXPECT(heard.done[0].cycle > heard.serviced[0].cycle);
    EXPECT_EQ_U(heard.done[1].pc, 24);
    /* The mock front end cannot tell a warp's lanes: a warp's first instruction sees its
     * threads (8 for warp 1), later ones the lanes of the instruction before (the mock runs
     * every lane). */
    uint32_t seen1 = 0;
    for (uint32_t i = 0; i < heard.n_picks; i++) {
        if (heard.lanes_slot[i] == 1) {
            EXPECT_EQ_U(heard.lanes[i], 8);
            seen1++;
        } else {
            EXPECT_EQ_U(heard.lanes[i], 32);
        }
    }
    EXPECT_EQ_U(seen1, 1);
    rig_free(r);
}

TEST(sm_scheduler_sees_barrier_waiters)
{
    /* Warp 0 reaches the barrier first and waits there while warp 1 runs three dependent adds
     * up to it; the schedulers see warp 0 in the barrier mask until the release. */
    Rig *r = rig_new();
    ASSERT(rig_start(r, 64, 1));
    const WarpSchedOps *own = r->sm.sched_ops;
    r->sm.sched_ops = &heard_ops;
    memset(&heard, 0, sizeof heard);
    MockInst early[] = {bar(), alu(1, 0), ex()};
    MockInst late[] = {alu(1, 0), alu(2, 1), alu(3, 2), bar(), ex()};
    script(&r->f, 0, early, 3);
    script(&r->f, 1, late, 5);
    rig_launch(r, 0);
    bool idle = rig_run(r, 1000);
    r->sm.sched_ops = own;
    ASSERT(idle && r->f.bad == 0);
    ASSERT(heard.n_picks == 8);
    /* picks: w0 bar, w1 add, add, add, bar (w0 waiting each time), then w0 add, w0 exit, w1
     * exit (or w1 first) after the release */
    EXPECT_EQ_U(heard.lanes_slot[0], 0);
    EXPECT_EQ_U(heard.barrier_mask[0], 0);
    for (uint32_t i = 1; i < 5; i++) {
        EXPECT_EQ_U(heard.lanes_slot[i], 1);
        EXPECT_EQ_U(heard.barrier_mask[i], 1);
        EXPECT_EQ_U(heard.live_mask[i], 3);
    }
    for (uint32_t i = 5; i < 8; i++)
        EXPECT_EQ_U(heard.barrier_mask[i], 0);
    EXPECT_EQ_U(r->sm.barrier_mask, 0);
    rig_free(r);
}

/* A scheduler that issues the oldest ready warp and records the L1D misses and replacements
 * the SM tells it. */
typedef struct HeardL1d {
    WarpL1dEvent miss[8], evict[8];
    uint32_t n_miss, n_evict;
} HeardL1d;
static HeardL1d heard_l1d;
static int heard_l1d_pick(void *self, const WarpSchedView *v) { return warp_sched_oldest(v->ready, v->age); }
static void heard_l1d_miss(void *self, const WarpL1dEvent *e)
{
    if (heard_l1d.n_miss < 8)
        heard_l1d.miss[heard_l1d.n_miss++] = *e;
}
static void heard_l1d_evict(void *self, const WarpL1dEvent *e)
{
    if (heard_l1d.n_evict < 8)
        heard_l1d.evict[heard_l1d.n_evict++] = *e;
}
static const WarpSchedOps heard_l1d_ops = {.meta = {.name = "heard-l1d", .help = "test"}, .pick = heard_l1d_pick,
                                           .on_l1d_miss = heard_l1d_miss, .on_l1d_evict = heard_l1d_evict};

TEST(sm_scheduler_hears_l1d_misses_and_evictions)
{
    /* Lines A, B, C and D share a set of the 2-way L1D (allocate on miss, LRU). Warp 0 loads A
     * and B and waits at two barriers; in between, warp 1 loads C, which evicts A (warp 0's,
     * told to slot 0). After the second barrier warp 0 exits; warp 1 then loads D, which evicts
     * B (its warp has exited: nobody's), and A, which evicts C (its own). Every load misses. The
     * evictions name the evicting warp too: warp 1 both times. */
    Rig *r = rig_new();
    ASSERT(rig_start(r, 64, 1));
    const WarpSchedOps *own = r->sm.sched_ops;
    r->sm.sched_ops = &heard_l1d_ops;
    sm_connect_l1d_events(&r->sm);
    memset(&heard_l1d, 0, sizeof heard_l1d);
    const uint64_t A = 0x10000, B = 0x10200, C = 0x10400, D = 0x10600;
    const Tags *t = &r->sm.l1d.tags;
    ASSERT(tags_set_of(t, A) == tags_set_of(t, B) && tags_set_of(t, A) == tags_set_of(t, C) &&
           tags_set_of(t, A) == tags_set_of(t, D));
    MockInst w0[] = {ld(1, A, 0), ld(2, B, 0), alu(3, 1), alu(4, 2), bar(), bar(), ex()};
    MockInst w1[] = {bar(), ld(1, C, 0), alu(2, 1), bar(), alu(3, 0), alu(4, 3), alu(5, 4),
                     ld(6, D, 0), alu(7, 6), ld(8, A, 0), alu(9, 8), ex()};
    script(&r->f, 0, w0, 7);
    script(&r->f, 1, w1, 12);
    rig_launch(r, 0);
    bool idle = rig_run(r, 2000);
    r->sm.sched_ops = own;
    sm_connect_l1d_events(&r->sm);
    ASSERT(idle && r->f.bad == 0 && r->n_done == 1);
    ASSERT(heard_l1d.n_miss == 5);
    const uint32_t miss_slot[5] = {0, 0, 1, 1, 1};
    const uint64_t miss_line[5] = {A, B, C, D, A}, miss_pc[5] = {0, 8, 8, 56, 72};
    for (uint32_t i = 0; i < 5; i++) {
        EXPECT_EQ_U(heard_l1d.miss[i].slot, miss_slot[i]);
        EXPECT_EQ_U(heard_l1d.miss[i].line_addr, tags_line_addr(t, miss_line[i]));
        EXPECT_EQ_U(heard_l1d.miss[i].pc, miss_pc[i]);
    }
    EXPECT_EQ_I(heard_l1d.miss[2].cycle, issued_at(&r->f, 1, 8) + 1); /* looked up the cycle after issue */
    ASSERT(heard_l1d.n_evict == 2);
    EXPECT_EQ_U(heard_l1d.evict[0].slot, 0);
    EXPECT_EQ_U(heard_l1d.evict[0].evictor, 1); /* warp 1's load of C replaced warp 0's A */
    EXPECT_EQ_U(heard_l1d.evict[0].line_addr, tags_line_addr(t, A));
    EXPECT_EQ_U(heard_l1d.evict[0].cycle, heard_l1d.miss[2].cycle); /* C's miss took A's way */
    EXPECT_EQ_U(heard_l1d.evict[1].slot, 1);
    EXPECT_EQ_U(heard_l1d.evict[1].evictor, 1); /* its own load of A */
    for (uint32_t i = 0; i < 5; i++)
        EXPECT_EQ_U(heard_l1d.miss[i].evictor, WARP_L1D_NOBODY);
    EXPECT_EQ_U(heard_l1d.evict[1].line_addr, tags_line_addr(t, C));
    EXPECT(issued_at(&r->f, 0, 48) < issued_at(&r->f, 1, 56)); /* warp 0 had exited before D */
    EXPECT_EQ_U(r->sm.l1d.miss, 5);
    rig_free(r);
}
