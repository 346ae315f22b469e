/* ccws.h: what Cache-Conscious Wavefront Scheduling (ccws.c, `sm.sched = ccws`) shows besides
 * its hooks: a warp's lost-locality score and the current lost-locality detected score, read
 * from the SM-wide state its create_shared made (tests and dumps). */
#ifndef WARPSIM_POLICY_CCWS_H
#define WARPSIM_POLICY_CCWS_H

#include <stdint.h>

/* LLS of warp slot `slot` at `cycle` (not before the last event the policy heard): the base
 * score for a slot without a live warp. */
uint64_t ccws_lls(const void *shared, uint32_t slot, uint64_t cycle);
/* LLDS (the paper's eq. 1) as of now: VTAHitsTotal / InstIssuedTotal * K_THROTTLE *
 * CumLLSCutoff, rounded down; 0 before the first VTA hit. */
uint64_t ccws_llds(const void *shared);

#endif
