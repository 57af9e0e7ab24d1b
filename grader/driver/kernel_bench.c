/* make bench, the kernel driver's bench mode: see kernel_bench.h. The
 * problems, sizes, keys and labels are the lab's kernel table's; what is
 * here is how a problem is timed (the graders' routine and bench_rules.h)
 * and printed. */
#include "kernel_bench.h"
#include "bench_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device_buffer.h"
#include "device_info.h"
#include "device_verify.h"
#include "guard.h"
#include "lab_status.h"
#include "steady_timing.h"

typedef enum { BENCH_BASELINE, BENCH_KERNEL, BENCH_CEILING } bench_role;

typedef struct {
    const char *name;   /* short key used in the JSON and in handouts: "naive" */
    const char *label;  /* what a reader sees in a table or legend */
    timed_launch launch;
    void *ctx;
} bench_entry;

/* One problem at one size: the baseline, the kernels, the ceiling. */
typedef struct {
    int lab;
    const char *problem;    /* "matmul", "transpose", ... */
    const char *size;       /* as a handout writes it: "2048", "8192x8192", "2^26" */
    double x;               /* the size as a number for plots (edge or element count) */
    double work;            /* bytes moved or flops done per launch */
    const char *unit;       /* "GB/s" (work in bytes) or "GFLOP/s" (work in flops) */
    bench_entry baseline;
    const bench_entry *kernels;
    int kernel_count;
    /* Bit k set: kernels[k] is an optional final stage (lab 4's (e), lab
     * 7's tile per size). Where it fails, as a student copy's skeleton does
     * when the stage is not written, it is left out with a note, and that
     * is no error of the bench. */
    unsigned optional_kernels;
    bench_entry ceiling;    /* launch NULL: none */
    const char *ceiling_name; /* "memcpy_d2d", "cublas_fp32", ...; NULL: none */
    int over_bus;           /* kernel_bench_problem's */
    /* The output every entry writes, compared with the baseline's (NULL: not
     * compared, e.g. host memory). */
    float *out;
    size_t out_count;
    double atol, rtol;
} bench_problem;

typedef struct {
    timing_plan plan;
    unsigned long long seed;
    int dry_run; /* --dry-run: what would be timed, no GPU needed */
} bench_options;

/* The graders' plans use 11 to 31 runs; 11 keeps `make bench` for every lab
 * within minutes while one late interrupt still cannot move a median. */
enum { DEFAULT_RUNS = 11, DEFAULT_WARMUP = 2 };

/* Our labels are plain ASCII; quotes and backslashes are escaped anyway. */
static void print_json_string(const char *s)
{
    putchar('"');
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar((unsigned char)*s >= 0x20 ? *s : ' ');
    }
    putchar('"');
}

static void bench_note(const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    printf("{\"type\":\"note\",\"text\":");
    print_json_string(text);
    printf("}\n");
    fflush(stdout);
}

static int device_attribute(enum cudaDeviceAttr attr)
{
    int value = 0;
    return cudaDeviceGetAttribute(&value, attr, 0) == cudaSuccess ? value : 0;
}

static void print_device(const char *runner, const bench_options *o)
{
    struct cudaDeviceProp prop;
    int driver = 0, runtime = 0;
    memset(&prop, 0, sizeof prop);
    cudaGetDeviceProperties(&prop, 0);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    char description[256];
    device_describe(description, sizeof description);
    printf("{\"type\":\"device\",\"runner\":");
    print_json_string(runner);
    printf(",\"name\":");
    print_json_string(prop.name);
    printf(",\"description\":");
    print_json_string(description);
    printf(",\"compute_capability\":\"%d.%d\",\"sms\":%d,\"l2_bytes\":%d,\"memory_bytes\":%zu,"
           "\"cuda_driver_api\":%d,\"cuda_runtime\":%d,\"sm_clock_khz\":%d,"
           "\"memory_clock_khz\":%d,\"runs\":%d,\"warmup\":%d,\"seed\":%llu}\n",
           prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, prop.totalGlobalMem,
           driver, runtime, device_attribute(cudaDevAttrClockRate),
           device_attribute(cudaDevAttrMemoryClockRate), o->plan.runs, o->plan.warmup, o->seed);
    fflush(stdout);
}

/* Parses `--runs N --seed S --dry-run`: 1, or 0 after the usage line. */
static int read_options(int argc, char **argv, const char *runner, bench_options *o)
{
    *o = (bench_options){
        .plan = {.warmup = DEFAULT_WARMUP, .runs = DEFAULT_RUNS, .launches_per_run = 1,
                 .flush_l2 = 1},
        .seed = 2024};
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--dry-run") == 0)
            o->dry_run = 1;
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1)
            o->plan.runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc &&
                 strtoull(argv[i + 1], NULL, 10) >= 1) /* 0: kernel_bench_array's fill */
            o->seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--runs N >= 1] [--seed S >= 1] [--dry-run]  (JSON "
                            "lines on stdout; grader/bench/bench.py runs this)\n", runner);
            return 0;
        }
    }
    return 1;
}

static void bench_plan(int points)
{
    printf("{\"type\":\"plan\",\"points\":%d}\n", points);
    fflush(stdout);
}

static const char *ROLE_NAMES[] = {"baseline", "kernel", "ceiling"};

/* How one row was measured (bench_rules.h): the warm-up runs it took to
 * settle, how many measurements were made, and whether the kept one was
 * within the spread limit. */
typedef struct {
    stats_summary ms;
    int settle_runs, tries, steady;
} measured;

static double rate_of(const bench_problem *p, const stats_summary *ms)
{
    return ms->median > 0 ? p->work / (ms->median * 1e6) : 0.0; /* per ms -> G per s */
}

/* The keys of one point that no measurement changes, as a result line and
 * --dry-run's line both begin. */
static void print_point(const char *type, const bench_problem *p, const bench_entry *e,
                        bench_role role)
{
    printf("{\"type\":\"%s\",\"lab\":%d,\"problem\":", type, p->lab);
    print_json_string(p->problem);
    printf(",\"size\":");
    print_json_string(p->size);
    printf(",\"x\":%.17g,\"work\":%.17g,\"unit\":", p->x, p->work);
    print_json_string(p->unit);
    printf(",\"kernel\":");
    print_json_string(e->name);
    printf(",\"label\":");
    print_json_string(e->label);
    printf(",\"role\":\"%s\",\"baseline\":", ROLE_NAMES[role]);
    print_json_string(p->baseline.name);
    printf(",\"ceiling\":");
    print_json_string(p->ceiling_name ? p->ceiling_name : "");
}

/* verified: 1 right, 0 wrong, -1 not compared. speedup < 0: not timed
 * against the baseline (the ceiling). */
static void print_result(const bench_problem *p, const bench_entry *e, bench_role role,
                         const measured *m, double speedup, int verified,
                         const bench_options *o)
{
    const stats_summary *ms = &m->ms;
    print_point("result", p, e, role);
    printf(",\"median_ms\":%.6g,\"min_ms\":%.6g,\"max_ms\":%.6g,\"runs\":%d,\"rate\":%.6g",
           ms->median, ms->min, ms->max, (int)ms->count, rate_of(p, ms));
    if (speedup >= 0)
        printf(",\"speedup\":%.6g", speedup);
    if (role == BENCH_CEILING) /* whether rows are held to it (bench_rules.h) */
        printf(",\"limit\":%s",
               bench_ceiling_is_limit(ms->median, p->over_bus) ? "true" : "false");
    printf(",\"spread\":%.4g,\"steady\":%s,\"tries\":%d,\"settle_runs\":%d",
           ms->min > 0 ? ms->max / ms->min : 0.0, m->steady ? "true" : "false", m->tries,
           m->settle_runs);
    printf(",\"verified\":%s,\"warmup\":%d}\n",
           verified < 0 ? "null" : verified ? "true" : "false", o->plan.warmup);
    fflush(stdout);
}

static int failed(const bench_problem *p, const bench_entry *e, int status)
{
    bench_note("lab %d %s %s: %s failed (status %d: %s); left out", p->lab, p->problem, p->size,
               e->name, status, lab_last_error());
    return status;
}

/* One untimed call into a poisoned output, waited for. */
static int call_once(const bench_problem *p, const bench_entry *e)
{
    if (p->out)
        device_fill_u32(p->out, GUARD_POISON_BITS, p->out_count);
    int status = e->launch(e->ctx);
    if (status == 0 && cudaDeviceSynchronize() != cudaSuccess)
        status = LAB_ERR_CUDA;
    return status;
}

/* Runs `e` until its time settles (bench_rules.h, steady_timing.h): the
 * clocks are up and the kernel's modules loaded before anything is timed.
 * Returns the runs it took, or a negative launch status (the bench's own
 * kernels return lab_status codes, all positive). */
static int settle(const bench_entry *e)
{
    int runs = 0, status = timing_settle(e->launch, e->ctx, &runs);
    return status ? -status : runs;
}

/* Whether a measurement must be made again (bench_rules.h). */
static int unsteady(const bench_problem *p, const stats_summary *ms)
{
    return bench_unsteady(ms->min, ms->median, ms->max, p->over_bus);
}

/* `e` settled, then timed (interleaved with `baseline`, or alone where it
 * is NULL: the baseline without kernels, the ceiling) until every timed
 * entry's spread is within its limit, the steadiest of the tries kept: `r`,
 * and in `kernel` and `base` (NULL when alone) how each was measured.
 * Returns 0 or the failing launch's status. */
static int measure_steadily(const bench_problem *p, const bench_entry *e,
                            const bench_entry *baseline, const bench_options *o,
                            timing_ab_result *r, measured *kernel, measured *base)
{
    measured unused;
    base = base ? base : &unused;
    *kernel = *base = (measured){.tries = 0};
    double kept = 0.0;
    for (int t = 0; t <= BENCH_REMEASURE_TRIES; ++t) {
        int settled = settle(e);
        if (settled < 0)
            return -settled;
        timing_ab_result now = {.status = 0};
        int status = baseline ? timing_interleaved(e->launch, e->ctx, baseline->launch,
                                                   baseline->ctx, &o->plan, NULL, &now)
                              : timing_measure(e->launch, e->ctx, &o->plan, NULL, &now.a_ms);
        if (status != 0)
            return status;
        double spread = steady_spread(&now.a_ms);
        if (baseline && steady_spread(&now.b_ms) > spread)
            spread = steady_spread(&now.b_ms);
        if (t == 0 || spread < kept) {
            *r = now;
            kept = spread;
            kernel->settle_runs = settled;
        }
        kernel->tries = base->tries = t + 1;
        kernel->ms = r->a_ms;
        base->ms = r->b_ms;
        kernel->steady = !unsteady(p, &r->a_ms);
        base->steady = !baseline || !unsteady(p, &r->b_ms);
        if (kernel->steady && base->steady)
            break;
    }
    return 0;
}

static int measure_alone(const bench_problem *p, const bench_entry *e, const bench_options *o,
                         measured *out)
{
    timing_ab_result r;
    return measure_steadily(p, e, NULL, o, &r, out, NULL);
}

static int above_ceiling(const bench_problem *p, const measured *kernel, const measured *ceiling)
{
    return bench_above_ceiling(rate_of(p, &kernel->ms), rate_of(p, &ceiling->ms),
                               bench_ceiling_slack(ceiling->ms.median, p->over_bus));
}

/* bench_run's status for a kernel measured faster than its ceiling twice. */
enum { BENCH_ABOVE_CEILING = -2000 };

static int bench_run(const bench_problem *p, const bench_options *o)
{
    float *want = NULL;
    int status = call_once(p, &p->baseline);
    if (status != 0)
        return failed(p, &p->baseline, status);
    if (p->out) {
        if (cudaMalloc((void **)&want, p->out_count * sizeof(float)) != cudaSuccess) {
            bench_note("lab %d %s %s: no GPU memory for the baseline's output; left out",
                       p->lab, p->problem, p->size);
            return LAB_ERR_CUDA;
        }
        cudaMemcpy(want, p->out, p->out_count * sizeof(float), cudaMemcpyDeviceToDevice);
    }
    int first_error = 0;
    /* The ceiling first, so that every kernel can be held against it. */
    measured ceiling = {.tries = 0};
    if (p->ceiling.launch && (status = measure_alone(p, &p->ceiling, o, &ceiling)) != 0) {
        first_error = failed(p, &p->ceiling, status);
        ceiling.tries = 0;
    }
    measured baseline = {.tries = 0};
    for (int k = 0; k < p->kernel_count; ++k) {
        const bench_entry *e = &p->kernels[k];
        status = call_once(p, e);
        int verified = -1;
        if (status == 0 && p->out)
            verified = device_count_mismatches(p->out, want, p->out_count, p->atol, p->rtol) == 0;
        timing_ab_result r;
        measured kernel, base;
        if (status == 0)
            status = measure_steadily(p, e, &p->baseline, o, &r, &kernel, &base);
        if (status == 0 && ceiling.tries && above_ceiling(p, &kernel, &ceiling)) {
            /* Once more, the ceiling too (the faster ceiling is kept). */
            measured again;
            if (measure_alone(p, &p->ceiling, o, &again) == 0 && again.ms.median < ceiling.ms.median)
                ceiling = again;
            status = measure_steadily(p, e, &p->baseline, o, &r, &kernel, &base);
            if (status == 0 && above_ceiling(p, &kernel, &ceiling)) {
                bench_note("lab %d %s %s: %s measured %.6g %s, above its ceiling %s (%.6g %s), "
                           "twice: an error of the measurement, left out",
                           p->lab, p->problem, p->size, e->name, rate_of(p, &kernel.ms), p->unit,
                           p->ceiling_name, rate_of(p, &ceiling.ms), p->unit);
                first_error = first_error ? first_error : BENCH_ABOVE_CEILING;
                continue;
            }
        }
        if (status != 0 && (p->optional_kernels >> k & 1u)) {
            bench_note("lab %d %s %s: %s, an optional stage, left out (status %d: %s)", p->lab,
                       p->problem, p->size, e->name, status, lab_last_error());
            continue;
        }
        if (status != 0) {
            first_error = first_error ? first_error : failed(p, e, status);
            continue;
        }
        if (baseline.tries == 0)
            baseline = base;
        print_result(p, e, BENCH_KERNEL, &kernel, r.ratio, verified, o);
    }
    if (baseline.tries == 0) { /* no kernel ran: time the baseline alone */
        status = measure_alone(p, &p->baseline, o, &baseline);
        if (status != 0)
            first_error = first_error ? first_error : failed(p, &p->baseline, status);
    }
    if (baseline.tries > 0)
        print_result(p, &p->baseline, BENCH_BASELINE, &baseline, 1.0, p->out ? 1 : -1, o);
    if (ceiling.tries > 0)
        print_result(p, &p->ceiling, BENCH_CEILING, &ceiling, -1.0, -1, o);
    if (want)
        cudaFree(want);
    return first_error;
}

/* ------------------------------------------------------ from the table */

enum { MAX_KERNELS = 16 };

static int in_problem(const kernel_row *row, int b, kernel_bench_role role)
{
    return (row->bench.problems & KERNEL_BENCH_IN(b)) && row->bench.role == role;
}

static const kernel_row *first_row(const kernel_table *t, int b, kernel_bench_role role)
{
    for (int i = 0; i < t->count; ++i)
        if (in_problem(&t->rows[i], b, role))
            return &t->rows[i];
    return NULL;
}

static const kernel_row *ceiling_row(const kernel_table *t, int b)
{
    const char *outside = t->bench[b].outside_ceiling;
    return outside ? kernel_bench_outside_ceiling(outside)
                   : first_row(t, b, KERNEL_BENCH_CEILING);
}

/* Problem b's kernels in the result file's order: the lab's, then the
 * graders' shown beside them. Returns how many (at most MAX_KERNELS). */
static int kernel_rows(const kernel_table *t, int b, const kernel_row *rows[MAX_KERNELS])
{
    static const kernel_bench_role ORDER[] = {KERNEL_BENCH_KERNEL, KERNEL_BENCH_BESIDE};
    int n = 0;
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < t->count && n < MAX_KERNELS; ++i)
            if (in_problem(&t->rows[i], b, ORDER[r]))
                rows[n++] = &t->rows[i];
    return n;
}

static int size_count(const kernel_bench_problem *bp)
{
    int n = 0;
    while (n < KERNEL_BENCH_SIZES && bp->sizes[n].name)
        ++n;
    return n;
}

int kernel_bench_points(const kernel_table *t)
{
    int points = 0;
    for (int b = 0; b < t->bench_count; ++b) {
        const kernel_row *rows[MAX_KERNELS];
        points += size_count(&t->bench[b]) *
                  (1 + kernel_rows(t, b, rows) + (ceiling_row(t, b) ? 1 : 0));
    }
    return points;
}

static bench_entry entry_of(const kernel_row *row, kernel_call *call)
{
    return (bench_entry){row->bench.key, row->bench.label, kernel_call_launch, call};
}

/* Problem b at its size s as its result lines name it, the work per launch
 * from `size` (the setup's where there is one); the entries have no call
 * yet. */
static bench_problem problem_at(const kernel_table *t, int b, int s, const kernel_row *baseline,
                                const kernel_row *ceiling, const long *size)
{
    const kernel_bench_problem *bp = &t->bench[b];
    int flops = baseline->flops != NULL;
    bench_problem p = {
        .lab = atoi(t->lab + 3), .problem = bp->problem, .size = bp->sizes[s].name,
        .x = (double)bp->sizes[s].size[0],
        .work = flops ? kernel_row_flops(baseline, size) : kernel_row_bytes(baseline, size),
        .unit = flops ? "GFLOP/s" : "GB/s", .over_bus = bp->over_bus,
        .baseline = entry_of(baseline, NULL)};
    if (ceiling) {
        p.ceiling = entry_of(ceiling, NULL);
        p.ceiling_name = ceiling->bench.ceiling;
    }
    return p;
}

/* --dry-run: one line per result the bench would print, with the keys
 * that do not depend on a measurement, in the same order (a setup's
 * ceiling label, lab 6's, is the row's here). The course's tests compare
 * them with a committed result file (grader/bench/tests/). */
static void dry_run(const kernel_table *t)
{
    for (int b = 0; b < t->bench_count; ++b) {
        const kernel_row *baseline = first_row(t, b, KERNEL_BENCH_BASELINE),
                         *ceiling = ceiling_row(t, b), *rows[MAX_KERNELS + 2];
        if (!baseline)
            continue;
        int count = kernel_rows(t, b, rows);
        bench_role roles[MAX_KERNELS + 2];
        for (int k = 0; k < count; ++k)
            roles[k] = BENCH_KERNEL;
        roles[count] = BENCH_BASELINE;
        rows[count++] = baseline;
        if (ceiling) {
            roles[count] = BENCH_CEILING;
            rows[count++] = ceiling;
        }
        for (int s = 0; s < size_count(&t->bench[b]); ++s) {
            bench_problem p = problem_at(t, b, s, baseline, ceiling, t->bench[b].sizes[s].size);
            for (int k = 0; k < count; ++k) {
                bench_entry e = entry_of(rows[k], NULL);
                print_point("dry_run", &p, &e, roles[k]);
                printf(",\"optional\":%s}\n", rows[k]->bench.optional ? "true" : "false");
            }
        }
    }
}

/* Problem b at its size s: set up by the table, timed, torn down. */
static int bench_size(const kernel_table *t, int b, int s, const bench_options *o)
{
    const kernel_bench_problem *bp = &t->bench[b];
    const kernel_bench_size *size = &bp->sizes[s];
    const kernel_row *baseline = first_row(t, b, KERNEL_BENCH_BASELINE),
                     *ceiling = ceiling_row(t, b), *rows[MAX_KERNELS];
    int count = kernel_rows(t, b, rows), lab = atoi(t->lab + 3);
    if (!baseline) {
        bench_note("lab %d %s: no baseline row in the kernel table", lab, bp->problem);
        return 1;
    }
    kernel_problem p;
    memset(&p, 0, sizeof p);
    p.seed = o->seed;
    p.plan = &o->plan;
    int status = 1;
    if (!t->setup(KERNEL_BENCH, size->size, &p)) {
        bench_note("lab %d %s %s: the table's setup failed (see the log); left out", lab,
                   bp->problem, size->name);
    } else {
        if (p.note[0])
            bench_note("%s", p.note);
        kernel_call base = {baseline, p.args}, top = {ceiling, p.args}, calls[MAX_KERNELS];
        if (p.ceiling_out)
            top.args.out = p.ceiling_out;
        bench_entry kernels[MAX_KERNELS];
        unsigned optional = 0;
        for (int k = 0; k < count; ++k) {
            calls[k] = (kernel_call){rows[k], p.args};
            kernels[k] = entry_of(rows[k], &calls[k]);
            optional |= rows[k]->bench.optional ? 1u << k : 0u;
        }
        kernel_tolerance tol = bp->tolerance ? bp->tolerance(p.args.size)
                                             : (kernel_tolerance){0.0, 0.0};
        bench_problem problem = problem_at(t, b, s, baseline, ceiling, p.args.size);
        problem.baseline.ctx = &base;
        problem.kernels = kernels;
        problem.kernel_count = count;
        problem.optional_kernels = optional;
        problem.out = bp->compared ? p.args.out : NULL;
        problem.out_count = p.checked;
        problem.atol = tol.atol;
        problem.rtol = tol.rtol;
        if (ceiling) {
            problem.ceiling.ctx = &top;
            if (p.ceiling_label)
                problem.ceiling.label = p.ceiling_label;
        }
        status = bench_run(&problem, o);
    }
    if (t->teardown)
        t->teardown(&p);
    kernel_bench_release();
    return status;
}

int kernel_bench_main(const kernel_table *t, int argc, char **argv)
{
    char runner[64];
    snprintf(runner, sizeof runner, "%s_kernels bench", t->lab);
    bench_options o;
    if (!read_options(argc, argv, runner, &o))
        return 2;
    if (t->bench_count == 0) {
        fprintf(stderr, "%s: the kernel table has no bench problems\n", runner);
        return 2;
    }
    if (o.dry_run) {
        dry_run(t);
        return 0;
    }
    if (device_count() == 0) {
        char why[256];
        device_describe(why, sizeof why);
        fprintf(stderr, "%s: nothing to run: %s\n", runner, why);
        return 77;
    }
    print_device(runner, &o);
    bench_plan(kernel_bench_points(t));
    int first_error = 0;
    for (int b = 0; b < t->bench_count; ++b)
        for (int s = 0; s < size_count(&t->bench[b]); ++s) {
            int status = bench_size(t, b, s, &o);
            first_error = first_error ? first_error : status;
        }
    return first_error != 0;
}
