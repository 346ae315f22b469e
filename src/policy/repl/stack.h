/* stack.h: a recency stack per set, for the replacement policies that insert and promote by
 * position (LRU, DIP, DaCache).
 *
 * pos[set * assoc + way] is the way's position in its set's LRU chain: 0 is MRU, assoc-1 LRU.
 * Positions are a permutation of 0..assoc-1 in every set. Moving a way to position p shifts the
 * ways between its old and new positions by one, as an insertion into the chain at p would.
 * Keeping positions (not timestamps) makes insertion at p and promotion by n the same shift. */
#ifndef WARPSIM_REPL_STACK_H
#define WARPSIM_REPL_STACK_H

#include <stdint.h>
#include <stdlib.h>

#include "base/base.h"

typedef struct ReplStack {
    uint32_t assoc;
    uint8_t *pos;
} ReplStack;

static inline void repl_stack_init(ReplStack *s, uint32_t n_sets, uint32_t assoc)
{
    CHECK(assoc <= 64);
    s->assoc = assoc;
    s->pos = xmalloc((size_t)n_sets * assoc);
    for (uint32_t set = 0; set < n_sets; set++)
        for (uint32_t w = 0; w < assoc; w++)
            s->pos[set * assoc + w] = (uint8_t)w;
}

static inline void repl_stack_free(ReplStack *s) { free(s->pos); }

static inline uint32_t repl_stack_pos(const ReplStack *s, uint32_t set, uint32_t way)
{
    return s->pos[set * s->assoc + way];
}

/* Move `way` to position `to` (clamped to the LRU end). */
static inline void repl_stack_move(ReplStack *s, uint32_t set, uint32_t way, uint32_t to)
{
    uint8_t *p = &s->pos[set * s->assoc];
    uint32_t from = p[way];
    to = to < s->assoc ? to : s->assoc - 1;
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (from > to && p[w] >= to && p[w] < from)
            p[w]++; /* moving up: the ways it passes go down one */
        else if (from < to && p[w] > from && p[w] <= to)
            p[w]--;
    }
    p[way] = (uint8_t)to;
}

/* The candidate closest to the LRU end at position `lowest` or below it in the chain (lowest = 0:
 * any candidate), or -1 when none is there. */
static inline int repl_stack_victim(const ReplStack *s, uint32_t set, uint64_t candidates, uint32_t lowest)
{
    const uint8_t *p = &s->pos[set * s->assoc];
    int best = -1;
    for (uint32_t w = 0; w < s->assoc; w++)
        if ((candidates >> w & 1) && p[w] >= lowest && (best < 0 || p[w] > p[best]))
            best = (int)w;
    return best;
}

#endif
