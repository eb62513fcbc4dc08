#define _POSIX_C_SOURCE 200809L
#include "output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fftgen_write_file(const char *path, const char *text, size_t length, char *why, size_t why_len)
{
    const size_t path_len = strlen(path);
    char *temp = malloc(path_len + 16);
    if (temp == NULL) {
        snprintf(why, why_len, "cannot write '%s': out of memory", path);
        return -1;
    }
    snprintf(temp, path_len + 16, "%s.tmp.XXXXXX", path);
    const int fd = mkstemp(temp);
    if (fd < 0) {
        snprintf(why, why_len, "cannot write '%s': %s", path, strerror(errno));
        free(temp);
        return -1;
    }
    /* mkstemp creates the file 0600; give it the mode a plain fopen would */
    const mode_t mask = umask(0);
    umask(mask);
    int failed = fchmod(fd, 0666 & ~mask) != 0;
    for (size_t done = 0; !failed && done < length;) {
        const ssize_t n = write(fd, text + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) failed = 1;
        else done += (size_t)n;
    }
    int saved = errno;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(temp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        snprintf(why, why_len, "cannot write '%s': %s", path, strerror(saved));
        unlink(temp);
    }
    free(temp);
    return failed ? -1 : 0;
}
