/* api_lock.h: what warpsim's CUDA libraries share in one process: the lock that serialises
 * their entry points and the simulator. See api_lock.c. */
#ifndef WARPSIM_API_LOCK_H
#define WARPSIM_API_LOCK_H

#include "warpsim.h"

#include <stdbool.h>
#include <stddef.h>

/* Take the lock; returns 0, for API_LOCKED's guard variable. */
int api_lock(void);
/* Release it (the cleanup of API_LOCKED's guard). */
void api_unlock_at_return(int *guard);

/* At the top of an entry point: hold the lock until the function returns, however it does. */
#define API_LOCKED int api_guard_ __attribute__((cleanup(api_unlock_at_return), unused)) = api_lock()

/* The process's simulator, or NULL before the first api_sim_open and after the results are
 * written at exit. */
WarpsimSim *api_sim(void);
/* The simulated device's compute capability as an arch number (80 for 8.0): which of a fat
 * binary's PTX entries it runs (fatbin_extract_ptx_for). Needs the simulator. */
uint32_t api_device_arch(void);
/* Create the simulator from WARPSIM_ARGS unless it exists; NULL, with the reason in err, when
 * WARPSIM_ARGS is bad (then every later call fails the same way, without trying again) or the
 * process is exiting. Call with the lock held. */
WarpsimSim *api_sim_open(char *err, size_t err_len);
/* The results have been written: the process is exiting. */
bool api_sim_closed(void);
/* The runtime's work held back on streams (runtime_queue.c) runs when api_flush is called: by
 * every entry point of either library that is not itself work for a stream, and at exit. Call
 * with the lock held; a flush inside a flush does nothing. */
void api_set_flush(void (*flush)(void));
void api_flush(void);

#endif
