/* Stage identity (stage_identity.h): every stage row of a lab's kernel
 * table run once on the table's race problem, and the student's kernels
 * each launched compared. */
#include "stage_identity.h"

#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "harness.h"
#include "launch_watch.h"

/* Kernels kept per stage: a stage launches one or two; past this many the
 * rest are still compared through the first ones kept. */
enum { STAGE_KERNELS_KEEP = 16, STAGE_ROWS_MAX = 32 };

typedef struct {
    int ran;                 /* 1: the stage ran and its launches were read */
    int count;
    char names[STAGE_KERNELS_KEEP][LAUNCH_NAME_SIZE];
} stage_kernels;

int stage_identity_may_share(const kernel_table *table, int a, int b)
{
    return (table->rows[a].shares & KERNEL_ROW_BIT(b)) ||
           (table->rows[b].shares & KERNEL_ROW_BIT(a));
}

static void keep(stage_kernels *k, const char *name)
{
    for (int i = 0; i < k->count; ++i)
        if (strcmp(k->names[i], name) == 0)
            return;
    if (k->count < STAGE_KERNELS_KEEP)
        snprintf(k->names[k->count++], LAUNCH_NAME_SIZE, "%s", name);
}

/* Runs row `i` once on its race problem and keeps the student's kernels it
 * launched. Returns 0 when CUDA failed (the context may be lost: stop). */
static int run_stage(const kernel_table *t, int i, stage_kernels *k)
{
    const kernel_row *row = &t->rows[i];
    const char *text = row->race_size ? row->race_size : t->race.fallback;
    kernel_size size;
    kernel_problem problem;
    memset(&problem, 0, sizeof problem);
    if (!kernel_size_parse(text, t->race.dims, t->race.max_each, size) ||
        !t->setup(KERNEL_RACE, size, &problem))
        GRADER_FAIL("stage identity: the grader could not set up %s's small problem (%s): a "
                    "problem of the grading machine, not of your code.", row->name, text);
    char call[160];
    snprintf(call, sizeof call, "%s (once, on %s, to see which kernels it launches)", row->name,
             text);
    grader_watch(call, grader_call_limit_s(0.0, 0.0));
    launch_watch_begin(call);
    (void)row->launch(&problem.args);
    launch_watch_end();
    cudaError_t err = cudaDeviceSynchronize();
    grader_unwatch();
    int count = 0;
    const launch_record *launched = launch_watch_last(&count);
    for (int j = 0; j < count; ++j)
        if (launched[j].students && launched[j].name[0])
            keep(k, launched[j].name);
    if (t->teardown)
        t->teardown(&problem);
    if (err != cudaSuccess) {
        grader_note("stage identity: %s failed on its small problem (%s), so the stages after "
                    "it were not compared with this one", row->name, cudaGetErrorString(err));
        return 0;
    }
    k->ran = 1;
    return 1;
}

static int launches(const stage_kernels *k, const char *name)
{
    for (int i = 0; i < k->count; ++i)
        if (strcmp(k->names[i], name) == 0)
            return 1;
    return 0;
}

void stage_identity_expect_own(const kernel_table *table, int row)
{
    if (!launch_watch_active()) {
        grader_note("stage identity not checked: this process does not watch launches");
        return;
    }
    if (table->count > STAGE_ROWS_MAX || row < 0 || row >= table->count ||
        !table->rows[row].stage)
        GRADER_FAIL("stage identity: %s has no stage row %d (a grader bug, please report it)",
                    table->lab, row);
    static stage_kernels seen[STAGE_ROWS_MAX];
    memset(seen, 0, sizeof seen);
    /* The other stages run without judging their kernels: a library's
     * kernel in another stage fails that stage's tests, not this one. This
     * stage's own calls were judged by its test already. */
    launch_watch_judge(0);
    int fine = run_stage(table, row, &seen[row]);
    for (int i = 0; fine && i < table->count; ++i)
        if (i != row && table->rows[i].stage)
            fine = run_stage(table, i, &seen[i]);
    launch_watch_judge(1);
    for (int n = 0; n < seen[row].count; ++n) {
        const char *name = seen[row].names[n];
        for (int i = 0; i < table->count; ++i) {
            if (i == row || !seen[i].ran || !launches(&seen[i], name) ||
                stage_identity_may_share(table, row, i))
                continue;
            char shown[LAUNCH_NAME_SIZE];
            activity_kernel_short_name(name, shown, sizeof shown);
            GRADER_FAIL("%s launched the kernel %s, which %s launches too: each stage must run "
                        "a kernel of its own, since what differs between the stages' kernels "
                        "is what the lab teaches. A stage that runs another stage's kernel "
                        "earns nothing (and the grader cannot tell which of the two the kernel "
                        "was written for). Write this stage's kernel and launch it here.",
                        table->rows[row].name, shown, table->rows[i].name);
        }
    }
}
