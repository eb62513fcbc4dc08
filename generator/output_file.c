#define _XOPEN_SOURCE 700 /* realpath */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes all of `text` to fd; returns 0 or an errno value. */
static int write_all(int fd, const char *text, size_t length)
{
    for (size_t done = 0; done < length;) {
        const ssize_t n = write(fd, text + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return EIO;
        done += (size_t)n;
    }
    return 0;
}

/* A device, a pipe or a socket (/dev/null, /dev/stdout, a FIFO) cannot be replaced by a rename, and
 * must not be: renaming a file over /dev/null would turn it into a plain file. It is written in
 * place, and what it took cannot be taken back. */
static int write_in_place(const char *path, const char *text, size_t length, char *why, size_t why_len)
{
    /* the process's own standard streams ('-' is standard output), where a shell may have opened a
     * file to append to */
    const int stream = strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 ? STDOUT_FILENO
                       : strcmp(path, "/dev/stderr") == 0                        ? STDERR_FILENO
                                                                                  : -1;
    const int fd = stream >= 0 ? stream : open(path, O_WRONLY | O_TRUNC);
    int error = fd < 0 ? errno : write_all(fd, text, length);
    if (fd >= 0 && stream < 0 && close(fd) != 0 && error == 0) error = errno;
    if (error == 0) return 0;
    snprintf(why, why_len, "cannot write '%s': %s", path, strerror(error));
    return -1;
}

int fftgen_write_file(const char *path, const char *text, size_t length, char *why, size_t why_len)
{
    if (strcmp(path, "-") == 0) return write_in_place(path, text, length, why, why_len);
    struct stat existing;
    const int exists = stat(path, &existing) == 0; /* through symbolic links */
    if (exists && S_ISDIR(existing.st_mode)) {
        snprintf(why, why_len, "cannot write '%s': %s", path, strerror(EISDIR));
        return -1;
    }
    /* /dev and /proc hold no temporary files: /dev/stdout is a link to /proc/self/fd/1, which may be
     * a plain file the shell opened, and that one is written as it is too */
    const int special = strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
    if (exists && (special || !S_ISREG(existing.st_mode))) return write_in_place(path, text, length, why, why_len);

    /* a symbolic link stays one: the file it names is replaced */
    struct stat link;
    char *resolved = NULL;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && exists) resolved = realpath(path, NULL);
    const char *target = resolved != NULL ? resolved : path;

    const size_t target_len = strlen(target);
    char *temp = malloc(target_len + 16);
    if (temp == NULL) {
        snprintf(why, why_len, "cannot write '%s': out of memory", path);
        free(resolved);
        return -1;
    }
    snprintf(temp, target_len + 16, "%s.tmp.XXXXXX", target);
    const int fd = mkstemp(temp);
    if (fd < 0) {
        snprintf(why, why_len, "cannot write '%s': %s", path, strerror(errno));
        free(temp);
        free(resolved);
        return -1;
    }
    /* mkstemp creates the file 0600: a file that is replaced keeps its mode, a new one gets the mode a
     * plain fopen would give it */
    const mode_t mask = umask(0);
    umask(mask);
    const mode_t mode = exists ? (existing.st_mode & 07777) : (0666 & ~mask);
    int error = fchmod(fd, mode) != 0 ? errno : write_all(fd, text, length);
    if (close(fd) != 0 && error == 0) error = errno;
    if (error == 0 && rename(temp, target) != 0) error = errno;
    if (error != 0) {
        snprintf(why, why_len, "cannot write '%s': %s", path, strerror(error));
        unlink(temp);
    }
    free(temp);
    free(resolved);
    return error != 0 ? -1 : 0;
}
