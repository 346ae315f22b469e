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
 * is the float sum rounded to nearest once at the end. A NaN result is the canonical NaN
 * (0x7fffffff for .f32, 0x7E00 for .f16), whatever NaNs went in: which operand's NaN an
 * addition passes on depends on how the host's compiler orders it. Integer inputs sum exactly in 64 bits;
 * the s32 result wraps, or with .satfinite clamps. Every instruction needs the whole warp (the
 * .sync.aligned forms); a warp with fewer active threads faults. */
#include "front/ptx/ptx_wmma.h"

#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    uint8_t m, n, k;
} shapes[WMMA_N_SHAPES] = {
    [WMMA_M16N16K16] = {"m16n16k16", 16, 16, 16},
    [WMMA_M32N8K16] = {"m32n8k16", 32, 8, 16},
    [WMMA_M8N32K16] = {"m8n32k16", 8, 32, 16},
    [WMMA_M16N16K8] = {"m16n16k8", 16, 16, 8}, /* .tf32 inputs only */
    [WMMA_M8N8K4] = {"m8n8k4", 8, 8, 4},       /* .f64 only */
};

static const struct {
    const char *name;
    uint8_t type;
} elem_types[] = {
    {"f16", PT_F16}, {"bf16", PT_BF16}, {"f32", PT_F32}, {"s32", PT_S32}, {"s8", PT_S8}, {"u8", PT_U8},
    {"tf32", WMMA_TF32}, {"f64", PT_F64},
};

/* Fragment types PTX has that warpsim does not run. */
static const char *const unsupported_types[] = {"s4", "u4", "b1", "e4m3", "e5m2"};

enum { MAT_A, MAT_B, MAT_CD };

static unsigned matrix_of(uint8_t mode)
{
    return mode == WMMA_LOAD_A ? MAT_A : mode == WMMA_LOAD_B ? MAT_B : MAT_CD;
}

static const char *const sub_names[] = {"load.a", "load.b", "load.c", "store.d", "mma"};

static unsigned elem_bits(uint8_t t)
{
    return t == PT_S8 || t == PT_U8 ? 8 : t == PT_F16 || t == PT_BF16 ? 16 : t == PT_F64 ? 64 : 32;
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
    f.per = f.bits == 64 ? 1 : 32 / f.bits; /* an .f64 element fills a 64-bit register */
    f.type = type;
    f.col = col && mat != MAT_CD;
    if (type == PT_F16 && mat != MAT_CD)
        f.regs = 8; /* what nvcc declares for every shape (Volta's shared elements) */
    else
        f.regs = f.size / WARP_SIZE / f.per;
    f.slots = f.regs * f.per;
    return f;
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
        return t == PT_F16 || t == PT_F32 || t == PT_S32 || t == PT_F64;
    return t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8 || t == WMMA_TF32 || t == PT_F64;
}

/* The shapes that go with the a and b type t: m16n16k8 with .tf32, m8n8k4 with .f64, the
 * others with the 16-bit and 8-bit types; NULL if right, else what is wrong. */
static const char *shape_type_error(uint8_t shape, uint8_t t)
{
    if (shape == WMMA_M16N16K8)
        return t == WMMA_TF32 ? NULL : "the shape .m16n16k8 takes .tf32 a and b and .f32 c and d";
    if (shape == WMMA_M8N8K4)
        return t == PT_F64 ? NULL : "the shape .m8n8k4 takes .f64 a, b, c and d";
    if (t == WMMA_TF32)
        return ".tf32 a and b need the shape .m16n16k8";
    if (t == PT_F64)
        return ".f64 matrices need the shape .m8n8k4";
    return NULL;
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
        if (sub == WMMA_MMA && (word_is(w, wl, "rn") || word_is(w, wl, "rz") || word_is(w, wl, "rm") ||
                                word_is(w, wl, "rp"))) {
            if (!word_is(w, wl, "rn"))
                return fail(why, why_len, word, len, "only the rounding .rn is supported on .f64 wmma.mma");
            in->rnd = RND_RN;
            continue;
        }
        for (size_t t = 0; t < ARRAY_LEN(unsupported_types); t++)
            if (word_is(w, wl, unsupported_types[t])) {
                snprintf(msg, sizeof msg, "wmma on .%s elements is not supported (only .f16, .bf16, .tf32, .f64, "
                         ".s8 and .u8 inputs)", unsupported_types[t]);
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
        snprintf(msg, sizeof msg, "the shape .%.*s is not supported (only m16n16k16, m32n8k16, m8n32k16, m16n16k8 "
                 "and m8n8k4)",
                 (int)bad_len, bad_shape);
        return fail(why, why_len, word, len, msg);
    }
    in->mode = (uint8_t)sub;
    in->layout = layouts;
    if (!have_shape)
        return fail(why, why_len, word, len, "expected a shape (.m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8 or .m8n8k4)");
    if (n_layouts != (sub == WMMA_MMA ? 2u : 1u))
        return fail(why, why_len, word, len, sub == WMMA_MMA ? "expected two layouts (.row or .col for a, then b)"
                                                             : "expected a layout (.row or .col)");
    if (sub != WMMA_MMA) {
        if (n_types != 1 || !type_ok(matrix_of((uint8_t)sub), types[0]))
            return fail(why, why_len, word, len, matrix_of((uint8_t)sub) == MAT_CD
                        ? "expected one type: .f16, .f32, .f64 or .s32"
                        : "expected one type: .f16, .bf16, .tf32, .f64, .s8 or .u8");
        in->type = types[0];
        /* c and d of m16n16k8 are .f32 (tf32 inputs); of m8n8k4 .f64 */
        uint8_t ab = matrix_of((uint8_t)sub) != MAT_CD ? types[0]
                     : in->shape == WMMA_M16N16K8 && types[0] == PT_F32 ? WMMA_TF32
                     : in->shape == WMMA_M16N16K8 ? PT_F16 : types[0] == PT_F64 ? PT_F64 : PT_F16;
        const char *e = shape_type_error(in->shape, ab);
        return e ? fail(why, why_len, word, len, e) : true;
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
        bool integer = types[1] == PT_S8 || types[1] == PT_U8, f64 = types[1] == PT_F64;
        uint8_t acc = integer ? PT_S32 : f64 ? PT_F64 : PT_F32;
        if (types[1] != types[2])
            return fail(why, why_len, word, len, "a and b must have the same type");
        if ((!integer && !f64 && types[1] != PT_BF16 && types[1] != WMMA_TF32) || types[0] != acc || types[3] != acc)
            return fail(why, why_len, word, len, "expected .f32.bf16.bf16.f32, .f32.tf32.tf32.f32, .f64.f64.f64.f64, "
                        ".s32.s8.s8.s32 or .s32.u8.u8.s32");
    } else {
        return fail(why, why_len, word, len, "expected the types .dtype.ctype or .dtype.atype.btype.ctype");
    }
    if ((in->flags & PF_SAT) && in->type2 != PT_S32)
        return fail(why, why_len, word, len, ".satfinite is supported on integer wmma.mma only");
    if ((in->rnd != RND_NONE) != (in->type == PT_F64))
        return fail(why, why_len, word, len, in->type == PT_F64 ? ".f64 wmma.mma needs the rounding .rn"
                                                                  : "a rounding modifier needs .f64 wmma.mma");
    const char *e = shape_type_error(in->shape, in->type);
    return e ? fail(why, why_len, word, len, e) : true;
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

enum { WMMA_MAX_SLOTS = 16 }; /* elements a lane holds: an .f16 a or b, or an 8-bit a of m32n8k16 */

/* The fragment's elements in lane-slot order (lane l's slot s at l * slots + s) to its
 * registers, and back (the first `lanes` lanes'): slot s is in register s / per, at bit
 * s % per * bits. */
static void frag_pack(PtxWarp *w, const PtxOperand *o, const Frag *f, const uint64_t *e)
{
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
        for (unsigned k = 0; k < f->regs; k++) {
            uint64_t v = 0;
            for (unsigned p = 0; p < f->per; p++)
                v |= *e++ << (p * f->bits);
            w->regs[(size_t)o->vreg[k] * WARP_SIZE + lane] = v;
        }
}

static void frag_unpack(const PtxWarp *w, const PtxOperand *o, const Frag *f, uint32_t lanes, uint64_t *e)
{
    const uint64_t mask = ptx_zmask(f->bits / 8);
    for (uint32_t lane = 0; lane < lanes; lane++)
        for (unsigned k = 0; k < f->regs; k++) {
            uint64_t v = w->regs[(size_t)o->vreg[k] * WARP_SIZE + lane];
            for (unsigned p = 0; p < f->per; p++) /* (a shift by 64, for .f64, is undefined) */
                *e++ = (v >> (p * f->bits % 64)) & mask;
        }
}

/* The whole fragment's n accesses when they are plain: every element aligned, and all of them
 * inside the block's shared memory or inside one allocation or variable of the global space
 * (named, or generic addresses that all lie in one of the two). They go in the order of the
 * element-by-element path, with one check for the lot instead of one each; false (nothing
 * done) when the checks fail, and that path then reports the fault. *space: what they reached. */
static bool wmma_mem_plain(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, unsigned eb,
                           const uint64_t *addr, unsigned n, bool store, uint64_t *e, uint8_t *space)
{
    uint64_t lo = UINT64_MAX, hi = 0, odd = 0;
    for (unsigned i = 0; i < n; i++) {
        odd |= addr[i];
        lo = addr[i] < lo ? addr[i] : lo;
        hi = addr[i] > hi ? addr[i] : hi;
    }
    if (odd & (eb - 1))
        return false;
    uint64_t win = 0; /* subtracted from a generic shared address */
    *space = in->space;
    if (in->space == SP_GENERIC) {
        if (lo - PTX_WIN_SHARED < PTX_WIN_SIZE && hi - PTX_WIN_SHARED < PTX_WIN_SIZE)
            *space = SP_SHARED, win = PTX_WIN_SHARED;
        else if (hi < PTX_WIN_SHARED) /* below every window */
            *space = SP_GLOBAL;
        else
            return false;
    }
    if (*space == SP_SHARED) {
        if (hi - win > 0xffffffffull || hi - win + eb > l->smem_bytes)
            return false;
        uint8_t *p = w->cta->smem;
#define SHARED(T)                                                              \
    for (unsigned i = 0; i < n; i++) {                                         \
        T x;                                                                   \
        if (store)                                                             \
            x = (T)e[i], memcpy(p + (addr[i] - win), &x, sizeof x);            \
        else                                                                   \
            memcpy(&x, p + (addr[i] - win), sizeof x), e[i] = x;               \
    }
        switch (eb) {
        case 1: SHARED(uint8_t); break;
        case 2: SHARED(uint16_t); break;
        case 4: SHARED(uint32_t); break;
        default: SHARED(uint64_t); break;
        }
#undef SHARED
        return true;
    }
    if (*space != SP_GLOBAL || !ptx_mem_valid(l->mem, lo, hi - lo + eb, false))
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (!store)
            e[i] = ptx_mem_load(l->mem, addr[i], eb);
        else if (!ptx_mem_store(l->mem, addr[i], e[i], eb))
            return ptx_store_refused(l, addr[i], pc), true;
    }
    return true;
}

/* A fragment in shared memory whose lanes each hold one run of it: the fragment's order is the
 * memory's (a and b in their own layout, c and d row by row in a row-major memory) and a lane's
 * slots never cross a row (or column). Lane l's slots then start at fragment index l * slots
 * (mod size), and its register k is the little-endian word k of that run (two halves or four
 * bytes a 32-bit register, low first, as the element-by-element path packs them). Every run
 * aligned and inside the block's shared memory, else false (nothing done): that path then
 * reports the fault. */
static bool wmma_mem_runs(PtxLaunch *l, PtxWarp *w, const PtxInst *in, const Frag *f, bool mem_col,
                          const uint64_t *stride, unsigned sstride, const uint64_t *base, uint64_t disp,
                          Winst *out)
{
    const unsigned inner = f->col ? f->rows : f->cols, eb = f->bits / 8, wb = f->per * eb;
    if (f->col != mem_col || inner % f->slots || (in->space != SP_SHARED && in->space != SP_GENERIC))
        return false;
    uint64_t start[WARP_SIZE], lo = UINT64_MAX, hi = 0, odd = 0;
    unsigned q = 0, r = 0, c = 0; /* lane l's first slot: index q at (r, c) */
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t ld = (uint32_t)stride[lane * sstride];
        uint64_t a = (base ? base[lane] : 0) + disp + (mem_col ? c * ld + r : r * ld + c) * eb;
        start[lane] = a;
        odd |= a;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        if ((q += f->slots) == f->size)
            q = r = c = 0;
        else if (f->col ? (r += f->slots) == f->rows : (c += f->slots) == f->cols)
            f->col ? (r = 0, c++) : (c = 0, r++);
    }
    uint64_t win = 0;
    if (in->space == SP_GENERIC) {
        if (lo - PTX_WIN_SHARED >= PTX_WIN_SIZE || hi - PTX_WIN_SHARED >= PTX_WIN_SIZE)
            return false;
        win = PTX_WIN_SHARED;
    }
    if ((odd & (eb - 1)) || hi - win > 0xffffffffull || hi - win + (uint64_t)f->slots * eb > l->smem_bytes)
        return false;
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
        start[lane] -= win; /* offsets into the block's shared memory */
    uint8_t *sm = w->cta->smem;
    if (in->mode == WMMA_STORE_D) { /* lane by lane, as the other paths store (runs may overlap) */
        for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
            for (unsigned k = 0; k < f->regs; k++) {
                const uint64_t v = w->regs[(size_t)in->o[1].vreg[k] * WARP_SIZE + lane];
                if (wb == 8)
                    memcpy(sm + start[lane] + k * 8, &v, 8);
                else
                    memcpy(sm + start[lane] + k * 4, &(uint32_t){(uint32_t)v}, 4);
            }
    } else {
        for (unsigned k = 0; k < f->regs; k++) {
            uint64_t *reg = w->regs + (size_t)in->o[0].vreg[k] * WARP_SIZE;
            if (wb == 8)
                for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
                    memcpy(&reg[lane], sm + start[lane] + k * 8, 8);
            else
                for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
                    uint32_t v;
                    memcpy(&v, sm + start[lane] + k * 4, 4);
                    reg[lane] = v;
                }
        }
    }
    if (out) { /* as the other paths give them: shared addresses as window offsets */
        memcpy(out->addr, start, sizeof start);
        if (in->space == SP_GENERIC)
            out->s.space = WSPACE_SHARED;
    }
    return true;
}

static void wmma_mem(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t pc, Winst *out)
{
    bool store = in->mode == WMMA_STORE_D, mem_col = in->layout & WMMA_COL_A;
    const PtxOperand *ao = &in->o[store ? 0 : 1], *fo = &in->o[store ? 1 : 0];
    Frag f = frag_of(in->shape, matrix_of(in->mode), in->type, mem_col);
    CHECK(f.slots <= WMMA_MAX_SLOTS);
    uint64_t tmp[WARP_SIZE], defstride = mem_col ? f.rows : f.cols;
    unsigned sstride = 0;
    const uint64_t *stride = in->n_ops == 3 ? ptx_operand_values(l, w, &in->o[2], tmp, &sstride) : &defstride;
    uint64_t disp = ao->imm + (ao->sym != PTX_NO_SYM ? l->sym_addr[ao->sym] : 0);
    const uint64_t *base = ao->reg != PTX_NO_REG ? w->regs + (size_t)ao->reg * WARP_SIZE : NULL;
    const unsigned eb = f.bits / 8, n = WARP_SIZE * f.slots;
    if (wmma_mem_runs(l, w, in, &f, mem_col, stride, sstride, base, disp, out))
        return;
    /* Every element's address first: lane l's slot s is fragment index q = (l * slots + s) mod
     * size, at (r, c) (c and d go row by row whatever the memory's layout), all counted
     * on element by element rather than divided. */
    uint64_t addr[WARP_SIZE * WMMA_MAX_SLOTS];
    uint64_t e[WARP_SIZE * WMMA_MAX_SLOTS];
    unsigned q = 0, r = 0, c = 0, s = 0;
    uint32_t lane = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t ld = (uint32_t)stride[lane * sstride], a0 = (base ? base[lane] : 0) + disp;
        addr[i] = a0 + (mem_col ? c * ld + r : r * ld + c) * eb;
        if (++s == f.slots)
            s = 0, lane++;
        if (++q == f.size)
            q = r = c = 0;
        else if (f.col ? ++r == f.rows : ++c == f.cols)
            f.col ? (r = 0, c++) : (c = 0, r++);
    }
    if (store)
        frag_unpack(w, fo, &f, WARP_SIZE, e);
    uint8_t space;
    if (wmma_mem_plain(l, w, in, pc, eb, addr, n, store, e, &space)) {
        if (out) { /* as the other path gives them: shared addresses as window offsets */
            uint64_t win = space == SP_SHARED && in->space == SP_GENERIC ? PTX_WIN_SHARED : 0;
            for (uint32_t k = 0; k < WARP_SIZE; k++)
                out->addr[k] = addr[k * f.slots] - win;
            if (in->space == SP_GENERIC)
                out->s.space = space == SP_SHARED ? WSPACE_SHARED : WSPACE_GLOBAL;
        }
    } else {
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = e[i], taddr;
            uint32_t k = i / f.slots; /* the lane */
            if (!ptx_lane_access(l, w, k, in->space, addr[i], eb, store, &v, pc, &taddr, &space))
                return;
            e[i] = v;
            if (i % f.slots == 0 && out) {
                out->addr[k] = taddr;
                if (k == 0 && in->space == SP_GENERIC)
                    out->s.space = space == SP_SHARED ? WSPACE_SHARED
                                 : space == SP_LOCAL  ? WSPACE_LOCAL
                                                      : WSPACE_GLOBAL;
            }
        }
    }
    if (!store)
        frag_pack(w, fo, &f, e);
}

/* Every element of a fragment into a row-major matrix, as float (fm), integer (im) or double
 * (dm), in one pass over its registers: fragment index q = lane * slots + s runs over the
 * matrix once (the first size / slots lanes hold it all), at position q row by row, or at
 * (q mod rows, q / rows), counted on, for a column-ordered a or b. */
static void gather(const PtxWarp *w, const PtxOperand *o, const Frag *f, float *fm, int64_t *im, double *dm)
{
    const unsigned R = f->rows, C = f->cols, lanes = f->size / f->slots, regs = f->regs;
    const size_t wrap = (size_t)R * C - 1; /* a column's end to the next's start */
#define PLACE(dst, conv, per, bits)                                                        \
    do {                                                                                   \
        if (!f->col) { /* position q: register by register, each read along the lanes */   \
            for (unsigned k = 0; k < regs; k++) {                                          \
                const uint64_t *v = w->regs + (size_t)o->vreg[k] * WARP_SIZE;              \
                for (uint32_t lane = 0; lane < lanes; lane++)                              \
                    for (unsigned p = 0; p < (per); p++)                                   \
                        dst[(lane * regs + k) * (per) + p] =                               \
                            conv((v[lane] >> (p * (bits) % 64)) & ptx_zmask((bits) / 8));  \
            }                                                                              \
            break;                                                                         \
        }                                                                                  \
        size_t pos = 0;                                                                    \
        unsigned r = 0;                                                                    \
        for (uint32_t lane = 0; lane < lanes; lane++)                                      \
            for (unsigned k = 0; k < regs; k++) {                                          \
                const uint64_t v = w->regs[(size_t)o->vreg[k] * WARP_SIZE + lane];         \
                for (unsigned p = 0; p < (per); p++) {                                     \
                    dst[pos] = conv((v >> (p * (bits) % 64)) & ptx_zmask((bits) / 8));     \
                    pos += C;                                                              \
                    if (++r == R)                                                          \
                        r = 0, pos -= wrap;                                                \
                }                                                                          \
            }                                                                              \
    } while (0)
#define F16(x) ptx_f16_to_f32((uint16_t)(x))
#define BF16(x) ptx_as_f32((uint64_t)(x) << 16)
#define F32(x) ptx_as_f32(x)
#define TF32(x) ptx_as_f32((x) & ~0x1fffull) /* the mma reads the top 19 bits: truncated */
#define F64(x) ptx_as_f64(x)
#define S8(x) (int64_t)(int8_t)(x)
#define U8(x) (int64_t)(uint8_t)(x)
#define S32(x) (int64_t)(int32_t)(x)
    switch (f->type) {
    case PT_F16: PLACE(fm, F16, 2, 16); break;
    case PT_BF16: PLACE(fm, BF16, 2, 16); break;
    case PT_S8: PLACE(im, S8, 4, 8); break;
    case PT_U8: PLACE(im, U8, 4, 8); break;
    case PT_S32: PLACE(im, S32, 1, 32); break;
    case WMMA_TF32: PLACE(fm, TF32, 1, 32); break;
    case PT_F64: PLACE(dm, F64, 1, 64); break;
    default: PLACE(fm, F32, 1, 32); break;
    }
#undef PLACE
#undef F16
#undef BF16
#undef F32
#undef TF32
#undef F64
#undef S8
#undef U8
#undef S32
}

/* d = c + a x b over float rows (f16, bf16 and tf32 inputs): row i of d at once, eight
 * columns a vector, each element summing c, then k = 0, 1, ... in order; a product, then a
 * sum, each rounded to nearest (the product is exact but for overflow and underflow, which a
 * fused multiply-add would treat otherwise: none is formed, ISO C's default). The shapes'
 * sizes are constants, so that the loops unroll. */
typedef float WmmaV8f __attribute__((vector_size(32), aligned(4), may_alias)); /* read in place */
#define WMMA_F32_BODY(a, b, c, d, M, N, K)                                  \
    for (unsigned i = 0; i < (M); i++) {                                     \
        WmmaV8f acc[(N) / 8];                                                \
        for (unsigned j = 0; j < (N) / 8; j++)                               \
            acc[j] = *(const WmmaV8f *)(c + i * (N) + j * 8);                \
        for (unsigned k = 0; k < (K); k++) {                                 \
            const float x = a[i * (K) + k];                                  \
            for (unsigned j = 0; j < (N) / 8; j++)                           \
                acc[j] += x * *(const WmmaV8f *)(b + k * (N) + j * 8);       \
        }                                                                    \
        for (unsigned j = 0; j < (N) / 8; j++)                               \
            *(WmmaV8f *)(d + i * (N) + j * 8) = acc[j];                      \
    }
#define WMMA_F32_SHAPES(a, b, c, d, shape)                                           \
    switch (shape) {                                                                 \
    case WMMA_M16N16K16: WMMA_F32_BODY(a, b, c, d, 16, 16, 16); break;               \
    case WMMA_M32N8K16: WMMA_F32_BODY(a, b, c, d, 32, 8, 16); break;                 \
    case WMMA_M8N32K16: WMMA_F32_BODY(a, b, c, d, 8, 32, 16); break;                 \
    default: WMMA_F32_BODY(a, b, c, d, 16, 16, 8); break; /* m16n16k8 (tf32) */      \
    }

static void mma_f32_plain(uint8_t shape, const float *a, const float *b, const float *c, float *d)
{
    WMMA_F32_SHAPES(a, b, c, d, shape);
}

/* d = c + a x b of m8n8k4 doubles: one fused multiply-add a step, rounded to nearest (.rn),
 * k in order (DMMA's IEEE double arithmetic). */
static void mma_f64_plain(const double *a, const double *b, const double *c, double *d)
{
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++) {
            double acc = c[i * 8 + j];
            for (unsigned k = 0; k < 4; k++)
                acc = fma(a[i * 4 + k], b[k * 8 + j], acc);
            d[i * 8 + j] = acc;
        }
}

/* The same on the host's AVX2 (eight floats an instruction) and FMA (fma()'s correctly
 * rounded fused multiply-add, four doubles an instruction), where it has them: the same bits. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
__attribute__((target("avx2"))) static void mma_f32_avx2(uint8_t shape, const float *a, const float *b,
                                                         const float *c, float *d)
{
    WMMA_F32_SHAPES(a, b, c, d, shape);
}
__attribute__((target("avx2,fma"))) static void mma_f64_fma(const double *a, const double *b, const double *c,
                                                            double *d)
{
    for (unsigned i = 0; i < 8; i++) {
        __m256d lo = _mm256_loadu_pd(c + i * 8), hi = _mm256_loadu_pd(c + i * 8 + 4);
        for (unsigned k = 0; k < 4; k++) {
            const __m256d x = _mm256_set1_pd(a[i * 4 + k]);
            lo = _mm256_fmadd_pd(x, _mm256_loadu_pd(b + k * 8), lo);
            hi = _mm256_fmadd_pd(x, _mm256_loadu_pd(b + k * 8 + 4), hi);
        }
        _mm256_storeu_pd(d + i * 8, lo);
        _mm256_storeu_pd(d + i * 8 + 4, hi);
    }
}
#else
#define mma_f32_avx2 mma_f32_plain
#define mma_f64_fma mma_f64_plain
#endif
#undef WMMA_F32_BODY
#undef WMMA_F32_SHAPES

static void wmma_mma(PtxWarp *w, const PtxInst *in)
{
    const unsigned M = shapes[in->shape].m, N = shapes[in->shape].n, K = shapes[in->shape].k;
    Frag fa = frag_of(in->shape, MAT_A, in->type, in->layout & WMMA_COL_A);
    Frag fb = frag_of(in->shape, MAT_B, in->type, in->layout & WMMA_COL_B);
    Frag fc = frag_of(in->shape, MAT_CD, in->type3, false), fd = frag_of(in->shape, MAT_CD, in->type2, false);
    float af[512], bf[512], cf[256], df[256];
    int64_t ai[512], bi[512], ci[256];
    double ad[32], bd[32], cd[64], dd[64]; /* m8n8k4 */
    gather(w, &in->o[1], &fa, af, ai, ad);
    gather(w, &in->o[2], &fb, bf, bi, bd);
    gather(w, &in->o[3], &fc, cf, ci, cd);
    uint64_t d[256];
    if (in->type2 == PT_F64) {
        if (ptx_host_fma())
            mma_f64_fma(ad, bd, cd, dd);
        else
            mma_f64_plain(ad, bd, cd, dd);
        for (unsigned q = 0; q < 64; q++)
            d[q] = ptx_from_f64(dd[q]);
    } else if (in->type2 == PT_S32) {
        for (unsigned i = 0; i < M; i++) {
            int64_t acc[32];
            for (unsigned j = 0; j < N; j++)
                acc[j] = ci[i * N + j];
            for (unsigned k = 0; k < K; k++) {
                const int64_t a = ai[i * K + k], *b = bi + k * N;
                for (unsigned j = 0; j < N; j++)
                    acc[j] += a * b[j];
            }
            for (unsigned j = 0; j < N; j++) {
                int64_t x = acc[j];
                if (in->flags & PF_SAT)
                    x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
                d[i * N + j] = (uint32_t)x;
            }
        }
    } else {
        if (ptx_host_avx2())
            mma_f32_avx2(in->shape, af, bf, cf, df);
        else
            mma_f32_plain(in->shape, af, bf, cf, df);
        if (in->type2 == PT_F16)
            for (unsigned q = 0; q < M * N; q++)
                d[q] = ptx_f64_to_f16(df[q], RND_RN);
        else
            for (unsigned q = 0; q < M * N; q++) /* a NaN: the canonical one */
                d[q] = df[q] != df[q] ? 0x7fffffffu : (uint64_t)ptx_from_f32(df[q]);
    }
    /* Written after everything is read: d may name c's registers. Lane l's slot s is d's
     * element l * slots + s, in register s / per (.f16: two a register, the lower first). */
    for (unsigned k = 0; k < fd.regs; k++) {
        uint64_t *r = w->regs + (size_t)in->o[0].vreg[k] * WARP_SIZE;
        if (fd.per == 1)
            for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
                r[lane] = d[lane * fd.regs + k];
        else
            for (uint32_t lane = 0; lane < WARP_SIZE; lane++)
                r[lane] = d[(lane * fd.regs + k) * 2] | d[(lane * fd.regs + k) * 2 + 1] << 16;
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
