/* ptx_link.c: one module from the PTX of several objects, what nvlink makes of a program built
 * with relocatable device code (nvcc -rdc=true), where a kernel or function of one .cu file may
 * be declared `.extern` and defined in another.
 *
 * The link works on the text, so that the parser sees one ordinary module (and the messages
 * cite lines of the linked text, which the caller keeps). Module-scope statements are read
 * with their linkage (.visible, .extern, .weak, .common or none) and the name they declare:
 *   - an `.extern` function or kernel declaration stays where it is: the parser takes a
 *     declaration followed, later in the text, by the definition, so references made before
 *     the defining object's text still resolve;
 *   - a variable's definition with external linkage (.visible, .weak, .common) moves ahead of
 *     all objects' text, and the `.extern` declarations of it go: a variable must be declared
 *     before it is used, and a definition may follow its declaration in another object;
 *   - of several `.weak` (or `.common`) definitions of a name, the first is kept, or the
 *     `.visible` one if there is one (templates instantiated in several objects);
 *   - two `.visible` definitions of one name are an error naming both objects;
 *   - a name without linkage (a static function or variable, or a string constant such as
 *     nvcc's $str) belongs to its object: where another object also declares that name at
 *     module scope, it is renamed NAME_$oN (N: its object's number, from 1) throughout its
 *     object's text;
 *   - .version, .target and .address_size are taken from the first object.
 * What is not resolved here (an extern name no object defines) is left for the parser to
 * report as it would in a single object. */
#include "front/ptx/ptx.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { LINK_NONE, LINK_VISIBLE, LINK_EXTERN, LINK_WEAK } Linkage;

/* One module-scope statement of an object: text[start, end). */
typedef struct Stmt {
    size_t start, end;
    size_t name, name_len; /* offset and length of the declared name (name_len 0: none) */
    Linkage linkage;
    bool is_func;          /* .func or .entry */
    bool is_def;           /* a function with a body, or a variable that is not .extern */
    bool header;           /* .version, .target or .address_size */
    bool drop, hoist;      /* decided by the link */
} Stmt;

typedef struct Object {
    const char *text;
    Stmt *stmts;
    uint32_t n, cap;
    uint32_t number; /* from 1, for messages and the renamed names */
    char **renamed;  /* its names to rename */
    uint32_t n_renamed;
} Object;

static void fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static bool word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool word_char(char c)
{
    return word_start(c) || (c >= '0' && c <= '9');
}

/* Past a comment or string starting at p, or p itself if none starts there. */
static const char *skip_comment(const char *p)
{
    if (p[0] == '/' && p[1] == '/') {
        while (*p && *p != '\n')
            p++;
    } else if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        p = e ? e + 2 : p + strlen(p);
    } else if (p[0] == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        if (*p)
            p++;
    }
    return p;
}

static bool is_word(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && !memcmp(s, w, len);
}

/* Read the statement starting at p (module scope, past blanks and comments) into *st; the
 * end of the text gives false. */
static bool read_stmt(const char *text, const char *p, Stmt *st)
{
    memset(st, 0, sizeof *st);
    for (const char *q; *p; p = q) { /* the blanks and comments before it are not part of it */
        q = skip_comment(p);
        if (q == p && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            q = p + 1;
        if (q == p)
            break;
    }
    if (!*p)
        return false;
    st->start = (size_t)(p - text);
    int paren = 0, brace = 0;
    bool first = true, is_var = false, is_extern = false;
    while (*p) {
        const char *q = skip_comment(p);
        if (q != p) {
            p = q;
            continue;
        }
        char c = *p;
        if (word_start(c)) {
            const char *w = p;
            while (word_char(*p))
                p++;
            size_t len = (size_t)(p - w);
            if (brace)
                continue;
            if (first && (is_word(w, len, ".version") || is_word(w, len, ".target") ||
                          is_word(w, len, ".address_size") || is_word(w, len, ".file"))) {
                while (*p && *p != '\n') /* these end with their line */
                    p++;
                st->header = !is_word(w, len, ".file");
                st->end = (size_t)(p - text);
                return true;
            }
            first = false;
            if (is_word(w, len, ".visible"))
                st->linkage = LINK_VISIBLE;
            else if (is_word(w, len, ".extern"))
                is_extern = true;
            else if (is_word(w, len, ".weak") || is_word(w, len, ".common"))
                st->linkage = LINK_WEAK;
            else if (is_word(w, len, ".func") || is_word(w, len, ".entry"))
                st->is_func = true;
            else if (is_word(w, len, ".global") || is_word(w, len, ".const") || is_word(w, len, ".shared"))
                is_var = true;
            else if (!paren && !st->name_len && w[0] != '.' && w[0] != '%') {
                st->name = (size_t)(w - text);
                st->name_len = len;
            }
            continue;
        }
        first = false;
        p++;
        if (c == '(')
            paren++;
        else if (c == ')')
            paren--;
        else if (c == '{' && st->is_func && !paren && !brace)
            st->is_def = true, brace = 1;
        else if (c == '{' && brace)
            brace++;
        else if (c == '}' && brace && --brace == 0)
            break;
        else if (c == ';' && !brace)
            break;
    }
    if (is_extern)
        st->linkage = LINK_EXTERN;
    if (is_var && !is_extern)
        st->is_def = true;
    if (!st->is_func && !is_var)
        st->name_len = 0; /* another directive (.pragma, ...): nothing declared */
    st->end = (size_t)(p - text);
    return true;
}

static void scan(Object *o)
{
    const char *p = o->text;
    Stmt st;
    while (read_stmt(o->text, p, &st)) {
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 64;
            o->stmts = xrealloc(o->stmts, o->cap * sizeof *o->stmts);
        }
        o->stmts[o->n++] = st;
        p = o->text + st.end;
    }
}

static bool same_name(const Object *a, const Stmt *x, const Object *b, const Stmt *y)
{
    return x->name_len && x->name_len == y->name_len && !memcmp(a->text + x->name, b->text + y->name, x->name_len);
}

/* Another object declares x's name at module scope. */
static bool named_elsewhere(const Object *objs, uint32_t n, uint32_t self, const Stmt *x)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; i != self && k < objs[i].n; k++)
            if (same_name(&objs[self], x, &objs[i], &objs[i].stmts[k]))
                return true;
    return false;
}

/* The definition with external linkage that name resolves to (the first .visible one, else
 * the first .weak one), or false. */
static bool find_def(const Object *objs, uint32_t n, const Object *o, const Stmt *x, uint32_t *oi, uint32_t *si)
{
    bool found = false;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < objs[i].n; k++) {
            const Stmt *y = &objs[i].stmts[k];
            if (!y->is_def || (y->linkage != LINK_VISIBLE && y->linkage != LINK_WEAK) || !same_name(o, x, &objs[i], y))
                continue;
            if (!found || (y->linkage == LINK_VISIBLE && objs[*oi].stmts[*si].linkage != LINK_VISIBLE)) {
                *oi = i;
                *si = k;
                found = true;
            }
        }
    return found;
}

static bool decide(Object *objs, uint32_t n, char *err, size_t err_len)
{
    for (uint32_t i = 0; i < n; i++) {
        Object *o = &objs[i];
        for (uint32_t k = 0; k < o->n; k++) {
            Stmt *x = &o->stmts[k];
            if (x->header && i > 0)
                x->drop = true;
            if (!x->name_len)
                continue;
            uint32_t di = 0, dk = 0;
            if (x->linkage == LINK_NONE) {
                if (named_elsewhere(objs, n, i, x)) {
                    bool listed = false;
                    for (uint32_t r = 0; r < o->n_renamed; r++)
                        listed |= strlen(o->renamed[r]) == x->name_len &&
                                  !memcmp(o->renamed[r], o->text + x->name, x->name_len);
                    if (!listed) {
                        o->renamed = xrealloc(o->renamed, (o->n_renamed + 1) * sizeof *o->renamed);
                        char *nm = xmalloc(x->name_len + 1);
                        memcpy(nm, o->text + x->name, x->name_len);
                        nm[x->name_len] = 0;
                        o->renamed[o->n_renamed++] = nm;
                    }
                }
                continue;
            }
            bool have_def = find_def(objs, n, o, x, &di, &dk);
            if (x->is_def && x->linkage != LINK_EXTERN) {
                const Stmt *d = &objs[di].stmts[dk];
                if (x->linkage == LINK_VISIBLE && d != x) {
                    fail(err, err_len, "ptx link: '%.*s' is defined in object %u and again in object %u",
                         (int)x->name_len, o->text + x->name, di + 1, i + 1);
                    return false;
                }
                x->drop = d != x; /* a .weak copy of what another definition gives */
                x->hoist = !x->drop && !x->is_func;
            } else if (x->is_func && have_def && di < i) {
                x->drop = true; /* declared after its definition: the parser wants it once */
            } else if (!x->is_func && have_def) {
                x->drop = true; /* the definition is hoisted before every use */
            } else if (!x->is_func && x->linkage == LINK_EXTERN) {
                /* an undefined extern variable (.extern .shared: the dynamic shared memory):
                 * one declaration of it */
                for (uint32_t j = 0; j <= i && !x->drop; j++)
                    for (uint32_t q = 0; q < (j == i ? k : objs[j].n) && !x->drop; q++)
                        x->drop = same_name(o, x, &objs[j], &objs[j].stmts[q]);
            }
        }
    }
    return true;
}

typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = MAX(b->len + n + 1, b->cap * 2);
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

/* Append o's text[from, to) to b, renaming o's listed names. */
static void emit(Buf *b, const Object *o, size_t from, size_t to)
{
    const char *t = o->text;
    for (size_t i = from; i < to;) {
        size_t j = MIN((size_t)(skip_comment(t + i) - t), to);
        if (j > i) { /* comments and strings are copied as they are */
            put(b, t + i, j - i);
            i = j;
            continue;
        }
        size_t e = i;
        while (e < to && word_char(t[e]))
            e++;
        if (e == i) {
            put(b, t + i, 1);
            i++;
            continue;
        }
        put(b, t + i, e - i);
        if (!word_start(t[i])) { /* a number (0f3F800000 is one too) */
            i = e;
            continue;
        }
        for (uint32_t r = 0; r < o->n_renamed; r++)
            if (strlen(o->renamed[r]) == e - i && !memcmp(o->renamed[r], t + i, e - i)) {
                char suffix[16];
                put(b, suffix, (size_t)snprintf(suffix, sizeof suffix, "_$o%u", o->number));
            }
        i = e;
    }
}

/* One statement on a line of its own. */
static void emit_stmt(Buf *b, const Object *o, const Stmt *x)
{
    emit(b, o, x->start, x->end);
    put(b, "\n", 1);
}

char *ptx_link(const char *const *texts, uint32_t n, char *err, size_t err_len)
{
    if (n == 0) {
        fail(err, err_len, "ptx link: no objects");
        return NULL;
    }
    Object *objs = xcalloc(n, sizeof *objs);
    for (uint32_t i = 0; i < n; i++) {
        objs[i].text = texts[i];
        objs[i].number = i + 1;
        scan(&objs[i]);
    }
    Buf b = {0};
    if (decide(objs, n, err, err_len)) {
        /* the first object's header, the hoisted variables, then every object's text */
        for (uint32_t k = 0; k < objs[0].n && objs[0].stmts[k].header; k++) {
            emit_stmt(&b, &objs[0], &objs[0].stmts[k]);
            objs[0].stmts[k].drop = true;
        }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < objs[i].n; k++)
                if (objs[i].stmts[k].hoist)
                    emit_stmt(&b, &objs[i], &objs[i].stmts[k]);
        for (uint32_t i = 0; i < n; i++) {
            size_t at = 0;
            for (uint32_t k = 0; k < objs[i].n; k++) {
                const Stmt *x = &objs[i].stmts[k];
                if (!x->drop && !x->hoist)
                    continue;
                emit(&b, &objs[i], at, x->start);
                at = x->end;
            }
            emit(&b, &objs[i], at, strlen(objs[i].text));
            put(&b, "\n", 1);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t r = 0; r < objs[i].n_renamed; r++)
            free(objs[i].renamed[r]);
        free(objs[i].renamed);
        free(objs[i].stmts);
    }
    free(objs);
    return b.p; /* NULL after a failed decide: nothing was put */
}
