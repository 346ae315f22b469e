/* test_tex.c: CUDA array layouts (warpsim_array_layout, warpsim_array_offset) and the texture
 * and surface objects of the embedding API, on worked examples. */
#include "../test.h"

#include "warpsim.h"

/* A 2D array of 37 floats x 19 rows: rows padded to 192 bytes (3 tiles of 64), 24 rows (3
 * tile rows of 8). */
TEST(tex_array_layout_tiled)
{
    WarpsimArrayLayout l;
    ASSERT(warpsim_array_layout(148, 19, 2, 1, &l));
    EXPECT_EQ_U(l.row_bytes, 192);
    EXPECT_EQ_U(l.slice_bytes, 192 * 24);
    EXPECT_EQ_U(l.bytes, 2 * 192 * 24);
    uint64_t run;
    /* byte 0 of row 1: the second 64-byte row of the first tile */
    EXPECT_EQ_U(warpsim_array_offset(&l, 0, 1, 0, &run), 64);
    EXPECT_EQ_U(run, 64);
    /* byte 70 of row 9: tile row 1 (192 * 8 bytes on), tile 1 (512 on), its row 1, byte 6 */
    EXPECT_EQ_U(warpsim_array_offset(&l, 70, 9, 0, &run), 192 * 8 + 512 + 64 + 6);
    EXPECT_EQ_U(run, 58);
    /* the last tile holds 20 bytes of each row */
    EXPECT_EQ_U(warpsim_array_offset(&l, 130, 0, 1, &run), 192 * 24 + 1024 + 2);
    EXPECT_EQ_U(run, 18);
}

TEST(tex_array_layout_linear)
{
    WarpsimArrayLayout l;
    ASSERT(warpsim_array_layout(1200, 0, 3, 0, &l)); /* a 1D layered array: rows of 1200 bytes */
    EXPECT_EQ_U(l.height, 1);
    EXPECT_EQ_U(l.row_bytes, 1200);
    EXPECT_EQ_U(l.bytes, 3600);
    uint64_t run;
    EXPECT_EQ_U(warpsim_array_offset(&l, 100, 0, 2, &run), 2500);
    EXPECT_EQ_U(run, 1100);
    EXPECT(!warpsim_array_layout(UINT64_MAX / 2, 1 << 20, 8, 1, &l)); /* overflows */
}

/* A surface of 4 x 2 ints (a tiled 2D array): thread x reads (x * 4 - 4, 1) with .trap, so
 * thread 0's byte offset -4 faults, and (x * 4 - 4, 5) with .zero and .clamp. */
static const char surf_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 s, .param .u64 out, .param .u32 trap)\n{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [s];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r6, [trap];\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  sub.s32 %r2, %r2, 4;\n  mov.u32 %r3, 5;\n"
    "  suld.b.2d.b32.zero {%r4}, [%rd1, {%r2, %r3}];\n"
    "  suld.b.2d.b32.clamp {%r5}, [%rd1, {%r2, %r3}];\n"
    "  setp.ne.u32 %p1, %r6, 0;\n  mov.u32 %r7, 1;\n"
    "  @%p1 suld.b.2d.b32.trap {%r7}, [%rd1, {%r2, %r7}];\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.v2.u32 [%rd4], {%r4, %r5};\n  ret;\n}\n";

TEST(tex_surface_boundary_modes)
{
    const char *argv[] = {"--quiet", "--functional"};
    char err[512];
    WarpsimSim *s = warpsim_create(2, argv, err, sizeof err);
    ASSERT(s);
    WarpsimModule *m;
    ASSERT(warpsim_module_load(s, surf_ptx, "surf.ptx", &m) == WARPSIM_OK);
    WarpsimTexture t = {.channels = 1, .channel_bytes = 4, .format = WARPSIM_TEX_SIGNED, .kind = WARPSIM_TEX_ARRAY,
                        .width = 4, .height = 2, .surface = 1};
    ASSERT(warpsim_array_layout(16, 2, 1, 1, &t.layout));
    t.base = warpsim_malloc(s, t.layout.bytes);
    int32_t row1[4] = {10, 11, 12, 13};
    uint64_t run;
    warpsim_memcpy_htod(s, t.base + warpsim_array_offset(&t.layout, 0, 1, 0, &run), row1, sizeof row1);
    uint64_t h, dout = warpsim_malloc(s, 5 * 8);
    ASSERT(warpsim_texture_create(s, &t, &h) == WARPSIM_OK);
    uint64_t params[3] = {h, dout, 0};
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {5, 1, 1};
    ASSERT(warpsim_launch(s, m, "k", grid, block, 0, params, 20) == WARPSIM_OK);
    int32_t out[5][2];
    warpsim_memcpy_dtoh(s, out, dout, sizeof out);
    /* row 5 is outside: zeros, or row 1 clamped (x -4 to 0, x 12 stays, x 16 to 12) */
    const int32_t clamp[5] = {10, 10, 11, 12, 13};
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ_I(out[i][0], 0);
        EXPECT_EQ_I(out[i][1], clamp[i]);
    }
    params[2] = 1;
    EXPECT_EQ_I(warpsim_launch(s, m, "k", grid, block, 0, params, 20), WARPSIM_E_ILLEGAL_ADDRESS);
    EXPECT_CONTAINS(warpsim_error(s), "4-byte surface load");
    EXPECT_CONTAINS(warpsim_error(s), "outside the surface: byte -4 of rows of 16 bytes, row 1 of 2");
    warpsim_destroy(s);
}
