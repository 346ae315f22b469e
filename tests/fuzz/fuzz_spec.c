/* fuzz_spec.c: the experiment-spec reader, and its round trip: a spec that parses is written in
 * canonical form, which must parse again (under the same file name, which the header names) and
 * be written identically. */
#include "fuzz.h"

#include "exp/spec.h"

#include <stdio.h>

static char *write_spec(const ExpSpec *s, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    exp_spec_write(f, s);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[1024];
    ExpSpec a;
    if (exp_spec_parse(&a, text, "fuzz.spec", err, sizeof err)) {
        size_t n1, n2;
        char *w1 = write_spec(&a, &n1);
        ExpSpec b;
        if (!exp_spec_parse(&b, w1, "fuzz.spec", err, sizeof err)) {
            fprintf(stderr, "canonical spec does not parse: %s\n%s", err, w1);
            abort();
        }
        char *w2 = write_spec(&b, &n2);
        if (n1 != n2 || memcmp(w1, w2, n1)) {
            fprintf(stderr, "canonical spec changes when read back:\n%s---\n%s", w1, w2);
            abort();
        }
        free(w1);
        free(w2);
        exp_spec_free(&b);
    }
    exp_spec_free(&a); /* freed whether or not it parsed */
    free(text);
    return 0;
}
