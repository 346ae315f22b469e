/* twolevel.c: two-level warp scheduling (Narasiman et al., MICRO 2011; GPGPU-Sim's
 * "two_level_active"). Each scheduler keeps an active pool of at most sm.sched.twolevel.active
 * warps and issues among them in loose round-robin order. A warp that is waiting on a
 * global/local load leaves the active pool for the back of the pending queue; free places in
 * the pool are refilled from the front of the pending queue with warps that are not waiting
 * on memory. Choices left open by the papers: refill happens every cycle before the pick; a
 * warp new to the scheduler joins the pending queue in launch order; a warp waiting at a
 * barrier is demoted like one waiting on memory (otherwise a CTA whose warps outnumber the pool
 * deadlocks at its barrier). */
#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct TwoLevelOpts {
    uint32_t active;
} TwoLevelOpts;

static const OptDesc twolevel_opts[] = {
    {"active", OPT_U32, offsetof(TwoLevelOpts, active), "6", 1, 64, NULL, "warps",
     "active-pool size per scheduler (GPGPU-Sim's two_level_active)"},
};

typedef struct TwoLevel {
    uint32_t max_active;
    uint64_t active;   /* slots in the active pool */
    uint64_t known;    /* slots this scheduler has seen (active or pending) */
    uint8_t pending[64];
    uint32_t n_pending;
    uint32_t last;
} TwoLevel;

static void *tl_create(const PolicyCtx *ctx)
{
    TwoLevel *t = xcalloc(1, sizeof *t);
    t->max_active = ((const TwoLevelOpts *)ctx->opts)->active;
    t->last = 63;
    return t;
}

static void tl_destroy(void *self) { free(self); }

static void pending_remove(TwoLevel *t, uint32_t i)
{
    for (uint32_t k = i + 1; k < t->n_pending; k++)
        t->pending[k - 1] = t->pending[k];
    t->n_pending--;
}

static void tl_sync(TwoLevel *t, const WarpSchedView *v)
{
    /* Newly launched warps join the pending queue, oldest first. */
    for (uint64_t fresh = v->valid & ~t->known; fresh;) {
        int best = warp_sched_oldest(fresh, v->age);
        t->pending[t->n_pending++] = (uint8_t)best;
        t->known |= 1ull << best;
        fresh &= ~(1ull << best);
    }
    /* Warps waiting on memory are demoted, and so are warps waiting at a barrier: a pool full
     * of barrier waiters would never admit the warps their barrier waits for. */
    uint64_t waiting = v->mem_wait | v->sm->barrier_mask;
    for (uint64_t m = t->active & waiting; m; m &= m - 1) {
        int s = __builtin_ctzll(m);
        t->active &= ~(1ull << s);
        t->pending[t->n_pending++] = (uint8_t)s;
    }
    /* Refill from the front of the pending queue. */
    for (uint32_t i = 0; i < t->n_pending && (uint32_t)__builtin_popcountll(t->active) < t->max_active;) {
        uint32_t s = t->pending[i];
        if (!(waiting >> s & 1)) {
            t->active |= 1ull << s;
            pending_remove(t, i);
        } else {
            i++;
        }
    }
}

static int tl_pick(void *self, const WarpSchedView *v)
{
    TwoLevel *t = self;
    tl_sync(t, v);
    uint64_t ready = v->ready & t->active;
    if (!ready)
        return -1;
    unsigned start = (t->last + 1) & 63;
    uint64_t rotated = start ? (ready >> start) | (ready << (64 - start)) : ready;
    return (int)((start + (unsigned)__builtin_ctzll(rotated)) & 63);
}

static void tl_on_issue(void *self, uint32_t slot, const WarpSchedView *v) { ((TwoLevel *)self)->last = slot; }

static void tl_on_exit(void *self, uint32_t slot)
{
    TwoLevel *t = self;
    t->active &= ~(1ull << slot);
    t->known &= ~(1ull << slot);
    for (uint32_t i = 0; i < t->n_pending; i++)
        if (t->pending[i] == slot) {
            pending_remove(t, i);
            break;
        }
}

const WarpSchedOps warp_twolevel_ops = {
    .meta = {.name = "twolevel", .help = "two-level: round-robin within an active pool; memory-waiting warps go pending",
             POLICY_OPTS(twolevel_opts, TwoLevelOpts)},
    .create = tl_create,
    .destroy = tl_destroy,
    .pick = tl_pick,
    .on_issue = tl_on_issue,
    .on_warp_exit = tl_on_exit,
};
