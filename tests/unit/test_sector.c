/* test_sector.c: sectored caches (GPGPU-Sim 4.x sector semantics) between mock neighbours.
 *
 * The L1D: the test plays the interconnect and the L2 (it pops the miss queue and hands the
 * requests back as fills). Hits, line misses and sector misses, fills of part of a line, an
 * MSHR entry per sector, merging a second request for other sectors of a line in flight, the
 * replacement state a sector miss touches, allocate-on-fill, and write-evict by sector.
 * The L2: the test plays the L1D and the DRAM (it pushes requests and fills the fetches). A
 * line read broken into per-sector accesses that reply once, merges of sectors in flight, and
 * write-backs of dirty sectors only. Last, the whole simulator: L2 accesses per L1D miss on a
 * divergent load, with and without a sectored L2. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "mem/l1d.h"
#include "mem/l2.h"
#include "policy/policy.h"

#include <stdlib.h>

/* ---- the L1D ---------------------------------------------------------------------------- */

typedef struct L1Rig {
    Config c;
    Stats st;
    MemPool pool;
    L1d l1;
} L1Rig;

/* One set of `assoc` ways, sectors of `sector_bytes`. */
static void l1_rig(L1Rig *r, uint32_t sector_bytes, uint32_t alloc, uint32_t assoc, uint32_t mshr_entries,
                   uint32_t merge)
{
    config_init(&r->c);
    r->c.l1d.sector_bytes = sector_bytes;
    r->c.l1d.n_sets = 1;
    r->c.l1d.assoc = assoc;
    r->c.l1d.mshr_entries = mshr_entries;
    r->c.l1d.mshr_max_merge = merge;
    r->c.l1d.miss_queue = 8;
    r->c.l1d.alloc = alloc;
    stats_init(&r->st);
    mempool_init(&r->pool);
    l1d_init(&r->l1, 0, &r->c, &r->pool, &r->st);
}

static void l1_rig_free(L1Rig *r)
{
    l1d_free(&r->l1);
    mempool_free(&r->pool);
    stats_free(&r->st);
}

/* ---- worked examples: a script of steps on one L1D ---------------------------------------- */

typedef enum StepKind { LOAD, STORE, REPLY, SWAP, LINE, REQUEST, MSHRS, WAYS } StepKind;

typedef struct Step {
    StepKind kind;
    uint64_t line; /* LOAD, STORE, LINE: the line's byte address */
    uint32_t segs; /* LOAD, STORE: the 32-byte segments touched; REQUEST: the newest request's */
    uint32_t a;    /* LOAD, STORE: the warp (token); REPLY: tokens woken; LINE: valid sectors;
                    * REQUEST: its bytes; MSHRS: entries in use; WAYS: ways of set 0 holding a line */
    uint32_t b;    /* LOAD: the result; REPLY: the first token woken; LINE: pending sectors */
    uint32_t c;    /* LOAD: *out (the hit latency, or how many fills return the token) */
} Step;

#define LD(line, segs, warp, want, out) {LOAD, line, segs, warp, want, out}
#define ST(line, segs, warp) {STORE, line, segs, warp, 0, 0}
#define RE(n, first) {REPLY, 0, 0, n, first, 0} /* the mock L2 answers the oldest request */
#define SWAP_TWO {SWAP, 0, 0, 0, 0, 0}          /* the two oldest requests change places */
#define LN(line, valid, pending) {LINE, line, 0, valid, pending, 0}
#define RQ(segs, bytes) {REQUEST, 0, segs, bytes, 0, 0}
#define MS(n) {MSHRS, 0, 0, n, 0, 0}
#define WA(n) {WAYS, 0, 0, n, 0, 0}
#define GONE UINT32_MAX /* LN: the line is not in the cache */

static void step_check(size_t step, const char *what, uint64_t got, uint64_t want)
{
    if (got == want)
        return;
    char m[160];
    snprintf(m, sizeof m, "step %zu: %s is %llu, expected %llu", step, what, (unsigned long long)got,
             (unsigned long long)want);
    test_fail(__FILE__, __LINE__, m);
}

/* The valid or pending sectors of the line at `line`; GONE when it is not in the cache. */
static uint32_t line_sectors(const L1Rig *r, uint64_t line, bool pending)
{
    uint32_t set = tags_set_of(&r->l1.tags, line), way;
    if (tags_probe(&r->l1.tags, line, set, &way) == TAGS_MISS)
        return GONE;
    const TagSectors *s = tags_sectors(&r->l1.tags, set, way);
    return pending ? s->pending : s->valid;
}

static void run_script(L1Rig *r, const Step *steps, size_t n)
{
    uint32_t tok[64], out;
    for (size_t i = 0; i < n; i++) {
        const Step *p = &steps[i];
        ReplAccess acc = {.warp_uid = p->a, .sectors = p->segs, .is_write = p->kind == STORE};
        MemReq *q;
        int woken;
        switch (p->kind) {
        case LOAD:
            out = 0;
            step_check(i, "the load's result", l1d_load(&r->l1, p->line, p->a, &acc, i, &out), p->b);
            step_check(i, "its out", out, p->c);
            break;
        case STORE:
            step_check(i, "the store's result", l1d_store(&r->l1, p->line, 32 * popcount_u32(p->segs), &acc, i),
                       L1D_SENT);
            break;
        case REPLY:
            q = memreq_queue_pop(&r->l1.miss_q);
            CHECK(q && q->kind == MREQ_READ);
            q->is_reply = true;
            woken = l1d_fill(&r->l1, q, tok, i);
            step_check(i, "tokens woken", (uint64_t)woken, p->a);
            step_check(i, "the first", woken > 0 ? tok[0] : 0, p->b);
            break;
        case SWAP:
            q = memreq_queue_pop(&r->l1.miss_q);
            memreq_queue_push(&r->l1.miss_q, q);
            break;
        case LINE:
            step_check(i, "valid sectors", line_sectors(r, p->line, false), p->a);
            step_check(i, "pending sectors", line_sectors(r, p->line, true), p->b);
            break;
        case REQUEST:
            CHECK(r->l1.miss_q.tail);
            step_check(i, "the request's segments", r->l1.miss_q.tail->sectors, p->segs);
            step_check(i, "its bytes", r->l1.miss_q.tail->size_bytes, p->a);
            break;
        case MSHRS:
            step_check(i, "MSHR entries in use", mshr_in_use(&r->l1.mshr), p->a);
            break;
        case WAYS:
            out = 0;
            for (uint32_t w = 0; w < r->l1.tags.assoc; w++)
                out += tags_line(&r->l1.tags, 0, w)->state != LINE_INVALID;
            step_check(i, "ways holding a line", out, p->a);
            break;
        }
    }
}

/* Counters of SM 0's L1D ("hit" is sm[0].l1d.hit), each with its expected value. */
typedef struct Count {
    const char *name;
    uint64_t want;
} Count;

static void expect_counts(const L1Rig *r, const Count *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[64];
        int found = 0;
        snprintf(name, sizeof name, "sm[0].l1d.%s", c[i].name);
        uint64_t got = stats_get(&r->st, name, &found);
        EXPECT(found);
        step_check(i, name, got, c[i].want);
    }
}

/* The L1D of a worked example: one set. */
typedef struct Machine {
    uint32_t sector_bytes, alloc, assoc, mshr_entries, merge;
} Machine;

static void l1_example(Machine m, const Step *script, size_t n, const Count *counts, size_t n_counts)
{
    L1Rig r;
    l1_rig(&r, m.sector_bytes, m.alloc, m.assoc, m.mshr_entries, m.merge);
    run_script(&r, script, n);
    expect_counts(&r, counts, n_counts);
    l1_rig_free(&r);
}

#define EXAMPLE(machine, script, counts) \
    l1_example(machine, script, ARRAY_LEN(script), counts, ARRAY_LEN(counts))
#define EXAMPLE_NO_COUNTS(machine, script) l1_example(machine, script, ARRAY_LEN(script), NULL, 0)
/* 32-byte sectors, allocate on miss, 2 ways, 8 MSHR entries merging 4 */
#define BASIC ((Machine){32, CACHE_ALLOC_MISS, 2, 8, 4})

TEST(sector_l1d_hit_line_miss_sector_miss)
{
    static const Step script[] = {
        /* line miss: the line is allocated, only the sector the access needs is fetched */
        LD(0x1000, 0x1, 1, L1D_MISS, 1), RQ(0x1, 32), LN(0x1000, 0, 0x1), RE(1, 1), LN(0x1000, 0x1, 0),
        LD(0x1000, 0x1, 2, L1D_HIT, 1), /* every sector needed is valid (l1d.hit_lat 1) */
        /* sector miss: sectors 0 and 3 needed, 3 is fetched into the line, which stays */
        LD(0x1000, 0x9, 3, L1D_MISS, 1), RQ(0x8, 32), LN(0x1000, 0x1, 0x8),
        LD(0x1000, 0x1, 4, L1D_HIT, 1), /* a valid sector of a line waiting for another */
        RE(1, 3), LN(0x1000, 0x9, 0), LD(0x1000, 0x9, 5, L1D_HIT, 1),
    };
    static const Count counts[] = {{"access", 5},     {"hit", 3},        {"miss", 2},
                                   {"sector_miss", 1}, {"miss_cold", 1},  {"sector_hit", 5},
                                   {"sector_fetch", 2}, {"fill", 2}};
    EXAMPLE(BASIC, script, counts);
}

TEST(sector_l1d_partial_line_fill)
{
    static const Step script[] = {
        /* sectors 1 and 2: one request for both, one MSHR entry each, the token back twice */
        LD(0x2000, 0x6, 1, L1D_MISS, 2), RQ(0x6, 64), MS(2), RE(2, 1), MS(0), LN(0x2000, 0x6, 0),
        LD(0x2000, 0x2, 2, L1D_HIT, 1), LD(0x2000, 0x7, 3, L1D_MISS, 1), RQ(0x1, 32), RE(1, 3),
        LN(0x2000, 0x7, 0),
    };
    /* 64-byte sectors: an access to one segment fetches its whole sector */
    static const Step script64[] = {
        LD(0x3000, 0x4, 1, L1D_MISS, 1), RQ(0xC, 64), RE(1, 1), LN(0x3000, 0x2, 0),
        LD(0x3000, 0x8, 2, L1D_HIT, 1), /* bytes 96..127: the same sector */
    };
    EXAMPLE_NO_COUNTS(BASIC, script);
    EXAMPLE_NO_COUNTS(((Machine){64, CACHE_ALLOC_MISS, 2, 8, 4}), script64);
}

TEST(sector_l1d_merges_other_sectors_of_a_line_in_flight)
{
    static const Step script[] = {
        LD(0x4000, 0x1, 1, L1D_MISS, 1),
        /* sectors 0 and 1: 0 is in flight (merge), 1 is a new request of the reserved line */
        LD(0x4000, 0x3, 2, L1D_MISS, 2), RQ(0x2, 32), MS(2),
        /* sector 0's entry holds two waiters already (l1d.mshr_max_merge = 2): all or nothing */
        LD(0x4000, 0x1, 3, L1D_FAIL_MERGE, 0), LD(0x4000, 0x3, 3, L1D_FAIL_MERGE, 0),
        LD(0x4000, 0x2, 4, L1D_MERGED, 1),
        /* sector 1's reply first: its waiters 2 and 4; then sector 0's: 1 and 2 */
        SWAP_TWO, RE(2, 2), LN(0x4000, 0x2, 0x1), RE(2, 1), LN(0x4000, 0x3, 0), MS(0),
    };
    static const Count counts[] = {{"miss", 2},         {"merge", 1},         {"sector_miss", 1},
                                   {"sector_merge", 2}, {"resfail_merge", 2}, {"sector_fetch", 2}};
    EXAMPLE(((Machine){32, CACHE_ALLOC_MISS, 2, 8, 2}), script, counts);
}

TEST(sector_l1d_mshr_entry_per_sector)
{
    static const Step script[] = {
        LD(0x5000, 0xF, 1, L1D_FAIL_MSHR, 0), LN(0x5000, GONE, GONE), /* four sectors, three entries */
        LD(0x5000, 0x7, 1, L1D_MISS, 3), RQ(0x7, 96), LD(0x5080, 0x1, 2, L1D_FAIL_MSHR, 0),
    };
    static const Count counts[] = {{"resfail_mshr", 2}};
    EXAMPLE(((Machine){32, CACHE_ALLOC_MISS, 2, 3, 4}), script, counts);
}

TEST(sector_l1d_sector_miss_touches_its_line)
{
    /* one set of two ways under LRU: a sector miss uses its line (GPGPU-Sim's allocate_sector
     * updates the line's access time), so the next line miss replaces the other line; and a
     * line with a sector in flight is reserved: not a victim */
    static const Step script[] = {
        LD(0x000, 0x1, 1, L1D_MISS, 1), LD(0x080, 0x1, 2, L1D_MISS, 1), RE(1, 1), RE(1, 2),
        LD(0x000, 0x2, 3, L1D_MISS, 1), RE(1, 3), /* sector miss of the older line */
        LD(0x100, 0x1, 4, L1D_MISS, 1), LN(0x000, 0x3, 0), LN(0x080, GONE, GONE), RE(1, 4),
        LD(0x100, 0x2, 5, L1D_MISS, 1), LD(0x000, 0x4, 6, L1D_MISS, 1), LD(0x180, 0x1, 7, L1D_FAIL_LINE, 0),
    };
    EXAMPLE_NO_COUNTS(BASIC, script);
}

TEST(sector_l1d_allocate_on_fill)
{
    static const Step script[] = {
        LD(0x6000, 0x1, 1, L1D_MISS, 1), LN(0x6000, GONE, GONE), /* nothing reserved at the miss */
        LD(0x6000, 0x2, 2, L1D_MISS, 1),                        /* still a line miss */
        RE(1, 1), LN(0x6000, 0x1, 0),                           /* the line is placed */
        RE(1, 2), LN(0x6000, 0x3, 0), WA(1),                    /* sector 1 joins it */
        LD(0x6000, 0x4, 3, L1D_MISS, 1), LN(0x6000, 0x3, 0),    /* a sector miss */
        RE(1, 3), LN(0x6000, 0x7, 0),
    };
    static const Count counts[] = {{"sector_miss", 1}, {"miss_cold", 1}};
    EXAMPLE(((Machine){32, CACHE_ALLOC_FILL, 2, 8, 4}), script, counts);
}

TEST(sector_l1d_store_drops_written_sectors)
{
    static const Step script[] = {
        LD(0x7000, 0x3, 1, L1D_MISS, 2), RE(2, 1),
        ST(0x7000, 0x2, 2), RQ(0x2, 32), LN(0x7000, 0x1, 0), /* the line keeps sector 0 */
        ST(0x7000, 0x5, 2), LN(0x7000, GONE, GONE),        /* its last valid sector: the line goes */
        LD(0x7000, 0x1, 3, L1D_MISS, 1),
    };
    static const Count counts[] = {{"store_evict", 2}, {"miss_inter", 1}}; /* evicted by warp 2's store */
    EXAMPLE(BASIC, script, counts);
}

TEST(sector_l1d_rejects_miss_path_components)
{
    Config c;
    char err[512] = "";
    config_init(&c);
    c.l1d.sector_bytes = 32;
    c.l1d.victim = 8;
    EXPECT(!policy_check_config(&c, err, sizeof err));
    EXPECT_CONTAINS(err, "l1d.sector_bytes: the miss-path component 'victim' holds whole lines");
}

/* ---- the L2 ------------------------------------------------------------------------------ */

typedef struct L2Rig {
    Config c;
    Stats st;
    MemPool pool;
    L2Slice s;
    uint64_t now;
} L2Rig;

/* One slice of 4 sets x 2 ways that looks requests up the cycle after they arrive. */
static void l2_rig(L2Rig *r, uint32_t sector_bytes)
{
    static const char *const opts[] = {"l2.n_sets=4",        "l2.assoc=2",      "l2.mshr_entries=16",
                                       "l2.mshr_max_merge=4", "l2.miss_queue=16", "l2.hit_lat=1",
                                       "mem.l2_lat=0"};
    char err[256];
    config_init(&r->c);
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        CHECK(config_apply_override_err(&r->c, opts[i], err, sizeof err));
    r->c.l2.sector_bytes = sector_bytes;
    stats_init(&r->st);
    mempool_init(&r->pool);
    l2_init(&r->s, 0, &r->c, &r->pool, &r->st);
    r->now = 0;
}

static void l2_rig_free(L2Rig *r)
{
    l2_free(&r->s);
    mempool_free(&r->pool);
    stats_free(&r->st);
}

/* An L1D request arrives: `segs` of the line at `line` (0: all of it), `bytes` of data. */
static MemReq *arrive(L2Rig *r, uint8_t kind, uint64_t line, uint32_t segs, uint32_t bytes)
{
    MemReq *q = mempool_get(&r->pool);
    q->kind = kind;
    q->addr = q->local_addr = line;
    q->sectors = segs;
    q->size_bytes = bytes;
    l2_push(&r->s, q, r->now);
    return q;
}

/* Tick the slice until its input is empty; returns the accesses served. */
static uint32_t serve_all(L2Rig *r)
{
    uint32_t n = 0;
    while (r->s.in.n)
        n += l2_tick(&r->s, ++r->now);
    return n;
}

/* The DRAM returns the oldest n reads bound to it (write-backs are dropped). */
static void dram_return(L2Rig *r, uint32_t n)
{
    while (n) {
        MemReq *f = memreq_queue_pop(&r->s.to_dram);
        CHECK(f);
        if (f->kind == MREQ_WRITEBACK) {
            mempool_put(&r->pool, f);
            continue;
        }
        l2_fill(&r->s, f, ++r->now);
        n--;
    }
}

/* The slice's counters so far, in one line: "access/hit/miss(sector_miss)/merge/write". */
static void expect_tally(const L2Rig *r, const char *want)
{
    char got[96];
    const L2Slice *s = &r->s;
    snprintf(got, sizeof got, "%llu/%llu/%llu(%llu)/%llu/%llu", (unsigned long long)s->access,
             (unsigned long long)s->hit, (unsigned long long)s->miss, (unsigned long long)s->sector_miss,
             (unsigned long long)s->merge, (unsigned long long)s->write);
    EXPECT_STR(got, want);
}

TEST(sector_l2_breaks_a_line_read_into_sector_accesses)
{
    L2Rig r;
    l2_rig(&r, 32);
    MemReq *q = arrive(&r, MREQ_READ, 0x4000, 0, 128); /* an unsectored L1D's line miss */
    EXPECT_EQ_U(r.s.in.n, 4);
    EXPECT_EQ_U(r.s.in_arrived, 0); /* all four still in the ROP delay */
    EXPECT_EQ_U(serve_all(&r), 4);
    EXPECT_EQ_U(r.s.in_arrived, 0);
    expect_tally(&r, "4/0/4(3)/0/0"); /* each sector fetched; the first allocated the line */
    uint32_t i = 0;
    for (const MemReq *f = r.s.to_dram.head; f; f = f->next, i++) {
        EXPECT_EQ_U(f->addr, 0x4000 + 32 * i);
        EXPECT_EQ_U(f->size_bytes, 32);
    }
    EXPECT_EQ_U(i, 4);
    dram_return(&r, 3);
    EXPECT_EQ_U(r.s.replies.n, 0); /* the reply waits for every sector */
    dram_return(&r, 1);
    ASSERT(r.s.replies.n == 1);
    EXPECT(r.s.replies.head == q && q->is_reply);
    EXPECT_EQ_U(q->size_bytes, 128);
    memreq_queue_pop(&r.s.replies);
    mempool_put(&r.pool, q);
    /* the same line again: four hits, and the sector accesses were recycled */
    q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    serve_all(&r);
    expect_tally(&r, "8/4/4(3)/0/0");
    EXPECT(r.s.replies.head == q && r.pool.in_use == 1);
    l2_rig_free(&r);

    /* a whole-line L2: one access, one fetch of the line */
    l2_rig(&r, 0);
    q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    EXPECT_EQ_U(serve_all(&r), 1);
    EXPECT_EQ_U(r.s.to_dram.head->size_bytes, 128);
    dram_return(&r, 1);
    expect_tally(&r, "1/0/1(0)/0/0");
    EXPECT(r.s.replies.head == q);
    l2_rig_free(&r);
}

/* mem.sector_replies (GPGPU-Sim 4.x): each sector access replies on its own, as soon as it is
 * served, with its sector; its request stays in the pool, unreplied, for the requester to count
 * down. Written sectors are acknowledged one by one, and each reply takes a place in the
 * slice's reply queue. */
TEST(sector_l2_replies_per_sector)
{
    L2Rig r;
    l2_rig(&r, 32);
    r.c.mem.sector_replies = true;
    l2_free(&r.s);
    stats_free(&r.st);
    stats_init(&r.st);
    l2_init(&r.s, 0, &r.c, &r.pool, &r.st);
    l2_copy_fill(&r.s, 0x4040, 0); /* sector 2 is in the L2 */
    MemReq *q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    EXPECT_EQ_U(serve_all(&r), 4);
    expect_tally(&r, "4/1/3(3)/0/0"); /* the line is there: three sector misses */
    ASSERT(r.s.replies.n == 1); /* the hit replies at once */
    const MemReq *p = r.s.replies.head;
    EXPECT(p != q && p->part && p->is_reply && p->kind == MREQ_READ);
    EXPECT_EQ_U(p->addr, 0x4040);
    EXPECT_EQ_U(p->sectors, 0x4);
    EXPECT_EQ_U(p->size_bytes, 32);
    EXPECT_EQ_U(p->token, q->pool_id);
    dram_return(&r, 3);
    ASSERT(r.s.replies.n == 4);
    uint32_t segs = 0;
    for (const MemReq *x = r.s.replies.head; x; x = x->next) {
        EXPECT(x->part && x->token == q->pool_id && x->size_bytes == 32);
        segs |= x->sectors;
    }
    EXPECT_EQ_U(segs, 0xf);
    EXPECT(!q->is_reply);
    EXPECT_EQ_U(q->subs_left, 4); /* the requester counts it down */
    while (r.s.replies.head)
        mempool_put(&r.pool, memreq_queue_pop(&r.s.replies));
    mempool_put(&r.pool, q);

    /* a write of two sectors: two acknowledgements; with room for one reply, the second sector
     * waits (a gathered reply would have needed one place) */
    r.s.reply_cap = 1;
    q = arrive(&r, MREQ_WRITE, 0x8000, 0x5, 64);
    EXPECT(l2_tick(&r.s, ++r.now));
    EXPECT(!l2_tick(&r.s, ++r.now)); /* the second sector is stuck */
    EXPECT_EQ_U(r.s.in.n, 1);
    EXPECT_EQ_U(r.s.stall_reply, 1);
    ASSERT(r.s.replies.n == 1);
    EXPECT(r.s.replies.head->part && r.s.replies.head->kind == MREQ_WRITE && r.s.replies.head->sectors == 0x1);
    mempool_put(&r.pool, memreq_queue_pop(&r.s.replies));
    EXPECT(l2_tick(&r.s, ++r.now));
    ASSERT(r.s.replies.n == 1);
    EXPECT_EQ_U(r.s.replies.head->sectors, 0x4);
    mempool_put(&r.pool, memreq_queue_pop(&r.s.replies));
    mempool_put(&r.pool, q);
    EXPECT_EQ_U(r.pool.in_use, 0);
    l2_rig_free(&r);
}

/* mem.copy_warms_l2: a copy's 32-byte chunks become valid, clean data without a lookup or a
 * fetch; a later read of them hits. A sectored slice gets just the sectors copied. */
TEST(sector_l2_copy_fill)
{
    L2Rig r;
    l2_rig(&r, 32);
    l2_copy_fill(&r.s, 0x4000, 0);
    l2_copy_fill(&r.s, 0x4020, 0);
    l2_copy_fill(&r.s, 0x4020, 0); /* again: nothing new */
    EXPECT_EQ_U(r.s.copy_fill, 2);
    expect_tally(&r, "0/0/0(0)/0/0");
    MemReq *q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    serve_all(&r);
    expect_tally(&r, "4/2/2(2)/0/0"); /* sectors 0 and 1 hit, 2 and 3 are sector misses */
    EXPECT_EQ_U(r.s.to_dram.n, 2);
    dram_return(&r, 2);
    EXPECT(r.s.replies.head == q);
    uint32_t way;
    uint32_t set = tags_set_of(&r.s.tags, 0x4000);
    ASSERT(tags_probe(&r.s.tags, 0x4000, set, &way) == TAGS_HIT);
    EXPECT_EQ_U(tags_line(&r.s.tags, set, way)->dirty, 0);
    memreq_queue_pop(&r.s.replies);
    mempool_put(&r.pool, q);
    l2_rig_free(&r);

    /* a whole-line slice: one chunk makes the line valid; a full set loses its LRU line, dirty
     * or not, without a write-back (GPGPU-Sim's copy engine) */
    l2_rig(&r, 0);
    q = arrive(&r, MREQ_WRITE, 0x0, 0, 128); /* line 0 of set 0, dirty */
    serve_all(&r);
    ASSERT(r.s.replies.n == 1); /* the write's acknowledgement */
    EXPECT(r.s.replies.head == q && q->is_reply && q->kind == MREQ_WRITE);
    memreq_queue_pop(&r.s.replies);
    mempool_put(&r.pool, q);
    l2_copy_fill(&r.s, 0x200, 0); /* set 0 (4 sets x 128 B) */
    l2_copy_fill(&r.s, 0x400, 0); /* set 0 again: line 0 goes */
    EXPECT_EQ_U(r.s.copy_fill, 2);
    EXPECT_EQ_U(r.s.writeback, 0);
    EXPECT_EQ_U(r.s.to_dram.n, 0);
    set = tags_set_of(&r.s.tags, 0x0);
    EXPECT_EQ_U(tags_probe(&r.s.tags, 0x0, set, &way), TAGS_MISS);
    EXPECT_EQ_U(tags_probe(&r.s.tags, 0x440, set, &way), TAGS_HIT);
    l2_rig_free(&r);
}

/* The input queue (mem.l2_in_queue) counts sector accesses past the ROP delay; the delay
 * itself holds any number. */
TEST(sector_l2_input_queue)
{
    L2Rig r;
    l2_rig(&r, 32);
    r.s.in_cap = 3;
    arrive(&r, MREQ_READ, 0x4000, 0, 128); /* four sector accesses, past the delay at cycle 1 */
    EXPECT(l2_can_accept(&r.s, 0));
    arrive(&r, MREQ_READ, 0x8000, 0, 128);
    EXPECT(l2_can_accept(&r.s, 0)); /* eight in the delay */
    EXPECT(!l2_can_accept(&r.s, 1));
    EXPECT_EQ_U(r.s.in_arrived, 8);
    for (uint64_t t = 1; t <= 5; t++)
        EXPECT(l2_tick(&r.s, t)); /* one access a cycle */
    EXPECT_EQ_U(r.s.in_arrived, 3);
    EXPECT(!l2_can_accept(&r.s, 6));
    EXPECT(l2_tick(&r.s, 6));
    EXPECT(l2_can_accept(&r.s, 7));
    while (r.s.in.n)
        l2_tick(&r.s, ++r.now + 7);
    EXPECT_EQ_U(r.s.in_arrived, 0);
    dram_return(&r, 8);
    while (r.s.replies.head)
        mempool_put(&r.pool, memreq_queue_pop(&r.s.replies));
    l2_rig_free(&r);
}

TEST(sector_l2_merges_sectors_in_flight)
{
    L2Rig r;
    l2_rig(&r, 32);
    MemReq *whole = arrive(&r, MREQ_READ, 0x8000, 0, 128);
    MemReq *third = arrive(&r, MREQ_READ, 0x8000, 0x4, 32); /* a sectored L1D's sector 2 */
    EXPECT_EQ_U(serve_all(&r), 5);
    expect_tally(&r, "5/0/4(3)/1/0");
    dram_return(&r, 3); /* sectors 0, 1 and 2: the second request is complete */
    ASSERT(r.s.replies.n == 1);
    EXPECT(r.s.replies.head == third && third->size_bytes == 32);
    dram_return(&r, 1);
    EXPECT(r.s.replies.tail == whole && r.s.to_dram.n == 0);
    l2_rig_free(&r);
}

TEST(sector_l2_writes_back_dirty_sectors_only)
{
    L2Rig r;
    l2_rig(&r, 32);
    /* writes of sectors 1 and 3: the first allocates the line (set 0) without a fetch */
    MemReq *w = arrive(&r, MREQ_WRITE, 0x0000, 0x2, 32);
    arrive(&r, MREQ_WRITE, 0x0000, 0x8, 32);
    arrive(&r, MREQ_READ, 0x0000, 0x2, 32);
    arrive(&r, MREQ_READ, 0x0000, 0x1, 32); /* sector 0 is fetched into the line */
    serve_all(&r);
    expect_tally(&r, "2/1/1(1)/0/2");
    EXPECT(r.s.replies.head == w && w->is_reply); /* acknowledged first, then the hit's reply */
    dram_return(&r, 1);
    /* two more lines of set 0: the second replaces the written line, writing back sectors 1
     * and 3, one request each (as GPGPU-Sim); sector 0, fetched and clean, is not written */
    arrive(&r, MREQ_READ, 0x0200, 0x1, 32);
    arrive(&r, MREQ_READ, 0x0400, 0x1, 32);
    serve_all(&r);
    EXPECT_EQ_U(r.s.writeback, 2);
    uint64_t wb_addr[2];
    uint32_t n_wb = 0;
    for (const MemReq *f = r.s.to_dram.head; f; f = f->next)
        if (f->kind == MREQ_WRITEBACK) {
            ASSERT(n_wb < 2);
            EXPECT_EQ_U(f->size_bytes, 32);
            wb_addr[n_wb++] = f->local_addr;
        }
    ASSERT(n_wb == 2);
    EXPECT_EQ_U(wb_addr[0], 0x0020);
    EXPECT_EQ_U(wb_addr[1], 0x0060);
    l2_rig_free(&r);
}

/* ---- the whole simulator ----------------------------------------------------------------- */

/* A stat's total from a text summary, or -1. */
static double stat_of(const char *summary, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(summary, key);
    return p ? atof(p + strlen(key)) : -1;
}

/* Each lane walks a line of its own (lanes 128 bytes apart: 32 lines per warp load), and reads
 * all of it over 32 iterations. */
static const char divergent_syn[] = "kernel divergent\n"
                                    "grid 30\n"
                                    "block 64\n"
                                    "array A 0x10000000 4\n"
                                    "loop j 32\n"
                                    "  load A[tid*32 + j]\n"
                                    "  alu 1 fmad\n"
                                    "end\n";

static void run_divergent(const char *opts, char *summary, size_t cap)
{
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/divergent.syn", test_tmpdir());
    FILE *f = fopen(path, "w");
    CHECK(f);
    fputs(divergent_syn, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run --quiet --stats /dev/stdout --preset gtx480 %s %s", test_warpsim(), opts, path);
    if (test_run_cmd(cmd, summary, cap) != 0)
        test_fail(__FILE__, __LINE__, summary);
}

TEST(sector_l2_accesses_per_l1d_miss)
{
    static char out[1 << 20];
    run_divergent("", out, sizeof out);
    double misses = stat_of(out, "sm.l1d.miss");
    EXPECT(misses >= 30 * 64); /* every line misses at least once */
    EXPECT_NEAR(stat_of(out, "l2.access") / misses, 1.0, 0.01);
    EXPECT_EQ_I(stat_of(out, "l2.sector_miss"), 0);
    /* a sectored L2 looks each of a line's four sectors up on its own */
    run_divergent("-o l2.sector_bytes=32", out, sizeof out);
    misses = stat_of(out, "sm.l1d.miss");
    EXPECT(misses >= 30 * 64);
    EXPECT_NEAR(stat_of(out, "l2.access") / misses, 4.0, 0.05);
    EXPECT(stat_of(out, "l2.sector_miss") >= 3 * 30 * 64);
    /* a sectored L1D too: it asks for the sector it needs, then the next ones as sector misses */
    run_divergent("-o l1d.sector_bytes=32 -o l2.sector_bytes=32", out, sizeof out);
    misses = stat_of(out, "sm.l1d.miss");
    EXPECT(misses >= 4 * 30 * 64);
    EXPECT(stat_of(out, "sm.l1d.sector_miss") >= 3 * 30 * 64);
    EXPECT_EQ_I(stat_of(out, "l2.access"), stat_of(out, "sm.l1d.sector_fetch"));
}

/* mem.sector_replies on the whole machine: a line comes back as four packets, and the L1D still
 * fills it once. A one-packet ejection buffer and response FIFO (icnt.ejection_buffer,
 * sm.response_fifo) hold replies back in the reply network; unbounded ones never do. */
TEST(sector_replies_on_the_reply_network)
{
    static char out[1 << 20];
    run_divergent("-o l2.sector_bytes=32", out, sizeof out);
    double misses = stat_of(out, "sm.l1d.miss");
    EXPECT(misses >= 30 * 64);
    EXPECT_EQ_I(stat_of(out, "icnt.reply_packets"), misses);
    EXPECT_EQ_I(stat_of(out, "icnt.reply_held"), 0);
    run_divergent("-o l2.sector_bytes=32 -o mem.sector_replies=true", out, sizeof out);
    misses = stat_of(out, "sm.l1d.miss");
    EXPECT_EQ_I(stat_of(out, "icnt.reply_packets"), 4 * misses);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.fill"), misses);
    EXPECT_EQ_I(stat_of(out, "icnt.reply_held"), 0);
    /* a whole-line L2 has no sectors to reply with */
    run_divergent("-o mem.sector_replies=true", out, sizeof out);
    EXPECT_EQ_I(stat_of(out, "icnt.reply_packets"), stat_of(out, "sm.l1d.miss"));
    /* an interconnect twice as fast as the SMs delivers two replies a core cycle; the SM takes one */
    const char *fast = "-o l2.sector_bytes=32 -o mem.sector_replies=true -o gpu.icnt_mhz=1400 -o icnt.flit_bytes=64";
    char opts[512];
    run_divergent(fast, out, sizeof out);
    EXPECT_EQ_I(stat_of(out, "icnt.reply_held"), 0);
    snprintf(opts, sizeof opts, "%s -o icnt.ejection_buffer=1 -o sm.response_fifo=1", fast);
    run_divergent(opts, out, sizeof out);
    misses = stat_of(out, "sm.l1d.miss");
    EXPECT_EQ_I(stat_of(out, "icnt.reply_packets"), 4 * misses);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.fill"), misses);
    EXPECT(stat_of(out, "icnt.reply_held") > 0);
}
