/* victim.c: a fully-associative victim cache on the L1D's miss path (Jouppi, ISCA 1990), the
 * structure Linebacker's "victim caching" comparison and DaCache's profiling build on.
 *
 * It holds the last l1d.victim lines the L1D replaced (a line enters when the L1D evicts it,
 * replacing the least recently inserted or hit entry). An L1D load miss probes it first: on a
 * hit the line moves back into the L1D (swapping with the L1D's victim, which enters here) and
 * its data is ready l1d.victim.lat cycles after the L1D's hit latency. At most
 * l1d.victim.ports probes a cycle; a further probe is refused (a reservation failure, the
 * access replays). A store drops the line (it is stale). Options: l1d.victim (entries, 0: no
 * victim cache), l1d.victim.lat, l1d.victim.ports. Stats: sm[i].l1d.victim.{probe, hit, insert,
 * evict, drop}. */
#include "policy/policy.h"

#include "base/base.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct VictimOpts {
    uint32_t lat;
    uint32_t ports;
} VictimOpts;

static const OptDesc victim_opts[] = {
    {"lat", OPT_U32, offsetof(VictimOpts, lat), "1", 0, 1000, NULL, "cycles",
     "cycles a victim-cache hit adds to the L1D hit latency"},
    {"ports", OPT_U32, offsetof(VictimOpts, ports), "1", 1, 64, NULL, "", "probes the victim cache accepts per cycle"},
};

typedef struct Victim {
    uint32_t n, lat, ports;
    uint64_t *line;  /* line address per entry */
    uint64_t *stamp; /* last insert or hit; 0: empty */
    uint64_t clock;
    uint64_t port_cycle;
    uint32_t port_used;
    uint64_t probe, hit, insert, evict, drop;
} Victim;

static bool victim_enabled(const Config *cfg) { return cfg->l1d.victim > 0; }

static void *victim_create(const PolicyCtx *ctx, uint32_t line_bytes)
{
    const VictimOpts *o = ctx->opts;
    Victim *v = xcalloc(1, sizeof *v);
    v->n = ctx->cfg->l1d.victim;
    v->lat = o->lat;
    v->ports = o->ports;
    v->line = xcalloc(v->n, sizeof *v->line);
    v->stamp = xcalloc(v->n, sizeof *v->stamp);
    v->port_cycle = UINT64_MAX;
    policy_stat_counter(ctx, &v->probe, "probe", "L1D misses that probed the victim cache");
    policy_stat_counter(ctx, &v->hit, "hit", "probes that found the line (it moved back to the L1D)");
    policy_stat_counter(ctx, &v->insert, "insert", "lines the L1D evicted into the victim cache");
    policy_stat_counter(ctx, &v->evict, "evict", "lines pushed out of the victim cache by an insert");
    policy_stat_counter(ctx, &v->drop, "drop", "lines dropped because a store wrote them");
    return v;
}

static void victim_destroy(void *self)
{
    Victim *v = self;
    free(v->line);
    free(v->stamp);
    free(v);
}

static int find(const Victim *v, uint64_t line)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (v->stamp[i] && v->line[i] == line)
            return (int)i;
    return -1;
}

static MpathResult victim_probe(void *self, const MpathAccess *a, uint32_t *lat_cycles)
{
    Victim *v = self;
    if (v->port_cycle != a->cycle) {
        v->port_cycle = a->cycle;
        v->port_used = 0;
    }
    if (v->port_used == v->ports)
        return MPATH_BUSY;
    v->port_used++;
    v->probe++;
    int i = find(v, a->line_addr);
    if (i < 0)
        return MPATH_MISS;
    v->stamp[i] = 0; /* the line moves to the L1D */
    v->hit++;
    *lat_cycles = v->lat;
    return MPATH_HIT;
}

static void victim_on_evict(void *self, const MpathAccess *a)
{
    Victim *v = self;
    int i = find(v, a->line_addr);
    if (i < 0) {
        uint32_t lru = 0;
        for (uint32_t k = 1; k < v->n; k++) /* an empty entry (stamp 0) is oldest of all */
            if (v->stamp[k] < v->stamp[lru])
                lru = k;
        i = (int)lru;
        v->evict += v->stamp[i] != 0;
        v->line[i] = a->line_addr;
    }
    v->stamp[i] = ++v->clock;
    v->insert++;
}

static void victim_on_write(void *self, uint64_t line_addr)
{
    Victim *v = self;
    int i = find(v, line_addr);
    if (i >= 0) {
        v->stamp[i] = 0;
        v->drop++;
    }
}

const MpathOps mpath_victim_ops = {
    .meta = {.name = "victim", .help = "fully-associative victim cache of l1d.victim lines (LRU), probed on L1D misses",
             POLICY_OPTS(victim_opts, VictimOpts)},
    .enabled = victim_enabled,
    .create = victim_create,
    .destroy = victim_destroy,
    .probe = victim_probe,
    .on_evict = victim_on_evict,
    .on_write = victim_on_write,
};
