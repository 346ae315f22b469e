/* test_policy.c: the policy registry, a contract test over every registered policy, and the
 * warp and CTA schedulers' choices on worked examples. */
#include "../test.h"

#include "conf/config.h"
#include "policy/policy.h"

TEST(policy_registry_names_unique_and_found)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++) {
        uint32_t n = policy_count((PolicyKind)k);
        EXPECT(n >= 1);
        for (uint32_t i = 0; i < n; i++) {
            const char *name = policy_name_at((PolicyKind)k, i);
            ASSERT(name);
            EXPECT(policy_find((PolicyKind)k, name) != NULL);
            for (uint32_t j = i + 1; j < n; j++)
                EXPECT(strcmp(name, policy_name_at((PolicyKind)k, j)) != 0);
        }
    }
    EXPECT(policy_warp("gto") && policy_warp("lrr") && policy_warp("twolevel"));
    EXPECT(policy_index("conv") && policy_index("fermi"));
    EXPECT(policy_repl("lru") && policy_repl("fifo"));
    EXPECT(policy_cta("rr"));
    EXPECT(policy_warp("nosuch") == NULL);
}

/* Every warp scheduler picks only ready warps, and nothing when none is ready. */
TEST(policy_warp_contract)
{
    Config c;
    config_init(&c);
    uint64_t age[64];
    for (int i = 0; i < 64; i++)
        age[i] = (uint64_t)(63 - i); /* slot 63 is the oldest */
    for (uint32_t i = 0; i < policy_count(POLICY_WARP); i++) {
        const WarpSchedOps *ops = policy_warp(policy_name_at(POLICY_WARP, i));
        void *s = ops->create ? ops->create(48, &c) : NULL;
        uint64_t seed = 12345;
        for (int cycle = 0; cycle < 500; cycle++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t valid = (seed >> 7) & 0xFFFFFFFFFFFFull;
            uint64_t ready = valid & (seed >> 21);
            WarpSchedView v = {.ready = ready, .valid = valid, .mem_wait = valid & ~ready & (seed >> 3),
                               .age = age, .cycle = (uint64_t)cycle};
            int w = ops->pick(s, &v);
            if (!ready) {
                EXPECT_EQ_I(w, -1);
                continue;
            }
            if (w >= 0) {
                EXPECT(ready >> w & 1);
                if (ops->on_issue)
                    ops->on_issue(s, (uint32_t)w, &v);
            }
        }
        if (ops->destroy)
            ops->destroy(s);
    }
}

static int pick(const WarpSchedOps *ops, void *s, uint64_t ready, uint64_t valid, uint64_t mem_wait,
                const uint64_t *age)
{
    WarpSchedView v = {.ready = ready, .valid = valid, .mem_wait = mem_wait, .age = age};
    int w = ops->pick(s, &v);
    if (w >= 0 && ops->on_issue)
        ops->on_issue(s, (uint32_t)w, &v);
    return w;
}

TEST(policy_gto_greedy_then_oldest)
{
    Config c;
    config_init(&c);
    const WarpSchedOps *g = policy_warp("gto");
    void *s = g->create(8, &c);
    uint64_t age[8] = {5, 1, 7, 0, 3, 2, 6, 4}; /* slot 3 oldest, then 1, 5, 4 */
    EXPECT_EQ_I(pick(g, s, 0xFF, 0xFF, 0, age), 3);   /* oldest ready */
    EXPECT_EQ_I(pick(g, s, 0xFF, 0xFF, 0, age), 3);   /* greedy: same warp while ready */
    EXPECT_EQ_I(pick(g, s, 0xF7, 0xFF, 0, age), 1);   /* 3 stalls: next oldest */
    EXPECT_EQ_I(pick(g, s, 0xFF, 0xFF, 0, age), 1);   /* stays greedy on 1 even though 3 is back */
    EXPECT_EQ_I(pick(g, s, 0x30, 0xFF, 0, age), 5);   /* among 4 and 5, 5 is older */
    g->destroy(s);
}

TEST(policy_lrr_round_robin)
{
    Config c;
    config_init(&c);
    const WarpSchedOps *l = policy_warp("lrr");
    void *s = l->create(8, &c);
    uint64_t age[8] = {0};
    EXPECT_EQ_I(pick(l, s, 0xFF, 0xFF, 0, age), 0);
    EXPECT_EQ_I(pick(l, s, 0xFF, 0xFF, 0, age), 1);
    EXPECT_EQ_I(pick(l, s, 0xF1, 0xFF, 0, age), 4); /* 2, 3 not ready */
    EXPECT_EQ_I(pick(l, s, 0x03, 0xFF, 0, age), 0); /* wraps around */
    l->destroy(s);
}

TEST(policy_twolevel_demotes_memory_waiters)
{
    Config c;
    config_init(&c);
    c.sm.twolevel_active = 2;
    const WarpSchedOps *t = policy_warp("twolevel");
    void *s = t->create(8, &c);
    uint64_t age[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    /* Active pool takes the two oldest (0, 1); warp 2 is ready but pending. */
    EXPECT_EQ_I(pick(t, s, 0x04, 0x0F, 0, age), -1);
    EXPECT_EQ_I(pick(t, s, 0x07, 0x0F, 0, age), 0); /* round-robin within the pool {0, 1} */
    EXPECT_EQ_I(pick(t, s, 0x07, 0x0F, 0, age), 1);
    /* Warps 0 and 1 now wait on memory: demoted; 2 and 3 enter the pool. */
    EXPECT_EQ_I(pick(t, s, 0x0C, 0x0F, 0x03, age), 2);
    EXPECT_EQ_I(pick(t, s, 0x0C, 0x0F, 0x03, age), 3);
    EXPECT_EQ_I(pick(t, s, 0x01, 0x0F, 0x02, age), -1); /* 0 ready again but the pool is full */
    t->destroy(s);
}

TEST(policy_cta_rr_in_order)
{
    const CtaSchedOps *rr = policy_cta("rr");
    uint8_t launched[4] = {1, 0, 0, 0};
    CtaSchedView v = {.n_ctas = 4, .launched = launched, .next_unlaunched = 1, .n_sms = 2};
    EXPECT_EQ_I(rr->pick(NULL, 0, &v), 1);
    v.next_unlaunched = 4;
    EXPECT_EQ_I(rr->pick(NULL, 1, &v), -1);
}
