/* ptx_slice.h: address pre-computation for locality-aware scheduling: for every global-memory
 * access of a kernel, the backward slice of its address (the instructions that compute it from
 * the kernel parameters, %tid, %ntid, %ctaid, %nctaid and immediates), decoded once into a small
 * straight-line program that gives the byte address any thread of any CTA would use, without
 * running the kernel. This is the "address calculation code extraction" of locality-aware
 * scheduling (Chapter 3 of the LAS thesis): the CTA dispatcher evaluates it for the first and
 * the last thread of each CTA to find the CTA's range on each data array.
 *
 * Typical use, once per launch:
 *     PtxSliceEnv env;
 *     const PtxSlices *s = ptx_launch_slices(launch, &env);      // built on first call
 *     for (uint32_t i = 0; i < ptx_slices_count(s); i++) {
 *         const PtxSliceInfo *a = ptx_slices_info(s, i);
 *         uint64_t first, last;
 *         if (a->precomputable && ptx_slices_eval_linear(s, i, &env, cta, 0, &first) &&
 *             ptx_slices_eval_linear(s, i, &env, cta, threads_per_cta - 1, &last))
 *             ...                                              // a->array_param's range
 *     }
 * Evaluation allocates nothing and never writes to the PtxSlices, so one PtxSlices may serve
 * any number of evaluations (and threads). */
#ifndef WARPSIM_PTX_SLICE_H
#define WARPSIM_PTX_SLICE_H

#include "front/ptx/ptx.h"

typedef struct PtxSlices PtxSlices;

/* The longest address program the evaluator runs (its values live on the caller's stack):
 * operations plus the constants, parameters and special registers they read. Longer slices are
 * reported not precomputable (PTX_SLICE_TOO_LONG). */
#define PTX_SLICE_MAX_STEPS 128

typedef enum PtxSliceKind { PTX_SLICE_LOAD, PTX_SLICE_STORE, PTX_SLICE_ATOMIC } PtxSliceKind;

/* Why an access's address cannot be computed before the kernel runs. */
typedef enum PtxSliceReason {
    PTX_SLICE_OK,            /* precomputable */
    PTX_SLICE_MULTI_DEF,     /* a register with several definitions: loop-carried, or chosen by a branch */
    PTX_SLICE_UNDEFINED,     /* a register read but never written */
    PTX_SLICE_GUARDED,       /* a definition under a guard predicate (@%p) */
    PTX_SLICE_NOT_DOMINATING,/* a definition that does not come before its use on every path */
    PTX_SLICE_MEMORY,        /* a value loaded from memory (data-dependent), or returned by a call */
    PTX_SLICE_ATOMIC_RESULT, /* the old value an atomic returns */
    PTX_SLICE_WARP,          /* shfl, vote, match or activemask: depends on other lanes */
    PTX_SLICE_SPECIAL,       /* %laneid, %warpid, %smid, %clock, lane masks, ...: not a function of the ids */
    PTX_SLICE_UNSUPPORTED,   /* an opcode or form the evaluator does not model (floats, bit fields, ...) */
    PTX_SLICE_TOO_LONG,      /* more than PTX_SLICE_MAX_STEPS steps */
    PTX_SLICE_REASON_COUNT
} PtxSliceReason;

/* One global-memory access of the kernel (an ld, st, atom or red in the global space, or in the
 * generic space with a kernel parameter or a .global variable as its pointer). */
typedef struct PtxSliceInfo {
    uint32_t inst;        /* instruction index in the module */
    uint32_t pc;          /* the pc the timing model sees (WinstStatic.pc) */
    uint32_t line;        /* PTX source line */
    uint8_t kind;         /* PtxSliceKind */
    bool generic;         /* a generic-space access (the global space is inferred from its pointer) */
    uint8_t width_bytes;  /* bytes each thread reads or writes (all vector elements) */
    bool precomputable;
    uint8_t reason;       /* PtxSliceReason; PTX_SLICE_OK iff precomputable */
    int32_t array_param;  /* kernel parameter (index) that the address is based on; -1: unknown */
    const char *array_name; /* that parameter's name, or the .global/.const variable the address is
                               based on; NULL when neither or several (names live in the module) */
    uint32_t slice_insts; /* PTX instructions in the address slice (ld.param and mov of %tid count) */
    char why[112];        /* for a report: what stops pre-computation, with its line; "" if nothing */
} PtxSliceInfo;

/* What a launch binds, that the address programs read: the parameter buffer (as laid out by
 * PtxKernelInfo), the geometry, and the address of each module symbol (global and const
 * variables; NULL if the kernel's addresses use none). */
typedef struct PtxSliceEnv {
    const uint8_t *params;
    uint32_t param_bytes;
    uint32_t grid[3], block[3];
    const uint64_t *sym_addr;
} PtxSliceEnv;

/* Find and decode the global accesses of kernel ki of module m (ki from ptx_module_kernel).
 * NULL with a message only when ki is not one of m's kernels; an access that cannot be
 * pre-computed is reported as such, never an error. The slices refer to m: free them first. */
PtxSlices *ptx_slices_build(const PtxModule *m, const PtxKernelInfo *ki, char *err, size_t err_len);
void ptx_slices_free(PtxSlices *s);

uint32_t ptx_slices_count(const PtxSlices *s);
/* Access i (0 <= i < count, checked), in instruction order. */
const PtxSliceInfo *ptx_slices_info(const PtxSlices *s, uint32_t i);
/* The access at timing-model pc (WinstStatic.pc), or -1 if that instruction is none. */
int32_t ptx_slices_find_pc(const PtxSlices *s, uint32_t pc);
/* A short description of a reason code ("loop-carried or path-dependent register", ...). */
const char *ptx_slice_reason_name(PtxSliceReason r);

/* The byte address access i would use in the thread tid of the CTA ctaid (each coordinate
 * below the env's block and grid sizes). False, leaving *addr alone, when the access is not
 * precomputable or the env lacks what it reads (a parameter beyond param_bytes, sym_addr NULL
 * for an address based on a variable). */
bool ptx_slices_eval(const PtxSlices *s, uint32_t i, const PtxSliceEnv *env, const uint32_t ctaid[3],
                     const uint32_t tid[3], uint64_t *addr);
/* The same with the linear ids the timing model uses: CTA cta_id (x fastest) and thread
 * `thread` of the CTA (x fastest; threads_per_cta - 1 is the last). */
bool ptx_slices_eval_linear(const PtxSlices *s, uint32_t i, const PtxSliceEnv *env, uint64_t cta_id,
                            uint32_t thread, uint64_t *addr);

/* ptx_launch.c: the slices of a launch's kernel, built on the first call and freed with the
 * launch, and (env non-NULL) the launch's bindings to evaluate them with. */
const PtxSlices *ptx_launch_slices(PtxLaunch *l, PtxSliceEnv *env);

#endif
