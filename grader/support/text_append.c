#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "text_append.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void text_append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strnlen(buf, size);
    if (used + 1 >= size)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf + used, size - used, fmt, args);
    va_end(args);
}
