/* ptx_half.c: half-precision arithmetic (PTX ISA 9.7.4, "Half Precision Floating-Point
 * Instructions"): add, sub, mul, fma, neg, abs, min and max on .f16 and on the pairs of .f16x2,
 * what cuda_fp16.h's __hadd, __hmul2, __hfma, ... compile to.
 *
 * Each result is computed in double from the exact halves and rounded once to a half
 * (ptx_f64_to_f16), as the rounding modifier says (.rn by default): a sum or product of two
 * halves is exact in double, so add, sub and mul round as IEEE half arithmetic does. fma rounds
 * the double fma (exact product, one rounding) to a half: a second rounding that can differ
 * from the exact result only when the addend lies more than 29 binary places below the product.
 * .ftz flushes subnormal inputs and results to zero, .sat clamps to [0, 1] (NaN to 0); min and
 * max return the other operand when one is NaN, and the canonical NaN when both are. */
#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_value.h"

#include <math.h>

static bool is_nan16(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

static uint16_t ftz16(uint16_t h)
{
    return (h & 0x7C00) == 0 ? (uint16_t)(h & 0x8000) : h; /* subnormal: signed zero */
}

/* One half-precision operation on the halves a, b, c. */
static uint16_t half_op(const PtxInst *in, uint16_t a, uint16_t b, uint16_t c)
{
    bool ftz = in->flags & PF_FTZ;
    if (ftz) {
        a = ftz16(a);
        b = ftz16(b);
        c = ftz16(c);
    }
    double x = ptx_f16_to_f64(a), y = ptx_f16_to_f64(b), z = ptx_f16_to_f64(c);
    uint8_t rnd = in->rnd == RND_NONE ? RND_RN : in->rnd;
    uint16_t r;
    switch (in->op) {
    case OP_NEG: return (uint16_t)(a ^ 0x8000);
    case OP_ABS: return (uint16_t)(a & 0x7FFF);
    case OP_MIN: case OP_MAX:
        if (is_nan16(a) && is_nan16(b))
            return 0x7FFF;
        if (is_nan16(a) || is_nan16(b))
            return is_nan16(a) ? b : a;
        if (x == y) /* -0 is the smaller zero */
            return (uint16_t)(in->op == OP_MIN ? ((a & 0x8000) ? a : b) : ((a & 0x8000) ? b : a));
        return (in->op == OP_MIN) == (x < y) ? a : b;
    case OP_ADD: r = ptx_f64_to_f16(x + y, rnd); break;
    case OP_SUB: r = ptx_f64_to_f16(x - y, rnd); break;
    case OP_MUL: r = ptx_f64_to_f16(x * y, rnd); break;
    default: r = ptx_f64_to_f16(fma(x, y, z), rnd); break; /* fma, mad */
    }
    if (ftz)
        r = ftz16(r);
    if (in->flags & PF_SAT) {
        double v = ptx_f16_to_f64(r);
        r = is_nan16(r) || v <= 0 ? 0 : v >= 1 ? 0x3C00 : r;
    }
    return r;
}

const char *ptx_half_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    switch (in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_FMA: case OP_MAD: case OP_NEG: case OP_ABS:
    case OP_MIN: case OP_MAX:
        break;
    default:
        return in->type == PT_BF16 ? "bf16 arithmetic is not supported"
                                   : "this f16 instruction is not supported (only add, sub, mul, fma, neg, abs, min, max)";
    }
    if (in->type == PT_BF16)
        return "bf16 arithmetic is not supported";
    uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
    unsigned s1 = 0, s2 = 0, s3 = 0;
    const uint64_t *a = ptx_operand_values(l, w, &in->o[1], t1, &s1);
    const uint64_t *b = in->n_ops > 2 ? ptx_operand_values(l, w, &in->o[2], t2, &s2) : a;
    const uint64_t *c = in->n_ops > 3 ? ptx_operand_values(l, w, &in->o[3], t3, &s3) : a;
    if (in->o[0].reg == PTX_NO_REG)
        return NULL;
    uint64_t *d = w->regs + (size_t)in->o[0].reg * WARP_SIZE;
    unsigned halves = in->type == PT_F16X2 ? 2 : 1;
    FOR_LANES(active, i) {
        uint64_t r = 0;
        for (unsigned k = 0; k < halves; k++) {
            unsigned sh = 16 * k;
            r |= (uint64_t)half_op(in, (uint16_t)(a[i * s1] >> sh), (uint16_t)(b[i * s2] >> sh),
                                   (uint16_t)(c[i * s3] >> sh)) << sh;
        }
        d[i] = r;
    }
    return NULL;
}
