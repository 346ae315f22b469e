/* test_ciao_p.c: CIAO-P and CIAO-C (seeds/003 III-B, III-C, IV-B, IV-C, Fig. 7): the shared-
 * memory cache's layout and address translation, migration from the L1D and the single copy,
 * hits, fills and their victims, stores; isolation and redirection back at the low cutoff;
 * CIAO-C stalling an isolated warp and falling back to stalling without shared memory; the
 * unused shared memory as CTAs come and go. */
#include "../policy_rig.h"
#include "../sm_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "mem/l1d.h"
#include "policy/mpath/smemcache.h"
#include "policy/policy.h"
#include "policy/warp/ciao.h"
#include "stats/stats.h"

#include <string.h>

/* ---- layout and translation (Fig. 7c) ---------------------------------------------------- */

TEST(smemcache_translation_fig_7c)
{
    /* 48 KB unused of 48 KB: 192 rows of 256 bytes. 256 data rows would need 8 tag rows (264);
     * 128 need 4 (132 <= 192): the row mask is 0x7f, 256 lines (32 KB). Data rows are the top
     * 128 (64..191), tag rows the 4 below (60..63). */
    SmemCacheGeom g = smemcache_geometry(49152, 49152);
    EXPECT_EQ_U(g.data_rows, 128);
    EXPECT_EQ_U(g.tag_rows, 4);
    EXPECT_EQ_U(g.data_row0, 64);
    EXPECT_EQ_U(g.tag_row0, 60);
    EXPECT_EQ_U(g.lines, 256);
    /* A = 0x12345678: F = 0, B = 0xf, G = 0, r = 0x123456 & 0x7f = 86: set 2 * 86 + 0 = 172;
     * data at row 64 + 86 = 150, group 0, bank 15: 150 * 256 + 15 * 8 = 0x9678; its tag at row
     * 60 + 86 / 32 = 62, group 1 (flipped), bank (86 mod 32) / 2 = 11, first half:
     * 62 * 256 + 128 + 88 = 0x3ed8. */
    SmemCacheLoc l = smemcache_translate(&g, 0x12345678);
    EXPECT_EQ_U(l.set, 172);
    EXPECT_EQ_U(l.data_addr, 0x9678);
    EXPECT_EQ_U(l.tag_addr, 0x3ed8);
    /* A = 0x1f8c: F = 4, B = 1, G = 1, r = 31: set 63; data 95 * 256 + 128 + 8 + 4 = 0x5f8c;
     * tag at row 60, group 0, bank 15, second half: 60 * 256 + 120 + 4 = 0x3c7c. */
    l = smemcache_translate(&g, 0x1f8c);
    EXPECT_EQ_U(l.set, 63);
    EXPECT_EQ_U(l.data_addr, 0x5f8c);
    EXPECT_EQ_U(l.tag_addr, 0x3c7c);
    /* Lines 32 KB apart share a set (direct-mapped); a line's two halves do not. */
    EXPECT_EQ_U(smemcache_translate(&g, 0x12345678 + 0x8000).set, 172);
    EXPECT_EQ_U(smemcache_translate(&g, 0x12345678 + 0x80).set, 173);
    /* index = xor: r = 86 ^ (A[21:15] = 0x2468 & 0x7f = 0x68 = 104) = 62; set 124, data row
     * 126: 0x7e78; and the line 32 KB on has r = 86 ^ 105 = 63: another set. */
    g.xor_rows = true;
    l = smemcache_translate(&g, 0x12345678);
    EXPECT_EQ_U(l.set, 124);
    EXPECT_EQ_U(l.data_addr, 0x7e78);
    EXPECT_EQ_U(smemcache_translate(&g, 0x12345678 + 0x8000).set, 126);
    g.xor_rows = false;

    /* 16 KB unused: 64 rows; 64 data rows need 2 tag rows (66 > 64), so 32 data rows (160..191)
     * and 1 tag row (159): 64 lines. A = 0x12345678: r = 86 & 31 = 22, set 44, data row 182:
     * 0xb678; tag row 159, group 1, bank 11: 159 * 256 + 128 + 88 = 0x9fd8. */
    g = smemcache_geometry(49152, 16384);
    EXPECT_EQ_U(g.data_rows, 32);
    EXPECT_EQ_U(g.tag_row0, 159);
    l = smemcache_translate(&g, 0x12345678);
    EXPECT_EQ_U(l.set, 44);
    EXPECT_EQ_U(l.data_addr, 0xb678);
    EXPECT_EQ_U(l.tag_addr, 0x9fd8);
    /* Two rows hold one data row and its tag row; one row (or a partial one) holds nothing. */
    EXPECT_EQ_U(smemcache_geometry(49152, 512).lines, 2);
    EXPECT_EQ_U(smemcache_geometry(49152, 511).lines, 0);
    EXPECT_EQ_U(smemcache_geometry(49152, 0).lines, 0);
}

/* ---- the alternate store on the L1D ------------------------------------------------------ */

typedef struct Alt {
    Config c;
    Stats st;
    MemPool pool;
    L1d l1;
    uint32_t n_victims;
    uint64_t victim_line;
    uint32_t victim_by, victim_of;
} Alt;

static void alt_hook(void *ctx, uint64_t line, uint32_t inserted_by, uint32_t evicted_by, uint64_t now)
{
    Alt *a = ctx;
    a->n_victims++;
    a->victim_line = line;
    a->victim_of = inserted_by;
    a->victim_by = evicted_by;
}

/* A 4-set direct-mapped L1D of a machine whose scheduler is ciao-p (so the shared-memory cache
 * is its alternate store), with 48 KB of shared memory unused. */
static void alt_init(Alt *a)
{
    char err[256];
    memset(a, 0, sizeof *a);
    config_init(&a->c);
    a->c.l1d.n_sets = 4;
    a->c.l1d.assoc = 1;
    a->c.l1d.mshr_entries = 8;
    a->c.l1d.miss_queue = 16;
    a->c.smem.lat = 3;
    snprintf(a->c.sm.sched, sizeof a->c.sm.sched, "ciao-p");
    CHECK(policy_check_config(&a->c, err, sizeof err));
    stats_init(&a->st);
    mempool_init(&a->pool);
    l1d_init(&a->l1, 0, &a->c, &a->pool, &a->st);
    l1d_smem_unused(&a->l1, 49152);
    a->l1.evict_hook = alt_hook;
    a->l1.evict_hook_ctx = a;
}

static void alt_free(Alt *a)
{
    l1d_free(&a->l1);
    mempool_free(&a->pool);
    stats_free(&a->st);
}

static L1dResult alt_load(Alt *a, uint64_t addr, uint32_t uid, bool steered, uint64_t now, uint32_t *out)
{
    ReplAccess ra = {.warp_id = uid, .warp_uid = uid, .steered = steered, .n_lines = 1};
    return l1d_load(&a->l1, addr, uid, &ra, now, out);
}

/* Every read in the miss queue comes back; returns how many. */
static uint32_t alt_return(Alt *a, uint64_t now)
{
    uint32_t n = 0, tokens[64];
    MemReq *q;
    while ((q = memreq_queue_pop(&a->l1.miss_q)) != NULL) {
        if (q->kind != MREQ_READ) {
            mempool_put(&a->pool, q);
            continue;
        }
        CHECK(l1d_fill(&a->l1, q, tokens, now) >= 0);
        n++;
    }
    return n;
}

static bool in_l1d(const Alt *a, uint64_t addr)
{
    uint32_t way;
    return tags_probe(&a->l1.tags, addr, tags_set_of(&a->l1.tags, addr), &way) == TAGS_HIT;
}

static uint64_t sc(const Alt *a, const char *name) { return test_stat(&a->st, "sm[0].l1d.smemcache.%s", name); }

TEST(smemcache_migration_hits_and_a_single_copy)
{
    Alt a;
    alt_init(&a);
    EXPECT_EQ_I(a.l1.steer_k, 0);
    const uint64_t A = 0x12345678, B = 0x1f8c, C = A + 0x8000; /* C shares A's set (172) */
    uint32_t out = 0;
    /* warp 1 (not isolated) brings A into the L1D */
    EXPECT_EQ_U(alt_load(&a, A, 1, false, 1, &out), L1D_MISS);
    EXPECT_EQ_U(alt_return(&a, 5), 1);
    EXPECT(in_l1d(&a, A));
    /* warp 2, isolated, asks for A: not in the shared-memory cache, but in the L1D: the line
     * leaves the L1D for the cache (IV-B), with no L2 request; the data comes after the L1D's
     * hit latency plus the shared memory's */
    EXPECT_EQ_U(alt_load(&a, A, 2, true, 6, &out), L1D_HIT);
    EXPECT_EQ_U(out, a.c.l1d.hit_lat + 3);
    EXPECT_EQ_U(a.l1.miss_q.n, 0);
    EXPECT(!in_l1d(&a, A));
    EXPECT_EQ_U(sc(&a, "migrate"), 1);
    EXPECT_EQ_U(sc(&a, "miss"), 1);
    EXPECT_EQ_U(a.n_victims, 0); /* a migration is no replacement, and the set was empty */
    /* the second access hits in the shared-memory cache: smem.lat */
    EXPECT_EQ_U(alt_load(&a, A, 2, true, 7, &out), L1D_HIT);
    EXPECT_EQ_U(out, 3);
    EXPECT_EQ_U(sc(&a, "hit"), 1);
    /* warp 1 misses in the L1D and reads the single copy where it is: it stays there */
    EXPECT_EQ_U(alt_load(&a, A, 1, false, 8, &out), L1D_HIT);
    EXPECT_EQ_U(out, a.c.l1d.hit_lat + 3);
    EXPECT(!in_l1d(&a, A));
    EXPECT_EQ_U(sc(&a, "served"), 1);
    EXPECT_EQ_U(a.l1.miss, 1); /* steered accesses are not L1D misses */
    /* B is nowhere: a steered miss to the L2, whose reply fills the cache and no L1D line */
    EXPECT_EQ_U(alt_load(&a, B, 2, true, 9, &out), L1D_MISS);
    EXPECT_EQ_U(a.l1.mshr.n_free, a.c.l1d.mshr_entries - 1);
    EXPECT_EQ_U(alt_return(&a, 20), 1);
    EXPECT(!in_l1d(&a, B));
    EXPECT_EQ_U(sc(&a, "fill"), 1);
    EXPECT_EQ_U(alt_load(&a, B, 2, true, 21, &out), L1D_HIT);
    /* C replaces A in set 172: the victim is told like an L1D replacement (A was put there by
     * warp 2's migration; warp 3's access replaced it) */
    EXPECT_EQ_U(alt_load(&a, C, 3, true, 22, &out), L1D_MISS);
    EXPECT_EQ_U(alt_return(&a, 30), 1);
    EXPECT_EQ_U(sc(&a, "evict"), 1);
    EXPECT_EQ_U(a.n_victims, 1);
    EXPECT_EQ_U(a.victim_line, A >> 7);
    EXPECT_EQ_U(a.victim_of, 2);
    EXPECT_EQ_U(a.victim_by, 3);
    EXPECT_EQ_U(alt_load(&a, A, 2, true, 31, &out), L1D_MISS);
    /* a store drops the cache's copy (write-through, no allocate) */
    ReplAccess st = {.warp_uid = 1, .is_write = true};
    EXPECT_EQ_U(l1d_store(&a.l1, B, 4, &st, 32), L1D_SENT);
    EXPECT_EQ_U(sc(&a, "drop"), 1);
    EXPECT_EQ_U(alt_load(&a, B, 2, true, 33, &out), L1D_MISS);
    alt_return(&a, 40);
    alt_free(&a);
}

TEST(smemcache_without_room_is_the_l1d)
{
    /* No unused shared memory: a steered access is an ordinary L1D access. */
    Alt a;
    alt_init(&a);
    l1d_smem_unused(&a.l1, 256);
    uint32_t out;
    EXPECT_EQ_U(alt_load(&a, 0x1000, 2, true, 1, &out), L1D_MISS);
    EXPECT_EQ_U(alt_return(&a, 5), 1);
    EXPECT(in_l1d(&a, 0x1000));
    EXPECT_EQ_U(sc(&a, "nowhere"), 1);
    EXPECT_EQ_U(a.l1.miss, 1);
    alt_free(&a);
}

/* ---- CIAO-P and CIAO-C through their hooks ----------------------------------------------- */

static WarpSlotInfo slots[64];
static uint64_t ages[64];
static SmView view;

static WarpSchedView at(void)
{
    return (WarpSchedView){.ready = view.live_mask, .valid = view.live_mask, .age = ages, .cycle = 1, .sm = &view};
}

static void issue_n(PolicyRig *t, uint32_t s, uint32_t n)
{
    WarpSchedView v = at();
    for (uint32_t i = 0; i < n; i++)
        t->warp->on_issue(t->self, s, &v);
}

/* `n` VTA hits of warp `victim`, each on a line `evictor` had replaced. */
static void interfere(PolicyRig *t, uint32_t victim, uint32_t evictor, uint32_t n, uint64_t base)
{
    for (uint32_t i = 0; i < n; i++) {
        WarpL1dEvent e = {.slot = victim, .evictor = evictor, .line_addr = base + i, .cycle = 1};
        t->warp->on_l1d_evict(t->self, &e);
        e.evictor = WARP_L1D_NOBODY;
        t->warp->on_l1d_miss(t->self, &e);
    }
}

static const Ciao *det(const PolicyRig *t) { return ciao_t_state(t->shared); }

static const char *const fast[] = {"high_epoch=1000"};

TEST(ciao_p_isolates_then_redirects_back_at_the_low_cutoff)
{
    PolicyRig t;
    prig_warp(&t, "ciao-p", fast, 1);
    EXPECT(t.warp->steers && !strcmp(t.warp->steers, "smemcache"));
    prig_launch(&t, slots, ages, &view, 4);
    view.smem_unused = 49152;
    /* Warp 0: 3 VTA hits on lines warp 2 replaced. At 1,000 instructions IRS_0 = 3 / (1000 / 4)
     * = 0.012 > 0.01: warp 2 is isolated (I = 1, warp 0 in the pair list's first field), not
     * stalled; its loads are steered from now on. */
    interfere(&t, 0, 2, 3, 1000);
    EXPECT(!t.warp->steer(t.self, 2));
    issue_n(&t, 3, 999);
    EXPECT_EQ_U(det(&t)->isolated, 0);
    issue_n(&t, 3, 1);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    EXPECT_EQ_U(det(&t)->pair[2].isolated_by, 0);
    EXPECT_EQ_U(det(&t)->pair[2].stalled_by, CIAO_NONE);
    EXPECT(t.warp->steer(t.self, 2));
    EXPECT(!t.warp->steer(t.self, 0));
    EXPECT_EQ_U(prig_stat(&t, "isolations"), 1);
    /* Warp 2 keeps issuing (CIAO-P never stalls). At the low cutoff 0.005: IRS_0 = 12 / insts
     * reaches it at 2,400 instructions: warp 2's loads go back to the L1D then, not at 2,300. */
    WarpSchedView v = at();
    EXPECT(t.warp->may_issue(t.self, 2, &slots[2], &v));
    issue_n(&t, 3, 1299);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    issue_n(&t, 3, 100);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    issue_n(&t, 3, 1);
    EXPECT_EQ_U(det(&t)->isolated, 0);
    EXPECT(!t.warp->steer(t.self, 2));
    EXPECT_EQ_U(det(&t)->pair[2].isolated_by, CIAO_NONE);
    EXPECT_EQ_U(prig_stat(&t, "redirections_back"), 1);
    prig_free(&t);

    /* Without unused shared memory CIAO-P isolates nobody. */
    prig_warp(&t, "ciao-p", fast, 1);
    prig_launch(&t, slots, ages, &view, 4);
    view.smem_unused = 0;
    interfere(&t, 0, 2, 3, 1000);
    issue_n(&t, 3, 1000);
    EXPECT_EQ_U(det(&t)->isolated, 0);
    EXPECT_EQ_U(prig_stat(&t, "no_room"), 1);
    prig_free(&t);
}

TEST(ciao_c_stalls_an_isolated_warp_that_interferes_again)
{
    PolicyRig t;
    prig_warp(&t, "ciao-c", fast, 1);
    prig_launch(&t, slots, ages, &view, 4);
    view.smem_unused = 49152;
    /* First high epoch: warp 2 interfered with warp 0: isolated. */
    interfere(&t, 0, 2, 3, 1000);
    issue_n(&t, 3, 1000);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    /* Warp 2, isolated, interferes with warp 1 (through the shared-memory cache's
     * replacements, told the same way): at the next high epoch IRS_1 = 6 / (2000 / 4) = 0.012
     * and warp 2 is already isolated: stalled, warp 1 in the second field; warp 0's IRS
     * (3 / 500 = 0.006) is no longer above the high cutoff. */
    interfere(&t, 1, 2, 6, 5000);
    issue_n(&t, 3, 1000);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 2);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    EXPECT_EQ_U(det(&t)->pair[2].stalled_by, 1);
    EXPECT_EQ_U(det(&t)->pair[2].isolated_by, 0);
    WarpSchedView v = at();
    EXPECT(!t.warp->may_issue(t.self, 2, &slots[2], &v));
    /* The warp list, front first: warp 2's stall, then its isolation. */
    uint8_t w[2 * CIAO_SLOTS];
    bool stall[2 * CIAO_SLOTS];
    EXPECT_EQ_U(ciao_action_list(t.shared, w, stall), 2);
    EXPECT(w[0] == 2 && stall[0] && w[1] == 2 && !stall[1]);
    /* Reverse order: when warp 1 finishes, warp 2 is reactivated at the next low epoch and
     * stays isolated; when warp 0 finishes, its loads go back to the L1D. */
    t.warp->on_warp_exit(t.self, 1);
    issue_n(&t, 3, 100);
    EXPECT_EQ_U(det(&t)->stalled, 0);
    EXPECT_EQ_U(det(&t)->isolated, 1u << 2);
    EXPECT_EQ_U(prig_stat(&t, "reactivations"), 1);
    t.warp->on_warp_exit(t.self, 0);
    issue_n(&t, 3, 100);
    EXPECT_EQ_U(det(&t)->isolated, 0);
    EXPECT_EQ_U(prig_stat(&t, "redirections_back"), 1);
    EXPECT_EQ_U(prig_stat(&t, "stall_fallbacks"), 0);
    prig_free(&t);

    /* Without unused shared memory CIAO-C stalls at once (CIAO-T's answer). */
    prig_warp(&t, "ciao-c", fast, 1);
    prig_launch(&t, slots, ages, &view, 4);
    view.smem_unused = 0;
    interfere(&t, 0, 2, 3, 1000);
    issue_n(&t, 3, 1000);
    EXPECT_EQ_U(det(&t)->stalled, 1u << 2);
    EXPECT_EQ_U(det(&t)->isolated, 0);
    EXPECT_EQ_U(prig_stat(&t, "stall_fallbacks"), 1);
    prig_free(&t);
}

/* ---- the unused shared memory as CTAs come and go ---------------------------------------- */

TEST(smemcache_follows_the_ctas_shared_memory)
{
    Rig *r = rig_new();
    snprintf(r->c.sm.sched, sizeof r->c.sm.sched, "ciao-p");
    r->c.sm.max_ctas = 4;
    ASSERT(rig_start(r, 32, 3));
    r->k.smem_bytes_per_cta = 16384;
    const L1d *l1 = &r->sm.l1d;
    ASSERT(l1->steer_k >= 0);
    const void *cache = l1->mpath[l1->steer_k];
    EXPECT_EQ_U(smemcache_lines_now(cache), 256); /* 48 KB unused */
    const MockInst prog[] = {alu(1, 0), ex()};
    script(&r->f, 0, prog, 2);
    rig_launch(r, 0); /* 32 KB unused: 128 rows, 64 data rows */
    EXPECT_EQ_U(smemcache_lines_now(cache), 128);
    rig_launch(r, 1); /* 16 KB: 32 data rows */
    EXPECT_EQ_U(smemcache_lines_now(cache), 64);
    rig_launch(r, 2); /* none */
    EXPECT_EQ_U(smemcache_lines_now(cache), 0);
    rig_step(r);
    EXPECT_EQ_U(r->sm.view.smem_unused, 0);
    ASSERT(rig_run(r, 1000));
    EXPECT_EQ_U(r->n_done, 3);
    EXPECT_EQ_U(smemcache_lines_now(cache), 256);
    EXPECT_EQ_U(test_stat(&r->st, "sm[0].l1d.smemcache.resize"), 7); /* the first sizing, 3 arrivals, 3 departures */
    rig_free(r);
}
