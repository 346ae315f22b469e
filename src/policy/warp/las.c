/* las.c: locality-aware warp scheduling (the LAS thesis, seeds/001, 3.4, Figs. 3.10-3.14),
 * the warp half of locality-aware scheduling by address pre-computation (cta/las.c is the
 * CTA half).
 *
 * Access ranges (3.4.1, hierarchical encoding): each data array's extent is divided into 2^M
 * regions and each region into N sub-regions. A CTA's region vector (M bits) names the region
 * its first thread's address falls in; a warp's sub-region vector (N bits) marks the
 * sub-regions of that region its threads' addresses fall in. Both are computed when the CTA is
 * dispatched (from the front end's address pre-computation, las_map.h), per data array. The
 * inter-warp locality of two warps (Figs. 3.13-3.14) is 0 if their region vectors differ, else
 * the number of sub-region bits both have set; summed over the arrays.
 *
 * Two-level scheduling (3.4.2, Fig. 3.12): each scheduler keeps an active group of at most
 * `active` warps and issues only from it, greedily (the last warp while it is ready), else the
 * ready active warp with the highest locality with the last issued one. A warp waiting on a
 * global or local load (a long-latency stall) is demoted to the pending group; a free place is
 * given to the pending warp, not waiting on memory, with the highest locality with the active
 * group. A warp waiting at a barrier is demoted too (a choice: the thesis names only long
 * memory stalls, but a group full of barrier waiters would never admit the warps the barrier
 * waits for). Starvation: each CTA gets an age (its dispatch number on the SM); a warp whose CTA's age
 * is more than 2 x sm.max_ctas below the newest CTA's is starved and issues first.
 *
 * Choices the thesis leaves open, made here:
 * - M = 10 and N = 16 (its "10+16"); the active group has 6 warps per scheduler (GPGPU-Sim's
 *   two-level default; the thesis gives none).
 * - A data array's extent is the span the first and last threads of the kernel's first and
 *   last CTAs reach (las_map.h); regions are equal slices of it, rounded up; addresses outside
 *   the CTA's region set no sub-region bit.
 * - The locality degree table's entries are computed when needed from the stored vectors
 *   (the same values; the vectors only change at dispatch).
 * - Ties go to the older warp (launch order); starved warps go oldest first.
 * - Without precomputable accesses every locality is 0: two-level GTO-like scheduling.
 *
 * Stats (sm[i].sched.las.*): promotions, locality_picks (issues decided by locality, not
 * greed or age), starved_picks. */
#include "policy/las_map.h"
#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct LasOpts {
    uint32_t region_bits, subregion_bits, active;
} LasOpts;

static const OptDesc las_opts[] = {
    {"region_bits", OPT_U32, offsetof(LasOpts, region_bits), "10", 0, 30, NULL, "bits",
     "M: each data array is divided into 2^M regions (a CTA's region vector)"},
    {"subregion_bits", OPT_U32, offsetof(LasOpts, subregion_bits), "16", 1, 64, NULL, "bits",
     "N: each region is divided into N sub-regions (a warp's sub-region vector)"},
    {"active", OPT_U32, offsetof(LasOpts, active), "6", 1, 64, NULL, "warps", "active-group size per scheduler"},
};

typedef struct LasWarp {
    uint32_t region[LAS_MAX_ARRAYS];
    uint64_t sub[LAS_MAX_ARRAYS];
    uint64_t cta_age;
} LasWarp;

typedef struct LasStats {
    uint64_t promotions, locality_picks, starved_picks;
} LasStats;

typedef struct LasSched {
    LasOpts o;
    uint32_t index, count, line_bytes, starve_gap;
    LasStats *st;
    LasMap map;
    bool mapped;
    LasWarp warp[64];
    uint64_t ctas_seen; /* CTAs dispatched to the SM: the next CTA's age */
    uint64_t active, known;
    uint8_t pending[64];
    uint32_t n_pending;
    int last;
} LasSched;

static void *las_create_shared(const PolicyCtx *ctx)
{
    LasStats *st = xcalloc(1, sizeof *st);
    policy_stat_counter(ctx, &st->promotions, "promotions", "warps moved from the pending to the active group");
    policy_stat_counter(ctx, &st->locality_picks, "locality_picks",
                        "issues decided by inter-warp locality with the last issued warp");
    policy_stat_counter(ctx, &st->starved_picks, "starved_picks", "issues of starved warps (CTA age gap > 2 x max CTAs)");
    return st;
}

static void las_destroy_shared(void *shared) { free(shared); }

static void *las_create(const PolicyCtx *ctx)
{
    LasSched *l = xcalloc(1, sizeof *l);
    l->o = *(const LasOpts *)ctx->opts;
    l->index = ctx->index;
    l->count = ctx->count ? ctx->count : 1;
    l->line_bytes = ctx->cfg->l1d.line_bytes;
    l->starve_gap = 2 * ctx->cfg->sm.max_ctas;
    l->st = ctx->shared;
    l->last = -1;
    return l;
}

static void las_destroy(void *self)
{
    LasSched *l = self;
    if (l->mapped)
        las_map_free(&l->map);
    free(l);
}

static void las_kernel_start(void *self, const FrontKernel *k)
{
    LasSched *l = self;
    if (l->mapped)
        las_map_free(&l->map);
    l->mapped = las_map_init(&l->map, k, l->line_bytes);
}

/* Region and sub-region of byte address addr of array a: false outside the array's extent. */
static bool place(const LasSched *l, uint32_t a, uint64_t addr, uint32_t *region, uint32_t *sub)
{
    const LasArray *r = &l->map.arr[a];
    if (addr < r->lo || addr > r->hi)
        return false;
    uint64_t off = addr - r->lo, span = r->hi - r->lo + 1;
    uint64_t regions = 1ull << l->o.region_bits;
    uint64_t rb = (span + regions - 1) / regions; /* bytes a region */
    *region = (uint32_t)(off / rb);
    *sub = (uint32_t)((off % rb) * l->o.subregion_bits / rb);
    return true;
}

/* The vectors of the warps of a CTA that belong to this scheduler (3.4.1). */
static void las_cta_launch(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps)
{
    LasSched *l = self;
    uint64_t age = l->ctas_seen++;
    LasMap *m = &l->map;
    uint32_t cta_region[LAS_MAX_ARRAYS] = {0};
    bool has[LAS_MAX_ARRAYS] = {false};
    if (l->mapped) {
        m->fp->eval(m->fp, cta_id, 0, m->addr);
        uint64_t first[LAS_MAX_ARRAYS];
        for (uint32_t i = 0; i < m->fp->n_access; i++) {
            uint32_t a = m->arr_of[i];
            if (a != LAS_NO_ARRAY && (!has[a] || m->addr[i] < first[a])) {
                first[a] = m->addr[i];
                has[a] = true;
            }
        }
        for (uint32_t a = 0; a < m->n_arrays; a++) {
            uint32_t sub;
            has[a] = has[a] && place(l, a, first[a], &cta_region[a], &sub);
        }
    }
    for (uint32_t w = 0; w < n_warps; w++) {
        uint32_t slot = first_slot + w;
        if (slot % l->count != l->index)
            continue;
        LasWarp *lw = &l->warp[slot];
        *lw = (LasWarp){.cta_age = age};
        if (!l->mapped)
            continue;
        for (uint32_t a = 0; a < m->n_arrays; a++)
            lw->region[a] = has[a] ? cta_region[a] : UINT32_MAX;
        uint32_t t_end = MIN((w + 1) * WARP_SIZE, m->threads);
        for (uint32_t t = w * WARP_SIZE; t < t_end; t++) {
            m->fp->eval(m->fp, cta_id, t, m->addr);
            for (uint32_t i = 0; i < m->fp->n_access; i++) {
                uint32_t a = m->arr_of[i], region, sub;
                if (a != LAS_NO_ARRAY && has[a] && place(l, a, m->addr[i], &region, &sub) && region == cta_region[a])
                    lw->sub[a] |= 1ull << sub;
            }
        }
    }
}

/* Inter-warp locality (Fig. 3.14), summed over the data arrays. */
static uint32_t locality(const LasSched *l, uint32_t i, uint32_t j)
{
    if (!l->mapped)
        return 0;
    const LasWarp *a = &l->warp[i], *b = &l->warp[j];
    uint32_t sum = 0;
    for (uint32_t k = 0; k < l->map.n_arrays; k++)
        if (a->region[k] != UINT32_MAX && a->region[k] == b->region[k])
            sum += (uint32_t)__builtin_popcountll(a->sub[k] & b->sub[k]);
    return sum;
}

static uint32_t group_locality(const LasSched *l, uint32_t w, uint64_t group)
{
    uint32_t sum = 0;
    for (uint64_t m = group; m; m &= m - 1)
        sum += locality(l, w, (uint32_t)__builtin_ctzll(m));
    return sum;
}

static void pending_remove(LasSched *l, uint32_t i)
{
    for (uint32_t k = i + 1; k < l->n_pending; k++)
        l->pending[k - 1] = l->pending[k];
    l->n_pending--;
}

/* New warps join the pending group, warps waiting on memory leave the active group, and free
 * places go to the pending warps with the most locality with the active group. */
static void las_sync(LasSched *l, const WarpSchedView *v)
{
    for (uint64_t fresh = v->valid & ~l->known; fresh;) {
        int w = warp_sched_oldest(fresh, v->age);
        l->pending[l->n_pending++] = (uint8_t)w;
        l->known |= 1ull << w;
        fresh &= ~(1ull << w);
    }
    /* a warp waiting at a barrier waits as long: it leaves too, or the group could fill with
     * waiters while the warps their barrier needs stay pending */
    for (uint64_t m = l->active & (v->mem_wait | v->sm->barrier_mask); m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        l->active &= ~(1ull << w);
        l->pending[l->n_pending++] = (uint8_t)w;
    }
    while ((uint32_t)__builtin_popcountll(l->active) < l->o.active) {
        int best = -1;
        uint32_t best_loc = 0;
        for (uint32_t i = 0; i < l->n_pending; i++) {
            uint32_t w = l->pending[i];
            if ((v->mem_wait | v->sm->barrier_mask) >> w & 1)
                continue;
            uint32_t loc = group_locality(l, w, l->active);
            if (best < 0 || loc > best_loc ||
                (loc == best_loc && v->age[w] < v->age[l->pending[best]])) {
                best = (int)i;
                best_loc = loc;
            }
        }
        if (best < 0)
            break;
        l->active |= 1ull << l->pending[best];
        pending_remove(l, (uint32_t)best);
        l->st->promotions++;
    }
}

static int las_pick(void *self, const WarpSchedView *v)
{
    LasSched *l = self;
    las_sync(l, v);
    /* starved warps first (3.4.2): their CTA is more than 2N dispatches old */
    uint64_t starved = 0;
    for (uint64_t m = v->ready; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (l->ctas_seen - 1 - l->warp[w].cta_age > l->starve_gap)
            starved |= 1ull << w;
    }
    if (starved) {
        l->st->starved_picks++;
        return warp_sched_oldest(starved, v->age);
    }
    uint64_t ready = v->ready & l->active;
    if (!ready)
        return -1;
    if (l->last >= 0 && (ready >> l->last & 1))
        return l->last; /* greedy */
    int best = -1;
    uint32_t best_loc = 0;
    for (uint64_t m = ready; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        uint32_t loc = l->last >= 0 ? locality(l, (uint32_t)w, (uint32_t)l->last) : 0;
        if (best < 0 || loc > best_loc || (loc == best_loc && v->age[w] < v->age[best])) {
            best = w;
            best_loc = loc;
        }
    }
    if (best_loc > 0)
        l->st->locality_picks++;
    return best;
}

static void las_on_issue(void *self, uint32_t slot, const WarpSchedView *v) { ((LasSched *)self)->last = (int)slot; }

static void las_on_exit(void *self, uint32_t slot)
{
    LasSched *l = self;
    if (l->last == (int)slot)
        l->last = -1;
    l->active &= ~(1ull << slot);
    l->known &= ~(1ull << slot);
    for (uint32_t i = 0; i < l->n_pending; i++)
        if (l->pending[i] == slot) {
            pending_remove(l, i);
            break;
        }
}

const WarpSchedOps warp_las_ops = {
    .meta = {.name = "las",
             .help = "locality-aware two-level: greedy then the most inter-warp locality (region + sub-region "
                     "vectors from address pre-computation) in an active group; starved warps first",
             POLICY_OPTS(las_opts, LasOpts)},
    .create_shared = las_create_shared,
    .destroy_shared = las_destroy_shared,
    .create = las_create,
    .destroy = las_destroy,
    .pick = las_pick,
    .on_issue = las_on_issue,
    .on_warp_exit = las_on_exit,
    .on_kernel_start = las_kernel_start,
    .on_cta_launch = las_cta_launch,
};
