/* What an execution's buffers must be before anything is launched: memory the device can read, and
 * large enough for the plan's layout. A kernel given host memory, or a buffer too short, faults or
 * writes past the allocation; a fault ends the CUDA context of the whole process. */
#ifndef FFTGEN_RUNTIME_BUFFERS_H
#define FFTGEN_RUNTIME_BUFFERS_H

#include <stddef.h>

#include "fftgen.h"
#include "planner.h"

/* Bytes from a buffer's pointer to one past its last element: `batch` transforms of `shape` in
 * `layout` (contiguous where layout->embed is all zero), `element` bytes each. */
size_t fftgen_layout_bytes(const fftgen_user_layout *layout, int rank, const long long *shape, long long batch,
                           size_t element);

/* Checks buffer `name` at `p` for `bytes`: FFTGEN_HOST_POINTER for host memory the device cannot read
 * (unless `reads_pageable`), FFTGEN_BUFFER_TOO_SMALL where the device memory from `p` on (its
 * allocation, and any mapped right after it) ends before `bytes`. A pointer the driver cannot place
 * (memory it did not allocate, an older driver) passes. */
fftgen_result fftgen_check_buffer(const char *name, const void *p, size_t bytes, int reads_pageable);

#endif
