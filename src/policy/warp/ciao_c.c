/* ciao_c.c: CIAO-C (Zhang et al., IPDPS 2018: III-C, IV-C, Algorithm 1 in full), `sm.sched =
 * ciao-c`: CIAO-P first; a warp already isolated that interferes again is stalled (CIAO-T), and
 * without unused shared memory the warp is stalled at once. The algorithm is ciao_sched.c's. */
#include "policy/warp/ciao.h"

static void *ciao_c_create_shared(const PolicyCtx *ctx) { return ciao_sched_create_shared(ctx, CIAO_C); }

const WarpSchedOps warp_ciao_c_ops = {
    .meta = {.name = "ciao-c",
             .help = "CIAO-C (Zhang et al., IPDPS 2018): CIAO-P, and a warp already isolated that interferes again "
                     "is stalled (CIAO-T); stalls and isolations are undone in reverse order",
             CIAO_META_OPTS},
    .create_shared = ciao_c_create_shared,
    CIAO_HOOKS,
    .steer = ciao_steer,
    .steers = "smemcache",
};
