/* addrdec.h: physical address -> (memory partition, L2 slice, DRAM bank, row, column).
 *
 * Reads GPGPU-Sim's address-mapping syntax (mem.addr_map), e.g.
 * "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS":
 * the channel (partition) id is taken at bit 8 (modulo the partition count when it is not a
 * power of two) and the 64-character mask, bit 63 first, names row (R), bank (B), column (C)
 * and burst/byte (S) bits of the remaining address. */
#ifndef WARPSIM_ADDRDEC_H
#define WARPSIM_ADDRDEC_H

#include <stdint.h>

#include "conf/config.h"

/* What one byte of a local address contributes to its bank, row and column. */
typedef struct AddrLutEntry {
    uint32_t bank, row, col;
} AddrLutEntry;

typedef struct AddrDecoder {
    uint32_t n_partitions;
    uint32_t subpartitions;
    unsigned chan_bit; /* the "@N" of dramid@N */
    uint64_t row_mask, bank_mask, col_mask, burst_mask;
    uint64_t sub_mask; /* the bank bits of a local address that select its L2 slice in the partition */
    /* The mask's bit gathers as tables, one per byte of the local address: what byte k's value
     * contributes to the bank, row and column (a decode is then a few lookups, not a loop over
     * each mask bit). Only the bytes below n_lut_bytes hold mask bits. */
    unsigned n_lut_bytes;
    /* Addresses equal above their low same_loc_bits bits have the same partition, slice, bank
     * and row, and local addresses that differ in those bits only (they lie below the channel
     * bits and every bank and row bit). */
    unsigned same_loc_bits;
    AddrLutEntry lut[8][256];
} AddrDecoder;

typedef struct AddrLoc {
    uint32_t partition;
    uint32_t slice; /* partition * subpartitions + sub-partition */
    uint32_t bank;
    uint32_t row;
    uint32_t col;
    uint64_t local; /* the address with the channel bits removed (the partition's own address space) */
} AddrLoc;

/* Parse cfg->mem.addr_map; on a malformed string exit 1 naming mem.addr_map and what was expected. */
void addrdec_init(AddrDecoder *d, const Config *cfg);
/* Same, returning 0 and a message instead of exiting (for tests and the config reader). */
int addrdec_parse(AddrDecoder *d, const char *spec, uint32_t n_partitions, uint32_t subpartitions,
                  uint32_t n_banks, char *err, size_t err_len);
void addrdec_decode(const AddrDecoder *d, uint64_t addr, AddrLoc *out);
/* Decode a partition-local address (AddrLoc.local) of a known partition: bank, row, column and
 * slice, as addrdec_decode would give for the global address it came from. */
void addrdec_decode_local(const AddrDecoder *d, uint32_t partition, uint64_t local, AddrLoc *out);

/* Remove the bits in `mask` from v, closing the gaps (the bits above each one move down). */
static inline uint64_t addrdec_drop_bits(uint64_t v, uint64_t mask)
{
    while (mask) { /* highest first, so the lower ones keep their positions */
        uint64_t bit = 1ull << (63u - (unsigned)__builtin_clzll(mask)), low = bit - 1;
        v = ((v >> 1) & ~low) | (v & low); /* the bits above `bit` down one, over it */
        mask &= ~bit;
    }
    return v;
}

#endif
