/* stack.h: a recency stack per set, for the replacement policies that insert and promote by
 * position (LRU, DIP, DaCache).
 *
 * pos[set * stride + way] is the way's position in its set's LRU chain: 0 is MRU, assoc-1 LRU.
 * Positions are a permutation of 0..assoc-1 in every set. A set's row is padded to whole
 * words of eight (stride) with REPL_STACK_PAD, which no word step changes or matches. Moving a way to position p shifts the
 * ways between its old and new positions by one, as an insertion into the chain at p would.
 * Keeping positions (not timestamps) makes insertion at p and promotion by n the same shift. */
#ifndef WARPSIM_REPL_STACK_H
#define WARPSIM_REPL_STACK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

typedef struct ReplStack {
    uint32_t assoc;
    uint32_t stride; /* bytes a set: assoc rounded up to 8 */
    uint8_t *pos;
} ReplStack;

/* Above every position (< 64), so that a move's word step leaves it, and never looked for. */
#define REPL_STACK_PAD 127

static inline void repl_stack_init(ReplStack *s, uint32_t n_sets, uint32_t assoc)
{
    CHECK(assoc <= 64);
    s->assoc = assoc;
    s->stride = (assoc + 7) / 8 * 8;
    s->pos = xmalloc((size_t)n_sets * s->stride);
    memset(s->pos, REPL_STACK_PAD, (size_t)n_sets * s->stride);
    for (uint32_t set = 0; set < n_sets; set++)
        for (uint32_t w = 0; w < assoc; w++)
            s->pos[set * s->stride + w] = (uint8_t)w;
}

static inline void repl_stack_free(ReplStack *s) { free(s->pos); }

/* Eight positions at once (byte i of the word: way i, little-endian; positions are < 64, so
 * no byte's arithmetic reaches the next). */
#define REPL_STACK_BYTES 0x0101010101010101ull
#define REPL_STACK_HIGH 0x8080808080808080ull
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "repl_stack's words hold way i in byte i");

static inline uint32_t repl_stack_pos(const ReplStack *s, uint32_t set, uint32_t way)
{
    return s->pos[set * s->stride + way];
}

/* Move `way` to position `to` (clamped to the LRU end). */
static inline void repl_stack_move(ReplStack *s, uint32_t set, uint32_t way, uint32_t to)
{
    uint8_t *p = &s->pos[set * s->stride];
    uint32_t from = p[way];
    to = to < s->assoc ? to : s->assoc - 1;
    if (to == 0 && from > 0) { /* to MRU (LRU's every move): the ways above it go down one */
        for (uint32_t w = 0; w < s->assoc; w += 8) { /* a byte's high bit: 128 + (from - 1) - p >= 128, p < from */
            uint64_t x;
            memcpy(&x, p + w, 8);
            x += ((((from - 1) * REPL_STACK_BYTES | REPL_STACK_HIGH) - x) & REPL_STACK_HIGH) >> 7;
            memcpy(p + w, &x, 8);
        }
        p[way] = 0;
        return;
    }
    for (uint32_t w = 0; w < s->assoc; w++) {
        if (from > to && p[w] >= to && p[w] < from)
            p[w]++; /* moving up: the ways it passes go down one */
        else if (from < to && p[w] > from && p[w] <= to)
            p[w]--;
    }
    p[way] = (uint8_t)to;
}

/* The way at position pos of a set's positions p (a padded row): the only byte equal to pos,
 * a zero byte of x (the test's false hits lie only above a true one). */
static inline int repl_stack_way_at(const uint8_t *p, uint32_t pos)
{
    for (uint32_t w = 0;; w += 8) {
        uint64_t x;
        memcpy(&x, p + w, 8);
        x ^= pos * REPL_STACK_BYTES;
        uint64_t zero = (x - REPL_STACK_BYTES) & ~x & REPL_STACK_HIGH;
        if (zero)
            return (int)(w + (uint32_t)__builtin_ctzll(zero) / 8);
    }
}

/* The candidate closest to the LRU end at position `lowest` or below it in the chain (lowest = 0:
 * any candidate), or -1 when none is there. */
static inline int repl_stack_victim(const ReplStack *s, uint32_t set, uint64_t candidates, uint32_t lowest)
{
    const uint8_t *p = &s->pos[set * s->stride];
    /* the ways at the LRU end first: usually the deepest is a candidate */
    for (uint32_t pos = s->assoc - 1, tries = 0; pos >= lowest && pos < s->assoc && tries < 2; pos--, tries++) {
        int w = repl_stack_way_at(p, pos);
        if (candidates >> w & 1)
            return w;
    }
    int best = -1;
    for (uint32_t w = 0; w < s->assoc; w++)
        if ((candidates >> w & 1) && p[w] >= lowest && (best < 0 || p[w] > p[best]))
            best = (int)w;
    return best;
}

#endif
