/* las.c: locality-aware CTA scheduling by address pre-computation (the LAS thesis, seeds/001,
 * 3.3, Fig. 3.8). Each pending CTA's access range on each data array is a rectangle of cache
 * lines, computed from the addresses of its first and last threads (las_map.h). When SM x has
 * room, the CTA dispatched there is the pending CTA with the largest inter-block locality with
 * the CTAs running on x: the sum, over those CTAs and the data arrays, of the lines their
 * rectangles share (3.3.2). If no pending CTA shares a line with x, it is the one with the least
 * locality with the CTAs running on the other SMs, so as not to take reuse away from them.
 *
 * Choices the thesis leaves open, made here:
 * - The candidates are the `window` lowest-numbered pending CTAs (the block queue's entries);
 *   scoring every pending CTA of a large grid at every dispatch would cost more than the
 *   hardware's small queue does. Ties go to the lowest CTA id, so with no locality anywhere
 *   (at a kernel's start, or in a kernel without precomputable accesses) it is round-robin.
 * - One CTA per dispatch decision: the dispatcher asks again, on its next visit, for the SM's
 *   next free place, so each choice sees the CTAs placed before it.
 * - A rectangle is computed once per CTA, when it first becomes a candidate (the block queue
 *   entry's fields).
 * - In the fallback, the first candidate with no locality at all elsewhere is taken at once
 *   (none can have less).
 * Without a footprint (the synthetic front end) or with no precomputable access, `las` is
 * round-robin. Stats (gpu.cta_sched.las.*): picks_local (dispatches by locality with the SM),
 * picks_far (by least locality elsewhere), shared_lines (the chosen CTAs' locality with their
 * SMs, summed). */
#include "policy/las_map.h"
#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct LasOpts {
    uint32_t window;
} LasOpts;

static const OptDesc las_opts[] = {
    {"window", OPT_U32, offsetof(LasOpts, window), "256", 1, 65536, NULL, "CTAs",
     "pending CTAs considered at each dispatch (the block queue's entries), lowest ids first"},
};

typedef struct LasCta {
    LasMap map;
    bool mapped;         /* this kernel has precomputable accesses */
    uint32_t window, n_sms, max_per_sm, line_bytes;
    LasRect *rect;       /* [n_ctas * n_arrays], valid where has_rect */
    uint8_t *has_rect;   /* [n_ctas] */
    uint32_t *running;   /* [n_sms * max_per_sm]: CTA ids running on each SM */
    uint32_t *n_running; /* [n_sms] */
    uint64_t picks_local, picks_far, shared_lines;
} LasCta;

static void *las_create(const PolicyCtx *ctx, uint32_t n_sms)
{
    LasCta *l = xcalloc(1, sizeof *l);
    l->window = ((const LasOpts *)ctx->opts)->window;
    l->n_sms = n_sms;
    l->max_per_sm = ctx->cfg->sm.max_ctas;
    l->line_bytes = ctx->cfg->l1d.line_bytes;
    l->running = xcalloc((size_t)n_sms * l->max_per_sm, sizeof *l->running);
    l->n_running = xcalloc(n_sms, sizeof *l->n_running);
    policy_stat_counter(ctx, &l->picks_local, "picks_local", "CTAs dispatched for their locality with the SM's CTAs");
    policy_stat_counter(ctx, &l->picks_far, "picks_far",
                        "CTAs dispatched, none sharing a line with the SM's CTAs, for the least locality elsewhere");
    policy_stat_counter(ctx, &l->shared_lines, "shared_lines",
                        "lines the dispatched CTAs' rectangles share with those running on their SM, summed");
    return l;
}

static void las_on_kernel_end(void *self)
{
    LasCta *l = self;
    if (l->mapped)
        las_map_free(&l->map);
    l->mapped = false;
    free(l->rect);
    free(l->has_rect);
    l->rect = NULL;
    l->has_rect = NULL;
    for (uint32_t s = 0; s < l->n_sms; s++)
        l->n_running[s] = 0;
}

static void las_on_kernel_begin(void *self, const FrontKernel *k)
{
    LasCta *l = self;
    las_on_kernel_end(l);
    if (las_map_init(&l->map, k, l->line_bytes)) {
        l->mapped = true;
        l->rect = xcalloc((size_t)front_kernel_n_ctas(k) * l->map.n_arrays, sizeof *l->rect);
        l->has_rect = xcalloc(front_kernel_n_ctas(k), 1);
    }
}

static void las_destroy(void *self)
{
    LasCta *l = self;
    las_on_kernel_end(l);
    free(l->running);
    free(l->n_running);
    free(l);
}

static const LasRect *rects_of(LasCta *l, uint32_t cta)
{
    LasRect *r = &l->rect[(size_t)cta * l->map.n_arrays];
    if (!l->has_rect[cta]) {
        las_map_cta_rects(&l->map, cta, r);
        l->has_rect[cta] = 1;
    }
    return r;
}

/* Lines CTA c shares with the CTAs running on SM s. */
static uint64_t locality(LasCta *l, uint32_t c, uint32_t s)
{
    const LasRect *rc = rects_of(l, c);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < l->n_running[s]; k++) {
        const LasRect *rr = rects_of(l, l->running[(size_t)s * l->max_per_sm + k]);
        for (uint32_t a = 0; a < l->map.n_arrays; a++)
            sum += las_rect_overlap(&rc[a], &rr[a]);
    }
    return sum;
}

static uint32_t las_pick(void *self, uint32_t sm, const CtaSchedView *v, uint32_t *ctas)
{
    LasCta *l = self;
    if (v->next_unlaunched >= v->n_ctas)
        return 0;
    if (!l->mapped || l->n_running[sm] == l->max_per_sm) {
        ctas[0] = v->next_unlaunched;
    } else {
        uint32_t best = UINT32_MAX, seen = 0;
        uint64_t best_loc = 0;
        for (uint32_t c = v->next_unlaunched; c < v->n_ctas && seen < l->window; c++) {
            if (v->launched[c])
                continue;
            seen++;
            uint64_t loc = locality(l, c, sm);
            if (loc > best_loc) {
                best_loc = loc;
                best = c;
            }
        }
        if (best != UINT32_MAX) {
            l->picks_local++;
            l->shared_lines += best_loc;
        } else {
            uint64_t least = UINT64_MAX;
            seen = 0;
            for (uint32_t c = v->next_unlaunched; c < v->n_ctas && seen < l->window && least; c++) {
                if (v->launched[c])
                    continue;
                seen++;
                uint64_t loc = 0;
                for (uint32_t s = 0; s < l->n_sms && loc < least; s++)
                    if (s != sm)
                        loc += locality(l, c, s);
                if (loc < least) {
                    least = loc;
                    best = c;
                }
            }
            l->picks_far++;
        }
        ctas[0] = best;
    }
    if (l->n_running[sm] < l->max_per_sm)
        l->running[(size_t)sm * l->max_per_sm + l->n_running[sm]++] = ctas[0];
    return 1;
}

static void las_on_cta_done(void *self, uint32_t sm, uint32_t cta_id, const CtaSchedView *v)
{
    LasCta *l = self;
    uint32_t *run = &l->running[(size_t)sm * l->max_per_sm];
    for (uint32_t k = 0; k < l->n_running[sm]; k++)
        if (run[k] == cta_id) {
            run[k] = run[--l->n_running[sm]];
            return;
        }
}

const CtaSchedOps cta_las_ops = {
    .meta = {.name = "las",
             .help = "locality-aware: the pending CTA whose access rectangles share the most cache lines with the "
                     "SM's CTAs, else the one sharing the least with the other SMs' (address pre-computation)",
             POLICY_OPTS(las_opts, LasOpts)},
    .create = las_create,
    .destroy = las_destroy,
    .on_kernel_begin = las_on_kernel_begin,
    .on_kernel_end = las_on_kernel_end,
    .pick = las_pick,
    .on_cta_done = las_on_cta_done,
};
