/* l2.c: one L2 slice (see l2.h). Thesis Table 3.1: 768 KB, 128 B lines, 16-way, min L2 latency
 * 120 cycles; GPGPU-Sim 3.x L2 semantics (write-back, allocate on miss), and GPGPU-Sim 4.x's
 * sectored L2 (per-sector accesses, MSHR entries and fetches) when l2.sector_bytes is set. */
#include "mem/l2.h"

#include "base/base.h"
#include "mem/addrdec.h"

#include <stdlib.h>
#include <string.h>

void l2_init(L2Slice *s, uint32_t id, const Config *cfg, MemPool *pool, Stats *st)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->rop_lat = cfg->mem.l2_lat + cfg->l2.hit_lat;
    s->in_cap = cfg->mem.l2_in_queue;
    s->miss_queue_cap = cfg->l2.miss_queue;
    s->reply_cap = cfg->mem.l2_out_queue;
    s->pool = pool;
    s->rop_due = s->try_at = UINT64_MAX;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "l2[%u]", id);
    tags_init(&s->tags, &cfg->l2, cfg, "l2", st, prefix, id);
    s->sector_replies = cfg->mem.sector_replies && tags_sectored(&s->tags);
    mshr_init(&s->mshr, cfg->l2.mshr_entries, cfg->l2.mshr_max_merge);
    s->fetch_way = xcalloc(cfg->l2.mshr_entries, sizeof *s->fetch_way); /* assoc <= 64 (tags.c) */
    stats_counter(st, &s->access, "l2[%u].access", "L2 reads and atomics looked up (a sectored L2: one per sector)",
                  id);
    stats_counter(st, &s->hit, "l2[%u].hit", "L2 reads and atomics that hit", id);
    stats_counter(st, &s->miss, "l2[%u].miss", "L2 reads and atomics that missed (a DRAM fetch)", id);
    stats_counter(st, &s->sector_miss, "l2[%u].sector_miss",
                  "sectored L2: misses whose line was present but not the sector (GPGPU-Sim's SECTOR_MISS; part of "
                  "miss)",
                  id);
    stats_counter(st, &s->merge, "l2[%u].merge", "L2 reads merged into a fetch in flight", id);
    stats_counter(st, &s->write, "l2[%u].write", "L2 writes (a sectored L2: one per sector)", id);
    stats_counter(st, &s->writeback, "l2[%u].writeback", "write-backs to DRAM: dirty lines (a sectored L2: dirty sectors)", id);
    stats_counter(st, &s->stall, "l2[%u].stall", "L2 cycles the head request could not be served", id);
    stats_counter(st, &s->stall_reply, "l2[%u].stall_reply", "... because the reply queue was full", id);
    stats_counter(st, &s->stall_merge, "l2[%u].stall_merge", "... because its line's MSHR entry had no merge room", id);
    stats_counter(st, &s->stall_mshr, "l2[%u].stall_mshr", "... because no MSHR entry was free", id);
    stats_counter(st, &s->stall_queue, "l2[%u].stall_queue", "... because the DRAM-bound queue was full", id);
    stats_counter(st, &s->stall_line, "l2[%u].stall_line", "... because every way of the set was reserved", id);
    stats_counter(st, &s->copy_fill, "l2[%u].copy_fill",
                  "lines (a sectored L2: sectors) host-device copies made valid (mem.copy_warms_l2)", id);
}

void l2_free(L2Slice *s)
{
    tags_free(&s->tags);
    mshr_free_all(&s->mshr);
    free(s->fetch_way);
}

static inline uint32_t l2_set_of(const L2Slice *s, uint64_t local_addr)
{
    return tags_set_of(&s->tags, addrdec_drop_bits(local_addr, s->index_drop));
}

void l2_rop_advance(L2Slice *s, uint64_t now)
{
    MemReq *r = s->rop_next;
    for (; r && r->ready <= now; r = r->next)
        s->in_arrived++;
    s->rop_next = r;
    s->rop_due = r ? r->ready : UINT64_MAX;
}

/* r, an access to `set`, joins `in` behind every other request, in its ROP delay. */
static void in_append(L2Slice *s, MemReq *r, uint32_t set)
{
    r->l2_set = set; /* found once, not at each try */
    memreq_queue_push(&s->in, r);
    if (s->in.head == r) /* not asleep: a sleeping slice has a head */
        s->try_at = r->ready;
    if (!s->rop_next) {
        s->rop_next = r;
        s->rop_due = r->ready;
    }
}

/* A sectored slice takes a request as one access per sector it covers, in sector order. (Not
 * inlined, like l2_tick: in the GPU's cycle loop the sectored code changed the code of the
 * loop around it, 1.5% more instructions for whole-line caches.) */
__attribute__((noinline)) static void push_sectors(L2Slice *s, MemReq *r)
{
    const Tags *t = &s->tags;
    uint32_t sectors = tags_sectors_of_segments(t, r->sectors);
    uint64_t line_mask = ~(uint64_t)(t->line_bytes - 1);
    /* the set index uses no bit below the line's (nor does index_drop move one up into it) */
    uint32_t set = l2_set_of(s, r->local_addr), segs0 = tags_segments_of_sectors(t, 1);
    MemReq *q = NULL;
    r->subs_left = (uint8_t)popcount_u32(sectors);
    for (; sectors; sectors &= sectors - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(sectors);
        uint64_t off = (uint64_t)i << t->sector_bits;
        q = mempool_get(s->pool);
        q->kind = r->kind;
        q->inst = r->inst;
        q->sm = r->sm;
        q->addr = (r->addr & line_mask) + off;
        q->local_addr = (r->local_addr & line_mask) + off;
        q->size_bytes = t->sector_bytes;
        q->sectors = segs0 << (i * t->segs_per_sector);
        q->slice = s->id;
        q->token = r->pool_id; /* its request */
        q->ready = r->ready;
        q->issued = r->issued;
        in_append(s, q, set);
    }
}

void l2_push(L2Slice *s, MemReq *r, uint64_t now)
{
    r->ready = now + s->rop_lat;
    if (tags_sectored(&s->tags))
        push_sectors(s, r);
    else
        in_append(s, r, l2_set_of(s, r->local_addr));
}

uint64_t l2_next_event(const L2Slice *s)
{
    return s->in.head ? s->in.head->ready : UINT64_MAX;
}

/* The victim (a copy) of (set, way) is written back if dirty: the whole line, or in a
 * sectored slice each dirty sector as a request of its own, as GPGPU-Sim writes them back. A
 * miss reserves room for one write-back (can_miss); the queue drains into the DRAM's latency
 * line every L2 cycle, so a sectored line's other sectors only overfill it until then. */
static void queue_writeback(L2Slice *s, uint32_t set, uint32_t way, const TagLine *victim)
{
    if (victim->state != LINE_VALID || !victim->dirty)
        return;
    const Tags *t = &s->tags;
    uint64_t line = victim->line_addr << t->line_bits;
    uint32_t dirty = tags_sectored(t) ? tags_sectors(t, set, way)->dirty : 1;
    for (; dirty; dirty &= dirty - 1) {
        MemReq *wb = mempool_get(s->pool);
        wb->kind = MREQ_WRITEBACK;
        wb->local_addr = line + (tags_sectored(t) ? (uint64_t)__builtin_ctz(dirty) << t->sector_bits : 0);
        wb->size_bytes = tags_sectored(t) ? t->sector_bytes : t->line_bytes;
        wb->slice = s->id;
        memreq_queue_push(&s->to_dram, wb);
        s->writeback++;
    }
}

/* Reads reply with the bytes they asked for (the line, or a sectored L1D's sectors); atomics
 * with the line; writes with an acknowledgement (a header only, gpu.c). A sector access that
 * replies on its own carries its sector. */
static void reply(L2Slice *s, MemReq *r)
{
    r->is_reply = true;
    if (r->kind == MREQ_ATOMIC && !r->part)
        r->size_bytes = s->tags.line_bytes;
    memreq_queue_push(&s->replies, r);
    if (s->replies_total)
        ++*s->replies_total;
}

/* A miss needs a free MSHR entry (reads) and room for its DRAM-bound requests. */
static bool can_miss(L2Slice *s, bool needs_mshr, uint32_t to_dram)
{
    if (needs_mshr && mshr_full(&s->mshr)) {
        s->stall_mshr++;
        s->stall_why = &s->stall_mshr;
        return false;
    }
    if (s->to_dram.n + to_dram > s->miss_queue_cap) {
        s->stall_queue++;
        s->stall_why = &s->stall_queue;
        return false;
    }
    return true;
}

/* Allocate a line for local_addr in `set` (a dirty victim is written back); -1 when every way
 * is reserved or the policy said stall: wait for a fill. The L2 has no bypass path, so
 * REPL_BYPASS waits too. (Forced inline, which gcc declines: its call cost about as much as
 * the usual wait, a set with every way reserved.) */
__attribute__((always_inline)) static inline int place_line(L2Slice *s, uint32_t set, ReplAccess *a, uint64_t local_addr, uint8_t state, uint64_t now)
{
    TagLine victim;
    int w = tags_choose_victim(&s->tags, set, a, &victim);
    if (w < 0) {
        s->stall_line++;
        /* every way reserved: only a fill frees one (the policy was not asked) */
        s->stall_why = tags_set_reserved(&s->tags, set) ? &s->stall_line : NULL;
        s->stall_set = set;
        return -1;
    }
    queue_writeback(s, set, (uint32_t)w, &victim);
    if (victim.state == LINE_VALID)
        tags_evict(&s->tags, set, (uint32_t)w, a->warp_uid, now, false);
    a->way = (uint32_t)w; /* the record names its line: the policy hears it as it is */
    tags_install(&s->tags, set, (uint32_t)w, local_addr, state, a);
    return w;
}

/* r waits in the MSHR entry `key` of its line (or sector) in flight; false if the entry is full. */
static bool merge_miss(L2Slice *s, uint64_t key, MemReq *r)
{
    int e = mshr_find(&s->mshr, key);
    CHECK(e >= 0);
    if (!mshr_can_merge(&s->mshr, e)) {
        s->stall_merge++;
        s->stall_why = &s->stall_merge;
        return false;
    }
    mshr_merge(&s->mshr, e, r->pool_id);
    s->access++;
    s->merge++;
    return true;
}

/* r missed: it waits in a new MSHR entry `key` and `bytes` at addr are fetched from DRAM into
 * the line reserved in `way`. The fetch carries its entry (token), and the entry its way, so
 * that the fill looks neither up. */
static inline void fetch(L2Slice *s, uint64_t key, MemReq *r, uint32_t way, uint64_t addr, uint64_t local_addr, uint32_t bytes)
{
    int e = mshr_alloc(&s->mshr, key, r->pool_id);
    s->fetch_way[e] = (uint8_t)way;
    MemReq *f = mempool_get(s->pool);
    f->kind = MREQ_READ;
    f->addr = addr;
    f->local_addr = local_addr;
    f->size_bytes = bytes;
    f->sectors = r->sectors;
    f->slice = s->id;
    f->token = (uint32_t)e;
    f->l2_set = r->l2_set; /* its line's (as in push_sectors), where its fill goes */
    memreq_queue_push(&s->to_dram, f);
    s->access++;
    s->miss++;
}

/* Serving r now would send a reply (a whole request, a sector access replying on its own, or
 * one that is its request's last) while the reply queue is full: it must wait. */
static bool reply_blocked(L2Slice *s, const MemReq *r)
{
    bool completes = !tags_sectored(&s->tags) || s->sector_replies || mempool_at(s->pool, r->token)->subs_left == 1;
    if (!completes || s->replies.n < s->reply_cap)
        return false;
    s->stall_reply++;
    s->stall_why = &s->stall_reply;
    return true;
}

/* A sector access q is done: it replies on its own (mem.sector_replies; its request stays in
 * the pool for the requester to count down), or it is recycled and its request replies when it
 * was the last. */
static void sector_done(L2Slice *s, MemReq *q)
{
    if (s->sector_replies) {
        q->part = true;
        reply(s, q);
        return;
    }
    MemReq *r = mempool_at(s->pool, q->token);
    mempool_put(s->pool, q);
    CHECK(r->subs_left > 0);
    if (--r->subs_left)
        return;
    reply(s, r);
}

/* Serve a read or atomic; false if it must wait. */
static bool serve_read(L2Slice *s, MemReq *r, uint32_t set, uint64_t now)
{
    ReplAccess a = {.line_addr = tags_line_addr(&s->tags, r->local_addr), .set = set, .warp_id = r->sm, .cycle = now};
    uint32_t way;
    switch (tags_probe(&s->tags, r->local_addr, set, &way)) {
    case TAGS_HIT:
        if (reply_blocked(s, r))
            return false;
        a.way = way;
        tags_hit(&s->tags, &a);
        if (r->kind == MREQ_ATOMIC)
            tags_line(&s->tags, set, way)->dirty = 1;
        s->access++;
        s->hit++;
        reply(s, r);
        return true;
    case TAGS_HIT_RESERVED:
        return merge_miss(s, tags_line_addr(&s->tags, r->local_addr), r);
    case TAGS_MISS:
        break;
    }
    int w = can_miss(s, true, 2) ? place_line(s, set, &a, r->local_addr, LINE_RESERVED, now) : -1;
    if (w < 0)
        return false;
    uint64_t line_mask = ~(uint64_t)(s->tags.line_bytes - 1);
    fetch(s, tags_line_addr(&s->tags, r->local_addr), r, (uint32_t)w, r->addr & line_mask, r->local_addr & line_mask,
          s->tags.line_bytes);
    return true;
}

/* Write-back, write-allocate without a fetch: a whole-line L2 treats the line as written; a
 * sectored one's sector access makes its sector valid and dirty. The write is acknowledged. */
static bool serve_write(L2Slice *s, MemReq *r, uint32_t set, uint64_t now)
{
    ReplAccess a = {.line_addr = tags_line_addr(&s->tags, r->local_addr), .set = set, .warp_id = r->sm, .cycle = now,
                    .is_write = true};
    uint32_t way;
    if (reply_blocked(s, r))
        return false;
    TagsProbe p = tags_probe(&s->tags, r->local_addr, set, &way);
    if (p == TAGS_MISS) {
        int w = can_miss(s, false, 1) ? place_line(s, set, &a, r->local_addr, LINE_VALID, now) : -1;
        if (w < 0)
            return false;
        way = (uint32_t)w;
    } else {
        a.way = way;
        tags_hit(&s->tags, &a);
    }
    s->write++;
    if (tags_sectored(&s->tags)) {
        tags_write_sectors(&s->tags, set, way, 1u << tags_sector_of(&s->tags, r->local_addr));
        sector_done(s, r);
        return true;
    }
    tags_line(&s->tags, set, way)->dirty = 1; /* a reserved line keeps the flag through its fill */
    reply(s, r);
    return true;
}

/* ---- sector accesses of a sectored slice ----------------------------------------------------- */

/* One sector access of a read or atomic (l2.h); false if it must wait. (Inlined in l2_tick,
 * which is not inlined: one prologue a try, and whole-line slices stay within 0.1%.) */
static bool serve_sector_read(L2Slice *s, MemReq *q, uint32_t set, uint64_t now)
{
    Tags *t = &s->tags;
    ReplAccess a = {.line_addr = tags_line_addr(t, q->local_addr), .set = set, .warp_id = q->sm, .cycle = now};
    uint32_t way, sector = 1u << tags_sector_of(t, q->local_addr);
    TagsProbe p = tags_probe(t, q->local_addr, set, &way);
    TagSectors *sec = p == TAGS_MISS ? NULL : tags_sectors(t, set, way);
    if (sec && (sec->valid & sector)) {
        if (reply_blocked(s, q))
            return false;
        a.way = way;
        a.hit = true;
        tags_hit(t, &a);
        if (q->kind == MREQ_ATOMIC)
            tags_write_sectors(t, set, way, sector);
        s->access++;
        s->hit++;
        sector_done(s, q);
        return true;
    }
    uint64_t key = q->local_addr >> t->sector_bits;
    if (sec && (sec->pending & sector))
        return merge_miss(s, key, q);
    if (!can_miss(s, true, sec ? 1 : 2)) /* a line miss may also write back */
        return false;
    if (sec) {
        a.way = way;
        tags_hit(t, &a); /* a sector miss uses the line (a.hit false) */
        s->sector_miss++;
    } else {
        int w = place_line(s, set, &a, q->local_addr, LINE_RESERVED, now);
        if (w < 0)
            return false;
        way = (uint32_t)w;
    }
    tags_reserve_sectors(t, set, way, sector);
    fetch(s, key, q, way, q->addr, q->local_addr, t->sector_bytes);
    return true;
}

/* ------------------------------------------------------------------------------------------- */

__attribute__((noinline)) bool l2_tick(L2Slice *s, uint64_t now)
{
    MemReq *r = s->in.head;
    if (!r || r->ready > now) /* (not try_at: the owner, not the slice, skips a sleeping slice) */
        return false;
    if (s->rop_due <= now) /* r is past its delay: rop_next is behind it */
        l2_rop_advance(s, now);
    uint32_t set = r->l2_set;
    memreq_queue_pop(&s->in); /* serving may link r into another queue, or recycle it */
    bool done;
    if (r->kind == MREQ_WRITE)
        done = serve_write(s, r, set, now);
    else
        done = tags_sectored(&s->tags) ? serve_sector_read(s, r, set, now) : serve_read(s, r, set, now);
    if (!done) {
        memreq_queue_push_front(&s->in, r);
        s->stall++;
        s->asleep = s->stall_why != NULL;
        s->asleep_since = now;
        if (s->asleep)
            s->try_at = UINT64_MAX;
        return false;
    }
    s->in_arrived--;
    s->try_at = s->in.head ? s->in.head->ready : UINT64_MAX;
    return true;
}

/* Whether a fill into `set` that left line l as it is changes the outcome of the sleeping
 * slice's next try. A stall on a reserved set waits for a way of that set to become valid (in a
 * sectored slice, its line's last sector in flight to arrive); the others wait for any fill. A
 * write looks at the reply queue first: once the replies of fills fill it, its try would stall
 * there instead, and must find that out. */
static bool fill_wakes(const L2Slice *s, uint32_t set, const TagLine *l)
{
    if (s->stall_why != &s->stall_line)
        return true;
    if (set == s->stall_set && l->state == LINE_VALID)
        return true;
    return s->replies.n >= s->reply_cap && s->in.head->kind == MREQ_WRITE;
}

/* A fetched line, or in a sectored slice a fetched sector, arrives: it becomes valid and the
 * accesses waiting in its MSHR entry are served. */
void l2_fill(L2Slice *s, MemReq *f, uint64_t now)
{
    Tags *t = &s->tags;
    bool sectored = tags_sectored(t);
    uint32_t set = f->l2_set, way, sector = 1u << tags_sector_of(t, f->local_addr);
    int e = (int)f->token;
    CHECK((uint32_t)e < s->mshr.n_entries && s->mshr.entries[e].addr == f->local_addr >> t->sector_bits);
    way = s->fetch_way[e];
    const TagLine *l = tags_line(t, set, way);
    CHECK(l->state == LINE_RESERVED && l->line_addr == tags_line_addr(t, f->local_addr));
    ReplAccess a = {.line_addr = l->line_addr, .set = set, .way = way, .cycle = now};
    if (sectored)
        tags_fill_sectors(t, set, way, sector, &a);
    else
        tags_fill(t, set, way, &a);
    uint32_t n;
    const uint32_t *w = mshr_waiters(&s->mshr, e, &n);
    for (uint32_t i = 0; i < n; i++) {
        MemReq *r = mempool_at(s->pool, w[i]);
        if (r->kind == MREQ_ATOMIC && sectored)
            tags_write_sectors(t, set, way, sector);
        else if (r->kind == MREQ_ATOMIC)
            tags_line(t, set, way)->dirty = 1;
        if (sectored)
            sector_done(s, r);
        else
            reply(s, r);
    }
    mshr_release(&s->mshr, e);
    mempool_put(s->pool, f);
    if (s->asleep && fill_wakes(s, set, l))
        l2_wake(s, now);
}

void l2_copy_fill(L2Slice *s, uint64_t local_addr, uint64_t now)
{
    Tags *t = &s->tags;
    uint32_t set = l2_set_of(s, local_addr), way;
    uint32_t sector = tags_sectored(t) ? 1u << tags_sector_of(t, local_addr) : 0;
    ReplAccess a = {.line_addr = tags_line_addr(t, local_addr), .set = set, .warp_id = UINT32_MAX,
                    .warp_uid = UINT32_MAX, .cycle = now};
    switch (tags_probe(t, local_addr, set, &way)) {
    case TAGS_HIT_RESERVED:
        return;
    case TAGS_HIT:
        if (!sector || (tags_sectors(t, set, way)->valid & sector))
            return; /* already there: GPGPU-Sim's copy does not touch the line's recency */
        break;
    case TAGS_MISS: {
        TagLine victim;
        int w = tags_choose_victim(t, set, &a, &victim);
        if (w < 0)
            return;
        way = (uint32_t)w;
        if (victim.state == LINE_VALID)
            tags_evict(t, set, way, UINT32_MAX, now, false);
        a.way = way;
        tags_install(t, set, way, local_addr, LINE_VALID, &a); /* a sectored one gets its sector below */
        break;
    }
    }
    a.way = way;
    if (sector)
        tags_fill_sectors(t, set, way, sector, &a);
    s->copy_fill++;
}
