/* rf_banks.h: the register-file banks that lines kept in warp registers are read from and
 * written to (Linebacker, seeds/004 sec. 5 "bank conflicts"; CERF, its unified storage). Warp
 * register RN lies in bank RN mod n; a bank serves one line read or write a cycle, so an access
 * to a busy bank waits (a bank conflict). Operand accesses are not modelled (warpsim has no
 * operand collector): line accesses conflict only with each other. */
#ifndef WARPSIM_RF_BANKS_H
#define WARPSIM_RF_BANKS_H

#include <stdint.h>

typedef struct RfBanks {
    uint32_t n;
    uint64_t *free_at;   /* first cycle each bank is free */
    uint64_t conflicts;  /* accesses that waited for their bank */
} RfBanks;

void rf_banks_init(RfBanks *b, uint32_t n);
void rf_banks_free(RfBanks *b);
/* A line access to register rn at cycle t: returns the cycles it waits for its bank. */
uint64_t rf_banks_access(RfBanks *b, uint32_t rn, uint64_t t);

#endif
