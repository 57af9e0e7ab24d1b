/* The kernels inside each executable CUDA graph a test program makes, so a
 * graph launch is judged kernel by kernel like any other launch.
 *
 * Why: a graph's kernels have no launch call of their own (the launch watch
 * sees only "cudaGraphLaunch"), and a graph built unwatched (a static
 * constructor) or edited later could hold anyone's kernels: cuBLAS's.
 *
 * How: at CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED the source graph's nodes
 * are read once (the executable is their snapshot) and each kernel node's
 * function and shape kept; a launch of it counts as a launch of each.
 * Fails closed: an executable not seen made, one edited since
 * (cudaGraphExecUpdate, any cudaGraphExec...SetParams), or one holding a
 * node it cannot judge (host function, conditional, copy, memset: the copy
 * watch sees those only as API calls) is refused at launch, with why. */
#ifndef GRAPH_WATCH_H
#define GRAPH_WATCH_H

#ifdef __cplusplus
extern "C" {
#endif

enum { GRAPH_WATCH_KERNELS = 64 }; /* per executable graph; more is refused */

typedef struct {
    void *function; /* CUfunction, or NULL */
    void *kernel;   /* CUkernel, where the node names no CUfunction */
    unsigned grid[3], block[3], shared_bytes;
} graph_kernel;

/* CUPTI's resource-domain callback ids this file needs (count: how many). */
const unsigned *graph_watch_resource_callbacks(int *count);
/* The runtime and driver API callback ids that edit an executable graph. */
const unsigned *graph_watch_edit_runtime_callbacks(int *count);
const unsigned *graph_watch_edit_driver_callbacks(int *count);

/* From the CUPTI callback: a resource event (`data` is CUpti_GraphData), or
 * an API call that edits executable graphs (after which none of those seen
 * so far is trusted: the edit's target is not read out of each API's own
 * parameters). */
void graph_watch_on_resource(unsigned cbid, const void *data);
void graph_watch_on_edit(void);

/* The kernels of executable graph `exec`: their count (up to
 * GRAPH_WATCH_KERNELS, into `kernels`), or -1 with the reason in `why`. */
int graph_watch_kernels(const void *exec, graph_kernel *kernels, char *why, unsigned why_size);

#ifdef __cplusplus
}
#endif

#endif
