/* dip.c: Dynamic Insertion Policy (Qureshi et al., "Adaptive Insertion Policies for High
 * Performance Caching", ISCA 2007), the DIP baseline of DaCache (thesis sec. 4.3: 4 leader
 * sets per insertion policy, the other 24 of the 32-set L1D follow).
 *
 * A recency stack per set (stack.h). Set dueling (duel.h) between LRU insertion (the new line
 * goes to MRU) and BIP (it goes to the LRU position, and to MRU with probability 1/32). Hits
 * promote to MRU; the victim is the candidate closest to the LRU end, so a line BIP inserted
 * at LRU is the next victim of its set unless it is hit first.
 *
 * on_hit also fires for a sector miss in a sectored cache (a.hit false): the line is being
 * used again, so it is promoted like a hit. A miss is counted once, at on_insert (see duel.h);
 * on_fill does nothing.
 *
 * Options: l1d.repl.dip.leaders (leader sets per policy, default 4), .psel_bits (default 10).
 * Stats: <prefix>.leader_miss_{lru,bip}, .follower_insert_{lru,bip}, .bip_mru (BIP insertions
 * the coin sent to MRU). */
#include "policy/policy.h"
#include "policy/repl/duel.h"
#include "policy/repl/stack.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct DipOpts {
    DuelOpts duel;
} DipOpts;

static const OptDesc dip_opts[] = {
    DUEL_OPT_DESCS(DipOpts, duel),
};

typedef struct Dip {
    ReplStack stack;
    Duel duel; /* A = LRU, B = BIP */
    uint64_t bip_mru;
} Dip;

static void *dip_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    Dip *d = xcalloc(1, sizeof *d);
    repl_stack_init(&d->stack, n_sets, assoc);
    duel_init(&d->duel, &((const DipOpts *)ctx->opts)->duel, n_sets, ctx->seed);
    duel_stats(&d->duel, ctx, "lru", "bip");
    policy_stat_counter(ctx, &d->bip_mru, "bip_mru", "BIP insertions placed at MRU (the 1/32 coin)");
    return d;
}

static void dip_destroy(void *self)
{
    Dip *d = self;
    repl_stack_free(&d->stack);
    free(d);
}

static int dip_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    return repl_stack_victim(&((Dip *)self)->stack, a->set, candidates, 0);
}

static void dip_insert(void *self, const ReplAccess *a)
{
    Dip *d = self;
    uint32_t to = 0; /* LRU insertion: at MRU */
    if (duel_miss(&d->duel, a->set) == DUEL_B) {
        if (duel_coin(&d->duel))
            d->bip_mru++;
        else
            to = d->stack.assoc - 1;
    }
    repl_stack_move(&d->stack, a->set, a->way, to);
}

/* A hit, or a sector miss (a.hit false): promote to MRU. */
static void dip_hit(void *self, const ReplAccess *a) { repl_stack_move(&((Dip *)self)->stack, a->set, a->way, 0); }

const ReplOps repl_dip_ops = {
    .meta = {.name = "dip",
             .help = "dynamic insertion (Qureshi, ISCA 2007): set dueling between LRU and BIP insertion",
             POLICY_OPTS(dip_opts, DipOpts)},
    .create = dip_create,
    .destroy = dip_destroy,
    .victim = dip_victim,
    .on_hit = dip_hit,
    .on_insert = dip_insert,
};
