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
