/* pdisp.c: prime-displacement set indexing (Kharbutli et al., HPCA'04, "pDisp"; FUP paper
 * sec. III-D, thesis sec. 3.2.4): index = (p*T + x) mod n', T the tag (the line address above
 * the log2(n_sets) conventional index bits), x those index bits, n' the largest prime smaller
 * than n_sets. Sets n'..n_sets-1 are never used, so a 32-lane load over a 32-set cache has a
 * concentration of at least 32/31 (the paper's "ideal 1.03").
 *
 * The papers leave p open ("a prime number"). We use p = 257 = 2^8 + 1: a Fermat prime, so
 * p*T is one shift and one add (in the spirit of the narrow-add hardware of Kharbutli et al.);
 * being prime and never the largest prime below a power of two, it is coprime with every n'
 * (a p divisible by n' would drop the tag and degenerate into x mod n'). Of the small primes it
 * also reproduces the paper's measured average concentration (~1.09 over ATAX, BICG, MVT, GES,
 * SYRK, SYR2K: 32/31 for the large strides, 1.14 and 1.23 for the 2 KB and 1 KB strides of
 * SYRK and SYR2K); see docs/index-functions.md.
 * n_sets <= 2 has no prime below it: n' = n_sets there (plain modulo). param[0] = n'. */
#include "policy/policy.h"

enum { PDISP_P = 257 };

static void pdisp_init(IndexFn *fn)
{
    fn->param[0] = fn->n_sets > 2 ? index_prime_at_most(fn->n_sets - 1) : fn->n_sets;
}

static uint32_t pdisp_set_of(const IndexFn *fn, uint64_t addr)
{
    uint64_t line = addr >> fn->line_bits;
    uint64_t q = fn->param[0];
    uint64_t x = line & (fn->n_sets - 1);
    uint64_t tag = line >> fn->set_bits;
    /* Reduce T first so that p*T cannot overflow 64 bits (same residue). */
    return (uint32_t)((PDISP_P * (tag % q) + x) % q);
}

const IndexOps index_pdisp_ops = {
    .meta = {.name = "pdisp", .help = "(257*tag + index) mod the largest prime < n_sets (pDisp)"},
    .init = pdisp_init,
    .set_of = pdisp_set_of,
};
