/* lru.c: least-recently-used replacement on a recency stack (stack.h): inserted and hit lines
 * go to MRU; the victim is the candidate closest to the LRU end. */
#include "policy/policy.h"
#include "policy/repl/stack.h"

#include "base/base.h"

#include <stdlib.h>

static void *lru_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    ReplStack *s = xmalloc(sizeof *s);
    repl_stack_init(s, n_sets, assoc);
    return s;
}

static void lru_destroy(void *self)
{
    repl_stack_free(self);
    free(self);
}

static int lru_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    return repl_stack_victim(self, a->set, candidates, 0);
}

static void lru_touch(void *self, const ReplAccess *a) { repl_stack_move(self, a->set, a->way, 0); }

const ReplOps repl_lru_ops = {
    .meta = {.name = "lru", .help = "least recently used; insert and promote to MRU"},
    .create = lru_create,
    .destroy = lru_destroy,
    .victim = lru_victim,
    .on_hit = lru_touch,
    .on_insert = lru_touch,
};
