/* test_index_study.c: the concentration (FUP paper eq. 1) and balance (eq. 2) metrics against
 * hand-computed values, the histogram buckets, and the `warpsim index` command (called as
 * index_study_main with stdout and stderr captured): output format, the paper's concentrations
 * for the ATAX/SYRK/SYR2K main loops, and one-line errors for bad arguments. */
#include "../test.h"

#include "analysis/index_study.h"
#include "policy/index_metrics.h"
#include "base/base.h"
#include "policy/policy.h"

#include <stdlib.h>
#include <unistd.h>

TEST(index_metric_sets_touched_and_concentration)
{
    const uint32_t sets[] = {1, 1, 2, 3, 1, 2};
    EXPECT_EQ_U(index_metric_sets_touched(sets, 6), 3);
    EXPECT_EQ_U(index_metric_sets_touched(sets, 2), 1);
    EXPECT_EQ_U(index_metric_sets_touched(sets, 0), 0);
    EXPECT_NEAR(index_metric_concentration_of_sets(sets, 6), 2.0, 1e-12);
    EXPECT_NEAR(index_metric_concentration_of_sets(sets, 4), 4.0 / 3, 1e-12);
    EXPECT_NEAR(index_metric_concentration(32, 31), 32.0 / 31, 1e-12);
    EXPECT_NEAR(index_metric_concentration(0, 0), 0.0, 1e-12);
    uint32_t same[32] = {0};
    EXPECT_NEAR(index_metric_concentration_of_sets(same, 32), 32.0, 1e-12);
}

TEST(index_study_load_concentration_coalesces_lanes)
{
    IndexFn conv;
    index_fn_init(&conv, policy_index("conv"), 32, 128);
    /* Lanes 0 and 1 share line 0; lines 0, 1 and 32 map to sets 0, 1 and 0: 3 accesses over
     * 2 sets. */
    const uint64_t lanes[] = {0, 4, 128, 4096};
    uint32_t n_acc = 99, touched = 99;
    EXPECT_NEAR(index_study_load_concentration(&conv, lanes, 4, &n_acc, &touched), 1.5, 1e-12);
    EXPECT_EQ_U(n_acc, 3);
    EXPECT_EQ_U(touched, 2);
    /* A fully coalesced load: one access, concentration 1. */
    uint64_t coalesced[32];
    for (int i = 0; i < 32; i++)
        coalesced[i] = 0x1000 + 4 * (uint64_t)i;
    EXPECT_NEAR(index_study_load_concentration(&conv, coalesced, 32, &n_acc, NULL), 1.0, 1e-12);
    EXPECT_EQ_U(n_acc, 1);
}

TEST(index_study_balance_hand_computed)
{
    /* Eq. 2: sum b(b+1)/2 / (m/(2n) * (m + 2n - 1)). */
    const uint64_t one_set[4] = {2, 0, 0, 0}; /* 3 / (2/8 * 9) = 4/3 */
    EXPECT_NEAR(index_study_balance(one_set, 4), 4.0 / 3, 1e-12);
    const uint64_t even[4] = {1, 1, 1, 1}; /* 4 / (4/8 * 11) = 8/11 */
    EXPECT_NEAR(index_study_balance(even, 4), 8.0 / 11, 1e-12);
    const uint64_t skew[2] = {3, 1}; /* (6 + 1) / (4/4 * 7) = 1 */
    EXPECT_NEAR(index_study_balance(skew, 2), 1.0, 1e-12);
    const uint64_t none[3] = {0, 0, 0};
    EXPECT_NEAR(index_study_balance(none, 3), 1.0, 1e-12);
    /* The paper's pDisp effect: a perfectly even spread over 31 of 32 sets is 64/62 = 1.032
     * of the even spread over all 32 (for large m). */
    uint64_t b32[32], b31[32];
    for (int j = 0; j < 32; j++) {
        b32[j] = 31000;
        b31[j] = j < 31 ? 32000 : 0;
    }
    EXPECT_NEAR(index_study_balance(b31, 32) / index_study_balance(b32, 32), 32.0 / 31, 1e-4);
}

TEST(index_metric_conc_buckets)
{
    EXPECT_EQ_U(index_metric_conc_bucket(1, 1), 0);
    EXPECT_EQ_U(index_metric_conc_bucket(32, 32), 0);
    EXPECT_EQ_U(index_metric_conc_bucket(0, 0), 0);
    EXPECT_EQ_U(index_metric_conc_bucket(32, 31), 1);
    EXPECT_EQ_U(index_metric_conc_bucket(2, 1), 1);
    EXPECT_EQ_U(index_metric_conc_bucket(3, 1), 2);
    EXPECT_EQ_U(index_metric_conc_bucket(4, 1), 2);
    EXPECT_EQ_U(index_metric_conc_bucket(5, 1), 3);
    EXPECT_EQ_U(index_metric_conc_bucket(16, 1), 4);
    EXPECT_EQ_U(index_metric_conc_bucket(17, 1), 5);
    EXPECT_EQ_U(index_metric_conc_bucket(32, 1), 5);
    EXPECT_EQ_U(index_metric_conc_bucket(33, 1), 6);
    EXPECT_EQ_U(index_metric_conc_bucket(128, 1), 6);
    EXPECT_EQ_U(index_metric_conc_bucket(32, 2), 4);
    EXPECT_STR(index_metric_conc_bucket_name(0), "1");
    EXPECT_STR(index_metric_conc_bucket_name(5), "(16,32]");
    EXPECT_STR(index_metric_conc_bucket_name(6), ">32");
    EXPECT_STR(index_metric_conc_bucket_name(7), "?");
}

/* Run index_study_main on a NULL-terminated argument list, capturing stdout and stderr. */
static int study_run(const char *const *args, char *out, size_t out_cap, char *err, size_t err_cap)
{
    char *argv[32];
    int argc = 0;
    while (args[argc] && argc < 31) {
        argv[argc] = (char *)(uintptr_t)args[argc];
        argc++;
    }
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    CHECK(fo && fe);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    int rc = index_study_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    FILE *files[2] = {fo, fe};
    char *bufs[2] = {out, err};
    size_t caps[2] = {out_cap, err_cap};
    for (int i = 0; i < 2; i++) {
        rewind(files[i]);
        size_t n = fread(bufs[i], 1, caps[i] - 1, files[i]);
        bufs[i][n] = 0;
        fclose(files[i]);
    }
    return rc;
}

/* The value after "<name> concentration" (or another field) in the command's output; -1 if absent. */
static double study_field(const char *out, const char *name, const char *field)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s concentration ", name);
    const char *line = strstr(out, key);
    if (!line)
        return -1;
    const char *end = strchr(line + 1, '\n');
    char f[32];
    snprintf(f, sizeof f, " %s ", field);
    const char *at = strstr(line + 1, f);
    if (!at || (end && at > end))
        return -1;
    return strtod(at + strlen(f), NULL);
}

TEST(index_study_command_format)
{
    static char out[8192], err[1024];
    const char *args[] = {"index", "--stride", "4096", NULL};
    EXPECT_EQ_I(study_run(args, out, sizeof out, err, sizeof err), 0);
    EXPECT(err[0] == 0);
    /* One line per registered function, each "<name> concentration <x> balance <y> ...". */
    uint32_t lines = 0;
    for (const char *p = out; (p = strstr(p, " concentration ")) != NULL; p++)
        lines++;
    EXPECT_EQ_U(lines, policy_count(POLICY_INDEX));
    for (uint32_t i = 0; i < policy_count(POLICY_INDEX); i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s concentration ", policy_name_at(POLICY_INDEX, i));
        EXPECT_CONTAINS(out, line);
    }
    EXPECT_CONTAINS(out, "\nconv concentration 32.0000 balance ");
    EXPECT_CONTAINS(out, "\nfup concentration 1.0000 balance ");
    EXPECT_CONTAINS(out, "\npdisp concentration 1.0323 balance ");
    /* One load of 32 lines: all in one set (conv) or one per set (fup). */
    EXPECT_NEAR(study_field(out, "conv", "balance"), (32.0 * 33 / 2) / (32.0 / 64 * 95), 1e-4);
    EXPECT_NEAR(study_field(out, "fup", "balance"), 32.0 / (32.0 / 64 * 95), 1e-4);
    EXPECT_NEAR(study_field(out, "conv", "sets"), 1.0, 1e-9);
    EXPECT_NEAR(study_field(out, "conv", "over_assoc"), 1.0, 1e-9);
    EXPECT_NEAR(study_field(out, "fup", "over_assoc"), 0.0, 1e-9);
}

TEST(index_study_command_patterns)
{
    static char out[8192], err[1024];
    /* ATAX (and BICG, MVT, GESUMMV): CONV puts every load in one set (32), pDisp 32/31, FUP 1. */
    const char *atax[] = {"index", "--pattern", "atax", NULL};
    EXPECT_EQ_I(study_run(atax, out, sizeof out, err, sizeof err), 0);
    EXPECT_NEAR(study_field(out, "conv", "concentration"), 32.0, 1e-4);
    EXPECT_NEAR(study_field(out, "pdisp", "concentration"), 32.0 / 31, 1e-4);
    EXPECT_NEAR(study_field(out, "fup", "concentration"), 1.0, 1e-9);
    EXPECT_NEAR(study_field(out, "bxor", "concentration"), 8.0, 1e-9);
    EXPECT_NEAR(study_field(out, "pdisp", "balance"), 1.032, 5e-4); /* 31 of 32 sets used */
    const char *ges[] = {"index", "--pattern", "gesummv", NULL};
    EXPECT_EQ_I(study_run(ges, out, sizeof out, err, sizeof err), 0);
    EXPECT_NEAR(study_field(out, "conv", "concentration"), 32.0, 1e-9);
    EXPECT_NEAR(study_field(out, "fup", "concentration"), 1.0, 1e-9);
    /* SYRK: CONV maps a warp load into 2 sets (concentration 16); BXOR and FUP are ideal. */
    const char *syrk[] = {"index", "--pattern", "syrk", NULL};
    EXPECT_EQ_I(study_run(syrk, out, sizeof out, err, sizeof err), 0);
    EXPECT_NEAR(study_field(out, "conv", "sets"), 2.0, 1e-9);
    EXPECT_NEAR(study_field(out, "conv", "concentration"), 16.0, 1e-9);
    EXPECT_NEAR(study_field(out, "bxor", "concentration"), 1.0, 1e-9);
    EXPECT_NEAR(study_field(out, "fup", "concentration"), 1.0, 1e-9);
    EXPECT(study_field(out, "pdisp", "concentration") > 32.0 / 31 + 0.05);
    /* SYR2K: 4 sets (concentration 8). */
    const char *syr2k[] = {"index", "--pattern", "syr2k", NULL};
    EXPECT_EQ_I(study_run(syr2k, out, sizeof out, err, sizeof err), 0);
    EXPECT_NEAR(study_field(out, "conv", "sets"), 4.0, 1e-9);
    EXPECT_NEAR(study_field(out, "conv", "concentration"), 8.0, 1e-9);
    EXPECT_NEAR(study_field(out, "fup", "concentration"), 1.0, 1e-9);
    /* Other geometries are accepted and still map FUP's strided loads to distinct sets. */
    const char *g64[] = {"index", "--stride", "32K", "--sets", "64", "--line", "64", "--warps", "4",
                         "--iterations", "8", NULL};
    EXPECT_EQ_I(study_run(g64, out, sizeof out, err, sizeof err), 0);
    EXPECT_NEAR(study_field(out, "fup", "concentration"), 1.0, 1e-9);
    EXPECT_CONTAINS(out, "64 sets x 8 ways, 64 B lines, 32 lanes, 4 warps x 8 iterations");
}

TEST(index_study_command_errors)
{
    static char out[4096], err[1024];
    static const char *const cases[][8] = {
        {"index", NULL},
        {"index", "--stride", "abc", NULL},
        {"index", "--stride", "0", NULL},
        {"index", "--stride", "4096", "--sets", "33", NULL},
        {"index", "--stride", "4096", "--line", "96", NULL},
        {"index", "--stride", "4096", "--lanes", "1000", NULL},
        {"index", "--stride", "4096", "--pattern", "atax", NULL},
        {"index", "--pattern", "gemm", NULL},
        {"index", "--stride", NULL},
        {"index", "--frobnicate", "1", NULL},
        {"index", "stray", NULL},
        {"index", "--stride", "4096", "--warps", "1024", "--iterations", "1025", NULL},
        {"index", "--pattern", "syrk", "--iterations", "513", NULL},
    };
    static const char *const expect[] = {
        "give exactly one of --stride", "--stride: expected an integer", "--stride: expected an integer",
        "--sets: expected a power of two", "--line: expected a power of two", "--lanes: expected",
        "give exactly one of", "unknown pattern 'gemm'", "--stride needs a value", "unknown option '--frobnicate'",
        "unexpected argument 'stray'", "must be at most", "the syrk loop has 512 iterations, got 513",
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        EXPECT_EQ_I(study_run(cases[i], out, sizeof out, err, sizeof err), 1);
        EXPECT_CONTAINS(err, expect[i]);
        EXPECT_CONTAINS(err, "warpsim index: ");
        /* One line, nothing on stdout. */
        EXPECT(strchr(err, '\n') == err + strlen(err) - 1);
        EXPECT(out[0] == 0);
    }
    const char *help[] = {"index", "--help", NULL};
    EXPECT_EQ_I(study_run(help, out, sizeof out, err, sizeof err), 0);
    EXPECT_CONTAINS(out, "usage: warpsim index");
}
