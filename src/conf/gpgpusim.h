/* gpgpusim.h: reading GPGPU-Sim `gpgpusim.config` files into a warpsim Config.
 *
 * The file describes a whole machine: every option warpsim models is set through config_set
 * (so ranges are checked exactly as for key = value files); warpsim options the file does not
 * mention keep their values. Options warpsim knows but does not model, and modelled options
 * whose value warpsim can only approximate, are reported as notes, one line each:
 *   <file>:<line>: note: -<option> is not modelled by warpsim; ignored
 *   <file>:<line>: note: -<option>: <what warpsim does instead>
 * Anything else (an unknown option, a malformed or unrepresentable value) is an error naming
 * file:line and what was expected. docs/config.md has the full mapping table. */
#ifndef WARPSIM_GPGPUSIM_H
#define WARPSIM_GPGPUSIM_H

#include <stddef.h>
#include <stdio.h>

#include "conf/config.h"

/* Flags of config_load_gpgpusim_flags. */
enum {
    GPGPUSIM_QUIET = 1u << 0, /* print no notes (tests, benchmarks) */
};

/* Read `path` into c; notes go to stderr; on error print "warpsim: <file>:<line>: ..." and
 * exit 1. */
void config_load_gpgpusim(Config *c, const char *path);

/* Same, with GPGPUSIM_* flags. */
void config_load_gpgpusim_flags(Config *c, const char *path, unsigned flags);

/* Error-returning variant: notes go to `notes` (NULL: none). Returns 1 on success; on error
 * returns 0 with a one-line message "<file>:<line>: ..." in err, and c may be partly updated
 * (discard it). */
int gpgpusim_load(Config *c, const char *path, FILE *notes, char *err, size_t err_len);

/* Same on text already in memory; `name` stands for the file name in messages. */
int gpgpusim_load_text(Config *c, const char *name, const char *text, FILE *notes, char *err,
                       size_t err_len);

/* The option table: each GPGPU-Sim option warpsim reads, with what it maps to or why it is
 * ignored, one per line (for --help and docs). */
void gpgpusim_help(FILE *f);

#endif
