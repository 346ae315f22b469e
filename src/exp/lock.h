/* lock.h: run locks, so that a second sweep over the same results (a rerun while the first
 * still runs, a cluster job submitted twice) never starts a run whose process still runs.
 *
 * runs/W__V.lock lists the processes of a run, one line each: "ROLE PID START HOST", ROLE
 * sweep (the sweep that started it) or run (its `warpsim run` process), START the process's
 * start time (clock ticks after boot, from /proc/PID/stat; 0 where unknown), which tells it from
 * a later process that got the same pid. The lock is held while one of them lives; a lock of a
 * process of another host is taken to be held (its liveness cannot be checked: delete the file
 * when that process is known to be gone). A lock that nobody holds is stale and is taken over.
 * Taking one is made atomic between sweeps by a POSIX record lock on runs/.lock. */
#ifndef WARPSIM_EXP_LOCK_H
#define WARPSIM_EXP_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef enum ExpLockResult { EXP_LOCK_TAKEN, EXP_LOCK_HELD, EXP_LOCK_ERROR } ExpLockResult;

/* Take the lock at path (runs/W__V.lock) for this process. HELD: a live process holds it,
 * described in msg ("pid 123 on host h since ..."); ERROR: it cannot be read or written (msg). */
ExpLockResult exp_lock_take(const char *path, char *msg, size_t msg_len);
/* Add the process that runs the item (the sweep's child) to a lock this process holds. */
bool exp_lock_add_run(const char *path, pid_t run);
void exp_lock_release(const char *path);

#endif
