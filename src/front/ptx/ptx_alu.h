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
/* The value of operand o for every lane: a pointer and a stride (0 for uniform values). */
const uint64_t *ptx_operand_values(const PtxLaunch *l, const PtxWarp *w, const PtxOperand *o,
                                   uint64_t tmp[WARP_SIZE], unsigned *stride);
/* Operand o of every lane as an array of 32 (a uniform value copied to each lane, in tmp), so
 * that the lane loops index every operand alike; no operand reads as 0. */
const uint64_t *ptx_lane_values(const PtxLaunch *l, const PtxWarp *w, const PtxOperand *o, uint64_t tmp[WARP_SIZE]);
/* ptx_alu_int.c: the integer, .pred and .bN arithmetic and logic instructions. */
void ptx_alu_int(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active);

/* For the ALU's lane loops: operand i of in as p<i> (with a tmp array t<i>), lane l of it. */
#define SRC(i) const uint64_t *p##i = ptx_lane_values(l, w, &in->o[i], t##i)
#define A(i, lane) (p##i[lane])

/* stmt for each active lane: a plain loop over the warp when every lane is active (one the
 * compiler can vectorise), else over the mask's set bits. */
#define LANES(active, i, ...)                                \
    do {                                                     \
        if ((active) == 0xFFFFFFFFu) {                       \
            for (uint32_t i = 0; i < WARP_SIZE; i++) {       \
                __VA_ARGS__;                                 \
            }                                                \
        } else {                                             \
            FOR_LANES(active, i) { __VA_ARGS__; }            \
        }                                                    \
    } while (0)

#endif
