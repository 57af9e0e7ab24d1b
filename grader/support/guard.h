/* Poison and canary guard zones, as host-side logic.
 *
 * Outputs are filled with a recognisable NaN (the poison) before every run,
 * so an element the kernel never wrote cannot pass and can be named. Around
 * every output buffer sits a guard zone filled with a different pattern (the
 * canary); any change to it after the run is an out-of-bounds write. This
 * file is plain C on host memory so it can be unit-tested without a GPU;
 * device_buffer.h applies it to device allocations. */
#ifndef GUARD_H
#define GUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A quiet NaN with a payload no arithmetic produces. */
#define GUARD_POISON_BITS 0x7FC0DEADu
/* The canary: a word that is not a float a kernel would plausibly write. */
#define GUARD_CANARY_BITS 0xCA7A11C3u
/* The same bits read as an int (2143346349), so a device buffer poisoned
 * word by word is recognised whatever type the kernel writes into it. */
#define GUARD_POISON_INT ((int)GUARD_POISON_BITS)
/* Bytes of canary before and after each buffer: 16 KiB catches an overrun
 * of a whole row of a 4096-wide float image. */
#define GUARD_ZONE_BYTES 16384u

int guard_is_poison(float value);
float guard_poison_value(void);

/* Fills `bytes` (a multiple of 4) with the canary pattern. */
void guard_fill_canary(void *zone, size_t bytes);

typedef struct {
    size_t corrupted_words;   /* 4-byte words of the zone that changed */
    size_t first_word;        /* index of the first changed word in the zone */
    size_t last_word;
} guard_damage;

/* Returns 1 when the zone still holds only the canary. */
int guard_check_canary(const void *zone, size_t bytes, guard_damage *damage);

/* One sentence for the report, e.g. "3 words written up to 12 bytes after
 * the end of `out`". `after_end` says which zone it was. */
void guard_describe_damage(const guard_damage *damage, int after_end, size_t zone_bytes,
                           const char *buffer_name, char *out, size_t out_size);

void guard_fill_poison_floats(float *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif
