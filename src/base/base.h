/* base.h: the few helpers every warpsim module uses.
 *
 * Allocation that cannot fail silently (out of memory aborts with a message), fatal errors
 * for bad user input (message + exit 1, never a crash), internal invariant checks, and small
 * bit helpers. No module keeps mutable global state; this file has none either. */
#ifndef WARPSIM_BASE_H
#define WARPSIM_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WARPSIM_VERSION "0.1.0"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Bad user input: print "warpsim: <message>" to stderr and exit(1). */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A broken internal invariant: report where and abort (a bug, not bad input). */
_Noreturn void check_failed(const char *expr, const char *file, int line);
#define CHECK(e) ((e) ? (void)0 : check_failed(#e, __FILE__, __LINE__))

static inline bool is_pow2_u64(uint64_t x) { return x && !(x & (x - 1)); }

/* floor(log2(x)) for x > 0. */
static inline unsigned log2_u64(uint64_t x)
{
    unsigned r = 0;
    while (x >>= 1)
        r++;
    return r;
}

/* Inline bit counts: without a popcnt instruction in the target (-mpopcnt), the builtins call
 * libgcc, which costs more than these few operations in the per-instruction paths. */
static inline unsigned popcount_u32(uint32_t x)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}
static inline unsigned popcount_u64(uint64_t x)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull); /* the same steps on one 64-bit word */
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (unsigned)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
#endif
}

/* A set of the numbers 0..n-1 as bits in bits_words(n) 64-bit words: which components have
 * work, so that a loop visits those alone, in ascending order, one word at a time. */
static inline uint32_t bits_words(uint32_t n) { return (n + 63) / 64; }
static inline void bits_set(uint64_t *w, uint32_t i) { w[i >> 6] |= 1ull << (i & 63); }
static inline void bits_clear(uint64_t *w, uint32_t i) { w[i >> 6] &= ~(1ull << (i & 63)); }

/* splitmix64: the one deterministic PRNG; state lives in the owner's struct. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Parse helpers shared by every reader: whole-string conversions that report failure. */
bool parse_u64(const char *s, uint64_t *out);
bool parse_f64(const char *s, double *out);
char *str_trim(char *s);

/* Read a whole file into a NUL-terminated buffer; NULL (errno set) if it cannot be read. Every
 * input a user names comes through here, so it is bounded: a file of more than
 * READ_FILE_MAX_BYTES fails with EFBIG (a device or pipe is read that far, no further), a
 * directory with EISDIR. */
#define READ_FILE_MAX_MIB 64
#define READ_FILE_MAX_BYTES ((size_t)READ_FILE_MAX_MIB << 20)
char *read_file(const char *path, size_t *len_out);
/* The same with another bound (EFBIG past max_bytes), for files warpsim wrote itself. */
char *read_file_max(const char *path, size_t *len_out, size_t max_bytes);
/* Why read_file failed, for messages: strerror(err), or the size limit for EFBIG. */
const char *read_file_error(int err);

/* Where a file of the warpsim tree ("configs/gtx480.cfg") is: under $WARPSIM_HOME if set, else
 * the working directory if it is there, else beside the executable's build folder. */
const char *data_path(const char *rel, char *buf, size_t len);

/* mkdir -p: create a folder and its missing parents; false (errno set) on failure. */
bool mkdir_p(const char *path);

/* Wall-clock seconds from a monotonic clock, for progress lines and benchmarks. */
double wall_seconds(void);
/* The process's peak resident memory so far, in MiB (getrusage's ru_maxrss). */
double peak_rss_mib(void);

/* Replacing a file atomically: the content goes to a temporary file beside the target
 * ("<target>.tmp.<pid>"), which is flushed to disk (fsync) and renamed over the target only
 * when every write and the close succeeded. On an error the temporary is removed and the
 * target is left as it was, so a full disk or a kill never leaves a truncated file. Symbolic
 * links are followed (the file they name is replaced, the link stays); a target that exists
 * and is not a regular file (/dev/stdout, a pipe, /dev/null) is written in place. */
typedef struct AtomicFile {
    FILE *f;              /* the content goes here (atomic_open): held in memory until the commit */
    char *buf;
    size_t len;
    char target[4096];    /* the file replaced, links resolved */
    char tmp[4200];       /* the temporary; "" when the target is written in place */
    int mode;             /* permissions of the file replaced; -1 for a new file */
} AtomicFile;

/* Resolve path into a->target and a->tmp without opening anything; false (errno set) if the
 * name is too long or a link cannot be read. */
bool atomic_prepare(AtomicFile *a, const char *path);
/* atomic_prepare, then a stream for the content (not to be copied while open); NULL, errno
 * set, on failure. */
FILE *atomic_open(AtomicFile *a, const char *path);
/* Write the content (atomic_write_buffers); false with errno set of the first failure (the
 * temporary removed, the target untouched). */
bool atomic_commit(AtomicFile *a);
/* Give up: nothing is written. */
void atomic_discard(AtomicFile *a);
/* Replace path with len bytes of text; false with errno set on failure. */
bool atomic_write_file(const char *path, const char *text, size_t len);
/* Write n buffers as the whole content of a prepared target, with async-signal-safe calls
 * only (no stdio, no allocation): for signal handlers. 0, or the errno of the first failure. */
int atomic_write_buffers(const AtomicFile *a, const char *const *bufs, const size_t *lens, size_t n);

#endif
