/* cmd_exec.c: `warpsim exec` runs a CUDA program on the simulated GPU, and `warpsim run NAME`
 * runs a suite workload's host program the same way.
 *
 *   warpsim exec [CONFIG] [--functional] [--json F] [--csv F] [--stats F] [--quiet] [--name N]
 *                PROGRAM [ARGS...]
 *
 * The program finds warpsim's libcuda.so.1 / libcudart.so.13 first on its library path; they
 * read the simulator arguments from WARPSIM_ARGS and write the stats when the program exits
 * (one block per kernel launch plus the totals; on stderr unless --quiet, and into the files
 * named). Our process becomes the program, so its exit status is the program's. */
#include "cli/cli.h"

#include "base/base.h"
#include "exp/manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The folder holding this executable (build/), where lib/ and workloads/ are built. */
static void exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        fatal("cannot find the warpsim executable (/proc/self/exe): %s", strerror(errno));
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
}

/* Collect the simulator arguments at argv[*i] into out (a WARPSIM_ARGS string); false if
 * argv[*i] is not one. Configuration arguments are checked now, so a bad one fails here. */
static bool sim_arg(Config *cfg, int argc, char **argv, int *i, char *out, size_t len)
{
    int start = *i;
    const char *a = argv[*i];
    if (cli_config_arg(cfg, argc, argv, i)) {
    } else if (!strcmp(a, "--functional") || !strcmp(a, "--quiet")) {
    } else if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--stats") || !strcmp(a, "--name")) {
        if (*i + 1 >= argc)
            fatal("%s: expected a value after it", a);
        ++*i;
    } else {
        return false;
    }
    for (int k = start; k <= *i; k++) {
        if (strpbrk(argv[k], " \t\n"))
            fatal("'%s': simulator arguments cannot contain blanks (they travel in WARPSIM_ARGS)", argv[k]);
        size_t used = strlen(out);
        if (used + strlen(argv[k]) + 2 > len)
            fatal("simulator arguments longer than %zu characters", len);
        snprintf(out + used, len - used, "%s%s", used ? " " : "", argv[k]);
    }
    return true;
}

_Noreturn static void exec_program(const char *sim_args, char **prog_argv)
{
    char dir[4096], buf[8192];
    exe_dir(dir, sizeof dir);
    const char *old = getenv("LD_LIBRARY_PATH");
    snprintf(buf, sizeof buf, "%s/lib%s%s", dir, old && *old ? ":" : "", old ? old : "");
    setenv("LD_LIBRARY_PATH", buf, 1);
    if (!getenv("WARPSIM_HOME")) {
        snprintf(buf, sizeof buf, "%s/..", dir);
        setenv("WARPSIM_HOME", buf, 1);
    }
    setenv("WARPSIM_ARGS", sim_args, 1);
    fflush(NULL);
    execvp(prog_argv[0], prog_argv);
    fatal("cannot run %s: %s", prog_argv[0], strerror(errno));
}

int cli_exec_main(int argc, char **argv)
{
    Config cfg;
    config_init(&cfg);
    char sim_args[4096] = "";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++)
        if (!sim_arg(&cfg, argc, argv, &i, sim_args, sizeof sim_args))
            fatal("exec: unknown option '%s' (see warpsim --help)", argv[i]);
    if (i >= argc)
        fatal("exec: expected a program to run (warpsim exec [OPTIONS] PROGRAM [ARGS...])");
    cli_config_finish(&cfg);
    if (!strstr(sim_args, "--name")) { /* results are named after the program */
        const char *base = strrchr(argv[i], '/');
        size_t used = strlen(sim_args);
        snprintf(sim_args + used, sizeof sim_args - used, "%s--name %s", used ? " " : "", base ? base + 1 : argv[i]);
    }
    exec_program(sim_args, argv + i);
}

/* Split a manifest argument list on blanks into argv (entries point into buf). */
static int split_args(char *buf, char **argv, int cap)
{
    int n = 0;
    for (char *t = strtok(buf, " \t"); t && n < cap; t = strtok(NULL, " \t"))
        argv[n++] = t;
    return n;
}

int cli_run_workload(int argc, char **argv, const char *name)
{
    char err[1024];
    Manifest m;
    if (!manifest_load(&m, err, sizeof err))
        fatal("%s", err);
    const ManifestEntry *e = manifest_find(&m, name);
    if (!e)
        fatal("run: '%s' is neither a .syn stream nor a workload of workloads/manifest (warpsim list shows them)",
              name);
    Config cfg;
    config_init(&cfg);
    char sim_args[4096] = "", sizebuf[256];
    const char *size = "small";
    char *extra[64];
    int n_extra = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], name) && n_extra == 0) {
            continue;
        } else if (!strcmp(argv[i], "--size")) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "small") && strcmp(argv[i + 1], "paper")))
                fatal("--size: expected small or paper");
            size = argv[++i];
        } else if (!strcmp(argv[i], "--")) {
            for (i++; i < argc && n_extra < 60; i++)
                extra[n_extra++] = argv[i];
        } else if (sim_arg(&cfg, argc, argv, &i, sim_args, sizeof sim_args)) {
            quiet |= !strcmp(argv[i], "--quiet");
        } else {
            fatal("run: unknown option '%s' (see warpsim --help)", argv[i]);
        }
    }
    cli_config_finish(&cfg);
    size_t used = strlen(sim_args);
    snprintf(sim_args + used, sizeof sim_args - used, "%s--name %s", used ? " " : "", e->name);
    char dir[4096], host[4400];
    exe_dir(dir, sizeof dir);
    snprintf(host, sizeof host, "%s/workloads/%s/%s/host", dir, e->suite, e->name);
    if (access(host, X_OK) != 0)
        fatal("run: %s: the host program of '%s' is not built (run make): %s", host, name, strerror(errno));
    snprintf(sizebuf, sizeof sizebuf, "%s", !strcmp(size, "paper") ? e->paper_args : e->small_args);
    char *prog_argv[128];
    int n = 0;
    prog_argv[n++] = host;
    n += split_args(sizebuf, prog_argv + n, 60);
    for (int k = 0; k < n_extra; k++)
        prog_argv[n++] = extra[k];
    prog_argv[n] = NULL;
    if (!quiet)
        fprintf(stderr, "warpsim: running %s (%s size)\n", name, size);
    exec_program(sim_args, prog_argv);
}

int cli_list_main(int argc, char **argv)
{
    if (argc > 1)
        fatal("list: no arguments expected");
    char err[1024];
    Manifest m;
    if (!manifest_load(&m, err, sizeof err))
        fatal("%s", err);
    printf("%-16s %-10s %-10s %-5s %-28s %s\n", "name", "suite", "class", "ciao", "papers", "small | paper");
    for (uint32_t i = 0; i < m.n; i++) {
        const ManifestEntry *e = &m.v[i];
        printf("%-16s %-10s %-10s %-5s %-28s %s | %s\n", e->name, e->suite, e->cls, e->ciao, e->papers,
               e->small_args, e->paper_args);
    }
    manifest_free(&m);
    return 0;
}
