/* bxor.c: bitwise-XOR set indexing (Gonzalez et al., ICS'97; the "BXOR" of the FUP paper,
 * sec. III-D, and of the thesis, sec. 3.2.4): set = x XOR t, where x are the log2(n_sets)
 * conventional index bits of the line address and t the next log2(n_sets) bits above them.
 * Equal to GPGPU-Sim's bitwise_hash_function ('X'). Covers strides whose varying bits fall
 * in the 2*log2(n_sets) low line-address bits; larger strides keep high concentration. */
#include "policy/policy.h"

static uint32_t bxor_set_of(const IndexFn *fn, uint64_t addr)
{
    uint64_t line = addr >> fn->line_bits;
    uint64_t mask = fn->n_sets - 1;
    uint64_t x = line & mask;
    /* set_bits may be 0 (one set): then mask is 0 and the shift is harmless. */
    uint64_t t = (line >> fn->set_bits) & mask;
    return (uint32_t)(x ^ t);
}

const IndexOps index_bxor_ops = {
    .meta = {.name = "bxor", .help = "index bits XOR the next log2(n_sets) line-address bits (BXOR)"},
    .set_of = bxor_set_of,
};
