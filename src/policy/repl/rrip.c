/* rrip.c: Re-Reference Interval Prediction (Jaleel et al., "High Performance Cache Replacement
 * Using Re-Reference Interval Prediction (RRIP)", ISCA 2010), the RRIP baseline of DaCache
 * (thesis sec. 4.3: a 3-bit RRPV chain, Frequency Priority promotion, set dueling).
 *
 * Each line has an M-bit re-reference prediction value (RRPV; max = 2^M - 1: re-referenced in
 * the distant future). Set dueling (duel.h, leaders and PSEL as in DIP) between SRRIP, which
 * inserts with RRPV max - 1, and BRRIP, which inserts with max and with probability 1/32 with
 * max - 1 (DRRIP, sec. 4.3 of the paper). A hit decrements the line's RRPV by one (Frequency
 * Priority, sec. 3.2: not Hit Priority's reset to 0). The victim is the first candidate (lowest
 * way) with RRPV max; when no candidate has it, every line of the set, reserved ones included,
 * ages by one (saturating at max) and the search repeats. Only candidates are returned: the
 * cache leaves reserved lines out.
 *
 * on_hit also fires for a sector miss in a sectored cache (a.hit false): the line is being
 * re-referenced, so it is promoted like a hit. A miss is counted once, at on_insert (see
 * duel.h); on_fill does nothing.
 *
 * Options: l1d.repl.rrip.rrpv_bits (M, default 3), .leaders (default 4), .psel_bits (default
 * 10). Stats: <prefix>.leader_miss_{srrip,brrip}, .follower_insert_{srrip,brrip}, .brrip_near
 * (BRRIP insertions the coin gave max - 1), .aging (rounds in which a victim search aged its set). */
#include "policy/policy.h"
#include "policy/repl/duel.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct RripOpts {
    DuelOpts duel;
    uint32_t rrpv_bits;
} RripOpts;

static const OptDesc rrip_opts[] = {
    {"rrpv_bits", OPT_U32, offsetof(RripOpts, rrpv_bits), "3", 1, 7, NULL, "bits",
     "M: bits of each line's re-reference prediction value (max 2^M - 1)"},
    DUEL_OPT_DESCS(RripOpts, duel),
};

typedef struct Rrip {
    uint32_t assoc;
    uint8_t max;   /* 2^M - 1 */
    uint8_t *rrpv; /* [set * assoc + way] */
    Duel duel;     /* A = SRRIP, B = BRRIP */
    uint64_t brrip_near, aging;
} Rrip;

static void *rrip_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    const RripOpts *o = ctx->opts;
    CHECK(assoc <= 64 && o->rrpv_bits >= 1 && o->rrpv_bits <= 7);
    Rrip *r = xcalloc(1, sizeof *r);
    r->assoc = assoc;
    r->max = (uint8_t)((1u << o->rrpv_bits) - 1);
    r->rrpv = xmalloc((size_t)n_sets * assoc);
    memset(r->rrpv, r->max, (size_t)n_sets * assoc);
    duel_init(&r->duel, &o->duel, n_sets, ctx->seed);
    duel_stats(&r->duel, ctx, "srrip", "brrip");
    policy_stat_counter(ctx, &r->brrip_near, "brrip_near", "BRRIP insertions with RRPV max - 1 (the 1/32 coin)");
    policy_stat_counter(ctx, &r->aging, "aging",
                        "aging rounds: a victim search found no candidate at max RRPV and aged the whole set");
    return r;
}

static void rrip_destroy(void *self)
{
    Rrip *r = self;
    free(r->rrpv);
    free(r);
}

static int rrip_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    Rrip *r = self;
    uint8_t *v = &r->rrpv[a->set * r->assoc];
    if (!candidates)
        return REPL_STALL; /* the cache never asks so; nothing here could age into a victim */
    for (;;) {
        for (uint32_t w = 0; w < r->assoc; w++)
            if ((candidates >> w & 1) && v[w] == r->max)
                return (int)w;
        r->aging++;
        for (uint32_t w = 0; w < r->assoc; w++)
            if (v[w] < r->max)
                v[w]++;
    }
}

static void rrip_insert(void *self, const ReplAccess *a)
{
    Rrip *r = self;
    uint8_t rrpv = r->max - 1; /* SRRIP */
    if (duel_miss(&r->duel, a->set) == DUEL_B) {
        if (duel_coin(&r->duel))
            r->brrip_near++;
        else
            rrpv = r->max;
    }
    r->rrpv[a->set * r->assoc + a->way] = rrpv;
}

/* A hit, or a sector miss (a.hit false): Frequency Priority, one step nearer. */
static void rrip_hit(void *self, const ReplAccess *a)
{
    Rrip *r = self;
    uint8_t *v = &r->rrpv[a->set * r->assoc + a->way];
    if (*v > 0)
        (*v)--;
}

const ReplOps repl_rrip_ops = {
    .meta = {.name = "rrip",
             .help = "re-reference interval prediction (Jaleel, ISCA 2010): set dueling between SRRIP and BRRIP "
                     "insertion, frequency-priority promotion",
             POLICY_OPTS(rrip_opts, RripOpts)},
    .create = rrip_create,
    .destroy = rrip_destroy,
    .victim = rrip_victim,
    .on_hit = rrip_hit,
    .on_insert = rrip_insert,
};
