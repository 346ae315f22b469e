/* ciao_t.c: CIAO-T, CIAO's selective warp throttling (Zhang et al., IPDPS 2018: III-C, IV-C,
 * Algorithm 1 without its redirection branch), `sm.sched = ciao-t`: the most interfering warp
 * of a warp whose IRS exceeds the high cutoff is stalled. The algorithm is ciao_sched.c's. */
#include "policy/warp/ciao.h"

static void *ciao_t_create_shared(const PolicyCtx *ctx) { return ciao_sched_create_shared(ctx, CIAO_T); }

const WarpSchedOps warp_ciao_t_ops = {
    .meta = {.name = "ciao-t",
             .help = "CIAO-T (Zhang et al., IPDPS 2018): GTO; a victim tag array that records who evicted whose "
                     "line finds each warp's most interfering warp, which is stalled while the interfered warp's "
                     "IRS is above the cutoffs",
             CIAO_META_OPTS},
    .create_shared = ciao_t_create_shared,
    CIAO_HOOKS,
};
