/* test.h: the tiny unit-test framework.
 *
 * A test is `TEST(name) { ... }` at the start of a line in tests/unit/test_<module>.c; the
 * Makefile collects the names into the runner's table. EXPECT_* record a failure and go on;
 * ASSERT_* record it and return from the test. */
#ifndef WARPSIM_TEST_H
#define WARPSIM_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void test_fail(const char *file, int line, const char *msg);
int test_failures_in_current(void);

#define TEST(name) void test_##name(void); void test_##name(void)

#define EXPECT(c) ((c) ? (void)0 : test_fail(__FILE__, __LINE__, #c))
#define ASSERT(c) do { if (!(c)) { test_fail(__FILE__, __LINE__, #c); return; } } while (0)

#define EXPECT_EQ_U(a, b) do { unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
    if (a_ != b_) { char m_[256]; snprintf(m_, sizeof m_, "%s == %s (%llu != %llu)", #a, #b, a_, b_); \
    test_fail(__FILE__, __LINE__, m_); } } while (0)
#define EXPECT_EQ_I(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) { char m_[256]; snprintf(m_, sizeof m_, "%s == %s (%lld != %lld)", #a, #b, a_, b_); \
    test_fail(__FILE__, __LINE__, m_); } } while (0)
#define EXPECT_NEAR(a, b, eps) do { double a_ = (double)(a), b_ = (double)(b); \
    if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps))) { char m_[256]; \
    snprintf(m_, sizeof m_, "%s ~= %s (%.9g vs %.9g)", #a, #b, a_, b_); test_fail(__FILE__, __LINE__, m_); } } while (0)
#define EXPECT_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_)) { char m_[512]; snprintf(m_, sizeof m_, "%s == %s (\"%s\" vs \"%s\")", \
    #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); test_fail(__FILE__, __LINE__, m_); } } while (0)
#define EXPECT_CONTAINS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
    if (!h_ || !strstr(h_, n_)) { char m_[768]; snprintf(m_, sizeof m_, "%s contains \"%s\" (got \"%.400s\")", \
    #hay, n_, h_ ? h_ : "(null)"); test_fail(__FILE__, __LINE__, m_); } } while (0)

/* Run a shell command, capture stdout+stderr (up to cap bytes) and return its exit status. */
int test_run_cmd(const char *cmd, char *out, size_t cap);
/* The warpsim binary under test ($WARPSIM, default build/warpsim). */
const char *test_warpsim(void);
/* A fresh scratch directory for this test (removed at exit). */
const char *test_tmpdir(void);
/* Write text to file `name` in it; its path into path (cap bytes). False if it could not. */
bool test_tmp_file(const char *name, const char *text, char *path, size_t cap);

struct JsonValue;
/* `warpsim run --quiet ARGS --json FILE` (ARGS: options and the workload): the result file,
 * parsed (free with json_free); NULL, with the run's output printed, when the run fails. */
struct JsonValue *test_run_json(const char *args);
/* `warpsim run --quiet ARGS`'s result file from its kernels on (what precedes holds the
 * configuration, the wall time and the memory) into buf; tag names the file. Asserts the run
 * succeeds. */
void test_run_stats(const char *args, const char *tag, char *buf, size_t cap);
/* A total of a result file ("total" object), -1 when it has none. */
double test_total(const struct JsonValue *j, const char *name);

#endif
