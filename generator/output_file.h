/* Writes a whole file or nothing: a temporary file beside the target, then rename. */
#ifndef FFTGEN_OUTPUT_FILE_H
#define FFTGEN_OUTPUT_FILE_H

#include <stddef.h>

/* Returns 0, or -1 with a one-line reason in `why`; on failure no file is left behind. */
int fftgen_write_file(const char *path, const char *text, size_t length, char *why, size_t why_len);

#endif
