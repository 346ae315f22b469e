/* fcfs.c: in-order DRAM scheduling per bank: the oldest queued request of the bank, whatever
 * the state of its row buffer (GPGPU-Sim's -gpgpu_dram_scheduler 0). The baseline that shows
 * what FR-FCFS's row-hit reordering buys. */
#include "policy/policy.h"

static int fcfs_pick(const DramSchedEntry *q, uint32_t n, uint32_t bank, uint32_t open_row)
{
    (void)open_row;
    for (uint32_t i = 0; i < n; i++)
        if (q[i].bank == bank)
            return (int)i;
    return -1;
}

const DramSchedOps dram_fcfs_ops = {
    .meta = {.name = "fcfs", .help = "oldest request of the bank first, regardless of the open row (in order)"},
    .pick = fcfs_pick,
};
