/* duel.h: set dueling (Qureshi et al., "Adaptive Insertion Policies for High Performance
 * Caching", ISCA 2007, sec. 5), shared by the replacement policies that choose between two
 * insertion policies A and B at run time: DIP (A = LRU, B = BIP) and RRIP (A = SRRIP, B = BRRIP).
 *
 * A few leader sets always use A, as many always use B; a saturating counter PSEL counts a
 * miss in an A leader up and a miss in a B leader down, and every other (follower) set uses B
 * while PSEL's most significant bit is set, else A.
 *
 * Choices the papers leave open, made here:
 *   - Leader placement: evenly spread. With stride = n_sets / leaders, the A leaders are the
 *     sets i * stride and the B leaders the sets i * stride + stride / 2, for i < leaders (on
 *     the 32-set L1D with 4 leaders each: A = 0, 8, 16, 24; B = 4, 12, 20, 28), so both kinds
 *     sample every part of the index space alike.
 *   - Too few sets: a cache needs two sets per leader pair; leaders is clamped to n_sets / 2
 *     (with n_sets = 2 * leaders every set leads and none follows; a 1-set cache has no leaders
 *     and its set follows PSEL's starting value, A).
 *   - PSEL starts at 2^(bits-1) - 1, the lower midpoint: its MSB is clear, so the followers
 *     start with A (LRU, SRRIP: the baseline of each pair) and switch to B once A's leaders
 *     have missed once more than B's.
 *   - What counts as a miss: a miss that allocates a line (the policy's on_insert: at the miss
 *     under allocate-on-miss, at the fill under allocate-on-fill), once per miss. Merged misses,
 *     sector misses and bypassed misses allocate nothing and do not count.
 *   - The "bimodal" coin of BIP and BRRIP: true with probability 1/32 (epsilon), from the
 *     policy's own splitmix64 stream seeded with the context's seed (deterministic runs).
 *
 * Stats (registered by duel_stats): leader_miss_<a|b> (misses in each policy's leader sets,
 * which moved PSEL) and follower_insert_<a|b> (lines the follower sets inserted with each
 * policy: which policy won, and for how long). */
#ifndef WARPSIM_REPL_DUEL_H
#define WARPSIM_REPL_DUEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "policy/policy.h"

/* The options of set dueling, in each dueling policy's options struct (its OptDesc table lists
 * them with DUEL_OPT_DESCS): keys <owner>.<policy>.leaders and .psel_bits. */
typedef struct DuelOpts {
    uint32_t leaders;
    uint32_t psel_bits;
} DuelOpts;

#define DUEL_OPT_DESCS(type, member)                                                                             \
    {"leaders", OPT_U32, offsetof(type, member.leaders), "4", 1, 65536, NULL, "sets",                          \
     "leader sets per policy (at most half the cache's sets: more is clamped to that)"},                       \
    {"psel_bits", OPT_U32, offsetof(type, member.psel_bits), "10", 1, 31, NULL, "bits",                          \
     "width of the saturating policy selector PSEL (starts at 2^(bits-1) - 1)"}

/* The insertion policy a set uses. */
typedef enum DuelSide { DUEL_A = 0, DUEL_B = 1 } DuelSide;

typedef struct Duel {
    uint32_t leaders;  /* leader sets per policy, after clamping */
    uint32_t stride;   /* sets per leader pair (>= 2 when leaders > 0) */
    uint32_t psel;
    uint32_t psel_max; /* 2^bits - 1 */
    uint64_t rng;      /* the bimodal coin's stream */
    uint64_t leader_miss[2];
    uint64_t follower_insert[2];
} Duel;

/* The 1/32 of the bimodal policies (BIP, BRRIP). */
#define DUEL_EPSILON_LOG2 5

static inline void duel_init(Duel *d, const DuelOpts *o, uint32_t n_sets, uint64_t seed)
{
    CHECK(o->psel_bits >= 1 && o->psel_bits <= 31); /* the option's range */
    *d = (Duel){0};
    d->leaders = o->leaders < n_sets / 2 ? o->leaders : n_sets / 2;
    d->stride = d->leaders ? n_sets / d->leaders : 0;
    d->psel_max = (1u << o->psel_bits) - 1;
    d->psel = d->psel_max / 2;
    d->rng = seed;
}

/* Register the counters as <prefix>.leader_miss_<a> etc. (a, b: the two policies' names). */
static inline void duel_stats(Duel *d, const PolicyCtx *ctx, const char *a, const char *b)
{
    const char *side[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "leader_miss_%s", side[i]);
        policy_stat_counter(ctx, &d->leader_miss[i], name, "misses in this policy's leader sets (they move PSEL)");
        snprintf(name, sizeof name, "follower_insert_%s", side[i]);
        policy_stat_counter(ctx, &d->follower_insert[i], name, "lines the follower sets inserted with this policy");
    }
}

/* A set's role: DUEL_A or DUEL_B for a leader of that policy, -1 for a follower. */
static inline int duel_leader(const Duel *d, uint32_t set)
{
    if (!d->leaders || set / d->stride >= d->leaders)
        return -1;
    uint32_t off = set % d->stride;
    return off == 0 ? DUEL_A : off == d->stride / 2 ? DUEL_B : -1;
}

/* The policy the followers use now: B while PSEL's most significant bit is set (PSEL >= 2^(bits-1)). */
static inline DuelSide duel_winner(const Duel *d) { return d->psel > d->psel_max / 2 ? DUEL_B : DUEL_A; }

/* A miss allocates a line in `set`: a leader's miss moves PSEL (saturating), a follower's
 * insertion is counted. Returns the policy to insert the line with. */
static inline DuelSide duel_miss(Duel *d, uint32_t set)
{
    int lead = duel_leader(d, set);
    if (lead < 0) {
        DuelSide s = duel_winner(d);
        d->follower_insert[s]++;
        return s;
    }
    d->leader_miss[lead]++;
    if (lead == DUEL_A && d->psel < d->psel_max)
        d->psel++;
    else if (lead == DUEL_B && d->psel > 0)
        d->psel--;
    return (DuelSide)lead;
}

/* The bimodal coin: true with probability 2^-DUEL_EPSILON_LOG2. */
static inline bool duel_coin(Duel *d) { return rng_next(&d->rng) >> (64 - DUEL_EPSILON_LOG2) == 0; }

#endif
