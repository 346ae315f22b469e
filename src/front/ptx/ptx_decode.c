/* ptx_decode.c: PTX mnemonics to decoded fields, and decoded instructions to the timing
 * model's static view.
 *
 * A mnemonic is a base name followed by dot-separated modifiers ("setp.ltu.and.f32",
 * "atom.global.cas.b32", "cvt.rzi.s32.f64"); the PTX ISA manual (chapter 9, instruction set)
 * lists them per instruction. Modifiers that only matter for memory ordering or caching
 * (.volatile, .relaxed, .gpu, .nc, .ca, .L1::no_allocate, ...) are accepted and dropped: the
 * functional model is sequentially consistent. Each opcode is classified once into a WinstOp so
 * the timing model picks an execution unit without seeing PTX. */
#include "front/ptx/ptx_ir.h"
#include "front/ptx/ptx_async.h"
#include "front/ptx/ptx_wmma.h"

#include <stdio.h>
#include <string.h>

typedef struct NameVal {
    const char *name;
    uint8_t val;
} NameVal;

static const NameVal opcode_names[] = {
    {"abs", OP_ABS}, {"add", OP_ADD}, {"addc", OP_ADDC}, {"sub", OP_SUB}, {"subc", OP_SUBC},
    {"mul", OP_MUL}, {"mad", OP_MAD}, {"madc", OP_MADC}, {"mul24", OP_MUL24},
    {"mad24", OP_MAD24}, {"div", OP_DIV}, {"rem", OP_REM}, {"neg", OP_NEG}, {"min", OP_MIN},
    {"max", OP_MAX}, {"sad", OP_SAD}, {"clz", OP_CLZ}, {"popc", OP_POPC}, {"brev", OP_BREV},
    {"bfind", OP_BFIND}, {"bfe", OP_BFE}, {"bfi", OP_BFI}, {"prmt", OP_PRMT}, {"shf", OP_SHF},
    {"bmsk", OP_BMSK},
    {"and", OP_AND}, {"or", OP_OR}, {"xor", OP_XOR}, {"not", OP_NOT}, {"cnot", OP_CNOT},
    {"shl", OP_SHL}, {"shr", OP_SHR}, {"setp", OP_SETP}, {"set", OP_SET}, {"selp", OP_SELP},
    {"slct", OP_SLCT}, {"mov", OP_MOV}, {"cvt", OP_CVT}, {"cvta", OP_CVTA}, {"fma", OP_FMA},
    {"rcp", OP_RCP}, {"sqrt", OP_SQRT}, {"rsqrt", OP_RSQRT}, {"ex2", OP_EX2}, {"lg2", OP_LG2},
    {"sin", OP_SIN}, {"cos", OP_COS}, {"tanh", OP_TANH}, {"copysign", OP_COPYSIGN},
    {"testp", OP_TESTP}, {"ld", OP_LD}, {"ldu", OP_LD}, {"st", OP_ST}, {"atom", OP_ATOM},
    {"red", OP_RED}, {"prefetch", OP_PREFETCH}, {"prefetchu", OP_PREFETCH}, {"bra", OP_BRA},
    {"call", OP_CALL}, {"ret", OP_RET}, {"exit", OP_EXIT}, {"bar", OP_BAR},
    {"barrier", OP_BAR}, {"membar", OP_MEMBAR}, {"fence", OP_MEMBAR}, {"shfl", OP_SHFL},
    {"match", OP_MATCH},
    {"vote", OP_VOTE}, {"activemask", OP_ACTIVEMASK}, {"nanosleep", OP_NOP}, {"tex", OP_TEX},
    {"suld", OP_SULD}, {"sust", OP_SUST},
    {"trap", OP_EXIT}, /* an exit that fails the launch (mode EXIT_TRAP) */
    {"wmma", OP_WMMA}, {"cp", OP_CPASYNC},
    {"vadd4", OP_VSIMD}, {"vsub4", OP_VSIMD}, {"vabsdiff4", OP_VSIMD}, {"vmin4", OP_VSIMD},
    {"vmax4", OP_VSIMD}, {"vadd2", OP_VSIMD}, {"vsub2", OP_VSIMD}, {"vabsdiff2", OP_VSIMD},
    {"vmin2", OP_VSIMD}, {"vmax2", OP_VSIMD},
};

static const NameVal vsimd_names[] = {
    {"vadd", VOP_ADD}, {"vsub", VOP_SUB}, {"vabsdiff", VOP_ABSDIFF}, {"vmin", VOP_MIN}, {"vmax", VOP_MAX},
};

static const NameVal type_names[] = {
    {"b8", PT_B8}, {"b16", PT_B16}, {"b32", PT_B32}, {"b64", PT_B64}, {"u8", PT_U8},
    {"u16", PT_U16}, {"u32", PT_U32}, {"u64", PT_U64}, {"s8", PT_S8}, {"s16", PT_S16},
    {"s32", PT_S32}, {"s64", PT_S64}, {"f16", PT_F16}, {"f16x2", PT_F16X2}, {"bf16", PT_BF16},
    {"f32", PT_F32}, {"f64", PT_F64}, {"pred", PT_PRED},
};

static const NameVal rnd_names[] = {
    {"rn", RND_RN}, {"rz", RND_RZ}, {"rm", RND_RM}, {"rp", RND_RP},
    {"rni", RND_RNI}, {"rzi", RND_RZI}, {"rmi", RND_RMI}, {"rpi", RND_RPI}, {"rna", RND_RNA},
};

static const NameVal cmp_names[] = {
    {"eq", CMP_EQ}, {"ne", CMP_NE}, {"lt", CMP_LT}, {"le", CMP_LE}, {"gt", CMP_GT},
    {"ge", CMP_GE}, {"lo", CMP_LO}, {"ls", CMP_LS}, {"hi", CMP_HI}, {"hs", CMP_HS},
    {"equ", CMP_EQU}, {"neu", CMP_NEU}, {"ltu", CMP_LTU}, {"leu", CMP_LEU}, {"gtu", CMP_GTU},
    {"geu", CMP_GEU}, {"num", CMP_NUM}, {"nan", CMP_NAN},
};

static const NameVal aop_names[] = {
    {"add", AOP_ADD}, {"min", AOP_MIN}, {"max", AOP_MAX}, {"exch", AOP_EXCH}, {"cas", AOP_CAS},
    {"and", AOP_AND}, {"or", AOP_OR}, {"xor", AOP_XOR}, {"inc", AOP_INC}, {"dec", AOP_DEC},
};

static const NameVal space_names[] = {
    {"global", SP_GLOBAL}, {"shared", SP_SHARED}, {"shared::cta", SP_SHARED}, {"local", SP_LOCAL},
    {"const", SP_CONST}, {"param", SP_PARAM_K},
};

static const NameVal geom_names[] = {
    {"1d", TEXG_1D}, {"2d", TEXG_2D}, {"3d", TEXG_3D}, {"a1d", TEXG_A1D}, {"a2d", TEXG_A2D},
    {"cube", TEXG_CUBE}, {"acube", TEXG_ACUBE},
};

static const NameVal su_mode_names[] = {{"trap", SU_TRAP}, {"clamp", SU_CLAMP}, {"zero", SU_ZERO}};

static const NameVal testp_names[] = {
    {"finite", TESTP_FINITE}, {"infinite", TESTP_INFINITE}, {"number", TESTP_NUMBER},
    {"notanumber", TESTP_NOTANUMBER}, {"normal", TESTP_NORMAL}, {"subnormal", TESTP_SUBNORMAL},
};

/* Ordering, scope, caching and synchronisation hints with no functional effect here. */
static const char *const ignored_mods[] = {
    "volatile", "relaxed", "acquire", "release", "acq_rel", "sc", "weak", "mmio", "cta", "gpu",
    "sys", "cluster", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "sync", "aligned", "noftz",
    "unified", "full", "gl", "arrive", "red", "mem", "proxy", "async", "alias", "L1", "L2",
};

static int lookup(const NameVal *t, size_t n, const char *w, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(t[i].name) == len && !memcmp(t[i].name, w, len))
            return t[i].val;
    return -1;
}
#define LOOKUP(t, w, len) lookup(t, ARRAY_LEN_(t), w, len)
#define ARRAY_LEN_(a) (sizeof(a) / sizeof((a)[0]))

/* The first name a table gives a value ("ld" for OP_LD), or "?" if none does. */
static const char *name_of(const NameVal *t, size_t n, unsigned val)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].val == val)
            return t[i].name;
    return "?";
}

const char *ptx_opcode_name(uint8_t op) { return name_of(opcode_names, ARRAY_LEN_(opcode_names), op); }
const char *ptx_type_name(uint8_t t) { return name_of(type_names, ARRAY_LEN_(type_names), t); }

static bool is_ignored(const char *w, size_t len)
{
    /* Cache-policy qualifiers come as "L1::evict_last", "L2::128B" and the like. */
    if (len > 4 && (!memcmp(w, "L1::", 4) || !memcmp(w, "L2::", 4)))
        return true;
    for (size_t i = 0; i < ARRAY_LEN_(ignored_mods); i++)
        if (strlen(ignored_mods[i]) == len && !memcmp(ignored_mods[i], w, len))
            return true;
    return false;
}

static bool eq(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && !memcmp(w, s, len);
}

/* The qualifiers of an ld that decide whether the L1D may serve it. */
typedef struct LoadQual {
    bool strong;    /* .volatile, .relaxed, .acquire, .mmio */
    bool cta_scope; /* .cta: only the CTA's own SM needs to see its data */
    bool l2_cache;  /* .cg (cache at L2, not L1) or .cv (fetch again) */
} LoadQual;

static void note_load_qualifier(LoadQual *q, const char *w, size_t len)
{
    if (eq(w, len, "volatile") || eq(w, len, "relaxed") || eq(w, len, "acquire") || eq(w, len, "mmio"))
        q->strong = true;
    else if (eq(w, len, "cta"))
        q->cta_scope = true;
    else if (eq(w, len, "cg") || eq(w, len, "cv"))
        q->l2_cache = true;
}

/* The L1D is not coherent across SMs, so a load that must see other SMs' writes is served by
 * the L2, as GPUs do: .cg and .cv loads, and strong loads (volatile, relaxed or acquire) at a
 * scope wider than the CTA (no scope: .gpu, as ld.volatile is relaxed.sys). A spinning warp
 * then waits an L2 round trip per iteration, not an L1D hit. */
static bool l2_only(const LoadQual *q) { return q->l2_cache || (q->strong && !q->cta_scope); }

bool ptx_decode_mnemonic(const char *word, size_t len, PtxInst *in, char *why, size_t why_len)
{
    const char *dot = memchr(word, '.', len);
    size_t blen = dot ? (size_t)(dot - word) : len;
    int op = LOOKUP(opcode_names, word, blen);
    if (op < 0) {
        snprintf(why, why_len, "unsupported instruction '%.*s'", (int)len, word);
        return false;
    }
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->vec = 1;
    in->guard = PTX_NO_REG;
    in->rpc = PTX_NO_PC;
    in->space = SP_GENERIC;
    if (eq(word, blen, "trap"))
        in->mode = EXIT_TRAP;
    if (op == OP_CVTA)
        in->space = SP_GENERIC;
    if (op == OP_WMMA) /* its own modifier grammar (matrix, layouts, shape, several types) */
        return ptx_wmma_decode(word, len, in, why, why_len);
    if (op == OP_CPASYNC) /* cp.async.ca.shared.global, cp.async.wait_group, ... */
        return ptx_async_decode(word, len, in, why, why_len);
    if (op == OP_VSIMD) { /* vabsdiff4: the operation, then the lanes */
        in->mode = (uint8_t)LOOKUP(vsimd_names, word, blen - 1);
        in->shape = (uint8_t)(word[blen - 1] - '0');
    }
    unsigned n_types = 0;
    bool have_cmp = false, bar_red = false;
    LoadQual lq = {0};
    const char *p = dot;
    const char *end = word + len;
    while (p && p < end) {
        const char *w = p + 1;
        const char *q = memchr(w, '.', (size_t)(end - w));
        size_t wl = q ? (size_t)(q - w) : (size_t)(end - w);
        p = q;
        int v;
        if ((v = LOOKUP(type_names, w, wl)) >= 0) {
            if (n_types == 0)
                in->type = (uint8_t)v;
            else if (n_types == 1)
                in->type2 = (uint8_t)v;
            else if (n_types == 2 && op == OP_VSIMD)
                in->type3 = (uint8_t)v;
            n_types++;
            continue;
        }
        switch (op) {
        case OP_SETP: case OP_SET: case OP_SLCT:
            if (!have_cmp && (v = LOOKUP(cmp_names, w, wl)) >= 0) {
                in->mode = (uint8_t)v;
                have_cmp = true;
                continue;
            }
            if (eq(w, wl, "and")) { in->boolop = BOOL_AND; continue; }
            if (eq(w, wl, "or")) { in->boolop = BOOL_OR; continue; }
            if (eq(w, wl, "xor")) { in->boolop = BOOL_XOR; continue; }
            break;
        case OP_MUL: case OP_MAD: case OP_MADC: case OP_MUL24: case OP_MAD24:
            if (eq(w, wl, "lo")) { in->mode = MUL_LO; continue; }
            if (eq(w, wl, "hi")) { in->mode = MUL_HI; continue; }
            if (eq(w, wl, "wide")) { in->mode = MUL_WIDE; continue; }
            break;
        case OP_ATOM: case OP_RED:
            if ((v = LOOKUP(aop_names, w, wl)) >= 0) { in->mode = (uint8_t)v; continue; }
            break;
        case OP_SHFL:
            if (eq(w, wl, "up")) { in->mode = SHFL_UP; continue; }
            if (eq(w, wl, "down")) { in->mode = SHFL_DOWN; continue; }
            if (eq(w, wl, "bfly")) { in->mode = SHFL_BFLY; continue; }
            if (eq(w, wl, "idx")) { in->mode = SHFL_IDX; continue; }
            break;
        case OP_MATCH:
            if (eq(w, wl, "any")) { in->mode = MATCH_ANY; continue; }
            if (eq(w, wl, "all")) { in->mode = MATCH_ALL; continue; }
            break;
        case OP_VOTE:
            if (eq(w, wl, "all")) { in->mode = VOTE_ALL; continue; }
            if (eq(w, wl, "any")) { in->mode = VOTE_ANY; continue; }
            if (eq(w, wl, "uni")) { in->mode = VOTE_UNI; continue; }
            if (eq(w, wl, "ballot")) { in->mode = VOTE_BALLOT; continue; }
            break;
        case OP_SHF:
            if (eq(w, wl, "l")) { in->mode = SHF_L; continue; }
            if (eq(w, wl, "r")) { in->mode = SHF_R; continue; }
            if (eq(w, wl, "wrap")) { in->flags |= PF_WRAP; continue; }
            if (eq(w, wl, "clamp")) continue;
            break;
        case OP_BMSK:
            if (eq(w, wl, "wrap")) { in->flags |= PF_WRAP; continue; }
            if (eq(w, wl, "clamp")) continue;
            break;
        case OP_TESTP:
            if ((v = LOOKUP(testp_names, w, wl)) >= 0) { in->mode = (uint8_t)v; continue; }
            break;
        case OP_CVTA:
            if (eq(w, wl, "to")) { in->flags |= PF_TO; continue; }
            break;
        case OP_CVT: /* cvt.rna.tf32.f32: the destination type */
            if (eq(w, wl, "tf32") && n_types == 0) {
                in->type = PT_B32;
                in->mode = CVT_TF32;
                n_types++;
                continue;
            }
            break;
        case OP_BAR:
            if (eq(w, wl, "red")) { bar_red = true; continue; }
            if (bar_red && eq(w, wl, "popc")) { in->mode = BAR_RED_POPC; continue; }
            if (bar_red && eq(w, wl, "and")) { in->mode = BAR_RED_AND; continue; }
            if (bar_red && eq(w, wl, "or")) { in->mode = BAR_RED_OR; continue; }
            break;
        case OP_BFIND:
            if (eq(w, wl, "shiftamt")) { in->flags |= PF_SHIFTAMT; continue; }
            break;
        case OP_VSIMD:
            if (eq(w, wl, "add")) { in->flags |= PF_VADD; continue; }
            break;
        case OP_TEX: case OP_SULD: case OP_SUST:
            if (in->mode == TEXG_NONE && (v = LOOKUP(geom_names, w, wl)) >= 0) { in->mode = (uint8_t)v; continue; }
            if (op != OP_TEX && eq(w, wl, "b") && !have_cmp) { have_cmp = true; continue; } /* .b: raw bytes */
            if (op != OP_TEX && (v = LOOKUP(su_mode_names, w, wl)) >= 0) { in->boolop = (uint8_t)v; continue; }
            if (op == OP_TEX && (eq(w, wl, "level") || eq(w, wl, "grad") || eq(w, wl, "base"))) {
                snprintf(why, why_len, "'%.*s': tex.%.*s (tex*Lod, tex*Grad: mipmapped textures) is not supported",
                         (int)len, word, (int)wl, w);
                return false;
            }
            break;
        default:
            break;
        }
        if ((v = LOOKUP(rnd_names, w, wl)) >= 0) { in->rnd = (uint8_t)v; continue; }
        if ((v = LOOKUP(space_names, w, wl)) >= 0) { in->space = (uint8_t)v; continue; }
        if (eq(w, wl, "ftz")) { in->flags |= PF_FTZ; continue; }
        if (eq(w, wl, "sat")) { in->flags |= PF_SAT; continue; }
        if (eq(w, wl, "approx")) { in->flags |= PF_APPROX; continue; }
        if (eq(w, wl, "cc")) { in->flags |= PF_CC; continue; }
        if (eq(w, wl, "uni")) { in->flags |= PF_UNI; continue; }
        if (eq(w, wl, "v2")) { in->vec = 2; continue; }
        if (eq(w, wl, "v4")) { in->vec = 4; continue; }
        if (eq(w, wl, "warp") && op == OP_BAR) { in->op = OP_NOP; continue; } /* bar.warp.sync */
        if (eq(w, wl, "shared::cluster")) { in->space = SP_SHARED; continue; }
        if (op == OP_LD)
            note_load_qualifier(&lq, w, wl);
        if (is_ignored(w, wl))
            continue;
        snprintf(why, why_len, "unsupported modifier '.%.*s' in '%.*s'", (int)wl, w, (int)len, word);
        return false;
    }
    if (l2_only(&lq))
        in->flags |= PF_L2_ONLY;
    if (bar_red && (in->mode == BAR_SYNC || n_types != 1 ||
                    in->type != (in->mode == BAR_RED_POPC ? PT_U32 : PT_PRED))) {
        snprintf(why, why_len, "'%.*s': expected bar.red.popc.u32, bar.red.and.pred or bar.red.or.pred", (int)len,
                 word);
        return false;
    }
    /* Types each opcode needs. */
    bool needs_type = !(op == OP_BRA || op == OP_CALL || op == OP_RET || op == OP_EXIT ||
                        op == OP_BAR || op == OP_MEMBAR || op == OP_NOP || op == OP_PREFETCH ||
                        op == OP_VOTE || op == OP_ACTIVEMASK);
    if (in->op == OP_NOP)
        needs_type = false;
    if (needs_type && n_types == 0) {
        snprintf(why, why_len, "expected a type modifier (.u32, .f32, ...) in '%.*s'", (int)len, word);
        return false;
    }
    if ((op == OP_CVT || op == OP_SET || op == OP_SLCT) && n_types < 2) {
        snprintf(why, why_len, "expected two types in '%.*s'", (int)len, word);
        return false;
    }
    if (op == OP_TEX && (in->mode == TEXG_NONE || in->vec != 4 || (in->type2 != PT_S32 && in->type2 != PT_F32) ||
                         (in->type != PT_F32 && in->type != PT_S32 && in->type != PT_U32))) {
        snprintf(why, why_len, "'%.*s': only tex.{1d,2d,3d,a1d,a2d,cube,acube}.v4.{f32,s32,u32}.{s32,f32} "
                 "(tex1Dfetch, tex1D, tex2D, tex3D, their layered forms and texCubemap on a texture object) is "
                 "supported", (int)len, word);
        return false;
    }
    if ((op == OP_SULD || op == OP_SUST) &&
        (!have_cmp || in->mode == TEXG_NONE || in->mode == TEXG_CUBE || in->mode == TEXG_ACUBE ||
         (in->type != PT_B8 && in->type != PT_B16 && in->type != PT_B32 && in->type != PT_B64))) {
        snprintf(why, why_len, "'%.*s': only %s.b.{1d,2d,3d,a1d,a2d}[.v2,.v4].{b8,b16,b32,b64}[.trap,.clamp,.zero] "
                 "(surf*read / surf*write on a surface object) is supported", (int)len, word,
                 op == OP_SULD ? "suld" : "sust");
        return false;
    }
    if ((op != OP_CVT && in->rnd == RND_RNA) ||
        (op == OP_CVT && (in->mode == CVT_TF32 || in->rnd == RND_RNA) &&
         (in->mode != CVT_TF32 || in->rnd != RND_RNA || in->type2 != PT_F32 || (in->flags & (PF_SAT | PF_FTZ))))) {
        snprintf(why, why_len, "'%.*s': of the conversions to .tf32 (and with .rna) only cvt.rna.tf32.f32 is "
                 "supported", (int)len, word);
        return false;
    }
    if (op == OP_SETP && !have_cmp) {
        snprintf(why, why_len, "expected a comparison (.eq, .lt, ...) in '%.*s'", (int)len, word);
        return false;
    }
    if (op == OP_MATCH && in->mode == MATCH_NONE) {
        snprintf(why, why_len, "expected .any or .all in '%.*s'", (int)len, word);
        return false;
    }
    if (op == OP_VSIMD) {
        bool typed = n_types == 3;
        for (unsigned k = 0; k < 3 && typed; k++) {
            uint8_t t = k == 0 ? in->type : k == 1 ? in->type2 : in->type3;
            typed = t == PT_U32 || t == PT_S32;
        }
        if (!typed || ((in->flags & PF_VADD) && (in->flags & PF_SAT))) {
            snprintf(why, why_len, "'%.*s': expected %.*s.dtype.atype.btype{.sat} or %.*s.dtype.atype.btype.add, "
                     "each type .u32 or .s32", (int)len, word, (int)blen, word, (int)blen, word);
            return false;
        }
    }
    if (op == OP_SETP)
        in->type2 = in->type;
    if (op == OP_VOTE && in->mode != VOTE_BALLOT)
        in->type = PT_PRED;
    if (op == OP_VOTE && in->mode == VOTE_BALLOT)
        in->type = PT_B32;
    if (op == OP_ACTIVEMASK)
        in->type = PT_B32;
    return true;
}

void ptx_decode_arity(const PtxInst *in, unsigned *lo, unsigned *hi)
{
    unsigned a = 3, b = 3;
    switch (in->op) {
    case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_CLZ: case OP_POPC:
    case OP_BREV: case OP_BFIND: case OP_MOV: case OP_CVT: case OP_CVTA: case OP_RCP:
    case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS:
    case OP_TANH: case OP_TESTP: case OP_LD:
        a = b = 2; break;
    case OP_ST: case OP_RED:
        a = b = 2; break;
    case OP_MAD: case OP_MADC: case OP_MAD24: case OP_SAD: case OP_FMA: case OP_SELP:
    case OP_SLCT: case OP_BFE: case OP_PRMT: case OP_SHF: case OP_VSIMD:
        a = b = 4; break;
    case OP_BFI: a = b = 5; break;
    case OP_SETP: a = 4; b = 5; break;  /* p, q|none, a, b [, c] */
    case OP_SET: a = 3; b = 4; break;
    case OP_ATOM: a = 3; b = 4; break;
    case OP_SHFL: a = 5; b = 6; break;  /* d, p|none, a, b, c [, membermask] */
    case OP_MATCH: a = b = 4; break;    /* d, p|none, a, membermask */
    case OP_VOTE: a = 2; b = 3; break;
    case OP_ACTIVEMASK: case OP_CLOCK: a = b = 1; break;
    case OP_TEX: case OP_SULD: case OP_SUST:
        a = b = 3; break; /* the parser splits [h, {x, ...}] into two operands */
    case OP_BRA: a = b = 1; break;
    case OP_CALL: a = b = 1; break;
    case OP_BAR: a = in->mode == BAR_SYNC ? 0 : 3; b = in->mode == BAR_SYNC ? 2 : 4; break; /* [d,] a [, b] [, c] */
    case OP_RET: case OP_EXIT: case OP_MEMBAR: case OP_NOP: a = 0; b = 6; break;
    case OP_PREFETCH: a = b = 1; break;
    case OP_WMMA: ptx_wmma_arity(in, &a, &b); break;
    case OP_CPASYNC: ptx_async_arity(in, &a, &b); break;
    default: break;
    }
    *lo = a;
    *hi = b;
}

uint8_t ptx_decode_operand_type(const PtxInst *in, unsigned i)
{
    switch (in->op) {
    case OP_SHL: case OP_SHR:
        return i == 2 ? PT_U32 : in->type;
    case OP_CVT:
        return i == 1 ? in->type2 : in->type;
    case OP_SETP:
        return i == 4 ? PT_PRED : in->type;
    case OP_SET:
        return i == 3 ? PT_PRED : (i == 0 ? in->type : in->type2);
    case OP_SELP:
        return i == 3 ? PT_PRED : in->type;
    case OP_SLCT:
        return i == 3 ? in->type2 : in->type;
    case OP_BFE:
        return i >= 2 ? PT_U32 : in->type;
    case OP_BFI:
        return i >= 3 ? PT_U32 : in->type;
    case OP_MATCH:
        return i == 1 ? PT_PRED : i == 2 ? in->type : PT_B32;
    case OP_BAR: /* bar.red d, a{, b}, {!}c: d of its type (literals: a and b) */
        return in->mode != BAR_SYNC && i == 0 ? in->type : PT_B32;
    case OP_SHF: case OP_PRMT: case OP_SHFL: case OP_VOTE: case OP_BMSK: case OP_VSIMD:
        return PT_B32;
    case OP_WMMA: /* the stride */
    case OP_CPASYNC: /* cp-size, src-size; wait_group's N */
        return PT_U32;
    default:
        return in->type;
    }
}

static uint8_t classify(const PtxModule *m, const PtxInst *in)
{
    bool f64 = in->type == PT_F64 || in->type2 == PT_F64;
    bool flt = ptx_type_float(in->type) || ptx_type_float(in->type2);
    switch (in->op) {
    case OP_MUL: case OP_MUL24:
        return in->type == PT_F64 ? WOP_DP_MUL : ptx_type_float(in->type) ? WOP_FP_MUL : WOP_INT_MUL;
    case OP_MAD: case OP_MADC: case OP_MAD24: case OP_FMA: case OP_SAD:
        return in->type == PT_F64 ? WOP_DP_MAD : ptx_type_float(in->type) ? WOP_FP_MAD : WOP_INT_MAD;
    case OP_DIV: case OP_REM:
        return in->type == PT_F64 ? WOP_DP_DIV : ptx_type_float(in->type) ? WOP_FP_DIV : WOP_INT_DIV;
    case OP_RCP: case OP_SQRT: case OP_RSQRT:
        return in->type == PT_F64 ? WOP_DP_DIV : WOP_SFU;
    case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        return WOP_SFU;
    case OP_LD: case OP_TEX: case OP_SULD:
        return WOP_LOAD;
    case OP_WMMA:
        return in->mode == WMMA_MMA ? WOP_TENSOR : in->mode == WMMA_STORE_D ? WOP_STORE : WOP_LOAD;
    case OP_CPASYNC: /* the copy is a global load; commit and wait take an issue slot */
        return in->mode == CPA_COPY ? WOP_LOAD : WOP_NOP;
    case OP_ST: case OP_SUST:
        return WOP_STORE;
    case OP_ATOM: case OP_RED:
        return WOP_ATOMIC;
    case OP_BAR:
        return WOP_BARRIER;
    case OP_BRA: case OP_CALL:
        return WOP_BRANCH;
    case OP_RET:
        return m->funcs[in->func].is_entry ? WOP_EXIT : WOP_BRANCH;
    case OP_EXIT: /* a trap ends the kernel (a fault) or, predicated off, nothing */
        return in->mode == EXIT_TRAP ? WOP_NOP : WOP_EXIT;
    case OP_MEMBAR: case OP_NOP: case OP_PREFETCH:
        return WOP_NOP;
    case OP_ADD: case OP_SUB: case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX:
    case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT: case OP_CVT: case OP_COPYSIGN:
    case OP_TESTP: case OP_MOV:
        if (in->op == OP_MOV || in->op == OP_SELP)
            return WOP_INT_ADD; /* moves and selects of any type run on the integer pipe */
        return f64 ? WOP_DP_ADD : flt ? WOP_FP_ADD : WOP_INT_ADD;
    default:
        return WOP_INT_ADD;
    }
}

static WinstSpace wspace(uint8_t sp)
{
    switch (sp) {
    case SP_SHARED: return WSPACE_SHARED;
    case SP_LOCAL: return WSPACE_LOCAL;
    case SP_CONST: return WSPACE_CONST;
    case SP_PARAM_K: case SP_PARAM_F: return WSPACE_PARAM;
    default: return WSPACE_GLOBAL; /* generic accesses are reported per execution */
    }
}

static void add_reg(const PtxModule *m, uint16_t *list, uint8_t *n, unsigned cap, uint16_t r)
{
    /* Special registers are constants of the thread, not dependences; the carry flag is one. */
    if (r == PTX_NO_REG ||
        (r >= m->special_base && r < m->special_base + SR_COUNT && r != m->special_base + SR_CARRY))
        return;
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == r)
            return;
    if (*n < cap)
        list[(*n)++] = r;
}

void ptx_inst_regs(const PtxInst *in, uint16_t *defs, unsigned *nd, uint16_t *uses, unsigned *nu)
{
    unsigned first_src = 1;
    *nd = *nu = 0;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT:
    case OP_MEMBAR: case OP_NOP: case OP_PREFETCH: case OP_SUST:
        first_src = 0;
        break;
    case OP_BAR: /* bar.red writes its first operand */
        first_src = in->mode != BAR_SYNC;
        if (first_src && in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG)
            defs[(*nd)++] = in->o[0].reg;
        break;
    case OP_SETP: case OP_SHFL: case OP_MATCH:
        for (unsigned j = 0; j < 2 && j < in->n_ops; j++)
            if (in->o[j].kind == OK_REG && in->o[j].reg != PTX_NO_REG)
                defs[(*nd)++] = in->o[j].reg;
        first_src = 2;
        break;
    default:
        if (in->n_ops == 0) {
            first_src = 0;
        } else if (in->o[0].kind == OK_REG) {
            if (in->o[0].reg != PTX_NO_REG)
                defs[(*nd)++] = in->o[0].reg;
        } else if (in->o[0].kind == OK_VEC) {
            for (unsigned k = 0; k < in->o[0].n; k++)
                if (in->o[0].vreg[k] != PTX_NO_REG)
                    defs[(*nd)++] = in->o[0].vreg[k];
        } else {
            first_src = 0; /* wmma.store: the first operand is its address */
        }
        break;
    }
    if (in->guard != PTX_NO_REG)
        uses[(*nu)++] = in->guard;
    for (unsigned i = first_src; i < in->n_ops; i++) {
        const PtxOperand *o = &in->o[i];
        if ((o->kind == OK_REG || o->kind == OK_ADDR) && o->reg != PTX_NO_REG)
            uses[(*nu)++] = o->reg;
        else if (o->kind == OK_VEC)
            for (unsigned k = 0; k < o->n; k++)
                if (o->vreg[k] != PTX_NO_REG)
                    uses[(*nu)++] = o->vreg[k];
    }
}

/* Whether executing in touches only its warp, its CTA (shared memory, barriers) and what does
 * not change during a launch (its parameters): else other SMs' warps may see or change what it
 * does (memory behind PtxMemory, whose look-ups also update its TLB; device calls, the
 * launch's output), and it runs in order with several threads (WINST_F_ORDERED). */
static bool warp_local(const PtxInst *in)
{
    switch (in->op) {
    case OP_LD:
        return in->space == SP_SHARED || in->space == SP_PARAM_K;
    case OP_ST: case OP_ATOM: case OP_RED:
        return in->space == SP_SHARED;
    case OP_PREFETCH: case OP_CALL: case OP_RET: case OP_TEX: case OP_SULD: case OP_SUST: case OP_WMMA:
    case OP_CPASYNC:
        return false;
    default:
        return true; /* arithmetic, moves, branches, exits, barriers, warp votes and shuffles */
    }
}

void ptx_decode_static(const PtxModule *m, uint32_t pc, WinstStatic *s)
{
    const PtxInst *in = &m->insts[pc];
    memset(s, 0, sizeof *s);
    s->pc = pc * PTX_PC_BYTES;
    s->op = classify(m, in);
    if (s->op == WOP_LOAD || s->op == WOP_STORE || s->op == WOP_ATOMIC) {
        /* texture and surface loads: the texture space; a surface store: a global store */
        s->space = (uint8_t)(in->op == OP_TEX || in->op == OP_SULD ? WSPACE_TEX
                             : in->op == OP_SUST ? WSPACE_GLOBAL : wspace(in->space));
        s->access_bytes = (uint8_t)(in->op == OP_WMMA ? ptx_wmma_lane_bytes(in) : ptx_type_bytes(in->type) * in->vec);
        if (in->flags & PF_L2_ONLY)
            s->flags |= WINST_F_L2_ONLY;
    }
    if (in->op == OP_CPASYNC)
        ptx_async_static(in, s);
    if (!warp_local(in))
        s->flags |= WINST_F_ORDERED;
    uint16_t defs[PTX_MAX_INST_REGS], uses[PTX_MAX_INST_REGS];
    unsigned nd, nu;
    ptx_inst_regs(in, defs, &nd, uses, &nu);
    for (unsigned i = 0; i < nd; i++)
        add_reg(m, s->dst, &s->n_dst, WINST_MAX_DST, defs[i]);
    if ((in->flags & PF_CC) && s->n_dst < WINST_MAX_DST)
        add_reg(m, s->dst, &s->n_dst, WINST_MAX_DST, (uint16_t)(m->special_base + SR_CARRY));
    for (unsigned i = 0; i < nu; i++) /* the guard first, then the operands in order */
        add_reg(m, s->src, &s->n_src, WINST_MAX_SRC, uses[i]);
    if (in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC)
        add_reg(m, s->src, &s->n_src, WINST_MAX_SRC, (uint16_t)(m->special_base + SR_CARRY));
}
