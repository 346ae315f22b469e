/* synth_internal.h: the compiled form of a synthetic description, shared by the parser
 * (synth_parse.c), the expression compiler (synth_expr.c) and the player (synth.c).
 *
 * A kernel is a flat array of ops: instructions (each with its precomputed WinstStatic) and
 * the control markers loop / loop-end / if / if-end, which emit nothing. Markers hold the
 * index of their partner so the player jumps without searching. The last op is the implicit
 * exit. Expressions are compiled to an affine form when they are affine in the variables
 * (the usual case: one multiply-add per lane) and to a postfix bytecode otherwise. */
#ifndef WARPSIM_SYNTH_INTERNAL_H
#define WARPSIM_SYNTH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "front/synth/synth.h"

enum {
    SYNTH_MAX_LOOPS = 16,   /* loop nesting depth */
    SYNTH_MAX_IFS = 32,     /* if nesting depth */
    SYNTH_MAX_STACK = 16,   /* bytecode evaluation stack, in 32-lane vectors */
    SYNTH_MAX_TERMS = 8,    /* uniform terms of an affine expression */
    SYNTH_MAX_INSTS = 1 << 20,
};

/* Expression variables. The first SV_N_LANE vary across the lanes of a warp. */
typedef enum SynthVar {
    SV_TID,
    SV_LTID,
    SV_LANE,
    SV_TX,
    SV_TY,
    SV_TZ,
    SV_N_LANE,
    SV_CTAID = SV_N_LANE,
    SV_BX,
    SV_BY,
    SV_BZ,
    SV_WARP,
    SV_NTID,
    SV_NCTAID,
    SV_LOOP0, /* loop variable of nesting depth d is SV_LOOP0 + d */
    SV_COUNT = SV_LOOP0 + SYNTH_MAX_LOOPS
} SynthVar;

/* Bytecode operations; binary ones pop b then a and push a OP b. */
typedef enum SynthCode {
    SC_CONST,
    SC_VAR,
    SC_NEG,
    SC_NOT,
    SC_ADD,
    SC_SUB,
    SC_MUL,
    SC_DIV,
    SC_MOD,
    SC_SHL,
    SC_SHR,
    SC_AND,
    SC_OR,
    SC_XOR,
    SC_LT,
    SC_LE,
    SC_GT,
    SC_GE,
    SC_EQ,
    SC_NE,
} SynthCode;

typedef struct SynthInsn {
    uint8_t code; /* SynthCode */
    uint8_t var;  /* SC_VAR */
    int64_t k;    /* SC_CONST */
} SynthInsn;

/* value(lane) = c + sum(term_coef[i] * uniform[term_var[i]]) + lane_coef * lane
 *              + txyz_coef[0..2] * (tx, ty, tz)(lane),
 * where uniform[] holds each variable's lane-0 value (tid and ltid: their lane-0 values;
 * the per-lane part of tid, ltid and lane is folded into lane_coef). */
typedef struct SynthExpr {
    bool affine;
    bool has_txyz;   /* affine and uses tx, ty or tz */
    bool uses_lane;  /* depends on a lane-varying variable */
    uint8_t n_terms;
    uint8_t term_var[SYNTH_MAX_TERMS];
    int64_t term_coef[SYNTH_MAX_TERMS];
    int64_t c;
    int64_t lane_coef;
    int64_t txyz_coef[3];
    uint32_t code_first, code_len; /* bytecode, when not affine */
} SynthExpr;

typedef enum SynthOpKind { SOP_INST, SOP_LOOP, SOP_LOOP_END, SOP_IF, SOP_IF_END } SynthOpKind;

typedef struct SynthOp {
    uint8_t kind;      /* SynthOpKind */
    uint8_t space;     /* SOP_INST: WSPACE_GLOBAL / WSPACE_SHARED for memory, else NONE */
    uint8_t depth;     /* SOP_LOOP, SOP_LOOP_END: loop nesting depth (variable slot) */
    uint8_t pad;
    uint32_t inst;     /* SOP_INST: index into insts (pc / 8) */
    uint32_t expr;     /* address (memory inst), trip count (loop) or condition (if) */
    uint32_t partner;  /* loop <-> loop-end, if -> if-end */
    uint64_t base;     /* global memory: the array's base address */
    uint32_t elem_bytes;
} SynthOp;

typedef struct SynthKernelDef {
    FrontKernel fk;
    SynthOp *ops;
    uint32_t n_ops, cap_ops;
    WinstStatic *insts;
    uint32_t n_insts, cap_insts;
    SynthExpr *exprs;
    uint32_t n_exprs, cap_exprs;
    SynthInsn *code;
    uint32_t n_code, cap_code;
} SynthKernelDef;

struct SynthProgram {
    SynthKernelDef *kernels;
    uint32_t n_kernels, cap_kernels;
};

/* Lane view of one warp, for expression evaluation. */
typedef struct SynthEnv {
    const int64_t *uniform;  /* [SV_COUNT]: lane-0 values */
    const int32_t *txyz[3];  /* [32] each: tx, ty, tz of the warp's lanes */
} SynthEnv;

/* Parse one expression at *pos and compile it into k; stops at the first character that
 * cannot continue it. loop_names[d] names the loop variable of depth d (n_loops deep).
 * Returns the expression index, or -1 with a message ("expected ...") in err. */
int32_t synth_expr_compile(SynthKernelDef *k, const char **pos, const char *const *loop_names,
                           unsigned n_loops, char *err, size_t err_cap);
/* Value of e for the 32 lanes. */
void synth_expr_eval(const SynthKernelDef *k, const SynthExpr *e, const SynthEnv *env,
                     int64_t out[WARP_SIZE]);
/* Value of an expression that does not depend on the lane. */
int64_t synth_expr_eval_uniform(const SynthKernelDef *k, const SynthExpr *e, const SynthEnv *env);

#endif
