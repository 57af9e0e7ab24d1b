/* What a wrong output looks like: the mismatch patterns every lab's
 * messages name, recognised from the output and the reference alone.
 *
 * Plain C on host arrays, so every pattern is unit-tested on the CPU
 * (mismatch_test.c). The GPU checks put the verdict's one line into their
 * message, next to the TODO and handout section it points to.
 *
 * An element is right when it is finite and |got - ref| <= atol + rtol*|ref|,
 * as in compare.h. Outputs are row-major rows x cols; a vector is 1 x n. */
#ifndef MISMATCH_H
#define MISMATCH_H

#include <stddef.h>

#include "compare.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MISMATCH_NONE = 0,         /* every element is right */
    MISMATCH_NEVER_WRITTEN,    /* every element still holds the NaN poison */
    MISMATCH_ALL_ZEROS,        /* every element is 0 */
    MISMATCH_TRANSPOSED,       /* got(r, c) = ref(c, r) */
    MISMATCH_XY_SWAPPED,       /* an image written through the offset x * width + y */
    MISMATCH_SHIFTED,          /* got(r, c) = ref(r + shift_rows, c + shift_cols), one step */
    MISMATCH_SCALED,           /* got = factor * ref everywhere, factor != 1 */
    MISMATCH_PAST_FIRST_BLOCK, /* the first block right, every element after it wrong */
    MISMATCH_PARTIAL_TILES,    /* only the last, partial tiles wrong */
    MISMATCH_FULL_TILES_ONLY,  /* the partial tiles right, elements of full tiles wrong */
    MISMATCH_PARTLY_UNWRITTEN, /* some elements still hold the poison, no other pattern */
    MISMATCH_UNKNOWN           /* wrong, in no pattern above */
} mismatch_kind;

typedef struct {
    size_t rows, cols;
    double atol, rtol;
    size_t tile;             /* output tile edge (matmul tiles, 2D blocks): the partial-tile
                                patterns; 0: none. On a vector (rows 1) it acts along cols. */
    size_t block;            /* 1D block size: "past the first block"; 0: not checked */
    size_t block_x, block_y; /* the 2D launch's block, for the grid an x/y swap runs on;
                                0: a grid exactly the size of the image */
} mismatch_spec;

typedef struct {
    mismatch_kind kind;
    size_t wrong;            /* elements outside the tolerance */
    size_t poisoned;         /* of those, still the NaN poison */
    double factor;           /* MISMATCH_SCALED */
    int shift_rows, shift_cols; /* MISMATCH_SHIFTED: got(r, c) holds ref(r + rows, c + cols) */
    char text[320];          /* one line: what the output looks like and what usually causes it */
} mismatch_verdict;

/* The spec of a comparison (shape, tolerance, tile); block sizes 0. */
mismatch_spec mismatch_spec_from_compare(const compare_spec *spec);

/* Classifies got against ref and returns verdict->kind. The first pattern
 * that fits wins, in the order of mismatch_kind: the whole-output patterns
 * (never written, zeros, transposed, swapped, shifted, scaled) before the
 * local ones (past the first block, partial tiles), so the partial-tile
 * verdict is given only when every full tile is right. */
mismatch_kind mismatch_classify(const float *got, const double *ref, const mismatch_spec *spec,
                                mismatch_verdict *verdict);

/* A short name of the pattern ("transposed", "x/y swapped", ...). */
const char *mismatch_kind_name(mismatch_kind kind);

/* Two runs of the same call on the same inputs: how many elements differ
 * bit for bit (a NaN equals the same NaN). *first_index (when not NULL)
 * gets the first that differs. A deterministic kernel gives 0; a race, or
 * a read of memory nothing wrote, gives more sooner or later. */
size_t mismatch_runs_differ(const float *first, const float *second, size_t n,
                            size_t *first_index);

#ifdef __cplusplus
}
#endif

#endif
