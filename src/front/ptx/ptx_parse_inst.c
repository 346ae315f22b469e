/* ptx_parse_inst.c: PTX instructions as the parser reads them: [@guard] mnemonic, operands and
 * the checks that make a decoded PtxInst safe to execute (PTX ISA manual, chapter 9).
 *
 * The mnemonic is decoded by ptx_decode.c; here each operand becomes a PtxOperand: registers
 * and variables are resolved at once (they must be declared before use), while branch targets
 * are recorded as fixups and resolved when the function body ends, since labels may come later.
 * Immediates are read as the type the operand position has, so a literal's bits are final. After
 * check_operands an instruction has the operand count and kinds its opcode needs, which the
 * interpreter relies on. Two forms are normalised: the optional second predicate of setp/shfl
 * (d|p) always takes a slot, and mov from %clock becomes OP_CLOCK. */
#include "front/ptx/ptx_parse_internal.h"
#include "front/ptx/ptx_async.h"
#include "front/ptx/ptx_wmma.h"

#include <stdio.h>

PtxInst *ptx_new_inst(Parser *P)
{
    PtxModule *m = P->m;
    GROW(m->insts, m->n_insts, P->cap_insts);
    return &m->insts[m->n_insts++];
}

static uint16_t reg_operand(Parser *P, const Tok *t)
{
    uint16_t r = ptx_find_reg(P, t);
    if (r == PTX_NO_REG)
        ptx_parse_fail(P, t, "unknown register '%.*s'", (int)t->len, t->s);
    return r;
}

static void parse_address(Parser *P, PtxOperand *o)
{
    o->kind = OK_ADDR;
    o->reg = PTX_NO_REG;
    o->sym = PTX_NO_SYM;
    o->imm = 0;
    bool first = true;
    for (;;) {
        bool neg = false;
        if (!first) {
            if (ptx_accept(P, ']'))
                return;
            if (ptx_accept(P, '-'))
                neg = true;
            else
                ptx_expect(P, '+');
            if (ptx_accept(P, '-'))
                neg = !neg;
        }
        const Tok *t = ptx_next(P);
        if (t->kind == TK_NUM) {
            uint64_t v = ptx_parse_value(P, t, false, PT_S64);
            o->imm += neg ? (uint64_t)0 - v : v;
        } else if (t->kind == TK_WORD && !neg) {
            uint16_t r = ptx_find_reg(P, t);
            if (r != PTX_NO_REG && o->reg == PTX_NO_REG) {
                o->reg = r;
            } else {
                uint16_t s = ptx_find_symbol(P, t);
                if (s == PTX_NO_SYM || o->sym != PTX_NO_SYM)
                    ptx_parse_fail(P, t, "unknown name '%.*s' in address", (int)t->len, t->s);
                o->sym = s;
            }
        } else {
            char b[64];
            ptx_parse_fail(P, t, "expected a register, variable or offset in [...], found %s",
                           ptx_tok_desc(t, b, sizeof b));
        }
        first = false;
    }
}

static void parse_operand(Parser *P, PtxInst *in, unsigned idx, PtxOperand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = PTX_NO_REG;
    o->sym = PTX_NO_SYM;
    const Tok *t = ptx_next(P);
    char b[64];
    if (ptx_is_punct(t, '{')) {
        o->kind = OK_VEC;
        do {
            const Tok *r = ptx_expect_word(P, "a register in {...}");
            if (o->n == PTX_MAX_VEC)
                ptx_parse_fail(P, r, "at most %d registers in a vector operand", PTX_MAX_VEC);
            o->vreg[o->n++] = ptx_is_word(r, "_") ? PTX_NO_REG : reg_operand(P, r);
        } while (ptx_accept(P, ','));
        ptx_expect(P, '}');
        return;
    }
    if (ptx_is_punct(t, '[')) {
        parse_address(P, o);
        return;
    }
    if (ptx_is_punct(t, '!')) {
        const Tok *r = ptx_expect_word(P, "a predicate after '!'");
        o->kind = OK_REG;
        o->reg = reg_operand(P, r);
        o->n = 1; /* negated */
        return;
    }
    if (ptx_is_punct(t, '-') || t->kind == TK_NUM) {
        bool neg = ptx_is_punct(t, '-');
        if (neg)
            t = ptx_next(P);
        if (t->kind != TK_NUM)
            ptx_parse_fail(P, t, "expected a number after '-', found %s", ptx_tok_desc(t, b, sizeof b));
        o->kind = OK_IMM;
        o->imm = ptx_parse_value(P, t, neg, ptx_decode_operand_type(in, idx));
        return;
    }
    if (t->kind != TK_WORD)
        ptx_parse_fail(P, t, "expected an operand, found %s", ptx_tok_desc(t, b, sizeof b));
    if (in->op == OP_BRA) {
        o->kind = OK_LABEL;
        GROW(P->fixups, P->n_fixups, P->cap_fixups);
        P->fixups[P->n_fixups].inst = P->m->n_insts - 1;
        P->fixups[P->n_fixups++].tok = t;
        return;
    }
    if (ptx_is_word(t, "_")) {
        o->kind = OK_REG; /* sink */
        return;
    }
    uint16_t r = ptx_find_reg(P, t);
    if (r != PTX_NO_REG) {
        o->kind = OK_REG;
        o->reg = r;
        return;
    }
    if (ptx_is_word(t, "%clock") || ptx_is_word(t, "%clock64") || ptx_is_word(t, "%globaltimer")) {
        if (in->op != OP_MOV || idx != 1)
            ptx_parse_fail(P, t, "%.*s may only be read by mov", (int)t->len, t->s);
        in->op = OP_CLOCK;
        o->kind = OK_NONE;
        return;
    }
    uint16_t s = ptx_find_symbol(P, t);
    if (s != PTX_NO_SYM) {
        o->kind = OK_SYM;
        o->sym = s;
        return;
    }
    int fn = ptx_find_func(P->m, t->s, t->len);
    if (fn >= 0) { /* a function's address, for a device-side launch */
        if (in->op != OP_MOV || idx != 1 || ptx_type_bytes(in->type) != 8)
            ptx_parse_fail(P, t, "function '%.*s': its address may only be read by a 64-bit mov", (int)t->len, t->s);
        o->kind = OK_IMM;
        o->imm = PTX_WIN_CODE + (uint64_t)fn;
        P->m->funcs[fn].address_taken = true;
        return;
    }
    if (ptx_is_word(t, "WARP_SZ")) { /* PTX's predefined warp size, what nvcc makes of warpSize */
        o->kind = OK_IMM;
        o->imm = ptx_lit_bits((Lit){LIT_INT, WARP_SIZE, 0}, ptx_decode_operand_type(in, idx));
        return;
    }
    if (t->s[0] == '%')
        ptx_parse_fail(P, t, "unknown register '%.*s'", (int)t->len, t->s);
    ptx_parse_fail(P, t, "unknown identifier '%.*s'", (int)t->len, t->s);
}

/* The [handle, {x, ...}] operand of tex, suld and sust: o[n] the texture or surface object's
 * register, o[n + 1] the coordinates. */
static void parse_tex_operand(Parser *P, PtxInst *in, unsigned n)
{
    ptx_expect(P, '[');
    const Tok *t = ptx_expect_word(P, "a texture or surface object register");
    if (ptx_find_reg(P, t) == PTX_NO_REG)
        ptx_parse_fail(P, t, "'%.*s': texture references are not supported (nor surface references), only "
                       "texture and surface objects (a .u64 register)", (int)t->len, t->s);
    memset(&in->o[n], 0, sizeof in->o[n]);
    in->o[n].kind = OK_REG;
    in->o[n].reg = reg_operand(P, t);
    in->o[n].sym = PTX_NO_SYM;
    ptx_expect(P, ',');
    parse_operand(P, in, n + 1, &in->o[n + 1]);
    ptx_expect(P, ']');
}

/* The coordinates each geometry takes, as nvcc writes them: 3D and layered 2D padded to 4. */
static unsigned tex_coords(uint8_t geom)
{
    static const uint8_t n[] = {[TEXG_1D] = 1, [TEXG_2D] = 2, [TEXG_3D] = 4, [TEXG_A1D] = 2, [TEXG_A2D] = 4,
                                [TEXG_CUBE] = 4, [TEXG_ACUBE] = 4};
    return geom < sizeof n ? n[geom] : 0;
}

/* The entries of a prototype's parameter list, ( [.param ... name {, .param ... name}] ). */
static uint32_t proto_list(Parser *P)
{
    ptx_expect(P, '(');
    uint32_t n = 0;
    if (ptx_accept(P, ')'))
        return 0;
    for (;;) {
        const Tok *t = ptx_next(P);
        if (t->kind == TK_EOF)
            ptx_parse_fail(P, t, "unterminated .callprototype parameter list");
        if (ptx_is_punct(t, ',') || ptx_is_punct(t, ')')) {
            n++;
            if (ptx_is_punct(t, ')'))
                return n;
        }
    }
}

void ptx_parse_callprototype(Parser *P)
{
    const Tok *name = ptx_next(P);
    ptx_next(P); /* ':' */
    ptx_next(P); /* .callprototype */
    uint32_t n_ret = ptx_is_punct(ptx_peek(P), '(') ? proto_list(P) : 0;
    const Tok *u = ptx_expect_word(P, "'_' (the prototype's name placeholder)");
    if (u->len != 1 || u->s[0] != '_')
        ptx_parse_fail(P, u, "expected '_' in .callprototype, found '%.*s'", (int)u->len, u->s);
    uint32_t n_arg = proto_list(P);
    if (ptx_is_word(ptx_peek(P), ".noreturn"))
        ptx_next(P);
    ptx_expect(P, ';');
    GROW(P->protos, P->n_protos, P->cap_protos);
    P->protos[P->n_protos++] = (Proto){name->s, name->len, n_ret, n_arg};
}

/* call[.uni] [(ret, ...),] func [, (arg, ...)] ; or, through a register holding a function's
 * address, call [(ret, ...),] %r, (arg, ...), prototype ; */
static void parse_call(Parser *P, PtxInst *in)
{
    PtxModule *m = P->m;
    uint32_t ret_first = m->n_call_syms, n_ret = 0, n_arg = 0;
    if (ptx_accept(P, '(')) {
        do {
            const Tok *t = ptx_expect_word(P, "a return parameter");
            uint16_t s = ptx_find_symbol(P, t);
            if (s == PTX_NO_SYM || m->syms[s].space != SP_PARAM_F)
                ptx_parse_fail(P, t, "expected a .param variable, found '%.*s'", (int)t->len, t->s);
            GROW(m->call_syms, m->n_call_syms, P->cap_call_syms);
            m->call_syms[m->n_call_syms++] = s;
            n_ret++;
        } while (ptx_accept(P, ','));
        ptx_expect(P, ')');
        ptx_expect(P, ',');
    }
    const Tok *ft = ptx_expect_word(P, "a function name");
    int f = ptx_find_func(m, ft->s, ft->len);
    uint16_t target = f < 0 ? ptx_find_reg(P, ft) : PTX_NO_REG;
    if (f < 0 && target == PTX_NO_REG)
        ptx_parse_fail(P, ft, "call to undeclared function '%.*s'", (int)ft->len, ft->s);
    uint32_t arg_first = m->n_call_syms;
    bool comma = ptx_accept(P, ',');
    if (comma && (target == PTX_NO_REG || ptx_is_punct(ptx_peek(P), '('))) {
        ptx_expect(P, '(');
        if (!ptx_is_punct(ptx_peek(P), ')')) {
            do {
                const Tok *t = ptx_expect_word(P, "an argument parameter");
                uint16_t s = ptx_find_symbol(P, t);
                if (s == PTX_NO_SYM || m->syms[s].space != SP_PARAM_F)
                    ptx_parse_fail(P, t, "expected a .param variable as argument, found '%.*s'",
                                   (int)t->len, t->s);
                GROW(m->call_syms, m->n_call_syms, P->cap_call_syms);
                m->call_syms[m->n_call_syms++] = s;
                n_arg++;
            } while (ptx_accept(P, ','));
        }
        ptx_expect(P, ')');
        comma = ptx_accept(P, ',');
    }
    if (target != PTX_NO_REG) { /* the prototype the callee must have */
        if (!comma)
            ptx_parse_fail(P, ptx_peek(P), "a call through a register: expected ', prototype' after its arguments");
        const Tok *pt = ptx_expect_word(P, "a call prototype");
        const Proto *proto = NULL;
        for (uint32_t k = 0; k < P->n_protos && !proto; k++)
            if (P->protos[k].len == pt->len && !memcmp(P->protos[k].name, pt->s, pt->len))
                proto = &P->protos[k];
        if (!proto)
            ptx_parse_fail(P, pt, "'%.*s' is not a .callprototype of this function (call target lists are not "
                           "supported)", (int)pt->len, pt->s);
        if (proto->n_ret != n_ret || proto->n_arg != n_arg)
            ptx_parse_fail(P, pt, "the call passes %u return and %u argument parameters; prototype '%.*s' has %u "
                           "and %u", n_ret, n_arg, (int)pt->len, pt->s, proto->n_ret, proto->n_arg);
    } else if (comma) {
        ptx_parse_fail(P, ptx_peek(P), "a prototype after a direct call: expected ';'");
    }
    ptx_expect(P, ';');
    if (n_ret > 4 || n_arg > 0xFFFF)
        ptx_parse_fail(P, ft, "too many call parameters");
    in->n_ops = 1;
    /* o[0]: the callee; o[1]/o[2]: return-value and argument .param lists as (first index in
     * call_syms, count in reg). Only o[0] counts as an operand. */
    in->o[0].kind = target != PTX_NO_REG ? OK_REG : OK_FUNC;
    in->o[0].imm = target != PTX_NO_REG ? 0 : (uint64_t)f;
    in->o[0].reg = target;
    in->o[0].sym = PTX_NO_SYM;
    in->o[1].kind = OK_NONE;
    in->o[1].imm = ret_first;
    in->o[1].reg = (uint16_t)n_ret;
    in->o[1].sym = PTX_NO_SYM;
    in->o[2].kind = OK_NONE;
    in->o[2].imm = arg_first;
    in->o[2].reg = (uint16_t)n_arg;
    in->o[2].sym = PTX_NO_SYM;
}

static void check_operands(Parser *P, const Tok *at, PtxInst *in)
{
    unsigned lo, hi;
    ptx_decode_arity(in, &lo, &hi);
    if (in->n_ops < lo || in->n_ops > hi)
        ptx_parse_fail(P, at, "'%.*s' expects %u%s operands, found %u", (int)at->len, at->s, lo,
                       hi > lo ? " or more" : "", in->n_ops);
    const PtxOperand *o = in->o;
    switch (in->op) {
    case OP_LD:
        if ((o[0].kind != OK_REG && o[0].kind != OK_VEC) || o[1].kind != OK_ADDR)
            ptx_parse_fail(P, at, "expected 'ld d, [address]'");
        break;
    case OP_ST:
        if (o[0].kind != OK_ADDR || o[1].kind == OK_ADDR)
            ptx_parse_fail(P, at, "expected 'st [address], value'");
        break;
    case OP_ATOM:
        if (o[0].kind != OK_REG || o[1].kind != OK_ADDR)
            ptx_parse_fail(P, at, "expected 'atom d, [address], b'");
        break;
    case OP_RED:
        if (o[0].kind != OK_ADDR)
            ptx_parse_fail(P, at, "expected 'red [address], b'");
        break;
    case OP_PREFETCH:
        if (o[0].kind != OK_ADDR)
            ptx_parse_fail(P, at, "expected 'prefetch [address]'");
        break;
    case OP_TEX:
        if (o[0].kind != OK_VEC || o[0].n != 4 || o[1].kind != OK_REG || o[2].kind != OK_VEC ||
            o[2].n != tex_coords(in->mode))
            ptx_parse_fail(P, at, "expected 'tex.GEOMETRY.v4 {d0, d1, d2, d3}, [handle, {coordinates}]' with %u "
                           "coordinate registers", tex_coords(in->mode));
        break;
    case OP_SULD:
        if (o[0].kind != OK_VEC || o[0].n != in->vec || o[1].kind != OK_REG || o[2].kind != OK_VEC ||
            o[2].n != tex_coords(in->mode))
            ptx_parse_fail(P, at, "expected 'suld.b.GEOMETRY {%u registers}, [handle, {%u coordinates}]'", in->vec,
                           tex_coords(in->mode));
        break;
    case OP_SUST:
        if (o[0].kind != OK_REG || o[1].kind != OK_VEC || o[1].n != tex_coords(in->mode) || o[2].kind != OK_VEC ||
            o[2].n != in->vec)
            ptx_parse_fail(P, at, "expected 'sust.b.GEOMETRY [handle, {%u coordinates}], {%u registers}'",
                           tex_coords(in->mode), in->vec);
        break;
    case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT: case OP_BAR: case OP_MEMBAR: case OP_NOP:
        break;
    case OP_WMMA: {
        char b[128];
        const char *why = ptx_wmma_check(in, b, sizeof b);
        if (why)
            ptx_parse_fail(P, at, "'%.*s': %s", (int)at->len, at->s, why);
        break;
    }
    case OP_CPASYNC: {
        char b[128];
        const char *why = ptx_async_check(in, b, sizeof b);
        if (why)
            ptx_parse_fail(P, at, "'%.*s': %s", (int)at->len, at->s, why);
        break;
    }
    case OP_MOV:
        if ((o[0].kind != OK_REG && o[0].kind != OK_VEC) || o[1].kind == OK_ADDR)
            ptx_parse_fail(P, at, "expected 'mov d, a'");
        if (o[0].kind == OK_VEC && o[1].kind != OK_REG)
            ptx_parse_fail(P, at, "expected a register to unpack into {...}");
        break;
    default:
        if (o[0].kind != OK_REG)
            ptx_parse_fail(P, at, "expected a destination register");
        for (unsigned i = 1; i < in->n_ops; i++)
            if (o[i].kind == OK_ADDR || o[i].kind == OK_VEC)
                ptx_parse_fail(P, at, "unexpected %s operand",
                               o[i].kind == OK_ADDR ? "address" : "vector");
        break;
    }
    if ((in->op == OP_LD || in->op == OP_ST) && in->vec > 1) {
        const PtxOperand *v = &o[in->op == OP_LD ? 0 : 1];
        if (v->kind != OK_VEC || v->n != in->vec)
            ptx_parse_fail(P, at, "expected a {...} operand of %u registers for .v%u", in->vec, in->vec);
    }
    /* The parameter space an access names decides kernel buffer versus per-thread frame. */
    if (in->space == SP_PARAM_K && (in->op == OP_LD || in->op == OP_ST)) {
        const PtxOperand *a = &o[in->op == OP_LD ? 1 : 0];
        if (a->sym != PTX_NO_SYM && P->m->syms[a->sym].space == SP_PARAM_F)
            in->space = SP_PARAM_F;
        else if (in->op == OP_ST)
            ptx_parse_fail(P, at, "st.param must name a call or function parameter");
    }
}

void ptx_parse_instruction(Parser *P)
{
    uint16_t guard = PTX_NO_REG;
    bool guard_neg = false;
    if (ptx_accept(P, '@')) {
        guard_neg = ptx_accept(P, '!');
        guard = reg_operand(P, ptx_expect_word(P, "a predicate register after '@'"));
    }
    const Tok *mn = ptx_expect_word(P, "an instruction");
    PtxInst *in = ptx_new_inst(P);
    char why[192];
    if (!ptx_decode_mnemonic(mn->s, mn->len, in, why, sizeof why))
        ptx_parse_fail(P, mn, "%s", why);
    in->guard = guard;
    if (guard_neg)
        in->flags |= PF_GUARD_NEG;
    in->line = mn->line;
    in->func = (uint8_t)P->cur_func;
    if (in->op == OP_CALL) {
        parse_call(P, in);
        return;
    }
    bool pipe_form = in->op == OP_SETP || in->op == OP_SHFL || in->op == OP_MATCH;
    unsigned n = 0;
    if (!ptx_is_punct(ptx_peek(P), ';')) {
        for (;;) {
            if (n >= PTX_MAX_OPS)
                ptx_parse_fail(P, ptx_peek(P), "too many operands");
            if ((((in->op == OP_TEX || in->op == OP_SULD) && n == 1) || (in->op == OP_SUST && n == 0)) &&
                ptx_is_punct(ptx_peek(P), '[')) {
                parse_tex_operand(P, in, n);
                n += 2;
            } else {
                parse_operand(P, in, n, &in->o[n]);
                n++;
            }
            if (pipe_form && n == 1) {
                if (ptx_accept(P, '|')) {
                    parse_operand(P, in, n, &in->o[n]);
                    if (in->o[n].kind != OK_REG)
                        ptx_parse_fail(P, mn, "expected a predicate after '|'");
                } else {
                    memset(&in->o[n], 0, sizeof in->o[n]);
                    in->o[n].reg = PTX_NO_REG;
                    in->o[n].sym = PTX_NO_SYM;
                }
                n++;
            }
            if (ptx_accept(P, ','))
                continue;
            break;
        }
    }
    if (in->op == OP_CLOCK) {
        n = 1;
    }
    in->n_ops = (uint8_t)n;
    {
        const Tok *t = ptx_peek(P);
        if (!ptx_is_punct(t, ';')) {
            char b[64];
            ptx_parse_fail(P, t, "expected ';' after the operands of '%.*s', found %s",
                           (int)mn->len, mn->s, ptx_tok_desc(t, b, sizeof b));
        }
        ptx_next(P);
    }
    if (in->op == OP_SHFL && n == 6)
        in->n_ops = 5; /* the member mask does not change what converged code computes */
    if (in->op == OP_MATCH && in->mode == MATCH_ANY && in->o[1].reg != PTX_NO_REG)
        ptx_parse_fail(P, mn, "match.any has no predicate destination (only match.all has)");
    check_operands(P, mn, in);
}
