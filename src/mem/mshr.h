/* mshr.h: miss status holding registers of one cache.
 *
 * Fully associative: an entry tracks one line in flight (in a sectored cache, one sector: the
 * owner keys entries by sector address, as GPGPU-Sim's mshr_addr does for sector caches) and up
 * to max_merge waiting accesses (the first access included), each an opaque 32-bit token of
 * the owner's choosing. An access
 * that finds its line in flight merges if the entry has room; a new miss needs a free entry.
 * Running out of either is a reservation failure that makes the access replay (thesis 1.2.3,
 * memory occlusion). Lookups go through a small open-addressing index of the entries in use
 * (linear probing, backward-shift deletion), so a lookup costs the same with 64 entries busy
 * as with one. */
#ifndef WARPSIM_MSHR_H
#define WARPSIM_MSHR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct MshrEntry {
    uint64_t addr; /* what it tracks: a line address, or a sector address (sectored caches) */
    uint32_t n_waiters;
    uint32_t slot; /* its place in the index, so that a release need not look for it */
} MshrEntry;

typedef struct Mshr {
    uint32_t n_entries, max_merge;
    MshrEntry *entries;
    uint32_t *waiters; /* n_entries * max_merge tokens */
    uint32_t *free;    /* stack of free entry indices */
    uint32_t n_free;
    int32_t *slot;     /* the index: entry number or -1, slot_mask + 1 slots (at least twice n_entries) */
    uint32_t slot_mask, slot_shift;
} Mshr;

void mshr_init(Mshr *m, uint32_t n_entries, uint32_t max_merge);
void mshr_free_all(Mshr *m);

/* Entry tracking addr, or -1. */
int mshr_find(const Mshr *m, uint64_t addr);
static inline bool mshr_full(const Mshr *m) { return m->n_free == 0; }
static inline bool mshr_can_merge(const Mshr *m, int e) { return m->entries[e].n_waiters < m->max_merge; }
static inline uint32_t mshr_in_use(const Mshr *m) { return m->n_entries - m->n_free; }

/* New entry for addr with its first waiter; -1 if full. */
int mshr_alloc(Mshr *m, uint64_t addr, uint32_t token);
/* Add a waiter to an existing entry (the caller checked mshr_can_merge). */
void mshr_merge(Mshr *m, int e, uint32_t token);
/* The waiters of entry e (valid until the entry is released). */
static inline const uint32_t *mshr_waiters(const Mshr *m, int e, uint32_t *n)
{
    *n = m->entries[e].n_waiters;
    return &m->waiters[(uint32_t)e * m->max_merge];
}
void mshr_release(Mshr *m, int e);

#endif
