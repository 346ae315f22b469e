/* ptx_decl.c: the names a PTX function or module declares: variables in every state space
 * (with their initialisers and fixed layouts), registers (including %r<N> ranges), parameter
 * lists, and the lookups that resolve a name to a symbol, a register or a function (PTX ISA
 * manual, chapter 5: state spaces, types and variables; 7: the .param calling sequence).
 *
 * Symbols are module-wide (PtxModule.syms); a function's own ones are also pushed on
 * P->scope_syms, searched innermost first, so a block-local name hides an outer one and module
 * scope comes last. Global, const, local and .func parameter variables get their offsets here,
 * in one module-wide layout per space; shared variables and kernel parameters are laid out per
 * kernel once the module is complete (ptx_parse.c). Register ids are dense and module-wide. */
#include "front/ptx/ptx_parse_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- symbols and registers */

static uint16_t new_symbol(Parser *P, const Tok *name, uint8_t space, uint32_t align, uint64_t size)
{
    PtxModule *m = P->m;
    if (m->n_syms >= PTX_NO_SYM - 1)
        ptx_parse_fail(P, name, "too many variables in one module");
    GROW(m->syms, m->n_syms, P->cap_syms);
    PtxSymbol *s = &m->syms[m->n_syms];
    memset(s, 0, sizeof *s);
    s->name = ptx_tok_strdup(name);
    s->space = space;
    s->align = align ? align : 1;
    s->size = size;
    s->func = P->cur_func == UINT32_MAX ? 0xFFFF : (uint16_t)P->cur_func;
    return (uint16_t)m->n_syms++;
}

uint16_t ptx_find_symbol(Parser *P, const Tok *t)
{
    for (uint32_t i = P->n_scope; i-- > 0;) {
        const PtxSymbol *s = &P->m->syms[P->scope_syms[i]];
        if (strlen(s->name) == t->len && !memcmp(s->name, t->s, t->len))
            return P->scope_syms[i];
    }
    for (uint32_t i = P->m->n_syms; i-- > 0;) {
        const PtxSymbol *s = &P->m->syms[i];
        if (s->func == 0xFFFF && strlen(s->name) == t->len && !memcmp(s->name, t->s, t->len))
            return (uint16_t)i;
    }
    return PTX_NO_SYM;
}

int ptx_find_func(const PtxModule *m, const char *s, size_t len)
{
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (strlen(m->funcs[i].name) == len && !memcmp(m->funcs[i].name, s, len))
            return (int)i;
    return -1;
}

static const struct { const char *name; uint8_t sr; } special_regs[] = {
    {"%tid.x", SR_TID_X}, {"%tid.y", SR_TID_Y}, {"%tid.z", SR_TID_Z},
    {"%ntid.x", SR_NTID_X}, {"%ntid.y", SR_NTID_Y}, {"%ntid.z", SR_NTID_Z},
    {"%ctaid.x", SR_CTAID_X}, {"%ctaid.y", SR_CTAID_Y}, {"%ctaid.z", SR_CTAID_Z},
    {"%nctaid.x", SR_NCTAID_X}, {"%nctaid.y", SR_NCTAID_Y}, {"%nctaid.z", SR_NCTAID_Z},
    {"%laneid", SR_LANEID}, {"%warpid", SR_WARPID}, {"%nwarpid", SR_NWARPID},
    {"%smid", SR_SMID}, {"%nsmid", SR_NSMID}, {"%gridid", SR_GRIDID},
    {"%lanemask_eq", SR_LANEMASK_EQ}, {"%lanemask_lt", SR_LANEMASK_LT},
    {"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_gt", SR_LANEMASK_GT},
    {"%lanemask_ge", SR_LANEMASK_GE},
};

const char *ptx_special_reg_name(unsigned sr)
{
    for (size_t i = 0; i < ARRAY_LEN(special_regs); i++)
        if (special_regs[i].sr == sr)
            return special_regs[i].name;
    return sr == SR_CARRY ? "the carry flag" : "?";
}

static uint32_t alloc_regs(Parser *P, const Tok *at, uint32_t count);

uint16_t ptx_find_reg(Parser *P, const Tok *t)
{
    for (uint32_t i = P->n_regdecl; i-- > 0;) {
        const RegDecl *d = &P->regs[i];
        if (d->count == 0) {
            if (d->len == t->len && !memcmp(d->name, t->s, t->len))
                return (uint16_t)d->base;
            continue;
        }
        if (t->len <= d->len || memcmp(d->name, t->s, d->len))
            continue;
        const char *q = t->s + d->len;
        uint32_t k = t->len - d->len, v = 0;
        if (k > 9 || (q[0] == '0' && k > 1))
            continue;
        bool digits = true;
        for (uint32_t j = 0; j < k; j++) {
            if (!isdigit((unsigned char)q[j])) {
                digits = false;
                break;
            }
            v = v * 10 + (uint32_t)(q[j] - '0');
        }
        if (digits && v < d->count)
            return (uint16_t)(d->base + v);
    }
    for (size_t i = 0; i < ARRAY_LEN(special_regs); i++)
        if (strlen(special_regs[i].name) == t->len && !memcmp(special_regs[i].name, t->s, t->len))
            return special_regs[i].sr;
    /* %envreg0..31: what the driver tells a launch (the cooperative-groups grid workspace) */
    if (t->len >= 8 && t->len <= 9 && !memcmp(t->s, "%envreg", 7) && isdigit((unsigned char)t->s[7]) &&
        (t->len == 8 || (t->s[7] != '0' && isdigit((unsigned char)t->s[8])))) {
        unsigned n = (unsigned)atoi(t->s + 7);
        if (n < PTX_N_ENVREGS) {
            if (P->m->envreg[n] == PTX_NO_REG)
                P->m->envreg[n] = (uint16_t)alloc_regs(P, t, 1);
            return P->m->envreg[n];
        }
    }
    return PTX_NO_REG;
}

static uint32_t alloc_regs(Parser *P, const Tok *at, uint32_t count)
{
    uint32_t base = P->next_reg;
    if ((uint64_t)base + count >= PTX_NO_REG)
        ptx_parse_fail(P, at, "too many registers in one module (at most %u)", PTX_NO_REG - 1);
    P->next_reg += count;
    return base;
}


/* ---------------------------------------------------------------- variables */

/* The initialised .global and .const variables of one module take at most this many bytes in
 * all. The parsed module holds their values, and loading it writes them into the simulated
 * memory, so without a bound a short text (`.global .b8 a[1073741824] = {0};`, many times)
 * costs the host without limit. CUDA's constant bank is 64 KiB and initialised __device__ data
 * (lookup tables) is rarely over a few MiB; 256 MiB is far above that, and twice it is a small
 * part of the default gpu.max_host_mb (8 GiB). Uninitialised variables cost nothing until
 * written, and are not counted. */
#define PTX_MAX_INIT_BYTES (256ull << 20)

/* Write one initialiser element of the given type at byte offset off. */
static void init_element(Parser *P, PtxSymbol *s, uint8_t et, uint64_t *off, const Tok *at)
{
    bool neg = ptx_accept(P, '-');
    const Tok *t = ptx_next(P);
    int fn = t->kind == TK_WORD && !neg ? ptx_find_func(P->m, t->s, t->len) : -1;
    if (fn >= 0) { /* a function's address (a vtable's entries), as mov reads it */
        if (ptx_type_bytes(et) != 8)
            ptx_parse_fail(P, t, "function '%.*s' in the initialiser of '%s': its address takes 64 bits",
                           (int)t->len, t->s, s->name);
        if (*off + 8 > s->size)
            ptx_parse_fail(P, at, "too many initialisers for '%s'", s->name);
        uint64_t v = PTX_WIN_CODE + (uint64_t)fn;
        memcpy(s->init + *off, &v, 8); /* little-endian, as the numbers below */
        *off += 8;
        P->m->funcs[fn].address_taken = true;
        return;
    }
    if (t->kind != TK_NUM) {
        if (t->kind == TK_WORD)
            ptx_parse_fail(P, t,
                           "unsupported initialiser '%.*s' (numbers and function names are supported)",
                           (int)t->len, t->s);
        char b[64];
        ptx_parse_fail(P, t, "expected a number in the initialiser, found %s",
                       ptx_tok_desc(t, b, sizeof b));
    }
    uint32_t eb = ptx_type_bytes(et);
    if (*off + eb > s->size)
        ptx_parse_fail(P, at, "too many initialisers for '%s'", s->name);
    uint64_t v = ptx_parse_value(P, t, neg, et);
    for (uint32_t i = 0; i < eb; i++)
        s->init[*off + i] = (uint8_t)(v >> (8 * i));
    *off += eb;
}

/* Braces nest once per array dimension; the bound keeps hostile input off the stack's end. */
enum { MAX_INIT_DEPTH = 32 };

static void init_list(Parser *P, PtxSymbol *s, uint8_t et, uint64_t *off, const Tok *at, int depth)
{
    if (ptx_is_punct(ptx_peek(P), '{')) {
        if (depth == MAX_INIT_DEPTH)
            ptx_parse_fail(P, ptx_peek(P), "initialiser braces nested more than %d deep", MAX_INIT_DEPTH);
        ptx_next(P);
        if (!ptx_is_punct(ptx_peek(P), '}')) {
            do
                init_list(P, s, et, off, at, depth + 1);
            while (ptx_accept(P, ','));
        }
        ptx_expect(P, '}');
    } else {
        init_element(P, s, et, off, at);
    }
}

/* The words before a declared name: [.align N] [.vN] .type and the pointer attributes of
 * parameters (.ptr .global .align 1), in any order. A parameter list (any_attr) skips every
 * other directive word too. Returns the element type, PT_NONE if none was given. */
static uint8_t decl_attributes(Parser *P, bool any_attr, uint32_t *align, uint32_t *vec)
{
    uint8_t et = PT_NONE;
    for (;;) {
        const Tok *t = ptx_peek(P);
        if (ptx_is_word(t, ".align")) {
            ptx_next(P);
            const Tok *n = ptx_next(P);
            if (n->kind != TK_NUM)
                ptx_parse_fail(P, n, "expected an alignment after .align");
            *align = (uint32_t)ptx_parse_value(P, n, false, PT_U32);
            if (!is_pow2_u64(*align))
                ptx_parse_fail(P, n, "alignment must be a power of two");
        } else if (ptx_is_word(t, ".v2") || ptx_is_word(t, ".v4")) {
            ptx_next(P);
            *vec = t->s[2] - '0';
        } else if (ptx_type_word(t) != PT_NONE) {
            et = ptx_type_word(ptx_next(P));
        } else if (any_attr ? t->kind == TK_WORD && t->s[0] == '.'
                            : ptx_is_word(t, ".ptr") || ptx_is_word(t, ".global") ||
                              ptx_is_word(t, ".shared") || ptx_is_word(t, ".const") ||
                              ptx_is_word(t, ".local")) {
            ptx_next(P);
        } else {
            return et;
        }
    }
}

/* Array dimensions [N][M]...: the element count, 1 for a scalar. An empty [] (an unsized
 * array, such as extern shared memory) sets *unsized, where unsized is not NULL. */
static uint64_t array_dims(Parser *P, bool *unsized)
{
    uint64_t n_elems = 1;
    while (ptx_accept(P, '[')) {
        if (unsized && ptx_accept(P, ']')) {
            *unsized = true;
            continue;
        }
        const Tok *n = ptx_next(P);
        if (n->kind != TK_NUM)
            ptx_parse_fail(P, n, "expected an array size");
        uint64_t dim = ptx_parse_value(P, n, false, PT_U64);
        if (dim && n_elems > UINT64_MAX / dim)
            ptx_parse_fail(P, n, "array of more than 2^64 elements");
        n_elems *= dim;
        ptx_expect(P, ']');
    }
    return n_elems;
}

/* Variable declaration after the state-space word: [.align N] [.vN] .type name[dims] [= init]
 * {, name...} ; */
void ptx_parse_var_decl(Parser *P, uint8_t space, bool is_extern)
{
    uint32_t align = 0, vec = 1;
    bool managed = false;
    /* .attribute(.managed): a __managed__ variable (unified memory), the only variable
     * attribute nvcc emits */
    const Tok *at = ptx_peek(P);
    if (ptx_is_word(at, ".attribute")) {
        ptx_next(P);
        ptx_expect(P, '(');
        const Tok *a = ptx_expect_word(P, "a variable attribute");
        if (!ptx_is_word(a, ".managed"))
            ptx_parse_fail(P, a, "variable attribute '%.*s': only .managed is supported", (int)a->len, a->s);
        ptx_expect(P, ')');
        if (space != SP_GLOBAL)
            ptx_parse_fail(P, at, ".attribute(.managed) on a variable outside .global");
        managed = true;
    }
    uint8_t et = decl_attributes(P, false, &align, &vec);
    if (et == PT_NONE)
        ptx_parse_fail(P, ptx_peek(P), "expected a type (.b32, .f32, ...) in the variable declaration");
    for (;;) {
        const Tok *name = ptx_expect_word(P, "a variable name");
        bool unsized = false;
        uint64_t n_elems = array_dims(P, &unsized);
        uint32_t eb = ptx_type_bytes(et) * vec;
        if (eb && n_elems > UINT64_MAX / 2 / eb) /* and its offset in the module's layout fits too */
            ptx_parse_fail(P, name, "variable '%.*s' of %llu elements of %u bytes: more than 2^63 bytes",
                           (int)name->len, name->s, (unsigned long long)n_elems, eb);
        uint16_t id = new_symbol(P, name, space, align ? align : eb, unsized ? 0 : n_elems * eb);
        PtxSymbol *s = &P->m->syms[id];
        s->is_extern = is_extern && space == SP_SHARED;
        s->managed = managed;
        if (unsized && !s->is_extern && space != SP_PARAM_K && space != SP_PARAM_F)
            ptx_parse_fail(P, name, "array '%s' has no size", s->name);
        if (ptx_accept(P, '=')) {
            if (space != SP_GLOBAL && space != SP_CONST)
                ptx_parse_fail(P, name, "only .global and .const variables may have initialisers");
            if (s->size > PTX_MAX_INIT_BYTES - P->init_bytes)
                ptx_parse_fail(P, name, "initialised variable '%s' of %llu bytes: the module's initialised .global "
                               "and .const variables would take %llu bytes, more than the %llu (256 MiB) a module "
                               "may have", s->name, (unsigned long long)s->size,
                               (unsigned long long)(P->init_bytes + s->size), PTX_MAX_INIT_BYTES);
            P->init_bytes += s->size;
            s->init = xcalloc(1, s->size);
            uint64_t off = 0;
            init_list(P, s, et, &off, name, 0);
        }
        if (P->cur_func != UINT32_MAX) {
            GROW(P->scope_syms, P->n_scope, P->cap_scope);
            P->scope_syms[P->n_scope++] = id;
        }
        /* Fixed layouts: module-wide frames for everything except shared (per kernel) and
         * kernel parameters (per entry, laid out by the caller). */
        PtxModule *m = P->m;
        uint64_t *cursor = managed ? NULL : space == SP_GLOBAL ? &m->global_bytes : space == SP_CONST ? &m->const_bytes : NULL;
        if (cursor) {
            if (*cursor > UINT64_MAX / 2 - s->size) /* every term below 2^63: no wrap */
                ptx_parse_fail(P, name, "the module's %s variables take more than 2^63 bytes",
                               space == SP_GLOBAL ? ".global" : ".const");
            *cursor = (*cursor + s->align - 1) / s->align * s->align;
            s->offset = *cursor;
            *cursor += s->size;
        } else if (space == SP_LOCAL || space == SP_PARAM_F) {
            uint32_t *c32 = space == SP_LOCAL ? &m->local_bytes : &m->pframe_bytes;
            *c32 = (*c32 + s->align - 1) / s->align * s->align;
            s->offset = *c32;
            if (*c32 + s->size > (1u << 24))
                ptx_parse_fail(P, name, "per-thread %s frame too large",
                               space == SP_LOCAL ? "local" : "parameter");
            *c32 += (uint32_t)s->size;
        }
        if (!ptx_accept(P, ','))
            break;
    }
    ptx_expect(P, ';');
}

/* ---------------------------------------------------------------- registers and parameters */

/* .reg .type name-list ; with %name<N> ranges. */
void ptx_parse_reg_decl(Parser *P)
{
    ptx_next(P);
    const Tok *tt = ptx_next(P);
    if (ptx_is_word(tt, ".v2") || ptx_is_word(tt, ".v4"))
        ptx_parse_fail(P, tt, "vector registers are not supported");
    uint8_t t = ptx_type_word(tt);
    if (t == PT_NONE)
        ptx_parse_fail(P, tt, "expected a register type after .reg");
    uint32_t slots = t == PT_PRED ? 0 : ptx_type_bytes(t) > 4 ? 2 : 1;
    PtxFunc *f = &P->m->funcs[P->cur_func];
    do {
        const Tok *name = ptx_expect_word(P, "a register name");
        uint32_t count = 0;
        if (ptx_accept(P, '<')) {
            const Tok *n = ptx_next(P);
            if (n->kind != TK_NUM)
                ptx_parse_fail(P, n, "expected a register count in %.*s<N>", (int)name->len, name->s);
            count = (uint32_t)ptx_parse_value(P, n, false, PT_U32);
            ptx_expect(P, '>');
            if (count == 0)
                continue;
        }
        GROW(P->regs, P->n_regdecl, P->cap_regdecl);
        RegDecl *d = &P->regs[P->n_regdecl++];
        d->name = name->s;
        d->len = name->len;
        d->count = count;
        d->base = alloc_regs(P, name, count ? count : 1);
        f->regs32 += slots * (count ? count : 1);
    } while (ptx_accept(P, ','));
    ptx_expect(P, ';');
}

uint16_t *ptx_parse_param_list(Parser *P, uint32_t *n_out, bool kernel, int slot)
{
    uint16_t *ids = NULL;
    uint32_t n = 0, cap = 0;
    ptx_expect(P, '(');
    if (!ptx_accept(P, ')')) {
        do {
            const Tok *t = ptx_next(P);
            if (!ptx_is_word(t, ".param") && !ptx_is_word(t, ".reg")) {
                char b[64];
                ptx_parse_fail(P, t, "expected .param in the parameter list, found %s",
                               ptx_tok_desc(t, b, sizeof b));
            }
            if (ptx_is_word(t, ".reg"))
                ptx_parse_fail(P, t, ".reg parameters are not supported");
            /* Not ptx_parse_var_decl: a parameter ends at ',' or ')', not ';', and has no
             * initialiser. */
            uint32_t align = 0, vec = 1;
            uint8_t et = decl_attributes(P, true, &align, &vec);
            if (et == PT_NONE)
                ptx_parse_fail(P, ptx_peek(P), "expected a parameter type");
            const Tok *name = ptx_expect_word(P, "a parameter name");
            uint64_t elems = array_dims(P, NULL);
            uint32_t eb = ptx_type_bytes(et) * vec;
            uint16_t id = new_symbol(P, name, kernel ? SP_PARAM_K : SP_PARAM_F, align ? align : eb,
                                     elems * eb);
            PtxSymbol *s = &P->m->syms[id];
            if (!kernel) {
                PtxModule *m = P->m;
                m->pframe_bytes = (m->pframe_bytes + s->align - 1) / s->align * s->align;
                s->offset = m->pframe_bytes;
                m->pframe_bytes += (uint32_t)s->size;
            }
            GROW(ids, n, cap);
            P->pending[slot] = ids;
            ids[n++] = id;
            GROW(P->scope_syms, P->n_scope, P->cap_scope);
            P->scope_syms[P->n_scope++] = id;
        } while (ptx_accept(P, ','));
        ptx_expect(P, ')');
    }
    *n_out = n;
    return ids;
}
