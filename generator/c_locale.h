/* Numbers that C code reads back (the constants in kernel sources, the times in wisdom files) are
 * written and parsed in the "C" locale, whatever locale the program that links libfftgen has set:
 * under a locale with a decimal comma, printf writes a twiddle as "9,807852507e-01f" (which no
 * compiler reads as one number) and strtod stops at the point of "ms=0.41". */
#ifndef FFTGEN_C_LOCALE_H
#define FFTGEN_C_LOCALE_H

/* What fftgen_c_locale_begin saved. */
typedef struct {
    void *saved; /* the thread's locale before (a locale_t) */
    void *c;     /* the "C" locale in use; NULL when none could be made, and nothing changed */
} fftgen_c_locale;

/* Puts the calling thread, and only it, in the "C" locale (uselocale), so that other threads of the
 * program keep theirs. Every begin is followed by fftgen_c_locale_end on the same thread. */
void fftgen_c_locale_begin(fftgen_c_locale *scope);
void fftgen_c_locale_end(fftgen_c_locale *scope);

#endif
