/* test_addrdec.c: GPGPU-Sim address-mapping strings decoded by hand: the GTX480 mapping with
 * 6 partitions (channel by modulo) and 8 partitions (channel bits removed), L2 slices, and
 * malformed strings. */
#include "../test.h"

#include "conf/config.h"
#include "mem/addrdec.h"

#define GTX480_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

/* GTX480 mask, bit by bit: R = bits 27..16 (12 row bits); B = bits 15,14,13 and 8 (bank bit 0 is
 * address bit 8, bits 1..3 are 13..15); C = bits 12..9, 7, 6; S = bits 5..0. The column packs
 * S (bits 0..5), then 6, 7, then 9..12. */
static void expect_loc(const AddrDecoder *d, uint64_t addr, uint32_t part, uint32_t slice, uint32_t bank,
                       uint32_t row, uint32_t col)
{
    AddrLoc l;
    addrdec_decode(d, addr, &l);
    EXPECT_EQ_U(l.partition, part);
    EXPECT_EQ_U(l.slice, slice);
    EXPECT_EQ_U(l.bank, bank);
    EXPECT_EQ_U(l.row, row);
    EXPECT_EQ_U(l.col, col);
}

TEST(addrdec_gtx480_six_partitions)
{
    AddrDecoder d;
    char err[256];
    ASSERT(addrdec_parse(&d, GTX480_MAP, 6, 2, 16, err, sizeof err));
    EXPECT_EQ_U(d.chan_bit, 8);
    EXPECT_EQ_U(d.row_mask, 0x0FFF0000ull);
    EXPECT_EQ_U(d.bank_mask, 0xE100ull);
    EXPECT_EQ_U(d.col_mask, 0x1EFFull); /* S bits count as column bits, as in GPGPU-Sim */
    EXPECT_EQ_U(d.burst_mask, 0x3Full);

    /* 0x100: addr>>8 = 1 -> partition 1 % 6 = 1, quotient 0: everything else 0; slice 1*2+0. */
    expect_loc(&d, 0x100, 1, 2, 0, 0, 0);
    /* 0x600: addr>>8 = 6 -> partition 0, quotient 1 lands on bit 8 = bank bit 0 -> bank 1,
     * which is also the sub-partition bit: slice 0*2+1. */
    expect_loc(&d, 0x600, 0, 1, 1, 0, 0);
    /* 0x7C0: addr>>8 = 7 -> partition 1, quotient 1 -> bank 1; low byte 0xC0 -> col 0xC0. */
    expect_loc(&d, 0x7C0, 1, 3, 1, 0, 0xC0);
    /* Build from the inside: rest = row 5 (bit 16+), bank bit at 13 (bank 2), col bit 6
     * = 0x52040; rest>>8 = 0x520 = 1312; partition 4: (1312*6 + 4) << 8 | 0x40 = 0x1EC440. */
    expect_loc(&d, 0x1EC440, 4, 8, 2, 5, 0x40);
    /* Same location in every partition: consecutive 256-byte chunks go round the partitions. */
    for (uint32_t p = 0; p < 6; p++)
        expect_loc(&d, ((1312ull * 6 + p) << 8) | 0x40, p, p * 2, 2, 5, 0x40);
}

TEST(addrdec_power_of_two_partitions)
{
    AddrDecoder d;
    char err[256];
    ASSERT(addrdec_parse(&d, GTX480_MAP, 8, 2, 16, err, sizeof err));
    /* 0x500: partition = bits 8..10 = 5; nothing else. */
    expect_loc(&d, 0x500, 5, 10, 0, 0, 0);
    /* rest = row 3 (bits 16+), bank bits at 15 and 8 (bank 8+1 = 9), col bit 7 = 0x38180; the
     * three partition bits 8..10 are inserted: (0x381 << 11) | (6 << 8) | 0x80 = 0x1C0E80. */
    expect_loc(&d, 0x1C0E80, 6, 13, 9, 3, 0x80);
    /* One partition: no channel bits at all, the mask applies to the address as is. */
    ASSERT(addrdec_parse(&d, GTX480_MAP, 1, 1, 16, err, sizeof err));
    expect_loc(&d, 0x38180, 0, 0, 9, 3, 0x80);
    /* Four sub-partitions: the two low bank bits (address bits 8 and 13 here). */
    ASSERT(addrdec_parse(&d, GTX480_MAP, 1, 4, 16, err, sizeof err));
    expect_loc(&d, 0x2100, 0, 3, 3, 0, 0);
}

TEST(addrdec_separators_and_case)
{
    AddrDecoder a, b;
    char err[256];
    ASSERT(addrdec_parse(&a, GTX480_MAP, 6, 2, 16, err, sizeof err));
    /* No separators at all, then spaces and bars, then lower case: the same masks. */
    ASSERT(addrdec_parse(&b, "dramid@8;00000000000000000000000000000000" "0000RRRRRRRRRRRRBBBCCCCBCCSSSSSS", 6, 2,
                         16, err, sizeof err));
    EXPECT_EQ_U(a.row_mask, b.row_mask);
    EXPECT_EQ_U(a.bank_mask, b.bank_mask);
    EXPECT_EQ_U(a.col_mask, b.col_mask);
    ASSERT(addrdec_parse(&b, "dramid@8;00000000 00000000 00000000 00000000|0000RRRR|RRRRRRRR|BBBCCCCB|CCSSSSSS", 6,
                         2, 16, err, sizeof err));
    EXPECT_EQ_U(a.row_mask, b.row_mask);
    ASSERT(addrdec_parse(&b, "dramid@8;00000000.00000000.00000000.00000000.0000rrrr.rrrrrrrr.bbbccccb.ccssssss", 6,
                         2, 16, err, sizeof err));
    EXPECT_EQ_U(a.bank_mask, b.bank_mask);
    EXPECT_EQ_U(a.burst_mask, b.burst_mask);
}

TEST(addrdec_malformed)
{
    AddrDecoder d;
    char err[256];
    /* 63 mask bits */
    EXPECT(!addrdec_parse(&d, "dramid@8;0000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2,
                          16, err, sizeof err));
    EXPECT_CONTAINS(err, "mem.addr_map");
    EXPECT_CONTAINS(err, "63 bits, expected 64");
    /* 65 mask bits */
    EXPECT(!addrdec_parse(&d, "dramid@8;000000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "longer than 64");
    /* a bad letter */
    EXPECT(!addrdec_parse(&d, "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCXCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "mem.addr_map: unexpected character 'X'");
    /* bad dramid@ forms */
    EXPECT(!addrdec_parse(&d, "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, err,
                          sizeof err));
    EXPECT_CONTAINS(err, "mem.addr_map: expected 'dramid@<bit>;'");
    EXPECT(!addrdec_parse(&d, "dramid@x;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "bit number after 'dramid@'");
    EXPECT(!addrdec_parse(&d, "dramid@70;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "0..63");
    EXPECT(!addrdec_parse(&d, "dramid@8:00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "expected ';' after 'dramid@8'");
    /* four bank bits but only 8 banks */
    EXPECT(!addrdec_parse(&d, GTX480_MAP, 6, 2, 8, err, sizeof err));
    EXPECT_CONTAINS(err, "4 bank bits");
    EXPECT_CONTAINS(err, "dram.n_banks is 8");
    /* three sub-partitions */
    EXPECT(!addrdec_parse(&d, GTX480_MAP, 6, 3, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "mem.subpartitions: expected a power of two");
    /* no bank bit to pick the sub-partition from */
    EXPECT(!addrdec_parse(&d, "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.000CCCC0.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "cannot select");
    /* 32 row bits: one more than the DRAM model can name */
    EXPECT(!addrdec_parse(&d, "dramid@8;0000RRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRR0000.00000000.BBBCCCCB.CCSSSSSS", 6,
                          2, 16, err, sizeof err));
    EXPECT_CONTAINS(err, "at most 31 row bits");
}

TEST(addrdec_default_config)
{
    Config c;
    config_init(&c);
    AddrDecoder d;
    addrdec_init(&d, &c);
    EXPECT_EQ_U(d.n_partitions, c.mem.n_partitions);
    EXPECT_EQ_U(d.subpartitions, c.mem.subpartitions);
    /* Every decoded bank and slice is in range over a sweep of lines. */
    for (uint64_t a = 0; a < (1u << 22); a += 128) {
        AddrLoc l;
        addrdec_decode(&d, a, &l);
        if (l.bank >= c.dram.n_banks || l.partition >= c.mem.n_partitions ||
            l.slice >= c.mem.n_partitions * c.mem.subpartitions) {
            EXPECT(0);
            break;
        }
    }
}

/* The L2's set index leaves out the bank bits that select the slice (GPGPU-Sim's partition
 * address): on the GTX480 map that is local bit 8, so the bits above it move down one. */
TEST(addrdec_slice_index_address)
{
    AddrDecoder d;
    char err[256];
    ASSERT(addrdec_parse(&d, GTX480_MAP, 6, 2, 16, err, sizeof err));
    EXPECT_EQ_U(d.sub_mask, 0x100ull);
    EXPECT_EQ_U(addrdec_drop_bits(0x1FFull, d.sub_mask), 0xFFull);
    EXPECT_EQ_U(addrdec_drop_bits(0x200ull, d.sub_mask), 0x100ull);
    EXPECT_EQ_U(addrdec_drop_bits(0x3C0ull | (1ull << 63), d.sub_mask), 0x1C0ull | (1ull << 62));
    /* two bits, and the top bit itself */
    EXPECT_EQ_U(addrdec_drop_bits(0xFull, 0x5ull), 0x3ull);
    EXPECT_EQ_U(addrdec_drop_bits(~0ull, 1ull << 63), ~0ull >> 1);
    /* four slices per partition: the two lowest bank bits, 8 and 13 */
    ASSERT(addrdec_parse(&d, GTX480_MAP, 6, 4, 16, err, sizeof err));
    EXPECT_EQ_U(d.sub_mask, 0x2100ull);
    ASSERT(addrdec_parse(&d, GTX480_MAP, 6, 1, 16, err, sizeof err));
    EXPECT_EQ_U(d.sub_mask, 0ull);
}

/* Addresses equal above same_loc_bits decode to one partition, slice, bank and row, their local
 * addresses differing in those low bits only (what the GPU's fetch routing relies on), on the
 * maps of the configs with 6 and 8 partitions, and with a bank bit below the channel bits. */
TEST(addrdec_same_loc_bits)
{
    static const char *const maps[] = {
        GTX480_MAP,
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
        "dramid@10;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
        "dramid@3;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.CCCSSSSS",
    };
    const uint32_t parts[] = {6, 8, 5};
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (unsigned mi = 0; mi < sizeof maps / sizeof *maps; mi++)
        for (unsigned pi = 0; pi < 3; pi++) {
            AddrDecoder d;
            char err[256];
            ASSERT(addrdec_parse(&d, maps[mi], parts[pi], 2, 16, err, sizeof err));
            uint64_t low = (1ull << d.same_loc_bits) - 1;
            for (int n = 0; n < 2000; n++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                uint64_t a = x >> 24, b = a ^ ((x >> 3) & low);
                AddrLoc la, lb;
                addrdec_decode(&d, a, &la);
                addrdec_decode(&d, b, &lb);
                if (la.partition != lb.partition || la.slice != lb.slice || la.bank != lb.bank || la.row != lb.row ||
                    (la.local ^ lb.local) != (a ^ b)) {
                    EXPECT(0);
                    return;
                }
            }
        }
    AddrDecoder d;
    char err[256];
    ASSERT(addrdec_parse(&d, GTX480_MAP, 6, 2, 16, err, sizeof err));
    EXPECT_EQ_U(d.same_loc_bits, 8); /* bank bit 8 and the channel at bit 8 */
    ASSERT(addrdec_parse(&d, maps[2], 6, 2, 16, err, sizeof err));
    EXPECT_EQ_U(d.same_loc_bits, 7); /* a bank bit at 7 */
    ASSERT(addrdec_parse(&d, maps[4], 6, 2, 16, err, sizeof err));
    EXPECT_EQ_U(d.same_loc_bits, 3); /* the channel at bit 3 */
}

/* addrdec_drop_bits against a bit-by-bit gather of the bits outside the mask, on random values
 * and masks of up to four bits. */
TEST(addrdec_drop_bits_random)
{
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (int n = 0; n < 20000; n++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = x, mask = 0;
        for (int k = 0; k < n % 5; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            mask |= 1ull << (x % 64);
        }
        uint64_t want = 0;
        for (unsigned i = 0, o = 0; i < 64; i++)
            if (!(mask >> i & 1))
                want |= (v >> i & 1) << o++;
        if (addrdec_drop_bits(v, mask) != want) {
            EXPECT_EQ_U(addrdec_drop_bits(v, mask), want);
            return;
        }
    }
}
