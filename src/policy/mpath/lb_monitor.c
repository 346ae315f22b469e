/* lb_monitor.c: Linebacker's Load Monitor (see lb_monitor.h). */
#include "policy/mpath/lb_monitor.h"

#include <string.h>

uint32_t lb_hpc(uint32_t pc)
{
    uint32_t h = 0;
    for (; pc; pc >>= 5)
        h ^= pc & 31;
    return h;
}

void lb_monitor_start(LbMonitor *m, uint64_t window_cycles, uint32_t threshold_pct, uint64_t now)
{
    memset(m, 0, sizeof *m);
    m->window_cycles = window_cycles;
    m->threshold_pct = threshold_pct;
    m->window_start = now;
    m->state = LB_MONITORING;
}

/* The window just ended: classify, shift the valid fields, decide. */
static void end_window(LbMonitor *m)
{
    uint32_t prev = 0, cur = 0;
    for (uint32_t h = 0; h < LB_MONITOR_ENTRIES; h++) {
        LbMonitorEntry *e = &m->e[h];
        uint64_t n = (uint64_t)e->hit + e->miss;
        bool high = n && (uint64_t)e->hit * 100 > (uint64_t)m->threshold_pct * n;
        e->valid = (uint8_t)((e->valid << 1 & 2) | high);
        prev |= (uint32_t)(e->valid >> 1 & 1) << h;
        cur |= (uint32_t)high << h;
        e->hit = e->miss = 0; /* the PC and valid field stay */
    }
    m->windows++;
    if (prev && (prev & cur) == prev) {
        m->selected = prev; /* both bits set: every load high before is high again */
        m->state = LB_SELECTED;
    } else if (!cur && m->windows >= 2) {
        m->state = LB_DISABLED;
    }
}

void lb_monitor_advance(LbMonitor *m, uint64_t now)
{
    while (m->state == LB_MONITORING && now >= m->window_start + m->window_cycles) {
        m->window_start += m->window_cycles;
        end_window(m);
    }
}

void lb_monitor_access(LbMonitor *m, uint32_t pc, bool hit, uint64_t now)
{
    lb_monitor_advance(m, now);
    if (m->state != LB_MONITORING)
        return;
    LbMonitorEntry *e = &m->e[lb_hpc(pc)];
    if (!e->used) {
        e->used = true;
        e->pc = pc;
    }
    if (hit)
        e->hit++;
    else
        e->miss++;
}
