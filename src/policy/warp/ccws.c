/* ccws.c: Cache-Conscious Wavefront Scheduling (Rogers, O'Connor and Aamodt, MICRO 2012), the
 * CCWS baseline of OAWS (Wang's thesis 5.5.1, Table 5.3), `sm.sched = ccws`.
 *
 * Lost intra-warp locality is detected with a victim tag array (VTA) per warp. When the L1D
 * replaces a line, its tag enters the VTA of the warp whose miss brought the line in
 * (WarpSchedOps.on_l1d_evict). When a warp's global or local load misses in the L1D and the
 * line's tag is in that warp's own VTA (on_l1d_miss), the warp has lost locality: a VTA hit.
 * Each warp has a lost-locality score (LLS) that starts at the base score. A VTA hit of warp w
 * raises LLS(w) by the lost-locality detected score, and a score is capped at it (the paper's
 * eq. 1):
 *
 *     LLDS = VTAHitsTotal / InstIssuedTotal * K_THROTTLE * CumLLSCutoff
 *     CumLLSCutoff = NumActiveWarps * BaseScore
 *
 * Scores fall by 1 a cycle down to the base score. The warps are sorted by score, highest
 * first, and admitted in that order until the running sum of their scores reaches the cutoff.
 * A warp that is not admitted may not issue a global or local load; its other instructions
 * issue. Among the warps the SM may issue, the order is greedy-then-oldest (warp_sched_gto).
 * Table 5.3: K_THROTTLE 8, VTA 16 entries a warp and 8-way, base score 100 (the defaults).
 *
 * From the authors' public GPGPU-Sim configuration and simulator, where the paper's text is
 * silent:
 * - The raise and the cap are the same LLDS, with the same K for both and nothing added. So a
 *   VTA hit sets LLS(w) to LLDS, and no score ever exceeds the LLDS of the moment: when
 *   instructions issue without VTA hits, the cap falls and can pull scores down faster than 1
 *   a cycle.
 * - VTAHitsTotal and InstIssuedTotal are those of the SM's live warps: a warp's counts leave
 *   the totals when it exits. NumActiveWarps is the SM's live warps. Instructions count when
 *   they issue, all but barriers (the authors' also leave out memory barriers, which the front
 *   ends here issue as no-ops that cannot be told apart).
 * - The warp whose score brings the running sum to the cutoff or beyond is admitted, so the
 *   highest-scored warp always is. When every score is at the base, every warp is admitted.
 *
 * Choices made here:
 * - No per-cycle work. A warp's score is kept as its value at a cycle and read as
 *   max(base, min(score - elapsed cycles, LLDS now)). The cap only rises at a VTA hit, or when
 *   warps arrive or leave; every raised score is brought up to date at those events. Between
 *   them, reading the cap now gives the same value as capping every cycle.
 * - Admission is decided when a warp asks to issue a load, from the scores as they are then.
 *   It is kept for the rest of the cycle, unless a VTA hit or a warp's arrival or exit changes
 *   the scores. (The authors' simulator sorts every cycle, after issue.) Ties go to the older
 *   warp; the authors' go to the lower slot.
 * - Warps waiting at a barrier take no place, and their scores do not count. Otherwise a
 *   high-scored waiter could hold the place of the warps its barrier waits for. Those warps
 *   would still issue everything but loads, and the scores decay, so this would not deadlock.
 *   It would stall, though. Waiters still count in NumActiveWarps.
 * - The VTA is set-associative, indexed by the line address modulo its sets, with LRU
 *   replacement. A tag that is already there when its line is evicted again moves to MRU. The
 *   authors' configuration gives its victim tag arrays FIFO replacement, which differs only in
 *   that move. A VTA hit removes the entry: the line comes back into the L1D and its tag returns
 *   when it is evicted again. The authors' simulator keeps the entry.
 * - What probes the VTA: the L1D's new misses (the L1D's `miss`), not merges into a miss in
 *   flight, as the authors' simulator probes on its MISS status only. What enters: lines the
 *   L1D replaces. A store's write-evict and a flush do not enter it. The authors' simulator
 *   also drops a stored line from every warp's VTA; here a tag stays until it is replaced or
 *   hit. A warp's VTA is emptied when it exits. The lines it inserted belong to nobody (the SM
 *   tells owners by launch number, not by slot).
 * - LLDS is computed in integers, rounded down.
 *
 * Options (sm.sched.ccws.*): base_score (100), k_throttle (8), vta_entries (16 a warp),
 * vta_ways (8; must divide vta_entries). Stats (sm[i].sched.ccws.*): vta_inserts,
 * vta_replaced, vta_probes, vta_hits, llds_sum, held_loads, decisions, admitted_sum,
 * throttled (see ccws_create_shared). */
#include "policy/warp/ccws.h"

#include "policy/policy.h"

#include "base/base.h"
#include "front/winst.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CCWS_SLOTS 64 /* an SM's warp slots at most (sm.max_warps <= 64) */

typedef struct CcwsOpts {
    uint32_t base_score, k_throttle, vta_entries, vta_ways;
} CcwsOpts;

static const OptDesc ccws_opts[] = {
    {"base_score", OPT_U32, offsetof(CcwsOpts, base_score), "100", 1, 100000, NULL, "points",
     "a warp's lost-locality score with no locality lost; the cutoff is the live warps times it"},
    {"k_throttle", OPT_U32, offsetof(CcwsOpts, k_throttle), "8", 0, 4096, NULL, "",
     "K_THROTTLE of eq. 1: a VTA hit sets the warp's score to VTA hits / instructions * K * cutoff; 0: never throttle"},
    {"vta_entries", OPT_U32, offsetof(CcwsOpts, vta_entries), "16", 1, 256, NULL, "entries",
     "victim tag array entries of each warp"},
    {"vta_ways", OPT_U32, offsetof(CcwsOpts, vta_ways), "8", 1, 256, NULL, "ways",
     "victim tag array associativity (divides vta_entries)"},
};

typedef struct CcwsWarp {
    uint64_t score; /* LLS at cycle `since`; meaningful while the slot is in Ccws.raised */
    uint64_t since;
    uint64_t hits, insts; /* its VTA hits and instructions, part of the totals while it lives */
} CcwsWarp;

typedef struct Ccws {
    uint64_t base, k;
    uint32_t n_sets, ways;
    uint64_t *vta;     /* [slot][set][way]: line addresses, MRU first */
    uint16_t *vta_n;   /* [slot][set]: valid entries */
    CcwsWarp w[CCWS_SLOTS];
    uint64_t live;     /* slots holding a live warp (on_cta_launch to on_warp_exit) */
    uint64_t raised;   /* live warps whose score was above the base when last brought up to date */
    uint64_t hits, insts; /* VTAHitsTotal, InstIssuedTotal of the live warps */
    uint64_t now;      /* the latest cycle a hook was told */
    uint32_t version;  /* bumped when scores, the live warps or the totals jump */
    /* the admission decided last: at adm_cycle, for candidates adm_cand, at adm_version */
    bool adm_valid;
    uint64_t adm_cycle, adm_cand, adm_mask;
    uint32_t adm_version;
    /* stats */
    uint64_t vta_inserts, vta_replaced, vta_probes, vta_hits, llds_sum;
    uint64_t held, decisions, admitted_sum, throttled;
} Ccws;

/* One scheduler: GTO over the warps the shared state lets through. */
typedef struct CcwsSched {
    Ccws *c;
    uint32_t index;
    int last;
} CcwsSched;

static void tick(Ccws *c, uint64_t cycle) { c->now = MAX(c->now, cycle); }

static uint64_t cutoff(const Ccws *c) { return MAX(1, (uint64_t)popcount_u64(c->live) * c->base); }

/* Eq. 1, rounded down (128-bit: hits * K * cutoff can exceed 64 bits). */
static uint64_t llds(const Ccws *c)
{
    if (!c->hits)
        return 0;
    unsigned __int128 v = (unsigned __int128)c->hits * c->k * cutoff(c) / MAX(1, c->insts);
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* LLS of slot s at cycle t under cap: its score less the cycles since, at most the cap, at
 * least the base. */
static uint64_t score_at(const Ccws *c, uint32_t s, uint64_t t, uint64_t cap)
{
    if (!(c->raised >> s & 1))
        return c->base;
    const CcwsWarp *w = &c->w[s];
    uint64_t d = t > w->since ? t - w->since : 0;
    uint64_t v = w->score > d ? w->score - d : 0;
    return MAX(MIN(v, cap), c->base);
}

/* Bring every raised score up to cycle t before the cap may rise (a VTA hit, warps arriving or
 * leaving), so that the lazy reading stays equal to capping every cycle. */
static void settle(Ccws *c, uint64_t t)
{
    uint64_t cap = llds(c);
    for (uint64_t m = c->raised; m; m &= m - 1) {
        uint32_t s = (uint32_t)__builtin_ctzll(m);
        uint64_t v = score_at(c, s, t, cap);
        if (v <= c->base) {
            c->raised &= ~(1ull << s);
        } else {
            c->w[s].score = v;
            c->w[s].since = t;
        }
    }
}

/* ---- the victim tag arrays ------------------------------------------------------------- */

static uint64_t *vta_set(Ccws *c, uint32_t slot, uint64_t line, uint16_t **n)
{
    size_t set = (size_t)slot * c->n_sets + (size_t)(line % c->n_sets);
    *n = &c->vta_n[set];
    return &c->vta[set * c->ways];
}

/* An evicted line's tag enters at MRU (an entry already there moves to MRU); a full set loses
 * its LRU entry. */
static void vta_insert(Ccws *c, uint32_t slot, uint64_t line)
{
    uint16_t *n;
    uint64_t *e = vta_set(c, slot, line, &n);
    uint32_t i = 0;
    while (i < *n && e[i] != line)
        i++;
    if (i == *n && *n < c->ways) {
        ++*n;
    } else if (i == *n) { /* full: the LRU entry goes */
        c->vta_replaced++;
        i = c->ways - 1;
    }
    memmove(&e[1], &e[0], i * sizeof *e);
    e[0] = line;
}

/* Whether the line's tag is in the slot's VTA; a hit takes the entry out. */
static bool vta_take(Ccws *c, uint32_t slot, uint64_t line)
{
    uint16_t *n;
    uint64_t *e = vta_set(c, slot, line, &n);
    for (uint32_t i = 0; i < *n; i++)
        if (e[i] == line) {
            memmove(&e[i], &e[i + 1], (*n - i - 1) * sizeof *e);
            --*n;
            return true;
        }
    return false;
}

static void vta_clear(Ccws *c, uint32_t slot) { memset(&c->vta_n[(size_t)slot * c->n_sets], 0, c->n_sets * sizeof *c->vta_n); }

/* ---- admission --------------------------------------------------------------------------- */

/* The warps allowed to issue loads at the view's cycle (see the header). */
static uint64_t admitted(Ccws *c, const WarpSchedView *v)
{
    uint64_t cand = c->live & ~v->sm->barrier_mask;
    if (c->adm_valid && c->adm_cycle == v->cycle && c->adm_version == c->version && c->adm_cand == cand)
        return c->adm_mask;
    uint64_t mask = cand;
    if (c->raised & cand) {
        uint64_t cap = llds(c), key[CCWS_SLOTS], age[CCWS_SLOTS];
        uint32_t slot[CCWS_SLOTS], n = 0;
        for (uint64_t m = cand; m; m &= m - 1) { /* insertion sort: score down, then age up */
            uint32_t s = (uint32_t)__builtin_ctzll(m);
            uint64_t k = score_at(c, s, v->cycle, cap), a = v->age[s];
            if (k <= c->base)
                c->raised &= ~(1ull << s); /* decayed for good: only a VTA hit raises it again */
            uint32_t i = n++;
            for (; i > 0 && (key[i - 1] < k || (key[i - 1] == k && age[i - 1] > a)); i--) {
                key[i] = key[i - 1];
                age[i] = age[i - 1];
                slot[i] = slot[i - 1];
            }
            key[i] = k, age[i] = a, slot[i] = s;
        }
        uint64_t sum = 0, limit = cutoff(c);
        mask = 0;
        for (uint32_t i = 0; i < n && sum < limit; i++) {
            sum += key[i];
            mask |= 1ull << slot[i];
        }
    }
    c->decisions++;
    c->admitted_sum += popcount_u64(mask);
    c->throttled += mask != cand;
    c->adm_valid = true;
    c->adm_cycle = v->cycle;
    c->adm_cand = cand;
    c->adm_version = c->version;
    c->adm_mask = mask;
    return mask;
}

/* ---- hooks ------------------------------------------------------------------------------- */

static void *ccws_create_shared(const PolicyCtx *ctx)
{
    const CcwsOpts *o = ctx->opts;
    if (o->vta_entries % o->vta_ways)
        fatal("sm.sched.ccws.vta_ways (%u) must divide sm.sched.ccws.vta_entries (%u)", o->vta_ways, o->vta_entries);
    Ccws *c = xcalloc(1, sizeof *c);
    c->base = o->base_score;
    c->k = o->k_throttle;
    c->ways = o->vta_ways;
    c->n_sets = o->vta_entries / o->vta_ways;
    c->vta = xcalloc((size_t)CCWS_SLOTS * o->vta_entries, sizeof *c->vta);
    c->vta_n = xcalloc((size_t)CCWS_SLOTS * c->n_sets, sizeof *c->vta_n);
#define C(f, n, h) policy_stat_counter(ctx, &c->f, n, h)
    C(vta_inserts, "vta_inserts", "lines the L1D replaced, entered into the VTA of the live warp that brought them in");
    C(vta_replaced, "vta_replaced", "VTA entries pushed out (LRU) by a newer tag");
    C(vta_probes, "vta_probes", "L1D misses of global/local loads looked up in the missing warp's VTA");
    C(vta_hits, "vta_hits", "lost-locality events: a load missed on a line its own warp had and lost (VTA hit)");
    C(llds_sum, "llds_sum", "LLDS (eq. 1) summed over the VTA hits (mean LLDS = llds_sum / vta_hits)");
    C(held, "held_loads", "ready warps whose global/local load was held back, not admitted (per warp per cycle)");
    C(decisions, "decisions", "admissions decided: when a warp asked to issue a load, at most once a cycle "
                              "unless a VTA hit or a warp's arrival or exit changed the scores");
    C(admitted_sum, "admitted_sum", "warps admitted summed over the decisions (mean = admitted_sum / decisions)");
    C(throttled, "throttled", "decisions that admitted fewer than the live warps not waiting at a barrier");
#undef C
    return c;
}

static void ccws_destroy_shared(void *shared)
{
    Ccws *c = shared;
    free(c->vta);
    free(c->vta_n);
    free(c);
}

static void *ccws_create(const PolicyCtx *ctx)
{
    CcwsSched *s = xcalloc(1, sizeof *s);
    s->c = ctx->shared;
    s->index = ctx->index;
    s->last = -1;
    return s;
}

static void ccws_destroy(void *self) { free(self); }

static bool ccws_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v)
{
    Ccws *c = ((CcwsSched *)self)->c;
    tick(c, v->cycle);
    if (!w->next_global_load || slot >= CCWS_SLOTS || !(c->live >> slot & 1))
        return true;
    bool ok = admitted(c, v) >> slot & 1;
    c->held += !ok;
    return ok;
}

/* The candidates of the last admission that may issue no load, SM-wide (none before the first). */
static uint64_t ccws_throttled(const void *self)
{
    const Ccws *c = ((const CcwsSched *)self)->c;
    return c->adm_valid ? c->adm_cand & ~c->adm_mask : 0;
}

static int ccws_pick(void *self, const WarpSchedView *v) { return warp_sched_gto(((const CcwsSched *)self)->last, v); }

static void ccws_on_issue(void *self, uint32_t slot, const WarpSchedView *v)
{
    CcwsSched *s = self;
    Ccws *c = s->c;
    s->last = (int)slot;
    tick(c, v->cycle);
    if (slot < CCWS_SLOTS && (c->live >> slot & 1) && v->sm->slot[slot].next_op != WOP_BARRIER) {
        c->w[slot].insts++;
        c->insts++;
    }
}

static void ccws_on_l1d_evict(void *self, const WarpL1dEvent *e)
{
    Ccws *c = ((CcwsSched *)self)->c;
    tick(c, e->cycle);
    if (e->slot < CCWS_SLOTS && (c->live >> e->slot & 1)) {
        vta_insert(c, e->slot, e->line_addr);
        c->vta_inserts++;
    }
}

static void ccws_on_l1d_miss(void *self, const WarpL1dEvent *e)
{
    Ccws *c = ((CcwsSched *)self)->c;
    tick(c, e->cycle);
    if (e->slot >= CCWS_SLOTS || !(c->live >> e->slot & 1))
        return;
    c->vta_probes++;
    if (!vta_take(c, e->slot, e->line_addr))
        return;
    settle(c, c->now);
    CcwsWarp *w = &c->w[e->slot];
    w->hits++;
    c->hits++;
    c->vta_hits++;
    uint64_t d = llds(c), cur = score_at(c, e->slot, c->now, UINT64_MAX);
    c->llds_sum += d;
    /* raised by LLDS and capped at LLDS (equal in the authors' configuration): LLDS, or the base */
    uint64_t v = MAX(MIN(cur + d, d), c->base);
    if (v > c->base) {
        c->raised |= 1ull << e->slot;
        w->score = v;
        w->since = c->now;
    } else {
        c->raised &= ~(1ull << e->slot);
    }
    c->version++;
}

static void ccws_on_warp_exit(void *self, uint32_t slot)
{
    CcwsSched *s = self;
    Ccws *c = s->c;
    if (s->last == (int)slot)
        s->last = -1;
    if (slot >= CCWS_SLOTS || !(c->live >> slot & 1))
        return;
    settle(c, c->now); /* the cap may rise: the totals lose this warp's counts */
    CcwsWarp *w = &c->w[slot];
    c->hits -= w->hits;
    c->insts -= w->insts;
    *w = (CcwsWarp){0};
    vta_clear(c, slot);
    c->live &= ~(1ull << slot);
    c->raised &= ~(1ull << slot);
    c->version++;
}

/* Every scheduler of the SM hears a launch; the first one enters its warps. */
static void ccws_on_cta_launch(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps)
{
    CcwsSched *s = self;
    Ccws *c = s->c;
    if (s->index != 0)
        return;
    settle(c, c->now); /* the cap rises with the cutoff */
    for (uint32_t i = first_slot; i < first_slot + n_warps && i < CCWS_SLOTS; i++) {
        c->hits -= c->w[i].hits; /* nothing, unless the slot's last warp was never told to exit */
        c->insts -= c->w[i].insts;
        c->w[i] = (CcwsWarp){0};
        vta_clear(c, i);
        c->raised &= ~(1ull << i);
        c->live |= 1ull << i;
    }
    c->version++;
}

uint64_t ccws_lls(const void *shared, uint32_t slot, uint64_t cycle)
{
    const Ccws *c = shared;
    return slot < CCWS_SLOTS ? score_at(c, slot, MAX(cycle, c->now), llds(c)) : c->base;
}

uint64_t ccws_llds(const void *shared) { return llds(shared); }

const WarpSchedOps warp_ccws_ops = {
    .meta = {.name = "ccws",
             .help = "cache-conscious wavefront scheduling (Rogers et al., MICRO 2012): GTO; warps that lose "
                     "intra-warp locality (victim tag array hits) raise their score, and only the top-scored warps "
                     "up to the cutoff issue loads",
             POLICY_OPTS(ccws_opts, CcwsOpts)},
    .create_shared = ccws_create_shared,
    .destroy_shared = ccws_destroy_shared,
    .create = ccws_create,
    .destroy = ccws_destroy,
    .may_issue = ccws_may_issue,
    .throttled = ccws_throttled,
    .pick = ccws_pick,
    .on_issue = ccws_on_issue,
    .on_warp_exit = ccws_on_warp_exit,
    .on_l1d_evict = ccws_on_l1d_evict,
    .on_l1d_miss = ccws_on_l1d_miss,
    .on_cta_launch = ccws_on_cta_launch,
};
