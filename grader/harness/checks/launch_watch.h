/* Which kernels a student's call launched, and whether each was compiled
 * from the student's own lab file.
 *
 * Why: a stage graded on its result and its speed can be passed by a
 * library's kernel (cuBLAS for lab 7's SGEMM, CUB for lab 5's reduction) or
 * by one of the grader's own kernels reached through a weak reference. The
 * output is right and fast; the work is not the student's. So every launch
 * inside a student call (gpu_expect_ok, and each timed run of a speed
 * check) is checked: its kernel must be defined in the student's object
 * file, and not in the cub::, thrust::, cutlass:: or cute:: namespaces
 * (those are header-only, so their kernels are compiled from the student's
 * file too, yet they are the library's work). Kernels may have any name.
 *
 * How: CUPTI's callback API on the launch calls of the runtime and the
 * driver gives each launch's function and shape (no activity tracing: it
 * costs nothing measurable and does not need the GPU alone). The student's
 * kernels are read from the symbol list the build writes next to the grader
 * (<grader>.symbols: `nm -P` of the student's library; nvcc gives a kernel K a
 * host-side function named K, its launch wrapper). Where CUPTI cannot subscribe (another
 * profiler or sanitizer holds it) or the list is missing, the check says
 * "not checked" in the test's notes and fails nothing. */
#ifndef LAUNCH_WATCH_H
#define LAUNCH_WATCH_H

#ifdef __cplusplus
extern "C" {
#endif

enum { LAUNCH_NAME_SIZE = 256 };

typedef struct {
    char name[LAUNCH_NAME_SIZE]; /* the kernel's (mangled) name */
    unsigned grid[3], block[3];
    unsigned shared_bytes;       /* dynamic shared memory */
    int students;                /* compiled from the student's file, not a library's */
} launch_record;

/* Whether launch_watch_end judges the kernels (graded tests) or only
 * records them (self-tests, which time the grader's own baselines in the
 * student's place). Judged by default. */
void launch_watch_judge(int judge);

/* Starts watching launches for this test process; idempotent. The test
 * program calls it as its GPU test starts, before the grader uses CUDA: the
 * thread it runs on is the test's, and a CUDA context that exists by then
 * (early_context.h) fails every judged call. */
void launch_watch_start(void);

/* A student call begins: launches until launch_watch_end count as its own.
 * `call` (copied) names it in messages. */
void launch_watch_begin(const char *call);

/* The call ended: fails the test (GRADER_FAIL) when it launched a kernel
 * that is not the student's, naming the kernel and why it does not count. */
void launch_watch_end(void);

/* The test is over (or a student call ended): fails it when a launch came
 * from another thread than the test's, outside every student call. */
void launch_watch_finish(void);

/* launch_watch_end, then `status`: GPU_STUDENT_CALL's second half. */
int launch_watch_end_status(int status);

/* status = GPU_STUDENT_CALL(call, entry(...)): a call into the student's
 * code whose launches are judged. The comma operator orders it: begin, the
 * call, end. */
#define GPU_STUDENT_CALL(call, expr) \
    (launch_watch_begin(call), launch_watch_end_status((int)(expr)))

/* Launches of the last student call (or the current one), oldest first;
 * *count is how many (at most LAUNCH_WATCH_KEEP are kept). NULL and 0 when
 * launches are not watched here. */
enum { LAUNCH_WATCH_KEEP = 4096 }; /* past it, a judged call fails (launch_watch.c) */
const launch_record *launch_watch_last(int *count);

/* 1 when CUPTI's callbacks are on here: launches (and copy_watch.h's
 * copies) are watched. */
int launch_watch_active(void);
/* 1 when a kernel name counts as the student's (tests of the rule). */
int launch_watch_is_students(const char *mangled, const char *symbols_text);

#ifdef __cplusplus
}
#endif

#endif
