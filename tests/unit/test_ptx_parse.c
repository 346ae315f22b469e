/* test_ptx_parse.c: the PTX parser and decoder: module structure (parameter layout with PTX
 * alignment, shared-memory layout, register ranges, initialisers, ignored directives, calls),
 * clear file:line errors for malformed PTX and unsupported instructions, and the functional
 * speed of the interpreter on a compute-heavy kernel (tests/ptx/compute.cu). */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_ir.h"

#include <math.h>
#include <stdlib.h>

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char *const layout_ptx = HDR
    ".global .align 4 .b8 tab[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3};\n"
    ".const .align 8 .f64 cd[2] = {0d3FF0000000000000, 0dC000000000000000};\n"
    ".shared .align 8 .b8 s_a[20];\n"
    ".shared .align 16 .b8 s_unused[4000];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    "/* a block comment */\n"
    ".visible .entry k(\n .param .u8 p0,\n .param .u64 p1,\n .param .align 16 .b8 p2[20],\n .param .f32 p3\n)\n"
    ".maxntid 128, 1, 1\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n  .reg .f64 %fd<3>;\n"
    "  .shared .align 4 .b8 s_b[8];\n"
    "  .pragma \"nounroll\";\n"
    "  ld.param.u64 %rd1, [p1];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.param.u32 %r1, [p2+16];\n"
    "  mov.u64 %rd3, tab;\n  ld.global.u32 %r2, [%rd3+8];\n"
    "  mov.u32 %r3, s_a;\n  st.shared.u32 [%r3+4], %r2;\n  ld.shared.u32 %r4, [s_a+4];\n"
    "  st.shared.u32 [s_b], %r4;\n  mov.u32 %r5, dyn;\n  st.shared.u32 [%r5], %r1;\n"
    "  ld.shared.u32 %r6, [dyn];\n  ld.const.f64 %fd1, [cd+8];\n  cvt.rzi.s32.f64 %r7, %fd1;\n"
    "  add.s32 %r8, %r6, %r7;\n  add.s32 %r8, %r8, %r4;\n"
    "  mov.b64 %rd4, {%r8, %r7};\n  mov.b64 {%r8, %r9}, %rd4;\n"
    "  st.global.v2.u32 [%rd2+-0], {%r8, %r9};\n  ret;\n}\n";

TEST(ptx_parse_layouts_and_run)
{
    char err[256];
    PtxModule *m = ptx_module_parse(layout_ptx, "layout.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "k");
    ASSERT(ki);
    EXPECT(ptx_module_kernel(m, "nope") == NULL);
    EXPECT_EQ_U(ki->n_params, 4);
    EXPECT_EQ_U(ki->param_offset[0], 0);
    EXPECT_EQ_U(ki->param_offset[1], 8);
    EXPECT_EQ_U(ki->param_offset[2], 16);
    EXPECT_EQ_U(ki->param_size[2], 20);
    EXPECT_EQ_U(ki->param_offset[3], 36);
    EXPECT_EQ_U(ki->param_bytes, 40);
    /* s_a (20 B) then s_b aligned to 4 (24..32); s_unused is not referenced; dyn at 32 */
    EXPECT_EQ_U(ki->smem_static_bytes, 32);
    EXPECT(ki->uses_dynamic_smem);
    EXPECT_EQ_U(ki->regs_estimate, 10 + 16 + 6); /* 32-bit slots; predicates do not count */
    PtxMemory *mem = ptx_memory_create();
    uint64_t dout = pt_upload(mem, NULL, 8);
    uint8_t params[40] = {0};
    memcpy(params + 8, &dout, 8);
    uint32_t v = 1000;
    memcpy(params + 16 + 16, &v, 4);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "k", grid, block, 16, params, 40, mem, err, sizeof err);
    ASSERT(l);
    EXPECT(ptx_launch_create(m, "k", grid, block, 16, params, 20, mem, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "expects 40 bytes of parameters");
    ASSERT(ptx_run_kernel(l, NULL, err, sizeof err));
    int out[2];
    ptx_memory_read(mem, dout, out, 8);
    EXPECT_EQ_I(out[0], 1000 - 2 + 3);
    EXPECT_EQ_I(out[1], -2);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

static void expect_error(const char *body, const char *want)
{
    char text[2048], err[256];
    snprintf(text, sizeof text, HDR ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<4>;\n%s\n}\n", body);
    PtxModule *m = ptx_module_parse(text, "bad.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_CONTAINS(err, want);
    ptx_module_free(m);
}

/* Loads that must see other SMs' writes are marked for the L2 (WINST_F_L2_ONLY); the others,
 * and a CTA-scope strong load (the CTA's own SM is enough), stay L1D-cacheable. */
TEST(ptx_parse_l2_only_loads)
{
    static const char *const src = HDR
        ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  ld.global.u32 %r1, [%rd1];\n  ld.global.nc.u32 %r2, [%rd1];\n  ld.global.ca.u32 %r3, [%rd1];\n"
        "  ld.relaxed.cta.global.u32 %r4, [%rd1];\n  ld.global.cs.u32 %r5, [%rd1];\n"
        "  ld.global.cg.u32 %r6, [%rd1];\n  ld.global.cv.u32 %r7, [%rd1];\n  ld.volatile.global.u32 %r8, [%rd1];\n"
        "  ld.acquire.gpu.u32 %r9, [%rd1];\n  ld.relaxed.sys.global.u32 %r10, [%rd1];\n"
        "  ld.volatile.u32 %r11, [%rd1];\n  ret;\n}\n";
    char err[256];
    PtxModule *m = ptx_module_parse(src, "l2only.ptx", err, sizeof err);
    ASSERT(m);
    for (uint32_t pc = 1; pc <= 11; pc++) {
        WinstStatic s;
        ptx_decode_static(m, pc, &s);
        EXPECT_EQ_U(s.op, WOP_LOAD);
        EXPECT_EQ_U(s.flags & WINST_F_L2_ONLY, pc >= 6 ? WINST_F_L2_ONLY : 0);
    }
    ptx_module_free(m);
}

TEST(ptx_parse_errors_name_file_line)
{
    expect_error("  tex.grad.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [t, {%r0, %r0}], {%r0, %r0}, {%r0, %r0};",
                 "bad.ptx:7: 'tex.grad.2d.v4.f32.f32': tex.grad (tex*Lod, tex*Grad: mipmapped textures) is not "
                 "supported");
    expect_error("  add.s32 %r1, %r2;", "bad.ptx:7: 'add.s32' expects 3 operands");
    expect_error("  add.s32 %r1, %r2, %r9;", "bad.ptx:7: unknown register '%r9'");
    expect_error("  add.s32 %r1, %r2, %r3", "bad.ptx:8: expected ';'");
    expect_error("  bra $L__nowhere;", "bad.ptx:7: unknown label '$L__nowhere'");
    expect_error("  mov.u32 %r1, 0;\n  ld.global.u32 %r1, %r2;", "bad.ptx:8: expected 'ld d, [address]'");
    expect_error("  add %r1, %r2, %r3;", "bad.ptx:7: expected a type modifier");
    expect_error("  add.s32 %r1, %r2, 0xZZ;", "bad.ptx:7: malformed number");
    /* a decimal literal truncated to an integer must fit (a C conversion beyond it is undefined) */
    expect_error("  add.s32 %r1, %r2, 2E55;", "bad.ptx:7: '2E55' as an integer: expected a value within 64 bits");
    expect_error("  add.s32 %r1, %r2, -9.3e18;", "bad.ptx:7: '9.3e18' as an integer");
    char e2[256];
    EXPECT(ptx_module_parse(HDR ".const .align 4 .b8 tab[2] = {1, 1e300};\n", "init.ptx", e2, sizeof e2) == NULL);
    EXPECT_CONTAINS(e2, "init.ptx:4: '1e300' as an integer");
    expect_error("  call.uni foo, ();", "bad.ptx:7: call to undeclared function 'foo'");
    expect_error("  ld.global.v4.u32 {%r0, %r1}, [%r2];", "bad.ptx:7: expected a {...} operand of 4 registers");
    char err[256];
    EXPECT(ptx_module_parse(HDR ".visible .entry k(\n{\n}\n", "hdr.ptx", err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "hdr.ptx:5:");
    EXPECT(ptx_module_parse(".version 9.0\n.address_size 32\n", "as.ptx", err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "as.ptx:2: expected .address_size 64");
    EXPECT(ptx_module_parse(HDR "garbage here\n", "g.ptx", err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "g.ptx:4: expected a directive");
    EXPECT(ptx_module_parse(HDR ".visible .entry k()\n{\n  ret;\n", "eof.ptx", err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "eof.ptx:");
    EXPECT_CONTAINS(err, "expected '}'");
    EXPECT(ptx_module_load("tests/ptx/does_not_exist.ptx", err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "does_not_exist.ptx: cannot read");
    EXPECT(ptx_module_load("/dev/zero", err, sizeof err) == NULL);
    EXPECT_STR(err, "/dev/zero: cannot read: larger than the 64 MiB limit on input files");
    EXPECT(ptx_module_load("tests/ptx", err, sizeof err) == NULL);
    EXPECT_STR(err, "tests/ptx: cannot read: Is a directory");
}

/* A function declared, then redefined with a malformed parameter list: the declaration's lists
 * are freed once (the error path used to free them a second time). Each case must fail with its
 * file:line and leave nothing behind (make asan checks the frees). */
TEST(ptx_parse_redefinition_with_bad_params)
{
    static const struct { const char *text, *msg; } bad[] = {
        { ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry k(.param .u64 a);\n"
          ".visible .entry k(.param .u64 a, junk",
          "redef.ptx:5: expected .param in the parameter list, found 'junk'" },
        { HDR ".func (.param .b32 r) f(.param .b32 a);\n.func (.param .b32 r) f(.param .b32 a,\n",
          "redef.ptx:6: expected .param in the parameter list, found end of file" },
        { HDR ".func (.param .b32 r) f(.param .b32 a);\n.func (.param .b32 r) f(.param .b32 a) junk",
          "redef.ptx:5: expected '{' or ';' after the function header" },
        { HDR ".func (.param .b32 r) f(.param .b32 a);\n.func (.param .b32 r, ) f()\n{\n ret;\n}\n",
          "redef.ptx:5: expected .param in the parameter list, found ')'" },
        { HDR ".visible .entry k(.param .u64 a);\n.visible .entry k(.param .u64 a)\n{\n ret;\n}\n"
          ".visible .entry k(.param .u64 a)\n{\n ret;\n}\n",
          "redef.ptx:9: function 'k' is defined twice" },
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        PtxModule *m = ptx_module_parse(bad[i].text, "redef.ptx", err, sizeof err);
        EXPECT(m == NULL);
        EXPECT_CONTAINS(err, bad[i].msg);
        ptx_module_free(m);
    }
    /* declared, then defined with the same parameters: the definition's list is the one kept */
    PtxModule *m = ptx_module_parse(HDR ".visible .entry k(.param .u64 a);\n"
                                    ".visible .entry k(.param .u64 a, .param .u32 b)\n{\n ret;\n}\n",
                                    "redef.ptx", err, sizeof err);
    ASSERT(m);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "k");
    ASSERT(ki);
    EXPECT_EQ_U(ki->n_params, 2);
    EXPECT_EQ_U(ki->param_bytes, 12);
    ptx_module_free(m);
}

/* Nesting that recursed without a bound (initialiser braces) is an error, not a stack overflow;
 * a module of a million '{' fails with its line. */
TEST(ptx_parse_deep_nesting_is_an_error)
{
    enum { DEEP = 1000000 };
    const char *head = HDR ".global .b32 x[4] = ";
    size_t hl = strlen(head);
    char *text = xmalloc(hl + DEEP + 2);
    memcpy(text, head, hl);
    memset(text + hl, '{', DEEP);
    strcpy(text + hl + DEEP, "\n");
    char err[256] = "";
    PtxModule *m = ptx_module_parse(text, "deep.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_CONTAINS(err, "deep.ptx:4: initialiser braces nested more than");
    ptx_module_free(m);
    /* blocks in a function body were already bounded */
    size_t kl = strlen(HDR ".entry k()\n");
    memcpy(text, HDR ".entry k()\n", kl);
    memset(text + kl, '{', DEEP);
    text[kl + DEEP] = 0;
    m = ptx_module_parse(text, "deep.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_CONTAINS(err, "deep.ptx:5: blocks nested too deeply");
    ptx_module_free(m);
    /* a legitimate nested initialiser still reads */
    m = ptx_module_parse(HDR ".global .b32 y[2][2] = {{1, 2}, {3, 4}};\n", "ok.ptx", err, sizeof err);
    EXPECT(m != NULL);
    ptx_module_free(m);
    free(text);
}

/* Initialised variables are bounded per module, 256 MiB in all (ptx_decl.c): a short text that
 * declares many large ones fails, with the line of the one past the bound, before its memory is
 * taken. Exactly the bound loads, with its values; uninitialised variables are not counted; sizes
 * past 64 bits are errors, not wrapped. */
TEST(ptx_parse_init_bytes_bounded)
{
    char err[512];
    const char *fit = HDR ".global .b8 a[267386880] = {1};\n.const .align 4 .b32 c[262144] = {2, 3};\n"
                          ".global .b8 free_[1099511627776];\n";
    PtxModule *m = ptx_module_parse(fit, "fit.ptx", err, sizeof err);
    EXPECT(m != NULL);
    if (m) {
        PtxMemory *mem = ptx_memory_create();
        uint64_t size = 0, a = ptx_memory_symbol(mem, m, "c", &size);
        uint32_t c[3] = {0, 0, 9};
        ptx_memory_read(mem, a, c, sizeof c);
        EXPECT_EQ_U(size, 1 << 20);
        EXPECT(c[0] == 2 && c[1] == 3 && c[2] == 0);
        ptx_memory_destroy(mem);
    }
    ptx_module_free(m);
    m = ptx_module_parse(HDR ".global .b8 a[267386880] = {1};\n.const .b8 c[1048576] = {2};\n.global .u8 d = 3;\n",
                         "over.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_STR(err, "over.ptx:6: initialised variable 'd' of 1 bytes: the module's initialised .global and .const "
                    "variables would take 268435457 bytes, more than the 268435456 (256 MiB) a module may have");
    ptx_module_free(m);
    /* a thousand variables of 1 MiB, each far below the bound, the 257th past it */
    size_t cap = 1000 * 64 + 256, len = 0;
    char *many = xmalloc(cap);
    len += (size_t)snprintf(many, cap, HDR);
    for (int i = 0; i < 1000; i++)
        len += (size_t)snprintf(many + len, cap - len, ".global .b8 v%d[1048576] = {%d};\n", i, i & 127);
    m = ptx_module_parse(many, "many.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_CONTAINS(err, "many.ptx:260: initialised variable 'v256' of 1048576 bytes: the module's initialised");
    ptx_module_free(m);
    free(many);
    m = ptx_module_parse(HDR ".global .b8 w[4294967296][4294967297];\n", "wrap.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_STR(err, "wrap.ptx:4: array of more than 2^64 elements");
    ptx_module_free(m);
    m = ptx_module_parse(HDR ".global .b64 w[2305843009213693952];\n", "wrap.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_STR(err, "wrap.ptx:4: variable 'w' of 2305843009213693952 elements of 8 bytes: more than 2^63 bytes");
    ptx_module_free(m);
    m = ptx_module_parse(HDR ".global .b8 x[4611686018427387904];\n.global .b8 y[4611686018427387904];\n",
                         "wrap.ptx", err, sizeof err);
    EXPECT(m == NULL);
    EXPECT_STR(err, "wrap.ptx:5: the module's .global variables take more than 2^63 bytes");
    ptx_module_free(m);
}

TEST(ptx_runtime_fault_reports_line)
{
    static const char *const text = HDR ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                                    "  .shared .align 4 .b8 s[16];\n  mov.u32 %r1, 64;\n"
                                    "  st.shared.u32 [%r1], %r1;\n  ret;\n}\n";
    char err[256];
    PtxModule *m = ptx_module_parse(text, "fault.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "k", grid, block, 0, NULL, 0, mem, err, sizeof err);
    ASSERT(l);
    EXPECT(!ptx_run_kernel(l, NULL, err, sizeof err));
    EXPECT_CONTAINS(err, "fault.ptx:9: kernel k: illegal address: 4-byte store at shared offset 0x40");
    ptx_launch_destroy(l);
    /* a kernel that never terminates stops at the instruction limit */
    static const char *const spin = HDR ".visible .entry k()\n{\n$L:\n  bra.uni $L;\n}\n";
    PtxModule *m2 = ptx_module_parse(spin, "spin.ptx", err, sizeof err);
    ASSERT(m2);
    l = ptx_launch_create(m2, "k", grid, block, 0, NULL, 0, mem, err, sizeof err);
    ASSERT(l);
    ptx_launch_set_inst_limit(l, 1000);
    EXPECT(!ptx_run_kernel(l, NULL, err, sizeof err));
    EXPECT_CONTAINS(err, "instruction limit");
    ptx_launch_destroy(l);
    ptx_module_free(m2);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* WARP_SZ, PTX's predefined warp size (nvcc's warpSize), reads as the immediate 32. */
TEST(ptx_warp_sz)
{
    static const char *const text = HDR ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n"
                                    "  .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [out];\n"
                                    "  mov.u32 %r1, WARP_SZ;\n  add.s32 %r2, %r1, WARP_SZ;\n"
                                    "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";
    char err[256];
    PtxModule *m = ptx_module_parse(text, "warpsz.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t dout = pt_upload(mem, NULL, 4);
    uint64_t args[] = {dout};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "k", 1, 1, 1, 32, 1, 1, 0, args, 1, &st));
    uint32_t v = 0;
    ptx_memory_read(mem, dout, &v, sizeof v);
    EXPECT_EQ_U(v, 64);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
    /* any other unknown word is still an error naming it */
    static const char *const bad = HDR ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, WARP_SIZE;\n}\n";
    EXPECT(!ptx_module_parse(bad, "bad.ptx", err, sizeof err));
    EXPECT_CONTAINS(err, "bad.ptx:7: unknown identifier 'WARP_SIZE'");
}

/* bmsk (PTX ISA 7.6): a mask of b bits from bit a, in both modes, at the edges of the ISA's
 * semantics: a width of 0, a field past bit 31, a or b of 32 and more. */
TEST(ptx_bmsk)
{
    static const char *const text = HDR ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                                    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
                                    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
                                    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 8;\n"
                                    "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.v2.u32 {%r2, %r3}, [%rd4];\n"
                                    "  bmsk.clamp.b32 %r4, %r2, %r3;\n  bmsk.wrap.b32 %r5, %r2, %r3;\n"
                                    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.v2.u32 [%rd5], {%r4, %r5};\n"
                                    "  ret;\n}\n";
    /* a, b, then the clamp and wrap results the ISA's pseudocode gives */
    static const uint32_t cases[][4] = {
        {1, 2, 0x6, 0x6},         {0, 0, 0, 0},          {0, 32, 0xFFFFFFFF, 0},   {4, 8, 0xFF0, 0xFF0},
        {28, 8, 0xF0000000, 0xF0000000}, {31, 1, 0x80000000, 0x80000000}, {32, 4, 0, 0xF}, {33, 1, 0, 0x2},
        {0, 31, 0x7FFFFFFF, 0x7FFFFFFF}, {5, 40, 0xFFFFFFE0, 0x1FE0},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    uint32_t in[2 * N], out[2 * N];
    for (int i = 0; i < N; i++) {
        in[2 * i] = cases[i][0];
        in[2 * i + 1] = cases[i][1];
    }
    char err[256];
    PtxModule *m = ptx_module_parse(text, "bmsk.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {din, dout};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "k", 1, 1, 1, N, 1, 1, 0, args, 2, &st));
    ptx_memory_read(mem, dout, out, sizeof out);
    for (int i = 0; i < N; i++) {
        EXPECT_EQ_U(out[2 * i], cases[i][2]);
        EXPECT_EQ_U(out[2 * i + 1], cases[i][3]);
    }
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* match.any.sync / match.all.sync: each lane gets the lanes of its member mask holding the same
 * value; match.all gives the whole mask and a true predicate only when all of them agree. */
TEST(ptx_match_sync)
{
    static const char *const text = HDR ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                                    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
                                    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
                                    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
                                    "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r2, [%rd4];\n"
                                    "  match.any.sync.b32 %r3, %r2, -1;\n"
                                    "  match.all.sync.b32 %r4|%p1, %r2, 0x0000000F;\n"
                                    "  selp.u32 %r5, 1, 0, %p1;\n  match.all.sync.b32 %r6, %r2, -1;\n"
                                    "  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd5, %rd2, %rd3;\n"
                                    "  st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};\n"
                                    "  ret;\n}\n";
    uint32_t in[32], out[32 * 4];
    for (int i = 0; i < 32; i++)
        in[i] = i < 4 ? 7 : (uint32_t)(i % 3); /* lanes 0-3 agree; the rest fall in three classes */
    char err[256];
    PtxModule *m = ptx_module_parse(text, "match.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {din, dout};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "k", 1, 1, 1, 32, 1, 1, 0, args, 2, &st));
    ptx_memory_read(mem, dout, out, sizeof out);
    for (int i = 0; i < 32; i++) {
        uint32_t want = 0;
        for (int j = 0; j < 32; j++)
            want |= (uint32_t)(in[j] == in[i]) << j;
        EXPECT_EQ_U(out[4 * i], want);
        if (i < 4) { /* the member mask 0xF: lanes 0-3, which all hold 7 (others are not members) */
            EXPECT_EQ_U(out[4 * i + 1], 0xF);
            EXPECT_EQ_U(out[4 * i + 2], 1);
        }
        EXPECT_EQ_U(out[4 * i + 3], 0); /* the whole warp does not agree */
    }
    ptx_memory_destroy(mem);
    ptx_module_free(m);
    static const char *const bad = HDR ".visible .entry k()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n"
                                   "  match.any.sync.b32 %r1|%p1, %r2, -1;\n}\n";
    EXPECT(!ptx_module_parse(bad, "bad.ptx", err, sizeof err));
    EXPECT_CONTAINS(err, "match.any has no predicate destination");
    static const char *const nomode = HDR ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                                      "  match.sync.b32 %r1, %r2, -1;\n}\n";
    EXPECT(!ptx_module_parse(nomode, "bad.ptx", err, sizeof err));
    EXPECT_CONTAINS(err, "expected .any or .all");
}

/* The compute-heavy kernel of the speed benchmark gives exactly the CPU reference's results. */
TEST(ptx_speed_compute_heavy)
{
    PtxModule *m = pt_load("compute.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    enum { T = 4096, ITERS = 40 };
    float in[T], out[T];
    for (int i = 0; i < T; i++)
        in[i] = 0.5f + (float)(i % 97) / 200.0f;
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {din, dout, ITERS};
    PtxRunStats st;
    double t0 = wall_seconds();
    ASSERT(pt_run(m, mem, "compute_heavy", T / 256, 1, 1, 256, 1, 1, 0, args, 3, &st));
    double dt = wall_seconds() - t0;
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < T; i++) {
        float x = in[i], y = 1.0f;
        uint32_t h = (uint32_t)i * 2654435761u;
        for (int k = 0; k < ITERS; k++) {
            y = fmaf(y, x, 0.5f) * 0.25f + 1.0f;
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            if (h & 1)
                y -= 0.125f;
        }
        float e = y + (float)(h & 255);
        bad += pt_f2u(out[i]) != pt_f2u(e);
    }
    EXPECT_EQ_I(bad, 0);
    (void)dt; /* the rate is reported by `make bench` (bench ptx-functional) */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
