/* mempool.c: the pool of memory requests (see memreq.h). */
#include "mem/memreq.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void mempool_init(MemPool *p) { memset(p, 0, sizeof *p); }

void mempool_free(MemPool *p)
{
    for (uint32_t i = 0; i < p->n_chunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

MemReq *mempool_get(MemPool *p)
{
    if (!p->free_list) {
        p->chunks = xrealloc(p->chunks, (p->n_chunks + 1) * sizeof *p->chunks);
        MemReq *c = xcalloc(MEMPOOL_CHUNK, sizeof *c);
        p->chunks[p->n_chunks] = c;
        for (uint32_t i = MEMPOOL_CHUNK; i-- > 0;) {
            c[i].pool_id = p->n_chunks * MEMPOOL_CHUNK + i;
            c[i].next = p->free_list;
            p->free_list = &c[i];
        }
        p->n_chunks++;
    }
    MemReq *r = p->free_list;
    p->free_list = r->next;
    uint32_t id = r->pool_id;
    memset(r, 0, sizeof *r);
    r->pool_id = id;
    p->in_use++;
    return r;
}

void mempool_put(MemPool *p, MemReq *r)
{
    CHECK(p->in_use > 0);
    r->next = p->free_list;
    p->free_list = r;
    p->in_use--;
}
