/* memreq.h: one memory request as it travels SM -> interconnect -> L2 -> DRAM and back.
 *
 * Requests live in a fixed pool owned by the GPU (no allocation per access); components pass
 * pointers. A read returns as the same request with is_reply set. */
#ifndef WARPSIM_MEMREQ_H
#define WARPSIM_MEMREQ_H

#include <stdbool.h>
#include <stdint.h>

typedef enum MemReqKind { MREQ_READ, MREQ_WRITE, MREQ_ATOMIC, MREQ_WRITEBACK } MemReqKind;

typedef struct MemReq {
    uint64_t addr;        /* line-aligned for reads; byte address of the first byte written */
    uint32_t size_bytes;  /* bytes moved with the data (line for reads, written bytes for writes) */
    uint8_t kind;         /* MemReqKind */
    bool is_reply;
    uint16_t sm;          /* source SM (replies go back there) */
    uint32_t mshr;        /* L1D MSHR entry waiting for it (reads) */
    uint32_t partition;   /* memory partition (DRAM controller) */
    uint32_t slice;       /* L2 slice (partition * subpartitions + sub) */
    uint32_t bank, row, col; /* DRAM coordinates, filled by the address decoder */
    uint64_t ready;       /* cycle (of the holding component's clock) it may move on */
    uint64_t issued;      /* core cycle the SM sent it, for latency stats */
    struct MemReq *next;  /* intrusive link for queues and the free list */
} MemReq;

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

#endif
