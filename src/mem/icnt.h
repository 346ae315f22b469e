/* icnt.h: one direction of the SM <-> memory-partition interconnect.
 *
 * Modelled as in GPGPU-Sim's simple "fixed latency + bandwidth" view: every source port
 * serialises its packets at icnt.flit_bytes per cycle, a packet then takes icnt.lat cycles,
 * and every destination port serialises its arrivals the same way into a buffer of
 * icnt.in_buffer packets. A source may push when its port is free and the destination has a
 * free buffer credit (counting packets still in flight), else the push is refused
 * ("interconnect full"). Time is in interconnect cycles. */
#ifndef WARPSIM_ICNT_H
#define WARPSIM_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "conf/config.h"
#include "mem/memreq.h"

typedef struct IcntPort {
    uint64_t busy_until; /* source: next cycle it may start a packet; dest: ejection */
    uint64_t head_ready; /* dest: q.head's delivery cycle (UINT64_MAX: none), kept here so that
                          * asking whether a packet is there reads the port, not the packet */
    MemReqQueue q;       /* dest: packets in flight or buffered, in arrival order */
    uint32_t credits_used;
} IcntPort;

typedef struct Icnt {
    uint32_t n_src, n_dst;
    uint32_t lat, flit_bytes, header_bytes, in_buffer;
    IcntPort *src, *dst;
    uint64_t *dst_queued; /* bits (base.h): the destinations with packets in flight or buffered */
    uint32_t n_in_flight; /* packets pushed and not yet popped */
    uint64_t packets, flits;
} Icnt;

void icnt_init(Icnt *n, uint32_t n_src, uint32_t n_dst, const IcntConfig *cfg);
void icnt_free(Icnt *n);
static inline bool icnt_can_push(const Icnt *n, uint32_t src, uint32_t dst, uint64_t now)
{
    return n->src[src].busy_until <= now && n->dst[dst].credits_used < n->in_buffer;
}
/* payload_bytes excludes the header. */
void icnt_push(Icnt *n, uint32_t src, uint32_t dst, MemReq *r, uint32_t payload_bytes, uint64_t now);
/* Whether a packet has been delivered at dst by now. */
static inline bool icnt_ready(const Icnt *n, uint32_t dst, uint64_t now) { return n->dst[dst].head_ready <= now; }
/* The next packet delivered at dst by now, or NULL. */
MemReq *icnt_pop(Icnt *n, uint32_t dst, uint64_t now);
/* Earliest cycle a packet is deliverable anywhere; UINT64_MAX if none in flight. */
uint64_t icnt_next_event(const Icnt *n);
uint32_t icnt_in_flight(const Icnt *n);

#endif
