/* test_result_files.c: how a run's result files survive errors and kills: atomic replacement
 * (base.h) under write errors and a full disk. */
#include "../test.h"

#include "base/base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

