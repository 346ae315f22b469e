/* cmd_slices.c: `warpsim slices FILE.ptx [--kernel NAME]`: the address pre-computation report
 * (front/ptx/ptx_slice.h): per kernel, each global-memory access with its data array and whether
 * its address can be computed from the kernel parameters and the thread and CTA ids before the
 * kernel runs, as locality-aware CTA scheduling needs (docs/las.md).
 *
 *   kernel loopind: 8 global accesses, 2 precomputable
 *           pc  line  access  bytes  data array                   pre slice  why not
 *        0x3c0   209  ld          4  loopind_param_2              yes     8
 *        0x3d8   212  ld          4  loopind_param_1              no      -  data-dependent (value loaded
 *                                                      from memory): line 209: value loaded from global memory
 *
 * Exit status 0, or 1 for a bad command line, an unreadable or malformed file, or no such kernel. */
#include "cli/cli.h"

#include "front/ptx/ptx_slice.h"

#include <stdio.h>
#include <string.h>

static int usage(FILE *f, int status)
{
    fputs("usage: warpsim slices FILE.ptx [--kernel NAME]\n"
          "  per kernel, each global load, store and atomic: its data array (the kernel parameter its\n"
          "  address is based on) and whether the address can be pre-computed from the parameters,\n"
          "  %tid, %ntid, %ctaid and %nctaid (and if not, why)\n",
          f);
    return status;
}

static const char *access_name(uint8_t kind)
{
    return kind == PTX_SLICE_LOAD ? "ld" : kind == PTX_SLICE_STORE ? "st" : "atom";
}

static void report_kernel(const PtxModule *m, const PtxKernelInfo *ki)
{
    char err[256];
    PtxSlices *s = ptx_slices_build(m, ki, err, sizeof err);
    if (!s) { /* cannot happen: ki comes from the module */
        fprintf(stderr, "warpsim slices: %s\n", err);
        return;
    }
    uint32_t n = ptx_slices_count(s), pre = 0;
    bool generic = false;
    for (uint32_t i = 0; i < n; i++) {
        pre += ptx_slices_info(s, i)->precomputable;
        generic |= ptx_slices_info(s, i)->generic;
    }
    printf("kernel %s: %u global access%s, %u precomputable\n", ki->name, n, n == 1 ? "" : "es", pre);
    if (n)
        printf("  %8s %5s  %-7s %5s  %-28s %-3s %5s  %s\n", "pc", "line", "access", "bytes", "data array", "pre",
               "slice", "why not");
    for (uint32_t i = 0; i < n; i++) {
        const PtxSliceInfo *a = ptx_slices_info(s, i);
        char access[16], slice[16];
        snprintf(access, sizeof access, "%s%s", access_name(a->kind), a->generic ? "*" : "");
        if (a->precomputable)
            snprintf(slice, sizeof slice, "%u", a->slice_insts);
        else
            snprintf(slice, sizeof slice, "-");
        printf("  %#8x %5u  %-7s %5u  %-28s %-3s %5s", a->pc, a->line, access, a->width_bytes,
               a->array_name ? a->array_name : "unknown", a->precomputable ? "yes" : "no", slice);
        if (!a->precomputable)
            printf("  %s: %s", ptx_slice_reason_name(a->reason), a->why);
        putchar('\n');
    }
    if (n && generic)
        printf("  (* generic-space access; its pointer comes from a kernel parameter or a variable)\n");
    ptx_slices_free(s);
}

int cli_slices_main(int argc, char **argv)
{
    const char *file = NULL, *kernel = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return usage(stdout, 0);
        if (!strcmp(argv[i], "--kernel")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim slices: --kernel: expected a kernel name after it\n");
                return 1;
            }
            kernel = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warpsim slices: unknown option '%s'\n", argv[i]);
            return usage(stderr, 1);
        } else if (file) {
            fprintf(stderr, "warpsim slices: one PTX file at a time ('%s' and '%s')\n", file, argv[i]);
            return 1;
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return usage(stderr, 1);
    char err[512];
    PtxModule *m = ptx_module_load(file, err, sizeof err);
    if (!m) {
        fprintf(stderr, "warpsim slices: %s\n", err);
        return 1;
    }
    int status = 0;
    if (kernel) {
        const PtxKernelInfo *ki = ptx_module_kernel(m, kernel);
        if (ki) {
            report_kernel(m, ki);
        } else {
            fprintf(stderr, "warpsim slices: %s has no kernel named '%s' (it has:", file, kernel);
            for (uint32_t k = 0; k < ptx_module_n_kernels(m); k++)
                fprintf(stderr, " %s", ptx_module_kernel_at(m, k)->name);
            fprintf(stderr, ")\n");
            status = 1;
        }
    } else {
        for (uint32_t k = 0; k < ptx_module_n_kernels(m); k++) {
            if (k)
                putchar('\n');
            report_kernel(m, ptx_module_kernel_at(m, k));
        }
    }
    ptx_module_free(m);
    return status;
}
