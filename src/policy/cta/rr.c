/* rr.c: round-robin CTA scheduling (GPGPU-Sim's default, the LAS thesis baseline): CTAs are
 * handed out in id order; the dispatcher visits SMs in round-robin order, so consecutive
 * CTAs land on consecutive SMs. */
#include "policy/policy.h"

static int rr_pick(void *self, uint32_t sm, const CtaSchedView *v)
{
    return v->next_unlaunched < v->n_ctas ? (int)v->next_unlaunched : -1;
}

const CtaSchedOps cta_rr_ops = {
    .name = "rr",
    .help = "round-robin: next CTA in id order to the next SM with room",
    .pick = rr_pick,
};
