/* ptx_ir.h: the decoded form of a PTX module, shared by the parser, the CFG analysis and the
 * interpreter (internal to src/front/ptx).
 *
 * The parser decodes every instruction once into a PtxInst: an opcode enum, types, modifier
 * fields and up to six operand descriptors whose registers are dense uint16 ids. Register ids
 * are module-wide (each function gets its own range, so a call needs no renaming; recursion is
 * rejected), followed by pseudo-registers for the special registers (%tid.x, ...) and the carry
 * flag, which the interpreter fills when a warp starts. Symbols (variables and parameters) are
 * resolved to addresses per launch through a table indexed by symbol id, so a shared variable's
 * offset can depend on which kernel runs. Nothing after parsing looks at a string. */
#ifndef WARPSIM_PTX_IR_H
#define WARPSIM_PTX_IR_H

#include "front/ptx/ptx.h"
#include "front/winst.h"

#define PTX_NO_REG 0xFFFFu
#define PTX_NO_SYM 0xFFFFu
#define PTX_NO_PC 0xFFFFFFFFu
#define PTX_PC_BYTES WINST_PC_STEP /* pc reported to the timing model = instruction index * this */

typedef enum PtxType {
    PT_NONE, PT_B8, PT_B16, PT_B32, PT_B64, PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64, PT_F16, PT_F16X2, PT_BF16, PT_F32, PT_F64, PT_PRED,
    PT_COUNT
} PtxType;

typedef enum PtxOpcode {
    OP_ABS, OP_ADD, OP_ADDC, OP_SUB, OP_SUBC, OP_MUL, OP_MAD, OP_MADC, OP_MUL24, OP_MAD24,
    OP_DIV, OP_REM, OP_NEG, OP_MIN, OP_MAX, OP_SAD,
    OP_CLZ, OP_POPC, OP_BREV, OP_BFIND, OP_BFE, OP_BFI, OP_PRMT, OP_SHF, OP_BMSK,
    OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT, OP_SHL, OP_SHR,
    OP_SETP, OP_SET, OP_SELP, OP_SLCT, OP_MOV, OP_CVT, OP_CVTA,
    OP_FMA, OP_RCP, OP_SQRT, OP_RSQRT, OP_EX2, OP_LG2, OP_SIN, OP_COS, OP_TANH,
    OP_COPYSIGN, OP_TESTP,
    OP_LD, OP_ST, OP_ATOM, OP_RED, OP_PREFETCH,
    OP_BRA, OP_CALL, OP_RET, OP_EXIT, OP_BAR, OP_MEMBAR, OP_NOP,
    OP_SHFL, OP_MATCH, OP_VOTE, OP_ACTIVEMASK, OP_CLOCK,
    OP_TEX, /* tex on a texture object: d (4 regs), the handle register, {coordinates} */
    OP_SULD, /* suld.b on a surface object: d {regs}, the handle register, {coordinates} */
    OP_SUST, /* sust.b on a surface object: the handle register, {coordinates}, {values} */
    OP_WMMA, /* wmma.load / wmma.store / wmma.mma (ptx_wmma.h): mode says which */
    OP_CPASYNC, /* cp.async and its commit_group / wait_group / wait_all (ptx_async.h): mode says which */
    OP_VSIMD, /* vadd4, vsub4, vabsdiff4, vmin4, vmax4 and the 2-way forms: mode the operation (VOP_*),
                 shape the lanes (2 or 4); type, type2, type3: d's, a's and b's (.u32 or .s32) */
    OP_COUNT
} PtxOpcode;

/* Rounding modifiers. */
enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI, RND_RNA };
/* mode for cvt: CVT_TF32 is cvt.rna.tf32.f32 (type B32: an f32 rounded to tf32's 10 mantissa bits) */
enum { CVT_PLAIN, CVT_TF32 };

/* Comparison operators (setp, set, slct); the u-suffixed ones are true when either is NaN. */
enum {
    CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
};
enum { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR };
/* mode for mul/mad */
enum { MUL_NONE, MUL_LO, MUL_HI, MUL_WIDE };
/* mode for atom/red */
enum { AOP_ADD, AOP_MIN, AOP_MAX, AOP_EXCH, AOP_CAS, AOP_AND, AOP_OR, AOP_XOR, AOP_INC, AOP_DEC };
/* mode for shfl, vote, shf, testp */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
enum { MATCH_NONE, MATCH_ANY, MATCH_ALL }; /* match.any / match.all (MATCH_NONE: not given) */
enum { SHF_L, SHF_R };
enum { TESTP_FINITE, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL, TESTP_SUBNORMAL };
enum { EXIT_PLAIN, EXIT_TRAP }; /* mode for exit: trap ends the thread and fails the launch */
enum { VOP_ADD, VOP_SUB, VOP_ABSDIFF, VOP_MIN, VOP_MAX }; /* mode for the SIMD video instructions */
/* mode for bar: a plain barrier, or bar.red (__syncthreads_count, _and, _or), which also
 * reduces a predicate over the CTA's threads */
enum { BAR_SYNC, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };
/* mode for tex, suld and sust: the geometry (TEXG_NONE: not given) */
enum { TEXG_NONE, TEXG_1D, TEXG_2D, TEXG_3D, TEXG_A1D, TEXG_A2D, TEXG_CUBE, TEXG_ACUBE };
/* boolop for suld and sust: what an access outside the surface does */
enum { SU_TRAP, SU_CLAMP, SU_ZERO };

/* State spaces as decoded. PARAM_K is the kernel's parameter buffer (shared by all threads);
 * PARAM_F is the per-thread frame holding .func parameters and call-site .param variables. */
typedef enum PtxSpace {
    SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM_K, SP_PARAM_F, SP_REG
} PtxSpace;

/* Generic-address windows: shared and local memory (and the kernel parameters, for cvta.param)
 * live in windows no global allocation can reach, so a generic ld/st resolves by range. */
#define PTX_WIN_SHARED 0x0000A00000000000ull
#define PTX_WIN_LOCAL 0x0000B00000000000ull
#define PTX_WIN_PARAM 0x0000C00000000000ull
#define PTX_WIN_SIZE 0x0000000100000000ull
/* A function's address as a value (mov.u64 %rd, kernel: what a device-side launch names its
 * kernel by): PTX_WIN_CODE plus the function's index, in a window no data access can reach. */
#define PTX_WIN_CODE 0x0000D00000000000ull

enum {
    PF_FTZ = 1 << 0, PF_SAT = 1 << 1, PF_APPROX = 1 << 2, PF_CC = 1 << 3, PF_UNI = 1 << 4,
    PF_TO = 1 << 5, PF_GUARD_NEG = 1 << 6, PF_SHIFTAMT = 1 << 7, PF_WRAP = 1 << 8,
    PF_IMM_BYTES = 1 << 9, /* operand widths follow the instruction type exactly */
    PF_L2_ONLY = 1 << 10,  /* ld: the L1D may not serve it (ptx_decode.c: l2_only) */
    PF_VADD = 1 << 11,     /* a SIMD video instruction's .add: the lanes' results summed into c */
};

#define PTX_MAX_VEC 8 /* registers in a {...} operand: ld.v4, and wmma fragments of up to 8 */

typedef enum PtxOperandKind {
    OK_NONE, OK_REG, OK_IMM, OK_VEC, OK_ADDR, OK_SYM, OK_LABEL, OK_FUNC
} PtxOperandKind;

/* One operand. REG: reg. IMM: imm holds the bits (floats as their IEEE bits). VEC: n regs in
 * vreg (PTX_NO_REG for the sink `_`). ADDR: [reg + sym + imm] with reg/sym optional. SYM: the
 * address of a variable plus imm, as a value. LABEL: imm = target instruction index. FUNC:
 * imm = function index; for call, reg = first entry in PtxModule.call_syms of the
 * return-value params (n of them) and vreg[0]/vreg[1] = first/count of the arguments. */
typedef struct PtxOperand {
    uint8_t kind;
    uint8_t n;
    uint16_t reg;
    uint16_t sym;
    uint16_t vreg[PTX_MAX_VEC];
    uint16_t lanes; /* in xinsts, an IMM: 1 + its row of PtxModule.imm_lanes; 0: none */
    uint64_t imm;
} PtxOperand;

#define PTX_MAX_OPS 6

typedef struct PtxInst {
    uint8_t op;    /* PtxOpcode */
    uint8_t type;  /* instruction type; for cvt the destination type */
    uint8_t type2; /* cvt source type; setp/set: the compared type */
    uint8_t rnd;
    uint8_t mode;  /* cmp / mul mode / atomic op / shfl / vote / shf / testp / wmma sub-operation */
    union {
        uint8_t boolop;
        uint8_t type3; /* wmma.mma: the c (accumulator input) type; SIMD video: b's type */
    };
    uint8_t space; /* PtxSpace for ld/st/atom/red/cvta */
    uint8_t vec;   /* 1, 2 or 4 */
    uint16_t flags;
    uint16_t guard; /* predicate register or PTX_NO_REG */
    uint8_t n_ops;
    uint8_t func;   /* index of the function containing it (for ret) */
    uint8_t shape;  /* wmma: WmmaShape */
    uint8_t layout; /* wmma: WMMA_COL_A / WMMA_COL_B bits (load/store: A's bit is the memory's) */
    uint32_t rpc;   /* branches: reconvergence instruction (immediate post-dominator) */
    uint32_t line;  /* source line, for run-time error messages */
    uint8_t fast;   /* in xinsts: the PtxFastKind that runs it as a full warp (ptx_fast.h), or 0 */
    uint8_t cls;    /* in xinsts: statics' op, the WinstOp a step returns (in the line the step reads) */
    uint8_t run;    /* in xinsts: how ptx_fast_run may run it (PtxFastRun, ptx_fast.h), or 0: by the step */
    PtxOperand o[PTX_MAX_OPS];
} PtxInst;

/* What the functional driver's run of a warp (ptx_fast_run) and the full-warp forms read of an
 * instruction, one per instruction of xinsts (PtxModule.xrec, built by ptx_fast_decode), in half
 * a cache line where the PtxInst spans four: its register operands as offsets of their slots in
 * the warp's registers (slot * WARP_SIZE), an immediate operand as PTX_REC_IMM | its row of
 * PtxModule.imm_lanes, any other as PTX_REC_OP (read from the PtxInst), none as PTX_REC_NONE. */
#define PTX_REC_IMM 0x80000000u
#define PTX_REC_OP 0xFFFFFFFEu
#define PTX_REC_NONE 0xFFFFFFFFu
enum {
    PTX_REC_GUARD_NEG = 1, /* the guard is negated */
    PTX_REC_SIGNED = 2,    /* shr, ld: the type; cvt: the source type; setp: a signed ordered comparison */
    PTX_REC_WIDE = 4,      /* setp: of 64-bit integers */
};
typedef struct PtxRec {
    uint8_t run;    /* PtxInst.run */
    uint8_t fast;   /* PtxInst.fast */
    uint8_t bits;   /* PTX_REC_* */
    uint8_t aux;    /* shl, shr: the shift; setp: the comparison; ld: the vector's elements */
    uint16_t guard; /* PtxInst.guard */
    uint16_t sym;   /* ld: the address's symbol, or PTX_NO_SYM */
    union {
        struct { uint32_t d, q, a, b, c; } alu;  /* destination, setp's second one, sources */
        struct { uint32_t d[4], base, disp; } ld; /* destinations, the address's register and the low
                                                     word of its immediate */
        uint32_t target;                          /* bra */
    };
} PtxRec;

/* Special registers, as pseudo-register ids special_base + one of these. */
enum {
    SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
    SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE, SR_LANEMASK_GT, SR_LANEMASK_GE,
    SR_CARRY, /* the carry flag of add.cc/addc, one per lane */
    SR_COUNT
};

typedef struct PtxSymbol {
    char *name;
    uint8_t space;   /* PtxSpace */
    bool is_extern;  /* .extern .shared dynamic array */
    bool managed;    /* .global .attribute(.managed): placed in host memory, outside the layout */
    uint16_t func;   /* owning function, or 0xFFFF for module scope */
    uint32_t align;
    uint64_t size;
    uint64_t offset; /* in its space's layout (global/const bank, local/param frame, kernel params) */
    uint8_t *init;   /* initial bytes (size of them) for .global/.const, or NULL */
} PtxSymbol;

/* Functions in one module (an instruction names its function in 8 bits). */
#define PTX_MAX_FUNCS 250

typedef struct PtxFunc {
    char *name;
    bool is_entry;
    bool defined;
    uint32_t first_inst, n_insts;
    uint32_t reg_base, n_regs;
    uint32_t regs32;             /* 32-bit register slots declared (for the estimate) */
    uint16_t *params;            /* symbol ids of the parameters, in order */
    uint32_t n_params;
    uint16_t *rets;              /* symbol ids of the return parameters */
    uint32_t n_rets;
    uint32_t decl_line;
    /* On a cycle of the call graph (it may be entered while already active: ptx_frames.c
     * saves its state at such calls). Its register slots (ptx_regalloc.c): the pinned ones
     * [pin_slot, +n_pin_slots) and the others [free_slot, +n_free_slots). */
    bool recursive;
    /* Its address is read (a mov, or an initialiser such as a vtable's): a call through a
     * register may enter it (ptx_call_callees). */
    bool address_taken;
    uint32_t pin_slot, n_pin_slots, free_slot, n_free_slots;
    /* Recursive functions only (ptx_frames_layout): the byte ranges of its .local and .param
     * symbols in the per-thread frames, n_local_iv local ones first, then the parameter ones
     * (offset, size pairs), and their total sizes. */
    uint32_t *frame_iv, n_local_iv, n_param_iv;
    uint32_t local_save_bytes, param_save_bytes;
} PtxFunc;

#define PTX_N_ENVREGS 32 /* %envreg0 .. %envreg31 */

struct PtxModule {
    char *filename;
    PtxInst *insts;
    WinstStatic *statics; /* parallel to insts: the timing model's view */
    uint32_t n_insts;
    PtxFunc *funcs;
    uint32_t n_funcs;
    PtxSymbol *syms;
    uint32_t n_syms;
    uint16_t *call_syms; /* operand lists of call instructions */
    uint32_t n_call_syms;
    uint32_t n_regs;      /* all function registers + SR_COUNT pseudo-registers */
    uint32_t special_base;
    uint64_t global_bytes, const_bytes; /* module variable layouts */
    /* The register that holds %envregN, allocated where the module first reads it (PTX_NO_REG:
     * never read); a launch sets it in every thread (ptx_launch_set_grid_workspace). A register
     * of its own rather than a special register, so that the modules that do not read it keep
     * their register numbering. */
    uint16_t envreg[PTX_N_ENVREGS];
    uint32_t local_bytes, pframe_bytes; /* per-thread frames (module-wide layout) */
    /* What the interpreter runs (ptx_regalloc.c): insts with every register id replaced by its
     * storage slot, n_slots of them per lane of a warp, and the slot of each %envreg. The
     * special registers keep slots 0 .. SR_COUNT-1; slots below init_slots are those a value
     * can be read from before this warp wrote it (a warp's start zeroes them); the others are
     * always written first. sr_used: bit k set if an instruction names special register k
     * (a warp's start writes only those). */
    PtxInst *xinsts;
    /* The immediates of xinsts, each distinct value once as 32 equal lanes (PtxOperand.lanes),
     * so that a lane loop reads one without copying it to every lane at each execution. */
    uint64_t (*imm_lanes)[WARP_SIZE];
    uint32_t n_imm_lanes;
    PtxRec *xrec; /* beside xinsts, what a warp's run reads (ptx_fast.c), 64-byte aligned */
    uint32_t n_slots, init_slots, sr_used;
    uint16_t xenvreg[PTX_N_ENVREGS];
    PtxKernelInfo *kernels;
    uint32_t *kernel_func;   /* function index of each kernel */
    uint16_t **kernel_shared;  /* per kernel: shared symbol ids it uses (terminated by PTX_NO_SYM) */
    uint32_t **kernel_shared_off;
    uint32_t n_kernels;
};

static inline uint32_t ptx_type_bytes(uint8_t t)
{
    static const uint8_t b[PT_COUNT] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 2, 4, 8, 1};
    return t < PT_COUNT ? b[t] : 0;
}
static inline bool ptx_type_signed(uint8_t t) { return t >= PT_S8 && t <= PT_S64; }
static inline bool ptx_type_float(uint8_t t) { return t >= PT_F16 && t <= PT_F64; }

/* ptx_cfg.c: fill PtxInst.rpc for every branch (and partial exit) of function f. */
void ptx_cfg_compute_rpc(PtxModule *m, uint32_t f);

/* ptx_regalloc.c: fill xinsts, n_slots, init_slots, sr_used and xenvreg (and each function's
 * slot ranges). */
void ptx_regalloc(PtxModule *m);

/* ptx_frames.c: mark the functions on a cycle of the call graph (PtxFunc.recursive) and lay
 * out what a recursive call saves of them (PtxFunc.frame_iv). */
void ptx_frames_layout(PtxModule *m);

/* ptx_decode.c: decode a mnemonic such as "ld.global.nc.v4.f32" into in->op/type/modifiers.
 * False with a message in why ("unsupported instruction 'xyz'" or what is wrong). */
bool ptx_decode_mnemonic(const char *word, size_t len, PtxInst *in, char *why, size_t why_len);
/* The operand-count range an opcode accepts, after the pipe/call normalisation of the parser. */
void ptx_decode_arity(const PtxInst *in, unsigned *min_ops, unsigned *max_ops);
/* The type an immediate at operand position i is read as (for float literal conversion). */
uint8_t ptx_decode_operand_type(const PtxInst *in, unsigned i);
/* Names for messages: "mad" for OP_MAD, "s32" for PT_S32 ("?" for an unknown value). */
const char *ptx_opcode_name(uint8_t op);
const char *ptx_type_name(uint8_t t);
/* ptx_decl.c: "%tid.x" for SR_TID_X, and so on. */
const char *ptx_special_reg_name(unsigned sr);
/* The registers instruction in writes (defs) and reads (uses: the guard first, then the
 * operands in order), special registers included, the carry flag not: what the interpreter
 * touches, nothing capped (at most PTX_MAX_INST_REGS each). */
#define PTX_MAX_INST_REGS (PTX_MAX_OPS * PTX_MAX_VEC + 2)
void ptx_inst_regs(const PtxInst *in, uint16_t *defs, unsigned *nd, uint16_t *uses, unsigned *nu);
/* The functions call instruction in may enter (ptx_frames.c): its callee, or for a call through
 * a register every defined function whose address the module takes; out has room for
 * m->n_funcs. */
uint32_t ptx_call_callees(const PtxModule *m, const PtxInst *in, uint32_t *out);
/* Fill the timing model's static view of instruction pc (its registers: ptx_inst_regs'). */
void ptx_decode_static(const PtxModule *m, uint32_t pc, WinstStatic *out);

#endif
