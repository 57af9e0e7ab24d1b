#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common_tests.h"
#include "guard.h"

enum { ZONE = 64 };

void guard_detects_write_after_end(void **state)
{
    (void)state;
    unsigned char zone[ZONE];
    guard_fill_canary(zone, ZONE);
    guard_damage d;
    assert_true(guard_check_canary(zone, ZONE, &d));
    float stray = 1.0f;
    memcpy(zone + 8, &stray, 4); /* the third element past the end */
    assert_false(guard_check_canary(zone, ZONE, &d));
    assert_int_equal(d.corrupted_words, 1);
    assert_int_equal(d.first_word, 2);
    char text[200];
    guard_describe_damage(&d, 1, ZONE, "out", text, sizeof text);
    assert_non_null(strstr(text, "8 to 11 bytes after the end of `out`"));
}

void guard_detects_write_before_start(void **state)
{
    (void)state;
    unsigned char zone[ZONE];
    guard_fill_canary(zone, ZONE);
    zone[ZONE - 1] = 0; /* the last byte of the leading zone: element -1 */
    guard_damage d;
    assert_false(guard_check_canary(zone, ZONE, &d));
    char text[200];
    guard_describe_damage(&d, 0, ZONE, "c", text, sizeof text);
    assert_non_null(strstr(text, "from 4 to 4 bytes before the start of `c`"));
}

void guard_poison_is_recognisable_nan(void **state)
{
    (void)state;
    float p = guard_poison_value();
    assert_true(isnan(p));
    assert_true(guard_is_poison(p));
    assert_false(guard_is_poison(0.0f));
    uint32_t canary = GUARD_CANARY_BITS;
    float as_float;
    memcpy(&as_float, &canary, 4);
    assert_false(guard_is_poison(as_float));
}
