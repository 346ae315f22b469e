/* mascar.c: Memory Aware Scheduling and Cache Access Re-execution (Sethia, Jamshidi and Mahlke,
 * HPCA 2015), the scheduling half; a baseline of OAWS (Wang's thesis, 5.5.1). The re-execution
 * half is the SM's sm.reexec_queue (sm_reexec.c, 32 entries in the thesis), which the MASCAR
 * variants of the experiments set alongside `sm.sched = mascar`.
 *
 * The memory subsystem of an SM is saturated when its L1D has at most one free MSHR entry or
 * its miss queue (the memory port towards the interconnect) at most one free slot (thesis
 * 5.5.1). Then the scheduler is in execution-priority mode: one warp of the SM, the owner, may
 * issue global/local memory instructions and the others only compute (their memory
 * instructions are held back: sched.held); compute instructions go first, in GTO order, then
 * the owner's. Otherwise it is in memory-priority mode: every warp whose next instruction is a
 * global/local memory instruction goes before every other, each group in GTO order, so that
 * requests reach the memory system early and compute overlaps them.
 *
 * Choices the paper leaves open, made here:
 * - The owner is SM-wide (saturation is the SM's L1D's). On saturation the owner is the warp
 *   that issued the SM's last global/local memory instruction; it keeps ownership while its
 *   next instruction is one too, and passes it, when its next instruction is anything else or
 *   it exits, to the oldest live warp (launch order, GTO's) not at a barrier whose next
 *   instruction is a global/local memory instruction. Leaving saturation clears it.
 * - Shared-memory, constant and parameter accesses count as compute: they never leave the SM.
 *
 * Stats (sm[i].sched.mascar.*): saturated_cycles (scheduling cycles in execution-priority mode),
 * owner_changes. */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct MascarSm {
    uint64_t cycle;     /* the cycle `saturated` and `owner` were brought up to date for */
    bool saturated;
    int owner;          /* the owner warp's slot, -1: none */
    int last_mem;       /* the slot that issued the SM's last global/local memory instruction */
    uint64_t saturated_cycles, owner_changes;
} MascarSm;

typedef struct Mascar {
    MascarSm *sm;
    int last; /* greedy warp */
} Mascar;

static bool next_is_memory(const WarpSlotInfo *w)
{
    bool op = w->next_op == WOP_LOAD || w->next_op == WOP_STORE || w->next_op == WOP_ATOMIC;
    return w->live && w->has_next && op && (w->next_space == WSPACE_GLOBAL || w->next_space == WSPACE_LOCAL);
}

static bool sm_saturated(const SmView *s)
{
    return s->mshr_free <= 1 || s->miss_queue_cap - MIN(s->miss_queue_used, s->miss_queue_cap) <= 1;
}

/* The oldest live warp of the SM, not at a barrier, about to issue a memory instruction. */
static int oldest_memory_warp(const SmView *s)
{
    int best = -1;
    for (uint64_t m = s->live_mask & ~s->barrier_mask; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (next_is_memory(&s->slot[w]) && (best < 0 || s->slot[w].age < s->slot[best].age))
            best = w;
    }
    return best;
}

/* Bring the SM's mode up to date once a cycle (the first scheduler to ask), and the owner
 * whenever asked. */
static void mascar_update(MascarSm *m, const WarpSchedView *v)
{
    const SmView *s = v->sm;
    if (m->cycle != v->cycle) {
        m->cycle = v->cycle;
        m->saturated = sm_saturated(s);
        m->saturated_cycles += m->saturated;
        if (!m->saturated)
            m->owner = -1;
    }
    if (!m->saturated)
        return;
    if (m->owner < 0 && m->last_mem >= 0 && next_is_memory(&s->slot[m->last_mem]))
        m->owner = m->last_mem;
    if (m->owner >= 0 && next_is_memory(&s->slot[m->owner]) && !(s->barrier_mask >> m->owner & 1))
        return;
    int next = oldest_memory_warp(s);
    if (next >= 0 && next != m->owner)
        m->owner_changes++;
    m->owner = next;
}

static void *mascar_create_shared(const PolicyCtx *ctx)
{
    MascarSm *m = xcalloc(1, sizeof *m);
    m->cycle = UINT64_MAX;
    m->owner = m->last_mem = -1;
    policy_stat_counter(ctx, &m->saturated_cycles, "saturated_cycles",
                        "scheduling cycles (a scheduler had a ready warp) in which the SM's memory system was "
                        "saturated (at most one free L1D MSHR entry or miss-queue slot): execution-priority mode, "
                        "only the owner warp issues memory instructions");
    policy_stat_counter(ctx, &m->owner_changes, "owner_changes", "times the owner warp changed");
    return m;
}

static void mascar_destroy_shared(void *shared) { free(shared); }

static void *mascar_create(const PolicyCtx *ctx)
{
    Mascar *s = xcalloc(1, sizeof *s);
    s->sm = ctx->shared;
    s->last = -1;
    return s;
}

static void mascar_destroy(void *self) { free(self); }

static bool mascar_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    Mascar *s = self;
    mascar_update(s->sm, v);
    return !s->sm->saturated || !next_is_memory(w) || (int)slot == s->sm->owner;
}

/* GTO among the ready warps of `mask`, -1 if none. */
static int gto_among(int last, uint64_t mask, const WarpSchedView *v)
{
    if (!mask)
        return -1;
    WarpSchedView sub = *v;
    sub.ready = mask;
    return warp_sched_gto(last, &sub);
}

static int mascar_pick(void *self, const WarpSchedView *v)
{
    Mascar *s = self;
    mascar_update(s->sm, v);
    uint64_t mem = 0;
    for (uint64_t m = v->ready; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (next_is_memory(&v->sm->slot[w]))
            mem |= 1ull << w;
    }
    uint64_t first = s->sm->saturated ? v->ready & ~mem : mem;
    int pick = gto_among(s->last, first, v);
    return pick >= 0 ? pick : gto_among(s->last, v->ready & ~first, v);
}

static void mascar_on_issue(void *self, uint32_t slot, const WarpSchedView *v)
{
    Mascar *s = self;
    s->last = (int)slot;
    if (next_is_memory(&v->sm->slot[slot]))
        s->sm->last_mem = (int)slot;
}

static void mascar_on_exit(void *self, uint32_t slot)
{
    Mascar *s = self;
    if (s->last == (int)slot)
        s->last = -1;
    if (s->sm->last_mem == (int)slot)
        s->sm->last_mem = -1;
    if (s->sm->owner == (int)slot)
        s->sm->owner = -1; /* the next to ask chooses again */
}

const WarpSchedOps warp_mascar_ops = {
    .meta = {.name = "mascar",
             .help = "MASCAR (Sethia et al. HPCA'15): memory instructions first; when the L1D's MSHRs or miss queue "
                     "have at most one free entry, only one owner warp issues memory instructions (pair with "
                     "sm.reexec_queue = 32)"},
    .create_shared = mascar_create_shared,
    .destroy_shared = mascar_destroy_shared,
    .create = mascar_create,
    .destroy = mascar_destroy,
    .pick = mascar_pick,
    .may_issue = mascar_may_issue,
    .on_issue = mascar_on_issue,
    .on_warp_exit = mascar_on_exit,
};
