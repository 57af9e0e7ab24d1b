#include <math.h>
#include <string.h>

#include "common_tests.h"
#include "compare.h"
#include "guard.h"

void compare_accepts_within_tolerance(void **state)
{
    (void)state;
    /* Tolerance at ref=2: 0.5 + 0.25*2 = 1.0. */
    compare_spec spec = {1, 1, 0.5, 0.25, 0};
    compare_result r;
    double ref = 2.0;
    float at_bound = 3.0f, beyond = 3.001f, below = 1.0f, under = 0.999f;
    assert_true(compare_floats(&at_bound, &ref, &spec, &r));
    assert_true(compare_floats(&below, &ref, &spec, &r));
    assert_false(compare_floats(&beyond, &ref, &spec, &r));
    assert_false(compare_floats(&under, &ref, &spec, &r));
    assert_int_equal(r.mismatches, 1);
}

void compare_rejects_nan_and_inf(void **state)
{
    (void)state;
    compare_spec spec = {1, 3, 1e30, 1e30, 0};
    compare_result r;
    double ref[3] = {0.0, 1.0, 2.0};
    float got[3] = {0.0f, NAN, INFINITY};
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.mismatches, 2);
    assert_int_equal(r.diagnosis, DIAG_NOT_FINITE);
}

void compare_reports_coordinates(void **state)
{
    (void)state;
    double ref[6] = {0, 1, 2, 3, 4, 5};
    float got[6] = {0, 1, 2, 3, 4, 7};
    compare_spec spec = {2, 3, 0.0, 0.0, 0};
    compare_result r;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_non_null(strstr(r.report, "1 of 6 elements wrong"));
    assert_non_null(strstr(r.report, "(1,2): got 7, expected 5"));
}

void compare_diagnoses_unwritten(void **state)
{
    (void)state;
    double ref[4] = {1, 2, 3, 4};
    float got[4];
    guard_fill_poison_floats(got, 4);
    compare_spec spec = {2, 2, 0.0, 0.0, 0};
    compare_result r;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.diagnosis, DIAG_NEVER_WRITTEN);
    assert_non_null(strstr(r.report, "never written"));
    got[0] = 1;
    got[1] = 2;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.diagnosis, DIAG_PARTLY_UNWRITTEN);
    assert_int_equal(r.poisoned, 2);
}

void compare_diagnoses_transposed(void **state)
{
    (void)state;
    /* ref is 2x3; got holds its transpose (3x2) in the same memory. */
    double ref[6] = {1, 2, 3, 4, 5, 6};
    float got[6] = {1, 4, 2, 5, 3, 6};
    compare_spec spec = {2, 3, 0.0, 0.0, 0};
    compare_result r;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.diagnosis, DIAG_TRANSPOSED);
}

void compare_diagnoses_partial_tile(void **state)
{
    (void)state;
    /* 3x3 with tile 2: only the last row and column are outside full tiles. */
    double ref[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    float got[9] = {1, 2, 0, 4, 5, 0, 0, 0, 0};
    compare_spec spec = {3, 3, 0.0, 0.0, 2};
    compare_result r;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.diagnosis, DIAG_PARTIAL_TILE);
    got[0] = 9; /* a wrong element inside a full tile: no longer that pattern */
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_not_equal(r.diagnosis, DIAG_PARTIAL_TILE);
}

void compare_diagnoses_row_shift(void **state)
{
    (void)state;
    /* got row r holds ref row r-1 (shifted down by one). */
    double ref[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    float got[9] = {0, 0, 0, 1, 2, 3, 4, 5, 6};
    compare_spec spec = {3, 3, 0.0, 0.0, 0};
    compare_result r;
    assert_false(compare_floats(got, ref, &spec, &r));
    assert_int_equal(r.diagnosis, DIAG_ROW_SHIFT);
}

void compare_ints_exact(void **state)
{
    (void)state;
    int ref[3] = {1, 2, 3}, got[3] = {1, 2, 3};
    compare_spec spec = {1, 3, 0.0, 0.0, 0};
    compare_result r;
    assert_true(compare_ints(got, ref, &spec, &r));
    got[2] = GUARD_POISON_INT;
    assert_false(compare_ints(got, ref, &spec, &r));
    assert_int_equal(r.poisoned, 1);
    assert_non_null(strstr(r.report, "(0,2)"));
}

void compare_dot_tolerance_grows_with_k(void **state)
{
    (void)state;
    assert_true(compare_dot_atol(4096) > compare_dot_atol(64));
    /* Far below the effect of one missing product of two values ~1/2. */
    assert_true(compare_dot_atol(4096) < 0.01);
    assert_true(compare_dot_atol(0) > 0.0);
}
