/* fuzz_trace.c: Accel-Sim traces: the input as a kernel file (header, index pass, then every
 * warp's instruction lines) and as a kernelslist.g. */
#include "fuzz.h"

#include "front/trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[600];
    TraceKernel *k = trace_kernel_open_mem((const char *)data, size, "fuzz.traceg", err, sizeof err);
    if (k) {
        uint64_t n;
        trace_kernel_check(k, &n, err, sizeof err);
        trace_kernel_close(k);
    }
    TraceList l;
    if (trace_list_parse((const char *)data, size, "/nonexistent-fuzz-dir", "fuzz.g", &l, err, sizeof err))
        trace_list_free(&l);
    return 0;
}
