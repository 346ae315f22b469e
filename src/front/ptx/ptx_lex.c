/* ptx_lex.c: the bottom layer of the PTX parser: the tokenizer, error reporting at a token,
 * numeric literals and type names (PTX ISA manual, chapter 4: syntax).
 *
 * The lexer turns the whole text into one token array ending with TK_EOF, so the parser can look
 * ahead freely; tokens point into the text. Words include the leading '.' or '%' and qualifiers
 * joined by "::" (L1::no_allocate is one word), so directives, registers and mnemonics need no
 * second pass. A literal is kept untyped (Lit) until the instruction it belongs to says how to
 * read it, because "1.0" and "0f3F800000" mean different bits as .f32, .f64 or an integer. */
#include "front/ptx/ptx_parse_internal.h"

#include "front/ptx/ptx_value.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- lexer */

static bool word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static bool word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

Tok *ptx_lex(const char *text, uint32_t *n_out, uint32_t *bad_line)
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

/* ---------------------------------------------------------------- errors and expectations */

_Noreturn void ptx_parse_fail(Parser *P, const Tok *t, const char *fmt, ...)
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

const char *ptx_tok_desc(const Tok *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF)
        snprintf(buf, n, "end of file");
    else
        snprintf(buf, n, "'%.*s'", (int)MIN(t->len, 40u), t->s);
    return buf;
}

void ptx_expect(Parser *P, char c)
{
    if (!ptx_accept(P, c)) {
        char b[64];
        ptx_parse_fail(P, ptx_peek(P), "expected '%c', found %s", c,
                       ptx_tok_desc(ptx_peek(P), b, sizeof b));
    }
}

const Tok *ptx_expect_word(Parser *P, const char *what)
{
    const Tok *t = ptx_next(P);
    if (t->kind != TK_WORD) {
        char b[64];
        ptx_parse_fail(P, t, "expected %s, found %s", what, ptx_tok_desc(t, b, sizeof b));
    }
    return t;
}

char *ptx_tok_strdup(const Tok *t)
{
    char *s = xmalloc(t->len + 1);
    memcpy(s, t->s, t->len);
    s[t->len] = 0;
    return s;
}

/* ---------------------------------------------------------------- literals */

Lit ptx_parse_number(Parser *P, const Tok *t, bool neg)
{
    char buf[80];
    if (t->len >= sizeof buf)
        ptx_parse_fail(P, t, "number too long");
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
        ptx_parse_fail(P, t, "malformed number '%.*s'", (int)t->len, t->s);
    return l;
}

uint64_t ptx_lit_bits(Lit l, uint8_t t)
{
    if (t == PT_F32) {
        switch (l.kind) {
        case LIT_INT: return ptx_from_f32((float)(int64_t)l.bits);
        case LIT_F32: return l.bits;
        case LIT_F64: return ptx_from_f32((float)ptx_as_f64(l.bits));
        default: return ptx_from_f32((float)l.d);
        }
    }
    if (t == PT_F64) {
        switch (l.kind) {
        case LIT_INT: return ptx_from_f64((double)(int64_t)l.bits);
        case LIT_F32: return ptx_from_f64((double)ptx_as_f32(l.bits));
        case LIT_F64: return l.bits;
        default: return ptx_from_f64(l.d);
        }
    }
    if (t == PT_PRED)
        return l.kind == LIT_DEC ? l.d != 0 : l.bits != 0;
    if (l.kind == LIT_DEC)
        return (uint64_t)(int64_t)l.d;
    return l.bits;
}

/* A number token as an operand or initialiser of type t. A decimal literal with a fraction or
 * an exponent in an integer context is truncated as C does, so it must fit in 64 bits. */
uint64_t ptx_parse_value(Parser *P, const Tok *t, bool neg, uint8_t type)
{
    Lit l = ptx_parse_number(P, t, neg);
    bool integer = type != PT_F32 && type != PT_F64 && type != PT_PRED;
    if (integer && l.kind == LIT_DEC && !(l.d >= -0x1p63 && l.d < 0x1p63))
        ptx_parse_fail(P, t, "'%.*s' as an integer: expected a value within 64 bits", (int)t->len, t->s);
    return ptx_lit_bits(l, type);
}

/* ---------------------------------------------------------------- type names */

uint8_t ptx_type_word(const Tok *t)
{
    static const char *const names[PT_COUNT] = {
        "", ".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
        ".s64", ".f16", ".f16x2", ".bf16", ".f32", ".f64", ".pred",
    };
    for (unsigned i = 1; i < PT_COUNT; i++)
        if (ptx_is_word(t, names[i]))
            return (uint8_t)i;
    return PT_NONE;
}
