/* l2.h: one L2 slice (one per memory sub-partition).
 *
 * The slice picks a line's set from its partition address, as GPGPU-Sim's L2 does: the
 * partition-local address (the channel bits removed) with the bank bits that select the slice
 * removed too (index_drop). Every line of a slice shares those bits, so indexing with them
 * would leave most sets unused ("set camping"). Tags and DRAM addresses keep the local address.
 * Requests arrive from the interconnect and wait mem.l2_lat + l2.hit_lat cycles (GPGPU-Sim's
 * ROP delay, then the tag lookup)
 * before the slice looks at them, one per L2 cycle. Reads and atomics that hit reply; misses
 * allocate a line (allocate-on-miss, reserved until the fill), an MSHR entry, and a DRAM
 * fetch; accesses to a line already in flight merge. Writes are write-back with
 * write-allocate and no fetch (the whole line is treated as written; GPGPU-Sim's lazy
 * fetch-on-read is not modelled). Dirty victims are written back to DRAM. When the slice
 * cannot take the head request (no MSHR, no way, DRAM queue or reply queue full) it stalls.
 *
 * Sectored L2 (l2.sector_bytes > 0; GPGPU-Sim 4.x, the S: L2 of its GTX480 and later files):
 * an arriving request is broken into one access per sector it covers (a whole-line read from
 * the L1D: line / sector accesses; GPGPU-Sim's breakdown_request_to_sector_requests), each
 * waiting out the latency above and looked up on its own, one per L2 cycle, with its own
 * outcome: a hit, a merge into the MSHR entry of its sector in flight, a sector miss (the line
 * is present: only the sector is reserved and fetched) or a line miss (a line is allocated,
 * the sector reserved and fetched). MSHR entries are per sector, as GPGPU-Sim's; DRAM fetches
 * carry one sector. The request replies once all its sectors are served, with the bytes it
 * asked for; or, with mem.sector_replies (GPGPU-Sim 4.x), each sector access replies on its
 * own as soon as it is served (a read with its sector, a write with an acknowledgement), and
 * the requester gathers them (memreq.h). Writes mark their sectors valid and dirty, and a
 * write-back carries the dirty sectors only.
 *
 * Queues, as GPGPU-Sim's memory sub-partition: the ROP delay holds any number of requests;
 * those past it wait in the input queue (mem.l2_in_queue accesses, sector accesses in a sectored
 * slice), and the interconnect delivers only while it has room. Replies (read data, write
 * acknowledgements) wait for the reply network in an output queue of mem.l2_out_queue. */
#ifndef WARPSIM_L2_H
#define WARPSIM_L2_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/memreq.h"
#include "mem/mshr.h"
#include "mem/tags.h"
#include "stats/stats.h"

typedef struct L2Slice {
    uint32_t id;
    uint32_t rop_lat;
    uint32_t in_cap, miss_queue_cap, reply_cap;
    bool sector_replies; /* sectored, and each sector access replies on its own */
    Tags tags;
    Mshr mshr;
    uint8_t *fetch_way;  /* per MSHR entry: the way its fetch fills (a reserved line stays put) */
    MemPool *pool;
    MemReqQueue in;      /* from the interconnect; ready = arrival + rop_lat */
    MemReqQueue to_dram; /* fetches and write-backs for the DRAM controller */
    MemReqQueue replies; /* to the reply network */
    uint32_t *replies_total; /* optional: the owner's count of replies in all slices */
    MemReq *rop_next;        /* the first request in `in` still in its ROP delay (NULL: none) */
    /* Cycles kept here, so that the owner's checks each L2 cycle read the slice and not a
     * request: rop_due, rop_next's ready (UINT64_MAX: none); try_at, the cycle the head may be
     * tried, its ready (UINT64_MAX: no head, or asleep). */
    uint64_t rop_due, try_at;
    uint32_t in_arrived;     /* requests in `in` past their ROP delay (GPGPU-Sim's icnt->L2 queue) */
    uint64_t index_drop;     /* local-address bits left out of the set index (AddrDecoder.sub_mask) */
    uint64_t access, hit, miss, merge, write, writeback, stall, sector_miss;
    uint64_t stall_reply, stall_merge, stall_mshr, stall_queue, stall_line;
    /* After a stall the head's next try fails the same way until a fill, a reply leaving or a
     * copy changes the slice (l2.c's fill_wakes and l2_reply_left say which change what): it sleeps (its owner skips it) instead of retrying each L2
     * cycle, and l2_wake adds the stalls of the cycles slept. Its head stays past due, so the
     * owner's next-event search and idle jumps are as before and the L2 clock ticks every
     * cycle it sleeps. A stall the replacement policy chose does not sleep: the policy may
     * decide otherwise next cycle. */
    bool asleep;
    uint64_t asleep_since; /* the L2 cycle of the stall (counted then) */
    uint64_t *stall_why;   /* the counter beside `stall` that the stall added to (NULL: none) */
    uint32_t stall_set;    /* stall_line: the set whose ways were all reserved */
    uint64_t copy_fill;
} L2Slice;

void l2_init(L2Slice *s, uint32_t id, const Config *cfg, MemPool *pool, Stats *st);
void l2_free(L2Slice *s);
/* Count the requests whose ROP delay is over by now (`in` is in ready order). */
void l2_rop_advance(L2Slice *s, uint64_t now);
/* Whether the slice takes another request from the interconnect at L2 cycle now. (Inline: the
 * GPU asks before every request it delivers, and most asks find no delay over.) */
static inline bool l2_can_accept(L2Slice *s, uint64_t now)
{
    if (s->rop_due <= now)
        l2_rop_advance(s, now);
    return s->in_arrived < s->in_cap;
}
void l2_push(L2Slice *s, MemReq *r, uint64_t now);
/* Serve the head request if it is ready; true on progress. The owner skips a slice whose
 * try_at is later than now (its head not ready, or the slice asleep). */
bool l2_tick(L2Slice *s, uint64_t now);
/* A line fetched from DRAM arrives (r is the fetch request; the slice recycles it). */
void l2_fill(L2Slice *s, MemReq *r, uint64_t now);
uint64_t l2_next_event(const L2Slice *s);
/* Count the stalls of the L2 cycles slept before `now` (the next L2 cycle to tick) as if the
 * slice had tried each; l2_wake also ends the sleep. */
static inline void l2_account_sleep(L2Slice *s, uint64_t now)
{
    if (!s->asleep)
        return;
    uint64_t n = now - 1 - s->asleep_since;
    s->stall += n;
    *s->stall_why += n;
    s->asleep_since = now - 1;
}
static inline void l2_wake(L2Slice *s, uint64_t now)
{
    if (!s->asleep)
        return;
    l2_account_sleep(s, now);
    s->asleep = false;
    s->try_at = s->in.head->ready;
}
/* A reply left the reply queue: only a stall on its room sees that (a write asleep for another
 * reason found room, and the queue only drains until a fill, which wakes it if need be). */
static inline void l2_reply_left(L2Slice *s, uint64_t now)
{
    if (s->stall_why == &s->stall_reply)
        l2_wake(s, now);
}
/* A host-device copy wrote the 32 bytes at local_addr (mem.copy_warms_l2): their line (in a
 * sectored slice, their sector) becomes valid and clean, without simulated time, as GPGPU-Sim's
 * copy engine does. A line in flight is left alone. A missing line takes the way the policy
 * picks; like GPGPU-Sim, the victim is dropped without a write-back, dirty or not. */
void l2_copy_fill(L2Slice *s, uint64_t local_addr, uint64_t now);

#endif
