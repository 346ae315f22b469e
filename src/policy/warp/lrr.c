/* lrr.c: loose round-robin warp scheduling: the first ready warp after the one that issued
 * last, in slot order (GPGPU-Sim's "lrr"). */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct Lrr {
    uint32_t last;
} Lrr;

static void *lrr_create(const PolicyCtx *ctx)
{
    Lrr *l = xmalloc(sizeof *l);
    l->last = ctx->cfg->sm.max_warps - 1;
    return l;
}

static void lrr_destroy(void *self) { free(self); }

static int lrr_pick(void *self, const WarpSchedView *v)
{
    const Lrr *l = self;
    if (!v->ready)
        return -1;
    unsigned start = (l->last + 1) & 63;
    uint64_t rotated = start ? (v->ready >> start) | (v->ready << (64 - start)) : v->ready;
    return (int)((start + (unsigned)__builtin_ctzll(rotated)) & 63);
}

static void lrr_on_issue(void *self, uint32_t slot, const WarpSchedView *v)
{
    ((Lrr *)self)->last = slot;
}

const WarpSchedOps warp_lrr_ops = {
    .meta = {.name = "lrr", .help = "loose round-robin: next ready warp after the last one issued"},
    .create = lrr_create,
    .destroy = lrr_destroy,
    .pick = lrr_pick,
    .on_issue = lrr_on_issue,
    .ignores_sm_view = true,
};
