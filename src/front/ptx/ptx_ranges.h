/* ptx_ranges.h: an ordered map of disjoint address ranges (internal to src/front/ptx), what
 * PtxMemory keeps its allocations and variables in, and its free space. See ptx_ranges.c. */
#ifndef WARPSIM_PTX_RANGES_H
#define WARPSIM_PTX_RANGES_H

#include <stdbool.h>
#include <stdint.h>

/* One range [addr, addr + size); kind, reserve and label belong to the map's owner. */
typedef struct PtxRange {
    uint64_t addr, size;
    uint64_t reserve;  /* PtxMemory: the bytes an allocation holds (its size rounded up) */
    const void *label; /* PtxMemory: a variable's PtxSymbol */
    uint32_t kind;
} PtxRange;

typedef struct PtxRangeMap {
    struct PtxRangeNode *nodes; /* nodes[0] is the empty tree */
    uint32_t root, n_nodes, cap, free_head;
    uint32_t count; /* ranges in the map */
} PtxRangeMap;

void ptx_ranges_init(PtxRangeMap *t);
void ptx_ranges_free(PtxRangeMap *t);
/* Add r, which must not overlap a range of the map (not checked beyond the start address);
 * false if a range starts at r->addr already. */
bool ptx_ranges_insert(PtxRangeMap *t, const PtxRange *r);
/* Remove the range starting exactly at addr, copying it to *out when out is not NULL; false if
 * there is none. */
bool ptx_ranges_remove(PtxRangeMap *t, uint64_t addr, PtxRange *out);

/* Lookups; the pointer is valid until the next insert or remove. */
/* The range with the greatest start <= addr, or NULL. */
const PtxRange *ptx_ranges_floor(const PtxRangeMap *t, uint64_t addr);
/* The range with the smallest start > addr, or NULL (ptx_ranges_above(t, 0) after the one at 0,
 * if any: iterate with r = floor(t, 0) or above(t, 0), then above(t, r->addr)). */
const PtxRange *ptx_ranges_above(const PtxRangeMap *t, uint64_t addr);
/* The range of lowest start whose size is at least size, or NULL. */
const PtxRange *ptx_ranges_first_fit(const PtxRangeMap *t, uint64_t size);

#endif
