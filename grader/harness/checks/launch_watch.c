/* launch_watch.h: CUPTI callbacks on kernel launches, judged at the end of
 * each student call.
 *
 * The callbacks only note what was launched (host function or CUfunction,
 * and shape); names are looked up after the call, since no CUDA call may be
 * made inside a callback. The driver callback is skipped while a runtime
 * launch is under way on that thread, so each launch is noted once.
 *
 * Every launch callback in CUPTI's headers is either noted or refused: a
 * launch not judgeable kernel by kernel (the legacy and multi-device
 * launches, a host function on a stream) fails a judged call, naming the
 * API; harness.launch_ids_covered fails on a launch ID in neither list.
 * A call launching more kernels than the watch keeps fails too: a launch
 * past the record is never waved through. */
#include "copy_watch.h"
#include "stream_order_watch.h"
#include "cuda_driver.h"
#include "driver_launch.h"
#include "early_context.h"
#include "graph_watch.h"
#include "launch_watch.h"
#include "activity_recorder.h"
#include "harness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#endif

typedef struct {
    const void *func; /* runtime launches: the host function */
    void *cufunc;     /* driver launches and graph nodes: the CUfunction */
    void *cukernel;   /* graph nodes that name a CUkernel instead */
    unsigned grid[3], block[3], shared_bytes;
} noted_launch;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int depth;                 /* inside a student call */
static char call_name[256];
static noted_launch noted[LAUNCH_WATCH_KEEP];
static int noted_count, noted_dropped;
static launch_record last[LAUNCH_WATCH_KEEP];
static int last_count;
static int started, watching;     /* watching: CUPTI subscribed */
/* CUPTI refused the subscription: something in the process (the student's
 * code: another subscriber, or cuptiFinalize) holds or broke it. Judged
 * calls then fail; they are never "not checked". */
static int refused;
static int judging = 1;           /* launch_watch_judge */
static char refused_api[256];     /* the first refused launch of this call, and why */
static char not_watching[200];    /* why not */
/* Launches outside every student call from a thread other than the one the
 * test runs on: student code (a thread it started, a host function CUDA
 * ran) launching where no call of it is judged. The test fails. */
static pthread_t test_thread;
static char stray[256];
/* A CUDA context existed before the watch started (early_context.h). */
static char early[200];
static char *symbols;             /* the student's `nm -P` list, or NULL */

/* ------------------------------------------------------------- the rule */

static int has_library_namespace(const char *mangled)
{
    /* The kernel itself in one of the header-only libraries' namespaces:
     * _ZN3cub..., _ZN6thrust..., _ZN7cutlass..., _ZN4cute... (a student
     * kernel templated on a cub type is _Z9my_kernelIN3cub...: its own). */
    static const char *const prefixes[] = {"_ZN3cub", "_ZN6thrust", "_ZN7cutlass", "_ZN4cute"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i)
        if (strncmp(mangled, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* The student's library defines a host-side function named `mangled`. */
static int defined_in_students_file(const char *mangled, const char *symbols_text)
{
    if (!mangled || !mangled[0] || !symbols_text)
        return 0;
    /* nvcc gives every kernel K of a file a host-side function with K's own
     * (mangled) name, its launch wrapper: T, or t for a template instance
     * or a static kernel, W for an inline one. `nm -P` writes one
     * "name type value size" line per symbol. */
    size_t len = strlen(mangled);
    for (const char *p = symbols_text; (p = strstr(p, mangled)) != NULL; p += len) {
        int at_line_start = p == symbols_text || p[-1] == '\n';
        if (at_line_start && p[len] == ' ' && strchr("TtWw", p[len + 1]) && p[len + 1])
            return 1;
    }
    return 0;
}

int launch_watch_is_students(const char *mangled, const char *symbols_text)
{
    return defined_in_students_file(mangled, symbols_text) && !has_library_namespace(mangled);
}

static void load_symbols(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 16);
    if (n <= 0)
        return;
    exe[n] = '\0';
    strcat(exe, ".symbols");
    FILE *f = fopen(exe, "r");
    if (!f)
        return;
    size_t cap = 1 << 16, used = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + used, 1, cap - used - 1, f);
        used += got;
        if (got == 0)
            break;
        if (used + 1 >= cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) {
                free(text);
                text = NULL;
            }
            text = bigger;
        }
    }
    fclose(f);
    if (text)
        text[used] = '\0';
    symbols = text;
}

/* ------------------------------------------------------------ callbacks */

#if ACTIVITY_RECORDER_HAVE_CUPTI
static __thread int in_runtime_launch;

/* Under `lock`: a launch (or a refused one) outside every student call,
 * from another thread than the test's, is remembered for the test to fail. */
static void note_stray(const char *what)
{
    if (depth == 0 && !pthread_equal(pthread_self(), test_thread) && !stray[0])
        snprintf(stray, sizeof stray, "%s", what);
}

static void note_kernel(const void *func, void *cufunc, void *cukernel, const unsigned grid[3],
                        const unsigned block[3], unsigned shared_bytes)
{
    pthread_mutex_lock(&lock);
    note_stray("a kernel launch");
    if (depth > 0) {
        if (noted_count < LAUNCH_WATCH_KEEP)
            noted[noted_count++] = (noted_launch){func, cufunc, cukernel,
                                                  {grid[0], grid[1], grid[2]},
                                                  {block[0], block[1], block[2]}, shared_bytes};
        else
            ++noted_dropped;
    }
    pthread_mutex_unlock(&lock);
}

static void refuse_because(const char *api, const char *why);

/* A graph launch: each kernel of the executable graph is a launch; an
 * executable graph_watch.h cannot vouch for is refused. */
static void note_graph(const char *api, const void *exec)
{
    static graph_kernel kernels[GRAPH_WATCH_KERNELS]; /* under graph_lock */
    static pthread_mutex_t graph_lock = PTHREAD_MUTEX_INITIALIZER;
    char why[200];
    pthread_mutex_lock(&graph_lock);
    int count = graph_watch_kernels(exec, kernels, why, sizeof why);
    if (count < 0)
        refuse_because(api, why);
    for (int i = 0; i < count; ++i)
        note_kernel(NULL, kernels[i].function, kernels[i].kernel, kernels[i].grid,
                    kernels[i].block, kernels[i].shared_bytes);
    pthread_mutex_unlock(&graph_lock);
}

static void on_runtime(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const void *func = NULL;
    dim3 grid = {0, 0, 0}, block = {0, 0, 0};
    size_t shared = 0;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
        const cudaLaunchKernel_v7000_params *p = cb->functionParams;
        func = p->func, grid = p->gridDim, block = p->blockDim, shared = p->sharedMem;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
        const cudaLaunchCooperativeKernel_v9000_params *p = cb->functionParams;
        func = p->func, grid = p->gridDim, block = p->blockDim, shared = p->sharedMem;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const cudaLaunchKernelExC_v11060_params *p = cb->functionParams;
        func = p->func;
        if (p->config)
            grid = p->config->gridDim, block = p->config->blockDim,
            shared = p->config->dynamicSmemBytes;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000: {
        /* Both parameter structs start with the executable graph. */
        const cudaGraphLaunch_v10000_params *p = cb->functionParams;
        if (cb->callbackSite == CUPTI_API_ENTER) {
            ++in_runtime_launch;
            note_graph("cudaGraphLaunch", p->graphExec);
        } else if (in_runtime_launch > 0) {
            --in_runtime_launch;
        }
        return;
    }
    default:
        return;
    }
    if (cb->callbackSite == CUPTI_API_ENTER) {
        ++in_runtime_launch;
        const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
        note_kernel(func, NULL, NULL, g, b, (unsigned)shared);
    } else if (in_runtime_launch > 0) {
        --in_runtime_launch;
    }
}

static void on_driver(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cb->callbackSite != CUPTI_API_ENTER || in_runtime_launch > 0)
        return;
    driver_launch d;
    if (driver_launch_decode(cbid, cb->functionParams, &d)) {
        note_kernel(NULL, d.f, NULL, d.grid, d.block, d.shared_bytes);
        return;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch: {
        const cuGraphLaunch_params *p = cb->functionParams;
        note_graph("cuGraphLaunch", p->hGraph);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: {
        const cuGraphLaunch_ptsz_params *p = cb->functionParams;
        note_graph("cuGraphLaunch", p->hGraphExec);
        break;
    }
    default:
        break;
    }
}

/* The launches no lab needs and this watch cannot judge kernel by kernel.
 * (A graph launch is judged by the kernels graph_watch.h read from it.) */
static const CUpti_CallbackId refused_runtime_ids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000};
static const CUpti_CallbackId refused_driver_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc, CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz};
/* Noted through the driver: the runtime's `<<<...>>>` entry of CUDA 13
 * (CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000 and its _ptsz twin,
 * CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000) reaches
 * cuLaunchKernel, whose callback notes it. */

static int listed(const CUpti_CallbackId *ids, size_t n, CUpti_CallbackId cbid)
{
    for (size_t i = 0; i < n; ++i)
        if (ids[i] == cbid)
            return 1;
    return 0;
}

static void refuse_because(const char *api, const char *why)
{
    pthread_mutex_lock(&lock);
    note_stray(api);
    if (depth > 0 && !refused_api[0] && why)
        snprintf(refused_api, sizeof refused_api, "%s (%s)", api, why);
    else if (depth > 0 && !refused_api[0])
        snprintf(refused_api, sizeof refused_api, "%s", api);
    pthread_mutex_unlock(&lock);
}

static void refuse(const CUpti_CallbackData *cb)
{
    if (cb->callbackSite == CUPTI_API_ENTER)
        refuse_because(cb->functionName ? cb->functionName : "a launch API", NULL);
}

/* graph_watch.h's events: executable graphs made, destroyed or edited. */
static int on_graph_event(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    int n = 0;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        graph_watch_on_resource(cbid, data);
        return 1;
    }
    const unsigned *edits = domain == CUPTI_CB_DOMAIN_RUNTIME_API
                                ? graph_watch_edit_runtime_callbacks(&n)
                                : graph_watch_edit_driver_callbacks(&n);
    if (!listed(edits, (size_t)n, cbid))
        return 0;
    if (((const CUpti_CallbackData *)data)->callbackSite == CUPTI_API_ENTER)
        graph_watch_on_edit();
    return 1;
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)user;
    if (on_graph_event(domain, cbid, data))
        return;
    if ((domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
         listed(refused_runtime_ids, sizeof refused_runtime_ids / sizeof *refused_runtime_ids,
                    cbid)) ||
        (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         listed(refused_driver_ids, sizeof refused_driver_ids / sizeof *refused_driver_ids,
                    cbid))) {
        refuse(data);
        return;
    }
    /* Every call, inside a student call or not: it keeps per-thread scopes
     * that must balance, and judges only the calls lab 2 arms it for. */
    copy_watch_on_api(domain, cbid, data);
    stream_order_watch_on_api(domain, cbid, data);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        on_runtime(cbid, data);
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        on_driver(cbid, data);
}

static int subscribe(void)
{
    static CUpti_SubscriberHandle subscriber;
    CUptiResult r = cuptiSubscribe(&subscriber, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        const char *why = NULL;
        cuptiGetResultString(r, &why);
        snprintf(not_watching, sizeof not_watching, "CUPTI would not subscribe (%s: another "
                 "subscriber took it first, or cuptiFinalize was called)", why ? why : "unknown "
                 "error");
        refused = 1;
        return 0;
    }
    static const CUpti_CallbackId runtime_ids[] = {
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
        CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
        CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000};
    static const CUpti_CallbackId driver_ids[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};
    for (size_t i = 0; i < sizeof runtime_ids / sizeof runtime_ids[0]; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i]);
    for (size_t i = 0; i < sizeof driver_ids / sizeof driver_ids[0]; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i]);
    for (size_t i = 0; i < sizeof refused_runtime_ids / sizeof *refused_runtime_ids; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, refused_runtime_ids[i]);
    for (size_t i = 0; i < sizeof refused_driver_ids / sizeof *refused_driver_ids; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, refused_driver_ids[i]);
    static const CUpti_CallbackDomain copy_domains[] = {CUPTI_CB_DOMAIN_RUNTIME_API,
                                                        CUPTI_CB_DOMAIN_DRIVER_API};
    for (size_t d = 0; d < sizeof copy_domains / sizeof *copy_domains; ++d) {
        int copies = 0;
        const unsigned *copy_ids = copy_watch_callbacks(copy_domains[d], &copies);
        for (int i = 0; i < copies; ++i)
            cuptiEnableCallback(1, subscriber, copy_domains[d], copy_ids[i]);
        const unsigned *order_ids = stream_order_watch_callbacks(copy_domains[d], &copies);
        for (int i = 0; i < copies; ++i)
            cuptiEnableCallback(1, subscriber, copy_domains[d], order_ids[i]);
    }
    int count = 0;
    const unsigned *ids = graph_watch_resource_callbacks(&count);
    for (int i = 0; i < count; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, ids[i]);
    ids = graph_watch_edit_runtime_callbacks(&count);
    for (int i = 0; i < count; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, ids[i]);
    ids = graph_watch_edit_driver_callbacks(&count);
    for (int i = 0; i < count; ++i)
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
    return 1;
}

/* The driver's cuFuncGetName and cuKernelGetName (cuda_driver.h). */
typedef CUresult (*func_get_name_fn)(const char **, CUfunction);
typedef CUresult (*kernel_get_name_fn)(const char **, CUkernel);

static void name_of(const noted_launch *n, char *out, size_t size)
{
    static func_get_name_fn func_name;
    static kernel_get_name_fn kernel_name;
    static int looked;
    if (!looked) {
        looked = 1;
        func_name = (func_get_name_fn)cuda_driver_symbol("cuFuncGetName");
        kernel_name = (kernel_get_name_fn)cuda_driver_symbol("cuKernelGetName");
    }
    const char *name = NULL;
    if (n->func)
        cudaFuncGetName(&name, n->func);
    else if (n->cufunc && func_name)
        func_name(&name, (CUfunction)n->cufunc);
    else if (n->cukernel && kernel_name)
        kernel_name(&name, (CUkernel)n->cukernel);
    cudaGetLastError(); /* a lookup that failed must not look like the student's error */
    snprintf(out, size, "%s", name ? name : "");
}
#else
static int subscribe(void)
{
    snprintf(not_watching, sizeof not_watching, "this grader was built without CUPTI");
    return 0;
}

static void name_of(const noted_launch *n, char *out, size_t size)
{
    (void)n;
    snprintf(out, size, "");
}
#endif

/* ------------------------------------------------------------ the scope */

void launch_watch_judge(int judge)
{
    judging = judge;
}

void launch_watch_start(void)
{
    if (started)
        return;
    started = 1;
    test_thread = pthread_self();
    early_context_found(early, sizeof early);
    if (getenv("GRADER_NO_LAUNCH_WATCH")) {
        snprintf(not_watching, sizeof not_watching, "GRADER_NO_LAUNCH_WATCH is set");
        return;
    }
    load_symbols();
    watching = subscribe();
}

int launch_watch_active(void)
{
    launch_watch_start();
    return watching;
}

void launch_watch_begin(const char *call)
{
    launch_watch_start();
    pthread_mutex_lock(&lock);
    if (depth++ == 0) {
        snprintf(call_name, sizeof call_name, "%s", call ? call : "your code");
        noted_count = noted_dropped = 0;
        refused_api[0] = '\0';
        copy_watch_reset();
    }
    pthread_mutex_unlock(&lock);
}

void launch_watch_end(void)
{
    pthread_mutex_lock(&lock);
    int outer = --depth == 0;
    int count = noted_count, dropped = noted_dropped;
    char refused_here[sizeof refused_api];
    memcpy(refused_here, refused_api, sizeof refused_here);
    pthread_mutex_unlock(&lock);
    if (!outer)
        return;
    if (early[0] && judging)
        GRADER_FAIL("%s could not be judged: %s before the test began. Code that runs before "
                    "main (a static constructor in your file, or in a library it pulls in) used "
                    "the GPU where the grader cannot see it; do GPU work only inside your lab's "
                    "functions.", call_name, early);
    launch_watch_finish();
    if (refused_here[0] && judging)
        GRADER_FAIL("%s launched work through %s, which the grader cannot judge kernel by kernel "
                    "(a CUDA graph it could not read, a legacy or multi-device launch, or a host "
                    "function on a stream): launch your own kernels with <<<...>>>, "
                    "cudaLaunchKernel, or a CUDA graph of them made in the same run.",
                    call_name, refused_here);
    if (dropped > 0 && judging)
        GRADER_FAIL("%s launched %d kernels, more than the %d the grader keeps to judge: the "
                    "rest could not be judged, so the call is not graded as passed.",
                    call_name, count + dropped, LAUNCH_WATCH_KEEP);
    last_count = count;
    int foreign = -1;
    for (int i = 0; i < count; ++i) {
        launch_record *r = &last[i];
        name_of(&noted[i], r->name, sizeof r->name);
        memcpy(r->grid, noted[i].grid, sizeof r->grid);
        memcpy(r->block, noted[i].block, sizeof r->block);
        r->shared_bytes = noted[i].shared_bytes;
        r->students = launch_watch_is_students(r->name, symbols);
        if (!r->students && foreign < 0)
            foreign = i;
    }
    if (!watching && refused && judging)
        GRADER_FAIL("%s could not be judged: %s. The grader must see which kernels your code "
                    "launches; not graded as passed.", call_name, not_watching);
    if (!watching) {
        static int said;
        if (!said++)
            grader_note("kernel identity not checked: %s", not_watching);
        return;
    }
    if (!symbols) {
        static int said;
        if (!said++)
            grader_note("kernel identity not checked: no list of your kernels next to the "
                        "grader (<grader>.symbols, written by the build)");
        return;
    }
    if (foreign >= 0 && judging) {
        char shown[LAUNCH_NAME_SIZE];
        if (last[foreign].name[0])
            activity_kernel_short_name(last[foreign].name, shown, sizeof shown);
        else
            snprintf(shown, sizeof shown, "(a kernel whose name this program's CUDA runtime "
                                          "does not know: a library's)");
        /* CUB, Thrust, CUTLASS and CuTe are header-only: their kernels may
         * be compiled into the student's file or come with a library
         * (cuBLAS runs CUTLASS kernels); either way they are not the
         * student's work. */
        const char *why = has_library_namespace(last[foreign].name)
            ? "it is a library's kernel (CUB, Thrust, CUTLASS or CuTe: header-only libraries, "
              "whose kernels are their work, not yours)"
            : "it is not defined in your lab file: a library's kernel (cuBLAS, ...) or one of "
              "the grader's";
        GRADER_FAIL("%s launched the kernel %s, which does not count: %s. Each graded or "
                    "timed stage must run a kernel you wrote in your lab's .cu file (any name "
                    "will do).",
                    call_name, shown, why);
    }
}

void launch_watch_finish(void)
{
    pthread_mutex_lock(&lock);
    char stray_here[sizeof stray];
    memcpy(stray_here, stray, sizeof stray_here);
    pthread_mutex_unlock(&lock);
    if (stray_here[0] && judging)
        GRADER_FAIL("your code made %s outside every graded call, from a thread of its own (one "
                    "it started, or a host function CUDA ran): the grader judges only the work "
                    "your lab's functions launch while they run, so this test is not graded as "
                    "passed.", stray_here);
}

int launch_watch_end_status(int status)
{
    launch_watch_end();
    return status;
}

const launch_record *launch_watch_last(int *count)
{
    *count = watching ? last_count : 0;
    return watching ? last : NULL;
}
