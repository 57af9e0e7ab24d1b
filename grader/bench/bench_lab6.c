/* make bench, lab 6: the streamed pipeline (16 streams, 64 chunks,
 * depth-first and breadth-first) against the grader's serial pipeline, on
 * the balanced work the grader derives (the kernel about as long as the
 * H2D copy). The ceiling is the longest of the three stages (H2D copy,
 * kernel, D2H copy) run alone on the whole array, and of the two copies run
 * together (a host may not carry both directions at full speed at once): no
 * overlap can beat it.
 * The pipelines and their work are rows of lab 6's kernel table
 * (lab6_kernels.c); the stages, keys and labels are the bench's own.
 * The timeline picture comes from lab6_timeline (bench.py runs it). */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "bench_core.h"
#include "device_verify.h"
#include "lab6.h"
#include "lab6_baselines.h"
#include "lab6_kernels.h"
#include "lab6_rubric.h"

/* The stages alone, on the serial pipeline's buffers. */
static int launch_copy_in(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copy_in(c->host_in, c->dev_in, c->n);
}

static int launch_kernel(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_reference_transform(c->dev_in, c->dev_out, c->n, c->work);
}

static int launch_copy_out(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copy_out(c->dev_out, c->host_out, c->n);
}

static int launch_copies_together(void *ctx)
{
    const lab6_timed_call *c = ctx;
    return lab6_copies_together(c->host_in, c->dev_in, c->dev_out, c->host_out, c->n);
}

static double median_ms(timed_launch launch, lab6_timed_call *c, const bench_options *o)
{
    stats_summary s;
    return timing_measure(launch, c, &o->plan, NULL, &s) == 0 ? s.median : 0.0;
}

static const int SIZES[] = {1 << 24, LAB6_SPEED_N};
static const char *SIZE_NAMES[] = {"2^24", "2^26"};

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab6");
    lab6_pipeline *p = NULL;
    if (lab6_pipeline_create(&p, LAB6_SPEED_N, LAB6_SPEED_STREAMS) != LAB_OK) {
        fprintf(stderr, "bench_lab6: lab6_pipeline_create: %s\n", lab_last_error());
        return 1;
    }
    const size_t bytes = (size_t)LAB6_SPEED_N * sizeof(float);
    float *pinned_in = lab6_pipeline_host_input(p);
    lab6_timed_call base = {.p = p, .chunks = LAB6_SPEED_CHUNKS, .host_in = pinned_in};
    base.dev_in = bench_alloc_floats(LAB6_SPEED_N);
    base.dev_out = bench_alloc_floats(LAB6_SPEED_N);
    if (cudaMallocHost((void **)&base.host_out, bytes) != cudaSuccess) {
        fprintf(stderr, "bench_lab6: cannot pin %zu bytes\n", bytes);
        return 1;
    }
    device_fill_uniform(base.dev_in, LAB6_SPEED_N, o.seed, -1.0f, 1.0f);
    cudaMemcpy(pinned_in, base.dev_in, bytes, cudaMemcpyDeviceToHost);
    bench_plan(2 * 4);
    int first_error = 0;
    for (int s = 0; s < 2; ++s) {
        lab6_timed_call serial = base;
        serial.n = SIZES[s];
        /* The grader's balanced work: the kernel about as long as the H2D copy. */
        enum { PROBE = 1024 };
        serial.work = PROBE;
        double copy_ms = median_ms(launch_copy_in, &serial, &o);
        double kernel_ms = median_ms(launch_kernel, &serial, &o);
        double work = kernel_ms > 0 ? PROBE * copy_ms / kernel_ms : PROBE;
        serial.work = work < 1 ? 1 : work > LAB6_MAX_WORK ? LAB6_MAX_WORK : (int)(work + 0.5);
        bench_note("lab 6 %s: balanced work %d FMA per element", SIZE_NAMES[s], serial.work);

        lab6_timed_call depth = serial, breadth = serial;
        depth.order = LAB6_DEPTH_FIRST;
        breadth.order = LAB6_BREADTH_FIRST;
        const kernel_row *rows = lab_kernel_table.rows;
        const kernel_args args = {.size = {SIZES[s], LAB6_SPEED_STREAMS}};
        kernel_call serial_row = {&rows[rows[LAB6_ROW_STREAMED].yardstick], args};
        kernel_call depth_row = {&rows[LAB6_ROW_STREAMED], args},
                    breadth_row = {&rows[LAB6_ROW_STREAMED], args};
        serial_row.args.lab = &serial;
        depth_row.args.lab = &depth;
        breadth_row.args.lab = &breadth;
        bench_entry kernels[] = {
            {"streamed", "16 streams, 64 chunks, depth-first (lab 6)", kernel_call_launch,
             &depth_row},
            {"streamed_breadth_first", "16 streams, 64 chunks, breadth-first (lab 6)",
             kernel_call_launch, &breadth_row},
        };
        /* The longest stage alone is the bound. */
        const struct {
            const char *label;
            timed_launch launch;
        } stages[4] = {{"longest stage alone: the H2D copy", launch_copy_in},
                       {"longest stage alone: the kernel", launch_kernel},
                       {"longest stage alone: the D2H copy", launch_copy_out},
                       {"longest stage alone: both copies at once", launch_copies_together}};
        int longest = 0;
        double longest_ms = 0.0;
        for (int k = 0; k < 4; ++k) {
            double ms = median_ms(stages[k].launch, &serial, &o);
            if (ms > longest_ms) {
                longest_ms = ms;
                longest = k;
            }
        }
        bench_problem prob = {
            .lab = 6, .problem = "pipeline", .size = SIZE_NAMES[s], .x = SIZES[s],
            .work = kernel_row_bytes(depth_row.row, args.size), .unit = "GB/s",
            .baseline = {"serial", "serial: one copy in, one kernel, one copy out (grader's)",
                         kernel_call_launch, &serial_row},
            .kernels = kernels, .kernel_count = 2,
            .ceiling = {"longest_stage", stages[longest].label, stages[longest].launch, &serial},
            .ceiling_name = "longest_stage", .over_bus = 1, .out = NULL};
        int status = bench_run(&prob, &o);
        first_error = first_error ? first_error : status;
    }
    lab6_pipeline_destroy(p);
    return first_error != 0;
}
