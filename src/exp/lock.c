/* lock.c: run locks (see lock.h). Linux's /proc tells a live process from a dead one (or a
 * zombie) and from a later one with the same pid; without /proc, kill(pid, 0) decides. */
#include "exp/lock.h"

#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A process's state and start time, fields 3 and 22 of /proc/PID/stat (after the command name,
 * which is in parentheses and may hold blanks). */
static bool proc_stat(long pid, uint64_t *start, char *state)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'), *save = NULL;
    int field = 3;
    for (char *tok = p ? strtok_r(p + 1, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save), field++) {
        if (field == 3)
            *state = tok[0];
        if (field == 22)
            return parse_u64(tok, start);
    }
    return false;
}

static void this_host(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0)
        snprintf(buf, len, "unknown");
    buf[len - 1] = 0;
}

/* The lock line of process pid. */
static void lock_line(char *buf, size_t len, const char *role, long pid)
{
    uint64_t start = 0;
    char state, host[256];
    if (!proc_stat(pid, &start, &state))
        start = 0;
    this_host(host, sizeof host);
    snprintf(buf, len, "%s %ld %" PRIu64 " %s\n", role, pid, start, host);
}

static bool alive(long pid, uint64_t start, const char *host)
{
    char here[256];
    this_host(here, sizeof here);
    if (strcmp(host, here))
        return true; /* cannot be checked from here */
    uint64_t now;
    char state;
    if (proc_stat(pid, &now, &state))
        return state != 'Z' && (!start || now == start);
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* The first live process a lock lists, described in msg; false if none lives. */
static bool lock_holder(char *text, char *msg, size_t len)
{
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char role[16], host[256];
        long pid;
        uint64_t start;
        if (sscanf(line, "%15s %ld %" SCNu64 " %255s", role, &pid, &start, host) == 4 && alive(pid, start, host)) {
            snprintf(msg, len, "%s process %ld on %s", role, pid, host);
            return true;
        }
    }
    return false;
}

ExpLockResult exp_lock_take(const char *path, char *msg, size_t msg_len)
{
    /* One sweep at a time reads and takes the locks of a results folder. */
    char guard[4200];
    const char *slash = strrchr(path, '/');
    snprintf(guard, sizeof guard, "%.*s.lock", slash ? (int)(slash - path + 1) : 0, path);
    int fd = open(guard, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(msg, msg_len, "cannot open %s: %s", guard, strerror(errno));
        return EXP_LOCK_ERROR;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    int rc;
    while ((rc = fcntl(fd, F_SETLKW, &fl)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        snprintf(msg, msg_len, "cannot lock %s: %s", guard, strerror(errno));
        close(fd);
        return EXP_LOCK_ERROR;
    }
    ExpLockResult r = EXP_LOCK_TAKEN;
    char *text = read_file(path, NULL), line[512];
    if (text && lock_holder(text, msg, msg_len)) {
        r = EXP_LOCK_HELD;
    } else {
        lock_line(line, sizeof line, "sweep", (long)getpid());
        if (!atomic_write_file(path, line, strlen(line))) {
            snprintf(msg, msg_len, "cannot write %s: %s", path, strerror(errno));
            r = EXP_LOCK_ERROR;
        }
    }
    free(text);
    close(fd); /* releases the record lock */
    return r;
}

bool exp_lock_add_run(const char *path, pid_t run)
{
    char *text = read_file(path, NULL), line[512], both[1100];
    lock_line(line, sizeof line, "run", (long)run);
    snprintf(both, sizeof both, "%s%s", text ? text : "", line);
    free(text);
    return atomic_write_file(path, both, strlen(both));
}

void exp_lock_release(const char *path)
{
    unlink(path);
}
