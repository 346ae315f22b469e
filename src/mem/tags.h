/* tags.h: a set-associative tag array with a pluggable set-index function and replacement
 * policy (the "tags" of DESIGN.md: index fn + repl policy), shared by the L1D and the L2.
 *
 * A line is INVALID, RESERVED (allocated for a miss whose data has not returned: it can be
 * merged into but not evicted) or VALID. Each line remembers which warp brought it in and, once
 * evicted, the set remembers nothing: the miss classifier (l1d.c) keeps its own record. */
#ifndef WARPSIM_TAGS_H
#define WARPSIM_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/policy.h"

enum { LINE_INVALID = 0, LINE_RESERVED = 1, LINE_VALID = 2 };

typedef struct TagLine {
    uint64_t line_addr; /* address >> line_bits */
    uint8_t state;
    uint8_t dirty;
    uint16_t warp;      /* warp (SM slot) that allocated it */
    uint32_t inserted_by; /* uid of that warp (ReplAccess.warp_uid) */
} TagLine;

typedef struct Tags {
    uint32_t n_sets, assoc, line_bytes;
    unsigned line_bits;
    IndexFn index;
    const ReplOps *repl;
    void *repl_state;
    PolicyCtx repl_ctx;
    TagLine *lines; /* n_sets * assoc, set-major */
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

/* Look the line of addr up in its set; *way_out is the way when found. */
TagsProbe tags_probe(const Tags *t, uint64_t addr, uint32_t set, uint32_t *way_out);

/* Choose a way for a new line in `set`: an invalid way if any, else the policy's victim among
 * valid ways (reserved ways are never victims). Returns the way, or REPL_STALL when every way
 * is reserved (or the policy says stall), or REPL_BYPASS. *evicted is set to the victim (a copy)
 * when a valid line is displaced, else its state is LINE_INVALID. Does not change the line. */
int tags_choose_victim(Tags *t, uint32_t set, const ReplAccess *a, TagLine *evicted);

/* Install addr in (set, way) as RESERVED (allocate-on-miss) or VALID (fill); tells the policy
 * (on_insert). The way must be invalid: tags_evict a valid victim first. */
void tags_install(Tags *t, uint32_t set, uint32_t way, uint64_t addr, uint8_t state, const ReplAccess *a);
/* The data of (set, way) arrived: reserved -> valid; tells the policy (on_fill). */
void tags_fill(Tags *t, uint32_t set, uint32_t way, const ReplAccess *a);
void tags_hit(Tags *t, const ReplAccess *a);
/* A valid line leaves: replaced by warp by_uid's access, or written by its store (by_write);
 * tells the policy (on_evict) and makes the way invalid. */
void tags_evict(Tags *t, uint32_t set, uint32_t way, uint32_t by_uid, uint64_t now, bool by_write);

#endif
