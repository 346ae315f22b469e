/* conv.c: conventional set indexing: the low log2(n_sets) bits of the line address
 * (thesis ch. 3, "CONV"; GPGPU-Sim's 'L' letter). */
#include "policy/policy.h"

static uint32_t conv_set_of(const IndexFn *fn, uint64_t addr)
{
    return (uint32_t)((addr >> fn->line_bits) & (fn->n_sets - 1));
}

const IndexOps index_conv_ops = {
    .meta = {.name = "conv", .help = "line address modulo the number of sets (low bits)"},
    .set_of = conv_set_of,
};
