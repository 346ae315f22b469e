/* l1d.c: the L1 data cache (see l1d.h). */
#include "mem/l1d.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void l1d_init(L1d *c, uint16_t sm, const Config *cfg, MemPool *pool, Stats *st)
{
    memset(c, 0, sizeof *c);
    c->sm = sm;
    c->alloc = cfg->l1d.alloc;
    c->miss_queue_cap = cfg->l1d.miss_queue;
    c->pool = pool;
    tags_init(&c->tags, &cfg->l1d, cfg);
    mshr_init(&c->mshr, cfg->l1d.mshr_entries, cfg->l1d.mshr_max_merge);
#define C(field, name, help) stats_counter(st, &c->field, "sm[%u].l1d." name, help, sm)
    C(access, "access", "L1D load accesses (coalesced lines) accepted");
    C(hit, "hit", "L1D load hits");
    C(miss, "miss", "L1D load misses sent to L2 (merged ones not included)");
    C(merge, "merge", "L1D loads merged into a miss in flight (hit-reserved)");
    C(fail_mshr, "resfail_mshr", "reservation failures: no free MSHR entry");
    C(fail_merge, "resfail_merge", "reservation failures: MSHR entry of the line has no merge room");
    C(fail_line, "resfail_line", "reservation failures: no replaceable line in the set");
    C(fail_missq, "resfail_missq", "reservation failures: miss queue full");
    C(fail_icnt, "resfail_icnt", "reservation failures: interconnect full");
    C(store, "store", "global store accesses (coalesced lines)");
    C(store_hit_evict, "store_evict", "stores that evicted a line (write-evict on hit)");
    C(atomic, "atomic", "atomic accesses sent to the L2");
    C(fill, "fill", "lines filled");
    C(miss_cold, "miss_cold", "misses to lines never before in this L1D");
    C(miss_intra, "miss_intra", "misses to lines last evicted by the requesting warp (intra-warp)");
    C(miss_inter, "miss_inter", "misses to lines last evicted by another warp (inter-warp)");
    C(balance_sum, "balance_sum", "FUP eq. 2 numerator: sum over sets of b(b+1)/2, b = load accesses per set in a kernel");
    C(balance_ideal_micro, "balance_ideal_micro", "FUP eq. 2 denominator m(m+2n-1)/(2n), in millionths");
#undef C
    c->set_count = xcalloc(c->tags.n_sets, sizeof *c->set_count);
    linemap_init(&c->evicted_by);
    c->mshr_uid = xcalloc(cfg->l1d.mshr_entries, sizeof *c->mshr_uid);
}

void l1d_free(L1d *c)
{
    free(c->set_count);
    linemap_free(&c->evicted_by);
    free(c->mshr_uid);
    tags_free(&c->tags);
    mshr_free_all(&c->mshr);
}

/* A valid line leaves the cache because of warp uid's access. */
static void note_eviction(L1d *c, uint64_t line_addr, uint32_t uid)
{
    linemap_put(&c->evicted_by, line_addr, uid + 1);
}

static void classify_miss(L1d *c, uint64_t line_addr, uint32_t uid)
{
    uint32_t *by = linemap_get(&c->evicted_by, line_addr);
    if (!by) {
        c->miss_cold++;
        linemap_put(&c->evicted_by, line_addr, 0);
    } else if (*by == uid + 1) {
        c->miss_intra++;
    } else {
        c->miss_inter++;
    }
}

static L1dResult queue_full(L1d *c)
{
    if (c->icnt_refused) {
        c->fail_icnt++;
        return L1D_FAIL_ICNT;
    }
    c->fail_missq++;
    return L1D_FAIL_MISSQ;
}

static MemReq *new_request(L1d *c, uint64_t addr, uint8_t kind, uint32_t bytes, uint32_t token, uint64_t now)
{
    MemReq *r = mempool_get(c->pool);
    r->addr = addr;
    r->kind = kind;
    r->size_bytes = bytes;
    r->sm = c->sm;
    r->token = token;
    r->issued = now;
    memreq_queue_push(&c->miss_q, r);
    if (c->queued_total)
        ++*c->queued_total;
    return r;
}

void l1d_kernel_begin(L1d *c)
{
    memset(c->set_count, 0, c->tags.n_sets * sizeof *c->set_count);
    c->kernel_accesses = 0;
}

/* One accepted load access to set: grow both sums of eq. 2 (b_j -> b_j + 1 adds b_j + 1 to the
 * numerator; m -> m + 1 adds (m + n) / n to the denominator). */
static void count_access(L1d *c, uint32_t set)
{
    uint64_t n = c->tags.n_sets;
    c->access++;
    c->balance_sum += ++c->set_count[set];
    c->balance_ideal_micro += (c->kernel_accesses++ + n) * 1000000 / n;
}

L1dResult l1d_load(L1d *c, uint64_t addr, uint32_t token, const ReplAccess *a, uint64_t now)
{
    uint32_t set = tags_set_of(&c->tags, addr), way;
    ReplAccess ra = *a;
    ra.set = set;
    TagsProbe p = tags_probe(&c->tags, addr, set, &way);
    if (p == TAGS_HIT) {
        ra.way = way;
        tags_hit(&c->tags, &ra);
        count_access(c, set);
        c->hit++;
        return L1D_HIT;
    }
    uint64_t la = tags_line_addr(&c->tags, addr);
    int e = mshr_find(&c->mshr, la);
    if (e >= 0) {
        if (!mshr_can_merge(&c->mshr, e)) {
            c->fail_merge++;
            return L1D_FAIL_MERGE;
        }
        mshr_merge(&c->mshr, e, token);
        count_access(c, set);
        c->merge++;
        return L1D_MERGED;
    }
    CHECK(p == TAGS_MISS);
    if (mshr_full(&c->mshr)) {
        c->fail_mshr++;
        return L1D_FAIL_MSHR;
    }
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    if (c->alloc == CACHE_ALLOC_MISS) {
        TagLine victim;
        int w = tags_choose_victim(&c->tags, set, &ra, &victim);
        if (w < 0) {
            c->fail_line++;
            return L1D_FAIL_LINE;
        }
        if (victim.state == LINE_VALID)
            note_eviction(c, victim.line_addr, a->warp_uid);
        tags_install(&c->tags, set, (uint32_t)w, addr, LINE_RESERVED, &ra);
    }
    classify_miss(c, la, a->warp_uid);
    e = mshr_alloc(&c->mshr, la, token);
    c->mshr_uid[e] = a->warp_uid;
    new_request(c, la << c->tags.line_bits, MREQ_READ, c->tags.line_bytes, (uint32_t)e, now);
    count_access(c, set);
    c->miss++;
    return L1D_MISS;
}

L1dResult l1d_store(L1d *c, uint64_t addr, uint32_t bytes, const ReplAccess *a, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    uint32_t set = tags_set_of(&c->tags, addr), way;
    if (tags_probe(&c->tags, addr, set, &way) == TAGS_HIT) {
        ReplAccess ra = *a;
        ra.set = set;
        ra.way = way;
        tags_invalidate(&c->tags, set, way, &ra);
        note_eviction(c, tags_line_addr(&c->tags, addr), a->warp_uid);
        c->store_hit_evict++;
    }
    new_request(c, addr, MREQ_WRITE, bytes, 0, now);
    c->store++;
    return L1D_SENT;
}

L1dResult l1d_atomic(L1d *c, uint64_t addr, uint32_t bytes, uint32_t token, const ReplAccess *a, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    new_request(c, addr & ~(uint64_t)(c->tags.line_bytes - 1), MREQ_ATOMIC, bytes, token, now);
    c->atomic++;
    (void)a;
    return L1D_SENT;
}

uint32_t l1d_fill(L1d *c, MemReq *r, uint32_t *tokens, uint64_t now)
{
    int e = (int)r->token;
    CHECK((uint32_t)e < c->mshr.n_entries);
    uint64_t la = tags_line_addr(&c->tags, r->addr);
    CHECK(c->mshr.entries[e].line_addr == la);
    uint32_t set = tags_set_of(&c->tags, r->addr), way, n;
    const uint32_t *w = mshr_waiters(&c->mshr, e, &n);
    memcpy(tokens, w, n * sizeof *tokens);
    ReplAccess ra = {.set = set, .warp_id = tokens[0] >> 16, .cycle = now};
    if (c->alloc == CACHE_ALLOC_MISS) {
        TagsProbe p = tags_probe(&c->tags, r->addr, set, &way);
        CHECK(p == TAGS_HIT_RESERVED);
        tags_mark_valid(&c->tags, set, way);
    } else {
        TagLine victim;
        ra.warp_uid = c->mshr_uid[e];
        int v = tags_choose_victim(&c->tags, set, &ra, &victim);
        if (v >= 0) {
            if (victim.state == LINE_VALID)
                note_eviction(c, victim.line_addr, ra.warp_uid);
            tags_install(&c->tags, set, (uint32_t)v, r->addr, LINE_VALID, &ra);
        }
    }
    mshr_release(&c->mshr, e);
    mempool_put(c->pool, r);
    c->fill++;
    return n;
}
