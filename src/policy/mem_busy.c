/* mem_busy.c: the utilisation of the L2 and of the DRAM between two samples of the GPU's running
 * totals (policy.h, MemBusy), for policies that react to memory bandwidth (PCAL re-activates
 * throttled warps while it is under-used). The totals grow as requests pass; nothing is scanned
 * per cycle. */
#include "policy/policy.h"

MemBusySample mem_busy_sample(const MemBusy *m)
{
    return (MemBusySample){.l2_requests = m->l2_requests, .dram_busy_cycles = m->dram_busy_cycles,
                           .l2_cycle = *m->l2_cycle, .dram_cycle = *m->dram_cycle};
}

static double fraction(uint64_t used, uint64_t cycles, uint32_t units)
{
    if (!cycles || !units)
        return 0.0;
    double f = (double)used / ((double)cycles * units);
    return f > 1.0 ? 1.0 : f;
}

void mem_busy_util(const MemBusy *m, const MemBusySample *from, const MemBusySample *to, double *l2, double *dram)
{
    *l2 = fraction(to->l2_requests - from->l2_requests, to->l2_cycle - from->l2_cycle, m->n_l2_slices);
    *dram = fraction(to->dram_busy_cycles - from->dram_busy_cycles, to->dram_cycle - from->dram_cycle,
                     m->n_dram_channels);
}
