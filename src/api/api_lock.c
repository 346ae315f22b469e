/* api_lock.c: one recursive mutex that serialises the entry points of a CUDA library
 * replacement (libcudart.so.13 and libcuda.so.1 each link their own copy).
 *
 * The simulated device is synchronous and its simulator is not thread-safe, so host threads
 * that share it take turns: an entry point holds the lock from its first line until it returns
 * (API_LOCKED, a guard variable whose cleanup unlocks), a launch running to completion under
 * it. Recursive, because entry points call one another (cudaMallocHost -> cudaHostAlloc). */
#include "api/api_lock.h"

#include <pthread.h>

static pthread_mutex_t api_mutex;
static pthread_once_t api_mutex_once = PTHREAD_ONCE_INIT;

static void api_mutex_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&api_mutex, &a);
    pthread_mutexattr_destroy(&a);
}

int api_lock(void)
{
    pthread_once(&api_mutex_once, api_mutex_init);
    pthread_mutex_lock(&api_mutex);
    return 0;
}

void api_unlock_at_return(int *guard)
{
    (void)guard;
    pthread_mutex_unlock(&api_mutex);
}
