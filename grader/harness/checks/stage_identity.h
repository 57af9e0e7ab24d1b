/* Stage identity: each of a lab's stages launches kernels of its own.
 *
 * Why: the launch watch (launch_watch.h) proves that a stage's kernel is
 * the student's, not which of the student's kernels it is. A lab of stages
 * (lab 5's divergent, strided and sequential sums; lab 7's 1D tile to warp
 * tile) teaches what differs between their kernels, and a stage that
 * launches another stage's kernel gives right, fast results without that
 * difference: lab 5's divergent stage running the sequential kernel, lab
 * 7's vectorised stage running the warp tile's, kept full marks.
 *
 * How: the lab's kernel table marks its stage rows and the kernels they
 * may share on purpose (kernel_table.h, `stage` and `shares`). Every test
 * runs in its own process, so a record of what other tests launched does
 * not exist here; instead the check runs each stage row once, in this test,
 * on the table's small race problem, and compares the kernels the launch
 * watch recorded (mangled names, compiled from the student's file: any
 * names will do). A kernel that this stage and another one launch, unless
 * the table lets the two share it, fails this stage's test, naming the
 * kernel and the other stage. The grader cannot tell which of the two the
 * kernel was written for, so both stages' tests fail.
 *
 * What it does not see: a renamed copy of another stage's kernel has a name
 * of its own. The batch's review list compares the kernels' machine code
 * for that (grader/batch/object_review.py). */
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
