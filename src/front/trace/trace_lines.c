/* trace_lines.c: bytes of a kernel file and the line reader over a window of them.
 *
 * The same reader serves the index pass (a large window, read once from the start) and every
 * resident warp (a small window from its own offset): pread keeps the warps independent of
 * one another and of any file position. */
#include "front/trace/trace_internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

long trace_source_read(const TraceSource *s, uint64_t off, char *buf, size_t n)
{
    if (off >= s->size)
        return 0;
    if (n > s->size - off)
        n = (size_t)(s->size - off);
    if (s->fd < 0) {
        memcpy(buf, s->mem + off, n);
        return (long)n;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(s->fd, buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long)got;
}

void trace_lines_init(TraceLines *r, const TraceSource *src, char *buf, uint32_t cap)
{
    memset(r, 0, sizeof *r);
    r->src = src;
    r->buf = buf;
    r->cap = cap;
}

void trace_lines_seek(TraceLines *r, uint64_t off, uint32_t line)
{
    r->off = off;
    r->start = r->end = 0;
    r->line = line - 1;
    r->eof = false;
}

/* Move what is left to the front and read more after it. */
static int refill(TraceLines *r, char *err, size_t err_len)
{
    uint32_t left = r->end - r->start;
    memmove(r->buf, r->buf + r->start, left);
    r->off += r->start;
    r->start = 0;
    r->end = left;
    long n = trace_source_read(r->src, r->off + left, r->buf + left, r->cap - left);
    if (n < 0) {
        snprintf(err, err_len, "%s: read error: %s", r->src->name, strerror(errno));
        return -1;
    }
    r->end += (uint32_t)n;
    r->eof = n == 0;
    return 0;
}

int trace_lines_next(TraceLines *r, char **line, uint64_t *line_off, char *err, size_t err_len)
{
    for (;;) {
        char *s = r->buf + r->start;
        char *nl = memchr(s, '\n', r->end - r->start);
        if (!nl && !r->eof && r->end - r->start < r->cap) {
            if (refill(r, err, err_len) < 0)
                return -1;
            continue;
        }
        if (!nl && r->end - r->start >= r->cap) {
            snprintf(err, err_len, "%s:%u: line longer than %u bytes", r->src->name, r->line + 1, r->cap - 1);
            return -1;
        }
        if (!nl && r->start == r->end)
            return 0; /* the end */
        char *e = nl ? nl : r->buf + r->end; /* the last line may lack its newline */
        *line_off = r->off + r->start;
        r->start = (uint32_t)(e - r->buf) + (nl != NULL);
        if (e > s && e[-1] == '\r')
            e--;
        *e = 0;
        r->line++;
        *line = s;
        return 1;
    }
}
