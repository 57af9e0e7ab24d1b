/* Which kernels a student's call launched, and whether each was compiled
 * from the student's own lab file.
 *
 * Why: a stage graded on result and speed can be passed by a library's
 * kernel (cuBLAS, CUB) or one of the grader's own reached through a weak
 * reference: right and fast, but not the student's work. So every launch
 * inside a student call (gpu_expect_ok, each timed run of a speed check)
 * must be of a kernel defined in the student's object file, outside the
 * cub::, thrust::, cutlass:: and cute:: namespaces (header-only, so compiled
 * from the student's file, yet the library's work). Any name is allowed.
 *
 * How: CUPTI callbacks on the runtime's and driver's launch calls give each
 * launch's function and shape (no activity tracing: no measurable cost, no
 * need for the GPU alone). The student's kernels come from <grader>.symbols
 * (`nm -P` of the student's library; nvcc gives a kernel K a host-side
 * launch wrapper named K). Where CUPTI cannot subscribe (another profiler or
 * sanitizer holds it) or the list is missing, the notes say "not checked"
 * and nothing fails. */
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
