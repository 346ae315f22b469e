/* fcw.c: FCW-only throttling (Wang's thesis 5.4.2, "FCW Throttling", and Fig. 5.3; the
 * "FCW-Only" scheduler of 5.5), `sm.sched = fcw`. Only locality warps issue divergent loads:
 * those whose global GTO priority in the SM (launch order among its live warps, warps waiting
 * at a barrier left out) is below FCW, the estimate of fully cached warps that fully and
 * partially cached divergent loads move up and down (policy/fcw.h, shared with DaCache's
 * partitioning). A thrashing warp whose next instruction is a load of a pc the Divergent Load
 * Classifier knows waits; everything else goes, in GTO order. Unlike oaws-dyn it predicts no
 * misses: a locality warp's load may still occlude the MSHRs, a thrashing warp's never issues
 * while it is one. The shared machinery and its choices (why only divergent loads are held) are
 * in oaws.c.
 *
 * Options: sm.sched.fcw.fcw (FCW's start, 4), .cmax (C_max, 128), .wmax (W_max, 48),
 * .dlc_entries (32). Stats (sm[i].sched.fcw.*): denied, dlc_inserts, dlc_evictions, fcw_up,
 * fcw_down, fcw_loads, fcw_sum. */
#include "policy/warp/oaws.h"

#include <stddef.h>

typedef struct FcwOpts {
    uint32_t fcw, cmax, wmax, dlc_entries;
} FcwOpts;

static const OptDesc fcw_opts[] = {
    {"fcw", OPT_U32, offsetof(FcwOpts, fcw), "4", 0, 64, NULL, "warps",
     "fully cached warps (the SM's warps allowed to issue divergent loads) at the start"},
    {"cmax", OPT_U32, offsetof(FcwOpts, cmax), "128", 2, 65536, NULL, "loads",
     "saturation value of the fully-cached-load counter CNT (Fig. 5.3)"},
    {"wmax", OPT_U32, offsetof(FcwOpts, wmax), "48", 1, 64, NULL, "warps", "the most FCW may grow to"},
    {"dlc_entries", OPT_U32, offsetof(FcwOpts, dlc_entries), "32", 1, 1024, NULL, "entries",
     "Divergent Load Classifier entries (divergent load pcs of the kernel)"},
};

static void *fcw_create_shared(const PolicyCtx *ctx)
{
    const FcwOpts *o = ctx->opts;
    OawsParams p = {.mode = OAWS_FCW, .fcw = o->fcw, .cmax = o->cmax, .wmax = o->wmax, .dlc_entries = o->dlc_entries};
    return oaws_shared_create(ctx, &p);
}

const WarpSchedOps warp_fcw_ops = {
    .meta = {.name = "fcw",
             .help = "FCW-only throttling (thesis 5.4.2): GTO; only the SM's FCW highest-priority warps issue divergent "
                     "loads, FCW learnt from fully cached divergent loads (Fig. 5.3)",
             POLICY_OPTS(fcw_opts, FcwOpts)},
    .create_shared = fcw_create_shared,
    OAWS_SHARED_HOOKS,
};
