/* The main job's last step: runs the kernel that tools/demo.sh just generated (entry point prefix
 * demo_fft) against cuFFT on the same buffers, and prints the error and the time.
 * Compiled by tools/demo.sh with -DDEMO_N=<points> -DDEMO_FP16=<0|1>. */
#include <stdio.h>

#include "cufft_compare.h"

cudaError_t demo_fft_forward_launch(const void *in, void *out, int batch, cudaStream_t stream);
cudaError_t demo_fft_inverse_launch(const void *in, void *out, int batch, cudaStream_t stream);

int main(void)
{
    char device[256];
    int driver, runtime;
    if (describe_device(device, sizeof device, &driver, &runtime) != 0) {
        fprintf(stderr, "demo: no CUDA device: the kernel compiled, but nothing can run here\n");
        return 1;
    }
    const long long total = 1LL << 27;
    const int batch = (int)(total / DEMO_N > 0 ? total / DEMO_N : 1);
    printf("device: %s (driver %d, runtime %d)\n", device, driver, runtime);
    printf("%d-point %s FFTs, batch %d (2^27 points): median of 50 timed runs after 5 warm-ups;\n", DEMO_N,
           DEMO_FP16 ? "fp16" : "fp32", batch);
    printf("errors are relative L2 against cuFFT Z2Z (double) on the same unrounded inputs.\n\n");
    print_compare_header();
    for (int inverse = 0; inverse < 2; ++inverse) {
        const struct compare_config config = {.n = DEMO_N, .fp16 = DEMO_FP16, .batch = batch, .inverse = inverse,
                                              .warmup = 5, .runs = 50, .seed = 42u + (unsigned)inverse};
        struct compare_result result;
        const fftgen_launch_fn launch = inverse ? (fftgen_launch_fn)demo_fft_inverse_launch
                                                : (fftgen_launch_fn)demo_fft_forward_launch;
        if (compare_with_cufft(&config, launch, &result) != 0) {
            release_compare_buffers();
            return 1;
        }
        print_compare_row(&config, &result);
    }
    release_compare_buffers();
    return 0;
}
