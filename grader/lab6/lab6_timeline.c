/* make plot-lab6: what the GPU did during each timeline row of lab 6's
 * kernel table (lab6_kernels.c: the grader's serial pipeline and yours),
 * as CSV for grader/lab6/plot_timeline.py and make bench.
 *
 *   lab6_timeline OUT.csv [SIZE]     SIZE: n x streams x chunks x work,
 *                                    as make profile-lab6 takes it
 *
 * The table's setup makes the problem, as for every other program that
 * reads it. The default size is the picture's, not the graded one: 2^24
 * floats in 8 streams x 32 chunks keeps each operation wide enough to see.
 * Rows: run (the row's bench key: serial, streamed), stream (0, 1, ... in
 * order of first appearance within the run), stage (H2D, kernel, D2H),
 * start and end in microseconds from the run's first operation. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "device_info.h"
#include "kernel_table.h"
#include "lab_status.h"

static const char PICTURE_SIZE[] = "16777216x8x32x1024";

static void write_run(FILE *out, const char *run, const activity_log *log)
{
    unsigned ids[64];
    int id_count = 0;
    unsigned long long t0 = 0;
    for (size_t i = 0; i < log->count; ++i) {
        const activity_event *e = &log->events[i];
        const char *stage = e->kind == ACTIVITY_KERNEL                                   ? "kernel"
                            : e->kind == ACTIVITY_MEMCPY && e->copy == COPY_HOST_TO_DEVICE ? "H2D"
                            : e->kind == ACTIVITY_MEMCPY && e->copy == COPY_DEVICE_TO_HOST ? "D2H"
                                                                                          : NULL;
        if (stage == NULL)
            continue;
        if (t0 == 0)
            t0 = e->start_ns; /* the log is sorted by start time */
        int row = 0;
        while (row < id_count && ids[row] != e->stream_id)
            ++row;
        if (row == id_count && id_count < 64)
            ids[id_count++] = e->stream_id;
        fprintf(out, "%s,%d,%s,%.3f,%.3f\n", run, row, stage, (e->start_ns - t0) / 1e3,
                (e->end_ns - t0) / 1e3);
    }
}

/* One run of `row`, recorded into `log`: 0, or 1 after saying why not. */
static int record(const kernel_row *row, const kernel_args *args, activity_log *log)
{
    char why[512];
    if (activity_start(why, sizeof why) != 0) {
        fprintf(stderr, "lab6_timeline: cannot record the GPU: %s\n", why);
        return 1;
    }
    int status = row->launch(args);
    cudaError_t synced = cudaDeviceSynchronize();
    activity_stop(log);
    if (status != LAB_OK || synced != cudaSuccess) {
        fprintf(stderr, "lab6_timeline: the %s run failed: %s\n", row->name,
                status != LAB_OK ? lab_last_error() : cudaGetErrorString(synced));
        activity_log_free(log);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const kernel_table *t = &lab_kernel_table;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s OUT.csv [SIZE]   (SIZE: n x streams x chunks x work, "
                        "default %s)\n", argv[0], PICTURE_SIZE);
        return 2;
    }
    kernel_size size;
    const char *text = argc == 3 ? argv[2] : PICTURE_SIZE;
    if (!kernel_size_parse(text, t->profile.dims, t->profile.max_each, size)) {
        fprintf(stderr, "lab6_timeline: SIZE=%s: give %d numbers joined by 'x', each 1..%ld\n",
                text, t->profile.dims, t->profile.max_each);
        return 2;
    }
    /* Without a GPU every CUDA call fails, and the first is the student's
     * cudaMallocHost: say what is missing, not which TODO failed. Like make
     * time-lab6, this is not a failure: no file, exit 0 (the Makefile
     * draws only a file that was written). */
    if (device_count() == 0) {
        printf("make plot-lab6: needs a CUDA GPU, and none is visible here (nothing was "
               "recorded).\n");
        return 0;
    }
    kernel_problem p;
    memset(&p, 0, sizeof p);
    if (!t->setup(KERNEL_TIMELINE, size, &p))
        return 1;
    /* Each row twice, the first recording thrown away: module loading,
     * first touches and whatever CUPTI does when it starts recording stay
     * out of the picture. (After an unrecorded warm-up only, the recorded
     * streamed run's first kernel started 0.85 ms late on an H100.) */
    activity_log logs[8];
    const kernel_row *rows[8];
    int count = 0, failed = 0;
    for (int i = 0; i < t->count && count < 8 && !failed; ++i) {
        if (!(t->rows[i].modes & KERNEL_TIMELINE))
            continue;
        rows[count] = &t->rows[i];
        activity_log warm_up;
        failed = record(rows[count], &p.args, &warm_up);
        if (!failed) {
            activity_log_free(&warm_up);
            failed = record(rows[count], &p.args, &logs[count]);
            count += !failed;
        }
    }
    FILE *out = failed ? NULL : fopen(argv[1], "w");
    if (!failed && !out)
        perror(argv[1]);
    if (out) {
        fprintf(out, "run,stream,stage,start_us,end_us\n");
        for (int r = 0; r < count; ++r)
            write_run(out, rows[r]->bench.key, &logs[r]);
        fclose(out);
        printf("wrote %s (%ld floats, %ld streams, %ld chunks, work %ld)\n", argv[1], size[0],
               size[1], size[2], size[3]);
    }
    for (int r = 0; r < count; ++r)
        activity_log_free(&logs[r]);
    if (t->teardown)
        t->teardown(&p);
    return out ? 0 : 1;
}
