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

#endif
