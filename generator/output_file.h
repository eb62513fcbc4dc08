/* Writes a whole file or nothing: a temporary file beside the target, then rename. A symbolic link
 * keeps pointing at the file it names, which is replaced; a replaced file keeps its mode. A device,
 * pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in place instead, never replaced; '-' is
 * standard output. */
#ifndef FFTGEN_OUTPUT_FILE_H
#define FFTGEN_OUTPUT_FILE_H

#include <stddef.h>

/* Returns 0, or -1 with a one-line reason in `why`; on failure no file is left behind. */
int fftgen_write_file(const char *path, const char *text, size_t length, char *why, size_t why_len);

#endif
