/* lb_ctl.h: the decisions of Linebacker's CTA Throttling Logic (seeds/004 sec. 3.2 and 4.1
 * "CTL", Fig. 8): the IPC monitor and the CTA manager's bookkeeping. lb_throttle.c drives the
 * SM with them (deactivating CTAs, their register backup and restore).
 *
 * IPC monitor: windows of 50,000 cycles; at a window's end the window's IPC (instructions / the
 * window's length) becomes #Current_IPC and the old one #Previous_IPC, and
 * IPC_Var = (Cur - Prev) / Prev (eq. 1): above the upper bound (+10%) one more CTA is throttled,
 * below the lower bound (-10%) one inactive CTA comes back, in between nothing changes. The
 * first decision, when the Load Monitor has found the kernel cache-sensitive, is to throttle one
 * CTA without comparing.
 *
 * CTA manager: Common Info (#reg warp registers per CTA, LRN, BP) and Per-CTA Info (ACT, FRN,
 * BA, C) indexed by the hardware CTA id. The CTA throttled is the active one with the largest
 * hardware id; its registers go to BP, BP + 128, ... (one warp register of 128 bytes each); when
 * they are all written, BA = BP, BP += #reg x 128, C is set and FRN flushed. A restore reads
 * from BP - #reg x 128 (the CTA throttled last, so BA) and BP drops by #reg x 128: the backups
 * form a stack. LRN is the largest register number of the active CTAs. */
#ifndef WARPSIM_LB_CTL_H
#define WARPSIM_LB_CTL_H

#include <stdbool.h>
#include <stdint.h>

typedef enum LbCtlAction { LB_CTL_KEEP, LB_CTL_THROTTLE, LB_CTL_RESTORE } LbCtlAction;

typedef struct LbIpcMonitor {
    uint64_t window_cycles;
    double upper, lower;      /* IPC_Var bounds: +0.1, -0.1 */
    uint64_t window_start;    /* cycle the current window began */
    uint64_t insts_at_start;  /* instructions retired by then */
    double prev_ipc, cur_ipc;
    uint32_t windows;         /* windows ended */
} LbIpcMonitor;

void lb_ipc_start(LbIpcMonitor *m, uint64_t window_cycles, double upper, double lower, uint64_t now, uint64_t insts);
/* Has the current window ended by cycle now? */
bool lb_ipc_window_due(const LbIpcMonitor *m, uint64_t now);
/* End the current window with `insts` instructions retired so far; the decision (KEEP after the
 * first window, which has nothing to compare with, or when the previous IPC is 0). */
LbCtlAction lb_ipc_window_end(LbIpcMonitor *m, uint64_t insts);

#define LB_CTL_MAX_CTAS 32 /* Per-CTA Info entries (Table 1: 32 CTAs per SM) */
#define LB_CTL_NONE UINT32_MAX

typedef struct LbCtaInfo {
    bool live;    /* a resident CTA */
    bool act;     /* ACT: active */
    bool done;    /* C: its backup is complete */
    uint32_t frn; /* FRN: its first register number (LB_CTL_NONE when flushed) */
    uint64_t ba;  /* BA: where its registers are backed up */
} LbCtaInfo;

typedef struct LbCtaManager {
    uint32_t n_reg;   /* #reg: warp registers per CTA */
    uint32_t lrn;     /* LRN: largest register number of an active CTA (LB_CTL_NONE: none) */
    uint64_t bp0, bp; /* the initial BP (a constant address) and BP */
    LbCtaInfo cta[LB_CTL_MAX_CTAS];
} LbCtaManager;

/* A kernel starts: #reg, BP = bp0, LRN = none, no CTA. */
void lb_ctam_kernel_begin(LbCtaManager *m, uint32_t n_reg, uint64_t bp0);
/* CTA hw (hardware id) is launched, active, its registers from frn. */
void lb_ctam_launch(LbCtaManager *m, uint32_t hw, uint32_t frn);
/* CTA hw completed. */
void lb_ctam_finish(LbCtaManager *m, uint32_t hw);
/* The CTA to throttle: the active one with the largest hardware id, never the last active one
 * (LB_CTL_NONE when at most one is active). */
uint32_t lb_ctam_pick_throttle(const LbCtaManager *m);
/* Throttle hw: ACT cleared; returns the address of its backup (BP): register i goes to
 * BP + 128 i. */
uint64_t lb_ctam_backup_begin(LbCtaManager *m, uint32_t hw);
/* Its registers are all written: BA = BP, BP += #reg x 128, C set, FRN flushed, LRN updated. */
void lb_ctam_backup_done(LbCtaManager *m, uint32_t hw);
/* The inactive CTA to bring back: the one backed up last (its BA is BP - #reg x 128), or
 * LB_CTL_NONE. */
uint32_t lb_ctam_pick_restore(const LbCtaManager *m);
/* Restore hw into registers from frn: returns the address to read (BP - #reg x 128 = BA);
 * BP drops by #reg x 128, ACT set, C cleared, FRN = frn, LRN updated. */
uint64_t lb_ctam_restore(LbCtaManager *m, uint32_t hw, uint32_t frn);

#endif
