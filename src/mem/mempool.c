/* mempool.c: the pool of memory requests (see memreq.h). */
#include "mem/memreq.h"

#include "base/base.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct MemArena {
    MemReq **chunks; /* [MEMPOOL_MAX_CHUNKS]: allocated once, so it never moves */
    uint32_t n_chunks;
    uint32_t n_pools; /* pools over it: with more than one, a pool's in_use is not checked */
    pthread_mutex_t grow_lock;
    pthread_mutex_t home_lock; /* the owner's free list, while views take from it or give to it */
};

void mempool_init(MemPool *p)
{
    memset(p, 0, sizeof *p);
    MemArena *a = xcalloc(1, sizeof *a);
    /* calloc'd: the pages of the directory not reached are never touched */
    a->chunks = xcalloc(MEMPOOL_MAX_CHUNKS, sizeof *a->chunks);
    a->n_pools = 1;
    pthread_mutex_init(&a->grow_lock, NULL);
    pthread_mutex_init(&a->home_lock, NULL);
    p->arena = a;
    p->chunks = a->chunks;
    p->owner = true;
}

void mempool_init_view(MemPool *p, MemPool *of)
{
    CHECK(of->owner);
    memset(p, 0, sizeof *p);
    p->arena = of->arena;
    p->chunks = of->chunks;
    p->home = of;
    p->arena->n_pools++;
}

/* Move up to n requests from the head of *from to *to. */
static void move_batch(MemPool *from, MemPool *to, uint32_t n)
{
    while (n-- && from->free_list) {
        MemReq *r = from->free_list;
        from->free_list = r->next;
        from->n_free--;
        r->next = to->free_list;
        to->free_list = r;
        to->n_free++;
    }
}

void mempool_free(MemPool *p)
{
    MemArena *a = p->arena;
    if (a && p->owner) {
        for (uint32_t i = 0; i < a->n_chunks; i++)
            free(a->chunks[i]);
        free(a->chunks);
        pthread_mutex_destroy(&a->grow_lock);
        pthread_mutex_destroy(&a->home_lock);
        free(a);
    } else if (a) { /* a view: what it holds goes home */
        pthread_mutex_lock(&a->home_lock);
        move_batch(p, p->home, UINT32_MAX);
        pthread_mutex_unlock(&a->home_lock);
        a->n_pools--;
    }
    memset(p, 0, sizeof *p);
}

/* A new chunk, its requests on p's free list. */
static void grow(MemPool *p)
{
    MemArena *a = p->arena;
    pthread_mutex_lock(&a->grow_lock);
    if (a->n_chunks == MEMPOOL_MAX_CHUNKS)
        fatal("more than %u memory requests in flight: the simulated machine's queues are unbounded somewhere",
              MEMPOOL_MAX_CHUNKS * MEMPOOL_CHUNK);
    uint32_t k = a->n_chunks;
    MemReq *c = xcalloc(MEMPOOL_CHUNK, sizeof *c);
    a->chunks[k] = c;
    a->n_chunks++;
    pthread_mutex_unlock(&a->grow_lock);
    for (uint32_t i = MEMPOOL_CHUNK; i-- > 0;) {
        c[i].pool_id = k * MEMPOOL_CHUNK + i;
        c[i].next = p->free_list;
        p->free_list = &c[i];
    }
    p->n_free += MEMPOOL_CHUNK;
}

/* p's list is empty: a batch from home, or a new chunk. */
void mempool_refill(MemPool *p)
{
    if (p->home) {
        pthread_mutex_lock(&p->arena->home_lock);
        move_batch(p->home, p, MEMPOOL_BATCH);
        pthread_mutex_unlock(&p->arena->home_lock);
    }
    if (!p->free_list)
        grow(p);
}

/* A view holds twice its batch: one goes home. */
void mempool_give_back(MemPool *p)
{
    pthread_mutex_lock(&p->arena->home_lock);
    move_batch(p, p->home, MEMPOOL_BATCH);
    pthread_mutex_unlock(&p->arena->home_lock);
}

bool mempool_shared(const MemPool *p) { return p->arena->n_pools > 1; }
