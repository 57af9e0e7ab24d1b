/* Lab 6, section 5: why breadth-first issue is slower than depth-first.
 *
 *   measure_lab6_order [n]          default 2^26 floats (the graded size)
 *
 * The handout names two causes. (1) In-stream order: with 64 chunks on 16
 * streams each stream holds four chunks, and breadth-first puts all four
 * copies in ahead of the first kernel in that stream. (2) Shared hardware
 * queues: the runtime opens CUDA_DEVICE_MAX_CONNECTIONS connections (8 by
 * default) and streams beyond that share them. Shapes with one chunk per
 * stream (16 x 16, 32 x 32) remove cause (1); running the same table with
 * CUDA_DEVICE_MAX_CONNECTIONS=16 and =32 (solutions/measure/run-all.sh sets it
 * per run) removes cause (2). The variable is read when the CUDA context
 * is created, so it must be set before the program starts.
 *
 * The pipeline is the lab 6 solution's own (lab6.h entry points) on the
 * balanced work the grader derives (the kernel about as long as the H2D
 * copy), each shape and order timed interleaved with the grader's serial
 * pipeline, as gpu_streamed_speedup times it; every streamed output is
 * checked against the serial one after its runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab6.h"
#include "lab6_baselines.h"
#include "lab6_rubric.h"
#include "measure_common.h"

#define PROGRAM "measure_lab6_order"

/* The graders' plan for the pipeline (lab6_speed_checks.c): a run is long
 * enough that the L2 does not matter. */
static const timing_plan PLAN = {.warmup = 2, .runs = 11, .launches_per_run = 1, .flush_l2 = 0};

static const struct {
    int streams, chunks;
} SHAPES[] = {{16, 64}, {16, 16}, {32, 32}};
enum { SHAPE_COUNT = sizeof SHAPES / sizeof SHAPES[0] };

/* The stages alone, on the serial pipeline's buffers: the balanced work. */
static int launch_copy_in(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_wait_for(lab6_copy_in(c->host_in, c->dev_in, c->n));
}

static int launch_kernel(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_wait_for(lab6_reference_transform(c->dev_in, c->dev_out, c->n, c->work));
}

static double median_ms(timed_launch launch, lab6_timed_call *c)
{
    stats_summary s;
    return timing_measure(launch, c, &PLAN, NULL, &s) == 0 ? s.median : 0.0;
}

/* The grader's balanced work (bench_lab6.c, lab6_speed_checks.c): the
 * kernel about as long as the whole array's H2D copy. */
static int balanced_work(lab6_timed_call *serial)
{
    enum { PROBE = 1024 };
    serial->work = PROBE;
    double copy_ms = median_ms(launch_copy_in, serial);
    double kernel_ms = median_ms(launch_kernel, serial);
    double work = kernel_ms > 0 ? PROBE * copy_ms / kernel_ms : PROBE;
    int rounded = work < 1 ? 1 : work > LAB6_MAX_WORK ? LAB6_MAX_WORK : (int)(work + 0.5);
    printf("work:    %d FMA per element (balanced: H2D copy %.3f ms, kernel at %d FMA %.3f ms)\n",
           rounded, copy_ms, PROBE, kernel_ms);
    return rounded;
}

/* The streamed output against the serial one: both are fmaf chains of the
 * same length, within the graders' 1e-6 of a double reference each. */
static size_t count_off(const float *got, const float *want, int n)
{
    size_t off = 0;
    for (int i = 0; i < n; ++i)
        off += !(fabsf(got[i] - want[i]) <= 2e-6f * fabsf(want[i]) + 2e-6f);
    return off;
}

/* One shape in both orders. Returns 0 or 1 (something failed). */
static int measure_shape(lab6_timed_call *serial, int streams, int chunks)
{
    lab6_pipeline *p = NULL;
    if (lab6_pipeline_create(&p, serial->n, streams) != LAB_OK) {
        printf("%7d %7d  lab6_pipeline_create failed: %s\n", streams, chunks, lab_last_error());
        return 1;
    }
    /* The pipeline reads its own pinned input: the same values as the serial run's. */
    float *host_in = lab6_pipeline_host_input(p), *host_out = lab6_pipeline_host_output(p);
    for (int i = 0; i < serial->n; ++i)
        host_in[i] = serial->host_in[i];
    double depth_ms = 0.0;
    int failed = 0;
    for (int order = LAB6_DEPTH_FIRST; order <= LAB6_BREADTH_FIRST; ++order) {
        lab6_timed_call streamed = *serial;
        streamed.p = p;
        streamed.chunks = chunks;
        streamed.order = (lab6_order)order;
        timing_ab_result r;
        for (int i = 0; i < serial->n; ++i)
            host_out[i] = NAN;
        int status = timing_interleaved(lab6_timed_streamed, &streamed, lab6_timed_serial, serial,
                                        &PLAN, NULL, &r);
        const char *name = order == LAB6_DEPTH_FIRST ? "depth-first" : "breadth-first";
        if (status != 0) {
            printf("%7d %7d  %-13s not timed: %s (%s)\n", streams, chunks, name,
                   lab_status_name((lab_status)status), lab_last_error());
            failed = 1;
            continue;
        }
        size_t off = count_off(host_out, serial->host_out, serial->n);
        if (off) {
            printf("%7d %7d  %-13s WRONG RESULT: %zu of %d elements differ from the serial "
                   "pipeline's\n", streams, chunks, name, off, serial->n);
            failed = 1;
            continue;
        }
        if (order == LAB6_DEPTH_FIRST)
            depth_ms = r.a_ms.median;
        char vs_depth[16] = "1";
        if (order == LAB6_BREADTH_FIRST && depth_ms > 0)
            snprintf(vs_depth, sizeof vs_depth, "%.3f", r.a_ms.median / depth_ms);
        printf("%7d %7d  %-13s %8.3f (%7.3f .. %7.3f) %10.3f %8.3f (%.3f .. %.3f) %9s\n", streams,
               chunks, name, r.a_ms.median, r.a_ms.min, r.a_ms.max, r.b_ms.median, r.ratio,
               r.pair_ratio.min, r.pair_ratio.max, vs_depth);
        fflush(stdout);
    }
    lab6_pipeline_destroy(p);
    return failed;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : LAB6_SPEED_N;
    if (argc > 2 || n < 1 || n > (1 << 28)) {
        fprintf(stderr, "usage: %s [n]   (floats, 1 .. 2^28; default 2^26)\n", argv[0]);
        return 2;
    }
    if (!measure_start("Lab 6: issue order, chunks per stream and hardware queues", argc, argv))
        return MEASURE_NO_DEVICE;
    const char *connections = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    printf("env:     CUDA_DEVICE_MAX_CONNECTIONS=%s\n",
           connections ? connections : "(unset: the runtime's default, 8)");
    printf("size:    %d floats (%zu MiB each way)\n", n, ((size_t)n * sizeof(float)) >> 20);
    measure_print_plan(&PLAN);
    printf("         each streamed run interleaved with the grader's serial pipeline "
           "(one H2D, one kernel, one D2H)\n");

    lab6_timed_call serial = {.n = n};
    size_t bytes = (size_t)n * sizeof(float);
    if (cudaMallocHost((void **)&serial.host_in, bytes) != cudaSuccess ||
        cudaMallocHost((void **)&serial.host_out, bytes) != cudaSuccess ||
        cudaMalloc((void **)&serial.dev_in, bytes) != cudaSuccess ||
        cudaMalloc((void **)&serial.dev_out, bytes) != cudaSuccess) {
        printf("%s: cannot allocate the serial pipeline's buffers for n=%d\n", PROGRAM, n);
        return 1;
    }
    float *in = (float *)serial.host_in;
    for (int i = 0; i < n; ++i)
        in[i] = (float)(i % 1000) * 0.001f; /* in [0, 1): lab6_element keeps it there */
    serial.work = balanced_work(&serial);
    printf("\n%7s %7s  %-13s %30s %10s %26s %9s\n", "streams", "chunks", "order",
           "streamed ms median (min .. max)", "serial ms", "speed-up over serial (pairs)",
           "/ depth");
    int failed = 0;
    for (int s = 0; s < SHAPE_COUNT; ++s)
        failed |= measure_shape(&serial, SHAPES[s].streams, SHAPES[s].chunks);
    printf("\n/ depth: breadth-first's median time over depth-first's, same shape (1 = no "
           "penalty).\nchunks = streams: one chunk per stream, so in-stream order adds no wait; "
           "compare the\nbreadth-first penalty across the three CUDA_DEVICE_MAX_CONNECTIONS "
           "settings for the queues' share.\n");
    return failed;
}
