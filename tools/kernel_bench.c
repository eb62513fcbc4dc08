/* fftgen-kernel-bench: the build's single-kernel FFTs against cuFFT, in one process, on the same
 * buffers. Usage: fftgen-kernel-bench [--points TOTAL] [--runs R] [--precision fp32|fp16|both] [N...]
 * Default: 256 4096 16384 points, both precisions, 2^27 points in total per transform size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cufft_compare.h"
#include "kernel_registry.h"

static void usage(FILE *to)
{
    fprintf(to, "Usage: fftgen-kernel-bench [--points TOTAL] [--runs R] [--precision fp32|fp16|both] [N...]\n"
                "Times the build's generated single-kernel FFTs (forward) against cuFFT in the same process, on\n"
                "the same random inputs, with CUDA events: warm-up, then the median of R runs (default 50).\n"
                "Errors are relative L2 against cuFFT Z2Z (double) on the unrounded inputs. TOTAL is the number\n"
                "of points per size, batch = TOTAL / N (default 2^27). Default sizes: 256 4096 16384.\n");
}

int main(int argc, char **argv)
{
    long long total = 1LL << 27;
    int runs = 50, want_fp32 = 1, want_fp16 = 1, sizes[64], size_count = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--points") == 0 && i + 1 < argc) {
            total = atoll(argv[++i]);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--precision") == 0 && i + 1 < argc) {
            const char *p = argv[++i];
            want_fp32 = strcmp(p, "fp32") == 0 || strcmp(p, "both") == 0;
            want_fp16 = strcmp(p, "fp16") == 0 || strcmp(p, "both") == 0;
            if (!want_fp32 && !want_fp16) {
                fprintf(stderr, "fftgen-kernel-bench: unknown precision '%s'\n", p);
                return 2;
            }
        } else if (argv[i][0] != '-' && size_count < 64) {
            sizes[size_count++] = atoi(argv[i]);
        } else {
            fprintf(stderr, "fftgen-kernel-bench: unknown argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (runs < 3 || total < 2) {
        fprintf(stderr, "fftgen-kernel-bench: --runs must be >= 3 and --points >= 2\n");
        return 2;
    }
    if (size_count == 0) {
        sizes[size_count++] = 256;
        sizes[size_count++] = 4096;
        sizes[size_count++] = 16384;
    }
    char device[256];
    int driver, runtime;
    if (describe_device(device, sizeof device, &driver, &runtime) != 0) {
        fprintf(stderr, "fftgen-kernel-bench: no CUDA device: nothing to measure\n");
        return 1;
    }
    printf("device: %s, driver %d, runtime %d; %lld points per size, median of %d runs\n", device, driver, runtime,
           total, runs);
    print_compare_header();
    int failures = 0;
    for (int s = 0; s < size_count; ++s)
        for (int p = 0; p < 2; ++p) {
            if ((p == 0 && !want_fp32) || (p == 1 && !want_fp16)) continue;
            const struct gpu_kernel *kernel = NULL;
            for (int k = 0; k < gpu_kernel_count; ++k)
                if (gpu_kernels[k].n == sizes[s] && (int)gpu_kernels[k].precision == p) kernel = &gpu_kernels[k];
            if (kernel == NULL) {
                fprintf(stderr, "fftgen-kernel-bench: no kernel of %d points in this build\n", sizes[s]);
                return 2;
            }
            const long long batch = total / sizes[s] > 0 ? total / sizes[s] : 1;
            const struct compare_config config = {sizes[s], p, (int)batch, 0, 5, runs, 1234u + (unsigned)s};
            struct compare_result result;
            if (compare_with_cufft(&config, (fftgen_launch_fn)kernel->forward, &result) != 0) {
                ++failures;
                continue;
            }
            print_compare_row(&config, &result);
            fflush(stdout);
        }
    return failures ? 1 : 0;
}
