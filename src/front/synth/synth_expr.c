/* synth_expr.c: address and condition expressions of the synthetic front end.
 *
 * An expression is parsed once, at load time, into a small tree (C operator precedence),
 * then compiled to one of two forms:
 *   - affine: c + sum(coef * variable). Most address expressions are (A[tid*4096 + j]); their
 *     uniform part is a few multiply-adds per warp instruction and the lane part one more
 *     per lane, so 32 addresses cost about as much as one.
 *   - postfix bytecode over 32-lane vectors, for the rest (/, %, &, comparisons, products of
 *     variables). Each operation runs a tight loop over the lanes.
 * Constant subtrees are folded either way. Arithmetic is 64-bit two's complement and wraps;
 * x / 0 and x % 0 are 0 (so an inactive lane can never fault); >> is arithmetic; shift
 * counts are taken mod 64; comparisons give 1 or 0. No string work happens after compile. */
#include "front/synth/synth_internal.h"

#include "base/base.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAX_DEPTH bounds the parser's recursion (parentheses and unary operators), so a hostile
 * expression is an error rather than a stack overflow. */
enum { MAX_NODES = 128, MAX_DEPTH = 64 };

typedef struct Node {
    uint8_t code; /* SynthCode */
    uint8_t var;
    int32_t a, b; /* operands (node indices) */
    int64_t k;
} Node;

typedef struct ExprParser {
    const char *p;
    Node nodes[MAX_NODES];
    int n_nodes;
    const char *const *loop_names;
    unsigned n_loops;
    int depth; /* parse_unary calls in progress */
    char *err;
    size_t err_cap;
    bool failed;
} ExprParser;

typedef struct Affine {
    int64_t c;
    int64_t coef[SV_COUNT];
} Affine;

static const char *const builtin_names[SV_LOOP0] = {
    [SV_TID] = "tid",     [SV_LTID] = "ltid", [SV_LANE] = "lane", [SV_TX] = "tx",
    [SV_TY] = "ty",       [SV_TZ] = "tz",     [SV_CTAID] = "ctaid", [SV_BX] = "bx",
    [SV_BY] = "by",       [SV_BZ] = "bz",     [SV_WARP] = "warp", [SV_NTID] = "ntid",
    [SV_NCTAID] = "nctaid",
};

/* ---- scalar semantics (shared by folding and the lane loops) ---------------------------- */

static inline int64_t wrap(uint64_t x) { return (int64_t)x; }

static inline int64_t op_div(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return wrap(0 - (uint64_t)a); /* INT64_MIN / -1 wraps instead of trapping */
    return a / b;
}

static inline int64_t op_mod(int64_t a, int64_t b)
{
    return (b == 0 || b == -1) ? 0 : a % b;
}

static inline int64_t op_shr(int64_t a, int64_t b)
{
    unsigned s = (unsigned)((uint64_t)b & 63);
    return a < 0 ? ~(int64_t)(~(uint64_t)a >> s) : (int64_t)((uint64_t)a >> s);
}

static int64_t scalar_binop(SynthCode code, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (code) {
    case SC_ADD: return wrap(ua + ub);
    case SC_SUB: return wrap(ua - ub);
    case SC_MUL: return wrap(ua * ub);
    case SC_DIV: return op_div(a, b);
    case SC_MOD: return op_mod(a, b);
    case SC_SHL: return wrap(ua << (ub & 63));
    case SC_SHR: return op_shr(a, b);
    case SC_AND: return wrap(ua & ub);
    case SC_OR: return wrap(ua | ub);
    case SC_XOR: return wrap(ua ^ ub);
    case SC_LT: return a < b;
    case SC_LE: return a <= b;
    case SC_GT: return a > b;
    case SC_GE: return a >= b;
    case SC_EQ: return a == b;
    case SC_NE: return a != b;
    default: CHECK(!"not a binary code"); return 0;
    }
}

/* ---- parsing ---------------------------------------------------------------------------- */

static void perr(ExprParser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(ExprParser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, ps->err_cap, fmt, ap);
    va_end(ap);
}

static void skip_space(ExprParser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
        ps->p++;
}

static int new_node(ExprParser *ps, SynthCode code, int a, int b)
{
    if (ps->n_nodes == MAX_NODES) {
        perr(ps, "an expression of at most %d terms", MAX_NODES);
        return -1;
    }
    Node *n = &ps->nodes[ps->n_nodes];
    *n = (Node){.code = (uint8_t)code, .a = a, .b = b};
    return ps->n_nodes++;
}

/* A short description of what is at p, for messages. */
static void describe(const char *p, char *out, size_t cap)
{
    if (!*p || *p == '\n' || *p == '#') {
        snprintf(out, cap, "end of line");
        return;
    }
    size_t n = 0;
    while (p[n] && p[n] != '\n' && !isspace((unsigned char)p[n]) && n < 24)
        n++;
    snprintf(out, cap, "'%.*s'", (int)n, p);
}

static int parse_number(ExprParser *ps)
{
    const char *p = ps->p;
    uint64_t v = 0;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    bool overflow = false;
    const char *digits = hex ? p + 2 : p;
    const char *q = digits;
    for (;; q++) {
        unsigned d;
        if (isdigit((unsigned char)*q))
            d = (unsigned)(*q - '0');
        else if (hex && isxdigit((unsigned char)*q))
            d = (unsigned)(tolower((unsigned char)*q) - 'a' + 10);
        else
            break;
        uint64_t base = hex ? 16 : 10;
        if (v > (UINT64_MAX - d) / base)
            overflow = true;
        v = v * base + d;
    }
    if (q == digits || isalnum((unsigned char)*q) || *q == '_') {
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        perr(ps, "a decimal or 0x hex number, found '%.*s'", (int)(q - p), p);
        return -1;
    }
    if (overflow || v > (uint64_t)INT64_MAX) {
        perr(ps, "a number below 2^63, found '%.*s'", (int)(q - p), p);
        return -1;
    }
    ps->p = q;
    int n = new_node(ps, SC_CONST, -1, -1);
    if (n >= 0)
        ps->nodes[n].k = (int64_t)v;
    return n;
}

static int parse_name(ExprParser *ps)
{
    const char *p = ps->p, *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
        q++;
    size_t len = (size_t)(q - p);
    int var = -1;
    for (unsigned d = ps->n_loops; d-- > 0 && var < 0;) /* innermost loop first */
        if (strlen(ps->loop_names[d]) == len && !memcmp(ps->loop_names[d], p, len))
            var = SV_LOOP0 + (int)d;
    for (int v = 0; v < SV_LOOP0 && var < 0; v++)
        if (strlen(builtin_names[v]) == len && !memcmp(builtin_names[v], p, len))
            var = v;
    if (var < 0) {
        perr(ps, "a variable (tid, ltid, tx, ty, tz, ctaid, bx, by, bz, lane, warp, ntid, "
                 "nctaid or a loop variable), found '%.*s'", (int)len, p);
        return -1;
    }
    ps->p = q;
    int n = new_node(ps, SC_VAR, -1, -1);
    if (n >= 0)
        ps->nodes[n].var = (uint8_t)var;
    return n;
}

static int parse_binary(ExprParser *ps, int min_prec);
static int parse_unary(ExprParser *ps);

static int parse_unary_at(ExprParser *ps)
{
    skip_space(ps);
    char c = *ps->p;
    if (c == '-' || c == '~') {
        ps->p++;
        int a = parse_unary(ps);
        return a < 0 ? -1 : new_node(ps, c == '-' ? SC_NEG : SC_NOT, a, -1);
    }
    if (c == '(') {
        ps->p++;
        int a = parse_binary(ps, 1);
        if (a < 0)
            return -1;
        skip_space(ps);
        if (*ps->p != ')') {
            char what[40];
            describe(ps->p, what, sizeof what);
            perr(ps, "')' in expression, found %s", what);
            return -1;
        }
        ps->p++;
        return a;
    }
    if (isdigit((unsigned char)c))
        return parse_number(ps);
    if (isalpha((unsigned char)c) || c == '_')
        return parse_name(ps);
    char what[40];
    describe(ps->p, what, sizeof what);
    perr(ps, "a number, a variable or '(' in expression, found %s", what);
    return -1;
}

/* Every recursion of the parser passes through here, so this is where its depth is bounded. */
static int parse_unary(ExprParser *ps)
{
    if (ps->depth == MAX_DEPTH) {
        perr(ps, "an expression nested at most %d deep (parentheses and unary - ~)", MAX_DEPTH);
        return -1;
    }
    ps->depth++;
    int n = parse_unary_at(ps);
    ps->depth--;
    return n;
}

/* The binary operator at p: its code, precedence (C's, higher binds tighter) and length. */
static int binary_op_at(const char *p, SynthCode *code, int *len)
{
    static const struct { const char *s; SynthCode code; int prec; } ops[] = {
        {"<<", SC_SHL, 6}, {">>", SC_SHR, 6}, {"<=", SC_LE, 5}, {">=", SC_GE, 5},
        {"==", SC_EQ, 4},  {"!=", SC_NE, 4},  {"|", SC_OR, 1},  {"^", SC_XOR, 2},
        {"&", SC_AND, 3},  {"<", SC_LT, 5},   {">", SC_GT, 5},  {"+", SC_ADD, 7},
        {"-", SC_SUB, 7},  {"*", SC_MUL, 8},  {"/", SC_DIV, 8}, {"%", SC_MOD, 8},
    };
    for (size_t i = 0; i < ARRAY_LEN(ops); i++) {
        size_t n = strlen(ops[i].s);
        if (!strncmp(p, ops[i].s, n)) {
            *code = ops[i].code;
            *len = (int)n;
            return ops[i].prec;
        }
    }
    return 0;
}

/* Precedence climbing: all operators are left-associative. */
static int parse_binary(ExprParser *ps, int min_prec)
{
    int lhs = parse_unary(ps);
    for (;;) {
        if (lhs < 0)
            return -1;
        skip_space(ps);
        SynthCode code;
        int len;
        int prec = binary_op_at(ps->p, &code, &len);
        if (prec == 0 || prec < min_prec)
            return lhs;
        ps->p += len;
        int rhs = parse_binary(ps, prec + 1);
        if (rhs < 0)
            return -1;
        lhs = new_node(ps, code, lhs, rhs);
    }
}

/* ---- compiling -------------------------------------------------------------------------- */

static bool affine_of(const ExprParser *ps, int n, Affine *out)
{
    const Node *nd = &ps->nodes[n];
    memset(out, 0, sizeof *out);
    if (nd->code == SC_CONST) {
        out->c = nd->k;
        return true;
    }
    if (nd->code == SC_VAR) {
        out->coef[nd->var] = 1;
        return true;
    }
    Affine a, b;
    if (!affine_of(ps, nd->a, &a))
        return false;
    bool a_const = true;
    for (int v = 0; v < SV_COUNT; v++)
        a_const = a_const && a.coef[v] == 0;
    if (nd->code == SC_NEG || nd->code == SC_NOT) {
        if (nd->code == SC_NOT && !a_const)
            return false;
        out->c = nd->code == SC_NEG ? wrap(0 - (uint64_t)a.c) : ~a.c;
        for (int v = 0; v < SV_COUNT; v++)
            out->coef[v] = wrap(0 - (uint64_t)a.coef[v]);
        return true;
    }
    if (!affine_of(ps, nd->b, &b))
        return false;
    bool b_const = true;
    for (int v = 0; v < SV_COUNT; v++)
        b_const = b_const && b.coef[v] == 0;
    SynthCode code = (SynthCode)nd->code;
    if (code == SC_ADD || code == SC_SUB) {
        *out = a;
        out->c = scalar_binop(code, a.c, b.c);
        for (int v = 0; v < SV_COUNT; v++)
            out->coef[v] = scalar_binop(code, a.coef[v], b.coef[v]);
        return true;
    }
    if ((code == SC_MUL && (a_const || b_const)) || (code == SC_SHL && b_const)) {
        const Affine *x = code == SC_MUL && a_const ? &b : &a;
        int64_t s = code == SC_SHL ? wrap((uint64_t)1 << ((uint64_t)b.c & 63))
                    : a_const      ? a.c
                                   : b.c;
        out->c = scalar_binop(SC_MUL, x->c, s);
        for (int v = 0; v < SV_COUNT; v++)
            out->coef[v] = scalar_binop(SC_MUL, x->coef[v], s);
        return true;
    }
    if (a_const && b_const) {
        out->c = scalar_binop(code, a.c, b.c);
        return true;
    }
    return false;
}

static bool uses_lane_var(const ExprParser *ps, int n)
{
    const Node *nd = &ps->nodes[n];
    if (nd->code == SC_VAR)
        return nd->var < SV_N_LANE;
    if (nd->code == SC_CONST)
        return false;
    return uses_lane_var(ps, nd->a) || (nd->b >= 0 && uses_lane_var(ps, nd->b));
}

static void push_insn(SynthKernelDef *k, SynthInsn in)
{
    if (k->n_code == k->cap_code) {
        k->cap_code = k->cap_code ? 2 * k->cap_code : 64;
        k->code = xrealloc(k->code, k->cap_code * sizeof *k->code);
    }
    k->code[k->n_code++] = in;
}

/* Emit node n in postfix, folding constant subtrees; tracks the stack depth. */
static void emit(const ExprParser *ps, SynthKernelDef *k, int n, int *depth, int *max_depth)
{
    const Node *nd = &ps->nodes[n];
    Affine a;
    bool is_const = nd->code != SC_VAR && affine_of(ps, n, &a);
    for (int v = 0; is_const && v < SV_COUNT; v++)
        is_const = a.coef[v] == 0;
    if (is_const || nd->code == SC_CONST || nd->code == SC_VAR) {
        push_insn(k, is_const ? (SynthInsn){.code = SC_CONST, .k = a.c}
                              : (SynthInsn){.code = nd->code, .var = nd->var, .k = nd->k});
        if (++*depth > *max_depth)
            *max_depth = *depth;
        return;
    }
    emit(ps, k, nd->a, depth, max_depth);
    if (nd->b >= 0) {
        emit(ps, k, nd->b, depth, max_depth);
        --*depth;
    }
    push_insn(k, (SynthInsn){.code = nd->code});
}

/* Turn a dense affine form into the compact one; false if it has too many uniform terms. */
static bool compact_affine(const Affine *a, SynthExpr *e)
{
    e->affine = true;
    e->c = a->c;
    e->lane_coef = wrap((uint64_t)a->coef[SV_TID] + (uint64_t)a->coef[SV_LTID] +
                        (uint64_t)a->coef[SV_LANE]);
    for (int i = 0; i < 3; i++) {
        e->txyz_coef[i] = a->coef[SV_TX + i];
        e->has_txyz = e->has_txyz || e->txyz_coef[i] != 0;
    }
    e->uses_lane = e->lane_coef != 0 || e->has_txyz;
    for (int v = 0; v < SV_COUNT; v++) {
        bool uniform_part = v == SV_TID || v == SV_LTID || v >= SV_N_LANE;
        if (!uniform_part || a->coef[v] == 0)
            continue;
        if (e->n_terms == SYNTH_MAX_TERMS)
            return false;
        e->term_var[e->n_terms] = (uint8_t)v;
        e->term_coef[e->n_terms++] = a->coef[v];
    }
    return true;
}

int32_t synth_expr_compile(SynthKernelDef *k, const char **pos, const char *const *loop_names,
                           unsigned n_loops, char *err, size_t err_cap)
{
    ExprParser *ps = xcalloc(1, sizeof *ps);
    ps->p = *pos;
    ps->loop_names = loop_names;
    ps->n_loops = n_loops;
    ps->err = err;
    ps->err_cap = err_cap;
    int root = parse_binary(ps, 1);
    int32_t result = -1;
    if (root >= 0) {
        SynthExpr e = {0};
        Affine a;
        if (!affine_of(ps, root, &a) || !compact_affine(&a, &e)) {
            e = (SynthExpr){.uses_lane = uses_lane_var(ps, root), .code_first = k->n_code};
            int depth = 0, max_depth = 0;
            emit(ps, k, root, &depth, &max_depth);
            e.code_len = k->n_code - e.code_first;
            if (max_depth > SYNTH_MAX_STACK) {
                k->n_code = e.code_first;
                perr(ps, "a less deeply nested expression (at most %d pending operands)",
                     SYNTH_MAX_STACK);
            }
        }
        if (!ps->failed) {
            if (k->n_exprs == k->cap_exprs) {
                k->cap_exprs = k->cap_exprs ? 2 * k->cap_exprs : 16;
                k->exprs = xrealloc(k->exprs, k->cap_exprs * sizeof *k->exprs);
            }
            k->exprs[k->n_exprs] = e;
            result = (int32_t)k->n_exprs++;
            *pos = ps->p;
        }
    }
    free(ps);
    return result;
}

/* ---- evaluation ------------------------------------------------------------------------- */

static int64_t affine_uniform(const SynthExpr *e, const int64_t *uniform)
{
    uint64_t u = (uint64_t)e->c;
    for (unsigned i = 0; i < e->n_terms; i++)
        u += (uint64_t)e->term_coef[i] * (uint64_t)uniform[e->term_var[i]];
    return wrap(u);
}

#define LANES(stmt)                                                                            \
    do {                                                                                       \
        for (int l = 0; l < WARP_SIZE; l++)                                                    \
            stmt;                                                                              \
    } while (0)

void synth_expr_eval(const SynthKernelDef *k, const SynthExpr *e, const SynthEnv *env,
                     int64_t out[WARP_SIZE])
{
    if (e->affine) {
        uint64_t u = (uint64_t)affine_uniform(e, env->uniform), s = (uint64_t)e->lane_coef;
        LANES(out[l] = wrap(u + s * (uint64_t)l));
        for (int d = 0; e->has_txyz && d < 3; d++) {
            uint64_t c = (uint64_t)e->txyz_coef[d];
            const int32_t *t = env->txyz[d];
            LANES(out[l] = wrap((uint64_t)out[l] + c * (uint64_t)(int64_t)t[l]));
        }
        return;
    }
    int64_t st[SYNTH_MAX_STACK][WARP_SIZE];
    int sp = -1;
    const SynthInsn *code = k->code + e->code_first;
    for (uint32_t i = 0; i < e->code_len; i++) {
        const SynthInsn *in = &code[i];
        if (in->code == SC_CONST) {
            int64_t *t = st[++sp];
            LANES(t[l] = in->k);
            continue;
        }
        if (in->code == SC_VAR) {
            int64_t *t = st[++sp];
            int64_t u = env->uniform[in->var];
            if (in->var == SV_TID || in->var == SV_LTID || in->var == SV_LANE)
                LANES(t[l] = wrap((uint64_t)u + (uint64_t)l));
            else if (in->var == SV_TX || in->var == SV_TY || in->var == SV_TZ)
                LANES(t[l] = env->txyz[in->var - SV_TX][l]);
            else
                LANES(t[l] = u);
            continue;
        }
        if (in->code == SC_NEG || in->code == SC_NOT) {
            int64_t *a = st[sp];
            if (in->code == SC_NEG)
                LANES(a[l] = wrap(0 - (uint64_t)a[l]));
            else
                LANES(a[l] = ~a[l]);
            continue;
        }
        int64_t *a = st[sp - 1];
        const int64_t *b = st[sp];
        sp--;
        switch ((SynthCode)in->code) {
        case SC_ADD: LANES(a[l] = wrap((uint64_t)a[l] + (uint64_t)b[l])); break;
        case SC_SUB: LANES(a[l] = wrap((uint64_t)a[l] - (uint64_t)b[l])); break;
        case SC_MUL: LANES(a[l] = wrap((uint64_t)a[l] * (uint64_t)b[l])); break;
        case SC_DIV: LANES(a[l] = op_div(a[l], b[l])); break;
        case SC_MOD: LANES(a[l] = op_mod(a[l], b[l])); break;
        case SC_SHL: LANES(a[l] = wrap((uint64_t)a[l] << ((uint64_t)b[l] & 63))); break;
        case SC_SHR: LANES(a[l] = op_shr(a[l], b[l])); break;
        case SC_AND: LANES(a[l] = a[l] & b[l]); break;
        case SC_OR: LANES(a[l] = a[l] | b[l]); break;
        case SC_XOR: LANES(a[l] = a[l] ^ b[l]); break;
        case SC_LT: LANES(a[l] = a[l] < b[l]); break;
        case SC_LE: LANES(a[l] = a[l] <= b[l]); break;
        case SC_GT: LANES(a[l] = a[l] > b[l]); break;
        case SC_GE: LANES(a[l] = a[l] >= b[l]); break;
        case SC_EQ: LANES(a[l] = a[l] == b[l]); break;
        case SC_NE: LANES(a[l] = a[l] != b[l]); break;
        default: CHECK(!"bad bytecode"); break;
        }
    }
    CHECK(sp == 0);
    memcpy(out, st[0], sizeof st[0]);
}

int64_t synth_expr_eval_uniform(const SynthKernelDef *k, const SynthExpr *e, const SynthEnv *env)
{
    if (e->affine)
        return affine_uniform(e, env->uniform);
    int64_t v[WARP_SIZE];
    synth_expr_eval(k, e, env, v);
    return v[0];
}
