/* bcs.c: block CTA scheduling (Lee et al., "Improving GPGPU resource utilization through
 * alternative thread block scheduling", HPCA 2014; the LAS thesis' baseline, sec. 2.2 and
 * 5.1): consecutive CTAs often share cache lines, so CTAs are dispatched in pairs of
 * consecutive ids to one SM, and only when that SM has room for both. An SM with room for one
 * waits until a second place frees (the thesis' "delay scheduling", which also throttles).
 * Choices the papers leave open: when only one CTA of the kernel is left, or an empty SM
 * cannot hold two CTAs of this kernel, CTAs go one at a time (else the kernel could never
 * finish); pairs are the two lowest unlaunched ids. */
#include "policy/policy.h"

/* The lowest unlaunched CTA id above `after`, or n_ctas. */
static uint32_t next_after(const CtaSchedView *v, uint32_t after)
{
    uint32_t c = after + 1;
    while (c < v->n_ctas && v->launched[c])
        c++;
    return c;
}

static uint32_t bcs_pick(void *self, uint32_t sm, const CtaSchedView *v, uint32_t *ctas)
{
    if (v->next_unlaunched >= v->n_ctas)
        return 0;
    ctas[0] = v->next_unlaunched;
    if (v->n_unlaunched == 1 || v->sm[sm].room_empty < 2)
        return 1;
    if (v->sm[sm].room < 2)
        return 0;
    ctas[1] = next_after(v, ctas[0]);
    return 2;
}

const CtaSchedOps cta_bcs_ops = {
    .meta = {.name = "bcs", .help = "block CTA scheduling: two consecutive CTAs together, once an SM has room for both"},
    .pick = bcs_pick,
};
