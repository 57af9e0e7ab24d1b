#include "device_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "guard.h"

__global__ void fill_u32_kernel(uint32_t *words, uint32_t word, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        words[i] = word;
}

extern "C" void device_fill_u32(void *device_words, uint32_t word, size_t n)
{
    if (n == 0)
        return;
    size_t blocks = (n + 255) / 256;
    fill_u32_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(
        (uint32_t *)device_words, word, n);
    CUDA_CHECK(cudaGetLastError());
}

static unsigned char *trailing_zone(const device_buffer *buf)
{
    /* Round the payload up to whole words so the zone stays word-aligned. */
    return (unsigned char *)buf->data + (buf->bytes + 3) / 4 * 4;
}

extern "C" void dbuf_alloc(device_buffer *buf, const char *name, size_t bytes)
{
    memset(buf, 0, sizeof *buf);
    snprintf(buf->name, sizeof buf->name, "%s", name);
    buf->bytes = bytes;
    size_t payload_words = (bytes + 3) / 4;
    void *base = NULL;
    CUDA_CHECK(cudaMalloc(&base, 2 * GUARD_ZONE_BYTES + 4 * payload_words));
    buf->base = (unsigned char *)base;
    buf->data = buf->base + GUARD_ZONE_BYTES;
}

extern "C" void dbuf_free(device_buffer *buf)
{
    if (buf->base)
        CUDA_CHECK(cudaFree(buf->base));
    buf->base = NULL;
    buf->data = NULL;
}

static void set_canaries(device_buffer *buf)
{
    device_fill_u32(buf->base, GUARD_CANARY_BITS, GUARD_ZONE_BYTES / 4);
    device_fill_u32(trailing_zone(buf), GUARD_CANARY_BITS, GUARD_ZONE_BYTES / 4);
}

extern "C" void dbuf_poison(device_buffer *buf)
{
    set_canaries(buf);
    device_fill_u32(buf->data, GUARD_POISON_BITS, (buf->bytes + 3) / 4);
    CUDA_CHECK(cudaDeviceSynchronize());
}

extern "C" void dbuf_upload(device_buffer *buf, const void *host)
{
    set_canaries(buf);
    CUDA_CHECK(cudaMemcpy(buf->data, host, buf->bytes, cudaMemcpyHostToDevice));
}

extern "C" void dbuf_download(const device_buffer *buf, void *host)
{
    CUDA_CHECK(cudaMemcpy(host, buf->data, buf->bytes, cudaMemcpyDeviceToHost));
}

extern "C" int dbuf_guards_intact(const device_buffer *buf, char *message, size_t message_size)
{
    unsigned char *zone = (unsigned char *)malloc(GUARD_ZONE_BYTES);
    if (!zone) {
        snprintf(message, message_size, "out of host memory checking `%s`", buf->name);
        return 0;
    }
    int intact = 1;
    guard_damage damage;
    CUDA_CHECK(cudaMemcpy(zone, buf->base, GUARD_ZONE_BYTES, cudaMemcpyDeviceToHost));
    if (!guard_check_canary(zone, GUARD_ZONE_BYTES, &damage)) {
        guard_describe_damage(&damage, 0, GUARD_ZONE_BYTES, buf->name, message, message_size);
        intact = 0;
    }
    CUDA_CHECK(cudaMemcpy(zone, trailing_zone(buf), GUARD_ZONE_BYTES, cudaMemcpyDeviceToHost));
    if (intact && !guard_check_canary(zone, GUARD_ZONE_BYTES, &damage)) {
        guard_describe_damage(&damage, 1, GUARD_ZONE_BYTES, buf->name, message, message_size);
        intact = 0;
    }
    free(zone);
    return intact;
}

extern "C" int dbuf_equals_host(const device_buffer *buf, const void *host)
{
    void *copy = malloc(buf->bytes ? buf->bytes : 1);
    if (!copy)
        return 0;
    dbuf_download(buf, copy);
    int same = memcmp(copy, host, buf->bytes) == 0;
    free(copy);
    return same;
}
