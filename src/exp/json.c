/* json.c: a recursive-descent JSON reader (RFC 8259) for the result files of `warpsim run`.
 *
 * Only what a reader of our own result files needs, but strict: anything that is not JSON is
 * an error naming the line, never a guess. Recursion is bounded by JSON_MAX_DEPTH so hostile
 * input cannot overflow the stack. Strings are decoded to UTF-8 (\uXXXX escapes, surrogate
 * pairs included). */
#include "exp/json.h"

#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Parser {
    const char *p;
    const char *start;
    char *err;
    size_t err_len;
    bool failed;
} Parser;

static unsigned line_of(const Parser *ps)
{
    unsigned line = 1;
    for (const char *q = ps->start; q < ps->p; q++)
        line += *q == '\n';
    return line;
}

__attribute__((format(printf, 2, 3))) static void fail(Parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    int n = snprintf(ps->err, ps->err_len, "line %u: ", line_of(ps));
    if (n < 0 || (size_t)n >= ps->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->err_len - (size_t)n, fmt, ap);
    va_end(ap);
}

static void skip_ws(Parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static bool parse_value(Parser *ps, JsonValue *v, int depth);

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static void put_utf8(char *out, size_t *k, uint32_t cp)
{
    if (cp < 0x80) {
        out[(*k)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*k)++] = (char)(0xC0 | (cp >> 6));
        out[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*k)++] = (char)(0xE0 | (cp >> 12));
        out[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*k)++] = (char)(0xF0 | (cp >> 18));
        out[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*k)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* At the opening quote; returns a malloc'd decoded string or NULL on error. The decoded text is
 * never longer than the source, so the source length bounds the buffer. */
static char *parse_string(Parser *ps)
{
    const char *q = ++ps->p;
    while (*q && *q != '"')
        q += (*q == '\\' && q[1]) ? 2 : 1;
    if (!*q) {
        fail(ps, "unterminated string");
        return NULL;
    }
    char *out = xmalloc((size_t)(q - ps->p) + 1);
    size_t k = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            fail(ps, "control character in string (escape it)");
            goto bad;
        }
        if (c != '\\') {
            out[k++] = (char)c;
            ps->p++;
            continue;
        }
        char e = ps->p[1];
        ps->p += 2;
        switch (e) {
        case '"': out[k++] = '"'; break;
        case '\\': out[k++] = '\\'; break;
        case '/': out[k++] = '/'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case 'u': {
            int cp = hex4(ps->p);
            if (cp < 0) {
                fail(ps, "expected 4 hex digits after \\u");
                goto bad;
            }
            ps->p += 4;
            uint32_t code = (uint32_t)cp;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                int lo = hex4(ps->p + 2);
                if (lo >= 0xDC00 && lo < 0xE000) {
                    code = 0x10000 + (((uint32_t)cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    ps->p += 6;
                }
            }
            if (code == 0) {
                fail(ps, "\\u0000 is not allowed in a string");
                goto bad;
            }
            put_utf8(out, &k, code);
            break;
        }
        default:
            fail(ps, "unknown escape '\\%c' in string", e ? e : '0');
            goto bad;
        }
    }
    ps->p++;
    out[k] = 0;
    return out;
bad:
    free(out);
    return NULL;
}

static bool parse_number(Parser *ps, JsonValue *v)
{
    const char *s = ps->p, *q = s;
    if (*q == '-')
        q++;
    if (*q == '0') {
        q++;
    } else if (*q >= '1' && *q <= '9') {
        while (*q >= '0' && *q <= '9')
            q++;
    } else {
        fail(ps, "expected a value");
        return false;
    }
    bool integer = true;
    if (*q == '.') {
        integer = false;
        q++;
        if (!(*q >= '0' && *q <= '9')) {
            fail(ps, "expected a digit after '.'");
            return false;
        }
        while (*q >= '0' && *q <= '9')
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        integer = false;
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!(*q >= '0' && *q <= '9')) {
            fail(ps, "expected a digit in the exponent");
            return false;
        }
        while (*q >= '0' && *q <= '9')
            q++;
    }
    v->type = JSON_NUMBER;
    v->number = strtod(s, NULL);
    if (integer && *s != '-') {
        errno = 0;
        unsigned long long u = strtoull(s, NULL, 10);
        if (!errno) {
            v->is_uint = true;
            v->uint = u;
        }
    }
    ps->p = q;
    return true;
}

static bool parse_container(Parser *ps, JsonValue *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    uint32_t cap = 0;
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    ps->p++;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            v->items = xrealloc(v->items, cap * sizeof *v->items);
            if (object)
                v->keys = xrealloc(v->keys, cap * sizeof *v->keys);
        }
        skip_ws(ps);
        if (object) {
            if (*ps->p != '"') {
                fail(ps, "expected a member name in double quotes");
                return false;
            }
            char *key = parse_string(ps);
            if (!key)
                return false;
            v->keys[v->n] = key;
            skip_ws(ps);
            if (*ps->p != ':') {
                free(key);
                fail(ps, "expected ':' after member name");
                return false;
            }
            ps->p++;
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        v->n++;
        if (!parse_value(ps, &v->items[v->n - 1], depth + 1))
            return false;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            return true;
        }
        fail(ps, "expected ',' or '%c'", close);
        return false;
    }
}

static bool parse_value(Parser *ps, JsonValue *v, int depth)
{
    if (depth > JSON_MAX_DEPTH) {
        fail(ps, "nesting deeper than %d levels", JSON_MAX_DEPTH);
        return false;
    }
    skip_ws(ps);
    switch (*ps->p) {
    case '{': return parse_container(ps, v, depth, true);
    case '[': return parse_container(ps, v, depth, false);
    case '"':
        v->type = JSON_STRING;
        v->string = parse_string(ps);
        return v->string != NULL;
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[] = { "true", "false", "null" };
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(words[i]);
            if (!strncmp(ps->p, words[i], n)) {
                ps->p += n;
                v->type = i == 2 ? JSON_NULL : JSON_BOOL;
                v->boolean = i == 0;
                return true;
            }
        }
        fail(ps, "expected a value");
        return false;
    }
    case 0: fail(ps, "unexpected end of input"); return false;
    default: return parse_number(ps, v);
    }
}

static void free_members(JsonValue *v)
{
    for (uint32_t i = 0; i < v->n; i++) {
        free_members(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

void json_free(JsonValue *v)
{
    if (!v)
        return;
    free_members(v);
    free(v);
}

JsonValue *json_parse(const char *text, char *err, size_t err_len)
{
    Parser ps = { text, text, err, err_len, false };
    if (err_len)
        err[0] = 0;
    JsonValue *v = xcalloc(1, sizeof *v);
    if (parse_value(&ps, v, 0)) {
        skip_ws(&ps);
        if (!*ps.p)
            return v;
        fail(&ps, "unexpected text after the end of the document");
    }
    json_free(v);
    return NULL;
}

const JsonValue *json_get(const JsonValue *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT)
        return NULL;
    for (uint32_t i = v->n; i-- > 0;)
        if (!strcmp(v->keys[i], key))
            return &v->items[i];
    return NULL;
}

double json_number(const JsonValue *v, double def)
{
    return v && v->type == JSON_NUMBER ? v->number : def;
}

const char *json_str(const JsonValue *v) { return v && v->type == JSON_STRING ? v->string : NULL; }
