/* Lab 1, TODO(1.6): the student's count of sectors per warp request for a
 * misaligned or strided read, against the grader's sector counter
 * (grader/support/memory_sectors.h) on the same 32 addresses. Offsets 0..32 and
 * strides 1..32 cover every case the handout's table and the measuring
 * program (lab1_stride_bench) show. */
#include "harness.h"
#include "lab1_checks.h"
#include "memory_sectors.h"

/* What the memory system serves: lane l reads the float at offset + l * stride. */
static int counted_sectors(int offset, int stride)
{
    warp_request request;
    warp_request_init(&request, (int)sizeof(float));
    for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane)
        warp_request_add(&request, lane,
                         ((long long)offset + (long long)lane * stride) * (long long)sizeof(float));
    return warp_request_sectors(&request);
}

void cpu_strided_sectors(void **state)
{
    (void)state;
    /* Strides first at offset 0, then offsets at stride 1: the first
     * failure is the simplest case that is wrong. */
    for (int pass = 0; pass < 2; ++pass)
        for (int offset = 0; offset <= 32; ++offset)
            for (int stride = 1; stride <= 32; ++stride) {
                if ((pass == 0) != (offset == 0 || stride == 1))
                    continue;
                int want = counted_sectors(offset, stride);
                int got = lab1_sectors_per_request(offset, stride);
                GRADER_CHECK(got == want,
                             "TODO(1.6) lab1_sectors_per_request(offset=%d, stride=%d) returned "
                             "%d; the warp's 32 floats (bytes %d to %lld) touch %d sectors of 32 "
                             "bytes, so %.1f%% of the bytes moved are used. See %s, section 4 "
                             "(Misaligned and strided access).",
                             offset, stride, got, 4 * offset,
                             4LL * (offset + 31LL * stride) + 3, want, 100.0 * 128 / (32.0 * want),
                             LAB1_HANDOUT);
            }
}
