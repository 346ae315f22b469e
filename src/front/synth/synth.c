/* synth.c: plays a compiled synthetic kernel back through FrontOps (front/front.h).
 *
 * Each warp is a cursor into the kernel's flat op array plus its loop counters, its stack of
 * active masks (SIMT divergence of `if`: lanes whose condition is 0 sit out the body, and a
 * body no lane enters is skipped) and the uniform values of its expression variables. After
 * every exec the cursor is moved past loop and if markers to the next instruction, so peek
 * is a single array lookup returning the precomputed WinstStatic. Per-warp state lives in an
 * array indexed by the timing model's warp id, allocated at kernel_begin; exec does no
 * allocation and no string work. The tx/ty/tz of every lane of a CTA are tabulated once. */
#include "front/synth/synth_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

typedef struct SynthWarp {
    bool live;      /* started and not yet exited */
    uint8_t n_ifs;  /* depth of mask_stack */
    uint32_t op;    /* the next op to execute: always an instruction while live */
    uint32_t w;     /* warp index within the CTA */
    uint32_t mask;  /* active lanes now */
    uint32_t mask_stack[SYNTH_MAX_IFS];
    int64_t trips[SYNTH_MAX_LOOPS];
    int64_t uniform[SV_COUNT];
} SynthWarp;

struct SynthFront {
    const SynthKernelDef *k;
    uint32_t n_ctas, threads_per_cta, warps_per_cta;
    int32_t *txyz[3]; /* [warps_per_cta * 32]: tx, ty, tz by linear thread id in the CTA */
    SynthWarp *warps;
    uint32_t n_warp_ids;
};

SynthFront *synth_front_create(const SynthProgram *p, uint32_t i)
{
    CHECK(i < p->n_kernels);
    SynthFront *f = xcalloc(1, sizeof *f);
    f->k = &p->kernels[i];
    const FrontKernel *fk = &f->k->fk;
    f->n_ctas = front_kernel_n_ctas(fk);
    f->threads_per_cta = front_kernel_threads_per_cta(fk);
    f->warps_per_cta = front_kernel_warps_per_cta(fk);
    uint32_t n = f->warps_per_cta * WARP_SIZE;
    for (int d = 0; d < 3; d++)
        f->txyz[d] = xmalloc(n * sizeof(int32_t));
    for (uint32_t t = 0; t < n; t++) {
        f->txyz[0][t] = (int32_t)(t % fk->block[0]);
        f->txyz[1][t] = (int32_t)(t / fk->block[0] % fk->block[1]);
        f->txyz[2][t] = (int32_t)(t / (fk->block[0] * fk->block[1]));
    }
    return f;
}

void synth_front_destroy(SynthFront *f)
{
    if (!f)
        return;
    for (int d = 0; d < 3; d++)
        free(f->txyz[d]);
    free(f->warps);
    free(f);
}

static inline SynthEnv warp_env(const SynthFront *f, const SynthWarp *w)
{
    uint32_t first = w->w * WARP_SIZE;
    return (SynthEnv){.uniform = w->uniform,
                      .txyz = {f->txyz[0] + first, f->txyz[1] + first, f->txyz[2] + first}};
}

/* Move the cursor over control markers to the next instruction. Terminates: every loop body
 * holds an instruction (the parser insists) and the program ends with the exit. */
static void warp_settle(const SynthFront *f, SynthWarp *w)
{
    const SynthKernelDef *k = f->k;
    for (;;) {
        const SynthOp *o = &k->ops[w->op];
        switch ((SynthOpKind)o->kind) {
        case SOP_INST:
            return;
        case SOP_LOOP: {
            SynthEnv env = warp_env(f, w);
            int64_t n = synth_expr_eval_uniform(k, &k->exprs[o->expr], &env);
            if (n <= 0) {
                w->op = o->partner + 1;
                break;
            }
            w->trips[o->depth] = n;
            w->uniform[SV_LOOP0 + o->depth] = 0;
            w->op++;
            break;
        }
        case SOP_LOOP_END:
            if (++w->uniform[SV_LOOP0 + o->depth] < w->trips[o->depth])
                w->op = o->partner + 1;
            else
                w->op++;
            break;
        case SOP_IF: {
            SynthEnv env = warp_env(f, w);
            int64_t v[WARP_SIZE];
            synth_expr_eval(k, &k->exprs[o->expr], &env, v);
            uint32_t m = 0;
            for (int l = 0; l < WARP_SIZE; l++)
                m |= (uint32_t)(v[l] != 0) << l;
            m &= w->mask;
            if (!m) {
                w->op = o->partner + 1;
                break;
            }
            CHECK(w->n_ifs < SYNTH_MAX_IFS);
            w->mask_stack[w->n_ifs++] = w->mask;
            w->mask = m;
            w->op++;
            break;
        }
        case SOP_IF_END:
            CHECK(w->n_ifs > 0);
            w->mask = w->mask_stack[--w->n_ifs];
            w->op++;
            break;
        }
    }
}

static void synth_kernel_begin(void *self, const FrontKernel *k, uint32_t n_warp_ids)
{
    SynthFront *f = self;
    /* The timing model must run the kernel this state was created for. */
    CHECK(!memcmp(k->grid, f->k->fk.grid, sizeof k->grid));
    CHECK(!memcmp(k->block, f->k->fk.block, sizeof k->block));
    if (n_warp_ids != f->n_warp_ids) {
        free(f->warps);
        f->warps = xcalloc(n_warp_ids, sizeof *f->warps);
        f->n_warp_ids = n_warp_ids;
    } else {
        memset(f->warps, 0, n_warp_ids * sizeof *f->warps);
    }
}

static void synth_cta_start(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base)
{
    SynthFront *f = self;
    const FrontKernel *fk = &f->k->fk;
    CHECK(cta_id < f->n_ctas);
    CHECK(warp_id_base + f->warps_per_cta <= f->n_warp_ids);
    for (uint32_t i = 0; i < f->warps_per_cta; i++) {
        SynthWarp *w = &f->warps[warp_id_base + i];
        memset(w, 0, sizeof *w);
        w->live = true;
        w->w = i;
        uint32_t first = i * WARP_SIZE, left = f->threads_per_cta - first;
        w->mask = left >= WARP_SIZE ? UINT32_MAX : (1u << left) - 1;
        int64_t *u = w->uniform;
        u[SV_LTID] = first;
        u[SV_TID] = (int64_t)cta_id * f->threads_per_cta + first;
        u[SV_LANE] = 0;
        u[SV_TX] = f->txyz[0][first];
        u[SV_TY] = f->txyz[1][first];
        u[SV_TZ] = f->txyz[2][first];
        u[SV_CTAID] = cta_id;
        u[SV_BX] = cta_id % fk->grid[0];
        u[SV_BY] = cta_id / fk->grid[0] % fk->grid[1];
        u[SV_BZ] = cta_id / fk->grid[0] / fk->grid[1];
        u[SV_WARP] = i;
        u[SV_NTID] = f->threads_per_cta;
        u[SV_NCTAID] = f->n_ctas;
        warp_settle(f, w);
    }
}

static const WinstStatic *synth_peek(void *self, uint32_t warp_id)
{
    const SynthFront *f = self;
    CHECK(warp_id < f->n_warp_ids);
    const SynthWarp *w = &f->warps[warp_id];
    return w->live ? &f->k->insts[f->k->ops[w->op].inst] : NULL;
}

static uint32_t synth_peek_mask(void *self, uint32_t warp_id)
{
    const SynthFront *f = self;
    CHECK(warp_id < f->n_warp_ids);
    return f->warps[warp_id].mask;
}

static void synth_exec(void *self, uint32_t warp_id, Winst *out)
{
    SynthFront *f = self;
    CHECK(warp_id < f->n_warp_ids);
    SynthWarp *w = &f->warps[warp_id];
    CHECK(w->live);
    const SynthKernelDef *k = f->k;
    const SynthOp *o = &k->ops[w->op];
    out->s = k->insts[o->inst];
    out->active_mask = w->mask;
    if (o->space != WSPACE_NONE) {
        SynthEnv env = warp_env(f, w);
        int64_t v[WARP_SIZE];
        synth_expr_eval(k, &k->exprs[o->expr], &env, v);
        uint64_t base = o->base, elem = o->elem_bytes;
        for (int l = 0; l < WARP_SIZE; l++)
            out->addr[l] = base + (uint64_t)v[l] * elem;
    }
    if (o->inst == k->n_insts - 1) { /* the implicit exit is always the last instruction */
        w->live = false;
        return;
    }
    if (k->ops[++w->op].kind != SOP_INST) /* most steps land on an instruction: nothing to settle */
        warp_settle(f, w);
}

static void synth_cta_end(void *self, uint32_t cta_id) { (void)self, (void)cta_id; }

static void synth_kernel_end(void *self) { (void)self; }

const FrontOps synth_front_ops = {
    .name = "synthetic",
    .peek_parallel = true, /* a warp's state is its own */
    .exec_parallel = true,
    .kernel_begin = synth_kernel_begin,
    .cta_start = synth_cta_start,
    .peek = synth_peek,
    .peek_mask = synth_peek_mask,
    .exec = synth_exec,
    .cta_end = synth_cta_end,
    .kernel_end = synth_kernel_end,
};

uint64_t synth_kernel_total_winsts(const SynthProgram *p, uint32_t i)
{
    SynthFront *f = synth_front_create(p, i);
    const FrontOps *ops = &synth_front_ops;
    ops->kernel_begin(f, &f->k->fk, f->warps_per_cta);
    uint64_t n = 0;
    Winst wi;
    for (uint32_t cta = 0; cta < f->n_ctas; cta++) {
        ops->cta_start(f, cta, 0, 0);
        for (uint32_t w = 0; w < f->warps_per_cta; w++)
            for (; ops->peek(f, w); n++)
                ops->exec(f, w, &wi);
        ops->cta_end(f, cta);
    }
    ops->kernel_end(f);
    synth_front_destroy(f);
    return n;
}
