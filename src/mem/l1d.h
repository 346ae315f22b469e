/* l1d.h: the L1 data cache of one SM (thesis 1.1.2, 1.2.3; GPGPU-Sim 3.x L1D semantics).
 *
 * The LD/ST unit presents one coalesced line access per cycle. A load that hits returns after
 * l1d.hit_lat; a load to a line in flight merges into its MSHR entry if the entry has room;
 * a new miss needs a free MSHR entry, a miss-queue slot and (allocate-on-miss) a replaceable
 * way. Lacking any of them is a reservation failure: nothing changes and the LD/ST unit
 * replays the access next cycle. Global stores evict the line on a hit and do not allocate on
 * a miss; they need only a miss-queue slot (the "memory port"). The miss queue drains into
 * the interconnect; a full queue is counted as "interconnect full" when the interconnect
 * refused its head in the previous cycle, else as "miss queue full".
 *
 * Misses are classified as in thesis 2.1.1 / FUP paper sec. II: cold (the line was never in
 * this L1D), intra-warp (it was last evicted by an access of the requesting warp itself) or
 * inter-warp (evicted by another warp). A map remembers, for every line ever cached, the warp
 * whose access evicted it (a store's write-evict counts as an eviction by the storing warp).
 *
 * Replacement contract (policy.h): every hook of one access sees the same ReplAccess record;
 * a miss keeps its record in its MSHR entry, so the fill reports who missed. REPL_BYPASS fills
 * no line in either allocation mode (the request still returns its data to every waiter);
 * REPL_STALL waits in either mode (a reservation failure at the miss, or a fill retried from
 * the reply queue). A policy's bypass() hook may size a bypassing request (e.g. one sector); a
 * miss that victim() bypasses at allocation fetches only the 32-byte segments its access
 * touches (thesis 4.2.3). Another access may merge into a bypassed request only if it needs
 * no segment the request does not fetch; otherwise it replays (L1D_FAIL_MERGE) until the
 * request is back. A warp scheduler may send a warp's misses past the L1D too
 * (WarpSchedOps.bypass_l1d, ReplAccess.sched_bypass): they take the same bypass path without
 * asking the policy, fetch the segments the access touches, and count in bypass_sched. A load
 * the L1D may not serve (ReplAccess.l2_only: ld.cg, ld.volatile, ld.acquire.gpu, ...) takes
 * that path too, even when its line is present (which it leaves as it is), and skips the
 * miss-path components; it counts in l2_only.
 *
 * Miss-path components (policy.h, MpathOps) are probed in registry order when a load misses
 * and no MSHR entry tracks its line; a component hit moves the line into the L1D (or, for
 * MPATH_SERVED, reads it in place) and returns its data after l1d.hit_lat plus the component's
 * latency. A load marked steered (ReplAccess.steered: its warp's scheduler steers it) goes to
 * the alternate store instead, the first component with steered hooks: a hit there returns
 * its data; a miss takes the line out of the L1D if it is there (migration: a single copy), or
 * merges into its miss in flight, or is sent as a miss whose reply fills the alternate store
 * and no L1D line (policy.h, MpathOps.steered_probe). Steered accesses are not L1D accesses:
 * they count in the component's stats, not in access/hit/miss. Every valid line the L1D replaces
 * is offered to them, and every store tells them to drop their copy. The owner may ask to hear
 * the same replacements (evict_hook: the SM passes them on to a warp scheduler that wants them).
 *
 * Sectored L1D (l1d.sector_bytes > 0; GPGPU-Sim 4.x sector cache, Volta and later): an access
 * needs the sectors its lanes touch. It hits when they are all valid. Otherwise each missing
 * sector either is in flight, and the access waits in that sector's MSHR entry (a merge), or is
 * fetched: the access sends one request for its line's sectors not yet in flight, which takes
 * one MSHR entry per sector (GPGPU-Sim keys a sector cache's MSHRs by sector address). A line
 * miss allocates the line (replacement as above); a line that is present, valid or reserved,
 * is not replaced: the access is a sector miss (GPGPU-Sim's SECTOR_MISS) and only reserves the
 * sectors it fetches. Fills set the sectors' valid bits. A store's write-evict drops the
 * sectors it writes (the whole line when nothing else is left). Miss-path components hold
 * whole lines and are not modelled with a sectored L1D (the configuration is rejected). */
#ifndef WARPSIM_L1D_H
#define WARPSIM_L1D_H

#include <stdbool.h>
#include <stdint.h>

#include "base/linemap.h"
#include "mem/memreq.h"
#include "mem/mshr.h"
#include "mem/tags.h"
#include "stats/stats.h"

typedef enum L1dResult {
    L1D_HIT,    /* data ready after the latency l1d_load reports */
    L1D_MISS,   /* sent (token will come back from l1d_fill) */
    L1D_MERGED, /* joined a miss in flight (token will come back from l1d_fill) */
    L1D_SENT,   /* store or atomic put into the miss queue */
    L1D_FAIL_MSHR,
    L1D_FAIL_MERGE, /* the line's MSHR entry has no merge room */
    L1D_FAIL_LINE,  /* no replaceable line in the set, or the policy said stall */
    L1D_FAIL_MISSQ,
    L1D_FAIL_ICNT,
    L1D_FAIL_MPATH, /* a miss-path component had no free port */
    L1D_RESULT_COUNT
} L1dResult;

static inline bool l1d_failed(L1dResult r) { return r >= L1D_FAIL_MSHR; }

#define L1D_MAX_MPATH 4

/* Per MSHR entry: the record of the miss that allocated it, and how it fills. */
typedef struct L1dMiss {
    ReplAccess rec;
    bool bypass;   /* fills no line */
    bool steered;  /* a steered miss: the reply goes to the alternate store (fills no line) */
    uint32_t where; /* steered: the alternate store's place for the line (its steered_probe's) */
    uint32_t segs; /* 32-byte segments the request fetches (a bypassed one may fetch only some) */
} L1dMiss;

typedef struct L1d {
    uint16_t sm;
    uint32_t alloc; /* CACHE_ALLOC_MISS or CACHE_ALLOC_FILL */
    uint32_t miss_queue_cap;
    uint32_t hit_lat;
    Tags tags;
    Mshr mshr;
    L1dMiss *miss_rec; /* per MSHR entry */
    MemPool *pool;
    MemReqQueue miss_q;
    bool icnt_refused; /* the interconnect refused the miss queue's head last cycle */
    uint32_t *queued_total; /* optional: the owner's count of requests in all miss queues */
    uint64_t *queued_bits;  /* optional: the owner's bits (base.h), by SM id, of the non-empty miss queues */
    uint64_t *inject_wake;  /* optional: zeroed when the miss queue gets a new head (Gpu.inject_wake) */
    bool shared_words;      /* the three above are written by SMs on other threads too (gpu_par.c) */
    /* miss-path components, in registry order */
    uint32_t n_mpath;
    const MpathOps *mpath_ops[L1D_MAX_MPATH];
    void *mpath[L1D_MAX_MPATH];
    PolicyCtx mpath_ctx[L1D_MAX_MPATH];
    int steer_k; /* the alternate store: the first component with steered hooks, -1: none */
    int ctl_k;   /* the CTA controller: the component with ctl_tick (at most one), -1: none */
    uint64_t access, hit, miss, merge, fail_mshr, fail_merge, fail_line, fail_missq, fail_icnt, fail_mpath;
    uint64_t hit_other_cta; /* hits on lines another CTA's miss brought in */
    uint64_t store, store_hit_evict, atomic, fill, bypass, bypass_sched, l2_only, fill_stall, mpath_hit;
    uint64_t miss_cold, miss_intra, miss_inter;
    uint64_t sector_miss, sector_hit, sector_merge, sector_fetch; /* sectored L1D only */
    uint32_t max_fill_tokens; /* the most tokens one fill hands back */
    uint32_t all_segs;        /* the mask of every 32-byte segment of a line */
    /* Balance (FUP eq. 2) of this kernel's load accesses over the sets, kept as its two sums so
     * the stats stay counters: balance_sum = sum_j b_j (b_j + 1) / 2 and balance_ideal_micro =
     * 1e6 * m (m + 2n - 1) / (2n), each grown by one access at a time. */
    uint64_t balance_sum, balance_ideal_micro;
    uint64_t *set_count; /* b_j of this kernel */
    uint64_t kernel_accesses; /* m of this kernel */
    LineMap evicted_by; /* line -> 1 + uid of the warp that evicted it; 0: cached, never evicted */
    /* Optional, set by the owner: told every valid line replaced (as the miss-path components
     * are: not a store's write-evict, not a flush), with the uids of the warp that inserted it
     * and of the warp whose access replaced it. */
    void (*evict_hook)(void *ctx, uint64_t line_addr, uint32_t inserted_by, uint32_t evicted_by, uint64_t now);
    void *evict_hook_ctx;
} L1d;

void l1d_init(L1d *c, uint16_t sm, const Config *cfg, MemPool *pool, Stats *st);
void l1d_free(L1d *c);
/* Invalidate every valid line (sm.l1d_flush, between kernels): dirty lines are dropped, as in
 * GPGPU-Sim; the policy hears each as an eviction by warp uid UINT32_MAX. Reserved lines (none
 * when the SM is idle) are left alone; miss-path components keep what they hold. */
void l1d_flush(L1d *c, uint64_t now);
/* A kernel starts: balance is measured per kernel; miss-path components hear it. */
void l1d_kernel_begin(L1d *c, uint64_t now);
/* The SM's register file changed: miss-path components hear it (MpathOps.on_regfile). */
void l1d_regfile_changed(L1d *c, const RegfileView *rf);

/* CTA throttling (policy.h SmCtaCtl): the component that has ctl_tick, if any, hears CTA events
 * and its ticks (l1d_ctl_tick: the next cycle it needs, UINT64_MAX without a controller); its
 * line reads and writes go through the miss queue (l1d_send_ctl: false when the queue is full)
 * and their replies come back through l1d_ctl_reply (which recycles r). */
void l1d_cta_event(L1d *c, const MpathCtaEvent *e, const SmCtaCtl *ctl);
uint64_t l1d_ctl_tick(L1d *c, uint64_t now, const SmCtaCtl *ctl);
bool l1d_send_ctl(L1d *c, uint64_t addr, bool write, uint32_t tag, uint64_t now);
void l1d_ctl_reply(L1d *c, MemReq *r, uint64_t now);

/* addr: any byte of the line. a: who is asking (warp, pc, divergence, and the 32-byte segments
 * it touches; 0: the whole line); token: the caller's, handed back by l1d_fill. *out: on
 * L1D_HIT, the cycles until the data is ready; on L1D_MISS and L1D_MERGED, how many times
 * l1d_fill will hand the token back (1, or in a sectored L1D one per sector it waits for). */
L1dResult l1d_load(L1d *c, uint64_t addr, uint32_t token, const ReplAccess *a, uint64_t now, uint32_t *out);
L1dResult l1d_store(L1d *c, uint64_t addr, uint32_t bytes, const ReplAccess *a, uint64_t now);
/* The SM's instruction cache shares the L1D's port to the interconnect (its miss queue): a read
 * of `bytes` at line_addr flagged as an instruction fetch; false when the queue is full. */
bool l1d_send_inst_fetch(L1d *c, uint64_t line_addr, uint32_t bytes, uint64_t now);
/* Atomics bypass the L1D and are performed at the L2; the reply carries the token back. */
L1dResult l1d_atomic(L1d *c, uint64_t addr, uint32_t bytes, uint32_t token, const ReplAccess *a, uint64_t now);

/* A read reply arrived: install the line (or its sectors) and return its waiting tokens (at
 * most c->max_fill_tokens: l1d.mshr_max_merge per line or sector) in tokens[]; recycles r.
 * Returns -1 when the fill must wait (the policy said stall under allocate-on-fill): r is
 * untouched, retry it later. */
int l1d_fill(L1d *c, MemReq *r, uint32_t *tokens, uint64_t now);

/* The SM's unused shared memory changed (CTAs arrived or left): the components that use it hear. */
void l1d_smem_unused(L1d *c, uint32_t bytes);

/* Every access of a global load has been looked up (the replacement policy hears it). */
void l1d_load_serviced(L1d *c, const ReplLoad *l);

/* A requester that slept through n replays of an access that failed with `cause` (instead of
 * retrying every cycle) accounts them, so the stats equal cycle-by-cycle replay. */
void l1d_count_replays(L1d *c, L1dResult cause, uint64_t n);

#endif
