/* ptx_fast.h: pre-decoded full-warp forms of the interpreter's hottest instructions (internal
 * to src/front/ptx). When the module is loaded, each instruction of xinsts that has such a form
 * on this host is marked with it (PtxInst.fast); a step whose every lane is active runs it
 * through the form's own handler, with no dispatch on the opcode, type and modifiers. A handler
 * checks what it needs before it changes anything and returns false when a check fails; the
 * general path then runs the instruction and reports any fault, so the two give the same
 * registers, memory, addresses and faults. */
#ifndef WARPSIM_PTX_FAST_H
#define WARPSIM_PTX_FAST_H

#include "front/ptx/ptx_state.h"

#include "front/winst.h"

typedef enum PtxFastKind {
    PTX_FAST_NONE,
    PTX_FAST_LD_SHARED32, /* ld.shared of 32-bit elements (.v2, .v4 too) at [reg+imm] into registers */
    PTX_FAST_FMA32,       /* fma.rn.f32 and mad.f32 without .ftz or .sat */
    /* integer forms (ptx_alu_int.c, exec_cvt): a result of each lane's own operands */
    PTX_FAST_ADD32,       /* add of 32-bit integers, without .cc or .sat */
    PTX_FAST_ADD64,       /* add of 64-bit integers, without .cc or .sat */
    PTX_FAST_AND32,       /* and.b32 */
    PTX_FAST_OR32,        /* or.b32 */
    PTX_FAST_XOR32,       /* xor.b32 */
    PTX_FAST_SHL32,       /* shl.b32 by an immediate below 32 */
    PTX_FAST_SHR32,       /* shr of a 32-bit type by an immediate below 32 (arithmetic when signed) */
    PTX_FAST_CVT32TO64,   /* cvt of a 32-bit integer to a 64-bit one, without .sat */
    PTX_FAST_SETP,        /* setp of 32- or 64-bit integers, without a boolean operation */
    PTX_FAST_COUNT
} PtxFastKind;

/* How the functional driver's run of a warp (ptx_fast_run) may run an instruction: one the step
 * would finish and return from at once, leaving the SIMT stack as it was but for its top's pc,
 * with no barrier, write to memory or exit (the WinstOps the driver acts on). */
typedef enum PtxFastRun {
    PTX_RUN_NONE, /* through ptx_warp_step */
    PTX_RUN_FORM, /* a load by its full-warp form (PtxInst.fast), when every lane is active */
    PTX_RUN_ALU,  /* the ALU: its form when every lane is active, else ptx_alu_exec */
    PTX_RUN_BRA,  /* a branch that every active lane takes, or none */
} PtxFastRun;

/* Mark the instructions of m->xinsts that have a full-warp form on this host, copy each one's
 * WinstOp from m->statics into it (PtxInst.cls), and build m->xrec, the compact records the run
 * and the forms read (PtxRec, ptx_ir.h). */
void ptx_fast_decode(PtxModule *m);
/* Run in, pre-decoded as in->fast, for all 32 lanes of w (filling out's addresses when non-NULL);
 * false: it did nothing, and the general path must run it. */
bool ptx_fast_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, Winst *out);

/* For the functional driver: run w's instructions from its stack's top entry as ptx_warp_step
 * would, one at a time, while each is marked (PtxInst.run) and leaves the entry as it was, up
 * to max of them; how many ran. Each counts in l's stats and clock as a step does. 0: the step
 * runs the next. */
uint32_t ptx_fast_run(PtxLaunch *l, PtxWarp *w, uint32_t max);

#endif
