/* Stage identity: each of a lab's stages launches kernels of its own.
 *
 * Why: the launch watch proves a stage's kernel is the student's, not which
 * one. A lab of stages (lab 5's sums, lab 7's tiles) teaches what differs
 * between their kernels; a stage launching another stage's kernel (lab 5's
 * divergent stage running the sequential kernel) got right, fast results
 * and full marks without that difference.
 *
 * How: the kernel table marks stage rows and the kernels they may share
 * (kernel_table.h, `stage` and `shares`). Tests run in separate processes,
 * so this test runs each stage row once on the table's small race problem
 * and compares the mangled names the launch watch recorded. A kernel that
 * this stage and another launch, unless the table lets them share it, fails
 * this stage's test, naming the kernel and the other stage; which stage it
 * was written for is unknowable, so both stages' tests fail.
 *
 * Not seen: a renamed copy of another stage's kernel; the batch's review
 * list compares machine code for that (grader/batch/object_review.py). */
#ifndef STAGE_IDENTITY_H
#define STAGE_IDENTITY_H

#include "kernel_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fails the test (GRADER_FAIL) when the stage of `table`'s row `row`
 * launches a kernel that another stage row launches too, and neither row
 * lists the other in `shares`. Call it after the stage's own checks: it
 * runs the other stages, and a stage that faults ends the checking there
 * (with a note), since the CUDA context is then lost. Where launches are
 * not watched, a note says "stage identity not checked". */
void stage_identity_expect_own(const kernel_table *table, int row);

/* Whether two stage rows may launch the same kernel (tests of the rule). */
int stage_identity_may_share(const kernel_table *table, int a, int b);

#ifdef __cplusplus
}
#endif

#endif
