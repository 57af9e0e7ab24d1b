#include "common_tests.h"
#include "memory_sectors.h"

/* 32 lanes, lane l at base + l*stride bytes. */
static warp_request strided(long long base, long long stride, int access_bytes)
{
    warp_request r;
    warp_request_init(&r, access_bytes);
    for (int l = 0; l < 32; ++l)
        warp_request_add(&r, l, base + l * stride);
    return r;
}

void sectors_consecutive_floats_take_four(void **state)
{
    (void)state;
    warp_request r = strided(0, 4, 4);
    assert_int_equal(warp_request_lanes(&r), 32);
    assert_int_equal(warp_request_distinct(&r), 32);
    assert_int_equal(warp_request_sectors(&r), 4);
    assert_int_equal(warp_request_ideal_sectors(&r), 4);
    /* Shifted by one float: the 128 bytes straddle five sectors. */
    r = strided(4, 4, 4);
    assert_int_equal(warp_request_sectors(&r), 5);
    assert_int_equal(warp_request_ideal_sectors(&r), 4);
}

void sectors_strided_and_broadcast(void **state)
{
    (void)state;
    warp_request r = strided(0, 8, 4); /* every other float */
    assert_int_equal(warp_request_sectors(&r), 8);
    assert_int_equal(warp_request_ideal_sectors(&r), 4);
    r = strided(0, 4 * 2048, 4); /* down a column of a 2048-wide matrix */
    assert_int_equal(warp_request_sectors(&r), 32);
    assert_int_equal(warp_request_ideal_sectors(&r), 4);
    r = strided(40, 0, 4); /* every lane reads the same float */
    assert_int_equal(warp_request_distinct(&r), 1);
    assert_int_equal(warp_request_sectors(&r), 1);
    assert_int_equal(warp_request_ideal_sectors(&r), 1);
}

void sectors_wide_accesses_and_inactive_lanes(void **state)
{
    (void)state;
    warp_request r = strided(0, 16, 16); /* float4 per lane: 512 bytes */
    assert_int_equal(warp_request_sectors(&r), 16);
    assert_int_equal(warp_request_ideal_sectors(&r), 16);
    warp_request one;
    warp_request_init(&one, 16);
    warp_request_add(&one, 3, 24); /* bytes 24..39 straddle two sectors */
    assert_int_equal(warp_request_lanes(&one), 1);
    assert_int_equal(warp_request_sectors(&one), 2);
    assert_int_equal(warp_request_ideal_sectors(&one), 1);
    warp_request none;
    warp_request_init(&none, 4);
    warp_request_add(&none, 5, -4); /* negative: not an access */
    assert_int_equal(warp_request_lanes(&none), 0);
    assert_int_equal(warp_request_sectors(&none), 0);
    assert_int_equal(warp_request_ideal_sectors(&none), 0);
}

/* A 16 x 8 block reading a row-major matrix `width` floats wide, thread
 * (x, y) at row y, column x, or transposed. */
typedef struct {
    int width;
    int transposed;
} matrix_read;

static long long matrix_address(const sim_thread *t, void *ctx)
{
    const matrix_read *m = ctx;
    int row = t->block_idx.y * t->block_dim.y + t->thread_idx.y;
    int col = t->block_idx.x * t->block_dim.x + t->thread_idx.x;
    if (m->transposed) {
        int swap = row;
        row = col;
        col = swap;
    }
    return 4LL * ((long long)row * m->width + col);
}

void sectors_survey_groups_lanes_into_warps(void **state)
{
    (void)state;
    lab_dim3 grid = {2, 3, 1}, block = {16, 8, 1};
    matrix_read good = {1024, 0}, bad = {1024, 1};
    warp_sector_survey s;
    memory_sectors_survey(grid, block, matrix_address, &good, 4, &s);
    /* 6 blocks of 4 warps; each warp reads two half-rows of 16 floats. */
    assert_int_equal(s.requests, 24);
    assert_int_equal(s.worst_sectors, 4);
    assert_int_equal(s.worst_ideal, 4);
    assert_true(memory_sectors_mean(&s) == 4.0);
    /* Transposed, lanes (x, 0) and (x, 1) still share a sector: 16 of them. */
    memory_sectors_survey(grid, block, matrix_address, &bad, 4, &s);
    assert_int_equal(s.worst_sectors, 16);
    assert_int_equal(s.worst_ideal, 4);
    assert_int_equal(s.worst_block.x, 0);
    assert_int_equal(s.worst_warp, 0);
    assert_int_equal(warp_request_lanes(&s.worst), 32);
}

void sectors_survey_handles_partial_warps(void **state)
{
    (void)state;
    /* 5 x 7 = 35 threads per block: warp 0 has 32 lanes, warp 1 has 3. */
    lab_dim3 grid = {1, 1, 1}, block = {5, 7, 1};
    matrix_read m = {5, 0};
    warp_sector_survey s;
    memory_sectors_survey(grid, block, matrix_address, &m, 4, &s);
    assert_int_equal(s.requests, 2);
    assert_true(memory_sectors_mean(&s) == 2.5);      /* 128 contiguous bytes + 12 */
    assert_true(memory_sectors_mean_ideal(&s) == 2.5);
    /* 32 distinct floats, then 3. */
    assert_true(memory_sectors_mean_distinct(&s) == 17.5);
    assert_int_equal(s.fewest_distinct, 3);
    assert_int_equal(s.most_distinct, 32);
}
