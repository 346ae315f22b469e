/* fuzz.h: what the libFuzzer harnesses of tests/fuzz/ share. Each fuzz_<target>.c feeds one
 * parser arbitrary bytes (`make fuzz-smoke`, `make fuzz TARGET=... SECONDS=...`); a parser must
 * answer every input with a result or an error message, never a crash, a hang, a leak or
 * unbounded memory. */
#ifndef WARPSIM_FUZZ_H
#define WARPSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (freed by the caller). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

#endif
