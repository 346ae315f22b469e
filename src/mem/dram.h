/* dram.h: one GDDR5 memory controller (one per memory partition).
 *
 * A bounded scheduler queue (dram.queue) served by a DRAM-request scheduler policy
 * (dram.sched: frfcfs = row hits first, then oldest; fcfs), 16 banks with row buffers and the
 * GDDR5 timing constraints of the config (tRCD, tRAS, tRP, tRC, tRRD, tCCD, tCCDL, tCL, tWL,
 * tWR, tCDLR, tRTPL), the data bus shared by all banks, and a bounded return queue. Time is
 * in DRAM command-clock cycles. Reads come back through dram_pop_reply with is_reply set once
 * their data has transferred; writes come back through dram_pop_reply too, with is_reply
 * false, once their data is written, so that the owner can recycle the MemReq. */
#ifndef WARPSIM_DRAM_H
#define WARPSIM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "conf/config.h"
#include "mem/memreq.h"
#include "stats/stats.h"

typedef struct Dram Dram;

/* stats: registered as "dram[<id>].<name>" (reads, writes, row_hits, row_misses, activates,
 * precharges, busy_cycles, queue_full). */
Dram *dram_create(const Config *cfg, uint32_t id, Stats *st);
void dram_destroy(Dram *d);

/* Writes give no reply. So that the owner can recycle a write's MemReq, fn (if set) is called
 * when the controller lets go of it: at its last column command, with r->ready set to the
 * cycle its data is fully written. Without it the controller just drops the pointer. */
typedef void (*DramWriteDoneFn)(void *ctx, MemReq *r);
void dram_set_write_done(Dram *d, DramWriteDoneFn fn, void *ctx);

/* Optional: a running total (e.g. over every controller) that grows with busy_cycles. */
void dram_set_busy_total(Dram *d, uint64_t *total);

/* Room in the scheduler queue? */
bool dram_can_accept(const Dram *d);
/* Enqueue a request whose bank/row/col are already decoded (see addrdec.h). True when its
 * bank is idle and takes it at the next tick; false when the bank is busy, which leaves
 * dram_next_event as it was. */
bool dram_push(Dram *d, MemReq *r, uint64_t now);
/* Advance one DRAM cycle; returns true if anything changed (a command issued, data moved). */
bool dram_tick(Dram *d, uint64_t now);
/* A finished request (read: data transferred, is_reply set; write: data written, is_reply
 * false), or NULL. */
MemReq *dram_pop_reply(Dram *d, uint64_t now);
/* Earliest cycle >= now at which dram_tick or dram_pop_reply could do something; UINT64_MAX
 * when the controller is empty. Used to skip idle cycles. */
uint64_t dram_next_event(const Dram *d, uint64_t now);
/* Requests queued or in service (for the deadlock report). */
uint32_t dram_pending(const Dram *d);
void dram_dump(const Dram *d, FILE *f);

#endif
