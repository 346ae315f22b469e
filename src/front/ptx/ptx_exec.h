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
/* "block (x,y,z) thread (x,y,z)" of a warp's lane. */
void ptx_thread_coords(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, char *buf, size_t len);

#endif
