/* Lab 2: the host flow's error paths, driven. TODO(2.5)-(2.9) ask for every
 * CUDA call checked and every device buffer freed on every path; a working
 * GPU never takes those paths. So each cudaMalloc, then each copy, of one
 * call is made to fail in turn (lab2_fault_injection.h): the call must
 * return LAB_ERR_CUDA with a message that names the failed call or its
 * error, and leave nothing allocated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "launch_watch.h"
#include "lab2_checks.h"
#include "lab2_fault_injection.h"
#include "matmul_checks.h"

static const char FAULT_HINT[] =
    "Every CUDA call of the host flow must be checked (LAB_CUDA_TRY) and every buffer "
    "allocated before a failure freed: TODO(2.5)-(2.9), handout sections 4.2-4.5.";

typedef struct {
    lab2_fault_kind kind;
    const char *calls;    /* in messages: "cudaMalloc", "copy" */
    const char *named;    /* what the message must name, or the error instead */
    cudaError_t error;    /* the injected error */
    int at_least;         /* calls a host flow makes: A, B, C */
} fault_plan;

/* 1st, 2nd, 3rd, 4th, ... */
static const char *ordinal_suffix(int n)
{
    return n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd"
                                                                                            : "th";
}

static void expect_each_fails_cleanly(const fault_plan *plan, const matmul_problem *p, float *c)
{
    const matmul_shape s = p->shape;
    enum { MOST = 64 }; /* far more than a host flow makes: past it, the flow loops */
    for (int nth = 1; nth <= MOST; ++nth) {
        char call[192];
        snprintf(call, sizeof call, "lab2_matmul_host on %dx%dx%d with its %d%s %s failing "
                 "(\"%s\", injected by the grader)", s.m, s.n, s.k, nth, ordinal_suffix(nth),
                 plan->calls, cudaGetErrorString(plan->error));
        lab_clear_error();
        grader_watch(call, grader_call_limit_s(0.0, 2.0 * s.m * s.n * s.k));
        lab2_faults_arm(plan->kind, nth);
        lab_status status =
            (lab_status)GPU_STUDENT_CALL(call, lab2_matmul_host(p->a, p->b, c, s.m, s.n, s.k));
        lab2_fault_counts n = lab2_faults_disarm();
        grader_unwatch();
        if (!n.injected) {
            /* The flow made nth - 1 such calls and none failed: the path without faults. */
            GRADER_CHECK(nth - 1 >= plan->at_least,
                         "lab2_matmul_host on %dx%dx%d made %d %s call%s; a host flow makes at "
                         "least %d (A, B and C). %s", s.m, s.n, s.k, nth - 1, plan->named,
                         nth - 1 == 1 ? "" : "s", plan->at_least, FAULT_HINT);
            GRADER_CHECK(status == LAB_OK, "lab2_matmul_host on %dx%dx%d returned %s: %s. %s",
                         s.m, s.n, s.k, lab_status_name(status), lab_last_error(), FAULT_HINT);
            GRADER_CHECK(n.live == 0,
                         "lab2_matmul_host on %dx%dx%d succeeded but left %d device buffer%s "
                         "allocated. %s", s.m, s.n, s.k, n.live, n.live == 1 ? "" : "s",
                         FAULT_HINT);
            return;
        }
        GRADER_CHECK(status != LAB_OK,
                     "%s returned LAB_OK: a failed CUDA call must make the host flow fail, or "
                     "C is garbage reported as a result. %s", call, FAULT_HINT);
        GRADER_CHECK(status == LAB_ERR_CUDA, "%s returned %s; a failed CUDA call is "
                     "LAB_ERR_CUDA (LAB_CUDA_TRY returns it). %s", call, lab_status_name(status),
                     FAULT_HINT);
        const char *message = lab_last_error();
        GRADER_CHECK(strstr(message, plan->named) || strstr(message, cudaGetErrorString(plan->error)),
                     "%s returned LAB_ERR_CUDA with the message \"%s\", which names neither the "
                     "failed call (%s) nor its error (\"%s\"): say what failed (LAB_CUDA_TRY "
                     "does). %s", call, message, plan->named, cudaGetErrorString(plan->error),
                     FAULT_HINT);
        GRADER_CHECK(n.live == 0,
                     "%s: %d device buffer%s allocated before the failure %s not freed: the "
                     "error path leaks. %s", call, n.live, n.live == 1 ? "" : "s",
                     n.live == 1 ? "was" : "were", FAULT_HINT);
    }
    GRADER_FAIL("lab2_matmul_host on %dx%dx%d made more than %d %s calls: a host flow makes "
                "three. %s", s.m, s.n, s.k, MOST, plan->named, FAULT_HINT);
}

void gpu_host_flow_fails_cleanly(void **state)
{
    (void)state;
    grader_require_gpu();
    static const fault_plan plans[] = {
        {LAB2_FAULT_MALLOC, "cudaMalloc", "cudaMalloc", (cudaError_t)LAB2_MALLOC_FAULT, 3},
        {LAB2_FAULT_COPY, "copy", "cudaMemcpy", (cudaError_t)LAB2_COPY_FAULT, 3}};
    const matmul_shape s = {64, 48, 32};
    matmul_problem p;
    matmul_problem_init(&p, s, grader_seed() + 2200, 0);
    float *c = grader_malloc((size_t)s.m * s.n * sizeof(float));
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i)
        expect_each_fails_cleanly(&plans[i], &p, c);
    free(c);
    matmul_problem_free(&p);
}
