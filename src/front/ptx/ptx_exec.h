/* ptx_exec.h: the PTX interpreter's warp step (internal to src/front/ptx): set up a warp, run
 * its next instruction, record a run-time fault. The state it works on is in ptx_state.h; see
 * ptx_exec.c for the execution rules. */
#ifndef WARPSIM_PTX_EXEC_H
#define WARPSIM_PTX_EXEC_H

#include "front/ptx/ptx_mem.h"
#include "front/ptx/ptx_state.h"

/* Set up warp w of CTA c (registers, specials, stack) for this launch. */
void ptx_warp_init(PtxLaunch *l, PtxWarp *w, PtxCta *c, uint32_t warp_in_cta);
/* Execute the warp's next instruction; fill *out when non-NULL. Returns the WinstOp executed. */
int ptx_warp_step(PtxLaunch *l, PtxWarp *w, Winst *out);
/* Record a run-time fault (the first one wins) at instruction pc. */
void ptx_launch_fault(PtxLaunch *l, uint32_t pc, PtxFault kind, const char *what);
/* What an access does, for its fault message. */
typedef enum PtxAccess { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC_TEX, ACC_READ, ACC_SULD, ACC_SUST } PtxAccess;
/* Stop the launch at an access that may not happen, naming the access, its thread and why. */
void ptx_access_fault(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint32_t pc, PtxFault kind, PtxAccess acc,
                      unsigned bytes, uint8_t space, uint64_t a, const char *why);
/* Fail the launch for a store the host-memory limit refused; false. */
bool ptx_store_refused(PtxLaunch *l, uint64_t addr, uint32_t pc);
/* ptx_mem_warp.c: an ld or st of the active lanes at base[i] + disp (base NULL: disp), masked
 * with amask, done for the whole warp; false (nothing done) when it does not apply or an access
 * would fault, for the lane-by-lane path to do. */
bool ptx_mem_warp(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active,
                  const uint64_t *base, uint64_t disp, uint64_t amask, Winst *out);
/* ptx_tex.c: tex, and suld / sust, for the active lanes. */
void ptx_exec_tex(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out);
void ptx_exec_surface(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out);
/* "block (x,y,z) thread (x,y,z)" of a warp's lane. */
void ptx_thread_coords(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, char *buf, size_t len);
/* Read n bytes at a generic address for one lane (what vprintf and __assertfail read), checked
 * like the lane's loads; false once the launch has faulted. */
bool ptx_lane_read(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint64_t generic, void *dst, size_t n, uint32_t pc);
/* One lane's access of bytes (1, 2, 4 or 8) at address a of space (generic resolved by
 * window), checked like an ld/st of that size: store *v, or load into *v. The address the
 * timing model sees and the space it fell in come back; false once the launch has faulted. */
bool ptx_lane_access(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint8_t space, uint64_t a, unsigned bytes,
                     bool store, uint64_t *v, uint32_t pc, uint64_t *taddr, uint8_t *rspace);

/* ptx_frames.c: before a call of recursive function g by lanes, save g's registers and frames
 * (at *save); false, with the launch faulted, past PTX_MAX_CALL_DEPTH. At a ret of lanes from
 * a call f that saved: write the return values and give those lanes their saved state back. */
bool ptx_frame_save(PtxLaunch *l, PtxWarp *w, uint32_t g, uint32_t lanes, uint32_t pc, size_t *save);
void ptx_frame_return(PtxLaunch *l, PtxWarp *w, const PtxCallFrame *f, uint32_t lanes);
/* A call through a register by the active lanes: *g, the function the first active lane's
 * address names, which the lanes with the same address call now; *rest, the lanes that call
 * another (after these return). False, with the launch faulted, when the address is no device
 * function's or the function's parameters are not the call's. */
bool ptx_call_target(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active, uint32_t *g,
                     uint32_t *rest);

/* ptx_async.c: run a cp.async (the copy, at issue) for the active lanes; its group operations
 * do nothing here. */
void ptx_async_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out);

/* ptx_wmma.c: run a wmma.load, wmma.store or wmma.mma for the active lanes. */
void ptx_wmma_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out);

/* ptx_builtin.c: vprintf, __assertfail and the device runtime's entry points. Which builtin
 * each function of m is (builtin_of[f], PTX_BUILTIN_NONE for the module's own); run a call of
 * one for the active lanes; write the launch's printf and assert text (at its end), and free
 * it. A call's argument k for one lane: its first n bytes into dst (zero past the argument's
 * size; the bytes copied), or its first 8 bytes as a value; the call's return value (its
 * size's low bytes). */
void ptx_builtins_find(const PtxModule *m, uint8_t *builtin_of);
void ptx_builtin_call(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active);
size_t ptx_call_arg_bytes(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t k,
                          void *dst, size_t n);
uint64_t ptx_call_arg(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t k);
void ptx_call_return(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint64_t v);
/* ptx_cdp.c: a call of one of the device runtime's entry points (which: a PtxBuiltin) for the
 * active lanes, in lane order; free a launch's device-runtime state. */
void ptx_cdp_call(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active, uint8_t which);
void ptx_cdp_launch_free(PtxLaunch *l);
void ptx_output_flush(PtxLaunch *l);
void ptx_output_free(PtxLaunch *l);

#endif
