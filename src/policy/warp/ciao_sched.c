/* ciao_sched.c: Algorithm 1 of CIAO (Zhang et al., IPDPS 2018: III-B, III-C, IV-A..IV-C;
 * Table I), shared by its three warp schedulers (ciao_t.c, ciao_p.c, ciao_c.c; ciao.h):
 * `sm.sched = ciao-t` (selective warp throttling), `ciao-p` (isolation of interfering warps into
 * unused shared memory) and `ciao-c` (both).
 *
 * The interference detector (ciao_detect.c) gives each warp i its IRS (eq. 1) and its most
 * interfering warp (the interference list). Epochs are counted in the SM's issued
 * instructions. Every high-cutoff epoch (5,000 instructions), each warp i of the active list
 * (live, V = 1: isolated warps are active) whose IRS_i exceeds the high cutoff (0.01) acts on
 * its most interfering warp j, if j is live and active:
 * - ciao-t: j is stalled (V_j = 0; i in the second field of j's pair-list entry);
 * - ciao-p: j is isolated if it is not yet (I_j = 1; i in the first field): its global/local
 *   loads are steered to the shared-memory cache (src/policy/mpath/smemcache.c) instead of
 *   the L1D; an isolated j is left as it is;
 * - ciao-c: j is isolated if it is not yet, and stalled if it already is (Algorithm 1: the
 *   interference among isolated warps is seen through the same VTA, III-C).
 * Each isolation or stall goes to the front of the warp list CIAO examines at low-cutoff
 * epochs (100 instructions): the entry at the front is undone (a stalled warp is reactivated,
 * an isolated warp's loads go back to the L1D) unless the warp i recorded in the matching
 * pair-list field is still live and IRS_i is still above the low cutoff (0.005). So actions are
 * undone in the reverse order (III-C). A stalled warp issues no instruction at all (V = 0
 * takes it out of the warp list). Among the other warps the order is greedy-then-oldest (V-A).
 *
 * Choices where the paper is silent:
 * - A high-cutoff epoch visits the active warps oldest first and each acts on at most one
 *   warp; a warp stalled earlier in the same epoch is no longer active and acts on nobody (an
 *   isolated one still may). At an instruction count that ends both epochs, the low-cutoff
 *   check runs first.
 * - The warp list holds actions, not warps: a warp isolated and then stalled has two entries
 *   (its stall above its isolation), undone one at a time.
 * - No room: with no unused shared memory (smemcache.h: not even one data row and its tag
 *   row), ciao-p isolates nobody (no_room) and ciao-c stalls the warp it would have isolated
 *   (stall_fallbacks). A warp isolated while there was room keeps I = 1 when the room goes; its
 *   loads then go to the L1D (the cache counts them as `nowhere`).
 * - Progress: a warp is never stalled when it is the last live active warp of the SM. A
 *   stalled warp whose CTA has a warp waiting at a barrier issues anyway (barrier_passes).
 *   When the last active warp leaves while warps are stalled, they are all reactivated
 *   (forced_reactivations); isolations stay.
 * - A warp that finishes leaves the list (all its entries).
 * - The interference matrix (matrix = 1) counts, on SM 0, every line replacement in the L1D
 *   or the shared-memory cache by (warp slot that brought the line in, warp slot whose access
 *   replaced it), over the whole run: Fig. 4a's warp x warp interference counts.
 *
 * Options (sm.sched.ciao-<t|p|c>.*): vta_sets (48), vta_ways (8), high_cutoff (0.01),
 * low_cutoff (0.005), high_epoch (5000 instructions), low_epoch (100 instructions), matrix (0).
 * Stats (sm[i].sched.ciao-<t|p|c>.*): the detector's (ciao_detect.c) and those registered in
 * ciao_create_shared; series irs_max, active_warps (and isolated_warps for P and C). */
#include "policy/warp/ciao.h"

#include <stddef.h>

#include "policy/mpath/smemcache.h"
#include "policy/policy.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const OptDesc ciao_opts[CIAO_N_OPTS] = {
    {"vta_sets", OPT_U32, offsetof(CiaoOpts, vta_sets), "48", 1, 64, NULL, "sets",
     "victim tag array sets, one per warp slot (a slot's set is the slot modulo the sets)"},
    {"vta_ways", OPT_U32, offsetof(CiaoOpts, vta_ways), "8", 1, 64, NULL, "tags",
     "victim tag array tags per set (FIFO)"},
    {"high_cutoff", OPT_F64, offsetof(CiaoOpts, high_cutoff), "0.01", 0, 1e9, NULL, "",
     "IRS above which a warp's most interfering warp is isolated or stalled (checked every high_epoch)"},
    {"low_cutoff", OPT_F64, offsetof(CiaoOpts, low_cutoff), "0.005", 0, 1e9, NULL, "",
     "IRS of the interfered warp at or below which a stall or an isolation is undone (checked every low_epoch)"},
    {"high_epoch", OPT_U32, offsetof(CiaoOpts, high_epoch), "5000", 1, 100000000, NULL, "instructions",
     "SM instructions between high-cutoff checks"},
    {"low_epoch", OPT_U32, offsetof(CiaoOpts, low_epoch), "100", 1, 100000000, NULL, "instructions",
     "SM instructions between low-cutoff checks"},
    {"matrix", OPT_BOOL, offsetof(CiaoOpts, matrix), "false", 0, 1, NULL, "",
     "keep SM 0's warp x warp replacement counts (Fig. 4a) as histograms matrix.wNN (one per warp whose line "
     "was replaced, a bucket per replacing warp)"},
};

typedef struct CiaoAction {
    uint8_t warp;
    bool stall; /* else an isolation */
} CiaoAction;

typedef struct CiaoSched {
    Ciao d;
    CiaoMode mode;
    double high, low;
    uint32_t high_epoch, low_epoch, smem_bytes;
    CiaoAction list[2 * CIAO_SLOTS]; /* the warp list's actions: list[n - 1] is its front */
    uint32_t n;
    /* stats */
    uint64_t stalls, reactivations, forced, held, barrier_passes, high_epochs, low_epochs, irs_over_high;
    uint64_t stalled_max, isolations, redirections_back, isolated_max, no_room, stall_fallbacks;
    /* the interference matrix (SM 0, matrix = 1): [owner * n_matrix + evictor] */
    uint32_t n_matrix;
    uint64_t *matrix;
    char (*label_buf)[8];
    const char **labels;
    char (*name_buf)[16];
    PolicySeries s_irs, s_active, s_isolated;
} CiaoSched;

typedef struct CiaoInst {
    CiaoSched *t;
    uint32_t index;
    int last;
} CiaoInst;

/* ---- the warp list ----------------------------------------------------------------------- */

static uint32_t n_stalled(const CiaoSched *t) { return popcount_u64(t->d.stalled); }

static void push(CiaoSched *t, uint32_t j, bool stall)
{
    CHECK(t->n < ARRAY_LEN(t->list));
    t->list[t->n++] = (CiaoAction){.warp = (uint8_t)j, .stall = stall};
}

static void stall(CiaoSched *t, uint32_t j, uint32_t by)
{
    t->d.stalled |= 1ull << j;
    t->d.pair[j].stalled_by = (uint8_t)by;
    t->d.pair[j].stalled_gen = t->d.gen[by];
    push(t, j, true);
    t->stalls++;
    t->stalled_max = MAX(t->stalled_max, n_stalled(t));
}

static void isolate(CiaoSched *t, uint32_t j, uint32_t by)
{
    t->d.isolated |= 1ull << j;
    t->d.pair[j].isolated_by = (uint8_t)by;
    t->d.pair[j].isolated_gen = t->d.gen[by];
    push(t, j, false);
    t->isolations++;
    t->isolated_max = MAX(t->isolated_max, popcount_u64(t->d.isolated));
}

/* Undo list entry k (a reactivation or a redirection back to the L1D). */
static void undo(CiaoSched *t, uint32_t k)
{
    CiaoAction a = t->list[k];
    memmove(&t->list[k], &t->list[k + 1], (t->n - k - 1) * sizeof t->list[0]);
    t->n--;
    if (a.stall) {
        t->d.stalled &= ~(1ull << a.warp);
        t->d.pair[a.warp].stalled_by = CIAO_NONE;
    } else {
        t->d.isolated &= ~(1ull << a.warp);
        t->d.pair[a.warp].isolated_by = CIAO_NONE;
    }
}

/* Every entry of warp j goes (it finished, or its slot has a new warp). */
static void unlist(CiaoSched *t, uint32_t j)
{
    for (uint32_t k = t->n; k-- > 0;)
        if (t->list[k].warp == j)
            undo(t, k);
}

/* Low-cutoff epoch: the action at the front of the list is undone unless the warp it was taken
 * for is still live and above the low cutoff. */
static void low_epoch(CiaoSched *t)
{
    t->low_epochs++;
    if (!t->n)
        return;
    CiaoAction a = t->list[t->n - 1];
    const CiaoPair *p = &t->d.pair[a.warp];
    uint8_t by = a.stall ? p->stalled_by : p->isolated_by;
    uint32_t gen = a.stall ? p->stalled_gen : p->isolated_gen;
    if (ciao_same_warp(&t->d, by, gen) && ciao_irs(&t->d, by) > t->low)
        return;
    undo(t, t->n - 1);
    if (a.stall)
        t->reactivations++;
    else
        t->redirections_back++;
}

/* High-cutoff epoch: each active warp above the high cutoff acts on its most interfering warp. */
static void high_epoch(CiaoSched *t, const uint64_t *age, uint32_t smem_unused)
{
    t->high_epochs++;
    bool room = t->mode != CIAO_T && smemcache_geometry(t->smem_bytes, smem_unused).lines > 0;
    for (uint64_t m = t->d.live & ~t->d.stalled; m;) {
        int i = warp_sched_oldest(m, age);
        m &= ~(1ull << i);
        if (t->d.stalled >> i & 1 || !(ciao_irs(&t->d, (uint32_t)i) > t->high))
            continue;
        t->irs_over_high++;
        int j = ciao_interferer(&t->d, (uint32_t)i);
        uint64_t active = t->d.live & ~t->d.stalled;
        if (j < 0 || !(active >> j & 1))
            continue;
        bool isolated = t->d.isolated >> j & 1;
        if (t->mode != CIAO_T && !isolated && room) {
            isolate(t, (uint32_t)j, (uint32_t)i);
            continue;
        }
        if (t->mode == CIAO_P) {
            t->no_room += !isolated;
            continue;
        }
        if (popcount_u64(active) < 2)
            continue;
        t->stall_fallbacks += t->mode == CIAO_C && !isolated;
        stall(t, (uint32_t)j, (uint32_t)i);
        m &= ~(1ull << j);
    }
}

/* ---- hooks ------------------------------------------------------------------------------- */

static void matrix_create(CiaoSched *t, const PolicyCtx *ctx)
{
    uint32_t n = t->n_matrix = ctx->cfg->sm.max_warps;
    t->matrix = xcalloc((size_t)n * n, sizeof *t->matrix);
    t->label_buf = xcalloc(n, sizeof *t->label_buf);
    t->labels = xcalloc(n, sizeof *t->labels);
    t->name_buf = xcalloc(n, sizeof *t->name_buf);
    for (uint32_t j = 0; j < n; j++) {
        snprintf(t->label_buf[j], sizeof t->label_buf[j], "w%02u", j);
        t->labels[j] = t->label_buf[j];
    }
    for (uint32_t i = 0; i < n; i++) {
        snprintf(t->name_buf[i], sizeof t->name_buf[i], "matrix.w%02u", i);
        policy_stat_histogram(ctx, &t->matrix[(size_t)i * n], n, t->labels, t->name_buf[i],
                              "lines warp wNN brought in that each warp (bucket) replaced, L1D and shared-memory "
                              "cache (Fig. 4a)");
    }
}

void *ciao_sched_create_shared(const PolicyCtx *ctx, CiaoMode mode)
{
    const CiaoOpts *o = ctx->opts;
    if (o->low_cutoff > o->high_cutoff)
        fatal("sm.sched.%s.low_cutoff (%g) must not exceed sm.sched.%s.high_cutoff (%g)", ctx->cfg->sm.sched,
              o->low_cutoff, ctx->cfg->sm.sched, o->high_cutoff);
    CiaoSched *t = xcalloc(1, sizeof *t);
    ciao_init(&t->d, o->vta_sets, o->vta_ways);
    t->mode = mode;
    t->high = o->high_cutoff;
    t->low = o->low_cutoff;
    t->high_epoch = o->high_epoch;
    t->low_epoch = o->low_epoch;
    t->smem_bytes = ctx->cfg->sm.smem_bytes;
    ciao_register_stats(&t->d, ctx);
#define C(f, n, h) policy_stat_counter(ctx, &t->f, n, h)
    if (mode != CIAO_T) {
        C(isolations, "isolations", "warps isolated: their loads were steered to the shared-memory cache");
        C(redirections_back, "redirections_back", "isolated warps whose loads went back to the L1D at a low-cutoff "
                                                  "epoch (the warp they interfered with finished or fell to the low "
                                                  "cutoff)");
        C(isolated_max, "isolated_max", "the most warps isolated at once");
    }
    if (mode == CIAO_P)
        C(no_room, "no_room", "isolations not made because no shared memory was unused");
    if (mode == CIAO_C)
        C(stall_fallbacks, "stall_fallbacks", "warps stalled without being isolated first, because no shared memory "
                                              "was unused");
    if (mode != CIAO_P) {
        C(stalls, "stalls", "warps stalled: the most interfering warp of a warp whose IRS exceeded the high cutoff");
        C(reactivations, "reactivations", "stalled warps reactivated at a low-cutoff epoch (the warp they "
                                          "interfered with finished or fell to the low cutoff)");
        C(forced, "forced_reactivations", "stalled warps reactivated because no active warp was left");
        C(held, "held", "ready warps held back because they were stalled (per warp per cycle)");
        C(barrier_passes, "barrier_passes", "instructions of stalled warps let through because a warp of their CTA "
                                            "waited at a barrier");
        C(stalled_max, "stalled_max", "the most warps stalled at once");
    }
    C(high_epochs, "high_epochs", "high-cutoff epochs ended");
    C(low_epochs, "low_epochs", "low-cutoff epochs ended");
    C(irs_over_high, "irs_over_high", "warps found above the high cutoff at a high-cutoff epoch");
#undef C
    policy_stat_series(ctx, &t->s_irs, "irs_max", "the highest IRS (eq. 1) among the SM's live warps");
    policy_stat_series(ctx, &t->s_active, "active_warps", "live warps not stalled (V = 1)");
    if (mode != CIAO_T)
        policy_stat_series(ctx, &t->s_isolated, "isolated_warps", "live warps isolated (I = 1)");
    if (o->matrix && ctx->sm == 0 && ctx->stats)
        matrix_create(t, ctx);
    return t;
}

void ciao_destroy_shared(void *shared)
{
    CiaoSched *t = shared;
    ciao_free(&t->d);
    free(t->matrix);
    free(t->label_buf);
    free(t->labels);
    free(t->name_buf);
    free(t);
}

void *ciao_create(const PolicyCtx *ctx)
{
    CiaoInst *s = xcalloc(1, sizeof *s);
    s->t = ctx->shared;
    s->index = ctx->index;
    s->last = -1;
    return s;
}

void ciao_destroy(void *self) { free(self); }

/* Whether a warp of the CTA in cta_slot waits at a barrier. */
static bool cta_at_barrier(const SmView *sm, uint32_t cta_slot)
{
    for (uint64_t m = sm->barrier_mask; m; m &= m - 1)
        if (sm->slot[__builtin_ctzll(m)].cta_slot == cta_slot)
            return true;
    return false;
}

bool ciao_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    CiaoSched *t = ((CiaoInst *)self)->t;
    if (slot >= CIAO_SLOTS || !(t->d.stalled >> slot & 1))
        return true;
    if (v->sm->barrier_mask && cta_at_barrier(v->sm, w->cta_slot))
        return true; /* counted as a barrier pass if it issues (on_issue) */
    t->held++;
    return false;
}

int ciao_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const CiaoInst *)self)->last, v); }

void ciao_on_issue_hook(void *self, uint32_t slot, const WarpSchedView *v)
{
    CiaoInst *s = self;
    CiaoSched *t = s->t;
    s->last = (int)slot;
    if (slot < CIAO_SLOTS && (t->d.stalled >> slot & 1))
        t->barrier_passes++;
    ciao_on_issue(&t->d);
    if (t->d.insts % t->low_epoch == 0)
        low_epoch(t);
    if (t->d.insts % t->high_epoch == 0)
        high_epoch(t, v->age, v->sm->smem_unused);
}

void ciao_on_l1d_evict(void *self, const WarpL1dEvent *e)
{
    CiaoSched *t = ((CiaoInst *)self)->t;
    if (t->matrix && e->evictor < t->n_matrix && e->slot < t->n_matrix)
        t->matrix[(size_t)e->slot * t->n_matrix + e->evictor]++;
    ciao_on_evict(&t->d, e->slot, e->evictor, e->line_addr);
}

void ciao_on_l1d_miss(void *self, const WarpL1dEvent *e)
{
    uint32_t j;
    ciao_on_miss(&((CiaoInst *)self)->t->d, e->slot, e->line_addr, &j);
}

void ciao_on_warp_exit(void *self, uint32_t slot)
{
    CiaoInst *s = self;
    CiaoSched *t = s->t;
    if (s->last == (int)slot)
        s->last = -1;
    if (slot >= CIAO_SLOTS || !(t->d.live >> slot & 1))
        return;
    unlist(t, slot);
    ciao_warp_leave(&t->d, slot);
    if (t->d.live && !(t->d.live & ~t->d.stalled)) { /* nobody left to issue: every stalled warp returns */
        for (uint32_t k = t->n; k-- > 0;)
            if (t->list[k].stall) {
                undo(t, k);
                t->forced++;
            }
    }
}

/* Every scheduler of the SM hears a launch; the first one enters its warps. */
void ciao_on_cta_launch(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps)
{
    CiaoInst *s = self;
    CiaoSched *t = s->t;
    if (s->index != 0)
        return;
    for (uint32_t i = first_slot; i < first_slot + n_warps && i < CIAO_SLOTS; i++) {
        unlist(t, i);
        ciao_warp_arrive(&t->d, i);
    }
}

bool ciao_steer(void *self, uint32_t slot)
{
    return slot < CIAO_SLOTS && (((CiaoInst *)self)->t->d.isolated >> slot & 1);
}

void ciao_on_sample(void *self)
{
    CiaoSched *t = ((CiaoInst *)self)->t;
    double irs = 0;
    for (uint64_t m = t->d.live; m; m &= m - 1)
        irs = MAX(irs, ciao_irs(&t->d, (uint32_t)__builtin_ctzll(m)));
    policy_series_push(&t->s_irs, irs);
    policy_series_push(&t->s_active, popcount_u64(t->d.live & ~t->d.stalled));
    policy_series_push(&t->s_isolated, popcount_u64(t->d.isolated));
}

/* The stalled warps (V = 0), SM-wide: the SM keeps each scheduler's own. */
uint64_t ciao_throttled(const void *self) { return ((const CiaoInst *)self)->t->d.stalled; }

const Ciao *ciao_t_state(const void *shared) { return &((const CiaoSched *)shared)->d; }

uint32_t ciao_t_stalled_list(const void *shared, uint8_t *out)
{
    const CiaoSched *t = shared;
    uint32_t n = 0;
    for (uint32_t k = t->n; k-- > 0;)
        if (t->list[k].stall)
            out[n++] = t->list[k].warp;
    return n;
}

uint32_t ciao_action_list(const void *shared, uint8_t *warp, bool *stall)
{
    const CiaoSched *t = shared;
    for (uint32_t i = 0; i < t->n; i++) {
        warp[i] = t->list[t->n - 1 - i].warp;
        stall[i] = t->list[t->n - 1 - i].stall;
    }
    return t->n;
}

