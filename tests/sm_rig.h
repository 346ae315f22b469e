/* sm_rig.h: one SM on its own between a mock front end (scripted warp instructions, a log of
 * what issued when) and a mock memory port (the test plays the interconnect: it drains the
 * L1D's miss queue and hands reads back after a fixed latency), driven cycle by cycle: the rig
 * of tests/unit/test_sm.c and test_oaws.c (tests/unit/sm_rig.c). */
#ifndef WARPSIM_SM_RIG_H
#define WARPSIM_SM_RIG_H

#include <stdbool.h>
#include <stdint.h>

#include "conf/config.h"
#include "core/sm.h"
#include "stats/stats.h"

/* ---- mock front end ------------------------------------------------------------------------ */

#define MOCK_WARPS 8
#define MOCK_INSTS 16
#define MOCK_LOG 128
#define MOCK_CTAS 8

/* One scripted instruction; a memory access's lane l touches base + l * stride. */
typedef struct MockInst {
    WinstStatic s;
    uint64_t base;
    uint32_t stride;
    uint32_t mask; /* active lanes; 0: all 32 */
} MockInst;

typedef struct MockExec {
    uint32_t warp, pc;
    uint64_t cycle;
} MockExec;

typedef struct MockFront {
    MockInst prog[MOCK_WARPS][MOCK_INSTS]; /* per warp of a CTA (every CTA runs the same) */
    uint32_t n_insts[MOCK_WARPS];
    bool live[MOCK_WARPS];                 /* per warp id */
    uint32_t pos[MOCK_WARPS], cta_warp[MOCK_WARPS];
    uint32_t warps_per_cta;
    uint64_t now; /* set by the test before each SM cycle */
    MockExec log[MOCK_LOG];
    uint32_t n_log;
    uint32_t started[MOCK_CTAS], base[MOCK_CTAS], n_started;
    uint32_t ended[MOCK_CTAS], n_ended;
    uint32_t bad; /* peek/exec of a warp that is not live, or a full log */
    bool tell_mask; /* offer FrontOps.peek_mask (set before rig_start) */
} MockFront;

/* Script builders. Register 0 is an address/input register nothing writes. */
MockInst alu(uint16_t dst, uint16_t src);
MockInst ld(uint16_t dst, uint64_t base, uint32_t stride);
MockInst st(uint16_t val, uint64_t base, uint32_t stride);
MockInst bar(void);
MockInst ex(void);
/* Warp `warp` of every CTA runs insts; pcs are 8 apart from 0. */
void script(MockFront *f, uint32_t warp, const MockInst *insts, uint32_t n);
/* The cycle warp id `warp` issued the instruction at pc; -1 if it never did. */
int64_t issued_at(const MockFront *f, uint32_t warp, uint32_t pc);

/* ---- mock memory port ---------------------------------------------------------------------- */

#define MOCK_MEM 64

/* Takes one request a cycle from the miss queue (none before refuse_until) and hands each read
 * back, and each write's acknowledgement, `latency` cycles after it took it. */
typedef struct MockMem {
    uint32_t latency;
    uint64_t refuse_until;
    MemReq *req[MOCK_MEM];
    uint64_t due[MOCK_MEM];
    uint32_t n;
    uint32_t reads, writes, replies, acks;
    uint64_t taken_at[MOCK_MEM], reply_at[MOCK_MEM];
    uint64_t lines[MOCK_MEM]; /* line addresses of the reads, in order taken */
    uint32_t parts; /* 0: one reply per request; n: n sector replies (mem.sector_replies) */
} MockMem;

/* ---- the rig: an SM, its front end and memory ---------------------------------------------- */

typedef struct Rig {
    Config c;
    Stats st;
    MemPool pool;
    Sm sm;
    MockFront f;
    MockMem m;
    FrontKernel k;
    uint64_t now;
    uint32_t done[MOCK_CTAS], n_done;
    uint64_t done_at[MOCK_CTAS];
    bool started;
} Rig;

/* A small SM: 8 warp slots, one scheduler, a 4-set 2-way L1D. Tests adjust r->c, then start. */
Rig *rig_new(void);
/* Build the SM for a kernel of CTAs of `threads` threads; false if the config is refused. */
bool rig_start(Rig *r, uint32_t threads, uint32_t n_ctas);
void rig_free(Rig *r);
void rig_launch(Rig *r, uint32_t cta_id);
/* One cycle: the SM, then the memory port; completed CTAs are collected. */
void rig_step(Rig *r);
/* Step until the SM and the memory are idle (true) or `limit` cycles have passed (false). */
bool rig_run(Rig *r, uint64_t limit);
/* One CTA of one warp runs insts to the end: true if the rig started, ran idle within 1000
 * cycles and the front end saw nothing wrong. */
bool rig_run_one_warp(Rig *r, const MockInst *insts, uint32_t n);

#endif
