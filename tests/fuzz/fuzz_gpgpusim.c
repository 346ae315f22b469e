/* fuzz_gpgpusim.c: the GPGPU-Sim gpgpusim.config reader. */
#include "fuzz.h"

#include "conf/config.h"
#include "conf/gpgpusim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[1024];
    Config c;
    config_init(&c);
    gpgpusim_load_text(&c, "fuzz.config", text, NULL, err, sizeof err);
    free(text);
    return 0;
}
