/* test_cache.c: tag array + LRU/FIFO, MSHR, and the L1D between mock neighbours (the miss
 * queue is the mock interconnect; fills are handed back by the test). */
#include "../test.h"

#include "conf/config.h"
#include "mem/l1d.h"
#include "mem/mshr.h"
#include "mem/tags.h"
#include "policy/policy.h"

static void small_l1d(Config *c, uint32_t sets, uint32_t assoc, uint32_t mshr, uint32_t merge, uint32_t missq)
{
    config_init(c);
    c->l1d.n_sets = sets;
    c->l1d.assoc = assoc;
    c->l1d.mshr_entries = mshr;
    c->l1d.mshr_max_merge = merge;
    c->l1d.miss_queue = missq;
}

/* An L1D of small_l1d's shape with its stats and request pool. */
typedef struct L1dRig {
    Config c;
    Stats st;
    MemPool pool;
    L1d l1;
} L1dRig;

static void l1d_rig_open(L1dRig *g, uint32_t sets, uint32_t assoc, uint32_t mshr, uint32_t merge, uint32_t missq)
{
    small_l1d(&g->c, sets, assoc, mshr, merge, missq);
    stats_init(&g->st);
    mempool_init(&g->pool);
    l1d_init(&g->l1, 0, &g->c, &g->pool, &g->st);
}

static void l1d_rig_close(L1dRig *g)
{
    l1d_free(&g->l1);
    mempool_free(&g->pool);
    stats_free(&g->st);
}

TEST(cache_lru_victim_order)
{
    Config c;
    small_l1d(&c, 1, 4, 8, 8, 8);
    Tags t;
    tags_init(&t, &c.l1d, &c, "l1d", NULL, "l1d", 0);
    ReplAccess a = {0};
    for (uint32_t i = 0; i < 4; i++) {
        TagLine ev;
        int w = tags_choose_victim(&t, 0, &a, &ev);
        EXPECT_EQ_I(w, (int)i); /* invalid ways first */
        tags_install(&t, 0, (uint32_t)w, i * 128, LINE_VALID, &a);
    }
    /* Touch line 0: LRU is now line 1. */
    uint32_t way = 0;
    EXPECT_EQ_U(tags_probe(&t, 0, 0, &way), TAGS_HIT);
    a.way = way;
    tags_hit(&t, &a);
    TagLine ev;
    int w = tags_choose_victim(&t, 0, &a, &ev);
    EXPECT_EQ_I(w, 1);
    EXPECT_EQ_U(ev.line_addr, 1);
    tags_free(&t);
}

/* The tag array's probe, victim choice and reserved-set test (per-set masks, a row of keys up
 * to 16 ways, fingerprints above) against a scan of the lines, on random installs, fills and
 * evictions of a few addresses that collide in their fingerprints as well. Duplicate lines in
 * one set (which the caches never install) still find the lowest way, as the scan does. */
TEST(cache_tags_match_line_scan)
{
    static const uint32_t assocs[] = {1, 4, 8, 16, 17, 24, 64};
    uint64_t seed = 99;
    for (size_t ai = 0; ai < sizeof assocs / sizeof *assocs; ai++) {
        Config c;
        small_l1d(&c, 2, assocs[ai], 8, 8, 8);
        Tags t;
        tags_init(&t, &c.l1d, &c, "l1d", NULL, "l1d", 0);
        ReplAccess a = {0};
        for (int step = 0; step < 20000; step++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t set = (uint32_t)(seed >> 60) & 1, way = (uint32_t)(seed >> 33) % t.assoc;
            uint64_t addr = ((seed >> 40) % (3 * t.assoc)) * 128; /* 3 addresses a way: many repeats */
            TagLine *l = tags_line(&t, set, way);
            uint32_t op = (uint32_t)(seed >> 20) % 4;
            if (l->state == LINE_INVALID && op < 2)
                tags_install(&t, set, way, addr, op ? LINE_VALID : LINE_RESERVED, &a);
            else if (l->state == LINE_RESERVED && op == 2)
                tags_fill(&t, set, way, &a);
            else if (l->state == LINE_VALID && op == 3)
                tags_evict(&t, set, way, 0, 0, false);
            uint32_t got = UINT32_MAX, want = UINT32_MAX, valid = 0, any_free = 0, all_reserved = 1;
            for (uint32_t w = 0; w < t.assoc; w++) {
                const TagLine *x = tags_line(&t, set, w);
                if (want == UINT32_MAX && x->state != LINE_INVALID && x->line_addr == addr / 128)
                    want = w;
                valid += x->state == LINE_VALID;
                any_free |= x->state == LINE_INVALID;
                all_reserved &= x->state == LINE_RESERVED;
            }
            TagsProbe p = tags_probe(&t, addr, set, &got);
            EXPECT_EQ_U(p == TAGS_MISS ? UINT32_MAX : got, want);
            if (want != UINT32_MAX)
                EXPECT_EQ_U(p, tags_line(&t, set, want)->state == LINE_VALID ? TAGS_HIT : TAGS_HIT_RESERVED);
            EXPECT_EQ_U(tags_set_reserved(&t, set), all_reserved);
            TagLine ev;
            int v = tags_choose_victim(&t, set, &a, &ev);
            if (any_free)
                EXPECT(v >= 0 && tags_line(&t, set, (uint32_t)v)->state == LINE_INVALID);
            else if (!valid)
                EXPECT_EQ_I(v, REPL_STALL);
            else
                EXPECT(v >= 0 && tags_line(&t, set, (uint32_t)v)->state == LINE_VALID);
            if (test_failures_in_current())
                break;
        }
        tags_free(&t);
    }
}

TEST(cache_fifo_ignores_hits)
{
    Config c;
    small_l1d(&c, 1, 2, 8, 8, 8);
    snprintf(c.l1d.repl, sizeof c.l1d.repl, "fifo");
    Tags t;
    tags_init(&t, &c.l1d, &c, "l1d", NULL, "l1d", 0);
    ReplAccess a = {0};
    tags_install(&t, 0, 0, 0, LINE_VALID, &a);
    tags_install(&t, 0, 1, 128, LINE_VALID, &a);
    a.way = 0;
    tags_hit(&t, &a);
    TagLine ev;
    EXPECT_EQ_I(tags_choose_victim(&t, 0, &a, &ev), 0); /* still the first inserted */
    tags_free(&t);
}

TEST(cache_reserved_lines_are_never_victims)
{
    Config c;
    small_l1d(&c, 1, 2, 8, 8, 8);
    Tags t;
    tags_init(&t, &c.l1d, &c, "l1d", NULL, "l1d", 0);
    ReplAccess a = {0};
    tags_install(&t, 0, 0, 0, LINE_RESERVED, &a);
    tags_install(&t, 0, 1, 128, LINE_RESERVED, &a);
    TagLine ev;
    EXPECT_EQ_I(tags_choose_victim(&t, 0, &a, &ev), REPL_STALL);
    tags_fill(&t, 0, 1, &a);
    EXPECT_EQ_I(tags_choose_victim(&t, 0, &a, &ev), 1);
    tags_free(&t);
}

TEST(cache_mshr_alloc_merge_release)
{
    Mshr m;
    mshr_init(&m, 2, 3);
    int e0 = mshr_alloc(&m, 100, 7);
    int e1 = mshr_alloc(&m, 200, 8);
    EXPECT(e0 >= 0 && e1 >= 0 && e0 != e1);
    EXPECT(mshr_full(&m));
    EXPECT_EQ_I(mshr_alloc(&m, 300, 9), -1);
    EXPECT_EQ_I(mshr_find(&m, 200), e1);
    mshr_merge(&m, e0, 10);
    mshr_merge(&m, e0, 11);
    EXPECT(!mshr_can_merge(&m, e0));
    uint32_t n;
    const uint32_t *w = mshr_waiters(&m, e0, &n);
    EXPECT_EQ_U(n, 3);
    EXPECT_EQ_U(w[0], 7);
    EXPECT_EQ_U(w[2], 11);
    mshr_release(&m, e0);
    EXPECT_EQ_I(mshr_find(&m, 100), -1);
    EXPECT_EQ_I(mshr_find(&m, 200), e1);
    EXPECT(!mshr_full(&m));
    mshr_free_all(&m);
}

/* The MSHR's address index against a plain list, over many allocations and releases whose
 * addresses collide in the index (multiples of the slot count, and neighbours). */
TEST(cache_mshr_index_matches_a_scan)
{
    enum { N = 48 };
    Mshr m;
    mshr_init(&m, N, 1);
    uint64_t held[N];
    int ent[N];
    uint32_t n = 0, seed = 12345;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 1103515245u + 12345u;
        uint64_t addr = (seed >> 16) % 4 == 0 ? (uint64_t)((seed >> 8) % 64) * 128 : (seed >> 8) % 300;
        int found = -1;
        for (uint32_t i = 0; i < n; i++)
            if (held[i] == addr)
                found = ent[i];
        EXPECT_EQ_I(mshr_find(&m, addr), found);
        if (found < 0 && !mshr_full(&m) && (seed & 1)) {
            held[n] = addr;
            ent[n++] = mshr_alloc(&m, addr, 0);
        } else if (n && !(seed & 1)) {
            uint32_t k = (seed >> 20) % n;
            mshr_release(&m, ent[k]);
            held[k] = held[--n];
            ent[k] = ent[n];
        }
        EXPECT_EQ_U(mshr_in_use(&m), n);
    }
    mshr_free_all(&m);
}

/* Hand every queued miss back as a reply (the mock L2), returning the number of tokens woken. */
static uint32_t drain_and_fill(L1d *l1, uint64_t now)
{
    uint32_t woken = 0, tokens[64];
    MemReq *r;
    while ((r = memreq_queue_pop(&l1->miss_q)) != NULL) {
        if (r->kind != MREQ_READ) {
            mempool_put(l1->pool, r);
            continue;
        }
        r->is_reply = true;
        int n = l1d_fill(l1, r, tokens, now);
        woken += n > 0 ? (uint32_t)n : 0;
    }
    return woken;
}

TEST(cache_l1d_hit_miss_merge_and_failures)
{
    L1dRig g;
    l1d_rig_open(&g, 4, 2, 2, 2, 4);
    L1d *l1 = &g.l1;
    ReplAccess a = {0};
    uint32_t lat;
    EXPECT_EQ_U(l1d_load(l1, 0x1000, 1, &a, 0, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 0x1004, 2, &a, 1, &lat), L1D_MERGED);  /* same line in flight */
    EXPECT_EQ_U(l1d_load(l1, 0x1008, 3, &a, 2, &lat), L1D_FAIL_MERGE); /* merge room (2) used up */
    EXPECT_EQ_U(l1d_load(l1, 0x2000, 4, &a, 3, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 0x3000, 5, &a, 4, &lat), L1D_FAIL_MSHR); /* both entries busy */
    EXPECT_EQ_U(l1->fail_mshr, 1);
    EXPECT_EQ_U(l1->fail_merge, 1);
    EXPECT_EQ_U(drain_and_fill(l1, 10), 3);
    EXPECT_EQ_U(l1d_load(l1, 0x1010, 6, &a, 11, &lat), L1D_HIT);
    EXPECT_EQ_U(l1->hit, 1);
    EXPECT_EQ_U(l1->miss, 2);
    EXPECT_EQ_U(l1->merge, 1);
    /* Write-evict on hit: the store removes the line and goes to the miss queue. */
    EXPECT_EQ_U(l1d_store(l1, 0x1000, 4, &a, 12), L1D_SENT);
    EXPECT_EQ_U(l1->store_hit_evict, 1);
    EXPECT_EQ_U(l1d_load(l1, 0x1000, 7, &a, 13, &lat), L1D_MISS);
    drain_and_fill(l1, 20);
    l1d_rig_close(&g);
}

TEST(cache_l1d_no_replaceable_line)
{
    /* 2-way set: two misses in flight reserve both ways; a third line of the same set fails
     * with "no replaceable line" until a fill arrives. */
    L1dRig g;
    l1d_rig_open(&g, 4, 2, 8, 8, 8);
    L1d *l1 = &g.l1;
    ReplAccess a = {0};
    uint32_t lat;
    uint64_t set_stride = 4 * 128;
    EXPECT_EQ_U(l1d_load(l1, 0 * set_stride, 1, &a, 0, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 1 * set_stride, 2, &a, 0, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 2 * set_stride, 3, &a, 0, &lat), L1D_FAIL_LINE);
    EXPECT_EQ_U(l1->fail_line, 1);
    drain_and_fill(l1, 5);
    EXPECT_EQ_U(l1d_load(l1, 2 * set_stride, 3, &a, 6, &lat), L1D_MISS); /* evicts the LRU line */
    EXPECT_EQ_U(l1d_load(l1, 1 * set_stride, 4, &a, 7, &lat), L1D_HIT);
    drain_and_fill(l1, 8);
    l1d_rig_close(&g);
}

TEST(cache_l1d_miss_queue_full)
{
    L1dRig g;
    l1d_rig_open(&g, 4, 4, 8, 8, 2);
    L1d *l1 = &g.l1;
    ReplAccess a = {0};
    uint32_t lat;
    EXPECT_EQ_U(l1d_load(l1, 0x0000, 1, &a, 0, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 0x0080, 2, &a, 0, &lat), L1D_MISS);
    EXPECT_EQ_U(l1d_load(l1, 0x0100, 3, &a, 0, &lat), L1D_FAIL_MISSQ);
    l1->icnt_refused = true;
    EXPECT_EQ_U(l1d_store(l1, 0x0200, 4, &a, 0), L1D_FAIL_ICNT);
    EXPECT_EQ_U(l1->fail_missq, 1);
    EXPECT_EQ_U(l1->fail_icnt, 1);
    drain_and_fill(l1, 3);
    l1d_rig_close(&g);
}

/* sm.l1d_flush between kernels: every line is invalidated; a miss on a flushed line is cold, a
 * miss on a line a warp evicted stays intra- or inter-warp. */
TEST(cache_l1d_flush)
{
    L1dRig g;
    l1d_rig_open(&g, 1, 2, 4, 4, 8);
    L1d *l1 = &g.l1;
    ReplAccess a = {.warp_uid = 7};
    uint32_t lat;
    /* lines 0, 1 and 2 of the one set: 2 evicts 0 (by warp 7) */
    for (uint64_t i = 0; i < 3; i++) {
        EXPECT_EQ_U(l1d_load(l1, i * 128, 1, &a, i, &lat), L1D_MISS);
        drain_and_fill(l1, i);
    }
    EXPECT_EQ_U(l1->miss_cold, 3);
    l1d_flush(l1, 10);
    for (uint32_t w = 0; w < 2; w++)
        EXPECT_EQ_U(tags_line(&l1->tags, 0, w)->state, LINE_INVALID);
    EXPECT_EQ_U(l1d_load(l1, 2 * 128, 1, &a, 11, &lat), L1D_MISS); /* was resident: cold again */
    drain_and_fill(l1, 11);
    EXPECT_EQ_U(l1->miss_cold, 4);
    EXPECT_EQ_U(l1d_load(l1, 0, 1, &a, 12, &lat), L1D_MISS); /* evicted by warp 7 itself */
    drain_and_fill(l1, 12);
    EXPECT_EQ_U(l1->miss_intra, 1);
    EXPECT_EQ_U(l1->miss_cold, 4);
    EXPECT_EQ_U(l1d_load(l1, 0, 1, &a, 13, &lat), L1D_HIT);
    l1d_flush(l1, 20); /* flushing an empty or flushed cache is harmless */
    l1d_flush(l1, 21);
    l1d_rig_close(&g);
}
