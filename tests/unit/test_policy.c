/* test_policy.c: the policy registry and policy-owned options, a contract test over every
 * registered warp scheduler, and the warp and CTA schedulers' choices on worked examples. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "policy/policy.h"

#include <stdlib.h>

TEST(policy_registry_names_unique_and_found)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++) {
        uint32_t n = policy_count((PolicyKind)k);
        EXPECT(n >= 1);
        for (uint32_t i = 0; i < n; i++) {
            const char *name = policy_name_at((PolicyKind)k, i);
            ASSERT(name);
            EXPECT(policy_find((PolicyKind)k, name) != NULL);
            EXPECT(policy_meta((PolicyKind)k, name)->help != NULL);
            for (uint32_t j = i + 1; j < n; j++)
                EXPECT(strcmp(name, policy_name_at((PolicyKind)k, j)) != 0);
        }
    }
    EXPECT(policy_warp("gto") && policy_warp("lrr") && policy_warp("twolevel") && policy_warp("swl"));
    EXPECT(policy_warp("oaws-static") && policy_warp("oaws-dyn") && policy_warp("fcw"));
    EXPECT(policy_warp("oaws_static") == NULL); /* the config name is meta.name */
    EXPECT(policy_index("conv") && policy_index("fermi"));
    EXPECT(policy_repl("lru") && policy_repl("fifo") && policy_repl("dip") && policy_repl("rrip"));
    EXPECT(policy_cta("rr") && policy_cta("bcs"));
    EXPECT(policy_mpath("victim"));
    EXPECT(policy_warp("nosuch") == NULL);
}

/* ---- policy-owned options ------------------------------------------------------------------ */

static int check(Config *c, const char *kv, char *err, size_t len)
{
    char key[128];
    const char *eq = strchr(kv, '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    if (!config_set(c, key, eq + 1, err, len))
        return -1;
    return policy_check_config(c, err, len);
}

TEST(policy_options_resolve_and_validate)
{
    Config c;
    char err[1024];
    config_init(&c);
    EXPECT(config_set(&c, "sm.sched", "swl", err, sizeof err));
    EXPECT_EQ_I(policy_check_config(&c, err, sizeof err), 1);
    const ConfigExt *e = config_ext_find(&c, "sm.sched.swl.limit");
    ASSERT(e);
    EXPECT_STR(e->value, "4"); /* the default, resolved into the config */
    config_init(&c);
    EXPECT(config_set(&c, "sm.sched", "swl", err, sizeof err));
    EXPECT_EQ_I(check(&c, "sm.sched.swl.limit=3", err, sizeof err), 1);
    EXPECT_STR(config_ext_find(&c, "sm.sched.swl.limit")->value, "3");
    /* the context parses it for create() */
    PolicyCtx ctx;
    policy_ctx_init(&ctx, &policy_warp("swl")->meta, "sm.sched", &c, NULL, "t", 0, 0);
    EXPECT_EQ_U(*(const uint32_t *)ctx.opts, 3);
    policy_ctx_free(&ctx);

    config_init(&c);
    EXPECT_EQ_I(check(&c, "sm.sched.swl.limit=0", err, sizeof err), 0);
    EXPECT_CONTAINS(err, "sm.sched.swl.limit: 0 is out of range");
    config_init(&c);
    EXPECT_EQ_I(check(&c, "sm.sched.swl.lim=2", err, sizeof err), 0);
    EXPECT_CONTAINS(err, "unknown key 'sm.sched.swl.lim' (swl's options: limit)");
    config_init(&c);
    EXPECT_EQ_I(check(&c, "sm.sched.nosuch.x=2", err, sizeof err), 0);
    EXPECT_CONTAINS(err, "no warp policy 'nosuch'");
    config_init(&c);
    EXPECT_EQ_I(check(&c, "sm.max_warps.x=2", err, sizeof err), 0);
    EXPECT_CONTAINS(err, "sm.max_warps has no options of its own");
    config_init(&c);
    EXPECT_EQ_I(check(&c, "l1d.victim.lat=5", err, sizeof err), 1); /* set, though the cache is off */
    EXPECT_EQ_I(check(&c, "l2.victim=4", err, sizeof err), 0);
    EXPECT_CONTAINS(err, "l2.victim");
    /* unknown two-part keys stay immediate errors */
    config_init(&c);
    EXPECT(!config_set(&c, "sm.nosuch", "1", err, sizeof err));
}

TEST(policy_options_name_where_they_were_set)
{
    char path[512], out[32768], cmd[1200];
    snprintf(path, sizeof path, "%s/bad.cfg", test_tmpdir());
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("sm.sched = swl\n\nsm.sched.swl.limit = 99\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run --quiet --config %s workloads/synthetic/conflict.syn", test_warpsim(), path);
    EXPECT(test_run_cmd(cmd, out, sizeof out) != 0);
    EXPECT_CONTAINS(out, "bad.cfg:3: sm.sched.swl.limit: 99 is out of range [1, 64]");
    snprintf(cmd, sizeof cmd, "%s --list-policies", test_warpsim());
    EXPECT(test_run_cmd(cmd, out, sizeof out) == 0);
    EXPECT_CONTAINS(out, "sm.sched.swl.limit  default 4 warps [1..64]");
    EXPECT_CONTAINS(out, "l1d.victim.lat  default 1 cycles");
}

/* ---- warp schedulers --------------------------------------------------------------------- */

/* One scheduler instance as an SM makes it: the SM-wide state, then the scheduler. */
typedef struct TestSched {
    const WarpSchedOps *ops;
    PolicyCtx ctx;
    void *shared, *self;
} TestSched;

static void sched_make(TestSched *t, const char *name, Config *c)
{
    t->ops = policy_warp(name);
    char err[256];
    CHECK(policy_check_config(c, err, sizeof err));
    policy_ctx_init(&t->ctx, &t->ops->meta, "sm.sched", c, NULL, "t", 0, 0);
    t->ctx.count = 1;
    t->shared = t->ops->create_shared ? t->ops->create_shared(&t->ctx) : NULL;
    t->ctx.shared = t->shared;
    t->self = t->ops->create ? t->ops->create(&t->ctx) : NULL;
}

static void sched_free(TestSched *t)
{
    if (t->ops->destroy)
        t->ops->destroy(t->self);
    if (t->ops->destroy_shared)
        t->ops->destroy_shared(t->shared);
    policy_ctx_free(&t->ctx);
}

static WarpSlotInfo slots[64];
static SmView sm_view = {.max_warps = 64, .n_sched = 1, .mshr_free = 32, .miss_queue_cap = 8, .slot = slots};

/* What the SM does in one scheduler-cycle: qualify, pick, tell. -2: every ready warp held. */
static int sched_cycle(TestSched *t, uint64_t ready, uint64_t valid, uint64_t mem_wait, const uint64_t *age)
{
    WarpSchedView v = {.ready = ready, .valid = valid, .mem_wait = mem_wait, .age = age, .sm = &sm_view};
    if (t->ops->may_issue) {
        for (uint64_t m = ready; m; m &= m - 1)
            if (!t->ops->may_issue(t->self, (uint32_t)__builtin_ctzll(m), &slots[__builtin_ctzll(m)], &v))
                v.ready &= ~(1ull << __builtin_ctzll(m));
        if (ready && !v.ready)
            return -2;
    }
    int w = t->ops->pick(t->self, &v);
    if (w >= 0 && t->ops->on_issue)
        t->ops->on_issue(t->self, (uint32_t)w, &v);
    return w;
}

/* Every warp scheduler issues only ready warps it let through, and nothing when none is ready;
 * its hooks accept every event the SM sends. */
TEST(policy_warp_contract)
{
    uint64_t age[64];
    for (int i = 0; i < 64; i++)
        age[i] = (uint64_t)(63 - i); /* slot 63 is the oldest */
    for (uint32_t i = 0; i < policy_count(POLICY_WARP); i++) {
        Config c;
        config_init(&c);
        snprintf(c.sm.sched, sizeof c.sm.sched, "%s", policy_name_at(POLICY_WARP, i));
        TestSched t;
        sched_make(&t, c.sm.sched, &c);
        FrontKernel k = {.name = "k", .grid = {4, 1, 1}, .block = {128, 1, 1}};
        if (t.ops->on_kernel_start)
            t.ops->on_kernel_start(t.self, &k);
        if (t.ops->on_cta_launch)
            t.ops->on_cta_launch(t.self, 0, 0, 4);
        uint64_t seed = 12345;
        for (int cycle = 0; cycle < 500; cycle++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t valid = (seed >> 7) & 0xFFFFFFFFFFFFull;
            uint64_t ready = valid & (seed >> 21);
            for (uint32_t s = 0; s < 48; s++) { /* next instructions: loads of 4 pcs, or not */
                slots[s].next_global_load = (seed >> (s % 61)) & 1;
                slots[s].next_pc = (uint32_t)((seed >> (s % 59)) & 3) * 8;
                slots[s].next_lanes = (uint8_t)((seed >> (s % 53)) % 33);
            }
            int w = sched_cycle(&t, ready, valid, valid & ~ready & (seed >> 3), age);
            if (!ready)
                EXPECT_EQ_I(w, -1);
            else if (w >= 0)
                EXPECT(ready >> w & 1);
            if (t.ops->on_load_done && w >= 0) {
                WarpLoadDone e = {.slot = (uint32_t)w, .pc = 8, .accesses = 4, .misses = 1};
                t.ops->on_load_done(t.self, &e);
            }
            if (t.ops->on_load_serviced && w >= 0) { /* also of loads it never saw issue */
                WarpLoadDone e = {.slot = (uint32_t)w, .pc = (uint32_t)(seed >> 50) % 4 * 8,
                                  .accesses = (uint32_t)(seed >> 33) % 33, .misses = (uint32_t)(seed >> 45) % 3};
                t.ops->on_load_serviced(t.self, &e);
            }
            if (t.ops->on_l1d_miss && w >= 0) { /* a few lines, so that some come back */
                WarpL1dEvent e = {.slot = (uint32_t)w, .pc = 8, .line_addr = (seed >> 29) % 40, .cycle = (uint64_t)cycle};
                t.ops->on_l1d_miss(t.self, &e);
            }
            if (t.ops->on_l1d_evict && (seed & 3) == 0) { /* any slot, live or not */
                WarpL1dEvent e = {.slot = (uint32_t)(seed >> 35) % 48, .line_addr = (seed >> 41) % 40,
                                  .cycle = (uint64_t)cycle};
                t.ops->on_l1d_evict(t.self, &e);
            }
            if (t.ops->on_warp_exit && (seed & 15) == 0)
                t.ops->on_warp_exit(t.self, (uint32_t)(seed >> 40) % 48);
        }
        if (t.ops->on_cta_done)
            t.ops->on_cta_done(t.self, 0);
        if (t.ops->on_kernel_end)
            t.ops->on_kernel_end(t.self);
        sched_free(&t);
    }
    memset(slots, 0, sizeof slots);
}

TEST(policy_gto_greedy_then_oldest)
{
    Config c;
    config_init(&c);
    TestSched t;
    sched_make(&t, "gto", &c);
    uint64_t age[8] = {5, 1, 7, 0, 3, 2, 6, 4}; /* slot 3 oldest, then 1, 5, 4 */
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 3); /* oldest ready */
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 3); /* greedy: same warp while ready */
    EXPECT_EQ_I(sched_cycle(&t, 0xF7, 0xFF, 0, age), 1); /* 3 stalls: next oldest */
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 1); /* stays greedy on 1 even though 3 is back */
    EXPECT_EQ_I(sched_cycle(&t, 0x30, 0xFF, 0, age), 5); /* among 4 and 5, 5 is older */
    sched_free(&t);
}

TEST(policy_lrr_round_robin)
{
    Config c;
    config_init(&c);
    TestSched t;
    sched_make(&t, "lrr", &c);
    uint64_t age[8] = {0};
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 0);
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 1);
    EXPECT_EQ_I(sched_cycle(&t, 0xF1, 0xFF, 0, age), 4); /* 2, 3 not ready */
    EXPECT_EQ_I(sched_cycle(&t, 0x03, 0xFF, 0, age), 0); /* wraps around */
    sched_free(&t);
}

TEST(policy_twolevel_demotes_memory_waiters)
{
    Config c;
    config_init(&c);
    char err[256];
    EXPECT(config_set(&c, "sm.sched", "twolevel", err, sizeof err));
    EXPECT(config_set(&c, "sm.sched.twolevel.active", "2", err, sizeof err));
    TestSched t;
    sched_make(&t, "twolevel", &c);
    uint64_t age[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    /* Active pool takes the two oldest (0, 1); warp 2 is ready but pending. */
    EXPECT_EQ_I(sched_cycle(&t, 0x04, 0x0F, 0, age), -1);
    EXPECT_EQ_I(sched_cycle(&t, 0x07, 0x0F, 0, age), 0); /* round-robin within the pool {0, 1} */
    EXPECT_EQ_I(sched_cycle(&t, 0x07, 0x0F, 0, age), 1);
    /* Warps 0 and 1 now wait on memory: demoted; 2 and 3 enter the pool. */
    EXPECT_EQ_I(sched_cycle(&t, 0x0C, 0x0F, 0x03, age), 2);
    EXPECT_EQ_I(sched_cycle(&t, 0x0C, 0x0F, 0x03, age), 3);
    EXPECT_EQ_I(sched_cycle(&t, 0x01, 0x0F, 0x02, age), -1); /* 0 ready again but the pool is full */
    sched_free(&t);
}

/* SWL with limit 2: only the two oldest live warps may issue, GTO among them. */
TEST(policy_swl_limits_to_the_oldest)
{
    Config c;
    char err[256];
    config_init(&c);
    EXPECT(config_set(&c, "sm.sched", "swl", err, sizeof err));
    EXPECT(config_set(&c, "sm.sched.swl.limit", "2", err, sizeof err));
    TestSched t;
    sched_make(&t, "swl", &c);
    uint64_t age[8] = {5, 1, 7, 0, 3, 2, 6, 4}; /* oldest first: 3, 1, 5, 4, 0, 6, 2, 7 */
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 3);
    EXPECT_EQ_I(sched_cycle(&t, 0xF7, 0xFF, 0, age), 1);  /* 3 not ready: 1, the other allowed warp */
    EXPECT_EQ_I(sched_cycle(&t, 0xF5, 0xFF, 0, age), -2); /* 1 and 3 not ready: 5, 4, ... are held */
    EXPECT_EQ_I(sched_cycle(&t, 0xFF, 0xFF, 0, age), 1);  /* greedy on 1 */
    /* warp 3 exits: 5 is now among the two oldest */
    if (t.ops->on_warp_exit)
        t.ops->on_warp_exit(t.self, 3);
    EXPECT_EQ_I(sched_cycle(&t, 0xF5, 0xF7, 0, age), 5);
    EXPECT_EQ_I(sched_cycle(&t, 0x10, 0xF7, 0, age), -2); /* 4 is third oldest: held */
    sched_free(&t);
}

/* ---- CTA schedulers ---------------------------------------------------------------------- */

static uint32_t cta_pick(const char *name, uint32_t sm, const CtaSchedView *v, uint32_t *ctas)
{
    const CtaSchedOps *ops = policy_cta(name);
    return ops->pick(NULL, sm, v, ctas);
}

TEST(policy_cta_rr_in_order)
{
    uint8_t launched[4] = {1, 0, 0, 0};
    CtaSmInfo sm[2] = {{.room = 3, .room_empty = 8}, {.room = 1, .room_empty = 8}};
    CtaSchedView v = {.n_ctas = 4, .launched = launched, .next_unlaunched = 1, .n_unlaunched = 3, .n_sms = 2, .sm = sm};
    uint32_t ctas[8];
    EXPECT_EQ_U(cta_pick("rr", 0, &v, ctas), 1);
    EXPECT_EQ_U(ctas[0], 1);
    v.next_unlaunched = 4;
    v.n_unlaunched = 0;
    EXPECT_EQ_U(cta_pick("rr", 1, &v, ctas), 0);
}

/* BCS (Lee et al. HPCA'14): pairs of consecutive CTAs, only to an SM with room for both. */
TEST(policy_cta_bcs_pairs)
{
    uint8_t launched[5] = {0};
    CtaSmInfo sm[2] = {{.room = 8, .room_empty = 8}, {.room = 1, .room_empty = 8}};
    CtaSchedView v = {.n_ctas = 5, .launched = launched, .next_unlaunched = 0, .n_unlaunched = 5, .n_sms = 2, .sm = sm};
    uint32_t ctas[8];
    EXPECT_EQ_U(cta_pick("bcs", 0, &v, ctas), 2);
    EXPECT_EQ_U(ctas[0], 0);
    EXPECT_EQ_U(ctas[1], 1);
    launched[0] = launched[1] = 1;
    v.next_unlaunched = 2;
    v.n_unlaunched = 3;
    EXPECT_EQ_U(cta_pick("bcs", 1, &v, ctas), 0); /* room for one only: wait */
    launched[3] = 1; /* another policy's choice: the pair is the two lowest unlaunched */
    v.n_unlaunched = 2;
    EXPECT_EQ_U(cta_pick("bcs", 0, &v, ctas), 2);
    EXPECT_EQ_U(ctas[0], 2);
    EXPECT_EQ_U(ctas[1], 4);
    launched[2] = 1;
    v.next_unlaunched = 4;
    v.n_unlaunched = 1;
    EXPECT_EQ_U(cta_pick("bcs", 1, &v, ctas), 1); /* the last CTA goes alone */
    EXPECT_EQ_U(ctas[0], 4);
    sm[1].room_empty = 1; /* an SM that never holds two: one at a time */
    v.n_unlaunched = 2;
    EXPECT_EQ_U(cta_pick("bcs", 1, &v, ctas), 1);
}
