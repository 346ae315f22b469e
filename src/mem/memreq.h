/* memreq.h: one memory request as it travels SM -> interconnect -> L2 -> DRAM and back.
 *
 * Requests live in a fixed pool owned by the GPU (no allocation per access); components pass
 * pointers. A read returns as the same request with is_reply set. A sectored L2 serves a
 * request as one sector access per sector it covers (GPGPU-Sim's
 * breakdown_request_to_sector_requests): each is a request of its own whose token is the pool
 * id of the original, which replies once its subs_left reaches 0; or, with mem.sector_replies,
 * each sector access replies itself (part), and the requester counts the original's subs_left
 * down as they arrive. (80 bytes: keep it so.) */
#ifndef WARPSIM_MEMREQ_H
#define WARPSIM_MEMREQ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/base.h"

typedef enum MemReqKind { MREQ_READ, MREQ_WRITE, MREQ_ATOMIC, MREQ_WRITEBACK } MemReqKind;

typedef struct MemReq {
    uint64_t addr;        /* line-aligned for reads (sector-aligned for sector accesses and fetches);
                           * byte address of the first byte written */
    uint64_t local_addr;  /* addr with the channel bits removed: what the L2 slice indexes */
    uint32_t size_bytes;  /* bytes moved with the data (line or sectors for reads, written bytes for writes) */
    uint8_t kind;         /* MemReqKind */
    bool is_reply;
    bool routed;          /* partition/slice/bank/row decoded */
    bool inst : 1;        /* an instruction-cache line fetch (its reply goes to the SM's I-cache) */
    bool ctl : 1;         /* a CTA controller's request (SmCtaCtl.send): its reply goes to the controller */
    uint8_t subs_left;    /* a request served as sector accesses: those not yet done (with
                           * mem.sector_replies: whose replies the requester has not yet taken) */
    bool part;            /* a sector access replying on its own (mem.sector_replies) */
    uint16_t sm;          /* source SM (replies go back there) */
    uint32_t sectors;     /* 32-byte segments of the line it covers (bit i: bytes 32i..32i+31); 0: the whole line */
    uint16_t partition;   /* memory partition (DRAM controller) */
    uint16_t slice;       /* L2 slice (partition * subpartitions + sub) */
    uint32_t bank, row;   /* DRAM coordinates, filled by the address decoder (the column is not
                           * modelled: a request moves its bytes in column commands) */
    uint32_t l2_set;      /* in an L2 slice: the set of local_addr, found as it enters (or is
                           * fetched for) the slice */
    uint64_t ready;       /* cycle (of the holding component's clock) it may move on */
    uint64_t issued;      /* core cycle the SM sent it, for latency stats */
    uint32_t pool_id;     /* index in the owning MemPool (a token for MSHR waiters) */
    uint32_t token;       /* the SM's waiter token: L1D MSHR entry, or a load record for atomics;
                           * a sector access: the pool id of its request; an L2 fetch: its L2
                           * MSHR entry */
    struct MemReq *next;  /* intrusive link for queues and the free list */
} MemReq;
_Static_assert(sizeof(MemReq) <= 80, "MemReq: keep it within 80 bytes");

/* A FIFO of requests through their intrusive links (unbounded; owners enforce capacity). */
typedef struct MemReqQueue {
    MemReq *head, *tail;
    uint32_t n;
} MemReqQueue;

static inline void memreq_queue_push(MemReqQueue *q, MemReq *r)
{
    r->next = 0;
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
    q->n++;
}

static inline void memreq_queue_push_front(MemReqQueue *q, MemReq *r)
{
    r->next = q->head;
    q->head = r;
    if (!q->tail)
        q->tail = r;
    q->n++;
}

static inline MemReq *memreq_queue_pop(MemReqQueue *q)
{
    MemReq *r = q->head;
    if (r) {
        q->head = r->next;
        if (!q->head)
            q->tail = 0;
        q->n--;
        r->next = 0;
    }
    return r;
}

/* A growable pool of requests: chunks are allocated when the pool first grows (warm-up), and
 * recycled through a free list after that, so the steady state allocates nothing. The chunks
 * form an arena; a view (mempool_init_view) is a free list of its own over its owner's arena,
 * for SMs that run on another thread (gpu_par.c): a request may go back to any pool of the
 * arena, and ids (mempool_at) are the arena's. A view takes requests from its owner's free
 * list, and gives them back, a batch at a time under the owner's lock, so that requests one
 * thread frees and another takes keep going round; while views are in use, the owner's own
 * thread touches its list only when no view is in use. The arena grows under a lock, and its
 * chunk directory never moves, so mempool_at needs none. */
#define MEMPOOL_CHUNK 1024
#define MEMPOOL_MAX_CHUNKS 65536 /* 64 Mi requests in flight at most */
typedef struct MemArena MemArena;
typedef struct MemPool {
    MemReq **chunks; /* the arena's chunk directory */
    MemArena *arena;
    bool owner;      /* the arena is this pool's (mempool_free frees it) */
    struct MemPool *home; /* a view's owner, else NULL */
    MemReq *free_list;
    uint32_t n_free;
    int64_t in_use;  /* taken minus returned here (a pool that shares its arena may go below 0) */
} MemPool;

/* A view takes this many requests from its owner when it runs out, and gives this many back
 * when it holds twice as many. */
#define MEMPOOL_BATCH 64

void mempool_init(MemPool *p);
/* A pool with its own free list over of's arena; free it before of. */
void mempool_init_view(MemPool *p, MemPool *of);
void mempool_free(MemPool *p);
/* The slow paths of mempool_get and mempool_put (mempool.c): p's list is empty (a batch from
 * home, or a new chunk); a view holds twice its batch (one goes home); whether more than one
 * pool shares p's arena (then p's in_use may go below 0). */
void mempool_refill(MemPool *p);
void mempool_give_back(MemPool *p);
bool mempool_shared(const MemPool *p);

/* Inline: every request of every component comes and goes through them. */
static inline MemReq *mempool_get(MemPool *p)
{
    if (__builtin_expect(!p->free_list, 0))
        mempool_refill(p);
    MemReq *r = p->free_list;
    p->free_list = r->next;
    p->n_free--;
    uint32_t id = r->pool_id;
    memset(r, 0, sizeof *r);
    r->pool_id = id;
    p->in_use++;
    return r;
}

static inline void mempool_put(MemPool *p, MemReq *r)
{
    CHECK(p->in_use > 0 || mempool_shared(p));
    r->next = p->free_list;
    p->free_list = r;
    p->n_free++;
    p->in_use--;
    if (__builtin_expect(p->home != NULL, 0) && p->n_free >= 2 * MEMPOOL_BATCH)
        mempool_give_back(p);
}
static inline MemReq *mempool_at(const MemPool *p, uint32_t id)
{
    return &p->chunks[id / MEMPOOL_CHUNK][id % MEMPOOL_CHUNK];
}

#endif
