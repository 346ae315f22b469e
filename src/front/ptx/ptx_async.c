/* ptx_async.c: cp.async.{ca,cg}.shared{::cta}.global (PTX ISA 9.7.9.25.3): each active thread
 * copies cp-size bytes (4, 8 or 16; .cg: 16) from global to shared memory, the first src-size
 * of them read from the source (all, without src-size) and the rest zero; and the groups a
 * thread commits its copies in (cp.async.commit_group) and waits for (cp.async.wait_group N: all
 * but the N most recent committed groups complete; cp.async.wait_all: every copy).
 *
 * The interpreter runs an instruction when it issues, so the copy happens then, whole: a wait
 * has nothing left to do functionally, and a program that reads the destination before its
 * wait (a race on hardware) sees the copied data. On the timing model a copy is a global load
 * of cp-size bytes a lane that writes no register (WINST_F_ASYNC; .cg: served by the L2, like
 * ld.cg) and a wait an instruction that issues when the warp's groups allow (sm_scoreboard.c).
 *
 * Both addresses must be aligned to cp-size, the destination inside the block's shared memory
 * and the src-size bytes read inside one allocation or variable; else the launch faults like a
 * load, naming the thread, the address and the PTX line. The src-size may not exceed cp-size.
 * Not run: the ignore-src predicate form (PTX registers carry no type here, so it cannot be
 * told from src-size), cp.async.mbarrier.arrive and the bulk (sm_90) forms. */
#include "front/ptx/ptx_async.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_exec.h"

#include "base/base.h"

#include <stdio.h>
#include <string.h>

static bool word_is(const char *w, size_t wl, const char *s)
{
    return strlen(s) == wl && !memcmp(w, s, wl);
}

static bool fail(char *why, size_t why_len, const char *word, size_t len, const char *what)
{
    snprintf(why, why_len, "'%.*s': %s", (int)len, word, what);
    return false;
}

bool ptx_async_decode(const char *word, size_t len, PtxInst *in, char *why, size_t why_len)
{
    const char *end = word + len, *p = word + 2; /* past "cp" */
    unsigned n = 0, spaces = 0;
    bool ca = false, cg = false;
    in->op = OP_CPASYNC;
    in->mode = CPA_COPY;
    in->space = SP_GLOBAL; /* what the timing model sees: the source */
    while (p < end) {
        const char *w = p + 1;
        const char *q = memchr(w, '.', (size_t)(end - w));
        size_t wl = q ? (size_t)(q - w) : (size_t)(end - w);
        p = q ? q : end;
        if (n++ == 0) {
            if (!word_is(w, wl, "async"))
                return fail(why, why_len, word, len, "unsupported instruction (of the cp forms only cp.async runs)");
            continue;
        }
        if (n == 2 && (word_is(w, wl, "commit_group") || word_is(w, wl, "wait_group") || word_is(w, wl, "wait_all"))) {
            in->mode = wl == 12 ? CPA_COMMIT : wl == 10 ? CPA_WAIT : CPA_WAIT_ALL;
            if (p < end)
                return fail(why, why_len, word, len, "unexpected modifiers after the group operation");
            return true;
        }
        if (n == 2 && (word_is(w, wl, "mbarrier") || word_is(w, wl, "bulk")))
            return fail(why, why_len, word, len, "cp.async.mbarrier and cp.async.bulk are not supported (only "
                        "cp.async.ca / .cg with commit_group and wait_group)");
        if (word_is(w, wl, "ca") || word_is(w, wl, "cg")) {
            if (ca || cg)
                return fail(why, why_len, word, len, "more than one of .ca and .cg");
            ca = w[1] == 'a';
            cg = !ca;
        } else if (word_is(w, wl, "shared") || word_is(w, wl, "shared::cta")) {
            if (spaces++ != 0)
                return fail(why, why_len, word, len, "expected .shared then .global");
        } else if (word_is(w, wl, "global")) {
            if (spaces++ != 1)
                return fail(why, why_len, word, len, "expected .shared then .global");
        } else if (word_is(w, wl, "L2::cache_hint")) {
            in->boolop = CPA_HINT;
        } else if (word_is(w, wl, "L2::64B") || word_is(w, wl, "L2::128B") || word_is(w, wl, "L2::256B")) {
            continue; /* a prefetch size: a hint */
        } else {
            char msg[96];
            snprintf(msg, sizeof msg, "unsupported modifier '.%.*s'", (int)wl, w);
            return fail(why, why_len, word, len, msg);
        }
    }
    if (!ca && !cg)
        return fail(why, why_len, word, len, n < 2 ? "expected cp.async.ca, .cg, .commit_group, .wait_group or .wait_all"
                                                   : "expected .ca or .cg");
    if (spaces != 2)
        return fail(why, why_len, word, len, "expected the spaces .shared.global");
    if (cg)
        in->flags |= PF_L2_ONLY; /* cached at the L2 only, as ld.cg */
    return true;
}

void ptx_async_arity(const PtxInst *in, unsigned *lo, unsigned *hi)
{
    switch (in->mode) {
    case CPA_COPY: *lo = in->boolop == CPA_HINT ? 4 : 3; *hi = *lo + 1; break;
    case CPA_WAIT: *lo = *hi = 1; break;
    default: *lo = *hi = 0; break;
    }
}

const char *ptx_async_check(const PtxInst *in, char *buf, size_t len)
{
    const PtxOperand *o = in->o;
    if (in->mode == CPA_WAIT) {
        if (o[0].kind != OK_IMM || o[0].imm > 255) {
            snprintf(buf, len, "expected the number of groups as an integer from 0 to 255");
            return buf;
        }
        return NULL;
    }
    if (in->mode != CPA_COPY)
        return NULL;
    if (o[0].kind != OK_ADDR || o[1].kind != OK_ADDR) {
        snprintf(buf, len, "expected 'cp.async [dst], [src], cp-size'");
        return buf;
    }
    bool cg = in->flags & PF_L2_ONLY;
    if (o[2].kind != OK_IMM || (cg ? o[2].imm != 16 : o[2].imm != 4 && o[2].imm != 8 && o[2].imm != 16)) {
        snprintf(buf, len, cg ? "expected the cp-size 16 (.cg copies 16 bytes)" : "expected the cp-size 4, 8 or 16");
        return buf;
    }
    bool src_size = in->n_ops == (in->boolop == CPA_HINT ? 5 : 4);
    if (src_size && o[3].kind != OK_REG && o[3].kind != OK_IMM) {
        snprintf(buf, len, "expected the src-size as a register or an integer");
        return buf;
    }
    if (src_size && o[3].kind == OK_IMM && o[3].imm > o[2].imm) {
        snprintf(buf, len, "the src-size %llu exceeds the cp-size %llu", (unsigned long long)o[3].imm,
                 (unsigned long long)o[2].imm);
        return buf;
    }
    if (in->boolop == CPA_HINT && o[in->n_ops - 1].kind != OK_REG) {
        snprintf(buf, len, "expected the cache policy as a register");
        return buf;
    }
    return NULL;
}

void ptx_async_static(const PtxInst *in, WinstStatic *s)
{
    switch (in->mode) {
    case CPA_COPY:
        s->flags |= WINST_F_ASYNC;
        s->access_bytes = (uint8_t)in->o[2].imm;
        break;
    case CPA_COMMIT: s->flags |= WINST_F_ASYNC_COMMIT; break;
    case CPA_WAIT: s->flags |= WINST_F_ASYNC_WAIT; s->async_keep = (uint8_t)in->o[0].imm; break;
    default: s->flags |= WINST_F_ASYNC_COMMIT | WINST_F_ASYNC_WAIT; break; /* wait_all: commit, wait 0 */
    }
}

/* The copy of one lane, checked first: false once the launch has faulted. */
static bool lane_copy(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint32_t pc, uint64_t dst, uint64_t src,
                      unsigned size, uint64_t src_size)
{
    char why[320];
    if (src_size > size) {
        char who[96];
        ptx_thread_coords(l, w, lane, who, sizeof who);
        snprintf(why, sizeof why, "cp.async by %s: the src-size %llu exceeds the cp-size %u", who,
                 (unsigned long long)src_size, size);
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, why);
        return false;
    }
    if (src & (size - 1)) {
        snprintf(why, sizeof why, "not a multiple of %u", size);
        ptx_access_fault(l, w, lane, pc, PTX_FAULT_MISALIGNED, ACC_LOAD, size, SP_GLOBAL, src, why);
        return false;
    }
    if (src_size && !ptx_mem_valid(l->mem, src, (unsigned)src_size, false)) {
        ptx_memory_describe(l->mem, src, src_size, why, sizeof why);
        ptx_access_fault(l, w, lane, pc, PTX_FAULT_ILLEGAL_ADDRESS, ACC_LOAD, size, SP_GLOBAL, src, why);
        return false;
    }
    if ((dst & (size - 1)) || dst + size > l->smem_bytes) {
        bool odd = dst & (size - 1);
        if (odd)
            snprintf(why, sizeof why, "not a multiple of %u", size);
        else
            snprintf(why, sizeof why, "outside the %llu bytes of the block's shared memory",
                     (unsigned long long)l->smem_bytes);
        ptx_access_fault(l, w, lane, pc, odd ? PTX_FAULT_MISALIGNED : PTX_FAULT_ILLEGAL_ADDRESS, ACC_STORE, size,
                         SP_SHARED, dst, why);
        return false;
    }
    uint8_t *p = w->cta->smem + dst;
    uint64_t off = src & (PTX_PAGE_SIZE - 1);
    const uint8_t *pg = src_size == size && off + size <= PTX_PAGE_SIZE ? ptx_mem_page(l->mem, src, false) : NULL;
    if (pg) { /* the whole copy from one present page: fixed-size moves, not the library's */
        switch (size) {
        case 4: memcpy(p, pg + off, 4); break;
        case 8: memcpy(p, pg + off, 8); break;
        default: memcpy(p, pg + off, 16); break;
        }
        return true;
    }
    if (src_size)
        ptx_memory_read(l->mem, src, p, (size_t)src_size);
    memset(p + src_size, 0, size - src_size);
    return true;
}

void ptx_async_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out)
{
    if (in->mode != CPA_COPY)
        return; /* the copies are done: commit and wait change nothing the interpreter holds */
    const PtxOperand *d = &in->o[0], *s = &in->o[1];
    const unsigned size = (unsigned)in->o[2].imm;
    const bool has_size = in->n_ops == (in->boolop == CPA_HINT ? 5 : 4);
    uint64_t tmp[WARP_SIZE], whole = size;
    unsigned sstride = 0;
    const uint64_t *ss = has_size ? ptx_operand_values(l, w, &in->o[3], tmp, &sstride) : &whole;
    uint64_t ddisp = d->imm + (d->sym != PTX_NO_SYM ? l->sym_addr[d->sym] : 0);
    uint64_t sdisp = s->imm + (s->sym != PTX_NO_SYM ? l->sym_addr[s->sym] : 0);
    const uint64_t *dr = d->reg != PTX_NO_REG ? w->regs + (size_t)d->reg * WARP_SIZE : NULL;
    const uint64_t *sr = s->reg != PTX_NO_REG ? w->regs + (size_t)s->reg * WARP_SIZE : NULL;
    FOR_LANES(active, i) {
        uint64_t dst = ((dr ? dr[i] : 0) + ddisp) & 0xffffffffull; /* a 32-bit shared offset */
        uint64_t src = (sr ? sr[i] : 0) + sdisp;
        uint64_t n = has_size ? (uint32_t)ss[i * sstride] : size;
        if (!lane_copy(l, w, i, pc, dst, src, size, n))
            return;
        if (out)
            out->addr[i] = src;
    }
}
