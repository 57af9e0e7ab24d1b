/* A block's rounds of vector loads into a shared-memory tile, on the CPU.
 *
 * Labs 7 and 8 stage tiles of A and B through shared memory with 16-byte
 * loads: in each round, thread t of the block loads `width` neighbouring
 * elements of one row of the tile, and the student's helper says which.
 * The rounds together must load every element exactly once, each load must
 * lie inside the tile and start on a multiple of `width`, and a warp's
 * loads should touch few 32-byte sectors. This walks every round of every
 * thread, in the order the graders have always called the helper (round,
 * warp, lane: the runner replays the calls in that order), and reports the
 * first fault or, without one, the warp request furthest from its ideal.
 * The messages stay the lab's own: each names its TODO and section. */
#ifndef TILE_LOADS_H
#define TILE_LOADS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The first element of one load: row and column within the tile. */
typedef struct {
    int row, col;
} tile_load_at;

/* The student's helper, through the lab's adapter: where thread `thread`
 * of `threads` loads in round `round` of a tile `tile_cols` wide. */
typedef tile_load_at (*tile_load_fn)(int thread, int round, int threads, int tile_cols);

typedef struct {
    int rows, cols;     /* the tile, in elements */
    int threads;        /* the block's; a multiple of the warp size */
    int width;          /* elements per load: 4 floats, 8 halves */
    int element_bytes;  /* 4 for a float, 2 for a half */
    int matrix_cols;    /* the row-major matrix the tile sits in, for the sectors */
} tile_loads_shape;

typedef enum {
    TILE_LOADS_COVERED, /* every element once, every load inside and aligned */
    TILE_LOADS_OUTSIDE, /* a load outside the tile, or not on a multiple of width */
    TILE_LOADS_TWICE,   /* an element loaded a second time */
    TILE_LOADS_NEVER    /* an element no load reached */
} tile_loads_fault;

typedef struct {
    int rounds;             /* rows * cols / width / threads */
    tile_loads_fault fault;
    int thread, round;      /* OUTSIDE, TWICE: the load at fault */
    int row, col;           /* OUTSIDE: what the helper returned; TWICE, NEVER: the element */
    /* COVERED: the warp request furthest from its ideal (the first on ties) */
    double worst_ratio;
    int worst_sectors, worst_ideal, worst_warp, worst_round;
} tile_loads_survey;

/* 0 when out of host memory (nothing walked), else 1 with `out` filled. */
int tile_loads_walk(const tile_loads_shape *shape, tile_load_fn load, tile_loads_survey *out);

#ifdef __cplusplus
}
#endif

#endif
