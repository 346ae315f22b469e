/* ptx_alu_int.c: the integer (and .pred / .bN) arithmetic and logic instructions of the PTX
 * interpreter (ptx_alu.c dispatches here). Values are computed on 64-bit registers extended from
 * the instruction type and truncated on write; full warps of the common forms run as plain
 * loops (LANES) with the operation chosen before the loop. */
#include "front/ptx/ptx_alu.h"

#include "front/ptx/ptx_value.h"

#include "base/base.h"

static inline unsigned clz_n(uint64_t v, unsigned bits)
{
    if (!v)
        return bits;
    return (unsigned)__builtin_clzll(v) - (64 - bits);
}

static uint64_t brev_n(uint64_t v, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((v >> i) & 1) << (bits - 1 - i);
    return r;
}

/* A SIMD video instruction (vop4: four byte lanes; vop2: two half-word lanes) with the default
 * selectors and mask: lane k of a and of b, each sign- or zero-extended by its source's type,
 * give r[k]. The merge form writes each r[k], clamped to the lane's range of d's type under
 * .sat and truncated otherwise, into lane k of d (with every lane selected, c gives nothing);
 * the .add form returns c plus the sum of the r[k], at full precision, as the PTX ISA's
 * pseudo-code computes it (vabsdiff4.u32.u32.u32.add: a sum of absolute differences). */
static uint32_t vsimd(const PtxInst *in, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned lanes = in->shape, w = 32 / lanes;
    uint32_t lm = w == 8 ? 0xFFu : 0xFFFFu;
    bool sa = in->type2 == PT_S32, sb = in->type3 == PT_S32, sd = in->type == PT_S32;
    int64_t lo = sd ? -((int64_t)1 << (w - 1)) : 0, hi = sd ? ((int64_t)1 << (w - 1)) - 1 : (int64_t)lm;
    int64_t sum = 0;
    uint32_t d = 0;
    for (unsigned k = 0; k < lanes; k++) {
        int64_t x = (a >> (k * w)) & lm, y = (b >> (k * w)) & lm, r;
        if (sa && (x >> (w - 1)))
            x -= (int64_t)1 << w;
        if (sb && (y >> (w - 1)))
            y -= (int64_t)1 << w;
        switch (in->mode) {
        case VOP_ADD: r = x + y; break;
        case VOP_SUB: r = x - y; break;
        case VOP_ABSDIFF: r = x > y ? x - y : y - x; break;
        case VOP_MIN: r = x < y ? x : y; break;
        default: r = x > y ? x : y; break;
        }
        sum += r;
        if (in->flags & PF_SAT)
            r = r < lo ? lo : r > hi ? hi : r;
        d |= ((uint32_t)r & lm) << (k * w);
    }
    return (in->flags & PF_VADD) ? c + (uint32_t)sum : d;
}

void ptx_alu_int(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE], t4[WARP_SIZE];
    SRC(1);
    SRC(2);
    SRC(3);
    SRC(4);
    uint64_t *d = w->regs + (size_t)in->o[0].reg * WARP_SIZE;
    uint64_t *cf = w->regs + (size_t)SR_CARRY * WARP_SIZE; /* the special registers' slots come first */
    unsigned nb = ptx_type_bytes(in->type), bits = 8 * nb;
    bool sg = ptx_type_signed(in->type);
    uint64_t mask = ptx_zmask(nb);
    bool cc = in->flags & PF_CC;
    if (in->type == PT_PRED)
        mask = 1;
    uint64_t zm = ptx_zmask(nb);
    /* The common forms first: the low bits of a sum or product do not depend on how the
     * operands were extended. */
    bool plain = !cc && !(in->flags & PF_SAT);
    if (plain && in->op == OP_ADD) {
        LANES(active, i, d[i] = (A(1, i) + A(2, i)) & mask);
        return;
    }
    if (plain && in->op == OP_SUB) {
        LANES(active, i, d[i] = (A(1, i) - A(2, i)) & mask);
        return;
    }
    if (plain && in->op == OP_MUL && in->mode == MUL_LO) {
        LANES(active, i, d[i] = (A(1, i) * A(2, i)) & zm);
        return;
    }
    if (plain && in->op == OP_MAD && in->mode == MUL_LO) {
        LANES(active, i, d[i] = (A(1, i) * A(2, i) + A(3, i)) & zm);
        return;
    }
    /* mul.wide and mad.wide of 32-bit operands (addresses: index x size + base): a 64-bit
     * product of the extended operands, the sum wrapping at 64 bits */
    if (plain && (in->op == OP_MUL || in->op == OP_MAD) && in->mode == MUL_WIDE && nb == 4) {
        const bool mad = in->op == OP_MAD;
        if (sg)
            LANES(active, i,
                  d[i] = (uint64_t)((int64_t)(int32_t)A(1, i) * (int64_t)(int32_t)A(2, i)) + (mad ? A(3, i) : 0));
        else
            LANES(active, i, d[i] = (uint64_t)(uint32_t)A(1, i) * (uint32_t)A(2, i) + (mad ? A(3, i) : 0));
        return;
    }
    switch (in->op) {
    case OP_ADD: case OP_ADDC: case OP_SUB: case OP_SUBC:
        FOR_LANES(active, i) {
            uint64_t a = A(1, i) & mask, b = A(2, i) & mask;
            uint64_t cin = (in->op == OP_ADDC || in->op == OP_SUBC) ? (cf[i] & 1) : 0;
            uint64_t r;
            bool carry;
            if (in->op == OP_ADD || in->op == OP_ADDC) {
                r = a + b + cin;
                carry = nb >= 8 ? (r < a || (cin && r == a)) : ((r >> bits) & 1);
            } else {
                r = a - b - cin;
                carry = a < b || (a - b) < cin; /* borrow */
            }
            if (in->flags & PF_SAT && sg && nb == 4) {
                int64_t s = (in->op == OP_ADD ? (int64_t)(int32_t)a + (int64_t)(int32_t)b
                                              : (int64_t)(int32_t)a - (int64_t)(int32_t)b);
                r = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
            d[i] = r & mask;
            if (cc)
                cf[i] = carry;
        }
        return;
    case OP_MUL: case OP_MAD: case OP_MADC: case OP_MUL24: case OP_MAD24:
        FOR_LANES(active, i) {
            uint64_t a = ptx_ext(A(1, i), nb, sg), b = ptx_ext(A(2, i), nb, sg), r;
            if (in->op == OP_MUL24 || in->op == OP_MAD24) {
                a = ptx_ext(a, 3, sg);
                b = ptx_ext(b, 3, sg);
            }
            unsigned rbits = bits;
            if (in->mode == MUL_HI) {
                if (nb >= 8)
                    r = sg ? (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64)
                           : (uint64_t)(((unsigned __int128)a * b) >> 64);
                else
                    r = sg ? (uint64_t)(((int64_t)a * (int64_t)b) >> bits) : (a * b) >> bits;
            } else if (in->mode == MUL_WIDE) {
                r = a * b;
                rbits = 2 * bits;
            } else {
                r = a * b;
            }
            uint64_t rmask = rbits >= 64 ? ~0ull : (1ull << rbits) - 1;
            if (in->op == OP_MUL || in->op == OP_MUL24) {
                d[i] = r & rmask;
                continue;
            }
            uint64_t c = A(3, i) & rmask, cin = in->op == OP_MADC ? (cf[i] & 1) : 0;
            uint64_t p = r & rmask, s = (p + c + cin) & rmask;
            if (cc) {
                unsigned __int128 wide = (unsigned __int128)p + c + cin;
                cf[i] = (uint64_t)(wide >> rbits) & 1;
            }
            d[i] = s;
        }
        return;
    case OP_DIV: case OP_REM:
        FOR_LANES(active, i) {
            uint64_t a = ptx_ext(A(1, i), nb, sg), b = ptx_ext(A(2, i), nb, sg), r;
            if (b == 0)
                r = in->op == OP_DIV ? ~0ull : a;
            else if (sg) {
                if ((int64_t)a == INT64_MIN && (int64_t)b == -1)
                    r = in->op == OP_DIV ? a : 0;
                else
                    r = in->op == OP_DIV ? (uint64_t)((int64_t)a / (int64_t)b) : (uint64_t)((int64_t)a % (int64_t)b);
            } else {
                r = in->op == OP_DIV ? a / b : a % b;
            }
            d[i] = r & mask;
        }
        return;
    case OP_ABS: case OP_NEG:
        FOR_LANES(active, i) {
            int64_t a = (int64_t)ptx_ext(A(1, i), nb, true);
            d[i] = (uint64_t)(in->op == OP_NEG ? -(uint64_t)a : (a < 0 ? -(uint64_t)a : (uint64_t)a)) & mask;
        }
        return;
    case OP_MIN: case OP_MAX:
        FOR_LANES(active, i) {
            uint64_t a = ptx_ext(A(1, i), nb, sg), b = ptx_ext(A(2, i), nb, sg);
            bool lt = sg ? (int64_t)a < (int64_t)b : a < b;
            d[i] = ((in->op == OP_MIN) == lt ? a : b) & mask;
        }
        return;
    case OP_SAD:
        FOR_LANES(active, i) {
            uint64_t a = ptx_ext(A(1, i), nb, sg), b = ptx_ext(A(2, i), nb, sg);
            bool lt = sg ? (int64_t)a < (int64_t)b : a < b;
            d[i] = ((lt ? b - a : a - b) + A(3, i)) & mask;
        }
        return;
    case OP_AND: LANES(active, i, d[i] = (A(1, i) & A(2, i)) & mask); return;
    case OP_OR: LANES(active, i, d[i] = (A(1, i) | A(2, i)) & mask); return;
    case OP_XOR: LANES(active, i, d[i] = (A(1, i) ^ A(2, i)) & mask); return;
    case OP_NOT: LANES(active, i, d[i] = ~A(1, i) & mask); return;
    case OP_CNOT: FOR_LANES(active, i) d[i] = (A(1, i) & mask) == 0; return;
    case OP_SHL:
        if (in->o[2].kind == OK_IMM) { /* one shift for the warp: a loop without lane branches */
            uint64_t s = in->o[2].imm & 0xFFFFFFFFu;
            if (s >= bits)
                LANES(active, i, d[i] = 0);
            else
                LANES(active, i, d[i] = (A(1, i) << s) & mask);
            return;
        }
        LANES(active, i, uint64_t s = A(2, i) & 0xFFFFFFFFu; d[i] = s >= bits ? 0 : (A(1, i) << s) & mask);
        return;
    case OP_SHR:
        if (!sg && in->o[2].kind == OK_IMM) {
            uint64_t s = in->o[2].imm & 0xFFFFFFFFu;
            if (s >= bits)
                LANES(active, i, d[i] = 0);
            else
                LANES(active, i, d[i] = ((A(1, i) & zm) >> s) & mask);
            return;
        }
        if (!sg) {
            LANES(active, i, uint64_t s = A(2, i) & 0xFFFFFFFFu; d[i] = s >= bits ? 0 : ((A(1, i) & zm) >> s) & mask);
            return;
        }
        FOR_LANES(active, i) {
            uint64_t s = A(2, i) & 0xFFFFFFFFu, a = ptx_ext(A(1, i), nb, sg);
            if (s >= bits)
                s = bits - 1, a = sg ? (uint64_t)((int64_t)a >> s) : 0;
            else
                a = sg ? (uint64_t)((int64_t)a >> s) : a >> s;
            d[i] = a & mask;
        }
        return;
    case OP_CLZ: FOR_LANES(active, i) d[i] = clz_n(A(1, i) & mask, bits); return;
    case OP_POPC: FOR_LANES(active, i) d[i] = (uint64_t)__builtin_popcountll(A(1, i) & mask); return;
    case OP_BREV: FOR_LANES(active, i) d[i] = brev_n(A(1, i) & mask, bits); return;
    case OP_BFIND:
        FOR_LANES(active, i) {
            uint64_t a = ptx_ext(A(1, i), nb, sg);
            if (sg && (int64_t)a < 0)
                a = ~a & mask;
            a &= mask;
            uint64_t r = a ? (uint64_t)(63 - __builtin_clzll(a)) : 0xFFFFFFFFu;
            if (a && (in->flags & PF_SHIFTAMT))
                r = bits - 1 - r;
            d[i] = r;
        }
        return;
    case OP_BFE:
        FOR_LANES(active, i) {
            uint64_t a = A(1, i) & mask;
            unsigned pos = (unsigned)(A(2, i) & 0xFF), len = (unsigned)(A(3, i) & 0xFF);
            uint64_t r = 0;
            bool sbit = false;
            if (sg)
                sbit = len == 0 ? false : ((pos + len - 1 >= bits) ? (a >> (bits - 1)) & 1 : (a >> (pos + len - 1)) & 1);
            for (unsigned k = 0; k < bits; k++) {
                bool bit = k < len && pos + k < bits ? (a >> (pos + k)) & 1 : sbit;
                r |= (uint64_t)bit << k;
            }
            d[i] = r & mask;
        }
        return;
    case OP_BFI:
        FOR_LANES(active, i) {
            uint64_t f = A(1, i), b = A(2, i) & mask;
            unsigned pos = (unsigned)(A(3, i) & 0xFF), len = (unsigned)(A(4, i) & 0xFF);
            for (unsigned k = 0; k < len && pos + k < bits; k++)
                b = (b & ~(1ull << (pos + k))) | (((f >> k) & 1) << (pos + k));
            d[i] = b & mask;
        }
        return;
    case OP_PRMT:
        FOR_LANES(active, i) {
            uint64_t bytes = (A(1, i) & 0xFFFFFFFFu) | ((A(2, i) & 0xFFFFFFFFu) << 32);
            uint32_t c = (uint32_t)A(3, i), r = 0;
            for (unsigned k = 0; k < 4; k++) {
                unsigned sel = (c >> (4 * k)) & 0xF;
                uint32_t byte = (uint32_t)(bytes >> (8 * (sel & 7))) & 0xFF;
                if (sel & 8) /* replicate the sign bit */
                    byte = (byte & 0x80) ? 0xFF : 0;
                r |= byte << (8 * k);
            }
            d[i] = r;
        }
        return;
    case OP_SHF:
        FOR_LANES(active, i) {
            uint64_t pair = (A(1, i) & 0xFFFFFFFFu) | ((A(2, i) & 0xFFFFFFFFu) << 32);
            unsigned n = (unsigned)(A(3, i) & 0xFFFFFFFFu);
            n = (in->flags & PF_WRAP) ? n & 31 : MIN(n, 32u);
            d[i] = in->mode == SHF_L ? (uint32_t)((pair << n) >> 32) : (uint32_t)(pair >> n);
        }
        return;
    case OP_VSIMD:
        FOR_LANES(active, i) d[i] = vsimd(in, (uint32_t)A(1, i), (uint32_t)A(2, i), (uint32_t)A(3, i));
        return;
    case OP_BMSK: /* b bits set from bit a; .clamp: a or b of 32 or more saturate, .wrap: both mod 32 */
        FOR_LANES(active, i) {
            uint32_t a = (uint32_t)A(1, i), b = (uint32_t)A(2, i), a1 = a & 31, b1 = b & 31;
            uint64_t lo = 0xFFFFFFFFull << a1, hi = 0xFFFFFFFFull << (a1 + b1);
            bool wrap = in->flags & PF_WRAP;
            if (!wrap && a >= 32)
                lo = 0;
            if (a1 + b1 >= 32 || (!wrap && b >= 32))
                hi = 0;
            else if (b1 == 0)
                hi = 0xFFFFFFFFull;
            d[i] = (uint32_t)(lo & ~hi);
        }
        return;
    default:
        return;
    }
}

