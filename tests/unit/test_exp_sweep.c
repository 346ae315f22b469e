/* test_exp_sweep.c: `warpsim sweep` with a fake runner (a shell script taking the arguments of
 * `warpsim run` and writing a small result): all runs done, failures reported without stopping
 * the others, resume after a kill (same final results, no finished run done twice), reruns of
 * exactly the edited variant, per-run timeouts, single items and the cluster scripts. */
#include "../test.h"

#include "base/base.h"
#include "exp/lock.h"
#include "exp/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Writes {"total": {"sim.ipc": <checksum of the run's options and workload>}} to the --json
 * file; logs each invocation ("<json file name>") to $FAKE_COUNT and its pid to
 * $FAKE_COUNT.<run>.pid; hangs on workloads named *hang* until $FAKE_RELEASE exists (*stubborn*
 * the same, ignoring SIGTERM); fails on *bad*; says "stopped: max_cycles" on *stop*. */
static const char *fake_runner =
    "#!/bin/sh\n"
    "out=''; prev=''; wl=''; key=''\n"
    "for a in \"$@\"; do\n"
    "  if [ \"$prev\" = --json ]; then out=$a; else [ \"$a\" = --json ] || key=\"$key $a\"; fi\n"
    "  prev=$a; wl=$a\n"
    "done\n"
    "case $wl in *stubborn*) trap '' TERM;; esac\n" /* before the test can see it started */
    "echo $$ > \"$FAKE_COUNT.$(basename \"$out\" .json).pid\"\n"
    "echo \"$(basename \"$out\")\" >> \"$FAKE_COUNT\"\n"
    "case $wl in *hang*|*stubborn*) while [ ! -f \"$FAKE_RELEASE\" ]; do sleep 0.05; done;; esac\n"
    "case $wl in *bad*) echo 'loading the workload' >&2; echo \"error: $wl: bad workload\" >&2; exit 1;; esac\n"
    "status=complete; case $wl in *stop*) status='stopped: max_cycles';; esac\n"
    "v=$(echo \"$key\" | cksum | cut -d' ' -f1)\n"
    "printf '{\"workload\": \"%s\", \"status\": \"%s\", \"wall_seconds\": 0.01, \"config\": {}, \"kernels\": [], "
    "\"total\": {\"sim.ipc\": %s}}\\n' \"$wl\" \"$status\" \"$v\" > \"$out\"\n";

typedef struct Env {
    char dir[512], runner[600], count[600], release[600], spec[600];
} Env;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void env_setup(Env *e, const char *name, const char *spec_text)
{
    snprintf(e->dir, sizeof e->dir, "%s/%s", test_tmpdir(), name);
    char cmd[1200], out[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", e->dir);
    test_run_cmd(cmd, out, sizeof out);
    snprintf(e->runner, sizeof e->runner, "%s/fake-run.sh", e->dir);
    snprintf(e->count, sizeof e->count, "%s/count", e->dir);
    snprintf(e->release, sizeof e->release, "%s/release", e->dir);
    snprintf(e->spec, sizeof e->spec, "%s/exp.spec", e->dir);
    write_text(e->runner, fake_runner);
    chmod(e->runner, 0755);
    write_text(e->spec, spec_text);
    setenv("WARPSIM_SWEEP_RUNNER", e->runner, 1);
    setenv("FAKE_COUNT", e->count, 1);
    setenv("FAKE_RELEASE", e->release, 1);
}

static int call(int (*fn)(int, char **), const char *args)
{
    char buf[2048], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", args);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    return fn(argc, argv);
}

/* The same with stderr into the file `err` (truncated first). */
static int call_stderr_to(int (*fn)(int, char **), const char *args, const char *err)
{
    fflush(stderr);
    int saved = dup(2), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    dup2(fd, 2);
    int status = call(fn, args);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    return status;
}

/* The same with stderr discarded (runs that fail on purpose print "FAILED" lines). */
static int call_quiet(int (*fn)(int, char **), const char *args)
{
    return call_stderr_to(fn, args, "/dev/null");
}

/* Invocations of the run whose result file is `name` (e.g. "w1__a.json"). */
static int invocations(const Env *e, const char *name)
{
    char *text = read_file(e->count, NULL);
    int n = 0;
    size_t len = strlen(name);
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        n += l == len && !strncmp(p, name, len);
        p += l + (nl != NULL);
    }
    free(text);
    return n;
}

static int total_invocations(const Env *e)
{
    char *text = read_file(e->count, NULL);
    int n = 0;
    for (const char *p = text; p && *p; p++)
        n += *p == '\n';
    free(text);
    return n;
}

static char *result(const char *results, const char *run)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/runs/%s.json", results, run);
    return read_file(path, NULL);
}

/* The pid of the last process of run `run` (e.g. "hang__a"), from the fake runner; 0 if none. */
static long run_pid(const Env *e, const char *run)
{
    char path[700];
    snprintf(path, sizeof path, "%s.%s.pid", e->count, run);
    char *text = read_file(path, NULL);
    long pid = text ? atol(text) : 0;
    free(text);
    return pid;
}

/* Whether process pid has ended (a zombie has). */
static bool process_gone(long pid)
{
    char state;
    long pgid;
    uint64_t start;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return true;
    return exp_proc_stat(pid, &state, &pgid, &start) && state == 'Z';
}

/* Whether no live process is left in process group pgid (zombies are not alive). */
static bool group_gone(long pgid)
{
    DIR *d = opendir("/proc");
    bool gone = true;
    for (struct dirent *de; d && gone && (de = readdir(d));) {
        char state;
        long group;
        uint64_t start;
        if (atol(de->d_name) > 0 && exp_proc_stat(atol(de->d_name), &state, &group, &start) && group == pgid &&
            state != 'Z')
            gone = false;
    }
    if (d)
        closedir(d);
    return gone;
}

/* Wait up to 10 s for process pid to end. */
static bool wait_gone(long pid)
{
    if (pid <= 0)
        return false;
    for (double t0 = wall_seconds(); wall_seconds() - t0 < 10;) {
        if (process_gone(pid))
            return true;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return false;
}

/* Wait until run `name` ("hang__a.json") has been started n times; false if it was not within
 * a minute (a sweep starting on a loaded machine, whose files are fsynced, may take seconds). */
static bool wait_invocations(const Env *e, const char *name, int n)
{
    for (double t0 = wall_seconds(); invocations(e, name) < n;) {
        if (wall_seconds() - t0 > 60)
            return false;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return true;
}

/* A sweep in a child process; its pid. */
static pid_t sweep_in_child(const char *args)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        _exit(call(sweep_main, args));
    }
    return pid;
}

/* call() with stderr captured into a file of the test's scratch folder; returns the status and
 * the text (the caller frees it). */
static int call_captured(const Env *e, const char *args, char **err)
{
    char log[700];
    snprintf(log, sizeof log, "%s/stderr", e->dir);
    int status = call_stderr_to(sweep_main, args, log);
    *err = read_file(log, NULL);
    return status;
}

static const char *spec_resume =
    "name resume\n"
    "workload w1 w1.syn\nworkload w2 w2.syn\nworkload hang hang.syn\n"
    "variant a: l1d.assoc=4\nvariant b: l1d.assoc=8\n"
    "figure ipc: metric=sim.ipc\n";

static const char *runs6[] = { "w1__a", "w1__b", "w2__a", "w2__b", "hang__a", "hang__b" };

TEST(exp_sweep_resume_after_kill)
{
    Env e;
    env_setup(&e, "resume", spec_resume);
    char res[700], args[1500];
    snprintf(res, sizeof res, "%s/res", e.dir);

    /* A sweep in its own process group, killed while the "hang" run hangs. */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        snprintf(args, sizeof args, "sweep %s -j 1 --results %s", e.spec, res);
        _exit(call(sweep_main, args));
    }
    setpgid(pid, pid);
    double t0 = wall_seconds();
    while (invocations(&e, "hang__a.json") == 0 && wall_seconds() - t0 < 20) {
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 1);
    kill(-pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    EXPECT_EQ_I(total_invocations(&e), 5); /* four finished, one killed mid-way */
    /* The sweep could pass nothing on; its run ends anyway (it gets SIGTERM when the sweep dies). */
    EXPECT(wait_gone(run_pid(&e, "hang__a")));
    char *before = result(res, "w1__a");
    EXPECT(before != NULL);

    /* Rerun: only what is left runs. */
    write_text(e.release, "");
    snprintf(args, sizeof args, "sweep %s -j 2 --results %s", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    for (int i = 0; i < 4; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.json", runs6[i]);
        EXPECT_EQ_I(invocations(&e, name), 1);
    }
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 2);
    EXPECT_EQ_I(invocations(&e, "hang__b.json"), 1);
    char *after = result(res, "w1__a");
    EXPECT_STR(after, before);
    free(before);
    free(after);

    /* Once more: nothing to do. */
    EXPECT_EQ_I(call(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 7);

    /* The same results as a sweep that was never interrupted. */
    char fresh[700];
    snprintf(fresh, sizeof fresh, "%s/fresh", e.dir);
    snprintf(args, sizeof args, "sweep %s -j 3 --results %s", e.spec, fresh);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    for (int i = 0; i < 6; i++) {
        char *x = result(res, runs6[i]), *y = result(fresh, runs6[i]);
        EXPECT(x != NULL);
        EXPECT_STR(x, y);
        free(x);
        free(y);
    }
    EXPECT_EQ_I(total_invocations(&e), 13);

    /* Editing one variant reruns exactly that variant's runs. */
    write_text(e.spec, "name resume\nworkload w1 w1.syn\nworkload w2 w2.syn\nworkload hang hang.syn\n"
                       "variant a: l1d.assoc=4\nvariant b: l1d.assoc=16\nfigure ipc: metric=sim.ipc\n");
    snprintf(args, sizeof args, "sweep %s --results %s", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 16);
    EXPECT_EQ_I(invocations(&e, "w1__b.json"), 3);
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 2);

    /* The stored experiment is what `warpsim report` reads. */
    char path[800];
    snprintf(path, sizeof path, "%s/experiment", res);
    char *exp = read_file(path, NULL);
    EXPECT_CONTAINS(exp, "variant b: l1d.assoc=16\n");
    free(exp);
    snprintf(path, sizeof path, "%s/runs/w1__b.cmd", res);
    char *cmd = read_file(path, NULL);
    EXPECT_CONTAINS(cmd, " run -o l1d.assoc=16 --quiet --json ");
    EXPECT_CONTAINS(cmd, "/runs/w1__b.json w1.syn\ninput w1.syn missing\n");
    free(cmd);
}

TEST(exp_sweep_failures_and_timeout)
{
    Env e;
    env_setup(&e, "fail", "workload ok ok.syn\nworkload bad bad.syn\nworkload hang hang.syn\n"
                          "variant a:\nvariant b: l1d.assoc=2\n");
    char res[700], args[1500], out[4096];
    snprintf(res, sizeof res, "%s/res", e.dir);
    /* Capture stderr to check the reports. */
    char log[700];
    snprintf(log, sizeof log, "%s/stderr", e.dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *lf = fopen(log, "w");
    ASSERT(lf);
    dup2(fileno(lf), 2);
    snprintf(args, sizeof args, "sweep %s -j 4 --timeout 0.5 --results %s", e.spec, res);
    int status = call(sweep_main, args);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(lf);
    EXPECT_EQ_I(status, 1);
    char *err = read_file(log, NULL);
    EXPECT_CONTAINS(err, "warpsim: sweep: bad/a failed: exit status 1: loading the workload | error: bad.syn: bad workload");
    EXPECT_CONTAINS(err, "warpsim: sweep: hang/b failed: timed out after 0.5 s");
    EXPECT_CONTAINS(err, "6 runs: 2 done now, 0 up to date, 4 failed");
    free(err);
    char *ok = result(res, "ok__b");
    EXPECT(ok != NULL);
    free(ok);
    snprintf(args, sizeof args, "test -e %s/runs/bad__a.cmd", res);
    EXPECT(test_run_cmd(args, out, sizeof out) != 0); /* a failed run has no record */
    /* The failed ones are retried on the next sweep, the good ones are not. */
    write_text(e.release, "");
    snprintf(args, sizeof args, "sweep %s --results %s", e.spec, res);
    EXPECT_EQ_I(call_quiet(sweep_main, args), 1);
    EXPECT_EQ_I(invocations(&e, "ok__a.json"), 1);
    EXPECT_EQ_I(invocations(&e, "bad__a.json"), 2);
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 2);
}

TEST(exp_sweep_item_and_emit)
{
    Env e;
    env_setup(&e, "emit", "name emit\nworkload w1 w1.syn\nworkload w2 w2.syn\nvariant a:\nvariant b: l1d.assoc=2\n");
    char res[700], args[1500], path[800];
    snprintf(res, sizeof res, "%s/res", e.dir);
    snprintf(args, sizeof args, "sweep %s --results %s --item 2", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 1);
    EXPECT_EQ_I(invocations(&e, "w2__a.json"), 1);
    EXPECT_EQ_I(call(sweep_main, args), 0); /* up to date */
    EXPECT_EQ_I(total_invocations(&e), 1);
    snprintf(args, sizeof args, "sweep %s --results %s --item 4", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 1);

    snprintf(args, sizeof args, "sweep %s --results %s --emit slurm", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    snprintf(path, sizeof path, "%s/sweep.sbatch", res);
    char *sb = read_file(path, NULL);
    EXPECT_CONTAINS(sb, "#!/bin/sh\n");
    EXPECT_CONTAINS(sb, "#SBATCH --array=0-3\n");
    EXPECT_CONTAINS(sb, " sweep ");
    EXPECT_CONTAINS(sb, " --item \"$SLURM_ARRAY_TASK_ID\"\n");
    EXPECT_CONTAINS(sb, "export WARPSIM_SWEEP_RUNNER\n");
    free(sb);
    snprintf(args, sizeof args, "sweep %s --results %s --emit parallel", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    snprintf(path, sizeof path, "%s/jobs.txt", res);
    char *jobs = read_file(path, NULL);
    ASSERT(jobs);
    int lines = 0;
    for (const char *p = jobs; *p; p++)
        lines += *p == '\n';
    EXPECT_EQ_I(lines, 4);
    EXPECT_CONTAINS(jobs, " --item 3  # w2/b\n");
    free(jobs);
    EXPECT_EQ_I(total_invocations(&e), 1); /* emitting runs nothing */

    /* What each job does: one item, with the same bookkeeping as a local sweep. */
    for (int i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "sweep %s --results %s --item %d", e.spec, res, i);
        EXPECT_EQ_I(call(sweep_main, args), 0);
    }
    EXPECT_EQ_I(total_invocations(&e), 4);
}

/* A derived variant (`best`) is never run: not by a sweep, not by its items, not emitted. */
TEST(exp_sweep_skips_derived_variants)
{
    Env e;
    env_setup(&e, "derived", "name derived\nworkload w1 w1.syn\nvariant a:\nbest b: of=a min=sim.cycles\n"
                             "variant c: l1d.assoc=2\n");
    char res[700], args[1500], path[800];
    snprintf(res, sizeof res, "%s/res", e.dir);
    snprintf(args, sizeof args, "sweep %s --results %s --item 1", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 0);
    snprintf(args, sizeof args, "sweep %s --results %s --emit parallel", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    snprintf(path, sizeof path, "%s/jobs.txt", res);
    char *jobs = read_file(path, NULL);
    ASSERT(jobs);
    EXPECT_CONTAINS(jobs, " --item 0  # w1/a\n");
    EXPECT_CONTAINS(jobs, " --item 2  # w1/c\n");
    EXPECT(!strstr(jobs, "w1/b"));
    free(jobs);
    snprintf(args, sizeof args, "sweep %s --results %s -j 1", e.spec, res);
    EXPECT_EQ_I(call(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 2);
    EXPECT_EQ_I(invocations(&e, "w1__b.json"), 0);
    snprintf(path, sizeof path, "%s/experiment", res);
    char *spec = read_file(path, NULL);
    EXPECT_CONTAINS(spec, "best b: of=a min=sim.cycles\n"); /* for the report */
    free(spec);
}

TEST(exp_sweep_bad_input)
{
    Env e;
    env_setup(&e, "badin", "workload w1 w1.syn\nvariant a: l1d.assoc=3000\n");
    char args[1500];
    snprintf(args, sizeof args, "sweep %s --results %s/r", e.spec, e.dir);
    EXPECT_EQ_I(call(sweep_main, args), 1);
    EXPECT_EQ_I(call(sweep_main, "sweep"), 1);
    EXPECT_EQ_I(call(sweep_main, "sweep x.spec -j 0"), 1);
    EXPECT_EQ_I(call(sweep_main, "sweep x.spec --emit pbs"), 1);
    EXPECT_EQ_I(call(sweep_main, "sweep /nonexistent/spec"), 1);
    EXPECT_EQ_I(total_invocations(&e), 0);
}

TEST(exp_sweep_signal_passed_on_to_runs)
{
    Env e;
    env_setup(&e, "signal", "workload w1 w1.syn\nworkload hang hang.syn\nworkload stubborn stubborn.syn\n"
                            "workload w2 w2.syn\nvariant a:\n");
    char res[700], args[1500], path[800], out[256];
    snprintf(res, sizeof res, "%s/res", e.dir);
    snprintf(args, sizeof args, "sweep %s -j 2 --results %s", e.spec, res);
    pid_t pid = sweep_in_child(args);
    ASSERT(pid > 0);
    EXPECT(wait_invocations(&e, "stubborn__a.json", 1));
    EXPECT(wait_invocations(&e, "hang__a.json", 1));
    long hang = run_pid(&e, "hang__a"), stubborn = run_pid(&e, "stubborn__a");
    ASSERT(hang > 0 && stubborn > 0);
    kill(pid, SIGTERM);
    /* hang ends at once; stubborn ignores SIGTERM, so the sweep waits for it... */
    EXPECT(wait_gone(hang));
    int st = 0;
    struct timespec ts = { 0, 300 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    EXPECT_EQ_I(waitpid(pid, &st, WNOHANG), 0);
    EXPECT(!process_gone(stubborn));
    /* ...until a second signal, which kills it. */
    kill(pid, SIGTERM);
    EXPECT_EQ_I(waitpid(pid, &st, 0), pid);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
    EXPECT(process_gone(stubborn));
    EXPECT(group_gone(hang) && group_gone(stubborn)); /* nothing of what they started runs */
    EXPECT_EQ_I(invocations(&e, "w2__a.json"), 0);                        /* nothing started after it */
    snprintf(args, sizeof args, "test -e %s/runs/hang__a.cmd || test -e %s/runs/hang__a.lock", res, res);
    EXPECT(test_run_cmd(args, out, sizeof out) != 0);

    /* The next sweep does what is left. */
    write_text(e.release, "");
    snprintf(args, sizeof args, "sweep %s -j 2 --results %s", e.spec, res);
    EXPECT_EQ_I(call_quiet(sweep_main, args), 0);
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 1);
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 2);
    EXPECT_EQ_I(invocations(&e, "w2__a.json"), 1);
    snprintf(path, sizeof path, "%s/runs/w2__a.json", res);
    EXPECT(access(path, R_OK) == 0);
}

TEST(exp_sweep_lock_keeps_one_process_per_run)
{
    Env e;
    env_setup(&e, "lock", "workload w1 w1.syn\nworkload hang hang.syn\nvariant a:\n");
    char res[700], args[1500], path[800], *err = NULL;
    snprintf(res, sizeof res, "%s/res", e.dir);
    /* w1 is done before the first sweep starts, which then runs hang alone: the second sweep
     * meets it in a known state, whatever the load (waiting for w1 to end in the first sweep
     * had a deadline, past which the second sweep found w1 still running). */
    snprintf(args, sizeof args, "sweep %s --results %s --item 0", e.spec, res);
    EXPECT_EQ_I(call_quiet(sweep_main, args), 0);
    snprintf(args, sizeof args, "sweep %s -j 2 --results %s", e.spec, res);
    pid_t first = sweep_in_child(args);
    ASSERT(first > 0);
    int st = 0;
    if (!wait_invocations(&e, "hang__a.json", 1)) { /* its lock is taken before it starts */
        write_text(e.release, "");
        waitpid(first, &st, 0);
        ASSERT(!"the first sweep started hang");
    }
    /* A second sweep while the first still runs hang: it is not started again. */
    snprintf(args, sizeof args, "sweep %s -j 2 --results %s --force", e.spec, res);
    EXPECT_EQ_I(call_captured(&e, args, &err), 1);
    EXPECT_CONTAINS(err, "hang/a failed: not started: it still runs in an earlier sweep (");
    free(err);
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 1);
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 2); /* --force: the finished one runs again */
    write_text(e.release, "");
    EXPECT_EQ_I(waitpid(first, &st, 0), first);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    snprintf(args, sizeof args, "sweep %s --results %s", e.spec, res);
    EXPECT_EQ_I(call_quiet(sweep_main, args), 0);
    EXPECT_EQ_I(total_invocations(&e), 3); /* all up to date */

    /* A lock whose processes are gone is stale; one of another host is taken to be held. The
     * gone process is named with its start time, as a sweep names its own, so that a later
     * process given the same pid (pids wrap at 32768 on some machines) is not taken for it. */
    fflush(stdout);
    fflush(stderr);
    int gate[2];
    ASSERT(pipe(gate) == 0);
    pid_t dead = fork();
    if (dead == 0) {
        char c;
        close(gate[1]);
        _exit(read(gate[0], &c, 1) < 0); /* until the test closes its end */
    }
    close(gate[0]);
    char state;
    long pgid;
    uint64_t start = 0;
    EXPECT(dead > 0 && exp_proc_stat(dead, &state, &pgid, &start) && start > 0);
    close(gate[1]);
    waitpid(dead, &st, 0);
    char host[256], lock[700];
    gethostname(host, sizeof host);
    host[sizeof host - 1] = 0;
    snprintf(path, sizeof path, "%s/runs/w1__a.lock", res);
    snprintf(lock, sizeof lock, "sweep %ld %" PRIu64 " %s\nrun %ld %" PRIu64 " %s\n", (long)dead, start, host,
             (long)dead, start, host);
    write_text(path, lock);
    snprintf(path, sizeof path, "%s/runs/hang__a.lock", res);
    write_text(path, "sweep 1 0 another-host.example\n");
    snprintf(args, sizeof args, "sweep %s --results %s --force", e.spec, res);
    EXPECT_EQ_I(call_captured(&e, args, &err), 1);
    EXPECT_CONTAINS(err, "hang/a failed: not started: it still runs in an earlier sweep (sweep process 1 on "
                         "another-host.example; ");
    free(err);
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 3);
    EXPECT_EQ_I(invocations(&e, "hang__a.json"), 1);
    snprintf(path, sizeof path, "%s/runs/w1__a.lock", res);
    EXPECT(access(path, F_OK) != 0); /* released when its run ended */
}

TEST(exp_sweep_incomplete_runs_fail)
{
    Env e;
    env_setup(&e, "incomplete", "workload w1 w1.syn\nworkload stop stop.syn\nvariant a:\n");
    char res[700], args[1500], path[800], *err = NULL;
    snprintf(res, sizeof res, "%s/res", e.dir);
    snprintf(args, sizeof args, "sweep %s --results %s", e.spec, res);
    EXPECT_EQ_I(call_captured(&e, args, &err), 1);
    EXPECT_CONTAINS(err, "warpsim: sweep: stop/a failed: status stopped: max_cycles");
    EXPECT_CONTAINS(err, "2 runs: 1 done now, 0 up to date, 1 failed");
    free(err);
    snprintf(path, sizeof path, "%s/runs/stop__a.cmd", res);
    EXPECT(access(path, F_OK) != 0); /* not done: no record */
    EXPECT_EQ_I(call_quiet(sweep_main, args), 1);
    EXPECT_EQ_I(invocations(&e, "stop__a.json"), 2); /* rerun */
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 1);

    /* A result that says it was killed is not up to date, whatever its record. */
    snprintf(path, sizeof path, "%s/runs/w1__a.json", res);
    char *text = read_file(path, NULL);
    ASSERT(text && strstr(text, "\"complete\""));
    char *at = strstr(text, "\"complete\"");
    char edited[4096];
    snprintf(edited, sizeof edited, "%.*s\"killed\"%s", (int)(at - text), text, at + strlen("\"complete\""));
    write_text(path, edited);
    free(text);
    EXPECT_EQ_I(call_quiet(sweep_main, args), 1);
    EXPECT_EQ_I(invocations(&e, "w1__a.json"), 2);
}

TEST(exp_sweep_failure_reason_without_log)
{
    Env e;
    env_setup(&e, "nolog", "workload bad bad.syn\nworkload ok ok.syn\nvariant a:\n");
    char res[700], args[1500], path[800], *err = NULL;
    snprintf(res, sizeof res, "%s/res", e.dir);
    snprintf(path, sizeof path, "%s/runs", res);
    mkdir_p(path);
    /* Its log on a full device: nothing of what it prints can be written there. */
    snprintf(path, sizeof path, "%s/runs/bad__a.log", res);
    EXPECT(symlink("/dev/full", path) == 0);
    snprintf(args, sizeof args, "sweep %s --results %s", e.spec, res);
    EXPECT_EQ_I(call_captured(&e, args, &err), 1);
    EXPECT_CONTAINS(err, "bad__a.log: No space left on device; the run's last output: loading the workload | "
                         "error: bad.syn: bad workload\n");
    EXPECT_CONTAINS(err, "warpsim: sweep: bad/a failed: exit status 1: loading the workload | error: bad.syn: bad "
                         "workload\n");
    free(err);
}
