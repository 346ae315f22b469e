/* api_host.c: pinned host memory of the CUDA libraries (api_host.h).
 *
 * Pinned memory is ordinary host memory that the simulator maps into the device's address
 * space at its own address, as CUDA does under unified addressing: kernels may use the host
 * pointer, which is also its device pointer. Each library keeps a table of its ranges, for
 * freeing, unregistering and pointer queries. */
#include "api/api_host.h"

#include "base/base.h"

#include <stdlib.h>

WarpsimStatus api_host_add(ApiHostTable *t, WarpsimSim *s, void *p, size_t n, bool owned, unsigned flags)
{
    WarpsimStatus st = warpsim_map_host(s, p, n);
    if (st != WARPSIM_OK)
        return st;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->r = xrealloc(t->r, t->cap * sizeof *t->r);
    }
    t->r[t->n++] = (ApiHostRange){p, n, owned, flags};
    return WARPSIM_OK;
}

void api_host_remove(ApiHostTable *t, WarpsimSim *s, ApiHostRange *r)
{
    warpsim_unmap_host(s, r->p);
    *r = t->r[--t->n];
}

ApiHostRange *api_host_find(const ApiHostTable *t, const void *p)
{
    for (uint32_t i = 0; i < t->n; i++)
        if ((const char *)p >= t->r[i].p && (const char *)p < t->r[i].p + MAX(t->r[i].n, 1))
            return &t->r[i];
    return NULL;
}

ApiHostRange *api_host_overlap(const ApiHostTable *t, const void *p, size_t n)
{
    for (uint32_t i = 0; i < t->n; i++)
        if ((const char *)p < t->r[i].p + t->r[i].n && t->r[i].p < (const char *)p + n)
            return &t->r[i];
    return NULL;
}

void *api_host_alloc(ApiHostTable *t, WarpsimSim *s, size_t size, unsigned flags, WarpsimStatus *st)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0) {
        *st = WARPSIM_E_MEMORY;
        return NULL;
    }
    *st = api_host_add(t, s, p, size ? size : 1, true, flags);
    if (*st != WARPSIM_OK) {
        free(p);
        return NULL;
    }
    return p;
}
