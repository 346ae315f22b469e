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
