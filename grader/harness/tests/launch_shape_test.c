/* The launch-shape rule (launch_shape.h) on hand-made launch records: what
 * the lesson fixes (threads per block, number of blocks) is judged, the
 * layout of either is not. */
#include <string.h>

#include "harness.h"
#include "launch_shape.h"

static launch_record record(unsigned bx, unsigned by, unsigned gx, unsigned gy)
{
    launch_record l;
    memset(&l, 0, sizeof l);
    l.block[0] = bx;
    l.block[1] = by;
    l.block[2] = 1;
    l.grid[0] = gx;
    l.grid[1] = gy;
    l.grid[2] = 1;
    l.students = 1;
    return l;
}

static const launch_shape TILES_32 = {{32, 32, 1}, {64, 64, 1}, "the tile"};

void cpu_same_tiles_in_another_layout_follow(void **state)
{
    (void)state;
    char why[1024] = "";
    /* SGEMM_CUDA's shared-memory kernel: 1024 threads in 1D, the grid's x
     * over the rows; and a grid of 4096 blocks in one dimension. */
    launch_record l[3] = {record(32, 32, 64, 64), record(1024, 1, 64, 64),
                          record(1024, 1, 4096, 1)};
    GRADER_CHECK(launch_shape_followed(&TILES_32, l, 3, "call", why, sizeof why),
                 "a layout of the same threads and blocks was refused: %s", why);
}

void cpu_other_tiles_do_not_follow(void **state)
{
    (void)state;
    char why[1024] = "";
    launch_record small = record(16, 16, 128, 128);
    GRADER_CHECK(!launch_shape_followed(&TILES_32, &small, 1, "the timed run", why, sizeof why),
                 "16 x 16 tiles passed for 32 x 32");
    GRADER_CHECK(strstr(why, "the timed run launched a grid of 128x128x1 blocks of 16x16x1 "
                             "threads; the lab fixes 64x64x1 blocks of 32x32x1 threads") &&
                     strstr(why, "the tile"),
                 "the message does not name both shapes and where: %s", why);
    /* The right block, but twice the blocks (a tile of half the area). */
    launch_record half[2] = {record(32, 32, 64, 64), record(1024, 1, 128, 64)};
    GRADER_CHECK(!launch_shape_followed(&TILES_32, half, 2, "call", why, sizeof why),
                 "twice the blocks passed");
}

void cpu_unjudged_parts_pass(void **state)
{
    (void)state;
    char why[1024] = "";
    const launch_shape none = {{0, 0, 0}, {0, 0, 0}, "nothing"};
    const launch_shape block_only = {{16, 16, 1}, {0, 0, 0}, "the block"};
    launch_record l = record(7, 3, 5, 9), b = record(256, 1, 5, 9);
    GRADER_CHECK(launch_shape_followed(&none, &l, 1, "call", why, sizeof why) &&
                     launch_shape_followed(NULL, &l, 1, "call", why, sizeof why),
                 "a shape that judges nothing refused a launch");
    GRADER_CHECK(launch_shape_followed(&block_only, &b, 1, "call", why, sizeof why),
                 "a grid was judged where the shape names none: %s", why);
    GRADER_CHECK(!launch_shape_followed(&block_only, &l, 1, "call", why, sizeof why) &&
                     strstr(why, "launched blocks of 7x3x1 threads; the lab fixes 16x16x1"),
                 "21 threads passed for 256, or the message is wrong: %s", why);
}

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const grader_test tests[] = {
    TEST(cpu_same_tiles_in_another_layout_follow),
    TEST(cpu_other_tiles_do_not_follow),
    TEST(cpu_unjudged_parts_pass),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"launch_shape", "launch-shape rule",
                          "grader/harness/checks/launch_shape.h", GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
