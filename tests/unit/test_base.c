/* test_base.c: the shared file reader every user-named input goes through (configs, GPGPU-Sim
 * configs, specs, suites, the manifest, PTX, synthetic streams): a size cap on regular files,
 * a bounded read from devices and pipes, and the right error for a directory. The inline bit
 * counts against a count bit by bit. */
#include "../test.h"

#include "base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file of the scratch folder holding text, then zeros up to size bytes (sparse); its path in
 * path. */
static bool scratch_file(char *path, size_t len, const char *name, const char *text, off_t size)
{
    snprintf(path, len, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0 && fflush(f) == 0 &&
              ((off_t)strlen(text) >= size || ftruncate(fileno(f), size) == 0);
    return fclose(f) == 0 && ok;
}

TEST(base_read_file_text)
{
    char path[512];
    ASSERT(scratch_file(path, sizeof path, "small.txt", "two\nlines\n", 0));
    size_t len = 0;
    char *text = read_file(path, &len);
    ASSERT(text);
    EXPECT_STR(text, "two\nlines\n");
    EXPECT_EQ_U(len, 10);
    free(text);
    errno = 0;
    EXPECT(read_file("tests/no/such/file", NULL) == NULL);
    EXPECT_EQ_I(errno, ENOENT);
}

TEST(base_read_file_directory)
{
    errno = 0;
    EXPECT(read_file(test_tmpdir(), NULL) == NULL);
    EXPECT_EQ_I(errno, EISDIR);
    EXPECT_STR(read_file_error(EISDIR), "Is a directory");
}

TEST(base_read_file_size_limit)
{
    char path[512];
    ASSERT(scratch_file(path, sizeof path, "huge.txt", "", (off_t)READ_FILE_MAX_BYTES + 1));
    errno = 0;
    EXPECT(read_file(path, NULL) == NULL);
    EXPECT_EQ_I(errno, EFBIG);
    EXPECT_CONTAINS(read_file_error(EFBIG), "larger than the 64 MiB limit");
    /* exactly at the limit is still read */
    ASSERT(scratch_file(path, sizeof path, "limit.txt", "text", (off_t)READ_FILE_MAX_BYTES));
    size_t len = 0;
    char *text = read_file(path, &len);
    EXPECT(text != NULL && !strncmp(text, "text", 4));
    EXPECT_EQ_U(len, READ_FILE_MAX_BYTES);
    free(text);
    unlink(path);
}

/* A device that never ends is read to the limit, then refused (it used to grow until memory ran
 * out). */
TEST(base_read_file_endless_device)
{
    errno = 0;
    double t0 = wall_seconds();
    EXPECT(read_file("/dev/zero", NULL) == NULL);
    EXPECT_EQ_I(errno, EFBIG);
    EXPECT(wall_seconds() - t0 < 30);
}

TEST(base_popcount_matches_bit_loop)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    for (int i = 0; i < 10000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t v = i % 3 == 0 ? x : i % 3 == 1 ? x & (x >> 17) : ~0ull >> (i % 64);
        unsigned n = 0;
        for (int b = 0; b < 64; b++)
            n += (unsigned)(v >> b & 1);
        EXPECT_EQ_U(popcount_u64(v), n);
        EXPECT_EQ_U(popcount_u32((uint32_t)v), n - (unsigned)popcount_u64(v >> 32));
    }
    EXPECT_EQ_U(popcount_u64(0), 0);
    EXPECT_EQ_U(popcount_u64(UINT64_MAX), 64);
}
