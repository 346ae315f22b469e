/* sm.h: one streaming multiprocessor (thesis 1.1, Fig. 1.2). sm.c: CTAs, warps and the cycle;
 * sm_scoreboard.c: when a warp can issue; sm_issue.c: the warp schedulers and issue;
 * sm_ldst.c: the LD/ST unit, load records and timed returns.
 *
 * Warp slots with a one-entry I-buffer each, a per-warp scoreboard, sm.n_sched warp
 * schedulers (slot w belongs to scheduler w mod n) choosing among ready warps through the
 * warp-scheduler policy, SP and SFU pipelines with latency and initiation interval, and one
 * LD/ST unit that takes one memory instruction at a time: it presents the instruction's
 * coalesced accesses to the L1D one per cycle, replaying an access that meets a reservation
 * failure (the instruction keeps the unit: memory occlusion, thesis 1.2.3). Shared-memory
 * accesses take one pass per bank-conflict degree. Loads release their destination registers
 * when the last access's data is back.
 *
 * Warp schedulers see the SM through SmView and per-slot WarpSlotInfo (policy.h), kept up to
 * date as warps change rather than rebuilt per cycle. The SM never calls up into the GPU: CTAs
 * that complete are queued for the GPU to collect (sm_take_done_cta). */
#ifndef WARPSIM_SM_H
#define WARPSIM_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/coalescer.h"
#include "core/regfile.h"
#include "front/front.h"
#include "core/sm_icache.h"
#include "mem/l1d.h"
#include "policy/index_metrics.h"
#include "policy/policy.h"
#include "stats/stats.h"

typedef struct ScoreboardEntry {
    uint16_t reg;
    uint64_t release; /* cycle the value is written; UINT64_MAX while a load is outstanding */
} ScoreboardEntry;

/* cp.async groups a warp tells apart: group g counts in slot g mod this. A slot still busy with
 * group g - SM_ASYNC_SLOTS when g's first copy comes takes g's copies too, and stays marked with
 * the older group: a wait then waits for both (later than needed, never earlier). */
#define SM_ASYNC_SLOTS 8

typedef struct Warp {
    bool live;        /* the slot holds a warp that has not finished */
    bool exited;      /* issued its exit */
    bool at_barrier;
    uint16_t cta_slot;
    uint8_t slot;     /* its slot in the SM */
    uint32_t id;      /* front-end warp id: sm * max_warps + slot */
    uint64_t age;     /* launch order, for oldest-first policies */
    const WinstStatic *next; /* I-buffer (NULL: fetch from the front end) */
    uint64_t ibuf_ready; /* UINT64_MAX: waits for the fetch unit (sm.ibuffer) */
    uint32_t ibuf_n;     /* sm.ibuffer: instructions left in the buffer */
    uint64_t ready_at; /* earliest cycle it may issue; UINT64_MAX: waits for an event */
    bool raw;          /* ready_at is held back by the scoreboard (a read-after-write hazard) */
    uint32_t n_sb;
    ScoreboardEntry *sb;
    uint8_t lanes;    /* active lanes of its last instruction (its threads at launch) */
    uint8_t counted_lanes;  /* the bit count of counted_mask (sm_lanes_of) */
    uint32_t counted_mask;  /* the last active mask counted: it rarely changes between issues */
    uint32_t loads_pending;
    uint32_t stores_pending; /* store accesses taken by the LD/ST unit and not yet acknowledged by the L2 */
    /* cp.async (WINST_F_ASYNC): groups committed so far (the open group's id), copies in flight,
     * and per slot the copies in flight and the oldest group among them */
    uint32_t async_open, async_n;
    uint32_t async_gid[SM_ASYNC_SLOTS];
    uint16_t async_pend[SM_ASYNC_SLOTS];
} Warp;

typedef struct SmCta {
    bool live;
    uint32_t cta_id;
    uint32_t first_slot, n_warps;
    uint32_t n_live_warps, n_at_barrier;
    uint32_t threads, regs, smem_bytes;
    uint32_t frn; /* its first warp register (Regfile) */
} SmCta;

/* One load (or atomic) in flight: which registers it will write, how many accesses remain. */
/* MPLI buckets: 0, 1, 2, 3-31, 32 (and more) misses (thesis Fig. 2.2). */
#define SM_MPLI_BUCKETS 5

typedef struct LoadRec {
    uint16_t warp;
    uint8_t n_dst;
    uint8_t async_slot; /* a cp.async's group slot in its warp, else SM_NO_ASYNC */
    bool all_sent;
    bool global;        /* a global/local load: the scheduler hears when it is done */
    uint32_t pc;
    uint32_t n_access, n_miss; /* line accesses looked up, and how many of them missed (merges included) */
    uint32_t n_lines;          /* line accesses it makes (global loads) */
    uint32_t sched_rank;       /* its warp's GTO rank at issue */
    uint32_t n_mshr;           /* MSHR entries its misses allocated */
    uint64_t issued;           /* cycle it issued */
    uint64_t occlusion;        /* cycles to its last lookup beyond the unhindered minimum (thesis 2.3.2) */
    uint16_t dst[WINST_MAX_DST];
    uint32_t outstanding;
    uint32_t next_free;
} LoadRec;

/* A timed return (L1D hit, shared or constant load): a FIFO per fixed latency keeps order. */
enum { SM_RING_HIT, SM_RING_SMEM, SM_RING_CONST, SM_RING_COUNT };

typedef struct TimedRing {
    uint64_t *ready;
    uint32_t *rec;
    uint32_t head, n, cap;
} TimedRing;

/* One access waiting in the L1 latency queue (sm.l1d_access = queued). */
typedef struct LqEntry {
    uint64_t line_addr;
    uint64_t ready;     /* first cycle the L1D may look it up */
    uint32_t rec;       /* the load's record, or SM_NO_REC */
    uint32_t bytes;     /* stores and atomics */
    uint32_t pc, n_lines, sched_rank, sectors, warp_uid;
    uint16_t warp;
    uint8_t op;
    uint8_t flags; /* WINST_F_* */
} LqEntry;

/* A memory instruction issued while the LD/ST unit was busy, waiting for it (sm.ldst_queue):
 * what the unit needs to start it. */
typedef struct MemInst {
    uint8_t op, space, flags; /* WinstOp, WinstSpace, WINST_F_* */
    uint16_t warp;
    uint32_t rec, n, bytes, pc, sched_rank;
    uint32_t passes; /* shared memory: bank-conflict passes */
    CoalAccess acc[COAL_MAX_ACCESSES];
} MemInst;

typedef struct Ldst {
    /* Asked on every cycle of the SM (sm_ldst_quiet, sm_ldst_can_take): first, in one line. */
    bool active;
    /* After a reservation failure the unit sleeps instead of replaying every cycle until
     * something that can change the outcome happens (sm_ldst.c: a fill, a drain or a new
     * request in the miss queue, the interconnect's refusal); the replays it skipped are added
     * to the counters when it wakes, so the stats equal cycle-by-cycle replay. */
    bool blocked, wake;
    bool rq_retry; /* the re-execution queue's (below) */
    uint32_t lq_n, mq_n, mq_cap, rq_n;
    uint8_t op;    /* WinstOp */
    uint8_t space; /* WinstSpace */
    uint8_t flags; /* WINST_F_* */
    uint16_t warp; /* issuing warp slot */
    uint32_t rec;  /* LoadRec of a load/atomic with a destination, else NO_REC */
    uint32_t pos, n;
    uint32_t bytes;
    uint32_t n_lines;
    uint32_t pc;
    uint32_t sched_rank; /* the issuing warp's GTO priority, for the replacement policy */
    uint64_t busy_until; /* shared/const: cycles of passes */
    uint64_t start;      /* cycle the instruction entered the unit */
    uint8_t block_cause; /* L1dResult */
    uint32_t block_missq; /* the miss queue's length when it blocked */
    uint32_t block_set;   /* L1D_FAIL_LINE: the set, every way reserved; else SM_NO_SET */
    uint64_t filled_addr; /* the line the reply acted on this cycle filled, else SM_NO_FILL */
    uint16_t block_warp;  /* the blocked access's warp slot */
    uint8_t block_choice; /* and what its scheduler decided for it (sm_ldst_sched_choice) */
    uint64_t blocked_since;
    /* The L1 latency queue (sm.l1d_access = queued; lq_cap = l1d.hit_lat, else 0; lq_n above).
     * In that mode blocked/wake/... above describe its head, not the unit: the unit only waits
     * for room. */
    LqEntry *lq;
    uint32_t lq_head, lq_cap;
    uint64_t lq_last_ready;
    /* Memory instructions issued while the unit was busy, in issue order (sm.ldst_queue
     * entries, mq_cap; none when 0; mq_n above). Non-empty only while the unit is active. */
    MemInst *mq;
    uint32_t mq_head;
    /* The cache access re-execution queue (sm.reexec_queue entries; none when 0, sm_reexec.c;
     * rq_n above): refused global-load accesses, oldest first. rq_retry: a fill or a miss-queue
     * drain has happened since its head was last refused (until then retrying cannot succeed). */
    LqEntry *rq;
    uint32_t rq_head, rq_cap;
    CoalAccess acc[COAL_MAX_ACCESSES];
} Ldst;

/* What one cycle without issue added to the schedulers' stall counters. */
typedef struct SmStall {
    uint32_t no_ready, ldst, structural, raw, idle;
} SmStall;

/* gpu.threads > 1 (gpu_par.c): an SM thread's place in the order of the SMs. Before the first
 * front-end call of a cycle that must run in order (sm_front_order in sm_internal.h), an SM
 * waits until the SMs before it have finished the cycle. */
typedef struct SmOrder {
    struct GpuPar *par;
    uint32_t thread; /* the threads before it run the SMs before its own */
    bool waited;     /* this cycle: they have finished (always so for thread 0) */
} SmOrder;
void sm_order_wait(SmOrder *o);

typedef struct Sm {
    /* What the GPU's cycle loop, sm_cycle and the schedulers read on every cycle the SM runs
     * and on every issue comes first, in as few cache lines as it fits: the GPU visits each SM
     * in turn every cycle, and state spread over the whole struct missed the L1 on each visit. */
    uint64_t next_wake;  /* the SM has nothing to do before this cycle */
    /* next_wake as the SM's last cycle set it, lowered by every event since but a reply put into
     * the response FIFO (sm_wake): before it, a cycle whose only work is a reply that counts its
     * request down is taken in short (sm_ldst_count_down) */
    uint64_t self_wake;
    uint64_t accounted;  /* cycles before this one are in cycles_active / sched.no_ready */
    uint64_t ctl_due;    /* the CTA controller's next tick (ctl, below) */
    uint64_t ring_next_ready; /* earliest ready cycle over the rings (ring, below) */
    MemReqQueue replies; /* from the interconnect: the LD/ST unit's response FIFO (sm.response_fifo) */
    uint32_t n_live_ctas, n_done_ctas; /* n_done_ctas: of done_ctas, below */
    uint32_t id, max_warps, n_sched;
    uint32_t max_pending_regs; /* sm.max_pending_regs: a warp's scoreboard entries */
    /* A cycle without progress whose schedulers stalled on a busy unit (sm_schedule's
     * SmStall): the SM sleeps until the unit's next event instead of repeating that cycle, and
     * the cycles it slept each add `stall`'s counts (account_sleep in sm.c). */
    bool stall_sleep;
    bool stall_wait; /* sm_schedule: a scheduler waited this cycle for a busy unit */
    bool cta_room_grew; /* CTA throttling (ctl, below): the cap grew since the GPU last looked */
    bool sched_rotate;  /* sm.sched_rotate with more than one scheduler */
    bool dual_issue;    /* sm.issue_per_warp > 1 */
    SmStall stall;
    uint64_t fetch_mask;    /* sm.ibuffer: live warps whose instruction buffer is empty */
    /* sm_schedule's last cycle without an issue (sm_issue.c) and what it counted (add). Until
     * what it read changes (a warp's update, the live or held warps: sched_epoch; the LD/ST
     * unit's room) or a warp or unit it waited for is due (until), a cycle would repeat it:
     * its counts are added again without the schedulers' scan. */
    uint64_t sched_epoch;
    struct {
        uint64_t epoch, until;
        SmStall add;
        bool can_take, stall_wait;
    } sched_memo;
    uint64_t waiting_mask;  /* live warps whose ready_at is UINT64_MAX (wait for an event) */
    uint64_t held_mask;     /* warps held from issue by CTA throttling (sm_ctl.c) */
    uint64_t mem_wait_mask; /* live warps with loads outstanding */
    uint64_t raw_mask;      /* live warps whose next instruction waits on the scoreboard (Warp.raw) */
    uint64_t mem_next_mask; /* live warps whose next instruction needs the LD/ST unit */
    uint64_t *ready_at;     /* per slot, a dense copy of Warp.ready_at for the schedulers */
    uint8_t *next_unit;     /* per slot, the unit its next instruction needs (SmUnit) */
    uint64_t *age;
    const WarpSchedOps *sched_ops;
    const Config *cfg;
    const FrontOps *front;
    void *front_self;
    SmOrder *order; /* gpu.threads > 1: its thread's place in the order (gpu_par.c), else NULL */
    Warp *warps;
    /* per unit: the cycle it takes its next instruction; pool_busy[SM_UNIT_SP / SM_UNIT_SFU] hold
     * pool_units[] units each */
    uint64_t pool_free_at[2]; /* SP, SFU: the earliest of the pool's busy cycles (one free by then) */
    uint64_t *pool_busy[2], *tensor_busy;
    uint32_t pool_units[2];
    /* stats counted on most cycles or issues */
    uint64_t cycles_active, warp_insts, thread_insts, issued, idle_no_ready, stall_ldst;
    uint64_t stall_structural, stall_raw, stall_idle; /* non-issuing scheduler-cycles by hazard (LAS Fig. 5.3) */
    /* issues by the issuing warp's GTO rank in its scheduler (thesis Fig. 2.3) */
    uint64_t *issue_rank;
    uint32_t n_ranks;
    uint64_t sched_mask[8]; /* live warps of each scheduler */
    void *sched[8];
    uint8_t older_live[64]; /* per live slot: its scheduler's live warps older than it (launch, retire) */
    uint32_t lat[WOP_COUNT], ii[WOP_COUNT];
    Ldst ldst; /* its first fields are asked on every cycle too */

    /* The rest: read when memory instructions, CTAs or policies act. */
    ScoreboardEntry *sb_store;
    SmCta *ctas;
    uint32_t threads_used, warps_used, regs_used, smem_used;
    Regfile rf;           /* where the CTAs' registers lie, which are idle */
    uint64_t slots_owned; /* warp slots held by a resident CTA (exited warps included) */
    uint64_t next_age;
    uint64_t older[64]; /* per slot: the slots whose warp is older (lower age), kept at each launch */
    uint64_t barrier_mask;  /* live warps waiting at a barrier */
    Icache ic;              /* sm.icache_sets > 0: the instruction cache */
    uint32_t fetch_next;    /* the slot the fetch unit's round-robin looks at first */
    PolicyCtx sched_ctx[8];
    PolicyCtx shared_ctx;
    void *sched_shared;       /* SM-wide state of the scheduler policy (create_shared) */
    WarpSlotInfo *slot_info;  /* per slot, what the schedulers see */
    SmView view;
    L1d l1d;
    LoadRec *recs;
    uint32_t rec_free, n_recs;
    uint32_t *fill_tokens; /* l1d.max_fill_tokens: the tokens one fill hands back */
    TimedRing ring[SM_RING_COUNT]; /* timed returns: L1D hits, shared, constant */
    Winst scratch;
    uint32_t done_ctas[64]; /* completed CTAs the GPU has not collected yet (n_done_ctas above) */
    /* CTA throttling (sm_ctl.c): warps held from issue (held_mask above), the cap on resident
     * CTAs the dispatcher fills up to, whether the cap grew since the GPU last looked
     * (cta_room_grew above), the controller's next tick (ctl_due above) */
    SmCtaCtl ctl;
    uint32_t cta_limit;
    /* stats */
    uint64_t loads, stores, atomics, shared_accesses;
    uint64_t dual_issued, held, ldst_busy, ldst_replay, ctas_done;
    uint64_t load_lines, load_insts_divergent, conc_sum_micro;
    uint64_t conc_hist[INDEX_METRIC_CONC_BUCKETS];
    const char *conc_labels[INDEX_METRIC_CONC_BUCKETS];
    /* misses per load instruction (thesis 2.2.1), divergent (> 2 line accesses) and coherent */
    uint64_t mpli_div[SM_MPLI_BUCKETS], mpli_coh[SM_MPLI_BUCKETS];
    /* LD/ST stall cycles (thesis 2.3.1, Fig. 2.5): an access taken with more of its instruction
     * to come (coal), or refused for want of an MSHR entry or merge room (mshr), a miss-queue
     * slot (icnt), or anything else (other: line reservation, miss-path port) */
    uint64_t stall_coal, stall_mshr, stall_icnt, stall_other;
    uint64_t reexec_deferred, reexec_done, stall_reexec; /* sm.reexec_queue */
    /* memory occlusion time and L1D access time of global loads (thesis 2.3.2, Fig. 2.6);
     * [0] coherent, [1] divergent */
    uint64_t occlusion[2], access_time[2];
    /* MSHR entries allocated, and loads looked up, by GTO rank ([0] coherent, [1] divergent;
     * thesis Fig. 2.7) */
    uint64_t *mshr_rank[2], *loads_rank[2];
    char (*rank_names)[8];
    const char **rank_labels;
} Sm;

void sm_init(Sm *sm, uint32_t id, const Config *cfg, MemPool *pool, Stats *st);
void sm_free(Sm *sm);
void sm_set_front(Sm *sm, const FrontOps *ops, void *self);
/* Room for one more CTA of kernel k? */
bool sm_can_take(const Sm *sm, const FrontKernel *k);
/* How many more CTAs of kernel k fit now (room), and on the empty SM (room_empty). */
uint32_t sm_cta_room(const Sm *sm, const FrontKernel *k, bool empty);
/* What one SM holds in use, as CTA placement counts it. */
typedef struct SmUsage {
    uint32_t ctas, threads, warps, regs, smem;
} SmUsage;
/* CTAs of k an empty SM of configuration c holds (the occupancy API's answer). */
uint32_t sm_ctas_per_empty_sm(const SmConfig *c, const FrontKernel *k);
void sm_launch_cta(Sm *sm, const FrontKernel *k, uint32_t cta_id, uint64_t now);
/* A kernel starts / ends: the schedulers hear it; at the end the L1D is flushed if sm.l1d_flush. */
void sm_kernel_begin(Sm *sm, const FrontKernel *k, uint64_t now);
/* Count the cycles before `now` the SM slept through, as if it had run them (a kernel stopped
 * with CTAs resident: cycles_active, the schedulers' stalls, the refused access's replays). */
void sm_account_sleep(Sm *sm, uint64_t now);
void sm_kernel_end(Sm *sm, uint64_t now);
/* A completed CTA not yet collected: true and its id in *cta_id. */
bool sm_take_done_cta(Sm *sm, uint32_t *cta_id);
/* One core cycle; returns true if anything happened. */
bool sm_cycle(Sm *sm, uint64_t now);
/* A reply from the interconnect: an instruction line goes to the fetch unit (with
 * sm.response_fifo; else it waits its turn), anything else into the LD/ST unit's response FIFO,
 * which the unit drains one reply a cycle. */
void sm_deliver(Sm *sm, MemReq *r, uint64_t now);
/* Whether the SM takes reply r now: the response FIFO (sm.response_fifo) has room, or r is an
 * instruction line, which bypasses it. */
bool sm_can_accept_reply(const Sm *sm, const MemReq *r);
/* The interconnect took a request from the SM's miss queue. */
void sm_miss_queue_drained(Sm *sm, uint64_t now);
/* The interconnect refused the SM's miss-queue head, having taken the one before. */
void sm_miss_queue_refused(Sm *sm, uint64_t now);
bool sm_busy(const Sm *sm);
/* A time-series sample is taken (gpu.sample_cycles): the scheduler policy may push its series. */
void sm_sample(Sm *sm);
/* Live warps the schedulers do not throttle now (WarpSchedOps.throttled), for the series. */
uint32_t sm_unthrottled_warps(const Sm *sm);
/* Pass the L1D's line replacements to the scheduler policy when it has on_l1d_evict (sm_init
 * does; call again after changing sm->sched_ops). */
void sm_connect_l1d_events(Sm *sm);
void sm_dump(const Sm *sm, FILE *f, uint64_t now);

#endif
