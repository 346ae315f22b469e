/* ptx_footprint.c: a launch's footprint (FrontFootprint, front.h) for locality-aware
 * scheduling: the global loads and stores of its kernel whose addresses the address slices
 * (ptx_slice.c) can pre-compute and whose data array is a kernel parameter, evaluated with the
 * launch's parameters and geometry. Atomics are left out (they are performed at the L2 and
 * bring no line into the L1D), and so are accesses based on a .global variable or on no single
 * parameter (no data array to place them in). Built with the launch's slices, on the first
 * call, and freed with the launch. */
#include "front/ptx/ptx_slice.h"
#include "front/ptx/ptx_state.h"

#include "base/base.h"

#include <stdlib.h>

struct PtxFootprint {
    FrontFootprint fp;
    FrontAccessInfo *access;
    uint32_t *slice; /* per listed access: its index in the slices */
    const PtxSlices *s;
    PtxSliceEnv env;
};

static void footprint_eval(const FrontFootprint *fp, uint32_t cta_id, uint32_t thread, uint64_t *addr)
{
    const PtxFootprint *f = fp->self;
    for (uint32_t i = 0; i < fp->n_access; i++)
        if (!ptx_slices_eval_linear(f->s, f->slice[i], &f->env, cta_id, thread, &addr[i]))
            addr[i] = 0; /* not reached: every listed access is precomputable in this launch */
}

const FrontFootprint *ptx_launch_footprint(PtxLaunch *l)
{
    if (l->footprint)
        return &l->footprint->fp;
    PtxFootprint *f = xcalloc(1, sizeof *f);
    f->s = ptx_launch_slices(l, &f->env);
    uint32_t n = ptx_slices_count(f->s);
    f->access = xcalloc(n ? n : 1, sizeof *f->access);
    f->slice = xcalloc(n ? n : 1, sizeof *f->slice);
    uint64_t probe;
    const uint32_t zero[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const PtxSliceInfo *a = ptx_slices_info(f->s, i);
        if (!a->precomputable || a->array_param < 0 || a->kind == PTX_SLICE_ATOMIC ||
            !ptx_slices_eval(f->s, i, &f->env, zero, zero, &probe))
            continue;
        f->slice[f->fp.n_access] = i;
        f->access[f->fp.n_access++] =
            (FrontAccessInfo){.pc = a->pc, .array = (uint32_t)a->array_param, .is_store = a->kind == PTX_SLICE_STORE};
    }
    f->fp.access = f->access;
    f->fp.eval = footprint_eval;
    f->fp.self = f;
    l->footprint = f;
    return &f->fp;
}

const FrontFootprint *ptx_kernel_footprint(const FrontKernel *k) { return ptx_launch_footprint(k->footprint_ctx); }

void ptx_footprint_free(PtxFootprint *f)
{
    if (!f)
        return;
    free(f->access);
    free(f->slice);
    free(f);
}
