/* rf_banks.c: register-file banks for lines kept in warp registers (see rf_banks.h). */
#include "policy/mpath/rf_banks.h"

#include "base/base.h"

#include <stdlib.h>

void rf_banks_init(RfBanks *b, uint32_t n)
{
    b->n = n;
    b->free_at = xcalloc(n, sizeof *b->free_at);
    b->conflicts = 0;
}

void rf_banks_free(RfBanks *b) { free(b->free_at); }

uint64_t rf_banks_access(RfBanks *b, uint32_t rn, uint64_t t)
{
    uint64_t *f = &b->free_at[rn % b->n];
    uint64_t wait = *f > t ? *f - t : 0;
    b->conflicts += wait > 0;
    *f = t + wait + 1;
    return wait;
}
