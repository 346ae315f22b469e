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

/* A load by warp `token` of the 32-byte segments `segs` of the line at byte address `line`. */
static L1dResult load(L1Rig *r, uint64_t line, uint32_t segs, uint32_t token, uint64_t now, uint32_t *out)
{
    ReplAccess a = {.warp_uid = token, .sectors = segs};
    return l1d_load(&r->l1, line, token, &a, now, out);
}

/* The mock L2 answers the oldest request of the miss queue; returns the tokens woken. */
static int answer_next(L1Rig *r, uint32_t *tokens, uint64_t now)
{
    MemReq *q = memreq_queue_pop(&r->l1.miss_q);
    CHECK(q && q->kind == MREQ_READ);
    q->is_reply = true;
    return l1d_fill(&r->l1, q, tokens, now);
}

/* The sectors of the line at `line` that hold data (valid) or are being fetched (pending);
 * UINT32_MAX when the line is not in the cache. */
static uint32_t line_sectors(const L1Rig *r, uint64_t line, bool pending)
{
    uint32_t set = tags_set_of(&r->l1.tags, line), way;
    if (tags_probe(&r->l1.tags, line, set, &way) == TAGS_MISS)
        return UINT32_MAX;
    const TagSectors *s = tags_sectors(&r->l1.tags, set, way);
    return pending ? s->pending : s->valid;
}

TEST(sector_l1d_hit_line_miss_sector_miss)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 8, 4);
    uint32_t out = 0, tok[64];
    /* line miss: the line is allocated and only the sector the access needs is fetched */
    EXPECT_EQ_U(load(&r, 0x1000, 0x1, 1, 0, &out), L1D_MISS);
    EXPECT_EQ_U(out, 1);
    const MemReq *q = r.l1.miss_q.head;
    ASSERT(q);
    EXPECT_EQ_U(q->addr, 0x1000);
    EXPECT_EQ_U(q->sectors, 0x1);
    EXPECT_EQ_U(q->size_bytes, 32);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, true), 0x1);
    EXPECT_EQ_I(answer_next(&r, tok, 5), 1);
    EXPECT_EQ_U(tok[0], 1);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, false), 0x1);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, true), 0);
    /* hit: every sector needed is valid */
    EXPECT_EQ_U(load(&r, 0x1000, 0x1, 2, 6, &out), L1D_HIT);
    EXPECT_EQ_U(out, r.c.l1d.hit_lat);
    /* sector miss: sectors 0 and 3 needed, 3 is fetched into the line, which stays */
    EXPECT_EQ_U(load(&r, 0x1000, 0x9, 3, 7, &out), L1D_MISS);
    EXPECT_EQ_U(out, 1);
    ASSERT(r.l1.miss_q.head);
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x8);
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 32);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, false), 0x1);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, true), 0x8);
    /* a valid sector of a line waiting for another still hits */
    EXPECT_EQ_U(load(&r, 0x1000, 0x1, 4, 8, &out), L1D_HIT);
    EXPECT_EQ_I(answer_next(&r, tok, 20), 1);
    EXPECT_EQ_U(tok[0], 3);
    EXPECT_EQ_U(line_sectors(&r, 0x1000, false), 0x9);
    EXPECT_EQ_U(load(&r, 0x1000, 0x9, 5, 21, &out), L1D_HIT);
    EXPECT_EQ_U(r.l1.access, 5);
    EXPECT_EQ_U(r.l1.hit, 3);
    EXPECT_EQ_U(r.l1.miss, 2);
    EXPECT_EQ_U(r.l1.sector_miss, 1);
    EXPECT_EQ_U(r.l1.miss_cold, 1); /* the line miss only */
    EXPECT_EQ_U(r.l1.sector_hit, 5);
    EXPECT_EQ_U(r.l1.sector_fetch, 2);
    EXPECT_EQ_U(r.l1.fill, 2);
    l1_rig_free(&r);
}

TEST(sector_l1d_partial_line_fill)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 8, 4);
    uint32_t out = 0, tok[64];
    /* sectors 1 and 2: one request for both */
    EXPECT_EQ_U(load(&r, 0x2000, 0x6, 1, 0, &out), L1D_MISS);
    EXPECT_EQ_U(out, 2); /* the token comes back once per sector */
    ASSERT(r.l1.miss_q.n == 1);
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x6);
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 64);
    EXPECT_EQ_U(mshr_in_use(&r.l1.mshr), 2);
    EXPECT_EQ_I(answer_next(&r, tok, 5), 2);
    EXPECT_EQ_U(mshr_in_use(&r.l1.mshr), 0);
    EXPECT_EQ_U(line_sectors(&r, 0x2000, false), 0x6);
    EXPECT_EQ_U(load(&r, 0x2000, 0x2, 2, 6, &out), L1D_HIT);
    EXPECT_EQ_U(load(&r, 0x2000, 0x7, 3, 7, &out), L1D_MISS); /* sector 0 missing */
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x1);
    EXPECT_EQ_U(r.l1.sector_miss, 1);
    EXPECT_EQ_I(answer_next(&r, tok, 8), 1);
    EXPECT_EQ_U(line_sectors(&r, 0x2000, false), 0x7);
    l1_rig_free(&r);

    /* 64-byte sectors: a segment's access fetches its whole sector */
    l1_rig(&r, 64, CACHE_ALLOC_MISS, 2, 8, 4);
    EXPECT_EQ_U(load(&r, 0x3000, 0x4, 1, 0, &out), L1D_MISS); /* bytes 64..95: sector 1 */
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0xC);
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 64);
    EXPECT_EQ_I(answer_next(&r, tok, 5), 1);
    EXPECT_EQ_U(line_sectors(&r, 0x3000, false), 0x2);
    EXPECT_EQ_U(load(&r, 0x3000, 0x8, 2, 6, &out), L1D_HIT); /* bytes 96..127: the same sector */
    l1_rig_free(&r);
}

TEST(sector_l1d_merges_other_sectors_of_a_line_in_flight)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 8, 2);
    uint32_t out = 0, tok[64];
    EXPECT_EQ_U(load(&r, 0x4000, 0x1, 1, 0, &out), L1D_MISS);
    /* sectors 0 and 1: 0 is in flight (merge), 1 is a new sector request of the reserved line */
    EXPECT_EQ_U(load(&r, 0x4000, 0x3, 2, 1, &out), L1D_MISS);
    EXPECT_EQ_U(out, 2);
    EXPECT_EQ_U(r.l1.miss_q.n, 2);
    EXPECT_EQ_U(r.l1.miss_q.tail->sectors, 0x2);
    EXPECT_EQ_U(mshr_in_use(&r.l1.mshr), 2); /* one entry per sector */
    EXPECT_EQ_U(r.l1.sector_miss, 1);
    EXPECT_EQ_U(r.l1.sector_merge, 1);
    /* sector 0's entry holds two waiters already (l1d.mshr_max_merge = 2) */
    EXPECT_EQ_U(load(&r, 0x4000, 0x1, 3, 2, &out), L1D_FAIL_MERGE);
    EXPECT_EQ_U(load(&r, 0x4000, 0x3, 3, 2, &out), L1D_FAIL_MERGE); /* all or nothing */
    EXPECT_EQ_U(load(&r, 0x4000, 0x2, 4, 3, &out), L1D_MERGED);
    EXPECT_EQ_U(out, 1);
    EXPECT_EQ_U(r.l1.fail_merge, 2);
    EXPECT_EQ_U(r.l1.merge, 1);
    EXPECT_EQ_U(r.l1.miss, 2);
    EXPECT_EQ_U(r.l1.miss_q.n, 2); /* a merge sends nothing */
    /* sector 1's reply comes first: its waiters 2 and 4; then sector 0's: 1 and 2 */
    MemReq *first = memreq_queue_pop(&r.l1.miss_q);
    memreq_queue_push(&r.l1.miss_q, first);
    EXPECT_EQ_I(answer_next(&r, tok, 10), 2);
    EXPECT_EQ_U(tok[0], 2);
    EXPECT_EQ_U(tok[1], 4);
    EXPECT_EQ_U(line_sectors(&r, 0x4000, false), 0x2);
    EXPECT_EQ_U(line_sectors(&r, 0x4000, true), 0x1);
    EXPECT_EQ_I(answer_next(&r, tok, 11), 2);
    EXPECT_EQ_U(tok[0], 1);
    EXPECT_EQ_U(tok[1], 2);
    EXPECT_EQ_U(line_sectors(&r, 0x4000, false), 0x3);
    EXPECT_EQ_U(mshr_in_use(&r.l1.mshr), 0);
    l1_rig_free(&r);
}

TEST(sector_l1d_mshr_entry_per_sector)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 3, 4);
    uint32_t out = 0;
    EXPECT_EQ_U(load(&r, 0x5000, 0xF, 1, 0, &out), L1D_FAIL_MSHR); /* four sectors, three entries */
    EXPECT_EQ_U(line_sectors(&r, 0x5000, false), UINT32_MAX);     /* nothing was allocated */
    EXPECT_EQ_U(load(&r, 0x5000, 0x7, 1, 1, &out), L1D_MISS);
    EXPECT_EQ_U(r.l1.miss_q.head->size_bytes, 96);
    EXPECT_EQ_U(load(&r, 0x5080, 0x1, 2, 2, &out), L1D_FAIL_MSHR);
    EXPECT_EQ_U(r.l1.fail_mshr, 2);
    l1_rig_free(&r);
}

TEST(sector_l1d_sector_miss_touches_its_line)
{
    /* one set of two ways under LRU: a sector miss uses its line (GPGPU-Sim's allocate_sector
     * updates the line's access time), so the next line miss replaces the other line */
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 8, 4);
    uint32_t out = 0, tok[64];
    EXPECT_EQ_U(load(&r, 0x0000, 0x1, 1, 0, &out), L1D_MISS);
    EXPECT_EQ_U(load(&r, 0x0080, 0x1, 2, 1, &out), L1D_MISS);
    answer_next(&r, tok, 5);
    answer_next(&r, tok, 6);
    EXPECT_EQ_U(load(&r, 0x0000, 0x2, 3, 7, &out), L1D_MISS); /* sector miss of the older line */
    answer_next(&r, tok, 8);
    EXPECT_EQ_U(load(&r, 0x0100, 0x1, 4, 9, &out), L1D_MISS); /* a third line */
    EXPECT_EQ_U(line_sectors(&r, 0x0000, false), 0x3);
    EXPECT_EQ_U(line_sectors(&r, 0x0080, false), UINT32_MAX);
    /* while a sector is being fetched the line is reserved: not a victim */
    answer_next(&r, tok, 10);
    EXPECT_EQ_U(load(&r, 0x0100, 0x2, 5, 11, &out), L1D_MISS); /* line 0x100 reserved again */
    EXPECT_EQ_U(load(&r, 0x0000, 0x4, 6, 12, &out), L1D_MISS); /* line 0 reserved too */
    EXPECT_EQ_U(load(&r, 0x0180, 0x1, 7, 13, &out), L1D_FAIL_LINE);
    l1_rig_free(&r);
}

TEST(sector_l1d_allocate_on_fill)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_FILL, 2, 8, 4);
    uint32_t out = 0, tok[64];
    EXPECT_EQ_U(load(&r, 0x6000, 0x1, 1, 0, &out), L1D_MISS);
    EXPECT_EQ_U(line_sectors(&r, 0x6000, false), UINT32_MAX); /* nothing reserved at the miss */
    EXPECT_EQ_U(load(&r, 0x6000, 0x2, 2, 1, &out), L1D_MISS);  /* still a line miss */
    EXPECT_EQ_U(r.l1.sector_miss, 0);
    EXPECT_EQ_I(answer_next(&r, tok, 5), 1); /* the line is placed with sector 0 */
    EXPECT_EQ_U(line_sectors(&r, 0x6000, false), 0x1);
    EXPECT_EQ_I(answer_next(&r, tok, 6), 1); /* sector 1 joins it, no second way */
    EXPECT_EQ_U(line_sectors(&r, 0x6000, false), 0x3);
    EXPECT_EQ_U(tags_line(&r.l1.tags, 0, 1)->state, LINE_INVALID);
    EXPECT_EQ_U(load(&r, 0x6000, 0x4, 3, 7, &out), L1D_MISS); /* now a sector miss */
    EXPECT_EQ_U(r.l1.sector_miss, 1);
    EXPECT_EQ_U(line_sectors(&r, 0x6000, true), 0);
    EXPECT_EQ_I(answer_next(&r, tok, 8), 1);
    EXPECT_EQ_U(line_sectors(&r, 0x6000, false), 0x7);
    l1_rig_free(&r);
}

TEST(sector_l1d_store_drops_written_sectors)
{
    L1Rig r;
    l1_rig(&r, 32, CACHE_ALLOC_MISS, 2, 8, 4);
    uint32_t out = 0, tok[64];
    EXPECT_EQ_U(load(&r, 0x7000, 0x3, 1, 0, &out), L1D_MISS);
    answer_next(&r, tok, 5);
    ReplAccess st = {.warp_uid = 2, .sectors = 0x2, .is_write = true};
    EXPECT_EQ_U(l1d_store(&r.l1, 0x7000, 32, &st, 6), L1D_SENT);
    EXPECT_EQ_U(line_sectors(&r, 0x7000, false), 0x1); /* the line keeps sector 0 */
    EXPECT_EQ_U(r.l1.miss_q.head->sectors, 0x2);
    st.sectors = 0x5; /* writes sector 0, the last valid one, and sector 2: the line goes */
    EXPECT_EQ_U(l1d_store(&r.l1, 0x7000, 64, &st, 7), L1D_SENT);
    EXPECT_EQ_U(line_sectors(&r, 0x7000, false), UINT32_MAX);
    EXPECT_EQ_U(r.l1.store_hit_evict, 2);
    EXPECT_EQ_U(load(&r, 0x7000, 0x1, 3, 8, &out), L1D_MISS);
    EXPECT_EQ_U(r.l1.miss_intra + r.l1.miss_inter, 1); /* the store's eviction was recorded */
    l1_rig_free(&r);
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
    config_init(&r->c);
    r->c.l2.sector_bytes = sector_bytes;
    r->c.l2.n_sets = 4;
    r->c.l2.assoc = 2;
    r->c.l2.mshr_entries = 16;
    r->c.l2.mshr_max_merge = 4;
    r->c.l2.miss_queue = 16;
    r->c.l2.hit_lat = 1;
    r->c.mem.l2_lat = 0;
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

TEST(sector_l2_breaks_a_line_read_into_sector_accesses)
{
    L2Rig r;
    l2_rig(&r, 32);
    MemReq *q = arrive(&r, MREQ_READ, 0x4000, 0, 128); /* an unsectored L1D's line miss */
    EXPECT_EQ_U(r.s.in.n, 4);
    EXPECT_EQ_U(r.s.in_reqs, 1); /* the input buffer counts requests */
    EXPECT_EQ_U(serve_all(&r), 4);
    EXPECT_EQ_U(r.s.in_reqs, 0);
    EXPECT_EQ_U(r.s.access, 4);
    EXPECT_EQ_U(r.s.miss, 4);        /* each sector fetched */
    EXPECT_EQ_U(r.s.sector_miss, 3); /* the first allocated the line */
    EXPECT_EQ_U(r.s.to_dram.n, 4);
    uint32_t i = 0;
    for (const MemReq *f = r.s.to_dram.head; f; f = f->next, i++) {
        EXPECT_EQ_U(f->addr, 0x4000 + 32 * i);
        EXPECT_EQ_U(f->size_bytes, 32);
    }
    dram_return(&r, 3);
    EXPECT_EQ_U(r.s.replies.n, 0); /* the reply waits for every sector */
    dram_return(&r, 1);
    ASSERT(r.s.replies.n == 1);
    EXPECT(r.s.replies.head == q && q->is_reply);
    EXPECT_EQ_U(q->size_bytes, 128);
    memreq_queue_pop(&r.s.replies);
    mempool_put(&r.pool, q);
    /* the same line again: four hits */
    q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    serve_all(&r);
    EXPECT_EQ_U(r.s.hit, 4);
    EXPECT(r.s.replies.head == q);
    EXPECT_EQ_U(r.pool.in_use, 1); /* the sector accesses were recycled */
    l2_rig_free(&r);

    /* a whole-line L2: one access, one fetch of the line */
    l2_rig(&r, 0);
    q = arrive(&r, MREQ_READ, 0x4000, 0, 128);
    EXPECT_EQ_U(serve_all(&r), 1);
    EXPECT_EQ_U(r.s.access, 1);
    EXPECT_EQ_U(r.s.to_dram.head->size_bytes, 128);
    dram_return(&r, 1);
    EXPECT(r.s.replies.head == q);
    l2_rig_free(&r);
}

TEST(sector_l2_merges_sectors_in_flight)
{
    L2Rig r;
    l2_rig(&r, 32);
    MemReq *a = arrive(&r, MREQ_READ, 0x8000, 0, 128);
    MemReq *b = arrive(&r, MREQ_READ, 0x8000, 0x4, 32); /* a sectored L1D's sector 2 */
    EXPECT_EQ_U(serve_all(&r), 5);
    EXPECT_EQ_U(r.s.miss, 4);
    EXPECT_EQ_U(r.s.merge, 1);
    EXPECT_EQ_U(r.s.to_dram.n, 4);
    dram_return(&r, 3); /* sectors 0, 1, 2: b is complete */
    ASSERT(r.s.replies.n == 1);
    EXPECT(r.s.replies.head == b);
    EXPECT_EQ_U(b->size_bytes, 32);
    dram_return(&r, 1);
    EXPECT(r.s.replies.tail == a);
    l2_rig_free(&r);
}

TEST(sector_l2_writes_back_dirty_sectors_only)
{
    L2Rig r;
    l2_rig(&r, 32);
    arrive(&r, MREQ_WRITE, 0x0000, 0x2, 32); /* set 0 */
    EXPECT_EQ_U(serve_all(&r), 1);
    EXPECT_EQ_U(r.s.write, 1);
    EXPECT_EQ_U(r.s.to_dram.n, 0); /* write-allocate, no fetch */
    arrive(&r, MREQ_READ, 0x0000, 0x2, 32);
    serve_all(&r);
    EXPECT_EQ_U(r.s.hit, 1); /* the written sector is valid */
    arrive(&r, MREQ_READ, 0x0000, 0x1, 32);
    serve_all(&r);
    EXPECT_EQ_U(r.s.sector_miss, 1);
    dram_return(&r, 1);
    /* two more lines of set 0: the second replaces the written line */
    arrive(&r, MREQ_READ, 0x0200, 0x1, 32);
    arrive(&r, MREQ_READ, 0x0400, 0x1, 32);
    serve_all(&r);
    EXPECT_EQ_U(r.s.writeback, 1);
    const MemReq *wb = NULL;
    for (const MemReq *f = r.s.to_dram.head; f; f = f->next)
        if (f->kind == MREQ_WRITEBACK)
            wb = f;
    ASSERT(wb);
    EXPECT_EQ_U(wb->local_addr, 0x0000);
    EXPECT_EQ_U(wb->size_bytes, 32); /* sector 1 only */
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
