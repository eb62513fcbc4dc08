#define _POSIX_C_SOURCE 200809L
#include "c_locale.h"

#include <locale.h>

void fftgen_c_locale_begin(fftgen_c_locale *scope)
{
    const locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    scope->c = c;
    scope->saved = NULL;
    /* without a "C" locale object (out of memory) the text is written as before, in the thread's own */
    if (c != (locale_t)0) scope->saved = uselocale(c);
}

void fftgen_c_locale_end(fftgen_c_locale *scope)
{
    if (scope->c == NULL) return;
    uselocale((locale_t)scope->saved);
    freelocale((locale_t)scope->c);
    scope->c = NULL;
}
