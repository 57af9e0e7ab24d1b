/* Lab 1 CPU checks: the student's index helpers, called for every thread of
 * a simulated launch. Each check uses the grader's own launch shape where it
 * grades a different helper, so one wrong TODO fails one check. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "lab1_checks.h"
#include "sim_checks.h"

/* Where each TODO's failure sends the student. */
static const todo_pointer GLOBAL_INDEX = {"1.1", LAB1_HANDOUT, "2"};
static const todo_pointer BLOCKS_FOR = {"1.2", LAB1_HANDOUT, "3"};
static const todo_pointer PIXEL_OFFSET = {"1.4", LAB1_HANDOUT, "4"};
static const todo_pointer IMAGE_GRID = {"1.5", LAB1_HANDOUT, "4"};
static const todo_pointer VOXEL_COORDS = {"1.7", LAB1_HANDOUT, "5"};
static const todo_pointer VOXEL_OFFSET = {"1.8", LAB1_HANDOUT, "5"};
static const todo_pointer VOLUME_GRID = {"1.9", LAB1_HANDOUT, "5"};
static const todo_pointer GRID_STRIDE = {"1.10", LAB1_HANDOUT, "6"};
static const todo_pointer WARP_LANE = {"1.11", LAB1_HANDOUT, "7"};


/* ---------------------------------------------------------- TODO 1.1 */

typedef struct {
    coverage_map map;
    int n;
} vector_sim;

static int visit_vector(const sim_thread *t, void *ctx)
{
    vector_sim *sim = ctx;
    int i = lab1_global_index_1d(t->block_idx, t->block_dim, t->thread_idx);
    if (i < sim->n) /* the kernel's bounds test */
        coverage_record(&sim->map, i);
    return 0;
}

void cpu_global_index_1d_coverage(void **state)
{
    (void)state;
    /* One thread first: a message about thread (1, 3) is easier to act on
     * than a coverage count. */
    int got = lab1_global_index_1d(sim_dim3(1, 0, 0), sim_dim3(LAB1_BLOCK_1D, 1, 1),
                                   sim_dim3(3, 0, 0));
    GRADER_CHECK(got == LAB1_BLOCK_1D + 3,
                 "TODO(1.1) lab1_global_index_1d: thread 3 of block 1 (blocks of %d threads) "
                 "returned %d; counting from 0, it is thread number %d of the grid. See %s, section %s.",
                 LAB1_BLOCK_1D, got, LAB1_BLOCK_1D + 3, GLOBAL_INDEX.handout, GLOBAL_INDEX.section);
    const int sizes[] = {1, 31, 32, 33, 255, 256, 257, 1000003};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        vector_sim sim = {.n = sizes[k]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.n), "out of memory");
        launch_sim_run(sim_dim3(sim_ceil_div(sim.n, LAB1_BLOCK_1D), 1, 1),
                       sim_dim3(LAB1_BLOCK_1D, 1, 1), visit_vector, &sim);
        char what[96];
        snprintf(what, sizeof what, "lab1_global_index_1d with n=%d", sim.n);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", GLOBAL_INDEX);
    }
}

/* ---------------------------------------------------------- TODO 1.2 */

void cpu_blocks_for_is_ceil_div(void **state)
{
    (void)state;
    const int sizes[] = {1, 31, 32, 33, 255, 256, 257, 1000003, 1073741825};
    const int blocks[] = {32, 256, 1024};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b) {
            int n = sizes[k], bs = blocks[b];
            long long want = ((long long)n + bs - 1) / bs;
            int got = lab1_blocks_for(n, bs);
            GRADER_CHECK(got == want,
                         "TODO(1.2) lab1_blocks_for(n=%d, block_size=%d) returned %d, expected "
                         "%lld: %s. See %s, section %s.",
                         n, bs, got, want,
                         (long long)got * bs < n
                             ? "too few blocks, the last elements get no thread"
                             : "a whole block would have nothing to do",
                         BLOCKS_FOR.handout, BLOCKS_FOR.section);
        }
}

/* ---------------------------------------------------------- TODO 1.4 */

typedef struct {
    coverage_map map;
    int width, height;
    long long bad_offset; /* a thread inside the image got -1, or outside got >= 0 */
    lab_dim3 bad_block, bad_thread;
    int found_bad;
} image_sim;

static int visit_image(const sim_thread *t, void *ctx)
{
    image_sim *sim = ctx;
    long long off = lab1_pixel_offset(t->block_idx, t->block_dim, t->thread_idx, sim->width,
                                      sim->height);
    if (off >= 0)
        coverage_record(&sim->map, off);
    else if (off != -1 && !sim->found_bad) {
        sim->found_bad = 1;
        sim->bad_offset = off;
        sim->bad_block = t->block_idx;
        sim->bad_thread = t->thread_idx;
    }
    return 0;
}

void cpu_pixel_offset_coverage(void **state)
{
    (void)state;
    /* The course's 76x62 image, single rows and columns, and sizes one
     * above/below the 16-thread block edge. */
    const int shapes[][2] = {{76, 62}, {1, 4097}, {4097, 1}, {1, 1}, {15, 17}, {17, 15},
                             {1000, 3}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        image_sim sim = {.width = shapes[k][0], .height = shapes[k][1]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.width * sim.height), "out of memory");
        lab_dim3 grid = sim_dim3(sim_ceil_div(sim.width, LAB1_IMAGE_BLOCK_X),
                                sim_ceil_div(sim.height, LAB1_IMAGE_BLOCK_Y), 1);
        launch_sim_run(grid, sim_dim3(LAB1_IMAGE_BLOCK_X, LAB1_IMAGE_BLOCK_Y, 1), visit_image,
                       &sim);
        if (sim.found_bad) {
            coverage_free(&sim.map);
            GRADER_FAIL("TODO(1.4) lab1_pixel_offset on a %dx%d image: thread (%d,%d) of block "
                        "(%d,%d) returned %lld; offsets are >= 0, and -1 means 'outside the "
                        "image'. See %s, section %s.",
                        sim.width, sim.height, sim.bad_thread.x, sim.bad_thread.y,
                        sim.bad_block.x, sim.bad_block.y, sim.bad_offset, PIXEL_OFFSET.handout, PIXEL_OFFSET.section);
        }
        char what[96];
        snprintf(what, sizeof what, "lab1_pixel_offset on a %dx%d (width x height) image",
                 sim.width, sim.height);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", PIXEL_OFFSET);
    }
}

void cpu_pixel_offset_layout(void **state)
{
    (void)state;
    const int width = 76, height = 62;
    lab_dim3 block = sim_dim3(LAB1_IMAGE_BLOCK_X, LAB1_IMAGE_BLOCK_Y, 1);
    for (int by = 0; by < sim_ceil_div(height, block.y); ++by)
        for (int bx = 0; bx < sim_ceil_div(width, block.x); ++bx)
            for (int ty = 0; ty < block.y; ++ty)
                for (int tx = 0; tx < block.x; ++tx) {
                    int col = bx * block.x + tx, row = by * block.y + ty;
                    long long want = (col < width && row < height)
                                         ? (long long)row * width + col : -1;
                    long long got = lab1_pixel_offset(sim_dim3(bx, by, 0), block,
                                                      sim_dim3(tx, ty, 0), width, height);
                    if (got == want)
                        continue;
                    /* The two swaps students write: x * height + y (the
                     * image stored column by column) and x * width + y
                     * (x taken for the row: the natural slip). */
                    const char *swap = NULL;
                    if (want >= 0 && got == (long long)col * width + row)
                        swap = "x * width + y";
                    else if (want >= 0 && got == (long long)col * height + row)
                        swap = "x * height + y";
                    char advice[192];
                    if (swap)
                        snprintf(advice, sizeof advice,
                                 "x and y are swapped (the offset is %s): x must pick the "
                                 "column and y the row, so that a warp reads contiguous runs "
                                 "of a row.",
                                 swap);
                    else
                        snprintf(advice, sizeof advice, "x must pick the column and y the row.");
                    GRADER_FAIL("TODO(1.4) lab1_pixel_offset, 76x62 image: thread (%d,%d) of "
                                "block (%d,%d) owns row %d, column %d, so its offset is %lld; "
                                "got %lld. %s See %s, section %s.",
                                tx, ty, bx, by, row, col, want, got, advice, PIXEL_OFFSET.handout,
                                PIXEL_OFFSET.section);
                }
}

/* ---------------------------------------------------------- TODO 1.5 */

static void expect_grid(lab_dim3 got, lab_dim3 want, const char *call, todo_pointer where)
{
    GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                 "TODO(%s) %s returned a grid of %dx%dx%d blocks, expected %dx%dx%d: the "
                 "fewest blocks that still give every element a thread. See %s, section %s.",
                 where.todo, call, got.x, got.y, got.z, want.x, want.y, want.z, where.handout,
                 where.section);
}

/* "lab1_blocks_for(76, 16) returned 4, expected 5" into out, and 1, when
 * lab1_blocks_for is wrong for one of the first `dims` (n, block) pairs and
 * `got` is exactly what it gives for them: the grid then follows the wrong
 * helper, and may itself be written right. */
static int grid_follows_wrong_blocks_for(lab_dim3 got, const int n[3], const int block[3],
                                         int dims, char *out, size_t size)
{
    const int parts[3] = {got.x, got.y, got.z};
    int wrong = -1;
    for (int d = 0; d < dims; ++d) {
        int helper = lab1_blocks_for(n[d], block[d]);
        if (parts[d] != helper)
            return 0;
        if (helper != sim_ceil_div(n[d], block[d]) && wrong < 0)
            wrong = d;
    }
    if (wrong < 0)
        return 0;
    snprintf(out, size, "lab1_blocks_for(%d, %d) returned %d, expected %d", n[wrong],
             block[wrong], parts[wrong], sim_ceil_div(n[wrong], block[wrong]));
    return 1;
}

int lab1_blame_blocks_for(int n, int block_size, char *out, size_t size)
{
    int got = lab1_blocks_for(n, block_size), want = sim_ceil_div(n, block_size);
    if (got == want)
        return 0;
    snprintf(out, size, "It uses lab1_blocks_for (TODO(1.2)), which is wrong: "
             "lab1_blocks_for(%d, %d) returned %d, expected %d. Fix that first "
             "(cpu_blocks_for_is_ceil_div; %s, section %s).",
             n, block_size, got, want, BLOCKS_FOR.handout, BLOCKS_FOR.section);
    return 1;
}

/* A grid helper's cascade: the blame goes to lab1_blocks_for when the grid
 * follows it, else to the grid helper itself. */
static int blame_grid(const char *call, todo_pointer where, lab_dim3 got, const int n[3],
                      const int block[3], int dims, char *out, size_t size)
{
    lab_dim3 want = sim_dim3(sim_ceil_div(n[0], block[0]), sim_ceil_div(n[1], block[1]),
                             sim_ceil_div(n[2], block[2]));
    if (got.x == want.x && got.y == want.y && got.z == want.z)
        return 0;
    char why[96];
    if (grid_follows_wrong_blocks_for(got, n, block, dims, why, sizeof why))
        snprintf(out, size, "It launches %s, which uses lab1_blocks_for (TODO(1.2)), which is "
                 "wrong: %s. Fix that first (cpu_blocks_for_is_ceil_div; %s, section %s).",
                 call, why, BLOCKS_FOR.handout, BLOCKS_FOR.section);
    else
        snprintf(out, size, "It launches %s (TODO(%s)), which is wrong: %dx%dx%d blocks, "
                 "expected %dx%dx%d. Fix that first (%s, section %s).",
                 call, where.todo, got.x, got.y, got.z, want.x, want.y, want.z, where.handout,
                 where.section);
    return 1;
}

int lab1_blame_image_grid(int width, int height, char *out, size_t size)
{
    const int n[3] = {width, height, 1};
    const int block[3] = {LAB1_IMAGE_BLOCK_X, LAB1_IMAGE_BLOCK_Y, 1};
    char call[64];
    snprintf(call, sizeof call, "lab1_image_grid(%d, %d)", width, height);
    return blame_grid(call, IMAGE_GRID, lab1_image_grid(width, height), n, block, 2, out, size);
}

int lab1_blame_volume_grid(int nx, int ny, int nz, char *out, size_t size)
{
    const int n[3] = {nx, ny, nz};
    const int block[3] = {LAB1_VOLUME_BLOCK_X, LAB1_VOLUME_BLOCK_Y, LAB1_VOLUME_BLOCK_Z};
    char call[64];
    snprintf(call, sizeof call, "lab1_volume_grid(%d, %d, %d)", nx, ny, nz);
    return blame_grid(call, VOLUME_GRID, lab1_volume_grid(nx, ny, nz), n, block, 3, out, size);
}

/* A grid check whose grid follows a wrong lab1_blocks_for fails naming
 * TODO(1.2), not the grid's own TODO, which may be right. */
static void expect_grid_or_blame(lab_dim3 got, const int n[3], const int block[3], int dims,
                                 const char *call, todo_pointer where)
{
    char why[96];
    if (grid_follows_wrong_blocks_for(got, n, block, dims, why, sizeof why))
        GRADER_FAIL("%s uses lab1_blocks_for (TODO(1.2)), which is wrong: %s. Fix that first "
                    "(cpu_blocks_for_is_ceil_div; %s, section %s); %s itself may be right.",
                    call, why, BLOCKS_FOR.handout, BLOCKS_FOR.section, call);
    expect_grid(got,
                sim_dim3(sim_ceil_div(n[0], block[0]), sim_ceil_div(n[1], block[1]),
                         sim_ceil_div(n[2], block[2])),
                call, where);
}

void cpu_image_grid_covers_image(void **state)
{
    (void)state;
    const int shapes[][2] = {{76, 62}, {1, 4097}, {4097, 1}, {16, 16}, {17, 15}, {8192, 8192}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        int w = shapes[k][0], h = shapes[k][1];
        char call[64];
        snprintf(call, sizeof call, "lab1_image_grid(%d, %d)", w, h);
        const int n[3] = {w, h, 1};
        const int block[3] = {LAB1_IMAGE_BLOCK_X, LAB1_IMAGE_BLOCK_Y, 1};
        expect_grid_or_blame(lab1_image_grid(w, h), n, block, 2, call, IMAGE_GRID);
    }
}

/* ------------------------------------------------------ TODO 1.7 - 1.9 */

static const int volume_shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 9}, {65, 1, 70},
                                       {3, 130, 5}, {8, 8, 4}};

void cpu_voxel_coords(void **state)
{
    (void)state;
    lab_dim3 block = sim_dim3(LAB1_VOLUME_BLOCK_X, LAB1_VOLUME_BLOCK_Y, LAB1_VOLUME_BLOCK_Z);
    lab_dim3 samples[][2] = {{{0, 0, 0}, {0, 0, 0}}, {{2, 3, 4}, {1, 5, 3}},
                             {{7, 0, 1}, {7, 7, 0}}, {{0, 9, 0}, {3, 0, 2}}};
    for (size_t k = 0; k < sizeof samples / sizeof samples[0]; ++k) {
        lab_dim3 b = samples[k][0], t = samples[k][1];
        lab_dim3 want = sim_dim3(b.x * block.x + t.x, b.y * block.y + t.y, b.z * block.z + t.z);
        lab_dim3 got = lab1_voxel_coords(b, block, t);
        GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                     "TODO(1.7) lab1_voxel_coords: thread (%d,%d,%d) of block (%d,%d,%d), "
                     "blocks of %dx%dx%d, returned (%d,%d,%d), expected (%d,%d,%d). Each "
                     "dimension works like the 1D index. See %s, section %s.",
                     t.x, t.y, t.z, b.x, b.y, b.z, block.x, block.y, block.z, got.x, got.y, got.z,
                     want.x, want.y, want.z, VOXEL_COORDS.handout, VOXEL_COORDS.section);
    }
}

typedef struct {
    coverage_map map;
    int nx, ny, nz;
    int layout_errors;
    lab_dim3 first_bad;
    long long first_got, first_want;
} volume_sim;

static int visit_volume(const sim_thread *t, void *ctx)
{
    volume_sim *sim = ctx;
    /* The grader's own coordinates, so only TODO(1.8) is graded here. */
    lab_dim3 c = sim_dim3(t->block_idx.x * t->block_dim.x + t->thread_idx.x,
                         t->block_idx.y * t->block_dim.y + t->thread_idx.y,
                         t->block_idx.z * t->block_dim.z + t->thread_idx.z);
    long long got = lab1_voxel_offset(c, sim->nx, sim->ny, sim->nz);
    int inside = c.x < sim->nx && c.y < sim->ny && c.z < sim->nz;
    long long want = inside ? ((long long)c.z * sim->ny + c.y) * sim->nx + c.x : -1;
    if (got != want && sim->layout_errors++ == 0) {
        sim->first_bad = c;
        sim->first_got = got;
        sim->first_want = want;
    }
    if (got >= 0)
        coverage_record(&sim->map, got);
    return 0;
}

void cpu_voxel_offset_coverage_and_layout(void **state)
{
    (void)state;
    lab_dim3 block = sim_dim3(LAB1_VOLUME_BLOCK_X, LAB1_VOLUME_BLOCK_Y, LAB1_VOLUME_BLOCK_Z);
    for (size_t k = 0; k < sizeof volume_shapes / sizeof volume_shapes[0]; ++k) {
        volume_sim sim = {.nx = volume_shapes[k][0], .ny = volume_shapes[k][1],
                          .nz = volume_shapes[k][2]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.nx * sim.ny * sim.nz), "out of memory");
        lab_dim3 grid = sim_dim3(sim_ceil_div(sim.nx, block.x), sim_ceil_div(sim.ny, block.y),
                                sim_ceil_div(sim.nz, block.z));
        launch_sim_run(grid, block, visit_volume, &sim);
        if (sim.layout_errors) {
            coverage_free(&sim.map);
            GRADER_FAIL("TODO(1.8) lab1_voxel_offset in a %dx%dx%d volume: voxel (x=%d, y=%d, "
                        "z=%d) gave %lld, expected %lld (%d voxels wrong). x varies fastest, "
                        "then y, then z; -1 outside the volume. See %s, section %s.",
                        sim.nx, sim.ny, sim.nz, sim.first_bad.x, sim.first_bad.y,
                        sim.first_bad.z, sim.first_got, sim.first_want, sim.layout_errors,
                        VOXEL_OFFSET.handout, VOXEL_OFFSET.section);
        }
        coverage_free(&sim.map);
    }
}

void cpu_volume_grid_covers_volume(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof volume_shapes / sizeof volume_shapes[0]; ++k) {
        int nx = volume_shapes[k][0], ny = volume_shapes[k][1], nz = volume_shapes[k][2];
        char call[64];
        snprintf(call, sizeof call, "lab1_volume_grid(%d, %d, %d)", nx, ny, nz);
        const int n[3] = {nx, ny, nz};
        const int block[3] = {LAB1_VOLUME_BLOCK_X, LAB1_VOLUME_BLOCK_Y, LAB1_VOLUME_BLOCK_Z};
        expect_grid_or_blame(lab1_volume_grid(nx, ny, nz), n, block, 3, call, VOLUME_GRID);
    }
}

/* ---------------------------------------------------------- TODO 1.10 */

typedef struct {
    coverage_map map;
    int n, step;
} stride_sim;

static int visit_stride(const sim_thread *t, void *ctx)
{
    stride_sim *sim = ctx;
    int first = t->block_idx.x * t->block_dim.x + t->thread_idx.x;
    for (long long i = first; i < sim->n; i += sim->step)
        coverage_record(&sim->map, i);
    return 0;
}

void cpu_grid_stride_coverage(void **state)
{
    (void)state;
    lab_dim3 grid = sim_dim3(LAB1_STRIDE_BLOCKS, 1, 1);
    lab_dim3 block = sim_dim3(LAB1_STRIDE_THREADS, 1, 1);
    int step = lab1_grid_stride_step(grid, block);
    GRADER_CHECK(step == LAB1_STRIDE_BLOCKS * LAB1_STRIDE_THREADS,
                 "TODO(1.10) lab1_grid_stride_step for %d blocks of %d threads returned %d; "
                 "with that step %s. See %s, section %s.",
                 LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS, step,
                 step <= 0 ? "the loop never advances (a hang on the GPU)"
                 : step < LAB1_STRIDE_BLOCKS * LAB1_STRIDE_THREADS
                     ? "threads would redo each other's elements"
                     : "elements between passes would be skipped",
                 GRID_STRIDE.handout, GRID_STRIDE.section);
    const int sizes[] = {1, 33, 32768, 32769, 1000003};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        stride_sim sim = {.n = sizes[k], .step = step};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.n), "out of memory");
        launch_sim_run(grid, block, visit_stride, &sim);
        char what[96];
        snprintf(what, sizeof what, "grid-stride loop over n=%d", sim.n);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", GRID_STRIDE);
    }
}

/* --------------------------------------------------------- TODO 1.11 */

void cpu_warp_and_lane(void **state)
{
    (void)state;
    /* Simulated threads carry the hardware's numbering; compare with it. */
    lab_dim3 shapes[] = {{LAB1_WHOAMI_BLOCK_X, LAB1_WHOAMI_BLOCK_Y, 1}, {256, 1, 1},
                         {8, 4, 4}, {5, 7, 3}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        lab_dim3 block = shapes[k];
        for (int z = 0; z < block.z; ++z)
            for (int y = 0; y < block.y; ++y)
                for (int x = 0; x < block.x; ++x) {
                    int want = x + block.x * (y + block.y * z);
                    lab_dim3 t = sim_dim3(x, y, z);
                    int got = lab1_thread_in_block(t, block);
                    GRADER_CHECK(got == want,
                                 "TODO(1.11) lab1_thread_in_block: thread (%d,%d,%d) of a "
                                 "%dx%dx%d block returned %d, expected %d: x counts fastest, "
                                 "then y, then z. See %s, section %s.",
                                 x, y, z, block.x, block.y, block.z, got, want, WARP_LANE.handout, WARP_LANE.section);
                    GRADER_CHECK(lab1_warp_of(want) == want / 32 &&
                                     lab1_lane_of(want) == want % 32,
                                 "TODO(1.11) lab1_warp_of/lab1_lane_of(%d) returned warp %d, "
                                 "lane %d; expected warp %d, lane %d (a warp is 32 consecutive "
                                 "linear ids). See %s, section %s.",
                                 want, lab1_warp_of(want), lab1_lane_of(want), want / 32,
                                 want % 32, WARP_LANE.handout, WARP_LANE.section);
                }
    }
}
