/* linebacker.c: Linebacker's register-file victim cache on the L1D's miss path (Oh et al.,
 * ISCA 2019, seeds/004 sec. 3-4): L1D victim lines kept in the idle warp registers of the SM,
 * selected by the Load Monitor (lb_monitor.c) and found through the Victim Tag Table (lb_vtt.c).
 *
 * l1d.linebacker chooses the variant of the paper's Fig. 11: `vc` keeps every victim line
 * (Victim Caching, no monitoring); `svc` keeps only lines last touched by high-locality loads
 * (Selective Victim Caching: the Load Monitor watches the first windows of each kernel with a
 * tags-only VTT, then the selected loads' victims are kept). Both use the registers that are
 * idle: statically unused, and dynamically unused ones of inactive CTAs when a CTA scheduler
 * deactivates CTAs (on_regfile). A VTT partition is usable while all its registers are idle; a
 * CTA that takes them drops its lines (they are clean: stores invalidate victim lines and do not
 * allocate, so nothing is lost).
 *
 * Timing: a probe searches the usable partitions in order, l1d.linebacker.vp_lat cycles each;
 * a hit then reads its register from bank RN mod l1d.linebacker.banks (rf_banks.h), which
 * serves one victim-line read or write a cycle: an access waits for its bank (a bank conflict).
 * The data is ready after the L1D hit latency, the search and the wait (MPATH_SERVED: the line
 * stays in the register, it is not fetched into the L1D). A miss goes on to the L2 at once. At most `ports` probes a cycle.
 * Options and stats: docs/linebacker.md. */
#include "policy/policy.h"

#include "base/base.h"
#include "policy/mpath/lb_monitor.h"
#include "policy/mpath/lb_throttle.h"
#include "policy/mpath/lb_vtt.h"
#include "policy/mpath/rf_banks.h"

#include <stddef.h>
#include <stdlib.h>

enum { LB_OFF, LB_VC, LB_SVC, LB_FULL }; /* l1d.linebacker, src/conf/cache.def */
#define LB_VTT_MAX_WAYS 32      /* the VTT is 32-way in all (seeds/004 sec. 4.1) */

typedef struct LbOpts {
    uint32_t window, threshold, sets, ways, offset, vp_lat, banks, ports, ipc_bound, buffer;
} LbOpts;

static const OptDesc lb_opts[] = {
    {"window", OPT_U32, offsetof(LbOpts, window), "50000", 1, 100000000, NULL, "cycles",
     "Load Monitor window (Table 3: 50000)"},
    {"threshold", OPT_U32, offsetof(LbOpts, threshold), "20", 0, 99, NULL, "%",
     "a load is high-locality in a window when its hit ratio (L1D or VTT hits) is above this (Table 3: 20%)"},
    {"sets", OPT_U32, offsetof(LbOpts, sets), "48", 1, 1024, NULL, "sets",
     "VTT sets (48: the paper's L1D sets; a line's set is its line address mod sets)"},
    {"ways", OPT_ENUM, offsetof(LbOpts, ways), "4", 0, 0, "1|2|4|8|16|32", "ways",
     "ways of one VTT partition, each standing for sets x ways idle warp registers (Fig. 10; Table 3: 4)"},
    {"offset", OPT_U32, offsetof(LbOpts, offset), "511", 0, 65535, NULL, "registers",
     "register number of the first VTT entry (eq. 2 offset: 511)"},
    {"vp_lat", OPT_U32, offsetof(LbOpts, vp_lat), "3", 0, 1000, NULL, "cycles",
     "cycles to search one VTT partition (Table 3: 3)"},
    {"banks", OPT_U32, offsetof(LbOpts, banks), "16", 1, 256, NULL, "banks",
     "register-file banks: each serves one victim-line read or write a cycle (register RN in bank RN mod banks)"},
    {"ports", OPT_U32, offsetof(LbOpts, ports), "1", 1, 64, NULL, "", "VTT probes accepted per cycle"},
    {"ipc_bound", OPT_U32, offsetof(LbOpts, ipc_bound), "10", 1, 1000, NULL, "%",
     "lb: IPC variation bounds of the CTA throttling, +/- this (Table 3: 10%)"},
    {"buffer", OPT_U32, offsetof(LbOpts, buffer), "6", 1, 1024, NULL, "entries",
     "lb: entries of the register backup/restore buffer, one warp register each (sec. 4: 6)"},
};

typedef struct Linebacker {
    uint32_t mode, vp_lat, ports;
    uint64_t window;
    uint32_t threshold;
    LbMonitor lm;
    LbVtt vtt;
    LbThrottle th; /* lb: the CTA throttling */
    RfBanks rf_banks;
    uint64_t port_cycle;
    uint32_t port_used;
    /* stats (bank_conflict is rf_banks.conflicts, usable_cycles vtt.usable_cycles) */
    uint64_t probe, hit, miss, insert, replace, no_room, skip, invalidate, reclaim;
    uint64_t search_cycles, bank_wait;
    uint64_t windows, selected_loads, kernels_selected, kernels_disabled, monitor_hit;
} Linebacker;

static bool lb_enabled(const Config *cfg) { return cfg->l1d.linebacker != LB_OFF; }

/* svc and lb keep only the victims of the loads the Load Monitor selects. */
static bool selective(const Linebacker *lb) { return lb->mode == LB_SVC || lb->mode == LB_FULL; }

/* A kernel starts: empty table; svc watches its first windows again. */
static void lb_kernel_begin(void *self, uint64_t cycle)
{
    Linebacker *lb = self;
    lb_vtt_clear(&lb->vtt);
    if (selective(lb)) {
        lb_monitor_start(&lb->lm, lb->window, lb->threshold, cycle);
        lb_vtt_set_tags_only(&lb->vtt, true);
    }
    if (lb->mode == LB_FULL)
        lb_throttle_kernel_begin(&lb->th, cycle);
}

static void *lb_create(const PolicyCtx *ctx, uint32_t line_bytes)
{
    const LbOpts *o = ctx->opts;
    CHECK(line_bytes == 128); /* policy_check_config: a line is one warp register */
    Linebacker *lb = xcalloc(1, sizeof *lb);
    lb->mode = ctx->cfg->l1d.linebacker;
    lb->vp_lat = o->vp_lat;
    lb->ports = o->ports;
    lb->window = o->window;
    lb->threshold = o->threshold;
    lb_vtt_init(&lb->vtt, o->sets, 1u << o->ways, o->offset, ctx->cfg->sm.n_regs / 32, LB_VTT_MAX_WAYS);
    rf_banks_init(&lb->rf_banks, o->banks);
    lb->port_cycle = UINT64_MAX;
    lb_throttle_init(&lb->th, o->buffer, o->window, o->ipc_bound / 100.0, ctx->sm);
    lb_kernel_begin(lb, 0);
#define C(field, help) policy_stat_counter(ctx, &lb->field, #field, help)
    C(probe, "L1D misses that searched the VTT (victim caching on; replays probe again)");
    C(hit, "register hits: L1D misses served from a victim line in the register file");
    C(miss, "L1D misses sent to the L2 while victim caching was on (not in the VTT either)");
    C(insert, "L1D victim lines written into idle registers");
    C(replace, "inserts that pushed out a valid victim line (LRU of its set)");
    C(no_room, "selected victim lines dropped because no VTT partition was usable");
    C(skip, "victim lines not kept: not last touched by a selected load (svc)");
    C(invalidate, "victim lines invalidated by a store");
    C(reclaim, "victim lines dropped because a CTA took their registers");
    C(search_cycles, "VTT partition-search cycles of the register hits (vp_lat per partition searched)");
    policy_stat_counter(ctx, &lb->rf_banks.conflicts, "bank_conflict",
                        "victim-line register reads and writes that waited for their bank");
    C(bank_wait, "cycles register hits waited for their bank (added to their latency)");
    C(windows, "Load Monitor windows ended");
    C(selected_loads, "high-locality loads selected (hashed PCs; summed over kernels)");
    C(kernels_selected, "kernels whose Load Monitor selected loads (victim caching on)");
    C(kernels_disabled, "kernels whose Load Monitor found no high-locality load (victim caching off)");
    C(monitor_hit, "Load Monitor accesses that hit in the tags-only VTT (counted as hits)");
    policy_stat_counter(ctx, &lb->vtt.usable_cycles, "usable_cycles",
                        "warp registers of usable VTT partitions summed over cycles (victim-cache space)");
    if (lb->mode == LB_FULL) {
#define T(field, help) policy_stat_counter(ctx, &lb->th.field, #field, help)
        T(throttles, "lb: CTAs throttled (their warps held, their registers backed up)");
        T(restores, "lb: throttled CTAs brought back (their registers restored)");
        T(skipped, "lb: throttle decisions not acted on: the backup/restore buffer was busy");
        T(throttle_decisions, "lb: IPC windows that decided to throttle one more CTA (the first after selection included)");
        T(restore_decisions, "lb: IPC windows that decided to bring one CTA back (IPC_Var below the lower bound)");
        T(ipc_windows, "lb: IPC monitor windows ended");
        T(backup_bytes, "lb: register bytes written to memory by backups");
        T(restore_bytes, "lb: register bytes read from memory by restores");
        T(drain_cycles, "lb: cycles throttled CTAs waited for their loads in flight before their backup");
        T(backup_cycles, "lb: cycles from a throttle to its backup's last acknowledgement (drain included)");
        T(restore_cycles, "lb: cycles from a restore's start to its last register written");
#undef T
    }
#undef C
    return lb;
}

static void lb_destroy(void *self)
{
    Linebacker *lb = self;
    lb_vtt_free(&lb->vtt);
    rf_banks_free(&lb->rf_banks);
    free(lb);
}

/* svc: end the windows that have passed; when the Load Monitor decides, leave tags-only mode. */
static void sync_monitor(Linebacker *lb, uint64_t now)
{
    if (!selective(lb) || lb->lm.state != LB_MONITORING)
        return;
    uint32_t before = lb->lm.windows;
    lb_monitor_advance(&lb->lm, now);
    lb->windows += lb->lm.windows - before;
    if (lb->lm.state == LB_MONITORING)
        return;
    lb_vtt_set_tags_only(&lb->vtt, false);
    lb_vtt_clear(&lb->vtt); /* tags without data */
    if (lb->lm.state == LB_SELECTED) {
        lb->kernels_selected++;
        lb->selected_loads += (uint64_t)popcount_u32(lb->lm.selected);
    } else {
        lb->kernels_disabled++;
    }
}

static bool caching(const Linebacker *lb) { return lb->mode == LB_VC || lb->lm.state == LB_SELECTED; }

static MpathResult lb_probe(void *self, const MpathAccess *a, uint32_t *lat_cycles)
{
    Linebacker *lb = self;
    sync_monitor(lb, a->cycle);
    if (!caching(lb) || !lb->vtt.n_usable)
        return MPATH_MISS;
    if (lb->port_cycle != a->cycle) {
        lb->port_cycle = a->cycle;
        lb->port_used = 0;
    }
    if (lb->port_used == lb->ports)
        return MPATH_BUSY;
    lb->port_used++;
    lb->probe++;
    LbVttSlot s;
    if (!lb_vtt_lookup(&lb->vtt, a->line_addr, &s))
        return MPATH_MISS;
    uint64_t search = (uint64_t)lb->vp_lat * s.searched;
    uint64_t wait = rf_banks_access(&lb->rf_banks, s.rn, a->cycle + search);
    lb->hit++;
    lb->search_cycles += search;
    lb->bank_wait += wait;
    *lat_cycles = (uint32_t)MIN(search + wait, UINT32_MAX);
    return MPATH_SERVED;
}

static void lb_on_load(void *self, const MpathAccess *a, MpathOutcome o)
{
    Linebacker *lb = self;
    sync_monitor(lb, a->cycle);
    if (selective(lb) && lb->lm.state == LB_MONITORING) {
        bool hit = o != MPATH_OUT_MISS;
        /* a miss whose tag the VTT kept counts as a hit; the line goes back to the L1D */
        if (!hit && lb_vtt_invalidate(&lb->vtt, a->line_addr)) {
            hit = true;
            lb->monitor_hit++;
        }
        lb_monitor_access(&lb->lm, a->pc, hit, a->cycle);
        sync_monitor(lb, a->cycle);
    } else if (caching(lb) && o == MPATH_OUT_MISS) {
        lb->miss++;
    }
}

static void lb_on_evict(void *self, const MpathAccess *a)
{
    Linebacker *lb = self;
    sync_monitor(lb, a->cycle);
    LbVttSlot s;
    if (selective(lb) && lb->lm.state == LB_MONITORING) {
        lb_vtt_insert(&lb->vtt, a->line_addr, &s); /* tags only: every victim */
        return;
    }
    if (!caching(lb))
        return;
    if (selective(lb) && !lb_monitor_selects(&lb->lm, lb_hpc(a->pc))) {
        lb->skip++;
        return;
    }
    if (!lb_vtt_insert(&lb->vtt, a->line_addr, &s)) {
        lb->no_room++;
        return;
    }
    lb->insert++;
    lb->replace += s.replaced;
    rf_banks_access(&lb->rf_banks, s.rn, a->cycle);
}

static void lb_on_write(void *self, uint64_t line_addr)
{
    Linebacker *lb = self;
    if (!lb->vtt.tags_only && lb_vtt_invalidate(&lb->vtt, line_addr))
        lb->invalidate++;
}

static void lb_on_regfile(void *self, const RegfileView *rf)
{
    Linebacker *lb = self;
    lb->reclaim += lb_vtt_on_regfile(&lb->vtt, rf);
}

static void lb_on_cta(void *self, const MpathCtaEvent *e, const SmCtaCtl *ctl)
{
    Linebacker *lb = self;
    if (lb->mode == LB_FULL)
        lb_throttle_cta(&lb->th, e, ctl);
}

static uint64_t lb_ctl_tick(void *self, uint64_t now, const SmCtaCtl *ctl)
{
    Linebacker *lb = self;
    if (lb->mode != LB_FULL)
        return UINT64_MAX;
    sync_monitor(lb, now); /* windows end at the same cycles as the IPC monitor's */
    return lb_throttle_tick(&lb->th, now, lb->lm.state == LB_SELECTED, ctl);
}

static void lb_on_ctl_reply(void *self, uint32_t tag, bool write, uint64_t now)
{
    Linebacker *lb = self;
    lb_throttle_reply(&lb->th, write);
}

const MpathOps mpath_linebacker_ops = {
    .meta = {.name = "linebacker",
             .help = "Linebacker (ISCA 2019): L1D victim lines in idle registers, found through a partitioned victim tag "
                     "table; l1d.linebacker = vc (every victim), svc (victims of high-locality loads) or lb (svc with "
                     "CTA throttling: registers of throttled CTAs backed up to memory and used for victims)",
             POLICY_OPTS(lb_opts, LbOpts)},
    .enabled = lb_enabled,
    .create = lb_create,
    .destroy = lb_destroy,
    .probe = lb_probe,
    .on_evict = lb_on_evict,
    .on_write = lb_on_write,
    .on_load = lb_on_load,
    .on_regfile = lb_on_regfile,
    .on_kernel_begin = lb_kernel_begin,
    .on_cta = lb_on_cta,
    .ctl_tick = lb_ctl_tick,
    .on_ctl_reply = lb_on_ctl_reply,
};
