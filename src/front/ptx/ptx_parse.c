/* ptx_parse.c: lexer and parser for PTX modules as nvcc emits them (PTX ISA 9.0, sm_75+).
 *
 * Follows the PTX ISA manual, chapters 4 (syntax), 5 (state spaces, types, variables), 7
 * (functions and the .param calling sequence) and 11 (directives). One pass over a token array
 * builds the decoded module: directives, variables with initialisers, .entry/.func with their
 * parameter lists, register declarations (including %r<N> ranges), labels, guards and operands.
 * Unknown directives (.pragma, .loc, .file, .section, performance hints) are skipped; an
 * unsupported instruction or malformed input stops the parse with "file:line: what was expected".
 * Errors unwind with longjmp to ptx_module_parse, which frees the partial module: nothing here
 * exits. Invariant after a successful parse: every operand is resolved (registers to dense ids,
 * labels to instruction indices, functions to indices), every branch has its reconvergence pc. */
#include "front/ptx/ptx_ir.h"

#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- lexer */

enum { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT };

typedef struct Tok {
    uint8_t kind;
    char c; /* TK_PUNCT */
    uint32_t len;
    uint32_t line;
    const char *s;
} Tok;

static bool word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

/* Tokenize the whole text; false (with *bad_line) on a character PTX does not use. */
static Tok *lex(const char *text, uint32_t *n_out, uint32_t *bad_line)
{
    uint32_t cap = 1024, n = 0, line = 1;
    Tok *t = xmalloc(cap * sizeof *t);
    const char *p = text;
    for (;;) {
        if (n + 1 >= cap)
            t = xrealloc(t, (cap *= 2) * sizeof *t);
        while (*p && isspace((unsigned char)*p)) {
            if (*p == '\n')
                line++;
            p++;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n')
                    line++;
                p++;
            }
            if (*p)
                p += 2;
            continue;
        }
        Tok *k = &t[n];
        k->s = p;
        k->line = line;
        k->c = 0;
        if (!*p) {
            k->kind = TK_EOF;
            k->len = 0;
            n++;
            break;
        }
        int c = (unsigned char)*p;
        if (word_start(c)) {
            p++;
            for (;;) {
                while (word_char((unsigned char)*p))
                    p++;
                /* Qualifiers such as L1::no_allocate and shared::cta are one word. */
                if (p[0] == ':' && p[1] == ':' && word_char((unsigned char)p[2]))
                    p += 2;
                else
                    break;
            }
            k->kind = TK_WORD;
        } else if (isdigit(c)) {
            bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'f' || p[1] == 'F' ||
                                       p[1] == 'd' || p[1] == 'D');
            p++;
            while (isalnum((unsigned char)*p) || *p == '.' ||
                   (!hex && (*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E')))
                p++;
            k->kind = TK_NUM;
        } else if (c == '"') {
            p++;
            while (*p && *p != '"' && *p != '\n')
                p++;
            if (*p == '"')
                p++;
            k->kind = TK_STR;
        } else if (strchr("{}()[],;:+-|!<>=@", c)) {
            k->kind = TK_PUNCT;
            k->c = (char)c;
            p++;
        } else {
            *bad_line = line;
            free(t);
            return NULL;
        }
        k->len = (uint32_t)(p - k->s);
        n++;
    }
    *n_out = n;
    return t;
}

/* ---------------------------------------------------------------- parser state */

typedef struct RegDecl {
    const char *name; /* prefix for ranges */
    uint32_t len;
    uint32_t count;   /* 0: a single register named exactly name */
    uint32_t base;
} RegDecl;

typedef struct Label {
    const char *name;
    uint32_t len;
    uint32_t inst;
} Label;

typedef struct Fixup {
    uint32_t inst;
    const Tok *tok;
} Fixup;

typedef struct Parser {
    const char *file;
    Tok *toks;
    uint32_t pos;
    char *err;
    size_t err_len;
    jmp_buf jb;
    PtxModule *m;
    uint32_t cap_insts, cap_funcs, cap_syms, cap_call_syms, cap_kernels;
    /* the function being parsed */
    uint32_t cur_func;
    RegDecl *regs;
    uint32_t n_regdecl, cap_regdecl;
    uint16_t *scope_syms; /* function-local symbols, innermost last */
    uint32_t n_scope, cap_scope;
    Label *labels;
    uint32_t n_labels, cap_labels;
    Fixup *fixups;
    uint32_t n_fixups, cap_fixups;
    uint32_t next_reg;
    uint16_t *pending[2]; /* parameter lists not yet owned by a function (freed on error) */
} Parser;

#define GROW(p, n, cap)                                                     \
    do {                                                                    \
        if ((n) >= (cap)) {                                                 \
            (cap) = (cap) ? 2 * (cap) : 16;                                 \
            (p) = xrealloc((p), (size_t)(cap) * sizeof *(p));               \
        }                                                                   \
    } while (0)

static _Noreturn void fail(Parser *P, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail(Parser *P, const Tok *t, const char *fmt, ...)
{
    if (P->err_len) {
        int k = snprintf(P->err, P->err_len, "%s:%u: ", P->file, t ? t->line : 0);
        if (k < 0)
            k = 0;
        if ((size_t)k < P->err_len) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(P->err + k, P->err_len - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    longjmp(P->jb, 1);
}

static const Tok *peek(Parser *P) { return &P->toks[P->pos]; }
static const Tok *next(Parser *P)
{
    const Tok *t = &P->toks[P->pos];
    if (t->kind != TK_EOF)
        P->pos++;
    return t;
}
static bool is_punct(const Tok *t, char c) { return t->kind == TK_PUNCT && t->c == c; }
static bool is_word(const Tok *t, const char *w)
{
    return t->kind == TK_WORD && t->len == strlen(w) && !memcmp(t->s, w, t->len);
}
static bool accept(Parser *P, char c)
{
    if (is_punct(peek(P), c)) {
        P->pos++;
        return true;
    }
    return false;
}
static const char *tok_desc(const Tok *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF)
        snprintf(buf, n, "end of file");
    else
        snprintf(buf, n, "'%.*s'", (int)MIN(t->len, 40u), t->s);
    return buf;
}
static void expect(Parser *P, char c)
{
    if (!accept(P, c)) {
        char b[64];
        fail(P, peek(P), "expected '%c', found %s", c, tok_desc(peek(P), b, sizeof b));
    }
}
static const Tok *expect_word(Parser *P, const char *what)
{
    const Tok *t = next(P);
    if (t->kind != TK_WORD) {
        char b[64];
        fail(P, t, "expected %s, found %s", what, tok_desc(t, b, sizeof b));
    }
    return t;
}
static char *tok_strdup(const Tok *t)
{
    char *s = xmalloc(t->len + 1);
    memcpy(s, t->s, t->len);
    s[t->len] = 0;
    return s;
}

/* ---------------------------------------------------------------- literals */

enum { LIT_INT, LIT_F32, LIT_F64, LIT_DEC };
typedef struct Lit {
    int kind;
    uint64_t bits;
    double d;
} Lit;

static Lit parse_number(Parser *P, const Tok *t, bool neg)
{
    char buf[80];
    if (t->len >= sizeof buf)
        fail(P, t, "number too long");
    memcpy(buf, t->s, t->len);
    buf[t->len] = 0;
    Lit l = {LIT_INT, 0, 0};
    char *end = NULL;
    errno = 0;
    if ((buf[1] == 'f' || buf[1] == 'F') && buf[0] == '0' && t->len == 10) {
        l.kind = LIT_F32;
        l.bits = strtoull(buf + 2, &end, 16);
        if (neg)
            l.bits ^= 0x80000000ull;
    } else if ((buf[1] == 'd' || buf[1] == 'D') && buf[0] == '0' && t->len == 18) {
        l.kind = LIT_F64;
        l.bits = strtoull(buf + 2, &end, 16);
        if (neg)
            l.bits ^= 0x8000000000000000ull;
    } else if (strpbrk(buf, ".eE") && !(buf[1] == 'x' || buf[1] == 'X')) {
        l.kind = LIT_DEC;
        l.d = strtod(buf, &end);
        if (neg)
            l.d = -l.d;
    } else {
        size_t n = strlen(buf);
        if (n > 1 && (buf[n - 1] == 'U' || buf[n - 1] == 'u'))
            buf[--n] = 0;
        int base = 10;
        const char *s = buf;
        if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
            base = 16;
            s = buf + 2;
        } else if (buf[0] == '0' && buf[1] == 'b') {
            base = 2;
            s = buf + 2;
        } else if (buf[0] == '0' && buf[1]) {
            base = 8;
        }
        l.bits = strtoull(s, &end, base);
        if (neg)
            l.bits = (uint64_t)0 - l.bits;
    }
    if (!end || *end || errno)
        fail(P, t, "malformed number '%.*s'", (int)t->len, t->s);
    return l;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The bits a literal has when read as type t. */
static uint64_t lit_bits(Lit l, uint8_t t)
{
    if (t == PT_F32) {
        switch (l.kind) {
        case LIT_INT: return f32_bits((float)(int64_t)l.bits);
        case LIT_F32: return l.bits;
        case LIT_F64: return f32_bits((float)bits_f64(l.bits));
        default: return f32_bits((float)l.d);
        }
    }
    if (t == PT_F64) {
        switch (l.kind) {
        case LIT_INT: return f64_bits((double)(int64_t)l.bits);
        case LIT_F32: return f64_bits((double)bits_f32((uint32_t)l.bits));
        case LIT_F64: return l.bits;
        default: return f64_bits(l.d);
        }
    }
    if (t == PT_PRED)
        return l.kind == LIT_DEC ? l.d != 0 : l.bits != 0;
    if (l.kind == LIT_DEC)
        return (uint64_t)(int64_t)l.d;
    return l.bits;
}

/* ---------------------------------------------------------------- symbols and registers */

static uint16_t new_symbol(Parser *P, const Tok *name, uint8_t space, uint32_t align, uint64_t size)
{
    PtxModule *m = P->m;
    if (m->n_syms >= PTX_NO_SYM - 1)
        fail(P, name, "too many variables in one module");
    GROW(m->syms, m->n_syms, P->cap_syms);
    PtxSymbol *s = &m->syms[m->n_syms];
    memset(s, 0, sizeof *s);
    s->name = tok_strdup(name);
    s->space = space;
    s->align = align ? align : 1;
    s->size = size;
    s->func = P->cur_func == UINT32_MAX ? 0xFFFF : (uint16_t)P->cur_func;
    return (uint16_t)m->n_syms++;
}

static uint16_t find_symbol(Parser *P, const Tok *t)
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

static int find_func(const PtxModule *m, const char *s, size_t len)
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

/* Register id of a name, or PTX_NO_REG. Special registers occupy ids 0..SR_COUNT-1. */
static uint16_t find_reg(Parser *P, const Tok *t)
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
    return PTX_NO_REG;
}

static uint32_t alloc_regs(Parser *P, const Tok *at, uint32_t count)
{
    uint32_t base = P->next_reg;
    if ((uint64_t)base + count >= PTX_NO_REG)
        fail(P, at, "too many registers in one module (at most %u)", PTX_NO_REG - 1);
    P->next_reg += count;
    return base;
}

/* ---------------------------------------------------------------- directives */

static uint8_t type_word(const Tok *t)
{
    static const char *const names[PT_COUNT] = {
        "", ".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
        ".s64", ".f16", ".f16x2", ".bf16", ".f32", ".f64", ".pred",
    };
    for (unsigned i = 1; i < PT_COUNT; i++)
        if (is_word(t, names[i]))
            return (uint8_t)i;
    return PT_NONE;
}

/* Skip a directive we do not model: to ';' or past a balanced {...}, or to the end of its line
 * for the line-oriented ones (.loc, .file). */
static void skip_directive(Parser *P)
{
    const Tok *d = next(P);
    uint32_t line = d->line;
    for (;;) {
        const Tok *t = peek(P);
        if (t->kind == TK_EOF)
            return;
        if (is_punct(t, ';')) {
            next(P);
            return;
        }
        if (is_punct(t, '{')) {
            int depth = 0;
            do {
                t = next(P);
                if (is_punct(t, '{'))
                    depth++;
                else if (is_punct(t, '}'))
                    depth--;
            } while (depth > 0 && t->kind != TK_EOF);
            return;
        }
        if (t->line != line)
            return;
        next(P);
    }
}

/* Write one initialiser element of the given type at byte offset off. */
static void init_element(Parser *P, PtxSymbol *s, uint8_t et, uint64_t *off, const Tok *at)
{
    bool neg = accept(P, '-');
    const Tok *t = next(P);
    if (t->kind != TK_NUM) {
        if (t->kind == TK_WORD)
            fail(P, t, "unsupported initialiser '%.*s' (only numeric initialisers are supported)",
                 (int)t->len, t->s);
        char b[64];
        fail(P, t, "expected a number in the initialiser, found %s", tok_desc(t, b, sizeof b));
    }
    uint32_t eb = ptx_type_bytes(et);
    if (*off + eb > s->size)
        fail(P, at, "too many initialisers for '%s'", s->name);
    uint64_t v = lit_bits(parse_number(P, t, neg), et);
    for (uint32_t i = 0; i < eb; i++)
        s->init[*off + i] = (uint8_t)(v >> (8 * i));
    *off += eb;
}

static void init_list(Parser *P, PtxSymbol *s, uint8_t et, uint64_t *off, const Tok *at)
{
    if (accept(P, '{')) {
        if (!is_punct(peek(P), '}')) {
            do
                init_list(P, s, et, off, at);
            while (accept(P, ','));
        }
        expect(P, '}');
    } else {
        init_element(P, s, et, off, at);
    }
}

/* Variable declaration after the state-space word: [.align N] [.vN] .type name[dims] [= init]
 * {, name...} ; Returns the symbol id of the last one declared. */
static void parse_var_decl(Parser *P, uint8_t space, bool is_extern)
{
    uint32_t align = 0, vec = 1;
    uint8_t et = PT_NONE;
    for (;;) {
        const Tok *t = peek(P);
        if (is_word(t, ".align")) {
            next(P);
            const Tok *n = next(P);
            if (n->kind != TK_NUM)
                fail(P, n, "expected an alignment after .align");
            align = (uint32_t)lit_bits(parse_number(P, n, false), PT_U32);
            if (!is_pow2_u64(align))
                fail(P, n, "alignment must be a power of two");
        } else if (is_word(t, ".v2") || is_word(t, ".v4")) {
            next(P);
            vec = t->s[2] - '0';
        } else if (type_word(t) != PT_NONE) {
            et = type_word(next(P));
        } else if (is_word(t, ".ptr") || is_word(t, ".global") || is_word(t, ".shared") ||
                   is_word(t, ".const") || is_word(t, ".local")) {
            next(P); /* .ptr .global .align 1: pointer attributes of parameters */
        } else {
            break;
        }
    }
    if (et == PT_NONE)
        fail(P, peek(P), "expected a type (.b32, .f32, ...) in the variable declaration");
    for (;;) {
        const Tok *name = expect_word(P, "a variable name");
        uint64_t n_elems = 1;
        bool unsized = false;
        while (accept(P, '[')) {
            if (accept(P, ']')) {
                unsized = true;
                continue;
            }
            const Tok *n = next(P);
            if (n->kind != TK_NUM)
                fail(P, n, "expected an array size");
            n_elems *= lit_bits(parse_number(P, n, false), PT_U64);
            expect(P, ']');
        }
        uint32_t eb = ptx_type_bytes(et) * vec;
        uint16_t id = new_symbol(P, name, space, align ? align : eb, unsized ? 0 : n_elems * eb);
        PtxSymbol *s = &P->m->syms[id];
        s->is_extern = is_extern && space == SP_SHARED;
        if (unsized && !s->is_extern && space != SP_PARAM_K && space != SP_PARAM_F)
            fail(P, name, "array '%s' has no size", s->name);
        if (accept(P, '=')) {
            if (space != SP_GLOBAL && space != SP_CONST)
                fail(P, name, "only .global and .const variables may have initialisers");
            if (s->size > ((uint64_t)1 << 30))
                fail(P, name, "initialised variable '%s' is too large", s->name);
            s->init = xcalloc(1, s->size);
            uint64_t off = 0;
            init_list(P, s, et, &off, name);
        }
        if (P->cur_func != UINT32_MAX) {
            GROW(P->scope_syms, P->n_scope, P->cap_scope);
            P->scope_syms[P->n_scope++] = id;
        }
        /* Fixed layouts: module-wide frames for everything except shared (per kernel) and
         * kernel parameters (per entry, laid out by the caller). */
        PtxModule *m = P->m;
        uint64_t *cursor = space == SP_GLOBAL ? &m->global_bytes : space == SP_CONST ? &m->const_bytes : NULL;
        if (cursor) {
            *cursor = (*cursor + s->align - 1) / s->align * s->align;
            s->offset = *cursor;
            *cursor += s->size;
        } else if (space == SP_LOCAL || space == SP_PARAM_F) {
            uint32_t *c32 = space == SP_LOCAL ? &m->local_bytes : &m->pframe_bytes;
            *c32 = (*c32 + s->align - 1) / s->align * s->align;
            s->offset = *c32;
            if (*c32 + s->size > (1u << 24))
                fail(P, name, "per-thread %s frame too large", space == SP_LOCAL ? "local" : "parameter");
            *c32 += (uint32_t)s->size;
        }
        if (!accept(P, ','))
            break;
    }
    expect(P, ';');
}

/* .reg .type name-list ; with %name<N> ranges. */
static void parse_reg_decl(Parser *P)
{
    next(P);
    const Tok *tt = next(P);
    if (is_word(tt, ".v2") || is_word(tt, ".v4"))
        fail(P, tt, "vector registers are not supported");
    uint8_t t = type_word(tt);
    if (t == PT_NONE)
        fail(P, tt, "expected a register type after .reg");
    uint32_t slots = t == PT_PRED ? 0 : ptx_type_bytes(t) > 4 ? 2 : 1;
    PtxFunc *f = &P->m->funcs[P->cur_func];
    do {
        const Tok *name = expect_word(P, "a register name");
        uint32_t count = 0;
        if (accept(P, '<')) {
            const Tok *n = next(P);
            if (n->kind != TK_NUM)
                fail(P, n, "expected a register count in %.*s<N>", (int)name->len, name->s);
            count = (uint32_t)lit_bits(parse_number(P, n, false), PT_U32);
            expect(P, '>');
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
    } while (accept(P, ','));
    expect(P, ';');
}

/* ---------------------------------------------------------------- instructions */

static PtxInst *new_inst(Parser *P)
{
    PtxModule *m = P->m;
    GROW(m->insts, m->n_insts, P->cap_insts);
    return &m->insts[m->n_insts++];
}

static uint16_t reg_operand(Parser *P, const Tok *t)
{
    uint16_t r = find_reg(P, t);
    if (r == PTX_NO_REG)
        fail(P, t, "unknown register '%.*s'", (int)t->len, t->s);
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
            if (accept(P, ']'))
                return;
            if (accept(P, '-'))
                neg = true;
            else
                expect(P, '+');
            if (accept(P, '-'))
                neg = !neg;
        }
        const Tok *t = next(P);
        if (t->kind == TK_NUM) {
            uint64_t v = lit_bits(parse_number(P, t, false), PT_S64);
            o->imm += neg ? (uint64_t)0 - v : v;
        } else if (t->kind == TK_WORD && !neg) {
            uint16_t r = find_reg(P, t);
            if (r != PTX_NO_REG && o->reg == PTX_NO_REG) {
                o->reg = r;
            } else {
                uint16_t s = find_symbol(P, t);
                if (s == PTX_NO_SYM || o->sym != PTX_NO_SYM)
                    fail(P, t, "unknown name '%.*s' in address", (int)t->len, t->s);
                o->sym = s;
            }
        } else {
            char b[64];
            fail(P, t, "expected a register, variable or offset in [...], found %s",
                 tok_desc(t, b, sizeof b));
        }
        first = false;
    }
}

static void parse_operand(Parser *P, PtxInst *in, unsigned idx, PtxOperand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = PTX_NO_REG;
    o->sym = PTX_NO_SYM;
    const Tok *t = next(P);
    char b[64];
    if (is_punct(t, '{')) {
        o->kind = OK_VEC;
        do {
            const Tok *r = expect_word(P, "a register in {...}");
            if (o->n == 4)
                fail(P, r, "at most four registers in a vector operand");
            o->vreg[o->n++] = is_word(r, "_") ? PTX_NO_REG : reg_operand(P, r);
        } while (accept(P, ','));
        expect(P, '}');
        return;
    }
    if (is_punct(t, '[')) {
        parse_address(P, o);
        return;
    }
    if (is_punct(t, '!')) {
        const Tok *r = expect_word(P, "a predicate after '!'");
        o->kind = OK_REG;
        o->reg = reg_operand(P, r);
        o->n = 1; /* negated */
        return;
    }
    if (is_punct(t, '-') || t->kind == TK_NUM) {
        bool neg = is_punct(t, '-');
        if (neg)
            t = next(P);
        if (t->kind != TK_NUM)
            fail(P, t, "expected a number after '-', found %s", tok_desc(t, b, sizeof b));
        o->kind = OK_IMM;
        o->imm = lit_bits(parse_number(P, t, neg), ptx_decode_operand_type(in, idx));
        return;
    }
    if (t->kind != TK_WORD)
        fail(P, t, "expected an operand, found %s", tok_desc(t, b, sizeof b));
    if (in->op == OP_BRA) {
        o->kind = OK_LABEL;
        GROW(P->fixups, P->n_fixups, P->cap_fixups);
        P->fixups[P->n_fixups].inst = P->m->n_insts - 1;
        P->fixups[P->n_fixups++].tok = t;
        return;
    }
    if (is_word(t, "_")) {
        o->kind = OK_REG; /* sink */
        return;
    }
    uint16_t r = find_reg(P, t);
    if (r != PTX_NO_REG) {
        o->kind = OK_REG;
        o->reg = r;
        return;
    }
    if (is_word(t, "%clock") || is_word(t, "%clock64") || is_word(t, "%globaltimer")) {
        if (in->op != OP_MOV || idx != 1)
            fail(P, t, "%.*s may only be read by mov", (int)t->len, t->s);
        in->op = OP_CLOCK;
        o->kind = OK_NONE;
        return;
    }
    uint16_t s = find_symbol(P, t);
    if (s != PTX_NO_SYM) {
        o->kind = OK_SYM;
        o->sym = s;
        return;
    }
    if (t->s[0] == '%')
        fail(P, t, "unknown register '%.*s'", (int)t->len, t->s);
    fail(P, t, "unknown identifier '%.*s'", (int)t->len, t->s);
}

/* The [handle, {x}] operand of tex: o[1] the texture object's register, o[2] the coordinates. */
static void parse_tex_operand(Parser *P, PtxInst *in)
{
    expect(P, '[');
    const Tok *t = expect_word(P, "a texture object register");
    if (find_reg(P, t) == PTX_NO_REG)
        fail(P, t, "'%.*s': texture references are not supported, only texture objects (a .u64 register)",
             (int)t->len, t->s);
    memset(&in->o[1], 0, sizeof in->o[1]);
    in->o[1].kind = OK_REG;
    in->o[1].reg = reg_operand(P, t);
    in->o[1].sym = PTX_NO_SYM;
    expect(P, ',');
    parse_operand(P, in, 2, &in->o[2]);
    expect(P, ']');
}

/* call[.uni] [(ret, ...),] func [, (arg, ...)] ; */
static void parse_call(Parser *P, PtxInst *in)
{
    PtxModule *m = P->m;
    uint32_t ret_first = m->n_call_syms, n_ret = 0, n_arg = 0;
    if (accept(P, '(')) {
        do {
            const Tok *t = expect_word(P, "a return parameter");
            uint16_t s = find_symbol(P, t);
            if (s == PTX_NO_SYM || m->syms[s].space != SP_PARAM_F)
                fail(P, t, "expected a .param variable, found '%.*s'", (int)t->len, t->s);
            GROW(m->call_syms, m->n_call_syms, P->cap_call_syms);
            m->call_syms[m->n_call_syms++] = s;
            n_ret++;
        } while (accept(P, ','));
        expect(P, ')');
        expect(P, ',');
    }
    const Tok *ft = expect_word(P, "a function name");
    int f = find_func(m, ft->s, ft->len);
    if (f < 0) {
        if (find_reg(P, ft) != PTX_NO_REG)
            fail(P, ft, "indirect calls are not supported");
        fail(P, ft, "call to undeclared function '%.*s'", (int)ft->len, ft->s);
    }
    uint32_t arg_first = m->n_call_syms;
    if (accept(P, ',')) {
        expect(P, '(');
        if (!is_punct(peek(P), ')')) {
            do {
                const Tok *t = expect_word(P, "an argument parameter");
                uint16_t s = find_symbol(P, t);
                if (s == PTX_NO_SYM || m->syms[s].space != SP_PARAM_F)
                    fail(P, t, "expected a .param variable as argument, found '%.*s'", (int)t->len, t->s);
                GROW(m->call_syms, m->n_call_syms, P->cap_call_syms);
                m->call_syms[m->n_call_syms++] = s;
                n_arg++;
            } while (accept(P, ','));
        }
        expect(P, ')');
        if (accept(P, ','))
            fail(P, peek(P), "call prototypes (indirect calls) are not supported");
    }
    expect(P, ';');
    if (n_ret > 4 || n_arg > 0xFFFF)
        fail(P, ft, "too many call parameters");
    in->n_ops = 1;
    /* o[0]: the callee; o[1]/o[2]: return-value and argument .param lists as (first index in
     * call_syms, count in reg). Only o[0] counts as an operand. */
    in->o[0].kind = OK_FUNC;
    in->o[0].imm = (uint64_t)f;
    in->o[0].reg = PTX_NO_REG;
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
        fail(P, at, "'%.*s' expects %u%s operands, found %u", (int)at->len, at->s, lo,
             hi > lo ? " or more" : "", in->n_ops);
    const PtxOperand *o = in->o;
    switch (in->op) {
    case OP_LD:
        if ((o[0].kind != OK_REG && o[0].kind != OK_VEC) || o[1].kind != OK_ADDR)
            fail(P, at, "expected 'ld d, [address]'");
        break;
    case OP_ST:
        if (o[0].kind != OK_ADDR || o[1].kind == OK_ADDR)
            fail(P, at, "expected 'st [address], value'");
        break;
    case OP_ATOM:
        if (o[0].kind != OK_REG || o[1].kind != OK_ADDR)
            fail(P, at, "expected 'atom d, [address], b'");
        break;
    case OP_RED:
        if (o[0].kind != OK_ADDR)
            fail(P, at, "expected 'red [address], b'");
        break;
    case OP_PREFETCH:
        if (o[0].kind != OK_ADDR)
            fail(P, at, "expected 'prefetch [address]'");
        break;
    case OP_TEX:
        if (o[0].kind != OK_VEC || o[0].n != 4 || o[1].kind != OK_REG || o[2].kind != OK_VEC || o[2].n != 1)
            fail(P, at, "expected 'tex.1d.v4 {d0, d1, d2, d3}, [handle, {x}]'");
        break;
    case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT: case OP_BAR: case OP_MEMBAR: case OP_NOP:
        break;
    case OP_MOV:
        if ((o[0].kind != OK_REG && o[0].kind != OK_VEC) || o[1].kind == OK_ADDR)
            fail(P, at, "expected 'mov d, a'");
        if (o[0].kind == OK_VEC && o[1].kind != OK_REG)
            fail(P, at, "expected a register to unpack into {...}");
        break;
    default:
        if (o[0].kind != OK_REG)
            fail(P, at, "expected a destination register");
        for (unsigned i = 1; i < in->n_ops; i++)
            if (o[i].kind == OK_ADDR || o[i].kind == OK_VEC)
                fail(P, at, "unexpected %s operand", o[i].kind == OK_ADDR ? "address" : "vector");
        break;
    }
    if ((in->op == OP_LD || in->op == OP_ST) && in->vec > 1) {
        const PtxOperand *v = &o[in->op == OP_LD ? 0 : 1];
        if (v->kind != OK_VEC || v->n != in->vec)
            fail(P, at, "expected a {...} operand of %u registers for .v%u", in->vec, in->vec);
    }
    /* The parameter space an access names decides kernel buffer versus per-thread frame. */
    if (in->space == SP_PARAM_K && (in->op == OP_LD || in->op == OP_ST)) {
        const PtxOperand *a = &o[in->op == OP_LD ? 1 : 0];
        if (a->sym != PTX_NO_SYM && P->m->syms[a->sym].space == SP_PARAM_F)
            in->space = SP_PARAM_F;
        else if (in->op == OP_ST)
            fail(P, at, "st.param must name a call or function parameter");
    }
}

static void parse_instruction(Parser *P)
{
    uint16_t guard = PTX_NO_REG;
    bool guard_neg = false;
    if (accept(P, '@')) {
        guard_neg = accept(P, '!');
        guard = reg_operand(P, expect_word(P, "a predicate register after '@'"));
    }
    const Tok *mn = expect_word(P, "an instruction");
    PtxInst *in = new_inst(P);
    char why[192];
    if (!ptx_decode_mnemonic(mn->s, mn->len, in, why, sizeof why))
        fail(P, mn, "%s", why);
    in->guard = guard;
    if (guard_neg)
        in->flags |= PF_GUARD_NEG;
    in->line = mn->line;
    in->func = (uint8_t)P->cur_func;
    if (in->op == OP_CALL) {
        parse_call(P, in);
        return;
    }
    bool pipe_form = in->op == OP_SETP || in->op == OP_SHFL;
    unsigned n = 0;
    if (!is_punct(peek(P), ';')) {
        for (;;) {
            if (n >= PTX_MAX_OPS)
                fail(P, peek(P), "too many operands");
            if (in->op == OP_TEX && n == 1 && is_punct(peek(P), '[')) {
                parse_tex_operand(P, in);
                n = 3;
            } else {
                parse_operand(P, in, n, &in->o[n]);
                n++;
            }
            if (pipe_form && n == 1) {
                if (accept(P, '|')) {
                    parse_operand(P, in, n, &in->o[n]);
                    if (in->o[n].kind != OK_REG)
                        fail(P, mn, "expected a predicate after '|'");
                } else {
                    memset(&in->o[n], 0, sizeof in->o[n]);
                    in->o[n].reg = PTX_NO_REG;
                    in->o[n].sym = PTX_NO_SYM;
                }
                n++;
            }
            if (accept(P, ','))
                continue;
            break;
        }
    }
    if (in->op == OP_CLOCK) {
        n = 1;
    }
    in->n_ops = (uint8_t)n;
    {
        const Tok *t = peek(P);
        if (!is_punct(t, ';')) {
            char b[64];
            fail(P, t, "expected ';' after the operands of '%.*s', found %s", (int)mn->len, mn->s,
                 tok_desc(t, b, sizeof b));
        }
        next(P);
    }
    if (in->op == OP_SHFL && n == 6)
        in->n_ops = 5; /* the member mask does not change what converged code computes */
    check_operands(P, mn, in);
}

/* ---------------------------------------------------------------- functions */

static uint16_t *parse_param_list(Parser *P, uint32_t *n_out, bool kernel, int slot)
{
    uint16_t *ids = NULL;
    uint32_t n = 0, cap = 0;
    expect(P, '(');
    if (!accept(P, ')')) {
        do {
            const Tok *t = next(P);
            if (!is_word(t, ".param") && !is_word(t, ".reg")) {
                char b[64];
                fail(P, t, "expected .param in the parameter list, found %s", tok_desc(t, b, sizeof b));
            }
            if (is_word(t, ".reg"))
                fail(P, t, ".reg parameters are not supported");
            uint32_t before = P->m->n_syms;
            /* parse_var_decl wants a ';' terminator: parse the pieces by hand instead. */
            uint32_t align = 0, vec = 1;
            uint8_t et = PT_NONE;
            for (;;) {
                const Tok *q = peek(P);
                if (is_word(q, ".align")) {
                    next(P);
                    const Tok *num = next(P);
                    if (num->kind != TK_NUM)
                        fail(P, num, "expected an alignment after .align");
                    align = (uint32_t)lit_bits(parse_number(P, num, false), PT_U32);
                    if (!is_pow2_u64(align))
                        fail(P, num, "alignment must be a power of two");
                } else if (is_word(q, ".v2") || is_word(q, ".v4")) {
                    next(P);
                    vec = q->s[2] - '0';
                } else if (type_word(q) != PT_NONE) {
                    et = type_word(next(P));
                } else if (q->kind == TK_WORD && q->s[0] == '.') {
                    next(P); /* .ptr .global ... attributes */
                } else {
                    break;
                }
            }
            if (et == PT_NONE)
                fail(P, peek(P), "expected a parameter type");
            const Tok *name = expect_word(P, "a parameter name");
            uint64_t elems = 1;
            while (accept(P, '[')) {
                const Tok *num = next(P);
                if (num->kind != TK_NUM)
                    fail(P, num, "expected an array size");
                elems *= lit_bits(parse_number(P, num, false), PT_U64);
                expect(P, ']');
            }
            uint32_t eb = ptx_type_bytes(et) * vec;
            uint16_t id = new_symbol(P, name, kernel ? SP_PARAM_K : SP_PARAM_F, align ? align : eb,
                                     elems * eb);
            (void)before;
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
        } while (accept(P, ','));
        expect(P, ')');
    }
    *n_out = n;
    return ids;
}

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
            fail(P, t, "unknown label '%.*s'", (int)t->len, t->s);
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
        const Tok *t = peek(P);
        if (t->kind == TK_EOF)
            fail(P, t, "expected '}' to close function '%s'", P->m->funcs[fi].name);
        if (is_punct(t, '{')) {
            next(P);
            if (depth >= 63)
                fail(P, t, "blocks nested too deeply");
            scope_marks[depth++] = P->n_scope;
            continue;
        }
        if (is_punct(t, '}')) {
            next(P);
            P->n_scope = scope_marks[--depth];
            continue;
        }
        if (is_word(t, ".reg")) {
            parse_reg_decl(P);
            continue;
        }
        if (is_word(t, ".local") || is_word(t, ".shared") || is_word(t, ".param") ||
            is_word(t, ".global") || is_word(t, ".const")) {
            next(P);
            uint8_t sp = t->s[1] == 'l' ? SP_LOCAL : t->s[1] == 's' ? SP_SHARED :
                         t->s[1] == 'p' ? SP_PARAM_F : t->s[1] == 'g' ? SP_GLOBAL : SP_CONST;
            parse_var_decl(P, sp, false);
            continue;
        }
        if (t->kind == TK_WORD && t->s[0] == '.') {
            skip_directive(P);
            continue;
        }
        if (t->kind == TK_WORD && is_punct(&P->toks[P->pos + 1], ':')) {
            GROW(P->labels, P->n_labels, P->cap_labels);
            P->labels[P->n_labels].name = t->s;
            P->labels[P->n_labels].len = t->len;
            P->labels[P->n_labels++].inst = P->m->n_insts;
            P->pos += 2;
            continue;
        }
        parse_instruction(P);
    }
    f = &P->m->funcs[fi];
    f->n_insts = P->m->n_insts - f->first_inst;
    if (f->n_insts == 0 || (P->m->insts[P->m->n_insts - 1].op != OP_RET &&
                            P->m->insts[P->m->n_insts - 1].op != OP_EXIT &&
                            P->m->insts[P->m->n_insts - 1].op != OP_BRA)) {
        /* Falling off the end returns (nvcc always ends with ret; be lenient). */
        PtxInst *in = new_inst(P);
        memset(in, 0, sizeof *in);
        in->op = OP_RET;
        in->guard = PTX_NO_REG;
        in->rpc = PTX_NO_PC;
        in->vec = 1;
        in->func = (uint8_t)fi;
        in->line = peek(P)->line;
        f = &P->m->funcs[fi];
        f->n_insts++;
    }
    resolve_labels(P);
}

static void parse_function(Parser *P, bool entry)
{
    const Tok *kw = next(P);
    PtxModule *m = P->m;
    if (m->n_funcs >= 250)
        fail(P, kw, "too many functions in one module");
    uint16_t *rets = NULL;
    uint32_t n_rets = 0;
    P->cur_func = m->n_funcs; /* provisional, for parameter symbols */
    P->n_scope = 0;
    if (!entry && is_punct(peek(P), '('))
        rets = parse_param_list(P, &n_rets, false, 0);
    const Tok *name = expect_word(P, "a function name");
    int existing = find_func(m, name->s, name->len);
    uint32_t fi;
    if (existing >= 0) {
        if (m->funcs[existing].defined)
            fail(P, name, "function '%.*s' is defined twice", (int)name->len, name->s);
        fi = (uint32_t)existing;
        free(m->funcs[fi].rets);
        free(m->funcs[fi].params);
        /* re-home the return symbols parsed under the provisional index */
        for (uint32_t i = 0; i < n_rets; i++)
            m->syms[rets[i]].func = (uint16_t)fi;
    } else {
        GROW(m->funcs, m->n_funcs, P->cap_funcs);
        fi = m->n_funcs++;
        memset(&m->funcs[fi], 0, sizeof m->funcs[fi]);
        m->funcs[fi].name = tok_strdup(name);
    }
    P->cur_func = fi;
    PtxFunc *f = &m->funcs[fi];
    f->is_entry = entry;
    f->rets = rets;
    f->n_rets = n_rets;
    P->pending[0] = NULL;
    f->decl_line = name->line;
    uint16_t *params = NULL;
    uint32_t n_params = 0;
    if (is_punct(peek(P), '('))
        params = parse_param_list(P, &n_params, entry, 1);
    f = &m->funcs[fi];
    f->params = params;
    f->n_params = n_params;
    P->pending[1] = NULL;
    if (entry && n_params > PTX_MAX_PARAMS)
        fail(P, name, "kernel has more than %d parameters", PTX_MAX_PARAMS);
    /* performance directives (.maxntid 256, 1, 1 ...) up to the body or ';' */
    while (!is_punct(peek(P), '{') && !is_punct(peek(P), ';')) {
        if (peek(P)->kind == TK_EOF)
            fail(P, peek(P), "expected '{' or ';' after the function header");
        next(P);
    }
    if (accept(P, ';')) {
        P->cur_func = UINT32_MAX;
        P->n_scope = 0;
        return; /* a declaration */
    }
    expect(P, '{');
    f->defined = true;
    f->first_inst = m->n_insts;
    f->reg_base = P->next_reg;
    P->n_regdecl = 0;
    P->n_labels = 0;
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
        const Tok *t = peek(P);
        if (t->kind == TK_EOF)
            break;
        if (is_word(t, ".version")) {
            next(P);
            if (next(P)->kind != TK_NUM)
                fail(P, t, "expected a version number after .version");
            continue;
        }
        if (is_word(t, ".target")) {
            next(P);
            do
                expect_word(P, "a target name");
            while (accept(P, ','));
            continue;
        }
        if (is_word(t, ".address_size")) {
            next(P);
            const Tok *n = next(P);
            if (n->kind != TK_NUM || lit_bits(parse_number(P, n, false), PT_U32) != 64)
                fail(P, n, "expected .address_size 64");
            continue;
        }
        if (is_word(t, ".visible") || is_word(t, ".weak") || is_word(t, ".common")) {
            next(P);
            continue;
        }
        if (is_word(t, ".extern")) {
            next(P);
            is_extern = true;
            continue;
        }
        if (is_word(t, ".entry") || is_word(t, ".func")) {
            parse_function(P, t->s[1] == 'e');
            is_extern = false;
            continue;
        }
        if (is_word(t, ".global") || is_word(t, ".const") || is_word(t, ".shared")) {
            next(P);
            uint8_t sp = t->s[1] == 'g' ? SP_GLOBAL : t->s[1] == 'c' ? SP_CONST : SP_SHARED;
            parse_var_decl(P, sp, is_extern);
            is_extern = false;
            continue;
        }
        if (t->kind == TK_WORD && t->s[0] == '.') {
            skip_directive(P);
            is_extern = false;
            continue;
        }
        char b[64];
        fail(P, t, "expected a directive (.entry, .func, .global, ...), found %s", tok_desc(t, b, sizeof b));
    }
}

/* Functions reachable from f (bitmap over functions); also rejects recursion. */
static void reach(Parser *P, uint32_t f, uint8_t *state, uint8_t *mark)
{
    PtxModule *m = P->m;
    state[f] = 1;
    mark[f] = 1;
    const PtxFunc *fn = &m->funcs[f];
    for (uint32_t i = fn->first_inst; i < fn->first_inst + fn->n_insts; i++) {
        const PtxInst *in = &m->insts[i];
        if (in->op != OP_CALL)
            continue;
        uint32_t g = (uint32_t)in->o[0].imm;
        if (state[g] == 1) {
            Tok at = {0, 0, 0, in->line, NULL};
            fail(P, &at, "recursive call to '%s' is not supported", m->funcs[g].name);
        }
        if (state[g] == 0)
            reach(P, g, state, mark);
    }
    state[f] = 2;
}

static void finalize(Parser *P)
{
    PtxModule *m = P->m;
    m->special_base = 0;
    m->n_regs = P->next_reg;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        PtxInst *in = &m->insts[i];
        if (in->op == OP_CALL) {
            const PtxFunc *g = &m->funcs[in->o[0].imm];
            if (!g->defined) {
                if (!strcmp(g->name, "vprintf")) {
                    in->op = OP_NOP; /* device printf output is not modelled */
                    continue;
                }
                Tok at = {0, 0, 0, in->line, NULL};
                fail(P, &at, "function '%s' is called but never defined", g->name);
            }
        }
    }
    for (uint32_t f = 0; f < m->n_funcs; f++)
        if (m->funcs[f].defined)
            ptx_cfg_compute_rpc(m, f);
    m->statics = xcalloc(m->n_insts ? m->n_insts : 1, sizeof *m->statics);
    for (uint32_t i = 0; i < m->n_insts; i++)
        ptx_decode_static(m, i, &m->statics[i]);
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
    Tok *toks = lex(text, &n_toks, &bad_line);
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
            snprintf(err, err_len, "%s: cannot read: %s", path, strerror(errno));
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
