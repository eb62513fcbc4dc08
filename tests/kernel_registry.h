/* The kernels the build generated for the tests (cmake/kernels.cmake writes the tables). */
#ifndef FFTGEN_TESTS_KERNEL_REGISTRY_H
#define FFTGEN_TESTS_KERNEL_REGISTRY_H

/* As fftgen_kernel_precision; the split precisions store fp32. */
enum kernel_precision { KERNEL_FP32, KERNEL_FP16, KERNEL_SPLIT, KERNEL_SPLIT_PAPERS };

typedef int (*sim_function)(const void *in, void *out, int batch, float scale);
typedef int (*launch_function)(const void *in, void *out, int batch, void *stream);

struct sim_kernel {
    int n;
    enum kernel_precision precision;
    sim_function forward, inverse;
    int radix; /* the --radix it was generated with; 0 for the planner's default */
    long long istride, idist, ostride, odist; /* its data layouts; all 0 when contiguous */
    int rank;                                 /* 2 or 3 for a shape; 0 for 1D (n points) */
    int shape[3];
    long long inembed[3], onembed[3];         /* strided shapes: the embeds (0: the shape's) */
    int tensor_cores;                         /* radix-16 stages on tensor cores */
    const char *name;                         /* as cmake/kernels.cmake names it, e.g. fftgen_32768_t0_8_fp16 */
};

struct gpu_kernel {
    int n;
    enum kernel_precision precision;
    launch_function forward, inverse;
    int tensor_cores; /* radix-16 stages on tensor cores */
    int radix;        /* the largest radix asked for (--radix), 0: the default chain */
    int computed_twiddles; /* fp16: the stages compute their twiddles (--computed-twiddles) */
    int prefetch;     /* transforms a block runs in turn, each input bulk-copied ahead (--prefetch, sm_90) */
};

extern const struct sim_kernel sim_kernels[];
extern const int sim_kernel_count;
extern const struct gpu_kernel gpu_kernels[];
extern const int gpu_kernel_count;

#endif
