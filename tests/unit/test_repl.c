/* test_repl.c: the set-dueling replacement policies on worked examples, driven through their
 * ReplOps hooks directly (the cache's side of the contract is test_l1d_contract.c).
 *
 * The leader-set placement and its clamp (duel.h); DIP: PSEL steering the followers between
 * LRU and BIP insertion, PSEL saturating at both ends, the BIP coin's rate; RRIP: a hit / miss
 * / victim sequence on one 4-way set (insertion values, frequency-priority promotion, aging,
 * candidates only), SRRIP and BRRIP insertion in the leader sets, the RRPV width. The policies'
 * state is private: the tests read it through victim() and the policies' own counters (the
 * RRIP `aging` counter counts the rounds a victim search aged the set, so a lone candidate with
 * RRPV v costs max - v rounds). The recency stack's word-wide move and victim search (stack.h)
 * against a plain per-way reference on random moves, candidates and floors. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "policy/policy.h"
#include "policy/repl/duel.h"
#include "policy/repl/stack.h"

#include <stdlib.h>

/* One policy instance on its own config and stats (prefix "t"). */
typedef struct Inst {
    Config c;
    Stats st;
    PolicyCtx ctx;
    const ReplOps *o;
    void *self;
    uint32_t assoc;
} Inst;

/* kv: "key=value" options, separated by spaces, or NULL. */
static void inst_init(Inst *p, const char *name, uint32_t n_sets, uint32_t assoc, const char *kv)
{
    char err[512], buf[256];
    config_init(&p->c);
    snprintf(p->c.l1d.repl, sizeof p->c.l1d.repl, "%s", name);
    snprintf(buf, sizeof buf, "%s", kv ? kv : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        CHECK(eq);
        *eq = 0;
        CHECK(config_set(&p->c, tok, eq + 1, err, sizeof err));
    }
    CHECK(policy_check_config(&p->c, err, sizeof err));
    stats_init(&p->st);
    p->o = policy_repl(name);
    CHECK(p->o);
    policy_ctx_init(&p->ctx, &p->o->meta, "l1d.repl", &p->c, &p->st, "t", 0, 0);
    p->self = p->o->create(&p->ctx, n_sets, assoc);
    p->assoc = assoc;
}

static void inst_free(Inst *p)
{
    p->o->destroy(p->self);
    policy_ctx_free(&p->ctx);
    stats_free(&p->st);
}

/* The resolved value of a policy option ("" when the config lacks it). */
static const char *ext(const Config *c, const char *key)
{
    const ConfigExt *e = config_ext_find(c, key);
    return e ? e->value : "";
}

static uint64_t stat(const Inst *p, const char *name)
{
    char full[96];
    int found = 0;
    snprintf(full, sizeof full, "t.%s", name);
    uint64_t v = stats_get(&p->st, full, &found);
    CHECK(found);
    return v;
}

/* A miss that allocates `way` of `set`. */
static void insert(Inst *p, uint32_t set, uint32_t way)
{
    ReplAccess a = {.set = set, .way = way, .n_lines = 1};
    p->o->on_insert(p->self, &a);
}

static void hit(Inst *p, uint32_t set, uint32_t way)
{
    ReplAccess a = {.set = set, .way = way, .n_lines = 1, .hit = true};
    p->o->on_hit(p->self, &a);
}

static int victim(Inst *p, uint32_t set, uint64_t candidates)
{
    ReplAccess a = {.set = set, .n_lines = 1};
    return p->o->victim(p->self, &a, candidates);
}

/* Fill every way of `set`, way 0 first. */
static void fill_set(Inst *p, uint32_t set)
{
    for (uint32_t w = 0; w < p->assoc; w++)
        insert(p, set, w);
}

/* Which policy the followers use now: insert into follower set `set` and see which counter
 * moved ("lru"/"bip" or "srrip"/"brrip"; returns 1 for the second). */
static int follower_policy(Inst *p, uint32_t set, const char *a, const char *b)
{
    char ka[64], kb[64];
    snprintf(ka, sizeof ka, "follower_insert_%s", a);
    snprintf(kb, sizeof kb, "follower_insert_%s", b);
    uint64_t na = stat(p, ka), nb = stat(p, kb);
    insert(p, set, 0);
    CHECK(stat(p, ka) + stat(p, kb) == na + nb + 1);
    return stat(p, kb) > nb;
}

/* ---- set dueling (duel.h) ----------------------------------------------------------------- */

TEST(repl_duel_leader_placement)
{
    DuelOpts o = {.leaders = 4, .psel_bits = 10};
    Duel d;
    duel_init(&d, &o, 32, 1); /* the thesis' L1D: 4 + 4 leaders, 24 followers */
    uint32_t n[2] = {0, 0};
    for (uint32_t s = 0; s < 32; s++) {
        int role = duel_leader(&d, s);
        EXPECT_EQ_I(role, s % 8 == 0 ? DUEL_A : s % 8 == 4 ? DUEL_B : -1);
        if (role >= 0)
            n[role]++;
    }
    EXPECT_EQ_U(n[0], 4);
    EXPECT_EQ_U(n[1], 4);
    EXPECT_EQ_U(d.psel, 511); /* the lower midpoint: MSB clear, followers start with A */
    EXPECT_EQ_I(duel_winner(&d), DUEL_A);

    o.leaders = 3; /* not a divisor: stride 10, set 30 and 31 follow */
    duel_init(&d, &o, 32, 1);
    EXPECT_EQ_I(duel_leader(&d, 20), DUEL_A);
    EXPECT_EQ_I(duel_leader(&d, 25), DUEL_B);
    EXPECT_EQ_I(duel_leader(&d, 30), -1);

    o.leaders = 4; /* 4 sets: clamped to 2 per policy, every set leads */
    duel_init(&d, &o, 4, 1);
    EXPECT_EQ_U(d.leaders, 2);
    EXPECT_EQ_I(duel_leader(&d, 0), DUEL_A);
    EXPECT_EQ_I(duel_leader(&d, 1), DUEL_B);
    EXPECT_EQ_I(duel_leader(&d, 2), DUEL_A);
    EXPECT_EQ_I(duel_leader(&d, 3), DUEL_B);

    duel_init(&d, &o, 1, 1); /* one set: no leaders, it follows PSEL's start */
    EXPECT_EQ_U(d.leaders, 0);
    EXPECT_EQ_I(duel_leader(&d, 0), -1);
    EXPECT_EQ_I(duel_miss(&d, 0), DUEL_A);
}

TEST(repl_duel_options_checked)
{
    Config c;
    char err[512];
    config_init(&c);
    EXPECT(config_set(&c, "l1d.repl", "dip", err, sizeof err));
    EXPECT_EQ_I(policy_check_config(&c, err, sizeof err), 1);
    EXPECT_STR(ext(&c, "l1d.repl.dip.leaders"), "4");
    EXPECT_STR(ext(&c, "l1d.repl.dip.psel_bits"), "10");
    config_init(&c);
    EXPECT(config_set(&c, "l1d.repl.dip.leaders", "0", err, sizeof err));
    EXPECT_EQ_I(policy_check_config(&c, err, sizeof err), 0);
    EXPECT_CONTAINS(err, "l1d.repl.dip.leaders: 0 is out of range");
    config_init(&c);
    EXPECT(config_set(&c, "l1d.repl.rrip.rrpv_bits", "8", err, sizeof err));
    EXPECT_EQ_I(policy_check_config(&c, err, sizeof err), 0);
    EXPECT_CONTAINS(err, "l1d.repl.rrip.rrpv_bits: 8 is out of range");
    config_init(&c);
    EXPECT(config_set(&c, "l2.repl", "rrip", err, sizeof err));
    EXPECT_EQ_I(policy_check_config(&c, err, sizeof err), 1);
    EXPECT_STR(ext(&c, "l2.repl.rrip.rrpv_bits"), "3");
}

/* ---- DIP ---------------------------------------------------------------------------------- */

TEST(repl_dip_psel_steers_followers)
{
    Inst p;
    inst_init(&p, "dip", 32, 4, NULL);
    /* PSEL starts at 511: follower set 1 inserts at MRU, so its LRU line is the first inserted */
    fill_set(&p, 1);
    EXPECT_EQ_U(stat(&p, "follower_insert_lru"), 4);
    EXPECT_EQ_I(victim(&p, 1, 0xF), 0);

    /* 100 misses spread over the LRU leaders (0, 8, 16, 24): PSEL 611, followers use BIP */
    for (uint32_t i = 0; i < 100; i++)
        insert(&p, i % 4 * 8, i % 4);
    EXPECT_EQ_U(stat(&p, "leader_miss_lru"), 100);
    insert(&p, 1, 0); /* way 0's new line goes to the LRU position... */
    EXPECT_EQ_U(stat(&p, "follower_insert_bip"), 1);
    EXPECT_EQ_U(stat(&p, "bip_mru"), 0);
    EXPECT_EQ_I(victim(&p, 1, 0xF), 0); /* ...and is the next victim */
    EXPECT_EQ_I(victim(&p, 1, 0xE), 1); /* then the oldest of the others */
    hit(&p, 1, 0);                      /* a hit promotes it to MRU */
    EXPECT_EQ_I(victim(&p, 1, 0xF), 1);
    insert(&p, 1, 1); /* BIP again: way 1 back at LRU */
    EXPECT_EQ_I(victim(&p, 1, 0xF), 1);
    ReplAccess sector_miss = {.set = 1, .way = 1, .n_lines = 1, .hit = false};
    p.o->on_hit(p.self, &sector_miss); /* a sector miss promotes too */
    EXPECT_EQ_I(victim(&p, 1, 0xF), 2);

    /* misses in the BIP leaders (4, 12, 20, 28) bring PSEL down: 99 leave it at 512 (BIP)... */
    for (uint32_t i = 0; i < 99; i++)
        insert(&p, 4 + i % 4 * 8, i % 4);
    EXPECT_EQ_I(follower_policy(&p, 2, "lru", "bip"), 1);
    insert(&p, 28, 0); /* ...the 100th, 511: LRU insertion again */
    EXPECT_EQ_U(stat(&p, "leader_miss_bip"), 100);
    EXPECT_EQ_I(follower_policy(&p, 2, "lru", "bip"), 0);
    fill_set(&p, 3);
    EXPECT_EQ_I(victim(&p, 3, 0xF), 0);
    insert(&p, 3, 0); /* at MRU: way 1 is now the LRU line */
    EXPECT_EQ_I(victim(&p, 3, 0xF), 1);
    /* leader sets keep their own policy whatever PSEL says */
    fill_set(&p, 4); /* BIP leader: each new line lands at LRU, pushing the last one up */
    EXPECT_EQ_I(victim(&p, 4, 0xF), 3);
    inst_free(&p);
}

TEST(repl_dip_psel_saturates)
{
    Inst p;
    inst_init(&p, "dip", 32, 4, NULL);
    for (uint32_t i = 0; i < 2000; i++) /* 511 + 2000 saturates at 1023 */
        insert(&p, 0, 0);
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 1);
    for (uint32_t i = 0; i < 511; i++) /* 1023 - 511 = 512: still BIP */
        insert(&p, 4, 0);
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 1);
    insert(&p, 4, 0); /* 511: had PSEL not saturated, this would take 2000 more */
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 0);
    for (uint32_t i = 0; i < 2000; i++) /* down to 0 */
        insert(&p, 4, 0);
    for (uint32_t i = 0; i < 511; i++)
        insert(&p, 0, 0);
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 0);
    insert(&p, 0, 0); /* 512 */
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 1);
    inst_free(&p);

    /* a 4-bit PSEL: 0..15, starting at 7 */
    inst_init(&p, "dip", 32, 4, "l1d.repl.dip.psel_bits=4");
    insert(&p, 8, 0); /* 8 */
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 1);
    for (uint32_t i = 0; i < 100; i++) /* 15 */
        insert(&p, 8, 0);
    for (uint32_t i = 0; i < 7; i++) /* 8 */
        insert(&p, 12, 0);
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 1);
    insert(&p, 12, 0); /* 7 */
    EXPECT_EQ_I(follower_policy(&p, 1, "lru", "bip"), 0);
    inst_free(&p);
}

TEST(repl_dip_bip_coin_rate)
{
    Inst p;
    inst_init(&p, "dip", 32, 4, NULL);
    fill_set(&p, 4);
    enum { N = 32000 };
    uint32_t mru = 0;
    for (uint32_t i = 0; i < N; i++) { /* BIP leader set 4: replace its victim each time */
        int w = victim(&p, 4, 0xF);
        insert(&p, 4, (uint32_t)w);
        mru += victim(&p, 4, 0xF) != w; /* not at LRU: the coin sent it to MRU */
    }
    EXPECT_EQ_U(mru, stat(&p, "bip_mru"));
    EXPECT(mru > N / 32 * 8 / 10 && mru < N / 32 * 12 / 10); /* about N/32 = 1000 */
    EXPECT_EQ_U(mru, 1043); /* gpu.seed = 1, SM 0, index 0 */
    inst_free(&p);
}

/* ---- RRIP --------------------------------------------------------------------------------- */

TEST(repl_rrip_worked_example)
{
    Inst p;
    inst_init(&p, "rrip", 32, 4, NULL); /* M = 3: RRPV 0..7 */
    uint32_t s = 1;                     /* a follower; PSEL starts with SRRIP */
    fill_set(&p, s);                    /* RRPV 6 6 6 6 */
    EXPECT_EQ_U(stat(&p, "follower_insert_srrip"), 4);
    hit(&p, s, 1);
    hit(&p, s, 1); /* frequency priority: 6 4 6 6, not reset to 0 */
    hit(&p, s, 2); /* 6 4 5 6 */
    EXPECT_EQ_I(victim(&p, s, 0xF), 0); /* no 7: one aging round, 7 5 6 7: the first 7 */
    EXPECT_EQ_U(stat(&p, "aging"), 1);
    insert(&p, s, 0);                   /* 6 5 6 7 */
    EXPECT_EQ_I(victim(&p, s, 0xF), 3); /* way 3 is at 7 already: no aging */
    EXPECT_EQ_U(stat(&p, "aging"), 1);
    EXPECT_EQ_I(victim(&p, s, 0x7), 0); /* way 3 is not a candidate: age to 7 6 7 7 */
    EXPECT_EQ_U(stat(&p, "aging"), 2);
    EXPECT_EQ_I(victim(&p, s, 0x6), 2); /* 2 is at 7, 1 is not */
    EXPECT_EQ_I(victim(&p, s, 0x2), 1); /* 1 ages 6 -> 7 */
    EXPECT_EQ_U(stat(&p, "aging"), 3);
    for (int i = 0; i < 10; i++) /* promotion stops at 0 */
        hit(&p, s, 1);
    EXPECT_EQ_I(victim(&p, s, 0x2), 1);
    EXPECT_EQ_U(stat(&p, "aging"), 10); /* 0 -> 7: seven rounds */
    ReplAccess sector_miss = {.set = s, .way = 3, .n_lines = 1, .hit = false};
    p.o->on_hit(p.self, &sector_miss); /* a sector miss promotes too: 7 7 7 6 */
    EXPECT_EQ_I(victim(&p, s, 0x8), 3);
    EXPECT_EQ_U(stat(&p, "aging"), 11);
    EXPECT_EQ_U(stat(&p, "leader_miss_srrip") + stat(&p, "leader_miss_brrip"), 0);
    inst_free(&p);
}

/* RRPV a fresh line gets in `set`: the aging rounds a victim search with it as the only
 * candidate takes (it then sits at max). */
static uint32_t inserted_rrpv(Inst *p, uint32_t set, uint32_t way, uint32_t max)
{
    insert(p, set, way);
    uint64_t before = stat(p, "aging");
    CHECK(victim(p, set, 1ull << way) == (int)way);
    return max - (uint32_t)(stat(p, "aging") - before);
}

TEST(repl_rrip_leader_insertion)
{
    Inst p;
    inst_init(&p, "rrip", 32, 4, NULL);
    EXPECT_EQ_U(inserted_rrpv(&p, 0, 0, 7), 6); /* SRRIP leader: 2^M - 2 */
    EXPECT_EQ_U(inserted_rrpv(&p, 4, 0, 7), 7); /* BRRIP leader: 2^M - 1 */
    EXPECT_EQ_U(stat(&p, "leader_miss_srrip"), 1);
    EXPECT_EQ_U(stat(&p, "leader_miss_brrip"), 1);
    /* the BRRIP coin: max - 1 about one time in 32 */
    enum { N = 32000 };
    uint32_t near = 0;
    for (uint32_t i = 0; i < N; i++)
        near += inserted_rrpv(&p, 12, i % 4, 7) == 6;
    EXPECT_EQ_U(near, stat(&p, "brrip_near"));
    EXPECT(near > N / 32 * 8 / 10 && near < N / 32 * 12 / 10);
    EXPECT_EQ_U(near, 1043); /* the same coin stream as DIP's */ /* gpu.seed = 1, SM 0, index 0 */
    /* PSEL is at 0 now: followers use SRRIP; enough SRRIP leader misses move them to BRRIP */
    EXPECT_EQ_U(inserted_rrpv(&p, 1, 0, 7), 6);
    for (uint32_t i = 0; i < 512; i++)
        insert(&p, 8, 0);
    EXPECT_EQ_I(follower_policy(&p, 1, "srrip", "brrip"), 1);
    inst_free(&p);

    inst_init(&p, "rrip", 32, 4, "l1d.repl.rrip.rrpv_bits=2"); /* RRPV 0..3 */
    EXPECT_EQ_U(inserted_rrpv(&p, 0, 0, 3), 2);
    EXPECT_EQ_U(inserted_rrpv(&p, 4, 0, 3), 3);
    inst_free(&p);
    inst_init(&p, "rrip", 32, 4, "l1d.repl.rrip.rrpv_bits=1"); /* RRPV 0..1 */
    EXPECT_EQ_U(inserted_rrpv(&p, 0, 0, 1), 0);
    EXPECT_EQ_U(inserted_rrpv(&p, 4, 0, 1), 1);
    hit(&p, 4, 0);
    EXPECT_EQ_I(victim(&p, 4, 0x1), 0);
    inst_free(&p);
}

/* The recency stack (stack.h) against the per-way definitions: a move shifts the ways between
 * the old and new positions by one; the victim is the deepest candidate at `lowest` or below. */
TEST(repl_stack_matches_reference)
{
    static const uint32_t assocs[] = {1, 4, 7, 8, 16, 24, 64};
    uint64_t seed = 12345;
    for (size_t a = 0; a < sizeof assocs / sizeof *assocs; a++) {
        uint32_t assoc = assocs[a];
        ReplStack s;
        repl_stack_init(&s, 2, assoc);
        uint8_t ref[64];
        for (uint32_t w = 0; w < assoc; w++)
            ref[w] = (uint8_t)w;
        for (int step = 0; step < 20000; step++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t way = (uint32_t)(seed >> 33) % assoc, to = (seed >> 20 & 3) ? 0 : (uint32_t)(seed >> 40) % (assoc + 2);
            repl_stack_move(&s, 1, way, to);
            uint32_t from = ref[way], t = to < assoc ? to : assoc - 1;
            for (uint32_t w = 0; w < assoc; w++) {
                if (from > t && ref[w] >= t && ref[w] < from)
                    ref[w]++;
                else if (from < t && ref[w] > from && ref[w] <= t)
                    ref[w]--;
            }
            ref[way] = (uint8_t)t;
            for (uint32_t w = 0; w < assoc; w++)
                EXPECT_EQ_U(repl_stack_pos(&s, 1, w), ref[w]);
            uint64_t all = assoc == 64 ? UINT64_MAX : (1ull << assoc) - 1;
            uint64_t cand = (seed >> 10 & 1) ? all : (seed * 0x9E3779B97F4A7C15ull) & all;
            uint32_t lowest = (seed >> 12 & 1) ? 0 : (uint32_t)(seed >> 50) % assoc;
            int best = -1;
            for (uint32_t w = 0; w < assoc; w++)
                if ((cand >> w & 1) && ref[w] >= lowest && (best < 0 || ref[w] > ref[best]))
                    best = (int)w;
            EXPECT_EQ_I(repl_stack_victim(&s, 1, cand, lowest), best);
        }
        for (uint32_t w = 0; w < assoc; w++) /* the other set untouched */
            EXPECT_EQ_U(repl_stack_pos(&s, 0, w), w);
        repl_stack_free(&s);
        if (test_failures_in_current())
            return;
    }
}
