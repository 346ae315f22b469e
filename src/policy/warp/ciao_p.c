/* ciao_p.c: CIAO-P, CIAO's on-chip memory architecture (Zhang et al., IPDPS 2018: III-B, IV-B,
 * IV-C, Algorithm 1 without its stalling branch), `sm.sched = ciao-p`: the most interfering warp
 * of a warp whose IRS exceeds the high cutoff is isolated, its global/local loads steered to the
 * cache in unused shared memory (src/policy/mpath/smemcache.c). The algorithm is
 * ciao_sched.c's. */
#include "policy/warp/ciao.h"

static void *ciao_p_create_shared(const PolicyCtx *ctx) { return ciao_sched_create_shared(ctx, CIAO_P); }

const WarpSchedOps warp_ciao_p_ops = {
    .meta = {.name = "ciao-p",
             .help = "CIAO-P (Zhang et al., IPDPS 2018): GTO; each warp's most interfering warp is isolated: its "
                     "loads go to a cache in the unused shared memory (l1d.smemcache) while the interfered warp's "
                     "IRS is above the cutoffs",
             CIAO_META_OPTS},
    .create_shared = ciao_p_create_shared,
    CIAO_HOOKS,
    .steer = ciao_steer,
    .steers = "smemcache",
};
