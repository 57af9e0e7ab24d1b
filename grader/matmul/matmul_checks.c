/* Matmul grading on the GPU, shared by the matmul labs: see matmul_checks.h. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "matmul_checks.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_reference.h"
#include "device_buffer.h"
#include "device_verify.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "mismatch.h"
#include "rng.h"
#include "speed_check.h"

const matmul_shape MATMUL_AWKWARD_SHAPES[] = {
    {1, 1, 1},      {17, 33, 65},  {64, 64, 64},     {1000, 999, 1001},
    {1, 4096, 1},   {4096, 1, 4096}, {512, 512, 512},
};
const size_t MATMUL_AWKWARD_SHAPE_COUNT =
    sizeof MATMUL_AWKWARD_SHAPES / sizeof MATMUL_AWKWARD_SHAPES[0];

/* Above this many multiply-adds one seed is enough: the CPU reference of
 * 1000x999x1001 alone takes about a second. */
#define ONE_SEED_ABOVE_MACS (1LL << 28)

/* Elements of a timed kernel's output checked on the CPU (expect_sampled),
 * besides whole first/middle/last rows and columns. */
enum { SAMPLED_ELEMENTS = 2048 };

size_t matmul_tile_edge_shapes(int tm, int tn, int tk, matmul_shape *out, size_t max)
{
    const int ms[] = {tm - 1, tm, tm + 1, 2 * tm + 1};
    const int ns[] = {tn - 1, tn, tn + 1, 2 * tn + 1};
    const int ks[] = {tk - 1, tk, tk + 1, 2 * tk + 1};
    size_t count = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int l = 0; l < 4; ++l) {
                matmul_shape s = {ms[i], ns[j], ks[l]};
                if (s.m > 0 && s.n > 0 && s.k > 0 && count < max)
                    out[count++] = s;
            }
    return count;
}

void matmul_describe_shape(matmul_shape s, char *out, size_t size)
{
    snprintf(out, size, "%dx%dx%d (MxNxK: A %dx%d, B %dx%d, C %dx%d)", s.m, s.n, s.k, s.m, s.k,
             s.k, s.n, s.m, s.n);
}

static size_t elements(int rows, int cols) { return (size_t)rows * (size_t)cols; }

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Computes p->ref on `threads` cores (0: as many as it is worth); returns
 * the seconds it took. */
static double compute_reference(matmul_problem *p, int threads)
{
    matmul_shape s = p->shape;
    if (!p->ref)
        p->ref = grader_malloc(elements(s.m, s.n) * sizeof *p->ref);
    double start = seconds_now();
    if (threads > 0)
        cpu_matmul_ref_threads(p->a, p->b, p->ref, s.m, s.n, s.k, threads);
    else
        cpu_matmul_ref(p->a, p->b, p->ref, s.m, s.n, s.k);
    return seconds_now() - start;
}

void matmul_problem_init(matmul_problem *p, matmul_shape s, uint64_t seed, int with_reference)
{
    p->shape = s;
    p->seed = seed;
    p->a = grader_malloc(elements(s.m, s.k) * sizeof *p->a);
    p->b = grader_malloc(elements(s.k, s.n) * sizeof *p->b);
    p->ref = NULL;
    /* Two streams from one seed: A and B must not be the same numbers. */
    rng_fill_uniform(p->a, elements(s.m, s.k), seed, -1.0f, 1.0f);
    rng_fill_uniform(p->b, elements(s.k, s.n), ~seed, -1.0f, 1.0f);
    if (with_reference)
        compute_reference(p, 0);
}

/* One core: lab 2 compares its kernel with one CPU core. */
double matmul_problem_reference_seconds(matmul_problem *p) { return compute_reference(p, 1); }

void matmul_problem_free(matmul_problem *p)
{
    free(p->a);
    free(p->b);
    free(p->ref);
    p->a = p->b = NULL;
    p->ref = NULL;
}

compare_spec matmul_compare_spec(matmul_shape s, size_t tile)
{
    compare_spec spec = {(size_t)s.m, (size_t)s.n, compare_dot_atol((size_t)s.k), MATMUL_RTOL,
                         tile};
    return spec;
}

/* ------------------------------------------------------- correctness */

typedef struct {
    device_buffer a, b, c;
} device_problem;

static void upload_problem(device_problem *d, const matmul_problem *p)
{
    matmul_shape s = p->shape;
    dbuf_alloc(&d->a, "A", elements(s.m, s.k) * sizeof(float));
    dbuf_alloc(&d->b, "B", elements(s.k, s.n) * sizeof(float));
    dbuf_alloc(&d->c, "C", elements(s.m, s.n) * sizeof(float));
    dbuf_upload(&d->a, p->a);
    dbuf_upload(&d->b, p->b);
    dbuf_poison(&d->c);
}

static void free_device_problem(device_problem *d)
{
    dbuf_free(&d->a);
    dbuf_free(&d->b);
    dbuf_free(&d->c);
}

static void describe_call(char *out, size_t size, const char *name, matmul_shape s,
                          uint64_t seed)
{
    char shape[96];
    matmul_describe_shape(s, shape, sizeof shape);
    snprintf(out, size, "%s on %s, seed %llu", name, shape, (unsigned long long)seed);
}

/* One call of impl, which must succeed and launch the tiles its lab fixes. */
static void run_impl(const matmul_impl *impl, device_problem *d, matmul_shape s,
                     const char *call)
{
    gpu_expect_ok(impl->fn(d->a.data, d->b.data, d->c.data, s.m, s.n, s.k), call);
    if (impl->block_edge) {
        launch_shape tiles = matmul_tile_launch(impl->block_edge, s, impl->block_where);
        gpu_expect_launch_follows(call, &tiles);
    }
}

/* C (already downloaded into got) is wrong: fails the test saying how.
 * With a rerun_hint, impl runs a second time on the same inputs first; when
 * the two results differ, that is the message (a race is the usual cause),
 * and no pattern seen in one run is offered as the diagnosis. Otherwise the
 * comparison's report, the classifier's pattern where the comparison has
 * none (mismatch.h), and impl's hint. */
static void fail_wrong_result(const matmul_impl *impl, device_problem *d, const matmul_problem *p,
                              float *got, const char *call, const char *rerun_hint)
{
    matmul_shape s = p->shape;
    size_t n = elements(s.m, s.n);
    compare_spec spec = matmul_compare_spec(s, impl->tile);
    compare_result result;
    if (rerun_hint) {
        float *again = grader_malloc(n * sizeof *again);
        dbuf_poison(&d->c);
        run_impl(impl, d, s, call);
        dbuf_download(&d->c, again);
        size_t first = 0, differ = mismatch_runs_differ(got, again, n, &first);
        free(again);
        if (differ) {
            spec.tile = 0; /* one run's tile pattern means nothing here */
            compare_floats(got, p->ref, &spec, &result);
            free(got);
            GRADER_FAIL("%s: results change from run to run: a second run on the same inputs "
                        "differs in %zu of %zu elements (the first at (%zu,%zu)). %s First "
                        "run: %s. %s",
                        call, differ, n, first / (size_t)s.n, first % (size_t)s.n, rerun_hint,
                        result.report, impl->hint);
        }
    }
    compare_floats(got, p->ref, &spec, &result);
    mismatch_spec mspec = mismatch_spec_from_compare(&spec);
    mismatch_verdict verdict;
    mismatch_kind kind = mismatch_classify(got, p->ref, &mspec, &verdict);
    free(got);
    int add_pattern = result.diagnosis == DIAG_NONE && kind != MISMATCH_UNKNOWN &&
                      kind != MISMATCH_PARTLY_UNWRITTEN;
    GRADER_FAIL("%s: %s%s%s. %s", call, result.report, add_pattern ? "; pattern: " : "",
                add_pattern ? verdict.text : "", impl->hint);
}

launch_shape matmul_tile_launch(unsigned edge, matmul_shape s, const char *where)
{
    launch_shape shape = {{edge, edge, 1},
                          {((unsigned)s.n + edge - 1) / edge, ((unsigned)s.m + edge - 1) / edge, 1},
                          where};
    return shape;
}

void matmul_expect_correct_rerun(const matmul_impl *impl, matmul_shape s, uint64_t seed,
                                 const char *rerun_hint)
{
    matmul_problem p;
    matmul_problem_init(&p, s, seed, 1);
    device_problem d;
    upload_problem(&d, &p);
    char call[224];
    describe_call(call, sizeof call, impl->name, s, seed);
    run_impl(impl, &d, s, call);
    compare_spec spec = matmul_compare_spec(s, impl->tile);
    float *got = grader_malloc(elements(s.m, s.n) * sizeof *got);
    dbuf_download(&d.c, got);
    compare_result result;
    if (!compare_floats(got, p.ref, &spec, &result))
        fail_wrong_result(impl, &d, &p, got, call, rerun_hint);
    free(got);
    gpu_expect_guards_intact(&d.c, call);
    gpu_expect_unchanged(&d.a, p.a, call);
    gpu_expect_unchanged(&d.b, p.b, call);
    gpu_expect_guards_intact(&d.a, call);
    gpu_expect_guards_intact(&d.b, call);
    free_device_problem(&d);
    matmul_problem_free(&p);
}

void matmul_expect_correct(const matmul_impl *impl, matmul_shape s, uint64_t seed)
{
    matmul_expect_correct_rerun(impl, s, seed, NULL);
}

void matmul_expect_correct_shapes_rerun(const matmul_impl *impl, const matmul_shape *shapes,
                                        size_t count, int seeds, const char *rerun_hint)
{
    for (size_t i = 0; i < count; ++i) {
        long long macs = (long long)shapes[i].m * shapes[i].n * shapes[i].k;
        int runs = macs > ONE_SEED_ABOVE_MACS ? 1 : seeds;
        for (int s = 0; s < runs; ++s)
            matmul_expect_correct_rerun(impl, shapes[i], grader_seed() + 1000 * i + (uint64_t)s,
                                        rerun_hint);
    }
}

void matmul_expect_correct_shapes(const matmul_impl *impl, const matmul_shape *shapes,
                                  size_t count, int seeds)
{
    matmul_expect_correct_shapes_rerun(impl, shapes, count, seeds, NULL);
}

/* ------------------------------------------------------- bad input */

const matmul_bad_case MATMUL_BAD_CASES[] = {
    {0, 8, 8, 0, 0, LAB_ERR_INVALID_SIZE, "M = 0"},
    {8, 0, 8, 0, 0, LAB_ERR_INVALID_SIZE, "N = 0"},
    {8, 8, 0, 0, 0, LAB_ERR_INVALID_SIZE, "K = 0"},
    {-1, 8, 8, 0, 0, LAB_ERR_INVALID_SIZE, "M negative"},
    {8, -8, 8, 0, 0, LAB_ERR_INVALID_SIZE, "N negative"},
    {8, 8, INT_MIN, 0, 0, LAB_ERR_INVALID_SIZE, "K = INT_MIN"},
    {65536, 1, 65536, 0, 0, LAB_ERR_INVALID_SIZE, "A would have 2^32 elements, more than an int indexes"},
    {1, 65536, 65536, 0, 0, LAB_ERR_INVALID_SIZE, "B would have 2^32 elements, more than an int indexes"},
    {65536, 65536, 1, 0, 0, LAB_ERR_INVALID_SIZE, "C would have 2^32 elements, more than an int indexes"},
    {8, 8, 1, 1, 0, LAB_ERR_NULL_POINTER, "A is NULL"},
    {8, 8, 1, 0, 1, LAB_ERR_NULL_POINTER, "C is NULL"},
};
const size_t MATMUL_BAD_CASE_COUNT = sizeof MATMUL_BAD_CASES / sizeof MATMUL_BAD_CASES[0];

void matmul_describe_bad_case(const matmul_impl *impl, const matmul_bad_case *bad, char *out,
                              size_t size)
{
    snprintf(out, size, "%s(M=%d, N=%d, K=%d%s%s) [%s; see %s]", impl->name, bad->m, bad->n,
             bad->k, bad->null_a ? ", a=NULL" : "", bad->null_c ? ", c=NULL" : "", bad->why,
             impl->validation ? impl->validation : "the entry point's validation");
}

void matmul_expect_rejects_bad_input(const matmul_impl *impl)
{
    /* Big enough for every case's valid buffers: nothing may be read or
     * written anyway. */
    enum { SMALL = 64 };
    device_buffer in, out;
    dbuf_alloc(&in, "A/B", SMALL * sizeof(float));
    dbuf_alloc(&out, "C", SMALL * sizeof(float));
    float zeros[SMALL] = {0};
    dbuf_upload(&in, zeros);
    const float *x = in.data;
    for (size_t i = 0; i < MATMUL_BAD_CASE_COUNT; ++i) {
        const matmul_bad_case *bad = &MATMUL_BAD_CASES[i];
        dbuf_poison(&out);
        char call[256];
        matmul_describe_bad_case(impl, bad, call, sizeof call);
        lab_status status = impl->fn(bad->null_a ? NULL : x, x,
                                     bad->null_c ? NULL : (float *)out.data, bad->m, bad->n,
                                     bad->k);
        gpu_expect_rejected(status, bad->expected, &out, call);
    }
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------------- speed */

typedef struct {
    matmul_fn fn;
    const float *a, *b;
    float *c;
    matmul_shape s;
} timed_matmul;

static int launch_matmul(void *ctx)
{
    timed_matmul *t = ctx;
    return t->fn(t->a, t->b, t->c, t->s.m, t->s.n, t->s.k);
}

matmul_shape matmul_graded_shape(const kernel_row *row)
{
    matmul_shape s = {(int)row->graded_size[0], (int)row->graded_size[1],
                      (int)row->graded_size[2]};
    return s;
}

/* A row of a matmul table (matmul_kernels.h: A and B in, C out) on s. */
static kernel_call matmul_row_call(const kernel_row *row, const float *a, const float *b,
                                   float *c, matmul_shape s)
{
    kernel_call call = {row, {.size = {s.m, s.n, s.k}, .in = {a, b}, .out = c}};
    return call;
}

/* B transposed, so that every reference below reads both operands in order:
 * walking down B's columns made the 4096^3 sample take about 1 s while the
 * test held the GPU. */
static float *transposed_b(const matmul_problem *p)
{
    matmul_shape s = p->shape;
    float *bt = grader_malloc(elements(s.n, s.k) * sizeof *bt);
    enum { BLOCK = 64 }; /* a block of rows and columns in cache at once */
    for (int q0 = 0; q0 < s.k; q0 += BLOCK)
        for (int c0 = 0; c0 < s.n; c0 += BLOCK)
            for (int q = q0; q < q0 + BLOCK && q < s.k; ++q)
                for (int col = c0; col < c0 + BLOCK && col < s.n; ++col)
                    bt[(size_t)col * s.k + q] = p->b[(size_t)q * s.n + col];
    return bt;
}

/* Element (row, col) of the product in double, the terms in k order. */
static double dot_reference_bt(const matmul_problem *p, const float *bt, int row, int col)
{
    matmul_shape s = p->shape;
    const float *a = &p->a[(size_t)row * s.k], *b = &bt[(size_t)col * s.k];
    double sum = 0.0;
    for (int q = 0; q < s.k; ++q)
        sum += (double)a[q] * (double)b[q];
    return sum;
}

/* When expect_sampled checks: the words its messages start with, and what
 * they add. */
typedef struct {
    const char *when, *why;
} sampled_check;
static const sampled_check BEFORE_TIMING = {
    "on the seeded host inputs", "(the CPU's product in double)"};
static const sampled_check AFTER_TIMING = {
    "after timing", "The timed runs must compute the same result as the checked ones."};

static void expect_element(const float *got, const matmul_problem *p, const float *bt, int row,
                           int col, const sampled_check *at, const char *call, const char *hint)
{
    matmul_shape s = p->shape;
    double ref = dot_reference_bt(p, bt, row, col);
    float value = got[(size_t)row * s.n + col];
    double tolerance = compare_dot_atol((size_t)s.k) + MATMUL_RTOL * fabs(ref);
    GRADER_CHECK(isfinite(value) && fabs((double)value - ref) <= tolerance,
                 "%s: %s, element (%d,%d) is %.9g, expected %.9g (tolerance %.3g). %s %s",
                 call, at->when, row, col, (double)value, ref, tolerance, at->why,
                 hint ? hint : "");
}

/* A timed kernel's output C (of the problem p's inputs): every element
 * finite (no poison left), and a sample of elements against the reference.
 * Checking all of a 2048^3 product on the CPU would take longer than the
 * rest of the test. */
static void expect_sampled(const device_buffer *c, const matmul_problem *p,
                           const sampled_check *at, const char *call, const char *hint)
{
    matmul_shape s = p->shape;
    size_t n = elements(s.m, s.n);
    float *got = grader_malloc(n * sizeof *got);
    dbuf_download(c, got);
    size_t bad = 0, first = 0, poisoned = 0;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(got[i])) {
            if (bad++ == 0)
                first = i;
            poisoned += guard_is_poison(got[i]);
        }
    if (bad) {
        free(got);
        GRADER_FAIL("%s: %s, %zu of %zu elements are NaN/Inf (%zu still hold the "
                    "poison: never written), the first at (%zu,%zu). %s",
                    call, at->when, bad, n, poisoned, first / (size_t)s.n,
                    first % (size_t)s.n, hint ? hint : "");
    }
    float *bt = transposed_b(p);
    const int rows[] = {0, s.m / 2, s.m - 1}, cols[] = {0, s.n / 2, s.n - 1};
    for (int r = 0; r < 3; ++r)
        for (int col = 0; col < s.n; ++col)
            expect_element(got, p, bt, rows[r], col, at, call, hint);
    for (int q = 0; q < 3; ++q)
        for (int row = 0; row < s.m; ++row)
            expect_element(got, p, bt, row, cols[q], at, call, hint);
    rng_state rng = rng_make(p->seed ^ 0x5A3D1E5ull);
    for (int i = 0; i < SAMPLED_ELEMENTS; ++i)
        expect_element(got, p, bt, (int)(rng_next_u64(&rng) % (uint64_t)s.m),
                       (int)(rng_next_u64(&rng) % (uint64_t)s.n), at, call, hint);
    free(bt);
    free(got);
}

/* Every timed run multiplies fresh inputs, and the student's whole C must
 * then agree with the baseline's C of the same run: both are float sums of
 * the same K products, each within compare_dot_atol(K) of the exact value. */
typedef struct {
    float *a, *b, *c, *c_base;
    matmul_shape s;
    uint64_t seed;
} matmul_run;

static int matmul_run_prepare(void *ctx, int run)
{
    matmul_run *r = ctx;
    device_fill_uniform(r->a, elements(r->s.m, r->s.k), r->seed + 2 * (uint64_t)run, -1.0f, 1.0f);
    device_fill_uniform(r->b, elements(r->s.k, r->s.n), r->seed + 2 * (uint64_t)run + 1, -1.0f,
                        1.0f);
    device_fill_u32(r->c, GUARD_POISON_BITS, elements(r->s.m, r->s.n));
    device_fill_u32(r->c_base, GUARD_POISON_BITS, elements(r->s.m, r->s.n));
    return 0;
}

static int matmul_run_verify(void *ctx, int run)
{
    (void)run;
    matmul_run *r = ctx;
    double atol = 2.0 * compare_dot_atol((size_t)r->s.k);
    return device_count_mismatches(r->c, r->c_base, elements(r->s.m, r->s.n), atol,
                                   2.0 * MATMUL_RTOL) != 0;
}

double matmul_speed(const matmul_speed_spec *spec, int judge, timing_ab_result *result)
{
    matmul_shape s = spec->shape;
    uint64_t seed = grader_seed() + 7000;
    matmul_problem p;
    matmul_problem_init(&p, s, seed, 0);
    device_problem d;
    upload_problem(&d, &p);
    device_buffer c_base;
    dbuf_alloc(&c_base, "C (baseline)", elements(s.m, s.n) * sizeof(float));
    dbuf_poison(&c_base);

    char shape[96], description[256];
    matmul_describe_shape(s, shape, sizeof shape);
    snprintf(description, sizeof description, "%s vs %s on %s", spec->student->name,
             spec->baseline_name, shape);
    kernel_call student = matmul_row_call(spec->timed, d.a.data, d.b.data, d.c.data, s);
    kernel_call baseline = matmul_row_call(spec->yardstick, d.a.data, d.b.data, c_base.data, s);
    double flops = kernel_row_flops(student.row, student.args.size);
    matmul_run run = {d.a.data, d.b.data, d.c.data, c_base.data, s, seed + 1};
    timing_guard guard = {matmul_run_prepare, matmul_run_verify, &run};
    launch_shape launch = spec->launch;
    if (!launch.block[0] && spec->student->block_edge)
        launch = matmul_tile_launch(spec->student->block_edge, s, spec->student->block_where);
    speed_spec ss = {spec->ratio_name, description, spec->threshold, 0.0, flops, spec->hint,
                     spec->student->hint, launch.block[0] ? &launch : NULL};
    /* First, once on the seeded host inputs, against the CPU in double. Here
     * and not after the measurement: it needs no GPU to itself, and after it
     * the next lab's measurement would wait for it. Into the baseline's C, so
     * that a kernel skipping a call that repeats its last arguments still
     * computes the first timed call. */
    dbuf_poison(&c_base);
    kernel_call seeded = student;
    seeded.args.out = c_base.data;
    gpu_expect_ok(kernel_call_launch(&seeded), description);
    expect_sampled(&c_base, &p, &BEFORE_TIMING, description, spec->student->hint);
    gpu_expect_guards_intact(&c_base, description);

    double ratio;
    if (judge) {
        ratio = speed_check(kernel_call_launch, &student, kernel_call_launch, &baseline,
                            &spec->plan, &guard, &ss);
    } else {
        timing_ab_result r;
        speed_measure(kernel_call_launch, &student, kernel_call_launch, &baseline, &spec->plan,
                      &guard, &ss, &r);
        speed_report(&r, &ss);
        if (result)
            *result = r;
        ratio = r.ratio;
    }
    dbuf_free(&c_base);
    free_device_problem(&d);
    matmul_problem_free(&p);
    return ratio;
}

double matmul_time_ms(const matmul_impl *impl, matmul_shape s, const timing_plan *plan)
{
    uint64_t seed = grader_seed() + 8000;
    matmul_problem p;
    matmul_problem_init(&p, s, seed, 0);
    device_problem d;
    upload_problem(&d, &p);
    char call[224];
    describe_call(call, sizeof call, impl->name, s, seed);
    timed_matmul t = {impl->fn, d.a.data, d.b.data, d.c.data, s};
    stats_summary ms;
    /* Reported only, never judged (0 points): no per-run verification, but
     * one watchdog over all the runs, sized by their total work. */
    grader_gpu_exclusive();
    int launches = (plan->warmup + plan->runs) * (plan->launches_per_run > 0 ? plan->launches_per_run : 1);
    grader_watch(call, grader_call_limit_s(0.0, 2.0 * s.m * s.n * (double)s.k * launches));
    int status = timing_measure(launch_matmul, &t, plan, NULL, &ms);
    grader_unwatch();
    GRADER_CHECK(status == 0, "%s: a launch failed while timing (status %d: %s)", call, status,
                 lab_last_error());
    expect_sampled(&d.c, &p, &AFTER_TIMING, call, impl->hint);
    free_device_problem(&d);
    matmul_problem_free(&p);
    return ms.median;
}

static void measure_baseline(void *spec, timing_ab_result *r)
{
    matmul_speed(spec, 0, r);
}

void matmul_expect_below_threshold(const matmul_speed_spec *spec, const char *rubric_name)
{
    timing_ab_result r;
    GRADER_CHECK(selftest_stays_below(measure_baseline, (void *)spec, spec->threshold, &r),
                 "%s graded as the student against %s: ratio %.3f (best single pair %.3f) "
                 "reaches the threshold %.3f, so on this GPU the speed check cannot tell this "
                 "kernel apart. Recalibrate %s in the lab's rubric header.",
                 spec->student->name, spec->baseline_name, r.ratio, r.pair_ratio.max,
                 spec->threshold, rubric_name);
}
