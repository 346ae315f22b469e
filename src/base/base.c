/* base.c: allocation, fatal errors, parsing and file helpers (see base.h). */
#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
    return read_file_max(path, len_out, READ_FILE_MAX_BYTES);
}

char *read_file_max(const char *path, size_t *len_out, size_t max_bytes)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return read_fail(fd, NULL, errno);
    if (S_ISDIR(st.st_mode))
        return read_fail(fd, NULL, EISDIR);
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes)
        return read_fail(fd, NULL, EFBIG);
    /* A regular file's size is only a hint (it may grow while read: room for one more byte
     * tells); devices and pipes say nothing. The buffer grows to one byte past the limit at
     * most, so an endless input is refused after that much. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len + 1 == cap) {
            if (len > max_bytes)
                return read_fail(fd, buf, EFBIG);
            cap = MIN(2 * cap, max_bytes + 2);
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

double peak_rss_mib(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_maxrss / 1024.0; /* Linux reports KiB */
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

/* ---- atomic file writes ---- */

/* path with its symbolic links followed (a relative link is relative to the link's folder);
 * a name that does not exist is returned as it is (a new file). */
static bool resolve_links(const char *path, char *out, size_t len)
{
    char link[4096];
    if (snprintf(out, len, "%s", path) >= (int)len) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (int depth = 0; depth < 32; depth++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return true;
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0)
            return false;
        link[n] = 0;
        char *slash = strrchr(out, '/');
        size_t keep = link[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1;
        if (keep + (size_t)n + 1 > len) {
            errno = ENAMETOOLONG;
            return false;
        }
        memcpy(out + keep, link, (size_t)n + 1);
    }
    errno = ELOOP;
    return false;
}

bool atomic_prepare(AtomicFile *a, const char *path)
{
    memset(a, 0, sizeof *a);
    a->mode = -1;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) { /* a device or a pipe (/dev/stdout): in place */
        if (snprintf(a->target, sizeof a->target, "%s", path) >= (int)sizeof a->target) {
            errno = ENAMETOOLONG;
            return false;
        }
        return true;
    }
    if (!resolve_links(path, a->target, sizeof a->target))
        return false;
    if (exists)
        a->mode = (int)(st.st_mode & 07777);
    if (snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", a->target, (long)getpid()) >= (int)sizeof a->tmp) {
        errno = ENAMETOOLONG;
        return false;
    }
    return true;
}

/* After the content was written and closed with error err (0: none): rename the temporary over
 * the target, or remove it on an error. Returns the first error. Async-signal-safe. */
static int atomic_finish(const AtomicFile *a, int err)
{
    if (!a->tmp[0])
        return err;
    if (!err && rename(a->tmp, a->target) != 0)
        err = errno;
    if (err) {
        unlink(a->tmp);
        return err;
    }
    /* The rename itself reaches the disk with the folder (best effort: some file systems
     * cannot sync a folder). */
    char dir[sizeof a->target];
    memcpy(dir, a->target, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = 0; /* "/f" -> "/", "d/f" -> "d" */
    int fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    return 0;
}

FILE *atomic_open(AtomicFile *a, const char *path)
{
    if (!atomic_prepare(a, path))
        return NULL;
    a->f = open_memstream(&a->buf, &a->len);
    return a->f;
}

bool atomic_commit(AtomicFile *a)
{
    int err = fclose(a->f) != 0 ? errno : 0;
    a->f = NULL;
    const char *bufs[] = { a->buf };
    if (!err)
        err = atomic_write_buffers(a, bufs, &a->len, 1);
    free(a->buf);
    a->buf = NULL;
    errno = err;
    return !err;
}

void atomic_discard(AtomicFile *a)
{
    if (a->f)
        fclose(a->f);
    free(a->buf);
    a->f = NULL;
    a->buf = NULL;
}

int atomic_write_buffers(const AtomicFile *a, const char *const *bufs, const size_t *lens, size_t n)
{
    int fd = open(a->tmp[0] ? a->tmp : a->target, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return errno;
    if (a->tmp[0] && a->mode >= 0)
        (void)fchmod(fd, (mode_t)a->mode); /* the replaced file's permissions */
    int err = 0;
    for (size_t i = 0; i < n && !err; i++)
        for (size_t done = 0; done < lens[i] && !err;) {
            ssize_t w = write(fd, bufs[i] + done, lens[i] - done);
            if (w >= 0)
                done += (size_t)w;
            else if (errno != EINTR)
                err = errno;
        }
    if (!err && a->tmp[0] && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    return atomic_finish(a, err);
}

bool atomic_write_file(const char *path, const char *text, size_t len)
{
    AtomicFile a;
    int err = atomic_prepare(&a, path) ? atomic_write_buffers(&a, &text, &len, 1) : errno;
    errno = err;
    return !err;
}
