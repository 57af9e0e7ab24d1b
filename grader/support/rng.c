#include "rng.h"

#include <stdlib.h>

rng_state rng_make(uint64_t seed)
{
    rng_state rng = {seed};
    return rng;
}

uint64_t rng_next_u64(rng_state *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double rng_next_unit(rng_state *rng)
{
    /* 53 random bits: every double in [0, 1) on a 2^-53 grid. */
    return (double)(rng_next_u64(rng) >> 11) * (1.0 / 9007199254740992.0);
}

void rng_fill_uniform(float *out, size_t n, uint64_t seed, float lo, float hi)
{
    rng_state rng = rng_make(seed);
    for (size_t i = 0; i < n; ++i)
        out[i] = (float)(lo + (hi - lo) * rng_next_unit(&rng));
}

void rng_fill_integers(float *out, size_t n, uint64_t seed, int lo, int hi)
{
    rng_state rng = rng_make(seed);
    uint64_t span = (uint64_t)((long long)hi - lo + 1);
    for (size_t i = 0; i < n; ++i)
        out[i] = (float)(lo + (long long)(rng_next_u64(&rng) % span));
}

uint64_t rng_seed_from_env(uint64_t fallback)
{
    const char *text = getenv("LAB_SEED");
    if (!text || !*text)
        return fallback;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    return (end && *end == '\0') ? (uint64_t)value : fallback;
}
