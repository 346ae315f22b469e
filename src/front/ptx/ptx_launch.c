/* ptx_launch.c: kernel launches of the PTX front end: set-up (parameters, symbol addresses,
 * shared-memory layout), the purely functional driver ptx_run_kernel, and the FrontOps that let
 * the timing model drive the same interpreter one warp instruction at a time.
 *
 * ptx_run_kernel runs CTAs one after another (or several at once, taking turns, when the
 * launch says they are co-resident: a cooperative launch); within a CTA the warps take turns in warp order,
 * each running up to PTX_TURN_INSTS instructions, until it reaches bar.sync or exits; the
 * barrier opens when every live warp has reached it (warps that exited count as arrived, as on
 * the hardware). Taking turns lets a warp that spins on a flag another warp of its CTA sets
 * later make way for that warp, and keeps runs deterministic. CTAs do not overlap until the
 * running ones wait (run PTX_WIDEN_INSTS without a write): then more start beside them, up to
 * what the machine holds (ptx_launch_set_resident_max), so that a CTA waiting for a later one
 * finishes as on a GPU; the run limits (ptx_launch_set_limits) end a run that still never
 * finishes with an error. Named barriers with a thread count are treated as whole-CTA
 * barriers. Under the timing model the functional side never waits: a warp at bar.sync just
 * reports WOP_BARRIER and the timing model holds it. CTAs are numbered in 64 bits: a legal grid
 * holds up to (2^31-1) x 65535 x 65535 of them (the timing model's own numbering, FrontOps', is
 * 32-bit). A launch's printf and assert text is written when it ends. */
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_fast.h"

#include "front/ptx/ptx_slice.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cta_alloc(PtxLaunch *l, PtxCta *c)
{
    const PtxModule *m = l->m;
    c->smem = xcalloc(1, l->smem_bytes ? l->smem_bytes : 1);
    c->local = xcalloc(l->threads_per_cta, m->local_bytes ? m->local_bytes : 1);
    c->pframe = xcalloc(l->threads_per_cta, m->pframe_bytes ? m->pframe_bytes : 1);
}

static void cta_free(PtxCta *c)
{
    free(c->smem);
    free(c->local);
    free(c->pframe);
}

/* Make c CTA cta_id: coordinates and zeroed memories (deterministic runs). */
static void cta_reset(PtxLaunch *l, PtxCta *c, uint64_t cta_id, uint32_t sm)
{
    const PtxModule *m = l->m;
    c->live = true;
    c->cta_id = cta_id;
    c->sm = sm;
    c->ctaid[0] = (uint32_t)(cta_id % l->grid[0]);
    c->ctaid[1] = (uint32_t)(cta_id / l->grid[0] % l->grid[1]);
    c->ctaid[2] = (uint32_t)(cta_id / l->grid[0] / l->grid[1]);
    c->red_gen[0] = c->red_gen[1] = UINT64_MAX;
    memset(c->smem, 0, l->smem_bytes);
    memset(c->local, 0, (size_t)l->threads_per_cta * m->local_bytes);
    memset(c->pframe, 0, (size_t)l->threads_per_cta * m->pframe_bytes);
}

static bool errf(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool errf(char *err, size_t n, const char *fmt, ...)
{
    if (n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return false;
}

PtxLaunch *ptx_launch_create(const PtxModule *m, const char *kernel, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                             size_t params_len, PtxMemory *mem, char *err, size_t err_len)
{
    uint32_t k = 0;
    while (k < m->n_kernels && strcmp(m->kernels[k].name, kernel))
        k++;
    if (k == m->n_kernels) {
        errf(err, err_len, "%s: no kernel named '%s'", m->filename, kernel);
        return NULL;
    }
    const PtxKernelInfo *ki = &m->kernels[k];
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !threads || threads > 1024) {
        errf(err, err_len, "kernel %s: bad launch geometry grid (%u,%u,%u) block (%u,%u,%u) "
             "(expected non-zero sizes and at most 1024 threads per block)", kernel,
             grid[0], grid[1], grid[2], block[0], block[1], block[2]);
        return NULL;
    }
    if (params_len < ki->param_bytes) {
        errf(err, err_len, "kernel %s expects %u bytes of parameters, got %zu", kernel,
             ki->param_bytes, params_len);
        return NULL;
    }
    PtxLaunch *l = xcalloc(1, sizeof *l);
    l->m = m;
    l->ki = ki;
    l->kernel_index = k;
    l->entry = m->kernel_func[k];
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    l->threads_per_cta = (uint32_t)threads;
    l->warps_per_cta = (l->threads_per_cta + WARP_SIZE - 1) / WARP_SIZE;
    l->n_ctas = (uint64_t)grid[0] * grid[1] * grid[2];
    l->dyn_smem = dyn_smem_bytes;
    l->smem_bytes = ki->smem_static_bytes + dyn_smem_bytes;
    l->param_bytes = ki->param_bytes;
    l->params = xcalloc(1, l->param_bytes ? l->param_bytes : 1);
    if (l->param_bytes)
        memcpy(l->params, params, l->param_bytes);
    l->mem = mem;
    const PtxBinding *b = ptx_memory_bind(mem, m);
    if (!b) {
        errf(err, err_len, "%s: the initialised variables need more host memory than the limit allows", m->filename);
        ptx_launch_destroy(l);
        return NULL;
    }
    uint64_t gbase = b->global_base, cbase = b->const_base;
    l->sym_addr = xcalloc(m->n_syms ? m->n_syms : 1, sizeof *l->sym_addr);
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        switch (sy->space) {
        case SP_GLOBAL: l->sym_addr[s] = sy->managed ? b->managed[s] : gbase + sy->offset; break;
        case SP_CONST: l->sym_addr[s] = cbase + sy->offset; break;
        default: l->sym_addr[s] = sy->offset; break;
        }
    }
    for (uint32_t j = 0; m->kernel_shared[k][j] != PTX_NO_SYM; j++)
        l->sym_addr[m->kernel_shared[k][j]] = m->kernel_shared_off[k][j];
    ptx_builtins_find(m, l->builtin_of);
    return l;
}

void ptx_launch_destroy(PtxLaunch *l)
{
    if (!l)
        return;
    for (uint32_t i = 0; i < l->n_warp_ids; i++) {
        free(l->warps[i].regs);
        free(l->warps[i].stack);
        free(l->warps[i].calls);
        free(l->warps[i].saves);
    }
    free(l->warps);
    for (uint32_t i = 0; i < l->n_cta_slots; i++)
        if (l->ctas[i].smem)
            cta_free(&l->ctas[i]);
    free(l->ctas);
    free(l->sym_addr);
    free(l->params);
    ptx_footprint_free(l->footprint);
    ptx_slices_free(l->slices);
    ptx_output_free(l);
    ptx_cdp_launch_free(l);
    free(l);
}

void ptx_launch_describe(const PtxLaunch *l, FrontKernel *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", l->ki->name);
    memcpy(out->grid, l->grid, sizeof out->grid);
    memcpy(out->block, l->block, sizeof out->block);
    out->regs_per_thread = l->ki->regs_estimate;
    out->smem_bytes_per_cta = l->smem_bytes;
}

const PtxSlices *ptx_launch_slices(PtxLaunch *l, PtxSliceEnv *env)
{
    if (!l->slices) {
        char err[160];
        l->slices = ptx_slices_build(l->m, l->ki, err, sizeof err);
        CHECK(l->slices); /* l->ki is one of the module's kernels */
    }
    if (env) {
        env->params = l->params;
        env->param_bytes = l->param_bytes;
        memcpy(env->grid, l->grid, sizeof env->grid);
        memcpy(env->block, l->block, sizeof env->block);
        env->sym_addr = l->sym_addr;
    }
    return l->slices;
}

void ptx_launch_set_inst_limit(PtxLaunch *l, uint64_t max_warp_insts) { l->inst_limit = max_warp_insts; }
void ptx_launch_count_faults(PtxLaunch *l, uint64_t *counter) { l->fault_counter = counter; }
void ptx_launch_set_limits(PtxLaunch *l, uint64_t spin_insts, uint64_t stall_insts)
{
    l->spin_limit = spin_insts;
    l->stall_limit = stall_insts;
}
PtxStop ptx_launch_stop(const PtxLaunch *l) { return l->stop; }

void ptx_launch_set_grid_workspace(PtxLaunch *l, uint64_t addr)
{
    l->envreg[1] = (uint32_t)(addr >> 32);
    l->envreg[2] = (uint32_t)addr;
}

void ptx_launch_set_coresident(PtxLaunch *l, uint64_t n_ctas) { l->coresident = n_ctas ? n_ctas : 1; }
void ptx_launch_set_resident_max(PtxLaunch *l, uint64_t n_ctas) { l->resident_max = n_ctas; }
void ptx_launch_set_clock(PtxLaunch *l, uint64_t cycle) { l->clock = cycle; }
const char *ptx_launch_error(const PtxLaunch *l) { return l->failed ? l->error : NULL; }
PtxFault ptx_launch_fault_kind(const PtxLaunch *l) { return l->failed ? l->fault : PTX_FAULT_NONE; }
PtxRunStats ptx_launch_stats(const PtxLaunch *l)
{
    PtxRunStats s = l->stats;
    for (uint32_t i = 0; i < l->n_warp_ids; i++) {
        s.warp_insts += l->warps[i].own.warp_insts;
        s.thread_insts += l->warps[i].own.thread_insts;
    }
    return s;
}

/* Warp instructions a warp of ptx_run_kernel runs before the next warp of its CTA gets a turn.
 * Any bound lets a spinning warp make way; a large one keeps the interpreter on one warp's
 * registers for long stretches, as fast as running each warp to its next barrier. */
#define PTX_TURN_INSTS 256

/* A run limit ended the launch: CTA c has run `insts` warp instructions since `since`. The
 * launch fails like a faulting one, with an error naming the line of its first live warp and
 * where its live warps are, but it is a stop, not a fault: none is counted. */
static void cta_stopped(PtxLaunch *l, PtxStop why, const PtxCta *c, const PtxWarp *warps, uint64_t insts,
                        const char *since)
{
    char where[160] = "";
    size_t len = 0;
    uint32_t pc = 0, live = 0;
    for (uint32_t i = 0; i < l->warps_per_cta; i++) {
        const PtxWarp *w = &warps[i];
        if (w->done)
            continue;
        uint32_t wpc = w->stack[w->depth - 1].pc;
        if (!live)
            pc = wpc;
        if (live++ < 4 && len < sizeof where)
            len += (size_t)snprintf(where + len, sizeof where - len, "%swarp %u at line %u%s", live > 1 ? ", " : "",
                                    i, l->m->insts[wpc].line, w->at_barrier ? " (barrier)" : "");
    }
    if (live > 4 && len < sizeof where)
        snprintf(where + len, sizeof where - len, " and %u more", live - 4);
    snprintf(l->error, sizeof l->error, "%s:%u: kernel %s: %llu warp instructions since %s: CTA (%u,%u,%u) is still "
             "running, %s", l->m->filename, l->m->insts[pc].line, l->ki->name, (unsigned long long)insts, since,
             c->ctaid[0], c->ctaid[1], c->ctaid[2], where);
    l->failed = true;
    l->stop = why;
}

/* A store or an atomic to global or local memory: what the run limits count as getting somewhere. */
static bool writes_memory(const WinstStatic *s)
{
    return (s->op == WOP_STORE || s->op == WOP_ATOMIC) && (s->space == WSPACE_GLOBAL || s->space == WSPACE_LOCAL);
}

/* One CTA of ptx_run_kernel's: its memories and warps. */
typedef struct RunCta {
    PtxCta cta;
    PtxWarp *warps;
} RunCta;

static void run_cta_start(PtxLaunch *l, RunCta *r, uint64_t id)
{
    cta_reset(l, &r->cta, id, 0);
    for (uint32_t i = 0; i < l->warps_per_cta; i++)
        ptx_warp_init(l, &r->warps[i], &r->cta, i);
}

/* Give each warp of r's CTA a turn; false once every warp has exited. at_write: the warp
 * instructions executed at the last write to memory. */
static bool run_cta_turn(PtxLaunch *l, RunCta *r, uint64_t *at_write)
{
    uint32_t live = 0, waiting = 0;
    for (uint32_t i = 0; i < l->warps_per_cta; i++) {
        PtxWarp *w = &r->warps[i];
        for (uint32_t n = 0; n < PTX_TURN_INSTS && !w->done && !w->at_barrier; n++) {
            n += ptx_fast_run(l, w, PTX_TURN_INSTS - n); /* what needs no step */
            if (n == PTX_TURN_INSTS)
                break;
            uint32_t pc = w->stack[w->depth - 1].pc;
            l->clock++;
            int op = ptx_warp_step(l, w, NULL);
            if (op == WOP_BARRIER)
                w->at_barrier = true;
            else if ((op == WOP_STORE || op == WOP_ATOMIC) && writes_memory(&l->m->statics[pc]))
                *at_write = l->stats.warp_insts;
        }
        live += !w->done;
        waiting += !w->done && w->at_barrier;
    }
    if (live && waiting == live)
        for (uint32_t i = 0; i < l->warps_per_cta; i++)
            r->warps[i].at_barrier = false;
    return live != 0;
}

/* Start CTAs next, next + 1, ... in slots [*width, to) of run. */
static void run_widen(PtxLaunch *l, RunCta *run, uint64_t *width, uint64_t to, uint64_t *next, uint64_t *live)
{
    for (; *width < to; ++*width, ++*next, ++*live) {
        RunCta *r = &run[*width];
        cta_alloc(l, &r->cta);
        r->warps = xcalloc(l->warps_per_cta, sizeof *r->warps);
        run_cta_start(l, r, *next);
    }
}

/* CTAs run `coresident` at a time (1 unless ptx_launch_set_coresident said more): each live
 * CTA has a turn in CTA order, and a CTA that completes makes way for the next of the grid.
 * With one at a time this is the sequential order; with several, CTAs that wait for one
 * another finish. When the running CTAs wait (PTX_WIDEN_INSTS without a write or a completed
 * CTA) more start beside them, up to resident_max (ptx_launch_set_resident_max), and the spin
 * limit counts afresh: only a wait that no CTA the machine could hold ends is stopped. */
bool ptx_run_kernel(PtxLaunch *l, PtxRunStats *stats, char *err, size_t err_len)
{
    uint64_t width = 0, next = 0, live = 0;
    uint64_t cap = MIN(MAX(MAX(l->coresident, l->resident_max), 1), l->n_ctas);
    uint64_t widen_after = l->spin_limit ? MIN(l->spin_limit, PTX_WIDEN_INSTS) : PTX_WIDEN_INSTS;
    RunCta *run = xcalloc(cap, sizeof *run);
    run_widen(l, run, &width, MIN(MAX(l->coresident, 1), l->n_ctas), &next, &live);
    uint64_t at_write = 0; /* warp instructions executed at the last write to memory */
    uint64_t at_done = 0;  /* ... when a CTA last completed (or the launch began) */
    while (live && !l->failed) {
        for (uint64_t c = 0; c < width && !l->failed; c++) {
            RunCta *r = &run[c];
            if (!r->cta.live)
                continue;
            bool running = run_cta_turn(l, r, &at_write);
            if (l->failed)
                break;
            if (!running) {
                l->stats.ctas++;
                at_done = l->stats.warp_insts;
                if (next < l->n_ctas) {
                    run_cta_start(l, r, next++);
                } else {
                    r->cta.live = false;
                    live--;
                }
                continue;
            }
            uint64_t since_done = l->stats.warp_insts - at_done;
            uint64_t since_write = l->stats.warp_insts - MAX(at_done, at_write);
            if (l->stall_limit && since_done >= l->stall_limit) {
                cta_stopped(l, PTX_STOP_STALL, &r->cta, r->warps, since_done, "a CTA last completed");
                break;
            }
            if (since_write >= widen_after && width < cap && next < l->n_ctas) {
                run_widen(l, run, &width, MIN(cap, width + (l->n_ctas - next)), &next, &live);
                at_write = l->stats.warp_insts;
                continue;
            }
            if (l->spin_limit && since_write >= l->spin_limit) {
                cta_stopped(l, PTX_STOP_SPIN, &r->cta, r->warps, since_write,
                            "a CTA last completed or a thread last wrote global or local memory");
                break;
            }
        }
    }
    if (l->failed) /* the CTA that faulted or was stopped counts, as it ran */
        l->stats.ctas++;
    for (uint64_t c = 0; c < width; c++) {
        for (uint32_t i = 0; i < l->warps_per_cta; i++) {
            free(run[c].warps[i].regs);
            free(run[c].warps[i].stack);
            free(run[c].warps[i].calls);
            free(run[c].warps[i].saves);
        }
        free(run[c].warps);
        cta_free(&run[c].cta);
    }
    free(run);
    ptx_output_flush(l);
    if (stats)
        *stats = l->stats;
    if (l->failed)
        return errf(err, err_len, "%s", l->error);
    return true;
}

/* ---- FrontOps ---- */

static void fo_kernel_begin(void *self, const FrontKernel *k, uint32_t n_warp_ids)
{
    PtxLaunch *l = self;
    (void)k;
    l->fail_deferred = true;
    if (n_warp_ids > l->n_warp_ids) {
        l->warps = xrealloc(l->warps, n_warp_ids * sizeof *l->warps);
        memset(l->warps + l->n_warp_ids, 0, (n_warp_ids - l->n_warp_ids) * sizeof *l->warps);
        /* CTA slots are indexed by the CTA's first warp id: never shared by two resident CTAs,
         * and their memories are allocated on first use */
        l->ctas = xrealloc(l->ctas, n_warp_ids * sizeof *l->ctas);
        memset(l->ctas + l->n_cta_slots, 0, (n_warp_ids - l->n_cta_slots) * sizeof *l->ctas);
        l->n_warp_ids = l->n_cta_slots = n_warp_ids;
    }
    for (uint32_t i = 0; i < l->n_warp_ids; i++) {
        l->warps[i].done = true;
        l->warps[i].cta = NULL;
        l->ctas[i].live = false;
    }
}

static void fo_cta_start(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base)
{
    PtxLaunch *l = self;
    CHECK(warp_id_base + l->warps_per_cta <= l->n_warp_ids);
    CHECK(cta_id < l->n_ctas);
    PtxCta *c = &l->ctas[warp_id_base];
    if (!c->smem)
        cta_alloc(l, c);
    cta_reset(l, c, cta_id, sm);
    c->warp_base = warp_id_base;
    c->n_warps = l->warps_per_cta;
    for (uint32_t i = 0; i < l->warps_per_cta; i++) {
        PtxWarp *w = &l->warps[warp_id_base + i];
        ptx_warp_init(l, w, c, i);
        w->count = &w->own;
    }
}

static void fo_cycle_begin(void *self)
{
    PtxLaunch *l = self;
    l->fail_seen = l->failed;
}

/* After a fault the kernel is abandoned: every resident warp's next instruction is an exit, so
 * the timing model retires the CTAs (each once its memory accesses are back) and returns, and
 * the caller reports the fault. An instruction the timing model peeked at before the fault
 * executes as a no-op: the exit is offered next. */
static const WinstStatic fo_exit_static = {.op = WOP_EXIT};
static const WinstStatic fo_nop_static = {.op = WOP_NOP};

static const WinstStatic *fo_peek(void *self, uint32_t warp_id)
{
    PtxLaunch *l = self;
    PtxWarp *w = &l->warps[warp_id];
    if (w->done || !w->cta)
        return NULL;
    if (l->fail_seen) {
        w->exit_offered = true;
        return &fo_exit_static;
    }
    return &l->m->statics[w->stack[w->depth - 1].pc];
}

/* The SIMT stack's top: the lanes the next instruction runs for, before its guard. */
static uint32_t fo_peek_mask(void *self, uint32_t warp_id)
{
    const PtxLaunch *l = self;
    const PtxWarp *w = &l->warps[warp_id];
    return w->done || !w->cta || l->fail_seen ? 0 : w->stack[w->depth - 1].mask;
}

static void fo_exec(void *self, uint32_t warp_id, Winst *out)
{
    PtxLaunch *l = self;
    PtxWarp *w = &l->warps[warp_id];
    if (l->fail_seen) {
        memset(out, 0, sizeof *out);
        out->s = w->exit_offered ? fo_exit_static : fo_nop_static;
        w->done = w->exit_offered;
        return;
    }
    if (ptx_warp_step(l, w, out) < 0)
        out->active_mask = 0;
}

static void fo_cta_end(void *self, uint32_t cta_id)
{
    PtxLaunch *l = self;
    for (uint32_t i = 0; i < l->n_cta_slots; i++)
        if (l->ctas[i].live && l->ctas[i].cta_id == cta_id) {
            PtxCta *c = &l->ctas[i];
            c->live = false;
            for (uint32_t w = c->warp_base; w < c->warp_base + c->n_warps; w++)
                l->warps[w].cta = NULL;
            return;
        }
}

static void fo_kernel_end(void *self)
{
    ptx_output_flush(self);
}

const FrontOps ptx_front_ops = {
    .name = "ptx",
    .kernel_begin = fo_kernel_begin,
    .cta_start = fo_cta_start,
    .peek_parallel = true, /* a warp's own state, the module's statics, fail_seen */
    .exec_parallel = true, /* but WINST_F_ORDERED (ptx_decode.c) */
    .cycle_begin = fo_cycle_begin,
    .peek = fo_peek,
    .peek_mask = fo_peek_mask,
    .exec = fo_exec,
    .cta_end = fo_cta_end,
    .kernel_end = fo_kernel_end,
};
