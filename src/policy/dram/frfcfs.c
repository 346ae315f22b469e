/* frfcfs.c: first-ready, first-come-first-served DRAM scheduling (Rixner et al., ISCA 2000;
 * GPGPU-Sim's default, thesis Table 3.1 "Out-of-Order (FR-FCFS)"). Among the queued requests
 * for a bank, the oldest one that hits the open row goes first, because it needs no
 * precharge/activate; when none hits, the oldest request of the bank. */
#include "policy/policy.h"

static int frfcfs_pick(const DramSchedEntry *q, uint32_t n, uint32_t bank, uint32_t open_row)
{
    int oldest = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (q[i].bank != bank)
            continue;
        if (q[i].row == open_row)
            return (int)i; /* q is in arrival order: the first hit is the oldest hit */
        if (oldest < 0)
            oldest = (int)i;
    }
    return oldest;
}

const DramSchedOps dram_frfcfs_ops = {
    .meta = {.name = "frfcfs", .help = "oldest row-buffer hit of the bank first, else the oldest request (FR-FCFS)"},
    .pick = frfcfs_pick,
};
