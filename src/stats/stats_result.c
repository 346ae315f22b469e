/* stats_result.c: a run's result files, kept current kernel by kernel, written atomically, and
 * left behind by a run killed with SIGTERM or SIGINT (see stats_result.h).
 *
 * Each file is held in memory as its parts (stats_write.c): the head, with status "killed";
 * the kernels' parts, each rendered once, when its kernel has completed, and appended; and the
 * tail, the totals, rendered again at every update. Rendering a kernel once keeps an update's
 * cost that of one kernel's stats, however many kernels the run has.
 *
 * Signals. A handler may only call async-signal-safe functions: no stdio, no allocation, so it
 * never formats anything. It records the first signal in a volatile sig_atomic_t, then for
 * each guarded result:
 *   - deferred (stats_guard_set_direct(r, false): its caller is between kernels and checks
 *     stats_guard_signal before the next one): nothing; the caller stops there, writes the
 *     results with status "killed" from the normal path and ends with the signal;
 *   - direct (inside a kernel, which may run for hours and which gpu_run_kernel does not let
 *     us interrupt; and, for a program on the simulated GPU, always, since warpsim does not
 *     control the program between its launches): it writes the parts rendered at the last
 *     update, i.e. the kernels completed so far, with open/write/fsync/rename only
 *     (atomic_write_buffers, to targets resolved when the result was created).
 * Unless a deferred result's caller is to act, the handler then ends the process with the same
 * signal (default action), so its parent sees how it ended. The normal path changes the parts
 * only with both signals blocked, so a handler never sees a half-updated part; once a result's
 * final files are written, a signal leaves them. The guard is the one piece of process-wide
 * state in warpsim: signal dispositions are. */
#include "stats/stats_result.h"

#include "base/base.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ResultFile {
    StatsFormat fmt;
    char *path;
    AtomicFile target;       /* resolved at creation: what a handler writes */
    bool prepared;
    char *head, *tail;       /* as of the last update */
    size_t head_len, tail_len;
    char *kernels;           /* the parts of kernels [0, n_kernels) */
    size_t kernels_len, kernels_cap;
    uint32_t n_kernels;
} ResultFile;

struct StatsResult {
    ResultFile files[3];
    uint32_t n_files;
    volatile sig_atomic_t direct; /* guarded: a signal writes the files from the handler */
    volatile sig_atomic_t done;   /* the final files are written: a signal leaves them */
};

static const int guarded_signals[] = { SIGTERM, SIGINT };

/* Every result a signal may write (a program may simulate more than one GPU). */
#define GUARD_MAX 8

static struct {
    StatsResult *armed[GUARD_MAX];
    volatile sig_atomic_t signal; /* the first signal received */
    struct sigaction old[ARRAY_LEN(guarded_signals)];
    bool installed[ARRAY_LEN(guarded_signals)];
} guard;

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < ARRAY_LEN(guarded_signals); i++)
        sigaddset(&set, guarded_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* The parts of a file in their order; returns how many. Async-signal-safe. */
static size_t file_parts(const ResultFile *rf, const char **bufs, size_t *lens)
{
    bool shown;
    bool after = stats_kernels_after_tail(rf->fmt, rf->n_kernels, &shown);
    size_t n = 0;
    bufs[n] = rf->head, lens[n++] = rf->head_len;
    if (after)
        bufs[n] = rf->tail, lens[n++] = rf->tail_len;
    if (shown)
        bufs[n] = rf->kernels, lens[n++] = rf->kernels_len;
    if (!after)
        bufs[n] = rf->tail, lens[n++] = rf->tail_len;
    return n;
}

/* ---- the handler: async-signal-safe calls only ---- */

static void say(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    if (write(2, s, n) < 0)
        return; /* nowhere else to say it */
}

static void say_number(int v)
{
    char buf[16];
    size_t k = sizeof buf - 1;
    buf[k] = 0;
    unsigned u = v < 0 ? 0u : (unsigned)v;
    do
        buf[--k] = (char)('0' + u % 10);
    while ((u /= 10) && k > 0);
    say(buf + k);
}

/* Write a result's files as they were at its last update. */
static void write_from_handler(int sig, const StatsResult *r)
{
    for (uint32_t i = 0; i < r->n_files; i++) {
        const ResultFile *rf = &r->files[i];
        const char *bufs[3];
        size_t lens[3];
        int err = ENAMETOOLONG; /* what makes atomic_prepare fail */
        if (rf->prepared)
            err = atomic_write_buffers(&rf->target, bufs, lens, file_parts(rf, bufs, lens));
        say("warpsim: signal ");
        say_number(sig);
        say(err ? ": cannot write " : ": wrote the kernels completed so far (status killed) to ");
        say(rf->path);
        if (err) {
            say(" (errno ");
            say_number(err);
            say(")");
        }
        say("\n");
    }
}

static void on_signal(int sig)
{
    int saved_errno = errno;
    if (!guard.signal)
        guard.signal = sig;
    bool deferred = false;
    for (size_t i = 0; i < GUARD_MAX; i++) {
        const StatsResult *r = guard.armed[i];
        if (r && !r->direct)
            deferred = true; /* its caller stops at its next check */
        else if (r && !r->done)
            write_from_handler(sig, r);
    }
    if (!deferred) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig); /* blocked while this handler runs: the default action follows its return */
    }
    errno = saved_errno;
}

/* ---- the normal path ---- */

static FILE *render_begin(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    CHECK(f);
    return f;
}

/* Render the parts a file lacks into fresh buffers, then swap them in with the signals blocked. */
static void file_update(ResultFile *rf, const Stats *st, const StatsRunInfo *info)
{
    char *head, *tail, *kern;
    size_t head_len, tail_len, kern_len;
    FILE *f = render_begin(&head, &head_len);
    stats_write_head(f, rf->fmt, info);
    fclose(f);
    f = render_begin(&tail, &tail_len);
    stats_write_tail(f, rf->fmt, st);
    fclose(f);
    f = render_begin(&kern, &kern_len);
    for (uint32_t k = rf->n_kernels; k < st->n_kernels; k++)
        stats_write_kernel(f, rf->fmt, st, k);
    fclose(f);

    sigset_t old;
    block_signals(&old);
    char *old_head = rf->head, *old_tail = rf->tail;
    rf->head = head, rf->head_len = head_len;
    rf->tail = tail, rf->tail_len = tail_len;
    if (rf->kernels_len + kern_len > rf->kernels_cap) {
        rf->kernels_cap = MAX(rf->kernels_cap * 2, rf->kernels_len + kern_len);
        rf->kernels = xrealloc(rf->kernels, rf->kernels_cap);
    }
    memcpy(rf->kernels + rf->kernels_len, kern, kern_len);
    rf->kernels_len += kern_len;
    rf->n_kernels = st->n_kernels;
    restore_signals(&old);
    free(old_head);
    free(old_tail);
    free(kern);
}

static void result_update(StatsResult *r, const Stats *st, const StatsRunInfo *info, const char *status)
{
    StatsRunInfo with_status = *info;
    with_status.status = status;
    for (uint32_t i = 0; i < r->n_files; i++)
        file_update(&r->files[i], st, &with_status);
}

StatsResult *stats_result_create(const char *json, const char *csv, const char *text, const Stats *st,
                                 const StatsRunInfo *info)
{
    StatsResult *r = xcalloc(1, sizeof *r);
    const char *paths[] = { [STATS_TEXT] = text, [STATS_JSON] = json, [STATS_CSV] = csv };
    static const StatsFormat order[] = { STATS_JSON, STATS_CSV, STATS_TEXT };
    for (size_t i = 0; i < ARRAY_LEN(order); i++) {
        if (!paths[order[i]])
            continue;
        ResultFile *rf = &r->files[r->n_files++];
        rf->fmt = order[i];
        rf->path = xstrdup(paths[order[i]]);
        rf->prepared = atomic_prepare(&rf->target, rf->path);
    }
    result_update(r, st, info, STATS_STATUS_KILLED);
    return r;
}

void stats_result_update(StatsResult *r, const Stats *st, const StatsRunInfo *info)
{
    result_update(r, st, info, STATS_STATUS_KILLED);
}

bool stats_result_write(StatsResult *r, const Stats *st, const StatsRunInfo *info)
{
    result_update(r, st, info, info->status ? info->status : STATS_STATUS_COMPLETE);
    bool ok = true;
    sigset_t old;
    block_signals(&old);
    for (uint32_t i = 0; i < r->n_files; i++) {
        const ResultFile *rf = &r->files[i];
        const char *bufs[3];
        size_t lens[3];
        AtomicFile a;
        int err = atomic_prepare(&a, rf->path) ? atomic_write_buffers(&a, bufs, lens, file_parts(rf, bufs, lens))
                                               : errno;
        if (err) {
            fprintf(stderr, "warpsim: %s: cannot write: %s\n", rf->path, strerror(err));
            ok = false;
        }
    }
    r->done = 1; /* a signal from now on leaves these files as they are */
    restore_signals(&old);
    return ok;
}

static void guard_disarm(const StatsResult *r)
{
    sigset_t old;
    block_signals(&old);
    bool any = false;
    for (size_t i = 0; i < GUARD_MAX; i++) {
        if (guard.armed[i] == r)
            guard.armed[i] = NULL;
        any |= guard.armed[i] != NULL;
    }
    for (size_t i = 0; i < ARRAY_LEN(guarded_signals) && !any; i++) {
        if (guard.installed[i])
            sigaction(guarded_signals[i], &guard.old[i], NULL);
        guard.installed[i] = false;
    }
    restore_signals(&old);
}

void stats_result_free(StatsResult *r)
{
    if (!r)
        return;
    guard_disarm(r);
    for (uint32_t i = 0; i < r->n_files; i++) {
        ResultFile *rf = &r->files[i];
        free(rf->path);
        free(rf->head);
        free(rf->tail);
        free(rf->kernels);
    }
    free(r);
}

bool stats_guard_arm(StatsResult *r, bool direct)
{
    sigset_t old;
    block_signals(&old);
    size_t slot = GUARD_MAX;
    bool first = true;
    for (size_t i = 0; i < GUARD_MAX; i++) {
        if (guard.armed[i] == r)
            slot = GUARD_MAX + 1; /* armed already */
        else if (!guard.armed[i] && slot == GUARD_MAX)
            slot = i;
        first &= !guard.armed[i];
    }
    if (slot < GUARD_MAX) {
        r->direct = direct;
        guard.armed[slot] = r;
    }
    if (first && slot < GUARD_MAX)
        guard.signal = 0;
    for (size_t i = 0; i < ARRAY_LEN(guarded_signals) && first && slot < GUARD_MAX; i++) {
        if (sigaction(guarded_signals[i], NULL, &guard.old[i]) != 0 || guard.old[i].sa_handler != SIG_DFL)
            continue; /* the program handles or ignores it */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < ARRAY_LEN(guarded_signals); k++)
            sigaddset(&sa.sa_mask, guarded_signals[k]);
        guard.installed[i] = sigaction(guarded_signals[i], &sa, NULL) == 0;
    }
    restore_signals(&old);
    return slot < GUARD_MAX;
}

int stats_guard_set_direct(StatsResult *r, bool direct)
{
    r->direct = direct;
    return guard.signal;
}

int stats_guard_signal(void)
{
    return guard.signal;
}
