/* Lab 5's kernel table: the student's six reduction stages over N floats,
 * each against the grader's own divergent reduction (stage (1) as the
 * grader writes it, the yardstick of gpu_sequential_speed_vs_divergent);
 * GB/s counts the bytes read. Stages (4)-(6) are extensions. Each sum is
 * checked against the grader's divergent sum of the same input; the race
 * rows sum small integers, so every right sum is exact. The ceiling is a
 * row too: a cudaMemcpy of n/2 floats, which reads and writes as many
 * bytes as a sum reads (make bench's ceiling, and what the graded
 * fraction-of-copy checks time the stages against). Every stage launches
 * kernels of its own (stage identity, kernel_table.h): what differs between
 * them is the lesson, so none may share another's kernel. */
#include <math.h>
#include <stdlib.h>

#include "copy_baseline.h"
#include "lab5.h"
#include "lab5_baselines.h"
#include "lab5_kernels.h"
#include "time_kernels.h"


#define SUM_ADAPTER(name, fn) \
    static int name(const kernel_args *a) { return fn(a->in[0], a->out, (int)a->size[0]); }
SUM_ADAPTER(grader_divergent, lab5_baseline_sum_divergent)
SUM_ADAPTER(divergent, lab5_sum_divergent)
SUM_ADAPTER(strided, lab5_sum_strided)
SUM_ADAPTER(sequential, lab5_sum_sequential)
SUM_ADAPTER(first_add, lab5_sum_first_add)
SUM_ADAPTER(warp_shuffle, lab5_sum_warp_shuffle)
SUM_ADAPTER(grid_stride, lab5_sum_grid_stride)

/* The copy's output is args.out, n/2 floats (make bench gives it its own). */
static int memcpy_half(const kernel_args *a)
{
    return baseline_memcpy_floats(a->in[0], a->out, (size_t)(a->size[0] / 2));
}

static double bytes_read(const kernel_size size) { return (double)size[0] * sizeof(float); }

/* Twice the graders' tolerance (lab5_gpu_checks.c, sum_tolerance: n *
 * 2^-25 plus four roundings of the sum), since both sums round: the two
 * may sit on opposite sides of the exact one. */
static kernel_tolerance sum_tolerance(const kernel_size size)
{
    return (kernel_tolerance){ldexp((double)size[0], -24), 8.0 * ldexp(1.0, -24)};
}

/* The graders' speed checks time every stage on 2^27 floats (512 MiB: ten
 * times an H100's L2, about 0.2 ms at copy speed, so that launch overheads
 * are a few percent), against its yardstick or the ceiling below. */
#define STAGE(fn, ext) .launch = fn, .modes = KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE, \
    .yardstick = LAB5_ROW_GRADER_DIVERGENT, .extension = ext, .bytes = bytes_read, \
    .want = KERNEL_WANT_YARDSTICK, .tolerance = sum_tolerance, .graded_size = {1L << 27}, \
    .stage = 1

/* make bench: the six stages against the grader's divergent stage, with
 * the copy of n/2 floats as the ceiling (the result file's keys and labels). */
#define SUM KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {SUM, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB5_ROW_COUNT] = {
    [LAB5_ROW_GRADER_DIVERGENT] = {.name = "grader's divergent", .launch = grader_divergent,
                                   .yardstick = LAB5_ROW_GRADER_DIVERGENT,
                                   .bytes = bytes_read,
                                   BENCH(BASELINE, "grader_divergent",
                                         "the grader's divergent stage (1)")},
    [LAB5_ROW_MEMCPY_HALF] = {.name = "cudaMemcpy of n/2 floats", .launch = memcpy_half,
                              .yardstick = LAB5_ROW_MEMCPY_HALF, .bytes = bytes_read,
                              .bench = {SUM, KERNEL_BENCH_CEILING, "memcpy",
                                        "cudaMemcpy of n/2 floats (the same bytes)",
                                        .ceiling = "memcpy_d2d"}},
    [LAB5_ROW_DIVERGENT] = {.name = "(1) lab5_sum_divergent", STAGE(divergent, 0),
                            BENCH(KERNEL, "divergent", "(1) interleaved pairs, divergent")},
    [LAB5_ROW_STRIDED] = {.name = "(2) lab5_sum_strided", STAGE(strided, 0),
                          BENCH(KERNEL, "strided", "(2) contiguous threads, bank conflicts")},
    [LAB5_ROW_SEQUENTIAL] = {.name = "(3) lab5_sum_sequential", STAGE(sequential, 0),
                             BENCH(KERNEL, "sequential", "(3) sequential addressing")},
    [LAB5_ROW_FIRST_ADD] = {.name = "(4) lab5_sum_first_add (ext.)", STAGE(first_add, 1),
                            BENCH(KERNEL, "first_add", "(4) first add during the load")},
    [LAB5_ROW_WARP_SHUFFLE] = {.name = "(5) lab5_sum_warp_shuffle (ext.)",
                               STAGE(warp_shuffle, 1),
                               BENCH(KERNEL, "warp_shuffle", "(5) last warp with shuffles")},
    [LAB5_ROW_GRID_STRIDE] = {.name = "(6) lab5_sum_grid_stride (ext.)",
                              STAGE(grid_stride, 1),
                              BENCH(KERNEL, "grid_stride", "(6) grid-stride, float4, one wave")},
};

/* Race: integers in [-3, 3], so every partial sum is exact in float at
 * these sizes, and their sum on the host. */
static int setup_race(size_t n, kernel_problem *p)
{
    float *host = kernel_host_integers(n, 5, -3, 3);
    float *want = malloc(sizeof *want);
    if (!host || !want)
        return 0;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += host[i];
    *want = (float)sum;
    p->args.in[0] = kernel_device_array("race runner", host, n);
    p->args.out = kernel_device_array("race runner", NULL, 1);
    p->reference[0] = want;
    p->checked = 1;
    free(host);
    return p->args.in[0] && p->args.out;
}

/* Profile: ones are enough, since nothing checks the sums there; only the
 * kernels' work is profiled (the grader checks the sums on awkward inputs). */
static int setup_profile(size_t n, kernel_problem *p)
{
    float *host = malloc(n * sizeof *host);
    if (!host)
        return 0;
    for (size_t i = 0; i < n; ++i)
        host[i] = 1.0f;
    p->args.in[0] = kernel_device_array("lab5_profile", host, n);
    p->args.out = kernel_device_array("lab5_profile", NULL, 1);
    free(host);
    return p->args.in[0] && p->args.out;
}

/* Bench: all ones, so every partial sum is an integer a float holds
 * exactly and every stage must agree with the baseline to the last bit;
 * the ceiling copies n/2 floats into an array of its own. */
static int setup_bench(size_t n, kernel_problem *p)
{
    p->args.in[0] = kernel_bench_array(n, 0, 1.0f);
    p->args.out = kernel_bench_array(1, 0, 0.0f);
    p->ceiling_out = kernel_bench_array(n / 2, 0, 0.0f);
    p->checked = 1;
    return p->args.in[0] && p->args.out && p->ceiling_out;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0];
    p->args.size[0] = size[0];
    if (mode == KERNEL_BENCH)
        return setup_bench(n, p);
    if (mode == KERNEL_RACE)
        return setup_race(n, p);
    if (mode == KERNEL_PROFILE)
        return setup_profile(n, p);
    p->args.in[0] = time_device_floats("lab5", n, 1);
    p->args.out = time_device_floats("lab5", 1, 2);
    p->yardstick_out = time_device_floats("lab5", 1, 3);
    p->checked = 1;
    return p->args.in[0] && p->args.out && p->yardstick_out;
}

const kernel_table lab_kernel_table = {
    .lab = "lab5",
    .rows = ROWS,
    .count = LAB5_ROW_COUNT,
    .time = {1, 0x7fffffffL, "67108864"},
    .profile = {1, 0x7fffffffL, "67108864"},
    .race = {1, 1L << 20, "5000"}, /* 19 full blocks and a part */
    .setup = setup,
    .bench = {{"sum", {{"2^24", {1L << 24}}, {"2^26", {1L << 26}}, {"2^27", {1L << 27}}},
               .compared = 1}},
    .bench_count = 1,
};
