/* ptx_alu.h: the PTX interpreter's ALU (internal to src/front/ptx): operand values and the
 * non-memory, non-control instructions. It sees only the warp and launch state (ptx_state.h),
 * never the interpreter that drives it (ptx_exec.c), so a fault is returned, not recorded. */
#ifndef WARPSIM_PTX_ALU_H
#define WARPSIM_PTX_ALU_H

#include "front/ptx/ptx_state.h"

/* Execute a non-memory, non-control instruction for the lanes in active. simt_mask is the
 * warp's current (unpredicated) mask, for activemask and vote. NULL, or what makes the
 * instruction fail at run time (the caller reports it as a fault at the instruction). */
const char *ptx_alu_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active,
                         uint32_t simt_mask);
/* ptx_half.c: add, sub, mul, fma, neg, abs, min, max of .f16 and .f16x2; NULL, or why the
 * instruction cannot run. */
const char *ptx_half_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active);
/* x86 hosts: the vector forms of ptx_alu.c and ptx_fast.c, each in a function for AVX2 that
 * runs only where the host has it (ptx_host_fma, ptx_fast_decode). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PTX_X86 1
#include <immintrin.h>
/* The low words of lanes p[0..7] (64-bit registers) in one vector, in order. */
__attribute__((target("avx2"))) static inline __m256i ptx_low32x8(const uint64_t *p)
{
    __m256 lo = _mm256_loadu_ps((const float *)p), hi = _mm256_loadu_ps((const float *)(p + 4));
    __m256 x = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)); /* lanes 0 1 4 5 | 2 3 6 7 */
    return _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castps_pd(x), _MM_SHUFFLE(3, 1, 2, 0)));
}
/* The ALU's lane loops also in an AVX2 version (four lanes to a vector, and the 64-bit
 * comparisons SSE2 lacks), which the dynamic loader picks once where the host has it. */
#if defined(__SANITIZE_THREAD__)
#define PTX_WIDE /* ThreadSanitizer's build: a clone's resolver would run before its runtime starts */
#else
#define PTX_WIDE __attribute__((target_clones("avx2", "default")))
#endif
/* Eight 32-bit values to lanes p[0..7], zero- or sign-extended (sg). */
__attribute__((target("avx2"))) static inline void ptx_put32x8(uint64_t *p, __m256i v, bool sg)
{
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    _mm256_storeu_si256((__m256i *)p, sg ? _mm256_cvtepi32_epi64(lo) : _mm256_cvtepu32_epi64(lo));
    _mm256_storeu_si256((__m256i *)(p + 4), sg ? _mm256_cvtepi32_epi64(hi) : _mm256_cvtepu32_epi64(hi));
}
#else
#define PTX_WIDE
#endif
/* fma.rn.f32 without .ftz of a full warp, d = p1 * p2 + p3, with the host's vector FMA; false
 * (nothing done) where the host has none: ptx_host_fma says which, once for all. */
bool ptx_fma32_warp(uint64_t *d, const uint64_t *p1, const uint64_t *p2, const uint64_t *p3);
bool ptx_host_fma(void);
/* The host runs AVX2 (the vector paths built for it are chosen by this). */
bool ptx_host_avx2(void);
/* An absent operand's lanes: 32 zeros. */
extern const uint64_t ptx_zero_lanes[WARP_SIZE];
/* The value of operand o for every lane: a pointer and a stride (0 for uniform values). Inline,
 * as the two below are: every instruction reads its operands through them. */
static inline const uint64_t *ptx_operand_values(const PtxLaunch *l, const PtxWarp *w, const PtxOperand *o,
                                                 uint64_t tmp[WARP_SIZE], unsigned *stride)
{
    switch (o->kind) {
    case OK_REG:
        if (o->reg == PTX_NO_REG)
            break;
        if (o->n) { /* negated predicate */
            const uint64_t *r = w->regs + (size_t)o->reg * WARP_SIZE;
            for (unsigned i = 0; i < WARP_SIZE; i++)
                tmp[i] = !(r[i] & 1);
            *stride = 1;
            return tmp;
        }
        *stride = 1;
        return w->regs + (size_t)o->reg * WARP_SIZE;
    case OK_IMM:
        *stride = 0;
        return &o->imm;
    case OK_SYM:
        tmp[0] = l->sym_addr[o->sym] + o->imm;
        *stride = 0;
        return tmp;
    default:
        break;
    }
    tmp[0] = 0;
    *stride = 0;
    return tmp;
}

/* Operand o of every lane as an array of 32 (a uniform value copied to each lane, in tmp), so
 * that the lane loops index every operand alike; no operand reads as 0. */
static inline const uint64_t *ptx_lane_values(const PtxLaunch *l, const PtxWarp *w, const PtxOperand *o,
                                              uint64_t tmp[WARP_SIZE])
{
    if (o->kind == OK_REG && o->reg != PTX_NO_REG && !o->n) /* the common case first */
        return w->regs + (size_t)o->reg * WARP_SIZE;
    if (o->lanes) /* an immediate, its lanes made with the module */
        return l->m->imm_lanes[o->lanes - 1];
    if (o->kind != OK_IMM && o->kind != OK_SYM && (o->kind != OK_REG || o->reg == PTX_NO_REG))
        return ptx_zero_lanes; /* no operand: read as 0, as ptx_operand_values gives it */
    unsigned stride;
    const uint64_t *v = ptx_operand_values(l, w, o, tmp, &stride);
    if (stride)
        return v;
    uint64_t u = v[0];
    for (unsigned i = 0; i < WARP_SIZE; i++)
        tmp[i] = u;
    return tmp;
}

/* bar.red: a warp's arrival adds its active lanes' predicates to its CTA's reduction; the
 * result is written at the warp's next step (ptx_exec.c calls the second when red_lanes is
 * set), once the barrier has released it. */
void ptx_bar_red_arrive(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active);
void ptx_bar_red_result(PtxWarp *w);
/* ptx_alu_int.c: the integer, .pred and .bN arithmetic and logic instructions. */
void ptx_alu_int(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active);

/* For the ALU's lane loops: operand i of in as p<i> (with a tmp array t<i>), lane l of it. */
#define SRC(i) const uint64_t *p##i = ptx_lane_values(l, w, &in->o[i], t##i)
#define A(i, lane) (p##i[lane])

/* The full-warp loops below let the compiler vectorise without checking at run time whether
 * the destination overlaps an operand: lane i's statement reads lane i of its operands and
 * writes lane i of its destination, which may be one of them (an operand and a destination
 * coincide or do not overlap: each is a register's 32 lanes), so no lane depends on another. */
#if defined(__GNUC__) && !defined(__clang__) /* clang checks for overlap (its hint warns where a loop
                                                 does not vectorise) */
#define PTX_LANES_INDEPENDENT _Pragma("GCC ivdep")
#else
#define PTX_LANES_INDEPENDENT
#endif

/* stmt for each active lane: a plain loop over the warp when every lane is active (one the
 * compiler can vectorise), else over the mask's set bits. LANES' statement touches only lane
 * i's values (or ORs into one accumulator); LANES_IN_ORDER's may touch what another lane
 * touches (stores to memory), so its lanes run in ascending order. */
#define LANES_WITH(hint, active, i, ...)                     \
    do {                                                     \
        if ((active) == 0xFFFFFFFFu) {                       \
            hint for (uint32_t i = 0; i < WARP_SIZE; i++) {  \
                __VA_ARGS__;                                 \
            }                                                \
        } else {                                             \
            FOR_LANES(active, i) { __VA_ARGS__; }            \
        }                                                    \
    } while (0)
#define LANES(active, i, ...) LANES_WITH(PTX_LANES_INDEPENDENT, active, i, __VA_ARGS__)
#define LANES_IN_ORDER(active, i, ...) LANES_WITH(, active, i, __VA_ARGS__)

/* The lanes of mask whose predicate g is set (bit 0, inverted when neg is 1). A full warp's
 * bits come two lanes at a time from SSE2's sign-bit mask (every x86-64 host has it), where
 * the plain loop is 32 dependent shifts and ORs: an instruction guard is on every branch. */
static inline uint32_t ptx_guard_lanes(const uint64_t *g, uint64_t neg, uint32_t mask)
{
    uint32_t a = 0;
#ifdef PTX_X86
    if (mask == 0xFFFFFFFFu) {
        for (unsigned i = 0; i < WARP_SIZE; i += 2) {
            __m128i v = _mm_slli_epi64(_mm_loadu_si128((const __m128i *)(g + i)), 63);
            a |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(v)) << i;
        }
        return neg ? ~a : a;
    }
#endif
    FOR_LANES(mask, i) a |= (uint32_t)((g[i] ^ neg) & 1) << i;
    return a;
}

#endif
