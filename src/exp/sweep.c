/* sweep.c: `warpsim sweep SPEC [-j N] [--results DIR] [--emit slurm|parallel] [--item I]
 *                              [--force] [--timeout SECONDS]`
 *
 * Every workload x variant of the spec is one run, one process: `warpsim run` with the spec's
 * preset, config file and overrides, writing runs/W__V.json (store.h). Up to N runs at a time
 * (default: every online core); a progress line on stderr (done / running / failed, ETA); a
 * failed run is reported with the tail of its log and does not stop the others. A run whose
 * result exists and whose record (.cmd: version, command, input hashes) equals the one it would
 * get now is skipped (a run whose result is not complete, stats.h, failed and is never skipped), so rerunning an interrupted sweep only does what is left, and editing a
 * variant reruns exactly that variant. `--emit` writes the same runs for a cluster: each job is
 * `warpsim sweep SPEC --item I`, which does one run with the same bookkeeping. */
#include "exp/sweep.h"

#include "base/base.h"
#include "exp/json.h"
#include "exp/spec.h"
#include "exp/store.h"
#include "stats/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef enum ItemState { ITEM_PENDING, ITEM_CURRENT, ITEM_RUNNING, ITEM_DONE, ITEM_FAILED } ItemState;

typedef struct Item {
    uint32_t w, v;
    ExpStrList argv;
    char *record;
    ItemState state;
    pid_t pid;
    double t_start;
    char error[512];
} Item;

typedef struct Sweep {
    ExpSpec spec;
    const char *dir;
    Item *items;
    uint32_t n_items;
    uint32_t n_done, n_current, n_failed, n_running;
    double run_seconds; /* total wall time of the runs finished in this sweep */
    uint32_t n_timed;
    bool tty;
    double timeout_s;
} Sweep;

static void item_path(const Sweep *s, const Item *it, const char *ext, char *buf, size_t len)
{
    exp_run_path(s->dir, &s->spec, it->w, it->v, ext, buf, len);
}

/* Write a whole file through a temporary name, so readers never see half of it. */
static bool write_atomic(const char *path, const char *text)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    fputs(text, f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return false;
    }
    return true;
}

static void set_error(Item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(Item *it, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->error, sizeof it->error, fmt, ap);
    va_end(ap);
}

/* The last few non-empty lines of a log, joined by " | ". */
static void log_tail(const char *path, char *out, size_t len)
{
    out[0] = 0;
    char *text = read_file(path, NULL);
    if (!text)
        return;
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = 0;
    const char *start = text + n;
    for (int lines = 0; start > text && lines < 3;) {
        start--;
        if (*start == '\n')
            lines++;
    }
    if (*start == '\n')
        start++;
    size_t k = 0;
    for (const char *p = start; *p && k + 4 < len; p++) {
        if (*p == '\n') {
            memcpy(out + k, " | ", 3);
            k += 3;
        } else if (*p != '\r') {
            out[k++] = *p;
        }
    }
    out[k] = 0;
    free(text);
}

static bool start_item(Sweep *s, Item *it)
{
    char json[4096], cmd[4096], log[4096];
    item_path(s, it, ".json", json, sizeof json);
    item_path(s, it, ".cmd", cmd, sizeof cmd);
    item_path(s, it, ".log", log, sizeof log);
    /* The record goes first: from here until success, this run is not done. */
    remove(cmd);
    remove(json);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        set_error(it, "cannot write %s: %s", log, strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        set_error(it, "cannot start a process: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        char **argv = xcalloc(it->argv.n + 1, sizeof *argv);
        for (uint32_t i = 0; i < it->argv.n; i++)
            argv[i] = it->argv.v[i];
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd);
    it->pid = pid;
    it->t_start = wall_seconds();
    it->state = ITEM_RUNNING;
    s->n_running++;
    return true;
}

/* A run ended with wait status st: check its result and write its record, or say why not. */
static void finish_item(Sweep *s, Item *it, int st, bool timed_out)
{
    char json[4096], cmd[4096], log[4096], tail[400], err[256];
    item_path(s, it, ".json", json, sizeof json);
    item_path(s, it, ".cmd", cmd, sizeof cmd);
    item_path(s, it, ".log", log, sizeof log);
    s->n_running--;
    double dt = wall_seconds() - it->t_start;
    it->state = ITEM_FAILED;
    log_tail(log, tail, sizeof tail);
    if (timed_out) {
        set_error(it, "timed out after %g s (--timeout)%s%s", s->timeout_s, tail[0] ? ": " : "", tail);
    } else if (WIFSIGNALED(st)) {
        set_error(it, "killed by signal %d%s%s", WTERMSIG(st), tail[0] ? ": " : "", tail);
    } else if (WEXITSTATUS(st) != 0) {
        set_error(it, "exit status %d%s%s", WEXITSTATUS(st), tail[0] ? ": " : "", tail);
    } else {
        JsonValue *j = exp_result_load(s->dir, &s->spec, it->w, it->v, err, sizeof err);
        if (!j)
            set_error(it, "exit status 0 but no valid result: %s", err);
        else if (strcmp(exp_result_status(j), STATS_STATUS_COMPLETE)) /* not complete: not done */
            set_error(it, "status %s%s%s", exp_result_status(j), tail[0] ? ": " : "", tail);
        else if (!write_atomic(cmd, it->record))
            set_error(it, "cannot write %s: %s", cmd, strerror(errno));
        else
            it->state = ITEM_DONE;
        json_free(j);
    }
    if (it->state == ITEM_DONE) {
        s->n_done++;
        s->run_seconds += dt;
        s->n_timed++;
    } else {
        s->n_failed++;
    }
    if (!s->tty) {
        fprintf(stderr, "[sweep] %u/%u %s/%s %s (%.1f s)\n", s->n_done + s->n_current + s->n_failed, s->n_items,
                s->spec.workloads[it->w].name, s->spec.variants[it->v].name,
                it->state == ITEM_DONE ? "done" : "FAILED", dt);
    }
}

static void progress(const Sweep *s, uint32_t workers)
{
    if (!s->tty)
        return;
    uint32_t finished = s->n_done + s->n_current + s->n_failed;
    uint32_t left = s->n_items - finished;
    char eta[64] = "ETA ?";
    if (s->n_timed) {
        double per_run = s->run_seconds / s->n_timed;
        double secs = per_run * left / (workers ? workers : 1);
        snprintf(eta, sizeof eta, "ETA %dm%02ds", (int)secs / 60, (int)secs % 60);
    }
    fprintf(stderr, "\r\033[K[sweep %s] %u/%u done (%u up to date), %u running, %u failed, %s", s->spec.name,
            finished - s->n_failed, s->n_items, s->n_current, s->n_running, s->n_failed, eta);
    fflush(stderr);
}

static void run_local(Sweep *s, uint32_t workers)
{
    uint32_t next = 0;
    double last_progress = 0;
    for (;;) {
        while (s->n_running < workers && next < s->n_items) {
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
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid < 0 && errno != EINTR && errno != ECHILD)
            break;
        if (pid > 0) {
            for (uint32_t i = 0; i < s->n_items; i++)
                if (s->items[i].state == ITEM_RUNNING && s->items[i].pid == pid)
                    finish_item(s, &s->items[i], st, false);
            progress(s, workers);
            continue;
        }
        double now = wall_seconds();
        if (s->timeout_s > 0) {
            for (uint32_t i = 0; i < s->n_items; i++) {
                Item *it = &s->items[i];
                if (it->state == ITEM_RUNNING && now - it->t_start > s->timeout_s) {
                    kill(it->pid, SIGKILL);
                    waitpid(it->pid, &st, 0);
                    finish_item(s, it, st, true);
                }
            }
        }
        if (now - last_progress >= 1) {
            progress(s, workers);
            last_progress = now;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
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
    FILE *f = fopen(path, "w");
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
    if (fclose(f) != 0) {
        fprintf(stderr, "warpsim: sweep: %s: cannot write: %s\n", path, strerror(errno));
        return 1;
    }
    if (slurm)
        chmod(path, 0755);
    uint32_t remaining = s->n_items - s->n_current;
    printf("wrote %s: %u runs (%u already up to date)\nsubmit with: %s %s\nthen: warpsim report %s\n", path,
           s->n_items, s->n_items - remaining, slurm ? "sbatch" : "parallel -j CORES <", path, s->dir);
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
        bool ok = write_atomic(path, text);
        free(text);
        if (!ok) {
            fprintf(stderr, "warpsim: sweep: cannot write %s: %s\n", path, strerror(errno));
            sweep_free(&s);
            return 1;
        }
    }

    int status;
    if (emit_kind) {
        status = emit(&s, emit_kind, self, spec_path);
    } else if (item >= 0) {
        Item *it = &s.items[item];
        s.tty = false;
        if (it->state == ITEM_PENDING) {
            int st = 0;
            if (start_item(&s, it) && waitpid(it->pid, &st, 0) == it->pid)
                finish_item(&s, it, st, false);
            else if (it->state != ITEM_FAILED)
                it->state = ITEM_FAILED;
        } else {
            fprintf(stderr, "[sweep] %s/%s is up to date\n", s.spec.workloads[it->w].name, s.spec.variants[it->v].name);
        }
        if (it->state == ITEM_FAILED)
            fprintf(stderr, "warpsim: sweep: %s/%s failed: %s\n", s.spec.workloads[it->w].name,
                    s.spec.variants[it->v].name, it->error);
        status = it->state == ITEM_FAILED ? 1 : 0;
    } else {
        run_local(&s, (uint32_t)workers);
        for (uint32_t i = 0; i < s.n_items; i++) {
            const Item *it = &s.items[i];
            if (it->state == ITEM_FAILED)
                fprintf(stderr, "warpsim: sweep: %s/%s failed: %s\n", s.spec.workloads[it->w].name,
                        s.spec.variants[it->v].name, it->error);
        }
        fprintf(stderr, "[sweep %s] %u runs: %u done now, %u up to date, %u failed; results in %s\n", s.spec.name,
                s.n_items, s.n_done, s.n_current, s.n_failed, dir);
        status = s.n_failed ? 1 : 0;
    }
    sweep_free(&s);
    return status;
}
