/* Lab 4, section 7: the control experiment for the duty-cycle argument.
 *
 *   measure_lab4_control [ROWSxCOLS]        default 8192x8192
 *
 * The handout explains why (b) and (c) stay far below cudaMemcpy while (d)
 * nearly reaches it by each block's duty cycle (loads, barrier, shared
 * phase, stores, block turnover), not by the turning round. A copy with the
 * same block structure and nothing turned round tests that: if it runs
 * near (c) with 32 x 32 threads and near (d) with 32 x 8, the structure is
 * what costs; if it runs near cudaMemcpy, the argument is wrong. The
 * register copies (same blocks, no tile, no barrier) split the structure's
 * cost into the blocks' shape and the barrier with its shared phase.
 *
 * Every kernel is timed interleaved with cudaMemcpy device to device (the
 * yardstick of lab 4's gpu_multirow_fraction_of_copy), so each fraction is
 * a ratio of two medians of the same runs, the graders' way; the copy
 * kernel (grader/baselines, make time-lab4's yardstick for (d)) is a row of
 * its own. Every output is compared bit for bit after its runs. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab4.h"
#include "lab4_baselines.h"
#include "lab4_tile_copy.h"
#include "measure_common.h"

#define PROGRAM "measure_lab4_control"

typedef enum { MEMCPY, COPY_KERNEL, REGISTER_COPY, TILE_COPY, NAIVE, UNPADDED, LAB4 } kind;

typedef struct {
    const char *label, *threads;
    kind what;
    int arg; /* rows per block for the copies, the lab4_version for LAB4 */
} item;

typedef struct {
    const item *it;
    const float *in;
    float *out;
    int rows, cols;
} call;

static const item ITEMS[] = {
    {"cudaMemcpy device to device", "-", MEMCPY, 0},
    {"copy kernel (grader/baselines)", "256", COPY_KERNEL, 0},
    {"register copy, no tile, no barrier", "32x32", REGISTER_COPY, LAB4_TILE},
    {"register copy, no tile, no barrier", "32x8", REGISTER_COPY, LAB4_BLOCK_ROWS},
    {"tile copy (padded tile, barrier)", "32x32", TILE_COPY, LAB4_TILE},
    {"tile copy (padded tile, barrier)", "32x8", TILE_COPY, LAB4_BLOCK_ROWS},
    {"(a) naive transpose (grader's)", "32x8", NAIVE, 0},
    {"(b) unpadded tile (grader's)", "32x32", UNPADDED, 0},
    {"(b) lab4_transpose smem", "32x32", LAB4, LAB4_SMEM},
    {"(c) lab4_transpose padded", "32x32", LAB4, LAB4_PADDED},
    {"(d) lab4_transpose multirow", "32x8", LAB4, LAB4_MULTIROW},
};
enum { ITEM_COUNT = sizeof ITEMS / sizeof ITEMS[0] };

static int launch(void *ctx)
{
    const call *c = ctx;
    size_t n = (size_t)c->rows * (size_t)c->cols;
    switch (c->it->what) {
    case MEMCPY:
        return baseline_memcpy_floats(c->in, c->out, n);
    case COPY_KERNEL:
        return baseline_copy_floats(c->in, c->out, n);
    case REGISTER_COPY:
        return lab4_register_copy(c->in, c->out, c->rows, c->cols, c->it->arg);
    case TILE_COPY:
        return lab4_tile_copy(c->in, c->out, c->rows, c->cols, c->it->arg);
    case NAIVE:
        return lab4_baseline_naive(c->in, c->out, c->rows, c->cols);
    case UNPADDED:
        return lab4_baseline_unpadded(c->in, c->out, c->rows, c->cols);
    case LAB4:
        return lab4_transpose((lab4_version)c->it->arg, c->in, c->out, c->rows, c->cols);
    }
    return LAB_ERR_UNSUPPORTED;
}

int main(int argc, char **argv)
{
    int rows = 8192, cols = 8192;
    if (argc > 2 || (argc == 2 && (sscanf(argv[1], "%dx%d", &rows, &cols) != 2 || rows < 1 ||
                                   cols < 1 || (long long)rows * cols > (1LL << 28)))) {
        fprintf(stderr, "usage: %s [ROWSxCOLS]   (default 8192x8192, at most 2^28 floats)\n",
                argv[0]);
        return 2;
    }
    if (!measure_start("Lab 4 control: copies with the transpose kernels' block shapes", argc,
                       argv))
        return MEASURE_NO_DEVICE;
    const timing_plan plan = {.warmup = 3, .runs = 21, .launches_per_run = 1, .flush_l2 = 1};
    size_t n = (size_t)rows * (size_t)cols;
    printf("size:    %d x %d floats (%zu MiB each way); GB/s counts bytes read + written\n",
           rows, cols, (n * sizeof(float)) >> 20);
    measure_print_plan(&plan);
    printf("         each kernel interleaved with cudaMemcpy (A B A B); %% of cudaMemcpy = "
           "median(memcpy ms) / median(kernel ms),\n         its spread the lowest and highest "
           "of the per-pair ratios\n\n");

    const float *in = measure_device_floats(PROGRAM, n, 20261121);
    float *out = measure_device_floats(PROGRAM, n, 2), *want = measure_device_floats(PROGRAM, n, 3);
    float *copy_out = measure_device_floats(PROGRAM, n, 4);
    if (!in || !out || !want || !copy_out)
        return 1;
    /* The transpose every transposing kernel must match, made once. */
    if (lab4_baseline_naive(in, want, rows, cols) != LAB_OK ||
        cudaDeviceSynchronize() != cudaSuccess) {
        printf("%s: the grader's naive transpose failed: %s\n", PROGRAM, lab_last_error());
        return 1;
    }

    printf("%-36s %-7s %10s %22s %24s %9s\n", "kernel", "threads", "median ms", "GB/s (min .. max)",
           "% of cudaMemcpy (pairs)", "% of copy");
    double copy_kernel_gbps = 0.0;
    int failed = 0;
    for (int i = 0; i < ITEM_COUNT; ++i) {
        const item *it = &ITEMS[i];
        call mine = {it, in, out, rows, cols};
        call memcpy_call = {&ITEMS[0], in, copy_out, rows, cols};
        timing_ab_result r;
        measure_poison(out, n);
        int status = timing_interleaved(launch, &mine, launch, &memcpy_call, &plan, NULL, &r);
        if (status != 0) {
            printf("%-36s %-7s not timed: %s (%s)\n", it->label, it->threads,
                   lab_status_name((lab_status)status), lab_last_error());
            failed = 1;
            continue;
        }
        const float *expected = it->what >= NAIVE ? want : in;
        size_t wrong = measure_count_mismatches(out, expected, n);
        if (wrong == (size_t)-1) {
            printf("%-36s %-7s not checked: the comparison on the GPU failed\n", it->label,
                   it->threads);
            failed = 1;
            continue;
        }
        if (wrong != 0) {
            printf("%-36s %-7s WRONG RESULT: %zu of %zu elements differ; the time means nothing\n",
                   it->label, it->threads, wrong, n);
            failed = 1;
            continue;
        }
        stats_summary gbps = measure_rate(&r.a_ms, 2.0 * (double)n * sizeof(float), 1e9);
        if (it->what == COPY_KERNEL)
            copy_kernel_gbps = gbps.median;
        char rate[64], fraction[64], of_copy[16] = "";
        snprintf(rate, sizeof rate, "%.0f (%.0f .. %.0f)", gbps.median, gbps.min, gbps.max);
        snprintf(fraction, sizeof fraction, "%.1f (%.1f .. %.1f)", 100.0 * r.ratio,
                 100.0 * r.pair_ratio.min, 100.0 * r.pair_ratio.max);
        if (copy_kernel_gbps > 0)
            snprintf(of_copy, sizeof of_copy, "%.1f", 100.0 * gbps.median / copy_kernel_gbps);
        printf("%-36s %-7s %10.4f %22s %24s %9s\n", it->label, it->threads, r.a_ms.median, rate,
               fraction, of_copy);
        fflush(stdout);
    }
    printf("\nReading it: the tile copies have the life cycle of (c) (32x32) and (d) (32x8) -\n"
           "load, __syncthreads, shared phase, store, block turnover - without the transpose\n"
           "(rows stored where they were loaded, each warp storing a row another warp loaded).\n"
           "Near (c) and (d): the block structure sets the pace. Near cudaMemcpy: it does not.\n"
           "The register copies remove the tile and the barrier but keep the blocks.\n");
    return failed;
}
