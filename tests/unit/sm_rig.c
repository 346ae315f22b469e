/* sm_rig.c: the single-SM test rig (tests/sm_rig.h). */
#include "../sm_rig.h"

#include "base/base.h"
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

/* ---- mock front end ------------------------------------------------------------------------ */

static void mock_kernel_begin(void *self, const FrontKernel *k, uint32_t n_warp_ids)
{
    (void)self, (void)k, (void)n_warp_ids;
}

static void mock_cta_start(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base)
{
    MockFront *f = self;
    if (f->n_started == MOCK_CTAS || warp_id_base + f->warps_per_cta > MOCK_WARPS) {
        f->bad++;
        return;
    }
    f->started[f->n_started] = cta_id;
    f->base[f->n_started++] = warp_id_base;
    for (uint32_t i = 0; i < f->warps_per_cta; i++) {
        f->live[warp_id_base + i] = true;
        f->pos[warp_id_base + i] = 0;
        f->cta_warp[warp_id_base + i] = i;
    }
    (void)sm;
}

static const WinstStatic *mock_peek(void *self, uint32_t warp_id)
{
    MockFront *f = self;
    if (warp_id >= MOCK_WARPS || !f->live[warp_id])
        return NULL;
    return &f->prog[f->cta_warp[warp_id]][f->pos[warp_id]].s;
}

static uint32_t mock_peek_mask(void *self, uint32_t warp_id)
{
    MockFront *f = self;
    if (warp_id >= MOCK_WARPS || !f->live[warp_id])
        return 0;
    uint32_t m = f->prog[f->cta_warp[warp_id]][f->pos[warp_id]].mask;
    return m ? m : UINT32_MAX;
}

static void mock_exec(void *self, uint32_t warp_id, Winst *out)
{
    MockFront *f = self;
    if (warp_id >= MOCK_WARPS || !f->live[warp_id] || f->n_log == MOCK_LOG) {
        f->bad++;
        return;
    }
    const MockInst *in = &f->prog[f->cta_warp[warp_id]][f->pos[warp_id]];
    out->s = in->s;
    out->active_mask = in->mask ? in->mask : UINT32_MAX;
    for (uint32_t l = 0; l < WARP_SIZE; l++)
        out->addr[l] = in->base + (uint64_t)l * in->stride;
    f->log[f->n_log++] = (MockExec){warp_id, in->s.pc, f->now};
    if (in->s.op == WOP_EXIT)
        f->live[warp_id] = false;
    else
        f->pos[warp_id]++;
}

static void mock_cta_end(void *self, uint32_t cta_id)
{
    MockFront *f = self;
    if (f->n_ended < MOCK_CTAS)
        f->ended[f->n_ended++] = cta_id;
    else
        f->bad++;
}

static void mock_kernel_end(void *self) { (void)self; }

static const FrontOps mock_front_ops = {
    .name = "mock",
    .kernel_begin = mock_kernel_begin,
    .cta_start = mock_cta_start,
    .peek = mock_peek,
    .exec = mock_exec,
    .cta_end = mock_cta_end,
    .kernel_end = mock_kernel_end,
};

/* The same, telling the active lanes of a warp's next instruction. */
static const FrontOps mock_front_mask_ops = {
    .name = "mock",
    .kernel_begin = mock_kernel_begin,
    .cta_start = mock_cta_start,
    .peek = mock_peek,
    .peek_mask = mock_peek_mask,
    .exec = mock_exec,
    .cta_end = mock_cta_end,
    .kernel_end = mock_kernel_end,
};

/* Script builders. Register 0 is an address/input register nothing writes. */
MockInst alu(uint16_t dst, uint16_t src)
{
    return (MockInst){.s = {.op = WOP_INT_ADD, .n_dst = 1, .dst = {dst}, .n_src = 1, .src = {src}}};
}

MockInst ld(uint16_t dst, uint64_t base, uint32_t stride)
{
    return (MockInst){.s = {.op = WOP_LOAD, .space = WSPACE_GLOBAL, .access_bytes = 4, .n_dst = 1, .dst = {dst},
                            .n_src = 1, .src = {0}},
                      .base = base, .stride = stride};
}

MockInst st(uint16_t val, uint64_t base, uint32_t stride)
{
    return (MockInst){.s = {.op = WOP_STORE, .space = WSPACE_GLOBAL, .access_bytes = 4, .n_src = 2,
                            .src = {0, val}},
                      .base = base, .stride = stride};
}

MockInst bar(void) { return (MockInst){.s = {.op = WOP_BARRIER}}; }

MockInst ex(void) { return (MockInst){.s = {.op = WOP_EXIT}}; }

/* Warp `warp` of every CTA runs insts; pcs are 8 apart from 0. */
void script(MockFront *f, uint32_t warp, const MockInst *insts, uint32_t n)
{
    CHECK(warp < MOCK_WARPS && n <= MOCK_INSTS);
    for (uint32_t i = 0; i < n; i++) {
        f->prog[warp][i] = insts[i];
        f->prog[warp][i].s.pc = i * 8;
    }
    f->n_insts[warp] = n;
}

/* The cycle warp id `warp` issued the instruction at pc; -1 if it never did. */
int64_t issued_at(const MockFront *f, uint32_t warp, uint32_t pc)
{
    for (uint32_t i = 0; i < f->n_log; i++)
        if (f->log[i].warp == warp && f->log[i].pc == pc)
            return (int64_t)f->log[i].cycle;
    return -1;
}

/* ---- the rig: an SM, its front end and memory ---------------------------------------------- */

/* A small SM: 8 warp slots, one scheduler, a 4-set 2-way L1D. Tests adjust r->c, then start. */
Rig *rig_new(void)
{
    Rig *r = xcalloc(1, sizeof *r);
    config_init(&r->c);
    r->c.sm.max_warps = 8;
    r->c.sm.n_sched = 1;
    r->c.l1d.n_sets = 4;
    r->c.l1d.assoc = 2;
    r->c.l1d.mshr_entries = 4;
    r->c.l1d.mshr_max_merge = 4;
    r->c.l1d.miss_queue = 4;
    r->m.latency = 20;
    return r;
}

/* Build the SM for a kernel of CTAs of `threads` threads; false if the config is refused. */
bool rig_start(Rig *r, uint32_t threads, uint32_t n_ctas)
{
    char err[256];
    if (!policy_check_config(&r->c, err, sizeof err)) {
        printf("config: %s\n", err);
        return false;
    }
    stats_init(&r->st);
    mempool_init(&r->pool);
    sm_init(&r->sm, 0, &r->c, &r->pool, &r->st);
    r->started = true;
    snprintf(r->k.name, sizeof r->k.name, "mock");
    r->k.grid[0] = n_ctas;
    r->k.grid[1] = r->k.grid[2] = 1;
    r->k.block[0] = threads;
    r->k.block[1] = r->k.block[2] = 1;
    r->k.regs_per_thread = 16;
    r->f.warps_per_cta = front_kernel_warps_per_cta(&r->k);
    sm_set_front(&r->sm, r->f.tell_mask ? &mock_front_mask_ops : &mock_front_ops, &r->f);
    mock_front_ops.kernel_begin(&r->f, &r->k, MOCK_WARPS);
    sm_kernel_begin(&r->sm, &r->k, r->now);
    return true;
}

void rig_free(Rig *r)
{
    if (r->started) {
        sm_kernel_end(&r->sm, r->now);
        for (uint32_t i = 0; i < r->m.n; i++) /* replies never handed back */
            mempool_put(&r->pool, r->m.req[i]);
        sm_free(&r->sm);
        mempool_free(&r->pool);
        stats_free(&r->st);
    }
    free(r);
}

void rig_launch(Rig *r, uint32_t cta_id)
{
    CHECK(sm_can_take(&r->sm, &r->k));
    sm_launch_cta(&r->sm, &r->k, cta_id, r->now);
}

/* The interconnect's part of one cycle, after the SM's. */
static void mem_step(Rig *r)
{
    MockMem *m = &r->m;
    L1d *l1 = &r->sm.l1d;
    if (r->now >= m->refuse_until && l1->miss_q.head) {
        MemReq *q = memreq_queue_pop(&l1->miss_q);
        sm_miss_queue_drained(&r->sm, r->now);
        CHECK(m->n < MOCK_MEM && m->reads < MOCK_MEM);
        if (q->kind == MREQ_READ) {
            m->lines[m->reads] = q->addr;
            m->taken_at[m->reads++] = r->now;
        } else {
            m->writes++;
        }
        m->req[m->n] = q;
        m->due[m->n++] = r->now + m->latency;
    }
    while (m->n && m->due[0] <= r->now) { /* one latency: replies leave in order */
        MemReq *q = m->req[0];
        memmove(m->req, m->req + 1, (m->n - 1) * sizeof *m->req);
        memmove(m->due, m->due + 1, (m->n - 1) * sizeof *m->due);
        m->n--;
        CHECK(m->replies < MOCK_MEM);
        if (q->kind == MREQ_WRITE)
            m->acks++;
        else
            m->reply_at[m->replies++] = r->now;
        q->is_reply = true;
        if (!m->parts) {
            sm_deliver(&r->sm, q, r->now);
            continue;
        }
        /* a sectored L2 with mem.sector_replies: one reply per sector, all at once */
        q->subs_left = (uint8_t)m->parts;
        for (uint32_t i = 0; i < m->parts; i++) {
            MemReq *p = mempool_get(&r->pool);
            p->kind = q->kind;
            p->inst = q->inst;
            p->sm = q->sm;
            p->addr = q->addr + 32 * i;
            p->sectors = 1u << i;
            p->size_bytes = 32;
            p->token = q->pool_id;
            p->part = p->is_reply = true;
            sm_deliver(&r->sm, p, r->now);
        }
    }
}

/* One cycle: the SM, then the memory port; completed CTAs are collected. */
void rig_step(Rig *r)
{
    r->f.now = r->now;
    sm_cycle(&r->sm, r->now);
    mem_step(r);
    uint32_t cta;
    while (r->n_done < MOCK_CTAS && sm_take_done_cta(&r->sm, &cta)) {
        r->done_at[r->n_done] = r->now;
        r->done[r->n_done++] = cta;
    }
    r->now++;
}

/* Step until the SM and the memory are idle (true) or `limit` cycles have passed (false). */
bool rig_run(Rig *r, uint64_t limit)
{
    while (r->now < limit) {
        rig_step(r);
        if (!sm_busy(&r->sm) && !r->m.n && !r->sm.l1d.miss_q.n)
            return true;
    }
    return false;
}

/* One CTA of one warp runs insts to the end: true if the rig started, ran idle within 1000
 * cycles and the front end saw nothing wrong. */
bool rig_run_one_warp(Rig *r, const MockInst *insts, uint32_t n)
{
    if (!rig_start(r, 32, 1))
        return false;
    script(&r->f, 0, insts, n);
    rig_launch(r, 0);
    return rig_run(r, 1000) && r->f.bad == 0;
}
