/* For the GPU tests: a CUDA call that fails prints what failed (through cmocka) and jumps to the
 * function's `done:` label, where it releases what it holds. */
#ifndef FFTGEN_TESTS_CUDA_CHECK_H
#define FFTGEN_TESTS_CUDA_CHECK_H

#define CHECK_CUDA(call)                                                                                   \
    do {                                                                                                   \
        const cudaError_t status_ = (call);                                                                \
        if (status_ != cudaSuccess) {                                                                      \
            print_error("%s failed: %s\n", #call, cudaGetErrorString(status_));                           \
            goto done;                                                                                     \
        }                                                                                                  \
    } while (0)

#endif
