/* lb_vtt.h: Linebacker's Victim Tag Table (seeds/004 sec. 4 "Victim Tag Table" and 4.1 "VTT"):
 * the tags of the L1D victim lines kept in idle registers.
 *
 * Partitions (VPs) of n_sets sets x `ways` ways, each standing for n_sets * ways warp registers
 * (48 x 4 = 192 registers = 24 KB by default). Entry (set X, way Y) of partition N holds its line
 * in register RN = offset + N * n_sets * ways + X * ways + Y (eq. 2, offset 511). A partition is
 * usable only while all its registers are idle; the table has at most 32 ways in all (32 / ways
 * partitions) and no more partitions than the register file holds above the offset. A lookup
 * searches the usable partitions in order (each search costs the caller one VP access); a new
 * line takes an invalid way of the first usable partition that has one, else the least recently
 * used way of its set over the usable partitions. In tags-only mode (the Load Monitor's windows)
 * every partition is usable, as no data is kept. CERF (cerf.c) uses the same table with 1-way
 * partitions of the L1D's sets from register 0: way w of set s is register w x sets + s. */
#ifndef WARPSIM_LB_VTT_H
#define WARPSIM_LB_VTT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct LbVttEntry {
    uint64_t line;
    uint64_t stamp; /* last insert or hit; 0: invalid */
} LbVttEntry;

typedef struct LbVtt {
    uint32_t n_sets, ways, n_parts, offset;
    bool tags_only;
    bool *usable;      /* per partition: its registers are idle */
    uint32_t n_usable;
    LbVttEntry *e;     /* [part][set][way] */
    uint64_t clock;
    /* warp registers of the usable partitions, and their sum over cycles up to the last change */
    uint32_t usable_wregs;
    uint64_t last_rf_cycle, usable_cycles;
    bool in_kernel; /* the last RegfileView's: whether the time since it counts */
} LbVtt;

struct RegfileView;

/* A lookup's or insert's place. */
typedef struct LbVttSlot {
    uint32_t part, set, way;
    uint32_t searched; /* usable partitions looked at, this one included (lookup) */
    uint32_t rn;       /* its register (eq. 2) */
    bool replaced;     /* insert: a valid line was pushed out */
} LbVttSlot;

/* n_wregs: warp registers of the SM; max_ways: the table's ways in all (32). */
void lb_vtt_init(LbVtt *v, uint32_t n_sets, uint32_t ways, uint32_t offset, uint32_t n_wregs, uint32_t max_ways);
void lb_vtt_free(LbVtt *v);
/* eq. 2 */
uint32_t lb_vtt_rn(const LbVtt *v, uint32_t part, uint32_t set, uint32_t way);
uint32_t lb_vtt_set(const LbVtt *v, uint64_t line);
/* Invalidate every entry. */
void lb_vtt_clear(LbVtt *v);
void lb_vtt_set_tags_only(LbVtt *v, bool on);
/* Partition part's registers became idle (usable) or taken; returns the lines it dropped. */
uint32_t lb_vtt_set_usable(LbVtt *v, uint32_t part, bool usable);
/* The register file changed (MpathOps.on_regfile): each partition is usable while all its
 * registers are idle; usable_cycles is brought up to rf's cycle. Returns the lines dropped. */
uint32_t lb_vtt_on_regfile(LbVtt *v, const struct RegfileView *rf);
/* Search the usable partitions in order; on a hit the entry becomes most recently used. */
bool lb_vtt_lookup(LbVtt *v, uint64_t line, LbVttSlot *s);
/* Place a line (false: no usable partition). */
bool lb_vtt_insert(LbVtt *v, uint64_t line, LbVttSlot *s);
/* Drop a line if present (a store wrote it, or it moved back to the L1D). */
bool lb_vtt_invalidate(LbVtt *v, uint64_t line);

#endif
