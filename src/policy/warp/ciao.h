/* ciao.h: CIAO's cache interference detection (Zhang et al., "CIAO: Cache Interference-Aware
 * Throughput-Oriented Architecture and Scheduling for GPUs", IPDPS 2018, sections III-A and
 * IV-A), the warp-list state of Algorithm 1 (V and I flags, pair list), and the schedulers
 * built on them (ciao_sched.c; the ops of ciao-t, ciao-p and ciao-c in ciao_t.c, ciao_p.c,
 * ciao_c.c).
 *
 * A Ciao is the SM-wide state a scheduler's create_shared makes. The detector (ciao_detect.c)
 * is fed by the scheduler hooks: ciao_on_evict (on_l1d_evict), ciao_on_miss (on_l1d_miss),
 * ciao_on_issue (on_issue), ciao_warp_arrive / ciao_warp_leave (CTA launch, warp exit). */
#ifndef WARPSIM_POLICY_CIAO_H
#define WARPSIM_POLICY_CIAO_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/policy.h"

#define CIAO_SLOTS 64     /* an SM's warp slots at most (sm.max_warps <= 64) */
#define CIAO_NONE 0xffu   /* no warp (an empty interference-list entry, pair-list field, evictor) */

/* One VTA entry: the tag of a line the L1D replaced, which warp's miss had brought it in (the
 * set is indexed by that warp; the WID is kept so that warps sharing a set stay apart), and
 * which warp's access replaced it. */
typedef struct CiaoVtaEntry {
    uint64_t line;
    uint32_t evictor_gen; /* the evictor's launch number in its slot (ciao_gen), to tell if it is gone */
    uint8_t owner, evictor; /* slots; evictor CIAO_NONE: it had exited */
} CiaoVtaEntry;

/* An interference-list entry (Fig. 4c): the most recent and most frequent interferer of a warp
 * and a 2-bit saturating counter. */
typedef struct CiaoIlist {
    uint8_t wid; /* CIAO_NONE: nobody has interfered yet */
    uint8_t ctr; /* 0..3 */
} CiaoIlist;

/* A pair-list entry, indexed by the warp that was isolated or stalled: the interfered warp that
 * made CIAO isolate it (first field, CIAO-P) or stall it (second field, CIAO-T), with that
 * warp's launch number, to tell whether it has finished. */
typedef struct CiaoPair {
    uint8_t isolated_by, stalled_by;
    uint32_t isolated_gen, stalled_gen;
} CiaoPair;

typedef struct Ciao {
    /* the victim tag array: n_sets sets of `ways` entries, oldest first (FIFO) */
    uint32_t n_sets, ways;
    CiaoVtaEntry *vta; /* [set][way] */
    uint8_t *vta_n;    /* [set]: valid entries */
    /* per warp slot */
    uint64_t live;                 /* slots holding a live warp */
    uint32_t gen[CIAO_SLOTS];      /* launches into the slot so far (which warp it holds) */
    uint64_t hits[CIAO_SLOTS];     /* VTAHit_i: the warp's VTA hits since its launch */
    uint64_t inst_mark[CIAO_SLOTS]; /* `insts` when the warp arrived */
    CiaoIlist ilist[CIAO_SLOTS];   /* the interference list */
    /* the warp list's flags and the pair list (Algorithm 1) */
    uint64_t stalled;              /* V = 0 */
    uint64_t isolated;             /* I = 1 (CIAO-P and CIAO-C; never set by CIAO-T) */
    CiaoPair pair[CIAO_SLOTS];
    /* per SM */
    uint64_t insts;                /* Inst_total: instructions the SM issued (this run) */
    /* stats */
    uint64_t vta_inserts, vta_replaced, vta_probes, vta_hits, self_hits, interference;
} Ciao;

/* The detector with a VTA of n_sets x ways (sets: one per warp slot in the paper's Table I). */
void ciao_init(Ciao *c, uint32_t n_sets, uint32_t ways);
void ciao_free(Ciao *c);
/* Register the detector's counters under the policy's prefix. */
void ciao_register_stats(Ciao *c, const PolicyCtx *ctx);

/* A warp arrives in `slot` (its counters, VTA entries, interference-list and pair-list entries
 * start empty) or leaves it (its VTA entries go; pairs that name it stay, to be seen as finished). */
void ciao_warp_arrive(Ciao *c, uint32_t slot);
void ciao_warp_leave(Ciao *c, uint32_t slot);
/* The SM issued an instruction (of any warp). */
static inline void ciao_on_issue(Ciao *c) { c->insts++; }
/* The L1D replaced line `line` that live warp `owner` brought in, by an access of `evictor`
 * (WARP_L1D_NOBODY: a warp that has exited). */
void ciao_on_evict(Ciao *c, uint32_t owner, uint32_t evictor, uint64_t line);
/* Live warp `slot` missed on `line` in the L1D: returns whether it was a VTA hit; on a hit by
 * another live warp, that warp is recorded as an interferer (*interferer, else CIAO_NONE). */
bool ciao_on_miss(Ciao *c, uint32_t slot, uint64_t line, uint32_t *interferer);

/* Fig. 4c: interferer `j` interfered with the warp of entry e. The same warp counts up (to
 * 3); another counts a non-zero counter down, and replaces the entry's warp only when the
 * counter is 0 (the new warp enters with counter 0). */
void ciao_ilist_update(CiaoIlist *e, uint8_t j);
/* The most interfering live warp of `slot` (its interference-list entry), or -1. */
int ciao_interferer(const Ciao *c, uint32_t slot);

/* Eq. 1: IRS_i = VTAHit_i / (Inst_total / N_active): the warp's VTA hits per instruction, with
 * the SM's instructions since the warp arrived shared among the live warps. 0 with no
 * instructions yet. */
double ciao_irs(const Ciao *c, uint32_t slot);
/* Whether the warp in `slot` is live and the same warp as at launch number `gen`. */
static inline bool ciao_same_warp(const Ciao *c, uint32_t slot, uint32_t gen)
{
    return slot < CIAO_SLOTS && (c->live >> slot & 1) && c->gen[slot] == gen;
}

/* ---- the schedulers (ciao_sched.c: Algorithm 1; ciao_t.c, ciao_p.c, ciao_c.c: the ops) ---- */

typedef enum CiaoMode { CIAO_T, CIAO_P, CIAO_C } CiaoMode;

typedef struct CiaoOpts {
    uint32_t vta_sets, vta_ways;
    double high_cutoff, low_cutoff;
    uint32_t high_epoch, low_epoch;
    bool matrix;
} CiaoOpts;
#define CIAO_N_OPTS 7
extern const OptDesc ciao_opts[CIAO_N_OPTS];

void *ciao_sched_create_shared(const PolicyCtx *ctx, CiaoMode mode);
void ciao_destroy_shared(void *shared);
void *ciao_create(const PolicyCtx *ctx);
void ciao_destroy(void *self);
bool ciao_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v);
int ciao_pick(void *self, const WarpSchedView *v);
void ciao_on_issue_hook(void *self, uint32_t slot, const WarpSchedView *v);
void ciao_on_l1d_evict(void *self, const WarpL1dEvent *e);
void ciao_on_l1d_miss(void *self, const WarpL1dEvent *e);
void ciao_on_warp_exit(void *self, uint32_t slot);
void ciao_on_cta_launch(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps);
bool ciao_steer(void *self, uint32_t slot);
void ciao_on_sample(void *self);
uint64_t ciao_throttled(const void *self);

/* The hooks every CIAO scheduler shares (all but create_shared, steer and steers). */
#define CIAO_META_OPTS .opts = ciao_opts, .n_opts = CIAO_N_OPTS, .opts_size = sizeof(CiaoOpts)
#define CIAO_HOOKS                                                                                                   \
    .destroy_shared = ciao_destroy_shared, .create = ciao_create, .destroy = ciao_destroy,                           \
    .may_issue = ciao_may_issue, .pick = ciao_pick, .on_issue = ciao_on_issue_hook, .on_warp_exit = ciao_on_warp_exit, \
    .on_l1d_evict = ciao_on_l1d_evict, .on_l1d_miss = ciao_on_l1d_miss, .on_cta_launch = ciao_on_cta_launch,         \
    .on_sample = ciao_on_sample, .throttled = ciao_throttled

/* The SM-wide state of a CIAO scheduler (its create_shared), for tests and dumps. */
const Ciao *ciao_t_state(const void *shared);
/* The stalls of the warp list, front first (the warp examined next for reactivation); returns
 * how many. */
uint32_t ciao_t_stalled_list(const void *shared, uint8_t *out);
/* The whole warp list, front first: the warp of each action and whether it is a stall (else an
 * isolation); returns its length (at most 2 * CIAO_SLOTS). */
uint32_t ciao_action_list(const void *shared, uint8_t *warp, bool *stall);

#endif
