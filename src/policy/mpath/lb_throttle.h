/* lb_throttle.h: Linebacker's CTA throttling on a real SM (seeds/004 sec. 3.2, 4.1 CTL and
 * "Delay Considerations"): the IPC monitor and CTA manager of lb_ctl.c driving the SM through its
 * CTA-throttling interface (policy.h SmCtaCtl), with the registers of a throttled CTA backed up
 * to off-chip memory and restored through a 6-entry buffer.
 *
 * The IPC monitor counts windows from the kernel's start, aligned with the Load Monitor's. At the
 * end of the window in which the Load Monitor selects loads (the kernel is cache-sensitive) one
 * CTA is throttled without comparing; from then on each window's IPC_Var decides (eq. 1, +/-10%).
 *
 * Throttling CTA hw (the active one with the largest hardware id): its warps stop issuing at
 * once and the SM's cap on resident CTAs drops to the active count; once its loads in flight are
 * back (its registers hold their final values), its #reg warp registers are read into the buffer
 * one a cycle while an entry is free, and each entry leaves as a 128-byte write to BP + 128 i
 * through the miss queue. When every write is acknowledged, BA = BP, BP += #reg x 128 (C set)
 * and the CTA's registers become dynamically unused: the VTT may use them.
 *
 * Restoring (an IPC drop raised the cap, or an active CTA completed while a throttled one waits:
 * an inactive CTA comes back before any new CTA): the CTA throttled last (the stack's top,
 * BP - #reg x 128) takes its registers back at once (victim lines there are dropped: they are
 * clean), up to 6 line reads are in flight, each reply waits in its buffer entry and is written
 * into the register file one a cycle; when all #reg are written the warps issue again. One
 * backup or restore at a time: a throttle decision while the buffer is busy is skipped, a
 * restore waits for the buffer. */
#ifndef WARPSIM_LB_THROTTLE_H
#define WARPSIM_LB_THROTTLE_H

#include "policy/mpath/lb_ctl.h"
#include "policy/policy.h"

#define LB_BACKUP_BASE (1ull << 40) /* the initial BP of SM 0: off-chip, above any allocation */
#define LB_BACKUP_SM_STRIDE (1ull << 20) /* each SM's own backup area (a whole file is 256 KB) */

typedef enum LbBufOp { LB_BUF_IDLE, LB_BUF_DRAIN, LB_BUF_BACKUP, LB_BUF_RESTORE } LbBufOp;

typedef struct LbThrottle {
    uint32_t entries;   /* buffer entries (6) */
    uint64_t bp0;       /* this SM's initial BP */
    uint64_t window;
    double bound;       /* IPC_Var bounds: +bound and -bound */
    LbIpcMonitor ipc;
    LbCtaManager cm;
    uint32_t frn_of[LB_CTL_MAX_CTAS]; /* each CTA's registers (kept while it is inactive) */
    bool started;       /* this kernel's first CTA arrived: Common Info set, IPC monitor running */
    bool on;            /* the kernel is cache-sensitive: decisions are acted on */
    uint64_t kernel_start;
    uint32_t limit;     /* the active CTAs wanted (UINT32_MAX: no throttling yet) */
    /* the buffer's operation on CTA hw: registers read (backup) or requested (restore), entries
     * in use, acknowledgements or replies received, registers written back (restore) */
    LbBufOp op;
    uint32_t hw, n, read, sent, in_buf, acked, filled, written;
    uint64_t addr, op_start;
    /* stats */
    uint64_t throttles, restores, skipped, backup_bytes, restore_bytes, backup_cycles, restore_cycles;
    uint64_t drain_cycles, ipc_windows, throttle_decisions, restore_decisions;
} LbThrottle;

void lb_throttle_init(LbThrottle *t, uint32_t entries, uint64_t window, double bound, uint32_t sm);
void lb_throttle_kernel_begin(LbThrottle *t, uint64_t cycle);
void lb_throttle_cta(LbThrottle *t, const MpathCtaEvent *e, const SmCtaCtl *ctl);
/* The SM's tick; selected: the Load Monitor has selected loads (state at cycle now). Returns the
 * next cycle it is needed. */
uint64_t lb_throttle_tick(LbThrottle *t, uint64_t now, bool selected, const SmCtaCtl *ctl);
/* A backup write was acknowledged, or a restore read's line arrived. */
void lb_throttle_reply(LbThrottle *t, bool write);
/* Active and throttled (inactive) CTAs now. */
uint32_t lb_throttle_active(const LbThrottle *t);
uint32_t lb_throttle_inactive(const LbThrottle *t);

#endif
