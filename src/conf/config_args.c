/* config_args.c: the configuration arguments of the command line and of the embedding API
 * (see config_args.h), on top of the readers of config.c and gpgpusim.c. One implementation
 * for both users: nothing here prints an error or exits. */
#include "conf/config_args.h"

#include "conf/gpgpusim.h"

#include <stdio.h>
#include <string.h>

/* The value after argv[*i], consuming it; NULL with a message if there is none. */
static const char *value_of(int argc, const char *const *argv, int *i, char *err, size_t err_len)
{
    if (*i + 1 >= argc) {
        snprintf(err, err_len, "%s: expected a value after it", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static int load_preset(Config *c, const char *name, char *err, size_t err_len)
{
    char path[1024];
    config_preset_path(name, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "--preset %s: no preset of that name (looked for %s)", name, path);
        return 0;
    }
    fclose(f);
    return config_load_file_err(c, path, err, err_len);
}

/* -j N: gpu.threads = N */
static int apply_threads(Config *c, const char *n, char *err, size_t err_len)
{
    char o[64];
    snprintf(o, sizeof o, "gpu.threads=%.40s", n);
    return config_apply_override_err(c, o, err, err_len);
}

ConfigArgResult config_apply_arg(Config *c, int argc, const char *const *argv, int *i, char *err, size_t err_len)
{
    const char *a = argv[*i], *v;
    int ok;
    if (!strcmp(a, "--preset"))
        ok = (v = value_of(argc, argv, i, err, err_len)) && load_preset(c, v, err, err_len);
    else if (!strcmp(a, "--config"))
        ok = (v = value_of(argc, argv, i, err, err_len)) && config_load_file_err(c, v, err, err_len);
    else if (!strcmp(a, "--gpgpusim-config"))
        ok = (v = value_of(argc, argv, i, err, err_len)) && gpgpusim_load(c, v, stderr, err, err_len);
    else if (!strcmp(a, "-o"))
        ok = (v = value_of(argc, argv, i, err, err_len)) && config_apply_override_err(c, v, err, err_len);
    else if (!strncmp(a, "-o", 2) && strchr(a, '='))
        ok = config_apply_override_err(c, a + 2, err, err_len);
    else if (!strcmp(a, "-j"))
        ok = (v = value_of(argc, argv, i, err, err_len)) && apply_threads(c, v, err, err_len);
    else
        return CONFIG_ARG_NONE;
    return ok ? CONFIG_ARG_APPLIED : CONFIG_ARG_ERROR;
}
