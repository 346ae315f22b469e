/* winst.h: the warp-instruction contract between front ends and the timing model.
 *
 * A front end (the synthetic stream generator, the PTX interpreter, the trace reader) knows
 * nothing of timing; the timing model knows nothing of PTX syntax. They meet here: the timing
 * model asks for the static view of a warp's next instruction (enough for the scoreboard and
 * the scheduler: pc, op class, registers), and, when it issues that instruction, asks the front
 * end to execute it, which fills in the dynamic view (active mask, per-lane addresses).
 * See DESIGN.md, "Data flow". */
#ifndef WARPSIM_WINST_H
#define WARPSIM_WINST_H

#include <stdbool.h>
#include <stdint.h>

#define WARP_SIZE 32
#define WINST_MAX_DST 8 /* ld.v4 writes four registers, wmma.load and wmma.mma eight */
#define WINST_MAX_SRC 25 /* wmma.mma reads three fragments of up to eight registers, and a guard */
#define WINST_PC_STEP 8 /* pc distance of consecutive instructions, in every front end */

/* Operation classes: each maps to an execution unit and a latency/initiation option. */
typedef enum WinstOp {
    WOP_INT_ADD, /* integer add/sub/logic/shift/compare/select/move/convert */
    WOP_INT_MUL,
    WOP_INT_MAD,
    WOP_INT_DIV, /* div, rem */
    WOP_FP_ADD,  /* f32 add/sub/min/max/compare/convert */
    WOP_FP_MUL,
    WOP_FP_MAD,  /* f32 fma/mad */
    WOP_FP_DIV,
    WOP_DP_ADD,  /* f64 */
    WOP_DP_MUL,
    WOP_DP_MAD,
    WOP_DP_DIV,
    WOP_SFU,     /* sqrt, rcp, ex2, lg2, sin, cos */
    WOP_LOAD,
    WOP_STORE,
    WOP_ATOMIC,  /* atom and red: read-modify-write performed at L2 (global) or in shared memory */
    WOP_BARRIER, /* bar.sync: the warp waits until every warp of its CTA arrives */
    WOP_BRANCH,  /* bra, call, ret: no result register, integer pipeline */
    WOP_EXIT,    /* the warp (all its threads) has finished */
    WOP_NOP,     /* membar and other no-ops: integer pipeline */
    WOP_TENSOR,  /* wmma.mma: the tensor-core unit of the warp's scheduler (sm.n_tensor_units) */
    WOP_COUNT
} WinstOp;

typedef enum WinstSpace {
    WSPACE_NONE,
    WSPACE_GLOBAL,
    WSPACE_LOCAL,
    WSPACE_SHARED,
    WSPACE_CONST,
    WSPACE_PARAM,
    WSPACE_TEX,
    WSPACE_COUNT
} WinstSpace;

/* WinstStatic.flags */
enum {
    WINST_F_L2_ONLY = 1 << 0, /* a load the L1D may not serve: it reads the L2, allocating no line */
    /* cp.async (sm_80): a global load into shared memory that writes no register; the warp
     * counts it in its open group until its data is back (sm_scoreboard.c) */
    WINST_F_ASYNC = 1 << 1,
    WINST_F_ASYNC_COMMIT = 1 << 2, /* cp.async.commit_group (and wait_all): the open group is committed */
    /* cp.async.wait_group (and wait_all): issues once at most async_keep of the warp's most
     * recently committed groups have copies in flight */
    WINST_F_ASYNC_WAIT = 1 << 3,
    /* the front end's exec of it reads or writes what other SMs' warps may (global memory, a
     * device call): with gpu.threads > 1 it runs in the order of one thread (gpu_par.h) */
    WINST_F_ORDERED = 1 << 4,
};

/* Static view of an instruction, known before it executes. Register ids are per-kernel and
 * dense (front ends number them from 0); predicates are registers too. */
typedef struct WinstStatic {
    uint32_t pc; /* consecutive instructions are WINST_PC_STEP apart */
    uint8_t op;           /* WinstOp */
    uint8_t space;        /* WinstSpace; WSPACE_NONE for non-memory instructions */
    uint8_t access_bytes; /* bytes each active lane reads or writes (all vector elements) */
    uint8_t n_dst;
    uint8_t n_src;
    uint8_t flags;        /* WINST_F_* */
    uint8_t async_keep;   /* WINST_F_ASYNC_WAIT: the groups that may stay in flight */
    uint16_t dst[WINST_MAX_DST];
    uint16_t src[WINST_MAX_SRC];
} WinstStatic;

/* Dynamic view, filled by the front end's exec. addr[lane] is valid for lanes set in
 * active_mask when the instruction is a memory access. */
typedef struct Winst {
    WinstStatic s;
    uint32_t active_mask;
    uint64_t addr[WARP_SIZE];
} Winst;

static inline bool winst_is_mem(const WinstStatic *s)
{
    return s->op == WOP_LOAD || s->op == WOP_STORE || s->op == WOP_ATOMIC;
}

const char *winst_op_name(WinstOp op);
const char *winst_space_name(WinstSpace sp);

#endif
