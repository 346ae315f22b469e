/* test_synth.c: the synthetic front end: parsing, expressions, errors with file:line, the
 * register model, loops and ifs, and the exact streams it plays through FrontOps. */
#include "../test.h"

#include "base/base.h"
#include "front/synth/synth.h"

#include <stdlib.h>

static bool same_static(const WinstStatic *a, const WinstStatic *b)
{
    bool same = a->pc == b->pc && a->op == b->op && a->space == b->space &&
                a->access_bytes == b->access_bytes && a->n_dst == b->n_dst && a->n_src == b->n_src;
    for (unsigned i = 0; same && i < a->n_dst; i++)
        same = a->dst[i] == b->dst[i];
    for (unsigned i = 0; same && i < a->n_src; i++)
        same = a->src[i] == b->src[i];
    return same;
}

static SynthProgram *parse_ok(const char *text)
{
    char err[512];
    SynthProgram *p = synth_parse(text, "t.syn", err, sizeof err);
    if (!p)
        printf("    unexpected parse error: %s\n", err);
    return p;
}

#define EXPECT_PARSE_ERR(text, msg)                                                            \
    do {                                                                                       \
        char err_[512];                                                                        \
        SynthProgram *p_ = synth_parse((text), "t.syn", err_, sizeof err_);                   \
        EXPECT(p_ == NULL);                                                                    \
        synth_free(p_);                                                                        \
        EXPECT_CONTAINS(err_, (msg));                                                          \
    } while (0)

/* Start kernel i of p with n_warp_ids warp slots and CTA cta at warp_id_base. */
static SynthFront *start(const SynthProgram *p, uint32_t i, uint32_t n_warp_ids, uint32_t cta,
                         uint32_t warp_id_base)
{
    SynthFront *f = synth_front_create(p, i);
    synth_front_ops.kernel_begin(f, synth_kernel(p, i), n_warp_ids);
    synth_front_ops.cta_start(f, cta, 0, warp_id_base);
    return f;
}

/* Lane values of expr for warp `warp` of CTA `cta`, read back as the addresses of a load
 * from a 1-byte array at 0 (the address is then the value itself). */
static bool lanes_of(const char *geometry, const char *expr, uint32_t cta, uint32_t warp,
                     int64_t out[WARP_SIZE])
{
    char text[512];
    snprintf(text, sizeof text, "kernel e\n%s\narray Z 0 1\nload Z[%s]\n", geometry, expr);
    SynthProgram *p = parse_ok(text);
    if (!p)
        return false;
    uint32_t wpc = front_kernel_warps_per_cta(synth_kernel(p, 0));
    SynthFront *f = start(p, 0, wpc, cta, 0);
    Winst wi;
    synth_front_ops.exec(f, warp, &wi);
    bool ok = wi.s.op == WOP_LOAD;
    for (int l = 0; l < WARP_SIZE; l++)
        out[l] = (int64_t)wi.addr[l];
    synth_front_destroy(f);
    synth_free(p);
    return ok;
}

/* expr (synthetic syntax) must equal c_expr (C, in terms of int64_t lane l and friends) on
 * every lane; checked twice: as written and forced onto the bytecode path by "| 0". */
#define EXPECT_LANES(geometry, cta, warp, expr, c_expr)                                        \
    do {                                                                                       \
        for (int pass_ = 0; pass_ < 2; pass_++) {                                              \
            int64_t v_[WARP_SIZE];                                                             \
            const char *e_ = pass_ ? "(" expr ") | 0" : expr;                                  \
            if (!lanes_of(geometry, e_, cta, warp, v_)) {                                      \
                test_fail(__FILE__, __LINE__, e_);                                             \
                break;                                                                         \
            }                                                                                  \
            for (int64_t l = 0; l < WARP_SIZE; l++) {                                          \
                int64_t want_ = (c_expr);                                                      \
                if (v_[l] != want_) {                                                          \
                    char m_[200];                                                              \
                    snprintf(m_, sizeof m_, "%s at lane %d: %lld, expected %lld", e_, (int)l,  \
                             (long long)v_[l], (long long)want_);                              \
                    test_fail(__FILE__, __LINE__, m_);                                         \
                    break;                                                                     \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    } while (0)

TEST(synth_parse_every_statement)
{
    SynthProgram *p = parse_ok("# a comment line\n"
                               "array G 0x100 8   # arrays may precede kernels\n"
                               "kernel first   # trailing comment\n"
                               "grid 4 3 2\n"
                               "block 16 8 2\n"
                               "regs 33\n"
                               "smem 4096\n"
                               "array H 4096 2\n"
                               "\n"
                               "alu 3\n"
                               "alu 1 imul\nalu 1 imad\nalu 1 idiv\nalu 1 fp\nalu 1 fmul\n"
                               "alu 1 fmad\nalu 1 fdiv\nalu 1 dp\nalu 1 dmul\nalu 1 dmad\n"
                               "alu 1 ddiv\nalu 1 sfu\n"
                               "load G[tid]\nstore H[ltid]\natomic G[0]\n"
                               "shared_load ltid*4\nshared_store ltid*4\n"
                               "loop i 2\n  if tid & 1\n    barrier\n  end\nend\n"
                               "kernel second\n"
                               "grid 7\n"
                               "block 33\n"
                               "load H[tid]\n");
    ASSERT(p);
    ASSERT(synth_n_kernels(p) == 2);
    const FrontKernel *k = synth_kernel(p, 0);
    EXPECT_STR(k->name, "first");
    EXPECT_EQ_U(k->grid[0], 4);
    EXPECT_EQ_U(k->grid[1], 3);
    EXPECT_EQ_U(k->grid[2], 2);
    EXPECT_EQ_U(k->block[0], 16);
    EXPECT_EQ_U(k->block[1], 8);
    EXPECT_EQ_U(k->block[2], 2);
    EXPECT_EQ_U(k->regs_per_thread, 33);
    EXPECT_EQ_U(k->smem_bytes_per_cta, 4096);
    /* 3 + 12 alu, 3 global, 2 shared, 1 barrier, exit */
    EXPECT_EQ_U(synth_kernel_n_insts(p, 0), 22);
    const FrontKernel *k2 = synth_kernel(p, 1);
    EXPECT_STR(k2->name, "second");
    EXPECT_EQ_U(k2->grid[0], 7);
    EXPECT_EQ_U(k2->grid[1], 1);
    EXPECT_EQ_U(k2->grid[2], 1);
    EXPECT_EQ_U(k2->block[0], 33);
    EXPECT_EQ_U(k2->regs_per_thread, 16); /* defaults */
    EXPECT_EQ_U(k2->smem_bytes_per_cta, 0);
    EXPECT_EQ_U(synth_kernel_n_insts(p, 1), 2);

    /* The op classes in order, as the stream shows them (warp 0 of CTA 0 of kernel 0). */
    static const WinstOp want[] = {
        WOP_INT_ADD, WOP_INT_ADD, WOP_INT_ADD, WOP_INT_MUL, WOP_INT_MAD, WOP_INT_DIV,
        WOP_FP_ADD,  WOP_FP_MUL,  WOP_FP_MAD,  WOP_FP_DIV,  WOP_DP_ADD,  WOP_DP_MUL,
        WOP_DP_MAD,  WOP_DP_DIV,  WOP_SFU,     WOP_LOAD,    WOP_STORE,   WOP_ATOMIC,
        WOP_LOAD,    WOP_STORE,   WOP_BARRIER, WOP_BARRIER, WOP_EXIT,
    };
    SynthFront *f = start(p, 0, 8, 0, 0);
    Winst wi;
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        ASSERT(synth_front_ops.peek(f, 0));
        synth_front_ops.exec(f, 0, &wi);
        EXPECT_EQ_U(wi.s.op, want[i]);
    }
    EXPECT(synth_front_ops.peek(f, 0) == NULL);
    synth_front_destroy(f);
    synth_free(p);
}

TEST(synth_expr_operators)
{
    const char *g = "grid 2\nblock 64";
    /* CTA 1, warp 1: tid = 96 + lane. */
    EXPECT_LANES(g, 1, 1, "tid", 96 + l);
    EXPECT_LANES(g, 1, 1, "lane * 3 + 7", l * 3 + 7);
    EXPECT_LANES(g, 1, 1, "lane - 40", l - 40);
    EXPECT_LANES(g, 1, 1, "-lane", -l);
    EXPECT_LANES(g, 1, 1, "- -lane", l);
    EXPECT_LANES(g, 1, 1, "~lane", ~l);
    EXPECT_LANES(g, 1, 1, "lane / 3", l / 3);
    EXPECT_LANES(g, 1, 1, "(lane - 16) / 3", (l - 16) / 3); /* truncates toward zero */
    EXPECT_LANES(g, 1, 1, "lane % 5", l % 5);
    EXPECT_LANES(g, 1, 1, "(lane - 16) % 5", (l - 16) % 5);
    EXPECT_LANES(g, 1, 1, "lane / 0", 0);
    EXPECT_LANES(g, 1, 1, "lane % 0", 0);
    EXPECT_LANES(g, 1, 1, "100 / (lane - 3)", l == 3 ? 0 : 100 / (l - 3));
    EXPECT_LANES(g, 1, 1, "lane << 3", l << 3);
    EXPECT_LANES(g, 1, 1, "1 << lane", (int64_t)1 << l);
    EXPECT_LANES(g, 1, 1, "lane >> 1", l >> 1);
    EXPECT_LANES(g, 1, 1, "(lane - 16) >> 2", l >= 16 ? (l - 16) / 4 : -((19 - l) / 4));
    EXPECT_LANES(g, 1, 1, "lane & 6", l & 6);
    EXPECT_LANES(g, 1, 1, "lane | 8", l | 8);
    EXPECT_LANES(g, 1, 1, "lane ^ 5", l ^ 5);
    EXPECT_LANES(g, 1, 1, "lane < 7", l < 7);
    EXPECT_LANES(g, 1, 1, "lane <= 7", l <= 7);
    EXPECT_LANES(g, 1, 1, "lane > 7", l > 7);
    EXPECT_LANES(g, 1, 1, "lane >= 7", l >= 7);
    EXPECT_LANES(g, 1, 1, "lane == 7", l == 7);
    EXPECT_LANES(g, 1, 1, "lane != 7", l != 7);
    EXPECT_LANES(g, 1, 1, "lane * lane", l * l);
    /* Precedence and associativity follow C. */
    EXPECT_LANES(g, 1, 1, "1 + 2 * 3 + lane", 7 + l);
    EXPECT_LANES(g, 1, 1, "(1 + 2) * lane", 3 * l);
    EXPECT_LANES(g, 1, 1, "lane + 2 * 3 << 1", (l + 6) << 1);
    EXPECT_LANES(g, 1, 1, "lane & 3 == 3", l & 1);
    EXPECT_LANES(g, 1, 1, "lane - 3 - 2", l - 5);
    EXPECT_LANES(g, 1, 1, "64 / 4 / 2 + lane", 8 + l);
    EXPECT_LANES(g, 1, 1, "lane | 1 ^ 3 & 2", l | (1 ^ (3 & 2)));
    EXPECT_LANES(g, 1, 1, "lane < 4 == 1", (l < 4) == 1);
    EXPECT_LANES(g, 1, 1, "0x10 + 0X1f + lane", 47 + l);
    EXPECT_LANES(g, 1, 1, "((lane))", l);
    EXPECT_LANES(g, 1, 1, "2 * (lane + 1) * 3 - (lane << 2)", 6 * (l + 1) - 4 * l);
}

TEST(synth_expr_variables)
{
    /* 12 CTAs of 8 x 4 x 2 threads (2 warps). CTA 10 is (bx, by, bz) = (1, 1, 1). */
    const char *g = "grid 3 2 2\nblock 8 4 2";
#define LTID (32 + l)
    EXPECT_LANES(g, 10, 1, "tid", 10 * 64 + LTID);
    EXPECT_LANES(g, 10, 1, "ltid", LTID);
    EXPECT_LANES(g, 10, 1, "tx", LTID % 8);
    EXPECT_LANES(g, 10, 1, "ty", LTID / 8 % 4);
    EXPECT_LANES(g, 10, 1, "tz", LTID / 32);
    EXPECT_LANES(g, 10, 1, "ctaid", 10);
    EXPECT_LANES(g, 10, 1, "bx", 1);
    EXPECT_LANES(g, 10, 1, "by", 1);
    EXPECT_LANES(g, 10, 1, "bz", 1);
    EXPECT_LANES(g, 10, 1, "lane", l);
    EXPECT_LANES(g, 10, 1, "warp", 1);
    EXPECT_LANES(g, 10, 1, "ntid", 64);
    EXPECT_LANES(g, 10, 1, "nctaid", 12);
    EXPECT_LANES(g, 10, 1, "tx * 100 + ty * 10 + tz - 5", (LTID % 8) * 100 + (LTID / 8 % 4) * 10 + LTID / 32 - 5);
    EXPECT_LANES(g, 10, 1, "ctaid * ntid + warp * 32 + lane - tid", 0);
    EXPECT_LANES(g, 10, 0, "tz * 1000 + ty", (l / 8 % 4));
    EXPECT_LANES(g, 5, 0, "bx + by * 10 + bz * 100", 2 + 1 * 10);
#undef LTID
}

TEST(synth_nested_loops_and_loop_vars)
{
    SynthProgram *p = parse_ok("kernel t\ngrid 1\nblock 32\narray Z 0 1\n"
                               "loop i 2\n"
                               "  loop j 3\n"
                               "    load Z[i*10 + j + lane*100]\n"
                               "  end\n"
                               "  alu 1\n"
                               "end\n");
    ASSERT(p);
    SynthFront *f = start(p, 0, 1, 0, 0);
    static const struct { uint32_t pc; WinstOp op; uint64_t lane0; } want[] = {
        {0, WOP_LOAD, 0},  {0, WOP_LOAD, 1},  {0, WOP_LOAD, 2},  {8, WOP_INT_ADD, 0},
        {0, WOP_LOAD, 10}, {0, WOP_LOAD, 11}, {0, WOP_LOAD, 12}, {8, WOP_INT_ADD, 0},
        {16, WOP_EXIT, 0},
    };
    Winst wi;
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        const WinstStatic *s = synth_front_ops.peek(f, 0);
        ASSERT(s);
        EXPECT_EQ_U(s->pc, want[i].pc);
        synth_front_ops.exec(f, 0, &wi);
        EXPECT_EQ_U(wi.s.pc, want[i].pc);
        EXPECT_EQ_U(wi.s.op, want[i].op);
        if (want[i].op == WOP_LOAD) {
            EXPECT_EQ_U(wi.addr[0], want[i].lane0);
            EXPECT_EQ_U(wi.addr[31], want[i].lane0 + 3100);
        }
    }
    EXPECT(synth_front_ops.peek(f, 0) == NULL);
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 9);
    synth_front_destroy(f);
    synth_free(p);

    /* Trip counts may be uniform expressions; zero trips skip the body. CTA c runs c trips. */
    p = parse_ok("kernel t\ngrid 3\nblock 32\nloop k ctaid\n  alu 1\nend\n"
                 "loop m 2 * warp + 0x1\n  loop n m\n    alu 1 fp\n  end\nend\n");
    ASSERT(p);
    /* CTA c: c int instructions; warp 0 runs m = 0 only, whose inner loop has no trips. */
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), (0 + 1 + 2) + 3);
    synth_free(p);
    p = parse_ok("kernel t\ngrid 1\nblock 96\nloop m 2 * warp + 1\n  loop n m\n    alu 1 fp\n  end\nend\n");
    ASSERT(p);
    /* warp w: m = 0 .. 2w, inner trips sum to (2w)(2w+1)/2: 0, 3, 10; plus 3 exits */
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 0 + 3 + 10 + 3);
    synth_free(p);
    /* A non-affine uniform count (bytecode path): CTAs 0, 1, 2 run 1, 2, 1 trips. */
    p = parse_ok("kernel t\ngrid 3\nblock 32\nloop k ctaid % 2 + 1\n  alu 1\nend\n");
    ASSERT(p);
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 1 + 2 + 1 + 3);
    synth_free(p);
}

TEST(synth_if_divergence_masks)
{
    SynthProgram *p = parse_ok("kernel t\ngrid 1\nblock 48\narray Z 0 4\n"
                               "if lane & 1\n"
                               "  load Z[tid]\n"
                               "  if lane < 8\n"
                               "    alu 1\n"
                               "  end\n"
                               "  alu 1 fp\n"
                               "end\n"
                               "if lane > 100\n"
                               "  alu 1 sfu\n"
                               "end\n"
                               "loop i 3\n"
                               "  if lane < i * 8\n"
                               "    alu 1 dp\n"
                               "  end\n"
                               "end\n"
                               "store Z[tid]\n");
    ASSERT(p);
    SynthFront *f = start(p, 0, 4, 0, 2); /* warps 2 and 3; warp 3 has 16 lanes */
    EXPECT(synth_front_ops.peek(f, 0) == NULL); /* never started */
    for (uint32_t w = 2; w < 4; w++) {
        uint32_t full = w == 2 ? 0xFFFFFFFFu : 0xFFFFu;
        const struct { uint32_t pc; WinstOp op; uint32_t mask; } want[] = {
            {0, WOP_LOAD, full & 0xAAAAAAAAu}, {8, WOP_INT_ADD, 0xAAu},
            {16, WOP_FP_ADD, full & 0xAAAAAAAAu},
            /* the sfu (pc 24) is skipped: no lane enters; i = 0 enters neither */
            {32, WOP_DP_ADD, 0xFFu}, {32, WOP_DP_ADD, 0xFFFFu},
            {40, WOP_STORE, full}, {48, WOP_EXIT, full},
        };
        Winst wi;
        for (size_t i = 0; i < ARRAY_LEN(want); i++) {
            ASSERT(synth_front_ops.peek(f, w));
            EXPECT_EQ_U(synth_front_ops.peek_mask(f, w), want[i].mask); /* known before it runs */
            synth_front_ops.exec(f, w, &wi);
            EXPECT_EQ_U(wi.s.pc, want[i].pc);
            EXPECT_EQ_U(wi.s.op, want[i].op);
            EXPECT_EQ_U(wi.active_mask, want[i].mask);
        }
        EXPECT(synth_front_ops.peek(f, w) == NULL);
    }
    synth_front_destroy(f);
    synth_free(p);
}

TEST(synth_front_ops_tiny_kernel)
{
    SynthProgram *p = parse_ok("kernel tiny\ngrid 2\nblock 40\nregs 20\nsmem 256\n"
                               "array A 0x1000 4\narray B 0x8000 8\n"
                               "alu 2 imad\n"
                               "load A[tid*2]\n"
                               "load B[lane]\n"
                               "alu 1 fmad\n"
                               "store B[tid]\n"
                               "shared_load lane*4\n"
                               "shared_store lane*4 + 128\n"
                               "atomic A[0]\n"
                               "barrier\n");
    ASSERT(p);
    EXPECT_EQ_U(synth_kernel_n_insts(p, 0), 11);
    EXPECT_EQ_U(front_kernel_warps_per_cta(synth_kernel(p, 0)), 2);
    SynthFront *f = synth_front_create(p, 0);
    synth_front_ops.kernel_begin(f, synth_kernel(p, 0), 10);
    synth_front_ops.cta_start(f, 1, 3, 5); /* CTA 1 -> warps 5 (full) and 6 (8 lanes) */
    const struct {
        WinstOp op;
        WinstSpace space;
        unsigned bytes;
        unsigned n_dst, dst0;
        unsigned n_src, src[3];
    } want[] = {
        {WOP_INT_MAD, WSPACE_NONE, 0, 1, 9, 1, {9}},
        {WOP_INT_MAD, WSPACE_NONE, 0, 1, 9, 1, {9}},
        {WOP_LOAD, WSPACE_GLOBAL, 4, 1, 1, 0, {0}},
        {WOP_LOAD, WSPACE_GLOBAL, 8, 1, 2, 0, {0}},
        {WOP_FP_MAD, WSPACE_NONE, 0, 1, 9, 3, {9, 1, 2}},
        {WOP_STORE, WSPACE_GLOBAL, 8, 0, 0, 1, {9}},
        {WOP_LOAD, WSPACE_SHARED, 4, 1, 3, 0, {0}},
        {WOP_STORE, WSPACE_SHARED, 4, 0, 0, 2, {9, 3}},
        {WOP_ATOMIC, WSPACE_GLOBAL, 4, 0, 0, 1, {9}},
        {WOP_BARRIER, WSPACE_NONE, 0, 0, 0, 0, {0}},
        {WOP_EXIT, WSPACE_NONE, 0, 0, 0, 0, {0}},
    };
    for (uint32_t w = 5; w <= 6; w++) {
        uint32_t mask = w == 5 ? 0xFFFFFFFFu : 0xFFu;
        uint64_t tid0 = 40 + 32 * (w - 5);
        for (unsigned i = 0; i < ARRAY_LEN(want); i++) {
            const WinstStatic *s = synth_front_ops.peek(f, w);
            ASSERT(s);
            EXPECT_EQ_U(s->pc, 8 * i);
            EXPECT_EQ_U(s->op, want[i].op);
            EXPECT_EQ_U(s->space, want[i].space);
            EXPECT_EQ_U(s->access_bytes, want[i].bytes);
            EXPECT_EQ_U(s->n_dst, want[i].n_dst);
            if (s->n_dst)
                EXPECT_EQ_U(s->dst[0], want[i].dst0);
            ASSERT(s->n_src == want[i].n_src);
            for (unsigned r = 0; r < s->n_src; r++)
                EXPECT_EQ_U(s->src[r], want[i].src[r]);
            Winst wi;
            memset(&wi, 0xEE, sizeof wi);
            synth_front_ops.exec(f, w, &wi);
            EXPECT(same_static(&wi.s, s));
            EXPECT_EQ_U(wi.active_mask, mask);
            for (uint64_t l = 0; l < 32 && winst_is_mem(&wi.s); l++) {
                uint64_t want_addr = i == 2   ? 0x1000 + (tid0 + l) * 2 * 4
                                     : i == 3 ? 0x8000 + l * 8
                                     : i == 5 ? 0x8000 + (tid0 + l) * 8
                                     : i == 6 ? l * 4
                                     : i == 7 ? l * 4 + 128
                                              : 0x1000;
                if (mask >> l & 1)
                    EXPECT_EQ_U(wi.addr[l], want_addr);
            }
        }
        EXPECT(synth_front_ops.peek(f, w) == NULL);
    }
    synth_front_ops.cta_end(f, 1);
    synth_front_ops.kernel_end(f);
    synth_front_destroy(f);
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 2 * 2 * 11);
    synth_free(p);
}

TEST(synth_register_model)
{
    /* Nine loads: registers 1..8, then 1 again. The next ALU instructions read them, at most
     * five besides the accumulator each; the rest wait for the following reader. */
    SynthProgram *p = parse_ok("kernel r\ngrid 1\nblock 32\narray A 0 4\n"
                               "load A[lane]\nload A[lane]\nload A[lane]\nload A[lane]\n"
                               "load A[lane]\nload A[lane]\nload A[lane]\nload A[lane]\n"
                               "load A[lane]\n"
                               "alu 3 fp\n"
                               "load A[lane]\n"
                               "store A[lane]\n"
                               "store A[lane]\n");
    ASSERT(p);
    SynthFront *f = start(p, 0, 1, 0, 0);
    Winst wi;
    for (unsigned i = 0; i < 9; i++) {
        synth_front_ops.exec(f, 0, &wi);
        EXPECT_EQ_U(wi.s.n_dst, 1);
        EXPECT_EQ_U(wi.s.dst[0], 1 + i % 8);
        EXPECT_EQ_U(wi.s.n_src, 0);
    }
    static const unsigned srcs[3][6] = {{9, 1, 2, 3, 4, 5}, {9, 6, 7, 8}, {9}};
    static const unsigned n_srcs[3] = {6, 4, 1};
    for (unsigned i = 0; i < 3; i++) {
        synth_front_ops.exec(f, 0, &wi);
        EXPECT_EQ_U(wi.s.op, WOP_FP_ADD);
        EXPECT_EQ_U(wi.s.n_dst, 1);
        EXPECT_EQ_U(wi.s.dst[0], 9);
        ASSERT(wi.s.n_src == n_srcs[i]);
        for (unsigned r = 0; r < n_srcs[i]; r++)
            EXPECT_EQ_U(wi.s.src[r], srcs[i][r]);
    }
    synth_front_ops.exec(f, 0, &wi); /* the tenth load: register 2 */
    EXPECT_EQ_U(wi.s.dst[0], 2);
    synth_front_ops.exec(f, 0, &wi); /* a store after a load reads it (a copy) */
    EXPECT_EQ_U(wi.s.op, WOP_STORE);
    ASSERT(wi.s.n_src == 2);
    EXPECT_EQ_U(wi.s.src[0], 9);
    EXPECT_EQ_U(wi.s.src[1], 2);
    synth_front_ops.exec(f, 0, &wi);
    EXPECT_EQ_U(wi.s.n_src, 1);
    synth_front_destroy(f);
    synth_free(p);
}

TEST(synth_errors_name_file_and_line)
{
    const char *head = "kernel k\ngrid 1\nblock 32\narray A 0 4\n"; /* lines 1-4 */
    char text[512];
#define WITH(body) (snprintf(text, sizeof text, "%s%s", head, body), text)
    EXPECT_PARSE_ERR(WITH("frobnicate 3\n"), "t.syn:5: unknown statement 'frobnicate'");
    EXPECT_PARSE_ERR(WITH("alu 1\nload A[tid + ]\n"),
                     "t.syn:6: expected a number, a variable or '(' in expression, found ']'");
    EXPECT_PARSE_ERR(WITH("load A[(tid + 1]\n"), "t.syn:5: expected ')' in expression");
    EXPECT_PARSE_ERR(WITH("load A[tid 2]\n"), "t.syn:5: expected ']' or an operator");
    EXPECT_PARSE_ERR(WITH("load A[foo]\n"), "t.syn:5: expected a variable");
    EXPECT_PARSE_ERR(WITH("load A[12abc]\n"), "t.syn:5: expected a decimal or 0x hex number");
    EXPECT_PARSE_ERR(WITH("load A[99999999999999999999]\n"), "t.syn:5: expected a number below 2^63");
    EXPECT_PARSE_ERR(WITH("load A tid\n"), "t.syn:5: expected 'load <array>[<expression>]'");
    EXPECT_PARSE_ERR(WITH("load Q[tid]\n"), "t.syn:5: expected a declared array, found unknown array 'Q'");
    EXPECT_PARSE_ERR(WITH("loop i 4\n  alu 1\n"), "t.syn:5: expected an 'end' for this 'loop'");
    EXPECT_PARSE_ERR(WITH("loop i 4\n  if lane\n  alu 1\nend\nkernel k2\n"),
                     "t.syn:5: expected an 'end' for this 'loop'");
    EXPECT_PARSE_ERR(WITH("if lane\n  alu 1\n"), "t.syn:5: expected an 'end' for this 'if'");
    EXPECT_PARSE_ERR(WITH("alu 1\nend\n"), "t.syn:6: expected a 'loop' or 'if' before this 'end'");
    EXPECT_PARSE_ERR(WITH("loop i 4\nend\n"), "t.syn:6: expected at least one instruction in the body of loop 'i'");
    EXPECT_PARSE_ERR(WITH("loop tid 4\nalu 1\nend\n"), "t.syn:5: expected a loop variable name, found built-in");
    EXPECT_PARSE_ERR(WITH("loop i 4\nloop i 2\nalu 1\nend\nend\n"), "t.syn:6: expected a loop variable name, found 'i'");
    EXPECT_PARSE_ERR(WITH("loop i tid\nalu 1\nend\n"), "t.syn:5: expected a loop count that is the same for all lanes");
    EXPECT_PARSE_ERR(WITH("loop i 2 - 5\nalu 1\nend\n"), "t.syn:5: expected a non-negative loop count");
    EXPECT_PARSE_ERR(WITH("loop i\n"), "t.syn:5: expected a trip count");
    EXPECT_PARSE_ERR(WITH("load A[i]\n"), "t.syn:5: expected a variable");
    EXPECT_PARSE_ERR(WITH("alu 2 quantum\n"), "t.syn:5: expected an ALU class");
    EXPECT_PARSE_ERR(WITH("alu 0\n"), "t.syn:5: expected an instruction count");
    EXPECT_PARSE_ERR(WITH("barrier now\n"), "t.syn:5: expected end of line after 'barrier'");
    EXPECT_PARSE_ERR(WITH("array A 8 4\n"), "t.syn:5: expected a new array name");
    EXPECT_PARSE_ERR(WITH("array C 8 3\n"), "t.syn:5: expected an element size of 1, 2, 4, 8 or 16");
    EXPECT_PARSE_ERR(WITH("array C 8 32\n"), "t.syn:5: expected the element size in bytes");
    EXPECT_PARSE_ERR(WITH("regs 0\n"), "t.syn:5: expected registers per thread");
    EXPECT_PARSE_ERR(WITH("grid 2\n"), "t.syn:5: expected one 'grid' line per kernel");
    EXPECT_PARSE_ERR(WITH("shared_load lane*4\n"), "t.syn:1: expected an 'smem' line in kernel 'k'");
    EXPECT_PARSE_ERR(WITH("if\n"), "t.syn:5: expected a condition");
#undef WITH
    EXPECT_PARSE_ERR("kernel k\nblock 32\nalu 1\n", "t.syn:1: expected a 'grid' line in kernel 'k'");
    EXPECT_PARSE_ERR("\nkernel k\ngrid 4\nalu 1\nkernel j\n", "t.syn:2: expected a 'block' line in kernel 'k'");
    EXPECT_PARSE_ERR("kernel k\ngrid 0\nblock 32\n", "t.syn:2: expected the grid size in x (an integer in [1, 4294967295]), found '0'");
    EXPECT_PARSE_ERR("kernel k\ngrid 4 0\nblock 32\n", "t.syn:2: expected the grid size in y");
    EXPECT_PARSE_ERR("kernel k\ngrid 4\nblock 32 64\n", "t.syn:3: expected at most 1024 in all for the block size");
    EXPECT_PARSE_ERR("kernel k\ngrid 4 x\nblock 32\n", "t.syn:2: expected the grid size in y (an integer");
    EXPECT_PARSE_ERR("kernel k\ngrid 1 1 1 1\nblock 32\n", "t.syn:2: expected end of line after grid");
    EXPECT_PARSE_ERR("# nothing\nalu 1\n", "t.syn:2: expected 'kernel <name>' before 'alu'");
    EXPECT_PARSE_ERR("", "t.syn:1: expected at least one 'kernel <name>'");
    EXPECT_PARSE_ERR("kernel\n", "t.syn:1: expected a kernel name");
}

/* Nesting is bounded (64 parentheses or unary operators) so that hostile input is an error:
 * 60,000 nested '-' or '(' overflowed the stack. */
TEST(synth_expr_nesting_is_bounded)
{
    enum { DEEP = 60000 };
    const char *head = "kernel k\ngrid 1\nblock 32\narray A 0 4\nload A[";
    size_t hl = strlen(head);
    char *text = xmalloc(hl + 2 * DEEP + 16);
    const char *const want = "t.syn:5: expected an expression nested at most 64 deep";
    for (int paren = 0; paren < 2; paren++) {
        char *p = text + hl;
        memcpy(text, head, hl);
        memset(p, paren ? '(' : '-', DEEP);
        p += DEEP;
        p += sprintf(p, "tid");
        if (paren) {
            memset(p, ')', DEEP);
            p += DEEP;
        }
        strcpy(p, "]\n");
        EXPECT_PARSE_ERR(text, want);
    }
    /* 63 levels inside the outermost still compile */
    for (int n = 63; n <= 64; n++) {
        memset(text + hl, '-', (size_t)n);
        strcpy(text + hl + n, "tid]\n");
        char err[256];
        SynthProgram *p = synth_parse(text, "t.syn", err, sizeof err);
        EXPECT(n == 63 ? p != NULL : p == NULL);
        if (n == 64)
            EXPECT_CONTAINS(err, want);
        synth_free(p);
    }
    free(text);
}

/* Load a checked-in workload through synth_load_file (a bad file would exit with its
 * file:line message, so check that it is readable first). */
static SynthProgram *load_workload(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "workloads/synthetic/%s", name);
    char *text = read_file(path, NULL);
    if (!text) {
        printf("    cannot read %s (run the tests from the repository root)\n", path);
        return NULL;
    }
    free(text);
    return synth_load_file(path);
}

TEST(synth_workload_atax1)
{
    SynthProgram *p = load_workload("atax1.syn");
    ASSERT(p);
    ASSERT(synth_n_kernels(p) == 1);
    const FrontKernel *k = synth_kernel(p, 0);
    EXPECT_EQ_U(front_kernel_n_ctas(k), 30);
    EXPECT_EQ_U(front_kernel_threads_per_cta(k), 256);
    EXPECT_EQ_U(synth_kernel_n_insts(p, 0), 11 + 8 + 1 + 1);
    EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 126000);
    /* Warp 3 of CTA 2, iteration j = 5: A loads are 16 KiB apart, one line per lane. */
    SynthFront *f = start(p, 0, 8, 2, 0);
    Winst wi;
    unsigned loads = 0, execs = 0;
    uint64_t tid0 = 2 * 256 + 3 * 32;
    while (synth_front_ops.peek(f, 3)) {
        synth_front_ops.exec(f, 3, &wi);
        execs++;
        if (wi.s.op == WOP_LOAD && loads++ == 2 * 5) {
            EXPECT_EQ_U(wi.active_mask, 0xFFFFFFFFu);
            for (uint64_t l = 0; l < 32; l++)
                EXPECT_EQ_U(wi.addr[l], 0x10000000 + (tid0 + l) * 16384 + 5 * 4);
        }
        if (wi.s.op == WOP_LOAD && loads == 2 * 5 + 2)
            EXPECT_EQ_U(wi.addr[17], 0x18000000 + 5 * 4); /* x[j]: the same word for all */
    }
    EXPECT_EQ_U(execs, 525);
    EXPECT_EQ_U(loads, 128);
    synth_front_destroy(f);
    synth_free(p);
}

TEST(synth_workload_others)
{
    SynthProgram *p = load_workload("compute.syn");
    ASSERT(p);
    uint64_t n = synth_kernel_total_winsts(p, 0);
    EXPECT(n >= 1000000 && n <= 2000000);
    EXPECT_EQ_U(n, 1484640);
    synth_free(p);

    const char *names[2] = {"conflict.syn", "noconflict.syn"};
    const uint64_t stride[2] = {4096, 128};
    for (int i = 0; i < 2; i++) {
        p = load_workload(names[i]);
        ASSERT(p);
        EXPECT_EQ_U(front_kernel_n_ctas(synth_kernel(p, 0)), 1);
        EXPECT_EQ_U(front_kernel_threads_per_cta(synth_kernel(p, 0)), 32);
        EXPECT_EQ_U(synth_kernel_total_winsts(p, 0), 9);
        SynthFront *f = start(p, 0, 1, 0, 0);
        Winst wi;
        unsigned loads = 0;
        while (synth_front_ops.peek(f, 0)) {
            synth_front_ops.exec(f, 0, &wi);
            if (wi.s.op != WOP_LOAD)
                continue;
            loads++;
            EXPECT_EQ_U(wi.s.access_bytes, 4);
            for (uint64_t l = 0; l < 32; l++)
                EXPECT_EQ_U(wi.addr[l], wi.addr[0] + l * stride[i]);
        }
        EXPECT_EQ_U(loads, 4);
        synth_front_destroy(f);
        synth_free(p);
    }
}

TEST(synth_two_fronts_are_independent)
{
    /* Two states of the same kernel, interleaved, play identical streams: no shared state. */
    SynthProgram *p = parse_ok("kernel t\ngrid 2\nblock 64\narray A 0 4\n"
                               "loop i 3\n  if (tid >> i) & 1\n    load A[tid * 7 % 13 + i]\n  end\n"
                               "  alu 2 fp\nend\nstore A[tid]\n");
    ASSERT(p);
    SynthFront *a = start(p, 0, 2, 1, 0), *b = start(p, 0, 2, 1, 0);
    unsigned n = 0;
    for (;;) {
        const WinstStatic *sa = synth_front_ops.peek(a, 1), *sb = synth_front_ops.peek(b, 1);
        EXPECT((sa == NULL) == (sb == NULL));
        if (!sa || !sb)
            break;
        Winst wa, wb;
        synth_front_ops.exec(a, 1, &wa);
        synth_front_ops.exec(b, 1, &wb);
        EXPECT(same_static(&wa.s, &wb.s));
        EXPECT_EQ_U(wa.active_mask, wb.active_mask);
        for (int l = 0; l < WARP_SIZE && winst_is_mem(&wa.s); l++)
            EXPECT_EQ_U(wa.addr[l], wb.addr[l]);
        n++;
    }
    EXPECT_EQ_U(n, 3 + 3 * 2 + 1 + 1);
    synth_front_destroy(a);
    synth_front_destroy(b);
    synth_free(p);
}
