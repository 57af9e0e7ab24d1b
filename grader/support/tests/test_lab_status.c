#include <string.h>

#include "common_tests.h"
#include "lab_status.h"

void lab_status_validates_extents(void **state)
{
    (void)state;
    assert_int_equal(lab_check_extents("f", 76, 62, 1), LAB_OK);
    assert_int_equal(lab_check_extents("f", 0, 62, 1), LAB_ERR_INVALID_SIZE);
    assert_non_null(strstr(lab_last_error(), "f: sizes (0, 62, 1) must all be positive"));
    assert_int_equal(lab_check_extents("f", 4, -1, 1), LAB_ERR_INVALID_SIZE);
    assert_int_equal(lab_check_extents("g", 65536, 32768, 1), LAB_ERR_INVALID_SIZE);
    assert_non_null(strstr(lab_last_error(), "more than an int indexes"));
    assert_int_equal(lab_check_extents("f", 46340, 46340, 1), LAB_OK);
}

void lab_status_validates_pointers(void **state)
{
    (void)state;
    int x = 0;
    assert_int_equal(lab_check_pointers("f", &x, &x, &x), LAB_OK);
    assert_int_equal(lab_check_pointers("f", &x, NULL, &x), LAB_ERR_NULL_POINTER);
    assert_string_equal(lab_status_name(LAB_ERR_NULL_POINTER), "LAB_ERR_NULL_POINTER");
}
