/* manifest.h: the workload suite's manifest (workloads/manifest): one line per workload,
 *     NAME SUITE CLASS CIAO PAPERS | SMALL ARGS | PAPER ARGS
 * CLASS is divergent or coherent; CIAO is LWS, SWS, CI or -; PAPERS a comma list or -. The
 * host program of a workload is <build>/workloads/SUITE/NAME/host; its arguments for a size are
 * the blank-separated key=value list of that column. '#' starts a comment. */
#ifndef WARPSIM_MANIFEST_H
#define WARPSIM_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ManifestEntry {
    char name[64], suite[32], cls[16], ciao[8], papers[96];
    char small_args[256], paper_args[256];
} ManifestEntry;

typedef struct Manifest {
    ManifestEntry *v;
    uint32_t n;
} Manifest;

/* False with "file:line: ..." in err on a malformed line or a duplicate name. */
bool manifest_parse(const char *text, const char *path, Manifest *m, char *err, size_t err_len);
/* Read the repository's manifest (found like every data file, see data_path). */
bool manifest_load(Manifest *m, char *err, size_t err_len);
const ManifestEntry *manifest_find(const Manifest *m, const char *name);
void manifest_free(Manifest *m);

#endif
