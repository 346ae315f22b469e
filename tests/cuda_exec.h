/* cuda_exec.h: what the tests of warpsim's CUDA libraries share (tests/unit/test_cudart.c,
 * test_hostile.c): running a CUDA program under `warpsim exec` with the built libraries, and
 * catching stderr and setting WARPSIM_ARGS around in-process calls. */
#ifndef WARPSIM_CUDA_EXEC_H
#define WARPSIM_CUDA_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/* <build>/lib, beside the warpsim binary under test. */
const char *lib_dir(void);
/* The library under test exists (make builds it with the `all` target); a failure if not. */
bool have_library(void);
/* Under `make asan` the library is instrumented but the programs are not: the environment
 * assignments that make them load the sanitizer runtimes first ("" otherwise). */
const char *sanitizer_env(void);
/* Run dir/prog (prog alone when dir is NULL) under warpsim exec with the simulator arguments
 * given, capturing stdout and stderr; every import must resolve at load time (LD_BIND_NOW),
 * with its symbol version. The exit status. */
int run_prog(const char *dir, const char *prog, const char *sim_args, char *out, size_t cap);
/* A fresh copy of a built library (its own simulator state, whatever this process has run) and
 * one of its functions (of that symbol version, when version is not NULL); NULL if either is
 * missing. dlclose it. */
void *lib_open(const char *name, const char *fn, const char *version, void **sym);

/* stderr into a file while a call runs, to check its message: capture_end gives it (free it). */
void capture_begin(void);
char *capture_end(void);

/* WARPSIM_ARGS set to value; returns the old value to give back to env_restore. */
char *env_set(const char *value);
void env_restore(char *keep);

#endif
