/* test_ptx_link.c: the link of several objects' PTX into one module (ptx_link.c), as a program
 * built with nvcc -rdc needs: a function, kernel and variable declared .extern in one object and
 * defined in the other (the variable after its use, the function and kernel too), a .weak
 * function both objects define, a string constant ($str) each object has under the same name,
 * and two definitions of one .visible name, which must fail naming both objects. The linked
 * module runs, and every value must come from the right object. And the device runtime
 * library's PTX, which defines the functions the interpreter provides, is told apart. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"

#include <stdlib.h>

static const char *obj_a =
    "//\n// object a\n//\n.version 8.0\n.target sm_75\n.address_size 64\n"
    ".extern .func (.param .b32 r) helper(.param .b32 x);\n"
    ".extern .global .align 4 .u32 counter;\n"
    ".extern .entry child(.param .u64 p);\n"
    ".global .align 1 .b8 $str[2] = {65, 0};\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.u32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".visible .entry parent(.param .u64 out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "{\n.param .b32 a0;\nst.param.b32 [a0], 5;\n.param .b32 r0;\n"
    "call.uni (r0), helper, (a0);\nld.param.b32 %r1, [r0];\n}\n"
    "{\n.param .b32 a1;\nst.param.b32 [a1], 21;\n.param .b32 r1;\n"
    "call.uni (r1), twice, (a1);\nld.param.b32 %r2, [r1];\n}\n"
    "ld.global.u32 %r3, [counter];\n"
    "mov.u64 %rd2, $str;\nld.global.u8 %r4, [%rd2];\n"
    "mov.u64 %rd3, child;\nsetp.ne.u64 %p1, %rd3, 0;\nselp.u32 %r5, 1, 0, %p1;\n"
    "st.global.u32 [%rd1], %r1;\nst.global.u32 [%rd1+4], %r2;\nst.global.u32 [%rd1+8], %r3;\n"
    "st.global.u32 [%rd1+12], %r4;\nst.global.u32 [%rd1+16], %r5;\nret;\n}\n";

static const char *obj_b =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .global .align 4 .u32 counter = 7;\n"
    ".global .align 1 .b8 $str[2] = {66, 0};\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.u32 %r1, [x];\nadd.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".visible .func (.param .b32 r) helper(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.u32 %r1, [x];\nmul.lo.s32 %r2, %r1, 3;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".visible .entry child(.param .u64 p)\n{\nret;\n}\n"
    ".visible .entry readstr(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u64 %rd2, $str;\nld.global.u8 %r1, [%rd2];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

TEST(ptx_link_resolves_across_objects)
{
    const char *texts[] = {obj_a, obj_b};
    char err[512] = "";
    char *linked = ptx_link(texts, 2, err, sizeof err);
    ASSERT(linked);
    EXPECT(strstr(linked, "$str_$o1") && strstr(linked, "$str_$o2")); /* each object's own */
    EXPECT(!strstr(linked, "counter_$o")); /* a .visible name is not renamed */
    PtxModule *m = ptx_module_parse(linked, "linked.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t out = pt_upload(mem, NULL, 32), args[] = {out};
    PtxRunStats st;
    EXPECT(pt_run(m, mem, "parent", 1, 1, 1, 1, 1, 1, 0, args, 1, &st));
    uint32_t got[5];
    ptx_memory_read(mem, out, got, sizeof got);
    EXPECT_EQ_I(got[0], 15); /* helper, from object b */
    EXPECT_EQ_I(got[1], 42); /* the one .weak twice kept */
    EXPECT_EQ_I(got[2], 7);  /* counter, defined after object a used it */
    EXPECT_EQ_I(got[3], 'A'); /* object a's $str */
    EXPECT_EQ_I(got[4], 1);  /* the extern kernel's address */
    EXPECT(pt_run(m, mem, "readstr", 1, 1, 1, 1, 1, 1, 0, args, 1, &st));
    ptx_memory_read(mem, out, got, 4);
    EXPECT_EQ_I(got[0], 'B'); /* object b's $str */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
    free(linked);
}

TEST(ptx_link_two_definitions_fail)
{
    const char *texts[] = {obj_b, obj_b};
    char err[512] = "";
    char *linked = ptx_link(texts, 2, err, sizeof err);
    EXPECT(!linked);
    EXPECT_CONTAINS(err, "is defined in object 1 and again in object 2");
    free(linked);
}

TEST(ptx_link_function_address_only_by_mov)
{
    const char *text = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n"
                       ".visible .entry user(.param .u64 p)\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, k;\nret;\n}\n";
    char err[512] = "";
    PtxModule *m = ptx_module_parse(text, "addr.ptx", err, sizeof err);
    EXPECT(!m);
    EXPECT_CONTAINS(err, "addr.ptx:11: function 'k': its address may only be read by a 64-bit mov");
    ptx_module_free(m);
}

/* The device runtime library's object defines what the interpreter provides: it is not linked. */
TEST(ptx_link_device_runtime_recognised)
{
    const char *decl =
        ".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2\n(\n.param .b64 a,\n.param .b64 b\n)\n;\n";
    const char *def = ".visible .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(\n.param .b64 a,\n.param .b64 b\n)\n"
                      "{\nret;\n}\n";
    EXPECT(!ptx_defines_builtins(decl));
    EXPECT(ptx_defines_builtins(def));
    EXPECT(!ptx_defines_builtins(obj_a));
}
