/* ptx_wmma.c: wmma.load, wmma.store and wmma.mma (PTX ISA 9.7.14.4), the tensor-core
 * instructions nvcc emits for nvcuda::wmma: shapes m16n16k16, m32n8k16 and m8n32k16; a and b
 * of .f16, .bf16, .s8 or .u8; c and d of .f16, .f32 or .s32; row and col layouts, any stride.
 *
 * The fragment layout. PTX leaves the mapping of matrix elements to a fragment's registers
 * unspecified (a program may only apply element-wise operations to them); it lets a and b
 * depend on the layout their wmma.load names, which wmma.mma must repeat, while c and d mean the
 * same whatever layout loads or stores them. warpsim's choice: lane l's slot s (register s / per,
 * element s % per, low bits first; per = 2 halves or 4 bytes a register) holds fragment index
 * q = (l * slots + s) mod size, where slots is the elements a lane holds and size the matrix's.
 * For a and b, q counts elements in memory order (row by row for .row, column by column for
 * .col), so each lane's slots are a contiguous run of memory when the stride is the matrix's
 * width; for c and d, q counts row by row. An .f16 a or b fragment has eight registers
 * whatever the shape (what nvcc declares, as on Volta, where lanes share elements): there
 * size < 32 * slots, and the lanes beyond the first copy hold the same elements again.
 *
 * The arithmetic. d = c + a x b with exact products, summed in float (f16 and bf16 inputs) with
 * one rounding to nearest per addition, in the order c, then k = 0, 1, ..., K - 1; an .f16 d
 * is the float sum rounded to nearest once at the end. Integer inputs sum exactly in 64 bits;
 * the s32 result wraps, or with .satfinite clamps. Every instruction needs the whole warp (the
 * .sync.aligned forms); a warp with fewer active threads faults. */
#include "front/ptx/ptx_wmma.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    uint8_t m, n, k;
} shapes[WMMA_N_SHAPES] = {
    [WMMA_M16N16K16] = {"m16n16k16", 16, 16, 16},
    [WMMA_M32N8K16] = {"m32n8k16", 32, 8, 16},
    [WMMA_M8N32K16] = {"m8n32k16", 8, 32, 16},
};

static const struct {
    const char *name;
    uint8_t type;
} elem_types[] = {
    {"f16", PT_F16}, {"bf16", PT_BF16}, {"f32", PT_F32}, {"s32", PT_S32}, {"s8", PT_S8}, {"u8", PT_U8},
};

/* Fragment types PTX has that warpsim does not run. */
static const char *const unsupported_types[] = {"tf32", "f64", "s4", "u4", "b1", "e4m3", "e5m2"};

enum { MAT_A, MAT_B, MAT_CD };

static unsigned matrix_of(uint8_t mode)
{
    return mode == WMMA_LOAD_A ? MAT_A : mode == WMMA_LOAD_B ? MAT_B : MAT_CD;
}

static const char *const sub_names[] = {"load.a", "load.b", "load.c", "store.d", "mma"};

static unsigned elem_bits(uint8_t t)
{
    return t == PT_S8 || t == PT_U8 ? 8 : t == PT_F16 || t == PT_BF16 ? 16 : 32;
}

/* One fragment's geometry: the matrix (rows x cols), the lane's slots and how they pack. */
typedef struct Frag {
    unsigned rows, cols, size, slots, per, bits, regs;
    uint8_t type;
    bool col; /* fragment order is column by column */
} Frag;

static Frag frag_of(uint8_t shape, unsigned mat, uint8_t type, bool col)
{
    Frag f;
    const unsigned m = shapes[shape].m, n = shapes[shape].n, k = shapes[shape].k;
    f.rows = mat == MAT_B ? k : m;
    f.cols = mat == MAT_A ? k : n;
    f.size = f.rows * f.cols;
    f.bits = elem_bits(type);
    f.per = 32 / f.bits;
    f.type = type;
    f.col = col && mat != MAT_CD;
    if (mat == MAT_CD)
        f.regs = type == PT_F16 ? 4 : 8;
    else if (type == PT_F16)
        f.regs = 8; /* what nvcc declares for every shape (Volta's shared elements) */
    else
        f.regs = f.size / WARP_SIZE / f.per;
    f.slots = f.regs * f.per;
    return f;
}

/* Matrix row and column of fragment index q. */
static void coord(const Frag *f, unsigned q, unsigned *r, unsigned *c)
{
    if (f->col) {
        *c = q / f->rows;
        *r = q % f->rows;
    } else {
        *r = q / f->cols;
        *c = q % f->cols;
    }
}

/* ---- decoding ---- */

static bool word_is(const char *w, size_t wl, const char *s)
{
    return strlen(s) == wl && !memcmp(w, s, wl);
}

static bool fail(char *why, size_t why_len, const char *word, size_t len, const char *what)
{
    snprintf(why, why_len, "'%.*s': %s", (int)len, word, what);
    return false;
}

static bool type_ok(unsigned mat, uint8_t t)
{
    if (mat == MAT_CD)
        return t == PT_F16 || t == PT_F32 || t == PT_S32;
    return t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8;
}

bool ptx_wmma_decode(const char *word, size_t len, PtxInst *in, char *why, size_t why_len)
{
    const char *end = word + len, *p = word + 4; /* past "wmma" */
    int sub = -1;
    unsigned n_types = 0, n_layouts = 0;
    uint8_t types[4] = {0}, layouts = 0;
    bool have_shape = false;
    const char *bad_shape = NULL; /* reported after the types, which name the real limit */
    size_t bad_len = 0;
    in->op = OP_WMMA;
    char msg[128];
    while (p < end) {
        const char *w = p + 1;
        const char *q = memchr(w, '.', (size_t)(end - w));
        size_t wl = q ? (size_t)(q - w) : (size_t)(end - w);
        p = q ? q : end;
        if (sub < 0) {
            if (word_is(w, wl, "mma"))
                sub = WMMA_MMA;
            else if (word_is(w, wl, "load") || word_is(w, wl, "store")) {
                bool load = wl == 4;
                const char *m = p < end ? p + 1 : p;
                if (p >= end || (size_t)(end - m) < 1 || (m + 1 < end && m[1] != '.'))
                    return fail(why, why_len, word, len, "expected the matrix (.a, .b, .c or .d)");
                sub = load && *m == 'a' ? WMMA_LOAD_A : load && *m == 'b' ? WMMA_LOAD_B
                      : load && *m == 'c' ? WMMA_LOAD_C : !load && *m == 'd' ? WMMA_STORE_D : -2;
                if (sub == -2)
                    return fail(why, why_len, word, len, load ? "wmma.load takes .a, .b or .c" : "wmma.store takes .d");
                p = m + 1;
            } else {
                return fail(why, why_len, word, len, "expected wmma.load, wmma.store or wmma.mma");
            }
            continue;
        }
        if (word_is(w, wl, "sync") || word_is(w, wl, "aligned"))
            continue;
        if (word_is(w, wl, "row") || word_is(w, wl, "col")) {
            if (n_layouts == 2)
                return fail(why, why_len, word, len, "too many layouts");
            if (*w == 'c')
                layouts |= (uint8_t)(n_layouts == 0 ? WMMA_COL_A : WMMA_COL_B);
            n_layouts++;
            continue;
        }
        bool known = false;
        for (unsigned s = 0; s < WMMA_N_SHAPES && !known; s++)
            if (word_is(w, wl, shapes[s].name)) {
                in->shape = (uint8_t)s;
                have_shape = known = true;
            }
        for (size_t t = 0; t < ARRAY_LEN(elem_types) && !known; t++)
            if (word_is(w, wl, elem_types[t].name)) {
                if (n_types == 4)
                    return fail(why, why_len, word, len, "too many types");
                types[n_types++] = elem_types[t].type;
                known = true;
            }
        if (known)
            continue;
        if (sub != WMMA_MMA && (word_is(w, wl, "global") || word_is(w, wl, "shared") || word_is(w, wl, "shared::cta"))) {
            in->space = *w == 'g' ? SP_GLOBAL : SP_SHARED;
            continue;
        }
        if (sub == WMMA_MMA && word_is(w, wl, "satfinite")) {
            in->flags |= PF_SAT;
            continue;
        }
        for (size_t t = 0; t < ARRAY_LEN(unsupported_types); t++)
            if (word_is(w, wl, unsupported_types[t])) {
                snprintf(msg, sizeof msg, "wmma on .%s elements is not supported (only .f16, .bf16, .s8 and .u8 "
                         "inputs)", unsupported_types[t]);
                return fail(why, why_len, word, len, msg);
            }
        if (wl >= 2 && *w == 'm' && memchr(w, 'n', wl) && memchr(w, 'k', wl)) {
            bad_shape = w;
            bad_len = wl;
            continue;
        }
        snprintf(msg, sizeof msg, "unsupported modifier '.%.*s'", (int)wl, w);
        return fail(why, why_len, word, len, msg);
    }
    if (sub < 0)
        return fail(why, why_len, word, len, "expected wmma.load, wmma.store or wmma.mma");
    if (bad_shape) {
        snprintf(msg, sizeof msg, "the shape .%.*s is not supported (only m16n16k16, m32n8k16 and m8n32k16)",
                 (int)bad_len, bad_shape);
        return fail(why, why_len, word, len, msg);
    }
    in->mode = (uint8_t)sub;
    in->layout = layouts;
    if (!have_shape)
        return fail(why, why_len, word, len, "expected a shape (.m16n16k16, .m32n8k16 or .m8n32k16)");
    if (n_layouts != (sub == WMMA_MMA ? 2u : 1u))
        return fail(why, why_len, word, len, sub == WMMA_MMA ? "expected two layouts (.row or .col for a, then b)"
                                                             : "expected a layout (.row or .col)");
    if (sub != WMMA_MMA) {
        if (n_types != 1 || !type_ok(matrix_of((uint8_t)sub), types[0]))
            return fail(why, why_len, word, len, matrix_of((uint8_t)sub) == MAT_CD
                        ? "expected one type: .f16, .f32 or .s32" : "expected one type: .f16, .bf16, .s8 or .u8");
        in->type = types[0];
        return true;
    }
    /* mma: .dtype.ctype (f16 inputs) or .dtype.atype.btype.ctype */
    if (n_types == 2) {
        in->type = PT_F16;
        in->type2 = types[0];
        in->type3 = types[1];
        if ((types[0] != PT_F16 && types[0] != PT_F32) || (types[1] != PT_F16 && types[1] != PT_F32))
            return fail(why, why_len, word, len, "with .f16 inputs, d and c are .f16 or .f32");
    } else if (n_types == 4) {
        in->type = types[1];
        in->type2 = types[0];
        in->type3 = types[3];
        bool integer = types[1] == PT_S8 || types[1] == PT_U8;
        if (types[1] != types[2])
            return fail(why, why_len, word, len, "a and b must have the same type");
        if (integer ? types[0] != PT_S32 || types[3] != PT_S32
                    : types[1] != PT_BF16 || types[0] != PT_F32 || types[3] != PT_F32)
            return fail(why, why_len, word, len, "expected .f32.bf16.bf16.f32, .s32.s8.s8.s32 or .s32.u8.u8.s32");
    } else {
        return fail(why, why_len, word, len, "expected the types .dtype.ctype or .dtype.atype.btype.ctype");
    }
    if ((in->flags & PF_SAT) && in->type2 != PT_S32)
        return fail(why, why_len, word, len, ".satfinite is supported on integer wmma.mma only");
    return true;
}

void ptx_wmma_arity(const PtxInst *in, unsigned *lo, unsigned *hi)
{
    *lo = in->mode == WMMA_MMA ? 4 : 2;
    *hi = in->mode == WMMA_MMA ? 4 : 3;
}

static const char *check_frag(const PtxOperand *o, const Frag *f, const char *what, char *buf, size_t len)
{
    if (o->kind != OK_VEC || o->n != f->regs) {
        snprintf(buf, len, "expected %s as {...} of %u registers", what, f->regs);
        return buf;
    }
    for (unsigned k = 0; k < o->n; k++)
        if (o->vreg[k] == PTX_NO_REG) {
            snprintf(buf, len, "'_' in the fragment %s", what);
            return buf;
        }
    return NULL;
}

const char *ptx_wmma_check(const PtxInst *in, char *buf, size_t len)
{
    const PtxOperand *o = in->o;
    if (in->mode == WMMA_MMA) {
        Frag fd = frag_of(in->shape, MAT_CD, in->type2, false), fc = frag_of(in->shape, MAT_CD, in->type3, false);
        Frag fa = frag_of(in->shape, MAT_A, in->type, false), fb = frag_of(in->shape, MAT_B, in->type, false);
        const char *e = check_frag(&o[0], &fd, "d", buf, len);
        if (!e)
            e = check_frag(&o[1], &fa, "a", buf, len);
        if (!e)
            e = check_frag(&o[2], &fb, "b", buf, len);
        if (!e)
            e = check_frag(&o[3], &fc, "c", buf, len);
        return e;
    }
    bool store = in->mode == WMMA_STORE_D;
    Frag f = frag_of(in->shape, matrix_of(in->mode), in->type, false);
    if (o[store ? 0 : 1].kind != OK_ADDR) {
        snprintf(buf, len, store ? "expected 'wmma.store [address], {d...}, stride'"
                                 : "expected 'wmma.load {d...}, [address], stride'");
        return buf;
    }
    const char *e = check_frag(&o[store ? 1 : 0], &f, store ? "d" : "loaded", buf, len);
    if (!e && in->n_ops == 3 && o[2].kind != OK_REG && o[2].kind != OK_IMM) {
        snprintf(buf, len, "expected the stride as a register or an integer");
        return buf;
    }
    return e;
}

unsigned ptx_wmma_lane_bytes(const PtxInst *in)
{
    if (in->mode == WMMA_MMA)
        return 0;
    Frag f = frag_of(in->shape, matrix_of(in->mode), in->type, false);
    return f.slots * f.bits / 8;
}

uint32_t ptx_module_wmma_line(const PtxModule *m)
{
    for (uint32_t pc = 0; pc < m->n_insts; pc++)
        if (m->insts[pc].op == OP_WMMA)
            return m->insts[pc].line;
    return 0;
}

/* ---- execution ---- */

static uint64_t slot_get(const PtxWarp *w, const PtxOperand *o, const Frag *f, unsigned lane, unsigned s)
{
    uint64_t v = w->regs[(size_t)o->vreg[s / f->per] * WARP_SIZE + lane];
    return (v >> (s % f->per * f->bits)) & ptx_zmask(f->bits / 8);
}

static void wmma_mem(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, Winst *out)
{
    bool store = in->mode == WMMA_STORE_D, mem_col = in->layout & WMMA_COL_A;
    const PtxOperand *ao = &in->o[store ? 0 : 1], *fo = &in->o[store ? 1 : 0];
    Frag f = frag_of(in->shape, matrix_of(in->mode), in->type, mem_col);
    uint64_t tmp[WARP_SIZE], defstride = mem_col ? f.rows : f.cols;
    unsigned sstride = 0;
    const uint64_t *stride = in->n_ops == 3 ? ptx_operand_values(l, w, &in->o[2], tmp, &sstride) : &defstride;
    uint64_t disp = ao->imm + (ao->sym != PTX_NO_SYM ? l->sym_addr[ao->sym] : 0);
    const uint64_t *base = ao->reg != PTX_NO_REG ? w->regs + (size_t)ao->reg * WARP_SIZE : NULL;
    unsigned eb = f.bits / 8;
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t ld = (uint32_t)stride[lane * sstride], vals[PTX_MAX_VEC] = {0};
        for (unsigned s = 0; s < f.slots; s++) {
            unsigned r, c, q = (lane * f.slots + s) % f.size;
            coord(&f, q, &r, &c); /* c and d: row by row, whatever the memory's layout */
            uint64_t a = (base ? base[lane] : 0) + disp + (mem_col ? c * ld + r : r * ld + c) * eb;
            uint64_t v = store ? slot_get(w, fo, &f, lane, s) : 0, taddr;
            uint8_t space;
            if (!ptx_lane_access(l, w, lane, in->space, a, eb, store, &v, pc, &taddr, &space))
                return;
            if (!store)
                vals[s / f.per] |= (v & ptx_zmask(eb)) << (s % f.per * f.bits);
            if (s == 0 && out) {
                out->addr[lane] = taddr;
                if (lane == 0 && in->space == SP_GENERIC)
                    out->s.space = space == SP_SHARED ? WSPACE_SHARED : space == SP_LOCAL ? WSPACE_LOCAL : WSPACE_GLOBAL;
            }
        }
        if (!store)
            for (unsigned k = 0; k < f.regs; k++)
                w->regs[(size_t)fo->vreg[k] * WARP_SIZE + lane] = vals[k];
    }
}

static float to_float(uint64_t raw, uint8_t t)
{
    if (t == PT_F16)
        return (float)ptx_f16_to_f64((uint16_t)raw);
    return ptx_as_f32(t == PT_BF16 ? raw << 16 : raw);
}

static int64_t to_int(uint64_t raw, uint8_t t)
{
    return t == PT_S8 ? (int8_t)raw : t == PT_U8 ? (int64_t)(uint8_t)raw : (int32_t)raw;
}

/* Every element of a fragment into a row-major matrix (the first lane holding each). */
static void gather(const PtxWarp *w, const PtxOperand *o, const Frag *f, float *fm, int64_t *im)
{
    bool integer = f->type == PT_S8 || f->type == PT_U8 || f->type == PT_S32;
    uint64_t mask = ptx_zmask(f->bits / 8);
    /* element q is slot s of lane q / slots, in register s / per at s % per; it lies at (r, c)
     * (coord), all counted on element by element rather than divided */
    unsigned lane = 0, s = 0, reg = 0, part = 0, r = 0, c = 0;
    for (unsigned q = 0; q < f->size; q++) {
        uint64_t raw = (w->regs[(size_t)o->vreg[reg] * WARP_SIZE + lane] >> (part * f->bits)) & mask;
        if (integer)
            im[r * f->cols + c] = to_int(raw, f->type);
        else
            fm[r * f->cols + c] = to_float(raw, f->type);
        if (++part == f->per)
            part = 0, reg++;
        if (++s == f->slots)
            s = reg = part = 0, lane++;
        if (f->col ? ++r == f->rows : ++c == f->cols) {
            if (f->col)
                r = 0, c++;
            else
                c = 0, r++;
        }
    }
}

static void wmma_mma(PtxWarp *w, const PtxInst *in)
{
    const unsigned M = shapes[in->shape].m, N = shapes[in->shape].n, K = shapes[in->shape].k;
    Frag fa = frag_of(in->shape, MAT_A, in->type, in->layout & WMMA_COL_A);
    Frag fb = frag_of(in->shape, MAT_B, in->type, in->layout & WMMA_COL_B);
    Frag fc = frag_of(in->shape, MAT_CD, in->type3, false), fd = frag_of(in->shape, MAT_CD, in->type2, false);
    float af[512], bf[512], cf[256];
    int64_t ai[512], bi[512], ci[256];
    gather(w, &in->o[1], &fa, af, ai);
    gather(w, &in->o[2], &fb, bf, bi);
    gather(w, &in->o[3], &fc, cf, ci);
    bool integer = in->type2 == PT_S32;
    uint64_t d[256];
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            if (integer) {
                int64_t acc = ci[i * N + j];
                for (unsigned k = 0; k < K; k++)
                    acc += ai[i * K + k] * bi[k * N + j];
                if (in->flags & PF_SAT)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                d[i * N + j] = (uint32_t)acc;
            } else {
                float acc = cf[i * N + j];
                for (unsigned k = 0; k < K; k++)
                    acc += af[i * K + k] * bf[k * N + j]; /* the product is exact */
                d[i * N + j] = in->type2 == PT_F16 ? ptx_f64_to_f16(acc, RND_RN) : ptx_from_f32(acc);
            }
        }
    /* Written after everything is read: d may name c's registers. */
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t vals[PTX_MAX_VEC] = {0};
        for (unsigned s = 0; s < fd.slots; s++)
            vals[s / fd.per] |= d[lane * fd.slots + s] << (s % fd.per * fd.bits);
        for (unsigned k = 0; k < fd.regs; k++)
            w->regs[(size_t)in->o[0].vreg[k] * WARP_SIZE + lane] = vals[k];
    }
}

void ptx_wmma_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, uint32_t active, Winst *out)
{
    if (active != 0xFFFFFFFFu) {
        char who[96], msg[256];
        ptx_thread_coords(l, w, (uint32_t)__builtin_ctz(active), who, sizeof who);
        snprintf(msg, sizeof msg, "wmma.%s needs all 32 threads of the warp, but only %d are active (first: %s)",
                 sub_names[in->mode], __builtin_popcount(active), who);
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
        return;
    }
    if (in->mode == WMMA_MMA)
        wmma_mma(w, in);
    else
        wmma_mem(l, w, in, pc, out);
}
