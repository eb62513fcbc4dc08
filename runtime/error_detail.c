#include "error_detail.h"

#include <stdarg.h>
#include <stdio.h>

/* Long enough for an NVRTC log's first lines; longer details are cut. */
static _Thread_local char detail[4096];

void fftgen_detail_clear(void)
{
    detail[0] = '\0';
}

fftgen_result fftgen_detail(fftgen_result result, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof detail, format, args);
    va_end(args);
    return result;
}

fftgen_result fftgen_detail_finish(fftgen_result result)
{
    if (result == FFTGEN_SUCCESS)
        detail[0] = '\0';
    else if (detail[0] == '\0')
        snprintf(detail, sizeof detail, "%s", fftgen_result_string(result));
    return result;
}

const char *fftgen_last_error(void)
{
    return detail;
}
