/* mshr.c: miss status holding registers (see mshr.h). Fixed arrays sized at init; no
 * allocation afterwards. */
#include "mem/mshr.h"

#include "base/base.h"

#include <stdlib.h>

void mshr_init(Mshr *m, uint32_t n_entries, uint32_t max_merge)
{
    m->n_entries = n_entries;
    m->max_merge = max_merge;
    m->entries = xcalloc(n_entries, sizeof *m->entries);
    m->waiters = xcalloc((size_t)n_entries * max_merge, sizeof *m->waiters);
    m->free = xcalloc(n_entries, sizeof *m->free);
    m->n_free = n_entries;
    for (uint32_t i = 0; i < n_entries; i++)
        m->free[i] = n_entries - 1 - i; /* pop order 0, 1, 2, ... */
    unsigned bits = 2;
    while ((1u << bits) < 2 * n_entries)
        bits++;
    m->slot_mask = (1u << bits) - 1;
    m->slot_shift = 64 - bits;
    m->slot = xcalloc((size_t)m->slot_mask + 1, sizeof *m->slot);
    for (uint32_t i = 0; i <= m->slot_mask; i++)
        m->slot[i] = -1;
}

/* Home slot of addr (Fibonacci hashing: line addresses differ in their low bits). */
static inline uint32_t slot_of(const Mshr *m, uint64_t addr)
{
    return (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> m->slot_shift);
}

void mshr_free_all(Mshr *m)
{
    free(m->entries);
    free(m->waiters);
    free(m->slot);
    free(m->free);
}

int mshr_find(const Mshr *m, uint64_t addr)
{
    for (uint32_t h = slot_of(m, addr);; h = (h + 1) & m->slot_mask) {
        int32_t e = m->slot[h];
        if (e < 0 || m->entries[e].addr == addr)
            return e;
    }
}

int mshr_alloc(Mshr *m, uint64_t addr, uint32_t token)
{
    if (!m->n_free)
        return -1;
    uint32_t e = m->free[--m->n_free];
    MshrEntry *en = &m->entries[e];
    en->addr = addr;
    en->n_waiters = 1;
    m->waiters[e * m->max_merge] = token;
    uint32_t h = slot_of(m, addr);
    for (; m->slot[h] >= 0; h = (h + 1) & m->slot_mask)
        CHECK(m->entries[m->slot[h]].addr != addr); /* one entry per address */
    m->slot[h] = (int32_t)e;
    en->slot = h;
    return (int)e;
}

void mshr_merge(Mshr *m, int e, uint32_t token)
{
    MshrEntry *en = &m->entries[e];
    CHECK(en->n_waiters < m->max_merge);
    m->waiters[(uint32_t)e * m->max_merge + en->n_waiters++] = token;
}

void mshr_release(Mshr *m, int e)
{
    MshrEntry *en = &m->entries[e];
    en->n_waiters = 0;
    m->free[m->n_free++] = (uint32_t)e;
    /* take e out of the index, moving later entries of its probe run back into the gap */
    uint32_t h = en->slot;
    for (uint32_t j = (h + 1) & m->slot_mask;; j = (j + 1) & m->slot_mask) {
        int32_t o = m->slot[j];
        if (o < 0)
            break;
        uint32_t home = slot_of(m, m->entries[o].addr);
        /* o may fill the gap at h unless its home lies cyclically in (h, j] */
        if (((j - home) & m->slot_mask) >= ((j - h) & m->slot_mask)) {
            m->slot[h] = o;
            m->entries[o].slot = h;
            h = j;
        }
    }
    m->slot[h] = -1;
}
