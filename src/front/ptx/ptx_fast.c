/* ptx_fast.c: pre-decoded full-warp forms of the interpreter's hottest instructions: shared
 * loads of 32-bit elements and f32 fma, the inner loop of a tiled matrix product.
 *
 * ptx_fast_decode marks, once per module, each instruction of xinsts that has a form here and
 * that this host can run (AVX2: the forms work on eight lanes' low words at once); the warp
 * step runs a marked instruction through ptx_fast_exec when every lane is active, with no
 * dispatch on opcode, type or modifiers. A form decides before it changes anything: when a
 * lane's access would fault, it returns false and the general path (ptx_exec.c) runs the
 * instruction and reports the fault as it always does. Values, addresses and faults are
 * therefore those of the general path (tests/unit/test_ptx_fast.c holds the two together). */
#include "front/ptx/ptx_fast.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_value.h"

#include <stdint.h>
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

#ifdef PTX_X86
static bool host_avx2(void) { return __builtin_cpu_supports("avx2"); }

/* The 32 lanes' addresses, (base + displacement) mod 2^32 as the general path computes them,
 * are each aligned and leave room for the access inside the block's shared memory (checked
 * eight lanes at a time, before anything is read); then each element is read lane by lane
 * and widened into its register. */
__attribute__((target("avx2"))) static bool ld_shared32(PtxLaunch *l, PtxWarp *w, const PtxInst *in, Winst *out)
{
    const PtxOperand *ao = &in->o[1];
    const unsigned n = in->vec, bytes = 4 * n;
    const uint32_t disp = (uint32_t)(ao->imm + (ao->sym != PTX_NO_SYM ? l->sym_addr[ao->sym] : 0));
    if (l->smem_bytes < bytes)
        return false;
    const uint64_t *base = w->regs + (size_t)ao->reg * WARP_SIZE;
    const __m256i last = _mm256_set1_epi32((int)(l->smem_bytes - bytes)), dv = _mm256_set1_epi32((int)disp);
    __m256i a[4], odd = _mm256_setzero_si256(), inside = _mm256_set1_epi32(-1);
    for (unsigned k = 0; k < 4; k++) {
        a[k] = _mm256_add_epi32(ptx_low32x8(base + 8 * k), dv);
        odd = _mm256_or_si256(odd, a[k]);
        inside = _mm256_and_si256(inside, _mm256_cmpeq_epi32(_mm256_max_epu32(a[k], last), last));
    }
    if (!_mm256_testz_si256(odd, _mm256_set1_epi32((int)(bytes - 1))) ||
        !_mm256_testc_si256(inside, _mm256_set1_epi32(-1)))
        return false;
    if (out)
        for (unsigned k = 0; k < 4; k++)
            ptx_put32x8(out->addr + 8 * k, a[k], false);
    uint32_t at[WARP_SIZE]; /* plain loads: on current hosts faster than the gather instruction */
    for (unsigned k = 0; k < 4; k++)
        _mm256_storeu_si256((__m256i *)(at + 8 * k), a[k]);
    const uint8_t *smem = w->cta->smem;
    for (unsigned e = 0; e < n; e++) { /* element by element, as the general path writes them */
        uint64_t *dst = w->regs + (size_t)(n == 1 ? in->o[0].reg : in->o[0].vreg[e]) * WARP_SIZE;
        const uint8_t *p = smem + 4 * e;
        if (ptx_type_signed(in->type))
            for (unsigned i = 0; i < WARP_SIZE; i++) {
                int32_t x;
                memcpy(&x, p + at[i], 4);
                dst[i] = (uint64_t)(int64_t)x;
            }
        else
            for (unsigned i = 0; i < WARP_SIZE; i++) {
                uint32_t x;
                memcpy(&x, p + at[i], 4);
                dst[i] = x;
            }
    }
    return true;
}
#else
static bool host_avx2(void) { return false; }
static bool ld_shared32(PtxLaunch *l, PtxWarp *w, const PtxInst *in, Winst *out) { return false; }
#endif

void ptx_fast_decode(PtxModule *m)
{
    const bool avx2 = host_avx2(), fma = ptx_host_fma();
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->xinsts[i];
        in->cls = m->statics[i].op;
        in->fast = avx2 && ld_shared32_form(in) ? PTX_FAST_LD_SHARED32
                   : fma && fma32_form(in)     ? PTX_FAST_FMA32
                                               : PTX_FAST_NONE;
    }
}

bool ptx_fast_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, Winst *out)
{
    switch (in->fast) {
    case PTX_FAST_LD_SHARED32:
        return ld_shared32(l, w, in, out);
    case PTX_FAST_FMA32: {
        uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
        return ptx_fma32_warp(w->regs + (size_t)in->o[0].reg * WARP_SIZE, ptx_lane_values(l, w, &in->o[1], t1),
                              ptx_lane_values(l, w, &in->o[2], t2), ptx_lane_values(l, w, &in->o[3], t3));
    }
    default:
        return false;
    }
}
