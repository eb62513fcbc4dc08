/* fftgen-plan-time: how long plan creation takes, next to cuFFT's, in one process.
 * Usage: fftgen-plan-time [N...]   (default 256 4096 16384; batch 2^27/N; fp32 and fp16)
 * With FFTGEN_DEFAULT_PACK=0 and an empty FFTGEN_CACHE_DIR, a first run compiles with NVRTC (cold)
 * and a second finds every kernel in the disk cache (warm); with the default pack, kernels come from
 * the pack. cuFFT is planned for the same transform. */
#define _POSIX_C_SOURCE 200809L
#include <cufft.h>
#include <cufftXt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "count_arg.h"
#include "fftgen.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *source_of_kernel(const fftgen_cache_stats *before, const fftgen_cache_stats *after)
{
    if (after->compiles > before->compiles) return "NVRTC";
    if (after->pack_hits > before->pack_hits) return "kernel pack";
    if (after->disk_hits > before->disk_hits) return "disk cache";
    if (after->memory_hits > before->memory_hits) return "memory cache";
    return "?";
}

int main(int argc, char **argv)
{
    long long sizes[32];
    int count = 0;
    for (int i = 1; i < argc && count < 32; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("Usage: fftgen-plan-time [N...]\nTimes fftgen_plan_1d and cuFFT's planning of the same batched "
                   "transform (2^27 points), fp32 and fp16.\nRun twice with one FFTGEN_CACHE_DIR to see a cold and a "
                   "warm start.\n");
            return 0;
        }
        /* batch 2^27 / N: a power of two up to 2^27 */
        const long long n = count_arg_parse("fftgen-plan-time", "N", argv[i], 2, 1LL << 27);
        if (n < 0) return 2;
        if (n & (n - 1)) {
            fprintf(stderr, "fftgen-plan-time: N must be a power of two, not %lld\n", n);
            return 2;
        }
        sizes[count++] = n;
    }
    if (count == 0) {
        sizes[count++] = 256;
        sizes[count++] = 4096;
        sizes[count++] = 16384;
    }
    /* the first CUDA call creates the context: keep it out of every figure */
    if (cudaFree(0) != cudaSuccess) {
        fprintf(stderr, "fftgen-plan-time: no CUDA device\n");
        return 1;
    }
    printf("%-8s %-5s %12s %-13s %12s\n", "n", "prec", "fftgen ms", "kernel from", "cuFFT ms");
    int failures = 0;
    for (int s = 0; s < count; ++s)
        for (int p = 0; p < 2; ++p) {
            const long long n = sizes[s], batch = (1LL << 27) / sizes[s];
            fftgen_cache_stats before, after;
            fftgen_cache_get_stats(&before);
            fftgen_plan plan = NULL;
            const double t0 = now_ms();
            const fftgen_result r = fftgen_plan_1d(&plan, n, p ? FFTGEN_FP16 : FFTGEN_FP32, batch, 0);
            const double t1 = now_ms();
            fftgen_cache_get_stats(&after);
            if (r != FFTGEN_SUCCESS) {
                fprintf(stderr, "fftgen_plan_1d(%lld): %s (%s)\n", n, fftgen_result_string(r), fftgen_last_error());
                ++failures;
                continue;
            }
            fftgen_destroy(plan);
            cufftHandle handle;
            size_t work = 0;
            long long nn = n;
            const double t2 = now_ms();
            cufftResult c = cufftCreate(&handle);
            if (c == CUFFT_SUCCESS)
                c = cufftXtMakePlanMany(handle, 1, &nn, NULL, 1, n, p ? CUDA_C_16F : CUDA_C_32F, NULL, 1, n,
                                        p ? CUDA_C_16F : CUDA_C_32F, batch, &work, p ? CUDA_C_16F : CUDA_C_32F);
            const double t3 = now_ms();
            if (c != CUFFT_SUCCESS) {
                fprintf(stderr, "cuFFT planning of %lld failed: %d\n", n, (int)c);
                ++failures;
            }
            cufftDestroy(handle);
            printf("%-8lld %-5s %12.2f %-13s %12.2f\n", n, p ? "fp16" : "fp32", t1 - t0,
                   source_of_kernel(&before, &after), t3 - t2);
        }
    return failures ? 1 : 0;
}
