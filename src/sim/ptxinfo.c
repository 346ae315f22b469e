/* ptxinfo.c: see ptxinfo.h. */
#include "sim/ptxinfo.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptxinfo_set(PtxInfo *pi, const char *kernel, uint32_t regs)
{
    for (uint32_t i = 0; i < pi->n; i++)
        if (!strcmp(pi->v[i].name, kernel)) {
            pi->v[i].regs = regs;
            return;
        }
    if (pi->n == pi->cap) {
        pi->cap = pi->cap ? pi->cap * 2 : 8;
        pi->v = xrealloc(pi->v, pi->cap * sizeof *pi->v);
    }
    snprintf(pi->v[pi->n].name, sizeof pi->v[pi->n].name, "%s", kernel);
    pi->v[pi->n++].regs = regs;
}

bool ptxinfo_regs(const PtxInfo *pi, const char *kernel, uint32_t *regs)
{
    for (uint32_t i = 0; i < pi->n; i++)
        if (!strcmp(pi->v[i].name, kernel)) {
            *regs = pi->v[i].regs;
            return true;
        }
    return false;
}

void ptxinfo_scan(PtxInfo *pi, const char *text)
{
    char current[128] = "";
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *p = line;
        if (len >= 3 && !strncmp(p, "// ", 3))
            p += 3;
        if (!strncmp(p, "ptxas info", 10)) {
            const char *entry = strstr(p, "Compiling entry function '");
            const char *used = strstr(p, "Used ");
            if (entry && entry < line + len) {
                entry += strlen("Compiling entry function '");
                const char *q = memchr(entry, '\'', (size_t)(line + len - entry));
                if (q && (size_t)(q - entry) < sizeof current)
                    snprintf(current, sizeof current, "%.*s", (int)(q - entry), entry);
            } else if (used && used < line + len && current[0]) {
                char *num_end;
                unsigned long regs = strtoul(used + 5, &num_end, 10);
                if (num_end != used + 5 && !strncmp(num_end, " registers", 10) && regs <= 255)
                    ptxinfo_set(pi, current, (uint32_t)regs);
            }
        }
        line = end ? end + 1 : NULL;
    }
}

void ptxinfo_free(PtxInfo *pi)
{
    free(pi->v);
    memset(pi, 0, sizeof *pi);
}
