/* Lab 2: the host flow must make the GPU do the work.
 *
 * lab2_matmul_host gets host pointers and must return C in host memory. A C
 * computed on the CPU has the right numbers too, so the correctness checks
 * cannot tell. Every call of it is therefore held to the host flow's
 * contract from the inside (copy_watch.h): every transfer API understood or
 * refused, the uploads exactly A and B, C copied back from the buffer the
 * student's kernel received with the device copies of A and B, no host
 * memory handed to a kernel, C left as the copy-back wrote it. One call is
 * also traced (the activity recorder, CUPTI): the GPU must have run the
 * copies and a kernel whose time is physically possible for the
 * multiplication's FLOPs, which an empty decoy kernel's is not at this
 * size, and the kernel must be the student's own (launch_watch.h). */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "copy_watch.h"
#include "harness.h"
#include "launch_watch.h"
#include "speed_check.h"
#include "lab2_checks.h"
#include "matmul_checks.h"

static const char DEVICE_WORK_HINT[] =
    "C must be computed by your kernel on the GPU: TODO(2.5)-(2.8), handout section 4.";

void host_flow_call(const char *call, const matmul_problem *p, float *c, host_flow_result *r)
{
    const matmul_shape s = p->shape;
    const copy_watch_flow flow = {p->a, p->b, c, (size_t)s.m * s.k * sizeof(float),
                                  (size_t)s.k * s.n * sizeof(float),
                                  (size_t)s.m * s.n * sizeof(float)};
    copy_watch_expect(&flow);
    r->status =
        (lab_status)GPU_STUDENT_CALL(call, lab2_matmul_host(p->a, p->b, c, s.m, s.n, s.k));
    r->kept = copy_watch_verdict(r->why, sizeof r->why);
}

void host_flow_expect_kept(const char *call, const host_flow_result *r)
{
    if (!launch_watch_active())
        return; /* launch_watch_end has said why (a note, or the test failed) */
    /* A refused route is named whatever the call returned: a kernel that
     * dereferenced a host pointer fails the copy-back, but the cause is the
     * pointer. */
    GRADER_CHECK(r->kept >= 0, "%s: %s. %s", call, r->why, DEVICE_WORK_HINT);
    GRADER_CHECK(r->status != LAB_OK || r->kept > 0, "%s: %s. %s", call, r->why,
                 DEVICE_WORK_HINT);
}

/* Whether this GPU can reach plain host memory (HMM, or ATS): then a
 * kernel could read a host address it computes itself, which no watch of
 * its arguments sees (docs/design.md, section 3.3). Said in the notes, so
 * that the measure of what is left comes with every run. */
static void note_pageable_access(void)
{
    int device = 0, pageable = 0, host_tables = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&host_tables, cudaDevAttrPageableMemoryAccessUsesHostPageTables,
                               device) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    grader_metric("pageable_memory_access", pageable, "");
    grader_note("this GPU %s plain host memory from kernels (pageable memory access %d, through "
                "the host's page tables %d)", pageable ? "can reach" : "cannot reach", pageable,
                host_tables);
}

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
    host_flow_result r;
    host_flow_call(call, &p, out, &r);
    lab_status status = r.status;
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
    host_flow_expect_kept(call, &r);
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
    grader_metric("kernel_argument_bytes", (double)copy_watch_argument_bytes(), "bytes");
    note_pageable_access();
}
