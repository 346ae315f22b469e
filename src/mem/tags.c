/* tags.c: set-associative tag array (see tags.h).
 *
 * Victim choice follows GPGPU-Sim's tag array semantics: invalid ways first, never a reserved
 * way; among valid ways the replacement policy decides. The policy owns its own per-line
 * state; this file only owns tags, line states and, in a sectored cache, the sector masks
 * (GPGPU-Sim's sector_cache_block: a line is reserved while any sector is). */
#include "mem/tags.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void tags_init(Tags *t, const CacheConfig *cc, const Config *cfg, const char *owner, Stats *st,
               const char *stat_prefix, uint32_t instance)
{
    memset(t, 0, sizeof *t);
    t->n_sets = cc->n_sets;
    t->assoc = cc->assoc;
    t->line_bytes = cc->line_bytes;
    t->line_bits = log2_u64(cc->line_bytes);
    const IndexOps *io = policy_index(cc->index);
    const ReplOps *ro = policy_repl(cc->repl);
    CHECK(io && ro); /* names were validated with the config */
    index_fn_init(&t->index, io, cc->n_sets, cc->line_bytes);
    t->repl = ro;
    char key[CONF_KEY_LEN], prefix[64];
    snprintf(key, sizeof key, "%s.repl", owner);
    snprintf(prefix, sizeof prefix, "%s.repl.%s", stat_prefix, ro->meta.name);
    policy_ctx_init(&t->repl_ctx, &ro->meta, key, cfg, st, prefix, instance, 0);
    t->repl_state = ro->create ? ro->create(&t->repl_ctx, cc->n_sets, cc->assoc) : NULL;
    t->lines = xcalloc((size_t)cc->n_sets * cc->assoc, sizeof *t->lines);
    CHECK(cc->assoc <= 64); /* the per-set way masks */
    t->all_ways = cc->assoc == 64 ? UINT64_MAX : (1ull << cc->assoc) - 1;
    t->fp_stride = (cc->assoc + 7) / 8 * 8;
    t->fp = xcalloc((size_t)cc->n_sets * t->fp_stride, 1);
    t->used_ways = xcalloc(cc->n_sets, sizeof *t->used_ways);
    t->valid_ways = xcalloc(cc->n_sets, sizeof *t->valid_ways);
    t->sector_bytes = cc->sector_bytes;
    t->sector_bits = t->line_bits;
    t->n_sectors = 1;
    t->all_sectors = 1;
    t->segs_per_sector = MAX(1u, cc->line_bytes / 32);
    if (cc->sector_bytes) { /* config_check: a power of two in [32, line_bytes], line <= 1024 B */
        t->sector_bits = log2_u64(cc->sector_bytes);
        t->n_sectors = cc->line_bytes / cc->sector_bytes;
        t->all_sectors = t->n_sectors == 32 ? UINT32_MAX : (1u << t->n_sectors) - 1;
        t->segs_per_sector = cc->sector_bytes / 32;
        t->sectors = xcalloc((size_t)cc->n_sets * cc->assoc, sizeof *t->sectors);
    }
}

void tags_free(Tags *t)
{
    if (t->repl && t->repl->destroy)
        t->repl->destroy(t->repl_state);
    policy_ctx_free(&t->repl_ctx);
    free(t->lines);
    free(t->sectors);
    free(t->fp);
    free(t->used_ways);
    free(t->valid_ways);
    t->fp = NULL;
    t->used_ways = t->valid_ways = NULL;
    t->lines = NULL;
    t->sectors = NULL;
}

uint32_t tags_sectors_of_segments(const Tags *t, uint32_t segments)
{
    if (!segments)
        return t->all_sectors;
    if (t->segs_per_sector == 1)
        return segments & t->all_sectors;
    uint32_t per = t->segs_per_sector >= 32 ? UINT32_MAX : (1u << t->segs_per_sector) - 1, sectors = 0;
    for (uint32_t i = 0; i < t->n_sectors; i++)
        if (segments >> (i * t->segs_per_sector) & per)
            sectors |= 1u << i;
    return sectors;
}

uint32_t tags_segments_of_sectors(const Tags *t, uint32_t sectors)
{
    if (t->segs_per_sector == 1)
        return sectors;
    uint32_t per = t->segs_per_sector >= 32 ? UINT32_MAX : (1u << t->segs_per_sector) - 1, segments = 0;
    for (uint32_t i = 0; i < t->n_sectors; i++)
        if (sectors >> i & 1)
            segments |= per << (i * t->segs_per_sector);
    return segments;
}

/* Way `way` of `set` takes state `state`: the line and the set's masks. */
static inline void set_state(Tags *t, uint32_t set, uint32_t way, uint8_t state)
{
    uint64_t bit = 1ull << way;
    t->lines[set * t->assoc + way].state = state;
    t->used_ways[set] = state != LINE_INVALID ? t->used_ways[set] | bit : t->used_ways[set] & ~bit;
    t->valid_ways[set] = state == LINE_VALID ? t->valid_ways[set] | bit : t->valid_ways[set] & ~bit;
}

/* tags_probe for sets of more than 8 ways: eight fingerprints a step. */
TagsProbe tags_probe_wide(const Tags *t, uint32_t set, uint64_t la, uint32_t *way_out)
{
    uint64_t used = t->used_ways[set], want = tags_line_fp(la) * TAGS_BYTES;
    const uint8_t *fp = &t->fp[(size_t)set * t->fp_stride];
    const TagLine *l = &t->lines[set * t->assoc];
    for (uint32_t base = 0; base < t->assoc && (used >> base); base += 8) {
        uint64_t x;
        memcpy(&x, fp + base, 8);
        int w = tags_match_way(l, la, used, base, tags_zero_bytes(x ^ want));
        if (w >= 0)
            return tags_found(t, set, (uint32_t)w, way_out);
    }
    return TAGS_MISS;
}

/* The record a hook about (set, way) hears: the caller's own when it names them already (the
 * caches fill them in before they call), else *copy made to name them. */
static inline const ReplAccess *access_at(const ReplAccess *a, uint32_t set, uint32_t way, ReplAccess *copy)
{
    if (a->set == set && a->way == way)
        return a;
    *copy = *a;
    copy->set = set;
    copy->way = way;
    return copy;
}

int tags_policy_victim(Tags *t, uint32_t set, const ReplAccess *a, TagLine *evicted)
{
    uint64_t candidates = t->valid_ways[set];
    ReplAccess copy;
    int w = t->repl->victim(t->repl_state, access_at(a, set, a->way, &copy), candidates); /* way: unused */
    if (w >= 0) {
        CHECK((unsigned)w < t->assoc && (candidates >> w & 1));
        *evicted = *tags_line(t, set, (uint32_t)w);
    }
    return w;
}

void tags_install(Tags *t, uint32_t set, uint32_t way, uint64_t addr, uint8_t state, const ReplAccess *a)
{
    TagLine *l = tags_line(t, set, way);
    CHECK(l->state == LINE_INVALID);
    l->line_addr = addr >> t->line_bits;
    t->fp[(size_t)set * t->fp_stride + way] = tags_line_fp(l->line_addr);
    set_state(t, set, way, state);
    l->dirty = 0;
    l->warp = (uint16_t)a->warp_id;
    l->inserted_by = a->warp_uid; /* an invalid way's sectors are all clear (tags_evict) */
    l->inserted_cta = a->cta;
    l->last_pc = a->pc;
    if (t->repl->on_insert) {
        ReplAccess copy;
        t->repl->on_insert(t->repl_state, access_at(a, set, way, &copy));
    }
}

/* A sectored line's state from its sectors: reserved while any is being fetched. */
static void sectors_state(Tags *t, uint32_t set, uint32_t way, const TagSectors *s)
{
    uint8_t now = tags_line(t, set, way)->state, state = s->pending ? LINE_RESERVED : s->valid ? LINE_VALID : now;
    if (state != now) /* most sector changes leave the line's state */
        set_state(t, set, way, state);
}

/* The policy hears that data of (set, way) arrived. */
static inline void tell_fill(Tags *t, uint32_t set, uint32_t way, const ReplAccess *a)
{
    if (t->repl->on_fill) {
        ReplAccess copy;
        t->repl->on_fill(t->repl_state, access_at(a, set, way, &copy));
    }
}

void tags_fill(Tags *t, uint32_t set, uint32_t way, const ReplAccess *a)
{
    TagLine *l = tags_line(t, set, way);
    CHECK(l->state != LINE_INVALID);
    set_state(t, set, way, LINE_VALID);
    tell_fill(t, set, way, a);
}

void tags_reserve_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors)
{
    TagLine *l = tags_line(t, set, way);
    TagSectors *s = tags_sectors(t, set, way);
    CHECK(l->state != LINE_INVALID && !(s->pending & sectors));
    s->pending |= sectors;
    s->valid &= ~sectors;
    sectors_state(t, set, way, s);
}

void tags_fill_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors, const ReplAccess *a)
{
    TagLine *l = tags_line(t, set, way);
    TagSectors *s = tags_sectors(t, set, way);
    CHECK(l->state != LINE_INVALID);
    s->valid |= sectors;
    s->pending &= ~sectors;
    set_state(t, set, way, s->pending ? LINE_RESERVED : LINE_VALID); /* it holds data now */
    tell_fill(t, set, way, a);
}

void tags_write_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors)
{
    TagLine *l = tags_line(t, set, way);
    TagSectors *s = tags_sectors(t, set, way);
    CHECK(l->state != LINE_INVALID);
    s->valid |= sectors & ~s->pending;
    s->dirty |= sectors;
    l->dirty = 1;
    sectors_state(t, set, way, s);
}

void tags_drop_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors)
{
    TagSectors *s = tags_sectors(t, set, way);
    s->valid &= ~sectors;
    s->dirty &= ~sectors;
    CHECK(s->valid || s->pending);
    sectors_state(t, set, way, s);
}

void tags_hit(Tags *t, const ReplAccess *a)
{
    tags_line(t, a->set, a->way)->last_pc = a->pc;
    if (t->repl->on_hit)
        t->repl->on_hit(t->repl_state, a);
}

void tags_evict(Tags *t, uint32_t set, uint32_t way, uint32_t by_uid, uint64_t now, bool by_write)
{
    TagLine *l = tags_line(t, set, way);
    CHECK(l->state == LINE_VALID);
    if (t->repl->on_evict) {
        ReplEvict e = {.set = set, .way = way, .line_addr = l->line_addr, .inserted_by = l->inserted_by,
                       .evicted_by = by_uid, .cycle = now, .by_write = by_write};
        t->repl->on_evict(t->repl_state, &e);
    }
    set_state(t, set, way, LINE_INVALID);
    l->dirty = 0;
    if (t->sectors)
        *tags_sectors(t, set, way) = (TagSectors){0};
}
