/* cuda_exec.c: what the tests of warpsim's CUDA libraries share (see tests/cuda_exec.h). */
#define _GNU_SOURCE /* dlvsym */
#include "../cuda_exec.h"

#include "../test.h"

#include "base/base.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

const char *lib_dir(void)
{
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    if (slash)
        snprintf(slash, sizeof dir - (size_t)(slash - dir), "/lib");
    else
        snprintf(dir, sizeof dir, "lib");
    return dir;
}

/* The library under test exists (make builds it with the `all` target). */
bool have_library(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/libcudart.so.13", lib_dir());
    if (access(path, R_OK) == 0)
        return true;
    char msg[1200];
    snprintf(msg, sizeof msg, "%s is missing: build it first (make BUILD=... all)", path);
    test_fail(__FILE__, __LINE__, msg);
    return false;
}

/* Under `make asan` the library is instrumented but the programs are not: they must load the
 * sanitizer runtimes first (and their own leaks are none of our business). */
const char *sanitizer_env(void)
{
    static char env[1024];
    static bool done;
    if (!done) {
        char cmd[1200], out[900];
        snprintf(cmd, sizeof cmd, "ldd %s/libcudart.so.13 2>/dev/null | awk '/lib(a|ub)san/ {printf \"%%s:\", $3}'",
                 lib_dir());
        if (test_run_cmd(cmd, out, sizeof out) == 0 && out[0])
            snprintf(env, sizeof env, "LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 ", out);
        done = true;
    }
    return env;
}

/* Run dir/prog (prog alone when dir is NULL) under warpsim exec with the simulator arguments
 * given; every import must resolve at load time (LD_BIND_NOW), with its symbol version. */
int run_prog(const char *dir, const char *prog, const char *sim_args, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%sLD_BIND_NOW=1 %s exec %s %s%s%s", sanitizer_env(), test_warpsim(), sim_args,
             dir ? dir : "", dir ? "/" : "", prog);
    return test_run_cmd(cmd, out, cap);
}

static int saved_stderr = -1;

void capture_begin(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stderr.txt", test_tmpdir());
    fflush(stderr);
    saved_stderr = dup(2);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    dup2(fd, 2);
    close(fd);
}

char *capture_end(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stderr.txt", test_tmpdir());
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    return read_file(path, NULL);
}

/* WARPSIM_ARGS set to value; returns the old value to give back to env_restore. */
char *env_set(const char *value)
{
    const char *old = getenv("WARPSIM_ARGS");
    char *keep = old ? xstrdup(old) : NULL;
    setenv("WARPSIM_ARGS", value, 1);
    return keep;
}

void env_restore(char *keep)
{
    if (keep)
        setenv("WARPSIM_ARGS", keep, 1);
    else
        unsetenv("WARPSIM_ARGS");
    free(keep);
}

void *lib_open(const char *name, const char *fn, const char *version, void **sym)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", lib_dir(), name);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    *sym = h ? (version ? dlvsym(h, fn, version) : dlsym(h, fn)) : NULL;
    return h;
}
