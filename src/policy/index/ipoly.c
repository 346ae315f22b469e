/* ipoly.c: IPOLY set indexing (Rau, ISCA'91, "Pseudo-randomly interleaved memory"), as
 * GPGPU-Sim's 'P' set-index letter implements it: the set is the line address, read as a
 * polynomial over GF(2), modulo an irreducible polynomial P(x) of degree log2(n_sets). Every
 * power-of-two stride then maps 2^n consecutive elements to 2^n distinct sets.
 *
 * GPGPU-Sim hard-codes the XOR equations for 8..256 sets; they are exactly this remainder
 * taken over only the low log2(n_sets) + K line-address bits, with (sets: P(x), K)
 *   8: x^3+x+1 (11), 14   16: x^4+x+1 (19), 13   32: x^5+x^2+1 (37), 15
 *   64: x^6+x+1 (67), 19  128: x^7+x+1 (131), 23 256: x^8+x^4+x^3+x+1 (283), 22
 * and we reproduce them bit for bit, truncation included. For the set counts GPGPU-Sim lacks
 * we choose (docs/index-functions.md) a primitive polynomial from the standard tables and use
 * the whole line address: 2: x+1; 4: x^2+x+1; 512: x^9+x^4+1; 1024: x^10+x^3+1;
 * 2048: x^11+x^2+1; 4096: x^12+x^6+x^4+x+1; 8192: x^13+x^4+x^3+x+1;
 * 16384: x^14+x^10+x^6+x+1; 32768: x^15+x+1; 65536: x^16+x^12+x^3+x+1; 2^17: x^17+x^3+1;
 * 2^18: x^18+x^7+1; 2^19: x^19+x^5+x^2+x+1; 2^20: x^20+x^3+1.
 * param[0] = P(x) as a bit mask, param[1] = the line-address bits that take part. */
#include "policy/policy.h"

#include "base/base.h"

typedef struct IpolyRow {
    uint32_t poly;
    unsigned higher_bits; /* K; 0 = the whole line address */
} IpolyRow;

static const IpolyRow ipoly_rows[] = {
    {1, 0}, /* one set: everything reduces to 0 */
    {0x3, 0},       {0x7, 0},       {0xb, 14},      {0x13, 13},     {0x25, 15},
    {0x43, 19},     {0x83, 23},     {0x11b, 22},    {0x211, 0},     {0x409, 0},
    {0x805, 0},     {0x1053, 0},    {0x201b, 0},    {0x4443, 0},    {0x8003, 0},
    {0x1100b, 0},   {0x20009, 0},   {0x40081, 0},   {0x80027, 0},   {0x100009, 0},
};

static void ipoly_init(IndexFn *fn)
{
    CHECK(fn->set_bits < ARRAY_LEN(ipoly_rows));
    const IpolyRow *r = &ipoly_rows[fn->set_bits];
    fn->param[0] = r->poly;
    unsigned used = fn->set_bits + r->higher_bits;
    if (fn->set_bits == 0)
        fn->param[1] = 0; /* one set */
    else
        fn->param[1] = r->higher_bits && used < 64 ? ((uint64_t)1 << used) - 1 : ~(uint64_t)0;
}

static uint32_t ipoly_set_of(const IndexFn *fn, uint64_t addr)
{
    uint64_t v = (addr >> fn->line_bits) & fn->param[1];
    unsigned n = fn->set_bits;
    /* Long division over GF(2): cancel the leading term until the degree is below n. */
    while (v >> n) {
        unsigned top = 63u - (unsigned)__builtin_clzll(v);
        v ^= fn->param[0] << (top - n);
    }
    return (uint32_t)v;
}

const IndexOps index_ipoly_ops = {
    .meta = {.name = "ipoly", .help = "line address modulo an irreducible polynomial over GF(2) (IPOLY, GPGPU-Sim 'P')"},
    .init = ipoly_init,
    .set_of = ipoly_set_of,
};
