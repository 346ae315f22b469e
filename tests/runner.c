/* runner.c: runs every TEST() of tests/unit, or those whose names contain an argument.
 * Prints one line per failure and ends with "N passed, N failed"; exit status 1 on failure. */
#include "test.h"

#include "base/base.h"
#include "exp/json.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define X(name) void test_##name(void);
#include "test_list.h"
#undef X

static const struct { const char *name; void (*fn)(void); } tests[] = {
#define X(name) { #name, test_##name },
#include "test_list.h"
#undef X
};

static int current_failures;
static const char *current_name;
static char tmpdir[256];

void test_fail(const char *file, int line, const char *msg)
{
    current_failures++;
    printf("FAIL %s: %s:%d: %s\n", current_name, file, line, msg);
    fflush(stdout);
}

int test_failures_in_current(void) { return current_failures; }

int test_run_cmd(const char *cmd, char *out, size_t cap)
{
    char full[4096];
    snprintf(full, sizeof full, "(%s) 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) {
        if (cap)
            out[0] = 0;
        return -1;
    }
    size_t len = 0;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
        for (size_t i = 0; i < got && cap && len + 1 < cap; i++)
            out[len++] = buf[i];
    }
    if (cap)
        out[len] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

const char *test_warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w && *w ? w : "build/warpsim";
}

const char *test_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/warpsim-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    return tmpdir;
}

bool test_tmp_file(const char *name, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

JsonValue *test_run_json(const char *args)
{
    char path[600], cmd[2400], out[4096], err[256];
    snprintf(path, sizeof path, "%s/r.json", test_tmpdir());
    snprintf(cmd, sizeof cmd, "%s run --quiet %s --json %s 2>&1", test_warpsim(), args, path);
    if (test_run_cmd(cmd, out, sizeof out) != 0) {
        printf("%s\n", out);
        return NULL;
    }
    char *text = read_file(path, NULL);
    JsonValue *j = text ? json_parse(text, err, sizeof err) : NULL;
    free(text);
    return j;
}

void test_run_stats(const char *args, const char *tag, char *buf, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s run --quiet --json %s/%s.json %s >/dev/null 2>&1 && sed -n '/^  \"kernels\"/,$p' %s/%s.json",
             test_warpsim(), test_tmpdir(), tag, args, test_tmpdir(), tag);
    ASSERT(test_run_cmd(cmd, buf, cap) == 0);
}

double test_total(const JsonValue *j, const char *name) { return json_number(json_get(json_get(j, "total"), name), -1); }

static void remove_tmpdir(void)
{
    if (tmpdir[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
}

int main(int argc, char **argv)
{
    atexit(remove_tmpdir);
    /* what the programs under test leave in the temporary folder goes with the tests' own */
    setenv("TMPDIR", test_tmpdir(), 1);
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1) {
            int match = 0;
            for (int a = 1; a < argc; a++)
                match |= strstr(tests[i].name, argv[a]) != NULL;
            if (!match)
                continue;
        }
        current_name = tests[i].name;
        current_failures = 0;
        tests[i].fn();
        if (current_failures)
            failed++;
        else
            passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
