#include "lab_status.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

lab_status lab_fail(lab_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    return status;
}

const char *lab_last_error(void) { return last_error; }

void lab_clear_error(void) { last_error[0] = '\0'; }

const char *lab_status_name(lab_status status)
{
    switch (status) {
    case LAB_OK: return "LAB_OK";
    case LAB_ERR_INVALID_SIZE: return "LAB_ERR_INVALID_SIZE";
    case LAB_ERR_UNSUPPORTED: return "LAB_ERR_UNSUPPORTED";
    case LAB_ERR_CUDA: return "LAB_ERR_CUDA";
    case LAB_ERR_NULL_POINTER: return "LAB_ERR_NULL_POINTER";
    }
    return "LAB_ERR_UNKNOWN";
}

lab_status lab_check_extents(const char *function, int d0, int d1, int d2)
{
    if (d0 <= 0 || d1 <= 0 || d2 <= 0)
        return lab_fail(LAB_ERR_INVALID_SIZE, "%s: sizes (%d, %d, %d) must all be positive",
                        function, d0, d1, d2);
    long long total = (long long)d0 * d1 * d2;
    if (total > INT_MAX)
        return lab_fail(LAB_ERR_INVALID_SIZE,
                        "%s: sizes (%d, %d, %d) give %lld elements, more than an int indexes",
                        function, d0, d1, d2, total);
    return LAB_OK;
}

lab_status lab_check_pointers(const char *function, const void *p0, const void *p1,
                              const void *p2)
{
    if (!p0 || !p1 || !p2)
        return lab_fail(LAB_ERR_NULL_POINTER, "%s: a buffer pointer is NULL", function);
    return LAB_OK;
}
