#include "fftgen.h"
#include "render.h"

const char *fftgen_result_string(fftgen_result result)
{
    switch (result) {
    case FFTGEN_SUCCESS: return "success";
    case FFTGEN_INVALID_PLAN: return "invalid plan (NULL or already destroyed)";
    case FFTGEN_INVALID_SIZE: return "invalid size: every size must be a power of two >= 2";
    case FFTGEN_SIZE_TOO_LARGE: return "size too large: above 2^30 points, or more data than the device holds";
    case FFTGEN_INVALID_BATCH: return "invalid batch: it must be >= 1 and fit one launch";
    case FFTGEN_INVALID_RANK: return "invalid rank: it must be 1, 2 or 3";
    case FFTGEN_INVALID_PRECISION: return "invalid precision: expected FFTGEN_FP32, FFTGEN_FP16, FFTGEN_SPLIT or FFTGEN_SPLIT_PAPERS";
    case FFTGEN_INVALID_DIRECTION: return "invalid direction: expected FFTGEN_FORWARD or FFTGEN_INVERSE";
    case FFTGEN_INVALID_FLAGS: return "invalid flags: unknown bits set, or a flag that does not apply to the precision";
    case FFTGEN_NULL_POINTER: return "a required pointer is NULL";
    case FFTGEN_MISALIGNED_POINTER: return "data pointer not aligned to one complex element";
    case FFTGEN_INVALID_LAYOUT: return "invalid layout: strides and distances must be >= 1";
    case FFTGEN_OVERLAPPING_LAYOUT: return "overlapping layout: two elements would share memory";
    case FFTGEN_NOT_SUPPORTED_YET: return "not supported yet by this version of fftgen";
    case FFTGEN_NO_DEVICE: return "no CUDA device (or no CUDA driver)";
    case FFTGEN_UNSUPPORTED_DEVICE: return "unsupported device: fftgen does not know its architecture";
    case FFTGEN_CUDA_ERROR: return "a CUDA runtime call failed";
    case FFTGEN_NVRTC_UNAVAILABLE: return "NVRTC could not be loaded (set FFTGEN_NVRTC to libnvrtc.so.13)";
    case FFTGEN_NVRTC_FAILED: return "NVRTC failed to compile a generated kernel";
    case FFTGEN_JIT_DISABLED: return "run-time compilation is disabled (FFTGEN_NO_JIT) and no pack holds the kernel";
    case FFTGEN_GENERATOR_FAILED: return "the kernel templates failed to render";
    case FFTGEN_OUT_OF_MEMORY: return "out of host memory";
    case FFTGEN_PACK_UNREADABLE: return "the kernel pack could not be opened or read";
    case FFTGEN_PACK_CORRUPT: return "not a kernel pack, or a truncated or damaged one";
    case FFTGEN_PACK_WRONG_VERSION: return "the kernel pack was written by another version of fftgen";
    case FFTGEN_PACK_WRONG_ARCH: return "the kernel pack has no kernel for this device's architecture";
    case FFTGEN_WISDOM_UNREADABLE: return "the wisdom file could not be opened, read or written";
    case FFTGEN_WISDOM_CORRUPT: return "not a wisdom file (written by fftgen tune), or a damaged one";
    case FFTGEN_HOST_POINTER: return "a pointer to host memory the device cannot read (use cudaMalloc for data and work areas)";
    case FFTGEN_BUFFER_TOO_SMALL: return "a buffer too small: its allocation ends before the plan's layout does";
    case FFTGEN_WRONG_DEVICE: return "another device than the plan's is current (cudaSetDevice to the plan's first)";
    }
    return "unknown fftgen_result";
}

const char *fftgen_version(void)
{
    return FFTGEN_VERSION;
}
