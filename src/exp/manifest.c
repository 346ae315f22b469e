/* manifest.c: see manifest.h. */
#include "exp/manifest.h"

#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static bool fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
{
    int n = snprintf(err, len, "%s:%d: ", path, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < len)
        vsnprintf(err + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* Copy s (blanks trimmed at both ends) into out; false if it does not fit. */
static bool trimmed(const char *s, size_t n, char *out, size_t cap)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n >= cap)
        return false;
    memcpy(out, s, n);
    out[n] = 0;
    return true;
}

static bool one_of(const char *s, const char *const *choices)
{
    for (; *choices; choices++)
        if (!strcmp(s, *choices))
            return true;
    return false;
}

static bool parse_line(char *line, const char *path, int ln, ManifestEntry *e, char *err, size_t len)
{
    char *bar1 = strchr(line, '|');
    char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2 || strchr(bar2 + 1, '|'))
        return fail(err, len, path, ln, "expected 'NAME SUITE CLASS CIAO PAPERS | SMALL ARGS | PAPER ARGS'");
    *bar1 = 0;
    char extra[8];
    int n = sscanf(line, "%63s %31s %15s %7s %95s %7s", e->name, e->suite, e->cls, e->ciao, e->papers, extra);
    if (n != 5)
        return fail(err, len, path, ln, "expected five fields before the first '|' (NAME SUITE CLASS CIAO PAPERS)");
    static const char *const classes[] = {"divergent", "coherent", NULL};
    static const char *const ciao[] = {"LWS", "SWS", "CI", "-", NULL};
    if (!one_of(e->cls, classes))
        return fail(err, len, path, ln, "class '%s': expected divergent or coherent", e->cls);
    if (!one_of(e->ciao, ciao))
        return fail(err, len, path, ln, "CIAO class '%s': expected LWS, SWS, CI or -", e->ciao);
    for (const char *p = e->name; *p; p++)
        if (!(('a' <= *p && *p <= 'z') || ('0' <= *p && *p <= '9') || *p == '-' || *p == '_'))
            return fail(err, len, path, ln, "name '%s': expected lower-case letters, digits, '-' and '_'", e->name);
    if (!trimmed(bar1 + 1, (size_t)(bar2 - bar1 - 1), e->small_args, sizeof e->small_args) ||
        !trimmed(bar2 + 1, strlen(bar2 + 1), e->paper_args, sizeof e->paper_args))
        return fail(err, len, path, ln, "argument list longer than %zu characters", sizeof e->small_args - 1);
    return true;
}

bool manifest_parse(const char *text, const char *path, Manifest *m, char *err, size_t err_len)
{
    memset(m, 0, sizeof *m);
    uint32_t cap = 0;
    int ln = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        ln++;
        char line[1024];
        if (n >= sizeof line) {
            manifest_free(m);
            return fail(err, err_len, path, ln, "line longer than %zu characters", sizeof line - 1);
        }
        memcpy(line, p, n);
        line[n] = 0;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        p = end ? end + 1 : p + n;
        if (strspn(line, " \t\r") == strlen(line))
            continue;
        if (m->n == cap) {
            cap = cap ? 2 * cap : 32;
            m->v = xrealloc(m->v, cap * sizeof *m->v);
        }
        ManifestEntry *e = &m->v[m->n];
        memset(e, 0, sizeof *e);
        if (!parse_line(line, path, ln, e, err, err_len)) {
            manifest_free(m);
            return false;
        }
        if (manifest_find(m, e->name)) {
            char name[64];
            snprintf(name, sizeof name, "%s", e->name);
            manifest_free(m);
            return fail(err, err_len, path, ln, "workload '%s' is listed twice", name);
        }
        m->n++;
    }
    return true;
}

bool manifest_load(Manifest *m, char *err, size_t err_len)
{
    char path[1024];
    data_path("workloads/manifest", path, sizeof path);
    char *text = read_file(path, NULL);
    if (!text) {
        snprintf(err, err_len, "%s: cannot read: %s", path, read_file_error(errno));
        return false;
    }
    bool ok = manifest_parse(text, path, m, err, err_len);
    free(text);
    return ok;
}

const ManifestEntry *manifest_find(const Manifest *m, const char *name)
{
    for (uint32_t i = 0; i < m->n; i++)
        if (!strcmp(m->v[i].name, name))
            return &m->v[i];
    return NULL;
}

void manifest_free(Manifest *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}
