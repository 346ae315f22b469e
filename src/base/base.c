/* base.c: allocation, fatal errors, parsing and file helpers (see base.h). */
#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void *oom(size_t n)
{
    fprintf(stderr, "warpsim: out of memory allocating %zu bytes\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *xcalloc(size_t count, size_t n)
{
    void *p = calloc(count ? count : 1, n ? n : 1);
    return p ? p : oom(count * n);
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom(n);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warpsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void check_failed(const char *expr, const char *file, int line)
{
    fprintf(stderr, "warpsim: internal error: CHECK(%s) failed at %s:%d\n", expr, file, line);
    abort();
}

bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool parse_f64(const char *s, double *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || v != v)
        return false;
    *out = v;
    return true;
}

char *str_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* Close fd, free buf and fail with err (kept: close may change errno). */
static char *read_fail(int fd, char *buf, int err)
{
    close(fd);
    free(buf);
    errno = err;
    return NULL;
}

char *read_file(const char *path, size_t *len_out)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return read_fail(fd, NULL, errno);
    if (S_ISDIR(st.st_mode))
        return read_fail(fd, NULL, EISDIR);
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > READ_FILE_MAX_BYTES)
        return read_fail(fd, NULL, EFBIG);
    /* A regular file's size is only a hint (it may grow while read: room for one more byte
     * tells); devices and pipes say nothing. The buffer grows to one byte past the limit at
     * most, so an endless input is refused after that much. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len + 1 == cap) {
            if (len > READ_FILE_MAX_BYTES)
                return read_fail(fd, buf, EFBIG);
            cap = MIN(2 * cap, READ_FILE_MAX_BYTES + 2);
            buf = xrealloc(buf, cap);
        }
        ssize_t got = read(fd, buf + len, cap - len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return read_fail(fd, buf, errno);
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    buf[len] = 0;
    if (len_out)
        *len_out = len;
    return buf;
}

const char *read_file_error(int err)
{
    if (err == EFBIG)
        return "larger than the " STR(READ_FILE_MAX_MIB) " MiB limit on input files";
    return strerror(err);
}

double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *data_path(const char *rel, char *buf, size_t len)
{
    const char *home = getenv("WARPSIM_HOME");
    struct stat st;
    if (home && *home) {
        snprintf(buf, len, "%s/%s", home, rel);
        return buf;
    }
    snprintf(buf, len, "%s", rel);
    if (rel[0] == '/' || stat(buf, &st) == 0)
        return buf;
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(buf, len, "%s/../%s", exe, rel);
            if (stat(buf, &st) == 0)
                return buf;
        }
    }
    snprintf(buf, len, "%s", rel);
    return buf;
}

bool mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}
