/* sweep.c: `warpsim sweep SPEC [-j N] [--results DIR] [--emit slurm|parallel] [--item I]
 *                              [--force] [--timeout SECONDS]`
 *
 * Every workload x variant of the spec is one run, one process: `warpsim run` with the spec's
 * preset, config file and overrides, writing runs/W__V.json (store.h). Up to N runs at a time
 * (default: every online core); a progress line on stderr (done / running / failed, ETA); a
 * failed run is reported with the tail of its output and does not stop the others. A run whose
 * result exists and whose record (.cmd: version, command, input hashes) equals the one it would
 * get now is skipped (a run whose result is not complete, stats.h, failed and is never skipped),
 * so rerunning an interrupted sweep only does what is left, and editing a variant reruns
 * exactly that variant. `--emit` writes the same runs for a cluster: each job is
 * `warpsim sweep SPEC --item I`, which does one run with the same bookkeeping. A derived variant
 * (spec.h, `best`) has no runs: the report takes its results from its source variants' runs.
 *
 * Processes: each run is its own process group, so SIGTERM or SIGINT to the sweep is passed on
 * to all a run started (a second signal kills them), the sweep waits for them and exits with
 * 128 + the signal; a run also gets SIGTERM when the sweep dies without passing one on (Linux:
 * PR_SET_PDEATHSIG). A run's lock (lock.h) keeps a second sweep from starting it while its
 * process lives. What a run prints goes through a pipe into its log, and its last bytes are
 * kept in memory, so the reason it failed is reported even when the log cannot be written. */
#include "exp/sweep.h"

#include "base/base.h"
#include "exp/json.h"
#include "exp/lock.h"
#include "exp/spec.h"
#include "exp/store.h"
#include "stats/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

typedef enum ItemState { ITEM_PENDING, ITEM_CURRENT, ITEM_RUNNING, ITEM_DONE, ITEM_FAILED } ItemState;

/* The last bytes a run printed, kept in memory: its reason to fail survives a log that cannot
 * be written. */
#define SWEEP_TAIL_BYTES 2048

typedef struct Item {
    uint32_t w, v;
    ExpStrList argv;
    char *record;
    ItemState state;
    pid_t pid;              /* also its process group */
    double t_start;
    int out_fd;             /* read end of the run's stdout and stderr; -1 when closed */
    int log_fd;             /* runs/W__V.log; -1 when closed or not writable */
    int log_errno;          /* why the log could not be written; 0 if it could */
    char tail[SWEEP_TAIL_BYTES];
    size_t tail_len;
    char error[512];
} Item;

typedef struct Sweep {
    ExpSpec spec;
    const char *dir;
    Item *items;
    uint32_t n_items;
    uint32_t n_done, n_current, n_failed, n_running;
    uint32_t n_derived; /* items of derived variants (spec.h, `best`): not runs, never started */
    double run_seconds; /* total wall time of the runs finished in this sweep */
    uint32_t n_timed;
    bool tty;
    double timeout_s;
} Sweep;

/* The runs: every item but those of derived variants. */
static uint32_t n_runs(const Sweep *s) { return s->n_items - s->n_derived; }

/* SIGTERM and SIGINT to a sweep: the first is passed on to the process group of every run, a
 * second kills them (SIGKILL); no run starts after one. What a handler sets is global. */
static volatile sig_atomic_t sweep_signal, sweep_n_signals;

static void on_signal(int sig)
{
    if (!sweep_signal)
        sweep_signal = sig;
    sweep_n_signals++;
}

static void item_path(const Sweep *s, const Item *it, const char *ext, char *buf, size_t len)
{
    exp_run_path(s->dir, &s->spec, it->w, it->v, ext, buf, len);
}

static bool write_text_file(const char *path, const char *text)
{
    return atomic_write_file(path, text, strlen(text));
}

static void set_error(Item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(Item *it, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->error, sizeof it->error, fmt, ap);
    va_end(ap);
}

/* The last few non-empty lines of what a run printed, joined by " | ". */
static void output_tail(const Item *it, char *out, size_t len)
{
    size_t n = it->tail_len;
    while (n && (it->tail[n - 1] == '\n' || it->tail[n - 1] == '\r'))
        n--;
    size_t start = n;
    for (int lines = 0; start > 0 && lines < 3;) {
        start--;
        if (it->tail[start] == '\n')
            lines++;
    }
    if (it->tail[start] == '\n')
        start++;
    size_t k = 0;
    for (size_t p = start; p < n && k + 4 < len; p++) {
        if (it->tail[p] == '\n') {
            memcpy(out + k, " | ", 3);
            k += 3;
        } else if (it->tail[p] != '\r' && it->tail[p]) {
            out[k++] = it->tail[p];
        }
    }
    out[k] = 0;
}

static void keep_tail(Item *it, const char *buf, size_t n)
{
    if (n >= sizeof it->tail) {
        memcpy(it->tail, buf + n - sizeof it->tail, sizeof it->tail);
        it->tail_len = sizeof it->tail;
        return;
    }
    if (it->tail_len + n > sizeof it->tail) {
        size_t drop = it->tail_len + n - sizeof it->tail;
        memmove(it->tail, it->tail + drop, it->tail_len - drop);
        it->tail_len -= drop;
    }
    memcpy(it->tail + it->tail_len, buf, n);
    it->tail_len += n;
}

static void log_write(Item *it, const char *buf, size_t n)
{
    for (size_t done = 0; it->log_fd >= 0 && done < n;) {
        ssize_t w = write(it->log_fd, buf + done, n - done);
        if (w >= 0) {
            done += (size_t)w;
        } else if (errno != EINTR) {
            it->log_errno = errno; /* a full disk: the tail in memory still has the output */
            close(it->log_fd);
            it->log_fd = -1;
        }
    }
}

/* Take what a run has printed so far into its log and its tail; closes out_fd at the end. */
static void item_read(Item *it)
{
    char buf[65536];
    for (int round = 0; it->out_fd >= 0 && round < 16; round++) {
        ssize_t n = read(it->out_fd, buf, sizeof buf);
        if (n > 0) {
            keep_tail(it, buf, (size_t)n);
            log_write(it, buf, (size_t)n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            return;
        } else {
            close(it->out_fd);
            it->out_fd = -1;
        }
    }
}

static bool start_item(Sweep *s, Item *it)
{
    char json[4096], cmd[4096], log[4096], lock[4096], msg[512];
    item_path(s, it, ".json", json, sizeof json);
    item_path(s, it, ".cmd", cmd, sizeof cmd);
    item_path(s, it, ".log", log, sizeof log);
    item_path(s, it, ".lock", lock, sizeof lock);
    ExpLockResult lr = exp_lock_take(lock, msg, sizeof msg);
    if (lr == EXP_LOCK_HELD)
        set_error(it, "not started: it still runs in an earlier sweep (%s; %s)", msg, lock);
    else if (lr == EXP_LOCK_ERROR)
        set_error(it, "%s", msg);
    if (lr != EXP_LOCK_TAKEN)
        return false;
    /* The record goes first: from here until success, this run is not done. */
    remove(cmd);
    remove(json);
    it->tail_len = 0;
    it->log_errno = 0;
    it->log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (it->log_fd < 0)
        it->log_errno = errno; /* the run goes on; its output is kept in memory */
    int out[2];
    if (pipe(out) != 0) {
        set_error(it, "cannot create a pipe: %s", strerror(errno));
        if (it->log_fd >= 0)
            close(it->log_fd);
        it->log_fd = -1;
        exp_lock_release(lock);
        return false;
    }
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        set_error(it, "cannot start a process: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        if (it->log_fd >= 0)
            close(it->log_fd);
        it->log_fd = -1;
        exp_lock_release(lock);
        return false;
    }
    if (pid == 0) {
        /* Its own process group, so that a signal passed on reaches what it starts; and it is
         * ended with SIGTERM if the sweep dies without passing one on (SIGKILL). */
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(128 + SIGTERM);
#endif
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[1]);
        char **argv = xcalloc(it->argv.n + 1, sizeof *argv);
        for (uint32_t i = 0; i < it->argv.n; i++)
            argv[i] = it->argv.v[i];
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* as the child does: whichever comes first */
    close(out[1]);
    it->out_fd = out[0];
    exp_lock_add_run(lock, pid);
    it->pid = pid;
    it->t_start = wall_seconds();
    it->state = ITEM_RUNNING;
    s->n_running++;
    return true;
}

/* A run ended with wait status st: check its result and write its record, or say why not. */
static void finish_item(Sweep *s, Item *it, int st, bool timed_out)
{
    char json[4096], cmd[4096], log[4096], lock[4096], tail[600], err[256], status[300] = "";
    item_path(s, it, ".json", json, sizeof json);
    item_path(s, it, ".cmd", cmd, sizeof cmd);
    item_path(s, it, ".log", log, sizeof log);
    item_path(s, it, ".lock", lock, sizeof lock);
    item_read(it); /* what is left in the pipe */
    if (it->out_fd >= 0)
        close(it->out_fd);
    it->out_fd = -1;
    if (it->log_fd >= 0 && close(it->log_fd) != 0 && !it->log_errno)
        it->log_errno = errno;
    it->log_fd = -1;
    exp_lock_release(lock);
    s->n_running--;
    double dt = wall_seconds() - it->t_start;
    it->state = ITEM_FAILED;
    output_tail(it, tail, sizeof tail);
    const char *sep = tail[0] ? ": " : "";
    JsonValue *j = exp_result_load(s->dir, &s->spec, it->w, it->v, err, sizeof err);
    if (j && strcmp(exp_result_status(j), STATS_STATUS_COMPLETE))
        snprintf(status, sizeof status, ", status %s", exp_result_status(j));
    if (timed_out) {
        set_error(it, "timed out after %g s (--timeout)%s%s", s->timeout_s, sep, tail);
    } else if (WIFSIGNALED(st)) {
        set_error(it, "killed by signal %d%s%s%s", WTERMSIG(st), status, sep, tail);
    } else if (WEXITSTATUS(st) != 0) {
        set_error(it, "exit status %d%s%s%s", WEXITSTATUS(st), status, sep, tail);
    } else if (!j) {
        set_error(it, "exit status 0 but no valid result: %s", err);
    } else if (status[0]) {
        set_error(it, "%s%s%s", status + 2, sep, tail); /* not complete: not done */
    } else if (!write_text_file(cmd, it->record)) {
        set_error(it, "cannot write %s: %s", cmd, strerror(errno));
    } else {
        it->state = ITEM_DONE;
    }
    json_free(j);
    if (it->log_errno)
        fprintf(stderr, "%swarpsim: sweep: %s/%s: cannot write %s: %s%s%s\n", s->tty ? "\r\033[K" : "",
                s->spec.workloads[it->w].name, s->spec.variants[it->v].name, log, strerror(it->log_errno),
                tail[0] ? "; the run's last output: " : "", tail);
    if (it->state == ITEM_DONE) {
        s->n_done++;
        s->run_seconds += dt;
        s->n_timed++;
    } else {
        s->n_failed++;
    }
    if (!s->tty) {
        fprintf(stderr, "[sweep] %u/%u %s/%s %s (%.1f s)\n", s->n_done + s->n_current + s->n_failed, n_runs(s),
                s->spec.workloads[it->w].name, s->spec.variants[it->v].name,
                it->state == ITEM_DONE ? "done" : "FAILED", dt);
    }
}

static void progress(const Sweep *s, uint32_t workers)
{
    if (!s->tty)
        return;
    uint32_t finished = s->n_done + s->n_current + s->n_failed;
    uint32_t left = n_runs(s) - finished;
    char eta[64] = "ETA ?";
    if (s->n_timed) {
        double per_run = s->run_seconds / s->n_timed;
        double secs = per_run * left / (workers ? workers : 1);
        snprintf(eta, sizeof eta, "ETA %dm%02ds", (int)secs / 60, (int)secs % 60);
    }
    fprintf(stderr, "\r\033[K[sweep %s] %u/%u done (%u up to date), %u running, %u failed, %s", s->spec.name,
            finished - s->n_failed, n_runs(s), s->n_current, s->n_running, s->n_failed, eta);
    fflush(stderr);
}

/* Pass a signal on to every running run's process group. */
static void pass_on(const Sweep *s, int sig)
{
    for (uint32_t i = 0; i < s->n_items; i++) {
        const Item *it = &s->items[i];
        if (it->state == ITEM_RUNNING && kill(-it->pid, sig) != 0)
            kill(it->pid, sig); /* its group is not set up yet */
    }
}

/* Wait up to ms for output of the running runs, and take it. */
static void take_output(Sweep *s, int ms)
{
    struct pollfd *fds = xcalloc(s->n_running + 1, sizeof *fds);
    uint32_t *which = xcalloc(s->n_running + 1, sizeof *which), n = 0;
    for (uint32_t i = 0; i < s->n_items && n < s->n_running; i++)
        if (s->items[i].state == ITEM_RUNNING && s->items[i].out_fd >= 0) {
            fds[n].fd = s->items[i].out_fd;
            fds[n].events = POLLIN;
            which[n++] = i;
        }
    if (!n) {
        struct timespec ts = { 0, (long)ms * 1000 * 1000 };
        nanosleep(&ts, NULL);
    } else if (poll(fds, n, ms) > 0) {
        for (uint32_t k = 0; k < n; k++)
            if (fds[k].revents)
                item_read(&s->items[which[k]]);
    }
    free(fds);
    free(which);
}

/* Run the pending items of [first, end), at most `workers` at a time. */
static void run_local(Sweep *s, uint32_t workers, uint32_t first, uint32_t end)
{
    uint32_t next = first;
    sig_atomic_t passed = 0;
    double last_progress = 0;
    for (;;) {
        if (sweep_n_signals > passed) {
            passed = sweep_n_signals;
            pass_on(s, passed > 1 ? SIGKILL : sweep_signal);
        }
        while (!sweep_signal && s->n_running < workers && next < end) {
            Item *it = &s->items[next++];
            if (it->state != ITEM_PENDING)
                continue;
            if (!start_item(s, it)) {
                it->state = ITEM_FAILED;
                s->n_failed++;
            }
            progress(s, workers);
        }
        if (!s->n_running)
            break;
        take_output(s, 20);
        int st;
        for (uint32_t i = 0; i < s->n_items; i++) {
            Item *it = &s->items[i];
            if (it->state == ITEM_RUNNING && waitpid(it->pid, &st, WNOHANG) == it->pid) {
                finish_item(s, it, st, false);
                progress(s, workers);
            }
        }
        double now = wall_seconds();
        if (s->timeout_s > 0) {
            for (uint32_t i = 0; i < s->n_items; i++) {
                Item *it = &s->items[i];
                if (it->state == ITEM_RUNNING && now - it->t_start > s->timeout_s) {
                    if (kill(-it->pid, SIGKILL) != 0)
                        kill(it->pid, SIGKILL);
                    while (waitpid(it->pid, &st, 0) < 0 && errno == EINTR) {
                    }
                    finish_item(s, it, st, true);
                }
            }
        }
        if (now - last_progress >= 1) {
            progress(s, workers);
            last_progress = now;
        }
    }
    if (s->tty) {
        progress(s, workers);
        fputc('\n', stderr);
    }
}

static void quoted(FILE *f, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    exp_shell_quote(&buf, &len, s);
    fputs(buf, f);
    free(buf);
}

/* The command of job i of a cluster sweep: this program, one item, same results directory. */
static void job_command(FILE *f, const char *self, const char *spec_path, const char *dir, const char *item)
{
    quoted(f, self);
    fputs(" sweep ", f);
    quoted(f, spec_path);
    fputs(" --results ", f);
    quoted(f, dir);
    fprintf(f, " --item %s", item);
}

static int emit(const Sweep *s, const char *kind, const char *self, const char *spec_path)
{
    char path[4096], cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "warpsim: sweep: cannot read the current directory: %s\n", strerror(errno));
        return 1;
    }
    const char *runner = getenv("WARPSIM_SWEEP_RUNNER");
    bool slurm = !strcmp(kind, "slurm");
    snprintf(path, sizeof path, "%s/%s", s->dir, slurm ? "sweep.sbatch" : "jobs.txt");
    AtomicFile out;
    FILE *f = atomic_open(&out, path);
    if (!f) {
        fprintf(stderr, "warpsim: sweep: %s: cannot write: %s\n", path, strerror(errno));
        return 1;
    }
    if (slurm) {
        fprintf(f, "#!/bin/sh\n# warpsim sweep --emit slurm: experiment %s, one array task per run\n"
                   "# (workload-major order: task = workload index * %u + variant index).\n"
                   "#SBATCH --job-name=warpsim-%s\n#SBATCH --array=0-%u\n#SBATCH --ntasks=1\n"
                   "#SBATCH --cpus-per-task=1\n#SBATCH --chdir=%s\n#SBATCH --output=%s/slurm-%%A_%%a.out\n",
                s->spec.name, s->spec.n_variants, s->spec.name, s->n_items - 1, cwd, s->dir);
        if (runner) {
            fputs("WARPSIM_SWEEP_RUNNER=", f);
            quoted(f, runner);
            fputs("\nexport WARPSIM_SWEEP_RUNNER\n", f);
        }
        fputs("exec ", f);
        job_command(f, self, spec_path, s->dir, "\"$SLURM_ARRAY_TASK_ID\"");
        fputc('\n', f);
    } else {
        for (uint32_t i = 0; i < s->n_items; i++) {
            char item[16];
            if (exp_variant_derived(&s->spec.variants[s->items[i].v]))
                continue;
            snprintf(item, sizeof item, "%u", i);
            fputs("cd ", f);
            quoted(f, cwd);
            fputs(" && ", f);
            if (runner) {
                fputs("WARPSIM_SWEEP_RUNNER=", f);
                quoted(f, runner);
                fputc(' ', f);
            }
            job_command(f, self, spec_path, s->dir, item);
            fprintf(f, "  # %s/%s\n", s->spec.workloads[s->items[i].w].name, s->spec.variants[s->items[i].v].name);
        }
    }
    if (!atomic_commit(&out)) {
        fprintf(stderr, "warpsim: sweep: %s: cannot write: %s\n", path, strerror(errno));
        return 1;
    }
    if (slurm)
        chmod(path, 0755);
    uint32_t remaining = n_runs(s) - s->n_current;
    printf("wrote %s: %u runs (%u already up to date)\nsubmit with: %s %s\nthen: warpsim report %s\n", path,
           n_runs(s), n_runs(s) - remaining, slurm ? "sbatch" : "parallel -j CORES <", path, s->dir);
    return 0;
}

static int usage(void)
{
    fputs("usage: warpsim sweep SPEC [-j N] [--results DIR] [--emit slurm|parallel] [--item I]\n"
          "                          [--force] [--timeout SECONDS]\n"
          "  runs every workload x variant of the experiment SPEC into DIR (default results/<name>);\n"
          "  runs whose result is up to date are skipped, so an interrupted sweep resumes\n", stderr);
    return 1;
}

static void sweep_free(Sweep *s)
{
    for (uint32_t i = 0; i < s->n_items; i++) {
        exp_strlist_free(&s->items[i].argv);
        free(s->items[i].record);
    }
    free(s->items);
    exp_spec_free(&s->spec);
}

int sweep_main(int argc, char **argv)
{
    const char *spec_path = NULL, *dir = NULL, *emit_kind = NULL;
    long workers = sysconf(_SC_NPROCESSORS_ONLN), item = -1;
    bool force = false;
    double timeout_s = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        uint64_t u;
        if (!strcmp(a, "-j") && has_value) {
            if (!parse_u64(argv[++i], &u) || u < 1 || u > 4096) {
                fprintf(stderr, "warpsim: sweep: -j %s: expected a number of workers from 1 to 4096\n", argv[i]);
                return 1;
            }
            workers = (long)u;
        } else if (!strcmp(a, "--results") && has_value) {
            dir = argv[++i];
        } else if (!strcmp(a, "--emit") && has_value) {
            emit_kind = argv[++i];
            if (strcmp(emit_kind, "slurm") && strcmp(emit_kind, "parallel")) {
                fprintf(stderr, "warpsim: sweep: --emit %s: expected slurm or parallel\n", emit_kind);
                return 1;
            }
        } else if (!strcmp(a, "--item") && has_value) {
            if (!parse_u64(argv[++i], &u) || u > 100000000) {
                fprintf(stderr, "warpsim: sweep: --item %s: expected a run index\n", argv[i]);
                return 1;
            }
            item = (long)u;
        } else if (!strcmp(a, "--timeout") && has_value) {
            if (!parse_f64(argv[++i], &timeout_s) || timeout_s <= 0) {
                fprintf(stderr, "warpsim: sweep: --timeout %s: expected seconds > 0\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' || spec_path) {
            fprintf(stderr, "warpsim: sweep: unexpected argument '%s'\n", a);
            return usage();
        } else {
            spec_path = a;
        }
    }
    if (!spec_path)
        return usage();

    Sweep s;
    memset(&s, 0, sizeof s);
    char err[512], dir_buf[4096], self[4096];
    if (!exp_spec_load(&s.spec, spec_path, err, sizeof err)) {
        fprintf(stderr, "warpsim: sweep: %s\n", err);
        sweep_free(&s);
        return 1;
    }
    if (!dir) {
        snprintf(dir_buf, sizeof dir_buf, "results/%s", s.spec.name);
        dir = dir_buf;
    }
    s.dir = dir;
    s.timeout_s = timeout_s;
    s.tty = isatty(2);
    char runs[4200];
    snprintf(runs, sizeof runs, "%s/runs", dir);
    if (!mkdir_p(runs)) {
        fprintf(stderr, "warpsim: sweep: cannot create %s: %s\n", runs, strerror(errno));
        sweep_free(&s);
        return 1;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "warpsim: sweep: cannot find the running executable: %s\n", strerror(errno));
        sweep_free(&s);
        return 1;
    }
    self[n] = 0;
    const char *runner = getenv("WARPSIM_SWEEP_RUNNER");
    if (!runner || !*runner)
        runner = self;

    uint32_t n_items = s.spec.n_workloads * s.spec.n_variants;
    if (item >= (long)n_items) {
        fprintf(stderr, "warpsim: sweep: --item %ld: the experiment has runs 0 to %u\n", item, n_items - 1);
        sweep_free(&s);
        return 1;
    }
    s.items = xcalloc(n_items, sizeof *s.items);
    s.n_items = n_items;
    for (uint32_t w = 0; w < s.spec.n_workloads; w++)
        for (uint32_t v = 0; v < s.spec.n_variants; v++) {
            Item *it = &s.items[w * s.spec.n_variants + v];
            char json[4096];
            it->w = w;
            it->v = v;
            it->out_fd = it->log_fd = -1;
            if (exp_variant_derived(&s.spec.variants[v])) { /* the report takes it from other runs */
                it->state = ITEM_CURRENT;
                s.n_derived++;
                continue;
            }
            exp_run_path(dir, &s.spec, w, v, ".json", json, sizeof json);
            exp_run_argv(&s.spec, w, v, runner, json, &it->argv);
            it->record = exp_run_record(&s.spec, w, &it->argv);
            if (!force && exp_run_is_current(dir, &s.spec, w, v, it->record)) {
                it->state = ITEM_CURRENT;
                s.n_current++;
            }
        }

    /* The canonical spec beside the results, for `warpsim report` (not from cluster jobs,
     * which would all race to write the same file). */
    if (item < 0) {
        char path[4200], *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        exp_spec_write(m, &s.spec);
        fclose(m);
        snprintf(path, sizeof path, "%s/experiment", dir);
        bool ok = write_text_file(path, text);
        free(text);
        if (!ok) {
            fprintf(stderr, "warpsim: sweep: cannot write %s: %s\n", path, strerror(errno));
            sweep_free(&s);
            return 1;
        }
    }

    if (emit_kind) {
        int status = emit(&s, emit_kind, self, spec_path);
        sweep_free(&s);
        return status;
    }

    /* SIGTERM / SIGINT: passed on to the runs, which are waited for (on_signal). */
    struct sigaction sa, old_term, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a signal ends the wait for output */
    sigemptyset(&sa.sa_mask);
    sweep_signal = sweep_n_signals = 0;
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGINT, &sa, &old_int);
    int status;
    if (item >= 0) {
        Item *it = &s.items[item];
        s.tty = false;
        if (it->state == ITEM_PENDING)
            run_local(&s, 1, (uint32_t)item, (uint32_t)item + 1);
        else
            fprintf(stderr, "[sweep] %s/%s is %s\n", s.spec.workloads[it->w].name, s.spec.variants[it->v].name,
                    exp_variant_derived(&s.spec.variants[it->v]) ? "derived from other runs: nothing to run"
                                                                 : "up to date");
        if (it->state == ITEM_FAILED)
            fprintf(stderr, "warpsim: sweep: %s/%s failed: %s\n", s.spec.workloads[it->w].name,
                    s.spec.variants[it->v].name, it->error);
        status = it->state == ITEM_FAILED ? 1 : 0;
    } else {
        run_local(&s, (uint32_t)workers, 0, s.n_items);
        for (uint32_t i = 0; i < s.n_items; i++) {
            const Item *it = &s.items[i];
            if (it->state == ITEM_FAILED)
                fprintf(stderr, "warpsim: sweep: %s/%s failed: %s\n", s.spec.workloads[it->w].name,
                        s.spec.variants[it->v].name, it->error);
        }
        uint32_t not_started = n_runs(&s) - s.n_done - s.n_current - s.n_failed;
        char stopped[96] = "";
        if (sweep_signal)
            snprintf(stopped, sizeof stopped, ", %u not started (stopped by signal %d)", not_started, (int)sweep_signal);
        fprintf(stderr, "[sweep %s] %u runs: %u done now, %u up to date, %u failed%s; results in %s\n", s.spec.name,
                n_runs(&s), s.n_done, s.n_current, s.n_failed, stopped, dir);
        status = s.n_failed ? 1 : 0;
    }
    if (sweep_signal)
        status = 128 + sweep_signal;
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sweep_free(&s);
    return status;
}
