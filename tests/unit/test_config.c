/* test_config.c: option parsing, ranges, files with include, -o overrides, the checks across
 * options and the configuration arguments, each returning its error (file, line, key) rather
 * than exiting. */
#include "../test.h"

#include "conf/config.h"
#include "conf/config_args.h"

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

/* A file of the scratch folder with the given text; its path in path. */
static void write_cfg(char *path, size_t len, const char *name, const char *text)
{
    snprintf(path, len, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

/* Write name with text and read it: it must fail with message. */
static void expect_file_error(Config *c, const char *name, const char *text, const char *message)
{
    char path[512], err[1024] = "";
    write_cfg(path, sizeof path, name, text);
    EXPECT(!config_load_file_err(c, path, err, sizeof err));
    EXPECT_CONTAINS(err, message);
}

TEST(config_readers_return_their_errors)
{
    Config c;
    config_init(&c);
    expect_file_error(&c, "badline.cfg", "# fine\nl1d.assoc = 4\nl1d.mshr_entries = lots\n",
                      "badline.cfg:3: l1d.mshr_entries: expected a non-negative integer, got 'lots'");
    EXPECT_EQ_U(c.l1d.assoc, 4); /* lines before the bad one were applied */
    expect_file_error(&c, "noeq.cfg", "l1d.assoc 4\n",
                      "noeq.cfg:1: expected 'key = value' or 'include FILE', got 'l1d.assoc 4'");
    expect_file_error(&c, "nokey.cfg", " = 4\n", "nokey.cfg:1: missing key before '='");
    expect_file_error(&c, "cycle.cfg", "include cycle.cfg\n", "cycle.cfg: includes nested more than 16 deep (a cycle?)");
    expect_file_error(&c, "badinc.cfg", "l1d.assoc = 2\ninclude missing.cfg\nl1d.assoc = 8\n",
                      "missing.cfg: cannot read config file: No such file or directory");
    EXPECT_EQ_U(c.l1d.assoc, 2); /* reading stops at the failed include */
    /* an include of something that is not a config file names the include line and why */
    expect_file_error(&c, "zero.cfg", "include /dev/zero\n",
                      "zero.cfg:1: include /dev/zero: cannot read config file: larger than the 64 MiB limit");
    expect_file_error(&c, "dir.cfg", "\ninclude /\n", "dir.cfg:2: include /: cannot read config file: Is a directory");

    char err[1024];
    EXPECT(config_apply_override_err(&c, " l1d.assoc = 16 ", err, sizeof err));
    EXPECT_EQ_U(c.l1d.assoc, 16);
    EXPECT(!config_apply_override_err(&c, "l1d.assoc", err, sizeof err));
    EXPECT_STR(err, "-o l1d.assoc: expected key=value");
    EXPECT(!config_apply_override_err(&c, "=3", err, sizeof err));
    EXPECT_STR(err, "-o =3: expected key=value");
    EXPECT(!config_apply_override_err(&c, "l1d.n_sets=many", err, sizeof err));
    EXPECT_STR(err, "-o l1d.n_sets=many: l1d.n_sets: expected a non-negative integer, got 'many'");
}

/* config_check must reject c with message. */
static void expect_check_error(const Config *c, const char *message)
{
    char err[512] = "";
    EXPECT(!config_check(c, err, sizeof err));
    EXPECT_CONTAINS(err, message);
}

TEST(config_check_names_the_key)
{
    Config c;
    char err[512];
    config_init(&c);
    EXPECT(config_check(&c, err, sizeof err));
    c.l1d.n_sets = 3;
    expect_check_error(&c, "l1d.n_sets: 3 must be a power of two");
    config_init(&c);
    c.l2.line_bytes = 64;
    expect_check_error(&c, "l2.line_bytes: 64 must equal l1d.line_bytes (128)");
    config_init(&c);
    c.sm.n_sched = c.sm.max_warps + 1;
    expect_check_error(&c, "sm.n_sched: ");
    config_init(&c);
    c.dram.n_bank_groups = 3;
    expect_check_error(&c, "dram.n_bank_groups: 3 does not divide dram.n_banks");
}

/* config_check over a table: each case applies its overrides (-o key=value) to the defaults
 * and expects the error message msg, or no error when msg is NULL. */
typedef struct CheckCase {
    const char *kv[6], *msg;
} CheckCase;

static void expect_check_cases(const CheckCase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Config c;
        config_init(&c);
        char err[512] = "";
        for (size_t k = 0; k < 6 && cases[i].kv[k]; k++)
            EXPECT(config_apply_override_err(&c, cases[i].kv[k], err, sizeof err));
        if (cases[i].msg)
            expect_check_error(&c, cases[i].msg);
        else
            EXPECT(config_check(&c, err, sizeof err));
    }
}

/* Sectored caches: sector_bytes is 0 or a power of two of at least 32 dividing a line of at
 * most 1024 bytes. */
TEST(config_check_sector_bytes)
{
    static const CheckCase cases[] = {
        {{"l1d.sector_bytes=16"}, "l1d.sector_bytes: 16 must be 0 (whole lines) or a power of two of at least 32"},
        {{"l1d.sector_bytes=48"}, "l1d.sector_bytes: 48 must be 0 (whole lines) or a power of two of at least 32"},
        {{"l2.sector_bytes=256"}, "l2.sector_bytes: 256 must divide l2.line_bytes (128)"},
        {{"l1d.line_bytes=2048", "l2.line_bytes=2048", "l2.sector_bytes=32"},
         "l2.sector_bytes: a sectored line is at most 1024 bytes (32 segments of 32 B); l2.line_bytes is 2048"},
        {{"l1d.line_bytes=2048", "l2.line_bytes=2048"}, NULL}, /* whole lines of 2 KB */
        {{"l1d.sector_bytes=64", "l2.sector_bytes=128"}, NULL}, /* one sector per line is a sector */
    };
    expect_check_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Geometries inside every option's range whose arrays would not fit in memory are configuration
 * errors naming the keys (they aborted with "out of memory" while the GPU was built). */
TEST(config_check_bounds_cache_memory)
{
    static const CheckCase cases[] = {
        { {"l1d.n_sets=1048576", "l1d.assoc=64", "l1d.line_bytes=4096", "l2.line_bytes=4096"},
          "l1d.n_sets x l1d.assoc: 1048576 x 64 = 67108864 lines, more than the 16777216 (2^24) a cache may hold" },
        { {"l2.n_sets=1048576", "l2.assoc=32"}, "l2.n_sets x l2.assoc: 1048576 x 32 = 33554432 lines" },
        /* the largest single cache passes, but not once per SM of a full machine */
        { {"l1d.n_sets=262144", "l1d.assoc=64", "gpu.n_clusters=1", "gpu.cores_per_cluster=1", "mem.n_partitions=1",
           "mem.subpartitions=1"}, NULL },
        { {"l1d.n_sets=262144", "l1d.assoc=64"},
          "the caches would take 15360 MiB of simulator memory, more than the 2048 MiB bound: 30 L1Ds "
          "(gpu.n_clusters x gpu.cores_per_cluster) of 16777216 lines (l1d.n_sets x l1d.assoc)" },
        /* the sector masks of a sectored cache count too */
        { {"l1d.n_sets=65536", "l1d.assoc=32"}, NULL },
        { {"l1d.n_sets=65536", "l1d.assoc=32", "l1d.sector_bytes=32"}, "the caches would take 2640 MiB" },
        /* MSHR merge slots count too */
        { {"gpu.n_clusters=256", "gpu.cores_per_cluster=16", "l1d.mshr_entries=4096", "l1d.mshr_max_merge=1024"},
          "and 4194304 MSHR slots (l1d.mshr_entries x l1d.mshr_max_merge)" },
    };
    expect_check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(config_apply_arg_in_order)
{
    Config c;
    config_init(&c);
    char err[1024];
    const char *argv[] = {"--preset", "gtx480", "-o", "l1d.assoc=4", "-ol1d.n_sets=64", "--json", "x.json"};
    int argc = (int)(sizeof argv / sizeof argv[0]), i = 0;
    EXPECT_EQ_I(config_apply_arg(&c, argc, argv, &i, err, sizeof err), CONFIG_ARG_APPLIED);
    EXPECT_EQ_I(i, 1); /* at the preset's name */
    i = 2;
    EXPECT_EQ_I(config_apply_arg(&c, argc, argv, &i, err, sizeof err), CONFIG_ARG_APPLIED);
    EXPECT_EQ_I(i, 3);
    i = 4;
    EXPECT_EQ_I(config_apply_arg(&c, argc, argv, &i, err, sizeof err), CONFIG_ARG_APPLIED);
    EXPECT_EQ_I(i, 4);
    EXPECT_EQ_U(c.l1d.assoc, 4);
    EXPECT_EQ_U(c.l1d.n_sets, 64);
    i = 5;
    EXPECT_EQ_I(config_apply_arg(&c, argc, argv, &i, err, sizeof err), CONFIG_ARG_NONE);
    EXPECT_EQ_I(i, 5);

    const char *bad[][2] = {
        {"--preset", "nosuch"}, {"--config", "/nonexistent/x.cfg"}, {"--gpgpusim-config", "/nonexistent/g"},
        {"-o", "l1d.bogus=1"},
    };
    const char *msg[] = {
        "--preset nosuch: no preset of that name (looked for ", "/nonexistent/x.cfg: cannot read config file",
        "/nonexistent/g: cannot read GPGPU-Sim config file", "-o l1d.bogus=1: unknown key 'l1d.bogus'",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        i = 0;
        err[0] = 0;
        EXPECT_EQ_I(config_apply_arg(&c, 2, bad[k], &i, err, sizeof err), CONFIG_ARG_ERROR);
        EXPECT_CONTAINS(err, msg[k]);
    }
    const char *last[] = {"--config"};
    i = 0;
    EXPECT_EQ_I(config_apply_arg(&c, 1, last, &i, err, sizeof err), CONFIG_ARG_ERROR);
    EXPECT_STR(err, "--config: expected a value after it");
}
