/* test_ptx_recursion.c: recursive device functions (tests/ptx/recursion.cu): fibonacci with a
 * recursion depth that differs across a warp's lanes, a recursive function whose local array
 * (its __local_depot) must survive the inner calls, mutual recursion through a forward
 * declaration, and the stack-overflow fault past PTX_MAX_CALL_DEPTH nested calls. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_state.h"

static int ref_fib(int n) { return n < 2 ? n : ref_fib(n - 1) + ref_fib(n - 2); }

static int ref_depot(int n, int seed)
{
    int a[8];
    for (int k = 0; k < 8; k++)
        a[k] = seed * (k + 1) + n;
    unsigned r = n > 0 ? (unsigned)ref_depot(n - 1, seed + 3) : 0; /* unsigned: wraps as the GPU's */
    for (int k = 0; k < 8; k++)
        r = r * 3 + (unsigned)a[(seed + 5 * k) & 7];
    return (int)r;
}

static int ref_is_odd(unsigned n);
static int ref_is_even(unsigned n) { return n == 0 ? 1 : ref_is_odd(n - 1) * 2 - 1; }
static int ref_is_odd(unsigned n) { return n == 0 ? -1 : ref_is_even(n - 1); }

static unsigned ref_deep(unsigned n)
{
    unsigned r = 1;
    for (unsigned k = 1; k <= n; k++)
        r = r * r + k;
    return r;
}

#define RN 150 /* threads: two full warps and a partial one per block of 64, some idle */

TEST(ptx_recursion_fib_depot_mutual)
{
    PtxModule *m = pt_load("recursion.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int in[RN], out[4 * RN];
    uint64_t s = 77;
    for (int i = 0; i < RN; i++)
        in[i] = (int)(rng_next(&s) % 1000);
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {din, dout, RN};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "recur", 3, 1, 1, 64, 1, 1, 0, args, 3, &st));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < RN; i++) {
        int v = in[i];
        int want[4] = {ref_fib(v & 15), ref_depot(v % 6, v), ref_is_even((unsigned)v % 9),
                       (int)ref_deep((unsigned)v % 40)};
        for (int k = 0; k < 4; k++)
            if (out[4 * i + k] != want[k] && bad++ < 8)
                printf("  thread %d (v=%d) result %d: got %d want %d\n", i, v, k, out[4 * i + k], want[k]);
    }
    EXPECT_EQ_I(bad, 0);
    EXPECT(st.thread_insts < st.warp_insts * 32); /* the lanes' depths diverged */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* Run too_deep(n) on one warp; true if it completed, with err filled if not. */
static bool run_deep(const PtxModule *m, PtxMemory *mem, uint64_t dout, unsigned n, char *err, size_t len)
{
    const PtxKernelInfo *ki = ptx_module_kernel(m, "too_deep");
    uint8_t buf[64] = {0};
    memcpy(buf + ki->param_offset[0], &dout, 8);
    memcpy(buf + ki->param_offset[1], &n, 4);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "too_deep", grid, block, 0, buf, ki->param_bytes, mem, err, len);
    if (!l)
        return false;
    ptx_launch_set_inst_limit(l, 100000000);
    bool ok = ptx_run_kernel(l, NULL, err, len);
    ptx_launch_destroy(l);
    return ok;
}

TEST(ptx_recursion_depth_limit)
{
    PtxModule *m = pt_load("recursion.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t dout = pt_upload(mem, NULL, 32 * 4);
    char err[640];
    /* the deepest lane nests PTX_MAX_CALL_DEPTH calls (deep(n) nests n + 1): allowed */
    unsigned n = PTX_MAX_CALL_DEPTH - 1 - 31;
    EXPECT(run_deep(m, mem, dout, n, err, sizeof err));
    unsigned out[32];
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (unsigned t = 0; t < 32; t++)
        bad += out[t] != ref_deep(n + t);
    EXPECT_EQ_I(bad, 0);
    /* one more level for the last lane: the stack overflows */
    EXPECT(!run_deep(m, mem, dout, n + 1, err, sizeof err));
    EXPECT(strstr(err, "stack overflow") != NULL);
    EXPECT(strstr(err, "recursion.ptx:") != NULL);
    EXPECT(strstr(err, "kernel too_deep") != NULL);
    EXPECT(strstr(err, "thread (31,0,0)") != NULL);
    EXPECT(strstr(err, "1024") != NULL);
    printf("  %s\n", err);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
