/* test_ptx_int.c: integer instructions of the PTX interpreter against CPU references, on
 * kernels compiled by nvcc (tests/ptx/int_ops.cu): 16/32/64-bit arithmetic, mul.hi/.wide, div
 * and rem, min/max, shifts, logic, clz/popc/brev/bfind, prmt, funnel shifts, carry chains and
 * predicate logic. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"

#include <stdlib.h>

#define N 64

static void make_inputs32(int *a, int *b)
{
    static const int special[] = {0, 1, -1, 2147483647, (int)0x80000000u, 12345, -98765, 0x55AA55AA};
    uint64_t s = 42;
    for (int i = 0; i < N; i++) {
        a[i] = i < 8 ? special[i] : (int)rng_next(&s);
        b[i] = (int)rng_next(&s);
        if (i % 5 == 0)
            b[i] = (int)(rng_next(&s) % 200) - 100;
        if (b[i] == 0 || (a[i] == (int)0x80000000u && b[i] == -1))
            b[i] = 7;
    }
}

static unsigned clz32(uint32_t x) { return x ? (unsigned)__builtin_clz(x) : 32; }
static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

TEST(ptx_int32_ops)
{
    PtxModule *m = pt_load("int_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int a[N], b[N], out[N * 26];
    make_inputs32(a, b);
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, db, dout};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "int32_ops", 2, 1, 1, 32, 1, 1, 0, args, 3, &st));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; i++) {
        int x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int32_t e[26];
        e[0] = (int32_t)(ux + uy);
        e[1] = (int32_t)(ux - uy);
        e[2] = (int32_t)(ux * uy);
        e[3] = (int32_t)(((int64_t)x * y) >> 32);
        e[4] = (int32_t)(((uint64_t)ux * uy) >> 32);
        e[5] = x / y;
        e[6] = x % y;
        e[7] = (int32_t)(ux / uy);
        e[8] = (int32_t)(ux % uy);
        e[9] = x < 0 ? (int32_t)(0u - ux) : x;
        e[10] = (int32_t)(0u - ux);
        e[11] = x < y ? x : y;
        e[12] = x > y ? x : y;
        e[13] = (int32_t)(ux < uy ? ux : uy);
        e[14] = (int32_t)(ux > uy ? ux : uy);
        e[15] = (int32_t)(ux << (y & 31));
        e[16] = x >> (y & 31);
        e[17] = (int32_t)(ux >> (y & 31));
        e[18] = (x & y) ^ (~x | y);
        e[19] = (int32_t)clz32(ux);
        e[20] = __builtin_popcount(ux);
        e[21] = (int32_t)brev32(ux);
        e[22] = ux ? __builtin_ctz(ux) + 1 : 0;
        e[23] = (int32_t)(ux * 7u + uy);
        uint64_t pair = ux | ((uint64_t)uy << 32);
        uint32_t perm = 0;
        for (int k = 0; k < 4; k++)
            perm |= (uint32_t)((pair >> (8 * ((0x5140 >> (4 * k)) & 7))) & 0xFF) << (8 * k);
        e[24] = (int32_t)perm;
        uint64_t hl = ux | ((uint64_t)uy << 32);
        e[25] = (int32_t)((uint32_t)((hl << (y & 31)) >> 32) ^ (uint32_t)(hl >> (x & 31)));
        for (int k = 0; k < 26; k++)
            if (out[i * 26 + k] != e[k] && bad++ < 5)
                printf("  lane %d op %d: x=%d y=%d got %d want %d\n", i, k, x, y, out[i * 26 + k], e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    EXPECT_EQ_U(st.thread_insts / st.warp_insts, 32); /* no divergence in this kernel */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_int64_ops)
{
    PtxModule *m = pt_load("int_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int64_t a[N], b[N], out[N * 18];
    uint64_t s = 7;
    for (int i = 0; i < N; i++) {
        a[i] = (int64_t)rng_next(&s);
        b[i] = (int64_t)rng_next(&s);
        if (i % 4 == 1)
            b[i] >>= 40;
        if (i == 0)
            a[i] = INT64_MIN, b[i] = 3;
        if (i == 1)
            a[i] = -1, b[i] = -1;
        if (b[i] == 0 || (a[i] == INT64_MIN && b[i] == -1))
            b[i] = 11;
    }
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, db, dout};
    ASSERT(pt_run(m, mem, "int64_ops", 2, 1, 1, 32, 1, 1, 0, args, 3, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        int64_t e[18];
        e[0] = (int64_t)(ux + uy);
        e[1] = (int64_t)(ux - uy);
        e[2] = (int64_t)(ux * uy);
        e[3] = (int64_t)(((__int128)x * y) >> 64);
        e[4] = (int64_t)(((unsigned __int128)ux * uy) >> 64);
        e[5] = x / y;
        e[6] = x % y;
        e[7] = (int64_t)(ux / uy);
        e[8] = (int64_t)(ux % uy);
        e[9] = x < y ? x : y;
        e[10] = (int64_t)(ux > uy ? ux : uy);
        e[11] = (int64_t)(ux << (y & 63));
        e[12] = x >> (y & 63);
        e[13] = (int64_t)(ux >> (y & 63));
        e[14] = (ux ? __builtin_clzll(ux) : 64) + 100 * __builtin_popcountll(ux);
        uint64_t r = 0;
        for (int k = 0; k < 64; k++)
            r |= ((ux >> k) & 1) << (63 - k);
        e[15] = (int64_t)r;
        e[16] = (int64_t)(int32_t)x * (int32_t)y;
        e[17] = (int64_t)((uint64_t)(uint32_t)x * (uint32_t)y + ux);
        for (int k = 0; k < 18; k++)
            if (out[i * 18 + k] != e[k] && bad++ < 5)
                printf("  lane %d op %d: got %lld want %lld\n", i, k, (long long)out[i * 18 + k], (long long)e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_int16_carry_pred_ops)
{
    PtxModule *m = pt_load("int_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int a[N], b[N], out[N * 22];
    make_inputs32(a, b);
    a[9] = -32768, b[9] = -2; /* (short)(-2 | 1) = -1: the overflowing 16-bit division */
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, db, dout};
    ASSERT(pt_run(m, mem, "int16_carry_ops", 1, 1, 1, N, 1, 1, 0, args, 3, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        int16_t sx = (int16_t)x, sy = (int16_t)(y | 1);
        uint16_t hx = (uint16_t)x, hy = (uint16_t)(y | 1);
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int e[22];
        e[0] = (int16_t)(sx + sy);
        e[1] = (int16_t)(sx - sy);
        e[2] = (int16_t)(sx * sy);
        e[3] = (int16_t)((sx * sy) >> 16);
        e[4] = (int16_t)(sx / sy);
        e[5] = (int16_t)(sx % sy);
        e[6] = sx < sy ? sx : sy;
        e[7] = (int16_t)(sx < 0 ? -sx : sx);
        e[8] = hx > hy ? hx : hy;
        e[9] = hx / hy;
        e[10] = (uint16_t)(((uint32_t)hx * hy) >> 16);
        e[11] = hx >> 3;
        e[12] = (uint16_t)(hx << 5);
        e[13] = hx ^ hy;
        e[14] = sx * sy;
        uint64_t sum = (uint64_t)ux + uy;
        e[15] = (int)(uint32_t)sum;
        e[16] = (int)(uy + ux + (uint32_t)(sum >> 32));
        e[17] = (int)(ux - uy);
        e[18] = (int)(uy - ux - (ux < uy));
        uint64_t prod = (uint64_t)ux * uy;
        uint64_t lo = (prod & 0xFFFFFFFFu) + uy;
        e[19] = (int)(uint32_t)lo;
        e[20] = (int)((uint32_t)(prod >> 32) + ux + (uint32_t)(lo >> 32));
        bool p1 = x < y && ux > uy, q1 = p1 || ux > uy;
        bool p = p1 != q1, q = !q1;
        e[21] = (p ? 1 : 0) + (q ? 2 : 0);
        for (int k = 0; k < 22; k++)
            if (out[i * 22 + k] != e[k] && bad++ < 5)
                printf("  lane %d op %d: x=%d y=%d got %d want %d\n", i, k, x, y, out[i * 22 + k], e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* The SIMD video instructions (hand-written PTX: nvcc emits them only from inline asm, as
 * cuda-samples' stereoDisparity does): per byte or half-word lane, against a reference that
 * computes each lane on its own. */
static const char *const vsimd_ptx =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry v(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n  ld.global.u32 %r3, [%rd4+4];\n  ld.global.u32 %r4, [%rd4+8];\n"
    "  vabsdiff4.u32.u32.u32.add %r5, %r2, %r3, %r4;\n"
    "  vadd4.s32.s32.s32.sat %r6, %r2, %r3, %r4;\n"
    "  vsub4.u32.u32.u32 %r7, %r2, %r3, %r4;\n"
    "  vmin4.s32.s32.u32 %r8, %r2, %r3, %r4;\n"
    "  vmax2.u32.s32.s32.sat %r9, %r2, %r3, %r4;\n"
    "  vabsdiff2.s32.s32.s32.add %r10, %r2, %r3, %r4;\n"
    "  vsub2.s32.u32.u32.sat %r11, %r2, %r3, %r4;\n"
    "  mul.wide.u32 %rd5, %r1, 32;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.u32 [%rd6], {%r5, %r6, %r7, %r8};\n"
    "  st.global.u32 [%rd6+16], %r9;\n  st.global.u32 [%rd6+20], %r10;\n  st.global.u32 [%rd6+24], %r11;\n"
    "  ret;\n}\n";

/* Lane k of x, w bits wide, sign-extended when sg. */
static int64_t vlane(uint32_t x, unsigned k, unsigned w, bool sg)
{
    int64_t v = (x >> (k * w)) & ((1u << w) - 1);
    return sg && (v >> (w - 1)) ? v - ((int64_t)1 << w) : v;
}

static uint32_t vref(int op, unsigned w, bool sd, bool sa, bool sb, int sat, int add, uint32_t a, uint32_t b,
                     uint32_t c)
{
    uint32_t d = 0, acc = c;
    for (unsigned k = 0; k < 32 / w; k++) {
        int64_t x = vlane(a, k, w, sa), y = vlane(b, k, w, sb);
        int64_t r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? (x > y ? x - y : y - x) : op == 3 ? (x < y ? x : y)
                                                                                            : (x > y ? x : y);
        acc += (uint32_t)r;
        if (sat) {
            int64_t lo = sd ? -((int64_t)1 << (w - 1)) : 0, hi = sd ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
            r = r < lo ? lo : r > hi ? hi : r;
        }
        d |= ((uint32_t)r & ((1u << w) - 1)) << (k * w);
    }
    return add ? acc : d;
}

TEST(ptx_simd_video_ops)
{
    char err[256];
    PtxModule *m = ptx_module_parse(vsimd_ptx, "vsimd.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint32_t in[N * 3], out[N * 8];
    uint64_t s = 7;
    for (int i = 0; i < N * 3; i++)
        in[i] = (uint32_t)rng_next(&s);
    in[0] = 0x80FF7F00u, in[1] = 0x7F0180FFu; /* each lane's extremes */
    uint64_t args[] = {pt_upload(mem, in, sizeof in), pt_upload(mem, NULL, sizeof out)};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "v", 1, 1, 1, N, 1, 1, 0, args, 2, &st));
    ptx_memory_read(mem, args[1], out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        uint32_t a = in[i * 3], b = in[i * 3 + 1], c = in[i * 3 + 2];
        uint32_t e[7] = {
            vref(2, 8, false, false, false, 0, 1, a, b, c), vref(0, 8, true, true, true, 1, 0, a, b, c),
            vref(1, 8, false, false, false, 0, 0, a, b, c), vref(3, 8, true, true, false, 0, 0, a, b, c),
            vref(4, 16, false, true, true, 1, 0, a, b, c), vref(2, 16, true, true, true, 0, 1, a, b, c),
            vref(1, 16, true, false, false, 1, 0, a, b, c),
        };
        for (int k = 0; k < 7; k++)
            if (out[i * 8 + k] != e[k] && bad++ < 5)
                printf("  thread %d op %d: a=%08x b=%08x c=%08x got %08x want %08x\n", i, k, a, b, c, out[i * 8 + k],
                       e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
    /* the forms refused, saying what is expected */
    static const char *const bad_forms[] = {"vabsdiff4.u32.u32.add", "vadd4.u32.u32.u32.sat.add",
                                            "vmin2.u32.u32.f32", "vavrg4.u32.u32.u32"};
    for (size_t k = 0; k < ARRAY_LEN(bad_forms); k++) {
        char text[512];
        snprintf(text, sizeof text,
                 ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
                 "  .reg .b32 %%r<4>;\n  %s %%r1, %%r2, %%r3, %%r2;\n  ret;\n}\n", bad_forms[k]);
        PtxModule *bm = ptx_module_parse(text, "bad.ptx", err, sizeof err);
        EXPECT(bm == NULL);
        EXPECT_CONTAINS(err, "bad.ptx:7");
        if (bm)
            ptx_module_free(bm);
    }
}
