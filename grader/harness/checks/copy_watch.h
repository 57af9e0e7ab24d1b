/* Lab 2's host flow, watched from the inside: every transfer the student's
 * lab2_matmul_host makes, every kernel it launches with its pointer
 * arguments, and whether C at the call's return is what the GPU's copy-back
 * wrote.
 *
 * Why: right numbers in C do not prove that the GPU computed them. C can
 * be computed on the CPU and uploaded, with the real kernel run into a
 * scratch buffer; or copied back from a buffer an empty decoy kernel never
 * touched, then overwritten on the CPU. So the host flow is held to its
 * contract, fail closed:
 *  - every transfer API of the runtime and the driver (CUPTI callback IDs
 *    whose names say Memcpy, Memset, MemPrefetch, MemAdvise, MemDiscard) and
 *    every API that makes host memory reachable from a kernel (managed,
 *    pinned, mapped or registered memory) is either understood (cudaMemcpy,
 *    cudaMemset and their Async/_ptds/_ptsz forms: noted with pointers and
 *    bytes) or refused: the call fails naming it. The set is built from
 *    CUPTI's own callback names (transfer_words in copy_watch.c), and the
 *    ctest harness.copy_ids_covered proves from the headers that no such
 *    ID is neither;
 *  - the uploads are exactly A and B, from the caller's pointers, into
 *    device memory; the only copy back is C, into the caller's pointer,
 *    from device memory; no other copy;
 *  - the buffer copied into c was a pointer argument of a kernel launched
 *    after both uploads that also received the device copies of A and B
 *    (kernel arguments are decoded with cuFuncGetParamInfo);
 *  - no kernel receives host memory (pinned, mapped, managed, or a plain
 *    host address the GPU could reach through HMM) as an argument, and the
 *    kernels' arguments by value stay small (C cannot ride in them);
 *  - C at the call's return is what the copy-back left (hashed when that
 *    copy returned: into pageable memory, which the caller's c is and stays
 *    since registering it is refused, even cudaMemcpyAsync returns only
 *    once the copy is done).
 * What stays out of reach is in docs/design.md, section 3.3. */
#ifndef COPY_WATCH_H
#define COPY_WATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The caller's side of one host-flow call. */
typedef struct {
    const void *a, *b; /* inputs, host */
    void *c;           /* output, host */
    size_t a_bytes, b_bytes, c_bytes;
} copy_watch_flow;

/* Arms the watch for the next student call (launch_watch_begin); NULL
 * disarms it. Unarmed, student calls are not held to these rules. */
void copy_watch_expect(const copy_watch_flow *flow);

/* After the call (it disarms the watch): 1 when the host flow kept every
 * rule above; else `why` says which one it broke, in a sentence for the
 * student, and the result is -1 for a rule broken during the call (a
 * refused API, copy or kernel argument: reported whatever the call
 * returned) or 0 for one judged at its end (a missing copy, C changed
 * afterwards, C not tied to the kernel: only meaningful when it succeeded). */
int copy_watch_verdict(char *why, size_t size);

/* Kernel arguments passed by value over the call (bytes), for the notes. */
size_t copy_watch_argument_bytes(void);

/* Most bytes of kernel arguments by value one host-flow call may pass: lab
 * 2's kernel needs 36 (3 pointers, 3 ints). */
enum { COPY_WATCH_ARGUMENT_BYTES_MAX = 4096 };

/* launch_watch.c's side: a student call starts (forget the last one's
 * records); a runtime or driver API callback inside one (domain and site
 * as CUPTI's; data is its CUpti_CallbackData). */
void copy_watch_reset(void);
void copy_watch_on_api(unsigned domain, unsigned cbid, const void *data);
/* The callback IDs to enable in a CUPTI domain, and how many. */
const unsigned *copy_watch_callbacks(unsigned domain, int *count);

#ifdef __cplusplus
}
#endif

#endif
