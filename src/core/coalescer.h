/* coalescer.h: the Fermi memory-access coalescing unit and shared-memory bank conflicts.
 *
 * Global and local accesses of a warp are grouped by 128-byte line (thesis 1.1.2: one L1D
 * access per distinct line); each group records which 32-byte segments its lanes touch, so
 * uncached requests (stores) carry only those bytes. Shared accesses are checked for bank
 * conflicts: the access takes as many passes as the largest number of distinct words that
 * fall into one bank (lanes reading the same word are served by one broadcast). */
#ifndef WARPSIM_COALESCER_H
#define WARPSIM_COALESCER_H

#include <stdint.h>

#include "front/winst.h"

#define COAL_MAX_ACCESSES (2 * WARP_SIZE)

typedef struct CoalAccess {
    uint64_t line_addr;   /* byte address of the line */
    uint32_t segments;    /* bit i: 32-byte segment i of the line is touched (the first 32 segments) */
    uint8_t n_lanes;
} CoalAccess;

/* Group the active lanes' accesses by line, in order of first appearance; returns the count. */
uint32_t coalesce(const Winst *w, uint32_t line_bytes, CoalAccess *out);
/* Passes needed by a shared-memory access with n_banks 4-byte banks (>= 1). */
uint32_t coalesce_bank_conflicts(const Winst *w, uint32_t n_banks);

#endif
