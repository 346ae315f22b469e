/* smemcache.h: CIAO's shared-memory cache (Zhang et al., IPDPS 2018, IV-B and Fig. 7): the
 * layout of the unused shared memory as a direct-mapped cache of 128-byte lines, and the
 * address translation unit (Fig. 7c). The component is src/policy/mpath/smemcache.c.
 *
 * Shared memory is 32 banks of 8-byte words: a row is 256 bytes, two bank groups of 16 banks.
 * A shared-memory byte address is R.G.B.F (row, group, bank, byte: 8, 1, 4, 3 bits). A line is
 * one row of one bank group; its tag (with the WID) is 4 bytes, 32 of them to a row of a bank
 * group. The cache uses `data_rows` rows for data (a power of two: the translation unit's row
 * mask), so 2 * data_rows lines, and data_rows / 32 rows (at least one) for tags, at the top of
 * the shared memory, data rows highest, tag rows just below: the CTAs allocate from the bottom.
 * A global byte address A translates to
 *   F = A[2:0], B = A[6:3], G = A[7], r = A[15:8] & (data_rows - 1), set = 2r + G;
 *   data at row data_row0 + r, group G, bank B, byte F;
 *   tag at row tag_row0 + r / 32, group !G (the other bank group, read in the same pass), bank
 *   (r mod 32) / 2, bytes 4 (r mod 2) .. +3.
 * The rest of A above r is the tag. With l1d.smemcache.index = xor (not the paper's: Fig. 7c
 * takes r straight from the address), r is XORed with the log2(data_rows) bits above it, as
 * the L1D's bxor does for its sets. */
#ifndef WARPSIM_POLICY_SMEMCACHE_H
#define WARPSIM_POLICY_SMEMCACHE_H

#include <stdbool.h>
#include <stdint.h>

#define SMEMCACHE_ROW_BYTES 256u /* 32 banks x 8 bytes */
#define SMEMCACHE_LINE_BYTES 128u /* a row of one bank group: 16 banks x 8 bytes */
#define SMEMCACHE_MAX_ROWS 256u  /* the 8-bit row mask */
#define SMEMCACHE_TAGS_PER_ROW 32u /* per bank group: 16 banks x two 4-byte tags */

typedef struct SmemCacheGeom {
    uint32_t data_rows;  /* a power of two; 0: no cache (too little unused shared memory) */
    uint32_t tag_rows;   /* data_rows / 32, at least 1 */
    uint32_t data_row0;  /* first data row (the data block offset register) */
    uint32_t tag_row0;   /* first tag row (the tag offset register) */
    uint32_t lines;      /* 2 * data_rows: the cache's sets (direct-mapped) */
    bool xor_rows;       /* r is XORed with the next log2(data_rows) bits of A (l1d.smemcache.index = xor) */
} SmemCacheGeom;

typedef struct SmemCacheLoc {
    uint32_t set;       /* 2r + G */
    uint32_t data_addr; /* shared-memory byte address of the addressed byte */
    uint32_t tag_addr;  /* shared-memory byte address of the line's tag */
} SmemCacheLoc;

/* The cache in the unused shared memory: `unused_bytes` of `smem_bytes` (whole rows only). */
SmemCacheGeom smemcache_geometry(uint32_t smem_bytes, uint32_t unused_bytes);
/* Where the byte at global address addr lives (g->lines > 0). */
SmemCacheLoc smemcache_translate(const SmemCacheGeom *g, uint64_t addr);
/* The lines a shared-memory cache component (the L1D's mpath[k]) has now, for tests and dumps. */
uint32_t smemcache_lines_now(const void *component);

#endif
