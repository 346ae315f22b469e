/* ciao_t.c: CIAO-T, CIAO's selective warp throttling (Zhang et al., IPDPS 2018: III-C, IV-A,
 * IV-C and Algorithm 1 without its redirection branch; Table I), `sm.sched = ciao-t`.
 *
 * The interference detector (ciao_detect.c) gives each warp i its IRS (eq. 1) and its most
 * interfering warp (the interference list). Epochs are counted in the SM's issued
 * instructions:
 * - every high-cutoff epoch (5,000 instructions), each warp i of the active list (live, V = 1)
 *   whose IRS_i exceeds the high cutoff (0.01) has its most interfering warp j stalled, if j is
 *   live and active: V_j = 0, i goes into the second field of j's pair-list entry, and j goes
 *   to the front of the stalled list;
 * - every low-cutoff epoch (100 instructions), the warp j at the front of the stalled list is
 *   examined: it is reactivated (V_j = 1, its pair field cleared, it leaves the list) unless
 *   the warp i that made it stall is still live and IRS_i is still above the low cutoff
 *   (0.005). So warps come back in the reverse order of stalling.
 * A stalled warp issues no instruction at all (V = 0 takes it out of the warp list: "stall");
 * CCWS, by contrast, holds only loads. Among the other warps the order is greedy-then-oldest
 * (V-A: CIAO leverages GTO).
 *
 * Choices where the paper is silent:
 * - A high-cutoff epoch visits the active warps oldest first and each may stall one warp; a
 *   warp stalled earlier in the same epoch is no longer active and stalls nobody. At an
 *   instruction count that ends both epochs, the low-cutoff check runs first.
 * - Progress: a warp is never stalled when it is the last live active warp of the SM. A
 *   stalled warp whose CTA has a warp waiting at a barrier issues anyway (barrier_passes), so
 *   a barrier never waits for a stalled warp (epochs need instructions, so no reactivation
 *   would come if every active warp waited). When the last active warp leaves while warps are
 *   stalled, they are all reactivated (forced_reactivations).
 * - A stalled warp that finishes (it may, through barrier passes) leaves the stalled list.
 *
 * Options (sm.sched.ciao-t.*): vta_sets (48), vta_ways (8), high_cutoff (0.01), low_cutoff
 * (0.005), high_epoch (5000 instructions), low_epoch (100 instructions). Stats
 * (sm[i].sched.ciao-t.*): the detector's (ciao_detect.c), and stalls, reactivations,
 * forced_reactivations, held, barrier_passes, high_epochs, low_epochs, irs_over_high,
 * stalled_max (see ciao_t_create_shared). */
#include "policy/warp/ciao.h"

#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct CiaoTOpts {
    uint32_t vta_sets, vta_ways;
    double high_cutoff, low_cutoff;
    uint32_t high_epoch, low_epoch;
} CiaoTOpts;

static const OptDesc ciao_t_opts[] = {
    {"vta_sets", OPT_U32, offsetof(CiaoTOpts, vta_sets), "48", 1, 64, NULL, "sets",
     "victim tag array sets, one per warp slot (a slot's set is the slot modulo the sets)"},
    {"vta_ways", OPT_U32, offsetof(CiaoTOpts, vta_ways), "8", 1, 64, NULL, "tags",
     "victim tag array tags per set (FIFO)"},
    {"high_cutoff", OPT_F64, offsetof(CiaoTOpts, high_cutoff), "0.01", 0, 1e9, NULL, "",
     "IRS above which a warp's most interfering warp is stalled (checked every high_epoch)"},
    {"low_cutoff", OPT_F64, offsetof(CiaoTOpts, low_cutoff), "0.005", 0, 1e9, NULL, "",
     "IRS of the interfered warp at or below which a stalled warp is reactivated (checked every low_epoch)"},
    {"high_epoch", OPT_U32, offsetof(CiaoTOpts, high_epoch), "5000", 1, 100000000, NULL, "instructions",
     "SM instructions between high-cutoff checks"},
    {"low_epoch", OPT_U32, offsetof(CiaoTOpts, low_epoch), "100", 1, 100000000, NULL, "instructions",
     "SM instructions between low-cutoff checks"},
};

typedef struct CiaoT {
    Ciao d;
    double high, low;
    uint32_t high_epoch, low_epoch;
    uint8_t list[CIAO_SLOTS]; /* the stalled list: list[n - 1] is its front (the latest stalled) */
    uint32_t n;
    /* stats */
    uint64_t stalls, reactivations, forced, held, barrier_passes, high_epochs, low_epochs, irs_over_high;
    uint64_t stalled_max;
} CiaoT;

typedef struct CiaoTSched {
    CiaoT *t;
    uint32_t index;
    int last;
} CiaoTSched;

/* ---- the stalled list -------------------------------------------------------------------- */

static void stall(CiaoT *t, uint32_t j, uint32_t by)
{
    t->d.stalled |= 1ull << j;
    t->d.pair[j].stalled_by = (uint8_t)by;
    t->d.pair[j].stalled_gen = t->d.gen[by];
    t->list[t->n++] = (uint8_t)j;
    t->stalls++;
    t->stalled_max = MAX(t->stalled_max, t->n);
}

static void unlist(CiaoT *t, uint32_t j)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->list[i] == j) {
            memmove(&t->list[i], &t->list[i + 1], (t->n - i - 1) * sizeof t->list[0]);
            t->n--;
            break;
        }
    t->d.stalled &= ~(1ull << j);
    t->d.pair[j].stalled_by = CIAO_NONE;
}

/* Low-cutoff epoch: the front of the stalled list comes back unless the warp it interfered
 * with is still live and above the low cutoff. */
static void low_epoch(CiaoT *t)
{
    t->low_epochs++;
    if (!t->n)
        return;
    uint32_t j = t->list[t->n - 1];
    const CiaoPair *p = &t->d.pair[j];
    bool keep = ciao_same_warp(&t->d, p->stalled_by, p->stalled_gen) && ciao_irs(&t->d, p->stalled_by) > t->low;
    if (!keep) {
        unlist(t, j);
        t->reactivations++;
    }
}

/* High-cutoff epoch: each active warp above the high cutoff stalls its most interfering warp. */
static void high_epoch(CiaoT *t, const uint64_t *age)
{
    t->high_epochs++;
    for (uint64_t m = t->d.live & ~t->d.stalled; m;) {
        int i = warp_sched_oldest(m, age);
        m &= ~(1ull << i);
        if (t->d.stalled >> i & 1 || !(ciao_irs(&t->d, (uint32_t)i) > t->high))
            continue;
        t->irs_over_high++;
        int j = ciao_interferer(&t->d, (uint32_t)i);
        uint64_t active = t->d.live & ~t->d.stalled;
        if (j < 0 || !(active >> j & 1) || popcount_u64(active) < 2)
            continue;
        stall(t, (uint32_t)j, (uint32_t)i);
        m &= ~(1ull << j);
    }
}

/* ---- hooks ------------------------------------------------------------------------------- */

static void *ciao_t_create_shared(const PolicyCtx *ctx)
{
    const CiaoTOpts *o = ctx->opts;
    if (o->low_cutoff > o->high_cutoff)
        fatal("sm.sched.ciao-t.low_cutoff (%g) must not exceed sm.sched.ciao-t.high_cutoff (%g)", o->low_cutoff,
              o->high_cutoff);
    CiaoT *t = xcalloc(1, sizeof *t);
    ciao_init(&t->d, o->vta_sets, o->vta_ways);
    t->high = o->high_cutoff;
    t->low = o->low_cutoff;
    t->high_epoch = o->high_epoch;
    t->low_epoch = o->low_epoch;
    ciao_register_stats(&t->d, ctx);
#define C(f, n, h) policy_stat_counter(ctx, &t->f, n, h)
    C(stalls, "stalls", "warps stalled: the most interfering warp of a warp whose IRS exceeded the high cutoff");
    C(reactivations, "reactivations", "stalled warps reactivated at a low-cutoff epoch (the warp they interfered "
                                      "with finished or fell to the low cutoff)");
    C(forced, "forced_reactivations", "stalled warps reactivated because no active warp was left");
    C(held, "held", "ready warps held back because they were stalled (per warp per cycle)");
    C(barrier_passes, "barrier_passes", "instructions of stalled warps let through because a warp of their CTA "
                                        "waited at a barrier");
    C(high_epochs, "high_epochs", "high-cutoff epochs ended");
    C(low_epochs, "low_epochs", "low-cutoff epochs ended");
    C(irs_over_high, "irs_over_high", "warps found above the high cutoff at a high-cutoff epoch");
    C(stalled_max, "stalled_max", "the most warps stalled at once");
#undef C
    return t;
}

static void ciao_t_destroy_shared(void *shared)
{
    CiaoT *t = shared;
    ciao_free(&t->d);
    free(t);
}

static void *ciao_t_create(const PolicyCtx *ctx)
{
    CiaoTSched *s = xcalloc(1, sizeof *s);
    s->t = ctx->shared;
    s->index = ctx->index;
    s->last = -1;
    return s;
}

static void ciao_t_destroy(void *self) { free(self); }

/* Whether a warp of the CTA in cta_slot waits at a barrier. */
static bool cta_at_barrier(const SmView *sm, uint32_t cta_slot)
{
    for (uint64_t m = sm->barrier_mask; m; m &= m - 1)
        if (sm->slot[__builtin_ctzll(m)].cta_slot == cta_slot)
            return true;
    return false;
}

static bool ciao_t_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    CiaoT *t = ((CiaoTSched *)self)->t;
    if (slot >= CIAO_SLOTS || !(t->d.stalled >> slot & 1))
        return true;
    if (v->sm->barrier_mask && cta_at_barrier(v->sm, w->cta_slot))
        return true; /* counted as a barrier pass if it issues (on_issue) */
    t->held++;
    return false;
}

static int ciao_t_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const CiaoTSched *)self)->last, v); }

static void ciao_t_on_issue(void *self, uint32_t slot, const WarpSchedView *v)
{
    CiaoTSched *s = self;
    CiaoT *t = s->t;
    s->last = (int)slot;
    if (slot < CIAO_SLOTS && (t->d.stalled >> slot & 1))
        t->barrier_passes++;
    ciao_on_issue(&t->d);
    if (t->d.insts % t->low_epoch == 0)
        low_epoch(t);
    if (t->d.insts % t->high_epoch == 0)
        high_epoch(t, v->age);
}

static void ciao_t_on_l1d_evict(void *self, const WarpL1dEvent *e)
{
    ciao_on_evict(&((CiaoTSched *)self)->t->d, e->slot, e->evictor, e->line_addr);
}

static void ciao_t_on_l1d_miss(void *self, const WarpL1dEvent *e)
{
    uint32_t j;
    ciao_on_miss(&((CiaoTSched *)self)->t->d, e->slot, e->line_addr, &j);
}

static void ciao_t_on_warp_exit(void *self, uint32_t slot)
{
    CiaoTSched *s = self;
    CiaoT *t = s->t;
    if (s->last == (int)slot)
        s->last = -1;
    if (slot >= CIAO_SLOTS || !(t->d.live >> slot & 1))
        return;
    if (t->d.stalled >> slot & 1)
        unlist(t, slot);
    ciao_warp_leave(&t->d, slot);
    if (t->d.live && !(t->d.live & ~t->d.stalled)) { /* nobody left to issue: every stalled warp returns */
        t->forced += t->n;
        while (t->n)
            unlist(t, t->list[t->n - 1]);
    }
}

/* Every scheduler of the SM hears a launch; the first one enters its warps. */
static void ciao_t_on_cta_launch(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps)
{
    CiaoTSched *s = self;
    CiaoT *t = s->t;
    if (s->index != 0)
        return;
    for (uint32_t i = first_slot; i < first_slot + n_warps && i < CIAO_SLOTS; i++) {
        if (t->d.stalled >> i & 1)
            unlist(t, i);
        ciao_warp_arrive(&t->d, i);
    }
}

const Ciao *ciao_t_state(const void *shared) { return &((const CiaoT *)shared)->d; }

uint32_t ciao_t_stalled_list(const void *shared, uint8_t *out)
{
    const CiaoT *t = shared;
    for (uint32_t i = 0; i < t->n; i++)
        out[i] = t->list[t->n - 1 - i];
    return t->n;
}

const WarpSchedOps warp_ciao_t_ops = {
    .meta = {.name = "ciao-t",
             .help = "CIAO-T (Zhang et al., IPDPS 2018): GTO; a victim tag array that records who evicted whose "
                     "line finds each warp's most interfering warp, which is stalled while the interfered warp's "
                     "IRS is above the cutoffs",
             POLICY_OPTS(ciao_t_opts, CiaoTOpts)},
    .create_shared = ciao_t_create_shared,
    .destroy_shared = ciao_t_destroy_shared,
    .create = ciao_t_create,
    .destroy = ciao_t_destroy,
    .may_issue = ciao_t_may_issue,
    .pick = ciao_t_pick,
    .on_issue = ciao_t_on_issue,
    .on_warp_exit = ciao_t_on_warp_exit,
    .on_l1d_evict = ciao_t_on_l1d_evict,
    .on_l1d_miss = ciao_t_on_l1d_miss,
    .on_cta_launch = ciao_t_on_cta_launch,
};
