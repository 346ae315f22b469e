/* ptx_exec.c: one warp instruction of the functional SIMT interpreter: the reconvergence stack,
 * calls and returns, and memory accesses in every state space.
 *
 * Control flow follows the immediate-post-dominator stack of Fung et al. (MICRO'07), as in
 * GPGPU-Sim: each entry is (pc, reconvergence pc, mask); the warp executes the top entry; a
 * divergent branch turns the top into the reconvergence entry and pushes the two sides; an
 * entry whose pc reaches its reconvergence pc, or whose mask empties, is popped. A call pushes
 * an entry for the callee and a call frame; `ret` removes the returning lanes from the callee's
 * entries (so lanes may return at different times), `exit` (and `ret` of the kernel) from all
 * entries; calls of recursive functions save and restore the callee's state (ptx_frames.c).
 * Predication narrows the active mask without touching the stack.
 * Memory: global and const through the sparse PtxMemory (const variables live there too);
 * shared per CTA; local and the .param frames of .func calls per thread; kernel parameters in
 * the launch's buffer; texture fetches through the memory's texture-object table. Generic
 * addresses are classified by the windows of ptx_ir.h. Every access is checked, as a GPU's
 * memory system would fault: it must be aligned to its size, and lie inside one allocation or
 * module variable (global, generic), one __constant__ variable (const), or the thread's shared,
 * local or parameter memory. A violation stops the launch with a fault of its kind (illegal or
 * misaligned address) naming the PTX file:line, the kernel, the thread, the address and the
 * nearest allocation; so do trap (an exit whose mode is EXIT_TRAP) and a failed assert. Calls of
 * vprintf, __assertfail and the device runtime run in ptx_builtin.c. To the timing model an exit
 * that leaves some of the warp's lanes running (the others diverged, or trap) is a no-op, not the
 * warp's end. */
#include "front/ptx/ptx_exec.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_fast.h"
#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <stdio.h>
#include <string.h>

void ptx_launch_fault(PtxLaunch *l, uint32_t pc, PtxFault kind, const char *what)
{
    front_order_here(); /* faults of one cycle are recorded in SM order, on any number of threads */
    if (l->failed)
        return;
    l->failed = true;
    l->fail_seen = !l->fail_deferred;
    l->fault = kind;
    if (l->fault_counter)
        ++*l->fault_counter;
    uint32_t line = pc < l->m->n_insts ? l->m->insts[pc].line : 0;
    snprintf(l->error, sizeof l->error, "%s:%u: kernel %s: %s", l->m->filename, line, l->ki->name, what);
}

void ptx_thread_coords(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, char *buf, size_t len)
{
    uint32_t t = w->first_tid + lane;
    const uint32_t *c = w->cta->ctaid;
    snprintf(buf, len, "block (%u,%u,%u) thread (%u,%u,%u)", c[0], c[1], c[2], t % l->block[0],
             (t / l->block[0]) % l->block[1], t / (l->block[0] * l->block[1]));
}

/* Special register k of every lane set to v, if the module reads it. */
static inline void sr_fill(uint64_t *sr, uint32_t used, unsigned k, uint64_t v)
{
    if (used >> k & 1)
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
            sr[k * WARP_SIZE + lane] = v;
}

/* The special registers the module reads (PtxModule.sr_used; the others are never looked at). */
static void warp_specials(const PtxLaunch *l, const PtxWarp *w, const PtxCta *c)
{
    const uint32_t used = l->m->sr_used;
    uint64_t *sr = w->regs;
    if (used & (7u << SR_TID_X)) { /* the thread index, counted on from the warp's first */
        uint32_t bx = l->block[0], by = l->block[1], t = w->first_tid;
        uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
            sr[SR_TID_X * WARP_SIZE + lane] = x;
            sr[SR_TID_Y * WARP_SIZE + lane] = y;
            sr[SR_TID_Z * WARP_SIZE + lane] = z;
            if (++x == bx && (x = 0, ++y == by))
                y = 0, z++;
        }
    }
    for (unsigned k = 0; k < 3; k++) {
        sr_fill(sr, used, SR_NTID_X + k, l->block[k]);
        sr_fill(sr, used, SR_CTAID_X + k, c->ctaid[k]);
        sr_fill(sr, used, SR_NCTAID_X + k, l->grid[k]);
    }
    sr_fill(sr, used, SR_WARPID, w->warp_in_cta);
    sr_fill(sr, used, SR_NWARPID, l->warps_per_cta);
    sr_fill(sr, used, SR_SMID, c->sm);
    sr_fill(sr, used, SR_NSMID, 1);
    sr_fill(sr, used, SR_GRIDID, 1);
    sr_fill(sr, used, SR_CARRY, 0);
    if (used & (0x1fu << SR_LANEMASK_EQ | 1u << SR_LANEID))
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
            sr[SR_LANEID * WARP_SIZE + lane] = lane;
            sr[SR_LANEMASK_EQ * WARP_SIZE + lane] = 1u << lane;
            sr[SR_LANEMASK_LT * WARP_SIZE + lane] = (1u << lane) - 1;
            sr[SR_LANEMASK_LE * WARP_SIZE + lane] = (uint32_t)((2ull << lane) - 1);
            sr[SR_LANEMASK_GT * WARP_SIZE + lane] = (uint32_t)~((2ull << lane) - 1);
            sr[SR_LANEMASK_GE * WARP_SIZE + lane] = (uint32_t)~((1u << lane) - 1);
        }
}

void ptx_warp_init(PtxLaunch *l, PtxWarp *w, PtxCta *c, uint32_t warp_in_cta)
{
    const PtxModule *m = l->m;
    size_t nregs = (size_t)m->n_slots * WARP_SIZE;
    if (!w->regs)
        w->regs = xmalloc(nregs * sizeof *w->regs);
    /* Deterministic, though PTX leaves them undefined: the slots that can be read before this
     * warp writes them (ptx_regalloc.c), and the special registers. */
    memset(w->regs + (size_t)l->ki->reg_lo * WARP_SIZE, 0,
           (size_t)(l->ki->reg_hi - l->ki->reg_lo) * WARP_SIZE * sizeof *w->regs);
    if (!w->cap) {
        w->cap = 16;
        w->stack = xmalloc(w->cap * sizeof *w->stack);
    }
    w->cta = c;
    w->warp_in_cta = warp_in_cta;
    w->red_count = w->red_lanes = 0;
    w->exit_offered = false;
    w->count = &l->stats;
    w->first_tid = warp_in_cta * WARP_SIZE;
    uint32_t n = l->threads_per_cta - w->first_tid;
    uint32_t valid = n >= WARP_SIZE ? 0xFFFFFFFFu : (1u << n) - 1;
    warp_specials(l, w, c);
    for (unsigned k = 0; k < PTX_N_ENVREGS; k++)
        if (m->xenvreg[k] != PTX_NO_REG)
            for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
                w->regs[(size_t)m->xenvreg[k] * WARP_SIZE + lane] = l->envreg[k];
    w->depth = 1;
    w->stack[0].pc = m->funcs[l->entry].first_inst;
    w->stack[0].rpc = PTX_NO_PC;
    w->stack[0].mask = valid;
    w->n_calls = 0;
    w->save_top = 0;
    w->done = valid == 0;
    w->at_barrier = false;
}

static void push(PtxWarp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->depth == w->cap) {
        w->cap *= 2;
        w->stack = xrealloc(w->stack, w->cap * sizeof *w->stack);
    }
    w->stack[w->depth].pc = pc;
    w->stack[w->depth].rpc = rpc;
    w->stack[w->depth].mask = mask;
    w->depth++;
}

/* ---- memory ---- */

typedef struct Where {
    uint8_t space;  /* resolved PtxSpace */
    uint8_t *host;  /* NULL: global memory at addr */
    uint64_t addr;  /* address in the resolved space */
    uint64_t taddr; /* address reported to the timing model */
} Where;

void ptx_access_fault(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint32_t pc, PtxFault kind, PtxAccess acc,
                      unsigned bytes, uint8_t space, uint64_t a, const char *why)
{
    static const char *const verbs[] = {"load", "store", "atomic", "texture fetch", "read", "surface load",
                                        "surface store"};
    const char *where = space == SP_SHARED ? "shared offset" : space == SP_LOCAL ? "local offset"
                        : space == SP_PARAM_K || space == SP_PARAM_F ? "parameter offset"
                        : space == SP_CONST ? "const address" : "global address";
    char who[96], msg[512];
    ptx_thread_coords(l, w, lane, who, sizeof who);
    snprintf(msg, sizeof msg, "%s: %u-byte %s at %s 0x%llx by %s: %s",
             kind == PTX_FAULT_MISALIGNED ? "misaligned address" : "illegal address", bytes, verbs[acc], where,
             (unsigned long long)a, who, why);
    ptx_launch_fault(l, pc, kind, msg);
}

/* The bytes of a space's memory for one thread: the block's shared memory, the thread's local
 * memory, the kernel's parameters or the call's parameter frame (global and const: none). */
static uint64_t frame_bytes(const PtxLaunch *l, uint8_t space, const char **name)
{
    switch (space) {
    case SP_SHARED: *name = "the block's shared memory"; return l->smem_bytes;
    case SP_LOCAL: *name = "the thread's local memory"; return l->m->local_bytes;
    case SP_PARAM_K: *name = "the kernel's parameters"; return l->param_bytes;
    case SP_PARAM_F: *name = "the call's parameter frame"; return l->m->pframe_bytes;
    default: *name = NULL; return 0;
    }
}

/* The fault of an access resolve refused: misaligned, or outside what its space allows. Out of
 * line, so that the checks of resolve stay a few instructions. */
static bool __attribute__((noinline, cold)) bad_access(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint32_t pc,
                                                        PtxAccess acc, unsigned bytes, uint8_t space, uint64_t a)
{
    char why[320];
    const char *frame;
    uint64_t size = frame_bytes(l, space, &frame);
    PtxFault kind = PTX_FAULT_ILLEGAL_ADDRESS;
    if ((a & (bytes - 1)) && space != SP_PARAM_K && space != SP_PARAM_F) {
        kind = PTX_FAULT_MISALIGNED;
        snprintf(why, sizeof why, "not a multiple of %u", bytes);
    } else if (frame) {
        snprintf(why, sizeof why, "outside the %llu bytes of %s", (unsigned long long)size, frame);
    } else {
        ptx_memory_describe(l->mem, a, bytes, why, sizeof why);
    }
    ptx_access_fault(l, w, lane, pc, kind, acc, bytes, space, a, why);
    return false;
}

/* Find what an access of one lane touches. Every access is checked: it must be aligned to its
 * size (PTX ISA 6.4: "naturally aligned"), global and generic ones must lie inside one
 * allocation or module variable, const ones inside one __constant__ variable, and the others
 * inside the thread's shared, local or parameter memory; else the launch faults. */
static inline bool resolve(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint8_t space, uint64_t a, unsigned bytes,
                           Where *r, uint32_t pc, PtxAccess acc)
{
    const PtxModule *m = l->m;
    if (space == SP_GENERIC) {
        if (a - PTX_WIN_SHARED < PTX_WIN_SIZE)
            space = SP_SHARED, a -= PTX_WIN_SHARED;
        else if (a - PTX_WIN_LOCAL < PTX_WIN_SIZE)
            space = SP_LOCAL, a -= PTX_WIN_LOCAL;
        else if (a - PTX_WIN_PARAM < PTX_WIN_SIZE)
            space = SP_PARAM_K, a -= PTX_WIN_PARAM;
        else
            space = SP_GLOBAL;
    }
    r->space = space;
    r->addr = a;
    r->taddr = a;
    r->host = NULL;
    bool aligned = !(a & (bytes - 1));
    uint32_t tid = w->first_tid + lane;
    switch (space) {
    case SP_SHARED:
        if (!aligned || a + bytes > l->smem_bytes || a + bytes < a)
            return bad_access(l, w, lane, pc, acc, bytes, space, a);
        r->host = w->cta->smem + a;
        return true;
    case SP_LOCAL:
        if (!aligned || a + bytes > m->local_bytes || a + bytes < a)
            return bad_access(l, w, lane, pc, acc, bytes, space, a);
        r->host = w->cta->local + (size_t)tid * m->local_bytes + a;
        {
            /* interleave threads' local words, as the hardware does, so a warp's accesses to
             * the same local variable coalesce (modulo 2^64 for the largest grids) */
            uint64_t gtid = w->cta->cta_id * l->threads_per_cta + tid;
            uint64_t total = l->n_ctas * l->threads_per_cta;
            r->taddr = PTX_WIN_LOCAL + (((a >> 2) * total + gtid) << 2) + (a & 3);
        }
        return true;
    case SP_PARAM_K:
        if (a + bytes > l->param_bytes || a + bytes < a)
            return bad_access(l, w, lane, pc, acc, bytes, space, a);
        r->host = l->params + a;
        return true;
    case SP_PARAM_F:
        if (a + bytes > m->pframe_bytes)
            return bad_access(l, w, lane, pc, acc, bytes, space, a);
        r->host = w->cta->pframe + (size_t)tid * m->pframe_bytes + a;
        return true;
    default: /* global, const */
        if (!aligned || !ptx_mem_valid(l->mem, a, bytes, space == SP_CONST))
            return bad_access(l, w, lane, pc, acc, bytes, space, a);
        return true;
    }
}

static inline uint64_t rd(PtxLaunch *l, const Where *r, unsigned bytes)
{
    if (r->host)
        return ptx_bytes_get(r->host, bytes);
    return ptx_mem_load(l->mem, r->addr, bytes);
}

bool __attribute__((noinline, cold)) ptx_store_refused(PtxLaunch *l, uint64_t addr, uint32_t pc)
{
    char msg[160];
    snprintf(msg, sizeof msg, "a store at 0x%llx needs more host memory than the simulation's limit of %llu MiB",
             (unsigned long long)addr, (unsigned long long)(l->mem->max_pages * PTX_PAGE_SIZE >> 20));
    ptx_launch_fault(l, pc, PTX_FAULT_HOST_MEMORY, msg);
    return false;
}

static inline bool wr(PtxLaunch *l, const Where *r, uint64_t v, unsigned bytes, uint32_t pc)
{
    if (r->host)
        ptx_bytes_put(r->host, v, bytes);
    else if (!ptx_mem_store(l->mem, r->addr, v, bytes))
        return ptx_store_refused(l, r->addr, pc);
    return true;
}

bool ptx_lane_read(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint64_t generic, void *dst, size_t n, uint32_t pc)
{
    uint8_t *p = dst;
    for (size_t i = 0; i < n; i++) {
        Where r;
        if (!resolve(l, w, lane, SP_GENERIC, generic + i, 1, &r, pc, ACC_READ))
            return false;
        p[i] = (uint8_t)rd(l, &r, 1);
    }
    return true;
}

bool ptx_lane_access(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint8_t space, uint64_t a, unsigned bytes,
                     bool store, uint64_t *v, uint32_t pc, uint64_t *taddr, uint8_t *rspace)
{
    if (space == SP_SHARED || space == SP_LOCAL)
        a &= 0xffffffffull; /* 32-bit window offsets, as exec_mem computes them */
    Where r;
    if (!resolve(l, w, lane, space, a, bytes, &r, pc, store ? ACC_STORE : ACC_LOAD))
        return false;
    *taddr = r.taddr;
    *rspace = r.space;
    if (store)
        return wr(l, &r, *v, bytes, pc);
    *v = rd(l, &r, bytes);
    return true;
}

static uint64_t atomic_op(const PtxInst *in, uint64_t old, uint64_t b, uint64_t c, unsigned eb)
{
    bool sg = ptx_type_signed(in->type);
    uint64_t mask = ptx_zmask(eb);
    uint64_t so = ptx_ext(old, eb, sg), sb = ptx_ext(b, eb, sg);
    switch (in->mode) {
    case AOP_ADD:
        if (in->type == PT_F32)
            return ptx_from_f32(ptx_as_f32(old) + ptx_as_f32(b));
        if (in->type == PT_F64)
            return ptx_from_f64(ptx_as_f64(old) + ptx_as_f64(b));
        return (old + b) & mask;
    case AOP_MIN:
        if (in->type == PT_F32)
            return ptx_as_f32(b) < ptx_as_f32(old) ? b : old;
        return (sg ? (int64_t)sb < (int64_t)so : sb < so) ? b & mask : old;
    case AOP_MAX:
        if (in->type == PT_F32)
            return ptx_as_f32(b) > ptx_as_f32(old) ? b : old;
        return (sg ? (int64_t)sb > (int64_t)so : sb > so) ? b & mask : old;
    case AOP_EXCH: return b & mask;
    case AOP_CAS: return (old & mask) == (b & mask) ? c & mask : old;
    case AOP_AND: return old & b & mask;
    case AOP_OR: return (old | b) & mask;
    case AOP_XOR: return (old ^ b) & mask;
    case AOP_INC: return (old & mask) >= (b & mask) ? 0 : (old + 1) & mask;
    case AOP_DEC: return ((old & mask) == 0 || (old & mask) > (b & mask)) ? b & mask : (old - 1) & mask;
    default: return old;
    }
}

/* Resolve one lane's ld/st address and record it for the timing model; a generic access
 * reports the space its first active lane hits. */
static bool lane_access(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t lane, uint64_t a, unsigned bytes,
                        Where *r, uint32_t pc, Winst *out, bool *first)
{
    if (!resolve(l, w, lane, in->space, a, bytes, r, pc, in->op == OP_LD ? ACC_LOAD : ACC_STORE))
        return false;
    if (out) {
        out->addr[lane] = r->taddr;
        if (*first && in->space == SP_GENERIC)
            out->s.space = r->space == SP_SHARED ? WSPACE_SHARED : r->space == SP_LOCAL ? WSPACE_LOCAL : WSPACE_GLOBAL;
    }
    *first = false;
    return true;
}

static void exec_mem(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out)
{
    const PtxOperand *ao = &in->o[in->op == OP_LD || in->op == OP_ATOM ? 1 : 0];
    uint64_t disp = ao->imm + (ao->sym != PTX_NO_SYM ? l->sym_addr[ao->sym] : 0);
    const uint64_t *base = ao->reg != PTX_NO_REG ? w->regs + (size_t)ao->reg * WARP_SIZE : NULL;
    /* Shared and local addresses are 32-bit window offsets: base + displacement wraps at 2^32,
     * as nvcc expects when it folds e.g. (buf - 64*tid) + 68 into one operand. */
    uint64_t amask = in->space == SP_SHARED || in->space == SP_LOCAL ? 0xffffffffull : ~0ull;
    unsigned eb = ptx_type_bytes(in->type), n = in->vec;
    bool sg = ptx_type_signed(in->type);
    bool first = true;
    if (in->op == OP_PREFETCH)
        return;
    if ((in->op == OP_LD || in->op == OP_ST) && active && ptx_mem_warp(l, w, in, pc, active, base, disp, amask, out))
        return;
    if (in->op == OP_LD) {
        const PtxOperand *d = &in->o[0];
        FOR_LANES(active, i) {
            uint64_t a = ((base ? base[i] : 0) + disp) & amask;
            Where r;
            if (!lane_access(l, w, in, i, a, eb * n, &r, pc, out, &first))
                return;
            for (unsigned k = 0; k < n; k++) {
                uint16_t reg = d->kind == OK_VEC ? d->vreg[k] : d->reg;
                Where rk = r;
                rk.addr += k * eb;
                if (rk.host)
                    rk.host += k * eb;
                uint64_t v = ptx_ext(rd(l, &rk, eb), eb, sg);
                if (reg != PTX_NO_REG)
                    w->regs[(size_t)reg * WARP_SIZE + i] = v;
            }
        }
        return;
    }
    if (in->op == OP_ST) {
        const PtxOperand *s = &in->o[1];
        uint64_t tmp[WARP_SIZE];
        unsigned stride = 0;
        const uint64_t *sv = s->kind != OK_VEC ? ptx_operand_values(l, w, s, tmp, &stride) : NULL;
        FOR_LANES(active, i) {
            uint64_t a = ((base ? base[i] : 0) + disp) & amask;
            Where r;
            if (!lane_access(l, w, in, i, a, eb * n, &r, pc, out, &first))
                return;
            for (unsigned k = 0; k < n; k++) {
                uint64_t v;
                if (sv)
                    v = sv[i * stride];
                else
                    v = s->vreg[k] == PTX_NO_REG ? 0 : w->regs[(size_t)s->vreg[k] * WARP_SIZE + i];
                Where rk = r;
                rk.addr += k * eb;
                if (rk.host)
                    rk.host += k * eb;
                if (!wr(l, &rk, v, eb, pc))
                    return;
            }
        }
        return;
    }
    /* atom / red: lanes in order, each a read-modify-write */
    unsigned bi = in->op == OP_ATOM ? 2 : 1;
    uint64_t tb[WARP_SIZE], tc[WARP_SIZE];
    unsigned sb = 0, sc = 0;
    const uint64_t *bv = ptx_operand_values(l, w, &in->o[bi], tb, &sb);
    const uint64_t *cv = ptx_operand_values(l, w, &in->o[bi + 1], tc, &sc);
    uint64_t *d = in->op == OP_ATOM && in->o[0].reg != PTX_NO_REG ? w->regs + (size_t)in->o[0].reg * WARP_SIZE : NULL;
    FOR_LANES(active, i) {
        uint64_t a = ((base ? base[i] : 0) + disp) & amask;
        Where r;
        if (!resolve(l, w, i, in->space, a, eb, &r, pc, ACC_ATOMIC))
            return;
        if (r.space != SP_GLOBAL && r.space != SP_SHARED) {
            ptx_access_fault(l, w, i, pc, PTX_FAULT_ILLEGAL_ADDRESS, ACC_ATOMIC, eb, r.space, r.addr,
                         "atomics work on global and shared memory only");
            return;
        }
        if (out) {
            out->addr[i] = r.taddr;
            if (first && in->space == SP_GENERIC)
                out->s.space = r.space == SP_SHARED ? WSPACE_SHARED : WSPACE_GLOBAL;
        }
        first = false;
        uint64_t old = rd(l, &r, eb);
        if (!wr(l, &r, atomic_op(in, old, bv[i * sb], cv[i * sc], eb), eb, pc))
            return;
        if (d)
            d[i] = ptx_ext(old, eb, sg);
    }
}

/* ---- control ---- */

static void copy_params(PtxLaunch *l, PtxWarp *w, uint32_t lanes, const uint16_t *from, const uint16_t *to, uint32_t n)
{
    const PtxModule *m = l->m;
    for (uint32_t k = 0; k < n; k++) {
        const PtxSymbol *a = &m->syms[from[k]], *b = &m->syms[to[k]];
        size_t bytes = (size_t)MIN(a->size, b->size);
        FOR_LANES(lanes, i) {
            uint8_t *frame = w->cta->pframe + (size_t)(w->first_tid + i) * m->pframe_bytes;
            memmove(frame + b->offset, frame + a->offset, bytes);
        }
    }
}

static void remove_lanes(PtxWarp *w, uint32_t from_entry, uint32_t lanes)
{
    for (uint32_t k = from_entry; k < w->depth; k++)
        w->stack[k].mask &= ~lanes;
}

/* A call by the active lanes: its arguments, an entry for the callee and a call frame (out of
 * line: the interpreter's step keeps its registers for the common instructions). */
static void __attribute__((noinline)) exec_call(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active)
{
    const PtxModule *m = l->m;
    uint32_t g = (uint32_t)in->o[0].imm, rest = 0;
    if (in->o[0].kind == OK_REG && !ptx_call_target(l, w, in, pc, active, &g, &rest))
        return;
    if (rest) /* other targets: those lanes call again once these return, and all go on after */
        push(w, pc, pc + 1, rest), active &= ~rest;
    if (l->builtin_of[g] != PTX_BUILTIN_NONE) {
        ptx_builtin_call(l, w, in, pc, active);
        return;
    }
    const PtxFunc *fn = &m->funcs[g];
    size_t save = PTX_NO_SAVE; /* a recursive callee's state is saved before its arguments land */
    if (fn->recursive && !ptx_frame_save(l, w, g, active, pc, &save))
        return;
    uint32_t n_arg = MIN((uint32_t)in->o[2].reg, fn->n_params);
    copy_params(l, w, active, m->call_syms + in->o[2].imm, fn->params, n_arg);
    push(w, fn->first_inst, PTX_NO_PC, active);
    if (w->n_calls == w->cap_calls) {
        w->cap_calls = w->cap_calls ? 2 * w->cap_calls : 8;
        w->calls = xrealloc(w->calls, w->cap_calls * sizeof *w->calls);
    }
    w->calls[w->n_calls].call_pc = pc;
    w->calls[w->n_calls].callee = g;
    w->calls[w->n_calls].save = save;
    w->calls[w->n_calls++].base = w->depth - 1;
}

/* A ret of the active lanes from the innermost call: its return values, and the lanes leave
 * the callee's entries. */
static void __attribute__((noinline)) exec_ret(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    const PtxModule *m = l->m;
    const PtxCallFrame *f = &w->calls[w->n_calls - 1];
    const PtxInst *call = &m->insts[f->call_pc];
    const PtxFunc *fn = &m->funcs[in->func];
    uint32_t n_ret = MIN((uint32_t)call->o[1].reg, fn->n_rets);
    if (f->save != PTX_NO_SAVE)
        ptx_frame_return(l, w, f, active);
    else
        copy_params(l, w, active, fn->rets, m->call_syms + call->o[1].imm, n_ret);
    remove_lanes(w, f->base, active);
}

int ptx_warp_step(PtxLaunch *l, PtxWarp *w, Winst *out)
{
    const PtxModule *m = l->m;
    if (w->done)
        return -1;
    if (l->fail_seen) {
        w->done = true;
        return WOP_EXIT;
    }
    if (w->red_lanes)
        ptx_bar_red_result(w);
    PtxSimtEntry *top = &w->stack[w->depth - 1];
    uint32_t pc = top->pc, mask = top->mask, active = mask;
    const PtxInst *in = &m->xinsts[pc];
    if (in->guard != PTX_NO_REG) {
        const uint64_t *g = w->regs + (size_t)in->guard * WARP_SIZE;
        const uint64_t neg = (in->flags & PF_GUARD_NEG) ? 1 : 0;
        active = ptx_guard_lanes(g, neg, mask);
    }
    PtxRunStats *count = w->count;
    count->warp_insts++;
    count->thread_insts += mask == 0xFFFFFFFFu ? WARP_SIZE : popcount_u32(mask); /* the bit count: a chain of multiplies */
    if (l->inst_limit && count->warp_insts > l->inst_limit) { /* the functional driver's: it counts in l->stats */
        ptx_launch_fault(l, pc, PTX_FAULT_INST_LIMIT, "instruction limit reached (a kernel that does not terminate?)");
        w->done = true;
        return WOP_EXIT;
    }
    int cls = in->cls;
    if (out) {
        out->s = m->statics[pc];
        out->active_mask = active;
    }
    uint32_t next = pc + 1;
    switch (in->op) {
    case OP_BRA: {
        uint32_t target = (uint32_t)in->o[0].imm;
        if (active == mask) {
            top->pc = target;
        } else if (active == 0) {
            top->pc = next;
        } else {
            uint32_t rpc = in->rpc;
            top->pc = rpc;
            push(w, next, rpc, mask & ~active);
            push(w, target, rpc, active);
        }
        break;
    }
    case OP_CALL:
        top->pc = next;
        if (active)
            exec_call(l, w, in, pc, active);
        break;
    case OP_RET:
        if (w->n_calls > 0) {
            top->pc = next;
            exec_ret(l, w, in, active);
            break;
        }
        goto do_exit; /* ret from the kernel ends its threads */
    case OP_EXIT:
        if (in->mode == EXIT_TRAP && active) {
            char who[96], msg[128];
            ptx_thread_coords(l, w, (uint32_t)__builtin_ctz(active), who, sizeof who);
            snprintf(msg, sizeof msg, "trap executed by %s", who);
            ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
            top->pc = next;
            break;
        }
    do_exit:
        top->pc = next;
        remove_lanes(w, 0, active);
        break;
    case OP_LD: case OP_ST: case OP_ATOM: case OP_RED: case OP_PREFETCH:
        top->pc = next;
        if (active == 0xFFFFFFFFu && in->fast && ptx_fast_exec(l, w, in, out))
            break;
        if (active)
            exec_mem(l, w, in, pc, active, out);
        break;
    case OP_TEX:
        top->pc = next;
        if (active)
            ptx_exec_tex(l, w, in, pc, active, out);
        break;
    case OP_SULD: case OP_SUST:
        top->pc = next;
        if (active)
            ptx_exec_surface(l, w, in, pc, active, out);
        break;
    case OP_WMMA:
        top->pc = next;
        if (active)
            ptx_wmma_exec(l, w, in, pc, active, out);
        break;
    case OP_CPASYNC:
        top->pc = next;
        if (active)
            ptx_async_exec(l, w, in, pc, active, out);
        break;
    case OP_BAR: case OP_MEMBAR: case OP_NOP:
        top->pc = next;
        if (in->op == OP_BAR && in->mode != BAR_SYNC)
            ptx_bar_red_arrive(l, w, in, active);
        break;
    default:
        top->pc = next;
        if (active == 0xFFFFFFFFu && in->fast && ptx_fast_exec(l, w, in, out)) {
            /* a pre-decoded full-warp form (ptx_fast.c) */
        } else if (active) {
            const char *why = ptx_alu_exec(l, w, in, active, mask);
            if (why)
                ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, why);
        }
        /* The ALU leaves the stack as it was: the check below, less what it cannot change. */
        if (next != top->rpc && next < m->n_insts && cls != WOP_EXIT)
            return cls;
        break;
    }
    /* The stack's top was in order before (a mask, not at its reconvergence point); an
     * instruction that only moved it on leaves nothing to pop unless it reached that point. */
    if (top == &w->stack[w->depth - 1] && top->mask == mask && top->pc == next && next != top->rpc &&
        next < m->n_insts && cls != WOP_EXIT)
        return cls;
    /* reconverge: pop finished or reconverged entries, then finished call frames */
    while (w->depth > 0) {
        PtxSimtEntry *t = &w->stack[w->depth - 1];
        if (t->mask == 0 || (t->rpc != PTX_NO_PC && t->pc == t->rpc)) {
            w->depth--;
            continue;
        }
        if (t->pc == PTX_NO_PC || t->pc >= m->n_insts) {
            ptx_launch_fault(l, pc, PTX_FAULT_FAILURE,
                             "control reached the end of the code (internal reconvergence error)");
            w->depth = 0;
        }
        break;
    }
    while (w->n_calls > 0 && w->depth <= w->calls[w->n_calls - 1].base)
        if (w->calls[--w->n_calls].save != PTX_NO_SAVE)
            w->save_top = w->calls[w->n_calls].save; /* what it saved is no longer needed */
    if (w->depth == 0) {
        w->done = true;
    } else if (cls == WOP_EXIT) { /* only some lanes ended (the others trap, or diverged before an
                                     exit): to the timing model the warp goes on */
        cls = WOP_NOP;
        if (out)
            out->s.op = WOP_NOP;
    }
    return cls;
}
