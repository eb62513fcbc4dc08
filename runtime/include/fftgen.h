/* libfftgen: batched FFTs on NVIDIA GPUs from kernels that fftgen generates.
 *
 * The shape follows cuFFT: create a plan for a transform, set its stream, execute it as often as
 * needed (forward or inverse, in place or out of place), destroy it. Plan creation generates the
 * plan's kernels and compiles them with NVRTC for the device's exact architecture, behind a kernel
 * cache in memory and on disk, so the second start of a program compiles nothing.
 *
 * Every function returns an fftgen_result; fftgen_result_string() turns it into a message, and
 * fftgen_last_error() says what a failed call found wrong (the argument, the NVRTC log, the CUDA error).
 * Functions are thread-safe for distinct plans; planning from several threads at once is safe.
 *
 * Environment:
 *   FFTGEN_CACHE_DIR   folder of the on-disk kernel cache (default $XDG_CACHE_HOME/fftgen, else
 *                      ~/.cache/fftgen)
 *   FFTGEN_CACHE=0     no on-disk cache (kernels are still shared within the process)
 *   FFTGEN_NVRTC       path of the NVRTC library to load (default libnvrtc.so.13)
 *   FFTGEN_PACK_PATH   kernel packs to load at the first plan, separated by ':'
 *   FFTGEN_DEFAULT_PACK=0  do not use the embedded default pack
 *   FFTGEN_WISDOM      the wisdom file `fftgen tune` writes and plans read (default wisdom.txt in the
 *                      cache folder); FFTGEN_WISDOM=0: none
 *
 * Kernel choices: where the planner can run a pass on tensor cores or on CUDA cores, and how many
 * transforms a strided pass reads side by side, it follows measurements: the user's wisdom (`fftgen
 * tune` measures every choice on the user's GPU and saves the fastest, keyed by the device, the
 * driver and the fftgen version), else the table shipped with the library (measured on sm_90; see
 * README), else its built-in rules. A damaged wisdom file is skipped with a message on stderr.
 *
 * Kernels come, in this order, from the process's memory, from loaded kernel packs (the library
 * embeds a default pack for sm_80 and sm_90, built from the sources in generated/), from the disk
 * cache, and last from NVRTC (unless the plan has FFTGEN_NO_JIT).
 *
 * Status of this version: power-of-two sizes, at most 2^30 points per transform, contiguous and
 * strided layouts. Rank 1: from 2 to 2^30 points (one kernel up to 16384 points on sm_80/sm_90, two
 * strided passes up to 2^20, three above). Rank 2 and 3: one pass per dimension, the last two fused
 * in one kernel where a slice fits a block (up to 16384 points on sm_90). A dimension longer than one
 * kernel (16384 points on sm_90, 4096 on sm_75) takes passes through a work area where the data are
 * contiguous: rows need the input and the output contiguous (they take the 1D passes), the other
 * dimensions the output (two four-step passes of shorter columns); in other layouts it gives
 * FFTGEN_NOT_SUPPORTED_YET. Out of place, 2D and 3D plans leave the input untouched.
 */
#ifndef FFTGEN_H
#define FFTGEN_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FFTGEN_VERSION_MAJOR 0
#define FFTGEN_VERSION_MINOR 1

typedef enum fftgen_result {
    FFTGEN_SUCCESS = 0,
    FFTGEN_INVALID_PLAN,          /* a NULL or destroyed plan */
    FFTGEN_INVALID_SIZE,          /* a size that is not a power of two >= 2 */
    FFTGEN_SIZE_TOO_LARGE,        /* above 2^30 points, or more data than the device holds */
    FFTGEN_INVALID_BATCH,         /* batch <= 0, or above what one launch can cover */
    FFTGEN_INVALID_RANK,          /* rank other than 1, 2 or 3 */
    FFTGEN_INVALID_PRECISION,
    FFTGEN_INVALID_DIRECTION,
    FFTGEN_INVALID_FLAGS,
    FFTGEN_NULL_POINTER,          /* a required pointer is NULL */
    FFTGEN_MISALIGNED_POINTER,    /* data not aligned to one complex element */
    FFTGEN_INVALID_LAYOUT,        /* a stride or distance < 1, or an embed smaller than its dimension */
    FFTGEN_OVERLAPPING_LAYOUT,    /* an output layout whose transforms would share elements */
    FFTGEN_NOT_SUPPORTED_YET,     /* valid, but not implemented in this version */
    FFTGEN_NO_DEVICE,             /* no CUDA device (or no driver) */
    FFTGEN_UNSUPPORTED_DEVICE,    /* an architecture fftgen does not know */
    FFTGEN_CUDA_ERROR,            /* a CUDA runtime call failed */
    FFTGEN_NVRTC_UNAVAILABLE,     /* the NVRTC library could not be loaded */
    FFTGEN_NVRTC_FAILED,          /* NVRTC failed to compile a generated kernel */
    FFTGEN_JIT_DISABLED,          /* FFTGEN_NO_JIT was given and no pack holds the kernel */
    FFTGEN_GENERATOR_FAILED,      /* the templates failed to render a kernel */
    FFTGEN_OUT_OF_MEMORY,         /* host memory */
    FFTGEN_PACK_UNREADABLE,       /* a kernel pack file could not be opened or read */
    FFTGEN_PACK_CORRUPT,          /* not a kernel pack, truncated, or a checksum does not match */
    FFTGEN_PACK_WRONG_VERSION,    /* a pack written by another version of fftgen */
    FFTGEN_PACK_WRONG_ARCH,       /* a pack with no kernel for this device's architecture */
    FFTGEN_WISDOM_UNREADABLE,     /* a wisdom file could not be opened, read or written */
    FFTGEN_WISDOM_CORRUPT,        /* not a wisdom file, or a damaged one */
    FFTGEN_HOST_POINTER,          /* data or work area in host memory the device cannot read (not from
                                     cudaMalloc, cudaMallocManaged or cudaHostAlloc) */
    FFTGEN_BUFFER_TOO_SMALL,      /* data or work area whose allocation ends before the plan's layout does */
    FFTGEN_WRONG_DEVICE           /* executed while another device than the plan's is current */
} fftgen_result;

typedef enum fftgen_precision {
    FFTGEN_FP32 = 0, /* float2 in memory, fp32 arithmetic */
    /* __half2 in memory, fp32 arithmetic, rounded on each store to global memory. Between passes
     * (sizes above one block), fp16 or shared-exponent complexes in the same 32 bits per point, which
     * round about half as coarsely, or half the points each way: the planner keeps the error under
     * 3.9e-4 (inputs in [-1, 1]), see FFTGEN_FP16_INTERMEDIATES */
    FFTGEN_FP16 = 1,
    /* The split precisions: float2 in memory; the radix-16 stages run on tensor cores (sm_80 and
     * newer), each fp32 operand split into a scaled fp16 high and low part (papers/000, 001), the
     * twiddles and the other stages in fp32. Sizes of at least 16 points in 1D; any layout. Never
     * chosen for FFTGEN_FP32: ask for them. Older devices give FFTGEN_UNSUPPORTED_DEVICE. */
    FFTGEN_SPLIT = 2,       /* power-of-two scales, low parts scaled by 2^11, hi*hi summed apart from
                               the corrections: accurate to within fp32's error */
    FFTGEN_SPLIT_PAPERS = 3 /* the papers' scales (s1 = max |x|, s2 = max |x - s1*hi|), for comparison */
} fftgen_precision;

typedef enum fftgen_direction {
    FFTGEN_FORWARD = -1, /* exp(-2*pi*i*jk/n), as cuFFT and FFTW */
    FFTGEN_INVERSE = 1   /* exp(+2*pi*i*jk/n); unnormalized unless FFTGEN_SCALE_INVERSE */
} fftgen_direction;

/* Plan flags. */
enum {
    FFTGEN_SCALE_INVERSE = 1u << 0, /* the inverse multiplies by 1/(product of the sizes) */
    FFTGEN_NO_JIT = 1u << 1,        /* never compile at run time (kernels must come from a pack) */
    /* Radix-16 stages on tensor cores in every pass that has them (mma.sync, fp16 operands with each
     * input split into hi + lo, fp32 sums): FFTGEN_FP16, any rank and layout with a dimension of 16
     * points or more, sm_80 and newer. The DFT matrix's fp16 entries add a little error (3.4e-4 at
     * 4096 points against 2.8e-4 in the host simulation). FFTGEN_FP32, or a plan with no such pass,
     * gives FFTGEN_NOT_SUPPORTED_YET, older devices FFTGEN_UNSUPPORTED_DEVICE. Without this flag
     * the measured choices decide, pass by pass (see "Kernel choices" above). */
    FFTGEN_TENSOR_CORES = 1u << 2,
    /* Ignore the wisdom and the shipped table: the planner's built-in rules only (CUDA cores). */
    FFTGEN_PLANNER_DEFAULTS = 1u << 3,
    /* FFTGEN_FP16 only: every intermediate between passes in fp16, speed before accuracy. Plans of
     * three passes and more then measure 4.0e-4 instead of 3.6e-4 to 3.8e-4 and run up to 8% faster
     * (512^3 on an H100, before its last intermediate was mixed); two passes keep fp16 anyway. Other
     * precisions give FFTGEN_INVALID_FLAGS. */
    FFTGEN_FP16_INTERMEDIATES = 1u << 4
};

typedef struct fftgen_plan_s *fftgen_plan;

/* Creates a plan for `batch` transforms of rank `rank` (1, 2 or 3) with sizes n[0..rank-1]
 * (row-major: n[rank-1] varies fastest). The layout is cufftPlanMany's: when inembed (onembed) is
 * NULL the input (output) is contiguous, transform after transform, and istride/idist (ostride/odist)
 * are ignored; otherwise element x of transform b is at b*idist + x*istride. On failure *plan is
 * NULL and nothing is left allocated. For rank 2 and 3, element x = (x0, x1[, x2]) of transform b is
 * at b*idist + istride * ((x0*inembed[1] + x1)*inembed[2] + x2), as in cuFFT. Input transforms may
 * share elements (overlapping frames, idist below their span); output transforms may not:
 * FFTGEN_OVERLAPPING_LAYOUT. Needs a CUDA device (the current one). */
fftgen_result fftgen_plan_many(fftgen_plan *plan, int rank, const long long *n, const long long *inembed,
                               long long istride, long long idist, const long long *onembed, long long ostride,
                               long long odist, fftgen_precision precision, long long batch, unsigned flags);

/* The common case: `batch` contiguous 1D transforms of n points. */
fftgen_result fftgen_plan_1d(fftgen_plan *plan, long long n, fftgen_precision precision, long long batch,
                             unsigned flags);

/* `batch` contiguous 2D transforms of n0 x n1 points and 3D ones of n0 x n1 x n2 (row-major: the last
 * size varies fastest), as cufftPlan2d and cufftPlan3d with a batch: fftgen_plan_many with NULL embeds. */
fftgen_result fftgen_plan_2d(fftgen_plan *plan, long long n0, long long n1, fftgen_precision precision,
                             long long batch, unsigned flags);
fftgen_result fftgen_plan_3d(fftgen_plan *plan, long long n0, long long n1, long long n2, fftgen_precision precision,
                             long long batch, unsigned flags);

/* Bytes of device work area the plan needs at execution (0 when it needs none). */
fftgen_result fftgen_get_work_size(fftgen_plan plan, size_t *bytes);

/* Gives the plan a work area of at least fftgen_get_work_size() bytes, owned by the caller (16-byte
 * aligned, as cudaMalloc's are). Until then a plan that needs one uses its own, allocated at creation
 * and freed here. */
fftgen_result fftgen_set_work_area(fftgen_plan plan, void *work_area);

/* The stream later executions are queued on (default: the legacy default stream, 0). */
fftgen_result fftgen_set_stream(fftgen_plan plan, cudaStream_t stream);

/* Queues one execution on the plan's stream. A plan runs on the device that was current when it was
 * made (its kernels, work area and stream are that device's): with another device current,
 * FFTGEN_WRONG_DEVICE, and nothing is launched. `in` and `out` are device pointers to float2 or __half2
 * data (per the plan's precision), aligned to one element; in == out transforms in place (for a
 * single-kernel size, only when the input and output layouts are the same: else
 * FFTGEN_OVERLAPPING_LAYOUT). Before anything is launched, pointers to ordinary host memory give
 * FFTGEN_HOST_POINTER (a kernel reading them would fault and end the CUDA context; devices that read
 * pageable host memory take them), and a buffer whose allocation ends before the plan's layout does
 * gives FFTGEN_BUFFER_TOO_SMALL; a pointer that passed is not checked again on the plan's next calls.
 * Returns once the work is queued, like cuFFT. It can be captured into a CUDA graph (stream capture of
 * the plan's stream), first call included: the graph runs the plan's kernels on those buffers and its
 * work area, so keep the plan (and the work area) until the graph is destroyed. */
fftgen_result fftgen_exec(fftgen_plan plan, const void *in, void *out, fftgen_direction direction);

/* Releases the plan, whichever device is current. Destroying NULL is a no-op. Where CUDA fails to
 * unload its kernels or free its work area, the plan is still gone and the failure is returned. */
fftgen_result fftgen_destroy(fftgen_plan plan);

/* Loads a kernel pack (written by `fftgen pack`); its kernels serve later plans. Rejects a file that
 * is not a pack, is damaged, was written by another fftgen version, or (where a device is present)
 * has no kernel for the current device's architecture. */
fftgen_result fftgen_load_pack(const char *path);

/* Reads a wisdom file (written by `fftgen tune`): each section's choices serve later plans on the
 * device, driver and fftgen version it names, ahead of the default wisdom file and the shipped table.
 * FFTGEN_WISDOM_UNREADABLE or FFTGEN_WISDOM_CORRUPT (nothing taken) on a bad file; needs a device. */
fftgen_result fftgen_load_wisdom(const char *path);

/* A short English description of a result code. Never NULL. */
const char *fftgen_result_string(fftgen_result result);

/* Why the last call of the library on this thread failed, in more words than its result code: the
 * NVRTC log, the CUDA call and its error, the planner's reason, the damaged line of a wisdom file, the
 * argument at fault. Empty after a call that succeeded (fftgen_result_string, fftgen_version and this
 * function leave it as it is). Never NULL; valid until the thread's next call of the library. */
const char *fftgen_last_error(void);

/* "0.1.0" */
const char *fftgen_version(void);

#ifdef __cplusplus
}
#endif

#endif
