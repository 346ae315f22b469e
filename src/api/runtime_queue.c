/* runtime_queue.c: a kernel launched into a stream the program created runs when the host next
 * waits, not at its launch.
 *
 * On a GPU a launch returns at once and the kernel runs while the host goes on, and a program
 * may rely on it: NVIDIA's UnifiedMemoryPerf launches a kernel that spins on a pinned host flag,
 * queues more work behind it, and only then sets the flag and synchronises. The simulated device
 * runs one kernel at a time to completion, so that kernel, run at its launch, would never end.
 * So a launch into a created stream is held back, and the held launches run, all of them, in the
 * order they were issued, at the next entry point of either library that is not itself such a
 * launch or a hint (api_flush, through ENTER and the driver's NEED_INIT), and at exit. Issue
 * order is a legal schedule: nothing issued earlier can wait on something issued later, except
 * on the host, which has then moved on. Launches into the legacy and per-thread default
 * streams run at once, after the held ones, as before; so do captured launches, which are
 * recorded. The hints that change nothing on the simulated device (cudaMemPrefetchAsync,
 * cudaMemAdvise, cudaStreamAttachMemAsync) do not make the host wait either.
 *
 * Limits, said in docs/cuda.md: a held kernel's error (a fault, a launch the simulator refuses
 * when it runs it) is returned by the call that ran it, and is sticky like any fault; after a
 * fault the kernels held behind it do not run, as on a GPU whose context is lost. A host that
 * waits for a held kernel's stores by polling memory, calling nothing, waits for ever, as it
 * would on a GPU whose work it never submitted. At most RT_QUEUE_MAX launches are held; a
 * program that launches without end has them run in batches. */
#include "api/runtime_internal.h"

#include <stdlib.h>

#define RT_QUEUE_MAX 1024

static RtOp rt_queue[RT_QUEUE_MAX];
static unsigned rt_queue_len;

bool rt_queue_holds(cudaStream_t stream)
{
    return rt_own_stream(stream);
}

/* Nothing is held meanwhile: a kernel calls no entry point, and api_flush does not nest. */
static void rt_queue_run(void)
{
    for (unsigned i = 0; i < rt_queue_len; i++) {
        if (rt_sticky == cudaSuccess) /* after a fault the context is lost: the rest do not run */
            rt_kernel_run(&rt_queue[i]);
        free(rt_queue[i].params);
    }
    rt_queue_len = 0;
}

void rt_queue_push(RtOp *op)
{
    if (rt_queue_len == RT_QUEUE_MAX)
        rt_queue_run();
    api_set_flush(rt_queue_run);
    rt_queue[rt_queue_len++] = *op;
    op->params = NULL;
}
