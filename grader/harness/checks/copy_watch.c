/* Lab 2's host flow, watched from the inside. See copy_watch.h.
 *
 * The callbacks note what happened and judge what can only be judged at
 * that moment (what memory a pointer is: the buffers are freed by the time
 * the call returns); copy_watch_verdict judges the rest after the call.
 * The first broken rule is kept and named; the others need not be. */
#define _DEFAULT_SOURCE /* mincore */
#include "copy_watch.h"
#include "cuda_driver.h"
#include "driver_launch.h"
#include "fnv_hash.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#endif

enum { LAUNCH_KEEP = 64, LAUNCH_POINTERS = 16, WHY_SIZE = 400 };

typedef struct {
    unsigned long seq; /* 0: none */
    const void *dst, *src;
} copy_record;

typedef struct {
    unsigned long seq;
    const void *pointers[LAUNCH_POINTERS]; /* device pointers among its arguments */
    int count;
} launch_args;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static copy_watch_flow flow;
static int armed;  /* copy_watch_expect gave a flow */
static int active; /* armed, and the student call has begun; read without the lock */
static unsigned long seq;
static copy_record upload_a, upload_b, copy_back; /* the last of each */
static launch_args launches[LAUNCH_KEEP];
static int launch_count, launches_dropped;
static size_t argument_bytes;
static char broken[WHY_SIZE]; /* the first rule broken during the call */
static int output_hashed;
static uint64_t output_hash;
static int managed_variables; /* declares_managed_variable, at copy_watch_expect */

/* Words of CUPTI callback names that transfer data, or make host memory
 * reachable from a kernel. Every ID whose name holds one is enabled, and
 * refused inside a watched call unless it is one of the understood IDs
 * below (harness.copy_ids_covered checks the headers against this list). */
static const char *const transfer_words[] = {
    "Memcpy", "Memset", "MemPrefetch", "MemAdvise", "MemDiscard", "MallocManaged",
    "AllocManaged", "MallocHost", "AllocHost", "HostAlloc", "HostRegister",
    "HostGetDevicePointer", "GetManaged", "RegisterManagedVar"};

/* Whether the student's library declares a __managed__ variable: memory the
 * CPU and every kernel share with no copy and no argument. nvcc registers
 * each one with __cudaRegisterManagedVar, so the library's symbol list
 * (<test program>.symbols, `nm -P`, written by the build) names it. -1: no
 * list. Read once, outside any callback. */
static int declares_managed_variable(void)
{
    static int known = -2;
    if (known != -2)
        return known;
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 16);
    known = -1;
    if (n <= 0)
        return known;
    path[n] = '\0';
    strcat(path, ".symbols");
    FILE *f = fopen(path, "r");
    if (!f)
        return known;
    known = 0;
    char line[512];
    while (!known && fgets(line, sizeof line, f))
        known = strncmp(line, "__cudaRegisterManagedVar ", 25) == 0;
    fclose(f);
    return known;
}

void copy_watch_expect(const copy_watch_flow *f)
{
    int managed = f ? declares_managed_variable() : 0;
    pthread_mutex_lock(&lock);
    armed = f != NULL;
    if (f)
        flow = *f;
    managed_variables = managed > 0;
    __atomic_store_n(&active, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
}

void copy_watch_reset(void)
{
    pthread_mutex_lock(&lock);
    seq = 0;
    upload_a = upload_b = copy_back = (copy_record){0, NULL, NULL};
    launch_count = launches_dropped = 0;
    argument_bytes = 0;
    broken[0] = '\0';
    output_hashed = 0;
    __atomic_store_n(&active, armed, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
}

size_t copy_watch_argument_bytes(void)
{
    return argument_bytes;
}

/* Keeps the first broken rule. Call with the lock held. */
static void breaks(const char *format, ...) __attribute__((format(printf, 1, 2)));

static void breaks(const char *format, ...)
{
    if (broken[0])
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(broken, sizeof broken, format, args);
    va_end(args);
}

static int launch_has(const launch_args *l, const void *p)
{
    for (int i = 0; i < l->count; ++i)
        if (l->pointers[i] == p)
            return 1;
    return 0;
}

int copy_watch_verdict(char *why, size_t size)
{
    pthread_mutex_lock(&lock);
    __atomic_store_n(&active, 0, __ATOMIC_SEQ_CST);
    armed = 0;
    why[0] = '\0';
    if (managed_variables && !broken[0])
        breaks("your lab file declares a __managed__ variable, memory the CPU and your kernels "
               "share without any copy: a host flow moves its data with its copies only, "
               "between the caller's pointers and cudaMalloc'd buffers");
    if (broken[0]) {
        snprintf(why, size, "%s", broken);
        pthread_mutex_unlock(&lock);
        return -1;
    }
    if (launches_dropped > 0) {
        snprintf(why, size, "it launched more than %d kernels, more than the grader keeps to tie "
                 "C to the kernel that computed it: a host flow launches one", LAUNCH_KEEP);
    } else if (!upload_a.seq || !upload_b.seq) {
        snprintf(why, size, "%s was never copied in from the pointer %s it was given (%zu bytes "
                 "in one cudaMemcpy to a cudaMalloc'd buffer)", upload_a.seq ? "B" : "A",
                 upload_a.seq ? "b" : "a", upload_a.seq ? flow.b_bytes : flow.a_bytes);
    } else if (!copy_back.seq) {
        snprintf(why, size, "C was never copied back into the pointer c it was given (%zu bytes "
                 "in one cudaMemcpy from the device buffer your kernel wrote)", flow.c_bytes);
    } else if (!output_hashed ||
               fnv_hash(FNV_HASH_OFFSET, flow.c, flow.c_bytes) != output_hash) {
        snprintf(why, size, "C changed after the device-to-host copy had written it: C must be "
                 "the result your kernel computed, copied back, not changed on the CPU "
                 "afterwards");
    } else if (argument_bytes > COPY_WATCH_ARGUMENT_BYTES_MAX) {
        snprintf(why, size, "its kernels were passed %zu bytes of arguments by value (at most %d "
                 "are allowed): C must be computed by your kernel from A and B, not handed to "
                 "it", argument_bytes, (int)COPY_WATCH_ARGUMENT_BYTES_MAX);
    } else {
        unsigned long after = upload_a.seq > upload_b.seq ? upload_a.seq : upload_b.seq;
        int tied = 0;
        for (int i = 0; i < launch_count && !tied; ++i) {
            const launch_args *l = &launches[i];
            tied = l->seq > after && l->seq < copy_back.seq && launch_has(l, copy_back.src) &&
                   launch_has(l, upload_a.dst) && launch_has(l, upload_b.dst);
        }
        /* What was seen, so that the message says which part is missing. */
        int pointers = 0;
        for (int i = 0; i < launch_count; ++i)
            pointers += launches[i].count;
        if (!tied)
            snprintf(why, size, "the device buffer copied into c (%p) was not an argument of a "
                     "kernel launched after the uploads together with the device copies of A "
                     "(%p) and B (%p) (the grader saw %d kernel launch(es), with %d device "
                     "pointer argument(s) in all): C must be what your kernel computed from A "
                     "and B, copied back from the buffer it wrote", copy_back.src, upload_a.dst,
                     upload_b.dst, launch_count, pointers);
    }
    pthread_mutex_unlock(&lock);
    return why[0] == '\0';
}

#if ACTIVITY_RECORDER_HAVE_CUPTI
/* ---------------------------------------------------- what memory is it */

typedef CUresult (*pointer_attributes_fn)(unsigned, CUpointer_attribute *, void **, CUdeviceptr);
typedef CUresult (*param_info_fn)(CUfunction, size_t, size_t *, size_t *);

typedef enum { MEM_NOT_CUDA, MEM_DEVICE, MEM_HOST_CUDA, MEM_MANAGED, MEM_UNKNOWN } memory_kind;

static const char *memory_name(memory_kind kind)
{
    switch (kind) {
    case MEM_DEVICE: return "device memory";
    case MEM_HOST_CUDA: return "pinned or mapped host memory";
    case MEM_MANAGED: return "managed memory";
    case MEM_NOT_CUDA: return "host memory";
    default: return "memory the CUDA driver could not describe";
    }
}

static memory_kind memory_of(const void *p)
{
    static pointer_attributes_fn get;
    if (!get)
        get = (pointer_attributes_fn)cuda_driver_symbol("cuPointerGetAttributes");
    if (!get)
        return MEM_UNKNOWN;
    CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                        CU_POINTER_ATTRIBUTE_IS_MANAGED};
    unsigned type = 0;
    int managed = 0; /* a bool: zeroed, so one byte written reads right */
    void *data[] = {&type, &managed};
    if (get(2, attributes, data, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS)
        return MEM_UNKNOWN;
    if (managed)
        return MEM_MANAGED;
    if (type == CU_MEMORYTYPE_DEVICE)
        return MEM_DEVICE;
    if (type == CU_MEMORYTYPE_HOST)
        return MEM_HOST_CUDA;
    return MEM_NOT_CUDA;
}

/* Mapped in this process: an address a kernel could reach through HMM. */
static int host_address(uintptr_t value)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || value < (uintptr_t)page)
        return 0;
    unsigned char resident;
    return mincore((void *)(value & ~(uintptr_t)(page - 1)), 1, &resident) == 0;
}

/* ------------------------------------------------------ kernel arguments */

/* One 8-byte word of a kernel's arguments. Call with the lock held. */
static void judge_word(uintptr_t value, launch_args *l, const char *api)
{
    memory_kind kind = memory_of((const void *)value);
    if (kind == MEM_DEVICE) {
        if (l->count < LAUNCH_POINTERS)
            l->pointers[l->count++] = (const void *)value;
    } else if (kind == MEM_NOT_CUDA ? host_address(value) : 1) {
        breaks("it passed %s (%p) to a kernel through %s: the kernels of a host flow work on "
               "device memory from cudaMalloc only, the copies move the data",
               memory_name(kind), (void *)value, api);
    }
}

/* Call with the lock held. */
static void note_launch(const launch_args *l, size_t bytes)
{
    argument_bytes += bytes;
    if (launch_count < LAUNCH_KEEP)
        launches[launch_count++] = *l;
    else
        ++launches_dropped;
}

/* The argument `index` of a launch: kernelParams, or the packed buffer of
 * `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER) at its offset. */
static const unsigned char *extra_buffer(void **extra)
{
    for (int i = 0; extra && i < 32 && extra[i] != CU_LAUNCH_PARAM_END; i += 2)
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            return extra[i + 1];
    return NULL;
}

typedef CUresult (*kernel_param_info_fn)(CUkernel, size_t, size_t *, size_t *);
typedef CUresult (*kernel_get_function_fn)(CUfunction *, CUkernel);

/* Argument `i`'s place and size. The function a launch names may be a
 * CUfunction or, from the runtime's <<<...>>> (CUDA 12 and later: its
 * kernels live in a library), a CUkernel handle in the CUfunction's place,
 * which cuFuncGetParamInfo does not take: then the CUkernel's own query,
 * or the CUfunction it has in the current context. */
static CUresult param_info(CUfunction f, size_t i, size_t *offset, size_t *size)
{
    static param_info_fn func_info;
    static kernel_param_info_fn kernel_info;
    static kernel_get_function_fn kernel_function;
    static int looked;
    if (!looked) {
        looked = 1;
        func_info = (param_info_fn)cuda_driver_symbol("cuFuncGetParamInfo");
        kernel_info = (kernel_param_info_fn)cuda_driver_symbol("cuKernelGetParamInfo");
        kernel_function = (kernel_get_function_fn)cuda_driver_symbol("cuKernelGetFunction");
    }
    CUresult r = func_info ? func_info(f, i, offset, size) : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS && kernel_info)
        r = kernel_info((CUkernel)f, i, offset, size);
    CUfunction in_context = NULL;
    if (r != CUDA_SUCCESS && func_info && kernel_function &&
        kernel_function(&in_context, (CUkernel)f) == CUDA_SUCCESS && in_context)
        r = func_info(in_context, i, offset, size);
    return r;
}

static void read_arguments(CUfunction f, void **params, void **extra, const char *api)
{
    const unsigned char *buffer = params ? NULL : extra_buffer(extra);
    pthread_mutex_lock(&lock);
    launch_args l = {++seq, {NULL}, 0};
    size_t bytes = 0;
    if (!cuda_driver_symbol("cuFuncGetParamInfo"))
        breaks("the grader could not read the arguments of a kernel launched through %s "
               "(cuFuncGetParamInfo is missing from the driver): a problem of the grading "
               "machine, not of your code", api);
    for (size_t i = 0; i < 4096; ++i) {
        size_t offset = 0, size = 0;
        if (param_info(f, i, &offset, &size) != CUDA_SUCCESS)
            break;
        bytes += size;
        const unsigned char *value = params ? params[i] : buffer ? buffer + offset : NULL;
        if (!value) {
            breaks("it launched a kernel through %s with arguments the grader could not "
                   "read: launch your kernel with <<<...>>>", api);
            break;
        }
        for (size_t w = 0; w + sizeof(uintptr_t) <= size; w += sizeof(uintptr_t)) {
            uintptr_t word;
            memcpy(&word, value + w, sizeof word);
            judge_word(word, &l, api);
        }
    }
    note_launch(&l, bytes);
    pthread_mutex_unlock(&lock);
}

/* A runtime launch whose arguments no driver launch inside it showed:
 * through the kernel's CUfunction. The runtime's last error is left as the
 * launch left it. */
static void read_runtime_arguments(const void *func, void **args, const char *api)
{
    if (cudaPeekAtLastError() != cudaSuccess)
        return; /* the launch failed: nothing ran */
    cudaFunction_t f = NULL;
    if (!func || cudaGetFuncBySymbol(&f, func) != cudaSuccess || !f) {
        cudaGetLastError();
        pthread_mutex_lock(&lock);
        breaks("it launched a kernel through %s whose arguments the grader could not read: "
               "launch your kernel with <<<...>>>", api);
        pthread_mutex_unlock(&lock);
        return;
    }
    read_arguments((CUfunction)f, args, NULL, api);
}

/* -------------------------------------------------------------- copies */

static int overlaps(const void *p, size_t n, const void *base, size_t len)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
    return base && a < b + len && b < a + (n ? n : 1);
}

/* A cudaMemcpy(Async) entering. Call with the lock held. */
static void note_copy(const void *dst, const void *src, size_t bytes, const char *api)
{
    unsigned long at = ++seq;
    copy_record *upload = NULL;
    const char *what = NULL;
    if (src == flow.a && bytes == flow.a_bytes)
        upload = &upload_a, what = "A";
    else if (src == flow.b && bytes == flow.b_bytes)
        upload = &upload_b, what = "B";
    if (upload) {
        memory_kind kind = memory_of(dst);
        if (kind != MEM_DEVICE || overlaps(dst, bytes, flow.c, flow.c_bytes))
            breaks("it copied %s into %s (%p): A and B go into buffers from cudaMalloc", what,
                   memory_name(kind), dst);
        *upload = (copy_record){at, dst, src};
        return;
    }
    if (dst == flow.c && bytes == flow.c_bytes) {
        memory_kind kind = memory_of(src);
        if (kind != MEM_DEVICE)
            breaks("it copied C back from %s (%p): C comes from the cudaMalloc'd buffer your "
                   "kernel wrote", memory_name(kind), src);
        copy_back = (copy_record){at, dst, src};
        return;
    }
    breaks("it made a copy (%s) of %zu bytes to %p from %p that is none of the three a host "
           "flow makes: the uploads are exactly A and B, from the pointers a and b, and the only "
           "copy back is C, into the pointer c", api, bytes, dst, src);
}

/* A cudaMemset(Async) entering: only device memory. Call with the lock held. */
static void note_memset(const void *dst, const char *api)
{
    ++seq;
    memory_kind kind = memory_of(dst);
    if (kind != MEM_DEVICE)
        breaks("it called %s on %s (%p): a host flow sets device memory only", api,
               memory_name(kind), dst);
}

/* ---------------------------------------------------- the callback IDs */

/* API_SCOPE: runtime calls watched only so that the driver calls inside
 * them (context set-up, the runtime's own buffers) are known as theirs. */
enum { API_OTHER, API_COPY, API_SET, API_RUNTIME_LAUNCH, API_DRIVER_LAUNCH, API_REFUSED,
       API_SCOPE };

static const unsigned understood_runtime[][2] = {
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, API_COPY},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, API_COPY},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, API_COPY},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000, API_COPY},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, API_SET},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000, API_SET},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, API_SET},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000, API_SET},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000, API_RUNTIME_LAUNCH},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, API_SCOPE},
    {CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, API_SCOPE}};
static const unsigned understood_driver[][2] = {
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, API_DRIVER_LAUNCH},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, API_DRIVER_LAUNCH},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, API_DRIVER_LAUNCH},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, API_DRIVER_LAUNCH},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, API_DRIVER_LAUNCH},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, API_DRIVER_LAUNCH}};

static unsigned char runtime_class[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static unsigned char driver_class[CUPTI_DRIVER_TRACE_CBID_SIZE];
static unsigned runtime_ids[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static unsigned driver_ids[CUPTI_DRIVER_TRACE_CBID_SIZE];
static int runtime_id_count, driver_id_count;

static int names_a_transfer(const char *name)
{
    for (size_t i = 0; name && i < sizeof transfer_words / sizeof *transfer_words; ++i)
        if (strstr(name, transfer_words[i]))
            return 1;
    return 0;
}

/* Builds the classes of one domain from CUPTI's own names. */
static void classify(CUpti_CallbackDomain domain, unsigned char *cls, unsigned size,
                     const unsigned (*understood)[2], size_t understood_count, unsigned *ids,
                     int *count)
{
    for (size_t i = 0; i < understood_count; ++i)
        if (understood[i][0] < size)
            cls[understood[i][0]] = (unsigned char)understood[i][1];
    for (unsigned id = 1; id < size; ++id) {
        const char *name = NULL;
        if (cls[id] == API_OTHER && cuptiGetCallbackName(domain, id, &name) == CUPTI_SUCCESS &&
            names_a_transfer(name))
            cls[id] = API_REFUSED;
        if (cls[id] != API_OTHER)
            ids[(*count)++] = id;
    }
}

const unsigned *copy_watch_callbacks(unsigned domain, int *count)
{
    static int built;
    if (!built) {
        built = 1;
        classify(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_class, CUPTI_RUNTIME_TRACE_CBID_SIZE,
                 understood_runtime, sizeof understood_runtime / sizeof *understood_runtime,
                 runtime_ids, &runtime_id_count);
        classify(CUPTI_CB_DOMAIN_DRIVER_API, driver_class, CUPTI_DRIVER_TRACE_CBID_SIZE,
                 understood_driver, sizeof understood_driver / sizeof *understood_driver,
                 driver_ids, &driver_id_count);
    }
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        *count = runtime_id_count;
        return runtime_ids;
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        *count = driver_id_count;
        return driver_ids;
    }
    *count = 0;
    return NULL;
}

/* ------------------------------------------------------------ callbacks */

/* Inside an understood runtime call on this thread: the driver calls the
 * runtime makes for it are its own work, not the student's. Kept whether
 * or not a call is watched, so that it always balances. */
static __thread int runtime_scope;
/* A runtime launch under way on this thread, and whether a driver launch
 * inside it showed its arguments. */
static __thread int runtime_launch_open, runtime_launch_read;

static void on_runtime(unsigned cbid, const CUpti_CallbackData *cb)
{
    int cls = cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE ? runtime_class[cbid] : API_OTHER;
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    const char *api = cb->functionName ? cb->functionName : "a CUDA runtime call";
    if (cls == API_COPY || cls == API_SET || cls == API_RUNTIME_LAUNCH || cls == API_SCOPE)
        runtime_scope += enter ? 1 : (runtime_scope > 0 ? -1 : 0);
    if (cls == API_RUNTIME_LAUNCH && enter)
        runtime_launch_open = 1, runtime_launch_read = 0;
    int open = runtime_launch_open;
    if (cls == API_RUNTIME_LAUNCH && !enter)
        runtime_launch_open = 0;
    if (!__atomic_load_n(&active, __ATOMIC_SEQ_CST))
        return;
    switch (cls) {
    case API_COPY: {
        /* Every understood copy starts with dst, src, count (their _params). */
        const cudaMemcpy_v3020_params *p = cb->functionParams;
        pthread_mutex_lock(&lock);
        if (enter)
            note_copy(p->dst, p->src, p->count, api);
        else if (p->dst == flow.c && p->count == flow.c_bytes &&
                 *(const cudaError_t *)cb->functionReturnValue == cudaSuccess) {
            /* The copy is done: into pageable memory even the Async form
             * returns only then. */
            output_hash = fnv_hash(FNV_HASH_OFFSET, flow.c, flow.c_bytes);
            output_hashed = 1;
        }
        pthread_mutex_unlock(&lock);
        break;
    }
    case API_SET:
        if (enter) {
            const cudaMemset_v3020_params *p = cb->functionParams; /* devPtr first in all */
            pthread_mutex_lock(&lock);
            note_memset(p->devPtr, api);
            pthread_mutex_unlock(&lock);
        }
        break;
    case API_RUNTIME_LAUNCH:
        if (!enter && open && !runtime_launch_read) {
            if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060 ||
                cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060) {
                const cudaLaunchKernelExC_v11060_params *p = cb->functionParams;
                read_runtime_arguments(p->func, p->args, api);
            } else if (cbid == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000 ||
                       cbid == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000) {
                read_runtime_arguments(NULL, NULL, api); /* no _params of its own */
            } else {
                /* cudaLaunchKernel and the cooperative launch: func and args alike. */
                const cudaLaunchKernel_v7000_params *p = cb->functionParams;
                read_runtime_arguments(p->func, p->args, api);
            }
        }
        break;
    case API_REFUSED:
        if (enter) {
            pthread_mutex_lock(&lock);
            breaks("it called %s, which a host flow may not use here: copy with cudaMemcpy "
                   "(or cudaMemcpyAsync) only, A and B in and C out, between the caller's "
                   "pointers and cudaMalloc'd device memory", api);
            pthread_mutex_unlock(&lock);
        }
        break;
    default:
        break;
    }
}

static void on_driver(unsigned cbid, const CUpti_CallbackData *cb)
{
    int cls = cbid < CUPTI_DRIVER_TRACE_CBID_SIZE ? driver_class[cbid] : API_OTHER;
    if (cb->callbackSite != CUPTI_API_ENTER || !__atomic_load_n(&active, __ATOMIC_SEQ_CST))
        return;
    const char *api = cb->functionName ? cb->functionName : "a CUDA driver call";
    driver_launch d;
    if (cls == API_DRIVER_LAUNCH && driver_launch_decode(cbid, cb->functionParams, &d)) {
        if (runtime_launch_open)
            runtime_launch_read = 1;
        read_arguments(d.f, d.params, d.extra, api);
    } else if (cls == API_REFUSED && runtime_scope == 0) {
        pthread_mutex_lock(&lock);
        breaks("it called the driver's %s, which a host flow may not use here: copy with "
               "cudaMemcpy (or cudaMemcpyAsync) only, A and B in and C out", api);
        pthread_mutex_unlock(&lock);
    }
}

void copy_watch_on_api(unsigned domain, unsigned cbid, const void *data)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        on_runtime(cbid, data);
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        on_driver(cbid, data);
}
#else
const unsigned *copy_watch_callbacks(unsigned domain, int *count)
{
    (void)domain;
    *count = 0;
    return NULL;
}

void copy_watch_on_api(unsigned domain, unsigned cbid, const void *data)
{
    (void)domain, (void)cbid, (void)data;
}
#endif
