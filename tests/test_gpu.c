/* The generated kernels on the GPU against FFTW double: every size one block holds, both
 * precisions, both directions, batch 1, 3 and a large batch, out of place and in place; and the
 * fp16 kernels with radix-16 stages on tensor cores, and kernels that prefetch (sm_90: also from inputs
 * off a 16-byte boundary).
 * Every test is skipped (not passed) where there is no CUDA device. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <cuda_runtime.h>

#include "cuda_check.h"
#include "kernel_registry.h"
#include "reference.h"

/* Points per check for the "large batch" case: batch = LARGE_POINTS / n. */
#define LARGE_POINTS (1 << 22)

static int have_gpu, device_arch; /* device_arch: 90 for sm_90 */
static double worst_error[2];

struct gpu_run {
    launch_function launch;
    enum kernel_precision precision;
    int n;
    int in_place;
    int offset; /* points between the allocations' start and the data (a bulk copy needs 16-byte alignment) */
};

/* Copies the input over, poisons the output (0xFF bytes are NaN in fp32 and fp16), launches, and
 * copies the result back. */
static int run_on_gpu(const void *context, const void *in, void *out, int batch)
{
    const struct gpu_run *run = context;
    const size_t point = storage_bytes(run->precision);
    const size_t bytes = point * (size_t)run->n * (size_t)batch, skip = point * (size_t)run->offset;
    void *d_in = NULL, *d_out = NULL;
    int result = -1;
    CHECK_CUDA(cudaMalloc(&d_in, bytes + skip));
    if (run->in_place) {
        d_out = d_in;
    } else {
        CHECK_CUDA(cudaMalloc(&d_out, bytes + skip));
        CHECK_CUDA(cudaMemset(d_out, 0xFF, bytes + skip));
    }
    CHECK_CUDA(cudaMemcpy((char *)d_in + skip, in, bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA((cudaError_t)run->launch((char *)d_in + skip, (char *)d_out + skip, batch, NULL));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(out, (char *)d_out + skip, bytes, cudaMemcpyDeviceToHost));
    result = 0;
done:
    cudaFree(d_in);
    if (d_out != d_in) cudaFree(d_out);
    return result;
}

static void check_kernel(void **state)
{
    if (!have_gpu) skip();
    const struct gpu_kernel *k = *state;
    if (k->prefetch && device_arch < 90) skip(); /* bulk copies */
    const double bound = k->precision == KERNEL_FP16 ? FP16_ERROR_BOUND : FP32_ERROR_BOUND;
    const int large = LARGE_POINTS / k->n;
    /* a prefetching kernel also from inputs one and three points past a 16-byte boundary (its copies
     * then take points before and after the whole 16-byte pieces), and in batches that leave its
     * blocks' last turns empty (3, large + 1) */
    const struct { int batch, in_place, offset; } cases[] = {{1, 0, 0}, {3, 0, 0}, {large, 0, 0}, {3, 1, 0},
                                                           {large + 1, 0, 1}, {3, 1, 1}, {3, 0, 3}};
    const size_t count = k->prefetch ? 7 : 4;
    for (int d = 0; d < 2; ++d)
        for (size_t c = 0; c < count; ++c) {
            const struct gpu_run run = {d == 0 ? k->forward : k->inverse, k->precision, k->n, cases[c].in_place,
                                        cases[c].offset};
            const double error = transform_error(k->n, k->precision, cases[c].batch, d == 0 ? -1 : 1, 1.0,
                                                 run_on_gpu, &run, (unsigned long long)k->n * 7919 + c * 2 + d);
            char off[32] = "";
            if (cases[c].offset)
                snprintf(off, sizeof off, ", %d point%s off 16 bytes", cases[c].offset, cases[c].offset > 1 ? "s" : "");
            print_message("  n=%-6d %s%s%s%s %-7s batch %-7d %s%s: relative L2 error %.3e\n", k->n,
                          k->precision == KERNEL_FP16 ? "fp16" : "fp32", k->tensor_cores ? " (tensor cores)" : "",
                          k->computed_twiddles ? " (computed twiddles)" : "", k->prefetch ? " (prefetch)" : "",
                          d == 0 ? "forward" : "inverse", cases[c].batch,
                          cases[c].in_place ? "in place    " : "out of place",
                          off, error);
            assert_true(error >= 0.0);
            assert_true(error < bound);
            if (error > worst_error[k->precision]) worst_error[k->precision] = error;
        }
}

/* A bad argument is refused by the launch function, not launched. */
static void launcher_rejects_bad_arguments(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    void *buffer = NULL;
    assert_int_equal(cudaMalloc(&buffer, 4096 * sizeof(float) * 2), cudaSuccess);
    assert_int_equal(gpu_kernels[0].forward(buffer, buffer, 0, NULL), cudaErrorInvalidValue);
    assert_int_equal(gpu_kernels[0].forward(NULL, buffer, 1, NULL), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(buffer), cudaSuccess);
}

/* test_gpu [PATTERN]: only the tests whose names match (cmocka's filter, * as a wildcard), e.g. "*pf*"
 * for the kernels that prefetch. */
int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows in a log while a long test runs */
    if (argc > 2) {
        fprintf(stderr, "usage: test_gpu [TEST-NAME-PATTERN]\n");
        return 2;
    }
    if (argc == 2) cmocka_set_test_filter(argv[1]);
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    have_gpu = status == cudaSuccess && devices > 0;
    int major = 0, minor = 0;
    if (have_gpu && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) == cudaSuccess)
        device_arch = 10 * major + minor;
    if (!have_gpu)
        printf("no CUDA device (%s): the GPU tests are skipped\n",
               status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    struct CMUnitTest *tests = calloc((size_t)gpu_kernel_count + 1, sizeof *tests);
    char (*names)[64] = calloc((size_t)gpu_kernel_count, sizeof *names);
    if (tests == NULL || names == NULL) return 1;
    for (int i = 0; i < gpu_kernel_count; ++i) {
        char radix[16] = "", prefetch[16] = "";
        if (gpu_kernels[i].radix != 0) snprintf(radix, sizeof radix, "r%d_", gpu_kernels[i].radix);
        if (gpu_kernels[i].prefetch != 0) snprintf(prefetch, sizeof prefetch, "pf%d_", gpu_kernels[i].prefetch);
        snprintf(names[i], sizeof names[i], "gpu_%d_%s%s%s%s%s", gpu_kernels[i].n, radix,
                 gpu_kernels[i].computed_twiddles ? "ct_" : "", prefetch,
                 gpu_kernels[i].tensor_cores ? "tensor_cores_" : "",
                 gpu_kernels[i].precision == KERNEL_FP16 ? "fp16" : "fp32");
        tests[i].name = names[i];
        tests[i].test_func = check_kernel;
        tests[i].initial_state = (void *)&gpu_kernels[i];
    }
    tests[gpu_kernel_count].name = "launcher_rejects_bad_arguments";
    tests[gpu_kernel_count].test_func = launcher_rejects_bad_arguments;
    const int failed = _cmocka_run_group_tests("gpu", tests, (size_t)gpu_kernel_count + 1, NULL, NULL);
    if (have_gpu)
        printf("worst relative L2 error against FFTW double: fp32 %.3e, fp16 %.3e\n", worst_error[KERNEL_FP32],
               worst_error[KERNEL_FP16]);
    free(tests);
    free(names);
    return failed;
}
