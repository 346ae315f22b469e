/* config_args.h: the configuration arguments that the command line and the embedding API
 * (warpsim_create) both accept, applied in the order given so that later ones override
 * earlier ones:
 *   --preset NAME            configs/NAME.cfg
 *   --config FILE            a key = value file
 *   --gpgpusim-config FILE   a GPGPU-Sim gpgpusim.config (its notes go to stderr)
 *   -o key=value             one option (also -okey=value)
 * Errors are returned, never fatal: the command line exits with them (cli_config_arg), the
 * embedding API hands them to its caller. */
#ifndef WARPSIM_CONFIG_ARGS_H
#define WARPSIM_CONFIG_ARGS_H

#include <stddef.h>

#include "conf/config.h"

/* What config_apply_arg did with argv[*i]. */
typedef enum ConfigArgResult {
    CONFIG_ARG_ERROR = -1, /* it was one, and failed: the message is in err */
    CONFIG_ARG_NONE = 0,   /* not a configuration argument; nothing consumed */
    CONFIG_ARG_APPLIED = 1 /* applied; *i is at its last word (the value, if it takes one) */
} ConfigArgResult;

/* Apply argv[*i] to c if it is a configuration argument. Messages name the argument, or the
 * file and line, or the key: "--preset NAME: no preset of that name (looked for PATH)",
 * "FILE:LINE: KEY: ...", "-o KEY=VALUE: ...", "ARG: expected a value after it". */
ConfigArgResult config_apply_arg(Config *c, int argc, const char *const *argv, int *i, char *err, size_t err_len);

#endif
