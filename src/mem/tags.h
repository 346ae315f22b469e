/* tags.h: a set-associative tag array with a pluggable set-index function and replacement
 * policy (the "tags" of DESIGN.md: index fn + repl policy), shared by the L1D and the L2.
 *
 * A line is INVALID, RESERVED (allocated for a miss whose data has not returned: it can be
 * merged into but not evicted) or VALID. Each line remembers which warp brought it in and, once
 * evicted, the set remembers nothing: the miss classifier (l1d.c) keeps its own record.
 *
 * A sectored cache (sector_bytes > 0, GPGPU-Sim 4.x's sector_cache_block) keeps per line which
 * sectors hold data, which are being fetched and which are dirty. Its line state summarises
 * them: RESERVED while any sector is being fetched (so, as in GPGPU-Sim, a line with a reserved
 * sector is never a victim), else VALID. Sectors are filled, written and dropped one by one;
 * the line is installed and evicted whole. Sector masks are built from the coalescer's 32-byte
 * segments (bit i: bytes 32i..32i+31 of the line). */
#ifndef WARPSIM_TAGS_H
#define WARPSIM_TAGS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/policy.h"

enum { LINE_INVALID = 0, LINE_RESERVED = 1, LINE_VALID = 2 };

typedef struct TagLine {
    uint64_t line_addr; /* address >> line_bits */
    uint8_t state;
    uint8_t dirty;
    uint16_t warp;      /* warp (SM slot) that allocated it */
    uint32_t inserted_by; /* uid of that warp (ReplAccess.warp_uid) */
    uint32_t inserted_cta; /* its CTA (ReplAccess.cta) */
    uint32_t last_pc;   /* pc of the last access that inserted or hit it */
} TagLine;

/* A sectored line's sectors (bit i: sector i). */
typedef struct TagSectors {
    uint32_t valid;   /* hold data */
    uint32_t pending; /* being fetched (reserved) */
    uint32_t dirty;   /* written (the L2's write-back writes only these) */
} TagSectors;

typedef struct Tags {
    uint32_t n_sets, assoc, line_bytes;
    unsigned line_bits;
    uint32_t sector_bytes;  /* 0: whole lines */
    unsigned sector_bits;   /* log2(sector_bytes), or line_bits when not sectored */
    uint32_t n_sectors;     /* per line (1 when not sectored) */
    uint32_t all_sectors;   /* mask of every sector of a line */
    uint32_t segs_per_sector; /* 32-byte segments per sector */
    TagSectors *sectors;    /* n_sets * assoc, set-major; NULL when not sectored */
    IndexFn index;
    const ReplOps *repl;
    void *repl_state;
    PolicyCtx repl_ctx;
    TagLine *lines; /* n_sets * assoc, set-major */
    /* Kept with the lines' states and addresses (only tags.c writes them), so that a probe
     * reads one dense row and a victim choice no way at all: per set the ways not invalid and
     * the valid ways (assoc <= 64), and per way, stale once invalid, a byte hashed from its
     * line_addr (fp, fp_stride bytes a set: assoc rounded up to 8), which the probe compares
     * eight at a time. */
    uint8_t *fp;
    uint32_t fp_stride;
    uint64_t *used_ways, *valid_ways;
    uint64_t all_ways; /* the mask of every way of a set */
} Tags;

typedef enum TagsProbe { TAGS_MISS, TAGS_HIT, TAGS_HIT_RESERVED } TagsProbe;

/* owner: the cache's config prefix ("l1d", "l2"), whose .repl policy is created with its
 * options; its stats are registered as "<stat_prefix>.repl.<name>" (st may be NULL). */
void tags_init(Tags *t, const CacheConfig *cc, const Config *cfg, const char *owner, Stats *st,
               const char *stat_prefix, uint32_t instance);
void tags_free(Tags *t);

static inline uint64_t tags_line_addr(const Tags *t, uint64_t addr) { return addr >> t->line_bits; }
static inline uint32_t tags_set_of(const Tags *t, uint64_t addr) { return index_fn_set(&t->index, addr); }
static inline TagLine *tags_line(const Tags *t, uint32_t set, uint32_t way) { return &t->lines[set * t->assoc + way]; }

static inline bool tags_sectored(const Tags *t) { return t->sectors != NULL; }
static inline TagSectors *tags_sectors(const Tags *t, uint32_t set, uint32_t way)
{
    return &t->sectors[set * t->assoc + way];
}
/* The sector of a byte address within its line. */
static inline uint32_t tags_sector_of(const Tags *t, uint64_t addr)
{
    return (uint32_t)(addr >> t->sector_bits) & (t->n_sectors - 1);
}
/* The sectors covering a mask of 32-byte segments (0, "no mask", means the whole line), and
 * the segments a mask of sectors covers. */
uint32_t tags_sectors_of_segments(const Tags *t, uint32_t segments);
uint32_t tags_segments_of_sectors(const Tags *t, uint32_t sectors);

/* ---- the probe (inline: every access of both caches looks its line up) ---- */

/* A line address's byte in the fingerprint row. */
static inline uint8_t tags_line_fp(uint64_t la) { return (uint8_t)((la * 0x9E3779B97F4A7C15ull) >> 56); }

#define TAGS_BYTES 0x0101010101010101ull
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a fingerprint word holds way base + i in byte i");

/* The bytes of x that are zero have their high bit set (and a few above one too). */
static inline uint64_t tags_zero_bytes(uint64_t x) { return (x - TAGS_BYTES) & ~x & (TAGS_BYTES << 7); }

/* The ways among `cand` (bit 8i + 7: way base + i; the bytes of a fingerprint word matching
 * la's, and a few above one, the zero-byte test's false hits) that are in use and hold la:
 * the lowest, as a scan of the ways finds, or -1. */
static inline int tags_match_way(const TagLine *l, uint64_t la, uint64_t used, uint32_t base, uint64_t cand)
{
    for (; cand; cand &= cand - 1) {
        uint32_t w = base + (uint32_t)__builtin_ctzll(cand) / 8; /* used bits: none at w >= assoc */
        if ((used >> w & 1) && l[w].line_addr == la)
            return (int)w;
    }
    return -1;
}

/* The probe's answer for way w of set, found holding the line. */
static inline TagsProbe tags_found(const Tags *t, uint32_t set, uint32_t w, uint32_t *way_out)
{
    *way_out = w;
    return t->valid_ways[set] >> w & 1 ? TAGS_HIT : TAGS_HIT_RESERVED;
}

TagsProbe tags_probe_wide(const Tags *t, uint32_t set, uint64_t la, uint32_t *way_out);

/* Look the line of addr up in its set; *way_out is the way when found. Up to 8 ways, one
 * fingerprint word: fewer instructions than a scan of the line addresses even at 4 ways, as a
 * missing line's probe seldom compares an address. */
static inline TagsProbe tags_probe(const Tags *t, uint64_t addr, uint32_t set, uint32_t *way_out)
{
    uint64_t la = addr >> t->line_bits, x;
    if (t->assoc > 8)
        return tags_probe_wide(t, set, la, way_out);
    memcpy(&x, &t->fp[(size_t)set * 8], 8);
    int w = tags_match_way(&t->lines[set * t->assoc], la, t->used_ways[set], 0,
                           tags_zero_bytes(x ^ tags_line_fp(la) * TAGS_BYTES));
    return w >= 0 ? tags_found(t, set, (uint32_t)w, way_out) : TAGS_MISS;
}

/* Choose a way for a new line in `set`: an invalid way if any, else the policy's victim among
 * valid ways (reserved ways are never victims). Returns the way, or REPL_STALL when every way
 * is reserved (or the policy says stall), or REPL_BYPASS. *evicted is set to the victim (a copy)
 * when a valid line is displaced, else its state is LINE_INVALID. Does not change the line. */
int tags_policy_victim(Tags *t, uint32_t set, const ReplAccess *a, TagLine *evicted); /* its last step */
static inline int tags_choose_victim(Tags *t, uint32_t set, const ReplAccess *a, TagLine *evicted)
{
    evicted->state = LINE_INVALID;
    uint64_t free_ways = ~t->used_ways[set] & t->all_ways;
    if (free_ways) /* the first invalid way */
        return (int)__builtin_ctzll(free_ways);
    if (!t->valid_ways[set])
        return REPL_STALL;
    return tags_policy_victim(t, set, a, evicted);
}

/* Install addr in (set, way) as RESERVED (allocate-on-miss) or VALID (fill); tells the policy
 * (on_insert). The way must be invalid: tags_evict a valid victim first. A sectored line starts
 * with no sector: tags_reserve_sectors, tags_fill_sectors or tags_write_sectors give it some. */
void tags_install(Tags *t, uint32_t set, uint32_t way, uint64_t addr, uint8_t state, const ReplAccess *a);
/* The data of (set, way) arrived: reserved -> valid; tells the policy (on_fill). Whole-line
 * caches only: a sectored one fills with tags_fill_sectors. */
void tags_fill(Tags *t, uint32_t set, uint32_t way, const ReplAccess *a);
/* Sectored caches. Reserve: `sectors` of the present line are being fetched (a sector miss or
 * a new line's miss). Fill: they arrived; tells the policy (on_fill). Write: they now hold
 * written data (valid and dirty; a sector being fetched stays pending and is dirty once
 * filled). Drop: they lose their data (a store's write-evict); the line must keep a valid or
 * pending sector, else the caller evicts it with tags_evict. */
void tags_reserve_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors);
void tags_fill_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors, const ReplAccess *a);
void tags_write_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors);
void tags_drop_sectors(Tags *t, uint32_t set, uint32_t way, uint32_t sectors);
void tags_hit(Tags *t, const ReplAccess *a);
/* Whether every way of `set` is reserved (tags_choose_victim then stalls without the policy). */
static inline bool tags_set_reserved(const Tags *t, uint32_t set)
{
    return t->used_ways[set] == t->all_ways && !t->valid_ways[set];
}
/* A valid line leaves: replaced by warp by_uid's access, or written by its store (by_write);
 * tells the policy (on_evict) and makes the way invalid. */
void tags_evict(Tags *t, uint32_t set, uint32_t way, uint32_t by_uid, uint64_t now, bool by_write);

#endif
