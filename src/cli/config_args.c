/* config_args.c: the configuration arguments every simulating subcommand accepts (--preset,
 * --config, --gpgpusim-config, -o; see conf/config_args.h), applied in command-line order.
 * On the command line a bad one ends the program: these wrap the error-returning readers,
 * which the embedding API uses as they are, and exit 1 with their message. */
#include "cli/cli.h"

#include "base/base.h"
#include "conf/config_args.h"
#include "policy/policy.h"

bool cli_config_arg(Config *c, int argc, char **argv, int *i)
{
    char err[2048];
    ConfigArgResult r = config_apply_arg(c, argc, (const char *const *)argv, i, err, sizeof err);
    if (r == CONFIG_ARG_ERROR)
        fatal("%s", err);
    return r == CONFIG_ARG_APPLIED;
}

void cli_config_finish(Config *c)
{
    config_validate(c);
    policy_validate_config(c);
}
