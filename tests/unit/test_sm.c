/* test_sm.c: one SM on its own between a mock front end (scripted warp instructions, a log of
 * what issued when) and a mock memory port (the test plays the interconnect: it drains the
 * L1D's miss queue and hands reads back after a fixed latency), driven cycle by cycle; the rig
 * is tests/sm_rig.h. */
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "core/sm.h"
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

TEST(sm_issue_and_scoreboard)
{
    Rig *r = rig_new();
    ASSERT(rig_start(r, 32, 1));
    const uint64_t lat = r->c.alu.int_add_lat;
    /* pc 0: r1 <- r0; pc 8: r3 <- r0 (independent); pc 16: r2 <- r1 (waits for pc 0); pc 24: exit */
    MockInst p[] = {alu(1, 0), alu(3, 0), alu(2, 1), ex()};
    script(&r->f, 0, p, 4);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    ASSERT(r->f.n_log == 4);
    const uint64_t first = 1; /* launched at 0, in the I-buffer fetch_lat = 1 cycle later */
    EXPECT_EQ_I(r->c.sm.fetch_lat, 1);
    EXPECT_EQ_I(issued_at(&r->f, 0, 0), first);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), first + 1);   /* independent: the next cycle */
    EXPECT_EQ_I(issued_at(&r->f, 0, 16), first + lat); /* dependent: the ALU latency later */
    EXPECT_EQ_I(issued_at(&r->f, 0, 24), first + lat + 1);
    EXPECT(lat > 2); /* otherwise the dependent one would not have waited */
    EXPECT_EQ_U(r->sm.warp_insts, 4);
    EXPECT_EQ_U(r->sm.thread_insts, 4 * 32);
    EXPECT_EQ_U(r->sm.issued, 4);
    EXPECT_EQ_U(r->sm.loads + r->sm.stores, 0);
    EXPECT_EQ_U(r->m.reads + r->m.writes, 0);

    /* Same program with a longer latency: only the dependent instruction moves. */
    rig_free(r);
    r = rig_new();
    r->c.alu.int_add_lat = 9;
    ASSERT(rig_start(r, 32, 1));
    script(&r->f, 0, p, 4);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 2);
    EXPECT_EQ_I(issued_at(&r->f, 0, 16), 1 + 9);
    rig_free(r);
}

TEST(sm_load_waits_for_memory)
{
    Rig *r = rig_new();
    r->c.l1d.hit_lat = 3;
    r->m.latency = 30;
    ASSERT(rig_start(r, 32, 1));
    const uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
    /* pc 0: r1 <- [A + 4 lane] (one line); pc 8: r2 <- r1; pc 16: the same line again;
     * pc 24: r4 <- r3; pc 32: store r3 to line B; pc 40: r5 <- line C, never read; pc 48: exit */
    MockInst p[] = {ld(1, A, 4), alu(2, 1), ld(3, A, 4), alu(4, 3), st(3, B, 4), ld(5, C, 4), ex()};
    script(&r->f, 0, p, 7);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    ASSERT(r->f.n_log == 7);
    /* The load issues at 1, the LD/ST unit presents its access at 2 (a miss) and the port
     * takes it the same cycle; the reply is handed back 30 cycles later and fills the line in
     * the SM's next cycle, when the user of r1 issues. */
    EXPECT_EQ_I(issued_at(&r->f, 0, 0), 1);
    ASSERT(r->m.reads == 2 && r->m.replies == 2);
    EXPECT_EQ_U(r->m.lines[0], A);
    EXPECT_EQ_U(r->m.taken_at[0], 2);
    EXPECT_EQ_U(r->m.reply_at[0], 2 + 30);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 2 + 30 + 1);
    /* The second load of the line hits: presented the cycle after it issues, its data is back
     * l1d.hit_lat (3) cycles later, and its user issues then. */
    const int64_t ld2 = issued_at(&r->f, 0, 16);
    EXPECT_EQ_I(ld2, 2 + 30 + 2);
    EXPECT_EQ_I(issued_at(&r->f, 0, 24), ld2 + 1 + 3);
    EXPECT_EQ_I(issued_at(&r->f, 0, 32), ld2 + 5); /* the store needs only r3 */
    /* The last load takes the LD/ST unit the cycle the store leaves it; the warp's exit waits
     * for its data although nothing reads r5, and the CTA completes then. */
    const int64_t ld3 = issued_at(&r->f, 0, 40);
    EXPECT_EQ_I(ld3, ld2 + 6);
    EXPECT_EQ_U(r->m.lines[1], C);
    EXPECT_EQ_U(r->m.taken_at[1], ld3 + 1);
    EXPECT_EQ_I(issued_at(&r->f, 0, 48), ld3 + 1 + 30 + 1);
    ASSERT(r->n_done == 1);
    EXPECT_EQ_U(r->done_at[0], ld3 + 1 + 30 + 1);
    EXPECT_EQ_U(r->sm.l1d.miss, 2);
    EXPECT_EQ_U(r->sm.l1d.hit, 1);
    EXPECT_EQ_U(r->sm.l1d.access, 3);
    EXPECT_EQ_U(r->sm.l1d.fill, 2);
    EXPECT_EQ_U(r->sm.loads, 3);
    EXPECT_EQ_U(r->sm.load_lines, 3);
    EXPECT_EQ_U(r->sm.stores, 1);
    EXPECT_EQ_U(r->sm.l1d.store, 1);
    EXPECT_EQ_U(r->m.writes, 1);
    EXPECT_EQ_U(r->sm.ldst_replay, 0);
    EXPECT_EQ_U(r->sm.warp_insts, 7);
    /* Three coherent loads, never held up (no occlusion), their data back 32, 4 and 32 cycles
     * after they issued (the data is written back in the SM's cycle after the reply). */
    EXPECT_EQ_U(r->sm.occlusion[0], 0);
    EXPECT_EQ_U(r->sm.access_time[0], 32 + 4 + 32);
    EXPECT_EQ_U(r->sm.loads_rank[0][0], 3);
    EXPECT_EQ_U(r->sm.mshr_rank[0][0], 2);
    EXPECT_EQ_U(r->sm.stall_coal + r->sm.stall_mshr + r->sm.stall_icnt + r->sm.stall_other, 0);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

TEST(sm_ldst_replay_on_reservation_failure)
{
    /* Two MSHR entries, one load touching four lines (lane l reads A + (l / 8) * 128: each line
     * in its own set, so only the MSHRs run short). */
    Rig *r = rig_new();
    r->c.l1d.mshr_entries = 2;
    r->m.latency = 10;
    ASSERT(rig_start(r, 32, 1));
    const uint64_t A = 0x40000;
    MockInst p[] = {ld(1, A, 16), alu(2, 1), ex()};
    script(&r->f, 0, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    /* Access 0 and 1 miss at cycles 2 and 3; access 2 fails at 4 and replays every cycle
     * (cycles 4..12: 9 failures) until the first reply (taken at 2, back at 12) frees an
     * entry at 13; access 3 goes at 14 after the second reply (back at 13) frees the other. */
    EXPECT_EQ_U(r->sm.ldst_replay, 9);
    EXPECT_EQ_U(r->sm.l1d.fail_mshr, 9);
    EXPECT_EQ_U(r->sm.l1d.fail_missq + r->sm.l1d.fail_line + r->sm.l1d.fail_merge, 0);
    EXPECT_EQ_U(r->sm.l1d.miss, 4);
    EXPECT_EQ_U(r->sm.l1d.access, 4);
    EXPECT_EQ_U(r->sm.l1d.fill, 4);
    EXPECT_EQ_U(r->sm.load_lines, 4);
    EXPECT_EQ_U(r->sm.load_insts_divergent, 1);
    ASSERT(r->m.reads == 4 && r->m.replies == 4);
    for (uint32_t i = 0; i < 4; i++)
        EXPECT_EQ_U(r->m.lines[i], A + 128 * i); /* every line once, in lane order */
    EXPECT_EQ_U(r->m.taken_at[0], 2);
    EXPECT_EQ_U(r->m.taken_at[1], 3);
    EXPECT_EQ_U(r->m.taken_at[2], 13);
    EXPECT_EQ_U(r->m.taken_at[3], 14);
    EXPECT_EQ_U(r->sm.ldst_busy, 14 - 1 + 1); /* issued at 1, last access presented at 14 */
    /* r1 is written only when the last access is back (taken at 14, back at 24). */
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 14 + 10 + 1);
    EXPECT_EQ_U(mshr_in_use(&r->sm.l1d.mshr), 0);
    /* Thesis Fig. 2.5: accesses 0, 1 and 2 leave the unit busy with more to come (LDST_COAL),
     * the 9 failures are MSHR stalls. Thesis 2.3.2: unhindered, the last lookup would have been
     * at 1 + 4 = 5, not 14: 9 cycles of occlusion in an L1D access time of 25 - 1 = 24 (the
     * data is written back in the SM's cycle after the reply). Fig. 2.7: the rank-0 warp's
     * divergent load took 4 MSHR entries. */
    EXPECT_EQ_U(r->sm.stall_coal, 3);
    EXPECT_EQ_U(r->sm.stall_mshr, 9);
    EXPECT_EQ_U(r->sm.stall_icnt + r->sm.stall_other, 0);
    EXPECT_EQ_U(r->sm.occlusion[1], 9);
    EXPECT_EQ_U(r->sm.access_time[1], 24);
    EXPECT_EQ_U(r->sm.occlusion[0] + r->sm.access_time[0], 0);
    EXPECT_EQ_U(r->sm.mshr_rank[1][0], 4);
    EXPECT_EQ_U(r->sm.loads_rank[1][0], 1);
    EXPECT_EQ_U(r->sm.loads_rank[0][0], 0);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

TEST(sm_ldst_replay_on_full_miss_queue)
{
    /* A two-entry miss queue the port does not drain before cycle 10: the third access fails
     * with "miss queue full" until the port takes a request; the drain wakes the LD/ST unit. */
    Rig *r = rig_new();
    r->c.l1d.mshr_entries = 8;
    r->c.l1d.miss_queue = 2;
    r->m.latency = 5;
    r->m.refuse_until = 10;
    ASSERT(rig_start(r, 32, 1));
    const uint64_t A = 0x80000;
    MockInst p[] = {ld(1, A, 16), alu(2, 1), ex()};
    script(&r->f, 0, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    /* Misses at 2 and 3 fill the queue; access 2 fails at cycles 4..10 (7 times), goes at 11
     * after the drain at 10; access 3 at 12. */
    EXPECT_EQ_U(r->sm.ldst_replay, 7);
    EXPECT_EQ_U(r->sm.l1d.fail_missq, 7);
    EXPECT_EQ_U(r->sm.stall_icnt, 7); /* LDST_ICNT: the memory port is full, MSHRs are free */
    EXPECT_EQ_U(r->sm.stall_mshr + r->sm.stall_other, 0);
    EXPECT_EQ_U(r->sm.l1d.fail_icnt + r->sm.l1d.fail_mshr, 0);
    EXPECT_EQ_U(r->sm.l1d.miss, 4);
    ASSERT(r->m.reads == 4);
    EXPECT_EQ_U(r->m.taken_at[0], 10);
    EXPECT_EQ_U(r->m.taken_at[1], 11);
    EXPECT_EQ_U(r->m.taken_at[2], 12);
    EXPECT_EQ_U(r->m.taken_at[3], 13);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 13 + 5 + 1);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

/* Two warps of one CTA, each on its own scheduler. The early warp reaches bar.sync at once;
 * the late one first runs a chain of three dependent adds. With late_slot 1 the early warp's
 * scheduler looks first in the cycle the late one arrives, with late_slot 0 after it: either
 * way the early warp issues only the next cycle. */
static void barrier_case(uint32_t late_slot)
{
    Rig *r = rig_new();
    r->c.sm.n_sched = 2;
    ASSERT(rig_start(r, 64, 1));
    const uint64_t lat = r->c.alu.int_add_lat;
    const uint32_t early_slot = 1 - late_slot;
    MockInst early[] = {bar(), alu(1, 0), ex()};
    MockInst late[] = {alu(1, 0), alu(2, 1), alu(3, 2), bar(), alu(4, 0), ex()};
    script(&r->f, early_slot, early, 3);
    script(&r->f, late_slot, late, 6);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    ASSERT(r->f.n_log == 9);
    EXPECT_EQ_I(issued_at(&r->f, early_slot, 0), 1);
    const int64_t arrive = issued_at(&r->f, late_slot, 24);
    EXPECT_EQ_I(arrive, 1 + 2 * lat + 1);
    /* The early warp waits at the barrier although its add has no dependence: it issues the
     * cycle after the last warp arrives, with the late warp's next instruction. */
    EXPECT_EQ_I(issued_at(&r->f, early_slot, 8), arrive + 1);
    EXPECT_EQ_I(issued_at(&r->f, late_slot, 32), arrive + 1);
    for (uint32_t i = 0; i < r->f.n_log; i++) /* nothing of the early warp between its bar and then */
        if (r->f.log[i].warp == early_slot && r->f.log[i].pc != 0)
            EXPECT(r->f.log[i].cycle > (uint64_t)arrive);
    EXPECT_EQ_U(r->sm.warp_insts, 9);
    EXPECT_EQ_U(r->sm.ctas[0].n_at_barrier, 0);
    rig_free(r);
}

TEST(sm_barrier)
{
    barrier_case(1);
}

TEST(sm_barrier_release_is_order_independent)
{
    barrier_case(0);
}

TEST(sm_cta_completion_reported_upward)
{
    /* CTA 7 on one scheduler: warp 0 exits at 1, warp 1 then runs two dependent adds. */
    Rig *r = rig_new();
    ASSERT(rig_start(r, 64, 1));
    const uint64_t lat = r->c.alu.int_add_lat;
    MockInst w0[] = {ex()};
    MockInst w1[] = {alu(1, 0), alu(2, 1), ex()};
    script(&r->f, 0, w0, 1);
    script(&r->f, 1, w1, 3);
    rig_launch(r, 7);
    EXPECT(sm_busy(&r->sm));
    while (r->now < 4)
        rig_step(r);
    EXPECT(issued_at(&r->f, 0, 0) >= 0); /* warp 0 has exited ... */
    EXPECT_EQ_U(r->n_done, 0);           /* ... but the CTA has not */
    EXPECT_EQ_U(r->f.n_ended, 0);
    EXPECT_EQ_U(r->sm.ctas_done, 0);
    EXPECT(sm_busy(&r->sm));
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    const int64_t last_exit = issued_at(&r->f, 1, 16);
    EXPECT_EQ_I(last_exit, 2 + lat + 1);
    ASSERT(r->n_done == 1);
    EXPECT_EQ_U(r->done[0], 7);
    EXPECT_EQ_U(r->done_at[0], last_exit);
    uint32_t cta = 12345;
    EXPECT(!sm_take_done_cta(&r->sm, &cta)); /* reported once */
    EXPECT_EQ_U(cta, 12345);
    EXPECT_EQ_U(r->sm.ctas_done, 1);
    ASSERT(r->f.n_ended == 1);
    EXPECT_EQ_U(r->f.ended[0], 7);
    EXPECT(!sm_busy(&r->sm));
    EXPECT_EQ_U(r->sm.n_live_ctas, 0);
    EXPECT_EQ_U(r->sm.warps_used + r->sm.threads_used + r->sm.regs_used, 0);

    /* Two CTAs at once on the now empty SM: both come back, each once, and their warps take
     * consecutive slots from 0. */
    rig_launch(r, 3);
    rig_launch(r, 5);
    EXPECT_EQ_U(r->sm.n_live_ctas, 2);
    ASSERT(r->f.n_started == 3);
    EXPECT_EQ_U(r->f.base[1], 0);
    EXPECT_EQ_U(r->f.base[2], 2);
    ASSERT(rig_run(r, 2000));
    EXPECT_EQ_U(r->f.bad, 0);
    ASSERT(r->n_done == 3);
    EXPECT((r->done[1] == 3 && r->done[2] == 5) || (r->done[1] == 5 && r->done[2] == 3));
    EXPECT_EQ_U(r->f.n_ended, 3);
    EXPECT_EQ_U(r->sm.ctas_done, 3);
    EXPECT_EQ_U(r->sm.warp_insts, 4 + 2 * 4);
    EXPECT(!sm_take_done_cta(&r->sm, &cta));
    EXPECT(!sm_busy(&r->sm));
    rig_free(r);
}


/* A full scoreboard: the third instruction waits until an entry is released, and the entries
 * already released are dropped before it adds its own. With one warp slot the scoreboard
 * storage ends where the warp's does, so an overflow is a heap overflow (caught by the
 * allocator or the sanitizers). */
TEST(sm_scoreboard_full_waits_and_never_overflows)
{
    Rig *r = rig_new();
    r->c.sm.max_warps = 1;
    r->c.sm.max_threads = 32;
    r->c.sm.max_pending_regs = 2;
    r->c.alu.int_add_lat = 6;
    ASSERT(rig_start(r, 32, 1));
    /* pc 0: r1 <- r0; pc 8: r2 <- r0; pc 16: r3 <- r0 (needs a free entry); pc 24: exit */
    MockInst p[] = {alu(1, 0), alu(2, 0), alu(3, 0), ex()};
    script(&r->f, 0, p, 4);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 2);
    EXPECT_EQ_I(issued_at(&r->f, 0, 16), 1 + 6); /* when r1's entry is released */
    rig_free(r);
}

/* While the SM sleeps (its warp waits 100 cycles for a load), the cycles still count as active
 * and as scheduler cycles with nothing ready, exactly as if it had run each one. */
TEST(sm_sleeping_cycles_are_counted)
{
    Rig *r = rig_new();
    r->m.latency = 100;
    ASSERT(rig_start(r, 32, 1));
    MockInst p[] = {ld(1, 0x10000, 4), alu(2, 1), ex()};
    script(&r->f, 0, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    int64_t done = issued_at(&r->f, 0, 16); /* the exit: the CTA completes that cycle */
    ASSERT(done > 100);
    EXPECT_EQ_U(r->sm.cycles_active, (uint64_t)done + 1); /* cycles 0 .. done */
    EXPECT_EQ_U(r->sm.idle_no_ready + r->sm.issued + r->sm.stall_ldst, (uint64_t)done + 1);
    EXPECT_EQ_U(r->sm.issued, 3);
    rig_free(r);
}

/* sm.l1d_access = queued (GPGPU-Sim 4.x's L1 latency queue): every access waits l1d.hit_lat
 * cycles before its lookup, misses included; a hit's data is ready at the lookup. */
TEST(sm_l1_latency_queue_timing)
{
    Rig *r = rig_new();
    r->c.l1d.hit_lat = 3;
    r->c.sm.l1d_access = SM_L1D_QUEUED;
    r->m.latency = 30;
    const uint64_t A = 0x10000;
    MockInst p[] = {ld(1, A, 4), alu(2, 1), ld(3, A, 4), alu(4, 3), ex()};
    ASSERT(rig_run_one_warp(r, p, 5));
    /* issued at 1, into the queue at 2, looked up (a miss) 3 cycles later: taken at 5, not 2 */
    EXPECT_EQ_I(issued_at(&r->f, 0, 0), 1);
    ASSERT(r->m.reads == 1);
    EXPECT_EQ_U(r->m.taken_at[0], 2 + 3);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 5 + 30 + 1);
    /* the hit: into the queue the cycle after it issues, its data ready 3 cycles later, as in
     * the direct mode */
    const int64_t ld2 = issued_at(&r->f, 0, 16);
    EXPECT_EQ_I(ld2, 5 + 30 + 2);
    EXPECT_EQ_I(issued_at(&r->f, 0, 24), ld2 + 1 + 3);
    EXPECT_EQ_U(r->sm.l1d.hit, 1);
    EXPECT_EQ_U(r->sm.l1d.miss, 1);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

/* A reservation failure holds the queue's head, not the LD/ST unit: the unit has put all four
 * accesses of the load into the queue and is free for the next instruction meanwhile. */
TEST(sm_l1_latency_queue_head_blocks)
{
    Rig *r = rig_new();
    r->c.l1d.mshr_entries = 2;
    r->c.l1d.hit_lat = 4;
    r->c.sm.l1d_access = SM_L1D_QUEUED;
    r->m.latency = 10;
    MockInst p[] = {ld(1, 0x40000, 16), alu(2, 1), ex()};
    ASSERT(rig_run_one_warp(r, p, 3));
    /* into the queue at 2..5, looked up at 6..9: 0 and 1 miss at 6 and 7, 2 fails from 8 until
     * the first reply (back at 16) frees an entry at 17 (9 failures), 3 goes at 18 */
    EXPECT_EQ_U(r->sm.ldst_busy, 5 - 1 + 1);
    EXPECT_EQ_U(r->sm.ldst_replay, 9);
    EXPECT_EQ_U(r->sm.l1d.fail_mshr, 9);
    ASSERT(r->m.reads == 4);
    EXPECT_EQ_U(r->m.taken_at[0], 6);
    EXPECT_EQ_U(r->m.taken_at[1], 7);
    EXPECT_EQ_U(r->m.taken_at[2], 17);
    EXPECT_EQ_U(r->m.taken_at[3], 18);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 18 + 10 + 1);
    EXPECT_EQ_U(r->sm.l1d.miss, 4);
    EXPECT_EQ_U(r->pool.in_use, 0);
    /* LD/ST stalls: 3 pushes with more to come, the head's 9 MSHR failures. Occlusion: the
     * last lookup unhindered at 1 + 4 + 4 (the queue's latency), here 18. */
    EXPECT_EQ_U(r->sm.stall_coal, 3);
    EXPECT_EQ_U(r->sm.stall_mshr, 9);
    EXPECT_EQ_U(r->sm.occlusion[1], 18 - 9);
    EXPECT_EQ_U(r->sm.access_time[1], 29 - 1);
    rig_free(r);
}

/* The queue holds l1d.hit_lat accesses: with its head blocked, the unit waits for room. */
TEST(sm_l1_latency_queue_full)
{
    Rig *r = rig_new();
    r->c.l1d.mshr_entries = 1;
    r->c.l1d.hit_lat = 2;
    r->c.sm.l1d_access = SM_L1D_QUEUED;
    r->m.latency = 10;
    MockInst p[] = {ld(1, 0x40000, 16), ex()};
    ASSERT(rig_run_one_warp(r, p, 2));
    /* in at 2 and 3 (ready 4, 5); 0 misses at 4, 1 is blocked from 5; 2 gets in at 6 when 0
     * has left the queue; 3 waits for 1 to leave, at 15 (the reply is back at 14, the SM takes it
     * at 15), and gets in the same cycle: the head moves before the unit, as in GPGPU-Sim */
    ASSERT(r->m.reads == 4);
    EXPECT_EQ_U(r->m.taken_at[0], 4);
    EXPECT_EQ_U(r->m.taken_at[1], 15);
    EXPECT_EQ_U(r->sm.ldst_busy, 15 - 1 + 1);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

/* A warp retires only when the L2 has acknowledged each of its stores (GPGPU-Sim: a warp is done
 * when its stores are): two lines stored, the exit waits for the second line's ack. */
TEST(sm_exit_waits_for_store_acks)
{
    Rig *r = rig_new();
    r->m.latency = 30;
    MockInst p[] = {st(0, 0x50000, 8), ex()}; /* 32 lanes x 8 B: two lines */
    ASSERT(rig_run_one_warp(r, p, 2));
    EXPECT_EQ_U(r->m.writes, 2);
    EXPECT_EQ_U(r->m.acks, 2);
    /* issued at 1, its accesses sent at 2 and 3 and acknowledged 30 cycles after each is taken */
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 3 + 30 + 1);
    ASSERT(r->n_done == 1);
    EXPECT_EQ_U(r->done_at[0], 3 + 30 + 1);
    EXPECT_EQ_U(r->sm.warps[0].stores_pending, 0);
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);
}

/* mem.sector_replies: a line comes back as four sector replies; the LD/ST unit takes one a
 * cycle, and the L1D fills the line (and wakes the load) with the last. A store's
 * acknowledgements come per sector too, and the warp exits after the last. */
TEST(sm_sector_replies_fill_with_the_last)
{
    for (uint32_t parts = 0; parts <= 4; parts += 4) {
        Rig *r = rig_new();
        r->m.latency = 30;
        r->m.parts = parts;
        MockInst p[] = {ld(1, 0x10000, 4), alu(2, 1), st(2, 0x50000, 8), ex()};
        ASSERT(rig_run_one_warp(r, p, 4));
        ASSERT(r->m.replies == 1 && r->m.acks == 2);
        EXPECT_EQ_U(r->m.reply_at[0], 2 + 30);
        /* the parts are delivered at 32 and taken at 32, 33, 34 and 35 */
        EXPECT_EQ_I(issued_at(&r->f, 0, 8), 2 + 30 + 1 + (parts ? 3 : 0));
        const int64_t st_at = issued_at(&r->f, 0, 16);
        EXPECT_EQ_I(st_at, issued_at(&r->f, 0, 8) + r->c.alu.int_add_lat);
        /* the store's two lines are sent at st_at + 1 and + 2 and acknowledged 30 cycles after
         * each; with parts, the eight acknowledgements are taken one a cycle from st_at + 31 */
        EXPECT_EQ_I(issued_at(&r->f, 0, 24), parts ? st_at + 31 + 8 : st_at + 2 + 30 + 1);
        EXPECT_EQ_U(r->sm.l1d.fill, 1);
        EXPECT_EQ_U(r->sm.warps[0].stores_pending, 0);
        EXPECT_EQ_U(r->pool.in_use, 0); /* the parts and their requests are recycled */
        rig_free(r);
    }
}

/* sm.response_fifo: the SM takes a data reply only while its response FIFO has room, and
 * drains it one reply a cycle; an instruction line bypasses it. */
TEST(sm_response_fifo)
{
    for (uint32_t cap = 0; cap <= 2; cap += 2) {
        Rig *r = rig_new();
        r->c.sm.response_fifo = cap;
        r->m.latency = 1000; /* the test hands the acknowledgements back itself */
        ASSERT(rig_start(r, 32, 1));
        MockInst p[] = {st(0, 0x50000, 12), ex()}; /* three lines */
        script(&r->f, 0, p, 2);
        rig_launch(r, 0);
        while (r->m.writes < 3 && r->now < 100)
            rig_step(r);
        ASSERT(r->m.n == 3);
        MemReq *q[3];
        for (int i = 0; i < 3; i++) {
            q[i] = r->m.req[i];
            q[i]->is_reply = true;
        }
        r->m.n = 0;
        const uint64_t t = r->now;
        sm_deliver(&r->sm, q[0], t);
        sm_deliver(&r->sm, q[1], t);
        EXPECT(sm_can_accept_reply(&r->sm, q[2]) == !cap);
        MemReq inst = {.inst = true, .is_reply = true};
        EXPECT(sm_can_accept_reply(&r->sm, &inst));
        rig_step(r); /* one reply taken */
        EXPECT_EQ_U(r->sm.warps[0].stores_pending, 2);
        EXPECT(sm_can_accept_reply(&r->sm, q[2]));
        sm_deliver(&r->sm, q[2], t + 1);
        ASSERT(rig_run(r, 200));
        ASSERT(r->n_done == 1);
        EXPECT_EQ_U(r->done_at[0], t + 2); /* replies taken at t, t + 1 and t + 2; the exit issues with the last */
        EXPECT_EQ_U(r->pool.in_use, 0);
        rig_free(r);
    }
}

/* sm.ldst_queue: a memory instruction may issue while the LD/ST unit is busy and waits for it
 * in issue order; the unit then takes it the cycle its previous instruction finishes. */
TEST(sm_ldst_queue)
{
    for (uint32_t q = 0; q <= 1; q++) {
        Rig *r = rig_new();
        r->c.sm.ldst_queue = q;
        r->c.l1d.mshr_entries = 8;
        r->c.l1d.miss_queue = 8;
        ASSERT(rig_start(r, 64, 1));
        MockInst p0[] = {ld(1, 0x40000, 16), ex()}; /* four lines */
        MockInst p1[] = {ld(1, 0x80000, 4), alu(2, 0), ex()};    /* one line, then independent work */
        script(&r->f, 0, p0, 2);
        script(&r->f, 1, p1, 3);
        rig_launch(r, 0);
        ASSERT(rig_run(r, 1000));
        EXPECT_EQ_U(r->f.bad, 0);
        /* warp 0's load issues at 1 and its accesses go at 2..5 */
        EXPECT_EQ_I(issued_at(&r->f, 0, 0), 1);
        ASSERT(r->m.reads == 5);
        EXPECT_EQ_U(r->m.taken_at[3], 5);
        /* warp 1's load issues at 2 into the queue, or at 5 when the unit is free; either way its
         * access goes at 6, and with the queue its next instruction issues at 3 */
        EXPECT_EQ_I(issued_at(&r->f, 1, 0), q ? 2 : 5);
        EXPECT_EQ_U(r->m.lines[4], 0x80000);
        EXPECT_EQ_U(r->m.taken_at[4], 6);
        EXPECT_EQ_I(issued_at(&r->f, 1, 8), q ? 3 : 6);
        EXPECT_EQ_U(r->sm.ldst.mq_n, 0);
        EXPECT_EQ_U(r->pool.in_use, 0);
        rig_free(r);
    }
}

/* sm.sched_rotate (GPGPU-Sim 4.x's Issue_Prio): with two schedulers both wanting the idle LD/ST
 * unit, scheduler 0 always gets it first without rotation; with it, the scheduler that goes
 * first alternates by cycle (cycle 1: scheduler 1). */
TEST(sm_sched_rotate)
{
    for (uint32_t rot = 0; rot <= 1; rot++) {
        Rig *r = rig_new();
        r->c.sm.n_sched = 2;
        r->c.sm.sched_rotate = rot;
        r->c.l1d.mshr_entries = 8;
        r->c.l1d.miss_queue = 8;
        ASSERT(rig_start(r, 64, 1));
        MockInst p0[] = {ld(1, 0x40000, 16), ex()}; /* four lines each */
        MockInst p1[] = {ld(1, 0x80000, 16), ex()};
        script(&r->f, 0, p0, 2); /* slot 0: scheduler 0 */
        script(&r->f, 1, p1, 2); /* slot 1: scheduler 1 */
        rig_launch(r, 0);
        ASSERT(rig_run(r, 1000));
        EXPECT_EQ_U(r->f.bad, 0);
        /* the winner issues at 1 and presents its accesses at 2..5; the other issues at 5 */
        EXPECT_EQ_I(issued_at(&r->f, 0, 0), rot ? 5 : 1);
        EXPECT_EQ_I(issued_at(&r->f, 1, 0), rot ? 1 : 5);
        EXPECT_EQ_U(r->m.lines[0], rot ? 0x80000 : 0x40000);
        EXPECT_EQ_U(r->sm.stall_ldst, 4); /* the loser's scheduler-cycles 1..4 */
        rig_free(r);
    }
}

/* sm.ibuffer (GPGPU-Sim's front end): a warp's two-instruction buffer is refilled by one fetch
 * per SM per cycle, round-robin, and issues two cycles after its fetch; a taken branch empties
 * it. */
TEST(sm_ibuffer_fetch)
{
    Rig *r = rig_new();
    r->c.sm.ibuffer = 2;
    ASSERT(rig_start(r, 64, 1));
    MockInst p[] = {alu(1, 0), alu(3, 0), alu(4, 0), alu(5, 0), alu(6, 0), ex()};
    script(&r->f, 0, p, 6);
    script(&r->f, 1, p, 6);
    r->f.prog[1][3].s.pc = 200; /* warp 1: a taken branch between its third and fourth */
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    /* warp 0 is fetched at 0 and issues at 2 and 3; warp 1, fetched at 1 (one warp a cycle),
     * then issues at 4 and 5 (the scheduler stays with it, greedy), while warp 0, refetched at 3
     * after that cycle's issue, is ready from 5 and issues at 6 and 7 */
    EXPECT_EQ_I(issued_at(&r->f, 0, 0), 2);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 3);
    EXPECT_EQ_I(issued_at(&r->f, 1, 0), 4);
    EXPECT_EQ_I(issued_at(&r->f, 1, 8), 5);
    EXPECT_EQ_I(issued_at(&r->f, 0, 16), 6);
    EXPECT_EQ_I(issued_at(&r->f, 0, 24), 7);
    /* warp 1's third instruction is followed by the branch target: its buffer empties */
    const int64_t third = issued_at(&r->f, 1, 16);
    ASSERT(third > 0);
    EXPECT(issued_at(&r->f, 1, 200) >= third + 3); /* refetched, decoded, then issued */
    EXPECT_EQ_U(r->sm.fetch_mask, 0);
    rig_free(r);

    /* sm.ibuffer = 0: every cycle, fetch_lat (1) after the last issue */
    r = rig_new();
    ASSERT(rig_run_one_warp(r, p, 6));
    for (uint32_t i = 0; i < 5; i++)
        EXPECT_EQ_I(issued_at(&r->f, 0, 8 * i), 1 + i);
    rig_free(r);
}

/* sm.issue_per_warp = 2 (GPGPU-Sim's dual issue): the second buffered instruction issues in the
 * same cycle when it needs another unit (here an ALU operation, then a load); two ALU operations
 * do not pair. With 1, one instruction a cycle. */
TEST(sm_dual_issue)
{
    for (uint32_t n = 1; n <= 2; n++) {
        Rig *r = rig_new();
        r->c.sm.ibuffer = 2;
        r->c.sm.issue_per_warp = n;
        ASSERT(rig_start(r, 32, 1));
        MockInst p[] = {alu(1, 0), ld(2, 0x40000, 4), alu(3, 0), alu(4, 0), ex()};
        script(&r->f, 0, p, 5);
        rig_launch(r, 0);
        ASSERT(rig_run(r, 1000));
        EXPECT_EQ_U(r->f.bad, 0);
        EXPECT_EQ_I(issued_at(&r->f, 0, 0), 2);
        EXPECT_EQ_I(issued_at(&r->f, 0, 8), n == 2 ? 2 : 3);
        const int64_t third = issued_at(&r->f, 0, 16);
        ASSERT(third > 0);
        EXPECT_EQ_I(issued_at(&r->f, 0, 24), third + 1); /* two SP instructions: not paired */
        EXPECT_EQ_U(r->sm.dual_issued, n == 2 ? 1 : 0);
        rig_free(r);
    }
}

/* sm.icache_sets (with sm.ibuffer): the first fetch of a line misses, its read goes out through
 * the L1D's port at SM_CODE_BASE + pc, and the warp issues once the line is back and fetched
 * again; later fetches of the line hit. */
TEST(sm_icache_miss_then_hit)
{
    Rig *r = rig_new();
    r->c.sm.ibuffer = 2;
    r->c.sm.icache_sets = 1;
    r->c.sm.icache_assoc = 1;
    r->c.sm.icache_line = 128;
    r->m.latency = 20;
    MockInst p[] = {alu(1, 0), alu(3, 0), alu(4, 0), ex()};
    ASSERT(rig_run_one_warp(r, p, 4));
    /* fetch at 0 misses, the port takes the read at 0, back at 20 and filled at 21, refetched
     * then (a hit): issued from 23 */
    ASSERT(r->m.reads == 1);
    EXPECT_EQ_U(r->m.lines[0], SM_CODE_BASE);
    EXPECT_EQ_U(r->m.taken_at[0], 0);
    EXPECT_EQ_I(issued_at(&r->f, 0, 0), 23);
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 24);
    EXPECT_EQ_U(r->sm.ic.misses, 1);
    EXPECT_EQ_U(r->sm.ic.hits, 2); /* the refetch, and the fetch of the next two */
    EXPECT_EQ_U(r->pool.in_use, 0);
    rig_free(r);

    r = rig_new();
    r->c.sm.icache_sets = 4; /* without sm.ibuffer: refused */
    char err[256];
    EXPECT(!config_check(&r->c, err, sizeof err));
    EXPECT(strstr(err, "sm.ibuffer") != NULL);
    rig_free(r);
}

TEST(sm_stall_breakdown_by_hazard)
{
    /* LAS thesis Figs. 5.3-5.4: the cycles a scheduler issues nothing, by hazard. One warp:
     * r1 <- r0 (int_add_lat 9), r2 <- r1 (waits: RAW), exit. Launched at 0, its first
     * instruction is in the I-buffer at 1 (cycle 0: idle, nothing fetched yet); the dependent
     * one waits cycles 2..9 (8 RAW cycles); no unit is ever busy. */
    Rig *r = rig_new();
    r->c.alu.int_add_lat = 9;
    ASSERT(rig_start(r, 32, 1));
    MockInst p[] = {alu(1, 0), alu(2, 1), ex()};
    script(&r->f, 0, p, 3);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_I(issued_at(&r->f, 0, 8), 1 + 9);
    EXPECT_EQ_U(r->sm.stall_raw, 8);
    EXPECT_EQ_U(r->sm.stall_structural, 0);
    EXPECT_EQ_U(r->sm.stall_raw + r->sm.stall_idle, r->sm.idle_no_ready);
    EXPECT(r->sm.stall_idle >= 1);
    rig_free(r);

    /* Two warps, the second's memory instruction waiting for the LD/ST unit that the first's
     * four-line load holds: structural (sched.ldst_stall), never RAW for the waiting load. */
    r = rig_new();
    ASSERT(rig_start(r, 64, 1));
    const uint64_t A = 0x40000;
    MockInst q[] = {ld(1, A, 16), ex()};
    script(&r->f, 0, q, 2);
    script(&r->f, 1, q, 2);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT(r->sm.stall_ldst > 0);
    EXPECT_EQ_U(r->sm.stall_structural, r->sm.stall_ldst);
    EXPECT_EQ_U(r->sm.stall_raw + r->sm.stall_idle, r->sm.idle_no_ready);
    rig_free(r);
}

TEST(sm_l1d_hits_on_other_ctas_lines)
{
    /* Each CTA (one warp) loads line A twice. CTA 0 runs first: a miss, then a hit on its own
     * line. CTA 1 then finds A in the L1D twice: two hits on a line CTA 0 brought in. */
    Rig *r = rig_new();
    ASSERT(rig_start(r, 32, 2));
    const uint64_t A = 0x40000;
    MockInst p[] = {ld(1, A, 0), alu(2, 1), ld(3, A, 0), alu(4, 3), ex()};
    script(&r->f, 0, p, 5);
    rig_launch(r, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->sm.l1d.hit, 1);
    EXPECT_EQ_U(r->sm.l1d.hit_other_cta, 0);
    rig_launch(r, 1);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->sm.l1d.miss, 1);
    EXPECT_EQ_U(r->sm.l1d.hit, 3);
    EXPECT_EQ_U(r->sm.l1d.hit_other_cta, 2);
    rig_free(r);
}

/* A scheduler whose only ready warp wants the LD/ST unit while the unit waits on a full miss
 * queue: nothing changes until the queue drains, so the SM sleeps through those cycles (it is
 * not visited each one) and counts each as the stalled cycle it would have been. Miss queue of
 * one entry, memory that takes nothing before cycle 50: warp 0's four-line load issues at 1, its
 * first line fills the queue at 2 (its second is refused: the unit blocks), warp 1's load wants
 * the unit from cycle 2 and gets it once warp 0's last line is in the queue. */
TEST(sm_ldst_stall_sleeps)
{
    Rig *r = rig_new();
    r->c.l1d.miss_queue = 1;
    r->m.refuse_until = 50;
    ASSERT(rig_start(r, 64, 1));
    MockInst p0[] = {ld(1, 0x40000, 16), ex()}; /* four lines */
    MockInst p1[] = {ld(1, 0x80000, 4), ex()};
    script(&r->f, 0, p0, 2);
    script(&r->f, 1, p1, 2);
    rig_launch(r, 0);
    while (r->now < 20)
        rig_step(r);
    EXPECT(r->sm.next_wake >= 50); /* asleep until the drain, not every cycle */
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->f.bad, 0);
    /* the queue takes one line a cycle from 50: warp 0's last line enters it at 53 */
    EXPECT_EQ_I(issued_at(&r->f, 1, 0), 53);
    EXPECT_EQ_U(r->sm.stall_ldst, 51); /* cycles 2..52, as when it was visited every cycle */
    EXPECT_EQ_U(r->sm.stall_structural, 51);
    EXPECT_EQ_U(r->sm.cycles_active, (uint64_t)issued_at(&r->f, 1, 8) + 1);
    rig_free(r);
}
