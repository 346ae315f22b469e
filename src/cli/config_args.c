/* config_args.c: the configuration arguments every simulating subcommand accepts, applied in
 * command-line order so that later ones override earlier ones:
 *   --preset NAME            configs/NAME.cfg
 *   --config FILE            a key = value file
 *   --gpgpusim-config FILE   a GPGPU-Sim gpgpusim.config
 *   -o key=value             one option */
#include "cli/cli.h"

#include "base/base.h"
#include "conf/gpgpusim.h"
#include "policy/policy.h"

#include <string.h>

static const char *need_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        fatal("%s: expected a value after it", argv[*i]);
    return argv[++*i];
}

bool cli_config_arg(Config *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--preset")) {
        const char *name = need_value(argc, argv, i);
        char path[1024];
        config_preset_path(name, path, sizeof path);
        FILE *f = fopen(path, "r");
        if (!f)
            fatal("--preset %s: no preset of that name (looked for %s)", name, path);
        fclose(f);
        config_load_file(c, path);
        return true;
    }
    if (!strcmp(a, "--config")) {
        config_load_file(c, need_value(argc, argv, i));
        return true;
    }
    if (!strcmp(a, "--gpgpusim-config")) {
        config_load_gpgpusim(c, need_value(argc, argv, i));
        return true;
    }
    if (!strcmp(a, "-o")) {
        config_apply_override(c, need_value(argc, argv, i));
        return true;
    }
    if (!strncmp(a, "-o", 2) && strchr(a, '=')) {
        config_apply_override(c, a + 2);
        return true;
    }
    return false;
}

void cli_config_finish(Config *c)
{
    config_validate(c);
    policy_validate_config(c);
}
