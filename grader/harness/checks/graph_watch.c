/* graph_watch.h: the kernel nodes of every executable graph, read when it
 * is made. */
#include "graph_watch.h"
#include "activity_recorder.h"
#include "cuda_driver.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda.h>
#include <cupti.h>

enum { KEPT_GRAPHS = 128, NESTING = 8, NODES_READ = 256, WHY_SIZE = 160 };

typedef struct {
    const void *exec; /* NULL: a free slot */
    int refused;      /* 1: launching it fails, for `why` */
    char why[WHY_SIZE];
    int count;
    graph_kernel kernels[GRAPH_WATCH_KERNELS];
} kept_graph;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static kept_graph kept[KEPT_GRAPHS];
static int ran_out; /* an executable was made while every slot was taken */

/* The driver's graph queries (cuda_driver.h), looked up once. */
typedef CUresult (*get_nodes_fn)(CUgraph, CUgraphNode *, size_t *);
typedef CUresult (*node_type_fn)(CUgraphNode, CUgraphNodeType *);
typedef CUresult (*kernel_params_fn)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v2 *);
typedef CUresult (*child_graph_fn)(CUgraphNode, CUgraph *);
static struct {
    int looked;
    get_nodes_fn get_nodes;
    node_type_fn node_type;
    kernel_params_fn kernel_params;
    child_graph_fn child_graph;
} driver;

static int driver_ready(void)
{
    if (!driver.looked) {
        driver.looked = 1;
        driver.get_nodes = (get_nodes_fn)cuda_driver_symbol("cuGraphGetNodes");
        driver.node_type = (node_type_fn)cuda_driver_symbol("cuGraphNodeGetType");
        driver.kernel_params =
            (kernel_params_fn)cuda_driver_symbol("cuGraphKernelNodeGetParams_v2");
        driver.child_graph = (child_graph_fn)cuda_driver_symbol("cuGraphChildGraphNodeGetGraph");
    }
    return driver.get_nodes && driver.node_type && driver.kernel_params && driver.child_graph;
}

/* Why a node of this type cannot be judged, or NULL when it can (kernels)
 * or needs no judging (no work of its own that could stand in for the
 * student's). */
static const char *unjudged_node(CUgraphNodeType type)
{
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
    case CU_GRAPH_NODE_TYPE_GRAPH: /* read through: its own nodes are judged */
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return NULL;
    case CU_GRAPH_NODE_TYPE_HOST:
        return "a host function node (CPU code run by the graph)";
    case CU_GRAPH_NODE_TYPE_MEMCPY:
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return "a copy or memset node (the grader watches copies as API calls only)";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return "a conditional node (which of its bodies runs is decided on the GPU)";
    default:
        return "a node of a kind the grader does not judge (external semaphores, memory "
               "operations)";
    }
}

/* Reads `graph`'s kernel nodes into `g`, through child graphs; 0 after
 * writing why it cannot. */
static int read_graph(CUgraph graph, kept_graph *g, int nesting)
{
    if (nesting > NESTING) {
        snprintf(g->why, sizeof g->why, "its child graphs nest deeper than %d", NESTING);
        return 0;
    }
    CUgraphNode nodes[NODES_READ];
    size_t count = NODES_READ;
    if (driver.get_nodes(graph, nodes, &count) != CUDA_SUCCESS || count > NODES_READ) {
        snprintf(g->why, sizeof g->why, "its nodes could not be read (more than %d?)",
                 NODES_READ);
        return 0;
    }
    for (size_t i = 0; i < count; ++i) {
        CUgraphNodeType type;
        if (driver.node_type(nodes[i], &type) != CUDA_SUCCESS) {
            snprintf(g->why, sizeof g->why, "a node's type could not be read");
            return 0;
        }
        const char *unjudged = unjudged_node(type);
        if (unjudged) {
            snprintf(g->why, sizeof g->why, "it holds %s", unjudged);
            return 0;
        }
        if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraph child;
            if (driver.child_graph(nodes[i], &child) != CUDA_SUCCESS ||
                !read_graph(child, g, nesting + 1))
                return 0;
            continue;
        }
        if (type != CU_GRAPH_NODE_TYPE_KERNEL)
            continue;
        CUDA_KERNEL_NODE_PARAMS_v2 p;
        memset(&p, 0, sizeof p);
        if (driver.kernel_params(nodes[i], &p) != CUDA_SUCCESS || (!p.func && !p.kern)) {
            snprintf(g->why, sizeof g->why, "a kernel node's function could not be read");
            return 0;
        }
        if (g->count == GRAPH_WATCH_KERNELS) {
            snprintf(g->why, sizeof g->why, "it holds more than the %d kernels the grader "
                     "keeps per graph", GRAPH_WATCH_KERNELS);
            return 0;
        }
        g->kernels[g->count++] = (graph_kernel){
            p.func, p.func ? NULL : p.kern, {p.gridDimX, p.gridDimY, p.gridDimZ},
            {p.blockDimX, p.blockDimY, p.blockDimZ}, p.sharedMemBytes};
    }
    return 1;
}

static kept_graph *find(const void *exec)
{
    for (int i = 0; exec && i < KEPT_GRAPHS; ++i)
        if (kept[i].exec == exec)
            return &kept[i];
    return NULL;
}

static void on_made(const CUpti_GraphData *d)
{
    kept_graph *g = find(d->graphExec); /* a handle used again */
    for (int i = 0; !g && i < KEPT_GRAPHS; ++i)
        if (!kept[i].exec)
            g = &kept[i];
    if (!g) {
        ran_out = 1;
        return;
    }
    memset(g, 0, sizeof *g);
    g->exec = d->graphExec;
    if (!driver_ready())
        snprintf(g->why, sizeof g->why, "the driver's graph queries are missing");
    g->refused = !driver_ready() || !d->graph || !read_graph(d->graph, g, 0);
    if (g->refused && !g->why[0])
        snprintf(g->why, sizeof g->why, "the graph it was made from is unknown");
}

static unsigned resource_ids[] = {CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED,
                                  CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING,
                                  CUPTI_CBID_RESOURCE_GRAPH_NODE_SET_PARAMS,
                                  CUPTI_CBID_RESOURCE_GRAPH_NODE_UPDATED};

/* Every API that changes what an executable graph runs. The ctest
 * harness.launch_ids_covered checks that this list and launch_watch.c
 * together name every such ID of CUPTI's headers. */
static unsigned edit_runtime_ids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecNodeSetParams_v12020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecChildGraphNodeSetParams_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecHostNodeSetParams_v10020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams_v10020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams1D_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemsetNodeSetParams_v10020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresSignalNodeSetParams_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresWaitNodeSetParams_v11020};
static unsigned edit_driver_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams};

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

const unsigned *graph_watch_resource_callbacks(int *count)
{
    *count = COUNT_OF(resource_ids);
    return resource_ids;
}

const unsigned *graph_watch_edit_runtime_callbacks(int *count)
{
    *count = COUNT_OF(edit_runtime_ids);
    return edit_runtime_ids;
}

const unsigned *graph_watch_edit_driver_callbacks(int *count)
{
    *count = COUNT_OF(edit_driver_ids);
    return edit_driver_ids;
}

static void refuse_all(const char *why)
{
    for (int i = 0; i < KEPT_GRAPHS; ++i)
        if (kept[i].exec && !kept[i].refused) {
            kept[i].refused = 1;
            snprintf(kept[i].why, sizeof kept[i].why, "%s", why);
        }
}

void graph_watch_on_resource(unsigned cbid, const void *data)
{
    const CUpti_ResourceData *r = data;
    const CUpti_GraphData *d = r ? r->resourceDescriptor : NULL;
    if (!d)
        return;
    pthread_mutex_lock(&lock);
    kept_graph *g = find(d->graphExec);
    switch (cbid) {
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED:
        on_made(d);
        break;
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING:
        if (g)
            g->exec = NULL;
        break;
    default: /* a node's parameters changed in an executable graph */
        if (g) {
            g->refused = 1;
            snprintf(g->why, sizeof g->why, "a node of it was changed after it was made");
        } else if (!d->graphExec) {
            refuse_all("a node of an executable graph was changed after it was made");
        }
        break;
    }
    pthread_mutex_unlock(&lock);
}

void graph_watch_on_edit(void)
{
    pthread_mutex_lock(&lock);
    refuse_all("an executable graph was edited after it was made (cudaGraphExecUpdate or a "
               "cudaGraphExec...SetParams call)");
    pthread_mutex_unlock(&lock);
}

int graph_watch_kernels(const void *exec, graph_kernel *kernels, char *why, unsigned why_size)
{
    pthread_mutex_lock(&lock);
    kept_graph *g = find(exec);
    int count = -1;
    if (!g)
        snprintf(why, why_size, "%s", ran_out
                 ? "the grader saw more executable graphs made than it keeps"
                 : "the grader did not see it made (before the test began?)");
    else if (g->refused)
        snprintf(why, why_size, "%s", g->why);
    else
        memcpy(kernels, g->kernels, sizeof *kernels * (size_t)(count = g->count));
    pthread_mutex_unlock(&lock);
    return count;
}
#else
const unsigned *graph_watch_resource_callbacks(int *count) { return *count = 0, NULL; }
const unsigned *graph_watch_edit_runtime_callbacks(int *count) { return *count = 0, NULL; }
const unsigned *graph_watch_edit_driver_callbacks(int *count) { return *count = 0, NULL; }
void graph_watch_on_resource(unsigned cbid, const void *data) { (void)cbid, (void)data; }
void graph_watch_on_edit(void) {}
int graph_watch_kernels(const void *exec, graph_kernel *kernels, char *why, unsigned why_size)
{
    (void)exec, (void)kernels;
    snprintf(why, why_size, "this grader was built without CUPTI");
    return -1;
}
#endif
