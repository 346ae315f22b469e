/* fermi.c: the pseudo-random set hash of the Fermi L1 data cache, as reverse-engineered by
 * Nugteren et al. (HPCA'14, "A detailed GPU cache model based on reuse distance theory") and
 * implemented in GPGPU-Sim as the 'H' set-index letter:
 *   32 sets: set = (line address bits 0..4) XOR (address bits 13, 14, 15, 17, 19)
 *   64 sets: the same five bits, with address bit 12 prepended as index bit 5.
 * As in GPGPU-Sim, the five low bits come from the line address (so they move with the line
 * size) while the XORed bits 13,14,15,17,19 and bit 12 are absolute address bits.
 *
 * GPGPU-Sim rejects other set counts; we generalise (our choice, documented in
 * docs/index-functions.md) so every power of two maps into [0, n_sets):
 *   fewer than 32 sets: the low log2(n_sets) bits of the 32-set hash;
 *   more than 64 sets: the 32-set hash plus line-address bits 5..log2(n_sets)-1 as the upper
 *   index bits (with 128-byte lines line-address bit 5 is address bit 12, so this extends the
 *   64-set layout). */
#include "policy/policy.h"

/* The five XORed address bits, gathered into one 5-bit value (bit 13 -> 0, ..., 19 -> 4). */
static uint32_t fermi_upper(uint64_t addr)
{
    return (uint32_t)(((addr >> 13) & 0x7) | ((addr >> 14) & 0x8) | ((addr >> 15) & 0x10));
}

static uint32_t fermi_set_of(const IndexFn *fn, uint64_t addr)
{
    uint64_t line = addr >> fn->line_bits;
    uint32_t h = (uint32_t)(line & 0x1f) ^ fermi_upper(addr);
    if (fn->set_bits <= 5)
        return h & (fn->n_sets - 1);
    if (fn->set_bits == 6)
        return h | (uint32_t)((addr >> 12) & 1) << 5;
    return h | (uint32_t)(line & (fn->n_sets - 1) & ~(uint64_t)0x1f);
}

const IndexOps index_fermi_ops = {
    .meta = {.name = "fermi", .help = "Fermi L1 hash: line bits 0-4 XOR address bits 13,14,15,17,19 (+bit 12 for 64 sets)"},
    .set_of = fermi_set_of,
};
