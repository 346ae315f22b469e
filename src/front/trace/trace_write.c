/* trace_write.c: record a front end's warp-instruction stream as an Accel-Sim trace.
 *
 * The tee passes every FrontOps call through to the wrapped front end and writes what exec
 * returns, in the layout of the tracer's post-processed files (trace_kernel.c, trace_line.c):
 * format version 3, binary version 70 (so pcs are written doubled, as 16-byte instructions),
 * opcodes from trace_sass_name, registers Rn (warpsim's ids from 255 on written one higher, R255
 * being the zero register), addresses as base+stride when the active lanes are contiguous with
 * one stride, else base+delta, as the tracer does. Lines are kept per warp until the CTA ends,
 * then written as one thread block, so memory holds the resident CTAs' streams. A partial
 * EXIT (peek says EXIT, exec a no-op) is written as EXIT, which the reader runs the same way. */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct WarpLines {
    char *p;
    size_t len, cap;
    uint32_t n;
} WarpLines;

struct TraceWriter {
    char *dir;
    FILE *list;
    uint32_t n_kernels;
    FILE *kf;             /* the kernel being written */
    char kname[64];       /* its file name */
    FrontKernel fk;
    uint32_t wpc, n_warp_ids;
    WarpLines *warps;     /* [n_warp_ids] */
    uint32_t *slot_cta;   /* [n_warp_ids]: the CTA whose first warp has this id; UINT32_MAX: none */
    char error[512];
};

static void werr(TraceWriter *w, const char *what)
{
    if (!w->error[0])
        snprintf(w->error, sizeof w->error, "%s/%s: %s", w->dir, what, strerror(errno ? errno : EIO));
}

TraceWriter *trace_writer_create(const char *dir, char *err, size_t err_len)
{
    if (!mkdir_p(dir)) {
        snprintf(err, err_len, "%s: cannot create the folder: %s", dir, strerror(errno));
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, err_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    TraceWriter *w = xcalloc(1, sizeof *w);
    w->dir = xstrdup(dir);
    w->list = f;
    return w;
}

bool trace_writer_finish(TraceWriter *w, char *err, size_t err_len)
{
    if (w->kf && fclose(w->kf) != 0)
        werr(w, w->kname);
    if (fclose(w->list) != 0)
        werr(w, "kernelslist.g");
    bool ok = !w->error[0];
    if (!ok)
        snprintf(err, err_len, "%s", w->error);
    for (uint32_t i = 0; i < w->n_warp_ids; i++)
        free(w->warps[i].p);
    free(w->warps);
    free(w->slot_cta);
    free(w->dir);
    free(w);
    return ok;
}

void trace_writer_copy(TraceWriter *w, bool to_device, uint64_t addr, uint64_t bytes)
{
    fprintf(w->list, "Memcpy%s,0x%016" PRIx64 ",%" PRIu64 "\n", to_device ? "HtoD" : "DtoH", addr, bytes);
}

static void kernel_begin(TraceWriter *w, const FrontKernel *k, uint32_t n_warp_ids)
{
    if (w->kf && fclose(w->kf) != 0)
        werr(w, w->kname);
    snprintf(w->kname, sizeof w->kname, "kernel-%u.traceg", ++w->n_kernels);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", w->dir, w->kname);
    w->kf = fopen(path, "w");
    if (!w->kf)
        werr(w, w->kname);
    fprintf(w->list, "%s\n", w->kname);
    fflush(w->list);
    w->fk = *k;
    w->wpc = front_kernel_warps_per_cta(k);
    if (n_warp_ids > w->n_warp_ids) {
        w->warps = xrealloc(w->warps, n_warp_ids * sizeof *w->warps);
        memset(w->warps + w->n_warp_ids, 0, (n_warp_ids - w->n_warp_ids) * sizeof *w->warps);
        w->slot_cta = xrealloc(w->slot_cta, n_warp_ids * sizeof *w->slot_cta);
        w->n_warp_ids = n_warp_ids;
    }
    memset(w->slot_cta, 0xff, w->n_warp_ids * sizeof *w->slot_cta);
    if (!w->kf)
        return;
    fprintf(w->kf,
            "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n-shmem = %u\n"
            "-nregs = %u\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x%016x\n"
            "-local mem base_addr = 0x%016x\n-accelsim tracer version = 3\n-enable lineinfo = 0\n\n"
            "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses]\n",
            k->name, w->n_kernels, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
            k->smem_bytes_per_cta, k->regs_per_thread, 0u, 0u);
}

static void put(WarpLines *l, const char *s, size_t n)
{
    if (l->len + n + 1 > l->cap) {
        l->cap = MAX(2 * l->cap, l->len + n + 1024);
        l->p = xrealloc(l->p, l->cap);
    }
    memcpy(l->p + l->len, s, n);
    l->len += n;
}

static int put_regs(char *b, size_t cap, const uint16_t *ids, uint8_t n)
{
    int len = snprintf(b, cap, "%u ", n);
    for (uint8_t i = 0; i < n; i++) /* R255 is the zero register: ids from 255 on move up one */
        len += snprintf(b + len, cap - (size_t)len, "R%u ", ids[i] < 255 ? ids[i] : ids[i] + 1u);
    return len;
}

/* The addresses of the active lanes: "1 BASE STRIDE" when they are contiguous lanes at one
 * stride (two at least), else "2 BASE DELTA..." (mask 0: "0", a list of none). */
static int put_addrs(char *b, size_t cap, const Winst *wi)
{
    uint32_t m = wi->active_mask;
    if (!m)
        return snprintf(b, cap, "0 ");
    int first = __builtin_ctz(m), n = (int)popcount_u32(m);
    bool contiguous = n >= 2 && (m >> first) == (n == 32 ? UINT32_MAX : (1u << n) - 1);
    int64_t stride = 0;
    if (contiguous) {
        stride = (int64_t)(wi->addr[first + 1] - wi->addr[first]);
        for (int l = first + 1; l < first + n && contiguous; l++)
            contiguous = (int64_t)(wi->addr[l] - wi->addr[l - 1]) == stride;
        contiguous = contiguous && stride >= INT32_MIN && stride <= INT32_MAX;
    }
    if (contiguous)
        return snprintf(b, cap, "1 0x%" PRIx64 " %" PRId64 " ", wi->addr[first], stride);
    int len = snprintf(b, cap, "2 0x%" PRIx64 " ", wi->addr[first]);
    uint64_t prev = wi->addr[first];
    for (uint32_t r = m & (m - 1); r; r &= r - 1) {
        int l = __builtin_ctz(r);
        len += snprintf(b + len, cap - (size_t)len, "%" PRId64 " ", (int64_t)(wi->addr[l] - prev));
        prev = wi->addr[l];
    }
    return len;
}

static void record(TraceWriter *w, uint32_t warp_id, uint8_t peek_op, const Winst *wi)
{
    char b[1400], name[40];
    const WinstStatic *s = &wi->s;
    uint8_t op = s->op == WOP_NOP && peek_op == WOP_EXIT ? WOP_EXIT : s->op;
    int len = snprintf(b, sizeof b, "%04" PRIx64 " %08x ", (uint64_t)s->pc << 1, wi->active_mask);
    len += put_regs(b + len, sizeof b - (size_t)len, s->dst, s->n_dst);
    len += snprintf(b + len, sizeof b - (size_t)len, "%s ", trace_sass_name(op, s->space, name, sizeof name));
    len += put_regs(b + len, sizeof b - (size_t)len, s->src, s->n_src);
    if (winst_is_mem(s) && s->access_bytes) {
        len += snprintf(b + len, sizeof b - (size_t)len, "%u ", s->access_bytes);
        len += put_addrs(b + len, sizeof b - (size_t)len, wi);
    } else {
        len += snprintf(b + len, sizeof b - (size_t)len, "0 ");
    }
    b[len - 1] = '\n';
    WarpLines *l = &w->warps[warp_id];
    put(l, b, (size_t)len);
    l->n++;
}

static void cta_end(TraceWriter *w, uint32_t cta_id)
{
    uint32_t base = 0;
    while (base < w->n_warp_ids && w->slot_cta[base] != cta_id)
        base++;
    CHECK(base < w->n_warp_ids);
    w->slot_cta[base] = UINT32_MAX;
    if (!w->kf)
        return;
    const uint32_t *g = w->fk.grid;
    fprintf(w->kf, "\n#BEGIN_TB\n\nthread block = %u,%u,%u\n", cta_id % g[0], cta_id / g[0] % g[1],
            cta_id / g[0] / g[1]);
    for (uint32_t i = 0; i < w->wpc; i++) {
        WarpLines *l = &w->warps[base + i];
        fprintf(w->kf, "\nwarp = %u\ninsts = %u\n", i, l->n);
        fwrite(l->p, 1, l->len, w->kf);
        l->len = 0;
        l->n = 0;
    }
    fputs("\n#END_TB\n", w->kf);
    if (ferror(w->kf))
        werr(w, w->kname);
}

/* ---- the tee ---- */

static void tee_kernel_begin(void *self, const FrontKernel *k, uint32_t n_warp_ids)
{
    TraceTee *t = self;
    t->inner->kernel_begin(t->inner_self, k, n_warp_ids);
    kernel_begin(t->w, k, n_warp_ids);
}

static void tee_cta_start(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base)
{
    TraceTee *t = self;
    t->inner->cta_start(t->inner_self, cta_id, sm, warp_id_base);
    t->w->slot_cta[warp_id_base] = cta_id;
}

static const WinstStatic *tee_peek(void *self, uint32_t warp_id)
{
    TraceTee *t = self;
    return t->inner->peek(t->inner_self, warp_id);
}

static uint32_t tee_peek_mask(void *self, uint32_t warp_id)
{
    TraceTee *t = self;
    return t->inner->peek_mask(t->inner_self, warp_id);
}

static void tee_cycle_begin(void *self)
{
    TraceTee *t = self;
    t->inner->cycle_begin(t->inner_self);
}

static void tee_exec(void *self, uint32_t warp_id, Winst *out)
{
    TraceTee *t = self;
    const WinstStatic *s = t->inner->peek(t->inner_self, warp_id);
    uint8_t peek_op = s ? s->op : WOP_COUNT;
    t->inner->exec(t->inner_self, warp_id, out);
    record(t->w, warp_id, peek_op, out);
}

static void tee_cta_end(void *self, uint32_t cta_id)
{
    TraceTee *t = self;
    t->inner->cta_end(t->inner_self, cta_id);
    cta_end(t->w, cta_id);
}

static void tee_kernel_end(void *self)
{
    TraceTee *t = self;
    t->inner->kernel_end(t->inner_self);
    if (t->w->kf && fflush(t->w->kf) != 0)
        werr(t->w, t->w->kname);
}

void trace_tee_init(TraceTee *tee, const FrontOps *inner, void *inner_self, TraceWriter *w)
{
    tee->ops = (FrontOps){
        .name = inner->name,
        .peek_parallel = inner->peek_parallel, /* exec writes the trace: in order */
        .cycle_begin = inner->cycle_begin ? tee_cycle_begin : NULL,
        .kernel_begin = tee_kernel_begin,
        .cta_start = tee_cta_start,
        .peek = tee_peek,
        .peek_mask = inner->peek_mask ? tee_peek_mask : NULL,
        .exec = tee_exec,
        .cta_end = tee_cta_end,
        .kernel_end = tee_kernel_end,
    };
    tee->inner = inner;
    tee->inner_self = inner_self;
    tee->w = w;
}
