/* test_config.c: option parsing, ranges, files with include, -o overrides, CLI errors. */
#include "../test.h"

#include "conf/config.h"

#include <stdlib.h>

TEST(config_defaults)
{
    Config c;
    config_init(&c);
    EXPECT_EQ_U(c.l1d.n_sets, 32);
    EXPECT_EQ_U(c.l1d.assoc, 8);
    EXPECT_EQ_U(c.l2.assoc, 16);
    EXPECT_EQ_U(c.l2.write, CACHE_WRITE_BACK);
    EXPECT_STR(c.sm.sched, "gto");
    EXPECT_STR(c.l1d.index, "conv");
    EXPECT_NEAR(c.gpu.dram_mhz, 924.0, 1e-9);
}

TEST(config_set_values_and_errors)
{
    Config c;
    config_init(&c);
    char err[256];
    EXPECT(config_set(&c, "l1d.n_sets", "64", err, sizeof err));
    EXPECT_EQ_U(c.l1d.n_sets, 64);
    EXPECT(config_set(&c, "l1d.alloc", "fill", err, sizeof err));
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_FILL);
    EXPECT(!config_set(&c, "l1d.nope", "1", err, sizeof err));
    EXPECT_CONTAINS(err, "unknown key 'l1d.nope'");
    EXPECT(!config_set(&c, "l1d.assoc", "abc", err, sizeof err));
    EXPECT_CONTAINS(err, "l1d.assoc: expected a non-negative integer");
    EXPECT(!config_set(&c, "l1d.assoc", "1000", err, sizeof err));
    EXPECT_CONTAINS(err, "l1d.assoc: 1000 is out of range");
    EXPECT(!config_set(&c, "l1d.alloc", "sometimes", err, sizeof err));
    EXPECT_CONTAINS(err, "expected one of miss|fill");
    EXPECT(!config_set(&c, "gpu.core_mhz", "-3", err, sizeof err));
    EXPECT_EQ_U(c.l1d.assoc, 8); /* failed sets leave the value alone */
}

TEST(config_file_with_include)
{
    char path[512], inc[512], cmd[1200];
    snprintf(inc, sizeof inc, "%s/base.cfg", test_tmpdir());
    snprintf(path, sizeof path, "%s/top.cfg", test_tmpdir());
    FILE *f = fopen(inc, "w");
    ASSERT(f);
    fputs("# base\nl1d.assoc = 4\nsm.sched = lrr  # trailing comment\n", f);
    fclose(f);
    f = fopen(path, "w");
    ASSERT(f);
    fputs("include base.cfg\n\nl1d.assoc = 16\n", f);
    fclose(f);
    Config c;
    config_init(&c);
    config_load_file(&c, path);
    EXPECT_EQ_U(c.l1d.assoc, 16);
    EXPECT_STR(c.sm.sched, "lrr");
    (void)cmd;
}
