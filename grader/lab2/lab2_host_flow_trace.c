/* Lab 2: the host flow must make the GPU do the work.
 *
 * lab2_matmul_host gets host pointers and must return C in host memory. A C
 * computed on the CPU has the right numbers too, so the correctness checks
 * cannot tell; the activity recorder (CUPTI) can: it sees the copies and
 * kernels the GPU actually ran during the call. A decoy is not enough
 * either: the kernel must be the student's own (launch_watch.h), and its
 * time must be physically possible for the multiplication's FLOPs, which
 * an empty kernel's is not at this size. And the copies must be the
 * caller's: A and B read from the pointers given, C written to the one
 * given and left as the copy-back wrote it (copy_watch.h), so C computed
 * on the CPU after the copy-back does not pass either. */
#include <stdio.h>
#include <stdlib.h>

#include "activity_recorder.h"
#include "copy_watch.h"
#include "harness.h"
#include "launch_watch.h"
#include "speed_check.h"
#include "lab2_checks.h"
#include "matmul_checks.h"

static const char DEVICE_WORK_HINT[] =
    "C must be computed by your kernel on the GPU: TODO(2.5)-(2.8), handout section 4.";

void host_flow_expect_device_work(matmul_shape s, uint64_t seed)
{
    const activity_buffer a = {"A", (unsigned long long)s.m * s.k * sizeof(float)};
    const activity_buffer b = {"B", (unsigned long long)s.k * s.n * sizeof(float)};
    const activity_buffer c = {"C", (unsigned long long)s.m * s.n * sizeof(float)};
    const activity_buffer inputs[] = {a, b};
    char call[128], why[512];
    snprintf(call, sizeof call, "lab2_matmul_host on %dx%dx%d (seed %llu)", s.m, s.n, s.k,
             (unsigned long long)seed);

    matmul_problem p;
    matmul_problem_init(&p, s, seed, 0);
    float *out = grader_malloc(c.bytes);

    if (activity_start(why, sizeof why) != 0) {
        free(out);
        matmul_problem_free(&p);
        GRADER_FAIL("%s: the host flow could not be observed, so its device work cannot be "
                    "checked: %s. The grader watches the GPU through CUPTI (libcupti, part of "
                    "the CUDA toolkit); this is a problem of the grading machine, not of your "
                    "code.",
                    call, why);
    }
    copy_watch_output(out, c.bytes);
    lab_status status =
        (lab_status)GPU_STUDENT_CALL(call, lab2_matmul_host(p.a, p.b, out, s.m, s.n, s.k));
    const int read_a = copy_watch_read(p.a, a.bytes), read_b = copy_watch_read(p.b, b.bytes);
    const int wrote_c = copy_watch_wrote_output(), kept_c = copy_watch_output_kept();
    copy_watch_output(NULL, 0);
    activity_log log;
    int stopped = activity_stop(&log);
    double kernel_ms = 0.0;
    for (size_t i = 0; i < log.count; ++i)
        if (log.events[i].kind == ACTIVITY_KERNEL && log.events[i].end_ns > log.events[i].start_ns)
            kernel_ms += (double)(log.events[i].end_ns - log.events[i].start_ns) * 1e-6;
    double flops = 2.0 * s.m * (double)s.n * s.k;
    double floor_ms = speed_floor_ms(0.0, flops);
    free(out);
    matmul_problem_free(&p);

    char seen[512];
    activity_describe(&log, seen, sizeof seen);
    int shown = activity_shows_host_flow(&log, inputs, 2, c, why, sizeof why);
    activity_log_free(&log);
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s. %s", call, lab_status_name(status),
                 lab_last_error(), DEVICE_WORK_HINT);
    GRADER_CHECK(stopped == 0,
                 "%s: the host flow could not be observed, so its device work cannot be "
                 "checked: CUPTI failed to hand over its records (it saw: %s). This is a "
                 "problem of the grading machine, not of your code.",
                 call, seen);
    GRADER_CHECK(shown,
                 "%s: expected the device work of a host flow (2 host-to-device copies of A "
                 "(%llu B) and B (%llu B), a kernel, then a device-to-host copy of C (%llu B)), "
                 "but the GPU saw: %s; missing: %s. %s",
                 call, a.bytes, b.bytes, c.bytes, seen, why, DEVICE_WORK_HINT);
    grader_metric("kernel_ms", kernel_ms, "ms");
    grader_metric("floor_ms", floor_ms, "ms");
    /* 10% under the floor, as the speed checks allow: the peaks come from the
     * device's attributes. */
    GRADER_CHECK(floor_ms <= 0.0 || kernel_ms >= 0.9 * floor_ms,
                 "%s: its kernels ran for %.4f ms in all, less than the %.4f ms this GPU needs "
                 "for the %.3g FLOPs of the product at its peak: the kernel did not compute C "
                 "(was C computed on the CPU?). %s",
                 call, kernel_ms, floor_ms, flops, DEVICE_WORK_HINT);
    /* After the floor: a decoy kernel is named as such first. */
    if (launch_watch_active()) {
        GRADER_CHECK(read_a && read_b && wrote_c,
                     "%s: the copies must move the caller's own matrices: A and B from the "
                     "pointers a and b it was given (%s), and C into the pointer c (%s). %s",
                     call, read_a && read_b ? "they were" : "a copy of that size from them was "
                     "missing", wrote_c ? "it was" : "no copy of C's size into it was seen",
                     DEVICE_WORK_HINT);
        GRADER_CHECK(kept_c != 0,
                     "%s: C changed after the device-to-host copy had written it: C must be the "
                     "result your kernel computed, copied back, not changed on the CPU "
                     "afterwards. %s",
                     call, DEVICE_WORK_HINT);
        if (kept_c < 0)
            grader_note("C after its copy-back not checked: the copy into it was asynchronous "
                        "and not synchronised inside the call");
    }
}
