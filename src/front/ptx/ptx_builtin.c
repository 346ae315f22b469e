/* ptx_builtin.c: the functions of CUDA's device runtime that nvcc's PTX calls but does not
 * define, which the interpreter provides itself: vprintf (device printf), __assertfail (a
 * failed assert), the device runtime of dynamic parallelism (ptx_cdp.c) and
 * cudaGraphSetConditional (a graph's condition).
 *
 * nvcc declares them `.extern .func`, and the parser takes only calls to defined functions, so
 * ptx_builtins_define appends a definition of each one a module declares (after its last line:
 * every line number stays). Most have empty bodies, never entered: the interpreter runs a
 * call of one here or in ptx_cdp.c instead (ptx_builtin_call). cudaGraphSetConditional's is its whole
 * body, run as any function: the runtime's conditional handle is the address of the condition's
 * value (runtime_graph_body.c), which the call stores.
 *
 * vprintf(format, args): generic pointers to the format string and to a buffer of the
 * arguments, each at its natural alignment (int and narrower: 4 bytes; long, long long, double
 * and pointers: 8; a float arrives as a double). The host's snprintf formats each conversion
 * (d i u x X o c s p e E f F g G a A and %%, with flags, width, precision, `*`, and the hh h l
 * ll j z t L lengths; %n writes nothing); the call returns the number of arguments, as CUDA's
 * does. A launch's output is kept and written to stdout when the launch ends, ordered by block,
 * thread, then call: the same text whatever order the warps ran in (functional or timing
 * model). Like CUDA's fixed-size printf buffer, a launch keeps at most PTX_PRINTF_MAX_BYTES;
 * later calls are dropped and counted.
 *
 * __assertfail(message, file, line, function, char size): every calling thread's message goes
 * to stderr as CUDA words it ("file:line: function: block: [x,y,z], thread: [x,y,z] Assertion
 * `message` failed."), in the same order as the printf output, and the launch fails with an
 * assert fault. */
#include "front/ptx/ptx_exec.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_PRINTF_MAX_BYTES (4u << 20)
#define PTX_STRING_MAX 4096 /* longest format string or %s argument read */

/* One call's text: where it came from and where it goes. */
typedef struct OutRecord {
    uint64_t cta;
    uint32_t tid, seq;
    size_t off, len;
    bool to_stderr;
} OutRecord;

struct PtxOutput {
    char *text;
    size_t len, cap;
    OutRecord *recs;
    uint32_t n, cap_recs;
    uint64_t dropped;
};

/* ---- the stub definitions ---- */

/* Indexed by PtxBuiltin. The CUDA device runtime's entry points (dynamic parallelism) run in
 * ptx_cdp.c; their stubs take the parameters nvcc's declarations give them. */
static const struct {
    const char *name, *stub;
} builtins[PTX_BUILTIN_COUNT] = {
    [PTX_BUILTIN_VPRINTF] = {"vprintf",
        ".func (.param .b32 r) vprintf(.param .b64 format, .param .b64 args)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_ASSERTFAIL] = {"__assertfail",
        ".func __assertfail(.param .b64 message, .param .b64 file, .param .b32 line, "
        ".param .b64 function, .param .b64 char_size)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_GET_PARAMETER_BUFFER] = {"__cudaCDP2GetParameterBufferV2",
        ".func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 func, .param .align 4 .b8 grid[12], "
        ".param .align 4 .b8 block[12], .param .b32 smem)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_LAUNCH_DEVICE] = {"__cudaCDP2LaunchDeviceV2",
        ".func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 buffer, .param .b64 stream)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_STREAM_CREATE] = {"__cudaCDP2StreamCreateWithFlags",
        ".func (.param .b32 r) __cudaCDP2StreamCreateWithFlags(.param .b64 stream, .param .b32 flags)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_STREAM_DESTROY] = {"__cudaCDP2StreamDestroy",
        ".func (.param .b32 r) __cudaCDP2StreamDestroy(.param .b64 stream)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_MALLOC] = {"__cudaCDP2Malloc",
        ".func (.param .b32 r) __cudaCDP2Malloc(.param .b64 ptr, .param .b64 size)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_FREE] = {"__cudaCDP2Free",
        ".func (.param .b32 r) __cudaCDP2Free(.param .b64 ptr)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_GET_LAST_ERROR] = {"__cudaCDP2GetLastError",
        ".func (.param .b32 r) __cudaCDP2GetLastError()\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_PEEK_AT_LAST_ERROR] = {"__cudaCDP2PeekAtLastError",
        ".func (.param .b32 r) __cudaCDP2PeekAtLastError()\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_MEMCPY_ASYNC] = {"__cudaCDP2MemcpyAsync",
        ".func (.param .b32 r) __cudaCDP2MemcpyAsync(.param .b64 dst, .param .b64 src, .param .b64 count, "
        ".param .b32 kind, .param .b64 stream)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_CDP_GET_ERROR_STRING] = {"__cudaCDP2GetErrorString",
        ".func (.param .b64 r) __cudaCDP2GetErrorString(.param .b32 error)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_MALLOC] = {"malloc", ".func (.param .b64 r) malloc(.param .b64 size)\n{\n\tret;\n}\n"},
    [PTX_BUILTIN_FREE] = {"free", ".func free(.param .b64 ptr)\n{\n\tret;\n}\n"},
};

/* Device functions whose whole body is PTX, run as the module's own: cudaGraphSetConditional
 * stores the value at the runtime's conditional handle, which is its address
 * (runtime_graph_body.c). */
static const struct {
    const char *name, *body;
} bodies[] = {
    {"cudaGraphSetConditional", ".func cudaGraphSetConditional(.param .b64 handle, .param .b32 value)\n{\n"
                                "\t.reg .b64 %h;\n\t.reg .b32 %v;\n\tld.param.b64 %h, [handle];\n"
                                "\tld.param.b32 %v, [value];\n\tst.u32 [%h], %v;\n\tret;\n}\n"},
};

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* The text has a `.func` statement naming name: an `.extern` declaration of it (extern), or a
 * definition (a body follows its parameter list). */
static bool names_func(const char *text, const char *name, bool extern_decl)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + n, name)) {
        if ((p > text && word_char(p[-1])) || word_char(p[n]))
            continue;
        const char *start = p;
        while (start > text && start[-1] != ';' && start[-1] != '}' && start[-1] != '{')
            start--;
        char stmt[256];
        snprintf(stmt, sizeof stmt, "%.*s", (int)MIN((size_t)(p - start), sizeof stmt - 1), start);
        if (!strstr(stmt, ".func") || (strstr(stmt, ".extern") != NULL) != extern_decl)
            continue;
        if (extern_decl)
            return true;
        const char *q = p + n;
        int depth = 0;
        for (; *q && *q != ';' && *q != '{'; q++) /* past the parameter list */
            depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
        if (*q == '{' && depth == 0)
            return true;
    }
    return false;
}

bool ptx_defines_builtins(const char *text)
{
    for (size_t i = 1; i < ARRAY_LEN(builtins); i++)
        if (names_func(text, builtins[i].name, false))
            return true;
    return false;
}

char *ptx_builtins_define(const char *text)
{
    size_t len = strlen(text), extra = 0;
    bool want[ARRAY_LEN(builtins)] = {false}, want_body[ARRAY_LEN(bodies)] = {false};
    for (size_t i = 1; i < ARRAY_LEN(builtins); i++) {
        want[i] = names_func(text, builtins[i].name, true);
        extra += want[i] ? strlen(builtins[i].stub) : 0;
    }
    for (size_t i = 0; i < ARRAY_LEN(bodies); i++) {
        want_body[i] = names_func(text, bodies[i].name, true);
        extra += want_body[i] ? strlen(bodies[i].body) : 0;
    }
    if (!extra)
        return NULL;
    char *out = xmalloc(len + 1 + extra + 1);
    memcpy(out, text, len);
    out[len++] = '\n';
    for (size_t i = 1; i < ARRAY_LEN(builtins); i++)
        if (want[i]) {
            memcpy(out + len, builtins[i].stub, strlen(builtins[i].stub));
            len += strlen(builtins[i].stub);
        }
    for (size_t i = 0; i < ARRAY_LEN(bodies); i++)
        if (want_body[i]) {
            memcpy(out + len, bodies[i].body, strlen(bodies[i].body));
            len += strlen(bodies[i].body);
        }
    out[len] = 0;
    return out;
}

void ptx_builtins_find(const PtxModule *m, uint8_t *builtin_of)
{
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        builtin_of[f] = PTX_BUILTIN_NONE;
        for (uint8_t b = 1; b < PTX_BUILTIN_COUNT && m->funcs[f].defined; b++)
            if (!strcmp(m->funcs[f].name, builtins[b].name))
                builtin_of[f] = b;
    }
}

/* ---- the launch's output ---- */

static void out_reserve(PtxOutput *o, size_t more)
{
    if (o->len + more + 1 <= o->cap)
        return;
    o->cap = MAX(o->cap * 2, o->len + more + 1);
    o->text = xrealloc(o->text, o->cap);
}

static void out_bytes(PtxOutput *o, const char *s, size_t n)
{
    out_reserve(o, n);
    memcpy(o->text + o->len, s, n);
    o->len += n;
}

/* Append one conversion, formatted by the host's snprintf with spec. */
static void out_format(PtxOutput *o, const char *spec, ...)
{
    va_list ap, ap2;
    va_start(ap, spec);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, spec, ap);
    if (n > 0) {
        out_reserve(o, (size_t)n);
        vsnprintf(o->text + o->len, (size_t)n + 1, spec, ap2);
        o->len += (size_t)n;
    }
    va_end(ap2);
    va_end(ap);
}

/* Start a record of lane's thread; the text appended after it belongs to it until out_end. */
static PtxOutput *out_begin(PtxLaunch *l, const PtxWarp *w, uint32_t lane, bool to_stderr)
{
    if (!l->output)
        l->output = xcalloc(1, sizeof *l->output);
    PtxOutput *o = l->output;
    if (o->n == o->cap_recs) {
        o->cap_recs = o->cap_recs ? 2 * o->cap_recs : 64;
        o->recs = xrealloc(o->recs, o->cap_recs * sizeof *o->recs);
    }
    o->recs[o->n] = (OutRecord){.cta = w->cta->cta_id, .tid = w->first_tid + lane, .seq = o->n, .off = o->len,
                                .to_stderr = to_stderr};
    return o;
}

static void out_end(PtxOutput *o)
{
    OutRecord *r = &o->recs[o->n];
    if (o->len > PTX_PRINTF_MAX_BYTES && !r->to_stderr) { /* the buffer is full: drop the call */
        o->len = r->off;
        o->dropped++;
        return;
    }
    r->len = o->len - r->off;
    o->n++;
}

static int record_order(const void *a, const void *b)
{
    const OutRecord *x = a, *y = b;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ptx_output_flush(PtxLaunch *l)
{
    PtxOutput *o = l->output;
    if (!o || (!o->n && !o->dropped))
        return;
    qsort(o->recs, o->n, sizeof *o->recs, record_order);
    for (uint32_t i = 0; i < o->n; i++) {
        const OutRecord *r = &o->recs[i];
        if (r->to_stderr)
            fflush(stdout);
        fwrite(o->text + r->off, 1, r->len, r->to_stderr ? stderr : stdout);
    }
    fflush(stdout);
    if (o->dropped)
        fprintf(stderr, "warpsim: kernel %s: %llu printf calls dropped: the launch printed more than %u bytes\n",
                l->ki->name, (unsigned long long)o->dropped, PTX_PRINTF_MAX_BYTES);
    o->n = 0;
    o->len = 0;
    o->dropped = 0;
}

void ptx_output_free(PtxLaunch *l)
{
    if (!l->output)
        return;
    free(l->output->text);
    free(l->output->recs);
    free(l->output);
    l->output = NULL;
}

/* ---- the calls ---- */

size_t ptx_call_arg_bytes(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t k,
                          void *dst, size_t n)
{
    const PtxModule *m = l->m;
    memset(dst, 0, n);
    if (k >= call->o[2].reg)
        return 0;
    const PtxSymbol *a = &m->syms[m->call_syms[call->o[2].imm + k]];
    size_t got = (size_t)MIN(a->size, (uint64_t)n);
    memcpy(dst, w->cta->pframe + (size_t)(w->first_tid + lane) * m->pframe_bytes + a->offset, got);
    return got;
}

uint64_t ptx_call_arg(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t k)
{
    uint64_t v;
    ptx_call_arg_bytes(l, w, lane, call, k, &v, sizeof v);
    return v;
}

void ptx_call_return(const PtxLaunch *l, const PtxWarp *w, uint32_t lane, const PtxInst *call, uint64_t v)
{
    const PtxModule *m = l->m;
    if (call->o[1].reg == 0)
        return;
    const PtxSymbol *r = &m->syms[m->call_syms[call->o[1].imm]];
    memcpy(w->cta->pframe + (size_t)(w->first_tid + lane) * m->pframe_bytes + r->offset, &v, MIN(r->size, 8));
}

/* The NUL-terminated string at a generic address (at most PTX_STRING_MAX bytes); false if a read
 * faulted. */
static bool read_string(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint64_t addr, uint32_t pc, char *buf)
{
    for (size_t i = 0; i < PTX_STRING_MAX; i++) {
        if (!ptx_lane_read(l, w, lane, addr + i, &buf[i], 1, pc))
            return false;
        if (!buf[i])
            return true;
    }
    buf[PTX_STRING_MAX] = 0;
    return true;
}

/* The next argument of `bytes` (4 or 8) from the buffer at *at, which it passes. */
static bool next_arg(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint64_t *at, unsigned bytes, uint32_t pc, uint64_t *v)
{
    *at = (*at + bytes - 1) & ~(uint64_t)(bytes - 1);
    *v = 0;
    if (!ptx_lane_read(l, w, lane, *at, v, bytes, pc))
        return false;
    *at += bytes;
    return true;
}

/* Format one conversion of spec (flags, width and precision already in it, its length letters
 * still to come), taking its argument from the buffer. */
static bool convert(PtxLaunch *l, PtxWarp *w, uint32_t lane, PtxOutput *o, char *spec, size_t slen, char conv,
                    int length, uint64_t *at, uint32_t pc)
{
    uint64_t v;
    char str[PTX_STRING_MAX + 1];
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
        if (!next_arg(l, w, lane, at, length >= 3 ? 8 : 4, pc, &v))
            return false;
        bool sg = conv == 'd' || conv == 'i';
        if (conv == 'c') {
            snprintf(spec + slen, 8, "c");
            out_format(o, spec, (int)(unsigned char)v);
            return true;
        }
        /* hh and h narrow the value; everything is printed as a long long */
        if (length == 1)
            v = sg ? (uint64_t)(int64_t)(signed char)v : (uint64_t)(unsigned char)v;
        else if (length == 2)
            v = sg ? (uint64_t)(int64_t)(short)v : (uint64_t)(unsigned short)v;
        else if (length < 3)
            v = sg ? (uint64_t)(int64_t)(int32_t)v : (uint64_t)(uint32_t)v;
        snprintf(spec + slen, 8, "ll%c", conv);
        if (sg)
            out_format(o, spec, (long long)v);
        else
            out_format(o, spec, (unsigned long long)v);
        return true;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
        if (!next_arg(l, w, lane, at, 8, pc, &v))
            return false;
        double d;
        memcpy(&d, &v, sizeof d);
        snprintf(spec + slen, 8, "%c", conv);
        out_format(o, spec, d);
        return true;
    }
    case 's':
        if (!next_arg(l, w, lane, at, 8, pc, &v))
            return false;
        if (v && !read_string(l, w, lane, v, pc, str))
            return false;
        snprintf(spec + slen, 8, "s");
        out_format(o, spec, v ? str : "(null)");
        return true;
    case 'p':
        if (!next_arg(l, w, lane, at, 8, pc, &v))
            return false;
        snprintf(spec + slen, 8, "p");
        out_format(o, spec, (void *)(uintptr_t)v);
        return true;
    case 'n':
        return next_arg(l, w, lane, at, 8, pc, &v);
    default: /* not a conversion: print it as written */
        out_bytes(o, spec, slen);
        if (conv)
            out_bytes(o, &conv, 1);
        return true;
    }
}

/* vprintf for one lane: format into the launch's output; the number of conversions that took an
 * argument, or -1 if a read faulted. */
static int do_vprintf(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t pc)
{
    char fmt[PTX_STRING_MAX + 1];
    uint64_t f = ptx_call_arg(l, w, lane, call, 0), at = ptx_call_arg(l, w, lane, call, 1);
    if (!f)
        return -1;
    if (!read_string(l, w, lane, f, pc, fmt))
        return -1;
    PtxOutput *o = out_begin(l, w, lane, false);
    int n_args = 0;
    for (const char *p = fmt; *p;) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            out_bytes(o, p, strlen(p));
            break;
        }
        out_bytes(o, p, (size_t)(pct - p));
        p = pct + 1;
        if (*p == '%') {
            out_bytes(o, "%", 1);
            p++;
            continue;
        }
        char spec[64] = "%";
        size_t slen = 1;
        while (*p && strchr("-+ #0", *p) && slen < 16)
            spec[slen++] = *p++;
        for (int part = 0; part < 2; part++) { /* width, then .precision */
            if (part == 1) {
                if (*p != '.')
                    break;
                spec[slen++] = *p++;
            }
            if (*p == '*') {
                uint64_t v;
                if (!next_arg(l, w, lane, &at, 4, pc, &v))
                    return -1;
                n_args++;
                slen += (size_t)snprintf(spec + slen, sizeof spec - slen, "%d", (int)(int32_t)v);
                p++;
            }
            while (*p >= '0' && *p <= '9' && slen < 40)
                spec[slen++] = *p++;
        }
        /* length: 1 hh, 2 h, 3 l ll j z t L (64-bit) */
        int length = 0;
        while (*p && strchr("hljztL", *p)) {
            length = *p == 'h' ? (length == 2 ? 1 : 2) : 3;
            p++;
        }
        char conv = *p;
        if (conv)
            p++;
        spec[slen] = 0;
        if (!convert(l, w, lane, o, spec, slen, conv, length, &at, pc))
            return -1;
        n_args += conv && strchr("diuxXoceEfFgGaAspn", conv) != NULL;
    }
    out_end(o);
    return n_args;
}

/* __assertfail for one lane: its message, in CUDA's words, to stderr with the launch's output. */
static bool do_assert(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t pc, char *first,
                      size_t first_len)
{
    char msg[PTX_STRING_MAX + 1], file[PTX_STRING_MAX + 1], func[PTX_STRING_MAX + 1];
    uint64_t pm = ptx_call_arg(l, w, lane, call, 0), pf = ptx_call_arg(l, w, lane, call, 1);
    uint32_t line = (uint32_t)ptx_call_arg(l, w, lane, call, 2);
    uint64_t pfn = ptx_call_arg(l, w, lane, call, 3);
    strcpy(msg, "?");
    strcpy(file, "?");
    strcpy(func, "?");
    if ((pm && !read_string(l, w, lane, pm, pc, msg)) || (pf && !read_string(l, w, lane, pf, pc, file)) ||
        (pfn && !read_string(l, w, lane, pfn, pc, func)))
        return false;
    uint32_t t = w->first_tid + lane;
    const uint32_t *c = w->cta->ctaid;
    PtxOutput *o = out_begin(l, w, lane, true);
    out_format(o, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line, func,
               c[0], c[1], c[2], t % l->block[0], (t / l->block[0]) % l->block[1], t / (l->block[0] * l->block[1]),
               msg);
    out_end(o);
    if (!*first) {
        char who[96];
        ptx_thread_coords(l, w, lane, who, sizeof who);
        snprintf(first, first_len, "device-side assert triggered by %s: %s:%u: Assertion `%s` failed", who, file,
                 line, msg);
    }
    return true;
}

void ptx_builtin_call(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active)
{
    uint8_t which = l->builtin_of[call->o[0].imm];
    if (which != PTX_BUILTIN_VPRINTF && which != PTX_BUILTIN_ASSERTFAIL) {
        ptx_cdp_call(l, w, call, pc, active, which);
        return;
    }
    bool is_assert = which == PTX_BUILTIN_ASSERTFAIL;
    char first[PTX_STRING_MAX + 256] = "";
    FOR_LANES(active, i) {
        if (is_assert) {
            if (!do_assert(l, w, i, call, pc, first, sizeof first))
                return;
            continue;
        }
        int n = do_vprintf(l, w, i, call, pc);
        if (l->failed)
            return;
        ptx_call_return(l, w, i, call, (uint64_t)(int64_t)n);
    }
    if (is_assert)
        ptx_launch_fault(l, pc, PTX_FAULT_ASSERT, first);
}
