/* ptx_regalloc.c: storage slots for a module's virtual registers (what the interpreter runs).
 *
 * nvcc's PTX declares a fresh virtual register for almost every value (lbm's kernel: 1,110), and
 * a warp held all of them, 32 lanes x 8 bytes each. Registers whose live ranges never overlap
 * can share a slot, as ptxas shares a hardware register. Per function: live registers by
 * backward dataflow over the basic blocks, an interference graph (a definition interferes with
 * whatever is live after it, with the other registers it defines and with those its instruction
 * reads), and a greedy colouring in order of first appearance. The interpreter then runs
 * PtxModule.xinsts, a copy of insts with each register id replaced by its slot; everything else
 * (the timing model's WinstStatic, the address slices, messages) keeps the virtual ids.
 *
 * Liveness is a thread's, which is what the SIMT interpreter preserves: a lane's slot is written
 * only when that lane runs the instruction, on its own path. A guarded definition does not end
 * the old value (the lanes whose guard is false keep it). What a lane could observe beyond its
 * own path keeps a slot of its own, so every value read is bit for bit what it was with one
 * slot per register: registers live at the function's entry (read before any write on some
 * path: zero at a warp's start, or a callee's value from its previous call), and every operand
 * of shfl (which reads other, possibly inactive, lanes). wmma reads and writes other lanes'
 * fragments too, but runs only with all 32 lanes active (it faults otherwise), so each lane it
 * reads has reached it on its own path, as for any instruction: its operands share slots. A
 * tensor-core kernel that nvcc unrolled declares thousands of fragment registers (cuda-samples'
 * tf32TensorCoreGemm: 7,365), which as slots of their own made each warp's registers 3.8 MiB,
 * zeroed at its start and far past the host's caches.
 * Registers no instruction names get no slot. Special registers keep slots 0 .. SR_COUNT-1;
 * registers read by more than one function (the %envreg registers) get module-wide slots after
 * them; each function's slots are a range of their own, since a caller's values stay live
 * across its calls. The pinned slots of all functions come next, and only they (with the
 * special and module-wide ones) are zeroed when a warp starts: any other slot is written on
 * every path before it is read, so what it held before is never seen. A function too large to
 * analyse cheaply (over REGALLOC_MAX_REGS registers, or a liveness table over
 * REGALLOC_MAX_WORDS words) keeps one slot per register, all of them zeroed. */
#include "front/ptx/ptx_ir.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* At most this many distinct immediates get rows (256 bytes each); the others are copied to
 * the lanes where they are read, as before. */
#define IMM_POOL_MAX_ROWS 4096u

/* PtxModule.imm_lanes: each distinct immediate of xinsts once, found through a hash table of
 * the rows (open addressing, twice the rows' capacity). */
static void imm_pool(PtxModule *m)
{
    enum { SLOTS = 2 * IMM_POOL_MAX_ROWS };
    uint32_t *slot = xcalloc(SLOTS, sizeof *slot); /* 1 + row; 0: empty */
    uint64_t *vals = xmalloc(IMM_POOL_MAX_ROWS * sizeof *vals);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->xinsts[i];
        for (unsigned j = 0; j < in->n_ops; j++) {
            PtxOperand *o = &in->o[j];
            if (o->kind != OK_IMM)
                continue;
            uint32_t h = (uint32_t)((o->imm * 0x9E3779B97F4A7C15ull) >> 40) & (SLOTS - 1);
            while (slot[h] && vals[slot[h] - 1] != o->imm)
                h = (h + 1) & (SLOTS - 1);
            if (!slot[h]) {
                if (n == IMM_POOL_MAX_ROWS)
                    continue;
                vals[n++] = o->imm;
                slot[h] = n;
            }
            o->lanes = (uint16_t)slot[h];
        }
    }
    m->n_imm_lanes = n;
    m->imm_lanes = xmalloc((n ? n : 1) * sizeof *m->imm_lanes);
    for (uint32_t r = 0; r < n; r++)
        for (unsigned k = 0; k < WARP_SIZE; k++)
            m->imm_lanes[r][k] = vals[r];
    free(vals);
    free(slot);
}

#define REGALLOC_MAX_REGS 16384u
#define REGALLOC_MAX_WORDS (1u << 22) /* 32 MiB per liveness table */
#define REGALLOC_MAX_OPREGS PTX_MAX_INST_REGS

static inline void bit_set(uint64_t *b, uint32_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clr(uint64_t *b, uint32_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bit_get(const uint64_t *b, uint32_t i) { return b[i >> 6] >> (i & 63) & 1; }

/* One function's analysis. Local register ids are virtual id - reg_base; shared[] marks the
 * virtual ids with module-wide slots, which the analysis leaves alone. */
typedef struct Fn {
    const PtxModule *m;
    const PtxInst *insts; /* the function's first instruction */
    uint32_t n, base, nr, words;
    const uint8_t *shared;
} Fn;

/* Local id of a register the analysis tracks, or UINT32_MAX. */
static uint32_t local_of(const Fn *F, uint16_t r)
{
    if (r == PTX_NO_REG || F->shared[r] || r < F->base || r - F->base >= F->nr)
        return UINT32_MAX;
    return r - F->base;
}


/* Basic blocks of the function: bstart[0..nb] (bstart[nb] = n) and up to two successors each
 * (-1: none). A block ends before a branch target and after bra, ret and exit; a guarded one
 * also falls through. */
static uint32_t blocks(const Fn *F, uint32_t first, uint32_t **bstart_out, int32_t (**succ_out)[2])
{
    uint32_t n = F->n;
    uint8_t *leader = xcalloc(n + 1, 1);
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t op = F->insts[i].op;
        if (op == OP_BRA && F->insts[i].o[0].imm - first < n)
            leader[F->insts[i].o[0].imm - first] = 1;
        if (op == OP_BRA || op == OP_RET || op == OP_EXIT)
            leader[i + 1] = 1;
    }
    uint32_t *block_of = xmalloc(n * sizeof *block_of), *bstart = xmalloc((n + 1) * sizeof *bstart);
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            bstart[nb++] = i;
        block_of[i] = nb - 1;
    }
    bstart[nb] = n;
    int32_t (*succ)[2] = xmalloc(nb * sizeof *succ);
    for (uint32_t b = 0; b < nb; b++) {
        const PtxInst *last = &F->insts[bstart[b + 1] - 1];
        int32_t next = b + 1 < nb ? (int32_t)b + 1 : -1;
        bool ends = last->op == OP_BRA || last->op == OP_RET || last->op == OP_EXIT;
        succ[b][0] = !ends || last->guard != PTX_NO_REG ? next : -1;
        succ[b][1] = -1;
        if (last->op == OP_BRA && last->o[0].imm - first < n)
            succ[b][1] = (int32_t)block_of[last->o[0].imm - first];
    }
    free(leader);
    free(block_of);
    *bstart_out = bstart;
    *succ_out = succ;
    return nb;
}

/* The locals an instruction defines and uses (UINT32_MAX dropped). */
static void locals_of(const Fn *F, const PtxInst *in, uint32_t *dl, unsigned *nd, uint32_t *ul, unsigned *nu)
{
    uint16_t defs[REGALLOC_MAX_OPREGS], uses[REGALLOC_MAX_OPREGS];
    unsigned d, u;
    ptx_inst_regs(in, defs, &d, uses, &u);
    *nd = *nu = 0;
    for (unsigned j = 0; j < d; j++)
        if ((dl[*nd] = local_of(F, defs[j])) != UINT32_MAX)
            ++*nd;
    for (unsigned j = 0; j < u; j++)
        if ((ul[*nu] = local_of(F, uses[j])) != UINT32_MAX)
            ++*nu;
}

/* Live-out of every block (nb x words), iterated to the fixpoint; entry_in gets the live-in of
 * the function's entry. */
static uint64_t *liveness(const Fn *F, const uint32_t *bstart, uint32_t nb, const int32_t (*succ)[2],
                          uint64_t *entry_in)
{
    size_t W = F->words;
    uint64_t *gen = xcalloc((size_t)nb * W, 8), *kill = xcalloc((size_t)nb * W, 8);
    uint64_t *in = xcalloc((size_t)nb * W, 8), *out = xcalloc((size_t)nb * W, 8);
    uint32_t dl[REGALLOC_MAX_OPREGS], ul[REGALLOC_MAX_OPREGS];
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *g = gen + b * W, *k = kill + b * W;
        for (uint32_t i = bstart[b + 1]; i-- > bstart[b];) {
            unsigned nd, nu;
            locals_of(F, &F->insts[i], dl, &nd, ul, &nu);
            if (F->insts[i].guard == PTX_NO_REG)
                for (unsigned j = 0; j < nd; j++)
                    bit_set(k, dl[j]), bit_clr(g, dl[j]);
            for (unsigned j = 0; j < nu; j++)
                bit_set(g, ul[j]);
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            uint64_t *o = out + b * W, *ib = in + b * W;
            for (int s = 0; s < 2; s++)
                if (succ[b][s] >= 0)
                    for (size_t w = 0; w < W; w++)
                        o[w] |= in[(size_t)succ[b][s] * W + w];
            for (size_t w = 0; w < W; w++) {
                uint64_t v = gen[b * W + w] | (o[w] & ~kill[b * W + w]);
                if (v != ib[w])
                    ib[w] = v, changed = true;
            }
        }
    }
    memcpy(entry_in, in, W * 8);
    free(gen);
    free(kill);
    free(in);
    return out;
}

/* Interference rows (nr x words, symmetric): each definition against what is live after it,
 * the instruction's other definitions and its reads. */
static uint64_t *interference(const Fn *F, const uint32_t *bstart, uint32_t nb, const uint64_t *out)
{
    size_t W = F->words;
    uint64_t *adj = xcalloc((size_t)F->nr * W, 8), *live = xmalloc(W * 8);
    uint32_t dl[REGALLOC_MAX_OPREGS], ul[REGALLOC_MAX_OPREGS];
    for (uint32_t b = 0; b < nb; b++) {
        memcpy(live, out + b * W, W * 8);
        for (uint32_t i = bstart[b + 1]; i-- > bstart[b];) {
            unsigned nd, nu;
            locals_of(F, &F->insts[i], dl, &nd, ul, &nu);
            for (unsigned j = 0; j < nd; j++) {
                uint64_t *row = adj + (size_t)dl[j] * W;
                for (size_t w = 0; w < W; w++)
                    row[w] |= live[w];
                for (unsigned k = 0; k < nd; k++)
                    bit_set(row, dl[k]);
                for (unsigned k = 0; k < nu; k++)
                    bit_set(row, ul[k]);
            }
            if (F->insts[i].guard == PTX_NO_REG)
                for (unsigned j = 0; j < nd; j++)
                    bit_clr(live, dl[j]);
            for (unsigned j = 0; j < nu; j++)
                bit_set(live, ul[j]);
        }
    }
    for (uint32_t r = 0; r < F->nr; r++)
        for (size_t w = 0; w < W; w++)
            for (uint64_t bits = adj[r * W + w]; bits; bits &= bits - 1)
                bit_set(adj + (w * 64 + (uint32_t)__builtin_ctzll(bits)) * W, r);
    free(live);
    return adj;
}

/* Slots for the function's locals (slot[r], UINT32_MAX for a register no instruction names),
 * the pinned ones first (*n_pinned of them); returns how many in all. */
static uint32_t colour(const Fn *F, uint32_t *slot, uint32_t *n_pinned)
{
    uint32_t first = (uint32_t)(F->insts - F->m->insts);
    uint32_t *bstart;
    int32_t (*succ)[2];
    uint32_t nb = blocks(F, first, &bstart, &succ);
    size_t W = F->words;
    uint64_t *pinned = xcalloc(W, 8);
    uint64_t *out = liveness(F, bstart, nb, (const int32_t (*)[2])succ, pinned);
    uint64_t *adj = interference(F, bstart, nb, out);
    free(out);
    free(bstart);
    free(succ);
    /* order of first appearance; shfl operands pinned */
    uint32_t *order = xmalloc(F->nr * sizeof *order), n_order = 0;
    uint32_t dl[REGALLOC_MAX_OPREGS], ul[REGALLOC_MAX_OPREGS];
    for (uint32_t r = 0; r < F->nr; r++)
        slot[r] = UINT32_MAX;
    uint64_t *seen = xcalloc(W, 8);
    for (uint32_t i = 0; i < F->n; i++) {
        unsigned nd, nu;
        locals_of(F, &F->insts[i], dl, &nd, ul, &nu);
        bool pin = F->insts[i].op == OP_SHFL;
        for (unsigned j = 0; j < nu + nd; j++) {
            uint32_t r = j < nu ? ul[j] : dl[j - nu];
            if (pin)
                bit_set(pinned, r);
            if (!bit_get(seen, r))
                bit_set(seen, r), order[n_order++] = r;
        }
    }
    uint32_t n_slots = 0;
    for (uint32_t k = 0; k < n_order; k++)
        if (bit_get(pinned, order[k]))
            slot[order[k]] = n_slots++;
    uint32_t free_lo = n_slots;
    *n_pinned = n_slots;
    uint64_t *taken = xcalloc((F->nr + 63) / 64, 8);
    for (uint32_t k = 0; k < n_order; k++) {
        uint32_t r = order[k];
        if (bit_get(pinned, r))
            continue;
        const uint64_t *row = adj + (size_t)r * W;
        for (size_t w = 0; w < W; w++)
            for (uint64_t bits = row[w]; bits; bits &= bits - 1) {
                uint32_t x = (uint32_t)(w * 64) + (uint32_t)__builtin_ctzll(bits);
                if (slot[x] != UINT32_MAX && slot[x] >= free_lo)
                    bit_set(taken, slot[x] - free_lo);
            }
        uint32_t s = 0;
        while (bit_get(taken, s))
            s++;
        slot[r] = free_lo + s;
        n_slots = MAX(n_slots, slot[r] + 1);
        for (size_t w = 0; w < (F->nr + 63) / 64; w++)
            taken[w] = 0;
    }
    free(taken);
    free(seen);
    free(order);
    free(pinned);
    free(adj);
    return n_slots;
}

void ptx_regalloc(PtxModule *m)
{
    /* module-wide slots: %envreg registers and any register more than one function names */
    uint8_t *shared = xcalloc(m->n_regs + 1, 1);
    m->sr_used = 0;
    uint32_t *owner = xmalloc((m->n_regs + 1) * sizeof *owner);
    for (uint32_t r = 0; r < m->n_regs; r++)
        owner[r] = UINT32_MAX;
    for (unsigned k = 0; k < PTX_N_ENVREGS; k++)
        if (m->envreg[k] != PTX_NO_REG)
            shared[m->envreg[k]] = 1;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const PtxFunc *fn = &m->funcs[f];
        for (uint32_t i = fn->first_inst; i < fn->first_inst + fn->n_insts; i++) {
            uint16_t defs[REGALLOC_MAX_OPREGS], uses[REGALLOC_MAX_OPREGS];
            unsigned nd, nu;
            ptx_inst_regs(&m->insts[i], defs, &nd, uses, &nu);
            for (unsigned j = 0; j < nd + nu; j++) {
                uint16_t r = j < nd ? defs[j] : uses[j - nd];
                if (r < m->special_base + SR_COUNT && r >= m->special_base) {
                    m->sr_used |= 1u << (r - m->special_base);
                    continue;
                }
                if (owner[r] != UINT32_MAX && owner[r] != f)
                    shared[r] = 1;
                owner[r] = f;
                if (r < fn->reg_base || r - fn->reg_base >= fn->n_regs)
                    shared[r] = 1;
            }
        }
    }
    uint32_t *map = xmalloc((m->n_regs + 1) * sizeof *map);
    for (uint32_t r = 0; r < m->n_regs; r++)
        map[r] = UINT32_MAX;
    for (uint32_t k = 0; k < SR_COUNT; k++)
        map[m->special_base + k] = k;
    uint32_t next = SR_COUNT;
    for (uint32_t r = 0; r < m->n_regs; r++)
        if (shared[r] && map[r] == UINT32_MAX)
            map[r] = next++;
    /* Each function's slots, its pinned ones first; then all pinned slots go together after
     * the module-wide ones, so that what a warp's start zeroes is one range. */
    uint32_t *nf = xcalloc(m->n_funcs + 1, sizeof *nf), *np = xcalloc(m->n_funcs + 1, sizeof *np);
    uint32_t **slots = xcalloc(m->n_funcs + 1, sizeof *slots);
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const PtxFunc *fn = &m->funcs[f];
        if (!fn->defined || !fn->n_regs || !fn->n_insts)
            continue; /* no instruction names a register */
        Fn F = {m, m->insts + fn->first_inst, fn->n_insts, fn->reg_base, fn->n_regs, (fn->n_regs + 63) / 64, shared};
        slots[f] = xmalloc(fn->n_regs * sizeof **slots);
        size_t blocks_max = fn->n_insts + 1;
        if (fn->n_regs > REGALLOC_MAX_REGS || blocks_max * F.words > REGALLOC_MAX_WORDS ||
            (size_t)fn->n_regs * F.words > REGALLOC_MAX_WORDS) {
            for (uint32_t r = 0; r < fn->n_regs; r++)
                slots[f][r] = r;
            nf[f] = np[f] = fn->n_regs; /* unanalysed: every slot zeroed, as if pinned */
        } else {
            nf[f] = colour(&F, slots[f], &np[f]);
        }
    }
    uint32_t pinned_end = next;
    for (uint32_t f = 0; f < m->n_funcs; f++)
        pinned_end += np[f];
    uint32_t pin_next = next, free_next = pinned_end;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        PtxFunc *fn = &m->funcs[f];
        fn->pin_slot = pin_next;
        fn->n_pin_slots = np[f];
        fn->free_slot = free_next;
        fn->n_free_slots = nf[f] - np[f];
        for (uint32_t r = 0; slots[f] && r < fn->n_regs; r++) {
            uint32_t k = slots[f][r];
            if (k != UINT32_MAX && !shared[fn->reg_base + r])
                map[fn->reg_base + r] = k < np[f] ? pin_next + k : free_next + (k - np[f]);
        }
        pin_next += np[f];
        free_next += nf[f] - np[f];
        free(slots[f]);
    }
    m->init_slots = pinned_end;
    m->n_slots = free_next;
    free(slots);
    free(nf);
    free(np);
    m->xinsts = xmalloc((m->n_insts ? m->n_insts : 1) * sizeof *m->xinsts);
    if (m->n_insts)
        memcpy(m->xinsts, m->insts, m->n_insts * sizeof *m->xinsts);
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->xinsts[i];
        if (in->guard != PTX_NO_REG)
            in->guard = (uint16_t)map[in->guard];
        for (unsigned j = 0; j < in->n_ops; j++) {
            PtxOperand *o = &in->o[j];
            if ((o->kind == OK_REG || o->kind == OK_ADDR) && o->reg != PTX_NO_REG)
                o->reg = (uint16_t)map[o->reg];
            else if (o->kind == OK_VEC)
                for (unsigned k = 0; k < o->n; k++)
                    if (o->vreg[k] != PTX_NO_REG)
                        o->vreg[k] = (uint16_t)map[o->vreg[k]];
        }
    }
    for (unsigned k = 0; k < PTX_N_ENVREGS; k++)
        m->xenvreg[k] = m->envreg[k] == PTX_NO_REG ? PTX_NO_REG : (uint16_t)map[m->envreg[k]];
    imm_pool(m);
    free(map);
    free(owner);
    free(shared);
}
