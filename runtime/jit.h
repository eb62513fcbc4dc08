/* Run-time compilation with NVRTC. The library is opened with dlopen on first use, so that programs
 * start without it (and get FFTGEN_NVRTC_UNAVAILABLE only when they need to compile). */
#ifndef FFTGEN_RUNTIME_JIT_H
#define FFTGEN_RUNTIME_JIT_H

#include <stddef.h>

#include "fftgen.h"

/* Compiles `source` to a cubin for sm_<arch>; *cubin is malloc'd. On NVRTC_FAILED, `log` holds
 * the start of NVRTC's log. */
fftgen_result fftgen_jit_compile(const char *source, const char *name, int arch, void **cubin, size_t *size,
                                 char *log, size_t log_len);

/* NVRTC's version, which is part of every cache key. */
fftgen_result fftgen_jit_version(int *major, int *minor);

/* The options passed to NVRTC for `arch`, as one string (also part of the cache key). */
void fftgen_jit_options(int arch, char *out, size_t len);

#endif
