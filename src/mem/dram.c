/* dram.c: one GDDR5 memory controller, in DRAM command-clock cycles.
 *
 * Follows GPGPU-Sim's DRAM model (dram.cc, its manual's "DRAM timing" section) with the GDDR5
 * timing of the thesis (Tables 3.1 and 5.1: tCL=12 tRP=12 tRC=40 tRAS=28 tRCD=12 tRRD=6
 * tCDLR=5 tWR=12, plus tCCD=2 tCCDL=3 tWL=4 tRTPL=2 from the GTX480 configuration):
 *   - Requests wait in a bounded scheduler queue (dram.queue), each bank's in arrival order.
 *     A bank serves one request at a time; when it is idle the scheduler policy (dram.sched)
 *     picks the bank's next request from the queue, which frees the queue entry.
 *   - Commands: ACT (bank closed; tRRD after any ACT, tRC after this bank's ACT, tRP after its
 *     PRE), RD/WR (the request's row open; tRCD after ACT, tCCD after any column command,
 *     tCCDL within the bank group, a read tCDLR after the last write data, and the shared
 *     data bus free when the data would start), PRE (row open on a different row; tRAS after
 *     ACT, tWR after this bank's last write data, tRTPL after a read in the bank group). One
 *     command per cycle on the command bus; banks are scanned round-robin starting after the
 *     bank that issued last, so the order does not depend on how many idle cycles were
 *     skipped. Open-page policy: rows stay open after the access.
 *   - A column command moves bus_bytes * chips * burst bytes (GTX480: 64) and holds the data
 *     bus ceil(burst / data_ratio) cycles (2); a request needs ceil(size_bytes / that) column
 *     commands. Read data starts tCL after the command, write data tWL after it.
 *   - A read is finished when its last data transfer ends: it enters the bounded return queue
 *     (dram.return_queue) at its last column command, ready at that time, and dram_pop_reply
 *     hands it back as a reply. A read's last column command waits while the return queue is
 *     full. Writes give no reply; the owner may register dram_set_write_done to recycle them.
 *     READ and ATOMIC requests are reads; WRITE and WRITEBACK are writes.
 * Bank group of bank b is b % dram.n_bank_groups (GPGPU-Sim -dram_bnkgrp_indexing_policy 1:
 * low bank bits pick the group, so consecutive banks sit in different groups).
 * Stats (dram[<id>].*): reads, writes (served), row_hits, row_misses (row state when a bank
 * takes the request; a closed bank is a miss), activates, precharges, busy_cycles (data bus
 * busy), queue_full (cycles the scheduler queue was full, counted when it stops being full).
 * Memory: every array is sized from the config at creation; nothing is allocated afterwards. */
#include "mem/dram.h"

#include "base/base.h"
#include "policy/policy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define ROW_CLOSED UINT32_MAX
#define NEVER UINT64_MAX

typedef struct DramBank {
    uint32_t open_row;  /* ROW_CLOSED when precharged */
    MemReq *req;        /* request in service, NULL when idle */
    uint32_t cols_left; /* column commands still to issue for req */
    bool req_write;
    uint32_t n_queued;  /* requests of this bank waiting in the scheduler queue */
    uint32_t q_start;   /* where they start in its part of the queue */
    uint32_t group;     /* bank group: bank % n_bank_groups, precomputed (no division per cycle) */
    uint64_t act_ready; /* earliest ACT: tRC after ACT, tRP after PRE */
    uint64_t col_ready; /* earliest column command: tRCD after ACT */
    uint64_t pre_ready; /* earliest PRE: tRAS after ACT, tWR after write data */
} DramBank;

typedef struct DramGroup {
    uint64_t col_ready; /* tCCDL after a column command in the group */
    uint64_t pre_ready; /* tRTPL after a read in the group */
} DramGroup;

typedef enum DramCmd { CMD_ACT, CMD_PRE, CMD_COL } DramCmd;

struct Dram {
    uint32_t id;
    const DramSchedOps *sched;
    DramConfig t; /* timing and geometry */
    uint32_t bytes_per_col, bus_cycles;

    /* The scheduler queue, kept per bank: bank b's requests in arrival order at q[b * t.queue +
     * banks[b].q_start], banks[b].n_queued of them, so that a pick and a removal see only the bank's (the policies
     * look at no other bank's). */
    DramSchedEntry *q;
    MemReq **q_req; /* the request behind q[i] */
    uint32_t q_n;   /* requests queued, all banks */
    uint64_t full_since; /* cycle the queue became full */

    DramBank *banks;
    DramGroup *groups;
    uint64_t busy_banks;    /* banks serving a request (bit per bank) */
    uint64_t waiting_banks; /* idle banks with requests queued */
    uint64_t act_banks;     /* busy banks whose next command is an ACT (row closed) */
    uint64_t col_banks;     /* busy banks whose next command is a column command (their row open) */

    MemReq **ret; /* return queue ring: reads in order of their last column command */
    uint32_t ret_head, ret_n;
    uint64_t ret_due; /* ready cycle of the ring's head (NEVER when empty): one compare per pop */

    uint64_t act_ready; /* tRRD after any ACT */
    uint64_t col_ready; /* tCCD after any column command */
    uint64_t rd_ready;  /* tCDLR after the last write data */
    uint64_t bus_free;  /* end of the last data transfer on the bus */
    /* The earliest read and write column command by the four above but cmd_ready (tCCD, the
     * data bus, tCDLR), found at each column command rather than at each bank's every look. */
    uint64_t col_rd_ready, col_wr_ready;
    uint64_t col_any_ready; /* the earlier of the two */
    uint64_t cmd_ready; /* one command per cycle */
    uint32_t rr;        /* bank the command scan starts at */

    DramWriteDoneFn write_done;
    void *write_done_ctx;
    uint64_t *busy_total; /* the owner's running total of busy_cycles (NULL: none) */

    struct {
        uint64_t reads, writes, row_hits, row_misses, activates, precharges, busy_cycles, queue_full;
    } st;
};

static bool req_is_write(const MemReq *r) { return r->kind == MREQ_WRITE || r->kind == MREQ_WRITEBACK; }

Dram *dram_create(const Config *cfg, uint32_t id, Stats *st)
{
    const DramConfig *c = &cfg->dram;
    const DramSchedOps *sched = policy_dram(c->sched);
    if (!sched)
        fatal("dram.sched: unknown dram policy '%s'", c->sched);
    if (c->n_bank_groups > c->n_banks)
        fatal("dram.n_bank_groups: expected at most dram.n_banks (%u), got %u", c->n_banks, c->n_bank_groups);

    Dram *d = xcalloc(1, sizeof *d);
    d->id = id;
    d->sched = sched;
    d->t = *c;
    d->bytes_per_col = c->bus_bytes * c->chips * c->burst;
    d->bus_cycles = MAX(1u, (c->burst + c->data_ratio - 1) / c->data_ratio);
    d->q = xcalloc((size_t)c->n_banks * c->queue, sizeof *d->q);
    d->q_req = xcalloc((size_t)c->n_banks * c->queue, sizeof *d->q_req);
    d->banks = xcalloc(c->n_banks, sizeof *d->banks);
    d->groups = xcalloc(c->n_bank_groups, sizeof *d->groups);
    d->ret = xcalloc(c->return_queue, sizeof *d->ret);
    d->ret_due = NEVER;
    for (uint32_t b = 0; b < c->n_banks; b++) {
        d->banks[b].open_row = ROW_CLOSED;
        d->banks[b].group = b % c->n_bank_groups;
    }

    if (st) {
        stats_counter(st, &d->st.reads, "dram[%u].reads", "DRAM reads served", id);
        stats_counter(st, &d->st.writes, "dram[%u].writes", "DRAM writes served", id);
        stats_counter(st, &d->st.row_hits, "dram[%u].row_hits", "requests that found their row open", id);
        stats_counter(st, &d->st.row_misses, "dram[%u].row_misses", "requests that needed an activate", id);
        stats_counter(st, &d->st.activates, "dram[%u].activates", "ACT commands", id);
        stats_counter(st, &d->st.precharges, "dram[%u].precharges", "PRE commands", id);
        stats_counter(st, &d->st.busy_cycles, "dram[%u].busy_cycles", "DRAM cycles the data bus was busy", id);
        stats_counter(st, &d->st.queue_full, "dram[%u].queue_full", "DRAM cycles the scheduler queue was full",
                      id);
    }
    return d;
}

void dram_destroy(Dram *d)
{
    if (!d)
        return;
    free(d->q);
    free(d->q_req);
    free(d->banks);
    free(d->groups);
    free(d->ret);
    free(d);
}

void dram_set_busy_total(Dram *d, uint64_t *total) { d->busy_total = total; }

void dram_set_write_done(Dram *d, DramWriteDoneFn fn, void *ctx)
{
    d->write_done = fn;
    d->write_done_ctx = ctx;
}

bool dram_can_accept(const Dram *d) { return d->q_n < d->t.queue; }

/* Append r to its bank's part of the queue, which has room at its end. */
static inline bool queue_append(Dram *d, MemReq *r, uint64_t now)
{
    uint32_t bank = r->bank;
    DramBank *b = &d->banks[bank];
    size_t at = (size_t)bank * d->t.queue + b->q_start + b->n_queued++;
    d->q[at] = (DramSchedEntry){.bank = bank, .row = r->row, .arrival = now, .is_write = req_is_write(r)};
    d->q_req[at] = r;
    if (++d->q_n == d->t.queue)
        d->full_since = now;
    if (b->req)
        return false; /* its bank looks at the queue only when it finishes */
    d->waiting_banks |= 1ull << bank;
    return true;
}

/* r's bank's requests reached the end of its part of the queue: move them to its front, then
 * append r. Out of line, and called last: seldom, and otherwise every push would pay for the
 * registers it needs. */
static __attribute__((noinline, cold)) bool queue_to_front_append(Dram *d, MemReq *r, uint64_t now)
{
    DramBank *b = &d->banks[r->bank];
    size_t base = (size_t)r->bank * d->t.queue;
    for (uint32_t k = 0; k < b->n_queued; k++) {
        d->q[base + k] = d->q[base + b->q_start + k];
        d->q_req[base + k] = d->q_req[base + b->q_start + k];
    }
    b->q_start = 0;
    return queue_append(d, r, now);
}

bool dram_push(Dram *d, MemReq *r, uint64_t now)
{
    CHECK(d->q_n < d->t.queue && r->bank < d->t.n_banks && r->row != ROW_CLOSED);
    const DramBank *b = &d->banks[r->bank];
    if (b->q_start + b->n_queued == d->t.queue)
        return queue_to_front_append(d, r, now);
    return queue_append(d, r, now);
}

/* Move entry i of idle bank `bank`'s queue, at q[base] (its part of the scheduler queue), into
 * the bank. */
static inline void take_request(Dram *d, uint32_t bank, size_t base, uint32_t i, uint64_t now)
{
    DramBank *b = &d->banks[bank];
    DramSchedEntry *q = &d->q[base];
    MemReq **q_req = &d->q_req[base], *r = q_req[i];
    b->req = r;
    b->req_write = q[i].is_write;
    if (d->q_n-- == d->t.queue)
        d->st.queue_full += now - d->full_since;
    /* Close the gap from the nearer end (a bank holds few: no library call); the pick is
     * mostly the oldest, which moves nothing. */
    if (i < b->n_queued - 1 - i) {
        for (uint32_t k = i; k > 0; k--) {
            q[k] = q[k - 1];
            q_req[k] = q_req[k - 1];
        }
        b->q_start++;
    } else {
        for (uint32_t k = i + 1; k < b->n_queued; k++) {
            q[k - 1] = q[k];
            q_req[k - 1] = q_req[k];
        }
    }
    if (!--b->n_queued)
        b->q_start = 0;
    uint64_t bit = 1ull << bank;
    d->busy_banks |= bit;
    if (b->open_row == r->row) {
        d->col_banks |= bit;
        d->st.row_hits++;
    } else {
        if (b->open_row == ROW_CLOSED)
            d->act_banks |= bit;
        d->st.row_misses++;
    }
    uint32_t size = r->size_bytes; /* 0 still takes a column command */
    b->cols_left = size <= d->bytes_per_col ? 1 : (size + d->bytes_per_col - 1) / d->bytes_per_col;
}

/* The command bank `bank` needs next for its request, and the earliest cycle it may issue
 * but for cmd_ready, which the callers apply once (NEVER while a read's last column command
 * waits for room in the return queue). Inline in the scans, which ask it of each busy bank:
 * the call cost more than the answer (GCC kept it out of line, also with -O3 -flto). */
static inline __attribute__((always_inline)) DramCmd next_command(const Dram *d, uint32_t bank, uint64_t *at)
{
    const DramBank *b = &d->banks[bank];
    if (b->open_row == ROW_CLOSED) {
        *at = MAX(b->act_ready, d->act_ready);
        return CMD_ACT;
    }
    const DramGroup *g = &d->groups[b->group];
    if (b->open_row != b->req->row) {
        *at = MAX(b->pre_ready, g->pre_ready);
        return CMD_PRE;
    }
    uint64_t t = MAX(b->col_ready, g->col_ready);
    if (b->req_write)
        t = MAX(t, d->col_wr_ready);
    else if (d->ret_n == d->t.return_queue && b->cols_left == 1) /* seldom full: asked first */
        t = NEVER;
    else
        t = MAX(t, d->col_rd_ready);
    *at = t;
    return CMD_COL;
}

static void issue_column(Dram *d, uint32_t bank, uint64_t now)
{
    DramBank *b = &d->banks[bank];
    DramGroup *g = &d->groups[b->group];
    uint64_t data_end = now + (b->req_write ? d->t.tWL : d->t.tCL) + d->bus_cycles;
    d->bus_free = data_end;
    d->st.busy_cycles += d->bus_cycles;
    if (d->busy_total)
        *d->busy_total += d->bus_cycles;
    d->col_ready = now + d->t.tCCD;
    g->col_ready = now + d->t.tCCDL;
    if (b->req_write) {
        d->rd_ready = MAX(d->rd_ready, data_end + d->t.tCDLR);
        b->pre_ready = MAX(b->pre_ready, data_end + d->t.tWR);
    } else {
        g->pre_ready = MAX(g->pre_ready, now + d->t.tRTPL);
    }
    /* data may start only once the bus is free */
    uint64_t rd = d->col_ready, wr = d->col_ready;
    if (d->bus_free > d->t.tCL)
        rd = MAX(rd, d->bus_free - d->t.tCL);
    if (d->bus_free > d->t.tWL)
        wr = MAX(wr, d->bus_free - d->t.tWL);
    d->col_rd_ready = MAX(rd, d->rd_ready);
    d->col_wr_ready = wr;
    d->col_any_ready = MIN(d->col_rd_ready, wr);
    if (--b->cols_left)
        return;
    MemReq *r = b->req;
    b->req = NULL;
    d->busy_banks &= ~(1ull << bank);
    d->col_banks &= ~(1ull << bank);
    if (b->n_queued)
        d->waiting_banks |= 1ull << bank;
    r->ready = data_end;
    if (b->req_write) {
        d->st.writes++;
        if (d->write_done)
            d->write_done(d->write_done_ctx, r);
    } else {
        d->st.reads++;
        CHECK(d->ret_n < d->t.return_queue);
        uint32_t at = d->ret_head + d->ret_n;
        d->ret[at < d->t.return_queue ? at : at - d->t.return_queue] = r;
        if (!d->ret_n++)
            d->ret_due = r->ready;
    }
}

static void issue(Dram *d, uint32_t bank, DramCmd cmd, uint64_t now)
{
    DramBank *b = &d->banks[bank];
    d->cmd_ready = now + 1;
    switch (cmd) {
    case CMD_ACT:
        b->open_row = b->req->row;
        d->act_banks &= ~(1ull << bank);
        d->col_banks |= 1ull << bank;
        b->act_ready = now + d->t.tRC;
        b->col_ready = now + d->t.tRCD;
        b->pre_ready = MAX(b->pre_ready, now + d->t.tRAS);
        d->act_ready = now + d->t.tRRD;
        d->st.activates++;
        break;
    case CMD_PRE:
        b->open_row = ROW_CLOSED;
        d->act_banks |= 1ull << bank;
        b->act_ready = MAX(b->act_ready, now + d->t.tRP);
        d->st.precharges++;
        break;
    case CMD_COL:
        issue_column(d, bank, now);
        break;
    }
}

/* Each idle bank with requests queued takes the one the scheduler policy picks. Out of line:
 * most ticks have none, and inline it costs every tick the registers it needs. */
static __attribute__((noinline)) void take_requests(Dram *d, uint64_t now)
{
    for (uint64_t m = d->waiting_banks; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        const DramBank *b = &d->banks[i];
        size_t base = (size_t)i * d->t.queue + b->q_start;
        uint32_t pick = 0; /* a lone request is the only answer a policy may give */
        if (b->n_queued > 1) {
            int p = d->sched->pick(&d->q[base], b->n_queued, i, b->open_row);
            CHECK(p >= 0 && (uint32_t)p < b->n_queued); /* the bank's own queue: all its entries */
            pick = (uint32_t)p;
        }
        take_request(d, i, base, pick, now);
    }
    d->waiting_banks = 0;
}

/* The first bank of `banks` (busy ones, in bank order) whose next command may issue at now,
 * with that command in *cmd; -1 when none. */
static inline int first_ready(const Dram *d, uint64_t banks, uint64_t now, DramCmd *cmd)
{
    for (; banks; banks &= banks - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(banks);
        uint64_t at;
        *cmd = next_command(d, i, &at);
        if (at <= now)
            return (int)i;
    }
    return -1;
}

bool dram_tick(Dram *d, uint64_t now)
{
    bool changed = d->waiting_banks != 0;
    if (changed)
        take_requests(d, now);
    if (d->cmd_ready > now)
        return changed;
    /* Left out: banks whose command the controller-wide constraints hold back past now (tRRD
     * for an ACT; tCCD, the data bus or tCDLR for a column command). They would not issue, and
     * the others keep their order. */
    uint64_t busy = d->busy_banks;
    if (d->act_ready > now)
        busy &= ~d->act_banks;
    if (d->col_any_ready > now)
        busy &= ~d->col_banks;
    /* Busy banks in round-robin order from d->rr: those at or above it, then those below. */
    uint64_t above = busy & (~0ull << d->rr);
    DramCmd cmd;
    int i = first_ready(d, above, now, &cmd);
    if (i < 0 && (i = first_ready(d, busy & ~above, now, &cmd)) < 0)
        return changed;
    issue(d, (uint32_t)i, cmd, now);
    d->rr = (uint32_t)i + 1 == d->t.n_banks ? 0 : (uint32_t)i + 1;
    return true;
}

MemReq *dram_pop_reply(Dram *d, uint64_t now)
{
    if (d->ret_due > now)
        return NULL;
    MemReq *r = d->ret[d->ret_head];
    if (++d->ret_head == d->t.return_queue)
        d->ret_head = 0;
    d->ret_due = --d->ret_n ? d->ret[d->ret_head]->ready : NEVER;
    r->is_reply = true;
    return r;
}

uint64_t dram_next_event(const Dram *d, uint64_t now)
{
    if (d->waiting_banks || d->ret_due <= now)
        return now; /* an idle bank takes a request, or a reply is ready */
    /* The earliest bank but for cmd_ready: once one is due, the rest cannot change the answer. */
    uint64_t banks = NEVER;
    for (uint64_t m = d->busy_banks; m && banks > now; m &= m - 1) {
        uint64_t at;
        next_command(d, (uint32_t)__builtin_ctzll(m), &at);
        banks = MIN(banks, at);
    }
    uint64_t t = MIN(d->ret_due, MAX(banks, d->cmd_ready));
    return t == NEVER ? NEVER : MAX(t, now);
}

uint32_t dram_pending(const Dram *d)
{
    uint32_t n = d->q_n + d->ret_n;
    for (uint32_t i = 0; i < d->t.n_banks; i++)
        n += d->banks[i].req != NULL;
    return n;
}

static const char *const cmd_names[] = {"ACT", "PRE", "COL"};

void dram_dump(const Dram *d, FILE *f)
{
    fprintf(f, "dram[%u]: sched %s, queue %u/%u, return %u/%u, bus free at %" PRIu64 ", next bank %u\n", d->id,
            d->sched->meta.name, d->q_n, d->t.queue, d->ret_n, d->t.return_queue, d->bus_free, d->rr);
    for (uint32_t b = 0, i = 0; b < d->t.n_banks; b++) /* bank by bank, each in arrival order */
        for (uint32_t k = 0; k < d->banks[b].n_queued; k++, i++) {
            size_t at = (size_t)b * d->t.queue + d->banks[b].q_start + k;
            const MemReq *r = d->q_req[at];
            fprintf(f, "  queue[%u] %s addr=0x%" PRIx64 " bank=%u row=%u arrived=%" PRIu64 "\n", i,
                    d->q[at].is_write ? "write" : "read", r->addr, d->q[at].bank, d->q[at].row, d->q[at].arrival);
        }
    for (uint32_t i = 0; i < d->t.n_banks; i++) {
        const DramBank *b = &d->banks[i];
        if (!b->req && b->open_row == ROW_CLOSED && !b->n_queued)
            continue; /* idle and precharged: nothing to report */
        fprintf(f, "  bank[%u] group=%u row=", i, b->group);
        if (b->open_row == ROW_CLOSED)
            fprintf(f, "closed");
        else
            fprintf(f, "%u", b->open_row);
        fprintf(f, " queued=%u", b->n_queued);
        if (b->req) {
            uint64_t at;
            DramCmd cmd = next_command(d, i, &at);
            at = MAX(at, d->cmd_ready);
            fprintf(f, " serving %s addr=0x%" PRIx64 " row=%u cols_left=%u next=%s at ", b->req_write ? "write" : "read",
                    b->req->addr, b->req->row, b->cols_left, cmd_names[cmd]);
            if (at == NEVER)
                fprintf(f, "(return queue full)");
            else
                fprintf(f, "%" PRIu64, at);
        }
        fprintf(f, "\n");
    }
    for (uint32_t k = 0; k < d->ret_n; k++) {
        const MemReq *r = d->ret[(d->ret_head + k) % d->t.return_queue];
        fprintf(f, "  reply[%u] addr=0x%" PRIx64 " ready=%" PRIu64 "\n", k, r->addr, r->ready);
    }
}
