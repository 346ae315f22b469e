/* policy.h: the policy families, the miss-path components, and their registry.
 *
 * Every policy is one file under index/, repl/, warp/, cta/ or dram/ that defines one ops
 * struct, plus one POLICY(kind, name) line in policies.def; miss-path components (structures
 * that hold data: a victim cache, a shared-memory or register-file cache) are files under
 * mpath/ registered the same way. The machine talks to a policy only through these ops, with
 * small const context structs; a policy never reaches into another module's structs. A NULL
 * hook means "default behaviour". Policies are chosen by name from the config
 * (`l1d.index = fup`, `sm.sched = gto`).
 *
 * Options and stats belong to the policy: its PolicyMeta lists its options (an OptDesc table
 * with offsets into its own options struct), whose keys are `<owner key>.<policy>.<option>`
 * (`sm.sched.swl.limit`, `l1d.repl.rrip.rrpv_bits`); create() receives a PolicyCtx with the
 * parsed options struct, a stats handle and prefix, its SM / scheduler index and a seed. */
#ifndef WARPSIM_POLICY_H
#define WARPSIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/config.h"
#include "front/front.h"
#include "stats/stats.h"

/* ---- what every policy and component declares ------------------------------------------ */

typedef struct PolicyMeta {
    const char *name;
    const char *help;
    const OptDesc *opts; /* its options: offsets into a struct of opts_size bytes */
    uint32_t n_opts;
    uint32_t opts_size;
} PolicyMeta;

#define POLICY_OPTS(table, type) .opts = table, .n_opts = sizeof table / sizeof table[0], .opts_size = sizeof(type)

/* What create() receives. */
typedef struct PolicyCtx {
    const Config *cfg;
    const void *opts;     /* the policy's options struct, resolved (defaults, then the config) */
    Stats *stats;         /* where to register stats (NULL in unit tests: then none are kept) */
    char stat_prefix[64]; /* e.g. "sm[3].sched.swl" or "sm[3].l1d.victim" */
    uint32_t sm;          /* SM index (0 for GPU-wide policies) */
    uint32_t index;       /* scheduler within the SM, cache slice, ... */
    uint32_t count;       /* how many instances share `index` space (schedulers per SM, ...) */
    uint64_t seed;        /* gpu.seed mixed with sm and index */
    void *shared;         /* warp schedulers: the SM-wide state of create_shared, else NULL */
    void *opts_storage;   /* the registry's: what opts points to */
} PolicyCtx;

/* Register a policy-owned counter as "<stat_prefix>.<name>" (nothing when ctx->stats is NULL). */
void policy_stat_counter(const PolicyCtx *ctx, uint64_t *counter, const char *name, const char *help);
/* A policy-owned histogram of n buckets (labels[n]) as "<stat_prefix>.<name>" (nothing without stats). */
void policy_stat_histogram(const PolicyCtx *ctx, uint64_t *buckets, uint32_t n, const char *const *labels,
                           const char *name, const char *help);
/* A policy-owned time series "<stat_prefix>.<name>", one value per gpu.sample_cycles: register it
 * from create or create_shared, push one value from each on_sample. Without stats or without
 * sampling (gpu.sample_cycles = 0) the series is not kept and pushes do nothing. */
typedef struct PolicySeries {
    Stats *stats; /* NULL: not kept */
    uint32_t id;
} PolicySeries;
void policy_stat_series(const PolicyCtx *ctx, PolicySeries *s, const char *name, const char *help);
void policy_series_push(const PolicySeries *s, double value);

/* ---- set-index functions ---------------------------------------------------------------- */

/* One index function bound to one cache geometry. */
typedef struct IndexFn {
    const struct IndexOps *ops;
    uint32_t n_sets;     /* sets of the cache (a power of two) */
    uint32_t line_bytes; /* line size (a power of two) */
    unsigned set_bits;   /* log2(n_sets) */
    unsigned line_bits;  /* log2(line_bytes) */
    uint64_t param[8];   /* precomputed by init, private to the function */
} IndexFn;

typedef struct IndexOps {
    PolicyMeta meta;
    /* Precompute param[] from the geometry; NULL if nothing to precompute. */
    void (*init)(IndexFn *fn);
    /* Set of a byte address, in [0, n_sets). */
    uint32_t (*set_of)(const IndexFn *fn, uint64_t addr);
} IndexOps;

/* The largest prime <= n (1 when there is none), for the prime-modulo index functions. */
uint64_t index_prime_at_most(uint64_t n);

void index_fn_init(IndexFn *fn, const IndexOps *ops, uint32_t n_sets, uint32_t line_bytes);
static inline uint32_t index_fn_set(const IndexFn *fn, uint64_t addr) { return fn->ops->set_of(fn, addr); }

/* ---- insertion / replacement ------------------------------------------------------------ */

/* What the cache tells a replacement policy about one access. The same record reaches every
 * hook of one access: the L1D keeps the record of a miss in its MSHR entry, so the fill of an
 * allocate-on-fill cache reports the warp, pc and divergence of the load that missed. */
typedef struct ReplAccess {
    uint64_t line_addr;  /* the line's address (byte address >> line bits) */
    uint32_t set;
    uint32_t way;        /* the line hit or filled; for victim(): unused */
    uint32_t warp_id;    /* issuing warp (SM-local slot) */
    uint32_t warp_uid;   /* that warp's launch number on its SM: unique, unlike slots, which are reused */
    uint32_t cta;        /* that warp's CTA (the kernel's linear CTA id) */
    uint32_t pc;
    uint32_t n_lines;    /* lines the issuing warp instruction touches (its divergence) */
    uint32_t sched_rank; /* the warp's priority in GTO order among its scheduler's warps (0: oldest) */
    uint32_t sectors;    /* 32-byte segments of the line the access touches (bit i: bytes 32i..32i+31) */
    uint64_t cycle;
    bool is_write;
    bool steered;        /* a load of a warp its scheduler steers to the L1D's alternate store (WarpSchedOps.steer) */
    bool hit;            /* the access hit (on_hit) or missed (victim, on_insert, on_fill; on_hit of a sector miss) */
    bool at_fill;        /* called when the data arrives (allocate-on-fill), not at the miss */
    bool sched_bypass;   /* the warp's scheduler sends its misses past the L1D (WarpSchedOps.bypass_l1d):
                          * a miss allocates no line, as if bypass() had said so; the policy is not asked */
    bool l2_only;        /* a load the L1D may not serve (ld.cg, ld.volatile, ld.acquire.gpu, ...): it misses
                          * even on a present line and takes the same path as sched_bypass */
} ReplAccess;

/* A valid line leaves the cache. */
typedef struct ReplEvict {
    uint32_t set, way;
    uint64_t line_addr;     /* the victim's line address (byte address >> line bits) */
    uint32_t inserted_by;   /* uid of the warp whose miss brought it in */
    uint32_t evicted_by;    /* uid of the warp whose access evicted it */
    uint64_t cycle;
    bool by_write;          /* a store's write-evict, not a replacement */
} ReplEvict;

/* A global load instruction has had every line access looked up in the L1D (it retires from
 * the memory stage, thesis 4.2.4): how many accesses it made and how many of them missed
 * (merges into misses in flight included). Its data may still be on the way. */
typedef struct ReplLoad {
    uint32_t warp_id, warp_uid, pc;
    uint32_t sched_rank; /* as in ReplAccess */
    uint32_t accesses;   /* line accesses (its divergence) */
    uint32_t misses;     /* of them, not hits */
    uint64_t cycle;
} ReplLoad;

/* victim() answers: a way among the candidates, or
 *   REPL_BYPASS: no line is allocated for this miss; its data goes to the waiting accesses and
 *                fills nothing (under allocate-on-miss and allocate-on-fill alike); under
 *                allocate-on-miss the request then fetches only the 32-byte segments the
 *                access touches, which is all it writes to registers;
 *   REPL_STALL:  wait; under allocate-on-miss the access is a reservation failure and replays,
 *                under allocate-on-fill the fill waits in the reply queue and is retried. */
enum { REPL_BYPASS = -1, REPL_STALL = -2 };

typedef struct ReplOps {
    PolicyMeta meta;
    void *(*create)(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc);
    void (*destroy)(void *self);
    /* Victim among the ways set in `candidates` (valid, not reserved; the cache fills invalid
     * ways first without asking). Returns a way, REPL_BYPASS or REPL_STALL. */
    int (*victim)(void *self, const ReplAccess *a, uint64_t candidates);
    /* Asked once per new miss, before anything is allocated: bytes of a bypassing request (a
     * multiple of 32, at most the line: e.g. the sectors the access needs), or 0 to handle the
     * miss normally. A bypassed miss fills no line; NULL: never bypass up front. */
    uint32_t (*bypass)(void *self, const ReplAccess *a);
    /* The access found its line: a hit, or in a sectored cache a sector miss (a.hit false: the
     * line is used and fetches the sectors it lacks; under allocate-on-fill it is told only at
     * the fill, through on_fill). */
    void (*on_hit)(void *self, const ReplAccess *a);
    /* A line was inserted (on miss for allocate-on-miss, on fill for allocate-on-fill). */
    void (*on_insert)(void *self, const ReplAccess *a);
    /* The data of an inserted line arrived (both modes; a.way is the line); in a sectored cache,
     * once per reply, with some of its sectors. */
    void (*on_fill)(void *self, const ReplAccess *a);
    void (*on_evict)(void *self, const ReplEvict *e);
    /* A global load was looked up in full (L1D only; the L2 has no loads). */
    void (*on_load_serviced)(void *self, const ReplLoad *l);
} ReplOps;

/* ---- warp schedulers -------------------------------------------------------------------- */

/* Per warp slot, maintained by the SM when it changes (not rebuilt per cycle). */
typedef struct WarpSlotInfo {
    bool live;
    bool has_next;        /* the next instruction is known (in the I-buffer) */
    bool next_global_load; /* it is a load from global or local memory */
    uint8_t next_op;      /* WinstOp of the next instruction */
    uint8_t next_space;   /* WinstSpace of the next instruction */
    uint32_t next_pc;
    uint8_t next_lanes;   /* active lanes of the next instruction: the SIMT stack's top, before its
                           * guard predicate (FrontOps.peek_mask); those of the warp's last
                           * instruction when the front end cannot tell (its threads at launch) */
    uint32_t cta_id;      /* the kernel's CTA (linear id) */
    uint32_t cta_slot;    /* the SM's CTA slot */
    uint64_t age;         /* launch order on the SM: smaller is older */
    uint32_t loads_pending;
    uint32_t last_load_lines; /* line accesses of its most recent global load (0: none yet) */
} WarpSlotInfo;

/* How busy the memory side is, GPU-wide (SmView.mem): running totals the GPU keeps as requests
 * go by, with no per-cycle work. A policy samples them at the ends of its own windows
 * (mem_busy_sample) and takes the utilisation in between (mem_busy_util). */
typedef struct MemBusy {
    uint64_t l2_requests;      /* requests the L2 slices took from the request network */
    uint64_t dram_busy_cycles; /* DRAM data-bus busy cycles, summed over the channels (dram[i].busy_cycles) */
    const uint64_t *l2_cycle, *dram_cycle; /* the clocks of the L2 and DRAM domains */
    uint32_t n_l2_slices, n_dram_channels;
} MemBusy;

typedef struct MemBusySample {
    uint64_t l2_requests, dram_busy_cycles, l2_cycle, dram_cycle;
} MemBusySample;

MemBusySample mem_busy_sample(const MemBusy *m);
/* Between two samples: the L2's utilisation (requests per slice per L2 cycle, at most 1: a
 * slice takes one request a cycle) and the DRAM's (the data buses' busy fraction), each in
 * [0, 1]; 0 over an empty interval. */
void mem_busy_util(const MemBusy *m, const MemBusySample *from, const MemBusySample *to, double *l2, double *dram);

/* The SM as every scheduler sees it at one cycle. */
typedef struct SmView {
    uint32_t id;
    uint32_t max_warps, n_sched;
    uint32_t mshr_used, mshr_free;        /* L1D MSHR entries */
    uint32_t miss_queue_used, miss_queue_cap;
    bool ldst_busy;                       /* the LD/ST unit holds an instruction */
    bool ldst_blocked;                    /* ... and its last access met a reservation failure */
    uint32_t ldst_warp, ldst_pc;          /* the instruction it holds */
    uint32_t ldst_pending;                /* accesses of it not yet accepted by the L1D */
    uint32_t ldst_queued;                 /* memory instructions issued and waiting for it (sm.ldst_queue) */
    uint32_t live_ctas, live_warps;
    uint64_t live_mask;                   /* bit w: slot w holds a live warp */
    uint64_t barrier_mask;                /* ... that waits at a barrier for the rest of its CTA */
    uint64_t warp_insts;                  /* instructions the SM has issued (this run) */
    uint32_t smem_unused;                 /* shared-memory bytes no resident CTA allocates */
    const WarpSlotInfo *slot;             /* [max_warps] */
    const MemBusy *mem;                   /* the GPU's memory-side counters (NULL: an SM on its own) */
} SmView;

/* One scheduler's view of its warps at one cycle; bit w stands for warp slot w of the SM. */
typedef struct WarpSchedView {
    uint64_t ready;      /* can issue this cycle */
    uint64_t valid;      /* hold a live warp belonging to this scheduler */
    uint64_t mem_wait;   /* blocked on an outstanding global/local load */
    const uint64_t *age; /* launch order per slot: smaller is older */
    uint64_t cycle;
    uint32_t sched;      /* this scheduler's index in its SM */
    const SmView *sm;
} WarpSchedView;

/* A global/local load's data is all back (on_load_done), or it has left the memory stage
 * (on_load_serviced). */
typedef struct WarpLoadDone {
    uint32_t slot, pc;
    uint32_t accesses;   /* line accesses of the instruction */
    uint32_t misses;     /* of them, missed in the L1D (merged ones included) */
    bool fully_cached;   /* every access hit */
    uint64_t cycle;
} WarpLoadDone;

/* A line of the L1D, told to the scheduler of the warp it concerns (on_l1d_evict, on_l1d_miss). */
#define WARP_L1D_NOBODY UINT32_MAX /* WarpL1dEvent.evictor: no live warp */
typedef struct WarpL1dEvent {
    uint32_t slot;      /* on_l1d_evict: the live warp whose miss brought the line in; on_l1d_miss: the warp that missed */
    uint32_t evictor;   /* on_l1d_evict: the live warp whose access replaced the line (may be `slot` itself),
                         * WARP_L1D_NOBODY when that warp has exited (e.g. a fill after its warp left);
                         * on_l1d_miss: WARP_L1D_NOBODY */
    uint32_t pc;        /* on_l1d_miss: the load's pc (on_l1d_evict: 0) */
    uint64_t line_addr; /* byte address >> line bits */
    uint64_t cycle;
} WarpL1dEvent;

typedef struct WarpSchedOps {
    PolicyMeta meta;
    /* State shared by the schedulers of one SM (made before them, freed after); NULL: none. */
    void *(*create_shared)(const PolicyCtx *ctx);
    void (*destroy_shared)(void *shared);
    void *(*create)(const PolicyCtx *ctx); /* ctx->index: the scheduler, ctx->shared: as above */
    void (*destroy)(void *self);
    /* The slot to issue from, among v->ready (non-zero); -1 to issue nothing. */
    int (*pick)(void *self, const WarpSchedView *v);
    /* A qualification check before pick: false holds the ready warp back this cycle (counted
     * as sched.held, apart from no_ready and ldst_stall). */
    bool (*may_issue)(void *self, uint32_t slot, const WarpSlotInfo *w, const WarpSchedView *v);
    void (*on_issue)(void *self, uint32_t slot, const WarpSchedView *v);
    void (*on_warp_exit)(void *self, uint32_t slot);
    void (*on_load_done)(void *self, const WarpLoadDone *e);
    /* A global/local load has left the memory stage: every access of it has been looked up in
     * the L1D (so its misses are known, merges included; its data may still be on the way), or,
     * for a load without a destination or without an active lane, handed on without a lookup
     * (misses 0). Exactly once per issued global/local load, before its on_load_done. */
    void (*on_load_serviced)(void *self, const WarpLoadDone *e);
    /* The L1D replaced a valid line that a live warp's miss brought in (its inserting warp): that
     * warp's scheduler hears it. Lines whose inserting warp has exited belong to nobody and are
     * not told (a slot's next warp is another warp), nor are lines a store's write-evict or a
     * flush removes. e->evictor names the live warp whose access replaced the line (interference
     * detection: CIAO). Only when the policy defines it does the SM look the warps up. */
    void (*on_l1d_evict)(void *self, const WarpL1dEvent *e);
    /* An access of a global/local load of the warp missed in the L1D and went on as a new miss
     * (the L1D's `miss`: not a merge into a miss in flight, nor a miss-path component's hit). */
    void (*on_l1d_miss)(void *self, const WarpL1dEvent *e);
    /* Asked at each L1D lookup of a load of the warp (the warp's scheduler only): true sends a
     * miss of this access past the L1D, allocating no line (the REPL_BYPASS path, counted in
     * l1d.bypass and l1d.bypass_sched; it fetches the 32-byte segments the access touches); a
     * hit is served as usual. look_ups: how many look-ups of the warp's loads this answer
     * stands for: 1 at a look-up; 0 when the SM only asks whether the answer changed (a
     * refused access waits for that, sm_ldst.c); n for the n replays a refused access slept
     * through, all of which had this answer. NULL: never (priority-based cache allocation,
     * PCAL, uses it). */
    bool (*bypass_l1d)(void *self, uint32_t slot, uint64_t look_ups);
    /* Every scheduler of the SM hears these. */
    void (*on_kernel_start)(void *self, const FrontKernel *k);
    void (*on_kernel_end)(void *self);
    void (*on_cta_launch)(void *self, uint32_t cta_id, uint32_t first_slot, uint32_t n_warps);
    void (*on_cta_done)(void *self, uint32_t cta_id);
    /* Steering: true sends the warp's global/local loads to the L1D's alternate store (the
     * miss-path component named by `steers`, through its steered_* hooks) instead of the L1D's
     * lines. Asked for each such access as the L1D looks it up, and whether the answer changed
     * for a refused one: it must change nothing. NULL: never. */
    bool (*steer)(void *self, uint32_t slot);
    /* The miss-path component this scheduler steers to: it is part of the machine whenever this
     * scheduler is chosen (MpathOps.enabled need not say so). NULL: none. */
    const char *steers;
    /* A time-series sample is taken (gpu.sample_cycles): the SM's first scheduler hears it. */
    void (*on_sample)(void *self);
    /* The warps the scheduler throttles, as of its last decision: live warps it holds back
     * whatever they wait for (SWL's and PCAL's throttled warps, CIAO's stalled ones, the warps
     * CCWS admits no load). The SM masks the answer with the scheduler's live warps; a shared
     * state may answer for the whole SM. Read only for the `sm.sched.active_warps` series;
     * NULL: none throttled. */
    uint64_t (*throttled)(const void *self);
    /* True when no hook reads WarpSchedView.sm (the SmView and its WarpSlotInfo) nor
     * may_issue's slot info: the SM then keeps neither up to date, work it would do on every
     * issue (GTO, LRR). */
    bool ignores_sm_view;
} WarpSchedOps;

/* The oldest slot of a mask (smallest age), -1 for an empty mask: GTO's order, for every
 * scheduler that builds on it. */
int warp_sched_oldest(uint64_t mask, const uint64_t *age);
/* Greedy-then-oldest among v->ready: `last` (the warp that issued last, -1: none) while it is
 * ready, else the oldest ready warp. */
int warp_sched_gto(int last, const WarpSchedView *v);

/* ---- CTA schedulers --------------------------------------------------------------------- */

/* One SM as the CTA scheduler sees it. */
typedef struct CtaSmInfo {
    uint32_t live_ctas;
    uint32_t room;    /* more CTAs of this kernel that fit now */
    uint32_t room_empty; /* CTAs of this kernel that fit the SM when empty */
    uint32_t free_threads, free_warps, free_regs, free_smem_bytes, free_cta_slots;
} CtaSmInfo;

typedef struct CtaSchedView {
    uint32_t n_ctas;          /* CTAs of the kernel */
    const uint8_t *launched;  /* per CTA: already dispatched */
    uint32_t next_unlaunched; /* lowest CTA id not yet dispatched (n_ctas when none) */
    uint32_t n_unlaunched;
    uint32_t n_sms;
    const CtaSmInfo *sm;      /* [n_sms] */
    const FrontKernel *kernel;
    uint64_t cycle;
} CtaSchedView;

typedef struct CtaSchedOps {
    PolicyMeta meta;
    void *(*create)(const PolicyCtx *ctx, uint32_t n_sms); /* once per run, with its stats */
    void (*destroy)(void *self);
    /* A kernel starts (k stays valid until its end) and ends. */
    void (*on_kernel_begin)(void *self, const FrontKernel *k);
    void (*on_kernel_end)(void *self);
    /* SM `sm` has room for v->sm[sm].room (> 0) more CTAs: which to place there now, at most
     * that many, any not yet launched, written to ctas[]; returns how many (0: none now). The
     * dispatcher visits SMs round-robin, asking each at most once per round. */
    uint32_t (*pick)(void *self, uint32_t sm, const CtaSchedView *v, uint32_t *ctas);
    void (*on_cta_done)(void *self, uint32_t sm, uint32_t cta_id, const CtaSchedView *v);
} CtaSchedOps;

/* ---- DRAM request schedulers ------------------------------------------------------------ */

/* One queued DRAM request as the scheduler sees it. */
typedef struct DramSchedEntry {
    uint32_t bank;
    uint32_t row;
    uint64_t arrival; /* DRAM cycle the request entered the queue */
    bool is_write;
} DramSchedEntry;

typedef struct DramSchedOps {
    PolicyMeta meta;
    /* Index into q[0..n) of the request to serve next for `bank`, whose open row is open_row
     * (UINT32_MAX when closed); -1 if no request targets that bank. q is in arrival order; the
     * controller passes the bank's own queue, so every entry targets it. */
    int (*pick)(const DramSchedEntry *q, uint32_t n, uint32_t bank, uint32_t open_row);
} DramSchedOps;

/* ---- L1D miss-path components ----------------------------------------------------------- */

/* An SM's register file as miss-path components see it (src/core/regfile.h): warp registers
 * of 128 bytes, one L1D line each, numbered RN 0..n_wregs-1. Idle ones are statically unused
 * (SUR: allocated to no resident CTA) or dynamically unused (DUR: held by an inactive CTA). */
typedef struct RegfileView {
    uint32_t n_wregs;
    uint32_t sur, dur;    /* idle warp registers of each kind */
    uint32_t lrn_end;     /* one past the largest warp register of an active CTA (0: none) */
    const uint64_t *idle; /* bit RN (word RN / 64, bit RN % 64): idle */
    uint64_t cycle;
    bool in_kernel; /* from the SM's first CTA of a kernel to the kernel's end: the window over
                       which the sm.rf idle-register counters integrate */
} RegfileView;

static inline bool regfile_view_idle(const RegfileView *v, uint32_t rn)
{
    return rn < v->n_wregs && (v->idle[rn / 64] >> (rn % 64) & 1);
}

/* CTA throttling (optional for miss-path components): what the SM lets a component do with its
 * CTAs, given with the component's CTA hooks (MpathOps.on_cta, ctl_tick). A CTA is named by its
 * slot in the SM (the hardware CTA id). A held CTA's warps issue nothing (loads already in
 * flight complete); its registers stay allocated to it. The CTA limit caps the CTAs resident on
 * the SM that the dispatcher fills up to (UINT32_MAX: no cap; held CTAs count). Requests sent
 * go through the L1D's miss queue to the L2 and DRAM as real traffic, outside the MSHRs: a read
 * fetches one 128-byte line, a write stores one; each is answered (MpathOps.on_ctl_reply) with
 * its tag. */
typedef struct SmCtaCtl {
    void *sm;
    uint64_t (*insts)(void *sm);                        /* warp instructions issued so far */
    bool (*cta_drained)(void *sm, uint32_t slot);      /* no load of the CTA's warps is in flight */
    void (*cta_hold)(void *sm, uint32_t slot, bool hold, uint64_t now);
    /* the CTA's registers become dynamically unused (false) or the CTA's again (true) */
    void (*cta_regs_active)(void *sm, uint32_t slot, bool active, uint64_t now);
    void (*set_cta_limit)(void *sm, uint32_t limit);
    bool (*send)(void *sm, uint64_t addr, bool write, uint32_t tag, uint64_t now); /* false: queue full */
} SmCtaCtl;

/* A CTA arrived on the SM or completed (MpathOps.on_cta). */
typedef struct MpathCtaEvent {
    bool launched;      /* false: completed */
    uint32_t slot;      /* hardware CTA id */
    uint32_t frn, n_wregs; /* its first warp register and how many it holds */
    uint32_t max_ctas;  /* CTA slots of the SM */
    uint64_t cycle;
} MpathCtaEvent;

/* A per-SM chain of structures probed, in registry order, when an L1D load misses and no MSHR
 * entry tracks its line yet (before an MSHR entry is taken), and fed by the L1D's evictions.
 * Each has its own latency, port limit, options (`l1d.<name>.*`) and stats (`sm[i].l1d.<name>.*`). */
typedef struct MpathAccess {
    uint64_t line_addr;  /* byte address >> line bits */
    uint32_t warp_uid;   /* the asking (probe, on_load) or evicting (on_evict) warp */
    uint32_t inserted_by; /* on_evict: uid of the warp that brought the line into the L1D */
    uint32_t pc;         /* probe, on_load: the load's; on_evict: that of the last load that
                          * brought the line in or hit it (Linebacker's per-line hashed PC) */
    uint64_t cycle;
} MpathAccess;

typedef enum MpathResult {
    MPATH_MISS,   /* not here: the L1D goes on with its miss */
    MPATH_HIT,    /* here: the line moves to the L1D; its data is ready after *lat_cycles */
    MPATH_BUSY,   /* no port free this cycle: the access replays (reservation failure) */
    MPATH_SERVED, /* here, read in place: the line stays in the component and the L1D allocates
                   * nothing; data after *lat_cycles (a shared-memory cache line, seeds/003 IV-B;
                   * a register-file victim line, seeds/004 sec. 5.3) */
} MpathResult;

#define MPATH_NOWHERE UINT32_MAX /* steered_probe: the alternate store has no room (no steering) */

/* What became of one accepted L1D load access (on_load). */
typedef enum MpathOutcome {
    MPATH_OUT_HIT,    /* an L1D hit */
    MPATH_OUT_MERGE,  /* merged into a miss in flight */
    MPATH_OUT_SERVED, /* a miss a miss-path component served (MPATH_HIT or MPATH_SERVED) */
    MPATH_OUT_MISS,   /* a miss sent on to the L2 */
} MpathOutcome;

typedef struct MpathOps {
    PolicyMeta meta;
    /* Is it part of this machine? (e.g. l1d.victim > 0; NULL: only when the chosen warp
     * scheduler steers to it, policy_mpath_enabled) */
    bool (*enabled)(const Config *cfg);
    void *(*create)(const PolicyCtx *ctx, uint32_t line_bytes);
    void (*destroy)(void *self);
    MpathResult (*probe)(void *self, const MpathAccess *a, uint32_t *lat_cycles);
    /* A valid line was replaced in the L1D: keep it or not. */
    void (*on_evict)(void *self, const MpathAccess *a);
    /* A store wrote the line: drop any copy (it is stale). */
    void (*on_write)(void *self, uint64_t line_addr);
    /* An alternate store (optional; the first enabled component that has steered_probe): the
     * loads of warps their scheduler steers (WarpSchedOps.steer) look here instead of in the
     * L1D's lines. steered_probe: MPATH_HIT (data after *lat_cycles), MPATH_BUSY (replay), or
     * MPATH_MISS with *where the place the line will go (kept in the miss's MSHR entry), or
     * MPATH_NOWHERE when the store has no room (then the access is an ordinary L1D access).
     * On a miss the L1D looks at its own tags: a line it holds leaves the L1D and is given to
     * steered_fill at once (migrated, data after the L1D's hit latency plus *lat_cycles); a
     * line in flight is merged into; otherwise the L1D sends the miss and the reply goes to
     * steered_fill instead of the L1D's lines. steered_fill returns true when it displaced a
     * valid line, described in *victim (line, the warp that brought it in, the filling warp):
     * the L1D tells it to its evict_hook like its own replacements. */
    MpathResult (*steered_probe)(void *self, const MpathAccess *a, uint32_t *lat_cycles, uint32_t *where);
    bool (*steered_fill)(void *self, const MpathAccess *a, uint32_t where, bool migrated, MpathAccess *victim);
    /* The SM's unused shared memory (bytes no resident CTA allocates) changed. */
    void (*on_smem_unused)(void *self, uint32_t bytes);
    /* Optional. Every load access the L1D accepted (not a replayed refusal), once, with what
     * became of it: per-load locality monitors (Linebacker's Load Monitor) count here. */
    void (*on_load)(void *self, const MpathAccess *a, MpathOutcome o);
    /* Optional. The SM's register file changed (a CTA took or gave back registers, or became
     * inactive or active): components that keep lines in idle registers resize here. */
    void (*on_regfile)(void *self, const RegfileView *rf);
    /* Optional. A kernel starts on the SM. */
    void (*on_kernel_begin)(void *self, uint64_t cycle);
    /* Optional, CTA throttling (SmCtaCtl). on_cta: a CTA arrived or completed (a component may
     * act on it at once, e.g. bring a held CTA back before the dispatcher fills the slot).
     * ctl_tick: called by the SM at the cycle it last returned (the first time at the kernel's
     * first CTA); returns the next cycle it is needed (UINT64_MAX: only after an event).
     * on_ctl_reply: a request it sent was answered. After on_cta and on_ctl_reply the SM calls
     * ctl_tick again at the next cycle. */
    void (*on_cta)(void *self, const MpathCtaEvent *e, const SmCtaCtl *ctl);
    uint64_t (*ctl_tick)(void *self, uint64_t now, const SmCtaCtl *ctl);
    void (*on_ctl_reply)(void *self, uint32_t tag, bool write, uint64_t now);
} MpathOps;

/* ---- registry --------------------------------------------------------------------------- */

typedef enum PolicyKind {
    POLICY_INDEX, POLICY_REPL, POLICY_WARP, POLICY_CTA, POLICY_DRAM, POLICY_MPATH, POLICY_KIND_COUNT
} PolicyKind;

const char *policy_kind_name(PolicyKind k);
/* The ops of a policy (an IndexOps*, ReplOps*, ...), or NULL if no such name. */
const void *policy_find(PolicyKind kind, const char *name);
const void *policy_find_by_kind_name(const char *kind, const char *name);
const PolicyMeta *policy_meta(PolicyKind kind, const char *name);

const IndexOps *policy_index(const char *name);
const ReplOps *policy_repl(const char *name);
const WarpSchedOps *policy_warp(const char *name);
const CtaSchedOps *policy_cta(const char *name);
const DramSchedOps *policy_dram(const char *name);
const MpathOps *policy_mpath(const char *name);
/* Whether the miss-path component is part of the machine of config c: its enabled() says so, or
 * the chosen warp scheduler steers to it (WarpSchedOps.steers). */
bool policy_mpath_enabled(const MpathOps *ops, const Config *c);

/* Every POLICY option of the config names a registered policy of its kind, and every policy
 * option set is one the chosen policy declares, with a valid value; the options of the chosen
 * policies that were not set get their defaults (the config becomes fully resolved). Returns 1,
 * or 0 with a one-line message in err, e.g. "<key>: unknown <kind> policy '<name>' (choose
 * from: ...)". policy_validate_config: the same, exiting 1 with the message (command line). */
int policy_check_config(Config *c, char *err, size_t err_len);
void policy_validate_config(Config *c);

/* A context for creating one instance of a policy: options parsed from cfg (the config was
 * checked, so they parse) into storage owned by the context; free with policy_ctx_free.
 * owner_key: the config key that chose it ("sm.sched", "l1d.repl", "l1d" for components). */
void policy_ctx_init(PolicyCtx *ctx, const PolicyMeta *meta, const char *owner_key, const Config *cfg,
                     Stats *st, const char *stat_prefix, uint32_t sm, uint32_t index);
void policy_ctx_free(PolicyCtx *ctx);

/* `warpsim --list-policies`: every policy with its help and its options. */
void policy_list(FILE *f);
/* Every policy option for `warpsim --help-config`. */
void policy_help_options(FILE *f);
/* Number registered of one kind, and the i-th name (for contract tests). */
uint32_t policy_count(PolicyKind kind);
const char *policy_name_at(PolicyKind kind, uint32_t i);

#endif
