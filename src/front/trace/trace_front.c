/* trace_front.c: a kernel trace played through FrontOps (front/front.h).
 *
 * When a CTA starts, each of its warps gets a reader positioned at its first instruction line
 * (from the index) and parses that line; peek returns the parsed instruction, exec hands it
 * over and parses the next. So each resident warp holds one window (TRACE_WINDOW bytes) and
 * one instruction, whatever the trace's size. The warp's last instruction must be an EXIT; an
 * EXIT before it ends only some lanes and runs as a no-op (peek still shows the EXIT, as the
 * PTX front end's does). An error while streaming stops the kernel: it is recorded
 * (trace_kernel_error) and every warp's next instruction becomes an exit, so the timing model
 * retires the CTAs and returns. */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool warp_fail(TraceKernel *k, const TraceWarp *ws, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool warp_fail(TraceKernel *k, const TraceWarp *ws, const char *fmt, ...)
{
    if (!k->failed) {
        int n = snprintf(k->error, sizeof k->error, "%s:%u: ", k->src.name, ws->lines.line);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(k->error + n, sizeof k->error - (size_t)n, fmt, ap);
        va_end(ap);
        k->failed = true;
    }
    return false;
}

bool trace_warp_advance(TraceKernel *k, TraceWarp *ws)
{
    char *s, msg[300];
    uint64_t off;
    for (;;) {
        int got = trace_lines_next(&ws->lines, &s, &off, msg, sizeof msg);
        if (got < 0) {
            if (!k->failed)
                snprintf(k->error, sizeof k->error, "%s", msg);
            k->failed = true;
            return false;
        }
        if (got == 0)
            return warp_fail(k, ws, "the file ends inside a warp's instructions");
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s)
            break;
    }
    if (!trace_parse_inst(&k->fmt, s, &ws->cur, msg, sizeof msg))
        return warp_fail(k, ws, "%s", msg);
    ws->left--;
    bool exit = ws->cur.s.op == WOP_EXIT;
    ws->exec_op = exit && ws->left ? WOP_NOP : ws->cur.s.op;
    if (!ws->left && !exit)
        return warp_fail(k, ws, "the warp's last instruction is not an EXIT");
    return true;
}

bool trace_warp_start(TraceKernel *k, TraceWarp *ws, uint32_t tb, uint32_t w)
{
    const TraceWarpIndex *wi = &k->index[(size_t)tb * k->wpc + w];
    if (!ws->buf)
        ws->buf = xmalloc(TRACE_WINDOW + 1);
    trace_lines_init(&ws->lines, &k->src, ws->buf, TRACE_WINDOW);
    trace_lines_seek(&ws->lines, wi->off, wi->line);
    ws->left = wi->n;
    ws->live = true;
    return trace_warp_advance(k, ws);
}

static void tf_kernel_begin(void *self, const FrontKernel *fk, uint32_t n_warp_ids)
{
    TraceKernel *k = self;
    CHECK(!memcmp(fk->grid, k->fk.grid, sizeof fk->grid) && !memcmp(fk->block, k->fk.block, sizeof fk->block));
    if (n_warp_ids > k->n_warp_ids) {
        k->warps = xrealloc(k->warps, n_warp_ids * sizeof *k->warps);
        memset(k->warps + k->n_warp_ids, 0, (n_warp_ids - k->n_warp_ids) * sizeof *k->warps);
        k->n_warp_ids = n_warp_ids;
    }
    for (uint32_t i = 0; i < k->n_warp_ids; i++)
        k->warps[i].live = false;
}

static void tf_cta_start(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base)
{
    TraceKernel *k = self;
    (void)sm;
    CHECK(cta_id < k->n_ctas && warp_id_base + k->wpc <= k->n_warp_ids);
    for (uint32_t i = 0; i < k->wpc; i++) {
        TraceWarp *ws = &k->warps[warp_id_base + i];
        if (k->failed)
            ws->live = true; /* it will exit at once */
        else
            trace_warp_start(k, ws, k->cta_tb[cta_id], i);
    }
}

static const WinstStatic tf_exit_static = {.op = WOP_EXIT};

static const WinstStatic *tf_peek(void *self, uint32_t warp_id)
{
    TraceKernel *k = self;
    const TraceWarp *ws = &k->warps[warp_id];
    if (!ws->live)
        return NULL;
    return k->failed ? &tf_exit_static : &ws->cur.s;
}

static uint32_t tf_peek_mask(void *self, uint32_t warp_id)
{
    const TraceKernel *k = self;
    const TraceWarp *ws = &k->warps[warp_id];
    return ws->live && !k->failed ? ws->cur.active_mask : 0;
}

static void tf_exec(void *self, uint32_t warp_id, Winst *out)
{
    TraceKernel *k = self;
    TraceWarp *ws = &k->warps[warp_id];
    CHECK(ws->live);
    if (k->failed) {
        memset(out, 0, sizeof *out);
        out->s = tf_exit_static;
        ws->live = false;
        return;
    }
    *out = ws->cur;
    out->s.op = ws->exec_op;
    if (!ws->left)
        ws->live = false;
    else
        trace_warp_advance(k, ws);
}

static void tf_cta_end(void *self, uint32_t cta_id) { (void)self, (void)cta_id; }
static void tf_kernel_end(void *self) { (void)self; }

const FrontOps trace_front_ops = {
    .name = "trace",
    .kernel_begin = tf_kernel_begin,
    .cta_start = tf_cta_start,
    .peek = tf_peek,
    .peek_mask = tf_peek_mask,
    .exec = tf_exec,
    .cta_end = tf_cta_end,
    .kernel_end = tf_kernel_end,
};
