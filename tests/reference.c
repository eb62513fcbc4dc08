#define _POSIX_C_SOURCE 200809L
#include "reference.h"

#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void random_points(double *points, size_t count, unsigned long long seed)
{
    unsigned long long state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (size_t i = 0; i < 2 * count; ++i) {
        /* xorshift64*: reproducible everywhere, unlike rand() */
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const unsigned long long bits = (state * 0x2545F4914F6CDD1DULL) >> 11;
        points[i] = 2.0 * ((double)bits / 9007199254740992.0) - 1.0;
    }
}

double error_bound(enum kernel_precision precision)
{
    switch (precision) {
    case KERNEL_FP16: return FP16_ERROR_BOUND;
    case KERNEL_SPLIT: return SPLIT_ERROR_BOUND;
    default: return FP32_ERROR_BOUND; /* fp32, and the papers' split, which is only reported */
    }
}

const char *precision_label(enum kernel_precision precision)
{
    static const char *const names[] = {"fp32", "fp16", "split", "split-papers"};
    return (unsigned)precision < 4 ? names[precision] : "unknown";
}

size_t storage_bytes(enum kernel_precision precision)
{
    return precision == KERNEL_FP16 ? 2 * sizeof(_Float16) : 2 * sizeof(float);
}

void to_storage(enum kernel_precision precision, const double *points, void *storage, size_t count)
{
    for (size_t i = 0; i < 2 * count; ++i) {
        if (precision == KERNEL_FP16) ((_Float16 *)storage)[i] = (_Float16)points[i];
        else ((float *)storage)[i] = (float)points[i];
    }
}

void from_storage(enum kernel_precision precision, const void *storage, double *points, size_t count)
{
    for (size_t i = 0; i < 2 * count; ++i)
        points[i] = precision == KERNEL_FP16 ? (double)((const _Float16 *)storage)[i] : ((const float *)storage)[i];
}

void poison_storage(enum kernel_precision precision, void *storage, size_t count)
{
    for (size_t i = 0; i < 2 * count; ++i) {
        if (precision == KERNEL_FP16) ((_Float16 *)storage)[i] = (_Float16)NAN;
        else ((float *)storage)[i] = NAN;
    }
}

size_t shape_points(struct fft_shape shape)
{
    size_t points = 1;
    for (int d = 0; d < shape.rank; ++d) points *= (size_t)shape.n[d];
    return points;
}

int reference_fft(const double *in, double *out, int n, int batch, int sign)
{
    const struct fft_shape shape = {1, {n, 0, 0}};
    return reference_fft_shape(in, out, shape, batch, sign);
}

static pthread_once_t fftw_threads_once = PTHREAD_ONCE_INIT;
static int fftw_threads_ready;

static void start_fftw_threads(void)
{
    fftw_threads_ready = fftw_init_threads() != 0;
}

/* All cores for the big references; small ones stay on one thread, where threads only cost. */
static void plan_with_threads(size_t count)
{
    pthread_once(&fftw_threads_once, start_fftw_threads);
    if (!fftw_threads_ready) return;
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    fftw_plan_with_nthreads(count >= (1u << 20) && cores > 1 ? (int)cores : 1);
}

int reference_fft_shape(const double *in, double *out, struct fft_shape shape, int batch, int sign)
{
    const int points = (int)shape_points(shape);
    const size_t count = (size_t)points * (size_t)batch;
    fftw_complex *a = fftw_malloc(sizeof(fftw_complex) * count);
    fftw_complex *b = fftw_malloc(sizeof(fftw_complex) * count);
    if (a == NULL || b == NULL) {
        fftw_free(a);
        fftw_free(b);
        return -1;
    }
    memcpy(a, in, sizeof(fftw_complex) * count);
    plan_with_threads(count);
    fftw_plan plan = fftw_plan_many_dft(shape.rank, shape.n, batch, a, NULL, 1, points, b, NULL, 1, points,
                                        sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
    if (plan == NULL) {
        fftw_free(a);
        fftw_free(b);
        return -1;
    }
    fftw_execute(plan);
    memcpy(out, b, sizeof(fftw_complex) * count);
    fftw_destroy_plan(plan);
    fftw_free(a);
    fftw_free(b);
    return 0;
}

int run_sim(const void *context, const void *in, void *out, int batch)
{
    const struct sim_run *run = context;
    return run->fn(in, out, batch, run->scale);
}

double relative_l2_error(const double *got, const double *want, size_t count)
{
    double diff = 0.0, norm = 0.0;
    for (size_t i = 0; i < 2 * count; ++i) {
        if (!isfinite(got[i])) return INFINITY;
        diff += (got[i] - want[i]) * (got[i] - want[i]);
        norm += want[i] * want[i];
    }
    return sqrt(diff / norm);
}

double transform_error(int n, enum kernel_precision precision, int batch, int sign, double reference_scale,
                       transform_runner run, const void *context, unsigned long long seed)
{
    const struct fft_shape shape = {1, {n, 0, 0}};
    return shape_transform_error(shape, precision, batch, sign, reference_scale, run, context, seed);
}

static double scaled_shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch,
                                           int sign, double amplitude, double reference_scale,
                                           transform_runner run, const void *context, unsigned long long seed);

double shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch, int sign,
                             double reference_scale, transform_runner run, const void *context,
                             unsigned long long seed)
{
    return scaled_shape_transform_error(shape, precision, batch, sign, 1.0, reference_scale, run, context, seed);
}

double transform_error_at(int n, enum kernel_precision precision, int batch, int sign, double amplitude,
                          transform_runner run, const void *context, unsigned long long seed)
{
    const struct fft_shape shape = {1, {n, 0, 0}};
    return scaled_shape_transform_error(shape, precision, batch, sign, amplitude, 1.0, run, context, seed);
}

static double scaled_shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch,
                                           int sign, double amplitude, double reference_scale,
                                           transform_runner run, const void *context, unsigned long long seed)
{
    const size_t count = shape_points(shape) * (size_t)batch;
    double *input = malloc(2 * sizeof(double) * count);
    double *want = malloc(2 * sizeof(double) * count);
    double *got = malloc(2 * sizeof(double) * count);
    void *in = malloc(storage_bytes(precision) * count);
    void *out = malloc(storage_bytes(precision) * count);
    double error = -1.0;
    if (input && want && got && in && out) {
        random_points(input, count, seed);
        for (size_t i = 0; i < 2 * count; ++i) input[i] *= amplitude;
        to_storage(precision, input, in, count);
        poison_storage(precision, out, count);
        if (reference_fft_shape(input, want, shape, batch, sign) == 0 && run(context, in, out, batch) == 0) {
            from_storage(precision, out, got, count);
            for (size_t i = 0; i < 2 * count; ++i) want[i] *= reference_scale;
            error = relative_l2_error(got, want, count);
        }
    }
    free(input);
    free(want);
    free(got);
    free(in);
    free(out);
    return error;
}

/* Where element `point` (row-major index into the shape) of transform b lies in a layout. */
static size_t element_offset(struct fft_shape shape, struct strided_layout layout, int b, size_t point)
{
    long long linear = 0, rest = (long long)point, place = 1;
    for (int d = shape.rank - 1; d >= 0; --d) {
        const long long index = rest % shape.n[d];
        rest /= shape.n[d];
        linear += index * place;
        place *= d > 0 && layout.embed[d] > 0 ? layout.embed[d] : shape.n[d];
    }
    return (size_t)((long long)b * layout.dist + linear * layout.stride);
}

/* Elements from the first of the layout to its last, inclusive. */
static size_t span(struct fft_shape shape, struct strided_layout layout, int batch)
{
    return element_offset(shape, layout, batch - 1, shape_points(shape) - 1) + 1;
}

double strided_transform_error(int n, enum kernel_precision precision, int batch, int sign,
                               struct strided_layout in_layout, struct strided_layout out_layout,
                               transform_runner run, const void *context, unsigned long long seed)
{
    const struct fft_shape shape = {1, {n, 0, 0}};
    return strided_shape_transform_error(shape, precision, batch, sign, in_layout, out_layout, run, context, seed);
}

double strided_shape_transform_error(struct fft_shape shape, enum kernel_precision precision, int batch, int sign,
                                     struct strided_layout in_layout, struct strided_layout out_layout,
                                     transform_runner run, const void *context, unsigned long long seed)
{
    const size_t points = shape_points(shape), count = points * (size_t)batch;
    const size_t in_span = span(shape, in_layout, batch), out_span = span(shape, out_layout, batch);
    double *all_in = malloc(2 * sizeof(double) * in_span);
    double *input = malloc(2 * sizeof(double) * count);
    double *want = malloc(2 * sizeof(double) * count);
    double *all_out = malloc(2 * sizeof(double) * out_span);
    double *got = malloc(2 * sizeof(double) * count);
    char *is_output = calloc(out_span, 1);
    void *in = malloc(storage_bytes(precision) * in_span);
    void *out = malloc(storage_bytes(precision) * out_span);
    double error = -1.0;
    if (all_in && input && want && all_out && got && is_output && in && out) {
        random_points(all_in, in_span, seed);
        to_storage(precision, all_in, in, in_span);
        from_storage(precision, in, all_in, in_span); /* what the kernel sees */
        for (int b = 0; b < batch; ++b)
            for (size_t j = 0; j < points; ++j) {
                const size_t at = element_offset(shape, in_layout, b, j);
                input[2 * ((size_t)b * points + j)] = all_in[2 * at];
                input[2 * ((size_t)b * points + j) + 1] = all_in[2 * at + 1];
            }
        poison_storage(precision, out, out_span);
        if (reference_fft_shape(input, want, shape, batch, sign) == 0 && run(context, in, out, batch) == 0) {
            from_storage(precision, out, all_out, out_span);
            for (int b = 0; b < batch; ++b)
                for (size_t k = 0; k < points; ++k) {
                    const size_t at = element_offset(shape, out_layout, b, k);
                    is_output[at] = 1;
                    got[2 * ((size_t)b * points + k)] = all_out[2 * at];
                    got[2 * ((size_t)b * points + k) + 1] = all_out[2 * at + 1];
                }
            error = relative_l2_error(got, want, count);
            for (size_t i = 0; i < out_span; ++i)
                if (!is_output[i] && !(isnan(all_out[2 * i]) && isnan(all_out[2 * i + 1]))) error = INFINITY;
        }
    }
    free(all_in);
    free(input);
    free(want);
    free(all_out);
    free(got);
    free(is_output);
    free(in);
    free(out);
    return error;
}
