/* ptx_fast.c: pre-decoded full-warp forms of the interpreter's hottest instructions: shared
 * loads of 32-bit elements and f32 fma, the inner loop of a tiled matrix product, and the
 * integer add, and, or, xor, shl, shr, cvt and setp of its index arithmetic, loops and hashes.
 *
 * ptx_fast_decode marks, once per module, each instruction of xinsts that has a form here and
 * that this host can run (AVX2: the forms work on eight lanes' low words at once); the warp
 * step runs a marked instruction through ptx_fast_exec when every lane is active, with no
 * dispatch on opcode, type or modifiers. A form decides before it changes anything: when a
 * lane's access would fault, it returns false and the general path (ptx_exec.c) runs the
 * instruction and reports the fault as it always does. Values, addresses and faults are
 * therefore those of the general path (tests/unit/test_ptx_fast.c holds the two together).
 *
 * ptx_fast_run is the functional driver's loop over the instructions of a warp that the step
 * would run and return from at once (ALU instructions, branches that do not diverge, loads with
 * a form): what the step does for each, without its checks and dispatch. */
#include "front/ptx/ptx_fast.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ld.shared of 32-bit elements at [reg + imm (+ a variable)] into registers (no sink). */
static bool ld_shared32_form(const PtxInst *in)
{
    const PtxOperand *d = &in->o[0], *a = &in->o[1];
    if (in->op != OP_LD || in->space != SP_SHARED || ptx_type_bytes(in->type) != 4 || in->n_ops != 2)
        return false;
    if (a->kind != OK_ADDR || a->reg == PTX_NO_REG)
        return false;
    if (in->vec == 1)
        return d->kind == OK_REG && d->reg != PTX_NO_REG;
    if ((in->vec != 2 && in->vec != 4) || d->kind != OK_VEC || d->n != in->vec)
        return false;
    for (unsigned k = 0; k < in->vec; k++)
        if (d->vreg[k] == PTX_NO_REG)
            return false;
    return true;
}

/* fma.rn.f32 (or mad.f32, which runs as fma) in the default rounding mode, without .ftz or
 * .sat: what ptx_fma32_warp computes. */
static bool fma32_form(const PtxInst *in)
{
    return (in->op == OP_FMA || in->op == OP_MAD) && in->type == PT_F32 && (in->rnd == RND_RN || in->rnd == RND_NONE) &&
           !(in->flags & (PF_FTZ | PF_SAT)) && in->n_ops == 4 && in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG;
}

/* The integer forms, as ptx_alu_int, exec_cvt and exec_setp compute them: add, and, or, xor of
 * the low words (32 bits) or registers (64), zero-extended; shl by an immediate s < 32 (larger
 * ones give 0 there), and shr so (arithmetic for a signed type, the word's sign coming in: the
 * low word of what the general path computes); cvt to 64 bits extends the low word by the
 * source's signedness; setp compares the low words or registers, signed only for lt, le, gt, ge
 * of a signed type (the unsigned order of sign-extended words is that of the words). PtxFastKind
 * or 0. */
static uint8_t int_form(const PtxInst *in)
{
    const unsigned nb = ptx_type_bytes(in->type);
    if (ptx_type_float(in->type) || in->type == PT_PRED || in->o[0].kind != OK_REG || in->o[0].reg == PTX_NO_REG)
        return PTX_FAST_NONE;
    switch (in->op) {
    case OP_ADD:
        if (in->n_ops != 3 || (in->flags & (PF_CC | PF_SAT)))
            return PTX_FAST_NONE;
        return nb == 4 ? PTX_FAST_ADD32 : nb == 8 ? PTX_FAST_ADD64 : PTX_FAST_NONE;
    case OP_AND: case OP_OR: case OP_XOR:
        if (in->n_ops != 3 || nb != 4)
            return PTX_FAST_NONE;
        return in->op == OP_AND ? PTX_FAST_AND32 : in->op == OP_OR ? PTX_FAST_OR32 : PTX_FAST_XOR32;
    case OP_SHL: case OP_SHR:
        if (in->n_ops != 3 || nb != 4 || in->o[2].kind != OK_IMM || (in->o[2].imm & 0xFFFFFFFFu) >= 32)
            return PTX_FAST_NONE;
        return in->op == OP_SHL ? PTX_FAST_SHL32 : PTX_FAST_SHR32;
    case OP_CVT:
        if (in->n_ops != 2 || in->mode != CVT_PLAIN || (in->flags & PF_SAT) || nb != 8 ||
            ptx_type_bytes(in->type2) != 4 || ptx_type_float(in->type2))
            return PTX_FAST_NONE;
        return PTX_FAST_CVT32TO64;
    case OP_SETP: /* the ten integer comparisons (CMP_EQ .. CMP_HS) */
        if (in->n_ops != 4 || in->boolop || (nb != 4 && nb != 8) || in->mode > CMP_HS)
            return PTX_FAST_NONE;
        return PTX_FAST_SETP;
    default:
        return PTX_FAST_NONE;
    }
}

#ifdef PTX_X86

/* The four groups of eight lanes as straight code (gcc -O2 leaves such loops rolled, with the
 * vectors they index in memory). */
#if defined(__GNUC__) && !defined(__clang__)
#define PTX_UNROLL4 _Pragma("GCC unroll 4")
#else
#define PTX_UNROLL4 _Pragma("unroll 4")
#endif

/* An integer form (int_form) of a full warp, eight lanes (four: 64-bit add) a vector; each
 * group reads its operands before it writes d, which may be one of them. */
__attribute__((target("avx2"))) static void int_lanes(const PtxRec *r, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    const uint8_t kind = r->fast;
    switch (kind) {
    case PTX_FAST_ADD64:
        for (unsigned k = 0; k < WARP_SIZE; k += 4)
            _mm256_storeu_si256((__m256i *)(d + k), _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(a + k)),
                                                                     _mm256_loadu_si256((const __m256i *)(b + k))));
        return;
    case PTX_FAST_SHL32: {
        const __m128i s = _mm_cvtsi32_si128(r->aux);
        for (unsigned k = 0; k < WARP_SIZE; k += 8)
            ptx_put32x8(d + k, _mm256_sll_epi32(ptx_low32x8(a + k), s), false);
        return;
    }
    case PTX_FAST_SHR32: { /* the low word shifted: its zeros or its sign bit come in */
        const __m128i s = _mm_cvtsi32_si128(r->aux);
        const bool sg = r->bits & PTX_REC_SIGNED;
        for (unsigned k = 0; k < WARP_SIZE; k += 8) {
            const __m256i x = ptx_low32x8(a + k);
            ptx_put32x8(d + k, sg ? _mm256_sra_epi32(x, s) : _mm256_srl_epi32(x, s), false);
        }
        return;
    }
    case PTX_FAST_CVT32TO64: {
        const bool sg = r->bits & PTX_REC_SIGNED;
        for (unsigned k = 0; k < WARP_SIZE; k += 8)
            ptx_put32x8(d + k, ptx_low32x8(a + k), sg);
        return;
    }
    default:
        break;
    }
    for (unsigned k = 0; k < WARP_SIZE; k += 8) {
        const __m256i x = ptx_low32x8(a + k), y = ptx_low32x8(b + k);
        ptx_put32x8(d + k, kind == PTX_FAST_ADD32   ? _mm256_add_epi32(x, y)
                           : kind == PTX_FAST_AND32 ? _mm256_and_si256(x, y)
                           : kind == PTX_FAST_OR32  ? _mm256_or_si256(x, y) : _mm256_xor_si256(x, y), false);
    }
}

/* The 32 lanes' addresses, (base + displacement) mod 2^32 as the general path computes them,
 * are each aligned and leave room for the access inside the block's shared memory (checked
 * eight lanes at a time, before anything is read); then each element is read lane by lane
 * and widened into its register. */
__attribute__((target("avx2"))) static bool ld_shared32(PtxLaunch *l, PtxWarp *w, const PtxRec *r, Winst *out)
{
    const unsigned n = r->aux, bytes = 4 * n;
    const uint32_t disp = r->ld.disp + (r->sym != PTX_NO_SYM ? (uint32_t)l->sym_addr[r->sym] : 0);
    if (l->smem_bytes < bytes)
        return false;
    const uint64_t *base = w->regs + r->ld.base;
    const __m256i last = _mm256_set1_epi32((int)(l->smem_bytes - bytes)), dv = _mm256_set1_epi32((int)disp);
    __m256i a[4], odd = _mm256_setzero_si256(), inside = _mm256_set1_epi32(-1);
    PTX_UNROLL4
    for (unsigned k = 0; k < 4; k++) {
        a[k] = _mm256_add_epi32(ptx_low32x8(base + 8 * k), dv);
        odd = _mm256_or_si256(odd, a[k]);
        inside = _mm256_and_si256(inside, _mm256_cmpeq_epi32(_mm256_max_epu32(a[k], last), last));
    }
    if (!_mm256_testz_si256(odd, _mm256_set1_epi32((int)(bytes - 1))) ||
        !_mm256_testc_si256(inside, _mm256_set1_epi32(-1)))
        return false;
    if (out) {
        PTX_UNROLL4
        for (unsigned k = 0; k < 4; k++)
            ptx_put32x8(out->addr + 8 * k, a[k], false);
    }
    uint32_t at[WARP_SIZE]; /* plain loads: on current hosts faster than the gather instruction */
    PTX_UNROLL4
    for (unsigned k = 0; k < 4; k++)
        _mm256_storeu_si256((__m256i *)(at + 8 * k), a[k]);
    /* Each group of eight lanes whose addresses are all one (a broadcast: a row of a tile that
     * every lane of the row reads) or, for scalars, eight consecutive words (a row read across
     * the lanes) is one vector of the same bytes; other groups go lane by lane. */
    uint8_t same = 0, run = 0;
    const __m256i step = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    PTX_UNROLL4
    for (unsigned k = 0; k < 4; k++) {
        const __m256i first = _mm256_broadcastd_epi32(_mm256_castsi256_si128(a[k]));
        same |= (uint8_t)((_mm256_movemask_epi8(_mm256_cmpeq_epi32(a[k], first)) == -1) << k);
        if (n == 1)
            run |= (uint8_t)((_mm256_movemask_epi8(_mm256_cmpeq_epi32(a[k], _mm256_add_epi32(first, step))) == -1) << k);
    }
    const uint8_t *smem = w->cta->smem;
    const bool sg = r->bits & PTX_REC_SIGNED;
    for (unsigned e = 0; e < n; e++) { /* element by element, as the general path writes them */
        uint64_t *dst = w->regs + r->ld.d[e];
        const uint8_t *p = smem + 4 * e;
        PTX_UNROLL4
        for (unsigned k = 0; k < 4; k++) {
            const uint32_t *ak = at + 8 * k;
            uint64_t *dk = dst + 8 * k;
            if (same >> k & 1) {
                int32_t x;
                memcpy(&x, p + ak[0], 4);
                ptx_put32x8(dk, _mm256_set1_epi32(x), sg);
            } else if (run >> k & 1) {
                ptx_put32x8(dk, _mm256_loadu_si256((const __m256i *)(p + ak[0])), sg);
            } else if (sg) {
                for (unsigned i = 0; i < 8; i++) {
                    int32_t x;
                    memcpy(&x, p + ak[i], 4);
                    dk[i] = (uint64_t)(int64_t)x;
                }
            } else {
                for (unsigned i = 0; i < 8; i++) {
                    uint32_t x;
                    memcpy(&x, p + ak[i], 4);
                    dk[i] = x;
                }
            }
        }
    }
    return true;
}
/* setp (int_form) of a full warp: p = a CMP b (0 or 1), q = !p where q is given. Each
 * comparison is x > y, y > x or x == y, perhaps negated; unsigned ones compare with the sign
 * bits flipped. */
__attribute__((target("avx2"))) static void setp_lanes(const PtxRec *rec, uint64_t *p, uint64_t *q, const uint64_t *a,
                                                      const uint64_t *b)
{
    const uint8_t cmp = rec->aux;
    const bool sg = rec->bits & PTX_REC_SIGNED, eq = cmp == CMP_EQ || cmp == CMP_NE;
    const bool swap = cmp == CMP_LT || cmp == CMP_LO || cmp == CMP_GE || cmp == CMP_HS;
    const bool neg = cmp == CMP_NE || cmp == CMP_LE || cmp == CMP_LS || cmp == CMP_GE || cmp == CMP_HS;
    if (!(rec->bits & PTX_REC_WIDE)) {
        const __m256i bias = _mm256_set1_epi32(sg ? 0 : INT32_MIN), one = _mm256_set1_epi32(1);
        for (unsigned k = 0; k < WARP_SIZE; k += 8) {
            __m256i x = _mm256_xor_si256(ptx_low32x8(a + k), bias), y = _mm256_xor_si256(ptx_low32x8(b + k), bias);
            __m256i r = eq ? _mm256_cmpeq_epi32(x, y) : swap ? _mm256_cmpgt_epi32(y, x) : _mm256_cmpgt_epi32(x, y);
            __m256i t = _mm256_and_si256(neg ? _mm256_xor_si256(r, one) : r, one);
            ptx_put32x8(p + k, t, false);
            if (q)
                ptx_put32x8(q + k, _mm256_xor_si256(t, one), false);
        }
        return;
    }
    const __m256i bias = _mm256_set1_epi64x(sg ? 0 : INT64_MIN), one = _mm256_set1_epi64x(1);
    for (unsigned k = 0; k < WARP_SIZE; k += 4) {
        __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + k)), bias);
        __m256i y = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(b + k)), bias);
        __m256i r = eq ? _mm256_cmpeq_epi64(x, y) : swap ? _mm256_cmpgt_epi64(y, x) : _mm256_cmpgt_epi64(x, y);
        __m256i t = _mm256_and_si256(neg ? _mm256_xor_si256(r, one) : r, one);
        _mm256_storeu_si256((__m256i *)(p + k), t);
        if (q)
            _mm256_storeu_si256((__m256i *)(q + k), _mm256_xor_si256(t, one));
    }
}
/* d's lanes of active set to r's; the others keep theirs. */
__attribute__((target("avx2"))) static void blend_lanes(uint64_t *d, const uint64_t *r, uint32_t active)
{
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    for (unsigned k = 0; k < WARP_SIZE; k += 4) {
        const __m256i m = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(active >> k), bit), bit);
        const __m256i x = _mm256_loadu_si256((const __m256i *)(d + k)), y = _mm256_loadu_si256((const __m256i *)(r + k));
        _mm256_storeu_si256((__m256i *)(d + k), _mm256_blendv_epi8(x, y, m));
    }
}
#else
static void blend_lanes(uint64_t *d, const uint64_t *r, uint32_t active) {}
static bool ld_shared32(PtxLaunch *l, PtxWarp *w, const PtxRec *r, Winst *out) { return false; }
static void int_lanes(const PtxRec *r, uint64_t *d, const uint64_t *a, const uint64_t *b) {}
static void setp_lanes(const PtxRec *rec, uint64_t *p, uint64_t *q, const uint64_t *a, const uint64_t *b) {}
#endif

/* PtxFastRun of in (fast already set): the step's default case (the ALU), a branch or a load
 * with a form, guarded or not; none returns a WinstOp the functional driver acts on (a
 * barrier, a write to memory, an exit). */
static uint8_t run_form(const PtxInst *in)
{
    if (in->cls == WOP_EXIT || in->cls == WOP_BARRIER || in->cls == WOP_STORE || in->cls == WOP_ATOMIC)
        return PTX_RUN_NONE;
    switch (in->op) {
    case OP_BRA:
        return PTX_RUN_BRA;
    case OP_LD:
        return in->fast ? PTX_RUN_FORM : PTX_RUN_NONE;
    case OP_ST: case OP_ATOM: case OP_RED: case OP_PREFETCH: case OP_CALL: case OP_RET: case OP_EXIT:
    case OP_BAR: case OP_MEMBAR: case OP_NOP: case OP_TEX: case OP_SULD: case OP_SUST: case OP_WMMA:
    case OP_CPASYNC: /* the step's other cases */
        return PTX_RUN_NONE;
    default:
        return PTX_RUN_ALU;
    }
}

/* An operand as the compact record holds it (PtxRec): a register's slot offset, an immediate's
 * row of imm_lanes, PTX_REC_OP for any other (a symbol, a negated predicate, an immediate the
 * pool has no row for, no operand), read from the PtxInst as ptx_lane_values reads it. */
static uint32_t rec_operand(const PtxOperand *o)
{
    if (o->kind == OK_REG && o->reg != PTX_NO_REG && !o->n)
        return (uint32_t)o->reg * WARP_SIZE;
    if (o->lanes)
        return PTX_REC_IMM | (uint32_t)(o->lanes - 1);
    return PTX_REC_OP;
}

/* in's compact record (fast and run already set). */
static void rec_build(const PtxInst *in, PtxRec *r)
{
    memset(r, 0, sizeof *r);
    r->run = in->run;
    r->fast = in->fast;
    r->guard = in->guard;
    r->sym = PTX_NO_SYM;
    r->bits = (in->flags & PF_GUARD_NEG) ? PTX_REC_GUARD_NEG : 0;
    r->alu.d = r->alu.q = r->alu.a = r->alu.b = r->alu.c = PTX_REC_NONE;
    if (in->op == OP_BRA) {
        r->target = (uint32_t)in->o[0].imm;
        return;
    }
    switch (in->fast) {
    case PTX_FAST_NONE:
        return;
    case PTX_FAST_LD_SHARED32:
        r->aux = in->vec;
        r->bits |= ptx_type_signed(in->type) ? PTX_REC_SIGNED : 0;
        r->sym = in->o[1].sym;
        for (unsigned e = 0; e < 4; e++)
            r->ld.d[e] = e < in->vec ? (uint32_t)(in->vec == 1 ? in->o[0].reg : in->o[0].vreg[e]) * WARP_SIZE : PTX_REC_NONE;
        r->ld.base = (uint32_t)in->o[1].reg * WARP_SIZE;
        r->ld.disp = (uint32_t)in->o[1].imm;
        return;
    case PTX_FAST_FMA32:
        r->alu.d = (uint32_t)in->o[0].reg * WARP_SIZE;
        r->alu.a = rec_operand(&in->o[1]);
        r->alu.b = rec_operand(&in->o[2]);
        r->alu.c = rec_operand(&in->o[3]);
        return;
    case PTX_FAST_SETP: {
        const uint8_t cmp = in->mode;
        const bool ordered = cmp == CMP_LT || cmp == CMP_LE || cmp == CMP_GT || cmp == CMP_GE;
        const PtxOperand *q = &in->o[1];
        r->aux = cmp;
        r->bits |= (ordered && ptx_type_signed(in->type) ? PTX_REC_SIGNED : 0) |
                   (ptx_type_bytes(in->type) == 4 ? 0 : PTX_REC_WIDE);
        r->alu.d = (uint32_t)in->o[0].reg * WARP_SIZE;
        if (q->kind == OK_REG && q->reg != PTX_NO_REG)
            r->alu.q = (uint32_t)q->reg * WARP_SIZE;
        r->alu.a = rec_operand(&in->o[2]);
        r->alu.b = rec_operand(&in->o[3]);
        return;
    }
    default: /* the integer forms */
        r->alu.d = (uint32_t)in->o[0].reg * WARP_SIZE;
        r->alu.a = rec_operand(&in->o[1]);
        if (in->n_ops > 2)
            r->alu.b = rec_operand(&in->o[2]);
        if (in->fast == PTX_FAST_SHL32 || in->fast == PTX_FAST_SHR32)
            r->aux = (uint8_t)(in->o[2].imm & 31);
        r->bits |= (in->fast == PTX_FAST_SHR32 && ptx_type_signed(in->type)) ||
                   (in->fast == PTX_FAST_CVT32TO64 && ptx_type_signed(in->type2)) ? PTX_REC_SIGNED : 0;
        return;
    }
}

void ptx_fast_decode(PtxModule *m)
{
    const bool avx2 = ptx_host_avx2(), fma = ptx_host_fma();
    _Static_assert(sizeof(PtxRec) == 32, "a compact record is half a cache line");
    void *rec = NULL;
    if (posix_memalign(&rec, 64, (m->n_insts ? m->n_insts : 1) * sizeof(PtxRec)))
        fatal("out of memory");
    free(m->xrec);
    m->xrec = rec;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->xinsts[i];
        in->cls = m->statics[i].op;
        in->fast = !avx2                   ? PTX_FAST_NONE
                   : ld_shared32_form(in) ? PTX_FAST_LD_SHARED32
                   : fma32_form(in)       ? (fma ? PTX_FAST_FMA32 : PTX_FAST_NONE)
                                          : int_form(in);
        in->run = run_form(in);
        rec_build(in, &m->xrec[i]);
    }
}

/* A form's source operand (coded as rec_operand codes it) for every lane; the PtxInst (its
 * operand o) is read only for PTX_REC_OP. */
static inline const uint64_t *rec_lanes(const PtxLaunch *l, const PtxWarp *w, uint32_t code, const PtxOperand *o,
                                        uint64_t tmp[WARP_SIZE])
{
    if (!(code & PTX_REC_IMM))
        return w->regs + code;
    if (code != PTX_REC_OP)
        return l->m->imm_lanes[code & ~PTX_REC_IMM];
    return ptx_lane_values(l, w, o, tmp);
}

/* Run the instruction of record r (in: its PtxInst, read only for an operand coded PTX_REC_OP)
 * for all 32 lanes; false: nothing done, the general path runs it. */
static bool rec_exec(PtxLaunch *l, PtxWarp *w, const PtxRec *r, const PtxInst *in, Winst *out)
{
    switch (r->fast) {
    case PTX_FAST_LD_SHARED32:
        return ld_shared32(l, w, r, out);
    case PTX_FAST_FMA32: {
        uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
        return ptx_fma32_warp(w->regs + r->alu.d, rec_lanes(l, w, r->alu.a, &in->o[1], t1),
                              rec_lanes(l, w, r->alu.b, &in->o[2], t2), rec_lanes(l, w, r->alu.c, &in->o[3], t3));
    }
    case PTX_FAST_SETP: {
        uint64_t t2[WARP_SIZE], t3[WARP_SIZE];
        setp_lanes(r, w->regs + r->alu.d, r->alu.q != PTX_REC_NONE ? w->regs + r->alu.q : NULL,
                   rec_lanes(l, w, r->alu.a, &in->o[2], t2), rec_lanes(l, w, r->alu.b, &in->o[3], t3));
        return true;
    }
    case PTX_FAST_NONE:
        return false;
    default: { /* the integer forms */
        uint64_t t1[WARP_SIZE], t2[WARP_SIZE];
        const uint64_t *a = rec_lanes(l, w, r->alu.a, &in->o[1], t1);
        const uint64_t *b = r->alu.b != PTX_REC_NONE ? rec_lanes(l, w, r->alu.b, &in->o[2], t2) : NULL;
        int_lanes(r, w->regs + r->alu.d, a, b);
        return true;
    }
    }
}

bool ptx_fast_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, Winst *out)
{
    const PtxModule *m = l->m;
    return rec_exec(l, w, &m->xrec[in - m->xinsts], in, out);
}

/* An integer form (add .. setp) for the lanes of active only, a partial warp's: every lane is
 * computed into scratch registers and the active lanes' values are copied into the destinations
 * (setp's p, then q), the others keeping theirs; a lane's result depends on its own operands
 * alone, and these forms cannot fault. False: not such a form. */
static bool int_masked(PtxLaunch *l, PtxWarp *w, const PtxRec *rec, const PtxInst *in, uint32_t active)
{
    uint64_t t1[WARP_SIZE], t2[WARP_SIZE], r[WARP_SIZE], rq[WARP_SIZE];
    switch (rec->fast) {
    case PTX_FAST_NONE: case PTX_FAST_LD_SHARED32: case PTX_FAST_FMA32:
        return false;
    case PTX_FAST_SETP: {
        const bool has_q = rec->alu.q != PTX_REC_NONE;
        setp_lanes(rec, r, has_q ? rq : NULL, rec_lanes(l, w, rec->alu.a, &in->o[2], t1),
                   rec_lanes(l, w, rec->alu.b, &in->o[3], t2));
        blend_lanes(w->regs + rec->alu.d, r, active);
        if (has_q)
            blend_lanes(w->regs + rec->alu.q, rq, active);
        return true;
    }
    default: {
        const uint64_t *a = rec_lanes(l, w, rec->alu.a, &in->o[1], t1);
        const uint64_t *b = rec->alu.b != PTX_REC_NONE ? rec_lanes(l, w, rec->alu.b, &in->o[2], t2) : NULL;
        int_lanes(rec, r, a, b);
        blend_lanes(w->regs + rec->alu.d, r, active);
        return true;
    }
    }
}

/* ptx_warp_step's work for an instruction it would run and return from at once, less what a run
 * of them never needs: the checks of the warp's end, of a failed launch and of bar.red's
 * result (none changes inside the run: an ALU fault ends it), the dispatch on the opcode and
 * the stack's upkeep: the top's pc moves on (or to a uniform branch's target) and the run
 * stops short of the entry's reconvergence point and of the code's end, where the step pops. */
uint32_t ptx_fast_run(PtxLaunch *l, PtxWarp *w, uint32_t max)
{
    const PtxModule *m = l->m;
    if (l->fail_seen || w->red_lanes)
        return 0;
    if (l->inst_limit) /* the step runs the instruction past the limit, and reports it */
        max = l->stats.warp_insts >= l->inst_limit ? 0 : (uint32_t)MIN(max, l->inst_limit - l->stats.warp_insts);
    PtxSimtEntry *top = &w->stack[w->depth - 1];
    const PtxInst *insts = m->xinsts;
    const PtxRec *recs = m->xrec;
    const uint32_t rpc = top->rpc, end = m->n_insts, mask = top->mask;
    const uint64_t clock = l->clock;
    uint32_t pc = top->pc, n = 0;
    /* The counts are kept here and stored at the end: the ALU reads only the clock (%clock),
     * which it is given as the step leaves it, counted before the instruction runs. Only the
     * compact records are read here (and by the forms), the PtxInst only by the ALU's general
     * path and for an operand the record does not hold. */
    for (; n < max; n++) {
        const PtxRec *r = &recs[pc];
        const uint8_t run = r->run;
        if (!run)
            break;
        uint32_t active = mask, next = pc + 1;
        if (r->guard != PTX_NO_REG)
            active = ptx_guard_lanes(w->regs + (size_t)r->guard * WARP_SIZE, r->bits & PTX_REC_GUARD_NEG, mask);
        if (run == PTX_RUN_BRA) {
            if (active != mask && active != 0)
                break; /* divergent: the step pushes the two sides */
            if (active == mask)
                next = r->target;
        }
        if (next == rpc || next >= end)
            break; /* the step pops the entry */
        if (active == 0xFFFFFFFFu && r->fast && rec_exec(l, w, r, &insts[pc], NULL)) {
            /* its form, which reads no count */
        } else if (run == PTX_RUN_FORM) {
            break; /* a load of a partial warp, or one that would fault: the general path */
        } else if (run == PTX_RUN_ALU && active && active != 0xFFFFFFFFu && int_masked(l, w, r, &insts[pc], active)) {
            /* a partial warp's integer form */
        } else if (run == PTX_RUN_ALU && active) {
            l->clock = clock + n + 1;
            const char *why = ptx_alu_exec(l, w, &insts[pc], active, mask);
            if (why) { /* as the step: counted, the pc moved on, the launch failed */
                ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, why);
                pc = next, n++;
                break;
            }
        }
        pc = next;
    }
    top->pc = pc;
    l->clock = clock + n;
    l->stats.warp_insts += n;
    l->stats.thread_insts += (uint64_t)n * (mask == 0xFFFFFFFFu ? WARP_SIZE : popcount_u32(mask));
    return n;
}
