#include "guard.h"

#include <stdio.h>
#include <string.h>

static uint32_t float_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

int guard_is_poison(float value) { return float_bits(value) == GUARD_POISON_BITS; }

float guard_poison_value(void)
{
    uint32_t bits = GUARD_POISON_BITS;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

void guard_fill_canary(void *zone, size_t bytes)
{
    uint32_t word = GUARD_CANARY_BITS;
    for (size_t i = 0; i < bytes / 4; ++i)
        memcpy((char *)zone + 4 * i, &word, 4);
}

int guard_check_canary(const void *zone, size_t bytes, guard_damage *damage)
{
    guard_damage d = {0, 0, 0};
    for (size_t i = 0; i < bytes / 4; ++i) {
        uint32_t word;
        memcpy(&word, (const char *)zone + 4 * i, 4);
        if (word == GUARD_CANARY_BITS)
            continue;
        if (d.corrupted_words == 0)
            d.first_word = i;
        d.last_word = i;
        ++d.corrupted_words;
    }
    if (damage)
        *damage = d;
    return d.corrupted_words == 0;
}

void guard_describe_damage(const guard_damage *damage, int after_end, size_t zone_bytes,
                           const char *buffer_name, char *out, size_t out_size)
{
    if (after_end) {
        /* Word 0 of the trailing zone is the first element past the end. */
        snprintf(out, out_size,
                 "out-of-bounds write: %zu words changed from %zu to %zu bytes after the end of `%s`",
                 damage->corrupted_words, 4 * damage->first_word,
                 4 * damage->last_word + 3, buffer_name);
    } else {
        /* The leading zone ends where the buffer starts. */
        snprintf(out, out_size,
                 "out-of-bounds write: %zu words changed from %zu to %zu bytes before the start of `%s`",
                 damage->corrupted_words, zone_bytes - 4 * damage->last_word,
                 zone_bytes - 4 * damage->first_word, buffer_name);
    }
}

void guard_fill_poison_floats(float *data, size_t n)
{
    float poison = guard_poison_value();
    for (size_t i = 0; i < n; ++i)
        data[i] = poison;
}
