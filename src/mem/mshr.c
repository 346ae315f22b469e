/* mshr.c: miss status holding registers (see mshr.h). Fixed arrays sized at init; no
 * allocation afterwards. */
#include "mem/mshr.h"

#include "base/base.h"

#include <stdlib.h>

void mshr_init(Mshr *m, uint32_t n_entries, uint32_t max_merge)
{
    m->n_entries = n_entries;
    m->max_merge = max_merge;
    m->n_used = 0;
    m->entries = xcalloc(n_entries, sizeof *m->entries);
    m->waiters = xcalloc((size_t)n_entries * max_merge, sizeof *m->waiters);
    m->used = xcalloc(n_entries, sizeof *m->used);
    m->free = xcalloc(n_entries, sizeof *m->free);
    m->n_free = n_entries;
    for (uint32_t i = 0; i < n_entries; i++)
        m->free[i] = n_entries - 1 - i; /* pop order 0, 1, 2, ... */
}

void mshr_free_all(Mshr *m)
{
    free(m->entries);
    free(m->waiters);
    free(m->used);
    free(m->free);
}

int mshr_find(const Mshr *m, uint64_t addr)
{
    for (uint32_t i = 0; i < m->n_used; i++)
        if (m->entries[m->used[i]].addr == addr)
            return (int)m->used[i];
    return -1;
}

int mshr_alloc(Mshr *m, uint64_t addr, uint32_t token)
{
    if (!m->n_free)
        return -1;
    uint32_t e = m->free[--m->n_free];
    MshrEntry *en = &m->entries[e];
    en->addr = addr;
    en->n_waiters = 1;
    en->used_pos = m->n_used;
    m->used[m->n_used++] = e;
    m->waiters[e * m->max_merge] = token;
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
    uint32_t pos = en->used_pos, last = m->used[--m->n_used];
    m->used[pos] = last;
    m->entries[last].used_pos = pos;
    en->n_waiters = 0;
    m->free[m->n_free++] = (uint32_t)e;
}
