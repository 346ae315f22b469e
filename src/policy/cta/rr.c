/* rr.c: round-robin CTA scheduling (GPGPU-Sim's default, the LAS thesis baseline): CTAs are
 * handed out in id order; the dispatcher visits SMs in round-robin order, so consecutive
 * CTAs land on consecutive SMs. */
#include "policy/policy.h"

static uint32_t rr_pick(void *self, uint32_t sm, const CtaSchedView *v, uint32_t *ctas)
{
    if (v->next_unlaunched >= v->n_ctas)
        return 0;
    ctas[0] = v->next_unlaunched;
    return 1;
}

const CtaSchedOps cta_rr_ops = {
    .meta = {.name = "rr", .help = "round-robin: next CTA in id order to the next SM with room"},
    .pick = rr_pick,
};
