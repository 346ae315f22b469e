/* icnt.c: fixed-latency, per-port-bandwidth interconnect (see icnt.h). */
#include "mem/icnt.h"

#include "base/base.h"

#include <stdlib.h>

void icnt_init(Icnt *n, uint32_t n_src, uint32_t n_dst, const IcntConfig *cfg)
{
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->lat = cfg->lat;
    n->flit_bytes = cfg->flit_bytes;
    n->header_bytes = cfg->header_bytes;
    n->in_buffer = cfg->in_buffer;
    n->src = xcalloc(n_src, sizeof *n->src);
    n->dst = xcalloc(n_dst, sizeof *n->dst);
    for (uint32_t i = 0; i < n_dst; i++)
        n->dst[i].head_ready = UINT64_MAX;
    n->dst_queued = xcalloc(bits_words(n_dst), sizeof *n->dst_queued);
    n->packets = n->flits = 0;
    n->n_in_flight = 0;
}

void icnt_free(Icnt *n)
{
    free(n->src);
    free(n->dst);
    free(n->dst_queued);
}

void icnt_push(Icnt *n, uint32_t src, uint32_t dst, MemReq *r, uint32_t payload_bytes, uint64_t now)
{
    IcntPort *s = &n->src[src], *d = &n->dst[dst];
    uint32_t bytes = payload_bytes + n->header_bytes;
    uint32_t flits = (bytes + n->flit_bytes - 1) / n->flit_bytes;
    uint64_t depart = MAX(now, s->busy_until);
    s->busy_until = depart + flits;
    /* Reserving the ejection slot at push time keeps each destination's queue in arrival order. */
    uint64_t arrive = MAX(depart + flits + n->lat, d->busy_until);
    d->busy_until = arrive + flits;
    r->ready = arrive + flits;
    if (!d->q.head)
        d->head_ready = r->ready;
    memreq_queue_push(&d->q, r);
    bits_set(n->dst_queued, dst);
    d->credits_used++;
    n->n_in_flight++;
    n->packets++;
    n->flits += flits;
}

MemReq *icnt_pop(Icnt *n, uint32_t dst, uint64_t now)
{
    IcntPort *d = &n->dst[dst];
    if (d->head_ready > now)
        return NULL;
    d->credits_used--;
    n->n_in_flight--;
    MemReq *r = memreq_queue_pop(&d->q);
    d->head_ready = d->q.head ? d->q.head->ready : UINT64_MAX;
    if (!d->q.head)
        bits_clear(n->dst_queued, dst);
    return r;
}

uint64_t icnt_next_event(const Icnt *n)
{
    uint64_t t = UINT64_MAX;
    if (!n->n_in_flight)
        return t;
    for (uint32_t wi = 0; wi < bits_words(n->n_dst); wi++)
        for (uint64_t m = n->dst_queued[wi]; m; m &= m - 1)
            t = MIN(t, n->dst[wi * 64 + (uint32_t)__builtin_ctzll(m)].head_ready);
    return t;
}

uint32_t icnt_in_flight(const Icnt *n) { return n->n_in_flight; }
