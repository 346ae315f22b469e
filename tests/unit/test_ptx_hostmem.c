/* test_ptx_hostmem.c: host memory the simulated device addresses at the host's own addresses
 * (src/front/ptx/ptx_hostmem.c): managed allocations, __managed__ variables (.global
 * .attribute(.managed)) and mapped host memory, which kernels, the simulator's copies and the
 * host's own loads and stores all see alike; the allocator's heap keeps clear of them. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_mem.h"

#include <stdlib.h>

static const char managed_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".global .attribute(.managed) .align 4 .u32 counter = 5;\n"
    ".global .align 4 .u32 plain = 9;\n"
    ".global .attribute(.managed) .align 8 .b8 table[24];\n"
    ".visible .entry bump(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  atom.global.add.u32 %r1, [counter], 1;\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ld.global.u32 %r3, [plain];\n  st.global.u32 [table+16], %r3;\n"
    "  ret;\n}\n";

TEST(ptx_hostmem_managed_variables)
{
    char err[256];
    PtxModule *m = ptx_module_parse(managed_ptx, "managed.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    EXPECT_EQ_U(m->global_bytes, 4); /* only `plain` takes the module's block */
    PtxMemory *mem = ptx_memory_create();
    uint64_t size = 0, c = ptx_memory_symbol(mem, m, "counter", &size), t = ptx_memory_symbol(mem, m, "table", NULL);
    uint64_t p = ptx_memory_symbol(mem, m, "plain", NULL);
    EXPECT_EQ_U(size, 4);
    EXPECT(p >= PTX_HEAP_BASE && p < PTX_HEAP_BASE + (1ull << 20));
    uint32_t *hc = (uint32_t *)(uintptr_t)c; /* the host's own memory */
    EXPECT_EQ_U(*hc, 5);
    *hc = 100; /* the host's store is what the kernel reads */
    PtxRegion r;
    EXPECT(ptx_memory_find(mem, t + 8, 16, &r));
    EXPECT(r.host && r.kind == PTX_REGION_GLOBAL && r.addr == t && r.size == 24);
    EXPECT(!ptx_memory_find(mem, t + 8, 17, NULL));
    /* a kernel: atomics on the variable, its results in a managed allocation */
    uint64_t out = ptx_memory_alloc_host(mem, 4 * 4);
    ASSERT(out);
    EXPECT_EQ_U(ptx_memory_allocated(mem), 16);
    EXPECT(ptx_memory_find(mem, out, 16, &r) && r.host && r.kind == PTX_REGION_ALLOC);
    ASSERT(pt_run(m, mem, "bump", 1, 1, 1, 4, 1, 1, 0, &out, 1, NULL));
    EXPECT_EQ_U(*hc, 104);
    const uint32_t *ho = (const uint32_t *)(uintptr_t)out;
    uint32_t seen = 0;
    for (int i = 0; i < 4; i++)
        seen |= 1u << (ho[i] - 100);
    EXPECT_EQ_U(seen, 0xf); /* 100..103, one each */
    EXPECT_EQ_U(((const uint32_t *)(uintptr_t)t)[4], 9);
    /* the simulator's copies and memsets reach the same bytes */
    uint32_t v = 7;
    EXPECT(ptx_memory_write(mem, out + 4, &v, 4));
    EXPECT_EQ_U(ho[1], 7);
    EXPECT(ptx_memory_set(mem, out, 0, 16));
    EXPECT(ho[0] == 0 && ho[1] == 0 && ho[3] == 0);
    EXPECT(ptx_memory_set(mem, out + 8, 0x11, 4));
    ptx_memory_read(mem, out + 8, &v, 4);
    EXPECT_EQ_U(v, 0x11111111);
    EXPECT(ptx_memory_free(mem, out));
    EXPECT_EQ_U(ptx_memory_allocated(mem), 0);
    EXPECT(!ptx_memory_find(mem, out, 1, NULL));
    ptx_memory_unbind(mem, m);
    EXPECT(!ptx_memory_find(mem, c, 1, NULL));
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_hostmem_mapped_host_memory)
{
    PtxMemory *mem = ptx_memory_create();
    char *heap = malloc(1000);
    ASSERT(heap);
    uint64_t a = (uint64_t)(uintptr_t)(heap + 3); /* unaligned: its page is shared with the heap's */
    EXPECT(ptx_memory_map_host(mem, heap + 3, 900));
    EXPECT(!ptx_memory_map_host(mem, heap + 500, 10)); /* overlaps */
    PtxRegion r;
    EXPECT(ptx_memory_find(mem, a + 899, 1, &r) && r.kind == PTX_REGION_HOST && r.host);
    EXPECT(!ptx_memory_find(mem, a + 899, 2, NULL));
    EXPECT(!ptx_memory_free(mem, a)); /* the program's, not an allocation */
    heap[10] = 42;
    uint8_t b = 0;
    ptx_memory_read(mem, a + 7, &b, 1);
    EXPECT_EQ_U(b, 42);
    uint64_t d = ptx_memory_alloc(mem, 64); /* device memory stays in the heap */
    EXPECT(d >= PTX_HEAP_BASE && d < PTX_HEAP_BASE + (1ull << 20));
    EXPECT(ptx_memory_unmap_host(mem, a));
    EXPECT(!ptx_memory_unmap_host(mem, a));
    EXPECT(!ptx_memory_find(mem, a, 1, NULL));
    ptx_memory_read(mem, a + 7, &b, 1); /* unmapped: reads as the device's (zeros) */
    EXPECT_EQ_U(b, 0);
    /* a host range inside the heap is refused; the heap's top skips one above it */
    EXPECT(!ptx_memory_map_host(mem, (void *)(uintptr_t)(d + 128), 64));
    uint64_t top = ptx_memory_alloc(mem, 256) + 256;
    EXPECT_EQ_U(ptx_memory_host_skip(mem, top, 4096), top);
    ptx_memory_destroy(mem);
    free(heap);
}

TEST(ptx_hostmem_attribute_errors)
{
    char err[256];
    PtxModule *m = ptx_module_parse(".version 9.0\n.target sm_75\n.address_size 64\n"
                                    ".global .attribute(.unified) .u32 x;\n", "a.ptx", err, sizeof err);
    EXPECT(!m);
    EXPECT_CONTAINS(err, "a.ptx:4");
    EXPECT_CONTAINS(err, "variable attribute '.unified': only .managed is supported");
    m = ptx_module_parse(".version 9.0\n.target sm_75\n.address_size 64\n"
                         ".const .attribute(.managed) .u32 x;\n", "b.ptx", err, sizeof err);
    EXPECT(!m);
    EXPECT_CONTAINS(err, ".attribute(.managed) on a variable outside .global");
}
