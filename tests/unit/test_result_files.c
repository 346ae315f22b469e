/* test_result_files.c: how a run's result files survive errors and kills: atomic replacement
 * (base.h) under write errors and a full disk, the status every result carries (complete,
 * stopped: max_cycles, fault, killed) and its exit status, and the results a run killed by
 * SIGTERM leaves (stats_result.c), in-process and through the warpsim binary. */
#include "../test.h"

#include "base/base.h"
#include "exp/json.h"
#include "stats/stats_result.h"
#include "warpsim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A fresh folder under the test's scratch directory. */
static void scratch(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "%s/%s", test_tmpdir(), name);
    mkdir_p(dir);
}

/* Files of a folder whose name holds ".tmp." (temporaries left behind). */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

static JsonValue *load_json(const char *path)
{
    char *text = read_file(path, NULL), err[256];
    JsonValue *j = text ? json_parse(text, err, sizeof err) : NULL;
    free(text);
    return j;
}

TEST(result_atomic_replace_and_discard)
{
    char dir[512], path[600], link[600], *text;
    scratch(dir, sizeof dir, "atomic");
    snprintf(path, sizeof path, "%s/r.json", dir);
    write_text(path, "old\n");
    chmod(path, 0640);
    AtomicFile a;
    FILE *f = atomic_open(&a, path);
    ASSERT(f);
    fputs("new\n", f);
    text = read_file(path, NULL);
    EXPECT_STR(text, "old\n"); /* nothing is seen before the commit */
    free(text);
    EXPECT(atomic_commit(&a));
    text = read_file(path, NULL);
    EXPECT_STR(text, "new\n");
    free(text);
    struct stat st;
    EXPECT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640); /* the replaced file's permissions */
    EXPECT_EQ_I(temporaries(dir), 0);

    f = atomic_open(&a, path);
    ASSERT(f);
    fputs("half", f);
    atomic_discard(&a);
    text = read_file(path, NULL);
    EXPECT_STR(text, "new\n");
    free(text);
    EXPECT_EQ_I(temporaries(dir), 0);

    /* A link is followed: the file it names is replaced, the link stays. */
    snprintf(link, sizeof link, "%s/link.json", dir);
    EXPECT(symlink("r.json", link) == 0);
    const char *bufs[] = { "via ", "link\n" };
    size_t lens[] = { 4, 5 };
    EXPECT(atomic_prepare(&a, link));
    EXPECT_EQ_I(atomic_write_buffers(&a, bufs, lens, 2), 0);
    EXPECT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    text = read_file(path, NULL);
    EXPECT_STR(text, "via link\n");
    free(text);

    /* Not a regular file: written in place. */
    f = atomic_open(&a, "/dev/null");
    ASSERT(f);
    fputs("x", f);
    EXPECT(atomic_commit(&a));
}

/* In a child limited to files of 1 KiB (a full disk that needs no root: writes past the limit
 * fail with EFBIG), replace path with 64 KiB through stdio (how = 0) or atomic_write_buffers
 * (how = 1); exits with the errno of the failure, 0 if none. */
static int write_big_limited(const char *path, int how)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { 1024, 1024 };
        setrlimit(RLIMIT_FSIZE, &rl);
        static char big[1 << 16];
        memset(big, 'x', sizeof big);
        AtomicFile a;
        int err = 0;
        if (how == 0) {
            FILE *f = atomic_open(&a, path);
            if (!f)
                _exit(100);
            fwrite(big, 1, sizeof big, f);
            err = atomic_commit(&a) ? 0 : errno;
        } else {
            const char *bufs[] = { big };
            size_t lens[] = { sizeof big };
            err = atomic_prepare(&a, path) ? atomic_write_buffers(&a, bufs, lens, 1) : 101;
        }
        _exit(err);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(result_atomic_write_errors)
{
    char dir[512], path[600], *text;
    scratch(dir, sizeof dir, "atomic-errors");
    snprintf(path, sizeof path, "%s/r.json", dir);
    write_text(path, "good\n");
    for (int how = 0; how < 2; how++) {
        EXPECT_EQ_I(write_big_limited(path, how), EFBIG);
        text = read_file(path, NULL);
        EXPECT_STR(text, "good\n"); /* the previous result, whole */
        free(text);
        EXPECT_EQ_I(temporaries(dir), 0);
    }
    /* A device that is full: the error comes back from the commit. */
    AtomicFile a;
    FILE *f = atomic_open(&a, "/dev/full");
    ASSERT(f);
    fputs("x", f);
    errno = 0;
    EXPECT(!atomic_commit(&a));
    EXPECT_EQ_I(errno, ENOSPC);
    /* A folder that does not exist. */
    snprintf(path, sizeof path, "%s/missing/r.json", dir);
    f = atomic_open(&a, path);
    ASSERT(f);
    EXPECT(!atomic_commit(&a));
    EXPECT_EQ_I(errno, ENOENT);
}

/* ---- the results a killed run leaves, in-process ---- */

typedef struct Machine {
    uint64_t cycles, insts, miss[2];
} Machine;

static void machine_kernel(Stats *st, Machine *m, const char *name, uint64_t cycles)
{
    stats_kernel_begin(st);
    m->cycles += cycles;
    m->insts += 2 * cycles;
    m->miss[0] += 3, m->miss[1] += 4;
    stats_kernel_end(st, name);
}

static void machine_init(Stats *st, Machine *m)
{
    memset(m, 0, sizeof *m);
    stats_init(st);
    stats_counter(st, &m->cycles, "sim.cycles", "core cycles");
    stats_counter(st, &m->insts, "sim.thread_insts", "thread instructions");
    for (unsigned i = 0; i < 2; i++)
        stats_counter(st, &m->miss[i], "sm[%u].l1d.miss", "L1D misses", i);
}

static char *render(StatsFormat fmt, const Stats *st, const StatsRunInfo *info)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write(f, fmt, st, info);
    fclose(f);
    return buf;
}

TEST(result_kept_current_and_killed)
{
    char dir[512], json[600], csv[600], text[600];
    scratch(dir, sizeof dir, "kept");
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    snprintf(text, sizeof text, "%s/r.txt", dir);
    Config c;
    config_init(&c);
    StatsRunInfo info = {.workload = "w", .config = &c, .wall_seconds = 0.25, .core_mhz = 700, .status = NULL};
    for (int kernels = 0; kernels <= 3; kernels++) {
        /* A child completes some kernels, then gets SIGTERM inside the next one. */
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(open("/dev/null", O_WRONLY), 2); /* the handler says what it wrote */
            Stats st;
            Machine m;
            machine_init(&st, &m);
            StatsResult *r = stats_result_create(json, csv, text, &st, &info);
            stats_guard_arm(r, false);
            for (int k = 0; k < kernels; k++) {
                stats_guard_set_direct(r, true);
                machine_kernel(&st, &m, k == 1 ? "k,\"1\"" : "k", 100 + (uint64_t)k);
                stats_guard_set_direct(r, false);
                stats_result_update(r, &st, &info);
            }
            stats_guard_set_direct(r, true);
            m.cycles += 1000; /* the unfinished kernel: not in the results */
            raise(SIGTERM);
            _exit(0); /* not reached */
        }
        int st = 0;
        waitpid(pid, &st, 0);
        EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
        /* What the handler wrote is what the writers give for the completed kernels. */
        Stats want;
        Machine m;
        machine_init(&want, &m);
        for (int k = 0; k < kernels; k++)
            machine_kernel(&want, &m, k == 1 ? "k,\"1\"" : "k", 100 + (uint64_t)k);
        StatsRunInfo killed = info;
        killed.status = STATS_STATUS_KILLED;
        const char *paths[] = { [STATS_TEXT] = text, [STATS_JSON] = json, [STATS_CSV] = csv };
        for (int fmt = STATS_TEXT; fmt <= STATS_CSV; fmt++) {
            char *got = read_file(paths[fmt], NULL), *expect = render((StatsFormat)fmt, &want, &killed);
            EXPECT_STR(got, expect);
            free(got);
            free(expect);
        }
        stats_free(&want);
        JsonValue *j = load_json(json);
        ASSERT(j);
        EXPECT_STR(json_str(json_get(j, "status")), "killed");
        EXPECT_EQ_I(json_get(j, "kernels")->n, kernels);
        json_free(j);
    }
}

TEST(result_signal_between_kernels_deferred)
{
    char dir[512], json[600];
    scratch(dir, sizeof dir, "deferred");
    snprintf(json, sizeof json, "%s/r.json", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        Stats st;
        Machine m;
        machine_init(&st, &m);
        StatsRunInfo info = {.workload = "w", .config = NULL, .wall_seconds = 0, .core_mhz = 700, .status = NULL};
        StatsResult *r = stats_result_create(json, NULL, NULL, &st, &info);
        int bad = 0;
        bad |= !stats_guard_arm(r, false) << 0;
        bad |= stats_guard_arm(r, false) << 1; /* once */
        raise(SIGTERM);                        /* between kernels: only recorded */
        bad |= (stats_guard_signal() != SIGTERM) << 2;
        bad |= (stats_guard_set_direct(r, true) != SIGTERM) << 3; /* seen before the next kernel */
        stats_guard_set_direct(r, false);
        info.status = STATS_STATUS_KILLED;
        bad |= !stats_result_write(r, &st, &info) << 4;
        stats_result_free(r);
        _exit(bad);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT(WIFEXITED(st));
    EXPECT_EQ_I(WEXITSTATUS(st), 0);
    JsonValue *j = load_json(json);
    EXPECT(j && !strcmp(json_str(json_get(j, "status")), "killed"));
    json_free(j);
}

/* ---- through the binary ---- */

static char out[1 << 16];

TEST(result_run_status_max_cycles)
{
    char dir[512], cmd[2048];
    scratch(dir, sizeof dir, "maxcyc");
    snprintf(cmd, sizeof cmd, "%s run --quiet -o gpu.max_cycles=100 workloads/synthetic/atax-small.syn --json %s/r.json "
             "--csv %s/r.csv --stats %s/r.txt", test_warpsim(), dir, dir, dir);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 4);
    snprintf(cmd, sizeof cmd, "%s/r.json", dir);
    JsonValue *j = load_json(cmd);
    ASSERT(j);
    EXPECT_STR(json_str(json_get(j, "status")), "stopped: max_cycles");
    json_free(j);
    snprintf(cmd, sizeof cmd, "%s/r.csv", dir);
    char *text = read_file(cmd, NULL);
    EXPECT_CONTAINS(text, "\nrun,status,stopped: max_cycles\n");
    free(text);
    snprintf(cmd, sizeof cmd, "%s/r.txt", dir);
    text = read_file(cmd, NULL);
    EXPECT_CONTAINS(text, "\nstatus stopped: max_cycles\n");
    free(text);
    EXPECT_CONTAINS(out, "warpsim: kernel 'atax_small' stopped at gpu.max_cycles = 100 (0 of ");
    /* The same run to completion says so, and exits 0. */
    snprintf(cmd, sizeof cmd, "%s run --quiet workloads/synthetic/atax-small.syn --json %s/r.json", test_warpsim(), dir);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s/r.json", dir);
    j = load_json(cmd);
    EXPECT(j && !strcmp(json_str(json_get(j, "status")), "complete"));
    json_free(j);
}

/* The run's status in its JSON result at path is want. */
static void expect_json_status(const char *path, const char *want)
{
    JsonValue *j = load_json(path);
    EXPECT_STR(j ? json_str(json_get(j, "status")) : NULL, want);
    json_free(j);
}

/* The spin and stall limits stop a synthetic stream as they stop a CUDA program: the status
 * names the limit (not max_cycles), the exit status is the run limits' 4, and one line says
 * which limit and how to raise it. compute.syn stores only at its end, so gpu.spin_insts meets
 * it long before that; with spin_insts off, gpu.stall_insts does. */
TEST(result_run_status_spin_stall)
{
    static const struct {
        const char *opts, *status, *line;
    } stops[] = {
        {"-o gpu.spin_insts=10000", "stopped: spin_insts",
         " warp instructions (gpu.spin_insts) since a CTA last completed or a thread last wrote global or local "
         "memory, 0 of 30 CTAs done;"},
        {"-o gpu.spin_insts=0 -o gpu.stall_insts=10000", "stopped: stall_insts",
         " warp instructions (gpu.stall_insts) since a CTA last completed, 0 of 30 CTAs done;"},
    };
    char dir[512], cmd[2048];
    scratch(dir, sizeof dir, "spinstall");
    for (size_t i = 0; i < ARRAY_LEN(stops); i++) {
        snprintf(cmd, sizeof cmd, "%s run --quiet %s workloads/synthetic/compute.syn --json %s/r.json --stats %s/r.txt",
                 test_warpsim(), stops[i].opts, dir, dir);
        EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 4);
        EXPECT_CONTAINS(out, "warpsim: kernel 'compute' stopped at core cycle ");
        EXPECT_CONTAINS(out, stops[i].line);
        EXPECT(!strstr(out, "max_cycles"));
        snprintf(cmd, sizeof cmd, "%s/r.json", dir);
        expect_json_status(cmd, stops[i].status);
        snprintf(cmd, sizeof cmd, "%s/r.txt", dir);
        char *text = read_file(cmd, NULL), want[64];
        snprintf(want, sizeof want, "\nstatus %s\n", stops[i].status);
        EXPECT_CONTAINS(text, want);
        free(text);
    }
}

/* The same stops of a CUDA program under `warpsim exec` exit with the run limits' 4 too (they
 * exited 1), in both modes: gesummv's CTAs run far longer than 1000 warp instructions, and
 * mvt's first stores wait for loads while its warps issue more than 100. */
TEST(result_exec_status_spin_stall)
{
    char dir[512], bin[1024], cmd[2200], json[600];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    snprintf(bin, sizeof bin, "%.*sworkloads/polybench", slash ? (int)(slash - dir + 1) : 0, dir);
    snprintf(cmd, sizeof cmd, "%s/gesummv/host", bin);
    if (access(cmd, X_OK) != 0) {
        printf("note result_exec_status_spin_stall: %s is not built (make builds it): skipped\n", cmd);
        return;
    }
    scratch(dir, sizeof dir, "execspin");
    snprintf(json, sizeof json, "%s/r.json", dir);
    const char *modes[] = {"", "--functional "};
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, "%s exec %s--quiet -o gpu.spin_insts=0 -o gpu.stall_insts=1000 --json %s "
                 "%s/gesummv/host n=256", test_warpsim(), modes[m], json, bin);
        EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 4);
        EXPECT_CONTAINS(out, "-o gpu.stall_insts=N (0: no limit)");
        expect_json_status(json, "stopped: stall_insts");
    }
    snprintf(cmd, sizeof cmd, "%s exec --quiet -o gpu.spin_insts=100 --json %s %s/mvt/host n=1024", test_warpsim(),
             json, bin);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 4);
    EXPECT_CONTAINS(out, "-o gpu.spin_insts=N (0: no limit)");
    expect_json_status(json, "stopped: spin_insts");
}

/* Start `warpsim ARGS...` (NULL-terminated) with its output discarded; its pid. */
static pid_t spawn(const char *const *args)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        char *argv[32];
        int n = 0;
        argv[n++] = xstrdup(test_warpsim());
        for (; args[n - 1] && n < 31; n++)
            argv[n] = xstrdup(args[n - 1]);
        argv[n] = NULL;
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

TEST(result_run_killed_by_sigterm)
{
    char dir[512], syn[600], json[600], csv[600];
    scratch(dir, sizeof dir, "killed");
    snprintf(syn, sizeof syn, "%s/long.syn", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    /* A quick kernel, then one that would run for hours. */
    write_text(syn, "kernel quick\ngrid 1\nblock 32\narray A 0x10000000 4\nloop i 4\n  load A[tid*1024]\n"
                    "  alu 1 fp\nend\nkernel long\ngrid 60\nblock 256\nloop i 1000000\n  load A[tid*1024 + i]\n"
                    "  alu 1 fp\nend\n");
    const char *args[] = { "run", "--quiet", syn, "--json", json, "--csv", csv, NULL };
    pid_t pid = spawn(args);
    ASSERT(pid > 0);
    sleep_s(1.5);
    kill(pid, SIGTERM);
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    JsonValue *j = load_json(json);
    ASSERT(j);
    EXPECT_STR(json_str(json_get(j, "status")), "killed");
    const JsonValue *ks = json_get(j, "kernels");
    ASSERT(ks && ks->n == 1); /* the kernels completed before the signal */
    EXPECT_STR(json_str(json_get(&ks->items[0], "name")), "quick");
    EXPECT(json_number(json_get(json_get(j, "total"), "sim.cycles"), 0) > 0);
    json_free(j);
    char *text = read_file(csv, NULL);
    EXPECT_CONTAINS(text, "\nrun,status,killed\n");
    free(text);
    EXPECT_EQ_I(temporaries(dir), 0);
}

TEST(result_run_unwritable_result)
{
    char dir[512], cmd[2048], json[700], *text;
    scratch(dir, sizeof dir, "full");
    snprintf(json, sizeof json, "%s/r.json", dir);
    write_text(json, "{\"the previous\": \"result\"}\n");
    /* A full disk as a limit on file sizes (8 blocks: the result does not fit). */
    snprintf(cmd, sizeof cmd, "trap '' XFSZ; ulimit -f 8; exec %s run --quiet workloads/synthetic/conflict.syn --json %s",
             test_warpsim(), json);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    EXPECT_CONTAINS(out, "r.json: cannot write: File too large");
    text = read_file(json, NULL);
    EXPECT_STR(text, "{\"the previous\": \"result\"}\n");
    free(text);
    EXPECT_EQ_I(temporaries(dir), 0);
    snprintf(cmd, sizeof cmd, "%s run --quiet workloads/synthetic/conflict.syn --csv /dev/full", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    EXPECT_CONTAINS(out, "warpsim: /dev/full: cannot write: No space left on device");

    /* A real full file system where one can be mounted (root): a 64 KiB tmpfs, filled up, in a
     * mount namespace of its own, so that it goes away with the shell whatever happens. */
    char mnt[600];
    snprintf(mnt, sizeof mnt, "%s/tmpfs", dir);
    mkdir_p(mnt);
    snprintf(cmd, sizeof cmd, "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs %s || exit 99; "
             "echo \"{\\\"kept\\\": 1}\" > %s/r.json; dd if=/dev/zero of=%s/fill bs=1k count=200 2>/dev/null; "
             "%s run --quiet workloads/synthetic/conflict.syn --json %s/r.json; echo \"rc=$?\"; "
             "cat %s/r.json; ls %s'", mnt, mnt, mnt, test_warpsim(), mnt, mnt, mnt);
    if (geteuid() != 0 || test_run_cmd(cmd, out, sizeof out) == 99) {
        printf("note result_run_unwritable_result: no tmpfs mounted (not root?): the full-disk case is simulated only\n");
        return;
    }
    EXPECT_CONTAINS(out, "r.json: cannot write: No space left on device\nrc=1\n{\"kept\": 1}\nfill\nr.json\n");
}

TEST(result_fault_status)
{
    char dir[512], json[600];
    scratch(dir, sizeof dir, "fault");
    snprintf(json, sizeof json, "%s/r.json", dir);
    const char *argv[] = { "--quiet", "--json", json };
    char err[512];
    WarpsimSim *s = warpsim_create(3, argv, err, sizeof err);
    ASSERT(s);
    /* Lanes store 64 B apart into a 16-byte shared array: the kernel faults. */
    WarpsimModule *m;
    ASSERT(warpsim_module_load(s, ".version 7.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry k() { .reg .b32 %r<4>; .shared .align 4 .b8 s[16];\n"
                                  " mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 6; mov.u32 %r3, s;\n"
                                  " add.u32 %r2, %r2, %r3; st.shared.u32 [%r2], %r1; ret; }\n",
                               "fault.ptx", &m) == WARPSIM_OK);
    const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 64, 1, 1 };
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    WarpsimStatus st = warpsim_launch(s, m, "k", grid, block, 0, NULL, 0);
    warpsim_destroy(s);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null);
    EXPECT_EQ_I(st, WARPSIM_E_ILLEGAL_ADDRESS);
    JsonValue *j = load_json(json);
    ASSERT(j);
    const char *status = json_str(json_get(j, "status"));
    EXPECT(status && !strncmp(status, "fault: ", 7));
    EXPECT_CONTAINS(status, "shared memory");
    json_free(j);
}

/* A suite workload runs as a child of warpsim (cmd_exec.c): the status and the exit status
 * come through it, and a SIGTERM to warpsim reaches the program. */
TEST(result_suite_run_status)
{
    char dir[512], host[1024], cmd[2048], json[600];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    snprintf(host, sizeof host, "%.*sworkloads/polybench/gesummv/host", slash ? (int)(slash - dir + 1) : 0, dir);
    if (access(host, X_OK) != 0) {
        printf("note result_suite_run_status: %s is not built (make builds it): skipped\n", host);
        return;
    }
    scratch(dir, sizeof dir, "suite");
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(cmd, sizeof cmd, "%s run --quiet -o gpu.max_cycles=100 gesummv --json %s -- n=256", test_warpsim(), json);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 4);
    JsonValue *j = load_json(json);
    EXPECT(j && !strcmp(json_str(json_get(j, "status")), "stopped: max_cycles"));
    json_free(j);
    snprintf(cmd, sizeof cmd, "%s run --quiet gesummv --json %s --csv /dev/full -- n=256", test_warpsim(), json);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    j = load_json(json);
    EXPECT(j && !strcmp(json_str(json_get(j, "status")), "complete"));
    json_free(j);

    const char *args[] = { "run", "--quiet", "gesummv", "--json", json, "--", "n=2048", NULL };
    pid_t pid = spawn(args);
    ASSERT(pid > 0);
    sleep_s(1.0);
    kill(pid, SIGTERM);
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    j = load_json(json);
    EXPECT(j && !strcmp(json_str(json_get(j, "status")), "killed"));
    json_free(j);
}
