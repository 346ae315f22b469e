/* test_sm_async.c: cp.async on the timing model (tests/sm_rig.h): a copy is a global load that
 * writes no register, counted in its warp's open group; cp.async.commit_group closes the group
 * and cp.async.wait_group N issues once all but the N most recent committed groups are back
 * (wait_all: every copy, the uncommitted ones too). Group 0 is one line, group 1 eight, so
 * group 1's last line comes back cycles after group 0's. */
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"

static MockInst cpa(uint64_t base, uint32_t stride, uint32_t mask)
{
    return (MockInst){.s = {.op = WOP_LOAD, .space = WSPACE_GLOBAL, .access_bytes = 4, .flags = WINST_F_ASYNC,
                            .n_src = 1, .src = {0}},
                      .base = base, .stride = stride, .mask = mask};
}

static MockInst commit(void) { return (MockInst){.s = {.op = WOP_NOP, .flags = WINST_F_ASYNC_COMMIT}}; }

static MockInst wait_group(uint8_t keep)
{
    return (MockInst){.s = {.op = WOP_NOP, .flags = WINST_F_ASYNC_WAIT, .async_keep = keep}};
}

static MockInst wait_all(void)
{
    return (MockInst){.s = {.op = WOP_NOP, .flags = WINST_F_ASYNC_COMMIT | WINST_F_ASYNC_WAIT}};
}

/* Run the two-group program with `w` at pc 32; the cycle w issued, and the reads made. */
static int64_t wait_issue(MockInst w, bool commit_second, uint32_t *reads, uint32_t *loads_left)
{
    Rig *r = rig_new();
    r->m.latency = 40;
    MockInst p[] = {cpa(0x10000, 4, 0), commit(), cpa(0x20000, 128, 0xFF), commit_second ? commit() : alu(2, 0),
                    w, alu(1, 0), ex()};
    int64_t t = -1;
    if (rig_run_one_warp(r, p, 7)) {
        t = issued_at(&r->f, 0, 32);
        *reads = r->m.reads;
        *loads_left = r->sm.warps[0].loads_pending + r->sm.warps[0].async_n;
    }
    rig_free(r);
    return t;
}

TEST(sm_cp_async_wait_group)
{
    uint32_t reads = 0, left = 1;
    /* wait_group 2: both groups may stay in flight: the wait issues right after the second commit */
    int64_t t2 = wait_issue(wait_group(2), true, &reads, &left);
    EXPECT_EQ_U(reads, 9);
    EXPECT_EQ_U(left, 0);
    int64_t t1 = wait_issue(wait_group(1), true, &reads, &left);
    int64_t t0 = wait_issue(wait_group(0), true, &reads, &left);
    EXPECT(t2 > 0 && t2 < 10);
    /* wait_group 1: group 0 back (40 cycles of memory), group 1 not yet */
    EXPECT(t1 >= 40 && t1 < t0);
    /* wait_group 0: group 1's eighth line, taken one a cycle, comes at least 7 cycles later */
    EXPECT(t0 >= t1 + 7);
    /* wait_all waits for the copies nobody committed as well */
    int64_t ta = wait_issue(wait_all(), false, &reads, &left);
    EXPECT_EQ_I(ta, t0);
    /* wait_group 0 leaves the uncommitted second copy in flight: it waits for group 0 only */
    int64_t tu = wait_issue(wait_group(0), false, &reads, &left);
    EXPECT_EQ_I(tu, t1);
}

/* More copies in flight than sm.max_pending_regs: a copy waits for one to come back (each holds
 * a load record) instead of running the record pool dry. */
TEST(sm_cp_async_many_in_flight)
{
    Rig *r = rig_new();
    r->m.latency = 20;
    r->c.sm.max_pending_regs = 4;
    MockInst p[MOCK_INSTS];
    uint32_t n = 0;
    for (int i = 0; i < 10; i++)
        p[n++] = cpa(0x10000 + 0x1000 * (uint64_t)i, 4, 1);
    p[n++] = wait_all();
    p[n++] = ex();
    ASSERT(rig_run_one_warp(r, p, n));
    EXPECT(issued_at(&r->f, 0, 4 * 8) >= 20); /* the fifth waited for the first */
    EXPECT_EQ_U(r->m.reads, 10);
    EXPECT(issued_at(&r->f, 0, 10 * 8) > issued_at(&r->f, 0, 9 * 8));
    rig_free(r);
}
