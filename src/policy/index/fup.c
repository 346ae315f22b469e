/* fup.c: Full-Permutation (FUP) set indexing, Wang et al., "Eliminating Intra-Warp Conflict
 * Misses in GPU", sec. III-C; Wang's thesis, sec. 3.2.3.
 *
 * The feature bits of column-major strided warp loads lie anywhere in the block address from
 * bit 7 (above a 128-byte line) to bit 34 (16 GB of device memory): num_feature_bits = 28.
 * FUP takes F = max(num_feature_bits, 4*log2(n_sets)) bits starting at the first block-address
 * bit and splits them, from the low end, into S1, S2, S3 of log2(n_sets) bits each and S4 with
 * the rest. The index is (S1 XOR S2) XOR (S3 XOR S4'): two levels of XOR. S4' is S4 when it has
 * log2(n_sets) bits (F = 4*log2 n_sets: case 1 and, with bits above 34, case 2 of the paper);
 * when S4 is wider (case 3) it is folded to log2(n_sets) bits by a prime modulo.
 *
 * Choices the paper leaves open (docs/index-functions.md):
 *  - the region starts at the first block-address bit, log2(line_bytes) (bit 7 for the paper's
 *    128-byte lines), and ends at address bit 34, so num_feature_bits = 35 - log2(line_bytes);
 *  - S1 is the lowest group and S4 the highest (and widest): streaming loads, whose varying
 *    bits are low, are spread by S1 as under CONV, and the modulo only sees very large strides;
 *  - the prime is q, the largest prime below n_sets (31 for 32 sets, as pDisp's n'), and the
 *    modulo is the narrow-add fold the paper cites (Kharbutli et al.): with 2^n = q + d,
 *    S4 = hi*2^n + lo is replaced by hi*d + lo until it fits in n bits. The result is congruent
 *    to S4 mod q; the final "subtract q if >= q" step is left out because FUP only needs n bits,
 *    and leaving it out keeps all 2^n index values in use (for q = 31 the fold is the
 *    end-around-carry sum, where 31 stands for a nonzero multiple of 31). So 32 lines one
 *    power-of-two stride apart with all their feature bits in S4 still reach 32 sets when the
 *    array base has no bits in S4 (the paper's Warp_0 of A[tid*STRIDE]). A base with bits in
 *    S4 (e.g. 0xC0000000) leaves 32/30 or 32/31 for the strides that reach S4 (>= 2 MB with
 *    32 sets): the "limited intra-warp concentration for very large strides" the paper accepts.
 *  - two sets (n = 1) have no prime below them: S4 is truncated to its low bit there.
 * param[0] = d (the fold constant), param[1] = width of S4 in bits. */
#include "policy/policy.h"

enum { FUP_TOP_BIT = 34 }; /* highest address bit of a 16 GB device memory */

static void fup_init(IndexFn *fn)
{
    unsigned n = fn->set_bits;
    unsigned feature_bits = fn->line_bits <= FUP_TOP_BIT ? FUP_TOP_BIT + 1 - fn->line_bits : 0;
    unsigned f = feature_bits > 4 * n ? feature_bits : 4 * n;
    uint64_t q = fn->n_sets > 2 ? index_prime_at_most(fn->n_sets - 1) : fn->n_sets;
    fn->param[0] = fn->n_sets - q;
    fn->param[1] = f - 3 * n;
}

/* width bits of v starting at bit pos (0 beyond bit 63). */
static uint64_t fup_bits(uint64_t v, unsigned pos, unsigned width)
{
    if (pos >= 64)
        return 0;
    v >>= pos;
    return width >= 64 ? v : v & (((uint64_t)1 << width) - 1);
}

static uint32_t fup_set_of(const IndexFn *fn, uint64_t addr)
{
    unsigned n = fn->set_bits;
    if (n == 0)
        return 0;
    uint64_t mask = fn->n_sets - 1;
    uint64_t line = addr >> fn->line_bits;
    uint64_t s1 = line & mask;
    uint64_t s2 = fup_bits(line, n, n);
    uint64_t s3 = fup_bits(line, 2 * n, n);
    uint64_t s4 = fup_bits(line, 3 * n, (unsigned)fn->param[1]);
    uint64_t d = fn->param[0];
    while (s4 >> n) /* narrow-add prime fold (only when S4 is wider than n bits) */
        s4 = (s4 >> n) * d + (s4 & mask);
    return (uint32_t)((s1 ^ s2) ^ (s3 ^ s4));
}

const IndexOps index_fup_ops = {
    .meta = {.name = "fup", .help = "full permutation: S1^S2^S3^(S4 mod prime) over block-address bits up to bit 34 (FUP)"},
    .init = fup_init,
    .set_of = fup_set_of,
};
