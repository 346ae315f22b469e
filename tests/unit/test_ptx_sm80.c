/* test_ptx_sm80.c: the sm_80 PTX of NVIDIA's Ampere GEMM samples, in process on hand-written
 * modules: wmma .m16n16k8 with .tf32 a and b (the mma reads each input's top 19 bits, so a
 * value between two tf32 numbers counts as the lower one), cvt.rna.tf32.f32 (to nearest, ties
 * away from zero), wmma .m8n8k4 on .f64 (one fused multiply-add a step), and cp.async (the
 * copy, its zero fill past src-size, its faults and parse errors). The order of cp.async's
 * groups on the timing model: test_sm_async.c. */
#include "../test.h"

#include "../cuda_exec.h"
#include "../ptx/ptx_test.h"

#include "base/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>

static PtxModule *parse(const char *text, const char *name)
{
    char err[512];
    PtxModule *m = ptx_module_parse(text, name, err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    return m;
}

/* d = a x b + c for a 16x8 row-major a, an 8x16 column-major b and a row-major c; d stored
 * row-major; lane l's a fragment (4 registers) to pf + l * 16. */
static const char tf32_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry mma(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u64 pf)\n"
    "{\n"
    "  .reg .b32 %r<24>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n"
    "  ld.param.u64 %rd4, [pd];\n  ld.param.u64 %rd5, [pf];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k8.global.tf32 {%r1,%r2,%r3,%r4}, [%rd1], 8;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k8.global.tf32 {%r5,%r6,%r7,%r8}, [%rd2], 8;\n"
    "  wmma.load.c.sync.aligned.row.m16n16k8.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd3], 16;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, "
    "{%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k8.global.f32 [%rd4], {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, 16;\n"
    "  mov.u32 %r20, %tid.x;\n  mul.wide.u32 %rd6, %r20, 16;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.b32 [%rd7], {%r1,%r2,%r3,%r4};\n"
    "  ret;\n}\n";

TEST(ptx_wmma_tf32_m16n16k8)
{
    PtxModule *m = parse(tf32_ptx, "tf32.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    float a[128], b[128], c[256], d[256];
    uint32_t frag[32 * 4];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 8; k++)
            a[i * 8 + k] = (float)((i + 2 * k) % 5);
    for (int n = 0; n < 16; n++)
        for (int k = 0; k < 8; k++)
            b[n * 8 + k] = (float)((3 * n + k) % 7) - 2.0f; /* b(k, n), column-major */
    for (int i = 0; i < 256; i++)
        c[i] = (float)(i % 9);
    /* a(3,0) = 1 + 3/4 of tf32's unit at 1 (2^-10): the mma reads 1; b(0,5) = 2 */
    a[3 * 8 + 0] = 1.0f + 0x1p-11f + 0x1p-12f;
    b[5 * 8 + 0] = 2.0f;
    uint64_t args[5] = {pt_upload(mem, a, sizeof a), pt_upload(mem, b, sizeof b), pt_upload(mem, c, sizeof c),
                        pt_upload(mem, NULL, sizeof d), pt_upload(mem, NULL, sizeof frag)};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "mma", 1, 1, 1, 32, 1, 1, 0, args, 5, &st));
    ptx_memory_read(mem, args[3], d, sizeof d);
    ptx_memory_read(mem, args[4], frag, sizeof frag);
    unsigned wrong = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float want = c[i * 16 + j];
            for (int k = 0; k < 8; k++)
                want += (i == 3 && k == 0 ? 1.0f : a[i * 8 + k]) * b[j * 8 + k];
            wrong += pt_f2u(d[i * 16 + j]) != pt_f2u(want);
        }
    EXPECT_EQ_U(wrong, 0);
    /* rounding a(3,0) to nearest instead would have given d(3,5) another 2^-9 */
    float rounded = c[3 * 16 + 5];
    for (int k = 0; k < 8; k++)
        rounded += (k == 0 ? 1.0f + 0x1p-10f : a[3 * 8 + k]) * b[5 * 8 + k];
    EXPECT(pt_f2u(d[3 * 16 + 5]) != pt_f2u(rounded));
    /* lane l's slots hold a's elements 4l ... 4l+3 in memory order, the bits as loaded */
    EXPECT_EQ_U(frag[5 * 4 + 2], pt_f2u(a[22]));
    EXPECT_EQ_U(frag[3 * 4 + 2], pt_f2u(a[14]));
    EXPECT_EQ_U(frag[6 * 4 + 0], pt_f2u(a[24])); /* a(3,0) with its low bits: the load keeps them */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* cvt.rna.tf32.f32 of in[tid] to out[tid] */
static const char cvt_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 pi, .param .u64 po)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [pi];\n  ld.param.u64 %rd2, [po];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  { .reg .b32 __$1;\n  cvt.rna.tf32.f32 __$1, %f1;\n  mov.b32 %r2, __$1; }\n"
    "  st.global.b32 [%rd5], %r2;\n  ret;\n}\n";

TEST(ptx_cvt_rna_tf32)
{
    PtxModule *m = parse(cvt_ptx, "cvt.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    const float u = 0x1p-10f; /* tf32's unit at 1 */
    float in[8] = {1.0f + u / 2, -(1.0f + u / 2), 1.0f + u / 4, 1.0f + 3 * u / 4, INFINITY, NAN, 0x1.fffffep127f,
                   1.0f + u + u / 2};
    uint32_t out[8];
    uint64_t args[2] = {pt_upload(mem, in, sizeof in), pt_upload(mem, NULL, sizeof out)};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "k", 1, 1, 1, 8, 1, 1, 0, args, 2, &st));
    ptx_memory_read(mem, args[1], out, sizeof out);
    EXPECT_EQ_U(out[0], pt_f2u(1.0f + u));    /* a tie goes away from zero */
    EXPECT_EQ_U(out[1], pt_f2u(-(1.0f + u)));
    EXPECT_EQ_U(out[2], pt_f2u(1.0f));
    EXPECT_EQ_U(out[3], pt_f2u(1.0f + u));
    EXPECT_EQ_U(out[4], pt_f2u(INFINITY));
    EXPECT(isnan(pt_u2f(out[5])) && (out[5] & 0x1fff) == 0);
    EXPECT_EQ_U(out[6], pt_f2u(INFINITY));    /* past the largest tf32 */
    EXPECT_EQ_U(out[7], pt_f2u(1.0f + 2 * u)); /* away from zero, not to even */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* d = a x b + c on .f64, m8n8k4: a row-major 8x4, b column-major, c and d row-major. */
static const char f64_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry mma(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
    "  .reg .f64 %fd<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
    "  wmma.load.a.sync.aligned.row.m8n8k4.f64 {%fd1}, [%rd1], 4;\n"
    "  wmma.load.b.sync.aligned.col.m8n8k4.f64 {%fd2}, [%rd2], 4;\n"
    "  wmma.load.c.sync.aligned.row.m8n8k4.f64 {%fd3, %fd4}, [%rd3], 8;\n"
    "  wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd5, %fd6}, {%fd1}, {%fd2}, {%fd3, %fd4};\n"
    "  wmma.store.d.sync.aligned.row.m8n8k4.f64 [%rd4], {%fd5, %fd6}, 8;\n"
    "  ret;\n}\n";

TEST(ptx_wmma_f64_m8n8k4)
{
    PtxModule *m = parse(f64_ptx, "f64.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    double a[32], b[32], c[64], d[64];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            a[i * 4 + k] = (i * 3 + k) % 5 - 1.5;
    for (int n = 0; n < 8; n++)
        for (int k = 0; k < 4; k++)
            b[n * 4 + k] = (n + 2 * k) % 7 * 0.25; /* b(k, n) */
    for (int i = 0; i < 64; i++)
        c[i] = i * 0.5;
    /* d(2,6): (1 + 2^-30)^2 - 1 = 2^-29 + 2^-60 with one rounding (fma); 2^-29 rounding the
     * product first */
    for (int k = 0; k < 4; k++)
        a[2 * 4 + k] = b[6 * 4 + k] = 0;
    a[2 * 4 + 0] = b[6 * 4 + 0] = 1 + 0x1p-30;
    c[2 * 8 + 6] = -1;
    uint64_t args[4] = {pt_upload(mem, a, sizeof a), pt_upload(mem, b, sizeof b), pt_upload(mem, c, sizeof c),
                        pt_upload(mem, NULL, sizeof d)};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "mma", 1, 1, 1, 32, 1, 1, 0, args, 4, &st));
    ptx_memory_read(mem, args[3], d, sizeof d);
    unsigned wrong = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            double want = c[i * 8 + j];
            for (int k = 0; k < 4; k++)
                want += a[i * 4 + k] * b[j * 4 + k]; /* exact: quarters and halves */
            wrong += !(i == 2 && j == 6) && pt_d2u(d[i * 8 + j]) != pt_d2u(want);
        }
    EXPECT_EQ_U(wrong, 0);
    EXPECT_EQ_U(pt_d2u(d[2 * 8 + 6]), pt_d2u(0x1p-29 + 0x1p-60));
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* Thread t: cp.async.ca of 16 bytes with src-size t % 17 (the rest zero), cp.async.cg of 16,
 * and .ca copies of 8 and 4 bytes, into shared memory first filled with 0xEE bytes; then the
 * 28 + 16 bytes of thread t back to out + t * 48. */
static const char cpa_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u64 off)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<16>;\n  .shared .align 16 .b8 sm[1536];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n  ld.param.u64 %rd12, [off];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  add.s64 %rd1, %rd1, %rd12;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, 48;\n  mov.u32 %r3, sm;\n  add.u32 %r4, %r3, %r2;\n"
    "  mov.b32 %r5, 0xEEEEEEEE;\n"
    "  st.shared.v4.b32 [%r4], {%r5,%r5,%r5,%r5};\n  st.shared.v4.b32 [%r4+16], {%r5,%r5,%r5,%r5};\n"
    "  st.shared.v4.b32 [%r4+32], {%r5,%r5,%r5,%r5};\n"
    "  mul.wide.u32 %rd3, %r1, 48;\n  add.s64 %rd4, %rd1, %rd3;\n  rem.u32 %r6, %r1, 17;\n"
    "  cp.async.ca.shared.global [%r4], [%rd4], 16, %r6;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.cg.shared.global.L2::128B [%r4+16], [%rd4+16], 16;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.ca.shared.global [%r4+32], [%rd4+32], 8, 8;\n"
    "  cp.async.ca.shared::cta.global [%r4+40], [%rd4+40], 4;\n"
    "  cp.async.wait_group 1;\n  cp.async.wait_all;\n  bar.sync 0;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.shared.v4.b32 {%r7,%r8,%r9,%r10}, [%r4];\n  st.global.v4.b32 [%rd5], {%r7,%r8,%r9,%r10};\n"
    "  ld.shared.v4.b32 {%r7,%r8,%r9,%r10}, [%r4+16];\n  st.global.v4.b32 [%rd5+16], {%r7,%r8,%r9,%r10};\n"
    "  ld.shared.v4.b32 {%r7,%r8,%r9,%r10}, [%r4+32];\n  st.global.v4.b32 [%rd5+32], {%r7,%r8,%r9,%r10};\n"
    "  ret;\n}\n";

TEST(ptx_cp_async_copy_and_faults)
{
    PtxModule *m = parse(cpa_ptx, "cpa.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint8_t in[32 * 48], out[32 * 48];
    for (int i = 0; i < (int)sizeof in; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    uint64_t pout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[3] = {pt_upload(mem, in, sizeof in), pout, 0};
    char err[512];
    EXPECT(pt_run_err(m, mem, "k", 32, args, 3, err, sizeof err));
    ptx_memory_read(mem, pout, out, sizeof out);
    unsigned wrong = 0;
    for (int t = 0; t < 32; t++)
        for (int b = 0; b < 48; b++) {
            uint8_t want = b < 16 ? (b < t % 17 ? in[t * 48 + b] : 0) : b < 44 ? in[t * 48 + b] : 0xEE;
            wrong += out[t * 48 + b] != want;
        }
    EXPECT_EQ_U(wrong, 0);
    /* the source 8 bytes on: thread 0's first copy is misaligned */
    args[2] = 8;
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 3, err, sizeof err));
    char want[200];
    snprintf(want, sizeof want, "cpa.ptx:%d: kernel k: ", 25); /* the first cp.async */
    EXPECT_CONTAINS(err, want);
    snprintf(want, sizeof want, "misaligned address: 16-byte load at global address 0x%llx by block (0,0,0) "
             "thread (0,0,0): not a multiple of 16", (unsigned long long)(args[0] + 8));
    EXPECT_CONTAINS(err, want);
    /* 48 bytes on: thread 31's src-size (14) reaches past the input; thread 16's (0) reads nothing */
    args[2] = 48;
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 3, err, sizeof err));
    snprintf(want, sizeof want, "illegal address: 16-byte load at global address 0x%llx by block (0,0,0) thread (31,0,0)",
             (unsigned long long)(args[0] + 32 * 48));
    EXPECT_CONTAINS(err, want);
    /* 33 threads: thread 32's destination passes the 1536 bytes of shared memory */
    args[2] = 0;
    EXPECT(!pt_run_err(m, mem, "k", 33, args, 3, err, sizeof err));
    EXPECT_CONTAINS(err, "16-byte store at shared offset 0x600 by block (0,0,0) thread (32,0,0): outside the 1536 "
                         "bytes of the block's shared memory");
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_sm80_parse_errors)
{
    pt_expect_parse_error("sm_80", "cp.async.cg.shared.global [%r1], [%rd1], 8;", "expected the cp-size 16 (.cg copies 16 bytes)");
    pt_expect_parse_error("sm_80", "cp.async.ca.shared.global [%r1], [%rd1], 12;", "expected the cp-size 4, 8 or 16");
    pt_expect_parse_error("sm_80", "cp.async.ca.shared.global [%r1], [%rd1], 8, 9;", "the src-size 9 exceeds the cp-size 8");
    pt_expect_parse_error("sm_80", "cp.async.ca.global.shared [%r1], [%rd1], 8;", "expected .shared then .global");
    pt_expect_parse_error("sm_80", "cp.async.shared.global [%r1], [%rd1], 8;", "expected .ca or .cg");
    pt_expect_parse_error("sm_80", "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 8, 4, 3;",
                       "expected the cache policy as a register");
    pt_expect_parse_error("sm_80", "cp.async.mbarrier.arrive.b64 [%rd1];", "cp.async.mbarrier and cp.async.bulk are not supported");
    pt_expect_parse_error("sm_80", "cp.async.wait_group %r1;", "expected the number of groups as an integer");
    pt_expect_parse_error("sm_80", "cp.reduce.async.bulk.global.shared::cta.add.u32 [%rd1], [%r1], 4;", "unsupported instruction");
    pt_expect_parse_error("sm_80", "cvt.rn.tf32.f32 %r1, %r2;", "only cvt.rna.tf32.f32 is supported");
    pt_expect_parse_error("sm_80", "add.rna.f32 %r1, %r2, %r3;", "only cvt.rna.tf32.f32 is supported");
    pt_expect_parse_error("sm_80", "wmma.load.a.sync.aligned.row.m16n16k16.f64 {%fd1}, [%rd1], 4;",
                       ".f64 matrices need the shape .m8n8k4");
    pt_expect_parse_error("sm_80", "wmma.load.c.sync.aligned.row.m16n16k8.f16 {%r1,%r2,%r3,%r4}, [%rd1], 16;",
                       "the shape .m16n16k8 takes .tf32 a and b and .f32 c and d");
    pt_expect_parse_error("sm_80", "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%fd1,%fd2}, {%fd1}, {%fd1}, {%fd1,%fd2};",
                       ".f64 wmma.mma needs the rounding .rn");
    pt_expect_parse_error("sm_80", "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd1,%fd2}, {%fd1}, {%fd1}, {%fd1,%fd2};",
                       "only the rounding .rn is supported");
    pt_expect_parse_error("sm_80", "wmma.mma.sync.aligned.row.col.m16n16k8.f32.f32 {%r1}, {%r1}, {%r1}, {%r1};",
                       "the shape .m16n16k8 takes .tf32 a and b");
    pt_expect_parse_error("sm_80", "wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%r1,%r2}, [%rd1], 8;",
                       "expected loaded as {...} of 4 registers");
}

/* tests/cudart/sm80 (nvcc's sm_80 PTX): cp.async with a src-size register, two stages of
 * commit and wait, tf32 and f64 wmma, against the CPU, in both modes on the a100 preset, and
 * timed on qv100 told it is 8.0 (any machine with tensor cores runs sm_80 code). */
TEST(ptx_sm80_program)
{
    if (!have_library())
        return;
    static char out[16384];
    const char *modes[] = {"--functional --quiet --preset a100", "--quiet --preset a100",
                           "--quiet --preset qv100 -o gpu.compute_capability=8.0"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        EXPECT_EQ_I(run_prog("tests/cudart/bin", "sm80", modes[i], out, sizeof out), 0);
        EXPECT_CONTAINS(out, "sm80: 3 kernels, 0 mismatches");
    }
}

/* The result file without its lines that vary between runs by nature (wall time, peak RSS). */
static char *stable_results(const char *path)
{
    char *t = read_file(path, NULL);
    if (!t)
        return NULL;
    char *w = t;
    for (char *line = t; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
        if (end)
            *end = 0; /* the line alone for strstr */
        bool keep = !strstr(line, "\"wall_seconds\"") && !strstr(line, "\"peak_rss_mib\"");
        if (end)
            *end = '\n';
        if (keep) {
            memmove(w, line, n);
            w += n;
        }
        line += n;
    }
    *w = 0;
    return t;
}

/* The sm80 program keeps its data in managed memory, which the device addresses at the host's
 * addresses: they pick the L2 slice and DRAM bank of each access, so the timing model's results
 * are the same at every run only if the host's addresses are (warpsim exec runs the program
 * without address-space randomisation). With it, two runs' cycles differed by a few. */
TEST(ptx_sm80_managed_timing_repeats)
{
    if (!have_library())
        return;
    int persona = personality(0xffffffffUL); /* a system that refuses it: nothing to hold */
    if (persona == -1 || personality((unsigned long)persona | ADDR_NO_RANDOMIZE) == -1) {
        printf("  skipped: this system refuses to run a program without address randomisation\n");
        return;
    }
    personality((unsigned long)persona);
    static char out[16384];
    char *res[2];
    for (int r = 0; r < 2; r++) {
        char json[512], args[700];
        snprintf(json, sizeof json, "%s/sm80_run%d.json", test_tmpdir(), r);
        snprintf(args, sizeof args, "--quiet --preset a100 --json %s", json);
        EXPECT_EQ_I(run_prog("tests/cudart/bin", "sm80", args, out, sizeof out), 0);
        res[r] = stable_results(json);
        ASSERT(res[r]);
    }
    EXPECT(strstr(res[0], "\"sim.cycles\""));
    EXPECT(strcmp(res[0], res[1]) == 0);
    free(res[0]);
    free(res[1]);
}
