/* test_ptx_wmma.c: the tensor-core instructions (src/front/ptx/ptx_wmma.c) and the CUDA
 * programs that use them.
 *
 * In process, on a hand-written module: the fragment layout warpsim chose (lane l's slots hold
 * a row-major a's elements l*16 ... l*16+15, modulo the matrix), the order of the f32 sums (one
 * rounding per addition: c, then k = 0, 1, ...), and the parse errors of forms warpsim does not
 * run. End to end: tests/cudart/wmma (nvcc 13's sm_75 PTX) and wmma_sm80 (sm_80, with bf16)
 * check every shape, type and layout against the CPU, functionally and on the timing model of
 * the qv100 preset, whose tensor units the timing must feel; the default preset (gtx480, no
 * tensor cores) refuses the module with the PTX file and line. */
#include "../test.h"

#include "../cuda_exec.h"
#include "../ptx/ptx_test.h"

#include "base/base.h"
#include "front/ptx/ptx_value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char wmma_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry mma(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u64 pf)\n"
    "{\n"
    "  .reg .b32 %r<24>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n"
    "  ld.param.u64 %rd4, [pd];\n  ld.param.u64 %rd5, [pf];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], 16;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, [%rd2];\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd3], 16;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, "
    "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd4], {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, 16;\n"
    "  mov.u32 %r20, %tid.x;\n  mul.wide.u32 %rd6, %r20, 32;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.b32 [%rd7], {%r1,%r2,%r3,%r4};\n  st.global.v4.b32 [%rd7+16], {%r5,%r6,%r7,%r8};\n"
    "  ret;\n}\n";

static uint16_t h(double x) { return ptx_f64_to_f16(x, RND_RN); }

TEST(ptx_wmma_layout_and_rounding)
{
    char err[512];
    PtxModule *m = ptx_module_parse(wmma_ptx, "wmma.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint16_t a[256], b[256];
    float c[256], d[256];
    uint32_t frag[32 * 8];
    /* a(i,k) = i*16 + k, except row 1: 4096, 1, 0, ...; b (column-major) = identity, except
     * column 1: 4096, 1, 0, ... So d(1,1) = c(1,1) + 4096*4096 + 1*1 with c(1,1) = 1: summed in
     * order with one rounding each, 1 + 2^24 rounds to 2^24 (to even), + 1 again to 2^24; the
     * exact sum is 2^24 + 2. */
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            a[i * 16 + k] = h(i == 1 ? (k == 0 ? 4096 : k == 1 ? 1 : 0) : i * 16 + k);
            b[i * 16 + k] = h(i == 1 ? (k == 0 ? 4096 : k == 1 ? 1 : 0) : i == k); /* b[n*16 + k] */
        }
    for (int i = 0; i < 256; i++)
        c[i] = (float)(i % 7);
    c[1 * 16 + 1] = 1.0f;
    uint64_t args[5] = {pt_upload(mem, a, sizeof a), pt_upload(mem, b, sizeof b), pt_upload(mem, c, sizeof c),
                        pt_upload(mem, NULL, sizeof d), pt_upload(mem, NULL, sizeof frag)};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "mma", 1, 1, 1, 32, 1, 1, 0, args, 5, &st));
    ptx_memory_read(mem, args[3], d, sizeof d);
    ptx_memory_read(mem, args[4], frag, sizeof frag);
    /* lane 5 holds row 5 of a, two halves a register, low half first; lane 21 the same again */
    EXPECT_EQ_U(frag[5 * 8 + 0], (uint32_t)h(80) | (uint32_t)h(81) << 16);
    EXPECT_EQ_U(frag[5 * 8 + 7], (uint32_t)h(94) | (uint32_t)h(95) << 16);
    EXPECT_EQ_U(frag[21 * 8 + 3], frag[5 * 8 + 3]);
    /* d stored column-major: d(i,j) at d[j*16 + i] */
    EXPECT_EQ_U(pt_f2u(d[1 * 16 + 1]), pt_f2u(16777216.0f)); /* not 16777218 */
    EXPECT_EQ_U(pt_f2u(d[0 * 16 + 1]), pt_f2u(4096.0f + c[1 * 16 + 0])); /* d(1,0) = c(1,0) + a(1,0) b(0,0) */
    for (int i = 2; i < 16; i++)
        for (int j = 2; j < 16; j++)
            EXPECT_EQ_U(pt_f2u(d[j * 16 + i]), pt_f2u((float)(i * 16 + j) + c[i * 16 + j]));
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* wmma.load.a at pa + off (global) and, through a generic address, from shared memory, then the
 * fragment out lane by lane, and a wmma.store.d of c to pd + off2. */
static const char wmma_mem_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 off, .param .u64 pf, .param .u64 pd, .param .u64 off2)\n"
    "{\n"
    "  .reg .b32 %r<24>;\n  .reg .f32 %f<10>;\n  .reg .b64 %rd<12>;\n"
    "  .shared .align 32 .b8 sm[512];\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [off];\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.param.u64 %rd5, [pf];\n  ld.param.u64 %rd9, [pd];\n  ld.param.u64 %rd10, [off2];\n"
    "  mov.u32 %r20, %tid.x;\n  mul.wide.u32 %rd6, %r20, 16;\n"
    "  add.s64 %rd7, %rd1, %rd6;\n  ld.global.v4.b32 {%r1,%r2,%r3,%r4}, [%rd7];\n"
    "  mov.u64 %rd8, sm;\n  cvta.shared.u64 %rd8, %rd8;\n  add.s64 %rd11, %rd8, %rd6;\n"
    "  st.v4.b32 [%rd11], {%r1,%r2,%r3,%r4};\n  bar.sync 0;\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd8];\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, [%rd3];\n"
    "  mul.wide.u32 %rd6, %r20, 64;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  st.global.v4.b32 [%rd7], {%r1,%r2,%r3,%r4};\n  st.global.v4.b32 [%rd7+16], {%r5,%r6,%r7,%r8};\n"
    "  st.global.v4.b32 [%rd7+32], {%r9,%r10,%r11,%r12};\n  st.global.v4.b32 [%rd7+48], {%r13,%r14,%r15,%r16};\n"
    "  mov.f32 %f1, 0f3F800000;\n  add.s64 %rd9, %rd9, %rd10;\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd9], {%f1,%f1,%f1,%f1,%f1,%f1,%f1,%f1}, 16;\n"
    "  ret;\n}\n";

/* The whole-fragment memory path and the element-by-element one it falls back to: a fragment
 * read through a generic address from shared memory and from global memory gives the same
 * registers; an access that leaves its allocation, or is misaligned, faults with the first
 * element the element-by-element order meets. */
TEST(ptx_wmma_memory_paths_and_faults)
{
    char err[512];
    PtxModule *m = ptx_module_parse(wmma_mem_ptx, "wmma_mem.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint16_t a[256];
    for (int i = 0; i < 256; i++)
        a[i] = (uint16_t)(i * 37 + 1);
    uint32_t frag[32 * 16];
    float d[256];
    /* d first and a last, so that nothing is allocated just before d or just after a */
    uint64_t pd = pt_upload(mem, NULL, sizeof d), pf = pt_upload(mem, NULL, sizeof frag);
    uint64_t args[5] = {pt_upload(mem, a, sizeof a), 0, pf, pd, 0};
    EXPECT(pt_run_err(m, mem, "k", 32, args, 5, err, sizeof err));
    ptx_memory_read(mem, args[2], frag, sizeof frag);
    ptx_memory_read(mem, args[3], d, sizeof d);
    unsigned differ = 0;
    for (int lane = 0; lane < 32; lane++)
        for (int k = 0; k < 8; k++)
            differ += frag[lane * 16 + k] != frag[lane * 16 + 8 + k];
    EXPECT_EQ_U(differ, 0);
    /* lane 3 holds row 3: elements 48 and 49 in its first register */
    EXPECT_EQ_U(frag[3 * 16 + 8], (uint32_t)a[48] | (uint32_t)a[49] << 16);
    EXPECT_EQ_U(pt_f2u(d[255]), pt_f2u(1.0f));
    /* 64 bytes on: the last two rows leave the 512 bytes; lane 14's first element is the first
     * outside (0x1c0 + 64 = 0x200 past the start) */
    args[1] = 64;
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 5, err, sizeof err));
    char want[160];
    snprintf(want, sizeof want, "illegal address: 2-byte load at global address 0x%llx by block (0,0,0) thread (14,0,0)",
             (unsigned long long)(args[0] + 512));
    EXPECT_CONTAINS(err, want);
    args[1] = 1; /* misaligned: the first lane's first element */
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 5, err, sizeof err));
    snprintf(want, sizeof want, "misaligned address: 2-byte load at global address 0x%llx by block (0,0,0) thread (0,0,0)",
             (unsigned long long)(args[0] + 1));
    EXPECT_CONTAINS(err, want);
    args[1] = 0; /* the store: its first row before d */
    args[4] = (uint64_t)-64;
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 5, err, sizeof err));
    snprintf(want, sizeof want, "4-byte store at global address 0x%llx by block (0,0,0) thread (0,0,0)",
             (unsigned long long)(args[3] - 64));
    EXPECT_CONTAINS(err, want);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* The shared-memory path that moves each lane's slots as one run of memory, held to the global
 * path on the same bytes at padded strides: b in column order, c row by row, a column-ordered c
 * (not runs: element by element), and d stored to shared memory (copied out after) against d
 * stored to global memory. A run past the block's shared memory faults as element by element
 * does, at the first element outside. pout: 32 lanes x 192 bytes of fragments, then the input
 * with d stored (global), then the shared memory with d stored. */
static const char wmma_runs_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 off)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<40>;\n  .reg .f32 %f<40>;\n  .reg .b64 %rd<12>;\n"
    "  .shared .align 16 .b8 sm[4096];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n  ld.param.u32 %r30, [off];\n"
    "  add.s64 %rd9, %rd2, 6144;\n  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 7;\n  mov.u32 %r3, 0;\n"
    "IN:\n  add.u32 %r4, %r2, %r3;\n  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r5, [%rd4];\n"
    "  mov.u32 %r6, sm;\n  add.u32 %r7, %r6, %r4;\n  st.shared.u32 [%r7], %r5;\n"
    "  add.s64 %rd5, %rd9, %rd3;\n  st.global.u32 [%rd5], %r5;\n"
    "  add.u32 %r3, %r3, 4;\n  setp.lt.u32 %p1, %r3, 128;\n  @%p1 bra IN;\n  bar.sync 0;\n"
    "  mov.u32 %r8, sm;\n  add.u32 %r8, %r8, %r30;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%r8+64], 24;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r18,%r19,%r20,%r21,%r22,%r23,%r24,%r25}, [%rd1+64], 24;\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%r8+32], 20;\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, [%rd1+32], 20;\n"
    "  wmma.load.c.sync.aligned.col.m16n16k16.shared.f32 {%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24}, [%r8], 20;\n"
    "  wmma.load.c.sync.aligned.col.m16n16k16.global.f32 {%f25,%f26,%f27,%f28,%f29,%f30,%f31,%f32}, [%rd1], 20;\n"
    "  mul.wide.u32 %rd6, %r1, 192;\n  add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.v4.b32 [%rd7+0], {%r10,%r11,%r12,%r13};\n"
    "  st.global.v4.b32 [%rd7+16], {%r14,%r15,%r16,%r17};\n"
    "  st.global.v4.b32 [%rd7+32], {%r18,%r19,%r20,%r21};\n"
    "  st.global.v4.b32 [%rd7+48], {%r22,%r23,%r24,%r25};\n"
    "  st.global.v4.f32 [%rd7+64], {%f1,%f2,%f3,%f4};\n"
    "  st.global.v4.f32 [%rd7+80], {%f5,%f6,%f7,%f8};\n"
    "  st.global.v4.f32 [%rd7+96], {%f9,%f10,%f11,%f12};\n"
    "  st.global.v4.f32 [%rd7+112], {%f13,%f14,%f15,%f16};\n"
    "  st.global.v4.f32 [%rd7+128], {%f17,%f18,%f19,%f20};\n"
    "  st.global.v4.f32 [%rd7+144], {%f21,%f22,%f23,%f24};\n"
    "  st.global.v4.f32 [%rd7+160], {%f25,%f26,%f27,%f28};\n"
    "  st.global.v4.f32 [%rd7+176], {%f29,%f30,%f31,%f32};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%r8+16], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, 20;\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd9+16], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, 20;\n"
    "  bar.sync 0;\n  mov.u32 %r3, 0;\n"
    "OUT:\n  add.u32 %r4, %r2, %r3;\n  mov.u32 %r6, sm;\n  add.u32 %r7, %r6, %r4;\n  ld.shared.u32 %r5, [%r7];\n"
    "  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd5, %rd9, %rd3;\n  st.global.u32 [%rd5+4096], %r5;\n"
    "  add.u32 %r3, %r3, 4;\n  setp.lt.u32 %p1, %r3, 128;\n  @%p1 bra OUT;\n  ret;\n}\n";

TEST(ptx_wmma_shared_runs)
{
    char err[512];
    PtxModule *m = ptx_module_parse(wmma_runs_ptx, "wmma_runs.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint32_t in[1024], out[6144 / 4 + 2048];
    for (uint32_t i = 0; i < 1024; i++)
        in[i] = i * 2654435761u; /* no two words alike: halves and floats of every kind */
    uint64_t pin = pt_upload(mem, in, sizeof in), pout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[3] = {pin, pout, 0};
    EXPECT(pt_run_err(m, mem, "k", 32, args, 3, err, sizeof err));
    ptx_memory_read(mem, pout, out, sizeof out);
    unsigned differ = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        const uint32_t *o = out + lane * 48;
        for (unsigned k = 0; k < 8; k++)
            differ += (o[k] != o[8 + k]) + (o[16 + k] != o[24 + k]) + (o[32 + k] != o[40 + k]);
    }
    EXPECT_EQ_U(differ, 0);
    /* lane 1 holds b's column 1 (rows 0..15 at 64 + 48 bytes on); c row by row: lane 1 starts at
     * element 8, row 0 column 8 (32 + 8 x 4 bytes on) */
    EXPECT_EQ_U(out[48 + 0], in[(64 + 48) / 4]);
    EXPECT_EQ_U(out[48 + 16], in[(32 + 32) / 4]);
    EXPECT_EQ_U(memcmp(out + 1536, out + 2560, 4096), 0);
    EXPECT(memcmp(out + 1536, in, 4096) != 0); /* d was stored */
    /* b at 3600 + 64: lane l's column starts 48 l bytes on, 32 bytes long; lane 9's is the first
     * past the 4096 bytes */
    args[2] = 3600;
    EXPECT(!pt_run_err(m, mem, "k", 32, args, 3, err, sizeof err));
    EXPECT_CONTAINS(err, "2-byte load");
    EXPECT_CONTAINS(err, "thread (9,0,0)");
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_wmma_parse_errors)
{
    pt_expect_parse_error("sm_75", "wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r1}, [%rd1], 32;",
                       "wmma on .s4 elements is not supported");
    pt_expect_parse_error("sm_75", "wmma.load.a.sync.aligned.row.m8n8k32.global.f16 {%r1,%r2,%r3,%r4}, [%rd1], 16;",
                       "the shape .m8n8k32 is not supported");
    pt_expect_parse_error("sm_75", "wmma.load.a.sync.aligned.row.m8n8k4.global.f16 {%r1,%r2,%r3,%r4}, [%rd1], 16;",
                       "the shape .m8n8k4 takes .f64 a, b, c and d");
    pt_expect_parse_error("sm_75", "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4}, [%rd1], 16;",
                       "expected loaded as {...} of 8 registers");
    pt_expect_parse_error("sm_75", "wmma.load.c.sync.aligned.row.m16n16k16.global.bf16 {%r1,%r2,%r3,%r4}, [%rd1], 16;",
                       "expected one type: .f16, .f32, .f64 or .s32");
    pt_expect_parse_error("sm_75", "wmma.load.a.sync.aligned.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];",
                       "expected a layout (.row or .col)");
    pt_expect_parse_error("sm_75", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.s8.f32 {%r1}, {%r1}, {%r1}, {%r1};",
                       "a and b must have the same type");
    pt_expect_parse_error("sm_75", "wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd1], {%r1,%r2,%r3,%r4}, 16, 3;",
                       "expects 2 or more operands, found 4");
}

/* ---- the CUDA programs ---- */

TEST(ptx_wmma_programs)
{
    if (!have_library())
        return;
    static char out[16384];
    const char *progs[] = {"wmma", "wmma_sm80"}, *want[] = {"wmma: 11 cases, 0 mismatches", "wmma: 14 cases, 0 mismatches"};
    for (int p = 0; p < 2; p++) {
        EXPECT_EQ_I(run_prog("tests/cudart/bin", progs[p], "--functional --quiet --preset qv100", out, sizeof out), 0);
        EXPECT_CONTAINS(out, want[p]);
    }
    char args[1100], json[512];
    snprintf(json, sizeof json, "%s/wmma.json", test_tmpdir());
    snprintf(args, sizeof args, "--quiet --preset qv100 --json %s", json);
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "wmma", args, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "wmma: 11 cases, 0 mismatches");
    char *text = read_file(json, NULL);
    EXPECT_CONTAINS(text, "_Z4gemmPK6__halfS1_Pfiiif");
    free(text);
    /* The GEMM's warps each run 4 dependent wmma.mma: at a tensor latency of 1000 cycles the
     * kernel takes at least 4000 (1881 at qv100's 64). */
    uint64_t cycles[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "--quiet --preset qv100 %s --json %s", i ? "-o alu.tensor_lat=1000" : "", json);
        EXPECT_EQ_I(run_prog("tests/cudart/bin", "wmma gemm", args, out, sizeof out), 0);
        EXPECT_CONTAINS(out, "wmma: 1 cases, 0 mismatches");
        text = read_file(json, NULL);
        const char *c = text ? strstr(text, "\"sim.cycles\"") : NULL;
        EXPECT(c && sscanf(c, "\"sim.cycles\": %" SCNu64, &cycles[i]) == 1);
        free(text);
    }
    EXPECT(cycles[0] > 0 && cycles[0] < 4000 && cycles[1] >= 4000);
    /* no tensor cores: the module does not load, and the message names the PTX line */
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "wmma", "--functional --quiet", out, sizeof out), 1);
    EXPECT_CONTAINS(out, ".compute_75.ptx:");
    EXPECT_CONTAINS(out, ": wmma needs tensor cores, which the configured machine does not have "
                         "(sm.n_tensor_units = 0; the qv100 preset has them)");
    EXPECT_CONTAINS(out, "(cudaErrorInvalidPtx)");
}

/* Every one of the 65,536 halves converts to the double its sign, exponent and mantissa name:
 * m x 2^-24 below the normal range, (1024 + m) x 2^(e - 25) in it, infinities and NaNs. */
TEST(ptx_f16_to_f64_every_half)
{
    unsigned wrong = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        int e = (h >> 10) & 31, m = h & 1023;
        double want = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(m + 1024, e - 25);
        want = (h & 0x8000) ? -want : want;
        double got = ptx_f16_to_f64((uint16_t)h);
        if (isnan(want) ? !isnan(got) : memcmp(&got, &want, sizeof got) != 0)
            wrong++;
    }
    EXPECT_EQ_U(wrong, 0);
    EXPECT(ptx_f16_to_f64(0x3C00) == 1.0);
    EXPECT(ptx_f16_to_f64(0x0001) == 0x1p-24);
    EXPECT(ptx_f16_to_f64(0xFBFF) == -65504.0);
}

/* The float conversion wmma's mma uses agrees with the double one, bit for bit (NaNs too). */
TEST(ptx_f16_to_f32_every_half)
{
    unsigned wrong = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float want = (float)ptx_f16_to_f64((uint16_t)h), got = ptx_f16_to_f32((uint16_t)h);
        if (memcmp(&got, &want, sizeof got) != 0)
            wrong++;
    }
    EXPECT_EQ_U(wrong, 0);
    EXPECT(ptx_f16_to_f32(0x0001) == 0x1p-24f);
    EXPECT(ptx_f16_to_f32(0x8400) == -0x1p-14f);
    EXPECT(ptx_f16_to_f32(0x7BFF) == 65504.0f);
}
