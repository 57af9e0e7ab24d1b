#include "gpu_checks.h"

#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "guard.h"
#include "harness.h"

void gpu_expect_ok_status(lab_status status, const char *call)
{
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s", call, lab_status_name(status),
                 lab_last_error());
    cudaError_t err = cudaDeviceSynchronize();
    GRADER_CHECK(err != cudaErrorMisalignedAddress,
                 "%s: the kernel failed while running: %s (%s). A vector load or store "
                 "(float4: 16 bytes) needs an address that is a multiple of its size: check "
                 "that the pointers and offsets it uses are aligned before taking the vector "
                 "path.",
                 call, cudaGetErrorName(err), cudaGetErrorString(err));
    GRADER_CHECK(err == cudaSuccess,
                 "%s: the kernel failed while running: %s (%s). An illegal address usually "
                 "means an index outside the buffer: check your bounds test.",
                 call, cudaGetErrorName(err), cudaGetErrorString(err));
}

void gpu_expect_guards_intact(const device_buffer *buf, const char *call)
{
    char message[256];
    GRADER_CHECK(dbuf_guards_intact(buf, message, sizeof message),
                 "%s: %s. Some thread computed an index outside the data: check the bounds "
                 "test.", call, message);
}

void gpu_expect_guards_intact_at(const device_buffer *buf, const char *call, const char *where)
{
    char message[256];
    GRADER_CHECK(dbuf_guards_intact(buf, message, sizeof message),
                 "%s: %s. Some thread computed an index outside the data: check the bounds "
                 "test (%s).", call, message, where);
}

void gpu_expect_unchanged(const device_buffer *buf, const void *host, const char *call)
{
    GRADER_CHECK(dbuf_equals_host(buf, host), "%s: the input `%s` was modified; inputs are "
                 "read-only", call, buf->name);
}

void gpu_expect_floats(const device_buffer *out, const double *ref, const compare_spec *spec,
                       const char *call, const char *hint)
{
    size_t n = spec->rows * spec->cols;
    float *got = grader_malloc(n * sizeof *got);
    dbuf_download(out, got);
    compare_result result;
    int ok = compare_floats(got, ref, spec, &result);
    free(got);
    GRADER_CHECK(ok, "%s: %s. %s", call, result.report, hint);
    gpu_expect_guards_intact(out, call);
}

void gpu_expect_rejected(lab_status status, lab_status expected, const device_buffer *untouched,
                         const char *call)
{
    GRADER_CHECK(status == expected, "%s returned %s, expected %s (bad input must be "
                 "rejected before any launch)", call, lab_status_name(status),
                 lab_status_name(expected));
    grader_watch(call, grader_call_limit_s(0.0, 0.0));
    cudaError_t err = cudaDeviceSynchronize();
    grader_unwatch();
    GRADER_CHECK(err == cudaSuccess, "%s: a kernel ran and failed: %s", call,
                 cudaGetErrorString(err));
    size_t words = untouched->bytes / 4;
    unsigned *host = grader_malloc(untouched->bytes);
    dbuf_download(untouched, host);
    size_t changed = 0;
    for (size_t i = 0; i < words; ++i)
        changed += host[i] != GUARD_POISON_BITS;
    free(host);
    GRADER_CHECK(changed == 0, "%s: rejected, but %zu output elements were written anyway",
                 call, changed);
    gpu_expect_guards_intact(untouched, call);
}

void gpu_expect_launch_shape(const char *call, unsigned block_x, unsigned block_y,
                             unsigned block_z, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             const char *where)
{
    const launch_shape want = {{block_x, block_y, block_z}, {grid_x, grid_y, grid_z}, where};
    gpu_expect_launch_follows(call, &want);
}

void gpu_expect_launch_follows(const char *call, const launch_shape *want)
{
    int count = 0;
    const launch_record *launches = launch_watch_last(&count);
    if (!launches)
        return;
    GRADER_CHECK(count > 0, "%s launched no kernel (the work must run on the GPU)", call);
    char why[1536];
    GRADER_CHECK(launch_shape_followed(want, launches, count, call, why, sizeof why), "%s", why);
}
