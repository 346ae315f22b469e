/* trace_line.c: one instruction line of a kernel trace.
 *
 *   [bx by bz warp]  [line]  pc  mask  n_dst R.. opcode  n_src R..  width  [mode addresses]
 *
 * (the first group before format version 3, the line number when the header says
 * "-enable lineinfo = 1"). pc and mask are hex, counts and width decimal. A width of 0 means
 * no addresses follow; else the mode says how the active lanes' addresses are written:
 * 0 one hex address per active lane; 1 a hex base and a decimal stride (the k-th active lane
 * at base + k * stride; the tracer uses it only for contiguous lanes); 2 a hex base and a
 * decimal delta from the previous active lane's address for every active lane after the first.
 * Registers are Rn; R255 is the zero register (no dependence). warpsim's register ids map to
 * Rn one to one with 255 left out (trace_write.c writes the inverse). */
#include "front/trace/trace_internal.h"

#include "base/base.h"

#include <string.h>

#define SASS_RZ 255

/* The next blank-separated token; NULL at the end of the line. */
static char *token(char **p, size_t *len)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return *p = s, NULL;
    char *e = s;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    *len = (size_t)(e - s);
    *p = e;
    return s;
}

static bool parse_hex(const char *s, size_t len, uint64_t *out)
{
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, len -= 2;
    if (len == 0 || len > 16)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d > 15)
            return false;
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

static bool parse_dec(const char *s, size_t len, int64_t *out)
{
    bool neg = len > 0 && s[0] == '-';
    if (neg)
        s++, len--;
    if (len == 0 || len > 18)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

#define FAIL(...) return snprintf(err, err_len, __VA_ARGS__), false

/* A decimal field named what, in [lo, hi]. */
static bool dec_field(char **p, const char *what, int64_t lo, int64_t hi, int64_t *out, char *err, size_t err_len)
{
    size_t len;
    char *t = token(p, &len);
    if (!t)
        FAIL("truncated line: no %s", what);
    if (!parse_dec(t, len, out) || *out < lo || *out > hi)
        FAIL("bad %s '%.*s' (expected a decimal number from %lld to %lld)", what, (int)MIN(len, 40), t,
             (long long)lo, (long long)hi);
    return true;
}

static bool hex_field(char **p, const char *what, uint64_t *out, char *err, size_t err_len)
{
    size_t len;
    char *t = token(p, &len);
    if (!t)
        FAIL("truncated line: no %s", what);
    if (!parse_hex(t, len, out))
        FAIL("bad %s '%.*s' (expected a hex number)", what, (int)MIN(len, 40), t);
    return true;
}

/* n registers "Rk" into ids (R255, the zero register, dropped); *kept: how many remain. */
static bool regs(char **p, int64_t n, const char *what, uint16_t *ids, uint8_t *kept, char *err, size_t err_len)
{
    *kept = 0;
    for (int64_t i = 0; i < n; i++) {
        size_t len;
        char *t = token(p, &len);
        int64_t r;
        if (!t)
            FAIL("truncated line: %lld %s registers announced, %lld found", (long long)n, what, (long long)i);
        if (len < 2 || t[0] != 'R' || !parse_dec(t + 1, len - 1, &r) || r < 0 || r > 65536)
            FAIL("bad %s register '%.*s' (expected R0 to R65536)", what, (int)MIN(len, 40), t);
        if (r != SASS_RZ)
            ids[(*kept)++] = (uint16_t)(r > SASS_RZ ? r - 1 : r);
    }
    return true;
}

static bool needs_addresses(uint8_t space)
{
    return space == WSPACE_GLOBAL || space == WSPACE_LOCAL || space == WSPACE_SHARED || space == WSPACE_TEX;
}

/* The addresses of the active lanes of out->active_mask, in the given mode. */
static bool addresses(char **p, uint32_t mask, Winst *out, bool keep, char *err, size_t err_len)
{
    int64_t mode;
    if (!dec_field(p, "address mode", 0, 2, &mode, err, err_len))
        return false;
    unsigned n = popcount_u32(mask), k = 0;
    uint64_t base = 0, a;
    int64_t step = 0;
    if (mode != 0 && n > 0) {
        if (!hex_field(p, "base address", &base, err, err_len))
            return false;
        if (mode == 1 && !dec_field(p, "stride", INT32_MIN, INT32_MAX, &step, err, err_len))
            return false;
    }
    for (uint32_t m = mask; m; m &= m - 1, k++) {
        int lane = __builtin_ctz(m);
        if (mode == 0) {
            size_t len;
            char *t = token(p, &len);
            if (!t)
                FAIL("address count does not match the mask: %08x has %u active lanes, the line has %u addresses",
                     mask, n, k);
            if (!parse_hex(t, len, &a))
                FAIL("bad address '%.*s' (expected a hex number)", (int)MIN(len, 40), t);
        } else if (mode == 1) {
            a = base + (uint64_t)((int64_t)k * step);
        } else if (k == 0) {
            a = base;
        } else {
            size_t len;
            char *t = token(p, &len);
            if (!t)
                FAIL("address count does not match the mask: %08x has %u active lanes, the line has %u deltas "
                     "(one per lane after the first)", mask, n, k - 1);
            if (!parse_dec(t, len, &step))
                FAIL("bad address delta '%.*s' (expected a decimal number)", (int)MIN(len, 40), t);
            a = base + (uint64_t)step;
            base = a;
        }
        if (keep)
            out->addr[lane] = a;
    }
    size_t len;
    char *extra = token(p, &len);
    if (extra)
        FAIL("address count does not match the mask: %08x has %u active lanes, and the line goes on with '%.*s'",
             mask, n, (int)MIN(len, 40), extra);
    return true;
}

bool trace_parse_inst(const TraceLineFormat *f, char *line, Winst *out, char *err, size_t err_len)
{
    char *p = line;
    int64_t v;
    uint64_t pc, mask;
    WinstStatic *s = &out->s;
    memset(s, 0, sizeof *s);
    if (f->version < 3) /* the block's coordinates and the warp, which the section already says */
        for (int i = 0; i < 4; i++)
            if (!dec_field(&p, "block or warp id", 0, UINT32_MAX, &v, err, err_len))
                return false;
    if (f->lineinfo && !dec_field(&p, "source line number", 0, UINT32_MAX, &v, err, err_len))
        return false;
    if (!hex_field(&p, "pc", &pc, err, err_len))
        return false;
    if (pc >> f->pc_shift > UINT32_MAX)
        FAIL("pc %llx out of range", (unsigned long long)pc);
    s->pc = (uint32_t)(pc >> f->pc_shift);
    size_t len;
    char *t = token(&p, &len);
    if (!t)
        FAIL("truncated line: no active mask");
    if (len > 10 || !parse_hex(t, len, &mask) || mask > UINT32_MAX)
        FAIL("bad active mask '%.*s' (expected at most 8 hex digits)", (int)MIN(len, 40), t);
    out->active_mask = (uint32_t)mask;
    if (!dec_field(&p, "destination count", 0, WINST_MAX_DST, &v, err, err_len) ||
        !regs(&p, v, "destination", s->dst, &s->n_dst, err, err_len))
        return false;
    size_t opc_len;
    char *opc = token(&p, &opc_len);
    if (!opc)
        FAIL("truncated line: no opcode");
    TraceOpcode oe;
    const TraceOpcode *o = &oe;
    if (!trace_sass_lookup(opc, opc_len, &oe))
        FAIL("unknown opcode '%.*s'", (int)MIN(opc_len, 60), opc);
    if (!dec_field(&p, "source count", 0, WINST_MAX_SRC, &v, err, err_len) ||
        !regs(&p, v, "source", s->src, &s->n_src, err, err_len))
        return false;
    int64_t width;
    if (!dec_field(&p, "memory width", 0, 255, &width, err, err_len))
        return false;
    s->op = o->op;
    bool mem = winst_is_mem(s);
    if (width > 0) {
        /* addresses on an instruction the table does not count as memory are read and dropped */
        if (!addresses(&p, out->active_mask, out, mem, err, err_len))
            return false;
        if (mem) {
            s->space = o->space;
            s->access_bytes = (uint8_t)width;
        }
        return true;
    }
    if ((t = token(&p, &len)))
        FAIL("memory width 0, but the line goes on with '%.*s'", (int)MIN(len, 40), t);
    if (!mem)
        return true;
    if (o->no_addr_op != WOP_COUNT) {
        s->op = o->no_addr_op;
    } else if (!needs_addresses(o->space)) {
        s->space = o->space; /* constant loads are timed without addresses */
        s->access_bytes = 4;
    } else if (out->active_mask) {
        FAIL("memory instruction '%.*s' without a width and addresses", (int)MIN(opc_len, 60), opc);
    } else {
        s->space = o->space; /* no lane active: nothing to address */
        s->access_bytes = 4;
    }
    return true;
}
