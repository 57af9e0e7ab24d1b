/* FNV-1a, 64 bits, over 8-byte words and then the last bytes: the harness's
 * check that bytes are the ones seen before (copy_watch.h: C after its
 * copy-back; call_log.h: a replayed helper call). Not for secrets. */
#ifndef FNV_HASH_H
#define FNV_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FNV_HASH_OFFSET 14695981039346656037ULL
#define FNV_HASH_PRIME 1099511628211ULL

/* h: FNV_HASH_OFFSET to start, or a previous result to go on. */
static inline uint64_t fnv_hash(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * FNV_HASH_PRIME;
    }
    for (; i < n; ++i)
        h = (h ^ p[i]) * FNV_HASH_PRIME;
    return h;
}

#endif
