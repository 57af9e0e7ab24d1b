/* Recording the CPU checks' calls to the student's helpers in the test
 * program, and replaying them in the runner. See call_log.h. */
#define _GNU_SOURCE /* memfd_create */
#include "call_log.h"
#include "fnv_hash.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

typedef enum { CALLS_OFF, CALLS_RECORD, CALLS_REPLAY } call_mode;

/* The record is a memfd the runner sized (CALL_LOG_BYTES, sparse) and both
 * sides map: a test program's writes to files stop at its output cap
 * (RLIMIT_FSIZE), stores into a mapping do not. After the header, one entry
 * per call: the hash, then the result's bytes. */
typedef struct {
    uint64_t used; /* bytes of entries */
    uint32_t full; /* the record ran out of room (the grader's limit) */
} log_header;

static call_mode mode = CALLS_OFF;
static log_header *header;
static unsigned char *entries;
static size_t capacity, read_at;
static int depth;           /* helper calls in progress: 1 is the checks' own */
static uint64_t hash;       /* of the current call's helper and arguments */
static const char *helper;  /* the current call's helper */
static long calls;          /* calls recorded or replayed so far */

void call_log_begin(const char *name)
{
    if (++depth > 1)
        return;
    helper = name;
    hash = fnv_hash(FNV_HASH_OFFSET, name, strlen(name) + 1);
}

void call_log_arg(const void *value, size_t bytes)
{
    if (depth == 1)
        hash = fnv_hash(hash, value, bytes);
}

static void record(const void *result, size_t bytes)
{
    size_t at = header->used;
    if (header->full || capacity - at < sizeof hash + bytes) {
        header->full = 1;
        return;
    }
    memcpy(entries + at, &hash, sizeof hash);
    memcpy(entries + at + sizeof hash, result, bytes);
    header->used = at + sizeof hash + bytes;
}

static void replay(void *result, size_t bytes)
{
    GRADER_CHECK(!header->full, "grader: the record of helper calls outgrew its %zu bytes "
                 "(CALL_LOG_BYTES, call_log.c): not graded as passed", capacity);
    /* Read once: what the test program left may still be changing under
     * us (a process it left behind), and must not move a read past the end. */
    uint64_t used = *(volatile uint64_t *)&header->used;
    if (used > capacity)
        used = capacity;
    if (used - read_at < sizeof hash + bytes)
        GRADER_FAIL("the test program's record of your helpers' results ends before call %ld "
                    "(%s), so this test did not run to its end there: did your code end the "
                    "process, or write the grader's memory?", calls + 1, helper);
    uint64_t want;
    memcpy(&want, entries + read_at, sizeof want);
    GRADER_CHECK(want == hash,
                 "the test program's record of your helpers' results differs from the checks' "
                 "calls at call %ld (%s), so the test program's verdict cannot be trusted: did "
                 "your code write the grader's memory?", calls + 1, helper);
    memcpy(result, entries + read_at + sizeof want, bytes);
    read_at += sizeof want + bytes;
}

void call_log_end(void *result, size_t bytes)
{
    if (depth-- > 1 || mode == CALLS_OFF)
        return;
    if (mode == CALLS_RECORD)
        record(result, bytes);
    else
        replay(result, bytes);
    ++calls;
}

int call_log_create(void)
{
    int fd = memfd_create("grader-calls", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, CALL_LOG_BYTES) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static int open_log(int fd, int prot, call_mode new_mode)
{
    void *base = mmap(NULL, CALL_LOG_BYTES, prot, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        return -1;
    header = base;
    entries = (unsigned char *)base + sizeof *header;
    capacity = CALL_LOG_BYTES - sizeof *header;
    mode = new_mode;
    return 0;
}

int call_log_record_to(int fd) { return open_log(fd, PROT_READ | PROT_WRITE, CALLS_RECORD); }

int call_log_replay_from(int fd) { return open_log(fd, PROT_READ, CALLS_REPLAY); }
