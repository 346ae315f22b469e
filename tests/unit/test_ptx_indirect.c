/* test_ptx_indirect.c: calls through a register (the virtual calls of tests/cudart/virtual.cu,
 * here in hand-written PTX): function addresses in an initialiser (a vtable) and from mov, a
 * warp whose lanes call three different functions through one instruction (each group in
 * turn, reconverging after it), a function reached only through a pointer that recurses, and
 * the faults and parse errors of bad calls. The PTX is tests/ptx/indirect.ptx. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"

static int ref(int t)
{
    switch (t % 3) {
    case 0: return t + 1;
    case 1: return 2 * t;
    default: return t * (t + 1) / 2;
    }
}

TEST(ptx_indirect_calls_divergent_targets)
{
    PtxModule *m = pt_load("indirect.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    enum { N = 70 }; /* two full warps and a partial one */
    uint64_t out = pt_upload(mem, NULL, N * sizeof(int));
    uint64_t args[] = {out, 0};
    PtxRunStats st;
    EXPECT(pt_run(m, mem, "k", 1, 1, 1, N, 1, 1, 0, args, 2, &st));
    int got[N];
    ptx_memory_read(mem, out, got, sizeof got);
    int bad = 0;
    for (int t = 0; t < N; t++)
        if (got[t] != ref(t) && bad++ < 5)
            printf("  thread %d: got %d want %d\n", t, got[t], ref(t));
    EXPECT_EQ_I(bad, 0);
    /* a null function pointer: the launch faults, naming the address and the thread */
    args[1] = 1;
    char ferr[512];
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    uint8_t buf[16] = {0};
    memcpy(buf, &out, 8);
    buf[8] = 1;
    PtxLaunch *l = ptx_launch_create(m, "k", grid, block, 0, buf, 12, mem, ferr, sizeof ferr);
    ASSERT(l);
    EXPECT(!ptx_run_kernel(l, &st, ferr, sizeof ferr));
    EXPECT_CONTAINS(ferr, "call through 0 by block (0,0,0) thread (0,0,0): not the address of a device function");
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_indirect_call_parse_errors)
{
    pt_expect_parse_error("sm_75", "call %rd1, (), NOPE;", "'NOPE' is not a .callprototype of this function");
    pt_expect_parse_error("sm_75", "call %rd1, ();", "a call through a register: expected ', prototype'");
    pt_expect_parse_error("sm_75", "P: .callprototype _ (.param .b32 _); call %rd1, (), P;",
                          "the call passes 0 return and 0 argument parameters; prototype 'P' has 0 and 1");
    char err[512];
    const char *text = ".version 8.0\n.target sm_75\n.address_size 64\n.func f()\n{\n ret;\n}\n"
                       ".global .u32 t[1] = {f};\n";
    PtxModule *m = ptx_module_parse(text, "init.ptx", err, sizeof err);
    EXPECT(!m);
    EXPECT_CONTAINS(err, "init.ptx:8: function 'f' in the initialiser of 't': its address takes 64 bits");
    if (m)
        ptx_module_free(m);
}
