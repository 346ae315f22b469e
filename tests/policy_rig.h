/* policy_rig.h: one policy made the way the machine makes it (options from a config, stats
 * kept under the prefix "t"), for the tests that drive a policy through its hooks with
 * hand-made views (tests/unit/policy_rig.c). */
#ifndef WARPSIM_POLICY_RIG_H
#define WARPSIM_POLICY_RIG_H

#include <stdint.h>

#include "conf/config.h"
#include "policy/policy.h"
#include "stats/stats.h"

typedef struct PolicyRig {
    Config c;
    Stats st;
    PolicyCtx ctx;
    const WarpSchedOps *warp; /* the one made */
    const CtaSchedOps *cta;
    void *shared, *self;
} PolicyRig;

/* Warp scheduler `name` (sm.sched), scheduler 0 of 1, with options kv[i] = "option=value". */
void prig_warp(PolicyRig *r, const char *name, const char *const *kv, uint32_t n);
/* CTA scheduler `name` (gpu.cta_sched) for n_sms SMs, with options as above. */
void prig_cta(PolicyRig *r, const char *name, uint32_t n_sms, const char *const *kv, uint32_t n);
void prig_free(PolicyRig *r);
/* A hand-made one-scheduler SM of 48 slots with 32 free MSHR entries: n warps of one CTA in
 * slots 0..n-1 (slot i the i-th oldest, an instruction of 32 lanes next), told to the warp
 * scheduler (on_cta_launch). */
void prig_launch(PolicyRig *r, WarpSlotInfo *slots, uint64_t *ages, SmView *view, uint32_t n);

/* A counter of st by its formatted key; the test fails hard when there is none. */
uint64_t test_stat(const Stats *st, const char *fmt, ...);
/* The rig's policy's counter "t.<name>". */
uint64_t prig_stat(const PolicyRig *r, const char *name);

#endif
