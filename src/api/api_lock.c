/* api_lock.c: the state warpsim's CUDA libraries share in one process: one recursive mutex that
 * serialises their entry points, and one simulator.
 *
 * The simulated device is synchronous and its simulator is not thread-safe, so host threads
 * that share it take turns: an entry point holds the lock from its first line until it returns
 * (API_LOCKED, a guard variable whose cleanup unlocks), a launch running to completion under
 * it. Recursive, because entry points call one another (cudaMallocHost -> cudaHostAlloc).
 *
 * libcudart.so.13 and libcuda.so.1 each link a copy of this file. A program that uses both (a
 * driver-API kernel launched on cudaMalloc'd memory, as CUDA allows: the runtime works in the
 * driver's primary context) must see one device: one memory, one clock, one results file. So
 * each copy asks the dynamic linker for warpsim_api_shared and uses the first definition in the
 * process's global scope, the same one whichever library asks. A library loaded privately
 * (dlopen with RTLD_LOCAL) finds its own and gets a device of its own. The simulator code keeps
 * no mutable global state, so a simulator created by one library's copy of it runs under the
 * other's. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "api/api_lock.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct ApiShared {
    pthread_mutex_t lock;
    WarpsimSim *sim;
    bool init_failed;  /* WARPSIM_ARGS was bad */
    bool closed;       /* the results are written: the process is exiting */
    void (*flush)(void); /* runs the work the runtime holds back (runtime_queue.c), or NULL */
    bool flushing;
    char init_err[1024];
} ApiShared;

/* Exported from both libraries (their maps export warpsim_*); not for programs. */
ApiShared *warpsim_api_shared(void);

static ApiShared api_own;
static pthread_once_t api_own_once = PTHREAD_ONCE_INIT;
static ApiShared *api_state;
static pthread_once_t api_state_once = PTHREAD_ONCE_INIT;

static void api_own_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&api_own.lock, &a);
    pthread_mutexattr_destroy(&a);
}

ApiShared *warpsim_api_shared(void)
{
    pthread_once(&api_own_once, api_own_init);
    return &api_own;
}

static void api_state_find(void)
{
    ApiShared *(*first)(void);
    *(void **)&first = dlsym(RTLD_DEFAULT, "warpsim_api_shared");
    api_state = first ? first() : warpsim_api_shared();
}

static ApiShared *api_shared(void)
{
    pthread_once(&api_state_once, api_state_find);
    return api_state;
}

int api_lock(void)
{
    pthread_mutex_lock(&api_shared()->lock);
    return 0;
}

void api_unlock_at_return(int *guard)
{
    (void)guard;
    pthread_mutex_unlock(&api_shared()->lock);
}

WarpsimSim *api_sim(void)
{
    return api_shared()->sim;
}

uint32_t api_device_arch(void)
{
    WarpsimDeviceInfo di;
    warpsim_device_info(api_sim(), &di);
    return di.cc_major * 10 + di.cc_minor;
}

bool api_sim_closed(void)
{
    return api_shared()->closed;
}

void api_set_flush(void (*flush)(void))
{
    api_shared()->flush = flush;
}

void api_flush(void)
{
    ApiShared *sh = api_shared();
    if (!sh->flush || sh->flushing)
        return;
    sh->flushing = true;
    sh->flush();
    sh->flushing = false;
}

static void api_sim_exit(void)
{
    API_LOCKED;
    ApiShared *sh = api_shared();
    api_flush(); /* work launched and never waited for still runs, and counts */
    warpsim_destroy(sh->sim);
    sh->sim = NULL;
    sh->closed = true;
}

WarpsimSim *api_sim_open(char *err, size_t err_len)
{
    ApiShared *sh = api_shared();
    if (sh->sim)
        return sh->sim;
    if (sh->closed) {
        snprintf(err, err_len, "the program is exiting: the results are written");
        return NULL;
    }
    if (!sh->init_failed) {
        sh->sim = warpsim_create_from_env(sh->init_err, sizeof sh->init_err);
        if (sh->sim) {
            atexit(api_sim_exit);
            return sh->sim;
        }
        sh->init_failed = true;
    }
    snprintf(err, err_len, "%s", sh->init_err);
    return NULL;
}
