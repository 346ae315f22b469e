/* oaws_static.c: static OAWS (Wang's thesis 5.3), `sm.sched = oaws-static`. Every divergent
 * load is predicted to miss the static miss rate SMR of its warp's active threads (eq. 5.2,
 * Miss_pred = Div_pred x SMR, rounded up), and a warp whose next instruction is one issues only
 * when that fits the free MSHR entries less the misses predicted for the loads still in the
 * LD/ST unit (eq. 5.1); the qualified warps go in GTO order. A load is divergent when the
 * Divergent Load Classifier has seen its pc make more than 2 line accesses. The shared
 * machinery and the choices the thesis leaves open are in oaws.c and oaws_dlc.c.
 *
 * Options: sm.sched.oaws-static.smr (percent, 50: the thesis' best, 5.5.6; 0 is GTO),
 * sm.sched.oaws-static.dlc_entries (32, 5.4.3), sm.sched.oaws-static.div_pred (lanes: the
 * thesis' Div_pred; history: at most the pc's mean accesses, an extension, see oaws.c).
 * Stats: see oaws.c. */
#include "policy/warp/oaws.h"

#include <stddef.h>

typedef struct OawsStaticOpts {
    uint32_t smr, dlc_entries, div_pred;
} OawsStaticOpts;

static const OptDesc oaws_static_opts[] = {
    {"smr", OPT_U32, offsetof(OawsStaticOpts, smr), "50", 0, 100, NULL, "%",
     "static miss rate: a divergent load is predicted to miss this share of its warp's active threads (eq. 5.2)"},
    {"dlc_entries", OPT_U32, offsetof(OawsStaticOpts, dlc_entries), "32", 1, 1024, NULL, "entries",
     "Divergent Load Classifier entries (divergent load pcs of the kernel)"},
    {"div_pred", OPT_ENUM, offsetof(OawsStaticOpts, div_pred), "lanes", 0, 0, "lanes|history", "",
     "Div_pred: the warp's active threads (lanes, thesis 5.3), or at most the pc's mean line accesses per "
     "instance in the DLC (history: #acc / #inst, rounded up)"},
};

static void *oaws_static_create_shared(const PolicyCtx *ctx)
{
    const OawsStaticOpts *o = ctx->opts;
    OawsParams p = {.mode = OAWS_STATIC, .smr_percent = o->smr, .dlc_entries = o->dlc_entries,
                    .div_history = o->div_pred == 1};
    return oaws_shared_create(ctx, &p);
}

const WarpSchedOps warp_oaws_static_ops = {
    .meta = {.name = "oaws-static",
             .help = "static OAWS (thesis 5.3): GTO among warps whose divergent load, predicted to miss SMR of its "
                     "active threads, fits the free MSHR entries (eq. 5.1, 5.2)",
             POLICY_OPTS(oaws_static_opts, OawsStaticOpts)},
    .create_shared = oaws_static_create_shared,
    OAWS_SHARED_HOOKS,
};
