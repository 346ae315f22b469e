/* lb_monitor.h: Linebacker's Load Monitor (seeds/004 sec. 4 "Load Monitor" and 4.1 "LM"): which
 * static loads have high locality, to select the L1D victim lines worth keeping.
 *
 * 32 entries indexed by a 5-bit hash of the load's PC (the XOR of the PC's 5-bit pieces); each
 * holds the PC of its first load, hit and miss counts and a 2-bit valid field. A load's access
 * counts as a hit when it hits in the L1D or in the Victim Tag Table, else as a miss. At the end
 * of each window (50,000 cycles) an entry whose hit ratio is above the threshold (20%) is high
 * in that window: the valid field shifts its first bit into the second and records the window's
 * result in the first. Selection: the loads high in the last window whose whole set is also
 * high in this one (bits 1 and 0 both set). Disabled: no load was high in the first two
 * windows, or in the window just ended after one was. While at least one load is high and the
 * sets do not match yet, monitoring goes on. */
#ifndef WARPSIM_LB_MONITOR_H
#define WARPSIM_LB_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#define LB_MONITOR_ENTRIES 32

typedef enum LbMonitorState {
    LB_MONITORING, /* windows still being watched */
    LB_SELECTED,   /* high-locality loads found: victim caching of their lines */
    LB_DISABLED,   /* none found: no victim caching (the kernel is not cache-sensitive) */
} LbMonitorState;

typedef struct LbMonitorEntry {
    uint32_t pc;
    bool used;      /* pc recorded */
    uint8_t valid;  /* bit 0: high in the last window ended, bit 1: in the one before */
    uint32_t hit, miss;
} LbMonitorEntry;

typedef struct LbMonitor {
    LbMonitorEntry e[LB_MONITOR_ENTRIES];
    uint64_t window_cycles;
    uint32_t threshold_pct;  /* high when hits * 100 > threshold_pct * (hits + misses) */
    uint64_t window_start;   /* cycle the current window began */
    uint32_t windows;        /* windows ended since monitoring began */
    LbMonitorState state;
    uint32_t selected;       /* bit h: hashed PC h is a selected load */
} LbMonitor;

/* The 5-bit hashed PC (HPC) of a 32-bit PC. */
uint32_t lb_hpc(uint32_t pc);
/* Start monitoring (a kernel begins) at cycle now. */
void lb_monitor_start(LbMonitor *m, uint64_t window_cycles, uint32_t threshold_pct, uint64_t now);
/* One load access of pc at cycle now, a hit (L1D or VTT) or not. Ends the windows that have
 * passed first; counts nothing once monitoring is over. */
void lb_monitor_access(LbMonitor *m, uint32_t pc, bool hit, uint64_t now);
/* End every window that ended by cycle now (no access needed). */
void lb_monitor_advance(LbMonitor *m, uint64_t now);
/* Is a line last touched by a load of hashed PC hpc worth keeping? */
static inline bool lb_monitor_selects(const LbMonitor *m, uint32_t hpc)
{
    return m->state == LB_SELECTED && (m->selected >> hpc & 1);
}

#endif
