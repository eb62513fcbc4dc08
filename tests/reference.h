/* What the numerical tests share: random inputs, storage conversion, the FFTW double reference
 * and the error measure. */
#ifndef FFTGEN_TESTS_REFERENCE_H
#define FFTGEN_TESTS_REFERENCE_H

#include <stddef.h>

#include "kernel_registry.h"

/* Bound on the relative L2 error against FFTW double (issue 2). */
#define FP32_ERROR_BOUND 1e-6
#define FP16_ERROR_BOUND 1e-3
/* fp16 plans on CUDA cores, inputs in [-1, 1], at most three passes or with shared-exponent
 * intermediates: issue 5's accuracy target */
#define FP16_TARGET_ERROR 4e-4
/* The split precision (issue 6): within 2x of cuFFT fp32, which measures 1e-7 to 3.8e-7. */
#define SPLIT_ERROR_BOUND 4e-7

/* The bound for a precision, and its name ("fp32", "fp16", "split", "split-papers"). */
double error_bound(enum kernel_precision precision);
const char *precision_label(enum kernel_precision precision);

/* Uniform in [-1, 1], `count` complex values, interleaved (re, im). */
void random_points(double *points, size_t count, unsigned long long seed);

/* Bytes one complex value takes in storage. */
size_t storage_bytes(enum kernel_precision precision);

/* Rounds doubles to float2 or __half2 storage, and back. */
void to_storage(enum kernel_precision precision, const double *points, void *storage, size_t count);
void from_storage(enum kernel_precision precision, const void *storage, double *points, size_t count);

/* Fills storage with NaN, so that an element the kernel never writes fails the check. */
void poison_storage(enum kernel_precision precision, void *storage, size_t count);

/* A transform's shape: rank 1 to 3, row-major (n[rank - 1] varies fastest). */
struct fft_shape {
    int rank;
    int n[3];
};

/* Points per transform of a shape. */
size_t shape_points(struct fft_shape shape);

/* FFTW double, batched, unnormalized; sign -1 forward, +1 inverse. Returns 0 on success. */
int reference_fft(const double *in, double *out, int n, int batch, int sign);
int reference_fft_shape(const double *in, double *out, struct fft_shape shape, int batch, int sign);

/* ||got - want|| / ||want||, or +inf if `got` holds a NaN or an infinity. */
double relative_l2_error(const double *got, const double *want, size_t count);



/* Runs one batched transform on storage-precision buffers: returns 0 on success. The output
 * buffer arrives poisoned. */
typedef int (*transform_runner)(const void *context, const void *in, void *out, int batch);

/* A host-simulation kernel (kernel_registry.h's sim_function) as a transform_runner: the context is a
 * struct sim_run, the kernel and the scale it multiplies its outputs by. */
struct sim_run {
    sim_function fn;
    float scale;
};
int run_sim(const void *context, const void *in, void *out, int batch);

/* Draws inputs, runs the transform, and returns its relative L2 error against FFTW double on the
 * unrounded inputs, times `reference_scale` (1/n for a normalized inverse); a negative value if the
 * run or the reference failed. */
double transform_error(int n, enum kernel_precision precision, int batch, int sign, double reference_scale,
                       transform_runner run, const void *context, unsigned long long seed);
double shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch, int sign,
                             double reference_scale, transform_runner run, const void *context,
                             unsigned long long seed);
/* As transform_error with inputs uniform in [-amplitude, amplitude] (the split's scale range). */
double transform_error_at(int n, enum kernel_precision precision, int batch, int sign, double amplitude,
                          transform_runner run, const void *context, unsigned long long seed);

/* As transform_error, for data in the layouts of cufftPlanMany: point j of transform b at
 * b*dist + j*stride. The whole input span is random, the whole output span poisoned; an element
 * written outside the output layout makes the error +inf. */
struct strided_layout {
    long long stride, dist;
    long long embed[3]; /* rank 2 and 3: the storage's sizes of dimensions 1 and up; 0: the shape's */
};
double strided_transform_error(int n, enum kernel_precision precision, int batch, int sign,
                               struct strided_layout in_layout, struct strided_layout out_layout,
                               transform_runner run, const void *context, unsigned long long seed);
/* The same for a 2D or 3D shape: element x of transform b at b*dist + stride * (x row-major over embed). */
double strided_shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch, int sign,
                                     struct strided_layout in_layout, struct strided_layout out_layout,
                                     transform_runner run, const void *context, unsigned long long seed);

#endif
