/* Status codes returned by every lab entry point (the lab <-> grader contract).
 *
 * A lab function never crashes on bad input: it returns one of these codes and
 * leaves a one-line explanation that lab_last_error() returns. */
#ifndef LAB_STATUS_H
#define LAB_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LAB_OK = 0,
    LAB_ERR_INVALID_SIZE = 1,   /* zero, negative or overflowing size */
    LAB_ERR_UNSUPPORTED = 2,    /* a size this kernel does not handle */
    LAB_ERR_CUDA = 3,           /* a CUDA call or a launch failed */
    LAB_ERR_NULL_POINTER = 4
} lab_status;

/* Records the explanation for the status being returned (the caller reads it
 * with lab_last_error(); nothing is printed) and returns the status, so
 * callers can write
 * `return lab_fail(LAB_ERR_INVALID_SIZE, "n=%d must be positive", n);`. */
lab_status lab_fail(lab_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The message of the last lab_fail() in this thread ("" if none). */
const char *lab_last_error(void);
void lab_clear_error(void);
const char *lab_status_name(lab_status status);

/* Input validation shared by every entry point. Each returns LAB_OK or the
 * error (with its message) so a wrapper can `return` it directly. */

/* Extents must be positive and their product must fit in an int, since the
 * kernels index with int. Pass 1 for unused dimensions. */
lab_status lab_check_extents(const char *function, int d0, int d1, int d2);
/* NULL is never a valid buffer (pass a valid pointer for unused ones). */
lab_status lab_check_pointers(const char *function, const void *p0, const void *p1,
                              const void *p2);

#ifdef __cplusplus
}
#endif

#endif
