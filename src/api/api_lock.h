/* api_lock.h: the lock that serialises the entry points of warpsim's CUDA libraries (each
 * library image has its own). See api_lock.c. */
#ifndef WARPSIM_API_LOCK_H
#define WARPSIM_API_LOCK_H

/* Take the lock; returns 0, for API_LOCKED's guard variable. */
int api_lock(void);
/* Release it (the cleanup of API_LOCKED's guard). */
void api_unlock_at_return(int *guard);

/* At the top of an entry point: hold the lock until the function returns, however it does. */
#define API_LOCKED int api_guard_ __attribute__((cleanup(api_unlock_at_return), unused)) = api_lock()

#endif
