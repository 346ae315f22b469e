/* test_ptx_mem.c: memory spaces of the PTX interpreter (tests/ptx/memory.cu): static and
 * dynamic shared memory, local arrays, __constant__ and __device__ variables with initialisers,
 * vector accesses, generic pointers into shared and local memory, atomics of every kind on
 * global and shared memory, special registers; and the sparse memory / allocator API, with the
 * ordered map of ranges behind it (ptx_ranges.c). */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_mem.h"
#include "front/ptx/ptx_ranges.h"

#include <stdlib.h>

TEST(ptx_memory_spaces)
{
    PtxModule *m = pt_load("memory.ptx");
    ASSERT(m);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "mem_spaces");
    ASSERT(ki);
    EXPECT(ki->uses_dynamic_smem);
    EXPECT_EQ_U(ki->smem_static_bytes, 256);
    PtxMemory *mem = ptx_memory_create();
    enum { B = 64, G = 2, T = B * G };
    float in[T * 4];
    int sel[T], out[2 * T + G];
    for (int i = 0; i < T * 4; i++)
        in[i] = (float)(i * 0.75 - 40);
    for (int i = 0; i < T; i++)
        sel[i] = i % 3 == 0;
    uint64_t din = pt_upload(mem, in, sizeof in), dout4 = pt_upload(mem, NULL, sizeof in);
    uint64_t dout = pt_upload(mem, NULL, sizeof out), dsel = pt_upload(mem, sel, sizeof sel);
    uint64_t args[] = {din, dout4, dout, dsel};
    ASSERT(pt_run(m, mem, "mem_spaces", G, 1, 1, B, 1, 1, (B + 2) * 4, args, 4, NULL));
    float out4[T * 4];
    ptx_memory_read(mem, dout4, out4, sizeof out4);
    ptx_memory_read(mem, dout, out, sizeof out);
    static const int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    int bad = 0;
    for (int i = 0; i < T; i++) {
        int t = i % B, base = i - t;
        const float *v = in + 4 * i;
        float e4[4] = {v[0] * 0.5f + (float)ctab[t & 7], v[1], v[2], v[3] + 0.0f};
        for (int k = 0; k < 4; k++)
            bad += pt_f2u(out4[4 * i + k]) != pt_f2u(e4[k]);
        int p = sel[i] ? (base + ((t + 5) & 63)) * 3 : (t & 15) * i;
        int d = (int)in[4 * (base + ((t + 1) & 63)) + 1];
        if (out[2 * i] != p || out[2 * i + 1] != d) {
            if (bad++ < 5)
                printf("  thread %d: got (%d,%d) want (%d,%d)\n", i, out[2 * i], out[2 * i + 1], p, d);
        }
    }
    EXPECT_EQ_I(bad, 0);
    EXPECT_EQ_I(out[2 * T], 107); /* __device__ int gcount[2] = {100, 7} */
    EXPECT_EQ_I(out[2 * T + 1], 107);
    /* host access to a __device__ variable by name */
    uint64_t size = 0;
    uint64_t gaddr = ptx_memory_symbol(mem, m, "gcount", &size);
    EXPECT(gaddr != 0);
    EXPECT_EQ_U(size, 8);
    int gc[2];
    ptx_memory_read(mem, gaddr, gc, sizeof gc);
    EXPECT_EQ_I(gc[0], 100);
    EXPECT_EQ_I(gc[1], 7);
    EXPECT_EQ_U(ptx_memory_symbol(mem, m, "nonexistent", NULL), 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_atomics_global_shared)
{
    PtxModule *m = pt_load("memory.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int g[9] = {0, 1000, 100, 0, -1, 0, 0, 0, 0};
    unsigned ug[3] = {0, 20, 1000};
    float gf = 0;
    uint64_t g64 = 0;
    uint64_t dg = pt_upload(mem, g, sizeof g), dug = pt_upload(mem, ug, sizeof ug);
    uint64_t dgf = pt_upload(mem, &gf, 4), dg64 = pt_upload(mem, &g64, 8);
    int out[16 + 64];
    uint64_t dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {dg, dug, dgf, dg64, dout};
    ASSERT(pt_run(m, mem, "atomics", 1, 1, 1, 64, 1, 1, 0, args, 5, NULL));
    ptx_memory_read(mem, dg, g, sizeof g);
    ptx_memory_read(mem, dug, ug, sizeof ug);
    ptx_memory_read(mem, dgf, &gf, 4);
    ptx_memory_read(mem, dg64, &g64, 8);
    ptx_memory_read(mem, dout, out, sizeof out);
    EXPECT_EQ_I(g[0], 2016);
    EXPECT_EQ_I(g[1], 1000 - 128);
    EXPECT_EQ_I(g[2], -13);
    EXPECT_EQ_I(g[3], 189);
    EXPECT_EQ_I(g[4], 0);
    EXPECT_EQ_I(g[5], -1);
    EXPECT_EQ_I(g[6], 0);
    EXPECT_EQ_I(g[7], 42);
    EXPECT_EQ_I(g[8], 64);     /* lanes perform their CAS in order */
    EXPECT_EQ_U(ug[0], 4);     /* atomicInc wraps at 9: 64 mod 10 */
    EXPECT_EQ_U(ug[1], 2);     /* atomicDec from 20 with limit 5 */
    EXPECT_EQ_U(ug[2], 7);
    EXPECT_NEAR(gf, 16.0, 0);
    EXPECT_EQ_U(g64, 2016ull << 33);
    for (int k = 1; k < 7; k++)
        EXPECT_EQ_I(out[k], 8 * k + 224);
    EXPECT_EQ_I(out[0], 1207); /* adds and max interleave warp by warp */
    EXPECT_EQ_I(out[7], 63);   /* last exchange */
    EXPECT_EQ_I(out[8], 64);
    EXPECT_EQ_I(out[9], 936);
    EXPECT_EQ_U((uint32_t)out[10], pt_f2u(96.0f));
    for (int t = 0; t < 64; t++)
        EXPECT_EQ_I(out[16 + t], t * (t - 1) / 2); /* the values atomicAdd returned */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_special_registers)
{
    PtxModule *m = pt_load("memory.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    enum { BX = 8, BY = 4, BZ = 2, GX = 3, GY = 2, THR = BX * BY * BZ, N = THR * GX * GY };
    int out[N * 8];
    uint64_t dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {dout};
    ASSERT(pt_run(m, mem, "specials", GX, GY, 1, BX, BY, BZ, 0, args, 1, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int cta = 0; cta < GX * GY; cta++)
        for (int t = 0; t < THR; t++) {
            const int *o = out + (cta * THR + t) * 8;
            int tx = t % BX, ty = (t / BX) % BY, tz = t / (BX * BY);
            int e[7] = {tx | ty << 8 | tz << 16, (cta % GX) | (cta / GX) << 8, BX | BY << 8 | BZ << 16,
                        GX | GY << 8 | 1 << 16, t % 32, t / 32, 2};
            for (int k = 0; k < 7; k++)
                bad += o[k] != e[k];
        }
    EXPECT_EQ_I(bad, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_memory_sparse_allocator)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t a = ptx_memory_alloc(mem, 100), b = ptx_memory_alloc(mem, 5000);
    EXPECT(a >= (1ull << 32));
    EXPECT_EQ_U(a % 256, 0);
    EXPECT_EQ_U(b % 256, 0);
    EXPECT(b >= a + 100);
    EXPECT_EQ_U(ptx_memory_alloc(mem, 0), 0);
    /* a write across a page boundary, read back; untouched memory reads as zero */
    uint8_t buf[6000], back[6000];
    for (int i = 0; i < 6000; i++)
        buf[i] = (uint8_t)(i * 7);
    ptx_memory_write(mem, b + 10, buf, 4990);
    ptx_memory_read(mem, b + 10, back, 4990);
    EXPECT(memcmp(buf, back, 4990) == 0);
    uint64_t far = 0x7FFF00000000ull;
    uint32_t z = 1;
    ptx_memory_read(mem, far, &z, 4);
    EXPECT_EQ_U(z, 0);
    ptx_memory_set(mem, a, 0xAB, 100);
    uint8_t c;
    ptx_memory_read(mem, a + 99, &c, 1);
    EXPECT_EQ_U(c, 0xAB);
    /* free and reuse */
    EXPECT(ptx_memory_free(mem, a));
    EXPECT(!ptx_memory_free(mem, a));
    EXPECT(!ptx_memory_free(mem, a + 8));
    uint64_t a2 = ptx_memory_alloc(mem, 64);
    EXPECT_EQ_U(a2, a);
    ptx_memory_destroy(mem);
}

/* nvcc folds shared addresses like (buf - 64*tid) + 68 into one operand; the sum is a 32-bit
 * window offset and must wrap at 2^32. */
TEST(ptx_shared_address_wraps_at_32_bits)
{
    static const char text[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n.shared .align 4 .b8 buf[64];\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, buf;\nmov.u32 %r2, 42;\n"
        "st.shared.u32 [%r1+4], %r2;\nsub.s32 %r1, %r1, 64;\nld.shared.u32 %r3, [%r1+68];\n"
        "st.global.u32 [%rd1], %r3;\nret;\n}\n";
    char err[512];
    PtxModule *m = ptx_module_parse(text, "wrap.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t out = pt_upload(mem, NULL, 4);
    EXPECT(pt_run(m, mem, "k", 1, 1, 1, 1, 1, 1, 0, &out, 1, NULL));
    uint32_t got = 0;
    ptx_memory_read(mem, out, &got, 4);
    EXPECT_EQ_U(got, 42);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* The ordered map of ranges behind the allocator, against a plain sorted array: random
 * inserts, removals and every lookup. */
TEST(ptx_ranges_match_a_sorted_array)
{
    enum { SLOTS = 2000, OPS = 40000 };
    static uint64_t size[SLOTS]; /* range at slot * 1000 of this size (1 to 999); 0: absent */
    PtxRangeMap t;
    ptx_ranges_init(&t);
    uint64_t rng = 12345;
    uint32_t count = 0;
    int bad = 0;
    for (int op = 0; op < OPS; op++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t slot = (uint32_t)(rng >> 33) % SLOTS, kind = (uint32_t)(rng >> 20) % 4;
        uint64_t at = (uint64_t)slot * 1000 + (rng >> 10) % 1000;
        if (kind == 0 && !size[slot]) {
            size[slot] = 1 + (rng >> 40) % 999;
            PtxRange r = {.addr = (uint64_t)slot * 1000, .size = size[slot]};
            bad += !ptx_ranges_insert(&t, &r);
            bad += ptx_ranges_insert(&t, &r); /* twice: refused */
            count++;
        } else if (kind == 1 && size[slot]) {
            PtxRange out;
            bad += !ptx_ranges_remove(&t, (uint64_t)slot * 1000, &out) || out.size != size[slot];
            size[slot] = 0;
            count--;
        } else if (kind == 1) {
            bad += ptx_ranges_remove(&t, (uint64_t)slot * 1000, NULL);
        }
        /* floor and above of a random address, first fit of a random size */
        int64_t lo = -1, hi = -1, fit = -1;
        uint64_t want = 1 + (rng >> 45) % 999;
        for (int64_t k = slot; k >= 0 && lo < 0; k--)
            lo = size[k] && (uint64_t)k * 1000 <= at ? k : -1;
        for (int64_t k = slot + 1; k < SLOTS && hi < 0; k++)
            hi = size[k] ? k : -1;
        for (int64_t k = 0; k < SLOTS && fit < 0; k++)
            fit = size[k] >= want ? k : -1;
        const PtxRange *f = ptx_ranges_floor(&t, at), *a = ptx_ranges_above(&t, at);
        const PtxRange *ff = ptx_ranges_first_fit(&t, want);
        bad += lo < 0 ? f != NULL : !f || f->addr != (uint64_t)lo * 1000;
        bad += hi < 0 ? a != NULL : !a || a->addr != (uint64_t)hi * 1000;
        bad += fit < 0 ? ff != NULL : !ff || ff->addr != (uint64_t)fit * 1000;
        bad += t.count != count;
    }
    EXPECT_EQ_I(bad, 0);
    ptx_ranges_free(&t);
}

/* cudaMalloc / cudaFree cost O(log n): 300,000 live allocations, freed oldest first (the worst
 * case of a list), take well under a second (minutes when each was a scan of the list). Freed
 * neighbours merge and the lowest free range that fits is reused. */
TEST(ptx_memory_allocator_scales_and_reuses)
{
    enum { N = 300000 };
    PtxMemory *mem = ptx_memory_create();
    uint64_t *a = xmalloc(N * sizeof *a);
    double t0 = wall_seconds();
    for (int i = 0; i < N; i++)
        a[i] = ptx_memory_alloc(mem, 16);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += !ptx_memory_find(mem, a[i] + 15, 1, NULL) || ptx_memory_find(mem, a[i] + 16, 1, NULL);
    for (int i = 0; i < N; i++)
        bad += !ptx_memory_free(mem, a[i]);
    double secs = wall_seconds() - t0;
    EXPECT_EQ_I(bad, 0);
    EXPECT(secs < 10);
    if (secs >= 10)
        printf("  300000 allocations and frees took %.1f s\n", secs);
    EXPECT_EQ_U(ptx_memory_allocated(mem), 0);
    uint64_t base = ptx_memory_alloc(mem, 100); /* everything was freed: the heap starts again */
    EXPECT_EQ_U(base, a[0]);
    uint64_t b = ptx_memory_alloc(mem, 300), c = ptx_memory_alloc(mem, 100), d = ptx_memory_alloc(mem, 100);
    EXPECT_EQ_U(c, b + 512);
    EXPECT(ptx_memory_free(mem, b) && ptx_memory_free(mem, c));
    EXPECT_EQ_U(ptx_memory_alloc(mem, 700), b); /* b and c merged: 768 bytes */
    EXPECT_EQ_U(ptx_memory_alloc(mem, 1), d + 256);
    EXPECT(ptx_memory_free(mem, d));
    EXPECT_EQ_U(ptx_memory_alloc(mem, 64), d); /* the lowest free range first */
    ptx_memory_free_all(mem);
    EXPECT_EQ_U(ptx_memory_alloc(mem, 8), base);
    free(a);
    ptx_memory_destroy(mem);
}

/* Zeros take no pages: a module's uninitialised variables, however large, are placed without
 * taking host memory (each page of them was created to be zeroed: a 1 TiB array took the host's
 * memory whole), and a zero fill clears what was written before and creates nothing. */
TEST(ptx_memory_zeros_take_no_pages)
{
    char err[256];
    PtxModule *m = ptx_module_parse(".version 9.0\n.target sm_75\n.address_size 64\n"
                                    ".global .b8 big[1099511627776];\n.global .align 4 .u32 one = 1;\n",
                                    "zeros.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    ptx_memory_set_limit(mem, 64 << 20); /* (so that a page per zero fails this test, not the host) */
    uint64_t size = 0, big = ptx_memory_symbol(mem, m, "big", &size), one = ptx_memory_symbol(mem, m, "one", NULL);
    EXPECT_EQ_U(size, 1ull << 40);
    EXPECT(big != 0 && one != 0);
    EXPECT_EQ_U(ptx_memory_host_bytes(mem), PTX_PAGE_SIZE); /* the page of `one` */
    uint32_t v = 0;
    ptx_memory_read(mem, one, &v, 4);
    EXPECT_EQ_U(v, 1);
    uint64_t a = ptx_memory_alloc(mem, 3 * PTX_PAGE_SIZE);
    uint8_t buf[3 * PTX_PAGE_SIZE];
    memset(buf, 0xab, sizeof buf);
    EXPECT(ptx_memory_write(mem, a, buf, sizeof buf));
    uint64_t held = ptx_memory_host_bytes(mem);
    EXPECT(ptx_memory_set(mem, a + 10, 0, PTX_PAGE_SIZE * 2)); /* two pages and a bit, across three */
    EXPECT(ptx_memory_set(mem, a + (1ull << 41), 0, 1ull << 42)); /* nothing written there */
    EXPECT_EQ_U(ptx_memory_host_bytes(mem), held);
    ptx_memory_read(mem, a, buf, sizeof buf);
    int wrong = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        wrong += buf[i] != (i < 10 || i >= 10 + 2 * PTX_PAGE_SIZE ? 0xab : 0);
    EXPECT_EQ_I(wrong, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
