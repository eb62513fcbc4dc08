/* The CUDA side of the runtime: the current device, loading cubins, launching kernels. Through the
 * CUDA runtime only (cudaLibrary*), never -lcuda, so that programs start where there is no driver. */
#ifndef FFTGEN_RUNTIME_LAUNCH_H
#define FFTGEN_RUNTIME_LAUNCH_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "cache.h"
#include "fftgen.h"
#include "wisdom.h"

/* FFTGEN_CUDA_ERROR, with the failed call, the error's name and its text as this thread's detail
 * (fftgen_last_error). */
fftgen_result fftgen_cuda_failed(const char *call, cudaError_t error);

/* The current device's architecture (e.g. 90), shared-memory opt-in limit and memory. */
fftgen_result fftgen_current_device(int *device, int *arch, size_t *global_memory);
/* The device's streaming multiprocessors, for the grids of prefetching kernels. */
fftgen_result fftgen_device_sm_count(int device, int *sms);

/* What wisdom is keyed by: the device's name, its architecture, the driver's version and fftgen's. */
fftgen_result fftgen_device_key_of(int device, int arch, fftgen_device_key *key);

#define FFTGEN_MODULE_MAX_KERNELS 10 /* five passes, both directions */

/* A loaded cubin and the kernels of a plan. */
typedef struct {
    cudaLibrary_t library;
    int count;
    cudaKernel_t kernel[FFTGEN_MODULE_MAX_KERNELS];
} fftgen_module;

/* Loads `cubin` and finds the `count` kernels named in `names`; raises each one's dynamic
 * shared-memory limit to its `shared_bytes` on `device`. */
fftgen_result fftgen_module_load(const fftgen_cubin *cubin, int count, const char *const *names,
                                 const int *shared_bytes, int device, fftgen_module *module);

cudaError_t fftgen_module_unload(fftgen_module *module); /* the library's unload status */

/* Queues kernel(in, out, batch, scale) on `stream`, or kernel(in, out, batch, scale, *map) where `map`
 * is not NULL (a TMA column pass's tensor map, 128 bytes, fftgen_tensor_map). */
fftgen_result fftgen_module_launch(cudaKernel_t kernel, unsigned grid, unsigned threads, unsigned shared_bytes,
                                   cudaStream_t stream, const void *in, void *out, int batch, float scale,
                                   const void *map);

/* The blocks of `kernel` (with `threads` and `shared_bytes` each) that fit on one SM at once. */
fftgen_result fftgen_kernel_blocks_per_sm(cudaKernel_t kernel, int threads, int shared_bytes, int *blocks);

#endif
