/* ptx_slice.c: address pre-computation: the backward slices of a kernel's global-memory
 * addresses, and the evaluator that runs them for any (CTA, thread) without running the kernel.
 *
 * Follows the compiler side of locality-aware scheduling (the LAS thesis, sections 3.2-3.4: the
 * "address calculation code" is extracted from the kernel so that the CTA dispatcher can compute
 * the address any thread of any CTA uses on each data array). Here the compiler is replaced by
 * an analysis of the decoded PTX, done once per kernel:
 *   - every ld, st, atom and red in the global space, or in the generic space when its pointer
 *     comes from a kernel parameter or a .global variable (and never passes a cvta of shared,
 *     local or parameter memory), is an access;
 *   - its address register's definitions are followed back to kernel parameters (ld.param),
 *     %tid, %ntid, %ctaid, %nctaid, variable addresses and immediates. The rule that makes the
 *     result the value every execution computes: each register on the way has exactly one static
 *     definition in the kernel, that definition is unguarded, and it dominates the instruction
 *     that reads it (it comes first on every path from the entry). A loop-carried value (the
 *     phi of a loop header) and a value chosen by a branch both show as a second definition.
 *     Anything else on the way (a load, an atomic, shfl/vote, %laneid, %clock, floating point,
 *     an opcode not modelled below) makes the access not precomputable, with the reason;
 *   - the data array is the one kernel parameter (or variable) that the address's pointer chain
 *     (mov, cvta, add, the first operand of sub, the addend of mad, and, or, selp; every
 *     definition of a register, so loops too) reaches; none or several: unknown.
 * A slice becomes a straight-line program of steps in dependence order (leaves first, shared
 * subexpressions once), each step one PTX instruction or leaf; the evaluator runs the steps of
 * one access with their values on the stack. Operations compute exactly what ptx_alu.c computes
 * on the interpreter's 64-bit registers (same extension and truncation rules, the same shared
 * helpers of ptx_value.h), so an evaluated address equals the one the interpreter produces.
 * Supported: mov, add, sub, mul, mad (.lo/.hi/.wide), mul24, mad24, div, rem, neg, abs, min,
 * max, and, or, xor, not, cnot, shl, shr, cvt between integer types (with .sat), cvta, selp,
 * and setp on integers (so a selp whose predicate is itself precomputable is precomputable),
 * with integer or predicate types. Accesses in functions the kernel calls are not listed. */
#include "front/ptx/ptx_slice.h"

#include "front/ptx/ptx_ir.h"
#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps that are not a PTX instruction, numbered after the opcodes: the leaves (an immediate, a
 * kernel parameter, a special register, a variable's address) and a negated predicate operand. */
enum { STEP_CONST = OP_COUNT, STEP_PARAM, STEP_SREG, STEP_SYM, STEP_NOTPRED };

typedef struct SliceStep {
    uint8_t op;     /* PtxOpcode, or a STEP_* leaf */
    uint8_t type;   /* instruction type (cvt: destination); STEP_PARAM: the type loaded */
    uint8_t type2;  /* cvt: source type */
    uint8_t mode;   /* mul mode, comparison (setp) */
    uint8_t boolop; /* setp */
    uint8_t out;    /* setp: 0 for its first destination, 1 for the complement */
    uint8_t space;  /* cvta */
    uint8_t src[4]; /* operands: indices of earlier steps of the same access */
    uint16_t flags; /* PF_* */
    uint16_t sym;   /* STEP_SYM */
    uint64_t imm;   /* STEP_CONST: value; STEP_PARAM: byte offset; STEP_SREG: SR_*; STEP_SYM: offset */
} SliceStep;

typedef struct SliceProg {
    uint32_t first, n; /* steps[first, first + n); the last one is the base register's value */
    bool has_reg;
    uint16_t sym;      /* the address is [reg + sym + imm]; sym PTX_NO_SYM if none */
    uint64_t imm;
} SliceProg;

struct PtxSlices {
    const PtxModule *m;
    uint32_t n;
    PtxSliceInfo *info;
    SliceProg *prog;
    SliceStep *steps;
    uint32_t n_steps;
};

/* Analysis state of one kernel, and of the access being sliced. */
typedef struct Builder {
    const PtxModule *m;
    const PtxKernelInfo *ki;
    uint32_t first, end;   /* the kernel's instructions */
    uint32_t *def_start;   /* per register: its definitions are def_pc[def_start[r], def_start[r+1]) */
    uint32_t *def_pc;
    uint8_t **avoid;       /* per instruction d, once asked: bit set of the instructions reachable from
                              the entry without passing d (d dominates u iff u's bit is clear) */
    uint32_t *work;        /* search stack */
    uint32_t *stamp;       /* per register: the pointer walk that last visited it */
    uint32_t walk;
    /* the access being sliced */
    SliceStep steps[PTX_SLICE_MAX_STEPS];
    uint32_t n_steps;
    uint16_t memo_reg[PTX_SLICE_MAX_STEPS]; /* registers already in steps, and where */
    uint8_t memo_step[PTX_SLICE_MAX_STEPS];
    uint32_t n_memo;
    uint32_t n_insts;      /* PTX instructions in the slice */
    uint32_t depth;        /* registers being sliced (each will add a step) */
    PtxSliceReason reason;
    char why[sizeof ((PtxSliceInfo *)0)->why];
} Builder;

static const char *const reason_names[PTX_SLICE_REASON_COUNT] = {
    [PTX_SLICE_OK] = "precomputable",
    [PTX_SLICE_MULTI_DEF] = "loop-carried or path-dependent register",
    [PTX_SLICE_UNDEFINED] = "register never written",
    [PTX_SLICE_GUARDED] = "predicated definition",
    [PTX_SLICE_NOT_DOMINATING] = "definition not before every use",
    [PTX_SLICE_MEMORY] = "data-dependent (value loaded from memory)",
    [PTX_SLICE_ATOMIC_RESULT] = "atomic result",
    [PTX_SLICE_WARP] = "shfl/vote result",
    [PTX_SLICE_SPECIAL] = "hardware special register",
    [PTX_SLICE_UNSUPPORTED] = "unsupported operation",
    [PTX_SLICE_TOO_LONG] = "slice too long",
};

const char *ptx_slice_reason_name(PtxSliceReason r)
{
    return (unsigned)r < PTX_SLICE_REASON_COUNT ? reason_names[r] : "?";
}

static bool is_special(const PtxModule *m, uint16_t r) { return (uint32_t)(r - m->special_base) < SR_COUNT; }

/* ---- definitions and dominance ---- */

/* The registers instruction in writes (as ptx_decode_static lists destinations). */
static unsigned inst_defs(const PtxInst *in, uint16_t out[PTX_MAX_VEC])
{
    unsigned n = 0;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT:
    case OP_MEMBAR: case OP_NOP: case OP_PREFETCH: case OP_SUST:
        return 0;
    case OP_BAR: /* bar.red writes its first operand */
        if (in->mode != BAR_SYNC && in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG)
            out[n++] = in->o[0].reg;
        return n;
    case OP_SETP: case OP_SHFL: case OP_MATCH:
        if (in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG)
            out[n++] = in->o[0].reg;
        if (in->o[1].kind == OK_REG && in->o[1].reg != PTX_NO_REG)
            out[n++] = in->o[1].reg;
        return n;
    default:
        if (in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG)
            out[n++] = in->o[0].reg;
        else if (in->o[0].kind == OK_VEC)
            for (unsigned k = 0; k < in->o[0].n && k < PTX_MAX_VEC; k++)
                if (in->o[0].vreg[k] != PTX_NO_REG)
                    out[n++] = in->o[0].vreg[k];
        return n;
    }
}

/* Index every register's definitions in the kernel (a CSR table). */
static void index_defs(Builder *b)
{
    const PtxModule *m = b->m;
    b->def_start = xcalloc((size_t)m->n_regs + 2, sizeof *b->def_start);
    uint16_t d[PTX_MAX_VEC];
    for (uint32_t pc = b->first; pc < b->end; pc++)
        for (unsigned k = 0, n = inst_defs(&m->insts[pc], d); k < n; k++)
            if (d[k] < m->n_regs)
                b->def_start[d[k] + 2]++;
    for (uint32_t r = 0; r < m->n_regs; r++)
        b->def_start[r + 2] += b->def_start[r + 1];
    b->def_pc = xmalloc(((size_t)b->def_start[m->n_regs + 1] + 1) * sizeof *b->def_pc);
    for (uint32_t pc = b->first; pc < b->end; pc++)
        for (unsigned k = 0, n = inst_defs(&m->insts[pc], d); k < n; k++)
            if (d[k] < m->n_regs)
                b->def_pc[b->def_start[d[k] + 1]++] = pc;
}

/* Control-flow successors of instruction pc within [first, end). */
static unsigned successors(const Builder *b, uint32_t pc, uint32_t out[2])
{
    const PtxInst *in = &b->m->insts[pc];
    bool guarded = in->guard != PTX_NO_REG;
    unsigned n = 0;
    if (in->op == OP_BRA) {
        out[n++] = (uint32_t)in->o[0].imm;
        if (guarded)
            out[n++] = pc + 1;
    } else if (in->op == OP_RET || in->op == OP_EXIT) {
        if (guarded)
            out[n++] = pc + 1;
    } else {
        out[n++] = pc + 1;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (out[i] >= b->first && out[i] < b->end)
            out[k++] = out[i];
    return k;
}

/* Does instruction d come before instruction u on every path from the kernel's entry? */
static bool dominates(Builder *b, uint32_t d, uint32_t u)
{
    if (d == u)
        return false;
    uint32_t n = b->end - b->first, di = d - b->first;
    if (!b->avoid[di]) {
        uint8_t *seen = xcalloc((n + 7) / 8, 1);
        uint32_t sp = 0;
        if (d != b->first) {
            seen[0] = 1;
            b->work[sp++] = b->first;
        }
        while (sp) {
            uint32_t pc = b->work[--sp], next[2];
            for (unsigned k = 0, ns = successors(b, pc, next); k < ns; k++) {
                uint32_t i = next[k] - b->first;
                if (next[k] != d && !(seen[i / 8] & (1u << (i % 8)))) {
                    seen[i / 8] |= (uint8_t)(1u << (i % 8));
                    b->work[sp++] = next[k];
                }
            }
        }
        b->avoid[di] = seen;
    }
    uint32_t ui = u - b->first;
    return !(b->avoid[di][ui / 8] & (1u << (ui % 8)));
}

/* ---- slicing one access ---- */

static int fail(Builder *b, PtxSliceReason r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Builder *b, PtxSliceReason r, const char *fmt, ...)
{
    if (b->reason == PTX_SLICE_OK) {
        b->reason = r;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->why, sizeof b->why, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int add_step(Builder *b, const SliceStep *s)
{
    if (b->n_steps == PTX_SLICE_MAX_STEPS)
        return fail(b, PTX_SLICE_TOO_LONG, "more than %d steps", PTX_SLICE_MAX_STEPS);
    b->steps[b->n_steps] = *s;
    return (int)b->n_steps++;
}

static int slice_reg(Builder *b, uint16_t reg, uint32_t user);

static int slice_operand(Builder *b, const PtxOperand *o, uint32_t user)
{
    SliceStep s = {.op = STEP_CONST, .sym = PTX_NO_SYM};
    switch (o->kind) {
    case OK_REG:
        if (o->reg == PTX_NO_REG)
            return add_step(b, &s); /* the sink reads as 0 */
        int r = slice_reg(b, o->reg, user);
        if (r < 0 || !o->n)
            return r;
        s.op = STEP_NOTPRED; /* !%p */
        s.src[0] = (uint8_t)r;
        return add_step(b, &s);
    case OK_IMM:
        s.imm = o->imm;
        return add_step(b, &s);
    case OK_SYM:
        s.op = STEP_SYM;
        s.sym = o->sym;
        s.imm = o->imm;
        return add_step(b, &s);
    default:
        return fail(b, PTX_SLICE_UNSUPPORTED, "line %u: an operand that is not a register, immediate or "
                    "variable", b->m->insts[user].line);
    }
}

/* Can the evaluator compute what instruction in writes (given its operands)? */
static bool modelled(const PtxInst *in)
{
    switch (in->op) {
    case OP_MOV:
        return in->o[0].kind == OK_REG && in->o[1].kind != OK_VEC; /* not a pack or unpack */
    case OP_SELP:
        return true; /* copies bits, whatever the type */
    case OP_CVT:
        return !ptx_type_float(in->type) && !ptx_type_float(in->type2) && in->type != PT_PRED && in->type2 != PT_PRED;
    case OP_SETP:
        return !ptx_type_float(in->type) && in->type != PT_PRED;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: case OP_DIV:
    case OP_REM: case OP_NEG: case OP_ABS: case OP_MIN: case OP_MAX: case OP_AND: case OP_OR:
    case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR: case OP_CVTA:
        return !ptx_type_float(in->type);
    default:
        return false;
    }
}

/* The step computing register reg as instruction d defines it. */
static int slice_def(Builder *b, uint32_t d, uint16_t reg)
{
    const PtxModule *m = b->m;
    const PtxInst *in = &m->insts[d];
    uint32_t line = in->line;
    switch (in->op) {
    case OP_LD: {
        if (in->space == SP_PARAM_F)
            return fail(b, PTX_SLICE_MEMORY, "line %u: value returned by a call", line);
        if (in->space != SP_PARAM_K) {
            static const char *const spaces[] = {"generic", "global", "shared", "local", "const", "param", "param", "reg"};
            return fail(b, PTX_SLICE_MEMORY, "line %u: value loaded from %s memory", line,
                        spaces[in->space < ARRAY_LEN(spaces) ? in->space : 0]);
        }
        const PtxOperand *a = &in->o[1];
        uint64_t off = a->imm + (a->sym != PTX_NO_SYM ? m->syms[a->sym].offset : 0);
        if (a->reg != PTX_NO_REG || a->sym == PTX_NO_SYM || in->vec != 1 || in->o[0].kind != OK_REG ||
            off + ptx_type_bytes(in->type) > b->ki->param_bytes)
            return fail(b, PTX_SLICE_UNSUPPORTED, "line %u: a parameter load of a form not modelled", line);
        SliceStep s = {.op = STEP_PARAM, .type = in->type, .imm = off, .sym = PTX_NO_SYM};
        return add_step(b, &s);
    }
    case OP_ATOM:
        return fail(b, PTX_SLICE_ATOMIC_RESULT, "line %u: value returned by an atomic", line);
    case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_ACTIVEMASK:
        return fail(b, PTX_SLICE_WARP, "line %u: %s result (other lanes' values)", line, ptx_opcode_name(in->op));
    case OP_CLOCK:
        return fail(b, PTX_SLICE_SPECIAL, "line %u: reads %%clock", line);
    case OP_TEX: case OP_SULD:
        return fail(b, PTX_SLICE_MEMORY, "line %u: value fetched from a texture or surface", line);
    default:
        break;
    }
    if (!modelled(in))
        return fail(b, PTX_SLICE_UNSUPPORTED, "line %u: %s.%s is not modelled", line, ptx_opcode_name(in->op),
                    ptx_type_name(in->op == OP_CVT && ptx_type_float(in->type2) ? in->type2 : in->type));
    SliceStep s = {.op = in->op, .type = in->type, .type2 = in->type2, .mode = in->mode, .boolop = in->boolop,
                   .space = in->space, .flags = in->flags, .sym = PTX_NO_SYM};
    unsigned first = 1, n_src;
    switch (in->op) {
    case OP_MAD: case OP_MAD24: case OP_SELP: n_src = 3; break;
    case OP_NEG: case OP_ABS: case OP_NOT: case OP_CNOT: case OP_CVT: case OP_CVTA: case OP_MOV: n_src = 1; break;
    case OP_SETP:
        first = 2;
        n_src = in->boolop ? 3 : 2;
        s.out = in->o[1].kind == OK_REG && in->o[1].reg == reg && in->o[0].reg != reg;
        break;
    default: n_src = 2; break;
    }
    for (unsigned k = 0; k < n_src; k++) {
        int r = slice_operand(b, &in->o[first + k], d);
        if (r < 0)
            return -1;
        s.src[k] = (uint8_t)r;
    }
    return add_step(b, &s);
}

/* The step holding register reg's value where instruction user reads it. */
static int slice_reg(Builder *b, uint16_t reg, uint32_t user)
{
    const PtxModule *m = b->m;
    uint32_t uline = m->insts[user].line;
    for (uint32_t k = 0; k < b->n_memo; k++) {
        if (b->memo_reg[k] != reg)
            continue;
        /* computed already, for another reader: its definition must come before this one too */
        uint32_t d = is_special(m, reg) ? user : b->def_pc[b->def_start[reg]];
        if (d != user && !dominates(b, d, user))
            return fail(b, PTX_SLICE_NOT_DOMINATING, "line %u: definition does not precede line %u on every path",
                        m->insts[d].line, uline);
        return b->memo_step[k];
    }
    int r;
    if (is_special(m, reg)) {
        uint32_t sr = reg - m->special_base;
        if (sr > SR_NCTAID_Z)
            return fail(b, PTX_SLICE_SPECIAL, "line %u: reads %s", uline, ptx_special_reg_name(sr));
        SliceStep s = {.op = STEP_SREG, .imm = sr, .sym = PTX_NO_SYM};
        r = add_step(b, &s);
    } else {
        uint32_t nd = reg < m->n_regs ? b->def_start[reg + 1] - b->def_start[reg] : 0;
        if (nd == 0)
            return fail(b, PTX_SLICE_UNDEFINED, "line %u: reads a register that is never written", uline);
        const uint32_t *defs = b->def_pc + b->def_start[reg];
        if (nd > 1)
            return fail(b, PTX_SLICE_MULTI_DEF, "line %u: reads a register written at %u places (lines %u, %u%s)",
                        uline, nd, m->insts[defs[0]].line, m->insts[defs[1]].line, nd > 2 ? ", ..." : "");
        uint32_t d = defs[0];
        if (m->insts[d].guard != PTX_NO_REG)
            return fail(b, PTX_SLICE_GUARDED, "line %u: predicated definition", m->insts[d].line);
        if (!dominates(b, d, user))
            return fail(b, PTX_SLICE_NOT_DOMINATING, "line %u: definition does not precede line %u on every path",
                        m->insts[d].line, uline);
        if (b->depth + b->n_steps >= PTX_SLICE_MAX_STEPS)
            return fail(b, PTX_SLICE_TOO_LONG, "more than %d steps", PTX_SLICE_MAX_STEPS);
        b->depth++;
        r = slice_def(b, d, reg);
        b->depth--;
        if (r >= 0)
            b->n_insts++;
    }
    if (r >= 0 && b->n_memo < PTX_SLICE_MAX_STEPS) {
        b->memo_reg[b->n_memo] = reg;
        b->memo_step[b->n_memo++] = (uint8_t)r;
    }
    return r;
}

/* ---- the data array ---- */

typedef struct Roots {
    uint64_t params;  /* kernel parameters (bit per index) the pointer chain reaches */
    uint16_t sym;     /* a .global/.const variable it reaches */
    uint8_t n_syms;   /* how many different ones */
    bool not_global;  /* it passes a cvta of, or a variable in, shared, local or parameter memory */
} Roots;

static void roots_reg(Builder *b, uint16_t reg, Roots *r);

static void roots_sym(const Builder *b, uint16_t sym, Roots *r)
{
    uint8_t sp = b->m->syms[sym].space;
    if (sp == SP_GLOBAL || sp == SP_CONST) {
        if (r->n_syms == 0 || r->sym != sym)
            r->n_syms++;
        r->sym = sym;
    } else {
        r->not_global = true;
    }
}

static void roots_operand(Builder *b, const PtxOperand *o, Roots *r)
{
    if (o->kind == OK_REG && o->reg != PTX_NO_REG && !o->n)
        roots_reg(b, o->reg, r);
    else if (o->kind == OK_SYM)
        roots_sym(b, o->sym, r);
}

/* Follow the pointer chain of reg through every definition (loops included). */
static void roots_reg(Builder *b, uint16_t reg, Roots *r)
{
    const PtxModule *m = b->m;
    if (is_special(m, reg) || reg >= m->n_regs || b->stamp[reg] == b->walk)
        return;
    b->stamp[reg] = b->walk;
    for (uint32_t k = b->def_start[reg]; k < b->def_start[reg + 1]; k++) {
        const PtxInst *in = &m->insts[b->def_pc[k]];
        switch (in->op) {
        case OP_LD: {
            const PtxOperand *a = &in->o[1];
            if (in->space != SP_PARAM_K || a->reg != PTX_NO_REG || a->sym == PTX_NO_SYM ||
                ptx_type_bytes(in->type) * in->vec != 8)
                break;
            uint64_t off = m->syms[a->sym].offset + a->imm;
            for (uint32_t i = 0; i < b->ki->n_params; i++)
                if (off >= b->ki->param_offset[i] && off < (uint64_t)b->ki->param_offset[i] + b->ki->param_size[i])
                    r->params |= 1ull << i;
            break;
        }
        case OP_CVTA:
            if (in->space != SP_GLOBAL)
                r->not_global = true;
            roots_operand(b, &in->o[1], r);
            break;
        case OP_MOV:
            if (in->o[0].kind == OK_REG)
                roots_operand(b, &in->o[1], r);
            break;
        case OP_ADD: case OP_AND: case OP_OR: case OP_SELP:
            roots_operand(b, &in->o[1], r);
            roots_operand(b, &in->o[2], r);
            break;
        case OP_SUB:
            roots_operand(b, &in->o[1], r);
            break;
        case OP_MAD:
            roots_operand(b, &in->o[3], r);
            break;
        default:
            break;
        }
    }
}

/* ---- building ---- */

static void add_access(PtxSlices *s, Builder *b, uint32_t pc, uint32_t *cap, uint32_t *cap_steps)
{
    const PtxModule *m = b->m;
    const PtxInst *in = &m->insts[pc];
    const PtxOperand *a = &in->o[in->op == OP_LD || in->op == OP_ATOM ? 1 : 0];
    Roots roots = {0};
    b->walk++;
    if (a->reg != PTX_NO_REG)
        roots_reg(b, a->reg, &roots);
    if (a->sym != PTX_NO_SYM)
        roots_sym(b, a->sym, &roots);
    if (in->space == SP_GENERIC && (roots.not_global || (!roots.params && !roots.n_syms)))
        return; /* not known to be global memory */
    if (s->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        s->info = xrealloc(s->info, *cap * sizeof *s->info);
        s->prog = xrealloc(s->prog, *cap * sizeof *s->prog);
    }
    PtxSliceInfo *info = &s->info[s->n];
    SliceProg *p = &s->prog[s->n++];
    memset(info, 0, sizeof *info);
    memset(p, 0, sizeof *p);
    info->inst = pc;
    info->pc = pc * PTX_PC_BYTES;
    info->line = in->line;
    info->kind = in->op == OP_LD ? PTX_SLICE_LOAD : in->op == OP_ST ? PTX_SLICE_STORE : PTX_SLICE_ATOMIC;
    info->generic = in->space == SP_GENERIC;
    info->width_bytes = (uint8_t)(ptx_type_bytes(in->type) * in->vec);
    info->array_param = -1;
    int n_params = __builtin_popcountll(roots.params);
    const PtxFunc *fn = &m->funcs[m->kernel_func[b->ki - m->kernels]];
    if (n_params == 1 && roots.n_syms == 0) {
        info->array_param = __builtin_ctzll(roots.params);
        if ((uint32_t)info->array_param < fn->n_params)
            info->array_name = m->syms[fn->params[info->array_param]].name;
    } else if (n_params == 0 && roots.n_syms == 1) {
        info->array_name = m->syms[roots.sym].name;
    }
    /* the slice */
    b->n_steps = b->n_memo = b->n_insts = b->depth = 0;
    b->reason = PTX_SLICE_OK;
    b->why[0] = 0;
    if (a->reg != PTX_NO_REG)
        slice_reg(b, a->reg, pc);
    info->slice_insts = b->n_insts;
    info->reason = (uint8_t)b->reason;
    info->precomputable = b->reason == PTX_SLICE_OK;
    snprintf(info->why, sizeof info->why, "%s", b->why);
    if (!info->precomputable)
        return;
    p->has_reg = a->reg != PTX_NO_REG;
    p->sym = a->sym;
    p->imm = a->imm;
    p->first = s->n_steps;
    p->n = b->n_steps;
    if (s->n_steps + b->n_steps > *cap_steps) {
        *cap_steps = MAX(2 * *cap_steps, s->n_steps + b->n_steps);
        s->steps = xrealloc(s->steps, *cap_steps * sizeof *s->steps);
    }
    if (b->n_steps) /* a slice of no steps (a constant address) may leave s->steps NULL */
        memcpy(s->steps + s->n_steps, b->steps, b->n_steps * sizeof *b->steps);
    s->n_steps += b->n_steps;
}

PtxSlices *ptx_slices_build(const PtxModule *m, const PtxKernelInfo *ki, char *err, size_t err_len)
{
    if (!ki || ki < m->kernels || ki >= m->kernels + m->n_kernels) {
        if (err_len)
            snprintf(err, err_len, "%s: %s is not a kernel of this module", m->filename, ki ? ki->name : "(null)");
        return NULL;
    }
    const PtxFunc *fn = &m->funcs[m->kernel_func[ki - m->kernels]];
    Builder *b = xcalloc(1, sizeof *b);
    b->m = m;
    b->ki = ki;
    b->first = fn->first_inst;
    b->end = fn->first_inst + fn->n_insts;
    index_defs(b);
    b->avoid = xcalloc(fn->n_insts + 1, sizeof *b->avoid);
    b->work = xmalloc((fn->n_insts + 1) * sizeof *b->work);
    b->stamp = xcalloc((size_t)m->n_regs + 1, sizeof *b->stamp);
    PtxSlices *s = xcalloc(1, sizeof *s);
    s->m = m;
    uint32_t cap = 0, cap_steps = 0;
    for (uint32_t pc = b->first; pc < b->end; pc++) {
        const PtxInst *in = &m->insts[pc];
        bool access = in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED;
        if (access && (in->space == SP_GLOBAL || in->space == SP_GENERIC))
            add_access(s, b, pc, &cap, &cap_steps);
    }
    for (uint32_t i = 0; i < fn->n_insts; i++)
        free(b->avoid[i]);
    free(b->avoid);
    free(b->work);
    free(b->stamp);
    free(b->def_start);
    free(b->def_pc);
    free(b);
    return s;
}

void ptx_slices_free(PtxSlices *s)
{
    if (!s)
        return;
    free(s->info);
    free(s->prog);
    free(s->steps);
    free(s);
}

uint32_t ptx_slices_count(const PtxSlices *s) { return s->n; }

const PtxSliceInfo *ptx_slices_info(const PtxSlices *s, uint32_t i)
{
    CHECK(i < s->n);
    return &s->info[i];
}

int32_t ptx_slices_find_pc(const PtxSlices *s, uint32_t pc)
{
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->info[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->info[lo].pc == pc ? (int32_t)lo : -1;
}

/* ---- evaluation: each operation as ptx_alu.c computes it for one lane ---- */

/* mul, mad, mul24, mad24 (.lo, .hi, .wide), as exec_int computes them. */
static uint64_t eval_mul(const SliceStep *st, uint64_t a, uint64_t b, uint64_t c)
{
    unsigned nb = ptx_type_bytes(st->type), bits = 8 * nb;
    bool sg = ptx_type_signed(st->type);
    a = ptx_ext(a, nb, sg);
    b = ptx_ext(b, nb, sg);
    if (st->op == OP_MUL24 || st->op == OP_MAD24) {
        a = ptx_ext(a, 3, sg);
        b = ptx_ext(b, 3, sg);
    }
    unsigned rbits = bits;
    uint64_t r;
    if (st->mode == MUL_HI) {
        if (nb >= 8)
            r = sg ? (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64)
                   : (uint64_t)(((unsigned __int128)a * b) >> 64);
        else
            r = sg ? (uint64_t)(((int64_t)a * (int64_t)b) >> bits) : (a * b) >> bits;
    } else {
        r = a * b;
        if (st->mode == MUL_WIDE)
            rbits = 2 * bits;
    }
    uint64_t rmask = rbits >= 64 ? ~0ull : (1ull << rbits) - 1;
    if (st->op == OP_MUL || st->op == OP_MUL24)
        return r & rmask;
    return ((r & rmask) + (c & rmask)) & rmask;
}

static uint64_t eval_int(const SliceStep *st, uint64_t a, uint64_t b, uint64_t c)
{
    unsigned nb = ptx_type_bytes(st->type), bits = 8 * nb;
    bool sg = ptx_type_signed(st->type);
    uint64_t mask = st->type == PT_PRED ? 1 : ptx_zmask(nb);
    switch (st->op) {
    case OP_ADD: case OP_SUB: {
        a &= mask;
        b &= mask;
        uint64_t r = st->op == OP_ADD ? a + b : a - b;
        if ((st->flags & PF_SAT) && sg && nb == 4) {
            int64_t x = st->op == OP_ADD ? (int64_t)(int32_t)a + (int64_t)(int32_t)b
                                         : (int64_t)(int32_t)a - (int64_t)(int32_t)b;
            r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
        }
        return r & mask;
    }
    case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24:
        return eval_mul(st, a, b, c);
    case OP_DIV: case OP_REM: {
        a = ptx_ext(a, nb, sg);
        b = ptx_ext(b, nb, sg);
        uint64_t r;
        if (b == 0)
            r = st->op == OP_DIV ? ~0ull : a;
        else if (sg && (int64_t)a == INT64_MIN && (int64_t)b == -1)
            r = st->op == OP_DIV ? a : 0;
        else if (sg)
            r = st->op == OP_DIV ? (uint64_t)((int64_t)a / (int64_t)b) : (uint64_t)((int64_t)a % (int64_t)b);
        else
            r = st->op == OP_DIV ? a / b : a % b;
        return r & mask;
    }
    case OP_NEG: case OP_ABS: {
        int64_t x = (int64_t)ptx_ext(a, nb, true);
        return (st->op == OP_NEG ? -(uint64_t)x : (x < 0 ? -(uint64_t)x : (uint64_t)x)) & mask;
    }
    case OP_MIN: case OP_MAX: {
        a = ptx_ext(a, nb, sg);
        b = ptx_ext(b, nb, sg);
        bool lt = sg ? (int64_t)a < (int64_t)b : a < b;
        return ((st->op == OP_MIN) == lt ? a : b) & mask;
    }
    case OP_AND: return a & b & mask;
    case OP_OR: return (a | b) & mask;
    case OP_XOR: return (a ^ b) & mask;
    case OP_NOT: return ~a & mask;
    case OP_CNOT: return (a & mask) == 0;
    case OP_SHL: {
        uint64_t n = b & 0xFFFFFFFFu;
        return n >= bits ? 0 : (a << n) & mask;
    }
    case OP_SHR: {
        uint64_t n = b & 0xFFFFFFFFu;
        a = ptx_ext(a, nb, sg);
        if (n >= bits)
            a = sg ? (uint64_t)((int64_t)a >> (bits - 1)) : 0;
        else
            a = sg ? (uint64_t)((int64_t)a >> n) : a >> n;
        return a & mask;
    }
    case OP_SETP: {
        bool t = ptx_int_compare(st->mode, ptx_ext(a, nb, sg), ptx_ext(b, nb, sg), sg), u = !t;
        if (st->boolop) {
            bool p = c & 1;
            switch (st->boolop) {
            case BOOL_AND: t = t && p; u = u && p; break;
            case BOOL_OR: t = t || p; u = u || p; break;
            default: t = t != p; u = u != p; break;
            }
        }
        return st->out ? u : t;
    }
    case OP_CVT:
        return ptx_int_convert(a, st->type2, st->type, st->flags & PF_SAT);
    case OP_CVTA: {
        uint64_t win = st->space == SP_SHARED ? PTX_WIN_SHARED : st->space == SP_LOCAL ? PTX_WIN_LOCAL
                     : st->space == SP_PARAM_K ? PTX_WIN_PARAM : 0;
        return ((st->flags & PF_TO) ? a - win : a + win) & ptx_zmask(nb);
    }
    case OP_MOV: return st->type == PT_PRED ? a & 1 : a;
    case OP_SELP: return (c & 1) ? a : b;
    default: return 0; /* not built (modelled() guards) */
    }
}

bool ptx_slices_eval(const PtxSlices *s, uint32_t i, const PtxSliceEnv *env, const uint32_t ctaid[3],
                     const uint32_t tid[3], uint64_t *addr)
{
    if (i >= s->n || !s->info[i].precomputable)
        return false;
    const SliceProg *p = &s->prog[i];
    const SliceStep *st = p->n ? s->steps + p->first : NULL; /* no steps: no array either */
    uint64_t v[PTX_SLICE_MAX_STEPS];
    for (uint32_t k = 0; k < p->n; k++, st++) {
        switch (st->op) {
        case STEP_CONST:
            v[k] = st->imm;
            break;
        case STEP_PARAM: {
            unsigned nb = ptx_type_bytes(st->type);
            if (!env->params || st->imm + nb > env->param_bytes)
                return false;
            uint64_t raw = 0;
            memcpy(&raw, env->params + st->imm, nb);
            v[k] = ptx_ext(raw, nb, ptx_type_signed(st->type));
            break;
        }
        case STEP_SREG: {
            unsigned sr = (unsigned)st->imm;
            v[k] = sr <= SR_TID_Z ? tid[sr - SR_TID_X] : sr <= SR_NTID_Z ? env->block[sr - SR_NTID_X]
                 : sr <= SR_CTAID_Z ? ctaid[sr - SR_CTAID_X] : env->grid[sr - SR_NCTAID_X];
            break;
        }
        case STEP_SYM:
            if (!env->sym_addr)
                return false;
            v[k] = env->sym_addr[st->sym] + st->imm;
            break;
        case STEP_NOTPRED:
            v[k] = !(v[st->src[0]] & 1);
            break;
        default:
            v[k] = eval_int(st, v[st->src[0]], v[st->src[1]], v[st->src[2]]);
            break;
        }
    }
    uint64_t a = p->imm + (p->has_reg ? v[p->n - 1] : 0);
    if (p->sym != PTX_NO_SYM) {
        if (!env->sym_addr)
            return false;
        a += env->sym_addr[p->sym];
    }
    *addr = a;
    return true;
}

bool ptx_slices_eval_linear(const PtxSlices *s, uint32_t i, const PtxSliceEnv *env, uint64_t cta_id,
                            uint32_t thread, uint64_t *addr)
{
    const uint32_t *g = env->grid, *bl = env->block;
    if (!g[0] || !g[1] || !bl[0] || !bl[1])
        return false;
    uint32_t ctaid[3] = {(uint32_t)(cta_id % g[0]), (uint32_t)(cta_id / g[0] % g[1]), (uint32_t)(cta_id / g[0] / g[1])};
    uint32_t tid[3] = {thread % bl[0], thread / bl[0] % bl[1], thread / (bl[0] * bl[1])};
    return ptx_slices_eval(s, i, env, ctaid, tid, addr);
}
