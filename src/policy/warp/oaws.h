/* oaws.h: memory Occlusion Aware Warp Scheduling (Wang's thesis, ch. 5), the parts its three
 * schedulers share: the Divergent Load Classifier (oaws_dlc.c) and the SM-wide state behind
 * the qualification of eq. 5.1 (oaws.c). The schedulers themselves, each with its options, are
 * oaws_static.c (`oaws-static`, eq. 5.2), oaws_dyn.c (`oaws-dyn`, eq. 5.4) and fcw.c (`fcw`,
 * FCW-only throttling, Fig. 5.3). See docs/oaws.md. */
#ifndef WARPSIM_POLICY_OAWS_H
#define WARPSIM_POLICY_OAWS_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/fcw.h"
#include "policy/policy.h"

/* ---- Divergent Load Classifier (thesis 5.3, 5.4.3) ------------------------------------------
 * One entry per divergent load pc (a load with more than 2 line accesses, thesis 1.1.2): #inst,
 * #acc and #miss, counted when such a load has been looked up in full. Fields have the
 * thesis' widths (5, 10, 10 bits): when #inst reaches 31 all three are halved, which keeps
 * #acc within its 10 bits (at most 32 accesses a load) and the history miss rate recent. A new
 * pc in a full table replaces the entry updated longest ago. Cleared per kernel. */

#define OAWS_DLC_INST_MAX 31u /* #inst is a 5-bit field */

typedef struct OawsDlcEntry {
    uint32_t pc;
    uint32_t inst, acc, miss; /* #inst, #acc, #miss */
    uint64_t used;            /* update stamp (replacement order) */
} OawsDlcEntry;

typedef struct OawsDlc {
    OawsDlcEntry *e;
    uint32_t n, cap;
    uint64_t clock;
    uint64_t inserts, evictions; /* stats */
} OawsDlc;

void oaws_dlc_init(OawsDlc *d, uint32_t entries);
void oaws_dlc_free(OawsDlc *d);
void oaws_dlc_clear(OawsDlc *d);
/* The entry of pc, NULL when pc is not known as a divergent load. */
const OawsDlcEntry *oaws_dlc_find(const OawsDlc *d, uint32_t pc);
/* A divergent load of pc was looked up in full: `accesses` line accesses, `misses` of them
 * missed (merges included). */
void oaws_dlc_update(OawsDlc *d, uint32_t pc, uint32_t accesses, uint32_t misses);
/* Eq. 5.3: Div_pred x HMR(pc), HMR = #miss / #acc, rounded up. */
uint32_t oaws_dlc_misses(const OawsDlcEntry *e, uint32_t div_pred);

/* ---- the SM-wide state -------------------------------------------------------------------- */

typedef enum OawsMode {
    OAWS_STATIC, /* eq. 5.2: Div_pred x SMR */
    OAWS_DYN,    /* eq. 5.4: Div_pred x HMR + GTO_gprio for locality warps, Div_pred for thrashing ones */
    OAWS_FCW,    /* Fig. 5.3: only locality warps (global priority below FCW) issue divergent loads */
} OawsMode;

typedef struct OawsParams {
    OawsMode mode;
    uint32_t smr_percent;               /* OAWS_STATIC */
    uint32_t dlc_entries;
    bool div_history;                   /* OAWS_STATIC, OAWS_DYN: Div_pred at most the pc's mean accesses */
    uint32_t fcw, cmax, wmax;           /* OAWS_DYN, OAWS_FCW: FCW's start, C_max, W_max */
} OawsParams;

/* A global load issued and not yet looked up in full: its predicted misses are in flight. */
typedef struct OawsFlight {
    uint32_t slot, pc;
    uint32_t pred;  /* Miss_pred at issue: what it adds to Miss_inflight */
    uint32_t prio;  /* the warp's global GTO priority at issue */
    bool divergent; /* the DLC knew its pc */
} OawsFlight;

typedef struct Oaws {
    OawsParams p;
    OawsDlc dlc;
    FcwTrain ft;
    uint32_t inflight;      /* Miss_inflight (eq. 5.1) */
    OawsFlight *fly;        /* the loads behind it, in issue order */
    uint32_t n_fly, cap_fly;
    uint32_t *prio;         /* per slot: global GTO priority among the warps of prio_key */
    uint64_t prio_key;      /* the live warps not waiting at a barrier it was computed for */
    bool prio_valid;
    /* stats */
    uint64_t denied, loads_div, loads_coh, pred_misses, actual_misses, pred_locality, pred_thrashing;
    uint64_t fcw_loads, fcw_sum;
} Oaws;

/* One scheduler: GTO over the warps the shared state qualifies. */
typedef struct OawsSched {
    Oaws *o;
    int last;
} OawsSched;

Oaws *oaws_shared_create(const PolicyCtx *ctx, const OawsParams *p);
void oaws_shared_destroy(void *shared);
/* The warp's global GTO priority within the SM (thesis 5.4.2): how many older live warps there
 * are, not counting those waiting at a barrier. */
uint32_t oaws_prio(Oaws *o, uint32_t slot, const SmView *sm);
/* Miss_pred of the warp's next instruction, a global load (eq. 5.2 or 5.4; a pc the DLC does not
 * know is a coherent load: 1), at most the L1D's MSHR entries; *divergent: the DLC knew it. */
uint32_t oaws_predict(Oaws *o, uint32_t slot, const WarpSlotInfo *w, const SmView *sm, bool *divergent);

/* Hooks the three schedulers share (WarpSchedOps). */
void *oaws_create(const PolicyCtx *ctx);
void oaws_destroy(void *self);
int oaws_pick(void *self, const WarpSchedView *v);
bool oaws_may_issue(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v);
void oaws_on_issue(void *self, uint32_t slot, const WarpSchedView *v);
void oaws_on_warp_exit(void *self, uint32_t slot);
void oaws_on_load_serviced(void *self, const WarpLoadDone *e);
void oaws_on_kernel_start(void *self, const FrontKernel *k);

/* The hooks every OAWS scheduler shares, for its WarpSchedOps after .meta and .create_shared. */
#define OAWS_SHARED_HOOKS                                                                              \
    .destroy_shared = oaws_shared_destroy, .create = oaws_create, .destroy = oaws_destroy,            \
    .may_issue = oaws_may_issue, .pick = oaws_pick, .on_issue = oaws_on_issue,                         \
    .on_warp_exit = oaws_on_warp_exit, .on_load_serviced = oaws_on_load_serviced,                      \
    .on_kernel_start = oaws_on_kernel_start

#endif
