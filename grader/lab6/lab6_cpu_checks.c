/* Lab 6 CPU checks: the chunking and issue-order helpers, on every case the
 * pipeline meets (n a multiple of the chunks or not, n smaller than the
 * chunks, one chunk, sizes whose offsets overflow an int product). */
#include <stdio.h>

#include "harness.h"
#include "lab6_checks.h"

/* ---------------------------------------------------------- TODO 6.1 */

/* Every chunk of (n, chunks): consecutive from 0, ending at n, counts
 * within one of each other. */
static void expect_chunks(int n, int chunks)
{
    int expected_offset = 0, smallest = n, largest = 0;
    for (int i = 0; i < chunks; ++i) {
        lab6_range r = lab6_chunk_range(n, chunks, i);
        GRADER_CHECK(r.offset == expected_offset && r.count >= 0,
                     "TODO(6.1) lab6_chunk_range(n=%d, chunks=%d, index=%d) returned offset %d, "
                     "count %d; expected offset %d (where chunk %d ended) and a count >= 0: "
                     "chunks must follow each other with no gap or overlap%s. See %s, "
                     "section 4.",
                     n, chunks, i, r.offset, r.count, expected_offset, i - 1,
                     r.offset < 0 || r.count < 0 ? " (a negative offset or count: did n * index overflow an int?)" : "",
                     LAB6_HANDOUT);
        expected_offset = r.offset + r.count;
        smallest = r.count < smallest ? r.count : smallest;
        largest = r.count > largest ? r.count : largest;
    }
    GRADER_CHECK(expected_offset == n,
                 "TODO(6.1) the %d chunks of n=%d end at element %d, not at n: %s. See %s, "
                 "section 4.",
                 chunks, n, expected_offset,
                 expected_offset < n ? "the last elements belong to no chunk (is the remainder "
                                       "n % chunks dropped?)"
                                     : "the chunks run past the end of the array",
                 LAB6_HANDOUT);
    GRADER_CHECK(largest - smallest <= 1,
                 "TODO(6.1) the %d chunks of n=%d have between %d and %d elements: their counts "
                 "must differ by at most one, so that no stream gets much more work than the "
                 "others. See %s, section 4.",
                 chunks, n, smallest, largest, LAB6_HANDOUT);
}

void cpu_chunk_ranges(void **state)
{
    (void)state;
    const int cases[][2] = {
        {4096, 4},   {4096, 16},  {4099, 4},   {4099, 16}, {1000003, 16}, {10, 3},
        {1, 1},      {1, 16},     {5, 8},      {15, 16},   {17, 16},      {100, 1},
        {7, 7},      {1 << 26, 64}, {1 << 26, 4096}, {(1 << 30) + 3, 64}, {2147483647, 4096},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        expect_chunks(cases[i][0], cases[i][1]);
}

/* ---------------------------------------------------------- TODO 6.5 */

static const char *stage_name(lab6_stage s)
{
    return s == LAB6_STAGE_H2D ? "H2D" : s == LAB6_STAGE_KERNEL ? "kernel" : "D2H";
}

static void expect_order(lab6_order order, int chunks)
{
    const char *name = order == LAB6_DEPTH_FIRST ? "depth-first" : "breadth-first";
    for (int step = 0; step < LAB6_STAGES * chunks; ++step) {
        lab6_task want;
        if (order == LAB6_DEPTH_FIRST)
            want = (lab6_task){step / LAB6_STAGES, (lab6_stage)(step % LAB6_STAGES)};
        else
            want = (lab6_task){step % chunks, (lab6_stage)(step / chunks)};
        lab6_task got = lab6_issue_step(order, chunks, step);
        int valid = got.stage >= LAB6_STAGE_H2D && got.stage <= LAB6_STAGE_D2H;
        GRADER_CHECK(got.chunk == want.chunk && got.stage == want.stage,
                     "TODO(6.5) lab6_issue_step(%s, chunks=%d, step=%d) returned chunk %d, %s; "
                     "expected chunk %d, %s. %s See %s, section 5.",
                     name, chunks, step, got.chunk, valid ? stage_name(got.stage) : "no stage",
                     want.chunk, stage_name(want.stage),
                     order == LAB6_DEPTH_FIRST
                         ? "Depth-first issues all three stages of a chunk before the next "
                           "chunk."
                         : "Breadth-first issues one stage for every chunk before the next "
                           "stage.",
                     LAB6_HANDOUT);
    }
}

void cpu_issue_orders(void **state)
{
    (void)state;
    const int stream_counts[] = {1, 2, 3, 16};
    for (size_t i = 0; i < sizeof stream_counts / sizeof stream_counts[0]; ++i) {
        int streams = stream_counts[i];
        for (int chunk = 0; chunk < 70; ++chunk) {
            int got = lab6_stream_of_chunk(chunk, streams);
            GRADER_CHECK(got == chunk % streams,
                         "TODO(6.5) lab6_stream_of_chunk(chunk=%d, streams=%d) returned %d, "
                         "expected %d: round robin, so that consecutive chunks land in "
                         "different streams and every stream gets its turn. See %s, section 5.",
                         chunk, streams, got, chunk % streams, LAB6_HANDOUT);
        }
    }
    const int chunk_counts[] = {1, 2, 3, 5, 16, 64};
    for (size_t i = 0; i < sizeof chunk_counts / sizeof chunk_counts[0]; ++i) {
        expect_order(LAB6_DEPTH_FIRST, chunk_counts[i]);
        expect_order(LAB6_BREADTH_FIRST, chunk_counts[i]);
    }
}
