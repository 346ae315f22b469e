/* cerf.c: CERF, the cache-emulated register file (Jing et al., MICRO 2016), as Linebacker's
 * comparison models it (seeds/004 sec. 5.1, 5.3, 5.5, 5.7): the register file and the L1D are
 * one on-chip storage (256 KB + 48 KB = 304 KB on Table 1's machine); what the CTAs' registers
 * do not take holds cache lines. There is no selection and no throttling: every line is cached.
 *
 * Model (docs/linebacker.md, "CERF"): the L1D's lines plus a register side, one line per idle
 * warp register (128 B). The register side has the L1D's sets; its way w of set s is warp
 * register w x sets + s (the table of lb_vtt.c with 1-way partitions from register 0), usable
 * while that run of `sets` registers is statically unused (or dynamically unused, if a CTA
 * scheduler deactivates CTAs). A line the L1D replaces moves to the register side (an invalid
 * way first, else its set's least recently used); an L1D miss whose line is there is served in
 * place (MPATH_SERVED) after the L1D hit latency, l1d.cerf.lat and the wait for its bank (RN mod
 * l1d.cerf.banks; inserts take their bank's cycle too, rf_banks.h). The tags of the whole
 * storage are looked up at once: no search cost. A store invalidates the line; a CTA that takes
 * registers drops the lines in them (clean: stores write through and do not allocate). With
 * sm.l1d_flush the register side is emptied at each kernel's start, as the L1D is at each end.
 * Options l1d.cerf.{lat,banks}; stats sm[i].l1d.cerf.*. */
#include "policy/policy.h"

#include "base/base.h"
#include "policy/mpath/lb_vtt.h"
#include "policy/mpath/rf_banks.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct CerfOpts {
    uint32_t lat, banks;
} CerfOpts;

static const OptDesc cerf_opts[] = {
    {"lat", OPT_U32, offsetof(CerfOpts, lat), "0", 0, 1000, NULL, "cycles",
     "cycles a register-side hit adds to the L1D hit latency (0: one unified storage, one hit latency)"},
    {"banks", OPT_U32, offsetof(CerfOpts, banks), "16", 1, 256, NULL, "banks",
     "register-file banks: each serves one line read or write a cycle (register RN in bank RN mod banks)"},
};

typedef struct Cerf {
    LbVtt rs; /* the register side's tags: 1-way partitions of the L1D's sets */
    RfBanks banks;
    uint32_t lat;
    bool flush;
    /* stats (bank_conflict is banks.conflicts, usable_cycles rs.usable_cycles) */
    uint64_t probe, hit, insert, replace, no_room, invalidate, reclaim, bank_wait;
} Cerf;

static bool cerf_enabled(const Config *cfg) { return cfg->l1d.cerf; }

static void *cerf_create(const PolicyCtx *ctx, uint32_t line_bytes)
{
    const CerfOpts *o = ctx->opts;
    CHECK(line_bytes == 128); /* policy_check_config: a line is one warp register */
    Cerf *c = xcalloc(1, sizeof *c);
    uint32_t sets = ctx->cfg->l1d.n_sets, n_wregs = ctx->cfg->sm.n_regs / 32;
    lb_vtt_init(&c->rs, sets, 1, 0, n_wregs, n_wregs / sets);
    rf_banks_init(&c->banks, o->banks);
    c->lat = o->lat;
    c->flush = ctx->cfg->sm.l1d_flush;
#define C(field, help) policy_stat_counter(ctx, &c->field, #field, help)
    C(probe, "L1D load misses that looked up the register side while it had room");
    C(hit, "register-side hits: L1D misses served from a line in an idle register (also in l1d.mpath_hit)");
    C(insert, "lines the L1D replaced, written into idle registers");
    C(replace, "inserts that pushed a valid line out of the register side (LRU of its set)");
    C(no_room, "lines the L1D replaced that found no usable register-side way (dropped)");
    C(invalidate, "register-side lines invalidated by a store");
    C(reclaim, "register-side lines dropped because a CTA took their registers");
    policy_stat_counter(ctx, &c->banks.conflicts, "bank_conflict",
                        "register-side line reads and writes that waited for their bank");
    C(bank_wait, "cycles register-side hits waited for their bank (added to their latency)");
    policy_stat_counter(ctx, &c->rs.usable_cycles, "usable_cycles",
                        "warp registers of usable register-side ways summed over cycles (cache space beyond the L1D)");
#undef C
    return c;
}

static void cerf_destroy(void *self)
{
    Cerf *c = self;
    lb_vtt_free(&c->rs);
    rf_banks_free(&c->banks);
    free(c);
}

static MpathResult cerf_probe(void *self, const MpathAccess *a, uint32_t *lat_cycles)
{
    Cerf *c = self;
    if (!c->rs.n_usable)
        return MPATH_MISS;
    c->probe++;
    LbVttSlot s;
    if (!lb_vtt_lookup(&c->rs, a->line_addr, &s))
        return MPATH_MISS;
    uint64_t wait = rf_banks_access(&c->banks, s.rn, a->cycle);
    c->hit++;
    c->bank_wait += wait;
    *lat_cycles = (uint32_t)MIN(c->lat + wait, UINT32_MAX);
    return MPATH_SERVED;
}

static void cerf_on_evict(void *self, const MpathAccess *a)
{
    Cerf *c = self;
    LbVttSlot s;
    if (!lb_vtt_insert(&c->rs, a->line_addr, &s)) {
        c->no_room++;
        return;
    }
    c->insert++;
    c->replace += s.replaced;
    rf_banks_access(&c->banks, s.rn, a->cycle);
}

static void cerf_on_write(void *self, uint64_t line_addr)
{
    Cerf *c = self;
    c->invalidate += lb_vtt_invalidate(&c->rs, line_addr);
}

static void cerf_on_regfile(void *self, const RegfileView *rf)
{
    Cerf *c = self;
    c->reclaim += lb_vtt_on_regfile(&c->rs, rf);
}

static void cerf_kernel_begin(void *self, uint64_t cycle)
{
    Cerf *c = self;
    if (c->flush)
        lb_vtt_clear(&c->rs);
}

const MpathOps mpath_cerf_ops = {
    .meta = {.name = "cerf",
             .help = "CERF (MICRO 2016), Linebacker's comparison: the register file and the L1D as one storage; every "
                     "line the L1D replaces moves to the statically unused registers, served from there in place",
             POLICY_OPTS(cerf_opts, CerfOpts)},
    .enabled = cerf_enabled,
    .create = cerf_create,
    .destroy = cerf_destroy,
    .probe = cerf_probe,
    .on_evict = cerf_on_evict,
    .on_write = cerf_on_write,
    .on_regfile = cerf_on_regfile,
    .on_kernel_begin = cerf_kernel_begin,
};
