/* Building a message piece by piece in a fixed buffer. */
#ifndef TEXT_APPEND_H
#define TEXT_APPEND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf-appends to the string in buf (size bytes in all); what does not fit
 * is cut, and the string always stays terminated. */
void text_append(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif
