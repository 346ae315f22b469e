/* cmd_exec.c: `warpsim exec` runs a CUDA program on the simulated GPU, and `warpsim run NAME`
 * runs a suite workload's host program the same way.
 *
 *   warpsim exec [CONFIG] [--functional] [--json F] [--csv F] [--stats F] [--quiet] [--name N]
 *                PROGRAM [ARGS...]
 *
 * The program finds warpsim's libcuda.so.1 / libcudart.so.13 first on its library path; they
 * read the simulator arguments from WARPSIM_ARGS and write the stats when the program exits
 * (one block per kernel launch plus the totals; on stderr unless --quiet, and into the files
 * named); lib/libwarpsim-nvrtc.so is preloaded, so that NVRTC programs load PTX. The program
 * runs as our child: SIGTERM and SIGINT are passed on to it, and it tells us how the simulation
 * ended through the pipe $WARPSIM_STATUS_FD (sim.c). Exit status: the
 * program's, except that a simulation that did not complete gives that of `warpsim run`
 * (3 deadlock, 4 a run limit, 5 kernel fault: cli_exit_status; a program that was given a
 * fault's error by a later call and exits 0 has handled it, and gives 0) and result files
 * that could not be written give 1; a program killed by a signal ends us with the same signal. */
#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include "cli/cli.h"

#include "base/base.h"
#include "exp/manifest.h"
#include "stats/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/personality.h>
#include <sys/prctl.h>
#endif
#ifdef __SANITIZE_ADDRESS__
#include <link.h>
#endif

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
    } else if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--stats") || !strcmp(a, "--name") ||
               !strcmp(a, "--trace-out")) {
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

/* The program's pid while it runs, for the handler that passes signals on. */
static volatile sig_atomic_t exec_child;

static void pass_signal(int sig)
{
    if (exec_child > 0)
        kill((pid_t)exec_child, sig);
}

/* How the simulation ended, from the lines "ok|error STATUS" the program's simulators wrote:
 * the first status that is not complete (else complete); *written false if one said error. */
static void read_status(int fd, char *status, size_t len, bool *written, bool *returned)
{
    char buf[4096];
    size_t n = 0;
    ssize_t got;
    while (n + 1 < sizeof buf && (got = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = 0;
    snprintf(status, len, "%s", STATS_STATUS_COMPLETE);
    *written = true;
    *returned = false;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        *returned |= !strcmp(line, "returned");
        char *sp = strchr(line, ' ');
        if (!sp)
            continue;
        *written &= strncmp(line, "error ", 6) != 0;
        if (!strcmp(status, STATS_STATUS_COMPLETE))
            snprintf(status, len, "%s", sp + 1);
    }
}

#ifdef __SANITIZE_ADDRESS__
/* A sanitizer build (make asan): our libcuda and libcudart are instrumented, a program built by
 * nvcc is not, so the sanitizer runtimes must be loaded first in it. They are this process's own
 * (libasan, libubsan), put in front of LD_PRELOAD. */
#define SANITIZER_LIST_LEN 4096

static int add_sanitizer(struct dl_phdr_info *info, size_t size, void *data)
{
    char *list = data;
    const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
    if (base && (!strncmp(base, "/libasan.", 9) || !strncmp(base, "/libubsan.", 10) ||
                 !strncmp(base, "/libclang_rt.asan", 17) || !strncmp(base, "/libclang_rt.ubsan", 18))) {
        size_t used = strlen(list);
        snprintf(list + used, SANITIZER_LIST_LEN - used, "%s%s", used ? ":" : "", name);
    }
    return 0;
}

static void preload_sanitizers(void)
{
    char list[SANITIZER_LIST_LEN] = "", buf[2 * SANITIZER_LIST_LEN];
    dl_iterate_phdr(add_sanitizer, list);
    const char *old = getenv("LD_PRELOAD");
    if (!list[0] || (old && strstr(old, list)))
        return;
    snprintf(buf, sizeof buf, "%s%s%s", list, old && *old ? ":" : "", old ? old : "");
    setenv("LD_PRELOAD", buf, 1);
}
#else
static void preload_sanitizers(void) {}
#endif

/* NVRTC programs ask NVRTC for a cubin, which warpsim cannot run: lib/libwarpsim-nvrtc.so makes
 * them get PTX (src/api/nvrtc_ptx.c). Appended to LD_PRELOAD, after the sanitizer runtimes that
 * must come first; a program that does not use NVRTC never calls it. */
static void preload_nvrtc(const char *dir)
{
    char lib[4200], buf[16384];
    snprintf(lib, sizeof lib, "%s/lib/libwarpsim-nvrtc.so", dir);
    const char *old = getenv("LD_PRELOAD");
    if (access(lib, R_OK) != 0 || strpbrk(lib, ": \t") || (old && strstr(old, lib)))
        return; /* not built, a path LD_PRELOAD cannot hold, or there already */
    snprintf(buf, sizeof buf, "%s%s%s", old ? old : "", old && *old ? ":" : "", lib);
    setenv("LD_PRELOAD", buf, 1);
}

static int run_program(const char *sim_args, char **prog_argv)
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
    preload_sanitizers();
    preload_nvrtc(dir);
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        fatal("cannot create a pipe: %s", strerror(errno));
    fcntl(pipe_fd[0], F_SETFD, FD_CLOEXEC);
    snprintf(buf, sizeof buf, "%d", pipe_fd[1]);
    setenv("WARPSIM_STATUS_FD", buf, 1);

    struct sigaction sa, old_term, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGINT, &sa, &old_int);
    sigset_t both, old_mask; /* held until exec_child is known, so that none is lost */
    sigemptyset(&both);
    sigaddset(&both, SIGTERM);
    sigaddset(&both, SIGINT);
    sigprocmask(SIG_BLOCK, &both, &old_mask);
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0)
        fatal("cannot start %s: %s", prog_argv[0], strerror(errno));
    if (pid == 0) {
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGINT, &old_int, NULL);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* warpsim killed outright: the program still ends */
        if (getppid() != parent)
            _exit(128 + SIGTERM);
        /* The program's host addresses the same at every run: managed and pinned memory keep
         * them on the simulated device, where they choose the L2 slice and DRAM bank of each
         * access, so address-space randomisation made the timing model's results vary from
         * run to run. Where the system refuses (some sandboxes do), the program runs as it would. */
        int persona = personality(0xffffffffUL);
        if (persona != -1)
            personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
#endif
        execvp(prog_argv[0], prog_argv);
        fprintf(stderr, "warpsim: cannot run %s: %s\n", prog_argv[0], strerror(errno));
        _exit(127);
    }
    exec_child = pid;
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    close(pipe_fd[1]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            fatal("waiting for %s: %s", prog_argv[0], strerror(errno));
    exec_child = 0;
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGINT, &old_int, NULL);
    /* Whatever the program left running holds the pipe open too: read without waiting. */
    fcntl(pipe_fd[0], F_SETFL, O_NONBLOCK);
    char status[1200];
    bool written, returned;
    read_status(pipe_fd[0], status, sizeof status, &written, &returned);
    close(pipe_fd[0]);
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (sig == SIGTERM || sig == SIGINT || sig == SIGKILL) {
            fflush(NULL);
            signal(sig, SIG_DFL);
            raise(sig);
        }
        return 128 + sig;
    }
    int code = WEXITSTATUS(st);
    /* A fault the program was told of (a later call returned its error) and then ended well
     * after was the program's to handle, as on a GPU: simpleAssert expects cudaErrorAssert and
     * exits 0. One it never heard of, or that it failed on, ends us with 5. */
    bool handled = returned && code == 0 && !strncmp(status, STATS_STATUS_FAULT, strlen(STATS_STATUS_FAULT));
    if (strcmp(status, STATS_STATUS_COMPLETE) && !handled)
        return cli_exit_status(status);
    return code == 0 && !written ? 1 : code;
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
    return run_program(sim_args, argv + i);
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
    manifest_free(&m); /* e is not used past here */
    char *prog_argv[128];
    int n = 0;
    prog_argv[n++] = host;
    n += split_args(sizebuf, prog_argv + n, 60);
    for (int k = 0; k < n_extra; k++)
        prog_argv[n++] = extra[k];
    prog_argv[n] = NULL;
    if (!quiet)
        fprintf(stderr, "warpsim: running %s (%s size)\n", name, size);
    return run_program(sim_args, prog_argv);
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
