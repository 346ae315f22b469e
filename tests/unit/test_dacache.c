/* test_dacache.c: DaCache (thesis ch. 4) driven directly through its replacement hooks, on the
 * thesis' L1D (32 sets, 8 ways, 2 schedulers), with the worked examples of 4.2.2 to 4.2.4. */
#include "../test.h"

#include "conf/config.h"
#include "policy/policy.h"
#include "policy/repl/stack.h"

#include <stdio.h>

typedef struct Dc {
    Config c;
    PolicyCtx ctx;
    const ReplOps *ops;
    void *self;
} Dc;

/* DaCache with overrides ("replace=stall dynamic=0 ..."; NULL: defaults) on 32 sets x 8 ways. */
static void dc_init(Dc *d, const char *const *kv, uint32_t n)
{
    char err[512], key[96];
    config_init(&d->c);
    CHECK(config_set(&d->c, "l1d.repl", "dacache", err, sizeof err));
    for (uint32_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        snprintf(key, sizeof key, "l1d.repl.dacache.%.*s", (int)(eq - kv[i]), kv[i]);
        CHECK(config_set(&d->c, key, eq + 1, err, sizeof err));
    }
    CHECK(policy_check_config(&d->c, err, sizeof err));
    d->ops = policy_repl("dacache");
    policy_ctx_init(&d->ctx, &d->ops->meta, "l1d.repl", &d->c, NULL, "t", 0, 0);
    d->self = d->ops->create(&d->ctx, 32, 8);
}

static void dc_free(Dc *d)
{
    d->ops->destroy(d->self);
    policy_ctx_free(&d->ctx);
}

static ReplAccess acc(uint32_t set, uint32_t way, uint32_t rank, uint32_t n_lines, uint32_t pc, uint32_t uid)
{
    return (ReplAccess){.line_addr = 1000 + set * 8 + way, .set = set, .way = way, .warp_uid = uid, .pc = pc,
                        .n_lines = n_lines, .sched_rank = rank};
}

/* Fill the 8 ways of `set` with lines of a coherent load (MRU insertions): way 0 ends at LRU. */
static void fill_set(Dc *d, uint32_t set)
{
    for (uint32_t w = 0; w < 8; w++) {
        ReplAccess a = acc(set, w, 0, 1, 0x100, 1);
        d->ops->on_insert(d->self, &a);
    }
}

/* The way at chain position pos (0: MRU): the policy's victims, one after another, are the
 * ways from LRU up (under replace=uncon; under the others, for positions in the thrashing
 * region), the one at pos when pos ways are left. */
static int way_at(Dc *d, uint32_t set, uint32_t pos)
{
    uint64_t cand = 0xff;
    ReplAccess a = acc(set, 0, 0, 32, 0x200, 1);
    for (;;) {
        int w = d->ops->victim(d->self, &a, cand);
        if (w < 0)
            return -1;
        cand &= ~(1ull << w);
        uint32_t left = (uint32_t)__builtin_popcountll(cand);
        if (left == pos)
            return w;
    }
}

TEST(dacache_gauged_insertion_eq_4_1)
{
    /* 2 schedulers, warp width 32, 32 sets: rank * 2 * 32 / 32 = 2 * rank. With every warp a
     * locality warp (static FCW 16), priorities 0 and 2 insert at ways 0 and 4 (the example of
     * 4.2.2); priority 5 at min(10, 7) = 7. */
    const char *kv[] = {"replace=uncon", "dynamic=0", "fcw=16"};
    Dc d;
    dc_init(&d, kv, 3);
    fill_set(&d, 3);
    ReplAccess a = acc(3, 5, 2, 32, 0x300, 7);
    d.ops->on_insert(d.self, &a);
    EXPECT_EQ_I(way_at(&d, 3, 4), 5);
    a = acc(3, 6, 0, 32, 0x300, 8);
    d.ops->on_insert(d.self, &a);
    EXPECT_EQ_I(way_at(&d, 3, 0), 6);
    a = acc(3, 1, 5, 32, 0x300, 9);
    d.ops->on_insert(d.self, &a);
    EXPECT_EQ_I(way_at(&d, 3, 7), 1);
    dc_free(&d);

    /* Default FCW 4 (two locality warps per scheduler): priority 2 is a thrashing warp, its
     * divergent lines go to LRU; a divergent load of 5 accesses goes to MRU whatever its rank;
     * a coherent one to MRU. */
    Dc e;
    dc_init(&e, kv, 1); /* replace=uncon: the partitioning decides the insertions all the same */
    fill_set(&e, 0);
    a = acc(0, 5, 2, 32, 0x300, 7);
    e.ops->on_insert(e.self, &a);
    EXPECT_EQ_I(way_at(&e, 0, 7), 5);
    a = acc(0, 4, 1, 32, 0x300, 7);
    e.ops->on_insert(e.self, &a);
    EXPECT_EQ_I(way_at(&e, 0, 2), 4);
    a = acc(0, 3, 9, 5, 0x300, 7);
    e.ops->on_insert(e.self, &a);
    EXPECT_EQ_I(way_at(&e, 0, 0), 3);
    a = acc(0, 2, 9, 6, 0x300, 7);
    e.ops->on_insert(e.self, &a);
    EXPECT_EQ_I(way_at(&e, 0, 7), 2);
    dc_free(&e);
}

TEST(dacache_incremental_promotion)
{
    const char *kv[] = {"replace=uncon"};
    Dc d;
    dc_init(&d, kv, 1);
    fill_set(&d, 0); /* way 0 at LRU (7), way 7 at MRU */
    ReplAccess a = acc(0, 0, 0, 1, 0x100, 1);
    a.hit = true;
    d.ops->on_hit(d.self, &a); /* 7 -> 3 */
    EXPECT_EQ_I(way_at(&d, 0, 3), 0);
    d.ops->on_hit(d.self, &a); /* 3 -> 0 (not below MRU) */
    EXPECT_EQ_I(way_at(&d, 0, 0), 0);
    dc_free(&d);
    const char *mru[] = {"replace=uncon", "promote=0"};
    dc_init(&d, mru, 2);
    fill_set(&d, 0);
    d.ops->on_hit(d.self, &a); /* Promo-MRU: 7 -> 0 */
    EXPECT_EQ_I(way_at(&d, 0, 0), 0);
    dc_free(&d);
}

TEST(dacache_constrained_replacement)
{
    /* FCW 4: the locality region is positions 0..3, the thrashing region 4..7. With the ways
     * of the thrashing region all reserved (not candidates), bypass bypasses, stall stalls and
     * uncon takes the LRU-most candidate of the locality region. */
    const char *names[] = {"replace=bypass", "replace=stall", "replace=uncon"};
    const int want[] = {REPL_BYPASS, REPL_STALL, -3};
    for (int v = 0; v < 3; v++) {
        Dc d;
        dc_init(&d, &names[v], 1);
        fill_set(&d, 0); /* way w at position 7 - w: ways 0..3 form the thrashing region */
        ReplAccess a = acc(0, 0, 0, 32, 0x300, 3);
        int w = d.ops->victim(d.self, &a, 0xf0);
        if (want[v] == -3)
            EXPECT_EQ_I(w, 4); /* position 3 */
        else
            EXPECT_EQ_I(w, want[v]);
        EXPECT_EQ_I(d.ops->victim(d.self, &a, 0xff), 0); /* the LRU line when it is replaceable */
        EXPECT_EQ_I(d.ops->victim(d.self, &a, 0xf4), 2);  /* the LRU-most one of the region */
        dc_free(&d);
    }
}

static void serviced(Dc *d, uint32_t rank, uint32_t misses)
{
    ReplLoad l = {.sched_rank = rank, .accesses = 32, .misses = misses};
    d->ops->on_load_serviced(d->self, &l);
}

/* The partitioning's state, read back through where a rank's divergent line is inserted:
 * a locality warp's at 2 * rank, a thrashing warp's at LRU. */
static bool is_locality(Dc *d, uint32_t rank)
{
    fill_set(d, 9);
    ReplAccess a = acc(9, 0, rank, 32, 0x300, 1);
    d->ops->on_insert(d->self, &a);
    return way_at(d, 9, 7) != 0;
}

TEST(dacache_dynamic_partitioning_fig_4_3)
{
    const char *kv[] = {"cmax=8"}; /* CNT starts at 4, FCW at 4 */
    Dc d;
    dc_init(&d, kv, 1);
    EXPECT(is_locality(&d, 1) && !is_locality(&d, 2));
    /* (1) four fully cached loads take CNT from 4 to 8 = Cmax: (2) FCW 5, CNT 4 */
    for (int i = 0; i < 3; i++)
        serviced(&d, 0, 0);
    EXPECT(!is_locality(&d, 2));
    serviced(&d, 0, 0);
    EXPECT(is_locality(&d, 2) && !is_locality(&d, 3)); /* rank 2: g = 4 < 5 */
    /* (5) a partially cached load of a locality warp: CNT -= FCW - g = 5 - 4 = 1 -> 3;
     * (4) one of a thrashing warp (rank 3, g = 6 >= 5): CNT -= 1 -> 2 */
    serviced(&d, 2, 3);
    serviced(&d, 3, 32);
    EXPECT(is_locality(&d, 2));
    /* rank 0, g = 0: CNT -= 5 -> 0: (6) FCW 4, CNT 4 */
    serviced(&d, 0, 1);
    EXPECT(!is_locality(&d, 2) && is_locality(&d, 1));
    /* coherent loads do not count */
    ReplLoad coh = {.sched_rank = 0, .accesses = 2, .misses = 2};
    for (int i = 0; i < 10; i++)
        d.ops->on_load_serviced(d.self, &coh);
    EXPECT(is_locality(&d, 1));
    /* (7) FCW never goes below one warp per scheduler: CNT stays at 0 */
    for (int i = 0; i < 20; i++)
        serviced(&d, 0, 1);
    EXPECT(is_locality(&d, 0) && !is_locality(&d, 1));
    serviced(&d, 0, 0); /* CNT 0 -> 1 */
    EXPECT(!is_locality(&d, 1));
    dc_free(&d);

    /* static partitioning: FCW stays; Static0 puts every divergent line of > 5 accesses at LRU */
    const char *st0[] = {"dynamic=0", "fcw=0"};
    dc_init(&d, st0, 2);
    EXPECT(!is_locality(&d, 0));
    for (int i = 0; i < 300; i++)
        serviced(&d, 0, 0);
    EXPECT(!is_locality(&d, 0));
    dc_free(&d);
}

TEST(dacache_coherent_load_profiler)
{
    const char *kv[] = {"vc_entries=2", "replace=uncon"};
    Dc d;
    dc_init(&d, kv, 2);
    /* pc 0x10: a sampled (rank 0) warp's coherent line, evicted and missed again by that warp
     * while in the victim cache: locality, its lines keep going to MRU */
    ReplAccess a = acc(0, 0, 0, 1, 0x10, 5);
    a.line_addr = 77;
    d.ops->on_insert(d.self, &a);
    ReplEvict e = {.set = 0, .way = 0, .line_addr = 77};
    d.ops->on_evict(d.self, &e);
    a.way = 1;
    d.ops->on_insert(d.self, &a); /* the miss finds 77 in the victim cache */
    /* pc 0x20: two lines evicted unreferenced push its entry out of the 2-entry victim cache:
     * no locality, its lines now go to LRU */
    for (uint32_t i = 0; i < 3; i++) {
        ReplAccess b = acc(1, i, 0, 1, 0x20 + (i ? 0x100 : 0), 5);
        b.line_addr = 200 + i;
        d.ops->on_insert(d.self, &b);
        ReplEvict f = {.set = 1, .way = i, .line_addr = 200 + i};
        d.ops->on_evict(d.self, &f);
    }
    fill_set(&d, 2);
    ReplAccess c = acc(2, 3, 4, 1, 0x20, 9);
    d.ops->on_insert(d.self, &c);
    EXPECT_EQ_I(way_at(&d, 2, 7), 3);
    c = acc(2, 4, 4, 1, 0x10, 9);
    d.ops->on_insert(d.self, &c);
    EXPECT_EQ_I(way_at(&d, 2, 0), 4);
    dc_free(&d);
}

TEST(dacache_recency_stack_moves)
{
    ReplStack s;
    repl_stack_init(&s, 1, 4); /* way w at position w */
    repl_stack_move(&s, 0, 3, 1); /* up: 0 3 1 2 */
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 0), 0);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 3), 1);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 1), 2);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 2), 3);
    repl_stack_move(&s, 0, 0, 9); /* down, clamped to LRU: 3 1 2 0 */
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 3), 0);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 1), 1);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 2), 2);
    EXPECT_EQ_U(repl_stack_pos(&s, 0, 0), 3);
    EXPECT_EQ_I(repl_stack_victim(&s, 0, 0xf, 0), 0);
    EXPECT_EQ_I(repl_stack_victim(&s, 0, 0x6, 0), 2);
    EXPECT_EQ_I(repl_stack_victim(&s, 0, 0x8, 1), -1);
    repl_stack_free(&s);
}
