/* policy.h: the policy families and their registry.
 *
 * Every policy is one file under index/, repl/, warp/, cta/ or dram/ that defines one ops
 * struct, plus one POLICY(kind, name) line in policies.def. The machine talks to a policy
 * only through these ops, with small const context structs; a policy never reaches into
 * another module's structs. A NULL hook means "default behaviour". Policies are chosen by
 * name from the config (`l1d.index = fup`, `sm.sched = gto`). */
#ifndef WARPSIM_POLICY_H
#define WARPSIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/config.h"

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
    const char *name;
    const char *help;
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

/* What the cache tells a replacement policy about one access. */
typedef struct ReplAccess {
    uint32_t set;
    uint32_t way;      /* the line hit or filled; for victim(): unused */
    uint32_t warp_id;  /* issuing warp (SM-local slot) */
    uint32_t warp_uid; /* that warp's launch number on its SM: unique, unlike slots, which are reused */
    uint32_t pc;
    uint32_t n_lines;  /* lines the issuing warp instruction touches (its divergence) */
    uint64_t cycle;
    bool is_write;
} ReplAccess;

enum { REPL_BYPASS = -1, REPL_STALL = -2 };

typedef struct ReplOps {
    const char *name;
    const char *help;
    void *(*create)(uint32_t n_sets, uint32_t assoc, const Config *cfg);
    void (*destroy)(void *self);
    /* Victim among the ways set in `candidates` (valid, not reserved; the cache fills invalid
     * ways first without asking). Returns a way, REPL_BYPASS or REPL_STALL. */
    int (*victim)(void *self, const ReplAccess *a, uint64_t candidates);
    void (*on_hit)(void *self, const ReplAccess *a);
    /* A line was inserted (on miss for allocate-on-miss, on fill for allocate-on-fill). */
    void (*on_insert)(void *self, const ReplAccess *a);
    void (*on_invalidate)(void *self, const ReplAccess *a);
} ReplOps;

/* ---- warp schedulers -------------------------------------------------------------------- */

/* One scheduler's view of its warps at one cycle; bit w stands for warp slot w of the SM. */
typedef struct WarpSchedView {
    uint64_t ready;      /* can issue this cycle */
    uint64_t valid;      /* hold a live warp belonging to this scheduler */
    uint64_t mem_wait;   /* blocked on an outstanding global/local load */
    const uint64_t *age; /* launch order per slot: smaller is older */
    uint64_t cycle;
} WarpSchedView;

typedef struct WarpSchedOps {
    const char *name;
    const char *help;
    void *(*create)(uint32_t n_slots, const Config *cfg);
    void (*destroy)(void *self);
    /* The slot to issue from, among v->ready (non-zero); -1 to issue nothing. */
    int (*pick)(void *self, const WarpSchedView *v);
    void (*on_issue)(void *self, uint32_t slot, const WarpSchedView *v);
    void (*on_warp_exit)(void *self, uint32_t slot);
} WarpSchedOps;

/* ---- CTA schedulers --------------------------------------------------------------------- */

typedef struct CtaSchedView {
    uint32_t n_ctas;         /* CTAs of the kernel */
    const uint8_t *launched; /* per CTA: already dispatched */
    uint32_t next_unlaunched; /* lowest CTA id not yet dispatched (n_ctas when none) */
    uint32_t n_sms;
    uint64_t cycle;
} CtaSchedView;

typedef struct CtaSchedOps {
    const char *name;
    const char *help;
    void *(*create)(uint32_t n_sms, const Config *cfg);
    void (*destroy)(void *self);
    /* An SM has room for one more CTA: which CTA to place there (< n_ctas), or -1 for none. */
    int (*pick)(void *self, uint32_t sm, const CtaSchedView *v);
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
    const char *name;
    const char *help;
    /* Index into q[0..n) of the request to serve next for `bank`, whose open row is open_row
     * (UINT32_MAX when closed); -1 if no request targets that bank. q is in arrival order. */
    int (*pick)(const DramSchedEntry *q, uint32_t n, uint32_t bank, uint32_t open_row);
} DramSchedOps;

/* ---- registry --------------------------------------------------------------------------- */

typedef enum PolicyKind { POLICY_INDEX, POLICY_REPL, POLICY_WARP, POLICY_CTA, POLICY_DRAM, POLICY_KIND_COUNT } PolicyKind;

const char *policy_kind_name(PolicyKind k);
/* The ops of a policy (an IndexOps*, ReplOps*, ...), or NULL if no such name. */
const void *policy_find(PolicyKind kind, const char *name);
const void *policy_find_by_kind_name(const char *kind, const char *name);

const IndexOps *policy_index(const char *name);
const ReplOps *policy_repl(const char *name);
const WarpSchedOps *policy_warp(const char *name);
const CtaSchedOps *policy_cta(const char *name);
const DramSchedOps *policy_dram(const char *name);

/* Every POLICY option of the config names a registered policy of its kind, and every policy
 * option set is one the chosen policy declares, with a valid value; the options of the chosen
 * policies that were not set get their defaults (the config becomes fully resolved). Returns 1,
 * or 0 with a one-line message in err, e.g. "<key>: unknown <kind> policy '<name>' (choose
 * from: ...)". policy_validate_config: the same, exiting 1 with the message (command line). */
int policy_check_config(Config *c, char *err, size_t err_len);
void policy_validate_config(Config *c);
/* `warpsim --list-policies`. */
void policy_list(FILE *f);
/* Number registered of one kind, and the i-th name (for contract tests). */
uint32_t policy_count(PolicyKind kind);
const char *policy_name_at(PolicyKind kind, uint32_t i);

#endif
