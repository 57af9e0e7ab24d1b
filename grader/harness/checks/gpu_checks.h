/* The steps every GPU correctness check repeats, each failing the test with
 * a message that says what went wrong and where to read about it. */
#ifndef GPU_CHECKS_H
#define GPU_CHECKS_H

#include "compare.h"
#include "device_buffer.h"
#include "harness.h"
#include "lab_status.h"
#include "launch_shape.h"
#include "launch_watch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The entry point must have returned LAB_OK, and the kernel it launched must
 * finish without a fault (synchronises). `call` describes it for messages. */
void gpu_expect_ok_status(lab_status status, const char *call);

/* gpu_expect_ok(lab1_vector_add(...), call): the same, with the watchdog
 * armed before the entry point runs, so a kernel that never finishes (or an
 * entry point that waits for one) ends the test in seconds, naming `call`;
 * and every kernel the call launches must be the student's own
 * (launch_watch.h). */
#define gpu_expect_ok(entry_call, call)                          \
    do {                                                         \
        grader_watch((call), grader_call_limit_s(0.0, 0.0));     \
        gpu_expect_ok_status(                                    \
            (lab_status)GPU_STUDENT_CALL((call), (entry_call)),  \
            (call));                                             \
        grader_unwatch();                                        \
    } while (0)

/* Every kernel the last student call launched (gpu_expect_ok) followed the
 * lab's launch shape: block_x x block_y x block_z threads and, where grid_x
 * is not 0, grid_x x grid_y x grid_z blocks, by launch_shape.h's rule.
 * Fails naming both shapes and `where` (the TODO and handout section); not
 * checked, without failing, where launches are not watched. */
void gpu_expect_launch_shape(const char *call, unsigned block_x, unsigned block_y,
                             unsigned block_z, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             const char *where);
/* The same with the shape as a value (speed checks judge their timed calls
 * by the same launch_shape). */
void gpu_expect_launch_follows(const char *call, const launch_shape *want);

/* No write landed in the guard zones around `buf`. */
void gpu_expect_guards_intact(const device_buffer *buf, const char *call);
/* The same, naming where the bounds test is taught: `where` is e.g.
 * "TODO(1.3), handout section 3". */
void gpu_expect_guards_intact_at(const device_buffer *buf, const char *call, const char *where);

/* An input came back unchanged. */
void gpu_expect_unchanged(const device_buffer *buf, const void *host, const char *call);

/* Downloads `out` and compares it with ref; `hint` says which TODO and
 * handout section to read when it differs. */
void gpu_expect_floats(const device_buffer *out, const double *ref, const compare_spec *spec,
                       const char *call, const char *hint);

/* A bad-input call must return `expected` and leave `untouched` (poisoned
 * before the call) exactly as it was: no launch, no write. */
void gpu_expect_rejected(lab_status status, lab_status expected, const device_buffer *untouched,
                         const char *call);

#ifdef __cplusplus
}
#endif

#endif
