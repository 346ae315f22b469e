/* dacache.c: DaCache, divergence-aware L1D management (Wang, thesis 2015, ch. 4).
 *
 * A recency stack per set (stack.h; position 0 is MRU, assoc-1 LRU) managed by the issuing
 * warp's GTO priority and the load's divergence:
 *
 * - Gauged insertion (4.2.2, eq. 4.1): a divergent load's line goes to position
 *   min(rank * N_sched * W / N_set, assoc-1), rank being the warp's GTO priority in its
 *   scheduler (0: oldest) and W the warp width (the text's "SIMD width"; its example, 2
 *   schedulers, 32 sets, ranks 0 and 2 -> ways 0 and 4, needs W = 32). Loads of a warp outside
 *   the locality region (below) go to LRU; divergent loads of at most `mru_requests` (5) line
 *   accesses to MRU. Coherent loads (at most 2 accesses, thesis 1.1.2) go to MRU, or to LRU
 *   once the Coherent Load Profiler has found that their pc shows no locality.
 * - Incremental promotion: a hit moves its line up `promote` (4) positions; 0 moves it to MRU.
 * - Partitioning (4.2.3): FCW warps per SM are "locality warps", those with
 *   rank * N_sched < FCW (FCW / N_sched per scheduler). Their lines land in positions 0..p,
 *   p + 1 = FCW * W / N_set (the ways FCW warps' accesses take per set at W / N_set accesses
 *   per set each; with the thesis' machine, W / N_set = 1, this is its p = 8F - 1). The other
 *   positions are the thrashing region.
 * - Constrained replacement: `uncon` replaces the replaceable line closest to LRU anywhere;
 *   `stall` and `bypass` only inside the thrashing region, and when none is replaceable there
 *   the miss waits (REPL_STALL) or bypasses the L1D (REPL_BYPASS; the L1D then fetches only the
 *   access's 32-byte segments and fills nothing).
 * - Dynamic partitioning (4.2.4, Fig. 4.3; the flow is policy/fcw.h, shared with OAWS): on
 *   every divergent load serviced, CNT counts fully cached loads up (FCW + 1 at Cmax, CNT back
 *   to Cmax / 2) and partially cached ones down (by FCW - g for a locality warp, g = rank *
 *   N_sched its place in SM-wide priority order, else by 1; FCW - 1 at 0, CNT back to
 *   Cmax / 2), FCW staying within [N_sched, W_max].
 *
 * Choices the thesis leaves open, made here:
 * - p + 1 (the locality ways) is capped at assoc - 1 so the LRU position is always in the
 *   thrashing region: otherwise FCW >= 8 would forbid every replacement.
 * - Fig. 4.3's "priority lower than FCW" step is read as: a partially cached load of a warp
 *   outside the locality region takes CNT down by 1, one inside by FCW - g (at least 1), so
 *   that misses of the highest-priority warps shrink the region fastest, as the text intends.
 *   When CNT reaches 0 it restarts from Cmax / 2, as it does after an increase.
 * - The profiler samples each scheduler's oldest warp (rank 0 when it issued). A line such a
 *   warp's coherent load brought in remembers its pc; if the same warp hits it again, or misses
 *   on it after it was evicted and is still in the 16-entry victim cache, the pc has locality;
 *   if it leaves the victim cache unreferenced, the pc has none. The first verdict is kept in
 *   the 32-entry CLP (oldest entry replaced first) and that pc is no longer sampled. */
#include "policy/fcw.h"
#include "policy/policy.h"
#include "policy/repl/stack.h"

#include "base/base.h"
#include "front/winst.h"

#include <stddef.h>
#include <stdlib.h>

enum { DAC_UNCON, DAC_STALL, DAC_BYPASS };

typedef struct DacOpts {
    uint32_t replace, dynamic, fcw, promote, cmax, wmax, mru_requests, vc_entries, clp_entries;
} DacOpts;

static const OptDesc dac_opts[] = {
    {"replace", OPT_ENUM, offsetof(DacOpts, replace), "bypass", 0, 0, "uncon|stall|bypass", "",
     "replacement: anywhere (uncon), or only in the thrashing region, waiting (stall) or bypassing the L1D (bypass) when none there is replaceable"},
    {"dynamic", OPT_BOOL, offsetof(DacOpts, dynamic), "1", 0, 1, NULL, "",
     "adjust FCW by fully cached divergent loads (thesis Fig. 4.3); 0: FCW stays `fcw`"},
    {"fcw", OPT_U32, offsetof(DacOpts, fcw), "4", 0, 64, NULL, "warps",
     "locality warps per SM (fully cached warps) at the start; StaticN is N per scheduler"},
    {"promote", OPT_U32, offsetof(DacOpts, promote), "4", 0, 64, NULL, "positions",
     "positions a hit moves its line towards MRU; 0: to MRU"},
    {"cmax", OPT_U32, offsetof(DacOpts, cmax), "256", 2, 65536, NULL, "loads", "saturation value of the CNT counter"},
    {"wmax", OPT_U32, offsetof(DacOpts, wmax), "48", 1, 64, NULL, "warps", "the most FCW may grow to"},
    {"mru_requests", OPT_U32, offsetof(DacOpts, mru_requests), "5", 0, 64, NULL, "accesses",
     "divergent loads of at most this many line accesses insert at MRU"},
    {"vc_entries", OPT_U32, offsetof(DacOpts, vc_entries), "16", 1, 1024, NULL, "entries",
     "victim cache of the coherent-load profiler"},
    {"clp_entries", OPT_U32, offsetof(DacOpts, clp_entries), "32", 1, 1024, NULL, "entries",
     "Coherent Load Profiler entries (pc and locality verdict)"},
};

typedef struct DacVictim { uint64_t line_addr; uint32_t pc, uid; } DacVictim;
typedef struct DacClp { uint32_t pc; bool locality; } DacClp;

/* What the policy remembers of a line: the profiler's sample. */
typedef struct DacLine {
    uint32_t pc, uid;
    bool sampled; /* a sampled warp's coherent load brought it in, its pc still undecided */
    bool reused;  /* and that warp hit it again */
} DacLine;

typedef struct Dac {
    DacOpts o;
    ReplStack st;
    uint32_t assoc, n_sets, n_sched;
    DacLine *line;                   /* n_sets * assoc */
    DacVictim *vc; uint32_t vc_n, vc_next; /* FIFO */
    DacClp *clp; uint32_t clp_n, clp_next; /* oldest replaced first */
    FcwTrain ft; /* FCW, the locality warps per SM */
    uint64_t ins_mru, ins_gauged, ins_lru, ins_coh_lru, bypass, stall;
    uint64_t div_loads, fcw_sum, clp_locality, clp_none, vc_hit;
    uint64_t *ins_pos; /* insertions by position */
} Dac;

static DacClp *clp_find(Dac *d, uint32_t pc)
{
    for (uint32_t i = 0; i < d->clp_n; i++)
        if (d->clp[i].pc == pc)
            return &d->clp[i];
    return NULL;
}

/* The first verdict on a pc's locality is kept. */
static void clp_decide(Dac *d, uint32_t pc, bool locality)
{
    if (clp_find(d, pc))
        return;
    DacClp *e = d->clp_n < d->o.clp_entries ? &d->clp[d->clp_n++] : &d->clp[d->clp_next++ % d->o.clp_entries];
    *e = (DacClp){.pc = pc, .locality = locality};
    if (locality)
        d->clp_locality++;
    else
        d->clp_none++;
}

static void vc_push(Dac *d, uint64_t line_addr, uint32_t pc, uint32_t uid)
{
    if (d->vc_n < d->o.vc_entries) {
        d->vc[d->vc_n++] = (DacVictim){line_addr, pc, uid};
        return;
    }
    DacVictim *e = &d->vc[d->vc_next++ % d->o.vc_entries];
    if (e->line_addr != UINT64_MAX)
        clp_decide(d, e->pc, false); /* left unreferenced: no locality */
    *e = (DacVictim){line_addr, pc, uid};
}

/* A miss of warp uid on line_addr: a re-reference of a sampled victim proves its pc's locality. */
static void vc_probe(Dac *d, uint64_t line_addr, uint32_t uid)
{
    for (uint32_t i = 0; i < d->vc_n; i++)
        if (d->vc[i].line_addr == line_addr && d->vc[i].uid == uid) {
            d->vc_hit++;
            clp_decide(d, d->vc[i].pc, true);
            d->vc[i].line_addr = UINT64_MAX; /* used up */
            return;
        }
}

static bool is_coherent(const ReplAccess *a) { return a->n_lines <= 2; }

/* Ways the locality region holds: FCW warps at W / N_set ways each, at most assoc - 1. */
static uint32_t locality_ways(const Dac *d)
{
    uint64_t ways = ((uint64_t)d->ft.fcw * WARP_SIZE + d->n_sets - 1) / d->n_sets;
    return (uint32_t)MIN(ways, (uint64_t)d->assoc - 1);
}

/* Eq. 4.1 and the rules around it: where a missing line enters the chain. */
static uint32_t insert_pos(Dac *d, const ReplAccess *a)
{
    if (is_coherent(a)) {
        const DacClp *c = clp_find(d, a->pc);
        if (c && !c->locality) {
            d->ins_coh_lru++;
            return d->assoc - 1;
        }
        d->ins_mru++;
        return 0;
    }
    if (a->n_lines <= d->o.mru_requests) {
        d->ins_mru++;
        return 0;
    }
    if ((uint64_t)a->sched_rank * d->n_sched >= d->ft.fcw) { /* a thrashing warp */
        d->ins_lru++;
        return d->assoc - 1;
    }
    d->ins_gauged++;
    uint64_t way = (uint64_t)a->sched_rank * d->n_sched * WARP_SIZE / d->n_sets;
    return (uint32_t)MIN(way, (uint64_t)d->assoc - 1);
}

static void *dac_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    Dac *d = xcalloc(1, sizeof *d);
    d->o = *(const DacOpts *)ctx->opts;
    d->assoc = assoc;
    d->n_sets = n_sets;
    d->n_sched = ctx->cfg->sm.n_sched;
    repl_stack_init(&d->st, n_sets, assoc);
    d->line = xcalloc((size_t)n_sets * assoc, sizeof *d->line);
    d->vc = xcalloc(d->o.vc_entries, sizeof *d->vc);
    d->clp = xcalloc(d->o.clp_entries, sizeof *d->clp);
    uint32_t fcw_min = d->o.dynamic ? MIN(d->n_sched, d->o.wmax) : 0; /* at least one warp per scheduler */
    fcw_train_init(&d->ft, d->o.fcw, d->o.cmax, fcw_min, d->o.wmax);
    d->ins_pos = xcalloc(assoc, sizeof *d->ins_pos);
#define C(f, n, h) policy_stat_counter(ctx, &d->f, n, h)
    C(ins_mru, "insert_mru", "lines inserted at MRU: coherent loads with locality, divergent loads of few accesses");
    C(ins_gauged, "insert_gauged", "lines of locality warps' divergent loads inserted by eq. 4.1");
    C(ins_lru, "insert_lru", "lines of thrashing warps' divergent loads inserted at LRU");
    C(ins_coh_lru, "insert_coherent_lru", "lines of coherent loads without locality (CLP) inserted at LRU");
    C(bypass, "bypass", "misses that bypassed the L1D: no replaceable line in the thrashing region");
    C(stall, "stall", "misses that waited: no replaceable line in the thrashing region");
    C(ft.up, "fcw_up", "times dynamic partitioning grew FCW");
    C(ft.down, "fcw_down", "times dynamic partitioning shrank FCW");
    C(div_loads, "divergent_loads", "divergent loads serviced (what dynamic partitioning counts)");
    C(fcw_sum, "fcw_sum", "sum of FCW over divergent loads serviced (mean FCW = fcw_sum / divergent_loads)");
    C(clp_locality, "clp_locality", "coherent-load pcs found to have locality");
    C(clp_none, "clp_none", "coherent-load pcs found to have none");
    C(vc_hit, "vc_hit", "misses that found their line in the profiler's victim cache");
#undef C
    for (uint32_t w = 0; w < assoc; w++) {
        char name[32];
        snprintf(name, sizeof name, "insert_pos%u", w);
        policy_stat_counter(ctx, &d->ins_pos[w], name, "lines inserted at this LRU-chain position (0: MRU)");
    }
    return d;
}

static void dac_destroy(void *self)
{
    Dac *d = self;
    repl_stack_free(&d->st);
    free(d->line);
    free(d->vc);
    free(d->clp);
    free(d->ins_pos);
    free(d);
}

static int dac_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    Dac *d = self;
    if (d->o.replace == DAC_UNCON)
        return repl_stack_victim(&d->st, a->set, candidates, 0);
    int w = repl_stack_victim(&d->st, a->set, candidates, locality_ways(d));
    if (w >= 0)
        return w;
    if (d->o.replace == DAC_STALL) {
        d->stall++;
        return REPL_STALL;
    }
    d->bypass++;
    return REPL_BYPASS;
}

static void dac_insert(void *self, const ReplAccess *a)
{
    Dac *d = self;
    bool sample = is_coherent(a) && a->sched_rank == 0 && !clp_find(d, a->pc);
    if (sample)
        vc_probe(d, a->line_addr, a->warp_uid);
    uint32_t pos = insert_pos(d, a);
    d->ins_pos[pos]++;
    repl_stack_move(&d->st, a->set, a->way, pos);
    d->line[a->set * d->assoc + a->way] = (DacLine){.pc = a->pc, .uid = a->warp_uid, .sampled = sample};
}

static void dac_hit(void *self, const ReplAccess *a)
{
    Dac *d = self;
    uint32_t pos = repl_stack_pos(&d->st, a->set, a->way);
    uint32_t to = d->o.promote && pos > d->o.promote ? pos - d->o.promote : 0;
    repl_stack_move(&d->st, a->set, a->way, d->o.promote ? to : 0);
    DacLine *l = &d->line[a->set * d->assoc + a->way];
    if (l->sampled && a->hit && a->warp_uid == l->uid) {
        clp_decide(d, l->pc, true);
        l->sampled = false;
    }
}

static void dac_evict(void *self, const ReplEvict *e)
{
    Dac *d = self;
    DacLine *l = &d->line[e->set * d->assoc + e->way];
    if (l->sampled && !clp_find(d, l->pc))
        vc_push(d, e->line_addr, l->pc, l->uid);
    l->sampled = false;
}

/* Fig. 4.3, on every divergent load that has been looked up in full. */
static void dac_load_serviced(void *self, const ReplLoad *l)
{
    Dac *d = self;
    if (l->accesses <= 2)
        return;
    d->div_loads++;
    d->fcw_sum += d->ft.fcw;
    if (d->o.dynamic)
        fcw_train_load(&d->ft, l->misses == 0, (uint64_t)l->sched_rank * d->n_sched);
}

const ReplOps repl_dacache_ops = {
    .meta = {.name = "dacache",
             .help = "DaCache (thesis ch. 4): gauged insertion by GTO priority, coherent loads profiled, incremental "
                     "promotion, constrained replacement, dynamic partitioning",
             POLICY_OPTS(dac_opts, DacOpts)},
    .create = dac_create,
    .destroy = dac_destroy,
    .victim = dac_victim,
    .on_hit = dac_hit,
    .on_insert = dac_insert,
    .on_evict = dac_evict,
    .on_load_serviced = dac_load_serviced,
};
