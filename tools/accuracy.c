/* fftgen-accuracy: the error of fftgen and of cuFFT against FFTW double on the CPU, on the same inputs.
 * See usage() below. */
#include <cufft.h>
#include <cufftXt.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "fftgen.h"
#include "reference.h"

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen-accuracy [--precision fp32|fp16|both] [--scales LIST] [--points TOTAL] [N...]\n"
            "Runs fftgen (through the library) and cuFFT (cufftXtMakePlanMany and cufftXtExec with\n"
            "CUDA_C_32F or CUDA_C_16F) on the same random inputs, uniform in [-1, 1] times each scale, rounded\n"
            "to the storage precision, and compares both with FFTW in double on the unrounded inputs:\n"
            "  rel L2    ||X - X_double|| / ||X_double||\n"
            "  rel max   max |X - X_double| / max |X_double|\n"
            "  mean rel  mean of |X - X_double| / |X_double| over the outputs (tcFFT, eq. 5)\n"
            "Scales 1e-4 and 1e3 probe fp16 underflow and overflow (inf or NaN outputs show as inf).\n"
            "\n"
            "  N...            sizes (default 16 64 256 1024 4096 16384 65536 262144 1048576)\n"
            "  --points TOTAL  points per size, batch = TOTAL / N (default 2^20)\n"
            "  --scales LIST   comma-separated (default 1,1e-4,1e3)\n"
            "Exit status 1 where there is no GPU or fftgen's rel L2 error at scale 1 is above 1e-6 (fp32)\n"
            "or 1e-3 (fp16); 2 on bad arguments.\n");
}

struct metrics {
    double l2, max, mean;
};

static struct metrics measure(const double *got, const double *want, size_t count)
{
    double diff = 0, norm = 0, max_diff = 0, max_ref = 0, mean = 0;
    size_t counted = 0;
    int finite = 1;
    for (size_t i = 0; i < count; ++i) {
        const double dx = got[2 * i] - want[2 * i], dy = got[2 * i + 1] - want[2 * i + 1];
        const double e = sqrt(dx * dx + dy * dy), r = hypot(want[2 * i], want[2 * i + 1]);
        if (!isfinite(e)) finite = 0;
        diff += e * e;
        norm += r * r;
        if (e > max_diff) max_diff = e;
        if (r > max_ref) max_ref = r;
        if (r > 0) {
            mean += e / r;
            ++counted;
        }
    }
    const struct metrics m = {sqrt(diff / norm), max_diff / max_ref, counted ? mean / counted : 0};
    if (!finite) return (struct metrics){INFINITY, INFINITY, INFINITY};
    return m;
}

/* Runs fftgen and cuFFT forward on `in` (storage precision); results in double. 0 on success. */
static int run_both(long long n, int fp16, int batch, const void *in, double *fftgen_out, double *cufft_out)
{
    const size_t count = (size_t)n * (size_t)batch, bytes = count * (fp16 ? 4 : 8);
    void *d_in = NULL, *d_out = NULL, *host = malloc(bytes);
    fftgen_plan plan = NULL;
    cufftHandle handle = 0;
    int status = -1;
    size_t work = 0;
    if (host == NULL || cudaMalloc(&d_in, bytes) != cudaSuccess || cudaMalloc(&d_out, bytes) != cudaSuccess ||
        cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        goto done;
    fftgen_result r = fftgen_plan_1d(&plan, n, fp16 ? FFTGEN_FP16 : FFTGEN_FP32, batch, 0);
    if (r != FFTGEN_SUCCESS || (r = fftgen_exec(plan, d_in, d_out, FFTGEN_FORWARD)) != FFTGEN_SUCCESS) {
        fprintf(stderr, "fftgen-accuracy: fftgen, %lld points: %s (%s)\n", n, fftgen_result_string(r),
                fftgen_last_error());
        goto done;
    }
    if (cudaMemcpy(host, d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) goto done;
    from_storage(fp16 ? KERNEL_FP16 : KERNEL_FP32, host, fftgen_out, count);
    if (cufftCreate(&handle) != CUFFT_SUCCESS ||
        cufftXtMakePlanMany(handle, 1, &n, NULL, 1, n, fp16 ? CUDA_C_16F : CUDA_C_32F, NULL, 1, n,
                            fp16 ? CUDA_C_16F : CUDA_C_32F, batch, &work, fp16 ? CUDA_C_16F : CUDA_C_32F) !=
            CUFFT_SUCCESS ||
        cufftXtExec(handle, d_in, d_out, CUFFT_FORWARD) != CUFFT_SUCCESS ||
        cudaMemcpy(host, d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "fftgen-accuracy: cuFFT failed at %lld points\n", n);
        goto done;
    }
    from_storage(fp16 ? KERNEL_FP16 : KERNEL_FP32, host, cufft_out, count);
    status = 0;
done:
    if (handle) cufftDestroy(handle);
    fftgen_destroy(plan);
    cudaFree(d_in);
    cudaFree(d_out);
    free(host);
    return status;
}

int main(int argc, char **argv)
{
    long long sizes[64], total = 1LL << 20;
    double scales[16] = {1.0, 1e-4, 1e3};
    int count = 0, scale_count = 3, want[2] = {1, 1};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--points") && has_value) {
            if ((total = count_arg_parse("fftgen-accuracy", a, argv[++i], 2, 1LL << 31)) < 0) return 2;
        } else if (!strcmp(a, "--precision") && has_value) {
            const char *p = argv[++i];
            want[0] = !strcmp(p, "fp32") || !strcmp(p, "both");
            want[1] = !strcmp(p, "fp16") || !strcmp(p, "both");
            if (!want[0] && !want[1]) {
                fprintf(stderr, "fftgen-accuracy: unknown precision '%s'\n", p);
                return 2;
            }
        } else if (!strcmp(a, "--scales") && has_value) {
            char *list = argv[++i], *end;
            scale_count = 0;
            while (*list && scale_count < 16) {
                scales[scale_count] = strtod(list, &end);
                if (end == list || scales[scale_count] <= 0) {
                    fprintf(stderr, "fftgen-accuracy: bad scale list '%s'\n", argv[i]);
                    return 2;
                }
                ++scale_count;
                list = *end == ',' ? end + 1 : end;
            }
        } else if (a[0] != '-' && count < 64) {
            char *end;
            sizes[count] = strtoll(a, &end, 10);
            if (*end || sizes[count] < 2 || (sizes[count] & (sizes[count] - 1))) {
                fprintf(stderr, "fftgen-accuracy: '%s' is not a power of two >= 2\n", a);
                return 2;
            }
            ++count;
        } else {
            fprintf(stderr, "fftgen-accuracy: unknown or incomplete argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (count == 0)
        for (long long n = 16; n <= (1LL << 20); n *= 4) sizes[count++] = n;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "fftgen-accuracy: no CUDA device: nothing to measure\n");
        return 1;
    }
    printf("%-8s %-4s %7s | %9s %9s %9s | %9s %9s %9s\n", "n", "prec", "scale", "fftgen L2", "max", "mean rel",
           "cuFFT L2", "max", "mean rel");
    int failures = 0;
    for (int s = 0; s < count; ++s)
        for (int p = 0; p < 2; ++p) {
            if (!want[p]) continue;
            const int batch = (int)(total / sizes[s] > 0 ? total / sizes[s] : 1);
            const size_t points = (size_t)sizes[s] * (size_t)batch;
            double *x = malloc(16 * points), *ref = malloc(16 * points), *a = malloc(16 * points),
                   *b = malloc(16 * points);
            void *storage = malloc(8 * points);
            for (int k = 0; k < scale_count && x && ref && a && b && storage; ++k) {
                random_points(x, points, 99u + (unsigned)(s * 7 + p));
                for (size_t i = 0; i < 2 * points; ++i) x[i] *= scales[k];
                to_storage(p ? KERNEL_FP16 : KERNEL_FP32, x, storage, points);
                if (reference_fft(x, ref, (int)sizes[s], batch, -1) != 0 ||
                    run_both(sizes[s], p, batch, storage, a, b) != 0) {
                    ++failures;
                    continue;
                }
                const struct metrics mf = measure(a, ref, points), mc = measure(b, ref, points);
                printf("%-8lld %-4s %7.0e | %9.2e %9.2e %9.2e | %9.2e %9.2e %9.2e\n", sizes[s], p ? "fp16" : "fp32",
                       scales[k], mf.l2, mf.max, mf.mean, mc.l2, mc.max, mc.mean);
                fflush(stdout);
                if (scales[k] == 1.0 && !(mf.l2 < (p ? FP16_ERROR_BOUND : FP32_ERROR_BOUND))) {
                    fprintf(stderr, "fftgen-accuracy: %lld points %s: error %.2e above its bound\n", sizes[s],
                            p ? "fp16" : "fp32", mf.l2);
                    ++failures;
                }
            }
            free(x);
            free(ref);
            free(a);
            free(b);
            free(storage);
        }
    return failures ? 1 : 0;
}
