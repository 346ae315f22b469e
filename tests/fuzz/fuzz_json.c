/* fuzz_json.c: the JSON reader that `warpsim report` reads result files with. */
#include "fuzz.h"

#include "exp/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    JsonValue *v = json_parse(text, err, sizeof err);
    json_free(v);
    free(text);
    return 0;
}
