/* fuzz_manifest.c: the suite manifest reader (workloads/manifest). */
#include "fuzz.h"

#include "exp/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    Manifest m;
    if (manifest_parse(text, "fuzz.manifest", &m, err, sizeof err))
        manifest_free(&m);
    free(text);
    return 0;
}
