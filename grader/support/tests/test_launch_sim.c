#include "common_tests.h"
#include "launch_sim.h"

typedef struct {
    int visited;
    int errors;
} order_check;

static int check_order(const sim_thread *t, void *ctx)
{
    order_check *c = ctx;
    /* Within one block, visits come in linear-id order, x fastest. */
    int expected_linear = c->visited % (t->block_dim.x * t->block_dim.y * t->block_dim.z);
    if (t->thread_in_block != expected_linear || t->warp != expected_linear / 32 ||
        t->lane != expected_linear % 32)
        ++c->errors;
    ++c->visited;
    return 0;
}

void launch_sim_numbers_like_hardware(void **state)
{
    (void)state;
    lab_dim3 grid = {3, 2, 1}, block = {16, 8, 1};
    order_check c = {0, 0};
    assert_true(launch_sim_run(grid, block, check_order, &c));
    assert_int_equal(c.visited, 3 * 2 * 16 * 8);
    assert_int_equal(c.errors, 0);
    assert_true(launch_sim_threads(grid, block) == 768);
}

void coverage_finds_gaps_repeats_and_strays(void **state)
{
    (void)state;
    coverage_map map;
    assert_true(coverage_init(&map, 5));
    coverage_record(&map, 0);
    coverage_record(&map, 1);
    coverage_record(&map, 1);
    coverage_record(&map, 3);
    coverage_record(&map, 4);
    coverage_record(&map, 5);
    coverage_record(&map, -1);
    coverage_summary s;
    assert_false(coverage_summarize(&map, &s));
    assert_int_equal(s.never, 1);
    assert_int_equal(s.first_never, 2);
    assert_int_equal(s.repeated, 1);
    assert_int_equal(s.first_repeated, 1);
    assert_int_equal(map.out_of_range, 2);
    assert_int_equal(map.first_out_of_range, 5);
    /* In words: one of each is singular, the verbs are the caller's. */
    char text[256];
    assert_false(coverage_describe(&map, "loaded", "load", text, sizeof text));
    assert_string_equal(text, "every element must be loaded by exactly one thread, but 1 was "
                              "never loaded (first: element 2); 1 was loaded more than once "
                              "(first: element 1); 2 loads fell outside the data (first: index 5)");
    coverage_free(&map);
    assert_true(coverage_init(&map, 3));
    for (int i = 0; i < 3; ++i)
        coverage_record(&map, 0);
    assert_false(coverage_describe(&map, "written", "write", text, sizeof text));
    assert_string_equal(text, "every element must be written by exactly one thread, but 2 were "
                              "never written (first: element 1); 1 was written more than once "
                              "(first: element 0)");
    coverage_free(&map);
}
