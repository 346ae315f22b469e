/* test_l1d_contract.c: the replacement contract and the miss path of the L1D, between mock
 * neighbours (the miss queue is the mock interconnect; the test plays the L2).
 *
 * Over every registered replacement policy under both allocation modes: a random stream loses
 * no request and keeps the counters consistent. With a scripted policy: REPL_BYPASS fills no
 * line and REPL_STALL waits, alike under allocate-on-miss and allocate-on-fill; a policy-sized
 * bypass; the access record reaching the fill; eviction events. And the victim cache, alone and
 * on the L1D's miss path. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "mem/l1d.h"
#include "policy/policy.h"

#include <stdlib.h>

typedef struct Rig {
    Config c;
    Stats st;
    MemPool pool;
    L1d l1;
    const ReplOps *saved_ops;
    void *saved_state;
} Rig;

static void rig_init(Rig *r, const char *repl, uint32_t alloc, uint32_t sets, uint32_t assoc, uint32_t victim)
{
    char err[512];
    config_init(&r->c);
    r->c.l1d.n_sets = sets;
    r->c.l1d.assoc = assoc;
    r->c.l1d.mshr_entries = 8;
    r->c.l1d.mshr_max_merge = 4;
    r->c.l1d.miss_queue = 16;
    r->c.l1d.alloc = alloc;
    r->c.l1d.victim = victim;
    snprintf(r->c.l1d.repl, sizeof r->c.l1d.repl, "%s", repl);
    CHECK(policy_check_config(&r->c, err, sizeof err));
    stats_init(&r->st);
    mempool_init(&r->pool);
    l1d_init(&r->l1, 0, &r->c, &r->pool, &r->st);
    r->saved_ops = NULL;
}

static void rig_free(Rig *r)
{
    if (r->saved_ops) { /* give the tag array its own policy back, to free it */
        r->l1.tags.repl = r->saved_ops;
        r->l1.tags.repl_state = r->saved_state;
    }
    l1d_free(&r->l1);
    mempool_free(&r->pool);
    stats_free(&r->st);
}

/* The mock L2: every read in the miss queue comes back now. Returns tokens woken; a fill the
 * L1D makes wait stays in *stalled (NULL: not expected). */
static uint32_t l2_return_all(Rig *r, uint64_t now, uint32_t *tokens_out, MemReq **stalled)
{
    uint32_t woken = 0, tokens[64];
    MemReq *q;
    while ((q = memreq_queue_pop(&r->l1.miss_q)) != NULL) {
        if (q->kind != MREQ_READ) {
            mempool_put(&r->pool, q);
            continue;
        }
        q->is_reply = true;
        int n = l1d_fill(&r->l1, q, tokens, now);
        if (n < 0) {
            CHECK(stalled);
            *stalled = q;
            continue;
        }
        for (int i = 0; i < n; i++)
            if (tokens_out)
                tokens_out[woken + (uint32_t)i] = tokens[i];
        woken += (uint32_t)n;
    }
    return woken;
}

/* ---- every registered policy ------------------------------------------------------------- */

TEST(l1d_contract_every_policy_loses_no_request)
{
    for (uint32_t p = 0; p < policy_count(POLICY_REPL); p++)
        for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
            Rig r;
            rig_init(&r, policy_name_at(POLICY_REPL, p), alloc, 4, 4, 0);
            enum { N = 3000 };
            static uint8_t returned[N];
            memset(returned, 0, sizeof returned);
            MemReq *inflight[64];
            uint64_t due[64];
            uint32_t n_inflight = 0, sent = 0, expected = 0, got = 0;
            uint64_t seed = 99 + p * 7 + alloc;
            for (uint64_t now = 0; got < expected || sent < N; now++) {
                if (sent < N) {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    uint64_t addr = ((seed >> 33) % 48) * 128; /* 48 lines over 16 ways */
                    ReplAccess a = {.warp_id = (uint32_t)(seed >> 20) % 8, .warp_uid = (uint32_t)(seed >> 24) % 8,
                                    .pc = 8, .n_lines = 1};
                    uint32_t lat = 0;
                    L1dResult res = l1d_load(&r.l1, addr, sent, &a, now, &lat);
                    if (!l1d_failed(res)) {
                        expected++;
                        if (res == L1D_HIT) {
                            EXPECT_EQ_U(lat, r.c.l1d.hit_lat);
                            returned[sent]++;
                            got++;
                        }
                        sent++;
                    }
                }
                MemReq *q;
                while ((q = memreq_queue_pop(&r.l1.miss_q)) != NULL) {
                    CHECK(n_inflight < 64);
                    q->is_reply = true;
                    inflight[n_inflight] = q;
                    due[n_inflight++] = now + 5 + (seed >> 50) % 20;
                }
                for (uint32_t i = 0; i < n_inflight;) {
                    uint32_t tokens[16];
                    int n = due[i] <= now ? l1d_fill(&r.l1, inflight[i], tokens, now) : -1;
                    if (n < 0) {
                        i++;
                        continue;
                    }
                    for (int k = 0; k < n; k++) {
                        ASSERT(tokens[k] < N);
                        returned[tokens[k]]++;
                    }
                    got += (uint32_t)n;
                    inflight[i] = inflight[--n_inflight];
                    due[i] = due[n_inflight];
                }
                ASSERT(now < 1000000);
            }
            for (uint32_t i = 0; i < N; i++)
                EXPECT_EQ_U(returned[i], 1);
            EXPECT_EQ_U(r.l1.access, r.l1.hit + r.l1.miss + r.l1.merge);
            EXPECT_EQ_U(r.l1.fill, r.l1.miss);
            EXPECT(r.l1.hit > 0 && r.l1.miss > 0);
            EXPECT(r.l1.bypass <= r.l1.miss); /* dacache bypasses when its thrashing region is reserved */
            rig_free(&r);
        }
}

/* ---- a scripted policy -------------------------------------------------------------------- */

typedef struct Scripted {
    int answer;            /* victim(): 0 = the lowest candidate, or REPL_BYPASS / REPL_STALL */
    uint32_t bypass_bytes; /* bypass() */
    uint32_t n_victim, n_insert, n_fill, n_evict, n_hit;
    ReplAccess last_fill;
    ReplEvict last_evict;
} Scripted;

static int sc_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    Scripted *s = self;
    s->n_victim++;
    return s->answer < 0 ? s->answer : __builtin_ctzll(candidates);
}
static uint32_t sc_bypass(void *self, const ReplAccess *a) { return ((Scripted *)self)->bypass_bytes; }
static void sc_hit(void *self, const ReplAccess *a) { ((Scripted *)self)->n_hit++; }
static void sc_insert(void *self, const ReplAccess *a) { ((Scripted *)self)->n_insert++; }
static void sc_fill(void *self, const ReplAccess *a)
{
    Scripted *s = self;
    s->n_fill++;
    s->last_fill = *a;
}
static void sc_evict(void *self, const ReplEvict *e)
{
    Scripted *s = self;
    s->n_evict++;
    s->last_evict = *e;
}

static const ReplOps scripted_ops = {
    .meta = {.name = "scripted", .help = "test"},
    .victim = sc_victim, .bypass = sc_bypass, .on_hit = sc_hit, .on_insert = sc_insert,
    .on_fill = sc_fill, .on_evict = sc_evict,
};

static void rig_script(Rig *r, Scripted *s)
{
    memset(s, 0, sizeof *s);
    r->saved_ops = r->l1.tags.repl;
    r->saved_state = r->l1.tags.repl_state;
    r->l1.tags.repl = &scripted_ops;
    r->l1.tags.repl_state = s;
}

static L1dResult load(Rig *r, uint64_t addr, uint32_t token, uint32_t uid, uint64_t now)
{
    ReplAccess a = {.warp_id = uid % 8, .warp_uid = uid, .pc = 0x40 + uid, .n_lines = 3, .sched_rank = 1};
    uint32_t lat;
    return l1d_load(&r->l1, addr, token, &a, now, &lat);
}

/* One set of two ways holding lines 0 and 1 (set stride 128 B with one set). */
static void fill_two(Rig *r, Scripted *s)
{
    EXPECT_EQ_U(load(r, 0 * 128, 1, 10, 0), L1D_MISS);
    EXPECT_EQ_U(load(r, 1 * 128, 2, 11, 1), L1D_MISS);
    EXPECT_EQ_U(l2_return_all(r, 5, NULL, NULL), 2);
    EXPECT_EQ_U(s->n_insert, 2);
    EXPECT_EQ_U(s->n_fill, 2);
    EXPECT_EQ_U(s->n_victim, 0); /* invalid ways are filled without asking */
}

TEST(l1d_contract_record_reaches_the_fill)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        EXPECT_EQ_U(load(&r, 0x80, 7, 5, 3), L1D_MISS);
        EXPECT_EQ_U(l2_return_all(&r, 9, NULL, NULL), 1);
        EXPECT_EQ_U(s.last_fill.warp_uid, 5);
        EXPECT_EQ_U(s.last_fill.warp_id, 5);
        EXPECT_EQ_U(s.last_fill.pc, 0x45);
        EXPECT_EQ_U(s.last_fill.n_lines, 3);
        EXPECT_EQ_U(s.last_fill.sched_rank, 1);
        EXPECT_EQ_U(s.last_fill.cycle, 9);
        EXPECT(!s.last_fill.hit);
        EXPECT_EQ_U(s.last_fill.at_fill, 1);
        EXPECT_EQ_U(load(&r, 0x80, 8, 6, 10), L1D_HIT);
        EXPECT_EQ_U(s.n_hit, 1);
        rig_free(&r);
    }
}

TEST(l1d_contract_bypass_fills_no_line_in_both_modes)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        fill_two(&r, &s);
        s.answer = REPL_BYPASS;
        EXPECT_EQ_U(load(&r, 2 * 128, 3, 12, 10), L1D_MISS);
        EXPECT_EQ_U(load(&r, 2 * 128 + 4, 4, 13, 11), L1D_MERGED); /* merges into the bypass */
        uint32_t tokens[8];
        EXPECT_EQ_U(l2_return_all(&r, 20, tokens, NULL), 2); /* no lost request */
        EXPECT_EQ_U(tokens[0], 3);
        EXPECT_EQ_U(tokens[1], 4);
        EXPECT_EQ_U(r.l1.bypass, 1);
        EXPECT_EQ_U(s.n_evict, 0);
        EXPECT_EQ_U(load(&r, 0 * 128, 5, 10, 21), L1D_HIT); /* both old lines stay */
        EXPECT_EQ_U(load(&r, 1 * 128, 6, 10, 22), L1D_HIT);
        EXPECT_EQ_U(load(&r, 2 * 128, 7, 10, 23), L1D_MISS); /* the bypassed one is not there */
        rig_free(&r);
    }
}

/* A miss whose record carries sched_bypass (the warp scheduler's bypass_l1d) allocates no line
 * in either mode, is not offered to the policy's bypass() (which would say "no"), fetches the
 * segments it touches, and its hits are served: the line that is there stays. */
TEST(l1d_contract_scheduler_bypass_fills_no_line_in_both_modes)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        EXPECT_EQ_U(load(&r, 0 * 128, 1, 10, 0), L1D_MISS);
        EXPECT_EQ_U(l2_return_all(&r, 5, NULL, NULL), 1);
        ReplAccess a = {.warp_id = 3, .warp_uid = 13, .pc = 0x48, .n_lines = 1, .sectors = 0x1, .sched_bypass = true};
        uint32_t lat;
        s.bypass_bytes = 128; /* asked, the policy would fetch the whole line */
        EXPECT_EQ_U(l1d_load(&r.l1, 0 * 128, 2, &a, 10, &lat), L1D_HIT); /* a hit is served */
        EXPECT_EQ_U(l1d_load(&r.l1, 1 * 128, 3, &a, 11, &lat), L1D_MISS);
        ASSERT(r.l1.miss_q.n == 1);
        EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 32); /* only its segment */
        uint32_t tokens[8];
        EXPECT_EQ_U(l2_return_all(&r, 20, tokens, NULL), 1);
        EXPECT_EQ_U(tokens[0], 3);
        EXPECT_EQ_U(r.l1.bypass, 1);
        EXPECT_EQ_U(r.l1.bypass_sched, 1);
        EXPECT_EQ_U(s.n_insert, 1); /* line 0's only */
        s.bypass_bytes = 0;
        EXPECT_EQ_U(load(&r, 1 * 128, 4, 10, 30), L1D_MISS); /* line 1 was not kept */
        EXPECT_EQ_U(r.l1.bypass_sched, 1);
        rig_free(&r);
    }
}

/* A load the L1D may not serve (l2_only: ld.cg, ld.volatile, ld.acquire.gpu) misses on a
 * present line, fetches only its segment past the L1D (the policy is not asked), and leaves the
 * line as it was: a plain load still hits it; a second one merges into the first's request. */
TEST(l1d_contract_l2_only_load_misses_on_a_present_line)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        EXPECT_EQ_U(load(&r, 0 * 128, 1, 10, 0), L1D_MISS);
        EXPECT_EQ_U(l2_return_all(&r, 5, NULL, NULL), 1);
        uint32_t inserted = s.n_insert, lat;
        ReplAccess a = {.warp_id = 3, .warp_uid = 13, .pc = 0x48, .n_lines = 1, .sectors = 0x4, .l2_only = true};
        s.bypass_bytes = 128; /* asked, the policy would fetch the whole line */
        EXPECT_EQ_U(l1d_load(&r.l1, 0 * 128, 2, &a, 10, &lat), L1D_MISS);
        EXPECT_EQ_U(l1d_load(&r.l1, 0 * 128, 3, &a, 11, &lat), L1D_MERGED);
        ASSERT(r.l1.miss_q.n == 1);
        EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 32); /* only its segment */
        EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x4);
        uint32_t tokens[8];
        EXPECT_EQ_U(l2_return_all(&r, 20, tokens, NULL), 2);
        EXPECT_EQ_U(tokens[0] + tokens[1], 5);
        EXPECT_EQ_U(r.l1.l2_only, 1);
        EXPECT_EQ_U(r.l1.bypass, 1);
        EXPECT_EQ_U(r.l1.bypass_sched, 0);
        EXPECT_EQ_U(s.n_insert, inserted); /* nothing allocated */
        s.bypass_bytes = 0;
        EXPECT_EQ_U(load(&r, 0 * 128, 4, 10, 30), L1D_HIT); /* the line is still there */
        rig_free(&r);
    }
}

TEST(l1d_contract_stall_waits_in_both_modes)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        fill_two(&r, &s);
        s.answer = REPL_STALL;
        L1dResult res = load(&r, 2 * 128, 3, 12, 10);
        MemReq *stalled = NULL;
        if (alloc == CACHE_ALLOC_MISS) { /* waits at the miss: replay */
            EXPECT_EQ_U(res, L1D_FAIL_LINE);
            EXPECT_EQ_U(r.l1.fail_line, 1);
            EXPECT_EQ_U(r.l1.miss_q.n, 0);
            s.answer = 0;
            EXPECT_EQ_U(load(&r, 2 * 128, 3, 12, 11), L1D_MISS);
        } else { /* waits at the fill: retried */
            EXPECT_EQ_U(res, L1D_MISS);
            EXPECT_EQ_U(l2_return_all(&r, 20, NULL, &stalled), 0);
            ASSERT(stalled);
            EXPECT_EQ_U(r.l1.fill_stall, 1);
            s.answer = 0;
            uint32_t tokens[8];
            EXPECT_EQ_I(l1d_fill(&r.l1, stalled, tokens, 21), 1);
            EXPECT_EQ_U(tokens[0], 3);
        }
        EXPECT_EQ_U(l2_return_all(&r, 30, NULL, NULL), alloc == CACHE_ALLOC_MISS ? 1 : 0);
        EXPECT_EQ_U(r.l1.bypass, 0);
        EXPECT_EQ_U(load(&r, 2 * 128, 9, 12, 40), L1D_HIT); /* installed once it could be */
        EXPECT_EQ_U(s.n_evict, 1);
        EXPECT_EQ_U(s.last_evict.line_addr, 0); /* way 0 held line 0 */
        EXPECT_EQ_U(s.last_evict.inserted_by, 10);
        EXPECT_EQ_U(s.last_evict.evicted_by, 12);
        EXPECT(!s.last_evict.by_write);
        rig_free(&r);
    }
}

TEST(l1d_contract_policy_sized_bypass)
{
    for (uint32_t alloc = CACHE_ALLOC_MISS; alloc <= CACHE_ALLOC_FILL; alloc++) {
        Rig r;
        Scripted s;
        rig_init(&r, "lru", alloc, 1, 2, 0);
        rig_script(&r, &s);
        s.bypass_bytes = 32;
        EXPECT_EQ_U(load(&r, 0x100, 1, 3, 0), L1D_MISS);
        ASSERT(r.l1.miss_q.head);
        EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 32);
        EXPECT_EQ_U(l2_return_all(&r, 5, NULL, NULL), 1);
        EXPECT_EQ_U(s.n_insert, 0);
        EXPECT_EQ_U(s.n_victim, 0);
        EXPECT_EQ_U(r.l1.bypass, 1);
        s.bypass_bytes = 0;
        EXPECT_EQ_U(load(&r, 0x100, 2, 3, 6), L1D_MISS);
        rig_free(&r);
    }
}

static L1dResult load_segs(Rig *r, uint64_t addr, uint32_t token, uint32_t segs, uint64_t now)
{
    ReplAccess a = {.warp_id = 1, .warp_uid = 1, .pc = 0x40, .n_lines = 32, .sectors = segs};
    uint32_t lat;
    return l1d_load(&r->l1, addr, token, &a, now, &lat);
}

TEST(l1d_contract_victim_bypass_fetches_the_segments_it_needs)
{
    Rig r;
    Scripted s;
    rig_init(&r, "lru", CACHE_ALLOC_MISS, 1, 2, 0);
    rig_script(&r, &s);
    fill_two(&r, &s);
    s.answer = REPL_BYPASS;
    EXPECT_EQ_U(load_segs(&r, 2 * 128, 3, 0x2, 10), L1D_MISS); /* bytes 32..63 of the line */
    ASSERT(r.l1.miss_q.head);
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 32);
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x2);
    EXPECT_EQ_U(load_segs(&r, 2 * 128, 4, 0x2, 11), L1D_MERGED);   /* within what is fetched */
    EXPECT_EQ_U(load_segs(&r, 2 * 128, 5, 0x3, 12), L1D_FAIL_MERGE); /* needs a segment more */
    EXPECT_EQ_U(r.l1.fail_merge, 1);
    uint32_t tokens[8];
    EXPECT_EQ_U(l2_return_all(&r, 20, tokens, NULL), 2);
    EXPECT_EQ_U(load_segs(&r, 2 * 128, 5, 0x3, 21), L1D_MISS); /* a request of its own now */
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 64);
    rig_free(&r);
}

TEST(l1d_contract_store_evict_is_an_eviction_by_write)
{
    Rig r;
    Scripted s;
    rig_init(&r, "lru", CACHE_ALLOC_MISS, 1, 2, 0);
    rig_script(&r, &s);
    fill_two(&r, &s);
    ReplAccess a = {.warp_uid = 20, .is_write = true};
    EXPECT_EQ_U(l1d_store(&r.l1, 128, 4, &a, 30), L1D_SENT);
    EXPECT_EQ_U(s.n_evict, 1);
    EXPECT_EQ_U(s.last_evict.line_addr, 1);
    EXPECT(s.last_evict.by_write);
    EXPECT_EQ_U(s.last_evict.evicted_by, 20);
    EXPECT_EQ_U(load(&r, 128, 5, 10, 31), L1D_MISS);
    rig_free(&r);
}

/* ---- the victim cache -------------------------------------------------------------------- */

TEST(l1d_victim_cache_alone)
{
    Config c;
    char err[256];
    config_init(&c);
    c.l1d.victim = 2;
    EXPECT(config_set(&c, "l1d.victim.lat", "3", err, sizeof err));
    ASSERT(policy_check_config(&c, err, sizeof err));
    const MpathOps *ops = policy_mpath("victim");
    EXPECT(ops->enabled(&c));
    PolicyCtx ctx;
    policy_ctx_init(&ctx, &ops->meta, "l1d", &c, NULL, "v", 0, 0);
    void *v = ops->create(&ctx, 128);
    MpathAccess a = {.line_addr = 10, .cycle = 1};
    uint32_t lat = 0;
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_MISS);
    ops->on_evict(v, &(MpathAccess){.line_addr = 10});
    ops->on_evict(v, &(MpathAccess){.line_addr = 11});
    ops->on_evict(v, &(MpathAccess){.line_addr = 12}); /* pushes out 10, the least recent */
    a.cycle = 2;
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_MISS);
    a = (MpathAccess){.line_addr = 11, .cycle = 2};
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_BUSY); /* one port: one probe a cycle */
    a.cycle = 3;
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_HIT);
    EXPECT_EQ_U(lat, 3);
    a.cycle = 4;
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_MISS); /* the line moved out on the hit */
    ops->on_write(v, 12);
    a = (MpathAccess){.line_addr = 12, .cycle = 5};
    EXPECT_EQ_U(ops->probe(v, &a, &lat), MPATH_MISS); /* a store dropped it */
    ops->destroy(v);
    policy_ctx_free(&ctx);
    config_init(&c);
    EXPECT(!ops->enabled(&c));
}

/* A direct-mapped one-line L1D with a two-entry victim cache: the classic swap. */
TEST(l1d_victim_cache_on_the_miss_path)
{
    Rig r;
    rig_init(&r, "lru", CACHE_ALLOC_MISS, 1, 1, 2);
    EXPECT_EQ_U(r.l1.n_mpath, 1);
    EXPECT_EQ_U(load(&r, 0, 1, 1, 0), L1D_MISS);
    EXPECT_EQ_U(l2_return_all(&r, 5, NULL, NULL), 1);
    EXPECT_EQ_U(load(&r, 128, 2, 1, 6), L1D_MISS); /* line 0 goes to the victim cache */
    EXPECT_EQ_U(l2_return_all(&r, 10, NULL, NULL), 1);
    ReplAccess a = {.warp_uid = 1};
    uint32_t lat = 0;
    EXPECT_EQ_U(l1d_load(&r.l1, 0, 3, &a, 11, &lat), L1D_HIT); /* back from the victim cache */
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat + 1);
    EXPECT_EQ_U(r.l1.mpath_hit, 1);
    EXPECT_EQ_U(r.l1.miss, 2);
    EXPECT_EQ_U(r.l1.miss_q.n, 0);
    EXPECT_EQ_U(l1d_load(&r.l1, 0, 4, &a, 12, &lat), L1D_HIT); /* now in the L1D itself */
    EXPECT_EQ_U(lat, r.c.l1d.hit_lat);
    EXPECT_EQ_U(l1d_load(&r.l1, 128, 5, &a, 13, &lat), L1D_HIT); /* and line 1 was swapped out */
    EXPECT_EQ_U(r.l1.mpath_hit, 2);
    EXPECT_EQ_U(stats_get(&r.st, "sm[0].l1d.victim.hit", NULL), 2);
    EXPECT_EQ_U(stats_get(&r.st, "sm[0].l1d.victim.insert", NULL), 3);
    rig_free(&r);
}

/* Every registered policy answers victim() with one of the candidate ways (or bypass/stall),
 * whatever subset of the set is offered, after inserts and hits in any order. */
TEST(l1d_contract_every_policy_picks_among_candidates)
{
    Config c;
    config_init(&c);
    for (uint32_t p = 0; p < policy_count(POLICY_REPL); p++) {
        const ReplOps *ops = policy_repl(policy_name_at(POLICY_REPL, p));
        PolicyCtx ctx;
        policy_ctx_init(&ctx, &ops->meta, "l1d.repl", &c, NULL, "t", 0, 0);
        void *self = ops->create ? ops->create(&ctx, 4, 8) : NULL;
        uint64_t seed = 7 + p;
        for (int i = 0; i < 2000; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            ReplAccess a = {.set = (uint32_t)(seed >> 40) % 4, .way = (uint32_t)(seed >> 50) % 8,
                            .warp_uid = (uint32_t)(seed >> 20) % 48, .n_lines = 1 + (uint32_t)(seed >> 30) % 32,
                            .cycle = (uint64_t)i};
            uint64_t cand = (seed >> 8) & 0xFF;
            switch (seed >> 61) {
            case 0:
            case 1:
                if (ops->on_hit) {
                    a.hit = true;
                    ops->on_hit(self, &a);
                }
                break;
            case 2:
            case 3:
                if (ops->on_insert)
                    ops->on_insert(self, &a);
                if (ops->on_fill)
                    ops->on_fill(self, &a);
                break;
            default:
                if (!cand)
                    break;
                int w = ops->victim(self, &a, cand);
                EXPECT(w == REPL_BYPASS || w == REPL_STALL || (w >= 0 && w < 8 && (cand >> w & 1)));
                if (w >= 0 && ops->on_evict) {
                    ReplEvict e = {.set = a.set, .way = (uint32_t)w, .line_addr = seed >> 20, .cycle = (uint64_t)i};
                    ops->on_evict(self, &e);
                }
            }
        }
        if (ops->destroy)
            ops->destroy(self);
        policy_ctx_free(&ctx);
    }
}
