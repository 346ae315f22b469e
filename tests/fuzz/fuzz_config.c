/* fuzz_config.c: the key = value configuration reader (through a file, as --config reads it),
 * then the cross-option and policy checks. The file lives in a scratch directory of its own, so
 * that relative includes name files there (which do not exist), not the process's descriptors. */
#include "fuzz.h"

#include "conf/config.h"
#include "policy/policy.h"

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[256];
    if (!path[0]) {
        char dir[] = "/tmp/warpsim-fuzz-config-XXXXXX";
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof path, "%s/fuzz.cfg", dir);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    char err[1024];
    Config c;
    config_init(&c);
    if (config_load_file_err(&c, path, err, sizeof err) && config_check(&c, err, sizeof err))
        policy_check_config(&c, err, sizeof err);
    return 0;
}
