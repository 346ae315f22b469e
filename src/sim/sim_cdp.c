/* sim_cdp.c: dynamic parallelism on the simulated GPU: the kernels and copies a grid's threads
 * queued through the device runtime (front/ptx/ptx_cdp.c) run once the grid is complete.
 *
 * CUDA (CDP2, CUDA 12 and later) lets a parent grid neither wait for its children nor see their
 * results before it ends; a grid is complete when its CTAs have exited and every grid it
 * launched, transitively, is complete. Any order of children that respects their streams is
 * legal, and warpsim uses one serialization of it, the same in both modes: when a grid's CTAs
 * have all exited, the work it queued runs in the order it was queued (a launch with all its
 * own descendants before the next item), then the launches into cudaStreamTailLaunch, in their
 * order. Children never run beside their parent or one another. On the timing model they run
 * on the same machine after the parent, the cycle count going on; each is a kernel of its own
 * in the stats, named "KERNEL [device launch, depth D, by PARENT]". A child that fails stops
 * the rest of its parent's work (its slots and buffers are released), and the launch the host
 * made fails with its status. */
#include "sim/sim_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static WarpsimStatus run_one(WarpsimSim *s, WarpsimModule *m, const char *parent, const PtxDeviceWork *w)
{
    if (w->kind == PTX_WORK_COPY) {
        uint8_t *buf = xmalloc(w->bytes);
        ptx_memory_read(s->mem, w->src, buf, w->bytes);
        bool ok = ptx_memory_write(s->mem, w->dst, buf, w->bytes);
        free(buf);
        return ok ? WARPSIM_OK : sim_over_limit(s, "a kernel's cudaMemcpyAsync", w->bytes);
    }
    uint8_t *params = xmalloc(MAX(w->param_bytes, 1u));
    ptx_memory_read(s->mem, w->params, params, w->param_bytes);
    uint32_t depth = s->cdp_depth;
    const char *keep = s->cdp_parent;
    s->cdp_depth = depth + 1;
    s->cdp_parent = parent;
    WarpsimStatus st = sim_launch(s, m, w->kernel, w->grid, w->block, w->smem_bytes, params,
                                  w->param_bytes, 0);
    s->cdp_depth = depth;
    s->cdp_parent = keep;
    free(params);
    return st;
}

WarpsimStatus sim_cdp_run(WarpsimSim *s, WarpsimModule *m, const char *parent, PtxDeviceWork *work, uint32_t n)
{
    WarpsimStatus st = WARPSIM_OK;
    for (int tail = 0; tail < 2; tail++)
        for (uint32_t i = 0; i < n; i++) {
            if (work[i].tail != (tail == 1))
                continue;
            if (st == WARPSIM_OK)
                st = run_one(s, m, parent, &work[i]);
            ptx_cdp_work_done(s->cdp, &work[i]);
        }
    free(work);
    return st;
}

void warpsim_set_device_runtime_limits(WarpsimSim *s, uint64_t pending_launches, uint64_t heap_bytes)
{
    ptx_cdp_set_limits(s->cdp, pending_launches, heap_bytes);
}

void warpsim_set_error_describer(WarpsimSim *s, const char *(*describe)(int code))
{
    ptx_cdp_set_describe(s->cdp, describe);
}
