/* fcw.h: Fully Cached Warps (FCW), the estimate of how many of an SM's highest-priority warps
 * keep their data in the L1D. Wang's thesis uses the same flow twice: DaCache's dynamic
 * partitioning (4.2.4, Fig. 4.3) and OAWS's occlusion-free concurrency (5.4.1, Fig. 5.3). The
 * DaCache replacement policy (repl/dacache.c) and the FCW and OAWS warp schedulers
 * (warp/oaws.c) share it here.
 *
 * Fed once per divergent load that has been looked up in full: a fully cached load counts CNT
 * up; at C_max, FCW grows by one (up to W_max) and CNT restarts at C_max / 2. A partially
 * cached load counts CNT down, by FCW - g when its warp's priority g (0: the oldest) is below
 * FCW (a locality warp: the misses of the highest-priority warps shrink FCW fastest), else by 1
 * (a thrashing warp); at 0, FCW shrinks by one (down to fcw_min) and CNT restarts at
 * C_max / 2. Choices the thesis leaves open are the callers' (what g is, fcw_min). */
#ifndef WARPSIM_POLICY_FCW_H
#define WARPSIM_POLICY_FCW_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"

typedef struct FcwTrain {
    uint32_t fcw;          /* the estimate: warps of priority below it are locality warps */
    uint32_t cnt;          /* fully cached loads, net */
    uint32_t cmax, fcw_min, wmax;
    uint64_t up, down;     /* times FCW grew / shrank */
} FcwTrain;

/* FCW starts at fcw (within [fcw_min, wmax]), CNT at cmax / 2. */
static inline void fcw_train_init(FcwTrain *t, uint32_t fcw, uint32_t cmax, uint32_t fcw_min, uint32_t wmax)
{
    t->cmax = cmax;
    t->fcw_min = fcw_min;
    t->wmax = wmax;
    t->fcw = MAX(fcw_min, MIN(fcw, wmax));
    t->cnt = cmax / 2;
    t->up = t->down = 0;
}

/* One divergent load, looked up in full, of a warp of priority prio. */
static inline void fcw_train_load(FcwTrain *t, bool fully_cached, uint64_t prio)
{
    uint32_t half = t->cmax / 2;
    if (fully_cached) {
        if (t->cnt < t->cmax)
            t->cnt++;
        if (t->cnt == t->cmax && t->fcw < t->wmax) {
            t->fcw++;
            t->up++;
            t->cnt = half;
        }
        return;
    }
    uint32_t dec = prio < t->fcw ? t->fcw - (uint32_t)prio : 1;
    t->cnt = t->cnt > dec ? t->cnt - dec : 0;
    if (t->cnt == 0 && t->fcw > t->fcw_min) {
        t->fcw--;
        t->down++;
        t->cnt = half;
    }
}

#endif
