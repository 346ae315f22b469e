/* ptx_parse.c: parser for PTX modules as nvcc emits them (PTX ISA 9.0, sm_75+): the module's
 * directives, function headers and bodies, the per-kernel layouts, and the public module API.
 *
 * Follows the PTX ISA manual, chapters 4 (syntax), 5 (state spaces, types, variables), 7
 * (functions and the .param calling sequence) and 11 (directives). One pass over the token
 * array (ptx_lex.c) builds the decoded module: directives, variables with initialisers
 * (ptx_decl.c), .entry/.func with their parameter lists, labels and instructions
 * (ptx_parse_inst.c). Unknown directives (.pragma, .loc, .file, .section, performance hints)
 * are skipped; an unsupported instruction or malformed input stops the parse with
 * "file:line: what was expected". Errors unwind with longjmp to ptx_module_parse, which frees
 * the partial module: nothing here exits. Invariant after a successful parse: every operand is
 * resolved (registers to dense ids, labels to instruction indices, functions to indices), every
 * branch has its reconvergence pc, and every kernel has its parameter and shared layouts. */
#include "front/ptx/ptx_fast.h"
#include "front/ptx/ptx_parse_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- directives */

/* Skip a directive we do not model: to ';' or past a balanced {...}, or to the end of its line
 * for the line-oriented ones (.loc, .file). */
static void skip_directive(Parser *P)
{
    const Tok *d = ptx_next(P);
    uint32_t line = d->line;
    for (;;) {
        const Tok *t = ptx_peek(P);
        if (t->kind == TK_EOF)
            return;
        if (ptx_is_punct(t, ';')) {
            ptx_next(P);
            return;
        }
        if (ptx_is_punct(t, '{')) {
            int depth = 0;
            do {
                t = ptx_next(P);
                if (ptx_is_punct(t, '{'))
                    depth++;
                else if (ptx_is_punct(t, '}'))
                    depth--;
            } while (depth > 0 && t->kind != TK_EOF);
            return;
        }
        if (t->line != line)
            return;
        ptx_next(P);
    }
}

/* ---------------------------------------------------------------- functions */

static void resolve_labels(Parser *P)
{
    for (uint32_t i = 0; i < P->n_fixups; i++) {
        const Tok *t = P->fixups[i].tok;
        uint32_t target = PTX_NO_PC;
        for (uint32_t k = 0; k < P->n_labels; k++)
            if (P->labels[k].len == t->len && !memcmp(P->labels[k].name, t->s, t->len)) {
                target = P->labels[k].inst;
                break;
            }
        if (target == PTX_NO_PC)
            ptx_parse_fail(P, t, "unknown label '%.*s'", (int)t->len, t->s);
        P->m->insts[P->fixups[i].inst].o[0].imm = target;
    }
}

static void parse_body(Parser *P, PtxFunc *f)
{
    uint32_t fi = P->cur_func;
    int depth = 1;
    uint32_t scope_marks[64];
    scope_marks[0] = P->n_scope;
    while (depth > 0) {
        const Tok *t = ptx_peek(P);
        if (t->kind == TK_EOF)
            ptx_parse_fail(P, t, "expected '}' to close function '%s'", P->m->funcs[fi].name);
        if (ptx_is_punct(t, '{')) {
            ptx_next(P);
            if (depth >= 63)
                ptx_parse_fail(P, t, "blocks nested too deeply");
            scope_marks[depth++] = P->n_scope;
            continue;
        }
        if (ptx_is_punct(t, '}')) {
            ptx_next(P);
            P->n_scope = scope_marks[--depth];
            continue;
        }
        if (ptx_is_word(t, ".reg")) {
            ptx_parse_reg_decl(P);
            continue;
        }
        if (ptx_is_word(t, ".local") || ptx_is_word(t, ".shared") || ptx_is_word(t, ".param") ||
            ptx_is_word(t, ".global") || ptx_is_word(t, ".const")) {
            ptx_next(P);
            uint8_t sp = t->s[1] == 'l' ? SP_LOCAL : t->s[1] == 's' ? SP_SHARED :
                         t->s[1] == 'p' ? SP_PARAM_F : t->s[1] == 'g' ? SP_GLOBAL : SP_CONST;
            ptx_parse_var_decl(P, sp, false);
            continue;
        }
        if (t->kind == TK_WORD && t->s[0] == '.') {
            skip_directive(P);
            continue;
        }
        if (t->kind == TK_WORD && ptx_is_punct(&P->toks[P->pos + 1], ':') &&
            ptx_is_word(&P->toks[P->pos + 2], ".callprototype")) {
            ptx_parse_callprototype(P);
            continue;
        }
        if (t->kind == TK_WORD && ptx_is_punct(&P->toks[P->pos + 1], ':')) {
            GROW(P->labels, P->n_labels, P->cap_labels);
            P->labels[P->n_labels].name = t->s;
            P->labels[P->n_labels].len = t->len;
            P->labels[P->n_labels++].inst = P->m->n_insts;
            P->pos += 2;
            continue;
        }
        ptx_parse_instruction(P);
    }
    f = &P->m->funcs[fi];
    f->n_insts = P->m->n_insts - f->first_inst;
    if (f->n_insts == 0 || (P->m->insts[P->m->n_insts - 1].op != OP_RET &&
                            P->m->insts[P->m->n_insts - 1].op != OP_EXIT &&
                            P->m->insts[P->m->n_insts - 1].op != OP_BRA)) {
        /* Falling off the end returns (nvcc always ends with ret; be lenient). */
        PtxInst *in = ptx_new_inst(P);
        memset(in, 0, sizeof *in);
        in->op = OP_RET;
        in->guard = PTX_NO_REG;
        in->rpc = PTX_NO_PC;
        in->vec = 1;
        in->func = (uint8_t)fi;
        in->line = ptx_peek(P)->line;
        f = &P->m->funcs[fi];
        f->n_insts++;
    }
    resolve_labels(P);
}

static void parse_function(Parser *P, bool entry)
{
    const Tok *kw = ptx_next(P);
    PtxModule *m = P->m;
    if (m->n_funcs >= PTX_MAX_FUNCS)
        ptx_parse_fail(P, kw, "too many functions in one module");
    uint16_t *rets = NULL;
    uint32_t n_rets = 0;
    P->cur_func = m->n_funcs; /* provisional, for parameter symbols */
    P->n_scope = 0;
    if (!entry && ptx_is_punct(ptx_peek(P), '('))
        rets = ptx_parse_param_list(P, &n_rets, false, 0);
    const Tok *name = ptx_expect_word(P, "a function name");
    int existing = ptx_find_func(m, name->s, name->len);
    uint32_t fi;
    if (existing >= 0) {
        if (m->funcs[existing].defined)
            ptx_parse_fail(P, name, "function '%.*s' is defined twice", (int)name->len, name->s);
        fi = (uint32_t)existing;
        /* re-home the return symbols parsed under the provisional index */
        for (uint32_t i = 0; i < n_rets; i++)
            m->syms[rets[i]].func = (uint16_t)fi;
    } else {
        GROW(m->funcs, m->n_funcs, P->cap_funcs);
        fi = m->n_funcs++;
        memset(&m->funcs[fi], 0, sizeof m->funcs[fi]);
        m->funcs[fi].name = ptx_tok_strdup(name);
    }
    P->cur_func = fi;
    PtxFunc *f = &m->funcs[fi];
    f->is_entry = entry;
    f->decl_line = name->line;
    uint16_t *params = NULL;
    uint32_t n_params = 0;
    if (ptx_is_punct(ptx_peek(P), '('))
        params = ptx_parse_param_list(P, &n_params, entry, 1);
    /* Only once both lists are parsed do they replace a declaration's: until then an error
     * finds each list with one owner, the function (old) or P->pending (new). */
    f = &m->funcs[fi];
    free(f->rets);
    free(f->params);
    f->rets = rets;
    f->n_rets = n_rets;
    f->params = params;
    f->n_params = n_params;
    P->pending[0] = NULL;
    P->pending[1] = NULL;
    if (entry && n_params > PTX_MAX_PARAMS)
        ptx_parse_fail(P, name, "kernel has more than %d parameters", PTX_MAX_PARAMS);
    /* performance directives (.maxntid 256, 1, 1 ...) up to the body or ';' */
    while (!ptx_is_punct(ptx_peek(P), '{') && !ptx_is_punct(ptx_peek(P), ';')) {
        if (ptx_peek(P)->kind == TK_EOF)
            ptx_parse_fail(P, ptx_peek(P), "expected '{' or ';' after the function header");
        ptx_next(P);
    }
    if (ptx_accept(P, ';')) {
        P->cur_func = UINT32_MAX;
        P->n_scope = 0;
        return; /* a declaration */
    }
    ptx_expect(P, '{');
    f->defined = true;
    f->first_inst = m->n_insts;
    f->reg_base = P->next_reg;
    P->n_regdecl = 0;
    P->n_labels = 0;
    P->n_protos = 0;
    P->n_fixups = 0;
    parse_body(P, f);
    f = &m->funcs[fi];
    f->n_regs = P->next_reg - f->reg_base;
    P->cur_func = UINT32_MAX;
    P->n_scope = 0;
}

/* ---------------------------------------------------------------- module */

static void parse_module(Parser *P)
{
    bool is_extern = false;
    for (;;) {
        const Tok *t = ptx_peek(P);
        if (t->kind == TK_EOF)
            break;
        if (ptx_is_word(t, ".version")) {
            ptx_next(P);
            if (ptx_next(P)->kind != TK_NUM)
                ptx_parse_fail(P, t, "expected a version number after .version");
            continue;
        }
        if (ptx_is_word(t, ".target")) {
            ptx_next(P);
            do
                ptx_expect_word(P, "a target name");
            while (ptx_accept(P, ','));
            continue;
        }
        if (ptx_is_word(t, ".address_size")) {
            ptx_next(P);
            const Tok *n = ptx_next(P);
            if (n->kind != TK_NUM || ptx_parse_value(P, n, false, PT_U32) != 64)
                ptx_parse_fail(P, n, "expected .address_size 64");
            continue;
        }
        if (ptx_is_word(t, ".visible") || ptx_is_word(t, ".weak") || ptx_is_word(t, ".common")) {
            ptx_next(P);
            continue;
        }
        if (ptx_is_word(t, ".extern")) {
            ptx_next(P);
            is_extern = true;
            continue;
        }
        if (ptx_is_word(t, ".entry") || ptx_is_word(t, ".func")) {
            parse_function(P, t->s[1] == 'e');
            is_extern = false;
            continue;
        }
        if (ptx_is_word(t, ".global") || ptx_is_word(t, ".const") || ptx_is_word(t, ".shared")) {
            ptx_next(P);
            uint8_t sp = t->s[1] == 'g' ? SP_GLOBAL : t->s[1] == 'c' ? SP_CONST : SP_SHARED;
            ptx_parse_var_decl(P, sp, is_extern);
            is_extern = false;
            continue;
        }
        if (t->kind == TK_WORD && t->s[0] == '.') {
            skip_directive(P);
            is_extern = false;
            continue;
        }
        char b[64];
        ptx_parse_fail(P, t, "expected a directive (.entry, .func, .global, ...), found %s",
                       ptx_tok_desc(t, b, sizeof b));
    }
}

/* Functions reachable from f (bitmap over functions); recursion is allowed (ptx_frames.c). */
static void reach(Parser *P, uint32_t f, uint8_t *state, uint8_t *mark)
{
    PtxModule *m = P->m;
    state[f] = 1;
    mark[f] = 1;
    const PtxFunc *fn = &m->funcs[f];
    uint32_t *callees = xmalloc((m->n_funcs + 1) * sizeof *callees);
    for (uint32_t i = fn->first_inst; i < fn->first_inst + fn->n_insts; i++) {
        const PtxInst *in = &m->insts[i];
        if (in->op != OP_CALL)
            continue;
        uint32_t n = ptx_call_callees(m, in, callees);
        for (uint32_t k = 0; k < n; k++)
            if (state[callees[k]] == 0)
                reach(P, callees[k], state, mark);
    }
    free(callees);
    state[f] = 2;
}

static void finalize(Parser *P)
{
    PtxModule *m = P->m;
    m->special_base = 0;
    m->n_regs = P->next_reg;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->insts[i];
        if (in->op == OP_CALL && in->o[0].kind == OK_FUNC) {
            const PtxFunc *g = &m->funcs[in->o[0].imm];
            if (!g->defined) {
                if (!strcmp(g->name, "vprintf")) {
                    in->op = OP_NOP; /* device printf output is not modelled */
                    continue;
                }
                Tok at = {0, 0, 0, in->line, NULL};
                ptx_parse_fail(P, &at, "function '%s' is called but never defined", g->name);
            }
        }
    }
    for (uint32_t f = 0; f < m->n_funcs; f++)
        if (m->funcs[f].defined)
            ptx_cfg_compute_rpc(m, f);
    m->statics = xcalloc(m->n_insts ? m->n_insts : 1, sizeof *m->statics);
    for (uint32_t i = 0; i < m->n_insts; i++)
        ptx_decode_static(m, i, &m->statics[i]);
    ptx_regalloc(m);
    ptx_fast_decode(m);
    ptx_frames_layout(m);
    /* kernels */
    uint32_t nk = 0;
    for (uint32_t f = 0; f < m->n_funcs; f++)
        nk += m->funcs[f].is_entry && m->funcs[f].defined;
    m->n_kernels = nk;
    m->kernels = xcalloc(nk ? nk : 1, sizeof *m->kernels);
    m->kernel_func = xcalloc(nk ? nk : 1, sizeof *m->kernel_func);
    m->kernel_shared = xcalloc(nk ? nk : 1, sizeof *m->kernel_shared);
    m->kernel_shared_off = xcalloc(nk ? nk : 1, sizeof *m->kernel_shared_off);
    uint8_t *state = xcalloc(m->n_funcs + 1, 1), *mark = xcalloc(m->n_funcs + 1, 1);
    uint8_t *used = xcalloc(m->n_syms + 1, 1);
    uint32_t k = 0;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const PtxFunc *fn = &m->funcs[f];
        if (!fn->is_entry || !fn->defined)
            continue;
        memset(state, 0, m->n_funcs);
        memset(mark, 0, m->n_funcs);
        memset(used, 0, m->n_syms);
        reach(P, f, state, mark);
        PtxKernelInfo *ki = &m->kernels[k];
        m->kernel_func[k] = f;
        ki->name = fn->name;
        ki->n_params = fn->n_params;
        uint32_t off = 0;
        for (uint32_t i = 0; i < fn->n_params; i++) {
            PtxSymbol *s = &m->syms[fn->params[i]];
            off = (off + s->align - 1) / s->align * s->align;
            s->offset = off;
            ki->param_offset[i] = off;
            ki->param_size[i] = (uint32_t)s->size;
            off += (uint32_t)s->size;
        }
        ki->param_bytes = off;
        uint32_t regs = fn->regs32, callee_regs = 0;
        ki->reg_lo = SR_COUNT;
        ki->reg_hi = m->init_slots;
        for (uint32_t g = 0; g < m->n_funcs; g++) {
            if (!mark[g])
                continue;
            if (g != f)
                callee_regs = MAX(callee_regs, m->funcs[g].regs32);
            const PtxFunc *gn = &m->funcs[g];
            for (uint32_t i = gn->first_inst; i < gn->first_inst + gn->n_insts; i++)
                for (unsigned j = 0; j < m->insts[i].n_ops; j++) {
                    const PtxOperand *o = &m->insts[i].o[j];
                    uint16_t s = o->sym;
                    if ((o->kind == OK_ADDR || o->kind == OK_SYM) && s != PTX_NO_SYM &&
                        m->syms[s].space == SP_SHARED)
                        used[s] = 1;
                }
        }
        ki->regs_estimate = MIN(regs + callee_regs, 255u);
        ki->local_bytes = m->local_bytes;
        /* shared layout: static variables in declaration order, then the dynamic array */
        uint32_t n_used = 0, soff = 0, ext_align = 1;
        for (uint32_t s = 0; s < m->n_syms; s++)
            n_used += used[s];
        m->kernel_shared[k] = xmalloc((n_used + 1) * sizeof(uint16_t));
        m->kernel_shared_off[k] = xmalloc((n_used + 1) * sizeof(uint32_t));
        uint32_t j = 0;
        for (uint32_t s = 0; s < m->n_syms; s++) {
            const PtxSymbol *sy = &m->syms[s];
            if (!used[s] || sy->is_extern)
                continue;
            soff = (soff + sy->align - 1) / sy->align * sy->align;
            m->kernel_shared[k][j] = (uint16_t)s;
            m->kernel_shared_off[k][j++] = soff;
            soff += (uint32_t)sy->size;
        }
        for (uint32_t s = 0; s < m->n_syms; s++)
            if (used[s] && m->syms[s].is_extern)
                ext_align = MAX(ext_align, m->syms[s].align);
        uint32_t ext_off = (soff + ext_align - 1) / ext_align * ext_align;
        for (uint32_t s = 0; s < m->n_syms; s++) {
            if (!used[s] || !m->syms[s].is_extern)
                continue;
            ki->uses_dynamic_smem = true;
            m->kernel_shared[k][j] = (uint16_t)s;
            m->kernel_shared_off[k][j++] = ext_off;
        }
        m->kernel_shared[k][j] = PTX_NO_SYM;
        ki->smem_static_bytes = ki->uses_dynamic_smem ? ext_off : soff;
        k++;
    }
    free(state);
    free(mark);
    free(used);
}

PtxModule *ptx_module_parse(const char *text, const char *filename, char *err, size_t err_len)
{
    if (err_len)
        err[0] = 0;
    if (!filename)
        filename = "<ptx>";
    uint32_t n_toks = 0, bad_line = 0;
    Tok *toks = ptx_lex(text, &n_toks, &bad_line);
    if (!toks) {
        if (err_len)
            snprintf(err, err_len, "%s:%u: unexpected character", filename, bad_line);
        return NULL;
    }
    Parser *P = xcalloc(1, sizeof *P);
    P->file = filename;
    P->toks = toks;
    P->err = err;
    P->err_len = err_len;
    P->cur_func = UINT32_MAX;
    P->next_reg = SR_COUNT;
    P->m = xcalloc(1, sizeof *P->m);
    P->m->filename = xstrdup(filename);
    for (int i = 0; i < PTX_N_ENVREGS; i++)
        P->m->envreg[i] = PTX_NO_REG;
    PtxModule *volatile result = NULL;
    if (setjmp(P->jb) == 0) {
        parse_module(P);
        finalize(P);
        result = P->m;
    } else {
        ptx_module_free(P->m);
        free(P->pending[0]);
        free(P->pending[1]);
    }
    free(P->regs);
    free(P->scope_syms);
    free(P->labels);
    free(P->protos);
    free(P->fixups);
    free(P->toks);
    free(P);
    return result;
}

PtxModule *ptx_module_load(const char *path, char *err, size_t err_len)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        if (err_len)
            snprintf(err, err_len, "%s: cannot read: %s", path, read_file_error(errno));
        return NULL;
    }
    PtxModule *m = ptx_module_parse(text, path, err, err_len);
    free(text);
    return m;
}

void ptx_module_free(PtxModule *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        free(m->funcs[i].name);
        free(m->funcs[i].params);
        free(m->funcs[i].rets);
        free(m->funcs[i].frame_iv);
    }
    for (uint32_t i = 0; i < m->n_syms; i++) {
        free(m->syms[i].name);
        free(m->syms[i].init);
    }
    for (uint32_t k = 0; k < m->n_kernels; k++) {
        if (m->kernel_shared)
            free(m->kernel_shared[k]);
        if (m->kernel_shared_off)
            free(m->kernel_shared_off[k]);
    }
    free(m->kernel_shared);
    free(m->kernel_shared_off);
    free(m->kernel_func);
    free(m->kernels);
    free(m->funcs);
    free(m->syms);
    free(m->insts);
    free(m->xinsts);
    free(m->xrec);
    free(m->imm_lanes);
    free(m->statics);
    free(m->call_syms);
    free(m->filename);
    free(m);
}

const PtxKernelInfo *ptx_module_kernel(const PtxModule *m, const char *name)
{
    for (uint32_t k = 0; k < m->n_kernels; k++)
        if (!strcmp(m->kernels[k].name, name))
            return &m->kernels[k];
    return NULL;
}

uint32_t ptx_module_n_kernels(const PtxModule *m) { return m->n_kernels; }
const PtxKernelInfo *ptx_module_kernel_at(const PtxModule *m, uint32_t i)
{
    return i < m->n_kernels ? &m->kernels[i] : NULL;
}
uint32_t ptx_module_n_insts(const PtxModule *m) { return m->n_insts; }
