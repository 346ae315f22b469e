/* ciao_detect.c: CIAO's cache interference detector (Zhang et al., IPDPS 2018: II-C, III-A,
 * IV-A, Figs. 3b, 4c and 6; Table I), shared by the CIAO schedulers (ciao.h; ciao_t.c).
 *
 * Victim tag array (II-C, Table I: 8 tags per set, 48 sets, FIFO; V-F: 8 entries a warp).
 * When the L1D replaces a valid line, its tag and the WID of the warp whose access EVICTED it
 * enter the VTA set indexed by the WID of the warp that BROUGHT the line in (the WID kept in
 * the cache tag). When a warp i misses in the L1D and finds the line in its own set, it has
 * lost a line it would have hit: a VTA hit of i (VTAHit_i += 1). The evicting warp j of the
 * entry interfered with i (III-A: "the interfering WID is provided by a VTA entry field that
 * tracks which warp incurred the last eviction"): the interference list entry of i hears j.
 *
 * Interference list (Fig. 4c): per warp, an interfering WID and a 2-bit saturating counter,
 * updated by ciao_ilist_update.
 *
 * IRS (eq. 1): IRS_i = VTAHit_i / (Inst_total / N_active), VTA hits per instruction of warp i
 * with the SM's instruction count shared among its active warps.
 *
 * Choices where the paper is silent:
 * - The set of a warp is its slot modulo the sets (48 sets: one per slot of a 48-warp SM). An
 *   entry keeps its owner's slot, so warps that share a set (more slots than sets) never hit
 *   on each other's entries; they do push each other's out.
 * - FIFO: a full set drops its oldest entry. A tag already in the owner's set (possible only
 *   when the owner's re-fetch was not told as a new miss: a merge, a miss-path hit) keeps its
 *   place and takes the new evictor. A VTA hit removes the entry (the line is back in the
 *   L1D; its tag returns when it is evicted again), as ccws.c does.
 * - A warp that evicted its own line (j == i) is a VTA hit of i (it counts in IRS: the paper
 *   counts every VTA hit), but not interference: the list names other warps only.
 * - An evictor that has exited (or whose slot now holds another warp: the entry keeps its
 *   launch number) is no interferer any more: the hit counts, the list is not told.
 * - Inst_total counts every instruction the SM issues (barriers included). A warp's counters
 *   start at its arrival (V-F resets them per kernel; warps arrive all through a kernel here),
 *   so its IRS divides by the SM's instructions since it arrived, not since the kernel began;
 *   N_active is the SM's live warps, stalled ones included.
 * - A warp that leaves takes its VTA entries with it, and the interference-list entries that
 *   name it empty (the slot's next warp is another warp).
 *
 * Stats (<prefix>.*): vta_inserts, vta_replaced, vta_probes, vta_hits, self_hits, interference. */
#include "policy/warp/ciao.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void ciao_init(Ciao *c, uint32_t n_sets, uint32_t ways)
{
    memset(c, 0, sizeof *c);
    c->n_sets = MAX(1, n_sets);
    c->ways = MAX(1, ways);
    c->vta = xcalloc((size_t)c->n_sets * c->ways, sizeof *c->vta);
    c->vta_n = xcalloc(c->n_sets, sizeof *c->vta_n);
    for (uint32_t s = 0; s < CIAO_SLOTS; s++) {
        c->ilist[s] = (CiaoIlist){.wid = CIAO_NONE};
        c->pair[s] = (CiaoPair){.isolated_by = CIAO_NONE, .stalled_by = CIAO_NONE};
    }
}

void ciao_free(Ciao *c)
{
    free(c->vta);
    free(c->vta_n);
    c->vta = NULL;
    c->vta_n = NULL;
}

void ciao_register_stats(Ciao *c, const PolicyCtx *ctx)
{
#define C(f, h) policy_stat_counter(ctx, &c->f, #f, h)
    C(vta_inserts, "lines the L1D replaced, entered into the VTA set of the live warp that brought them in, "
                   "with the warp that evicted them");
    C(vta_replaced, "VTA entries pushed out (FIFO) by a newer tag");
    C(vta_probes, "L1D misses of global/local loads looked up in the missing warp's VTA entries");
    C(vta_hits, "VTA hits: a warp missed on a line it had brought in and lost (VTAHit of eq. 1)");
    C(self_hits, "of the VTA hits, lines the warp had evicted itself (no interference)");
    C(interference, "of the VTA hits, lines a live other warp had evicted: interference events told to the "
                    "interference list");
#undef C
}

static CiaoVtaEntry *vta_set(Ciao *c, uint32_t owner, uint8_t **n)
{
    uint32_t set = owner % c->n_sets;
    *n = &c->vta_n[set];
    return &c->vta[(size_t)set * c->ways];
}

static void vta_remove(CiaoVtaEntry *e, uint8_t *n, uint32_t i)
{
    memmove(&e[i], &e[i + 1], (*n - i - 1) * sizeof *e);
    --*n;
}

void ciao_warp_arrive(Ciao *c, uint32_t slot)
{
    if (slot >= CIAO_SLOTS)
        return;
    if (c->live >> slot & 1)
        ciao_warp_leave(c, slot); /* never told that the slot's last warp left */
    c->live |= 1ull << slot;
    c->gen[slot]++;
    c->hits[slot] = 0;
    c->inst_mark[slot] = c->insts;
    c->ilist[slot] = (CiaoIlist){.wid = CIAO_NONE};
    c->pair[slot] = (CiaoPair){.isolated_by = CIAO_NONE, .stalled_by = CIAO_NONE};
    c->stalled &= ~(1ull << slot);
    c->isolated &= ~(1ull << slot);
}

void ciao_warp_leave(Ciao *c, uint32_t slot)
{
    if (slot >= CIAO_SLOTS || !(c->live >> slot & 1))
        return;
    uint8_t *n;
    CiaoVtaEntry *e = vta_set(c, slot, &n);
    for (uint32_t i = *n; i-- > 0;)
        if (e[i].owner == slot)
            vta_remove(e, n, i);
    for (uint32_t s = 0; s < CIAO_SLOTS; s++) /* the slot's next warp is another warp */
        if (c->ilist[s].wid == slot)
            c->ilist[s] = (CiaoIlist){.wid = CIAO_NONE};
    c->live &= ~(1ull << slot);
    c->stalled &= ~(1ull << slot);
    c->isolated &= ~(1ull << slot);
}

void ciao_on_evict(Ciao *c, uint32_t owner, uint32_t evictor, uint64_t line)
{
    if (owner >= CIAO_SLOTS || !(c->live >> owner & 1))
        return;
    bool known = evictor < CIAO_SLOTS && (c->live >> evictor & 1);
    CiaoVtaEntry x = {.line = line,
                      .owner = (uint8_t)owner,
                      .evictor = known ? (uint8_t)evictor : CIAO_NONE,
                      .evictor_gen = known ? c->gen[evictor] : 0};
    uint8_t *n;
    CiaoVtaEntry *e = vta_set(c, owner, &n);
    c->vta_inserts++;
    for (uint32_t i = 0; i < *n; i++)
        if (e[i].owner == owner && e[i].line == line) {
            e[i] = x; /* keeps its place in the FIFO, names the latest evictor */
            return;
        }
    if (*n == c->ways) { /* full: the oldest goes */
        vta_remove(e, n, 0);
        c->vta_replaced++;
    }
    e[(*n)++] = x;
}

bool ciao_on_miss(Ciao *c, uint32_t slot, uint64_t line, uint32_t *interferer)
{
    *interferer = CIAO_NONE;
    if (slot >= CIAO_SLOTS || !(c->live >> slot & 1))
        return false;
    c->vta_probes++;
    uint8_t *n;
    CiaoVtaEntry *e = vta_set(c, slot, &n);
    uint32_t i = 0;
    while (i < *n && !(e[i].owner == slot && e[i].line == line))
        i++;
    if (i == *n)
        return false;
    CiaoVtaEntry hit = e[i];
    vta_remove(e, n, i);
    c->hits[slot]++;
    c->vta_hits++;
    if (hit.evictor == slot) {
        c->self_hits++;
    } else if (hit.evictor != CIAO_NONE && ciao_same_warp(c, hit.evictor, hit.evictor_gen)) {
        c->interference++;
        ciao_ilist_update(&c->ilist[slot], hit.evictor);
        *interferer = hit.evictor;
    }
    return true;
}

void ciao_ilist_update(CiaoIlist *e, uint8_t j)
{
    if (e->wid == j) {
        e->ctr = (uint8_t)MIN(e->ctr + 1, 3);
    } else if (e->ctr == 0) {
        e->wid = j; /* the first interferer, or the old one has lost its counter */
    } else {
        e->ctr--;
    }
}

int ciao_interferer(const Ciao *c, uint32_t slot)
{
    if (slot >= CIAO_SLOTS)
        return -1;
    uint8_t j = c->ilist[slot].wid;
    return j != CIAO_NONE && j != slot && (c->live >> j & 1) ? (int)j : -1;
}

double ciao_irs(const Ciao *c, uint32_t slot)
{
    if (slot >= CIAO_SLOTS || !(c->live >> slot & 1))
        return 0;
    uint64_t insts = c->insts - c->inst_mark[slot];
    if (!insts)
        return 0;
    return (double)c->hits[slot] * (double)popcount_u64(c->live) / (double)insts;
}
