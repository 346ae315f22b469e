/* ptxinfo.h: register counts from ptxas's -v report ("Compiling entry function 'k'" ...
 * "Used N registers"), read from a .ptxinfo file or from `//` comment lines carried in the PTX
 * text (workload programs embed the report that way; a real driver ignores the comments). */
#ifndef WARPSIM_PTXINFO_H
#define WARPSIM_PTXINFO_H

#include <stdbool.h>
#include <stdint.h>

typedef struct PtxInfoEntry {
    char name[128];
    uint32_t regs;
} PtxInfoEntry;

typedef struct PtxInfo {
    PtxInfoEntry *v;
    uint32_t n, cap;
} PtxInfo;

/* Add the report found in text (either plain ptxas output or the same lines behind "// ").
 * Later entries for a kernel replace earlier ones. */
void ptxinfo_scan(PtxInfo *pi, const char *text);
void ptxinfo_set(PtxInfo *pi, const char *kernel, uint32_t regs);
bool ptxinfo_regs(const PtxInfo *pi, const char *kernel, uint32_t *regs);
void ptxinfo_free(PtxInfo *pi);

#endif
