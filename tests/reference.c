#include "reference.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int reference_fft(const double *in, double *out, int n, int batch, int sign)
{
    const size_t count = (size_t)n * (size_t)batch;
    fftw_complex *a = fftw_malloc(sizeof(fftw_complex) * count);
    fftw_complex *b = fftw_malloc(sizeof(fftw_complex) * count);
    if (a == NULL || b == NULL) {
        fftw_free(a);
        fftw_free(b);
        return -1;
    }
    memcpy(a, in, sizeof(fftw_complex) * count);
    fftw_plan plan = fftw_plan_many_dft(1, &n, batch, a, NULL, 1, n, b, NULL, 1, n,
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
    const size_t count = (size_t)n * (size_t)batch;
    double *input = malloc(2 * sizeof(double) * count);
    double *want = malloc(2 * sizeof(double) * count);
    double *got = malloc(2 * sizeof(double) * count);
    void *in = malloc(storage_bytes(precision) * count);
    void *out = malloc(storage_bytes(precision) * count);
    double error = -1.0;
    if (input && want && got && in && out) {
        random_points(input, count, seed);
        to_storage(precision, input, in, count);
        poison_storage(precision, out, count);
        if (reference_fft(input, want, n, batch, sign) == 0 && run(context, in, out, batch) == 0) {
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

static size_t span(struct strided_layout layout, int n, int batch)
{
    return (size_t)((long long)(batch - 1) * layout.dist + (long long)(n - 1) * layout.stride + 1);
}

double strided_transform_error(int n, enum kernel_precision precision, int batch, int sign,
                               struct strided_layout in_layout, struct strided_layout out_layout,
                               transform_runner run, const void *context, unsigned long long seed)
{
    const size_t count = (size_t)n * (size_t)batch;
    const size_t in_span = span(in_layout, n, batch), out_span = span(out_layout, n, batch);
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
            for (int j = 0; j < n; ++j) {
                const size_t at = (size_t)(b * in_layout.dist + j * in_layout.stride);
                input[2 * ((size_t)b * n + j)] = all_in[2 * at];
                input[2 * ((size_t)b * n + j) + 1] = all_in[2 * at + 1];
            }
        poison_storage(precision, out, out_span);
        if (reference_fft(input, want, n, batch, sign) == 0 && run(context, in, out, batch) == 0) {
            from_storage(precision, out, all_out, out_span);
            for (int b = 0; b < batch; ++b)
                for (int k = 0; k < n; ++k) {
                    const size_t at = (size_t)(b * out_layout.dist + k * out_layout.stride);
                    is_output[at] = 1;
                    got[2 * ((size_t)b * n + k)] = all_out[2 * at];
                    got[2 * ((size_t)b * n + k) + 1] = all_out[2 * at + 1];
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
