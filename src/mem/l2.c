/* l2.c: one L2 slice (see l2.h). Thesis Table 3.1: 768 KB, 128 B lines, 16-way, min L2 latency
 * 120 cycles; GPGPU-Sim 3.x L2 semantics (write-back, allocate on miss). */
#include "mem/l2.h"

#include "base/base.h"

#include <string.h>

void l2_init(L2Slice *s, uint32_t id, const Config *cfg, MemPool *pool, Stats *st)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->rop_lat = cfg->mem.l2_lat + cfg->l2.hit_lat;
    s->in_cap = cfg->icnt.in_buffer;
    s->miss_queue_cap = cfg->l2.miss_queue;
    s->reply_cap = cfg->icnt.in_buffer;
    s->pool = pool;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "l2[%u]", id);
    tags_init(&s->tags, &cfg->l2, cfg, "l2", st, prefix, id);
    mshr_init(&s->mshr, cfg->l2.mshr_entries, cfg->l2.mshr_max_merge);
    stats_counter(st, &s->access, "l2[%u].access", "L2 reads and atomics looked up", id);
    stats_counter(st, &s->hit, "l2[%u].hit", "L2 reads and atomics that hit", id);
    stats_counter(st, &s->miss, "l2[%u].miss", "L2 reads and atomics that missed (a DRAM fetch)", id);
    stats_counter(st, &s->merge, "l2[%u].merge", "L2 reads merged into a fetch in flight", id);
    stats_counter(st, &s->write, "l2[%u].write", "L2 writes", id);
    stats_counter(st, &s->writeback, "l2[%u].writeback", "dirty L2 lines written back to DRAM", id);
    stats_counter(st, &s->stall, "l2[%u].stall", "L2 cycles the head request could not be served", id);
    stats_counter(st, &s->stall_reply, "l2[%u].stall_reply", "... because the reply queue was full", id);
    stats_counter(st, &s->stall_merge, "l2[%u].stall_merge", "... because its line's MSHR entry had no merge room", id);
    stats_counter(st, &s->stall_mshr, "l2[%u].stall_mshr", "... because no MSHR entry was free", id);
    stats_counter(st, &s->stall_queue, "l2[%u].stall_queue", "... because the DRAM-bound queue was full", id);
    stats_counter(st, &s->stall_line, "l2[%u].stall_line", "... because every way of the set was reserved", id);
}

void l2_free(L2Slice *s)
{
    tags_free(&s->tags);
    mshr_free_all(&s->mshr);
}

bool l2_can_accept(const L2Slice *s) { return s->in.n < s->in_cap; }

void l2_push(L2Slice *s, MemReq *r, uint64_t now)
{
    r->ready = now + s->rop_lat;
    memreq_queue_push(&s->in, r);
}

uint64_t l2_next_event(const L2Slice *s)
{
    return s->in.head ? s->in.head->ready : UINT64_MAX;
}

static void queue_writeback(L2Slice *s, const TagLine *victim)
{
    if (victim->state != LINE_VALID || !victim->dirty)
        return;
    MemReq *wb = mempool_get(s->pool);
    wb->kind = MREQ_WRITEBACK;
    wb->local_addr = victim->line_addr << s->tags.line_bits;
    wb->size_bytes = s->tags.line_bytes;
    wb->slice = s->id;
    memreq_queue_push(&s->to_dram, wb);
    s->writeback++;
}

static void reply(L2Slice *s, MemReq *r)
{
    r->is_reply = true;
    r->size_bytes = s->tags.line_bytes;
    memreq_queue_push(&s->replies, r);
    if (s->replies_total)
        ++*s->replies_total;
}

/* Serve a read or atomic; false if it must wait. */
static bool serve_read(L2Slice *s, MemReq *r, uint32_t set, uint64_t now)
{
    ReplAccess a = {.set = set, .warp_id = r->sm, .cycle = now};
    uint32_t way;
    switch (tags_probe(&s->tags, r->local_addr, set, &way)) {
    case TAGS_HIT:
        if (s->replies.n >= s->reply_cap) {
            s->stall_reply++;
            return false;
        }
        a.way = way;
        tags_hit(&s->tags, &a);
        if (r->kind == MREQ_ATOMIC)
            tags_line(&s->tags, set, way)->dirty = 1;
        s->access++;
        s->hit++;
        reply(s, r);
        return true;
    case TAGS_HIT_RESERVED: {
        int e = mshr_find(&s->mshr, tags_line_addr(&s->tags, r->local_addr));
        CHECK(e >= 0);
        if (!mshr_can_merge(&s->mshr, e)) {
            s->stall_merge++;
            return false;
        }
        mshr_merge(&s->mshr, e, r->pool_id);
        s->access++;
        s->merge++;
        return true;
    }
    case TAGS_MISS:
        break;
    }
    if (mshr_full(&s->mshr)) {
        s->stall_mshr++;
        return false;
    }
    if (s->to_dram.n + 2 > s->miss_queue_cap) {
        s->stall_queue++;
        return false;
    }
    TagLine victim;
    int w = tags_choose_victim(&s->tags, set, &a, &victim);
    if (w < 0) {
        /* every way reserved, or the policy said stall: wait for a fill. The L2 has no bypass
         * path, so REPL_BYPASS waits too. */
        s->stall_line++;
        return false;
    }
    queue_writeback(s, &victim);
    if (victim.state == LINE_VALID)
        tags_evict(&s->tags, set, (uint32_t)w, a.warp_uid, now, false);
    tags_install(&s->tags, set, (uint32_t)w, r->local_addr, LINE_RESERVED, &a);
    mshr_alloc(&s->mshr, tags_line_addr(&s->tags, r->local_addr), r->pool_id);
    MemReq *f = mempool_get(s->pool);
    f->kind = MREQ_READ;
    f->addr = r->addr & ~(uint64_t)(s->tags.line_bytes - 1);
    f->local_addr = r->local_addr & ~(uint64_t)(s->tags.line_bytes - 1);
    f->size_bytes = s->tags.line_bytes;
    f->slice = s->id;
    memreq_queue_push(&s->to_dram, f);
    s->access++;
    s->miss++;
    return true;
}

static bool serve_write(L2Slice *s, MemReq *r, uint32_t set, uint64_t now)
{
    ReplAccess a = {.set = set, .warp_id = r->sm, .cycle = now, .is_write = true};
    uint32_t way;
    TagsProbe p = tags_probe(&s->tags, r->local_addr, set, &way);
    if (p == TAGS_MISS) {
        if (s->to_dram.n + 1 > s->miss_queue_cap) {
            s->stall_queue++;
            return false;
        }
        TagLine victim;
        int w = tags_choose_victim(&s->tags, set, &a, &victim);
        if (w < 0) {
            s->stall_line++;
            return false;
        }
        queue_writeback(s, &victim);
        if (victim.state == LINE_VALID)
            tags_evict(&s->tags, set, (uint32_t)w, a.warp_uid, now, false);
        tags_install(&s->tags, set, (uint32_t)w, r->local_addr, LINE_VALID, &a);
        way = (uint32_t)w;
    } else {
        a.way = way;
        tags_hit(&s->tags, &a);
    }
    tags_line(&s->tags, set, way)->dirty = 1; /* a reserved line keeps the flag through its fill */
    s->write++;
    mempool_put(s->pool, r);
    return true;
}

bool l2_tick(L2Slice *s, uint64_t now)
{
    MemReq *r = s->in.head;
    if (!r || r->ready > now)
        return false;
    uint32_t set = tags_set_of(&s->tags, r->local_addr);
    memreq_queue_pop(&s->in); /* serving may link r into another queue */
    bool done = r->kind == MREQ_WRITE ? serve_write(s, r, set, now) : serve_read(s, r, set, now);
    if (!done) {
        memreq_queue_push_front(&s->in, r);
        s->stall++;
        return false;
    }
    return true;
}

void l2_fill(L2Slice *s, MemReq *f, uint64_t now)
{
    uint32_t set = tags_set_of(&s->tags, f->local_addr), way;
    TagsProbe p = tags_probe(&s->tags, f->local_addr, set, &way);
    CHECK(p == TAGS_HIT_RESERVED);
    ReplAccess a = {.set = set, .way = way, .cycle = now};
    tags_fill(&s->tags, set, way, &a);
    int e = mshr_find(&s->mshr, tags_line_addr(&s->tags, f->local_addr));
    CHECK(e >= 0);
    uint32_t n;
    const uint32_t *w = mshr_waiters(&s->mshr, e, &n);
    for (uint32_t i = 0; i < n; i++) {
        MemReq *r = mempool_at(s->pool, w[i]);
        if (r->kind == MREQ_ATOMIC)
            tags_line(&s->tags, set, way)->dirty = 1;
        reply(s, r);
    }
    mshr_release(&s->mshr, e);
    mempool_put(s->pool, f);
}
