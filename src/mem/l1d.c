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
    c->hit_lat = cfg->l1d.hit_lat;
    c->pool = pool;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "sm[%u].l1d", sm);
    tags_init(&c->tags, &cfg->l1d, cfg, "l1d", st, prefix, sm);
    mshr_init(&c->mshr, cfg->l1d.mshr_entries, cfg->l1d.mshr_max_merge);
    c->miss_rec = xcalloc(cfg->l1d.mshr_entries, sizeof *c->miss_rec);
#define C(field, name, help) stats_counter(st, &c->field, "sm[%u].l1d." name, help, sm)
    C(access, "access", "L1D load accesses (coalesced lines) accepted");
    C(hit, "hit", "L1D load hits");
    C(hit_other_cta, "hit_other_cta",
      "L1D load hits on a line another CTA's miss brought in: inter-CTA locality (LAS thesis ch. 2)");
    C(miss, "miss", "L1D load misses sent to L2 (merged ones not included)");
    C(merge, "merge", "L1D loads merged into a miss in flight (hit-reserved)");
    C(fail_mshr, "resfail_mshr", "reservation failures: no free MSHR entry");
    C(fail_merge, "resfail_merge", "reservation failures: MSHR entry of the line has no merge room");
    C(fail_line, "resfail_line", "reservation failures: no replaceable line in the set");
    C(fail_missq, "resfail_missq", "reservation failures: miss queue full");
    C(fail_icnt, "resfail_icnt", "reservation failures: interconnect full");
    C(fail_mpath, "resfail_mpath", "reservation failures: a miss-path component had no free port");
    C(bypass, "bypass", "load misses that filled no line (the replacement policy or the warp scheduler bypassed them)");
    C(bypass_sched, "bypass_sched", "of them, misses the warp's scheduler sent past the L1D (WarpSchedOps.bypass_l1d)");
    C(l2_only, "l2_only", "of them, loads the L1D may not serve (ld.cg, ld.cv, strong loads wider than the CTA)");
    C(fill_stall, "fill_stall", "cycles a fill waited because the replacement policy said stall");
    C(mpath_hit, "mpath_hit", "load misses served by a miss-path component (victim cache, ...)");
    C(store, "store", "global store accesses (coalesced lines)");
    C(store_hit_evict, "store_evict", "stores that evicted a line (write-evict on hit; sectored: dropped sectors)");
    C(atomic, "atomic", "atomic accesses sent to the L2");
    C(fill, "fill", "read replies filled (a line, or a sectored L1D's sectors of one request)");
    C(miss_cold, "miss_cold", "misses to lines never before in this L1D");
    C(miss_intra, "miss_intra", "misses to lines last evicted by the requesting warp (intra-warp)");
    C(miss_inter, "miss_inter", "misses to lines last evicted by another warp (inter-warp)");
    C(sector_miss, "sector_miss",
      "sectored L1D: load misses that found their line (valid or reserved) but not every sector they need "
      "(GPGPU-Sim's SECTOR_MISS; part of miss, not of miss_cold/intra/inter)");
    C(sector_hit, "sector_hit", "sectored L1D: sectors needed by accepted loads that were valid");
    C(sector_merge, "sector_merge", "sectored L1D: sectors needed by accepted loads that were in flight (merged)");
    C(sector_fetch, "sector_fetch", "sectored L1D: sectors requested from the L2");
    C(balance_sum, "balance_sum", "FUP eq. 2 numerator: sum over sets of b(b+1)/2, b = load accesses per set in a kernel");
    C(balance_ideal_micro, "balance_ideal_micro", "FUP eq. 2 denominator m(m+2n-1)/(2n), in millionths");
#undef C
    c->max_fill_tokens = cfg->l1d.mshr_max_merge * c->tags.n_sectors;
    uint32_t n_segs = c->tags.line_bytes / 32;
    c->all_segs = n_segs >= 32 ? UINT32_MAX : (1u << n_segs) - 1;
    c->set_count = xcalloc(c->tags.n_sets, sizeof *c->set_count);
    linemap_init(&c->evicted_by);
    c->steer_k = c->ctl_k = -1;
    for (uint32_t i = 0; i < policy_count(POLICY_MPATH); i++) {
        const MpathOps *ops = policy_mpath(policy_name_at(POLICY_MPATH, i));
        if (!policy_mpath_enabled(ops, cfg))
            continue;
        CHECK(c->n_mpath < L1D_MAX_MPATH && !tags_sectored(&c->tags)); /* policy_check_config */
        uint32_t k = c->n_mpath++;
        snprintf(prefix, sizeof prefix, "sm[%u].l1d.%s", sm, ops->meta.name);
        policy_ctx_init(&c->mpath_ctx[k], &ops->meta, "l1d", cfg, st, prefix, sm, 0);
        c->mpath_ops[k] = ops;
        c->mpath[k] = ops->create(&c->mpath_ctx[k], c->tags.line_bytes);
        if (c->steer_k < 0 && ops->steered_probe)
            c->steer_k = (int)k;
        if (ops->ctl_tick) {
            CHECK(c->ctl_k < 0); /* one CTA controller per SM: its requests' replies need one owner */
            c->ctl_k = (int)k;
        }
    }
}

void l1d_smem_unused(L1d *c, uint32_t bytes)
{
    for (uint32_t k = 0; k < c->n_mpath; k++)
        if (c->mpath_ops[k]->on_smem_unused)
            c->mpath_ops[k]->on_smem_unused(c->mpath[k], bytes);
}

void l1d_free(L1d *c)
{
    free(c->set_count);
    linemap_free(&c->evicted_by);
    free(c->miss_rec);
    for (uint32_t k = 0; k < c->n_mpath; k++) {
        if (c->mpath_ops[k]->destroy)
            c->mpath_ops[k]->destroy(c->mpath[k]);
        policy_ctx_free(&c->mpath_ctx[k]);
    }
    tags_free(&c->tags);
    mshr_free_all(&c->mshr);
}

/* A valid line of (set, way) leaves because of warp uid's access (or its store): the miss
 * classifier remembers who, the policy hears it, and a replaced line is offered to the
 * miss-path components and told to the owner's hook. */
static void evict_line(L1d *c, uint32_t set, uint32_t way, uint32_t uid, uint64_t now, bool by_write)
{
    const TagLine *l = tags_line(&c->tags, set, way);
    MpathAccess ma = {.line_addr = l->line_addr, .warp_uid = uid, .inserted_by = l->inserted_by, .pc = l->last_pc,
                      .cycle = now};
    linemap_put(&c->evicted_by, l->line_addr, uid + 1);
    tags_evict(&c->tags, set, way, uid, now, by_write);
    for (uint32_t k = 0; k < c->n_mpath && !by_write; k++)
        if (c->mpath_ops[k]->on_evict)
            c->mpath_ops[k]->on_evict(c->mpath[k], &ma);
    if (c->evict_hook && !by_write)
        c->evict_hook(c->evict_hook_ctx, ma.line_addr, ma.inserted_by, uid, now);
}

#define L1D_FLUSHED UINT32_MAX /* evicted_by: invalidated by a flush, by no warp */

static void classify_miss(L1d *c, uint64_t line_addr, uint32_t uid)
{
    uint32_t *by = linemap_get(&c->evicted_by, line_addr);
    if (!by || *by == L1D_FLUSHED) {
        c->miss_cold++;
        linemap_put(&c->evicted_by, line_addr, 0);
    } else if (*by == uid + 1) {
        c->miss_intra++;
    } else {
        c->miss_inter++;
    }
}

void l1d_flush(L1d *c, uint64_t now)
{
    const Tags *t = &c->tags;
    for (uint32_t set = 0; set < t->n_sets; set++)
        for (uint32_t way = 0; way < t->assoc; way++) {
            const TagLine *l = tags_line(&c->tags, set, way);
            if (l->state != LINE_VALID)
                continue;
            linemap_put(&c->evicted_by, l->line_addr, L1D_FLUSHED);
            tags_evict(&c->tags, set, way, L1D_FLUSHED, now, false);
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
    if (c->shared_words) { /* SMs on other threads write them too (gpu_par.c) */
        if (c->queued_total)
            __atomic_fetch_add(c->queued_total, 1, __ATOMIC_RELAXED);
        if (c->queued_bits)
            __atomic_fetch_or(&c->queued_bits[c->sm >> 6], 1ull << (c->sm & 63), __ATOMIC_RELAXED);
        if (c->inject_wake && c->miss_q.n == 1)
            __atomic_store_n(c->inject_wake, 0, __ATOMIC_RELAXED);
    } else {
        if (c->queued_total)
            ++*c->queued_total;
        if (c->queued_bits)
            bits_set(c->queued_bits, c->sm);
        if (c->inject_wake && c->miss_q.n == 1)
            *c->inject_wake = 0;
    }
    return r;
}

void l1d_kernel_begin(L1d *c, uint64_t now)
{
    memset(c->set_count, 0, c->tags.n_sets * sizeof *c->set_count);
    c->kernel_accesses = 0;
    for (uint32_t k = 0; k < c->n_mpath; k++)
        if (c->mpath_ops[k]->on_kernel_begin)
            c->mpath_ops[k]->on_kernel_begin(c->mpath[k], now);
}

void l1d_regfile_changed(L1d *c, const RegfileView *rf)
{
    for (uint32_t k = 0; k < c->n_mpath; k++)
        if (c->mpath_ops[k]->on_regfile)
            c->mpath_ops[k]->on_regfile(c->mpath[k], rf);
}

void l1d_cta_event(L1d *c, const MpathCtaEvent *e, const SmCtaCtl *ctl)
{
    if (c->ctl_k >= 0 && c->mpath_ops[c->ctl_k]->on_cta)
        c->mpath_ops[c->ctl_k]->on_cta(c->mpath[c->ctl_k], e, ctl);
}

uint64_t l1d_ctl_tick(L1d *c, uint64_t now, const SmCtaCtl *ctl)
{
    return c->ctl_k < 0 ? UINT64_MAX : c->mpath_ops[c->ctl_k]->ctl_tick(c->mpath[c->ctl_k], now, ctl);
}

bool l1d_send_ctl(L1d *c, uint64_t addr, bool write, uint32_t tag, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return false;
    new_request(c, addr, write ? MREQ_WRITE : MREQ_READ, c->tags.line_bytes, tag, now)->ctl = true;
    return true;
}

void l1d_ctl_reply(L1d *c, MemReq *r, uint64_t now)
{
    CHECK(c->ctl_k >= 0 && r->ctl);
    uint32_t tag = r->token;
    bool write = r->kind == MREQ_WRITE;
    mempool_put(c->pool, r);
    if (c->mpath_ops[c->ctl_k]->on_ctl_reply)
        c->mpath_ops[c->ctl_k]->on_ctl_reply(c->mpath[c->ctl_k], tag, write, now);
}

/* Tell the components what became of an accepted load access. */
static void tell_load(L1d *c, const ReplAccess *ra, uint64_t now, MpathOutcome o)
{
    MpathAccess ma = {.line_addr = ra->line_addr, .warp_uid = ra->warp_uid, .inserted_by = ra->warp_uid,
                      .pc = ra->pc, .cycle = now};
    for (uint32_t k = 0; k < c->n_mpath; k++)
        if (c->mpath_ops[k]->on_load)
            c->mpath_ops[k]->on_load(c->mpath[k], &ma, o);
}

/* Every 32-byte segment of a line, and those an access touches (its mask; 0 means all). */
static uint32_t all_segments(const L1d *c) { return c->all_segs; }
static uint32_t segments_of(const L1d *c, const ReplAccess *a) { return a->sectors ? a->sectors : all_segments(c); }

/* One accepted load access to set: grow both sums of eq. 2 (b_j -> b_j + 1 adds b_j + 1 to the
 * numerator; m -> m + 1 adds (m + n) / n to the denominator). */
static void count_access(L1d *c, uint32_t set)
{
    uint64_t n = c->tags.n_sets;
    c->access++;
    c->balance_sum += ++c->set_count[set];
    c->balance_ideal_micro += (c->kernel_accesses++ + n) * 1000000 / n;
}

/* Take a way of `set` for a new line: an invalid one, or the policy's victim (evicted now).
 * Returns the way, REPL_BYPASS or REPL_STALL. */
static int take_way(L1d *c, uint32_t set, const ReplAccess *ra, uint64_t now)
{
    TagLine victim;
    int w = tags_choose_victim(&c->tags, set, ra, &victim);
    if (w >= 0 && victim.state == LINE_VALID)
        evict_line(c, set, (uint32_t)w, ra->warp_uid, now, false);
    return w;
}

/* A line the alternate store displaced (steered_fill's victim) is told to the owner's hook like
 * the L1D's own replacements (the interference detector watches both, CIAO III-C). */
static void tell_steered_victim(L1d *c, bool displaced, const MpathAccess *v, uint64_t now)
{
    if (displaced && c->evict_hook)
        c->evict_hook(c->evict_hook_ctx, v->line_addr, v->inserted_by, v->warp_uid, now);
}

/* A steered load (l1d.h): the alternate store, then the L1D's tags (migration or merge), then a
 * miss whose reply fills the alternate store and no line. With *steered false the store has no
 * room: nothing happened, and the caller goes on with an ordinary access. */
static L1dResult load_steered(L1d *c, uint64_t addr, uint32_t token, ReplAccess *ra, uint64_t now, uint32_t *out,
                              bool *steered)
{
    uint32_t k = (uint32_t)c->steer_k, lat = 0, where = MPATH_NOWHERE, way;
    uint64_t la = ra->line_addr;
    MpathAccess ma = {.line_addr = la, .warp_uid = ra->warp_uid, .inserted_by = ra->warp_uid, .pc = ra->pc, .cycle = now};
    MpathResult res = c->mpath_ops[k]->steered_probe(c->mpath[k], &ma, &lat, &where);
    *steered = res != MPATH_MISS || where != MPATH_NOWHERE;
    if (!*steered)
        return L1D_MISS;
    if (res == MPATH_BUSY) {
        c->fail_mpath++;
        return L1D_FAIL_MPATH;
    }
    if (res != MPATH_MISS) {
        *out = lat;
        return L1D_HIT;
    }
    TagsProbe p = tags_probe(&c->tags, addr, ra->set, &way);
    if (p == TAGS_HIT) { /* migration: the L1D's copy moves to the store through the response queue */
        const TagLine *l = tags_line(&c->tags, ra->set, way);
        ma.inserted_by = l->inserted_by;
        tags_evict(&c->tags, ra->set, way, ra->warp_uid, now, true);
        MpathAccess victim;
        tell_steered_victim(c, c->mpath_ops[k]->steered_fill(c->mpath[k], &ma, where, true, &victim), &victim, now);
        *out = c->hit_lat + lat;
        return L1D_HIT;
    }
    int e = mshr_find(&c->mshr, la);
    if (e >= 0) {
        if (!mshr_can_merge(&c->mshr, e) || (c->miss_rec[e].segs & all_segments(c)) != all_segments(c)) {
            c->fail_merge++;
            return L1D_FAIL_MERGE;
        }
        mshr_merge(&c->mshr, e, token);
        *out = 1;
        return L1D_MERGED;
    }
    if (mshr_full(&c->mshr)) {
        c->fail_mshr++;
        return L1D_FAIL_MSHR;
    }
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    e = mshr_alloc(&c->mshr, la, token);
    c->miss_rec[e] = (L1dMiss){.rec = *ra, .bypass = true, .steered = true, .where = where, .segs = all_segments(c)};
    new_request(c, la << c->tags.line_bits, MREQ_READ, c->tags.line_bytes, (uint32_t)e, now);
    *out = 1;
    return L1D_MISS;
}

/* Probe the miss-path components. MPATH_HIT: the line is moved into the L1D when a way can be
 * taken (else it goes back to the component that had it, as if evicted) and *lat_cycles is
 * when the data is ready. */
static MpathResult probe_mpath(L1d *c, uint64_t la, const ReplAccess *ra, uint64_t now, uint32_t *lat_cycles)
{
    MpathAccess ma = {.line_addr = la, .warp_uid = ra->warp_uid, .inserted_by = ra->warp_uid, .pc = ra->pc, .cycle = now};
    for (uint32_t k = 0; k < c->n_mpath; k++) {
        uint32_t lat = 0;
        MpathResult res = c->mpath_ops[k]->probe(c->mpath[k], &ma, &lat);
        if (res == MPATH_BUSY) {
            c->fail_mpath++;
            return res;
        }
        if (res == MPATH_SERVED) { /* read where it is: nothing moves */
            *lat_cycles = c->hit_lat + lat;
            c->mpath_hit++;
            return res;
        }
        if (res != MPATH_HIT)
            continue;
        int w = take_way(c, ra->set, ra, now);
        if (w >= 0) {
            ReplAccess ia = *ra;
            ia.way = (uint32_t)w;
            tags_install(&c->tags, ra->set, (uint32_t)w, la << c->tags.line_bits, LINE_RESERVED, &ia);
            tags_fill(&c->tags, ra->set, (uint32_t)w, &ia);
        } else if (c->mpath_ops[k]->on_evict) {
            c->mpath_ops[k]->on_evict(c->mpath[k], &ma);
        }
        *lat_cycles = c->hit_lat + lat;
        c->mpath_hit++;
        return MPATH_HIT;
    }
    return MPATH_MISS;
}

/* The MSHR key of sector 0 of addr's line (sector i's key is this + i). */
static uint64_t sector_base(const Tags *t, uint64_t addr)
{
    return addr >> t->line_bits << (t->line_bits - t->sector_bits);
}

/* A load in a sectored L1D (l1d.h): hit, merge into the entries of the sectors in flight,
 * and one request for the rest, with an MSHR entry per sector; all or nothing. */
/* A load hit the line in (set, way). */
static void count_hit(L1d *c, uint32_t set, uint32_t way, const ReplAccess *ra)
{
    c->hit++;
    c->hit_other_cta += tags_line(&c->tags, set, way)->inserted_cta != ra->cta;
}

static L1dResult load_sectored(L1d *c, uint64_t addr, uint32_t token, ReplAccess *ra, uint64_t now, uint32_t *out)
{
    Tags *t = &c->tags;
    uint32_t set = ra->set, way = 0;
    uint32_t need = tags_sectors_of_segments(t, ra->sectors);
    TagsProbe p = tags_probe(t, addr, set, &way);
    uint32_t valid = p == TAGS_MISS || ra->l2_only ? 0 : tags_sectors(t, set, way)->valid;
    uint32_t missing = need & ~valid;
    if (!missing) {
        ra->way = way;
        ra->hit = true;
        tags_hit(t, ra);
        count_access(c, set);
        count_hit(c, set, way, ra);
        c->sector_hit += popcount_u32(need);
        *out = c->hit_lat;
        return L1D_HIT;
    }
    ra->hit = false;
    uint64_t base = sector_base(t, addr);
    int entry[32];
    uint32_t in_flight = 0;
    for (uint32_t m = missing; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(m);
        int e = mshr_find(&c->mshr, base + i);
        if (e < 0)
            continue;
        if (!mshr_can_merge(&c->mshr, e)) {
            c->fail_merge++;
            return L1D_FAIL_MERGE;
        }
        entry[i] = e;
        in_flight |= 1u << i;
    }
    uint32_t fetch = missing & ~in_flight;
    if (fetch) {
        if (c->mshr.n_free < popcount_u32(fetch)) {
            c->fail_mshr++;
            return L1D_FAIL_MSHR;
        }
        if (c->miss_q.n >= c->miss_queue_cap)
            return queue_full(c);
        /* The policy decides whether to bypass; the request is the fetched sectors either way. */
        bool bypass = ra->sched_bypass || ra->l2_only || (t->repl->bypass && t->repl->bypass(t->repl_state, ra) > 0);
        bool present = p != TAGS_MISS;
        if (!bypass && c->alloc == CACHE_ALLOC_MISS) {
            if (!present) {
                int w = take_way(c, set, ra, now);
                if (w == REPL_STALL) {
                    c->fail_line++;
                    return L1D_FAIL_LINE;
                }
                bypass = w == REPL_BYPASS;
                if (!bypass) {
                    way = (uint32_t)w;
                    ra->way = way;
                    tags_install(t, set, way, addr, LINE_RESERVED, ra);
                }
            } else {
                ra->way = way;
                tags_hit(t, ra); /* the line is used (GPGPU-Sim's allocate_sector touches it); a.hit is false */
            }
            if (!bypass)
                tags_reserve_sectors(t, set, way, fetch);
        }
        if (present)
            c->sector_miss++;
        else
            classify_miss(c, addr >> t->line_bits, ra->warp_uid);
        int head = -1;
        for (uint32_t m = fetch; m; m &= m - 1) {
            int e = mshr_alloc(&c->mshr, base + (uint32_t)__builtin_ctz(m), token);
            c->miss_rec[e] = (L1dMiss){.rec = *ra, .bypass = bypass, .segs = tags_segments_of_sectors(t, fetch)};
            head = head < 0 ? e : head;
        }
        MemReq *r = new_request(c, addr >> t->line_bits << t->line_bits, MREQ_READ,
                                popcount_u32(fetch) << t->sector_bits, (uint32_t)head, now);
        r->sectors = tags_segments_of_sectors(t, fetch);
        c->miss++;
        c->bypass += bypass;
        c->bypass_sched += ra->sched_bypass;
        c->l2_only += ra->l2_only;
        c->sector_fetch += popcount_u32(fetch);
    } else {
        c->merge++;
    }
    for (uint32_t m = in_flight; m; m &= m - 1)
        mshr_merge(&c->mshr, entry[__builtin_ctz(m)], token);
    count_access(c, set);
    c->sector_hit += popcount_u32(need & valid);
    c->sector_merge += popcount_u32(in_flight);
    *out = popcount_u32(missing);
    return fetch ? L1D_MISS : L1D_MERGED;
}

L1dResult l1d_load(L1d *c, uint64_t addr, uint32_t token, const ReplAccess *a, uint64_t now, uint32_t *out)
{
    uint32_t set = tags_set_of(&c->tags, addr), way;
    ReplAccess ra = *a;
    ra.set = set;
    ra.cycle = now;
    ra.line_addr = tags_line_addr(&c->tags, addr);
    if (tags_sectored(&c->tags))
        return load_sectored(c, addr, token, &ra, now, out);
    if (ra.steered && c->steer_k >= 0) {
        bool steered;
        L1dResult r = load_steered(c, addr, token, &ra, now, out, &steered);
        if (steered)
            return r;
    }
    ra.steered = false;
    TagsProbe p = tags_probe(&c->tags, addr, set, &way);
    if (p == TAGS_HIT && !ra.l2_only) {
        ra.way = way;
        ra.hit = true;
        tags_hit(&c->tags, &ra);
        count_access(c, set);
        count_hit(c, set, way, &ra);
        if (c->n_mpath)
            tell_load(c, &ra, now, MPATH_OUT_HIT);
        *out = c->hit_lat;
        return L1D_HIT;
    }
    ra.hit = false;
    uint64_t la = tags_line_addr(&c->tags, addr);
    int e = mshr_find(&c->mshr, la);
    if (e >= 0) {
        /* a bypassed request for some segments serves only accesses within them */
        uint32_t segs = c->miss_rec[e].segs;
        if (!mshr_can_merge(&c->mshr, e) || (segs & segments_of(c, &ra)) != segments_of(c, &ra)) {
            c->fail_merge++;
            return L1D_FAIL_MERGE;
        }
        mshr_merge(&c->mshr, e, token);
        count_access(c, set);
        c->merge++;
        if (c->n_mpath)
            tell_load(c, &ra, now, MPATH_OUT_MERGE);
        *out = 1;
        return L1D_MERGED;
    }
    CHECK(p == TAGS_MISS || ra.l2_only);
    if (c->n_mpath && !ra.l2_only) {
        MpathResult mr = probe_mpath(c, la, &ra, now, out);
        if (mr == MPATH_BUSY)
            return L1D_FAIL_MPATH;
        if (mr == MPATH_HIT || mr == MPATH_SERVED) {
            count_access(c, set);
            tell_load(c, &ra, now, MPATH_OUT_SERVED);
            return L1D_HIT;
        }
    }
    if (mshr_full(&c->mshr)) {
        c->fail_mshr++;
        return L1D_FAIL_MSHR;
    }
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    const ReplOps *ro = c->tags.repl;
    uint32_t bytes = ro->bypass && !ra.sched_bypass && !ra.l2_only ? ro->bypass(c->tags.repl_state, &ra) : 0;
    CHECK(bytes % 32 == 0 && bytes <= c->tags.line_bytes);
    bool bypass = bytes > 0 || ra.sched_bypass || ra.l2_only;
    if (!bypass && c->alloc == CACHE_ALLOC_MISS) {
        int w = take_way(c, set, &ra, now);
        if (w == REPL_STALL) {
            c->fail_line++;
            return L1D_FAIL_LINE;
        }
        bypass = w == REPL_BYPASS;
        if (!bypass) {
            ra.way = (uint32_t)w;
            tags_install(&c->tags, set, (uint32_t)w, addr, LINE_RESERVED, &ra);
        }
    }
    /* a bypassed miss fetches the segments the access touches, unless bypass() sized it */
    if (bypass && !bytes)
        bytes = 32u * (uint32_t)popcount_u32(segments_of(c, &ra));
    if (!bytes)
        bytes = c->tags.line_bytes;
    uint32_t segs = bytes < c->tags.line_bytes ? segments_of(c, &ra) : all_segments(c);
    classify_miss(c, la, a->warp_uid);
    e = mshr_alloc(&c->mshr, la, token);
    c->miss_rec[e] = (L1dMiss){.rec = ra, .bypass = bypass, .segs = segs};
    MemReq *req = new_request(c, la << c->tags.line_bits, MREQ_READ, bytes, (uint32_t)e, now);
    if (segs != all_segments(c))
        req->sectors = segs;
    count_access(c, set);
    c->miss++;
    c->bypass += bypass;
    if (c->n_mpath)
        tell_load(c, &ra, now, MPATH_OUT_MISS);
    c->bypass_sched += ra.sched_bypass;
    c->l2_only += ra.l2_only;
    *out = 1;
    return L1D_MISS;
}

bool l1d_send_inst_fetch(L1d *c, uint64_t line_addr, uint32_t bytes, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return false;
    new_request(c, line_addr, MREQ_READ, bytes, 0, now)->inst = true;
    return true;
}

L1dResult l1d_store(L1d *c, uint64_t addr, uint32_t bytes, const ReplAccess *a, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    uint32_t set = tags_set_of(&c->tags, addr), way;
    TagsProbe p = tags_probe(&c->tags, addr, set, &way);
    if (tags_sectored(&c->tags)) {
        /* write-evict drops the valid sectors written, the line when nothing else is left */
        TagSectors *sec = p == TAGS_MISS ? NULL : tags_sectors(&c->tags, set, way);
        uint32_t written = tags_sectors_of_segments(&c->tags, a->sectors);
        if (sec && (sec->valid & written)) {
            if (!(sec->valid & ~written) && !sec->pending)
                evict_line(c, set, way, a->warp_uid, now, true);
            else
                tags_drop_sectors(&c->tags, set, way, written);
            c->store_hit_evict++;
        }
    } else if (p == TAGS_HIT) {
        evict_line(c, set, way, a->warp_uid, now, true);
        c->store_hit_evict++;
    }
    uint64_t la = tags_line_addr(&c->tags, addr);
    for (uint32_t k = 0; k < c->n_mpath; k++)
        if (c->mpath_ops[k]->on_write)
            c->mpath_ops[k]->on_write(c->mpath[k], la);
    new_request(c, addr, MREQ_WRITE, bytes, a->warp_id, now)->sectors = a->sectors; /* the ack's warp */
    c->store++;
    return L1D_SENT;
}

L1dResult l1d_atomic(L1d *c, uint64_t addr, uint32_t bytes, uint32_t token, const ReplAccess *a, uint64_t now)
{
    if (c->miss_q.n >= c->miss_queue_cap)
        return queue_full(c);
    new_request(c, addr & ~(uint64_t)(c->tags.line_bytes - 1), MREQ_ATOMIC, bytes, token, now)->sectors = a->sectors;
    c->atomic++;
    return L1D_SENT;
}

/* Allocate-on-fill: take a way for the arriving line and install it (reserved until the caller
 * fills it), or count why not. Returns the way (also in ra->way), REPL_STALL or REPL_BYPASS. */
static int place_at_fill(L1d *c, uint32_t set, ReplAccess *ra, uint64_t addr, uint64_t now)
{
    int w = take_way(c, set, ra, now);
    if (w == REPL_STALL) {
        c->fill_stall++;
    } else if (w == REPL_BYPASS) {
        c->bypass++;
    } else {
        ra->way = (uint32_t)w;
        tags_install(&c->tags, set, (uint32_t)w, addr, LINE_RESERVED, ra);
    }
    return w;
}

/* A reply to a sectored L1D (all the sectors of its request, or one of them with
 * mem.sector_replies): its sectors become valid (in the reserved line under allocate-on-miss;
 * under allocate-on-fill in the line if present, else in a new one), and the MSHR entry of each
 * sector hands back its waiters. Every sector's entry keeps the miss's record: the first one's
 * is used, as the others of the request may have been released by earlier replies. */
static int fill_sectored(L1d *c, MemReq *r, uint32_t *tokens, uint64_t now)
{
    Tags *t = &c->tags;
    uint32_t got = tags_sectors_of_segments(t, r->sectors);
    uint64_t base = sector_base(t, r->addr);
    int first = mshr_find(&c->mshr, base + (uint32_t)__builtin_ctz(got));
    CHECK(got && first >= 0);
    const L1dMiss *m = &c->miss_rec[first];
    ReplAccess ra = m->rec;
    ra.cycle = now;
    ra.at_fill = true;
    uint32_t set = ra.set, way = 0;
    if (!m->bypass) {
        TagsProbe p = tags_probe(t, r->addr, set, &way);
        int w = (int)way;
        if (c->alloc == CACHE_ALLOC_MISS)
            CHECK(p == TAGS_HIT_RESERVED && (tags_sectors(t, set, way)->pending & got) == got);
        else if (p == TAGS_MISS && (w = place_at_fill(c, set, &ra, r->addr, now)) == REPL_STALL)
            return -1;
        if (w >= 0) {
            ra.way = (uint32_t)w;
            tags_fill_sectors(t, set, (uint32_t)w, got, &ra);
        }
    }
    uint32_t n = 0;
    for (uint32_t g = got; g; g &= g - 1) {
        int e = mshr_find(&c->mshr, base + (uint32_t)__builtin_ctz(g));
        CHECK(e >= 0);
        uint32_t k;
        const uint32_t *w = mshr_waiters(&c->mshr, e, &k);
        memcpy(tokens + n, w, k * sizeof *tokens);
        n += k;
        mshr_release(&c->mshr, e);
    }
    mempool_put(c->pool, r);
    c->fill++;
    return (int)n;
}

int l1d_fill(L1d *c, MemReq *r, uint32_t *tokens, uint64_t now)
{
    if (tags_sectored(&c->tags))
        return fill_sectored(c, r, tokens, now);
    int e = (int)r->token;
    CHECK((uint32_t)e < c->mshr.n_entries);
    uint64_t la = tags_line_addr(&c->tags, r->addr);
    CHECK(c->mshr.entries[e].addr == la);
    L1dMiss *m = &c->miss_rec[e];
    ReplAccess ra = m->rec;
    ra.cycle = now;
    ra.at_fill = true;
    uint32_t set = ra.set, way;
    if (m->steered) {
        MpathAccess ma = {.line_addr = la, .warp_uid = ra.warp_uid, .inserted_by = ra.warp_uid, .pc = ra.pc, .cycle = now};
        MpathAccess victim;
        uint32_t k = (uint32_t)c->steer_k;
        tell_steered_victim(c, c->mpath_ops[k]->steered_fill(c->mpath[k], &ma, m->where, false, &victim), &victim, now);
    } else if (m->bypass) {
        /* fills no line */
    } else if (c->alloc == CACHE_ALLOC_MISS) {
        way = ra.way; /* the line reserved at the miss (its record names it) is never a victim */
        const TagLine *l = tags_line(&c->tags, set, way);
        CHECK(l->state == LINE_RESERVED && l->line_addr == la);
        tags_fill(&c->tags, set, way, &ra);
    } else {
        int w = place_at_fill(c, set, &ra, r->addr, now);
        if (w == REPL_STALL)
            return -1;
        if (w >= 0)
            tags_fill(&c->tags, set, (uint32_t)w, &ra);
    }
    uint32_t n;
    const uint32_t *w = mshr_waiters(&c->mshr, e, &n);
    memcpy(tokens, w, n * sizeof *tokens);
    mshr_release(&c->mshr, e);
    mempool_put(c->pool, r);
    c->fill++;
    return (int)n;
}

void l1d_load_serviced(L1d *c, const ReplLoad *l)
{
    if (c->tags.repl->on_load_serviced)
        c->tags.repl->on_load_serviced(c->tags.repl_state, l);
}

void l1d_count_replays(L1d *c, L1dResult cause, uint64_t n)
{
    switch (cause) {
    case L1D_FAIL_MSHR: c->fail_mshr += n; break;
    case L1D_FAIL_MERGE: c->fail_merge += n; break;
    case L1D_FAIL_LINE: c->fail_line += n; break;
    case L1D_FAIL_MISSQ: c->fail_missq += n; break;
    case L1D_FAIL_ICNT: c->fail_icnt += n; break;
    case L1D_FAIL_MPATH: c->fail_mpath += n; break;
    default: break;
    }
}
