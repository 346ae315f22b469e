/* sm_icache.h: the instruction cache of one SM (sm.icache_sets > 0, with sm.ibuffer).
 *
 * GPGPU-Sim fetches instructions through a small per-SM cache (its -gpgpu_cache:il1; the
 * GTX480's 4 sets x 4 ways x 128 B) at PROGRAM_MEM_START + pc; a miss reads the line through
 * the memory system and the warp has nothing to issue until it is back. Here the code lives at
 * SM_CODE_BASE + pc, a miss is sent as a read through the L1D's port to the interconnect, at
 * most icache_mshr lines are in flight (later misses to a line in flight wait with it), and the
 * fill makes the line valid and hands the waiting warps back to the fetch unit, which fetches
 * them again (a hit). LRU replacement. */
#ifndef WARPSIM_SM_ICACHE_H
#define WARPSIM_SM_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#define SM_CODE_BASE 0xF0000000ull /* GPGPU-Sim's PROGRAM_MEM_START */
#define ICACHE_MAX_MSHR 64

typedef struct Icache {
    uint32_t sets, assoc, line_bits, n_mshr;
    uint64_t *tag;   /* sets * assoc line addresses + 1 (0: invalid) */
    uint64_t *used;  /* last use, for LRU */
    uint64_t clock;
    uint64_t miss_line[ICACHE_MAX_MSHR]; /* + 1; 0: free */
    uint64_t miss_waiters[ICACHE_MAX_MSHR]; /* warp slots waiting for it */
    uint64_t hits, misses;
} Icache;

typedef enum IcacheResult { ICACHE_HIT, ICACHE_WAIT, ICACHE_SEND, ICACHE_FULL } IcacheResult;

void icache_init(Icache *ic, uint32_t sets, uint32_t assoc, uint32_t line_bytes, uint32_t n_mshr);
void icache_free(Icache *ic);
/* Warp slot's fetch at addr. HIT; WAIT: its line is in flight, the warp waits with it; SEND:
 * a new miss, the caller sends the line's read (icache_line_of) and the warp waits; FULL: no
 * entry for a new miss, try again later. */
IcacheResult icache_fetch(Icache *ic, uint32_t slot, uint64_t addr);
/* The caller could not send a SEND's read: forget that miss (the warp will try again). */
void icache_unsend(Icache *ic, uint64_t addr);
uint64_t icache_line_of(const Icache *ic, uint64_t addr);
/* The line at line_addr is back: it becomes valid; returns the slots that waited for it. */
uint64_t icache_fill(Icache *ic, uint64_t line_addr);

#endif
