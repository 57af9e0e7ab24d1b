/* Lab 2 GPU checks: both entry points on awkward shapes, bad input, the
 * speed check against the uncoalesced baseline, and a CPU comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab2_checks.h"
#include "lab2_kernels.h"
#include "matmul_checks.h"
#include "lab2_rubric.h"

static const matmul_impl NAIVE = {
    "lab2_matmul_naive", lab2_matmul_naive, 0,
    "Check TODO(2.1) (row from y, column from x; handout section 2), TODO(2.2) (bounds test "
    "and dot product, section 2), TODO(2.3) (the grid, section 3.1) and TODO(2.4) (the "
    "launch, section 3.2).",
    "TODO(2.4), handout section 3.3", 0, NULL};

/* The self-test's stand-in as its messages name it (the kernel table
 * launches it: LAB2_ROW_UNCOALESCED). */
static const matmul_impl UNCOALESCED = {
    "matmul_baseline_uncoalesced", NULL, 0,
    "The grader's uncoalesced baseline is wrong: a grader bug, please report it.", NULL, 0, NULL};

static const char HOST_FLOW_HINT[] =
    "Check TODO(2.5)-(2.8): allocate, copy A and B in, run lab2_matmul_naive, copy C out "
    "(handout section 4).";

static const timing_plan SPEED_PLAN = {.warmup = 2, .runs = 11, .launches_per_run = 1,
                                       .flush_l2 = 1};

/* ------------------------------------------------------ device entry */

void gpu_naive_awkward_shapes(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_expect_correct_shapes(&NAIVE, MATMUL_AWKWARD_SHAPES, MATMUL_AWKWARD_SHAPE_COUNT, 2);
}

/* -------------------------------------------------------- host flow */

/* A host output buffer with canary zones on both sides, like the device
 * buffers: a host flow that copies too many bytes back is caught. */
enum { HOST_ZONE_WORDS = 1024 };

typedef struct {
    float *base, *data;
    size_t n;
} host_output;

static void host_output_init(host_output *out, size_t n)
{
    out->n = n;
    out->base = grader_malloc((n + 2 * HOST_ZONE_WORDS) * sizeof(float));
    out->data = out->base + HOST_ZONE_WORDS;
    guard_fill_canary(out->base, HOST_ZONE_WORDS * sizeof(float));
    guard_fill_canary(out->data + n, HOST_ZONE_WORDS * sizeof(float));
    guard_fill_poison_floats(out->data, n);
}

static void host_output_expect_guards(const host_output *out, const char *call)
{
    guard_damage damage;
    char message[256];
    size_t zone = HOST_ZONE_WORDS * sizeof(float);
    if (!guard_check_canary(out->base, zone, &damage)) {
        guard_describe_damage(&damage, 0, zone, "c (host)", message, sizeof message);
        GRADER_FAIL("%s: %s. %s", call, message, HOST_FLOW_HINT);
    }
    if (!guard_check_canary(out->data + out->n, zone, &damage)) {
        guard_describe_damage(&damage, 1, zone, "c (host)", message, sizeof message);
        GRADER_FAIL("%s: %s: more bytes were copied back than C holds. %s", call, message,
                    HOST_FLOW_HINT);
    }
}

static void expect_host_flow_correct(matmul_shape s, uint64_t seed)
{
    matmul_problem p;
    matmul_problem_init(&p, s, seed, 1);
    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
    float *a_copy = grader_malloc(na * sizeof(float)), *b_copy = grader_malloc(nb * sizeof(float));
    memcpy(a_copy, p.a, na * sizeof(float));
    memcpy(b_copy, p.b, nb * sizeof(float));
    host_output c;
    host_output_init(&c, nc);
    char shape[96], call[224];
    matmul_describe_shape(s, shape, sizeof shape);
    snprintf(call, sizeof call, "lab2_matmul_host on %s, seed %llu", shape,
             (unsigned long long)seed);

    grader_watch(call, grader_call_limit_s(0.0, 2.0 * s.m * s.n * s.k));
    host_flow_result r;
    host_flow_call(call, &p, c.data, &r);
    lab_status status = r.status;
    grader_unwatch();
    host_flow_expect_kept(call, &r);
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s. %s", call, lab_status_name(status),
                 lab_last_error(), HOST_FLOW_HINT);
    host_output_expect_guards(&c, call);
    compare_spec spec = matmul_compare_spec(s, 0);
    compare_result result;
    GRADER_CHECK(compare_floats(c.data, p.ref, &spec, &result), "%s: %s. %s", call,
                 result.report, HOST_FLOW_HINT);
    GRADER_CHECK(memcmp(a_copy, p.a, na * sizeof(float)) == 0 &&
                     memcmp(b_copy, p.b, nb * sizeof(float)) == 0,
                 "%s: the host input A or B was modified; inputs are read-only", call);
    free(c.base);
    free(a_copy);
    free(b_copy);
    matmul_problem_free(&p);
}

/* Device memory that a call to the host flow did not give back. */
static long long device_bytes_lost(int calls, matmul_shape s)
{
    size_t n = (size_t)s.m * s.n; /* square shapes: every matrix is this big */
    float *a = grader_malloc(n * sizeof(float)), *b = grader_malloc(n * sizeof(float));
    float *c = grader_malloc(n * sizeof(float));
    memset(a, 0, n * sizeof(float));
    memset(b, 0, n * sizeof(float));
    size_t before = 0, after = 0, total = 0;
    /* Free memory is the whole GPU's: nobody else may allocate meanwhile. */
    grader_gpu_exclusive();
    /* The whole loop under one watchdog: each call is milliseconds. */
    grader_watch("lab2_matmul_host, the repeated calls of the leak check",
                 (calls + 1) * grader_call_limit_s(0.0, 2.0 * s.m * s.n * s.k));
    /* One call first: context and module loading allocate memory once. */
    lab_status status = lab2_matmul_host(a, b, c, s.m, s.n, s.k);
    GRADER_CHECK(status == LAB_OK, "lab2_matmul_host(%dx%dx%d) returned %s: %s", s.m, s.n, s.k,
                 lab_status_name(status), lab_last_error());
    CUDA_CHECK(cudaMemGetInfo(&before, &total));
    for (int i = 0; i < calls; ++i) {
        status = lab2_matmul_host(a, b, c, s.m, s.n, s.k);
        GRADER_CHECK(status == LAB_OK, "lab2_matmul_host(%dx%dx%d), call %d, returned %s: %s",
                     s.m, s.n, s.k, i + 2, lab_status_name(status), lab_last_error());
    }
    CUDA_CHECK(cudaMemGetInfo(&after, &total));
    grader_unwatch();
    free(a);
    free(b);
    free(c);
    return (long long)before - (long long)after;
}

void gpu_host_flow(void **state)
{
    (void)state;
    grader_require_gpu();
    const matmul_shape shapes[] = {{1, 1, 1}, {17, 33, 65}, {300, 200, 100}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        expect_host_flow_correct(shapes[i], grader_seed() + 2000 + i);

    /* 16 calls at 1024^3 (4 MiB per matrix): forgetting even one cudaFree
     * loses 64 MiB, far above what the driver's own bookkeeping moves. */
    enum { CALLS = 16 };
    const matmul_shape leak_shape = {1024, 1024, 1024};
    long long limit = CALLS * (1024LL * 1024 * 4) / 2;
    long long lost = device_bytes_lost(CALLS, leak_shape);
    if (lost >= limit) {
        /* Free memory is device-wide: another process could have taken it.
         * A real leak shows again. */
        grader_note("%.0f MiB of device memory went missing; measuring again",
                    lost / 1048576.0);
        lost = device_bytes_lost(CALLS, leak_shape);
    }
    grader_metric("device_bytes_lost_per_call", (double)lost / CALLS, "bytes");
    GRADER_CHECK(lost < limit,
                 "lab2_matmul_host leaks device memory: after %d calls on 1024x1024x1024, "
                 "%.0f MiB more device memory is in use than before (%.1f MiB per call; one "
                 "matrix is 4 MiB). Check TODO(2.9): every cudaMalloc needs its cudaFree, on "
                 "the success path too (handout section 4.5).",
                 CALLS, lost / 1048576.0, lost / 1048576.0 / CALLS);

    /* Last: the right C and no leak are not enough; the GPU must have done
     * the work (copies in, a kernel, the copy out). Tracing may reserve
     * device memory, so it comes after the leak check. */
    /* 1024^3: 2.1 GFLOP, which no GPU of the course does in the ~3 us an
     * empty decoy kernel takes (the H100's FP32 peak needs 32 us). */
    host_flow_expect_device_work((matmul_shape){1024, 1024, 1024}, grader_seed() + 2100);
}

/* -------------------------------------------------------- bad input */

static void expect_host_flow_rejects(void)
{
    static const matmul_impl HOST = {"lab2_matmul_host", lab2_matmul_host, 0, HOST_FLOW_HINT,
                                     "TODO(2.4), handout section 3.3", 0, NULL};
    enum { SMALL = 64 };
    float in[SMALL] = {0}, out[SMALL];
    for (size_t i = 0; i < MATMUL_BAD_CASE_COUNT; ++i) {
        const matmul_bad_case *bad = &MATMUL_BAD_CASES[i];
        guard_fill_poison_floats(out, SMALL);
        char call[256];
        matmul_describe_bad_case(&HOST, bad, call, sizeof call);
        grader_watch(call, grader_call_limit_s(0.0, 0.0));
        lab_status status = lab2_matmul_host(bad->null_a ? NULL : in, in,
                                             bad->null_c ? NULL : out, bad->m, bad->n, bad->k);
        grader_unwatch();
        GRADER_CHECK(status == bad->expected,
                     "%s returned %s, expected %s (bad input must be rejected before anything "
                     "is allocated or copied)",
                     call, lab_status_name(status), lab_status_name(bad->expected));
        size_t changed = 0;
        for (int j = 0; j < SMALL; ++j)
            changed += !guard_is_poison(out[j]);
        GRADER_CHECK(changed == 0, "%s: rejected, but %zu element%s of C %s written anyway",
                     call, changed, changed == 1 ? "" : "s", changed == 1 ? "was" : "were");
    }
}

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_expect_rejects_bad_input(&NAIVE);
    expect_host_flow_rejects();
}

/* ------------------------------------------------------------ speed */

/* The row `timed` of lab 2's kernel table (lab2_kernels.c), called
 * `student` in the messages, against the naive row's yardstick at the
 * naive row's graded size. */
static matmul_speed_spec speed_spec_for(const matmul_impl *student, int timed)
{
    const kernel_row *rows = lab_kernel_table.rows;
    matmul_speed_spec spec = {
        .student = student,
        .timed = &rows[timed],
        .yardstick = &rows[rows[LAB2_ROW_NAIVE].yardstick],
        .baseline_name = "the uncoalesced baseline (threadIdx.x picks the row)",
        .shape = matmul_graded_shape(&rows[LAB2_ROW_NAIVE]),
        .threshold = LAB2_SPEEDUP_OVER_UNCOALESCED_MIN,
        .ratio_name = "speedup_over_uncoalesced",
        .hint = "Your kernel should beat the baseline, whose warps each touch 32 rows, by a "
                "wide margin. If threadIdx.x picks the row in your kernel too, the CPU check "
                "cpu_warp_sectors_coalesced says so: see TODO(2.1) and handout section 6.",
        .plan = SPEED_PLAN};
    return spec;
}

void gpu_speed_vs_uncoalesced(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec = speed_spec_for(&NAIVE, LAB2_ROW_NAIVE);
    matmul_speed(&spec, 1, NULL);
}

void selftest_uncoalesced_baseline_is_slow(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec = speed_spec_for(&UNCOALESCED, LAB2_ROW_UNCOALESCED);
    matmul_expect_below_threshold(&spec, "LAB2_SPEEDUP_OVER_UNCOALESCED_MIN");
}

/* ------------------------------------------------- GPU versus the CPU */

void gpu_metrics_vs_cpu_reference(void **state)
{
    (void)state;
    grader_require_gpu();
    const matmul_shape s = {512, 512, 512};
    const double flops = 2.0 * s.m * s.n * s.k;
    matmul_problem p;
    matmul_problem_init(&p, s, grader_seed() + 3000, 0);
    double cpu_s = matmul_problem_reference_seconds(&p);
    matmul_problem_free(&p);
    /* About 50 microseconds per launch on a big GPU: 20 per timed run. */
    const timing_plan plan = {.warmup = 3, .runs = 21, .launches_per_run = 20, .flush_l2 = 1};
    double gpu_ms = matmul_time_ms(&NAIVE, s, &plan);
    grader_metric("cpu_reference_ms", cpu_s * 1e3, "ms");
    grader_metric("cpu_reference_GFLOPs", flops / cpu_s * 1e-9, "GFLOP/s");
    grader_metric("student_ms", gpu_ms, "ms");
    grader_metric("student_GFLOPs", flops / (gpu_ms * 1e6), "GFLOP/s");
    grader_metric("speedup_over_cpu_reference", cpu_s * 1e3 / gpu_ms, "x");
    grader_note("512x512x512: the CPU reference (one core, double precision, not a tuned BLAS) "
                "took %.1f ms; your kernel %.3f ms. Reported only, never judged.",
                cpu_s * 1e3, gpu_ms);
}
