/* lru.c: least-recently-used replacement as an explicit recency stack per set.
 *
 * pos[set][way] is the way's stack position (0 = MRU, assoc-1 = LRU). Keeping positions
 * (instead of timestamps) is what insertion/promotion policies such as DaCache and DIP build
 * on: insertion at position p and promotion by n positions are the same shift. Inserted and
 * hit lines go to MRU. */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct Lru {
    uint32_t assoc;
    uint8_t *pos;
} Lru;

static void *lru_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    Lru *l = xmalloc(sizeof *l);
    l->assoc = assoc;
    l->pos = xmalloc((size_t)n_sets * assoc);
    for (uint32_t s = 0; s < n_sets; s++)
        for (uint32_t w = 0; w < assoc; w++)
            l->pos[s * assoc + w] = (uint8_t)w;
    return l;
}

static void lru_destroy(void *self)
{
    Lru *l = self;
    free(l->pos);
    free(l);
}

/* Move `way` to position 0, shifting the ways that were above it down by one. */
static void lru_promote(Lru *l, uint32_t set, uint32_t way)
{
    uint8_t *p = &l->pos[set * l->assoc];
    uint8_t old = p[way];
    for (uint32_t w = 0; w < l->assoc; w++)
        if (p[w] < old)
            p[w]++;
    p[way] = 0;
}

static int lru_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    Lru *l = self;
    const uint8_t *p = &l->pos[a->set * l->assoc];
    int best = -1;
    for (uint32_t w = 0; w < l->assoc; w++)
        if ((candidates >> w & 1) && (best < 0 || p[w] > p[best]))
            best = (int)w;
    return best;
}

static void lru_touch(void *self, const ReplAccess *a) { lru_promote(self, a->set, a->way); }

const ReplOps repl_lru_ops = {
    .meta = {.name = "lru", .help = "least recently used; insert and promote to MRU"},
    .create = lru_create,
    .destroy = lru_destroy,
    .victim = lru_victim,
    .on_hit = lru_touch,
    .on_insert = lru_touch,
};
