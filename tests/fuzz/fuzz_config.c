/* fuzz_config.c: the key = value configuration reader (through a file, as --config reads it),
 * then the cross-option and policy checks. */
#define _GNU_SOURCE
#include "fuzz.h"

#include "conf/config.h"
#include "policy/policy.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz.cfg", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64], err[1024];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    Config c;
    config_init(&c);
    if (config_load_file_err(&c, path, err, sizeof err) && config_check(&c, err, sizeof err))
        policy_check_config(&c, err, sizeof err);
    close(fd);
    return 0;
}
