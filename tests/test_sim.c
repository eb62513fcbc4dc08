/* The generated kernels, run through their host simulation, against FFTW double: every size one
 * block holds, both precisions, both directions, batch 1 and 3; chains of explicit radices 2, 4 and
 * 8; strided layouts; 2D and 3D shapes; tensor-core kernels, whose mma.sync the simulation emulates
 * from the PTX fragment layouts (cmake/kernels.cmake lists them all). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel_registry.h"
#include "reference.h"

/* The largest fp16 size of one kernel (sm_90): larger ones take passes or clusters. */
#define FP16_ONE_BLOCK_POINTS 16384

static struct fft_shape shape_of(const struct sim_kernel *k)
{
    const struct fft_shape shape = {k->rank, {k->shape[0], k->shape[1], k->shape[2]}};
    return shape;
}

/* The test's name: sim_ and the kernel's name without its fftgen_ prefix, e.g. sim_32768_t0_8_fp16
 * (unique: cmake/kernels.cmake names each generated file after it). */
static void test_name(const struct sim_kernel *k, char *name, size_t len)
{
    const char *prefix = "fftgen_";
    const size_t skip = strncmp(k->name, prefix, strlen(prefix)) == 0 ? strlen(prefix) : 0;
    snprintf(name, len, "sim_%s", k->name + skip);
}

/* A 2D or 3D shape: batch 1 and 3, both directions, the inverse scaled too; a strided one with
 * batch 1 and 5, where nothing outside the output layout may be written. fp16 on CUDA cores stays
 * under the 4e-4 target, with the intermediates the planner places (fftgen_place_intermediates) and
 * those the rows here ask for. */
static void check_shape_kernel(const struct sim_kernel *k)
{
    const double bound =
        k->precision == KERNEL_FP16 && !k->tensor_cores ? FP16_TARGET_ERROR : error_bound(k->precision);
    const struct fft_shape shape = shape_of(k);
    const struct strided_layout in = {k->istride, k->idist, {k->inembed[0], k->inembed[1], k->inembed[2]}};
    const struct strided_layout out = {k->ostride, k->odist, {k->onembed[0], k->onembed[1], k->onembed[2]}};
    const struct { int batch, scaled; } dense_cases[] = {{1, 0}, {3, 0}, {3, 1}}, strided_cases[] = {{1, 0}, {5, 0}};
    const int strided = k->istride != 0;
    const size_t case_count = strided ? 2 : 3;
    char name[64];
    test_name(k, name, sizeof name);
    for (int d = 0; d < 2; ++d)
        for (size_t c = 0; c < case_count; ++c) {
            const int sign = d == 0 ? -1 : 1;
            const int batch = strided ? strided_cases[c].batch : dense_cases[c].batch;
            const int scaled = !strided && dense_cases[c].scaled;
            const struct sim_run run = {d == 0 ? k->forward : k->inverse, scaled ? 1.0f / (float)k->n : 1.0f};
            const double error =
                strided ? strided_shape_transform_error(shape, k->precision, batch, sign, in, out, run_sim, &run,
                                                        (unsigned long long)k->n * 7 + c)
                        : shape_transform_error(shape, k->precision, batch, sign, scaled ? 1.0 / k->n : 1.0, run_sim,
                                                &run, (unsigned long long)k->n * 13 + c);
            print_message("  %s %-7s batch %d%s: relative L2 error %.3e\n", name, d == 0 ? "forward" : "inverse",
                          batch, scaled ? " scaled by 1/n" : "", error);
            assert_true(error >= 0.0);
            assert_true(error < bound);
        }
}

/* A kernel for strided layouts: batch 1, 3 and 17 (a partial last tile), both directions. */
static void check_strided_kernel(const struct sim_kernel *k)
{
    const double bound = error_bound(k->precision);
    const struct strided_layout in = {k->istride, k->idist, {0}}, out = {k->ostride, k->odist, {0}};
    const int batches[] = {1, 3, 17};
    for (int d = 0; d < 2; ++d)
        for (size_t b = 0; b < sizeof batches / sizeof batches[0]; ++b) {
            const struct sim_run run = {d == 0 ? k->forward : k->inverse, 1.0f};
            const double error = strided_transform_error(k->n, k->precision, batches[b], d == 0 ? -1 : 1, in, out,
                                                         run_sim, &run, (unsigned long long)k->n * 17 + b);
            print_message("  n=%-6d %s %-7s batch %-2d in (%lld, %lld) out (%lld, %lld): relative L2 error %.3e\n",
                          k->n, precision_label(k->precision), d == 0 ? "forward" : "inverse",
                          batches[b], k->istride, k->idist, k->ostride, k->odist, error);
            assert_true(error >= 0.0);
            assert_true(error < bound);
        }
}

/* A split kernel keeps its accuracy at input scales from 1e-20 to 1e20 (issue 6): no overflow,
 * and no more error than at scale 1 (10% allowed for the inputs' own rounding, which differs). */
static void check_split_scales(const struct sim_kernel *k)
{
    const double amplitudes[] = {1.0, 1e-20, 1e20};
    double at_one = 0.0;
    for (size_t a = 0; a < sizeof amplitudes / sizeof amplitudes[0]; ++a) {
        const struct sim_run run = {k->forward, 1.0f};
        /* enough points that the error is a mean, not one short transform's noise */
        const int batch = k->n < 8192 ? 16384 / k->n : 2;
        const double error = transform_error_at(k->n, k->precision, batch, -1, amplitudes[a], run_sim, &run,
                                                (unsigned long long)k->n * 29);
        print_message("  n=%-6d %s forward inputs in [-%g, %g]: relative L2 error %.3e\n", k->n,
                      precision_label(k->precision), amplitudes[a], amplitudes[a], error);
        assert_true(error >= 0.0 && error < error_bound(k->precision));
        if (a == 0) at_one = error;
        assert_true(error <= 1.1 * at_one);
    }
}

/* fp16 plans of several passes store between them as fp16 or as shared-exponent complexes: below
 * the 4e-4 target, the same accuracy from inputs in [-2^-8, 2^-8] up to the largest power of two whose
 * outputs stay well inside fp16's range (10% allowed, as for the split), and a NaN in the input
 * reaches every output. */
static void check_fp16_intermediates(const struct sim_kernel *k)
{
    double largest = 64.0; /* outputs' rms is amplitude * sqrt(2n/3); 8192 / sqrt(n) keeps their peaks in range */
    while (largest > 1.0 && largest * sqrt((double)k->n) > 8192.0) largest /= 2.0;
    const double amplitudes[] = {1.0, 1.0 / 256.0, largest};
    double at_one = 0.0;
    for (size_t a = 0; a < sizeof amplitudes / sizeof amplitudes[0]; ++a) {
        const struct sim_run run = {k->forward, 1.0f};
        const double error = transform_error_at(k->n, k->precision, 1, -1, amplitudes[a], run_sim, &run,
                                                (unsigned long long)k->n * 37);
        print_message("  n=%-6d fp16 forward inputs in [-%g, %g]: relative L2 error %.3e\n", k->n, amplitudes[a],
                      amplitudes[a], error);
        assert_true(error >= 0.0 && error < FP16_TARGET_ERROR);
        if (a == 0) at_one = error;
        assert_true(error <= 1.1 * at_one);
    }
    _Float16 *in = malloc(sizeof(_Float16) * 2 * (size_t)k->n), *out = malloc(sizeof(_Float16) * 2 * (size_t)k->n);
    assert_non_null(in);
    assert_non_null(out);
    for (int i = 0; i < 2 * k->n; ++i) in[i] = (_Float16)((i % 7) * 0.125f - 0.375f);
    in[2 * (k->n / 3)] = (_Float16)NAN;
    assert_int_equal(k->forward(in, out, 1, 1.0f), 0);
    int finite = 0;
    for (int i = 0; i < 2 * k->n; ++i) finite += !isnan((float)out[i]);
    print_message("  n=%-6d fp16 forward, one NaN input: %d of %d outputs not NaN\n", k->n, finite, 2 * k->n);
    assert_int_equal(finite, 0);
    free(in);
    free(out);
}

static void check_kernel(void **state)
{
    const struct sim_kernel *k = *state;
    if (k->rank > 1) {
        check_shape_kernel(k);
        return;
    }
    if (k->istride != 0) {
        check_strided_kernel(k);
        return;
    }
    const double bound = error_bound(k->precision);
    /* batch 1 and 3 unscaled; batch 3 again with the 1/n scale of a normalized inverse */
    const struct { int batch, scaled; } cases[] = {{1, 0}, {3, 0}, {3, 1}};
    for (int d = 0; d < 2; ++d) {
        const int sign = d == 0 ? -1 : 1;
        for (size_t b = 0; b < sizeof cases / sizeof cases[0]; ++b) {
            const double scale = cases[b].scaled ? 1.0 / k->n : 1.0;
            const struct sim_run run = {d == 0 ? k->forward : k->inverse, (float)scale};
            const double error = transform_error(k->n, k->precision, cases[b].batch, sign, scale, run_sim, &run,
                                                 (unsigned long long)k->n * 131 + b);
            print_message("  n=%-6d %s %-7s batch %d%s: relative L2 error %.3e\n", k->n,
                          precision_label(k->precision), d == 0 ? "forward" : "inverse",
                          cases[b].batch, cases[b].scaled ? " scaled by 1/n" : "", error);
            assert_true(error >= 0.0);
            assert_true(error < bound);
        }
    }
    if (k->precision == KERNEL_SPLIT || k->precision == KERNEL_SPLIT_PAPERS) check_split_scales(k);
    if (k->precision == KERNEL_FP16 && k->n > FP16_ONE_BLOCK_POINTS && !k->tensor_cores) check_fp16_intermediates(k);
}

/* test_sim [--part I/N] [PATTERN]: only the kernels I, I + N, I + 2N, .. (counted from 1), so that ctest
 * can run the parts side by side, and of those only the tests whose names match PATTERN (cmocka's
 * filter, * as a wildcard). */
int main(int argc, char **argv)
{
    int part = 1, parts = 1, at = 1;
    if (argc > 1 && strcmp(argv[1], "--part") == 0) {
        char end = 0;
        if (argc < 3 || sscanf(argv[2], "%d/%d%c", &part, &parts, &end) != 2 || parts < 1 || part < 1 ||
            part > parts) {
            fprintf(stderr, "test_sim: --part takes I/N with 1 <= I <= N, not '%s'\n", argc < 3 ? "" : argv[2]);
            return 2;
        }
        at = 3;
    }
    if (argc > at + 1) {
        fprintf(stderr, "usage: test_sim [--part I/N] [TEST-NAME-PATTERN]\n");
        return 2;
    }
    if (argc == at + 1) cmocka_set_test_filter(argv[at]);
    struct CMUnitTest *tests = calloc((size_t)sim_kernel_count, sizeof *tests);
    char (*names)[64] = calloc((size_t)sim_kernel_count, sizeof *names);
    if (tests == NULL || names == NULL) return 1;
    size_t count = 0;
    for (int i = part - 1; i < sim_kernel_count; i += parts, ++count) {
        test_name(&sim_kernels[i], names[count], sizeof names[count]);
        tests[count].name = names[count];
        tests[count].test_func = check_kernel;
        tests[count].initial_state = (void *)&sim_kernels[i];
    }
    char group[64] = "host_simulation";
    if (parts > 1) snprintf(group, sizeof group, "host_simulation, part %d of %d", part, parts);
    const int failed = _cmocka_run_group_tests(group, tests, count, NULL, NULL);
    free(tests);
    free(names);
    return failed;
}
