/* Lab 5 GPU checks: every stage's whole sum on awkward sizes (exact with
 * integer-valued floats, within a tolerance growing with n for random
 * floats), the contract on *out, bad input, and speed: stage (3) against
 * the grader's own divergent reduction, and each stage against a
 * device-to-device copy, in one run. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab5_checks.h"
#include "lab5_kernels.h"
#include "lab5_rubric.h"
#include "racecheck.h"
#include "rng.h"
#include "speed_check.h"
#include "stage_identity.h"

typedef lab_status (*sum_fn)(const float *, float *, int);

typedef struct {
    const char *name;
    sum_fn fn;
    int per_block;     /* elements one block covers (0: grid-stride) */
    const char *hint;  /* which TODOs and sections to read when its sum is wrong */
    int row;           /* its row of lab 5's kernel table: what the speed checks time */
} stage_info;

static const stage_info DIVERGENT = {
    "lab5_sum_divergent", lab5_sum_divergent, LAB5_BLOCK,
    "Check TODO(5.1) (the active threads, handout section 3) and TODO(5.2) (0.0f past n, a "
    "barrier after the load and after every step, thread 0's add_block_sum; sections 2 and 3).",
    LAB5_ROW_DIVERGENT};
static const stage_info STRIDED = {
    "lab5_sum_strided", lab5_sum_strided, LAB5_BLOCK,
    "Check TODO(5.4) (the index, handout section 5) and TODO(5.5) (the same load, barriers and "
    "add_block_sum as stage (1); section 5).",
    LAB5_ROW_STRIDED};
static const stage_info SEQUENTIAL = {
    "lab5_sum_sequential", lab5_sum_sequential, LAB5_BLOCK,
    "Check TODO(5.6) (handout section 6) and TODO(5.7): the loop must start at blockDim.x / 2, "
    "halve the stride each step and run the step with stride 1 (section 7's four bugs), with "
    "a barrier after every step.",
    LAB5_ROW_SEQUENTIAL};
static const stage_info FIRST_ADD = {
    "lab5_sum_first_add", lab5_sum_first_add, 2 * LAB5_BLOCK,
    "Check TODO(5.8): each block covers 2*blockDim.x elements, each thread adds the two it "
    "loads (0.0f for one past n) before stage (3)'s steps; handout section 8.1.",
    LAB5_ROW_FIRST_ADD};
static const stage_info WARP_SHUFFLE = {
    "lab5_sum_warp_shuffle", lab5_sum_warp_shuffle, 2 * LAB5_BLOCK,
    "Check TODO(5.9): shared-memory steps down to stride 64, then warp 0 adds s[t] + s[t + 32] "
    "and shuffles with offsets 16, 8, 4, 2, 1 and the full mask; handout section 8.2.",
    LAB5_ROW_WARP_SHUFFLE};
static const stage_info GRID_STRIDE = {
    "lab5_sum_grid_stride", lab5_sum_grid_stride, 0,
    "Check TODO(5.11): the elements before the first 16-byte boundary and after the last "
    "whole float4, the grid-stride step (all the grid's threads), and the block sum; and "
    "TODO(5.10), the grid; handout section 8.3.",
    LAB5_ROW_GRID_STRIDE};

/* The stages' yardstick in the kernel table, stage (1) as the grader wrote
 * it, as the speed checks' messages name it (the table launches it). */
static const stage_info GRADER_DIVERGENT = {
    "the grader's divergent reduction (stage (1))", NULL, LAB5_BLOCK,
    "The grader's own stage (1) gave a wrong sum: a grader bug, please report it.",
    LAB5_ROW_GRADER_DIVERGENT};

static const char ZERO_HINT[] =
    "The blocks add into *out, so the entry point must set it to zero before the kernel on "
    "every call: TODO(5.3), handout section 4.";

/* ------------------------------------------------------- correctness */

typedef enum { INPUT_INTEGERS, INPUT_NEGATIVE, INPUT_UNIFORM } input_kind;

typedef struct {
    int n;
    input_kind kind;
    int offset;  /* in starts this many floats after a 256-byte boundary */
} sum_case;

#define BIG_N ((1 << 24) + 1)

/* Integer-valued inputs in [-8, 8] keep every partial sum of these sizes far
 * below 2^24 in any order, so the float sum must be exact. All-negative
 * inputs in [-8, -1] stay exact up to n = 2^21. Uniform floats in [-1, 1)
 * against a double reference, with the tolerance of sum_tolerance. */
static const sum_case CASES[] = {
    {1, INPUT_INTEGERS, 0},      {2, INPUT_INTEGERS, 0},       {31, INPUT_INTEGERS, 0},
    {1023, INPUT_INTEGERS, 0},   {1025, INPUT_INTEGERS, 0},    {BIG_N, INPUT_INTEGERS, 0},
    {1, INPUT_NEGATIVE, 0},      {31, INPUT_NEGATIVE, 0},      {1025, INPUT_NEGATIVE, 0},
    {1000003, INPUT_NEGATIVE, 0}, {2, INPUT_UNIFORM, 0},       {1023, INPUT_UNIFORM, 0},
    {1025, INPUT_UNIFORM, 0},    {BIG_N, INPUT_UNIFORM, 0},    {2, INPUT_INTEGERS, 3},
    {7, INPUT_INTEGERS, 1},      {1025, INPUT_INTEGERS, 1},    {1000003, INPUT_INTEGERS, 3},
};

static const char *kind_name(input_kind kind)
{
    return kind == INPUT_INTEGERS ? "integers in [-8, 8]"
           : kind == INPUT_NEGATIVE ? "integers in [-8, -1]"
                                    : "uniform floats in [-1, 1)";
}

/* A float32 sum of n values in [-1, 1) rounds at every addition; in the
 * orders these stages use the error stays around 2^-24 * sqrt(n) times the
 * partial sums. The grader allows n * 2^-25 (0.5 at n = 2^24) plus four
 * roundings of the result: far above what a correct order produces, and
 * the exact integer cases catch a lost element the tolerance would hide. */
static double sum_tolerance(int n, double ref)
{
    return ldexp((double)n, -25) + 4.0 * ldexp(fabs(ref), -24);
}

static uint32_t float_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* Why a sum is wrong, where the pattern says. */
static void diagnose(const stage_info *stage, const float *x, int n, float got, double ref,
                     char *out, size_t size)
{
    out[0] = '\0';
    if (isnan(got)) {
        snprintf(out, size, " *out is NaN%s: before the call it held a NaN poison, so either "
                 "nothing was added into it, or the blocks added into the poison because it "
                 "was never set to zero (TODO(5.3), handout section 4).",
                 float_bits(got) == GUARD_POISON_BITS ? " (still the poison, bit for bit)" : "");
        return;
    }
    if (stage->per_block > 0 && n % stage->per_block != 0 && n > stage->per_block) {
        double last = 0.0;
        for (int i = n - n % stage->per_block; i < n; ++i)
            last += x[i];
        if (last != 0.0 && (double)got == ref - last) {
            snprintf(out, size, " The difference is exactly the sum of the last %d elements, "
                     "the last partial block: its threads past n must store 0.0f and still "
                     "take part, and the grid must cover it.", n % stage->per_block);
            return;
        }
    }
    if (ref != 0.0 && (double)got == 2.0 * ref)
        snprintf(out, size, " It is exactly twice the sum: every element counted twice.");
}

static void fill_input(float *host, size_t count, input_kind kind, uint64_t seed)
{
    if (kind == INPUT_INTEGERS)
        rng_fill_integers(host, count, seed, -8, 8);
    else if (kind == INPUT_NEGATIVE)
        rng_fill_integers(host, count, seed, -8, -1);
    else
        rng_fill_uniform(host, count, seed, -1.0f, 1.0f);
}

static void expect_sum(const stage_info *stage, const sum_case *c, uint64_t seed)
{
    size_t total = (size_t)c->n + (size_t)c->offset;
    float *host = grader_malloc(total * sizeof *host);
    fill_input(host, total, c->kind, seed);
    /* Elements before the start must not count: make them large. */
    for (int i = 0; i < c->offset; ++i)
        host[i] = 1000.0f;
    const float *x = host + c->offset;
    double ref = 0.0;
    for (int i = 0; i < c->n; ++i)
        ref += x[i];
    device_buffer in, out;
    dbuf_alloc(&in, "in", total * sizeof(float));
    dbuf_alloc(&out, "out", sizeof(float));
    dbuf_upload(&in, host);
    dbuf_poison(&out);
    char call[160];
    snprintf(call, sizeof call, "%s(n=%d, %s%s, seed=%llu)", stage->name, c->n,
             kind_name(c->kind), c->offset ? ", in not 16-byte aligned" : "",
             (unsigned long long)seed);
    gpu_expect_ok(stage->fn((const float *)in.data + c->offset, (float *)out.data, c->n), call);
    float got;
    dbuf_download(&out, &got);
    gpu_expect_guards_intact(&out, call);
    double tol = c->kind == INPUT_UNIFORM ? sum_tolerance(c->n, ref) : 0.0;
    if (!(isfinite(got) && fabs((double)got - ref) <= tol)) {
        char why[400];
        diagnose(stage, x, c->n, got, ref, why, sizeof why);
        free(host);
        GRADER_FAIL("%s: *out = %.9g, expected %.9g (%s).%s %s", call, (double)got, ref,
                    tol > 0 ? "within a tolerance that grows with n" : "exactly: integer sums",
                    why, stage->hint);
    }
    gpu_expect_unchanged(&in, host, call);
    free(host);
    dbuf_free(&in);
    dbuf_free(&out);
}

/* Right sums, and from a kernel of the stage's own: a stage that runs
 * another stage's kernel (the divergent sum through the sequential kernel)
 * sums right and skips the lesson (stage_identity.h). */
static void expect_stage_sums(const stage_info *stage)
{
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; ++k)
        expect_sum(stage, &CASES[k], grader_seed() + 1000 * (uint64_t)k);
    stage_identity_expect_own(&lab_kernel_table, stage->row);
}

void gpu_divergent_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&DIVERGENT);
}

void gpu_strided_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&STRIDED);
}

void gpu_sequential_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&SEQUENTIAL);
}

void gpu_first_add_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&FIRST_ADD);
}

void gpu_warp_shuffle_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&WARP_SHUFFLE);
}

void gpu_grid_stride_sums(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_stage_sums(&GRID_STRIDE);
}

/* ------------------------------------------------ n close to INT_MAX */

/* The contract's n is any int from 1 up. Stage (6)'s grid-stride loop is
 * where an int index overflows: counted in floats, the last pass's index +
 * step wraps to a negative value, still below n, so the loop reads below
 * `in`, goes round again or never ends (stages (1)-(5)'s largest index
 * stays below INT_MAX, as does a loop counting float4s). One call on
 * 2^31 - 3 floats (8 GiB), zeros except runs of known integers at the
 * start, around 2^29 and 2^30 (where a 32-bit byte offset wraps), at
 * 3 * 2^29, and in the last KNOWN_TAIL elements: a zero fill and small
 * uploads, not an 8 GiB host copy; the sum is exact in any order. Not
 * gradable on a GPU with less than LAB5_NEAR_INT_MAX_GIB. */
enum { KNOWN_RUN = 64, KNOWN_TAIL = 4096 };

typedef struct {
    size_t start, count;
} known_run;

void gpu_grid_stride_near_int_max(void **state)
{
    (void)state;
    grader_require_gpu();
    const int n = INT_MAX - 2;
    const size_t bytes = (size_t)n * sizeof(float);
    /* Free memory is the whole GPU's: no other grader's test beside this. */
    grader_gpu_exclusive();
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t margin = (size_t)512 << 20;
    GRADER_CHECK(free_bytes >= bytes + margin,
                 "the grader could not run lab5_sum_grid_stride with n=%d: it needs %.1f GiB of "
                 "device memory and only %.1f GiB of %.1f GiB is free. Other processes hold the "
                 "rest; this says nothing about your code: grade again on an idle GPU.",
                 n, (double)(bytes + margin) / (1 << 30), (double)free_bytes / (1 << 30),
                 (double)total_bytes / (1 << 30));
    const size_t half_gib = (size_t)1 << 29, gib = (size_t)1 << 30;
    const known_run runs[] = {{0, KNOWN_RUN},
                              {half_gib - KNOWN_RUN / 2, KNOWN_RUN},
                              {gib - KNOWN_RUN / 2, KNOWN_RUN},
                              {3 * half_gib - KNOWN_RUN / 2, KNOWN_RUN},
                              {(size_t)n - KNOWN_TAIL, KNOWN_TAIL}};
    enum { RUNS = sizeof runs / sizeof runs[0] };
    size_t known = 0;
    for (size_t r = 0; r < RUNS; ++r)
        known += runs[r].count;
    /* Integers in [1, 8]: at most 8 * 4352 in all, far below 2^24. */
    uint64_t seed = grader_seed() + 2000;
    float *values = grader_malloc(known * sizeof *values);
    rng_fill_integers(values, known, seed, 1, 8);
    double ref = 0.0, last_run = 0.0;
    for (size_t i = 0; i < known; ++i)
        ref += values[i];
    for (size_t i = known - KNOWN_TAIL; i < known; ++i)
        last_run += values[i];

    device_buffer in, out;
    dbuf_alloc(&in, "in", bytes);
    dbuf_alloc(&out, "out", sizeof(float));
    dbuf_poison(&in); /* its guard zones; the payload is set next */
    CUDA_CHECK(cudaMemset(in.data, 0, bytes));
    for (size_t r = 0, done = 0; r < RUNS; done += runs[r++].count)
        CUDA_CHECK(cudaMemcpy((float *)in.data + runs[r].start, values + done,
                              runs[r].count * sizeof(float), cudaMemcpyHostToDevice));
    dbuf_poison(&out);

    char call[160];
    snprintf(call, sizeof call, "lab5_sum_grid_stride(n=%d, close to INT_MAX, seed=%llu)", n,
             (unsigned long long)seed);
    static const char OVERFLOW_HINT[] =
        "With n this close to INT_MAX, an index counted in floats passes INT_MAX in the "
        "grid-stride loop's last pass: an int wraps to a negative value, which is still below "
        "n. Keep element indices in 64 bits (size_t) in TODO(5.11)'s loop, or count float4s; "
        "handout section 8.3.";
    /* The watchdog's limit: one read of the array at a slow GPU's rate. A
     * wrapped index that never leaves the loop ends here as a hang naming
     * the call. */
    grader_watch(call, grader_call_limit_s((double)bytes, 0.0));
    lab_status status = (lab_status)GPU_STUDENT_CALL(
        call, lab5_sum_grid_stride((const float *)in.data, (float *)out.data, n));
    cudaError_t err = cudaDeviceSynchronize();
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s", call, lab_status_name(status),
                 lab_last_error());
    GRADER_CHECK(err == cudaSuccess, "%s: the kernel failed while running: %s (%s). %s", call,
                 cudaGetErrorName(err), cudaGetErrorString(err), OVERFLOW_HINT);
    gpu_expect_guards_intact(&out, call);
    float got;
    dbuf_download(&out, &got);
    if ((double)got != ref) {
        free(values);
        GRADER_FAIL("%s: *out = %.9g, expected exactly %.9g: the array is zeros except %zu "
                    "integers in [1, 8] (runs at the start, around 2^29, 2^30 and 3 * 2^29, "
                    "and the last %d elements).%s %s",
                    call, (double)got, ref, known, KNOWN_TAIL,
                    (double)got == 2.0 * ref ? " It is exactly twice the sum: the loop went "
                                               "round the array a second time."
                    : (double)got == ref - last_run ? " The difference is exactly the sum of "
                                                      "the last run: the loop stopped before "
                                                      "the end of the array."
                                                    : "",
                    OVERFLOW_HINT);
    }
    /* `in` is read-only: the known runs must come back as they went in. */
    float *back = grader_malloc(known * sizeof *back);
    for (size_t r = 0, done = 0; r < RUNS; done += runs[r++].count)
        CUDA_CHECK(cudaMemcpy(back + done, (const float *)in.data + runs[r].start,
                              runs[r].count * sizeof(float), cudaMemcpyDeviceToHost));
    int unchanged = memcmp(back, values, known * sizeof *back) == 0;
    free(back);
    free(values);
    GRADER_CHECK(unchanged, "%s: the input `in` was modified; inputs are read-only (lab5.h). %s",
                 call, GRID_STRIDE.hint);
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ----------------------------------------------- the contract on *out */

/* *out holds a finite value before the call, and the stage is called twice
 * without resetting it: both calls must leave exactly the sum. */
static void expect_overwrites(const stage_info *stage)
{
    enum { N = 1025 };
    const float before = 1000.0f;
    float host[N];
    rng_fill_integers(host, N, grader_seed() + 77, -8, 8);
    double ref = 0.0;
    for (int i = 0; i < N; ++i)
        ref += host[i];
    device_buffer in, out;
    dbuf_alloc(&in, "in", sizeof host);
    dbuf_alloc(&out, "out", sizeof(float));
    dbuf_upload(&in, host);
    dbuf_upload(&out, &before);
    for (int call_no = 1; call_no <= 2; ++call_no) {
        char call[128];
        snprintf(call, sizeof call, "%s(n=%d), call %d, *out = %g before the first call",
                 stage->name, N, call_no, (double)before);
        gpu_expect_ok(stage->fn((const float *)in.data, (float *)out.data, N), call);
        float got;
        dbuf_download(&out, &got);
        double previous = call_no == 1 ? before : ref;
        GRADER_CHECK((double)got == ref,
                     "%s: *out = %.9g, expected the sum %.9g.%s %s", call, (double)got, ref,
                     (double)got == ref + previous
                         ? " That is the sum plus what *out held before the call: the call "
                           "added to it instead of overwriting it."
                         : (double)got == previous ? " *out was not written at all." : "",
                     (double)got == ref + previous ? ZERO_HINT : stage->hint);
    }
    dbuf_free(&in);
    dbuf_free(&out);
}

/* Where *out's zero comes from (TODO(5.3)): device work before the kernel
 * that adds into it. A kernel whose block 0 sets *out = 0 while the other
 * blocks atomicAdd into it races between blocks, yet passes every sum: the
 * GPU starts block 0 first, and its store is its first instruction, long
 * before any block has a sum to add. racecheck sees shared memory only, and
 * no grader can make the other blocks go first (design.md section 3.3). So
 * the check reads how *out is written instead: the GPU's own record of the
 * call (CUPTI's activity API) must show a memset, a copy or a kernel that
 * started before the last kernel did. A call of one kernel and nothing
 * before it leaves the zero to that kernel. */
static void expect_zero_before_kernel(const stage_info *stage)
{
    enum { N = 1 << 20 }; /* 4096 blocks of stages (1)-(3) */
    float *host = grader_malloc(N * sizeof *host);
    rng_fill_integers(host, N, grader_seed() + 78, -8, 8);
    device_buffer in, out;
    dbuf_alloc(&in, "in", N * sizeof(float));
    dbuf_alloc(&out, "out", sizeof(float));
    dbuf_upload(&in, host);
    free(host);
    CUDA_CHECK(cudaDeviceSynchronize());
    char call[128], why[256];
    snprintf(call, sizeof call, "%s(n=%d), watched on the GPU", stage->name, N);
    if (activity_start(why, sizeof why) != 0)
        GRADER_FAIL("%s: the call could not be observed, so where *out's zero comes from cannot "
                    "be checked: %s. The grader watches the GPU through CUPTI (part of the CUDA "
                    "toolkit); this is a problem of the grading machine, not of your code.",
                    call, why);
    gpu_expect_ok(stage->fn((const float *)in.data, (float *)out.data, N), call);
    activity_log log;
    activity_stop(&log);
    const activity_event *last = NULL;
    for (size_t i = 0; i < log.count; ++i)
        if (log.events[i].kind == ACTIVITY_KERNEL &&
            (!last || log.events[i].start_ns >= last->start_ns))
            last = &log.events[i];
    int timed = last && last->start_ns != 0, before = 0;
    for (size_t i = 0; last && i < log.count; ++i)
        if (&log.events[i] != last && log.events[i].start_ns != 0 &&
            log.events[i].start_ns < last->start_ns)
            before = 1;
    char seen[512];
    activity_describe(&log, seen, sizeof seen);
    activity_log_free(&log);
    dbuf_free(&in);
    dbuf_free(&out);
    if (!last)
        GRADER_FAIL("%s: the GPU ran no kernel (it ran %s). %s", call, seen, stage->hint);
    if (!timed) {
        grader_note("%s: CUPTI gave the kernel no time, so the order of *out's zero was not "
                    "checked", call);
        return;
    }
    GRADER_CHECK(before,
                 "%s: the GPU ran %s, with no memset, copy or kernel before the last kernel, "
                 "so *out's zero must come from inside that kernel: one block sets it while "
                 "the others add into it, a race between blocks that passes only while the "
                 "GPU happens to start that block first. %s",
                 call, seen, ZERO_HINT);
}

void gpu_sum_overwrites_out(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_overwrites(&DIVERGENT);
    expect_overwrites(&SEQUENTIAL);
    expect_zero_before_kernel(&DIVERGENT);
    expect_zero_before_kernel(&SEQUENTIAL);
}

/* ------------------------------------ the no-atomic experiment's hook */

/* lab5_set_partials (lab5.h, written for the student): with slots given,
 * each block's sum goes to the block's own slot and *out is left alone, so
 * that make time-lab5 can time the stages without their atomic tail
 * (handout section 9). The entry points choose the ending and the kernels
 * hand their sums to add_block_sum; a kernel that adds into *out itself
 * breaks the experiment, not the graded sums: 0 points. Each slot is
 * checked against its block's sum on the host (integers: exact), the slots
 * past the launch's blocks and *out against what they held. */
static const char SLOTS_HINT[] =
    "Thread 0 must hand the block's sum to add_block_sum(sums, ...), written for you in "
    "reduction.cu, instead of calling atomicAdd itself: add_block_sum stores it or adds it as "
    "the entry point chose (handout section 9).";

static void expect_block_slots(const stage_info *stage, int n)
{
    const float before = 1000.0f;
    const int blocks = (n + stage->per_block - 1) / stage->per_block, spare = 8;
    const size_t count = (size_t)blocks + spare;
    float *host = grader_malloc((size_t)n * sizeof *host);
    float *slots = grader_malloc(count * sizeof *slots);
    double *want = grader_malloc((size_t)blocks * sizeof *want);
    rng_fill_integers(host, (size_t)n, grader_seed() + 79, -8, 8);
    for (int b = 0; b < blocks; ++b) {
        want[b] = 0.0;
        for (int i = b * stage->per_block; i < n && i < (b + 1) * stage->per_block; ++i)
            want[b] += host[i];
    }
    device_buffer in, out, dev_slots;
    dbuf_alloc(&in, "in", (size_t)n * sizeof(float));
    dbuf_alloc(&out, "out", sizeof(float));
    dbuf_alloc(&dev_slots, "partials", count * sizeof(float));
    dbuf_upload(&in, host);
    dbuf_upload(&out, &before);
    dbuf_poison(&dev_slots);
    char call[200];
    snprintf(call, sizeof call, "%s(n=%d) after lab5_set_partials(%zu slots): %d blocks",
             stage->name, n, count, blocks);
    /* The atomic ending is restored before anything can fail the test. */
    grader_watch(call, grader_call_limit_s(0.0, 0.0));
    lab_status status = (lab_status)GPU_STUDENT_CALL(
        call, lab5_set_partials((float *)dev_slots.data, count));
    if (status == LAB_OK)
        status = (lab_status)GPU_STUDENT_CALL(
            call, stage->fn((const float *)in.data, (float *)out.data, n));
    lab_status restored = (lab_status)GPU_STUDENT_CALL(call, lab5_set_partials(NULL, 0));
    gpu_expect_ok_status(status, call);
    grader_unwatch();
    GRADER_CHECK(restored == LAB_OK, "lab5_set_partials(NULL, 0) returned %s: %s. It is written "
                 "for you in reduction.cu: restore it from the handed-out file.",
                 lab_status_name(restored), lab_last_error());
    float got_out;
    dbuf_download(&out, &got_out);
    dbuf_download(&dev_slots, slots);
    gpu_expect_guards_intact(&dev_slots, call);
    GRADER_CHECK(float_bits(got_out) == float_bits(before),
                 "%s: *out changed from %g to %.9g, though every block's sum was to go to its "
                 "slot. %s", call, (double)before, (double)got_out, SLOTS_HINT);
    int stored = 0;
    for (int b = 0; b < blocks; ++b)
        stored += float_bits(slots[b]) != GUARD_POISON_BITS;
    GRADER_CHECK(stored > 0, "%s: no block stored its sum in its slot. %s", call, SLOTS_HINT);
    for (int b = 0; b < blocks; ++b)
        GRADER_CHECK((double)slots[b] == want[b],
                     "%s: slot %d holds %.9g, expected block %d's sum %.9g (integers: exact). %s",
                     call, b, (double)slots[b], b, want[b], stage->hint);
    for (size_t k = (size_t)blocks; k < count; ++k)
        GRADER_CHECK(float_bits(slots[k]) == GUARD_POISON_BITS,
                     "%s: slot %zu, past the launch's %d blocks, was written (%.9g). %s", call, k,
                     blocks, (double)slots[k], SLOTS_HINT);
    free(host);
    free(slots);
    free(want);
    dbuf_free(&in);
    dbuf_free(&out);
    dbuf_free(&dev_slots);
}

void gpu_block_sums_without_atomic(void **state)
{
    (void)state;
    grader_require_gpu();
    const stage_info *stages[] = {&DIVERGENT, &STRIDED, &SEQUENTIAL};
    const int sizes[] = {1, 1025, (1 << 20) + 3};
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; ++s)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
            expect_block_slots(stages[s], sizes[k]);
}

/* -------------------------------------------------------- bad input */

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    const stage_info *stages[] = {&DIVERGENT, &STRIDED, &SEQUENTIAL, &FIRST_ADD, &WARP_SHUFFLE,
                                  &GRID_STRIDE};
    device_buffer in, out;
    dbuf_alloc(&in, "in", 64 * sizeof(float));
    dbuf_alloc(&out, "out", sizeof(float));
    float zeros[64] = {0};
    dbuf_upload(&in, zeros);
    const float *i = in.data;
    float *o = out.data;
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; ++s) {
        const stage_info *st = stages[s];
        struct {
            const float *in;
            float *out;
            int n;
            lab_status expected;
            const char *what;
        } cases[] = {{i, o, 0, LAB_ERR_INVALID_SIZE, "n=0"},
                     {i, o, -7, LAB_ERR_INVALID_SIZE, "n=-7"},
                     {NULL, o, 64, LAB_ERR_NULL_POINTER, "in=NULL"},
                     {i, NULL, 64, LAB_ERR_NULL_POINTER, "out=NULL"}};
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
            char call[96];
            snprintf(call, sizeof call, "%s(%s)", st->name, cases[k].what);
            dbuf_poison(&out);
            gpu_expect_rejected(st->fn(cases[k].in, cases[k].out, cases[k].n), cases[k].expected,
                                &out, call);
        }
    }
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------------ speed */

/* Each stage is its row of lab 5's kernel table (lab5_kernels.c), timed at
 * the size the table grades it at, against its yardstick there or against
 * the table's ceiling, a device-to-device cudaMemcpy of n/2 floats, which
 * reads and writes as many bytes (4n) as the reduction reads. */

static const timing_plan SPEED_PLAN = {.warmup = 3, .runs = 31, .launches_per_run = 1,
                                       .flush_l2 = 1};

/* One measurement: stage a against stage b, or against the copy when b is
 * NULL. Integer-valued inputs in [-2, 2]: every partial sum stays below 2^24
 * in any order, so each timed call's *out is checked exactly. */
typedef struct {
    const stage_info *a, *b;
    device_buffer in, out_a, out_b, copy_out;
    float *host;
    double sum;
    int n;
} speed_run;

/* Fresh inputs for every run: one element changes (a 4-byte copy), so its
 * sum differs from the last run's, and the outputs are poisoned. */
static int speed_prepare(void *ctx, int run)
{
    speed_run *r = ctx;
    size_t idx = ((size_t)run * 2654435761u + 12345u) % (size_t)r->n;
    float old = r->host[idx], fresh = old >= 0.0f ? old - 1.0f : old + 1.0f;
    r->host[idx] = fresh;
    r->sum += (double)fresh - (double)old;
    CUDA_CHECK(cudaMemcpy((float *)r->in.data + idx, &fresh, sizeof fresh,
                          cudaMemcpyHostToDevice));
    device_fill_u32(r->out_a.data, GUARD_POISON_BITS, 1);
    if (r->b)
        device_fill_u32(r->out_b.data, GUARD_POISON_BITS, 1);
    return 0;
}

static int output_is(const device_buffer *out, double want)
{
    float got;
    CUDA_CHECK(cudaMemcpy(&got, out->data, sizeof got, cudaMemcpyDeviceToHost));
    return (double)got == want;
}

static int speed_verify(void *ctx, int run)
{
    (void)run;
    speed_run *r = ctx;
    int ok = output_is(&r->out_a, r->sum);
    if (r->b)
        ok = ok && output_is(&r->out_b, r->sum);
    return !ok;
}

static void speed_run_init(speed_run *r, const stage_info *a, const stage_info *b)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    r->b = b;
    r->n = (int)lab_kernel_table.rows[a->row].graded_size[0];
    r->host = grader_malloc((size_t)r->n * sizeof(float));
    rng_fill_integers(r->host, (size_t)r->n, grader_seed() + 900, -2, 2);
    for (int i = 0; i < r->n; ++i)
        r->sum += r->host[i];
    dbuf_alloc(&r->in, "in", (size_t)r->n * sizeof(float));
    dbuf_upload(&r->in, r->host);
    dbuf_alloc(&r->out_a, "out", sizeof(float));
    if (b)
        dbuf_alloc(&r->out_b, "out_b", sizeof(float));
    else
        dbuf_alloc(&r->copy_out, "copy_out", (size_t)(r->n / 2) * sizeof(float));
}

static void speed_run_free(speed_run *r)
{
    dbuf_free(&r->in);
    dbuf_free(&r->out_a);
    if (r->b)
        dbuf_free(&r->out_b);
    else
        dbuf_free(&r->copy_out);
    free(r->host);
}

/* The table's row `row` on r's input, writing to `out`. */
static kernel_call row_call(int row, const speed_run *r, const device_buffer *out)
{
    kernel_call call = {&lab_kernel_table.rows[row],
                        {.size = {r->n}, .in = {r->in.data, NULL}, .out = out->data}};
    return call;
}

/* Measures a against b, its yardstick in the table (yardstick_of), or
 * against the table's ceiling, the copy, when b is NULL. judge: fail below
 * the threshold; otherwise only report. Fills *result when given. */
static double measure(const stage_info *a, const stage_info *b, double threshold,
                      const char *ratio_name, const char *hint, int judge,
                      timing_ab_result *result)
{
    speed_run r;
    speed_run_init(&r, a, b);
    char description[200], verify_hint[600];
    if (b)
        snprintf(description, sizeof description, "%s vs %s, n=%d", a->name, b->name, r.n);
    else
        snprintf(description, sizeof description,
                 "%s vs device-to-device cudaMemcpy of the same bytes, n=%d", a->name, r.n);
    snprintf(verify_hint, sizeof verify_hint, "%s%s%s", a->hint, b ? " Or: " : "",
             b ? b->hint : "");
    kernel_call timed = row_call(a->row, &r, &r.out_a);
    kernel_call baseline = b ? row_call(b->row, &r, &r.out_b)
                             : row_call(LAB5_ROW_MEMCPY_HALF, &r, &r.copy_out);
    timing_guard guard = {speed_prepare, speed_verify, &r};
    speed_spec spec = {.ratio_name = ratio_name,
                       .description = description,
                       .threshold = threshold,
                       .bytes_per_launch = kernel_row_bytes(timed.row, timed.args.size),
                       .hint = hint,
                       .verify_hint = verify_hint};
    double ratio;
    if (judge) {
        ratio = speed_check(kernel_call_launch, &timed, kernel_call_launch, &baseline,
                            &SPEED_PLAN, &guard, &spec);
    } else {
        timing_ab_result local;
        timing_ab_result *res = result ? result : &local;
        speed_measure(kernel_call_launch, &timed, kernel_call_launch, &baseline, &SPEED_PLAN,
                      &guard, &spec, res);
        speed_report(res, &spec);
        ratio = res->ratio;
    }
    speed_run_free(&r);
    return ratio;
}

/* The stage's yardstick in the table, as the messages name it. */
static const stage_info *yardstick_of(const stage_info *stage)
{
    int row = lab_kernel_table.rows[stage->row].yardstick;
    GRADER_CHECK(row == GRADER_DIVERGENT.row, "%s: the kernel table times it against %s, "
                 "which lab5_gpu_checks.c has no words for (a grader bug)", stage->name,
                 lab_kernel_table.rows[row].name);
    return &GRADER_DIVERGENT;
}

void gpu_sequential_speed_vs_divergent(void **state)
{
    (void)state;
    grader_require_gpu();
    /* Reported, not judged (lab5_rubric.h): what the handout's section 9
     * asks the student to read. */
    measure(&SEQUENTIAL, yardstick_of(&SEQUENTIAL), 0.0, "speedup_over_divergent", NULL, 0,
            NULL);
}

void gpu_required_stages_vs_copy(void **state)
{
    (void)state;
    grader_require_gpu();
    /* For the handout's table: measured, not judged. Stage (3) is not
     * judged against the copy either: like (1) and (2) it is limited by
     * its shared-memory steps and its one atomicAdd per block, not by
     * DRAM, so its fraction of a copy depends on the GPU's memory (0.19 on
     * an H100, lower on the faster H200) more than on the student's code. */
    measure(&DIVERGENT, NULL, 0.0, "divergent_fraction_of_copy", NULL, 0, NULL);
    measure(&STRIDED, NULL, 0.0, "strided_fraction_of_copy", NULL, 0, NULL);
    measure(&SEQUENTIAL, NULL, 0.0, "sequential_fraction_of_copy", NULL, 0, NULL);
}

void gpu_first_add_fraction_of_copy(void **state)
{
    (void)state;
    grader_require_gpu();
    /* Before the timing: a failed speed test keeps its ratio for the batch's
     * partial credit, which a stage running another stage's kernel must not get. */
    stage_identity_expect_own(&lab_kernel_table, FIRST_ADD.row);
    measure(&FIRST_ADD, NULL, LAB5_FIRST_ADD_COPY_FRACTION_MIN, "fraction_of_copy_bandwidth",
            "Half the blocks of stage (3), each thread adding two elements in registers as it "
            "loads them: check that the launch's 2*blockDim.x elements per block are all "
            "loaded by the first add (TODO(5.8)), handout section 8.1.",
            1, NULL);
}

void gpu_warp_shuffle_fraction_of_copy(void **state)
{
    (void)state;
    grader_require_gpu();
    stage_identity_expect_own(&lab_kernel_table, WARP_SHUFFLE.row);
    measure(&WARP_SHUFFLE, NULL, LAB5_WARP_SHUFFLE_COPY_FRACTION_MIN,
            "fraction_of_copy_bandwidth",
            "The last six steps should run in one warp without barriers: check that the "
            "shared-memory loop stops at stride 64 and warp 0 finishes with __shfl_down_sync "
            "(TODO(5.9)), handout section 8.2.",
            1, NULL);
}

void gpu_grid_stride_fraction_of_copy(void **state)
{
    (void)state;
    grader_require_gpu();
    stage_identity_expect_own(&lab_kernel_table, GRID_STRIDE.row);
    measure(&GRID_STRIDE, NULL, LAB5_GRID_STRIDE_COPY_FRACTION_MIN, "fraction_of_copy_bandwidth",
            "Near copy speed needs enough bytes in flight: one wave of blocks filling every SM "
            "(TODO(5.10)), float4 loads, several independent loads per loop trip, and the "
            "block's cooperation only once at the end (TODO(5.11)); handout section 8.3.",
            1, NULL);
}

/* ------------------------------------------------------- self-tests */

typedef struct {
    const stage_info *a, *b;
    double threshold;
} baseline_pair;

static void measure_baseline(void *ctx, timing_ab_result *r)
{
    const baseline_pair *p = ctx;
    measure(p->a, p->b, p->threshold, "yardstick_ratio", NULL, 0, r);
}

static void expect_below(const stage_info *a, const stage_info *b, double threshold,
                         const char *rubric_name)
{
    timing_ab_result r;
    baseline_pair pair = {a, b, threshold};
    GRADER_CHECK(selftest_stays_below(measure_baseline, &pair, threshold, &r),
                 "%s graded against %s: ratio %.3f (best single pair %.3f) reaches the "
                 "threshold %.3f, so on this GPU the speed check cannot tell it apart. "
                 "Recalibrate %s in grader/lab5/lab5_rubric.h.",
                 a->name, b ? b->name : "the copy", r.ratio, r.pair_ratio.max, threshold,
                 rubric_name);
}

void selftest_sequential_below_bonus_thresholds(void **state)
{
    (void)state;
    grader_require_gpu();
    double lowest = LAB5_FIRST_ADD_COPY_FRACTION_MIN;
    if (LAB5_WARP_SHUFFLE_COPY_FRACTION_MIN < lowest)
        lowest = LAB5_WARP_SHUFFLE_COPY_FRACTION_MIN;
    if (LAB5_GRID_STRIDE_COPY_FRACTION_MIN < lowest)
        lowest = LAB5_GRID_STRIDE_COPY_FRACTION_MIN;
    expect_below(&SEQUENTIAL, NULL, lowest,
                 "LAB5_FIRST_ADD_COPY_FRACTION_MIN (the lowest bonus threshold)");
}

/* ------------------------------------------------------------- races */

/* Stages (1)-(3) once under racecheck on n = 5000 (the race rows of lab5_kernels.c):
 * many blocks, the last one partial. */
void gpu_reduction_race_free(void **state)
{
    (void)state;
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "5",
        .what = "stages (1)-(3) (lab5_sum_divergent, _strided, _sequential) on n=5000",
        .args = NULL,
        .fix_hint = "TODO(5.2), (5.5) and (5.7): a __syncthreads() after the load and after "
                    "every step, outside the `if` that picks the active threads, so that no "
                    "thread reads a partial sum before its writer has stored it; " LAB5_HANDOUT
                    ", section 2 (a reduction inside one block).",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}
