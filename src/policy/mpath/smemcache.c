/* smemcache.c: CIAO's shared-memory cache (Zhang et al., IPDPS 2018: III-B, IV-B, Fig. 7), the
 * L1D's alternate store for the warps CIAO-P and CIAO-C isolate (src/policy/warp/ciao_sched.c
 * steers them; policy.h, MpathOps.steered_probe).
 *
 * The unused shared memory of the SM (sm.smem_bytes minus what the resident CTAs allocate,
 * recomputed as CTAs arrive and leave: on_smem_unused) is a direct-mapped cache of 128-byte
 * lines with tags (line and WID) in the other bank group (smemcache.h: layout and address
 * translation, Fig. 7c). A steered load looks up its set: a hit returns after the shared
 * memory's latency (smem.lat, plus l1d.smemcache.lat for the translation unit): the tag and
 * the data are read in one pass, as they sit in different bank groups (IV-B), so a line access
 * has no bank conflict. A miss gives its set to the L1D, which keeps it in the MSHR entry
 * (IV-B: the MSHR holds the translated address) or migrates the line out of the L1D at once
 * (IV-B "Performance optimization and coherence"); the line is written into its set when its
 * data comes (steered_fill), replacing whatever was there.
 *
 * Coherence: a line lives in one place. A migration takes it out of the L1D; a load of a warp
 * that is not isolated that misses in the L1D and finds its line here reads it here
 * (MPATH_SERVED) and the line stays; a store drops the copy here (on_write), as the L1D's
 * write-evict drops its own (write-through, no allocate, Table I).
 *
 * Choices where the paper is silent:
 * - The cache sits at the top of the shared memory (data rows highest), so that it keeps its
 *   place while the CTAs' allocations below it change; only a change of its size (the row
 *   mask) moves lines, and then every line is dropped (they are clean: stores write through).
 *   A fill whose set belonged to an older geometry is dropped (fill_dropped).
 * - data_rows is the largest power of two (at most 256: the 8-bit mask) whose data and tag
 *   rows fit the unused whole rows. With no room at all the store declines (MPATH_NOWHERE) and
 *   the access goes to the L1D as if not isolated.
 * - Accesses never wait for a port: the LD/ST unit presents one access a cycle and the
 *   program's own shared-memory instructions go through the same unit, so they never meet.
 * - The owner of a line (for the interference detector's VTA) is the warp whose access put it
 *   here, by a fill or a migration.
 *
 * Options: l1d.smemcache.lat (cycles the translation unit adds, default 0), l1d.smemcache.index
 * (direct: Fig. 7c; xor: the row index hashed, smemcache.h). Stats
 * (sm[i].l1d.smemcache.*): probe, hit, miss, migrate, fill, evict, served, drop, nowhere,
 * resize, resize_drop, fill_dropped, lines_max. */
#include "policy/mpath/smemcache.h"

#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

SmemCacheGeom smemcache_geometry(uint32_t smem_bytes, uint32_t unused_bytes)
{
    SmemCacheGeom g = {0};
    uint32_t total = smem_bytes / SMEMCACHE_ROW_BYTES;
    uint32_t rows = MIN(unused_bytes, smem_bytes) / SMEMCACHE_ROW_BYTES;
    for (uint32_t d = SMEMCACHE_MAX_ROWS; d; d /= 2) {
        uint32_t t = MAX(1u, d / SMEMCACHE_TAGS_PER_ROW);
        if (d + t <= rows) {
            g.data_rows = d;
            g.tag_rows = t;
            break;
        }
    }
    if (!g.data_rows)
        return g;
    g.data_row0 = total - g.data_rows;
    g.tag_row0 = g.data_row0 - g.tag_rows;
    g.lines = 2 * g.data_rows;
    return g;
}

SmemCacheLoc smemcache_translate(const SmemCacheGeom *g, uint64_t addr)
{
    uint32_t f = (uint32_t)(addr & 7), b = (uint32_t)(addr >> 3 & 15), grp = (uint32_t)(addr >> 7 & 1);
    uint32_t r = (uint32_t)(addr >> 8) & (g->data_rows - 1);
    if (g->xor_rows)
        r ^= (uint32_t)(addr >> (8 + __builtin_ctz(g->data_rows))) & (g->data_rows - 1);
    SmemCacheLoc l;
    l.set = 2 * r + grp;
    l.data_addr = (g->data_row0 + r) * SMEMCACHE_ROW_BYTES + grp * SMEMCACHE_LINE_BYTES + b * 8 + f;
    uint32_t tag_row = g->tag_row0 + r / SMEMCACHE_TAGS_PER_ROW, slot = r % SMEMCACHE_TAGS_PER_ROW;
    l.tag_addr = tag_row * SMEMCACHE_ROW_BYTES + (grp ^ 1) * SMEMCACHE_LINE_BYTES + slot / 2 * 8 + slot % 2 * 4;
    return l;
}

typedef struct SmemCacheOpts {
    uint32_t lat;
    uint32_t index;
} SmemCacheOpts;

static const OptDesc smemcache_opts[] = {
    {"lat", OPT_U32, offsetof(SmemCacheOpts, lat), "0", 0, 1000, NULL, "cycles",
     "cycles the address translation unit adds to a shared-memory cache access (on top of smem.lat)"},
    {"index", OPT_ENUM, offsetof(SmemCacheOpts, index), "direct", 0, 0, "direct|xor", "",
     "the data row of a line: the address bits above the bank group (direct, Fig. 7c), or those XORed with the "
     "next bits (xor)"},
};

#define SETS_MAX (2 * SMEMCACHE_MAX_ROWS)
#define GEN_SHIFT 9 /* where = set | geometry generation << GEN_SHIFT */

typedef struct SmemCache {
    uint32_t smem_bytes, lat, line_bits;
    bool xor_rows;
    SmemCacheGeom g;
    uint32_t gen; /* geometries so far: a fill for an older one is dropped */
    uint64_t line[SETS_MAX];
    uint32_t owner[SETS_MAX]; /* uid of the warp that put the line here */
    uint8_t valid[SETS_MAX];
    uint64_t probe, hit, miss, migrate, fill, evict, served, drop, nowhere, resize, resize_drop, fill_dropped;
    uint64_t lines_max;
} SmemCache;

static void *smemcache_create(const PolicyCtx *ctx, uint32_t line_bytes)
{
    const Config *cfg = ctx->cfg;
    if (line_bytes != SMEMCACHE_LINE_BYTES || cfg->smem.n_banks != 32)
        fatal("the shared-memory cache (CIAO, sm.sched=%s) needs 128-byte L1D lines and 32 shared-memory banks "
              "(l1d.line_bytes = %u, smem.n_banks = %u)",
              cfg->sm.sched, line_bytes, cfg->smem.n_banks);
    const SmemCacheOpts *o = ctx->opts;
    SmemCache *s = xcalloc(1, sizeof *s);
    s->smem_bytes = cfg->sm.smem_bytes;
    s->lat = cfg->smem.lat + o->lat;
    s->line_bits = 7;
    s->xor_rows = o->index == 1;
#define C(f, h) policy_stat_counter(ctx, &s->f, #f, h)
    C(probe, "steered loads (of isolated warps) looked up in the shared-memory cache");
    C(hit, "steered loads that found their line in the shared-memory cache");
    C(miss, "steered loads that did not (migrated from the L1D, merged, or sent to the L2)");
    C(migrate, "lines migrated from the L1D on a steered miss (IV-B: evicted to the response queue)");
    C(fill, "lines written by a reply from the L2 to a steered miss");
    C(evict, "valid lines replaced by a fill or a migration (told to the interference detector)");
    C(served, "L1D misses of warps not isolated served from the shared-memory cache in place");
    C(drop, "lines dropped because a store wrote them");
    C(nowhere, "steered loads sent to the L1D because no shared memory was unused");
    C(resize, "changes of the cache's size as CTAs arrived and left");
    C(resize_drop, "lines dropped by a change of size");
    C(fill_dropped, "fills dropped because the cache's size changed while they were in flight");
    C(lines_max, "the most lines the cache had (2 per data row)");
#undef C
    return s;
}

static void smemcache_destroy(void *self) { free(self); }

uint32_t smemcache_lines_now(const void *component) { return ((const SmemCache *)component)->g.lines; }

static uint32_t set_of(const SmemCache *s, uint64_t line_addr)
{
    return smemcache_translate(&s->g, line_addr << s->line_bits).set;
}

static bool present(const SmemCache *s, uint64_t line_addr, uint32_t *set)
{
    if (!s->g.lines)
        return false;
    *set = set_of(s, line_addr);
    return s->valid[*set] && s->line[*set] == line_addr;
}

static MpathResult smemcache_steered_probe(void *self, const MpathAccess *a, uint32_t *lat_cycles, uint32_t *where)
{
    SmemCache *s = self;
    uint32_t set = 0;
    if (!s->g.lines) {
        s->nowhere++;
        *where = MPATH_NOWHERE;
        return MPATH_MISS;
    }
    s->probe++;
    *lat_cycles = s->lat;
    if (present(s, a->line_addr, &set)) {
        s->hit++;
        return MPATH_HIT;
    }
    s->miss++;
    *where = set | s->gen << GEN_SHIFT;
    return MPATH_MISS;
}

static bool smemcache_steered_fill(void *self, const MpathAccess *a, uint32_t where, bool migrated, MpathAccess *victim)
{
    SmemCache *s = self;
    if (where >> GEN_SHIFT != (s->gen & (UINT32_MAX >> GEN_SHIFT))) {
        s->fill_dropped++;
        return false;
    }
    uint32_t set = where & (SETS_MAX - 1);
    CHECK(set < s->g.lines && set == set_of(s, a->line_addr));
    bool displaced = s->valid[set] && s->line[set] != a->line_addr;
    if (displaced) {
        *victim = (MpathAccess){.line_addr = s->line[set], .inserted_by = s->owner[set], .warp_uid = a->warp_uid,
                                .cycle = a->cycle};
        s->evict++;
    }
    s->valid[set] = 1;
    s->line[set] = a->line_addr;
    s->owner[set] = a->warp_uid;
    if (migrated)
        s->migrate++;
    else
        s->fill++;
    return displaced;
}

static MpathResult smemcache_probe(void *self, const MpathAccess *a, uint32_t *lat_cycles)
{
    SmemCache *s = self;
    uint32_t set = 0;
    if (!present(s, a->line_addr, &set))
        return MPATH_MISS;
    s->served++;
    *lat_cycles = s->lat;
    return MPATH_SERVED;
}

static void smemcache_on_write(void *self, uint64_t line_addr)
{
    SmemCache *s = self;
    uint32_t set = 0;
    if (present(s, line_addr, &set)) {
        s->valid[set] = 0;
        s->drop++;
    }
}

static void smemcache_on_smem_unused(void *self, uint32_t bytes)
{
    SmemCache *s = self;
    SmemCacheGeom g = smemcache_geometry(s->smem_bytes, bytes);
    g.xor_rows = s->xor_rows;
    if (g.data_rows == s->g.data_rows && s->gen)
        return;
    for (uint32_t i = 0; i < s->g.lines; i++)
        s->resize_drop += s->valid[i];
    memset(s->valid, 0, sizeof s->valid);
    s->g = g;
    s->gen++;
    s->resize++;
    s->lines_max = MAX(s->lines_max, g.lines);
}

const MpathOps mpath_smemcache_ops = {
    .meta = {.name = "smemcache",
             .help = "CIAO's cache in unused shared memory (direct-mapped, tags in the other bank group) for the loads "
                     "of warps a CIAO scheduler isolates (sm.sched = ciao-p or ciao-c)",
             POLICY_OPTS(smemcache_opts, SmemCacheOpts)},
    .create = smemcache_create,
    .destroy = smemcache_destroy,
    .probe = smemcache_probe,
    .on_write = smemcache_on_write,
    .steered_probe = smemcache_steered_probe,
    .steered_fill = smemcache_steered_fill,
    .on_smem_unused = smemcache_on_smem_unused,
};
