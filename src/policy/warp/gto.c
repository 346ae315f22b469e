/* gto.c: greedy-then-oldest warp scheduling (Rogers et al.; thesis 1.1.1): keep issuing from
 * the warp that issued last while it is ready, otherwise the oldest ready warp (smallest
 * launch age). The baseline scheduler of every seed paper. */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct Gto {
    int last;
} Gto;

static void *gto_create(const PolicyCtx *ctx)
{
    Gto *g = xmalloc(sizeof *g);
    g->last = -1;
    return g;
}

static void gto_destroy(void *self) { free(self); }

int warp_sched_oldest(uint64_t mask, const uint64_t *age)
{
    int best = -1;
    for (uint64_t m = mask; m; m &= m - 1) {
        int s = __builtin_ctzll(m);
        if (best < 0 || age[s] < age[best])
            best = s;
    }
    return best;
}

int warp_sched_gto(int last, const WarpSchedView *v)
{
    if (last >= 0 && (v->ready >> last & 1))
        return last;
    return warp_sched_oldest(v->ready, v->age);
}

static int gto_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const Gto *)self)->last, v); }

static void gto_on_issue(void *self, uint32_t slot, const WarpSchedView *v) { ((Gto *)self)->last = (int)slot; }

static void gto_on_exit(void *self, uint32_t slot)
{
    Gto *g = self;
    if (g->last == (int)slot)
        g->last = -1;
}

const WarpSchedOps warp_gto_ops = {
    .meta = {.name = "gto", .help = "greedy-then-oldest: the last warp while ready, else the oldest ready warp"},
    .create = gto_create,
    .destroy = gto_destroy,
    .pick = gto_pick,
    .on_issue = gto_on_issue,
    .on_warp_exit = gto_on_exit,
    .ignores_sm_view = true,
};
