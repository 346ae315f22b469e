/* ptx_frames.c: the call graph, recursive device functions and calls through a register.
 *
 * The interpreter gives each function fixed storage: a range of register slots (ptx_regalloc.c)
 * and fixed offsets in the per-thread local and parameter frames (its __local_depot, its
 * parameters and the parameter blocks of the calls it makes). That is enough while no function
 * can be entered twice; a recursive call would overwrite its caller's live registers, depot and
 * parameters. So a call of a function on a cycle of the call graph first copies that storage
 * of the callee, for the lanes that enter it, onto a per-warp save stack, and each lane's ret
 * copies it back for that lane (lanes may return at different times), after which the return
 * values are written to the caller's parameters. Nesting is bounded by PTX_MAX_CALL_DEPTH, as a
 * GPU's by its stack size. What this does not give is a separate depot per activation: a
 * pointer to a caller's local variable, passed down a recursion, reaches the callee's copy.
 * Functions off every cycle pay nothing but one test at call and ret.
 *
 * A call through a register (a virtual function's, through a vtable) may enter any function
 * whose address the module reads: the call graph has an edge to each (ptx_call_callees). When
 * it runs, the lanes are split by the address they hold, as a divergent branch splits them: the
 * first active lane's target is called by the lanes that share it, and the others call the
 * same instruction again once those return, each group in turn, reconverging after the call. */
#include "front/ptx/ptx_exec.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layout (once per module) ---- */

static int iv_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The sorted, merged (offset, size) ranges of f's symbols of one space into iv; how many. */
static uint32_t sym_ranges(const PtxModule *m, uint32_t f, uint8_t space, uint32_t *iv, uint32_t *total)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->n_syms; s++)
        if (m->syms[s].func == f && m->syms[s].space == space && m->syms[s].size) {
            iv[2 * n] = (uint32_t)m->syms[s].offset;
            iv[2 * n + 1] = (uint32_t)m->syms[s].size;
            n++;
        }
    qsort(iv, n, 2 * sizeof *iv, iv_cmp);
    uint32_t k = 0;
    *total = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lo = iv[2 * i], hi = lo + iv[2 * i + 1];
        if (k && lo <= iv[2 * (k - 1)] + iv[2 * (k - 1) + 1]) { /* overlaps or touches the last */
            uint32_t *last = &iv[2 * (k - 1)];
            *total -= last[1];
            last[1] = MAX(last[0] + last[1], hi) - last[0];
            *total += last[1];
            continue;
        }
        iv[2 * k] = lo;
        iv[2 * k + 1] = hi - lo;
        *total += hi - lo;
        k++;
    }
    return k;
}

uint32_t ptx_call_callees(const PtxModule *m, const PtxInst *in, uint32_t *out)
{
    if (in->o[0].kind == OK_FUNC) {
        out[0] = (uint32_t)in->o[0].imm;
        return 1;
    }
    uint32_t n = 0;
    for (uint32_t f = 0; f < m->n_funcs; f++)
        if (m->funcs[f].address_taken && m->funcs[f].defined && !m->funcs[f].is_entry)
            out[n++] = f;
    return n;
}

void ptx_frames_layout(PtxModule *m)
{
    uint32_t nf = m->n_funcs;
    /* the call graph as adjacency lists (first[f] .. first[f+1]) */
    uint32_t *first = xcalloc(nf + 1, sizeof *first), n_edges = 0;
    uint32_t *targets = xmalloc((nf + 1) * sizeof *targets);
    for (uint32_t f = 0; f < nf; f++) {
        const PtxFunc *fn = &m->funcs[f];
        first[f] = n_edges;
        for (uint32_t i = fn->first_inst; fn->defined && i < fn->first_inst + fn->n_insts; i++)
            if (m->insts[i].op == OP_CALL)
                n_edges += ptx_call_callees(m, &m->insts[i], targets);
    }
    first[nf] = n_edges;
    uint32_t *callee = xmalloc((n_edges + 1) * sizeof *callee), e = 0;
    for (uint32_t f = 0; f < nf; f++) {
        const PtxFunc *fn = &m->funcs[f];
        for (uint32_t i = fn->first_inst; fn->defined && i < fn->first_inst + fn->n_insts; i++)
            if (m->insts[i].op == OP_CALL)
                e += ptx_call_callees(m, &m->insts[i], callee + e);
    }
    free(targets);
    /* f is recursive if a search from its callees comes back to it */
    uint32_t *seen = xcalloc(nf + 1, sizeof *seen), *pending = xmalloc((nf + 1) * sizeof *pending);
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t n = 0;
        for (uint32_t k = first[f]; k < first[f + 1]; k++)
            if (seen[callee[k]] != f + 1)
                seen[callee[k]] = f + 1, pending[n++] = callee[k];
        bool cyc = false;
        while (n && !cyc) {
            uint32_t g = pending[--n];
            cyc = g == f;
            for (uint32_t k = first[g]; k < first[g + 1]; k++)
                if (seen[callee[k]] != f + 1)
                    seen[callee[k]] = f + 1, pending[n++] = callee[k];
        }
        m->funcs[f].recursive = cyc;
    }
    free(seen);
    free(pending);
    free(first);
    free(callee);
    uint32_t *iv = xmalloc((2 * (size_t)m->n_syms + 2) * sizeof *iv);
    for (uint32_t f = 0; f < nf; f++) {
        PtxFunc *fn = &m->funcs[f];
        if (!fn->recursive)
            continue;
        fn->n_local_iv = sym_ranges(m, f, SP_LOCAL, iv, &fn->local_save_bytes);
        fn->n_param_iv = sym_ranges(m, f, SP_PARAM_F, iv + 2 * fn->n_local_iv, &fn->param_save_bytes);
        size_t n = 2 * (size_t)(fn->n_local_iv + fn->n_param_iv);
        fn->frame_iv = xmalloc((n + 1) * sizeof *fn->frame_iv);
        memcpy(fn->frame_iv, iv, n * sizeof *iv);
    }
    free(iv);
}

/* ---- save and restore (at run time) ---- */

static size_t frame_size(const PtxFunc *fn)
{
    return (size_t)(fn->n_pin_slots + fn->n_free_slots) * WARP_SIZE * sizeof(uint64_t) +
           (size_t)WARP_SIZE * (fn->local_save_bytes + fn->param_save_bytes);
}

/* Room for need more bytes above save_top, growing geometrically (no allocation per call once
 * a warp has reached its deepest recursion). */
static void reserve(PtxWarp *w, size_t need)
{
    if (w->save_top + need <= w->save_cap)
        return;
    size_t cap = MAX(MAX(2 * w->save_cap, w->save_top + need), (size_t)4096);
    w->saves = xrealloc(w->saves, cap);
    w->save_cap = cap;
}

/* Copy the n ranges iv of a thread's frame to (save) or from (!save) buf. */
static void copy_ranges(uint8_t *buf, uint8_t *frame, const uint32_t *iv, uint32_t n, bool save)
{
    for (uint32_t k = 0; k < n; k++, iv += 2) {
        if (save)
            memcpy(buf, frame + iv[0], iv[1]);
        else
            memcpy(frame + iv[0], buf, iv[1]);
        buf += iv[1];
    }
}

/* The local and parameter storage of the saved lanes: each lane's at a fixed place. */
static void copy_lane(const PtxLaunch *l, PtxWarp *w, const PtxFunc *fn, uint8_t *area, uint32_t lane, bool save)
{
    const PtxModule *m = l->m;
    size_t tid = w->first_tid + lane;
    uint8_t *p = area + (size_t)lane * (fn->local_save_bytes + fn->param_save_bytes);
    copy_ranges(p, w->cta->local + tid * m->local_bytes, fn->frame_iv, fn->n_local_iv, save);
    copy_ranges(p + fn->local_save_bytes, w->cta->pframe + tid * m->pframe_bytes,
                fn->frame_iv + 2 * fn->n_local_iv, fn->n_param_iv, save);
}

bool ptx_frame_save(PtxLaunch *l, PtxWarp *w, uint32_t g, uint32_t lanes, uint32_t pc, size_t *save)
{
    const PtxFunc *fn = &l->m->funcs[g];
    if (w->n_calls >= PTX_MAX_CALL_DEPTH) {
        char who[96], msg[400];
        ptx_thread_coords(l, w, (uint32_t)__builtin_ctz(lanes), who, sizeof who);
        snprintf(msg, sizeof msg,
                 "stack overflow: %s calls '%.200s' with %u calls already nested, the most warpsim "
                 "allows (PTX_MAX_CALL_DEPTH, its stand-in for the stack size)",
                 who, fn->name, PTX_MAX_CALL_DEPTH);
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
        return false;
    }
    reserve(w, frame_size(fn));
    uint8_t *p = w->saves + w->save_top;
    /* registers: the function's two slot ranges, every lane (slot-major, so each is one block) */
    size_t pin = (size_t)fn->n_pin_slots * WARP_SIZE, other = (size_t)fn->n_free_slots * WARP_SIZE;
    memcpy(p, w->regs + (size_t)fn->pin_slot * WARP_SIZE, pin * sizeof(uint64_t));
    memcpy(p + pin * sizeof(uint64_t), w->regs + (size_t)fn->free_slot * WARP_SIZE, other * sizeof(uint64_t));
    uint8_t *area = p + (pin + other) * sizeof(uint64_t);
    FOR_LANES(lanes, i)
        copy_lane(l, w, fn, area, i, true);
    *save = w->save_top;
    w->save_top += frame_size(fn);
    return true;
}

/* Slots [lo, lo+n) of the given lanes back from their saved block. */
static void restore_slots(PtxWarp *w, uint32_t lo, uint32_t n, const uint8_t *saved, uint32_t lanes)
{
    for (uint32_t s = 0; s < n; s++) {
        uint64_t *dst = w->regs + (size_t)(lo + s) * WARP_SIZE;
        const uint8_t *src = saved + (size_t)s * WARP_SIZE * sizeof(uint64_t);
        FOR_LANES(lanes, i)
            memcpy(&dst[i], src + i * sizeof(uint64_t), sizeof(uint64_t));
    }
}

void ptx_frame_return(PtxLaunch *l, PtxWarp *w, const PtxCallFrame *f, uint32_t lanes)
{
    const PtxModule *m = l->m;
    const PtxInst *call = &m->insts[f->call_pc];
    const PtxFunc *fn = &m->funcs[f->callee];
    const uint16_t *to = m->call_syms + call->o[1].imm;
    uint32_t n_ret = MIN((uint32_t)call->o[1].reg, fn->n_rets);
    /* The return values first go above the save stack: the restore rewrites the callee's
     * return parameters, and (calling itself) the caller's parameters that receive them. */
    size_t ret_bytes = 0;
    for (uint32_t k = 0; k < n_ret; k++)
        ret_bytes += MIN(m->syms[fn->rets[k]].size, m->syms[to[k]].size);
    reserve(w, ret_bytes * WARP_SIZE);
    uint8_t *tmp = w->saves + w->save_top;
    FOR_LANES(lanes, i) {
        uint8_t *frame = w->cta->pframe + (size_t)(w->first_tid + i) * m->pframe_bytes, *q = tmp + i * ret_bytes;
        for (uint32_t k = 0; k < n_ret; k++) {
            size_t b = MIN(m->syms[fn->rets[k]].size, m->syms[to[k]].size);
            memcpy(q, frame + m->syms[fn->rets[k]].offset, b);
            q += b;
        }
    }
    const uint8_t *p = w->saves + f->save;
    size_t pin = (size_t)fn->n_pin_slots * WARP_SIZE, other = (size_t)fn->n_free_slots * WARP_SIZE;
    restore_slots(w, fn->pin_slot, fn->n_pin_slots, p, lanes);
    restore_slots(w, fn->free_slot, fn->n_free_slots, p + pin * sizeof(uint64_t), lanes);
    uint8_t *area = w->saves + f->save + (pin + other) * sizeof(uint64_t);
    FOR_LANES(lanes, i) {
        copy_lane(l, w, fn, area, i, false);
        uint8_t *frame = w->cta->pframe + (size_t)(w->first_tid + i) * m->pframe_bytes, *q = tmp + i * ret_bytes;
        for (uint32_t k = 0; k < n_ret; k++) {
            size_t b = MIN(m->syms[fn->rets[k]].size, m->syms[to[k]].size);
            memcpy(frame + m->syms[to[k]].offset, q, b);
            q += b;
        }
    }
}

bool ptx_call_target(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active, uint32_t *g,
                     uint32_t *rest)
{
    const PtxModule *m = l->m;
    const uint64_t *v = w->regs + (size_t)call->o[0].reg * WARP_SIZE;
    uint32_t lane = (uint32_t)__builtin_ctz(active), same = 0;
    uint64_t a = v[lane];
    FOR_LANES(active, i) same |= (uint32_t)(v[i] == a) << i;
    *rest = active & ~same;
    uint64_t f = a - PTX_WIN_CODE;
    char who[96], msg[400]; /* written only for a fault: this runs at every such call */
    if (a < PTX_WIN_CODE || f >= m->n_funcs || !m->funcs[f].defined || m->funcs[f].is_entry ||
        l->builtin_of[f] != PTX_BUILTIN_NONE) {
        ptx_thread_coords(l, w, lane, who, sizeof who);
        snprintf(msg, sizeof msg, "call through %#llx by %s: not the address of a device function%s",
                 (unsigned long long)a, who,
                 f < m->n_funcs && l->builtin_of[f] != PTX_BUILTIN_NONE ? " of the module's own" : "");
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
        return false;
    }
    const PtxFunc *fn = &m->funcs[f];
    bool fits = fn->n_params == call->o[2].reg && fn->n_rets == call->o[1].reg;
    for (uint32_t k = 0; fits && k < fn->n_params; k++)
        fits = m->syms[fn->params[k]].size == m->syms[m->call_syms[call->o[2].imm + k]].size;
    for (uint32_t k = 0; fits && k < fn->n_rets; k++)
        fits = m->syms[fn->rets[k]].size == m->syms[m->call_syms[call->o[1].imm + k]].size;
    if (!fits) {
        ptx_thread_coords(l, w, lane, who, sizeof who);
        snprintf(msg, sizeof msg, "call through the address of '%s' by %s: its parameters are not those of the "
                 "call's prototype", fn->name, who);
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
        return false;
    }
    *g = (uint32_t)f;
    return true;
}
