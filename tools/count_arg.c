#include "count_arg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

long long count_arg_parse(const char *program, const char *option, const char *text, long long min, long long max)
{
    char *end = NULL;
    errno = 0;
    const long long value = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || value < min || value > max) {
        fprintf(stderr, "%s: %s must be a whole number from %lld to %lld, not '%s'\n", program, option, min, max,
                text);
        return -1;
    }
    return value;
}
