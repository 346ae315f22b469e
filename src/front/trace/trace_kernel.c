/* trace_kernel.c: opening a kernel trace: its header, and one pass over the file that finds
 * where each warp's instructions start (the index) and checks the file's structure:
 *
 *   -kernel name = NAME            header lines, "-key = value"
 *   -grid dim = (x,y,z)
 *   ...
 *   #BEGIN_TB
 *   thread block = x,y,z
 *   warp = W
 *   insts = N
 *   N instruction lines (trace_line.c)
 *   ... more warps ...
 *   #END_TB
 *
 * The pass skips instruction lines without parsing them (each warp parses its own when the
 * timing model asks), so the index (16 bytes per warp) is all it keeps. Every thread block of
 * the grid must be there once with all its warps. A .xz file is decompressed by the xz
 * program into an unnamed temporary file first (docs/traces.md). */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define INDEX_WINDOW (1u << 20)

static void kerr(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void kerr(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

/* "(x,y,z)" or "x,y,z" after the '=' of a header or block line. */
static bool parse_dim3(const char *s, uint32_t out[3])
{
    const char *eq = strchr(s, '=');
    if (!eq)
        return false;
    s = eq + 1;
    while (*s == ' ')
        s++;
    bool paren = *s == '(';
    s += paren;
    for (int d = 0; d < 3; d++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v > UINT32_MAX)
            return false;
        out[d] = (uint32_t)v;
        s = end;
        if (d < 2 && *s++ != ',')
            return false;
    }
    if (paren && *s++ != ')')
        return false;
    while (*s == ' ')
        s++;
    return *s == 0;
}

/* The number after "= " of a header line, decimal or (0x) hex. */
static bool parse_value(const char *s, uint64_t *out)
{
    const char *eq = strchr(s, '=');
    if (!eq)
        return false;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", eq + 1);
    char *t = str_trim(buf);
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t + 2, &end, 16);
        if (errno || end == t + 2 || *end)
            return false;
        *out = v;
        return true;
    }
    return parse_u64(t, out);
}

static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

typedef struct Header {
    bool grid, block, nregs, version;
    uint64_t binary_version;
} Header;

/* One "-key = value" line. */
static bool header_line(TraceKernel *k, Header *h, const char *s, char *err, size_t err_len)
{
    uint64_t v = 0;
    const char *what = NULL;
    FrontKernel *fk = &k->fk;
    if (starts(s, "-kernel name")) {
        const char *eq = strchr(s, '=');
        if (!eq)
            what = "kernel name";
        else
            snprintf(fk->name, sizeof fk->name, "%s", eq[1] == ' ' ? eq + 2 : eq + 1);
    } else if (starts(s, "-grid dim")) {
        h->grid = parse_dim3(s, fk->grid);
        what = h->grid ? NULL : "grid dim (expected (x,y,z))";
    } else if (starts(s, "-block dim")) {
        h->block = parse_dim3(s, fk->block);
        what = h->block ? NULL : "block dim (expected (x,y,z))";
    } else if (starts(s, "-shmem =") || starts(s, "-shmem=")) {
        if (!parse_value(s, &v) || v > UINT32_MAX)
            what = "shmem";
        fk->smem_bytes_per_cta = (uint32_t)v;
    } else if (starts(s, "-nregs")) {
        if (!parse_value(s, &v) || v > 65536)
            what = "nregs";
        fk->regs_per_thread = (uint32_t)v;
        h->nregs = true;
    } else if (starts(s, "-binary version")) {
        if (!parse_value(s, &h->binary_version))
            what = "binary version";
    } else if (starts(s, "-accelsim tracer version")) {
        if (!parse_value(s, &v) || v < 1 || v > 1000)
            what = "accelsim tracer version";
        k->fmt.version = (uint32_t)v;
        h->version = true;
    } else if (starts(s, "-enable lineinfo")) {
        if (!parse_value(s, &v) || v > 1)
            what = "enable lineinfo (expected 0 or 1)";
        k->fmt.lineinfo = v == 1;
    } /* other header lines (kernel id, stream, base addresses, nvbit version) are not needed */
    if (what)
        kerr(err, err_len, "bad %s", what);
    return !what;
}

/* After the header: the geometry is sound and the grid's CTAs can be numbered. */
static bool header_done(TraceKernel *k, const Header *h, char *err, size_t err_len)
{
    const char *missing = !h->grid ? "-grid dim" : !h->block ? "-block dim" : !h->nregs ? "-nregs"
                        : !h->version ? "-accelsim tracer version" : NULL;
    if (missing) {
        kerr(err, err_len, "the header has no '%s' line", missing);
        return false;
    }
    if (k->fmt.version < 2) {
        kerr(err, err_len, "tracer format version %u is not supported (2 and later are)", k->fmt.version);
        return false;
    }
    const FrontKernel *fk = &k->fk;
    uint64_t ctas = (uint64_t)fk->grid[0] * fk->grid[1] * fk->grid[2];
    uint64_t threads = (uint64_t)fk->block[0] * fk->block[1] * fk->block[2];
    if (!ctas || ctas > UINT32_MAX || !threads || threads > 1024) {
        kerr(err, err_len, "grid (%u,%u,%u) and block (%u,%u,%u): expected non-zero sizes, at most 2^32-1 blocks "
             "and 1024 threads per block", fk->grid[0], fk->grid[1], fk->grid[2], fk->block[0], fk->block[1],
             fk->block[2]);
        return false;
    }
    k->n_ctas = (uint32_t)ctas;
    k->wpc = front_kernel_warps_per_cta(fk);
    k->fmt.pc_shift = h->binary_version >= 70 ? 1 : 0; /* sm_70 on: 16-byte instructions */
    if (!k->fk.name[0])
        snprintf(k->fk.name, sizeof k->fk.name, "kernel");
    return true;
}

/* The index pass. */
static bool index_file(TraceKernel *k, char *err, size_t err_len)
{
    /* a window larger than the file is not needed (a small file, or one in memory) */
    uint32_t cap = (uint32_t)MIN((uint64_t)INDEX_WINDOW, MAX(k->src.size, TRACE_WINDOW));
    char *buf = xmalloc(cap + 1), msg[400] = "";
    TraceLines r;
    trace_lines_init(&r, &k->src, buf, cap);
    trace_lines_seek(&r, 0, 1);
    Header h = {0};
    bool header = true, in_tb = false, have_block = false;
    uint32_t cap_tbs = 0, tb = 0, seen = 0, warp = UINT32_MAX, tb_line = 0;
    int64_t skip = 0; /* instruction lines of the current warp still to pass */
    struct { uint32_t cta, line; } *tbs = NULL; /* each block's CTA and line */
    char *s;
    uint64_t off;
    int got;
    while ((got = trace_lines_next(&r, &s, &off, msg, sizeof msg)) == 1) {
        if (!s[0] || (s[0] == ' ' && !str_trim(s)[0]))
            continue;
        if (skip > 0) {
            if (!((s[0] >= '0' && s[0] <= '9') || (s[0] >= 'a' && s[0] <= 'f') || (s[0] >= 'A' && s[0] <= 'F'))) {
                TraceWarpIndex *wi = &k->index[(size_t)tb * k->wpc + warp];
                snprintf(msg, sizeof msg, "%s:%u: warp %u announces %u instructions, but only %u lines follow",
                         k->src.name, r.line, warp, wi->n, wi->n - (uint32_t)skip);
                goto fail;
            }
            skip--;
            continue;
        }
        if (s[0] == '-') {
            if (!header) {
                snprintf(msg, sizeof msg, "%s:%u: header line after the first thread block", k->src.name, r.line);
                goto fail;
            }
            char why[160];
            if (!header_line(k, &h, s, why, sizeof why)) {
                snprintf(msg, sizeof msg, "%s:%u: %s", k->src.name, r.line, why);
                goto fail;
            }
            continue;
        }
        if (!strcmp(str_trim(s), "#BEGIN_TB")) {
            if (in_tb) {
                snprintf(msg, sizeof msg, "%s:%u: #BEGIN_TB inside a thread block (line %u)", k->src.name, r.line,
                         tb_line);
                goto fail;
            }
            if (header) {
                char why[200];
                if (!header_done(k, &h, why, sizeof why)) {
                    snprintf(msg, sizeof msg, "%s:%u: %s", k->src.name, r.line, why);
                    goto fail;
                }
                header = false;
            }
            if (k->n_tbs == k->n_ctas) {
                snprintf(msg, sizeof msg, "%s:%u: more thread blocks than the grid's %u", k->src.name, r.line,
                         k->n_ctas);
                goto fail;
            }
            if (k->n_tbs == cap_tbs) {
                cap_tbs = cap_tbs ? MIN(2 * cap_tbs, k->n_ctas) : MIN(64u, k->n_ctas);
                k->index = xrealloc(k->index, (size_t)cap_tbs * k->wpc * sizeof *k->index);
                tbs = xrealloc(tbs, cap_tbs * sizeof *tbs);
            }
            tb = k->n_tbs++;
            memset(&k->index[(size_t)tb * k->wpc], 0, k->wpc * sizeof *k->index);
            in_tb = true;
            have_block = false;
            seen = 0;
            warp = UINT32_MAX;
            tb_line = tbs[tb].line = r.line;
            continue;
        }
        if (s[0] == '#' && !in_tb)
            continue; /* the format comment */
        if (!in_tb) {
            snprintf(msg, sizeof msg, "%s:%u: unexpected line outside a thread block: '%.60s'", k->src.name,
                     r.line, s);
            goto fail;
        }
        if (!strcmp(s, "#END_TB")) {
            if (!have_block || seen != (k->wpc >= 32 ? UINT32_MAX : (1u << k->wpc) - 1)) {
                uint32_t w = 0;
                while (w < k->wpc && (seen >> w & 1))
                    w++;
                if (!have_block)
                    snprintf(msg, sizeof msg, "%s:%u: thread block without a 'thread block =' line", k->src.name, r.line);
                else
                    snprintf(msg, sizeof msg, "%s:%u: thread block of line %u has no warp %u (of %u)", k->src.name,
                             r.line, tb_line, w, k->wpc);
                goto fail;
            }
            for (uint32_t w = 0; w < k->wpc; w++)
                if (!k->index[(size_t)tb * k->wpc + w].n) {
                    snprintf(msg, sizeof msg, "%s:%u: warp %u of the thread block of line %u has no 'insts =' line",
                             k->src.name, r.line, w, tb_line);
                    goto fail;
                }
            in_tb = false;
            continue;
        }
        if (starts(s, "thread block")) {
            uint32_t c[3];
            const FrontKernel *fk = &k->fk;
            if (have_block || !parse_dim3(s, c) || c[0] >= fk->grid[0] || c[1] >= fk->grid[1] || c[2] >= fk->grid[2]) {
                snprintf(msg, sizeof msg, "%s:%u: bad '%.60s' (one per block, x,y,z inside the grid (%u,%u,%u))",
                         k->src.name, r.line, s, fk->grid[0], fk->grid[1], fk->grid[2]);
                goto fail;
            }
            have_block = true;
            tbs[tb].cta = c[0] + fk->grid[0] * (c[1] + fk->grid[1] * c[2]);
            continue;
        }
        uint64_t v;
        if (starts(s, "warp")) {
            if (!have_block || !parse_value(s, &v) || v >= k->wpc || (seen >> v & 1)) {
                snprintf(msg, sizeof msg, "%s:%u: bad '%.60s' (after 'thread block =', each of 0 to %u once)",
                         k->src.name, r.line, s, k->wpc - 1);
                goto fail;
            }
            warp = (uint32_t)v;
            seen |= 1u << warp;
            continue;
        }
        if (starts(s, "insts")) {
            if (warp == UINT32_MAX || !parse_value(s, &v) || v == 0 || v > UINT32_MAX) {
                snprintf(msg, sizeof msg, "%s:%u: bad '%.60s' (after 'warp =', at least 1)", k->src.name, r.line, s);
                goto fail;
            }
            TraceWarpIndex *wi = &k->index[(size_t)tb * k->wpc + warp];
            if (wi->n) {
                snprintf(msg, sizeof msg, "%s:%u: second 'insts =' for warp %u", k->src.name, r.line, warp);
                goto fail;
            }
            /* the warp starts after this line; blank lines on the way are skipped by its reader */
            *wi = (TraceWarpIndex){.off = r.off + r.start, .line = r.line + 1, .n = (uint32_t)v};
            skip = (int64_t)v;
            continue;
        }
        snprintf(msg, sizeof msg, "%s:%u: unexpected line in a thread block: '%.60s'", k->src.name, r.line, s);
        goto fail;
    }
    if (got < 0)
        goto fail;
    if (header) {
        char why[200];
        if (!header_done(k, &h, why, sizeof why)) {
            snprintf(msg, sizeof msg, "%s:%u: %s", k->src.name, r.line, why);
            goto fail;
        }
    }
    if (skip > 0 || in_tb) {
        snprintf(msg, sizeof msg, "%s:%u: the file ends inside the thread block of line %u%s", k->src.name, r.line,
                 tb_line, skip > 0 ? " (a warp's instructions are cut short)" : "");
        goto fail;
    }
    if (k->n_tbs != k->n_ctas) {
        snprintf(msg, sizeof msg, "%s:%u: the file holds %u thread blocks, the grid (%u,%u,%u) has %u", k->src.name,
                 r.line, k->n_tbs, k->fk.grid[0], k->fk.grid[1], k->fk.grid[2], k->n_ctas);
        goto fail;
    }
    k->cta_tb = xmalloc(k->n_ctas * sizeof *k->cta_tb);
    memset(k->cta_tb, 0xff, k->n_ctas * sizeof *k->cta_tb);
    for (uint32_t i = 0; i < k->n_tbs; i++) {
        uint32_t c = tbs[i].cta, *slot = &k->cta_tb[c];
        if (*slot != UINT32_MAX) {
            const uint32_t *g = k->fk.grid;
            snprintf(msg, sizeof msg, "%s:%u: thread block (%u,%u,%u) again (first at line %u)", k->src.name,
                     tbs[i].line, c % g[0], c / g[0] % g[1], c / g[0] / g[1], tbs[*slot].line);
            goto fail;
        }
        *slot = i;
    }
    free(tbs);
    free(buf);
    return true;
fail:
    snprintf(err, err_len, "%s", msg);
    free(tbs);
    free(buf);
    return false;
}

static TraceKernel *open_source(TraceKernel *k, char *err, size_t err_len)
{
    if (!index_file(k, err, err_len)) {
        trace_kernel_close(k);
        return NULL;
    }
    return k;
}

TraceKernel *trace_kernel_open_mem(const char *data, size_t len, const char *name, char *err, size_t err_len)
{
    TraceKernel *k = xcalloc(1, sizeof *k);
    k->src = (TraceSource){.fd = -1, .mem = data, .size = len, .name = xstrdup(name)};
    return open_source(k, err, err_len);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* xz -dc PATH into an unnamed temporary file; its descriptor, or -1 with a message. */
static int decompress_xz(const char *path, char *err, size_t err_len)
{
    FILE *tmp = tmpfile();
    if (!tmp) {
        kerr(err, err_len, "%s: cannot create a temporary file to decompress into: %s", path, strerror(errno));
        return -1;
    }
    int fd = dup(fileno(tmp));
    fclose(tmp);
    if (fd < 0) {
        kerr(err, err_len, "%s: %s", path, strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        kerr(err, err_len, "%s: cannot start xz: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (pid == 0) {
        dup2(fd, 1);
        execlp("xz", "xz", "-dc", "--", path, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            kerr(err, err_len, "%s: reading a compressed trace needs the xz program (Debian: apt-get install "
                 "xz-utils), which was not found", path);
        else
            kerr(err, err_len, "%s: xz could not decompress it (exit status %d)", path,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        close(fd);
        return -1;
    }
    return fd;
}

TraceKernel *trace_kernel_open(const char *path, char *err, size_t err_len)
{
    int fd;
    if (ends_with(path, ".xz")) {
        if (access(path, R_OK) != 0) {
            kerr(err, err_len, "%s: %s", path, strerror(errno));
            return NULL;
        }
        fd = decompress_xz(path, err, err_len);
    } else {
        fd = open(path, O_RDONLY);
        if (fd < 0)
            kerr(err, err_len, "%s: %s", path, strerror(errno));
    }
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        kerr(err, err_len, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    TraceKernel *k = xcalloc(1, sizeof *k);
    k->src = (TraceSource){.fd = fd, .size = (uint64_t)st.st_size, .name = xstrdup(path)};
    return open_source(k, err, err_len);
}

void trace_kernel_close(TraceKernel *k)
{
    if (!k)
        return;
    if (k->src.fd >= 0)
        close(k->src.fd);
    for (uint32_t i = 0; i < k->n_warp_ids; i++)
        free(k->warps[i].buf);
    free(k->warps);
    free(k->index);
    free(k->cta_tb);
    free(k->src.name);
    free(k);
}

const FrontKernel *trace_kernel_info(const TraceKernel *k) { return &k->fk; }
uint32_t trace_kernel_version(const TraceKernel *k) { return k->fmt.version; }
const char *trace_kernel_error(const TraceKernel *k) { return k->failed ? k->error : NULL; }

bool trace_kernel_check(TraceKernel *k, uint64_t *n_insts, char *err, size_t err_len)
{
    TraceWarp ws;
    memset(&ws, 0, sizeof ws);
    uint64_t n = 0;
    bool ok = true;
    for (uint32_t tb = 0; tb < k->n_tbs && ok; tb++)
        for (uint32_t w = 0; w < k->wpc && ok; w++) {
            ok = trace_warp_start(k, &ws, tb, w);
            for (n += ok; ok && ws.left > 0; n++)
                ok = trace_warp_advance(k, &ws);
        }
    free(ws.buf);
    if (n_insts)
        *n_insts = n;
    if (!ok)
        snprintf(err, err_len, "%s", k->error);
    return ok;
}
