/* ptx_state.h: launch, CTA and warp state of the PTX interpreter (internal to src/front/ptx),
 * the data that the control and memory side (ptx_exec.c) and the ALU (ptx_alu.c) both work on.
 *
 * A warp holds its registers (slot-major: regs[slot * 32 + lane], 64 bits each, narrower values
 * zero- or sign-extended by their writer and truncated by every reader; registers whose live
 * ranges do not overlap share a slot, ptx_regalloc.c), its SIMT
 * reconvergence stack and its call frames. A CTA holds its shared memory and the per-thread
 * local and parameter frames. Only types live here, so that the ALU can see the registers
 * without depending on the interpreter that drives it. */
#ifndef WARPSIM_PTX_STATE_H
#define WARPSIM_PTX_STATE_H

#include "front/ptx/ptx_ir.h"

/* Iterate l over the set bits of a lane mask, lowest first. */
#define FOR_LANES(mask, l) \
    for (uint32_t m_ = (mask), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

typedef struct PtxSimtEntry {
    uint32_t pc, rpc, mask;
} PtxSimtEntry;

typedef struct PtxCallFrame {
    uint32_t call_pc; /* the call instruction (for its return-value list) */
    uint32_t callee;  /* the function called (a call through a register names none) */
    uint32_t base;    /* SIMT stack index of the callee's first entry */
    size_t save;      /* offset in PtxWarp.saves of what the call saved, or PTX_NO_SAVE */
} PtxCallFrame;

#define PTX_NO_SAVE SIZE_MAX
/* Nested calls a warp may have active when it enters a recursive function (ptx_frames.c): the
 * model's stand-in for the stack size that bounds a GPU's recursion. */
#define PTX_MAX_CALL_DEPTH 1024u

typedef struct PtxCta {
    bool live;
    uint64_t cta_id; /* linear, x fastest: a grid may hold up to 2^63 CTAs */
    uint32_t ctaid[3];
    uint32_t sm;
    uint8_t *smem;   /* launch->smem_bytes */
    uint8_t *local;  /* [thread][module local_bytes] */
    uint8_t *pframe; /* [thread][module pframe_bytes] */
    uint32_t warp_base, n_warps;
    /* bar.red's reductions (ptx_exec.c), one slot for each of the two barrier instances that
     * can be in flight at once: the generation a slot holds, and what it has gathered */
    uint64_t red_gen[2];
    uint32_t red_popc[2];
    bool red_all[2], red_any[2];
} PtxCta;

typedef struct PtxWarp {
    uint64_t *regs; /* module n_slots * 32 */
    PtxSimtEntry *stack;
    uint32_t depth, cap;
    PtxCallFrame *calls;
    uint32_t n_calls, cap_calls;
    /* The callers' state that calls of recursive functions saved (ptx_frames.c), a stack:
     * save_top bytes in use, of save_cap */
    uint8_t *saves;
    size_t save_top, save_cap;
    PtxCta *cta;
    uint32_t warp_in_cta;
    uint32_t first_tid; /* linear thread index (in the CTA) of lane 0 */
    bool done, at_barrier;
    bool exit_offered; /* the launch has failed and fo_peek gave the timing model its exit */
    /* what its steps count into: the launch's stats, or (under the timing model, whose SMs may
     * run on several threads) its own, which ptx_launch_stats adds up */
    PtxRunStats *count, own;
    /* bar.red: the instances this warp has executed, and the lanes whose result (into red_dst,
     * as red_mode says) is written at the warp's next step, once every warp has arrived */
    uint32_t red_count, red_lanes;
    uint16_t red_dst;
    uint8_t red_mode;
} PtxWarp;

typedef struct PtxOutput PtxOutput; /* printf and assert text of a launch (ptx_builtin.c) */
typedef struct PtxCdpGrid PtxCdpGrid; /* its device runtime calls' state (ptx_cdp.c) */

/* The functions ptx_builtin.c and ptx_cdp.c run instead of the module's stubs. */
typedef enum PtxBuiltin {
    PTX_BUILTIN_NONE,
    PTX_BUILTIN_VPRINTF,
    PTX_BUILTIN_ASSERTFAIL,
    PTX_BUILTIN_CDP_GET_PARAMETER_BUFFER,
    PTX_BUILTIN_CDP_LAUNCH_DEVICE,
    PTX_BUILTIN_CDP_STREAM_CREATE,
    PTX_BUILTIN_CDP_STREAM_DESTROY,
    PTX_BUILTIN_CDP_MALLOC,
    PTX_BUILTIN_CDP_FREE,
    PTX_BUILTIN_CDP_GET_LAST_ERROR,
    PTX_BUILTIN_CDP_PEEK_AT_LAST_ERROR,
    PTX_BUILTIN_CDP_MEMCPY_ASYNC,
    PTX_BUILTIN_CDP_GET_ERROR_STRING,
    PTX_BUILTIN_MALLOC, /* device malloc and free (new and delete), on the device runtime's heap */
    PTX_BUILTIN_FREE,
    PTX_BUILTIN_COUNT
} PtxBuiltin;
typedef struct PtxSlices PtxSlices; /* its global accesses' address slices (ptx_slice.c) */
typedef struct PtxFootprint PtxFootprint; /* its FrontFootprint (ptx_footprint.c) */
void ptx_footprint_free(PtxFootprint *f);

struct PtxLaunch {
    const PtxModule *m;
    const PtxKernelInfo *ki;
    uint32_t entry; /* function index */
    uint32_t kernel_index;
    uint32_t grid[3], block[3];
    uint32_t threads_per_cta, warps_per_cta;
    uint64_t n_ctas;
    uint32_t dyn_smem, smem_bytes;
    uint8_t *params;
    uint32_t param_bytes;
    PtxMemory *mem;
    uint64_t *sym_addr; /* per symbol: its address in its space for this launch */
    uint64_t clock;
    uint64_t inst_limit;
    uint64_t spin_limit, stall_limit; /* ptx_run_kernel's run limits (ptx.h) */
    uint64_t coresident; /* CTAs ptx_run_kernel runs at once (ptx_launch_set_coresident) */
    uint64_t resident_max; /* ... and at most, when they wait (ptx_launch_set_resident_max) */
    uint32_t envreg[PTX_N_ENVREGS]; /* what %envregN reads */
    PtxStop stop;
    PtxRunStats stats;
    bool failed;
    PtxFault fault; /* why, once failed */
    /* The fault the warps' steps see: set with failed, or under the timing model at the start
     * of the next core cycle (fail_deferred; FrontOps.cycle_begin), so that every SM of a
     * cycle sees the same, whichever thread runs it (gpu_par.h). */
    bool fail_seen, fail_deferred;
    uint64_t *fault_counter;
    uint8_t builtin_of[PTX_MAX_FUNCS]; /* per function: the PtxBuiltin ptx_builtin_call runs */
    PtxDeviceRuntime *cdp_rt; /* the device runtime (dynamic parallelism), NULL: none */
    uint32_t cdp_depth;       /* nesting depth of this grid: 0 when the host launched it */
    PtxCdpGrid *cdp;          /* what this grid's threads did with it (ptx_cdp.c) */
    PtxOutput *output;
    PtxSlices *slices; /* built by the first ptx_launch_slices */
    PtxFootprint *footprint; /* built by the first ptx_launch_footprint */
    char error[640];
    /* front-ops state */
    PtxWarp *warps;
    uint32_t n_warp_ids;
    PtxCta *ctas;
    uint32_t n_cta_slots;
};

#endif
