/* The planner: the only place that decides how a transform is split into radix stages,
 * threads and blocks. Plain C, no CUDA, shared by the CLI, the tests and (later) the runtime. */
#ifndef FFTGEN_PLANNER_H
#define FFTGEN_PLANNER_H

#include <stddef.h>

#define FFTGEN_MAX_STAGES 32
#define FFTGEN_MAX_THREADS_PER_BLOCK 1024
#define FFTGEN_DEFAULT_ARCH 90

typedef enum { FFTGEN_KERNEL_FP32, FFTGEN_KERNEL_FP16 } fftgen_kernel_precision;

typedef struct {
    long long n;          /* points per transform */
    int max_radix;        /* 2, 4, 8 or 16; 0 picks the default (16, or n if smaller) */
    fftgen_kernel_precision precision;
    int arch;             /* compute capability as 10*major+minor, e.g. 90 for sm_90 */
} fftgen_kernel_request;

typedef struct {
    int n;
    int radices[FFTGEN_MAX_STAGES];
    int stage_count;
    int radix_max;            /* points each thread holds */
    int threads_per_fft;
    int ffts_per_block;
    int threads;              /* per block */
    int staged_io;            /* global memory <-> shared memory copies (small n), else direct */
    int smem_points;          /* float2 elements in shared memory, padding included */
    int shared_bytes;         /* dynamic shared memory per block */
    int arch;
    fftgen_kernel_precision precision;
} fftgen_kernel_plan;

typedef enum {
    FFTGEN_PLAN_OK = 0,
    FFTGEN_PLAN_BAD_SIZE,      /* not a power of two >= 2 */
    FFTGEN_PLAN_TOO_LARGE,     /* above what one block holds */
    FFTGEN_PLAN_BAD_RADIX,     /* not 2, 4, 8 or 16 */
    FFTGEN_PLAN_RADIX_NOT_DIVIDING,
    FFTGEN_PLAN_BAD_ARCH
} fftgen_plan_status;

/* Plans one fused single-kernel FFT. On failure, `why` holds a one-line reason. */
fftgen_plan_status fftgen_plan_kernel(const fftgen_kernel_request *request, fftgen_kernel_plan *plan,
                                      char *why, size_t why_len);

/* Opt-in shared memory per block of an architecture, or -1 if fftgen does not know it. */
int fftgen_arch_shared_limit(int arch);

/* Comma-separated list of the architectures fftgen knows, e.g. "sm_75, sm_80, ...". */
const char *fftgen_known_archs(void);

/* The largest n that one kernel handles at this precision and architecture (default radix). */
long long fftgen_single_kernel_limit(fftgen_kernel_precision precision, int arch);

const char *fftgen_precision_name(fftgen_kernel_precision precision);

#endif
