/* trace_list.c: kernelslist.g, the order of a traced program's copies and kernels:
 *
 *   MemcpyHtoD,0x00007f2a4c000000,4096     a host-to-device copy: address (hex), bytes
 *   kernel-1.traceg                         a kernel: its file, beside the list
 *
 * Lines are run in order. warpsim's writer also records device-to-host copies, as
 * "MemcpyDtoH,ADDRESS,BYTES" (Accel-Sim's tracer records only the other direction), since
 * both touch the L2 in warpsim's timing model. A kernel line may name a .xz file; one naming a
 * .traceg that is missing is read from the .traceg.xz beside it when that exists. */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool copy_line(char *s, TraceCmd *c, char *why, size_t why_len)
{
    char *f[5];
    int n = 0;
    for (char *p = s; n < 5; n++) {
        f[n] = p;
        p = strchr(p, ',');
        if (!p) {
            n++;
            break;
        }
        *p++ = 0;
    }
    /* a fourth field (a data dump's file, written by some tracer versions) is not needed */
    if (n < 3 || n > 4) {
        snprintf(why, why_len, "expected COPY,ADDRESS,BYTES");
        return false;
    }
    char *a = str_trim(f[1]), *end;
    errno = 0;
    unsigned long long addr = strtoull(a, &end, 16);
    uint64_t bytes;
    if (errno || end == a || *end || !parse_u64(str_trim(f[2]), &bytes)) {
        snprintf(why, why_len, "expected a hex address and a decimal byte count");
        return false;
    }
    c->addr = addr;
    c->bytes = bytes;
    return true;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool trace_list_parse(const char *text, size_t len, const char *dir, const char *name, TraceList *out, char *err,
                      size_t err_len)
{
    memset(out, 0, sizeof *out);
    out->name = xstrdup(name);
    uint32_t cap = 0, line = 0;
    const char *p = text, *end = text + len;
    char why[200];
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        char buf[1024];
        line++;
        if ((size_t)(e - p) >= sizeof buf) {
            snprintf(err, err_len, "%s:%u: line too long", name, line);
            goto fail;
        }
        memcpy(buf, p, (size_t)(e - p));
        buf[e - p] = 0;
        p = nl ? nl + 1 : end;
        char *s = str_trim(buf);
        if (!s[0])
            continue;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 16;
            out->cmds = xrealloc(out->cmds, cap * sizeof *out->cmds);
        }
        TraceCmd *c = &out->cmds[out->n];
        memset(c, 0, sizeof *c);
        c->line = line;
        bool htod = !strncmp(s, "MemcpyHtoD", 10), dtoh = !strncmp(s, "MemcpyDtoH", 10);
        if (htod || dtoh) {
            c->kind = htod ? TRACE_CMD_HTOD : TRACE_CMD_DTOH;
            if (!copy_line(s, c, why, sizeof why)) {
                snprintf(err, err_len, "%s:%u: %s", name, line, why);
                goto fail;
            }
        } else if (!strncmp(s, "kernel", 6) && !strchr(s, ',')) {
            size_t n = strlen(s);
            if (n > 6 && !strcmp(s + n - 6, ".trace")) {
                snprintf(err, err_len, "%s:%u: %s is a raw trace: run the tracer's post-traces-processing on the "
                         "folder first, which writes .traceg files and kernelslist.g", name, line, s);
                goto fail;
            }
            size_t plen = strlen(dir) + n + 8;
            c->path = xmalloc(plen);
            snprintf(c->path, plen, "%s/%s", dir, s);
            if (!is_file(c->path)) {
                strcat(c->path, ".xz");
                if (!is_file(c->path)) {
                    snprintf(err, err_len, "%s:%u: kernel file %s/%s: %s", name, line, dir, s, strerror(ENOENT));
                    free(c->path);
                    goto fail;
                }
            }
            c->kind = TRACE_CMD_KERNEL;
        } else {
            snprintf(err, err_len, "%s:%u: unexpected line '%.60s' (expected MemcpyHtoD,ADDRESS,BYTES or a "
                     "kernel file)", name, line, s);
            goto fail;
        }
        out->n++;
    }
    return true;
fail:
    trace_list_free(out);
    return false;
}

bool trace_list_load(const char *dir, TraceList *out, char *err, size_t err_len)
{
    char path[4096], folder[4096];
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(path, sizeof path, "%s", dir);
        snprintf(folder, sizeof folder, "%s", dir);
        char *slash = strrchr(folder, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(folder, sizeof folder, ".");
    } else {
        snprintf(path, sizeof path, "%s/kernelslist.g", dir);
        snprintf(folder, sizeof folder, "%s", dir);
    }
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        snprintf(err, err_len, "%s: %s", path, read_file_error(errno));
        memset(out, 0, sizeof *out);
        return false;
    }
    bool ok = trace_list_parse(text, len, folder, path, out, err, err_len);
    free(text);
    return ok;
}

void trace_list_free(TraceList *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        free(l->cmds[i].path);
    free(l->cmds);
    free(l->name);
    memset(l, 0, sizeof *l);
}
