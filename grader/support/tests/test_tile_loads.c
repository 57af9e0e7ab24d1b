#include "common_tests.h"
#include "tile_loads.h"

/* 64 threads over an 8-row tile, a float4 each: thread t at row t / 8,
 * column (t % 8) * 4, unless `mistake` says otherwise. */
static int mistake;

static tile_load_at rows_of_float4s(int thread, int round, int threads, int tile_cols)
{
    (void)round, (void)threads, (void)tile_cols;
    tile_load_at at = {thread / 8, (thread % 8) * 4};
    if (mistake == 1 && thread == 5)
        at.col += 1; /* not on a float4 boundary */
    if (mistake == 2 && thread == 3)
        at.col -= 4; /* thread 2's float4 again */
    return at;
}

void tile_loads_find_each_fault(void **state)
{
    (void)state;
    tile_loads_shape shape = {8, 32, 64, 4, 4, 4096};
    tile_loads_survey v;
    mistake = 0;
    assert_true(tile_loads_walk(&shape, rows_of_float4s, &v));
    assert_int_equal(v.fault, TILE_LOADS_COVERED);
    assert_int_equal(v.rounds, 1);
    /* A warp reads 4 rows of 128 bytes: 16 sectors, all of them needed. */
    assert_int_equal(v.worst_sectors, 16);
    assert_int_equal(v.worst_ideal, 16);

    mistake = 1;
    assert_true(tile_loads_walk(&shape, rows_of_float4s, &v));
    assert_int_equal(v.fault, TILE_LOADS_OUTSIDE);
    assert_int_equal(v.thread, 5);
    assert_int_equal(v.col, 21);

    mistake = 2;
    assert_true(tile_loads_walk(&shape, rows_of_float4s, &v));
    assert_int_equal(v.fault, TILE_LOADS_TWICE);
    assert_int_equal(v.thread, 3);
    assert_int_equal(v.row, 0);
    assert_int_equal(v.col, 8);

    /* Four columns wider: the same loads leave columns 32-35 unread. */
    mistake = 0;
    shape.cols = 36;
    assert_true(tile_loads_walk(&shape, rows_of_float4s, &v));
    assert_int_equal(v.fault, TILE_LOADS_NEVER);
    assert_int_equal(v.row, 0);
    assert_int_equal(v.col, 32);
}
