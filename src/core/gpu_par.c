/* gpu_par.c: the SMs of a core cycle on several threads (see gpu_par.h).
 *
 * A phase is one core cycle's SM work. The calling thread starts it by raising `phase`, runs
 * the first run of SMs itself, then waits for every worker's `done` to reach the phase. Every
 * wait spins a while and then sleeps on a futex: a phase is about a microsecond of work, well
 * below what a sleep and a wake cost, but threads left over between kernels (while the host
 * program runs), or more threads than the host has cores, must not burn the cores.
 *
 * A phase on several threads costs two hand-overs between cores (a few hundred ns here) and
 * moves the SMs' cache lines to the thread that runs them, and a front end's ordered calls
 * wait for the threads before; it pays when many SMs have work in the cycle and little of it
 * is ordered. While the cycles run fewer than gpu.par_min_sms SMs per thread (a moving
 * average), the calling thread runs every SM itself, in gpu.c's own loop (serial cycles).
 * While they run more, the two are timed: TUNE_WINDOW cycles serial, as many on all threads,
 * then TUNE_KEEP windows of the faster, and again. The choice varies from run to run with the
 * host; nothing else does, as each SM's cycle runs in SM order as far as any other SM can
 * tell. */
#define _DEFAULT_SOURCE /* syscall */
#include "core/gpu_par.h"

#include "base/base.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

enum {
    SPINS_NEXT_PHASE = 20000, /* a worker's spins on `phase` before it sleeps */
    SPINS_IN_PHASE = 4000,    /* a wait's spins within a phase before it sleeps */
    SPINS_SHARED = 20, /* either, with more threads than the host's cores: the thread waited for
                        * may not be running, and spinning would keep it from a core */
    PAR_AVG_ONE = 16, /* the SMs a phase ran, a moving average over about 8 phases, in 1/16ths */
};

enum {
    TUNE_WINDOW = 2048, /* core cycles a timed trial of serial or parallel cycles lasts */
    TUNE_KEEP = 16,     /* trial windows the faster is kept for before the next trials */
};
typedef enum TuneStep { TUNE_START, TUNE_SERIAL, TUNE_PARALLEL, TUNE_CHOSEN } TuneStep;

/* The order of the SMs the running thread runs now (NULL outside a phase, and on one thread). */
static _Thread_local SmOrder *tl_order;

/* A 32-bit word one thread sets and others wait for (phases wrap; only equality is asked). */
typedef struct Signal {
    _Atomic uint32_t v;
    _Atomic uint32_t sleepers;
} Signal;

static void signal_set(Signal *s, uint32_t v)
{
    atomic_store(&s->v, v);
    if (atomic_load(&s->sleepers)) /* read after the store (both sequentially consistent) */
        syscall(SYS_futex, &s->v, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Wait until s's value is want (equal: true) or differs from want (equal: false); its value. */
static uint32_t signal_wait(Signal *s, uint32_t want, bool equal, uint32_t spins)
{
    uint32_t v;
    for (uint32_t i = 0; i < spins; i++) {
        v = atomic_load_explicit(&s->v, memory_order_acquire);
        if ((v == want) == equal)
            return v;
        CPU_RELAX();
    }
    atomic_fetch_add(&s->sleepers, 1);
    /* the futex sleeps only while the word still holds v: a set in between is not missed */
    while (((v = atomic_load(&s->v)) == want) != equal)
        syscall(SYS_futex, &s->v, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
    atomic_fetch_sub(&s->sleepers, 1);
    return v;
}

/* A thread and its SMs. Other threads spin on `done` while it runs: nothing it writes during a
 * phase shares that cache line, or each write would wait for the line to come back. */
typedef struct Worker {
    _Alignas(64) Signal done; /* the last phase whose SMs it has finished */
    _Alignas(64) uint32_t cur; /* the phase it runs (its own copy) */
    bool progress;            /* that phase's */
    uint32_t n_ran;           /* SMs whose cycle ran in it */
    uint32_t lo, hi;          /* its SMs */
    uint32_t *noted, n_noted; /* that phase's SMs with something for the GPU to collect */
    pthread_t tid;
    GpuPar *par;
    SmOrder order;
    _Alignas(64) MemPool pool; /* its SMs' requests: a view of the machine's pool */
    char pad[64]; /* the next worker's `done` on another cache line */
} Worker;

struct GpuPar {
    Sm *sms;
    uint32_t n_sms, n;
    Worker *w;
    MemPool *pool;
    uint32_t spins_next, spins_in; /* SPINS_*, or SPINS_SHARED */
    bool serial;
    uint32_t avg_ran; /* the SMs a phase ran, averaged, in 1/PAR_AVG_ONE */
    uint32_t enter, leave; /* busy: from avg_ran >= enter, until avg_ran < leave */
    bool busy, tune;       /* tune: gpu.par_min_sms > 0 (else every cycle on all threads) */
    TuneStep step;
    uint32_t tune_left;    /* cycles left in this step */
    double t0, serial_s;   /* when the step began; the serial trial's seconds */
    uint32_t *noted, n_noted; /* the threads' noted SMs, in SM order */
    _Alignas(64) uint64_t now;
    Signal phase;
    _Atomic bool quit;
};

void sm_order_wait(SmOrder *o)
{
    GpuPar *p = o->par;
    uint32_t ph = p->w[o->thread].cur;
    for (uint32_t t = 0; t < o->thread; t++)
        signal_wait(&p->w[t].done, ph, true, p->spins_in);
    o->waited = true;
}

void front_order_here(void)
{
    SmOrder *o = tl_order;
    if (o && !o->waited)
        sm_order_wait(o);
}

/* The awake SMs of w's run, in order. The first ordered front-end call of the phase waits
 * for the threads before this one (sm_front_order); once it has, the rest need not. */
static bool run_block(GpuPar *p, Worker *w, uint64_t now)
{
    bool progress = false;
    uint32_t ran = 0;
    w->order.waited = w->order.thread == 0;
    w->n_noted = 0;
    for (uint32_t s = w->lo; s < w->hi; s++) {
        Sm *sm = &p->sms[s];
        if (sm->next_wake > now)
            continue;
        ran++;
        progress |= sm_cycle(sm, now);
        /* noted here, so that the GPU need not read every SM (another core's lines) */
        if (sm->n_done_ctas || sm->cta_room_grew)
            w->noted[w->n_noted++] = s;
    }
    w->n_ran = ran;
    return progress;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    GpuPar *p = w->par;
    uint32_t seen = 0;
    tl_order = &w->order;
    for (;;) {
        seen = signal_wait(&p->phase, seen, false, p->spins_next);
        if (atomic_load(&p->quit))
            return NULL;
        w->cur = seen;
        w->progress = run_block(p, w, p->now);
        signal_set(&w->done, seen);
    }
}

/* Serial cycles run the SMs as one thread does (no order, the machine's pool, plain words);
 * cycles on all threads, each SM with its thread's order and pool view. Any pool of the arena
 * takes back any request, so those in flight may cross the switch. */
static void set_serial(GpuPar *p, bool serial)
{
    p->serial = serial;
    for (uint32_t t = 0; t < p->n; t++)
        for (uint32_t s = p->w[t].lo; s < p->w[t].hi; s++) {
            Sm *sm = &p->sms[s];
            sm->order = serial ? NULL : &p->w[t].order;
            sm->l1d.pool = serial ? p->pool : &p->w[t].pool;
            sm->l1d.shared_words = !serial;
        }
}

GpuPar *gpu_par_new(Sm *sms, uint32_t n_sms, uint32_t n_threads, uint32_t min_sms, MemPool *pool)
{
    CHECK(n_threads >= 2 && n_threads <= n_sms);
    GpuPar *p = aligned_alloc(64, (sizeof *p + 63) / 64 * 64); /* its own lines: others are written each phase */
    memset(p, 0, sizeof *p);
    p->sms = sms;
    p->n_sms = n_sms;
    p->n = n_threads;
    p->pool = pool;
    p->w = aligned_alloc(64, (n_threads * sizeof *p->w + 63) / 64 * 64);
    memset(p->w, 0, n_threads * sizeof *p->w);
    p->noted = xcalloc(n_sms, sizeof *p->noted);
    p->enter = min_sms * n_threads * PAR_AVG_ONE;
    p->leave = min_sms ? (min_sms - 1) * n_threads * PAR_AVG_ONE : 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    bool shared = cores > 0 && n_threads > (uint64_t)cores;
    p->spins_next = shared ? SPINS_SHARED : SPINS_NEXT_PHASE;
    p->spins_in = shared ? SPINS_SHARED : SPINS_IN_PHASE;
    for (uint32_t t = 0; t < n_threads; t++) {
        Worker *w = &p->w[t];
        w->par = p;
        w->lo = (uint32_t)((uint64_t)n_sms * t / n_threads);
        w->hi = (uint32_t)((uint64_t)n_sms * (t + 1) / n_threads);
        w->order = (SmOrder){.par = p, .thread = t, .waited = true};
        w->noted = xcalloc(w->hi - w->lo + 1, sizeof *w->noted);
        /* thread 0's SMs too: the machine's own list is the memory side's, and the views' */
        mempool_init_view(&w->pool, pool);
    }
    p->tune = min_sms > 0;
    set_serial(p, p->tune); /* serial until the cycles show enough work */
    for (uint32_t t = 1; t < n_threads; t++)
        if (pthread_create(&p->w[t].tid, NULL, worker_main, &p->w[t]))
            fatal("gpu.threads = %u: cannot start thread %u", n_threads, t);
    return p;
}

void gpu_par_free(GpuPar *p)
{
    if (!p)
        return;
    atomic_store(&p->quit, true);
    signal_set(&p->phase, atomic_load(&p->phase.v) + 1);
    for (uint32_t t = 1; t < p->n; t++)
        pthread_join(p->w[t].tid, NULL);
    set_serial(p, true);
    for (uint32_t t = 0; t < p->n; t++) {
        free(p->w[t].noted);
        mempool_free(&p->w[t].pool);
    }
    free(p->noted);
    free(p->w);
    free(p);
}

static uint32_t average(GpuPar *p, uint32_t ran)
{
    p->avg_ran = p->avg_ran - p->avg_ran / 8 + ran * PAR_AVG_ONE / 8;
    return p->avg_ran;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* After each core cycle, either way: whether the next runs serial (see the top). */
static void tune(GpuPar *p, uint32_t ran)
{
    if (!p->tune)
        return;
    uint32_t avg = average(p, ran);
    bool busy = p->busy ? avg >= p->leave : avg >= p->enter;
    if (!busy) {
        if (!p->serial)
            set_serial(p, true);
        p->busy = false;
        return;
    }
    if (!p->busy) { /* trials from the next cycle */
        p->busy = true;
        p->step = TUNE_START;
        p->tune_left = 1;
    }
    if (--p->tune_left)
        return;
    double t = now_seconds();
    switch (p->step) {
    case TUNE_START:
    case TUNE_CHOSEN: p->step = TUNE_SERIAL; set_serial(p, true); break;
    case TUNE_SERIAL: p->serial_s = t - p->t0; p->step = TUNE_PARALLEL; set_serial(p, false); break;
    case TUNE_PARALLEL: p->step = TUNE_CHOSEN; set_serial(p, p->serial_s <= t - p->t0); break;
    }
    p->t0 = t;
    p->tune_left = p->step == TUNE_CHOSEN ? TUNE_WINDOW * TUNE_KEEP : TUNE_WINDOW;
}

void gpu_par_kernel_begin(GpuPar *p)
{
    p->busy = false; /* trials again: the last ones may have timed the host program too */
    p->avg_ran = 0;
    if (p->tune)
        set_serial(p, true);
}

bool gpu_par_serial(const GpuPar *p) { return p->serial; }

void gpu_par_serial_ran(GpuPar *p, uint32_t ran) { tune(p, ran); }

bool gpu_par_cycle(GpuPar *p, uint64_t now)
{
    CHECK(!p->serial);
    Worker *w0 = &p->w[0];
    uint32_t ph = w0->cur + 1;
    p->now = now;
    w0->cur = ph;
    signal_set(&p->phase, ph);
    tl_order = &w0->order;
    bool progress = run_block(p, w0, now);
    tl_order = NULL;
    signal_set(&w0->done, ph);
    p->n_noted = 0;
    uint32_t ran = 0;
    for (uint32_t t = 0; t < p->n; t++) {
        Worker *w = &p->w[t];
        if (t) {
            signal_wait(&w->done, ph, true, p->spins_in);
            progress |= w->progress;
        }
        ran += w->n_ran;
        for (uint32_t i = 0; i < w->n_noted; i++)
            p->noted[p->n_noted++] = w->noted[i];
    }
    tune(p, ran);
    return progress;
}

uint32_t gpu_par_noted(const GpuPar *p, const uint32_t **sms)
{
    *sms = p->noted;
    return p->n_noted;
}
