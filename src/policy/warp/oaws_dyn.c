/* oaws_dyn.c: dynamic OAWS (Wang's thesis 5.4), `sm.sched = oaws-dyn`. The FCW estimate
 * (Fig. 5.3, policy/fcw.h) splits the SM's warps by global GTO priority into locality warps
 * (priority below FCW) and thrashing warps. A locality warp's divergent load is predicted to
 * miss Div_pred x HMR(pc) + GTO_gprio (eq. 5.4: HMR the pc's history miss rate in the Divergent
 * Load Classifier, #miss / #acc; the priority adds the skew of Fig. 2.7), a thrashing warp's
 * all of its active threads (100%); the warp issues when that fits the free MSHR entries less
 * the misses predicted for the loads still in the LD/ST unit (eq. 5.1), in GTO order. Locality
 * warps are disqualified when an occlusion looms, thrashing warps qualify when the LD/ST unit is
 * free of it. The shared machinery and the choices the thesis leaves open are in oaws.c and
 * oaws_dlc.c.
 *
 * Options: sm.sched.oaws-dyn.dlc_entries (32), .fcw (FCW's start, 4), .cmax (C_max, 128),
 * .wmax (W_max, 48), .div_pred (lanes: the thesis' Div_pred; history: at most the pc's mean
 * accesses, an extension, see oaws.c). Stats: see oaws.c. */
#include "policy/warp/oaws.h"

#include <stddef.h>

typedef struct OawsDynOpts {
    uint32_t dlc_entries, fcw, cmax, wmax, div_pred;
} OawsDynOpts;

static const OptDesc oaws_dyn_opts[] = {
    {"dlc_entries", OPT_U32, offsetof(OawsDynOpts, dlc_entries), "32", 1, 1024, NULL, "entries",
     "Divergent Load Classifier entries (divergent load pcs of the kernel, with their miss history)"},
    {"fcw", OPT_U32, offsetof(OawsDynOpts, fcw), "4", 0, 64, NULL, "warps",
     "fully cached warps (locality warps per SM) at the start"},
    {"cmax", OPT_U32, offsetof(OawsDynOpts, cmax), "128", 2, 65536, NULL, "loads",
     "saturation value of the fully-cached-load counter CNT (Fig. 5.3)"},
    {"wmax", OPT_U32, offsetof(OawsDynOpts, wmax), "48", 1, 64, NULL, "warps", "the most FCW may grow to"},
    {"div_pred", OPT_ENUM, offsetof(OawsDynOpts, div_pred), "lanes", 0, 0, "lanes|history", "",
     "Div_pred: the warp's active threads (lanes, thesis 5.3), or at most the pc's mean line accesses per "
     "instance in the DLC (history: #acc / #inst, rounded up)"},
};

static void *oaws_dyn_create_shared(const PolicyCtx *ctx)
{
    const OawsDynOpts *o = ctx->opts;
    OawsParams p = {.mode = OAWS_DYN, .dlc_entries = o->dlc_entries, .fcw = o->fcw, .cmax = o->cmax, .wmax = o->wmax,
                    .div_history = o->div_pred == 1};
    return oaws_shared_create(ctx, &p);
}

const WarpSchedOps warp_oaws_dyn_ops = {
    .meta = {.name = "oaws-dyn",
             .help = "dynamic OAWS (thesis 5.4): GTO among warps whose divergent load fits the free MSHR entries, "
                     "predicted by its miss history and priority for locality warps, 100% for thrashing ones (eq. 5.4)",
             POLICY_OPTS(oaws_dyn_opts, OawsDynOpts)},
    .create_shared = oaws_dyn_create_shared,
    OAWS_SHARED_HOOKS,
};
