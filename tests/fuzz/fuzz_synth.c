/* fuzz_synth.c: the synthetic warp-instruction stream language. */
#include "fuzz.h"

#include "front/synth/synth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    SynthProgram *p = synth_parse(text, "fuzz.syn", err, sizeof err);
    if (p)
        synth_free(p);
    free(text);
    return 0;
}
