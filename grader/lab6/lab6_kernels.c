/* Lab 6's kernel table. Its unit is a pipeline, not a kernel: the
 * student's streamed pipeline over N floats (the grader's 16 streams and
 * 64 chunks, depth-first, 256 multiply-adds per element) against the
 * grader's serial pipeline (one copy in, one kernel, one copy out), as
 * gpu_streamed_speedup times them; GB/s counts both copies, and the
 * student's host output is checked against the serial pipeline's. The
 * profile row runs the pipeline once with the sizes given
 * (n x streams x chunks x work), so Nsight Compute can measure each of its
 * kernels; it cannot show the overlap itself: make plot-lab6 records the
 * timeline rows (serial and streamed) with CUPTI (lab6_timeline.c), or run
 * this program under Nsight Systems
 * (nsys profile --trace=cuda build/bin/lab6_kernels profile). */
#include <math.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "lab6.h"
#include "lab6_baselines.h"
#include "lab6_kernels.h"
#include "lab6_rubric.h"

enum { WORK = 256 };
#define TEXT(x) #x
#define NUMBER_TEXT(x) TEXT(x)

static int serial(const kernel_args *a) { return lab6_timed_serial(a->lab); }
static int streamed(const kernel_args *a) { return lab6_timed_streamed(a->lab); }

static int breadth_first(const kernel_args *a)
{
    lab6_timed_call call = *(const lab6_timed_call *)a->lab;
    call.order = LAB6_BREADTH_FIRST;
    return lab6_timed_streamed(&call);
}

/* The stages alone, on the serial pipeline's buffers: make bench's ceiling
 * is the longest of them (no overlap can beat it), which its setup picks. */
static int copy_in(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copy_in(c->host_in, c->dev_in, c->n);
}

static int transform(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_reference_transform(c->dev_in, c->dev_out, c->n, c->work);
}

static int copy_out(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copy_out(c->dev_out, c->host_out, c->n);
}

/* A host may not carry both directions at full speed at once. */
static int copies_together(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copies_together(c->host_in, c->dev_in, c->dev_out, c->host_out, c->n);
}

static const struct {
    const char *label;
    timed_launch launch;
} STAGES[] = {{"longest stage alone: the H2D copy", copy_in},
              {"longest stage alone: the kernel", transform},
              {"longest stage alone: the D2H copy", copy_out},
              {"longest stage alone: both copies at once", copies_together}};
static int longest; /* STAGES' index, set by the bench's setup */

static int longest_stage(const kernel_args *a) { return STAGES[longest].launch(a->lab); }

/* One depth-first run, then its time by the pipeline's own events: the
 * profile driver runs rows once, so this row may wait for its run. */
static int profiled_run(const kernel_args *a)
{
    const lab6_timed_call *c = a->lab;
    lab_status status = lab6_pipeline_run(c->p, c->n, c->chunks, c->work, LAB6_DEPTH_FIRST);
    if (status != LAB_OK || cudaDeviceSynchronize() != cudaSuccess)
        return status;
    float ms = 0.0f;
    if (lab6_pipeline_elapsed_ms(c->p, &ms) == LAB_OK)
        fprintf(stderr, "lab6_profile: %d floats, %d streams, %d chunks, work %d: %.3f ms\n",
                c->n, (int)a->size[1], c->chunks, c->work, ms);
    else
        fprintf(stderr, "lab6_profile: lab6_pipeline_elapsed_ms skipped: %s\n",
                lab_last_error());
    return LAB_OK;
}

static double both_copies(const kernel_size size) { return 2.0 * (double)size[0] * sizeof(float); }

/* The graders hold each element within 1e-6 of a double reference
 * (lab6_gpu_checks.c); two such floats are within twice that. */
static kernel_tolerance twice_the_graders(const kernel_size size)
{
    (void)size;
    return (kernel_tolerance){0.0, 2e-6};
}

/* make bench: the streamed pipeline depth-first and breadth-first against
 * the serial one, with the longest stage alone as the ceiling. */
#define PIPELINE KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {PIPELINE, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB6_ROW_COUNT] = {
    [LAB6_ROW_SERIAL] = {.name = "serial pipeline", .launch = serial, .modes = KERNEL_TIMELINE,
                         .yardstick = LAB6_ROW_SERIAL, .bytes = both_copies,
                         BENCH(BASELINE, "serial",
                               "serial: one copy in, one kernel, one copy out (grader's)")},
    /* Graded at n, streams, chunks; the work per element is the balanced
     * work the speed checks measure on the machine (lab6_speed_checks.c). */
    [LAB6_ROW_STREAMED] = {.name = "pipeline, " NUMBER_TEXT(LAB6_SPEED_STREAMS) " streams x "
                                   NUMBER_TEXT(LAB6_SPEED_CHUNKS) " chunks", .launch = streamed,
                           .modes = KERNEL_TIME | KERNEL_TIMELINE, .yardstick = LAB6_ROW_SERIAL,
                           .bytes = both_copies, .want = KERNEL_WANT_YARDSTICK,
                           .tolerance = twice_the_graders,
                           .graded_size = {LAB6_SPEED_N, LAB6_SPEED_STREAMS, LAB6_SPEED_CHUNKS},
                           BENCH(KERNEL, "streamed", "16 streams, 64 chunks, depth-first (lab 6)")},
    [LAB6_ROW_PROFILED_RUN] = {.name = "lab6_pipeline_run", .launch = profiled_run,
                               .modes = KERNEL_PROFILE, .yardstick = LAB6_ROW_PROFILED_RUN},
    [LAB6_ROW_BREADTH_FIRST] = {.name = "pipeline, breadth-first", .launch = breadth_first,
                                .yardstick = LAB6_ROW_SERIAL, .bytes = both_copies,
                                BENCH(KERNEL, "streamed_breadth_first",
                                      "16 streams, 64 chunks, breadth-first (lab 6)")},
    /* Its label is the stage the bench's setup picks. */
    [LAB6_ROW_LONGEST_STAGE] = {.name = "longest stage alone", .launch = longest_stage,
                                .yardstick = LAB6_ROW_LONGEST_STAGE, .bytes = both_copies,
                                .bench = {PIPELINE, KERNEL_BENCH_CEILING, "longest_stage",
                                          "longest stage alone", .ceiling = "longest_stage"}},
};

/* The calls of both pipelines; the programs run one problem each. */
static lab6_timed_call call;

static double median_ms(timed_launch launch, const timing_plan *plan)
{
    stats_summary s;
    return timing_measure(launch, &call, plan, NULL, &s) == 0 ? s.median : 0.0;
}

/* Bench: the grader's balanced work (the kernel about as long as the H2D
 * copy, as the speed checks derive it), then the longest stage alone on
 * that work as the ceiling. */
static void bench_balance(kernel_problem *p)
{
    enum { PROBE = 1024 };
    call.work = PROBE;
    double copy_ms = median_ms(copy_in, p->plan), kernel_ms = median_ms(transform, p->plan);
    double work = kernel_ms > 0 ? PROBE * copy_ms / kernel_ms : PROBE;
    call.work = work < 1 ? 1 : work > LAB6_MAX_WORK ? LAB6_MAX_WORK : (int)(work + 0.5);
    snprintf(p->note, sizeof p->note, "lab 6 2^%d: balanced work %d FMA per element",
             (int)log2((double)call.n), call.work);
    double longest_ms = 0.0;
    longest = 0;
    for (int k = 0; k < (int)(sizeof STAGES / sizeof STAGES[0]); ++k) {
        double ms = median_ms(STAGES[k].launch, p->plan);
        if (ms > longest_ms) {
            longest_ms = ms;
            longest = k;
        }
    }
    p->ceiling_label = STAGES[longest].label;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    int n = (int)size[0];
    /* Profile and timeline take the whole pipeline's shape from the size. */
    int shaped = mode == KERNEL_PROFILE || mode == KERNEL_TIMELINE;
    int streams = shaped ? (int)size[1] : LAB6_SPEED_STREAMS;
    const char *program = mode == KERNEL_PROFILE    ? "lab6_profile"
                          : mode == KERNEL_TIMELINE ? "make plot-lab6"
                          : mode == KERNEL_BENCH    ? "lab6_kernels bench"
                                                    : "make time-lab6";
    p->args.size[0] = n;
    p->args.size[1] = streams;
    lab6_pipeline *pipe = NULL;
    lab_status status = lab6_pipeline_create(&pipe, n, streams);
    if (status != LAB_OK) {
        printf("%s: not run: lab6_pipeline_create returned %s (%s)\n", program,
               lab_status_name(status), lab_last_error());
        return 0;
    }
    call = (lab6_timed_call){.p = pipe, .n = n, .chunks = LAB6_SPEED_CHUNKS, .work = WORK,
                             .order = LAB6_DEPTH_FIRST};
    p->args.lab = &call;
    p->owned = pipe;
    float *host_in = lab6_pipeline_host_input(pipe);
    /* A skeleton's create succeeds without buffers: filling the input
     * would then crash instead of saying what is missing. */
    if (!host_in || !lab6_pipeline_host_output(pipe)) {
        printf("%s: not run: lab6_pipeline_create returned LAB_OK without its pinned host "
               "buffers (TODO(6.2)); run make check-lab6\n", program);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        host_in[i] = (float)(i % 1000) * 0.001f;
    if (shaped) {
        call.chunks = (int)size[2];
        call.work = (int)size[3];
    }
    if (mode == KERNEL_PROFILE)
        return 1; /* only the student's pipeline is profiled */
    size_t bytes = (size_t)n * sizeof(float);
    if (cudaMallocHost((void **)&call.host_out, bytes) != cudaSuccess ||
        cudaMalloc((void **)&call.dev_in, bytes) != cudaSuccess ||
        cudaMalloc((void **)&call.dev_out, bytes) != cudaSuccess) {
        printf("%s: cannot allocate the serial pipeline's buffers for SIZE=%d\n", program, n);
        return 0;
    }
    call.host_in = host_in;
    p->args.out = lab6_pipeline_host_output(pipe);
    p->yardstick_out = call.host_out;
    p->checked = (size_t)n;
    if (mode == KERNEL_BENCH)
        bench_balance(p);
    return 1;
}

static void teardown(kernel_problem *p)
{
    /* The bench sets up one size after another in one process. */
    cudaFreeHost(call.host_out);
    cudaFree(call.dev_in);
    cudaFree(call.dev_out);
    call.host_out = call.dev_in = call.dev_out = NULL;
    if (p->owned && lab6_pipeline_destroy(p->owned) != LAB_OK)
        fprintf(stderr, "lab6: lab6_pipeline_destroy: %s\n", lab_last_error());
}

const kernel_table lab_kernel_table = {
    .lab = "lab6",
    .rows = ROWS,
    .count = LAB6_ROW_COUNT,
    .time = {1, 1L << 28, "67108864"},
    /* n, streams, chunks, work: 2^26 floats (256 MiB each way), 16, 16, 1024 */
    .profile = {4, 1L << 28, "67108864x16x16x1024"},
    .race = {1, 1L << 28, "67108864"}, /* no race rows: lab 6 shares no memory */
    .setup = setup,
    .teardown = teardown,
    /* Over PCIe: the ceiling is no hard limit, and the drift is the bus's. */
    .bench = {{"pipeline", {{"2^24", {1L << 24}}, {"2^26", {LAB6_SPEED_N}}}, .over_bus = 1}},
    .bench_count = 1,
};
