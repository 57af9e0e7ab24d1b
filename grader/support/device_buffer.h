/* Device buffers wrapped in canary guard zones and poisoned before each run.
 *
 *   [ GUARD_ZONE_BYTES canary | payload (bytes) | GUARD_ZONE_BYTES canary ]
 *
 * `data` points at the payload (256-byte aligned, like cudaMalloc). Every
 * call is CUDA_CHECKed, so in a grader a CUDA failure fails the test. */
#ifndef DEVICE_BUFFER_H
#define DEVICE_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char name[32];
    size_t bytes;
    unsigned char *base; /* the whole allocation, guards included */
    void *data;          /* the payload handed to the kernel */
} device_buffer;

void dbuf_alloc(device_buffer *buf, const char *name, size_t bytes);
void dbuf_free(device_buffer *buf);

/* Canaries around, poison (GUARD_POISON_BITS words) inside. */
void dbuf_poison(device_buffer *buf);
/* Canaries around, host bytes inside. */
void dbuf_upload(device_buffer *buf, const void *host);
void dbuf_download(const device_buffer *buf, void *host);

/* Returns 1 when both guard zones are intact; otherwise writes a sentence
 * naming the buffer and where the stray writes landed. */
int dbuf_guards_intact(const device_buffer *buf, char *message, size_t message_size);

/* Returns 1 when the payload still equals `host` byte for byte (inputs must
 * come back unchanged). */
int dbuf_equals_host(const device_buffer *buf, const void *host);

/* Fills n 32-bit words on the device with `word` (cudaMemset sets bytes). */
void device_fill_u32(void *device_words, uint32_t word, size_t n);

#ifdef __cplusplus
}
#endif

#endif
