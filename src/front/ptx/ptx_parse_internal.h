/* ptx_parse_internal.h: what the files of the PTX parser share (internal to src/front/ptx): the
 * token array, the parser state, the token cursor and the entry points of each layer.
 *
 * The parser is split by layer, each file using only those listed before it:
 *     ptx_lex.c         tokens, the cursor's error reporting, numeric literals, type names
 *     ptx_decl.c        symbols and registers: lookup, variable, .reg and parameter declarations
 *     ptx_parse_inst.c  instructions and their operands
 *     ptx_parse.c       function bodies, the module, per-kernel layouts, ptx_module_parse
 * Every error goes through ptx_parse_fail, which longjmps back to ptx_module_parse; so nothing
 * below it returns failure, and whatever it allocates must be reachable from the Parser or the
 * module to be freed. */
#ifndef WARPSIM_PTX_PARSE_INTERNAL_H
#define WARPSIM_PTX_PARSE_INTERNAL_H

#include "front/ptx/ptx_ir.h"

#include "base/base.h"

#include <setjmp.h>
#include <string.h>

enum { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT };

/* A token points into the PTX text, which outlives the parse. */
typedef struct Tok {
    uint8_t kind;
    char c; /* TK_PUNCT */
    uint32_t len;
    uint32_t line;
    const char *s;
} Tok;

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

/* A call prototype of the function being parsed (name: .callprototype (rets) _ (args);): what
 * a call through a register names instead of its callee. */
typedef struct Proto {
    const char *name;
    uint32_t len, n_ret, n_arg;
} Proto;

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
    Proto *protos;
    uint32_t n_protos, cap_protos;
    Fixup *fixups;
    uint32_t n_fixups, cap_fixups;
    uint32_t next_reg;
    uint16_t *pending[2]; /* parameter lists not yet owned by a function (freed on error) */
    uint64_t init_bytes;  /* of the initialised variables so far (PTX_MAX_INIT_BYTES) */
} Parser;

#define GROW(p, n, cap)                                                     \
    do {                                                                    \
        if ((n) >= (cap)) {                                                 \
            (cap) = (cap) ? 2 * (cap) : 16;                                 \
            (p) = xrealloc((p), (size_t)(cap) * sizeof *(p));               \
        }                                                                   \
    } while (0)

/* A numeric literal before it knows the type it is read as. */
enum { LIT_INT, LIT_F32, LIT_F64, LIT_DEC };
typedef struct Lit {
    int kind;
    uint64_t bits;
    double d;
} Lit;

/* ---- the token cursor (the array always ends with TK_EOF, which next never passes) ---- */

static inline const Tok *ptx_peek(Parser *P) { return &P->toks[P->pos]; }
static inline const Tok *ptx_next(Parser *P)
{
    const Tok *t = &P->toks[P->pos];
    if (t->kind != TK_EOF)
        P->pos++;
    return t;
}
static inline bool ptx_is_punct(const Tok *t, char c) { return t->kind == TK_PUNCT && t->c == c; }
static inline bool ptx_is_word(const Tok *t, const char *w)
{
    return t->kind == TK_WORD && t->len == strlen(w) && !memcmp(t->s, w, t->len);
}
static inline bool ptx_accept(Parser *P, char c)
{
    if (ptx_is_punct(ptx_peek(P), c)) {
        P->pos++;
        return true;
    }
    return false;
}

/* ---- ptx_lex.c ---- */

/* Tokenize the whole text; NULL (with *bad_line) on a character PTX does not use. */
Tok *ptx_lex(const char *text, uint32_t *n_out, uint32_t *bad_line);
/* Stop the parse with "file:line: message" at token t (line 0 when t is NULL). */
_Noreturn void ptx_parse_fail(Parser *P, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *ptx_tok_desc(const Tok *t, char *buf, size_t n);
void ptx_expect(Parser *P, char c);
const Tok *ptx_expect_word(Parser *P, const char *what);
char *ptx_tok_strdup(const Tok *t);
Lit ptx_parse_number(Parser *P, const Tok *t, bool neg);
/* The bits a literal has when read as type t. */
uint64_t ptx_lit_bits(Lit l, uint8_t t);
uint64_t ptx_parse_value(Parser *P, const Tok *t, bool neg, uint8_t type);
/* The PtxType a type word (.u32, .f64, ...) names, or PT_NONE. */
uint8_t ptx_type_word(const Tok *t);

/* ---- ptx_decl.c ---- */

/* The innermost symbol of that name in scope, or PTX_NO_SYM. */
uint16_t ptx_find_symbol(Parser *P, const Tok *t);
int ptx_find_func(const PtxModule *m, const char *s, size_t len);
/* Register id of a name, or PTX_NO_REG. Special registers occupy ids 0..SR_COUNT-1. */
uint16_t ptx_find_reg(Parser *P, const Tok *t);
void ptx_parse_var_decl(Parser *P, uint8_t space, bool is_extern);
void ptx_parse_reg_decl(Parser *P);
/* (.param ..., ...): the parameters' symbol ids; P->pending[slot] owns them until the caller
 * takes them. */
uint16_t *ptx_parse_param_list(Parser *P, uint32_t *n_out, bool kernel, int slot);

/* ---- ptx_parse_inst.c ---- */

PtxInst *ptx_new_inst(Parser *P);
/* [@guard] mnemonic operands ; */
void ptx_parse_instruction(Parser *P);
/* name : .callprototype [(ret)] _ (args) ; */
void ptx_parse_callprototype(Parser *P);

#endif
