/* pmod.c: prime-modulo set indexing (Kharbutli et al., HPCA'04, "pMOD"; FUP paper sec. III-D).
 * The cache uses p sets, p the largest prime <= n_sets, and set = line_address mod p; sets
 * p..n_sets-1 are never used (the fragmentation the prime schemes trade for spreading).
 * n_sets = 1 gives p = 1 (everything in set 0). param[0] = p. */
#include "policy/policy.h"

static void pmod_init(IndexFn *fn)
{
    fn->param[0] = index_prime_at_most(fn->n_sets); /* 1 only when n_sets == 1 */
}

static uint32_t pmod_set_of(const IndexFn *fn, uint64_t addr)
{
    return (uint32_t)((addr >> fn->line_bits) % fn->param[0]);
}

const IndexOps index_pmod_ops = {
    .meta = {.name = "pmod", .help = "line address modulo the largest prime <= n_sets (pMOD; the other sets stay unused)"},
    .init = pmod_init,
    .set_of = pmod_set_of,
};
