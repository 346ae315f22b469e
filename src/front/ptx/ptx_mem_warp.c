/* ptx_mem_warp.c: ld and st of a whole warp at once (ptx_exec.c tries it before its lane-by-lane
 * path): the lanes' addresses in one loop, their checks as ORs over the lanes, and the values
 * moved in typed loops. It decides before it touches anything; whatever it does not take, or
 * would fault, goes through the lane-by-lane path, which does the same work and reports the
 * fault, so the two give the same registers, memory and addresses. */
#include "front/ptx/ptx_exec.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_value.h"

#include <string.h>

/* For each active lane, dst[i] = the eb-byte value at p + addr[i] - hb, sign-extended if sg. */
static inline void lanes_get(uint64_t *dst, const uint8_t *p, uint64_t hb, const uint64_t *addr, uint32_t active,
                             unsigned eb, bool sg)
{
#define GET(T) LANES(active, i, T x; memcpy(&x, p + (addr[i] - hb), sizeof x); dst[i] = (uint64_t)x)
    switch (eb * 2 + sg) {
    case 2: GET(uint8_t); break;
    case 3: GET(int8_t); break;
    case 4: GET(uint16_t); break;
    case 5: GET(int16_t); break;
    case 8: GET(uint32_t); break;
    case 9: GET(int32_t); break;
    default: GET(uint64_t); break;
    }
#undef GET
}

/* A vector load of 32-bit elements in one pass over the lanes, each lane's address read once:
 * for each active lane, element k of the vector at p + addr[i] - hb + 4k to the k-th register
 * of the destination (an absent one to a sink), sign-extended if sg. Each lane writes only its
 * own lanes of the registers, and its elements in the order of lanes_get's passes. */
static void lanes_get32_vec(PtxWarp *w, const PtxInst *in, const uint8_t *p, uint64_t hb,
                            const uint64_t *addr, uint32_t active, bool sg)
{
    uint64_t sink[WARP_SIZE], *dst[4];
    const unsigned n = in->vec;
    for (unsigned k = 0; k < n; k++)
        dst[k] = in->o[0].vreg[k] == PTX_NO_REG ? sink : w->regs + (size_t)in->o[0].vreg[k] * WARP_SIZE;
#define GET_VEC(T)                                                                   \
    LANES(active, i, const uint8_t *a = p + (addr[i] - hb); for (unsigned k = 0; k < n; k++) { \
        T x; memcpy(&x, a + 4 * k, sizeof x); dst[k][i] = (uint64_t)x; })
    if (sg)
        GET_VEC(int32_t);
    else
        GET_VEC(uint32_t);
#undef GET_VEC
}

/* For each active lane in ascending order, the eb bytes of v[i] to p + addr[i] - hb. */
static inline void lanes_put(uint8_t *p, uint64_t hb, const uint64_t *addr, const uint64_t *v, uint32_t active,
                             unsigned eb)
{
#define PUT(T) LANES_IN_ORDER(active, i, T x = (T)v[i]; memcpy(p + (addr[i] - hb), &x, sizeof x))
    switch (eb) {
    case 1: PUT(uint8_t); break;
    case 2: PUT(uint16_t); break;
    case 4: PUT(uint32_t); break;
    default: PUT(uint64_t); break;
    }
#undef PUT
}

/* ld and st of the global, const, shared or local space and ld of the kernel's parameters, whole
 * warp at once, when every active lane's access is aligned and lies inside the block's shared
 * memory, the thread's local memory or the parameters, or inside the allocation or variable of the first active lane's address
 * (all in one page: one lookup for the warp). It checks before it touches anything and returns false
 * when it does not apply; the lane-by-lane path then does the same work, and reports each
 * fault as it meets it. A vector's elements go element by element over the lanes: two lanes'
 * aligned vectors coincide or do not overlap, so the last lane still writes last. */
bool ptx_mem_warp(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active,
                  const uint64_t *base, uint64_t disp, uint64_t amask, Winst *out)
{
    const uint8_t space = in->space;
    const bool load = in->op == OP_LD;
    if (space != SP_SHARED && space != SP_GLOBAL && space != SP_LOCAL &&
        !(load && (space == SP_CONST || space == SP_PARAM_K)))
        return false;
    const unsigned eb = ptx_type_bytes(in->type), n = in->vec, bytes = eb * n;
    if (!eb || (bytes & (bytes - 1))) /* a power of two: an aligned access never crosses a page */
        return false;
    /* Plain loops over the lanes, with no dependence carried but an OR, which the compiler can
     * vectorise: the addresses, with their alignment and (shared memory and parameters) their
     * range in the same pass. */
    uint64_t addr[WARP_SIZE], odd = 0, outside = 0, pages = 0;
    const uint32_t first = (uint32_t)__builtin_ctz(active);
    const uint64_t a0 = ((base ? base[first] : 0) + disp) & amask;
    const uint64_t odd_mask = space == SP_PARAM_K ? 0 : bytes - 1; /* parameters need no alignment (resolve) */
    uint8_t *host = NULL; /* shared or local memory or the parameters, or the single page the warp reads */
    uint64_t hb = 0;
    if (space == SP_PARAM_K || space == SP_SHARED || space == SP_LOCAL) {
        const uint64_t size = space == SP_SHARED ? l->smem_bytes : space == SP_LOCAL ? l->m->local_bytes : l->param_bytes;
        if (size < bytes)
            return false;
        /* the last address an access may start at; a > last shows in bit 63 of a | (last - a)
         * (last is below 2^63, and so is a unless it is far outside): an OR the compiler can
         * vectorise, where it leaves a loop with a 64-bit unsigned comparison scalar */
        uint64_t last = size - bytes, beyond;
        if (base) {
            beyond = 0;
            LANES(active, i, uint64_t a = (base[i] + disp) & amask; addr[i] = a; odd |= a; beyond |= a | (last - a));
        } else {
            LANES(active, i, addr[i] = a0);
            odd = a0, beyond = a0 | (last - a0);
        }
        if ((odd & odd_mask) || beyond >> 63)
            return false;
        host = space == SP_SHARED ? w->cta->smem : space == SP_LOCAL ? w->cta->local : l->params;
        if (space == SP_LOCAL) {
            /* Lane i's bytes lie in its thread's frame; the timing model sees the threads' words
             * interleaved, as resolve reports them. */
            const uint64_t tid0 = w->first_tid, gtid0 = w->cta->cta_id * l->threads_per_cta + tid0;
            const uint64_t total = l->n_ctas * l->threads_per_cta;
            if (out)
                LANES(active, i, out->addr[i] = PTX_WIN_LOCAL + (((addr[i] >> 2) * total + gtid0 + i) << 2) + (addr[i] & 3));
            LANES(active, i, addr[i] += (tid0 + i) * size);
        }
    } else {
        if (base) {
            LANES(active, i, uint64_t a = (base[i] + disp) & amask; addr[i] = a; odd |= a);
        } else {
            LANES(active, i, addr[i] = a0);
            odd = a0;
        }
        if (odd & odd_mask)
            return false;
        bool c = space == SP_CONST;
        if (!ptx_mem_valid(l->mem, a0, bytes, c))
            return false;
        const PtxHit *h = &l->mem->hit[c][0]; /* the range holding a0, now the latest */
        uint64_t rlo = h->lo, last = h->size - bytes, page = a0 & ~(PTX_PAGE_SIZE - 1);
        LANES(active, i, pages |= (addr[i] ^ a0) >> PTX_PAGE_BITS);
        /* every lane in one page that lies wholly inside the range: no lane can be outside */
        if (pages || h->size < PTX_PAGE_SIZE || page - rlo > h->size - PTX_PAGE_SIZE)
            LANES(active, i, outside |= addr[i] - rlo > last);
        if (outside)
            return false;
        if (!pages) {
            host = ptx_mem_page(l->mem, a0, !load);
            if (!host && !load)
                return false; /* the lanes' path reports the refused page */
            hb = page;
        } else if (!load && n > 1) {
            return false; /* a refused page would stop it after other stores than lane by lane */
        }
    }
    if (out && space != SP_LOCAL) /* (local: above) */
        FOR_LANES(active, i) out->addr[i] = addr[i];
    const bool sg = ptx_type_signed(in->type);
    uint64_t tmp[WARP_SIZE];
    if (load && host && eb == 4 && n > 1 && in->o[0].kind == OK_VEC) { /* ld.v2, ld.v4 of 32 bits */
        lanes_get32_vec(w, in, host, hb, addr, active, sg);
        return true;
    }
    for (unsigned k = 0; k < n; k++, hb -= eb) { /* element k lies eb bytes further on */
        if (load) {
            uint16_t reg = in->o[0].kind == OK_VEC ? in->o[0].vreg[k] : in->o[0].reg;
            if (reg == PTX_NO_REG)
                continue;
            uint64_t *dst = w->regs + (size_t)reg * WARP_SIZE;
            if (host)
                lanes_get(dst, host, hb, addr, active, eb, sg);
            else /* several pages, or an absent one (zeros) */
                FOR_LANES(active, i) dst[i] = ptx_ext(ptx_mem_load(l->mem, addr[i] + k * eb, eb), eb, sg);
            continue;
        }
        const PtxOperand *s = &in->o[1];
        const uint64_t *v;
        if (s->kind != OK_VEC)
            v = ptx_lane_values(l, w, s, tmp);
        else if (s->vreg[k] != PTX_NO_REG)
            v = w->regs + (size_t)s->vreg[k] * WARP_SIZE;
        else
            v = memset(tmp, 0, sizeof tmp);
        if (host) {
            lanes_put(host, hb, addr, v, active, eb);
            continue;
        }
        FOR_LANES(active, i)
            if (!ptx_mem_store(l->mem, addr[i] + k * eb, v[i], eb))
                return ptx_store_refused(l, addr[i] + k * eb, pc), true;
    }
    return true;
}
