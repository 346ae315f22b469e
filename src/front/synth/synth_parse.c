/* synth_parse.c: reads the synthetic workload description (docs/synthetic.md) into kernels.
 *
 * One statement a line. Each kernel becomes a flat op array (synth_internal.h): every
 * instruction gets its WinstStatic here, once, with pc = 8 * its index; loops and ifs become
 * paired markers. The register model is applied here too, in program text order: loads write
 * registers 1..8 in turn, and the next ALU instruction (or store) reads the ones not yet read,
 * so the scoreboard makes each use wait for its loads; ALU instructions chain through the
 * accumulator (register 9). Errors stop at the first one with "file:line: expected ...". */
#include "front/synth/synth_internal.h"

#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NAME_MAX_LEN = 63, MAX_NEST = SYNTH_MAX_LOOPS + SYNTH_MAX_IFS };

typedef struct SynthArray {
    char name[NAME_MAX_LEN + 1];
    uint64_t base;
    uint32_t elem_bytes;
} SynthArray;

typedef struct Nest {
    bool is_loop;
    int line;
    uint32_t op;            /* index of the loop / if marker */
    uint32_t insts_at_open; /* to reject loops with empty bodies */
    char name[NAME_MAX_LEN + 1];
} Nest;

typedef struct Parser {
    const char *file;
    int line;
    char *err;
    size_t err_cap;
    bool failed;
    SynthProgram *prog;
    SynthArray *arrays;
    uint32_t n_arrays, cap_arrays;
    /* The kernel being read (NULL before the first `kernel`). */
    SynthKernelDef *k;
    int kernel_line;
    bool have_grid, have_block, have_smem, uses_shared;
    Nest nest[MAX_NEST];
    unsigned n_nest, n_loops, n_ifs;
    const char *loop_names[SYNTH_MAX_LOOPS];
    /* Register model state. */
    unsigned next_load;
    uint16_t pending[SYNTH_N_LOAD_REGS]; /* loaded, not yet read; oldest first */
    unsigned n_pending;
} Parser;

static void error(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error(Parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    int n = snprintf(ps->err, ps->err_cap, "%s:%d: ", ps->file, ps->line);
    if (n >= 0 && (size_t)n < ps->err_cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->err_cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

/* ---- words ------------------------------------------------------------------------------ */

static const char *skip_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* Copy the next whitespace-delimited word into out (empty at end of line). */
static const char *next_word(const char *p, char *out, size_t cap)
{
    p = skip_space(p);
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p)) {
        if (n + 1 < cap)
            out[n++] = *p;
        p++;
    }
    out[n] = 0;
    return p;
}

static bool is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

static bool expect_end(Parser *ps, const char *p, const char *after)
{
    p = skip_space(p);
    if (*p) {
        error(ps, "expected end of line after %s, found '%.24s'", after, p);
        return false;
    }
    return true;
}

/* An integer word in [lo, hi] (decimal or 0x hex). */
static bool word_u64(Parser *ps, const char **p, const char *what, uint64_t lo, uint64_t hi,
                     uint64_t *out)
{
    char w[64];
    *p = next_word(*p, w, sizeof w);
    uint64_t v;
    if (!*w) {
        error(ps, "expected %s, found end of line", what);
        return false;
    }
    if (!parse_u64(w, &v) || v < lo || v > hi) {
        error(ps, "expected %s (an integer in [%llu, %llu]), found '%s'", what,
              (unsigned long long)lo, (unsigned long long)hi, w);
        return false;
    }
    *out = v;
    return true;
}

/* ---- building --------------------------------------------------------------------------- */

static uint32_t add_op(SynthKernelDef *k, SynthOp op)
{
    if (k->n_ops == k->cap_ops) {
        k->cap_ops = k->cap_ops ? 2 * k->cap_ops : 64;
        k->ops = xrealloc(k->ops, k->cap_ops * sizeof *k->ops);
    }
    k->ops[k->n_ops] = op;
    return k->n_ops++;
}

/* Append an instruction (and its op); false when the kernel is too long. */
static bool add_inst(Parser *ps, WinstStatic s, SynthOp op)
{
    SynthKernelDef *k = ps->k;
    if (k->n_insts >= SYNTH_MAX_INSTS) {
        error(ps, "expected at most %d instructions in a kernel", SYNTH_MAX_INSTS);
        return false;
    }
    if (k->n_insts == k->cap_insts) {
        k->cap_insts = k->cap_insts ? 2 * k->cap_insts : 64;
        k->insts = xrealloc(k->insts, k->cap_insts * sizeof *k->insts);
    }
    s.pc = WINST_PC_STEP * k->n_insts;
    op.kind = SOP_INST;
    op.inst = k->n_insts;
    k->insts[k->n_insts++] = s;
    add_op(k, op);
    return true;
}

/* A load writes the next of the eight load registers, which then waits to be read. */
static void reg_write_load(Parser *ps, WinstStatic *s)
{
    uint16_t r = (uint16_t)(SYNTH_REG_LOAD_FIRST + ps->next_load);
    ps->next_load = (ps->next_load + 1) % SYNTH_N_LOAD_REGS;
    s->dst[s->n_dst++] = r;
    for (unsigned i = 0; i < ps->n_pending; i++)
        if (ps->pending[i] == r)
            return; /* reused before anyone read it: one wait covers both */
    ps->pending[ps->n_pending++] = r;
}

/* ALU instructions and stores read the accumulator and the loaded registers not yet read,
 * oldest first, as many as fit; the rest go to the next reader. */
static void reg_read(Parser *ps, WinstStatic *s)
{
    s->src[s->n_src++] = SYNTH_REG_ACC;
    unsigned take = MIN(ps->n_pending, (unsigned)SYNTH_MAX_SRC - s->n_src);
    for (unsigned i = 0; i < take; i++)
        s->src[s->n_src++] = ps->pending[i];
    memmove(ps->pending, ps->pending + take, (ps->n_pending - take) * sizeof ps->pending[0]);
    ps->n_pending -= take;
}

/* ---- statements ------------------------------------------------------------------------- */

static bool st_dims(Parser *ps, const char *p, const char *what, uint32_t out[3], uint64_t max_total)
{
    static const char *const axis[3] = {"x", "y", "z"};
    uint64_t total = 1;
    for (int i = 0; i < 3; i++) {
        char desc[64];
        snprintf(desc, sizeof desc, "the %s size in %s", what, axis[i]);
        p = skip_space(p);
        if (i > 0 && !*p) {
            out[i] = 1;
            continue;
        }
        uint64_t v;
        if (!word_u64(ps, &p, desc, 1, UINT32_MAX, &v))
            return false;
        out[i] = (uint32_t)v;
        total *= v;
        if (total > max_total) {
            error(ps, "expected at most %llu in all for the %s size",
                  (unsigned long long)max_total, what);
            return false;
        }
    }
    return expect_end(ps, p, what);
}

static bool st_array(Parser *ps, const char *p)
{
    char name[128];
    p = next_word(p, name, sizeof name);
    if (!is_identifier(name) || strlen(name) > NAME_MAX_LEN) {
        error(ps, "expected an array name (letters, digits, _), found '%s'", name);
        return false;
    }
    for (uint32_t i = 0; i < ps->n_arrays; i++)
        if (!strcmp(ps->arrays[i].name, name)) {
            error(ps, "expected a new array name, found '%s' declared before", name);
            return false;
        }
    uint64_t base, elem;
    if (!word_u64(ps, &p, "the array's base byte address", 0, UINT64_MAX, &base) ||
        !word_u64(ps, &p, "the element size in bytes", 1, 16, &elem))
        return false;
    if (!is_pow2_u64(elem)) {
        error(ps, "expected an element size of 1, 2, 4, 8 or 16 bytes, found %llu",
              (unsigned long long)elem);
        return false;
    }
    if (!expect_end(ps, p, "the element size"))
        return false;
    if (ps->n_arrays == ps->cap_arrays) {
        ps->cap_arrays = ps->cap_arrays ? 2 * ps->cap_arrays : 8;
        ps->arrays = xrealloc(ps->arrays, ps->cap_arrays * sizeof *ps->arrays);
    }
    SynthArray *a = &ps->arrays[ps->n_arrays++];
    memcpy(a->name, name, strlen(name) + 1); /* length checked above */
    a->base = base;
    a->elem_bytes = (uint32_t)elem;
    return true;
}

static const struct { const char *name; WinstOp op; } alu_classes[] = {
    {"int", WOP_INT_ADD}, {"imul", WOP_INT_MUL}, {"imad", WOP_INT_MAD}, {"idiv", WOP_INT_DIV},
    {"fp", WOP_FP_ADD},   {"fmul", WOP_FP_MUL},  {"fmad", WOP_FP_MAD},  {"fdiv", WOP_FP_DIV},
    {"dp", WOP_DP_ADD},   {"dmul", WOP_DP_MUL},  {"dmad", WOP_DP_MAD},  {"ddiv", WOP_DP_DIV},
    {"sfu", WOP_SFU},
};

static bool st_alu(Parser *ps, const char *p)
{
    uint64_t n;
    if (!word_u64(ps, &p, "an instruction count", 1, SYNTH_MAX_INSTS, &n))
        return false;
    char cls[32];
    p = next_word(p, cls, sizeof cls);
    WinstOp op = WOP_INT_ADD;
    if (*cls) {
        size_t i = 0;
        while (i < ARRAY_LEN(alu_classes) && strcmp(alu_classes[i].name, cls))
            i++;
        if (i == ARRAY_LEN(alu_classes)) {
            error(ps, "expected an ALU class (int imul imad idiv fp fmul fmad fdiv dp dmul dmad "
                      "ddiv sfu), found '%s'", cls);
            return false;
        }
        op = alu_classes[i].op;
    }
    if (!expect_end(ps, p, "the ALU class"))
        return false;
    for (uint64_t i = 0; i < n; i++) {
        WinstStatic s = {.op = (uint8_t)op, .space = WSPACE_NONE};
        reg_read(ps, &s);
        s.dst[s.n_dst++] = SYNTH_REG_ACC;
        if (!add_inst(ps, s, (SynthOp){0}))
            return false;
    }
    return true;
}

static int32_t compile_expr(Parser *ps, const char **p)
{
    char msg[256];
    int32_t e = synth_expr_compile(ps->k, p, ps->loop_names, ps->n_loops, msg, sizeof msg);
    if (e < 0)
        error(ps, "expected %s", msg);
    return e;
}

/* load / store / atomic <array>[<expr>] */
static bool st_global(Parser *ps, const char *p, WinstOp op, const char *kw)
{
    p = skip_space(p);
    const char *name = p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t len = (size_t)(p - name);
    const SynthArray *a = NULL;
    for (uint32_t i = 0; i < ps->n_arrays && !a; i++)
        if (strlen(ps->arrays[i].name) == len && !memcmp(ps->arrays[i].name, name, len))
            a = &ps->arrays[i];
    if (!len || *p != '[') {
        error(ps, "expected '%s <array>[<expression>]'", kw);
        return false;
    }
    if (!a) {
        error(ps, "expected a declared array, found unknown array '%.*s'", (int)len, name);
        return false;
    }
    p++;
    int32_t e = compile_expr(ps, &p);
    if (e < 0)
        return false;
    p = skip_space(p);
    if (*p != ']') {
        error(ps, "expected ']' or an operator in the index of '%s', found '%.24s'", a->name,
              *p ? p : "end of line");
        return false;
    }
    if (!expect_end(ps, p + 1, "']'"))
        return false;
    WinstStatic s = {.op = (uint8_t)op, .space = WSPACE_GLOBAL, .access_bytes = (uint8_t)a->elem_bytes};
    if (op == WOP_LOAD)
        reg_write_load(ps, &s);
    else
        reg_read(ps, &s);
    SynthOp o = {.space = WSPACE_GLOBAL, .expr = (uint32_t)e, .base = a->base,
                 .elem_bytes = a->elem_bytes};
    return add_inst(ps, s, o);
}

/* shared_load / shared_store <byte offset expr>: one 4-byte word per lane. */
static bool st_shared(Parser *ps, const char *p, WinstOp op)
{
    int32_t e = compile_expr(ps, &p);
    if (e < 0 || !expect_end(ps, p, "the shared-memory offset"))
        return false;
    WinstStatic s = {.op = (uint8_t)op, .space = WSPACE_SHARED, .access_bytes = 4};
    if (op == WOP_LOAD)
        reg_write_load(ps, &s);
    else
        reg_read(ps, &s);
    ps->uses_shared = true;
    return add_inst(ps, s, (SynthOp){.space = WSPACE_SHARED, .expr = (uint32_t)e, .elem_bytes = 1});
}

static bool open_nest(Parser *ps, bool is_loop, uint32_t op, const char *name)
{
    if (is_loop ? ps->n_loops == SYNTH_MAX_LOOPS : ps->n_ifs == SYNTH_MAX_IFS) {
        error(ps, "expected at most %d nested %s", is_loop ? SYNTH_MAX_LOOPS : SYNTH_MAX_IFS,
              is_loop ? "loops" : "ifs");
        return false;
    }
    Nest *n = &ps->nest[ps->n_nest++];
    *n = (Nest){.is_loop = is_loop, .line = ps->line, .op = op, .insts_at_open = ps->k->n_insts};
    size_t len = MIN(strlen(name), sizeof n->name - 1);
    memcpy(n->name, name, len);
    n->name[len] = 0;
    if (is_loop)
        ps->loop_names[ps->n_loops++] = n->name;
    else
        ps->n_ifs++;
    return true;
}

static bool st_loop(Parser *ps, const char *p)
{
    char name[128];
    p = next_word(p, name, sizeof name);
    if (!is_identifier(name) || strlen(name) > NAME_MAX_LEN) {
        error(ps, "expected 'loop <variable> <count>', found variable '%s'", name);
        return false;
    }
    static const char *const reserved[] = {"tid", "ltid", "tx", "ty", "tz", "ctaid", "bx",
                                           "by", "bz", "lane", "warp", "ntid", "nctaid"};
    for (size_t i = 0; i < ARRAY_LEN(reserved); i++)
        if (!strcmp(name, reserved[i])) {
            error(ps, "expected a loop variable name, found built-in variable '%s'", name);
            return false;
        }
    for (unsigned d = 0; d < ps->n_loops; d++)
        if (!strcmp(name, ps->loop_names[d])) {
            error(ps, "expected a loop variable name, found '%s' of an enclosing loop", name);
            return false;
        }
    if (!*skip_space(p)) {
        error(ps, "expected a trip count after 'loop %s'", name);
        return false;
    }
    int32_t e = compile_expr(ps, &p);
    if (e < 0 || !expect_end(ps, p, "the loop count"))
        return false;
    const SynthExpr *x = &ps->k->exprs[e];
    if (x->uses_lane) {
        error(ps, "expected a loop count that is the same for all lanes (no tid, ltid, lane, "
                  "tx, ty, tz)");
        return false;
    }
    if (x->affine && x->n_terms == 0 && x->c < 0) {
        error(ps, "expected a non-negative loop count, found %lld", (long long)x->c);
        return false;
    }
    uint32_t op = add_op(ps->k, (SynthOp){.kind = SOP_LOOP, .depth = (uint8_t)ps->n_loops,
                                          .expr = (uint32_t)e});
    return open_nest(ps, true, op, name);
}

static bool st_if(Parser *ps, const char *p)
{
    if (!*skip_space(p)) {
        error(ps, "expected a condition after 'if'");
        return false;
    }
    int32_t e = compile_expr(ps, &p);
    if (e < 0 || !expect_end(ps, p, "the condition"))
        return false;
    uint32_t op = add_op(ps->k, (SynthOp){.kind = SOP_IF, .expr = (uint32_t)e});
    return open_nest(ps, false, op, "");
}

static bool st_end(Parser *ps, const char *p)
{
    if (!expect_end(ps, p, "'end'"))
        return false;
    if (ps->n_nest == 0) {
        error(ps, "expected a 'loop' or 'if' before this 'end'");
        return false;
    }
    Nest *n = &ps->nest[ps->n_nest - 1];
    SynthKernelDef *k = ps->k;
    if (n->is_loop && k->n_insts == n->insts_at_open) {
        error(ps, "expected at least one instruction in the body of loop '%s'", n->name);
        return false;
    }
    SynthOp *open = &k->ops[n->op];
    uint32_t end = add_op(k, (SynthOp){.kind = n->is_loop ? SOP_LOOP_END : SOP_IF_END,
                                       .depth = open->depth, .partner = n->op});
    k->ops[n->op].partner = end;
    if (n->is_loop)
        ps->n_loops--;
    else
        ps->n_ifs--;
    ps->n_nest--;
    return true;
}

/* Check the kernel being read and append its exit. */
static bool close_kernel(Parser *ps)
{
    if (!ps->k)
        return true;
    if (ps->n_nest) {
        const Nest *n = &ps->nest[ps->n_nest - 1];
        ps->line = n->line;
        error(ps, "expected an 'end' for this '%s'", n->is_loop ? "loop" : "if");
        return false;
    }
    ps->line = ps->kernel_line;
    const char *name = ps->k->fk.name;
    if (!ps->have_grid || !ps->have_block) {
        error(ps, "expected a '%s' line in kernel '%s'", ps->have_grid ? "block" : "grid", name);
        return false;
    }
    if (ps->uses_shared && !ps->have_smem) {
        error(ps, "expected an 'smem' line in kernel '%s', which uses shared memory", name);
        return false;
    }
    WinstStatic s = {.op = WOP_EXIT, .space = WSPACE_NONE};
    return add_inst(ps, s, (SynthOp){0});
}

static bool st_kernel(Parser *ps, const char *p)
{
    if (!close_kernel(ps))
        return false;
    char name[256];
    p = next_word(p, name, sizeof name);
    if (!*name || strlen(name) >= sizeof ps->k->fk.name) {
        error(ps, "expected a kernel name of 1 to %zu characters",
              sizeof ps->k->fk.name - 1);
        return false;
    }
    if (!expect_end(ps, p, "the kernel name"))
        return false;
    SynthProgram *prog = ps->prog;
    if (prog->n_kernels == prog->cap_kernels) {
        prog->cap_kernels = prog->cap_kernels ? 2 * prog->cap_kernels : 4;
        prog->kernels = xrealloc(prog->kernels, prog->cap_kernels * sizeof *prog->kernels);
    }
    ps->k = &prog->kernels[prog->n_kernels++];
    memset(ps->k, 0, sizeof *ps->k);
    memcpy(ps->k->fk.name, name, strlen(name) + 1); /* length checked above */
    ps->k->fk.regs_per_thread = 16;
    ps->kernel_line = ps->line;
    ps->have_grid = ps->have_block = ps->have_smem = ps->uses_shared = false;
    ps->next_load = ps->n_pending = 0;
    return true;
}

static bool statement(Parser *ps, char *line)
{
    char kw[32];
    const char *p = next_word(line, kw, sizeof kw);
    if (!*kw)
        return true;
    if (!strcmp(kw, "kernel"))
        return st_kernel(ps, p);
    if (!strcmp(kw, "array"))
        return st_array(ps, p);
    static const char *const known[] = {"grid", "block", "regs", "smem", "alu", "load",
                                        "store", "atomic", "shared_load", "shared_store",
                                        "loop", "if", "end", "barrier"};
    bool is_known = false;
    for (size_t i = 0; i < ARRAY_LEN(known); i++)
        is_known = is_known || !strcmp(kw, known[i]);
    if (!is_known) {
        error(ps, "unknown statement '%s' (expected kernel, grid, block, regs, smem, array, alu, "
                  "load, store, atomic, shared_load, shared_store, loop, if, end or barrier)", kw);
        return false;
    }
    if (!ps->k) {
        error(ps, "expected 'kernel <name>' before '%s'", kw);
        return false;
    }
    SynthKernelDef *k = ps->k;
    uint64_t v;
    if (!strcmp(kw, "grid")) {
        if (ps->have_grid) {
            error(ps, "expected one 'grid' line per kernel");
            return false;
        }
        ps->have_grid = true;
        return st_dims(ps, p, "grid", k->fk.grid, UINT32_MAX);
    }
    if (!strcmp(kw, "block")) {
        if (ps->have_block) {
            error(ps, "expected one 'block' line per kernel");
            return false;
        }
        ps->have_block = true;
        return st_dims(ps, p, "block", k->fk.block, 1024);
    }
    if (!strcmp(kw, "regs")) {
        if (!word_u64(ps, &p, "registers per thread", 1, 255, &v))
            return false;
        k->fk.regs_per_thread = (uint32_t)v;
        return expect_end(ps, p, "the register count");
    }
    if (!strcmp(kw, "smem")) {
        if (!word_u64(ps, &p, "shared memory bytes per CTA", 0, 1u << 20, &v))
            return false;
        k->fk.smem_bytes_per_cta = (uint32_t)v;
        ps->have_smem = v > 0;
        return expect_end(ps, p, "the shared memory size");
    }
    if (!strcmp(kw, "alu"))
        return st_alu(ps, p);
    if (!strcmp(kw, "load"))
        return st_global(ps, p, WOP_LOAD, kw);
    if (!strcmp(kw, "store"))
        return st_global(ps, p, WOP_STORE, kw);
    if (!strcmp(kw, "atomic"))
        return st_global(ps, p, WOP_ATOMIC, kw);
    if (!strcmp(kw, "shared_load"))
        return st_shared(ps, p, WOP_LOAD);
    if (!strcmp(kw, "shared_store"))
        return st_shared(ps, p, WOP_STORE);
    if (!strcmp(kw, "loop"))
        return st_loop(ps, p);
    if (!strcmp(kw, "if"))
        return st_if(ps, p);
    if (!strcmp(kw, "end"))
        return st_end(ps, p);
    /* barrier */
    if (!expect_end(ps, p, "'barrier'"))
        return false;
    return add_inst(ps, (WinstStatic){.op = WOP_BARRIER, .space = WSPACE_NONE}, (SynthOp){0});
}

SynthProgram *synth_parse(const char *text, const char *file_name, char *err, size_t err_cap)
{
    Parser ps = {.file = file_name ? file_name : "<synthetic>", .err = err, .err_cap = err_cap};
    ps.prog = xcalloc(1, sizeof *ps.prog);
    if (err_cap)
        err[0] = 0;
    size_t cap = 256;
    char *line = xmalloc(cap);
    const char *p = text;
    while (*p && !ps.failed) {
        ps.line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len + 1 > cap) {
            cap = len + 1;
            line = xrealloc(line, cap);
        }
        memcpy(line, p, len);
        line[len] = 0;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        statement(&ps, line);
        p = eol ? eol + 1 : p + len;
    }
    free(line);
    if (!ps.failed) {
        if (!ps.k) {
            ps.line = ps.line ? ps.line : 1;
            error(&ps, "expected at least one 'kernel <name>'");
        } else {
            close_kernel(&ps);
        }
    }
    free(ps.arrays);
    if (ps.failed) {
        synth_free(ps.prog);
        return NULL;
    }
    return ps.prog;
}

SynthProgram *synth_load_file(const char *path)
{
    char *text = read_file(path, NULL);
    if (!text)
        fatal("%s: cannot read the synthetic workload: %s", path, read_file_error(errno));
    char err[512];
    SynthProgram *p = synth_parse(text, path, err, sizeof err);
    free(text);
    if (!p)
        fatal("%s", err);
    return p;
}

void synth_free(SynthProgram *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->n_kernels; i++) {
        SynthKernelDef *k = &p->kernels[i];
        free(k->ops);
        free(k->insts);
        free(k->exprs);
        free(k->code);
    }
    free(p->kernels);
    free(p);
}

uint32_t synth_n_kernels(const SynthProgram *p) { return p->n_kernels; }

const FrontKernel *synth_kernel(const SynthProgram *p, uint32_t i)
{
    CHECK(i < p->n_kernels);
    return &p->kernels[i].fk;
}

uint32_t synth_kernel_n_insts(const SynthProgram *p, uint32_t i)
{
    CHECK(i < p->n_kernels);
    return p->kernels[i].n_insts;
}
