/* What fftgen_last_error() reports: the detail behind a failed call's fftgen_result (the NVRTC log,
 * the CUDA error, the planner's reason, the damaged line of a wisdom file), kept per thread. The
 * public functions clear it on entry; the code that knows why a call fails writes it. */
#ifndef FFTGEN_RUNTIME_ERROR_DETAIL_H
#define FFTGEN_RUNTIME_ERROR_DETAIL_H

#include "fftgen.h"

void fftgen_detail_clear(void);

/* Sets this thread's detail (printf format) and returns `result`, so that a failure can be
 * `return fftgen_detail(FFTGEN_..., "...", ...);`. */
fftgen_result fftgen_detail(fftgen_result result, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* A public function's last step: a failure that nothing explained gets its result's message, a
 * success leaves the detail empty. Returns `result`. */
fftgen_result fftgen_detail_finish(fftgen_result result);

#endif
