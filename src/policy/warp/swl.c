/* swl.c: static warp limiting (Rogers et al., "Cache-Conscious Wavefront Scheduling", MICRO
 * 2012, sec. 3; the "Best-SWL" baseline of OAWS (thesis ch. 5), CIAO and Linebacker): each
 * scheduler lets only its sm.sched.swl.limit oldest live warps issue, in greedy-then-oldest
 * order among them; the others are held back (may_issue), and counted as such. A warp gains
 * a place when an older one exits. The limit is per scheduler: the papers' per-SM limit N
 * with two schedulers is limit N/2. Choice left open by the paper: "oldest" is launch order
 * on the SM, the order GTO uses. Warps waiting at a barrier do not take a place (GPGPU-Sim's
 * swl orders them last, sort_warps_by_oldest_dynamic_id): otherwise a limit below a CTA's
 * warps per scheduler would hold back the warps the barrier waits for, for ever. */
#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct SwlOpts {
    uint32_t limit;
} SwlOpts;

static const OptDesc swl_opts[] = {
    {"limit", OPT_U32, offsetof(SwlOpts, limit), "4", 1, 64, NULL, "warps",
     "warps of each scheduler allowed to issue: its oldest live ones"},
};

typedef struct Swl {
    uint32_t limit;
    int last;            /* greedy warp */
    uint64_t valid_seen; /* the live warps not at a barrier `allowed` was computed for */
    uint64_t allowed;    /* the limit oldest of them */
} Swl;

static void *swl_create(const PolicyCtx *ctx)
{
    Swl *s = xcalloc(1, sizeof *s);
    s->limit = ((const SwlOpts *)ctx->opts)->limit;
    s->last = -1;
    return s;
}

static void swl_destroy(void *self) { free(self); }

/* The `limit` oldest warps of `valid`. */
static uint64_t oldest_n(uint64_t valid, const uint64_t *age, uint32_t limit)
{
    uint64_t allowed = 0;
    for (uint32_t i = 0; i < limit && valid; i++) {
        int s = warp_sched_oldest(valid, age);
        allowed |= 1ull << s;
        valid &= ~(1ull << s);
    }
    return allowed;
}

static bool swl_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    Swl *s = self;
    uint64_t cand = v->valid & ~v->sm->barrier_mask;
    if (cand != s->valid_seen) {
        s->valid_seen = cand;
        s->allowed = oldest_n(cand, v->age, s->limit);
    }
    return s->allowed >> slot & 1;
}

/* The live warps outside the limit when the scheduler last looked. */
static uint64_t swl_throttled(const void *self)
{
    const Swl *s = self;
    return s->valid_seen & ~s->allowed;
}

static int swl_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const Swl *)self)->last, v); }

static void swl_on_issue(void *self, uint32_t slot, const WarpSchedView *v) { ((Swl *)self)->last = (int)slot; }

static void swl_on_exit(void *self, uint32_t slot)
{
    Swl *s = self;
    if (s->last == (int)slot)
        s->last = -1;
}

const WarpSchedOps warp_swl_ops = {
    .meta = {.name = "swl", .help = "static warp limiting: GTO among each scheduler's `limit` oldest warps",
             POLICY_OPTS(swl_opts, SwlOpts)},
    .create = swl_create,
    .destroy = swl_destroy,
    .may_issue = swl_may_issue,
    .pick = swl_pick,
    .on_issue = swl_on_issue,
    .on_warp_exit = swl_on_exit,
    .throttled = swl_throttled,
};
