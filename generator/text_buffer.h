/* A growing text, always NUL-terminated: for files and keys built piece by piece. */
#ifndef FFTGEN_TEXT_BUFFER_H
#define FFTGEN_TEXT_BUFFER_H

#include <stddef.h>

typedef struct {
    char *data; /* malloc'd; NULL while empty; free() it */
    size_t length, capacity;
} fftgen_text_buffer;

/* Appends `length` bytes; -1 when out of memory (the text is left as it was). */
int fftgen_text_append(fftgen_text_buffer *b, const char *data, size_t length);

#endif
