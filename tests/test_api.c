/* The public API (runtime/include/fftgen.h). Everywhere: every bad argument gets its own result
 * code and leaves no plan; every code has a message; fftgen_last_error() names what a failed call
 * found wrong, per thread. Without a GPU: a valid plan reports
 * FFTGEN_NO_DEVICE. With a GPU (else skipped): every size from 2 to 2^27 (one kernel up to 16384,
 * two passes up to 2^20, three above) in both precisions and both directions against FFTW double,
 * out of place and in place, batch 1, 3 and large (up to 2^22 points), the normalized inverse, work areas of the plan's and of the caller's, strided input and
 * output, kernel packs on the device, and the execution-time argument checks; 2D and 3D shapes
 * (squares to 8192^2, cubes to 512^3) contiguous and strided with embeds; executions captured into
 * CUDA graphs; eight threads planning and executing at once. With two GPUs: plans on
 * each device, and a plan refused while the other device is current. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda.h> /* the driver's types only: its functions come through the runtime */
#include <cuda_runtime.h>

#include "cuda_check.h"
#include "fftgen.h"
#include "launch.h"
#include "pack.h"
#include "plan_choice.h"
#include "reference.h"

static int have_gpu;
static double worst_error[2];
static char worst_case[2][32];

static void expect_rejected(fftgen_result want, int rank, const long long *n, const long long *inembed,
                            long long istride, long long idist, fftgen_precision precision, long long batch,
                            unsigned flags)
{
    fftgen_plan plan = (fftgen_plan)0x1; /* must come back NULL */
    const fftgen_result got =
        fftgen_plan_many(&plan, rank, n, inembed, istride, idist, NULL, 1, 1, precision, batch, flags);
    if (got != want) print_error("got %d (%s), want %d\n", got, fftgen_result_string(got), want);
    assert_int_equal(got, want);
    assert_null(plan);
}

static void bad_arguments(void **state)
{
    (void)state;
    const long long n64 = 64, n1000 = 1000, n0 = 0, nneg = -8, nhuge = 1LL << 31, square[2] = {64, 64};
    const long long embed = 64;
    assert_int_equal(fftgen_plan_1d(NULL, 64, FFTGEN_FP32, 1, 0), FFTGEN_NULL_POINTER);
    assert_int_equal(fftgen_plan_2d(NULL, 64, 64, FFTGEN_FP32, 1, 0), FFTGEN_NULL_POINTER);
    assert_int_equal(fftgen_plan_3d(NULL, 8, 8, 8, FFTGEN_FP32, 1, 0), FFTGEN_NULL_POINTER);
    expect_rejected(FFTGEN_NULL_POINTER, 1, NULL, NULL, 1, 64, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_SIZE, 1, &n1000, NULL, 1, 1000, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_SIZE, 1, &n0, NULL, 1, 0, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_SIZE, 1, &nneg, NULL, 1, 8, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_SIZE_TOO_LARGE, 1, &nhuge, NULL, 1, nhuge, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_BATCH, 1, &n64, NULL, 1, 64, FFTGEN_FP32, 0, 0);
    expect_rejected(FFTGEN_INVALID_BATCH, 1, &n64, NULL, 1, 64, FFTGEN_FP32, -3, 0);
    expect_rejected(FFTGEN_INVALID_RANK, 0, &n64, NULL, 1, 64, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_RANK, 4, &n64, NULL, 1, 64, FFTGEN_FP32, 1, 0);
    expect_rejected(FFTGEN_INVALID_PRECISION, 1, &n64, NULL, 1, 64, (fftgen_precision)7, 1, 0);
    expect_rejected(FFTGEN_INVALID_FLAGS, 1, &n64, NULL, 1, 64, FFTGEN_FP32, 1, 1u << 20);
    expect_rejected(FFTGEN_INVALID_LAYOUT, 1, &n64, &embed, 0, 64, FFTGEN_FP32, 2, 0);
    expect_rejected(FFTGEN_INVALID_LAYOUT, 1, &n64, &embed, 1, 0, FFTGEN_FP32, 2, 0);
    /* output transforms 32 apart but 64 long: their writes would race (input ones may overlap, as
     * frames of a short-time FFT: strided_layouts_match_fftw runs them) */
    fftgen_plan plan = (fftgen_plan)0x1;
    assert_int_equal(fftgen_plan_many(&plan, 1, &n64, NULL, 1, 64, &embed, 1, 32, FFTGEN_FP32, 2, 0),
                     FFTGEN_OVERLAPPING_LAYOUT);
    assert_null(plan);
    /* an embed smaller than its dimension; 2D output transforms whose spans overlap */
    const long long narrow[2] = {64, 32}, wide[2] = {64, 80};
    expect_rejected(FFTGEN_INVALID_LAYOUT, 2, square, narrow, 1, 4096, FFTGEN_FP32, 2, 0);
    plan = (fftgen_plan)0x1;
    assert_int_equal(fftgen_plan_many(&plan, 2, square, NULL, 1, 4096, wide, 1, 4096, FFTGEN_FP32, 2, 0),
                     FFTGEN_OVERLAPPING_LAYOUT);
    assert_null(plan);
    /* split: no radix-16 stage below 16 points */
    const long long n8 = 8;
    expect_rejected(FFTGEN_NOT_SUPPORTED_YET, 1, &n8, NULL, 1, 8, FFTGEN_SPLIT, 1, 0);
    expect_rejected(FFTGEN_NOT_SUPPORTED_YET, 1, &n8, NULL, 1, 8, FFTGEN_SPLIT_PAPERS, 1, 0);
    /* tensor cores take fp16 operands: not fp32 storage */
    expect_rejected(FFTGEN_NOT_SUPPORTED_YET, 1, &n64, NULL, 1, 64, FFTGEN_FP32, 1, FFTGEN_TENSOR_CORES);
    expect_rejected(FFTGEN_INVALID_FLAGS, 1, &n64, NULL, 1, 64, FFTGEN_FP32, 1, FFTGEN_FP16_INTERMEDIATES << 1);
    /* fp16 intermediates: fp16 only */
    expect_rejected(FFTGEN_INVALID_FLAGS, 1, &n64, NULL, 1, 64, FFTGEN_FP32, 1, FFTGEN_FP16_INTERMEDIATES);
    expect_rejected(FFTGEN_INVALID_FLAGS, 1, &n64, NULL, 1, 64, FFTGEN_SPLIT, 1, FFTGEN_FP16_INTERMEDIATES);
}

static void expect_detail(const char *part)
{
    if (strstr(fftgen_last_error(), part) == NULL)
        print_error("last error: '%s', want '%s' in it\n", fftgen_last_error(), part);
    assert_non_null(strstr(fftgen_last_error(), part));
}

static void *fail_a_plan(void *unused)
{
    (void)unused;
    fftgen_plan plan;
    return (void *)(uintptr_t)(fftgen_plan_1d(&plan, 48, FFTGEN_FP32, 1, 0) == FFTGEN_INVALID_SIZE &&
                               strstr(fftgen_last_error(), "n[0] = 48") != NULL);
}

/* fftgen_last_error() names what a failed call found wrong, per thread, and is empty after a success. */
static void failures_say_why(void **state)
{
    (void)state;
    fftgen_plan plan;
    const long long n1000 = 1000, n64 = 64, square[2] = {64, 64}, narrow[2] = {64, 32}, wide[2] = {64, 80};
    assert_int_equal(fftgen_destroy(NULL), FFTGEN_SUCCESS);
    assert_string_equal(fftgen_last_error(), "");
    assert_int_equal(fftgen_plan_many(&plan, 1, &n1000, NULL, 1, 1, NULL, 1, 1, FFTGEN_FP32, 1, 0),
                     FFTGEN_INVALID_SIZE);
    expect_detail("n[0] = 1000 is not a power of two");
    /* the messages' own functions leave it alone */
    (void)fftgen_result_string(FFTGEN_SUCCESS);
    (void)fftgen_version();
    expect_detail("n[0] = 1000");
    assert_int_equal(fftgen_plan_many(&plan, 2, square, narrow, 1, 4096, NULL, 1, 1, FFTGEN_FP32, 2, 0),
                     FFTGEN_INVALID_LAYOUT);
    expect_detail("input embed[1] = 32 is smaller than n[1] = 64");
    assert_int_equal(fftgen_plan_many(&plan, 2, square, NULL, 1, 1, wide, 1, 4096, FFTGEN_FP32, 2, 0),
                     FFTGEN_OVERLAPPING_LAYOUT);
    expect_detail("output layout: with stride 1, distance 4096 and 5120 elements a transform, the 2 transforms would "
                  "share elements");
    /* the 2D and 3D plan functions: their sizes as n[d] of fftgen_plan_many, and *plan NULL */
    plan = (fftgen_plan)0x1;
    assert_int_equal(fftgen_plan_2d(&plan, 64, 1000, FFTGEN_FP32, 1, 0), FFTGEN_INVALID_SIZE);
    expect_detail("n[1] = 1000 is not a power of two");
    assert_null(plan);
    plan = (fftgen_plan)0x1;
    assert_int_equal(fftgen_plan_3d(&plan, 8, 8, 0, FFTGEN_FP16, 1, 0), FFTGEN_INVALID_SIZE);
    expect_detail("n[2] = 0");
    assert_null(plan);
    assert_int_equal(fftgen_plan_3d(&plan, 8, 8, 8, FFTGEN_FP16, 0, 0), FFTGEN_INVALID_BATCH);
    assert_int_equal(fftgen_plan_1d(&plan, 64, FFTGEN_FP32, 1, 1u << 20), FFTGEN_INVALID_FLAGS);
    expect_detail("unknown flag bits 0x100000");
    assert_int_equal(fftgen_plan_1d(&plan, 64, FFTGEN_FP32, 1, FFTGEN_TENSOR_CORES), FFTGEN_NOT_SUPPORTED_YET);
    expect_detail("FFTGEN_TENSOR_CORES takes fp16 operands");
    assert_int_equal(fftgen_plan_many(&plan, 1, &n64, NULL, 1, 1, NULL, 1, 1, FFTGEN_FP32, 0, 0), FFTGEN_INVALID_BATCH);
    expect_detail("batch 0");
    /* a failure with nothing more to say: its result's message */
    assert_int_equal(fftgen_set_stream(NULL, 0), FFTGEN_INVALID_PLAN);
    assert_string_equal(fftgen_last_error(), fftgen_result_string(FFTGEN_INVALID_PLAN));
    assert_int_equal(fftgen_load_pack("/nonexistent/dir/kernels.fgpack"), FFTGEN_PACK_UNREADABLE);
    expect_detail("/nonexistent/dir/kernels.fgpack: No such file or directory");
    /* another thread's failure is its own */
    pthread_t thread;
    void *other_saw_its_own = NULL;
    assert_int_equal(pthread_create(&thread, NULL, fail_a_plan, NULL), 0);
    assert_int_equal(pthread_join(thread, &other_saw_its_own), 0);
    assert_true(other_saw_its_own != NULL);
    expect_detail("/nonexistent/dir/kernels.fgpack");
    /* a success empties it */
    assert_int_equal(fftgen_destroy(NULL), FFTGEN_SUCCESS);
    assert_string_equal(fftgen_last_error(), "");
}

static void invalid_plans(void **state)
{
    (void)state;
    size_t bytes;
    int x = 0;
    assert_int_equal(fftgen_exec(NULL, &x, &x, FFTGEN_FORWARD), FFTGEN_INVALID_PLAN);
    assert_int_equal(fftgen_get_work_size(NULL, &bytes), FFTGEN_INVALID_PLAN);
    assert_int_equal(fftgen_set_stream(NULL, 0), FFTGEN_INVALID_PLAN);
    assert_int_equal(fftgen_set_work_area(NULL, NULL), FFTGEN_INVALID_PLAN);
    assert_int_equal(fftgen_destroy(NULL), FFTGEN_SUCCESS);
}

static void every_result_has_a_message(void **state)
{
    (void)state;
    const char *fallback = fftgen_result_string((fftgen_result)999);
    assert_string_equal(fallback, "unknown fftgen_result");
    for (int a = FFTGEN_SUCCESS; a <= FFTGEN_WRONG_DEVICE; ++a) {
        const char *message = fftgen_result_string((fftgen_result)a);
        assert_non_null(message);
        assert_true(strlen(message) > 5);
        assert_string_not_equal(message, fallback);
        for (int b = FFTGEN_SUCCESS; b < a; ++b) assert_string_not_equal(message, fftgen_result_string((fftgen_result)b));
    }
    assert_string_equal(fftgen_version(), "0.1.0");
}

static void no_device_is_reported(void **state)
{
    (void)state;
    if (have_gpu) skip();
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_1d(&plan, 1024, FFTGEN_FP32, 8, 0), FFTGEN_NO_DEVICE);
    assert_null(plan);
    expect_detail("cudaGetDeviceCount");
}

struct api_run {
    int rank;
    long long shape[3]; /* rank 1: shape[0] points */
    fftgen_precision precision;
    fftgen_direction direction;
    unsigned flags;
    int in_place;
    int offset; /* points between the allocations' start and the data (bulk copies start 16-byte aligned) */
};

/* Captures one fftgen_exec on `stream` into a graph and launches it: out of place twice, the output
 * poisoned again before the second launch, so that a replay is checked too. The plan has not seen
 * the buffers before, so its first-call checks run inside the capture, as in a program's. */
static int exec_through_graph(fftgen_plan plan, cudaStream_t stream, const void *in, void *out, size_t bytes,
                              fftgen_direction direction)
{
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    int result = -1;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const fftgen_result captured = fftgen_exec(plan, in, out, direction);
    CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    if (captured != FFTGEN_SUCCESS) {
        print_error("fftgen_exec under stream capture: %s: %s\n", fftgen_result_string(captured), fftgen_last_error());
        goto done;
    }
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    const int launches = in == out ? 1 : 2;
    for (int i = 0; i < launches; ++i) {
        if (in != out) CHECK_CUDA(cudaMemsetAsync(out, 0xFF, bytes, stream));
        CHECK_CUDA(cudaGraphLaunch(exec, stream));
    }
    result = 0;
done:
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    return result;
}

/* Plans, copies in, poisons the output, executes on a stream of its own (directly, or through a
 * graph that captured the execution), copies back. */
static int run_plan(const struct api_run *run, int graph, const void *in, void *out, int batch)
{
    long long points = 1;
    for (int d = 0; d < run->rank; ++d) points *= run->shape[d];
    const size_t point = run->precision == FFTGEN_FP16 ? 4 : 8; /* split: 8 */
    const size_t bytes = point * (size_t)points * (size_t)batch, skip = point * (size_t)run->offset;
    void *d_in = NULL, *d_out = NULL, *d_work = NULL;
    cudaStream_t stream = NULL;
    fftgen_plan plan = NULL;
    int result = -1;
    /* contiguous data: the plan functions of each rank (they all end in fftgen_plan_many) */
    const long long *n = run->shape;
    const fftgen_result planned =
        run->rank == 1   ? fftgen_plan_1d(&plan, n[0], run->precision, batch, run->flags)
        : run->rank == 2 ? fftgen_plan_2d(&plan, n[0], n[1], run->precision, batch, run->flags)
                         : fftgen_plan_3d(&plan, n[0], n[1], n[2], run->precision, batch, run->flags);
    if (planned != FFTGEN_SUCCESS) {
        print_error("fftgen_plan_%dd(%lld points): %s\n", run->rank, points, fftgen_result_string(planned));
        return -1;
    }
    size_t work = 1;
    if (fftgen_get_work_size(plan, &work) != FFTGEN_SUCCESS) goto done;
    /* multi-pass plans: the in-place runs use a work area of the caller's, the others the plan's own */
    if (work > 0 && run->in_place) {
        CHECK_CUDA(cudaMalloc(&d_work, work));
        if (fftgen_set_work_area(plan, d_work) != FFTGEN_SUCCESS) goto done;
    }
    CHECK_CUDA(cudaStreamCreate(&stream));
    if (fftgen_set_stream(plan, stream) != FFTGEN_SUCCESS) goto done;
    CHECK_CUDA(cudaMalloc(&d_in, bytes + skip));
    if (run->in_place) {
        d_out = d_in;
    } else {
        CHECK_CUDA(cudaMalloc(&d_out, bytes + skip));
        CHECK_CUDA(cudaMemset(d_out, 0xFF, bytes + skip));
    }
    CHECK_CUDA(cudaMemcpy((char *)d_in + skip, in, bytes, cudaMemcpyHostToDevice));
    if (graph) {
        if (exec_through_graph(plan, stream, (char *)d_in + skip, (char *)d_out + skip, bytes, run->direction) != 0)
            goto done;
    } else if (fftgen_exec(plan, (char *)d_in + skip, (char *)d_out + skip, run->direction) != FFTGEN_SUCCESS) {
        goto done;
    }
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(out, (char *)d_out + skip, bytes, cudaMemcpyDeviceToHost));
    result = 0;
done:
    fftgen_destroy(plan);
    cudaFree(d_work);
    if (stream) cudaStreamDestroy(stream);
    cudaFree(d_in);
    if (d_out != d_in) cudaFree(d_out);
    return result;
}

static int run_api(const void *context, const void *in, void *out, int batch)
{
    return run_plan(context, 0, in, out, batch);
}

static int run_api_in_graph(const void *context, const void *in, void *out, int batch)
{
    return run_plan(context, 1, in, out, batch);
}

static void transforms_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    for (int n = 2; n <= (1 << 27); n *= 2)
        for (int p = 0; p < 2; ++p) {
            const fftgen_precision precision = p ? FFTGEN_FP16 : FFTGEN_FP32;
            const enum kernel_precision kp = p ? KERNEL_FP16 : KERNEL_FP32;
            const double bound = p ? FP16_ERROR_BOUND : FP32_ERROR_BOUND;
            const struct { fftgen_direction direction; unsigned flags; int in_place, batch; } cases[] = {
                {FFTGEN_FORWARD, 0, 0, 1},
                {FFTGEN_INVERSE, FFTGEN_SCALE_INVERSE, 1, 1},
                {FFTGEN_FORWARD, 0, 0, 3},
                {FFTGEN_FORWARD, 0, 1, n < (1 << 22) ? (1 << 22) / n : 2},
                {FFTGEN_INVERSE, 0, 0, 3},
                {FFTGEN_INVERSE, FFTGEN_SCALE_INVERSE, 1, 3},
            };
            /* above 2^22 points, batch 1 in each direction keeps the FFTW reference to seconds */
            const size_t case_count = n > (1 << 22) ? 2 : sizeof cases / sizeof cases[0];
            for (size_t c = 0; c < case_count; ++c) {
                const struct api_run run = {1, {n, 0, 0}, precision, cases[c].direction, cases[c].flags,
                                            cases[c].in_place, 0};
                const double scale = cases[c].flags & FFTGEN_SCALE_INVERSE ? 1.0 / n : 1.0;
                const double error = transform_error(n, kp, cases[c].batch, cases[c].direction, scale, run_api, &run,
                                                     (unsigned long long)n * 31 + c);
                if (error < 0.0 || error >= bound)
                    print_error("n=%d %s case %zu: error %.3e\n", n, p ? "fp16" : "fp32", c, error);
                assert_true(error >= 0.0 && error < bound);
                if (error > worst_error[p]) {
                    worst_error[p] = error;
                    snprintf(worst_case[p], sizeof worst_case[p], "n=%d case %zu", n, c);
                }
            }
        }
    print_message("  worst relative L2 error through the API: fp32 %.3e (%s), fp16 %.3e (%s)\n", worst_error[0],
                  worst_case[0], worst_error[1], worst_case[1]);
}

/* Each shape, both precisions, against FFTW double: forward out of place batch 1; up to 2^22 points
 * also batch 3, and the scaled inverse in place. Prints the worst error under `what`. */
static void check_shapes(const struct fft_shape *shapes, size_t count, const char *what)
{
    double worst[2] = {0.0, 0.0};
    for (size_t s = 0; s < count; ++s)
        for (int p = 0; p < 2; ++p) {
            const struct fft_shape shape = shapes[s];
            const long long points = (long long)shape_points(shape);
            const struct { fftgen_direction direction; unsigned flags; int in_place, batch; } cases[] = {
                {FFTGEN_FORWARD, 0, 0, 1},
                {FFTGEN_INVERSE, FFTGEN_SCALE_INVERSE, 1, 2},
                {FFTGEN_FORWARD, 0, 1, 3},
            };
            const size_t case_count = points > (1 << 22) ? 1 : 3;
            for (size_t c = 0; c < case_count; ++c) {
                const struct api_run run = {shape.rank, {shape.n[0], shape.n[1], shape.n[2]},
                                            p ? FFTGEN_FP16 : FFTGEN_FP32, cases[c].direction, cases[c].flags,
                                            cases[c].in_place, 0};
                const double scale = cases[c].flags & FFTGEN_SCALE_INVERSE ? 1.0 / (double)points : 1.0;
                const double error = shape_transform_error(shape, p ? KERNEL_FP16 : KERNEL_FP32, cases[c].batch,
                                                           cases[c].direction, scale, run_api, &run, 91 * s + c);
                print_message("  %dx%d%s%.0d %s case %zu: relative L2 error %.3e\n", shape.n[0], shape.n[1],
                              shape.rank == 3 ? "x" : "", shape.rank == 3 ? shape.n[2] : 0, p ? "fp16" : "fp32", c,
                              error);
                assert_true(error >= 0.0 && error < (p ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
                if (error > worst[p]) worst[p] = error;
            }
        }
    print_message("  worst relative L2 error of %s: fp32 %.3e, fp16 %.3e\n", what, worst[0], worst[1]);
}

/* 2D and 3D shapes through the API against FFTW double: the squares from 256^2 to 8192^2, 512x256,
 * the cubes from 64^3 to 512^3, a few small or uneven shapes, and rows and columns longer than one
 * kernel. */
static void shapes_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    static const struct fft_shape shapes[] = {
        {2, {8, 16, 0}},     {2, {64, 64, 0}},      {2, {128, 128, 0}},  {2, {256, 256, 0}},   {2, {512, 256, 0}},
        {2, {256, 512, 0}},  {2, {512, 512, 0}},    {2, {1024, 1024, 0}}, {2, {2048, 2048, 0}}, {2, {4096, 4096, 0}},
        {2, {8192, 8192, 0}}, {2, {2, 16384, 0}},   {2, {16384, 4, 0}},  {3, {4, 8, 16}},      {3, {64, 64, 64}},
        {3, {128, 128, 128}}, {3, {256, 256, 256}}, {3, {512, 512, 512}}, {3, {2, 4, 4096}},   {3, {1024, 8, 16}},
        {2, {4, 65536, 0}},   {3, {2, 4, 131072}},  {2, {2, 2097152, 0}},  /* rows through the work area */
        {2, {32768, 16, 0}}, /* columns through the work area */
        {3, {8192, 4, 4}}, /* columns on thread-block clusters on sm_90 (so are 16384x4, 8192^2, fp16 4096^2) */
    };
    check_shapes(shapes, sizeof shapes / sizeof shapes[0], "the 2D and 3D shapes");
}

/* Small slices run several a block, each on threads of its own (planner.c's group_small_slices): 2D
 * shapes and the slices of 3D ones, batches that fill no block, one, and many with a partial last one,
 * both ways, in place and out. The 3D shapes are whole transforms in one block (plan_fused_volume);
 * 2x4x4 and the next four have a dimension 0 shorter than the slices' points a thread, so each thread
 * transforms several of its columns in turn (depth_rounds); the last five have slices of fewer rows
 * than their rows' points a thread, whose columns a thread takes several of in turn (column_rounds);
 * the last five have slices of 4 or 8 points, one volume a transform where dimension 0 is short
 * (plan_fused_volume: slice j at padded(j * points)), and 64x2x2 two passes in fp16; the last six have
 * rows shorter than their columns' points a thread, which a thread takes several of in turn (row_rounds). */
static void small_slices_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    static const struct fft_shape shapes[] = {
        {2, {2, 2, 0}},  {2, {4, 4, 0}},  {2, {8, 8, 0}},     {2, {16, 16, 0}},   {2, {32, 32, 0}},
        {2, {8, 64, 0}}, {3, {2, 4, 4}},  {3, {4, 4, 4}},     {3, {8, 8, 8}},     {3, {16, 16, 16}},
        {3, {32, 32, 32}}, {3, {2, 16, 16}}, {3, {4, 32, 32}}, {3, {2, 64, 64}}, {3, {8, 16, 128}},
        {2, {2, 64, 0}}, {2, {4, 64, 0}}, {2, {2, 2048, 0}}, {2, {4, 4096, 0}}, {3, {8, 2, 512}},
        {3, {2, 2, 2}},  {3, {16, 2, 2}}, {3, {8, 2, 4}},  {3, {2, 4, 2}},  {3, {64, 2, 2}},
        {2, {64, 2, 0}}, {2, {64, 4, 0}}, {2, {512, 8, 0}}, {2, {2048, 2, 0}}, {2, {8192, 2, 0}}, {3, {2, 2048, 2}},
    };
    const struct { fftgen_direction direction; unsigned flags; int in_place, batch; } cases[] = {
        {FFTGEN_FORWARD, 0, 0, 3}, {FFTGEN_INVERSE, FFTGEN_SCALE_INVERSE, 1, 64}, {FFTGEN_FORWARD, 0, 1, 1001},
    };
    double worst[2] = {0.0, 0.0};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int p = 0; p < 2; ++p)
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
                const struct fft_shape shape = shapes[s];
                const double points = (double)shape_points(shape);
                const struct api_run run = {shape.rank, {shape.n[0], shape.n[1], shape.n[2]},
                                            p ? FFTGEN_FP16 : FFTGEN_FP32, cases[c].direction, cases[c].flags,
                                            cases[c].in_place, 0};
                const double error =
                    shape_transform_error(shape, p ? KERNEL_FP16 : KERNEL_FP32, cases[c].batch, cases[c].direction,
                                          cases[c].flags ? 1.0 / points : 1.0, run_api, &run, 313 * s + c);
                print_message("  %dx%d%s%.0d %s batch %d: relative L2 error %.3e\n", shape.n[0], shape.n[1],
                              shape.rank == 3 ? "x" : "", shape.rank == 3 ? shape.n[2] : 0, p ? "fp16" : "fp32",
                              cases[c].batch, error);
                assert_true(error >= 0.0 && error < (p ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
                if (error > worst[p]) worst[p] = error;
            }
    print_message("  worst relative L2 error of the small slices: fp32 %.3e, fp16 %.3e\n", worst[0], worst[1]);
}

/* The plan libfftgen makes for one dense transform of `shape`; the caller destroys it. */
static fftgen_plan dense_plan(struct fft_shape shape, int fp16)
{
    const long long n[3] = {shape.n[0], shape.n[1], shape.n[2]};
    const long long points = (long long)shape_points(shape);
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_many(&plan, shape.rank, n, NULL, 1, points, NULL, 1, points,
                                      fp16 ? FFTGEN_FP16 : FFTGEN_FP32, 1, 0),
                     FFTGEN_SUCCESS);
    assert_non_null(fftgen_plan_layout(plan));
    return plan;
}

/* 2D shapes with the columns first (FFTGEN_ORDER=columns-first, as a wisdom entry's order=columns-first):
 * the columns into the work area as blocks, then the rows from them. Squares and uneven shapes whose
 * tiles differ between the passes. */
static void columns_first_matches_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    static const struct fft_shape shapes[] = {
        {2, {64, 512, 0}},   {2, {16, 4096, 0}},   {2, {256, 256, 0}},  {2, {512, 256, 0}},
        {2, {1024, 1024, 0}}, {2, {2048, 2048, 0}}, {2, {4096, 4096, 0}}, {2, {8192, 8192, 0}},
    };
    /* the order takes effect: 1024x1024 then needs a work area, which it does not with the rows first */
    const long long square[2] = {1024, 1024};
    size_t work[2] = {1, 1};
    for (int order = 0; order < 2; ++order) {
        fftgen_plan plan = NULL;
        assert_int_equal(setenv("FFTGEN_ORDER", order ? "columns-first" : "rows-first", 1), 0);
        assert_int_equal(fftgen_plan_many(&plan, 2, square, NULL, 1, 0, NULL, 1, 0, FFTGEN_FP16, 1, 0),
                         FFTGEN_SUCCESS);
        assert_int_equal(fftgen_get_work_size(plan, &work[order]), FFTGEN_SUCCESS);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    }
    assert_int_equal(work[0], 0);
    assert_int_equal(work[1], 1024 * 1024 * 4);
    /* and where the shipped choice names passes of the rows-first order (fp16 2048x2048's L2 fetch in
     * pass 2, the columns there), the planner's own plan in the order asked */
    const struct fft_shape named = {2, {2048, 2048, 0}};
    fftgen_plan plan = dense_plan(named, 1);
    assert_true(fftgen_plan_layout(plan)->columns_first);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    check_shapes(shapes, sizeof shapes / sizeof shapes[0], "the 2D shapes with the columns first");
    assert_int_equal(unsetenv("FFTGEN_ORDER"), 0);
}

/* The current device's compute capability major (8 for sm_80). */
static int device_major(void)
{
    int device = 0, major = 0;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
    return major;
}

/* FFTGEN_TENSOR_CORES through the API: fp16 sizes from 16 to 16384 (one kernel) and 2^16, 2^20 and
 * 2^24 (tiled passes) against FFTW double, both directions, the scaled inverse in place; a 2D and a
 * 3D shape; fewer than 16 points has no pass for them. */
static void tensor_cores_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const int major = device_major();
    fftgen_plan plan = NULL;
    if (major < 8) {
        assert_int_equal(fftgen_plan_1d(&plan, 256, FFTGEN_FP16, 1, FFTGEN_TENSOR_CORES), FFTGEN_UNSUPPORTED_DEVICE);
        return;
    }
    double worst = 0.0;
    for (int n = 16; n <= (1 << 24); n *= n < 16384 ? 2 : 16) {
        if (n == 32768) n = 1 << 16;
        const struct { fftgen_direction direction; unsigned flags; int in_place, batch; } cases[] = {
            {FFTGEN_FORWARD, FFTGEN_TENSOR_CORES, 0, 3},
            {FFTGEN_INVERSE, FFTGEN_TENSOR_CORES | FFTGEN_SCALE_INVERSE, 1, n < (1 << 20) ? (1 << 20) / n : 1},
        };
        for (size_t c = 0; c < 2; ++c) {
            const struct api_run run = {1, {n, 0, 0}, FFTGEN_FP16, cases[c].direction, cases[c].flags,
                                        cases[c].in_place, 0};
            const double scale = cases[c].flags & FFTGEN_SCALE_INVERSE ? 1.0 / n : 1.0;
            const double error = transform_error(n, KERNEL_FP16, cases[c].batch, cases[c].direction, scale, run_api,
                                                 &run, (unsigned long long)n * 17 + c);
            print_message("  n=%-6d fp16 tensor cores case %zu: relative L2 error %.3e\n", n, c, error);
            assert_true(error >= 0.0 && error < FP16_ERROR_BOUND);
            if (error > worst) worst = error;
        }
    }
    const struct fft_shape shapes[] = {{2, {512, 256, 0}}, {3, {64, 64, 64}}};
    for (size_t s = 0; s < 2; ++s) {
        const struct api_run run = {shapes[s].rank, {shapes[s].n[0], shapes[s].n[1], shapes[s].n[2]}, FFTGEN_FP16,
                                    FFTGEN_FORWARD, FFTGEN_TENSOR_CORES, 0, 0};
        const double error = shape_transform_error(shapes[s], KERNEL_FP16, 2, FFTGEN_FORWARD, 1.0, run_api, &run, 71 + s);
        print_message("  %s fp16 tensor cores: relative L2 error %.3e\n", s ? "64x64x64" : "512x256", error);
        assert_true(error >= 0.0 && error < FP16_ERROR_BOUND);
        if (error > worst) worst = error;
    }
    print_message("  worst relative L2 error on tensor cores: %.3e\n", worst);
    assert_int_equal(fftgen_plan_1d(&plan, 8, FFTGEN_FP16, 1, FFTGEN_TENSOR_CORES), FFTGEN_NOT_SUPPORTED_YET);
    assert_null(plan);
}

/* A device section of wisdom in a temporary file; returns its path (static). */
static const char *write_wisdom(const char *entries)
{
    static char path[] = "/tmp/fftgen-test-wisdom-XXXXXX";
    strcpy(path, "/tmp/fftgen-test-wisdom-XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    int device = 0, arch = 0;
    size_t memory = 0;
    assert_int_equal(fftgen_current_device(&device, &arch, &memory), FFTGEN_SUCCESS);
    fftgen_device_key key;
    assert_int_equal(fftgen_device_key_of(device, arch, &key), FFTGEN_SUCCESS);
    char text[2048];
    const int length = snprintf(text, sizeof text, "fftgen-wisdom 1\ndevice \"%s\" sm_%d driver %s fftgen %s\n%s",
                                key.device, key.arch, key.driver, key.version, entries);
    assert_true(length > 0 && (size_t)length < sizeof text);
    assert_int_equal(write(fd, text, (size_t)length), length);
    assert_int_equal(close(fd), 0);
    return path;
}

/* Loads wisdom `entries` for this device (write_wisdom) into libfftgen, and removes the file. */
static void load_wisdom_entries(const char *entries)
{
    const char *path = write_wisdom(entries);
    assert_int_equal(fftgen_load_wisdom(path), FFTGEN_SUCCESS);
    unlink(path);
}

/* Wisdom steers plans (issue 5): a loaded choice puts the named passes on tensor cores and narrows
 * the tiles, the results still match FFTW; FFTGEN_PLANNER_DEFAULTS ignores it; a damaged file is
 * refused whole. */
static void wisdom_steers_plans(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    if (device_major() < 8) skip();
    const char *damaged = write_wisdom("fp16 65536 tensor-cores=9 max-tile=4\n");
    assert_int_equal(fftgen_load_wisdom(damaged), FFTGEN_WISDOM_CORRUPT);
    expect_detail(": line 3: bad value '9' for tensor-cores");
    unlink(damaged);
    assert_int_equal(fftgen_load_wisdom("/nonexistent/wisdom.txt"), FFTGEN_WISDOM_UNREADABLE);
    expect_detail("/nonexistent/wisdom.txt");
    load_wisdom_entries("fp16 65536 tensor-cores=2 max-tile=4 ms=1 default-ms=1\n");
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_1d(&plan, 65536, FFTGEN_FP16, 4, 0), FFTGEN_SUCCESS);
    const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
    assert_non_null(passes);
    assert_int_equal(passes->pass_count, 2);
    assert_false(passes->pass[0].tensor_cores);
    assert_true(passes->pass[1].tensor_cores);
    assert_true(passes->pass[0].ffts_per_block <= 4 && passes->pass[1].ffts_per_block <= 4);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_plan_1d(&plan, 65536, FFTGEN_FP16, 4, FFTGEN_PLANNER_DEFAULTS), FFTGEN_SUCCESS);
    passes = fftgen_plan_layout(plan);
    assert_false(passes->pass[0].tensor_cores || passes->pass[1].tensor_cores);
    assert_true(passes->pass[0].ffts_per_block > 4);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    const struct api_run run = {1, {65536, 0, 0}, FFTGEN_FP16, FFTGEN_FORWARD, 0, 0, 0};
    const double error = transform_error(65536, KERNEL_FP16, 16, FFTGEN_FORWARD, 1.0, run_api, &run, 5);
    print_message("  65536 fp16 with the wisdom's choice (tensor cores in pass 2, tiles of 4): %.3e\n", error);
    assert_true(error >= 0.0 && error < FP16_ERROR_BOUND);
}

/* Fused slices through wisdom lines: slices a block in turn (prefetch), each block's threads copying
 * the next slice ahead, and 32 points a thread (radix=32: 128x128, whose rows' last stage then runs the
 * columns' first, merged_stage); 8x64x64's 64x64 slices merge those stages at 16 points a thread; 64x64
 * at 4 points a thread and 32x32 at 8 (radix=4, radix=8) merge none; fp16 slices that compute their
 * stage twiddles (computed-twiddles=1) at 32 and 16 points a thread. */
static void slices_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    if (device_major() < 9) skip(); /* the shipped table's sm_90 choices and the prefetches */
    load_wisdom_entries("fp16 256x64 tensor-cores=none max-tile=0 prefetch=4 ms=1 default-ms=1\n"
                        "fp16 64x16x128 tensor-cores=none max-tile=0 prefetch=2 ms=1 default-ms=1\n"
                        "fp16 128x128 tensor-cores=none max-tile=0 radix=32 prefetch=8 ms=1 default-ms=1\n"
                        "fp32 128x128 tensor-cores=none max-tile=0 radix=32 ms=1 default-ms=1\n"
                        "fp16 8x64x64 tensor-cores=none max-tile=0 ms=1 default-ms=1\n"
                        "fp16 64x64 tensor-cores=none max-tile=0 radix=4 ms=1 default-ms=1\n"
                        "fp32 32x32 tensor-cores=none max-tile=0 radix=8 ms=1 default-ms=1\n"
                        "fp16 4x128x128 tensor-cores=none max-tile=0 radix=32 prefetch=2"
                        " computed-twiddles=1 ms=1 default-ms=1\n"
                        "fp16 2x64x64 tensor-cores=none max-tile=0 computed-twiddles=1 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch, prefetch, radix, merged, computed;
    } cases[] = {{{2, {256, 64, 0}}, 1, 301, 4, 16, 0, 0}, {{3, {64, 16, 128}}, 1, 5, 2, 16, 0, 0},
                 {{2, {128, 128, 0}}, 1, 37, 8, 32, 1, 0}, {{2, {128, 128, 0}}, 0, 19, 0, 32, 1, 0},
                 {{3, {8, 64, 64}}, 1, 3, 0, 16, 1, 0},    {{2, {64, 64, 0}}, 1, 23, 0, 4, 0, 0},
                 {{2, {32, 32, 0}}, 0, 41, 0, 8, 0, 0},    {{3, {4, 128, 128}}, 1, 9, 2, 32, 1, 1},
                 {{3, {2, 64, 64}}, 1, 27, 0, 16, 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        const long long n[3] = {shape.n[0], shape.n[1], shape.n[2]};
        const long long points = (long long)shape_points(shape);
        const fftgen_precision precision = cases[c].fp16 ? FFTGEN_FP16 : FFTGEN_FP32;
        fftgen_plan plan = NULL;
        assert_int_equal(fftgen_plan_many(&plan, shape.rank, n, NULL, 1, points, NULL, 1, points, precision, 1, 0),
                         FFTGEN_SUCCESS);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_non_null(passes);
        assert_int_equal(passes->pass[0].prefetch > 1 ? passes->pass[0].prefetch : 0, cases[c].prefetch);
        assert_int_equal(passes->pass[0].radix_max, cases[c].radix);
        assert_int_equal(passes->pass[0].merged_stage, cases[c].merged);
        assert_int_equal(passes->pass[0].computed_twiddles, cases[c].computed);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        /* both directions, out of place and in place, then from data one point past a 16-byte boundary
         * (each row's copies start below it), and forward from three points past one */
        for (int i = 0; i < 7; ++i) {
            const fftgen_direction direction = i & 1 ? FFTGEN_INVERSE : FFTGEN_FORWARD;
            const int in_place = i == 2 || i == 3 || i == 5, offset = i == 6 ? 3 : i >= 4;
            const struct api_run run = {shape.rank, {shape.n[0], shape.n[1], shape.n[2]}, precision, direction, 0,
                                        in_place, offset};
            const double error = shape_transform_error(shape, cases[c].fp16 ? KERNEL_FP16 : KERNEL_FP32,
                                                       cases[c].batch, direction, 1.0, run_api, &run, 90 + 6 * c + i);
            print_message("  %dx%d%s%.0d %s radix %d%s, prefetch %d, batch %d, %s%s%s: %.3e\n", shape.n[0],
                          shape.n[1], shape.rank == 3 ? "x" : "", shape.rank == 3 ? shape.n[2] : 0,
                          cases[c].fp16 ? "fp16" : "fp32", cases[c].radix,
                          cases[c].computed ? " (computed twiddles)" : "", cases[c].prefetch, cases[c].batch,
                          i & 1 ? "inverse" : "forward",
                          in_place ? ", in place" : "",
                          offset == 3 ? ", 3 points off 16 bytes" : offset ? ", 1 point off 16 bytes" : "", error);
            assert_true(error >= 0.0 && error < (cases[c].fp16 ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
        }
    }
}

/* `batch` transforms of `shape` against FFTW double, both directions, out of place and in place, and
 * with `off_by_a_point` also forward out of place and inverse in place from data one point past an
 * allocation's start; `what` names the case in the log. */
static void check_both_ways(struct fft_shape shape, int fp16, int batch, unsigned seed, const char *what,
                            int off_by_a_point)
{
    for (int i = 0; i < (off_by_a_point ? 6 : 4); ++i) {
        const fftgen_direction direction = i & 1 ? FFTGEN_INVERSE : FFTGEN_FORWARD;
        const int in_place = i == 2 || i == 3 || i == 5, offset = i >= 4;
        const struct api_run run = {shape.rank, {shape.n[0], shape.n[1], shape.n[2]}, fp16 ? FFTGEN_FP16 : FFTGEN_FP32,
                                    direction, 0, in_place, offset};
        const double error = shape_transform_error(shape, fp16 ? KERNEL_FP16 : KERNEL_FP32, batch, direction, 1.0,
                                                   run_api, &run, seed + (unsigned)i);
        char dims[48];
        fftgen_shape_text(shape.rank, (const long long[]){shape.n[0], shape.n[1], shape.n[2]}, dims, sizeof dims);
        print_message("  %s %s %s, batch %d, %s%s%s: %.3e\n", dims, fp16 ? "fp16" : "fp32", what, batch,
                      i & 1 ? "inverse" : "forward", in_place ? ", in place" : "", offset ? ", 1 point off" : "",
                      error);
        assert_true(error >= 0.0 && error < (fp16 ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
    }
}

/* The four aligned cases of check_both_ways. */
static void check_both_ways_in_and_out_of_place(struct fft_shape shape, int fp16, int batch, unsigned seed,
                                                const char *what)
{
    check_both_ways(shape, fp16, batch, seed, what, 0);
}

/* Columns split in two four-step passes through wisdom lines (split-columns=1): the 4096-point
 * columns as 64 x 64 with tiles of 64 and twiddle powers (the H200's shipped line), 1024-point fp32
 * columns as 32 x 32, and a 3D shape's first dimension (16 = 4 x 4) after its fused slices; both
 * directions, out of place and in place, against FFTW double. */
static void columns_split_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp16 4096x4096 tensor-cores=none max-tile=0,64,0 split-columns=1"
                        " twiddle-powers=3 ms=1 default-ms=1\n"
                        "fp32 1024x1024 tensor-cores=none max-tile=0 split-columns=1 ms=1 default-ms=1\n"
                        "fp16 16x64x64 tensor-cores=none max-tile=0 split-columns=1 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch, passes, first; /* the plan's passes, the first split pass's points */
    } cases[] = {{{2, {4096, 4096, 0}}, 1, 1, 3, 64}, {{2, {1024, 1024, 0}}, 0, 2, 3, 32},
                 {{3, {16, 64, 64}}, 1, 5, 3, 4}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_true(passes->split_columns);
        assert_int_equal(passes->pass_count, cases[c].passes);
        assert_int_equal(passes->pass[1].n, cases[c].first);
        assert_true(passes->pass[1].twiddle_by_group);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways_in_and_out_of_place(cases[c].shape, cases[c].fp16, cases[c].batch, 150 + 4 * (unsigned)c,
                                            "columns split");
    }
}

/* A 2D shape's rows at the radix of a wisdom line (no slice fits a block: the rows' one kernel takes
 * it), with their twiddles computed, as the H200's line for fp16 8192x8192 asks; against FFTW double. */
static void rows_radix_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp16 8x8192 tensor-cores=none max-tile=0 radix=32 computed-twiddles=1"
                        " ms=1 default-ms=1\n"
                        "fp32 4x4x8192 tensor-cores=none max-tile=0 radix=32 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch;
    } cases[] = {{{2, {8, 8192, 0}}, 1, 3}, {{3, {4, 4, 8192}}, 0, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->rows_radix, 32);
        assert_int_equal(passes->pass[0].radix_max, 32);
        assert_int_equal(passes->pass[0].computed_twiddles, cases[c].fp16);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways_in_and_out_of_place(cases[c].shape, cases[c].fp16, cases[c].batch, 170 + 4 * (unsigned)c,
                                            "rows at radix 32");
    }
}

/* A 1D size of two passes whose pass 2 runs its tiles in turn, each block's threads copying the next
 * tile's runs ahead (prefetch=: fp16 rows in runs of 4 points after pass 1's tiles of 4 columns, or of
 * 8 after tiles of 8): 2^17 with two tiles a block in batches of 3, 2^22 with 64 (256 tiles on every
 * SM's block, some with a turn fewer), 2^21 in runs of 8 with 4; both directions, out of place and in
 * place, against FFTW double. */
static void tiles_prefetch_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    if (device_major() < 8) skip(); /* cp.async */
    load_wisdom_entries("fp16 131072 tensor-cores=none max-tile=4,0 prefetch=2 ms=1 default-ms=1\n"
                        "fp16 4194304 tensor-cores=none max-tile=4,0 prefetch=64 ms=1 default-ms=1\n"
                        "fp16 2097152 tensor-cores=none max-tile=8,0 prefetch=4 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int batch, prefetch;
    } cases[] = {{{1, {131072, 0, 0}}, 3, 2}, {{1, {4194304, 0, 0}}, 1, 64}, {{1, {2097152, 0, 0}}, 3, 4}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, 1);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, 2);
        assert_int_equal(passes->pass[0].prefetch, 0);
        assert_int_equal(passes->pass[1].prefetch, cases[c].prefetch);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways_in_and_out_of_place(cases[c].shape, 1, cases[c].batch, 190 + 4 * (unsigned)c,
                                            "tiles prefetched");
    }
}

/* Column pairs (column-pairs=P in wisdom: fp16 columns loaded a lane pair at a time, 8 bytes a row)
 * where the tile is whole and the buffer 8-byte aligned, point by point otherwise: 512x512, whose
 * column pass reads the data in place, and 2^24 in the H100's tiles, whose pass 1 reads the input in
 * tiles of 32; both directions, out of place and in place, then from data one point (4 bytes) off
 * 8 bytes, against FFTW double. */
static void column_pairs_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp16 512x512 tensor-cores=none max-tile=0 column-pairs=2 ms=1 default-ms=1\n"
                        "fp16 16777216 tensor-cores=none max-tile=32,32,8 column-pairs=1,2 ms=1"
                        " default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int batch, pass; /* pass: the index of a pass that pairs its column loads */
    } cases[] = {{{2, {512, 512, 0}}, 3, 1}, {{1, {16777216, 0, 0}}, 1, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        fftgen_plan plan = dense_plan(shape, 1);
        const fftgen_kernel_plan *pass = &fftgen_plan_layout(plan)->pass[cases[c].pass];
        assert_true(pass->column_pairs);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(shape, 1, cases[c].batch, 250 + 6 * (unsigned)c, "column pairs", 1);
    }
}

/* fp32 rows in runs loaded straight into registers (row-registers=P in wisdom): pass 2 of 2^22 (2048-point
 * rows of three stages in tiles of 4, read from pass 1's blocks) and the rows of 64x4096 after its columns
 * (order=columns-first, through the work area); both directions, out of place and in place, then from data
 * one point off, against FFTW double. */
static void row_registers_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp32 4194304 tensor-cores=none max-tile=0 row-registers=2 ms=1 default-ms=1\n"
                        "fp32 64x4096 tensor-cores=none max-tile=0,4 order=columns-first row-registers=2"
                        " ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int batch;
    } cases[] = {{{1, {4194304, 0, 0}}, 1}, {{2, {64, 4096, 0}}, 3}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        fftgen_plan plan = dense_plan(shape, 0);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, 2);
        assert_false(passes->pass[0].row_registers);
        assert_true(passes->pass[1].row_registers);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(shape, 0, cases[c].batch, 260 + 6 * (unsigned)c, "row registers", 1);
    }
}

/* Column loads that ask L2 for the 256 bytes around each point (l2-fetch-256=P in wisdom, PTX's
 * .L2::256B), a hint that changes no value: fp32 2^21's pass 1 (columns of the input) and fp16
 * 512x512's columns (in place on the output); both directions, out of place and in place, then from data
 * one point off, against FFTW double. */
static void l2_fetch_256_matches_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp32 2097152 tensor-cores=none max-tile=0 l2-fetch-256=1 ms=1 default-ms=1\n"
                        "fp16 512x512 tensor-cores=none max-tile=0 l2-fetch-256=2 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch, pass; /* pass: the index of the pass whose column loads ask */
    } cases[] = {{{1, {2097152, 0, 0}}, 0, 2, 0}, {{2, {512, 512, 0}}, 1, 3, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        fftgen_plan plan = dense_plan(shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        for (int i = 0; i < passes->pass_count; ++i)
            assert_int_equal(passes->pass[i].l2_fetch_256, i == cases[c].pass);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(shape, cases[c].fp16, cases[c].batch, 270 + 6 * (unsigned)c, "L2 fetch of 256 bytes", 1);
    }
}

/* Column tiles through the TMA (tma-columns=P in wisdom, sm_90): pass 1 of fp16 2^17 (tiles of 16, partly
 * empty turns in a batch of 3) and of fp32 2^17 in tiles of 4, the first column pass of fp16 65536x4, and
 * both column passes of fp32 4096x64 with its columns split (the second reads the first's blocks: a map
 * with the rows before the groups); and rows in runs from pass 1's tiles (fftgen_tma_runs, a swizzled
 * box a tile): both passes of the H200's fp16 2^18, 2^19 and 2^20 (their rows in tiles of 16, 2^20's in
 * blocks of 512 threads, one an SM), pass 2 of fp32 2^18 (radix 16, 64 KB tiles), of
 * fp16 2^16 (rows read with the lanes along their runs without it) and of fp32 512x512 with the columns
 * first, in a batch of 64 so that each block takes several tiles in turn (its rows store from shared
 * memory, which the next tile must wait for: fftgen-bench read 2.9e-3 before that barrier), and pass 2 of
 * fp16 2^21 and fp32 2^19 in tiles of 4 (2048-point rows of 512 runs: two boxes of 256 a tile), and fp32
 * tiles of 16384 points, whose staging buffer lies inside their exchanges: pass 2 of 2^16 as 16 x 4096
 * (4096-point rows in runs of 8) and the 4096-point columns of 4096x32 in tiles of 4, both in batches of 67
 * so that each block takes several tiles in turn; both directions, out of place and in place, then from
 * data one point off 16 bytes (the threads copy the column tiles there), against FFTW double. */
static void tma_columns_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    if (device_major() < 9) skip(); /* the tensor memory accelerator */
    load_wisdom_entries("fp16 131072 tensor-cores=none max-tile=0 tma-columns=1 ms=1 default-ms=1\n"
                        "fp32 131072 tensor-cores=none max-tile=4 tma-columns=1 ms=1 default-ms=1\n"
                        "fp16 65536x4 tensor-cores=none max-tile=0 tma-columns=2 ms=1 default-ms=1\n"
                        "fp32 4096x64 tensor-cores=none max-tile=0 split-columns=1 tma-columns=2,3 ms=1"
                        " default-ms=1\n"
                        "fp16 262144 tensor-cores=none max-tile=16 four-step=512 twiddle-powers=1,2"
                        " radix32-passes=1,2 computed-twiddles=1,2 tma-columns=1,2 ms=1 default-ms=1\n"
                        "fp16 524288 tensor-cores=none max-tile=8,16 four-step=1024 twiddle-powers=1,2"
                        " radix32-passes=1,2 computed-twiddles=1,2 tma-columns=1,2 ms=1 default-ms=1\n"
                        "fp16 1048576 tensor-cores=none max-tile=8,16 twiddle-powers=1,2"
                        " radix32-passes=1,2 computed-twiddles=1,2 tma-columns=1,2 ms=1 default-ms=1\n"
                        "fp32 262144 tensor-cores=none max-tile=0 tma-columns=2 ms=1 default-ms=1\n"
                        "fp16 65536 tensor-cores=none max-tile=0 tma-columns=2 ms=1 default-ms=1\n"
                        "fp32 512x512 tensor-cores=none max-tile=0,8 order=columns-first tma-columns=2 ms=1"
                        " default-ms=1\n"
                        "fp16 2097152 tensor-cores=none max-tile=4,0 four-step=1024 tma-columns=2 ms=1"
                        " default-ms=1\n"
                        "fp32 524288 tensor-cores=none max-tile=4,0 four-step=256 tma-columns=2 ms=1"
                        " default-ms=1\n"
                        "fp32 65536 tensor-cores=none max-tile=8,4 four-step=16 tma-columns=2 ms=1"
                        " default-ms=1\n"
                        "fp32 4096x32 tensor-cores=none max-tile=0,4 tma-columns=2 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch, passes; /* passes: a mask of the passes that take the TMA */
        int inside; /* a mask of those whose staging buffer lies inside their exchanges */
    } cases[] = {{{1, {131072, 0, 0}}, 1, 3, 1, 0},
                 {{1, {131072, 0, 0}}, 0, 2, 1, 0},
                 {{2, {65536, 4, 0}}, 1, 3, 2, 0},
                 {{2, {4096, 64, 0}}, 0, 3, 6, 0},
                 {{1, {262144, 0, 0}}, 1, 3, 3, 0},
                 {{1, {262144, 0, 0}}, 0, 2, 2, 0},
                 {{1, {65536, 0, 0}}, 1, 3, 2, 0},
                 {{2, {512, 512, 0}}, 0, 64, 2, 0},
                 {{1, {524288, 0, 0}}, 1, 3, 3, 0},
                 {{1, {1048576, 0, 0}}, 1, 3, 3, 0},
                 {{1, {2097152, 0, 0}}, 1, 3, 2, 0},
                 {{1, {524288, 0, 0}}, 0, 3, 2, 0},
                 {{1, {65536, 0, 0}}, 0, 67, 2, 2},
                 {{2, {4096, 32, 0}}, 0, 67, 2, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        fftgen_plan plan = dense_plan(shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        for (int i = 0; i < passes->pass_count; ++i) {
            assert_int_equal(passes->pass[i].tma_columns, cases[c].passes >> i & 1);
            assert_int_equal(passes->pass[i].tma_in_exchanges, cases[c].inside >> i & 1);
        }
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(shape, cases[c].fp16, cases[c].batch, 300 + 6 * (unsigned)c, "TMA columns", 1);
    }
}

/* Two tiles a block, stored together (tile-pairs=P in wisdom): the rows of fp16 2^16 as 256 x 256 in tiles
 * of 4 (written transposed in rows of 8, 16-byte pieces) and of fp32 in tiles of 2, the 1024-point columns
 * of fp16 1024x64, and the rows of fp16 2^20 as 1024 x 1024 in tiles of 4 with computed twiddles; both
 * directions, out of place and in place, then one point off 16 bytes (where the block stores point by
 * point), against FFTW double. */
static void tile_pairs_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp16 65536 tensor-cores=none max-tile=4 four-step=256 tile-pairs=2 ms=1 default-ms=1\n"
                        "fp32 65536 tensor-cores=none max-tile=2 four-step=256 tile-pairs=2 ms=1 default-ms=1\n"
                        "fp16 1024x64 tensor-cores=none max-tile=0 tile-pairs=2 ms=1 default-ms=1\n"
                        "fp16 1048576 tensor-cores=none max-tile=4 four-step=1024 computed-twiddles=1,2"
                        " tile-pairs=2 ms=1 default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int fp16, batch;
    } cases[] = {{{1, {65536, 0, 0}}, 1, 3},
                 {{1, {65536, 0, 0}}, 0, 2},
                 {{2, {1024, 64, 0}}, 1, 3},
                 {{1, {1048576, 0, 0}}, 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, 2);
        assert_false(passes->pass[0].tile_pairs);
        assert_true(passes->pass[1].tile_pairs);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(cases[c].shape, cases[c].fp16, cases[c].batch, 340 + 6 * (unsigned)c, "tile pairs", 1);
    }
}

/* Splits other than the planner's through wisdom lines (four-step=N1): fp16 2^19 as 1024 x 512, its
 * longer columns in tiles of 8 through the TMA (also one point off 16 bytes, where the block's threads
 * copy the tiles), and fp32 2^15 as 64 x 512 off clusters; both directions, out of place and in place,
 * against FFTW double. */
static void four_step_splits_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const int tma = device_major() >= 9;
    char lines[256];
    snprintf(lines, sizeof lines,
             "fp16 524288 tensor-cores=none max-tile=8,0 four-step=1024%s ms=1 default-ms=1\n"
             "fp32 32768 tensor-cores=none max-tile=0 four-step=64 ms=1 default-ms=1\n",
             tma ? " tma-columns=1" : "");
    load_wisdom_entries(lines);
    const struct {
        struct fft_shape shape;
        int fp16, batch, columns;
    } cases[] = {{{1, {524288, 0, 0}}, 1, 2, 1024}, {{1, {32768, 0, 0}}, 0, 3, 64}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, 2);
        assert_int_equal(passes->pass[0].n, cases[c].columns);
        assert_int_equal(passes->pass[0].tma_columns, tma && cases[c].fp16);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(cases[c].shape, cases[c].fp16, cases[c].batch, 320 + 6 * (unsigned)c, "four-step split", 1);
    }
}

/* Dense 2D shapes with dimension 0 split four-step through wisdom lines (four-step=N1 on a 2D shape): pass 1
 * the N1-point columns into the work area, pass 2 slices of the rest of the rows with their outputs
 * interleaved. fp16 4096x4096 as the H200's line (1024-point columns in tiles of 16 through the TMA, 4x4096
 * slices at radix 32, 64 a block in turn), fp32 4096x4096 as the H200's line (2048-point columns in tiles of 8
 * through the TMA, staged inside the exchanges, then 2x4096 slices), small slices several a block (fp16 64x64
 * as 4 x 16x64), and fp32 slices of 64 rows; both directions, in and out of place, and one point off 16
 * bytes, against FFTW double. The 4x4096 and 2x4096 slices run their whole columns in their rows' last
 * stage (two and four butterflies of each row a thread) and store from there. */
static void four_step_splits_of_2d_shapes(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const int tma = device_major() >= 9;
    char lines[512];
    snprintf(lines, sizeof lines,
             "fp16 4096x4096 tensor-cores=none max-tile=16,0 four-step=1024 radix=32 prefetch=64 twiddle-powers=1"
             " radix32-passes=1 computed-twiddles=2%s ms=1 default-ms=1\n"
             "fp32 4096x4096 tensor-cores=none max-tile=16 four-step=2048 radix=32 l2-prefetch=2048"
             " l2-prefetch-passes=1,2%s ms=1 default-ms=1\n"
             "fp16 64x64 tensor-cores=none max-tile=0 four-step=4 ms=1 default-ms=1\n"
             "fp32 1024x256 tensor-cores=none max-tile=0 four-step=16 ms=1 default-ms=1\n",
             tma ? " tma-columns=1" : "", tma ? " tma-columns=1" : "");
    load_wisdom_entries(lines);
    const struct {
        struct fft_shape shape;
        int fp16, batch, columns;
    } cases[] = {{{2, {4096, 4096, 0}}, 1, 1, 1024}, {{2, {4096, 4096, 0}}, 0, 1, 2048},
                 {{2, {64, 64, 0}}, 1, 67, 4}, {{2, {1024, 256, 0}}, 0, 3, 16}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, cases[c].fp16);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, 2);
        assert_int_equal(passes->four_step_columns, cases[c].columns);
        assert_int_equal(passes->pass[0].n, cases[c].columns);
        assert_true(passes->pass[0].twiddle_by_group);
        assert_int_equal(passes->pass[1].slice_rows, cases[c].shape.n[0] / cases[c].columns);
        assert_int_equal(passes->pass[1].interleaved_slices, cases[c].columns);
        assert_int_equal(fftgen_merges_whole_columns(&passes->pass[1]), c < 2);
        assert_int_equal(passes->pass[0].tma_columns, c < 2 && tma);
        assert_int_equal(passes->pass[0].tma_in_exchanges, c == 1 && tma);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways(cases[c].shape, cases[c].fp16, cases[c].batch, 360 + 6 * (unsigned)c, "four-step slices", 1);
    }
}

/* fp16 four-step passes that compute their stage twiddles compute their pass twiddles too (base and
 * ratio with __sincosf, no tables): 2^18, whose pass 1 ends in a radix-2 tail by warp shuffles, 2^23
 * in three passes, whose passes 1 and 2 take the twiddles of 2^23 and of its rows' 2^16, and 2^27 (the
 * H200's line), whose pass 1 turns exponents above 2^24 into angles; both directions, out of place and
 * in place, against FFTW double. */
static void pass_twiddles_computed_through_wisdom(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    load_wisdom_entries("fp16 262144 tensor-cores=none max-tile=0 computed-twiddles=1 ms=1 default-ms=1\n"
                        "fp16 8388608 tensor-cores=none max-tile=0 computed-twiddles=1,2 ms=1"
                        " default-ms=1\n"
                        "fp16 134217728 tensor-cores=none max-tile=16,16,8 computed-twiddles=1 ms=1"
                        " default-ms=1\n");
    const struct {
        struct fft_shape shape;
        int batch, passes, computed; /* computed: a mask of the passes that compute their pass twiddles */
    } cases[] = {{{1, {262144, 0, 0}}, 3, 2, 1}, {{1, {8388608, 0, 0}}, 1, 3, 3}, {{1, {134217728, 0, 0}}, 1, 3, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fftgen_plan plan = dense_plan(cases[c].shape, 1);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_int_equal(passes->pass_count, cases[c].passes);
        for (int i = 0; i < passes->pass_count; ++i)
            assert_int_equal(fftgen_computes_pass_twiddles(&passes->pass[i]), cases[c].computed >> i & 1);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        check_both_ways_in_and_out_of_place(cases[c].shape, 1, cases[c].batch, 230 + 4 * (unsigned)c,
                                            "pass twiddles computed");
    }
}

/* fp16 between passes: by default the last intermediate of three 1D passes as shared-exponent
 * complexes (their third pass reads rows, which cannot take a mixed one), under the 4e-4 target;
 * FFTGEN_FP16_INTERMEDIATES keeps fp16 there (faster, less accurate). Two passes keep fp16 either way. The planner's own plan of 2^23 (three passes): the
 * shipped table's takes two on the H100 and the H200. */
static void fp16_intermediates_trade_accuracy(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const int n = 1 << 23;
    double errors[2];
    for (int f = 0; f < 2; ++f) {
        const unsigned flags = FFTGEN_PLANNER_DEFAULTS | (f ? FFTGEN_FP16_INTERMEDIATES : 0);
        fftgen_plan plan = NULL;
        assert_int_equal(fftgen_plan_1d(&plan, n, FFTGEN_FP16, 1, flags), FFTGEN_SUCCESS);
        const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
        assert_non_null(passes);
        assert_int_equal(passes->pass_count, 3);
        assert_false(passes->pass[0].shared_exponent_target);
        assert_int_equal(passes->pass[1].shared_exponent_target, !f);
        assert_int_equal(passes->pass[2].shared_exponent_source, !f);
        assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
        const struct api_run run = {1, {n, 0, 0}, FFTGEN_FP16, FFTGEN_FORWARD, flags, 0, 0};
        errors[f] = transform_error(n, KERNEL_FP16, 1, FFTGEN_FORWARD, 1.0, run_api, &run, 23);
        print_message("  n=%d fp16, %s: relative L2 error %.3e\n", n,
                      f ? "FFTGEN_FP16_INTERMEDIATES" : "the planner's intermediates", errors[f]);
    }
    assert_true(errors[0] >= 0.0 && errors[0] < FP16_TARGET_ERROR);
    assert_true(errors[1] > errors[0] && errors[1] < FP16_ERROR_BOUND);
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_1d(&plan, 1 << 20, FFTGEN_FP16, 1, 0), FFTGEN_SUCCESS);
    const fftgen_transform_plan *passes = fftgen_plan_layout(plan);
    assert_false(passes->pass[0].shared_exponent_target || passes->pass[1].shared_exponent_source);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
}

/* The split precisions through the API against FFTW double (issue 6): every size from 16 to 2^27,
 * forward out of place and the scaled inverse in place; inputs at 1e-20 and 1e20 at a few sizes
 * (no overflow, no more error than at scale 1); 2D and 3D shapes. Prints each error, for the
 * table next to cuFFT fp32's. */
static void split_matches_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const int major = device_major();
    fftgen_plan plan = NULL;
    if (major < 8) {
        assert_int_equal(fftgen_plan_1d(&plan, 256, FFTGEN_SPLIT, 1, 0), FFTGEN_UNSUPPORTED_DEVICE);
        return;
    }
    assert_int_equal(fftgen_plan_1d(&plan, 8, FFTGEN_SPLIT, 1, 0), FFTGEN_NOT_SUPPORTED_YET);
    assert_null(plan);
    const fftgen_precision precisions[] = {FFTGEN_SPLIT, FFTGEN_SPLIT_PAPERS};
    const enum kernel_precision kernels[] = {KERNEL_SPLIT, KERNEL_SPLIT_PAPERS};
    double worst[2] = {0.0, 0.0};
    for (int n = 16; n <= (1 << 27); n *= 2)
        for (int v = 0; v < 2; ++v) {
            const struct { fftgen_direction direction; unsigned flags; int in_place, batch; } cases[] = {
                {FFTGEN_FORWARD, 0, 0, n < (1 << 20) ? (1 << 20) / n : 1},
                {FFTGEN_INVERSE, FFTGEN_SCALE_INVERSE, 1, n < (1 << 16) ? 3 : 1},
            };
            for (size_t c = 0; c < 2; ++c) {
                const struct api_run run = {1, {n, 0, 0}, precisions[v], cases[c].direction, cases[c].flags,
                                            cases[c].in_place, 0};
                const double scale = cases[c].flags & FFTGEN_SCALE_INVERSE ? 1.0 / n : 1.0;
                const double error = transform_error(n, kernels[v], cases[c].batch, cases[c].direction, scale, run_api,
                                                     &run, (unsigned long long)n * 37 + c);
                print_message("  n=%-9d %-12s case %zu: relative L2 error %.3e\n", n, precision_label(kernels[v]), c,
                              error);
                assert_true(error >= 0.0 && error < error_bound(kernels[v]));
                if (error > worst[v]) worst[v] = error;
            }
            if (n != 16 && n != 4096 && n != (1 << 20) && n != (1 << 24)) continue;
            /* at least 2^20 points, so that the error is a mean, not one transform's noise */
            const struct api_run run = {1, {n, 0, 0}, precisions[v], FFTGEN_FORWARD, 0, 0, 0};
            const int batch = n < (1 << 20) ? (1 << 20) / n : 1;
            double at_one = 0.0;
            const double amplitudes[] = {1.0, 1e-20, 1e20};
            for (size_t a = 0; a < 3; ++a) {
                const double error = transform_error_at(n, kernels[v], batch, FFTGEN_FORWARD, amplitudes[a], run_api,
                                                        &run, (unsigned long long)n * 41);
                print_message("  n=%-9d %-12s inputs in [-%g, %g]: relative L2 error %.3e\n", n,
                              precision_label(kernels[v]), amplitudes[a], amplitudes[a], error);
                assert_true(error >= 0.0 && error < error_bound(kernels[v]));
                if (a == 0) at_one = error;
                assert_true(error <= 1.1 * at_one);
            }
        }
    static const struct fft_shape shapes[] = {
        {2, {512, 256, 0}}, {2, {1024, 1024, 0}}, {2, {4096, 4096, 0}}, {3, {8, 32, 64}}, {3, {64, 64, 64}},
        {3, {128, 128, 128}}, {3, {256, 256, 256}},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const struct api_run run = {shapes[s].rank, {shapes[s].n[0], shapes[s].n[1], shapes[s].n[2]}, FFTGEN_SPLIT,
                                    FFTGEN_FORWARD, 0, 0, 0};
        const double error = shape_transform_error(shapes[s], KERNEL_SPLIT, 1, FFTGEN_FORWARD, 1.0, run_api, &run,
                                                   53 * s);
        print_message("  %dx%d%s%.0d split: relative L2 error %.3e\n", shapes[s].n[0], shapes[s].n[1],
                      shapes[s].rank == 3 ? "x" : "", shapes[s].rank == 3 ? shapes[s].n[2] : 0, error);
        assert_true(error >= 0.0 && error < SPLIT_ERROR_BOUND);
        if (error > worst[0]) worst[0] = error;
    }
    print_message("  worst relative L2 error of the split precisions: split %.3e, split-papers %.3e\n", worst[0],
                  worst[1]);
}

/* On the device: the default pack serves plans with JIT forbidden; other sizes are refused, and need
 * NVRTC where it is allowed; a pack for another architecture is rejected. Runs before anything is
 * compiled, with no disk cache. */
static void packs_on_the_device(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    setenv("FFTGEN_CACHE", "0", 1);
    fftgen_plan plan = NULL;
    /* NVRTC that cannot be loaded: the library named, and the loader's reason. First: the process has
     * not loaded NVRTC yet (a failed load is tried again at the next compile) */
    setenv("FFTGEN_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    assert_int_equal(fftgen_plan_1d(&plan, 8, FFTGEN_FP32, 16, 0), FFTGEN_NVRTC_UNAVAILABLE);
    expect_detail("could not load NVRTC from /nonexistent/libnvrtc.so.13: ");
    expect_detail("No such file or directory");
    unsetenv("FFTGEN_NVRTC");
    assert_int_equal(fftgen_plan_1d(&plan, 4096, FFTGEN_FP16, 16, FFTGEN_NO_JIT), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_plan_1d(&plan, 1 << 18, FFTGEN_FP32, 4, FFTGEN_NO_JIT), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_plan_1d(&plan, 8, FFTGEN_FP32, 16, FFTGEN_NO_JIT), FFTGEN_JIT_DISABLED);
    assert_null(plan);
    expect_detail("FFTGEN_NO_JIT, and no loaded kernel pack holds fftgen_8_fp32 for sm_");
    unsetenv("FFTGEN_CACHE");

    const int major = device_major();
    const unsigned char cubin[64] = {1, 2, 3};
    const fftgen_pack_entry entry = {"// not this device's\n", major == 8 ? 90 : 80, 0, 64, 1, "test", cubin,
                                     sizeof cubin};
    char path[] = "/tmp/fftgen-test-api-XXXXXX", why[256];
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fftgen_pack_write(path, &entry, 1, why, sizeof why), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_load_pack(path), FFTGEN_PACK_WRONG_ARCH);
    expect_detail(": no kernel for sm_");
    assert_int_equal(fftgen_load_pack("/nonexistent.fgpack"), FFTGEN_PACK_UNREADABLE);
    expect_detail("/nonexistent.fgpack: No such file or directory");
    unlink(path);
}

struct shape_run {
    struct fft_shape shape;
    fftgen_precision precision;
    struct strided_layout in, out;
};

/* Elements a layout spans for `batch` transforms of a shape. */
static size_t shape_span(struct fft_shape shape, struct strided_layout layout, int batch)
{
    long long last = shape.n[0] - 1;
    for (int d = 1; d < shape.rank; ++d)
        last = last * (layout.embed[d] ? layout.embed[d] : shape.n[d]) + shape.n[d] - 1;
    return (size_t)((long long)(batch - 1) * layout.dist + last * layout.stride + 1);
}

/* A shape (1D, 2D or 3D) in strided layouts through fftgen_plan_many; copies the whole spans over and back. */
static int run_strided_shape(const void *context, const void *in, void *out, int batch)
{
    const struct shape_run *run = context;
    const size_t element = run->precision == FFTGEN_FP16 ? 4 : 8;
    const size_t in_bytes = element * shape_span(run->shape, run->in, batch);
    const size_t out_bytes = element * shape_span(run->shape, run->out, batch);
    long long n[3], inembed[3], onembed[3];
    for (int d = 0; d < run->shape.rank; ++d) {
        n[d] = run->shape.n[d];
        inembed[d] = run->in.embed[d] ? run->in.embed[d] : n[d];
        onembed[d] = run->out.embed[d] ? run->out.embed[d] : n[d];
    }
    void *d_in = NULL, *d_out = NULL;
    fftgen_plan plan = NULL;
    int result = -1;
    const fftgen_result planned = fftgen_plan_many(&plan, run->shape.rank, n, inembed, run->in.stride, run->in.dist,
                                                   onembed, run->out.stride, run->out.dist, run->precision, batch, 0);
    if (planned != FFTGEN_SUCCESS) {
        print_error("fftgen_plan_many: %s\n", fftgen_result_string(planned));
        return -1;
    }
    CHECK_CUDA(cudaMalloc(&d_in, in_bytes));
    CHECK_CUDA(cudaMalloc(&d_out, out_bytes));
    CHECK_CUDA(cudaMemcpy(d_in, in, in_bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_out, out, out_bytes, cudaMemcpyHostToDevice)); /* the poisoned span */
    if (fftgen_exec(plan, d_in, d_out, FFTGEN_FORWARD) != FFTGEN_SUCCESS) goto done;
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost));
    result = 0;
done:
    fftgen_destroy(plan);
    cudaFree(d_in);
    cudaFree(d_out);
    return result;
}

/* Strided input and output through fftgen_plan_many: one kernel, fewer transforms a tile, and two and
 * three passes, input transforms that overlap; nothing outside the output layout may be written. */
static void strided_layouts_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const struct { int n; struct strided_layout in, out; } cases[] = {
        {64, {3, 200, {0}}, {1, 64, {0}}},           {64, {1, 80, {0}}, {2, 130, {0}}},
        {2048, {2, 4099, {0}}, {1, 2048, {0}}},      {16384, {1, 16390, {0}}, {2, 32771, {0}}},
        {65536, {2, 131075, {0}}, {1, 65536, {0}}},  {1 << 21, {1, (1 << 21) + 7, {0}}, {3, 3 << 21, {0}}},
        /* input frames that overlap, as a short-time FFT reads them: one kernel, and two passes */
        {256, {1, 64, {0}}, {1, 256, {0}}},          {65536, {1, 16384, {0}}, {2, 131072, {0}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        for (int p = 0; p < 2; ++p) {
            const struct shape_run run = {{1, {cases[c].n, 0, 0}}, p ? FFTGEN_FP16 : FFTGEN_FP32, cases[c].in,
                                          cases[c].out};
            const int batch = cases[c].n >= (1 << 20) ? 2 : 17;
            const double error = strided_shape_transform_error(run.shape, p ? KERNEL_FP16 : KERNEL_FP32, batch, -1,
                                                               cases[c].in, cases[c].out, run_strided_shape, &run,
                                                               77 + c);
            print_message("  n=%-7d %s in (%lld, %lld) out (%lld, %lld) batch %d: relative L2 error %.3e\n",
                          cases[c].n, p ? "fp16" : "fp32", cases[c].in.stride, cases[c].in.dist, cases[c].out.stride,
                          cases[c].out.dist, batch, error);
            assert_true(error >= 0.0 && error < (p ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
        }
}

/* 2D and 3D shapes in strided layouts with embeds: tiled passes on both sides; nothing outside the
 * output layout may be written. In strided layouts a dimension larger than one kernel is not supported. */
static void strided_shapes_match_fftw(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    const struct shape_run cases[] = {
        {{2, {64, 128, 0}}, FFTGEN_FP32, {1, 64 * 160 + 3, {0, 160, 0}}, {1, 64 * 128, {0}}},
        {{2, {256, 64, 0}}, FFTGEN_FP16, {2, 2 * 256 * 64 + 5, {0}}, {1, 256 * 64, {0}}},
        {{3, {16, 16, 32}}, FFTGEN_FP32, {1, 16 * 16 * 32, {0}}, {1, 16 * 20 * 40, {0, 20, 40}}},
        {{3, {32, 8, 64}}, FFTGEN_FP16, {3, 3 * 32 * 8 * 70 + 1, {0, 8, 70}}, {1, 32 * 8 * 64, {0}}},
        /* input slices that overlap by half (nothing writes the input); the output dense */
        {{2, {64, 128, 0}}, FFTGEN_FP16, {1, 32 * 128, {0}}, {1, 64 * 128, {0}}},
        /* the README's example: rows padded to 264 elements on both sides */
        {{2, {512, 256, 0}}, FFTGEN_FP16, {1, 512 * 264, {0, 264, 0}}, {1, 512 * 264, {0, 264, 0}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const int fp16 = cases[c].precision == FFTGEN_FP16;
        const double error = strided_shape_transform_error(cases[c].shape, fp16 ? KERNEL_FP16 : KERNEL_FP32, 3, -1,
                                                           cases[c].in, cases[c].out, run_strided_shape, &cases[c],
                                                           500 + c);
        print_message("  strided shape case %zu (%s): relative L2 error %.3e\n", c, fp16 ? "fp16" : "fp32", error);
        assert_true(error >= 0.0 && error < (fp16 ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
    }
    fftgen_plan plan = NULL;
    /* columns longer than one kernel split into passes only where the output is dense */
    const long long too_long[2] = {32768, 2}, spread[2] = {32768, 2};
    assert_int_equal(fftgen_plan_many(&plan, 2, too_long, NULL, 1, 1, spread, 2, 131072, FFTGEN_FP32, 1, 0),
                     FFTGEN_NOT_SUPPORTED_YET);
    assert_null(plan);
    /* in place needs the same layout on both sides */
    const long long shape[2] = {64, 64}, embed[2] = {64, 80};
    assert_int_equal(fftgen_plan_many(&plan, 2, shape, embed, 1, 64 * 80, NULL, 1, 1, FFTGEN_FP32, 2, 0),
                     FFTGEN_SUCCESS);
    void *buffer = NULL;
    assert_int_equal(cudaMalloc(&buffer, 2 * 64 * 80 * 8), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, buffer, buffer, FFTGEN_FORWARD), FFTGEN_OVERLAPPING_LAYOUT);
    size_t work = 1;
    assert_int_equal(fftgen_get_work_size(plan, &work), FFTGEN_SUCCESS);
    assert_int_equal(work, 0);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(cudaFree(buffer), cudaSuccess);
}

/* A driver function through the runtime (the tests link no libcuda), or NULL. */
static void *driver_function(const char *name)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
        return NULL;
    return fn;
}

/* Device memory mapped in pieces into one reserved range (the virtual memory management API, as
 * PyTorch's expandable segments use it): three pieces reserved, the first two mapped, the third left
 * unmapped so that the buffer surely ends there. A buffer across the two pieces is one buffer to
 * fftgen_exec; one that runs into the gap is too small, by its layout's span. */
static void buffers_in_mapped_pieces(void)
{
    __typeof__(cuMemGetAllocationGranularity) *granularity_of = driver_function("cuMemGetAllocationGranularity");
    __typeof__(cuMemAddressReserve) *reserve = driver_function("cuMemAddressReserve");
    __typeof__(cuMemCreate) *create = driver_function("cuMemCreate");
    __typeof__(cuMemMap) *map = driver_function("cuMemMap");
    __typeof__(cuMemSetAccess) *set_access = driver_function("cuMemSetAccess");
    __typeof__(cuMemUnmap) *unmap = driver_function("cuMemUnmap");
    __typeof__(cuMemRelease) *release = driver_function("cuMemRelease");
    __typeof__(cuMemAddressFree) *address_free = driver_function("cuMemAddressFree");
    assert_true(granularity_of && reserve && create && map && set_access && unmap && release && address_free);
    int device = 0;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    size_t piece = 0;
    assert_int_equal(granularity_of(&piece, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS);
    CUdeviceptr range = 0;
    CUmemGenericAllocationHandle handles[2];
    assert_int_equal(reserve(&range, 3 * piece, 0, 0, 0), CUDA_SUCCESS);
    for (int i = 0; i < 2; ++i) {
        assert_int_equal(create(&handles[i], piece, &prop, 0), CUDA_SUCCESS);
        assert_int_equal(map(range + i * piece, piece, 0, handles[i], 0), CUDA_SUCCESS);
    }
    CUmemAccessDesc access;
    memset(&access, 0, sizeof access);
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    assert_int_equal(set_access(range, 2 * piece, &access, 1), CUDA_SUCCESS);
    char *data = (char *)(uintptr_t)range, *end = data + 2 * piece;
    assert_int_equal(cudaMemset(data, 0, 2 * piece), cudaSuccess);

    fftgen_plan plan = NULL;
    const long long points = 4096, batch = (long long)(2 * piece / (points * 8));
    assert_int_equal(fftgen_plan_1d(&plan, points, FFTGEN_FP32, batch, 0), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_exec(plan, data, data, FFTGEN_FORWARD), FFTGEN_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, data + 8192, data, FFTGEN_FORWARD), FFTGEN_BUFFER_TOO_SMALL);
    expect_detail("in ");
    expect_detail("the plan needs");
    assert_int_equal(fftgen_exec(plan, data, data + 8, FFTGEN_FORWARD), FFTGEN_BUFFER_TOO_SMALL);
    expect_detail("out ");
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);

    /* a layout's span, not n * batch: stride 2 and distance 128 reach element 128 + 63 * 2 of the
     * input (2040 bytes); the output, contiguous, 128 elements (1024 bytes) */
    const long long n = 64, embed = 64;
    assert_int_equal(fftgen_plan_many(&plan, 1, &n, &embed, 2, 128, &embed, 1, 64, FFTGEN_FP32, 2, 0), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_exec(plan, end - 2040, end - 1024, FFTGEN_FORWARD), FFTGEN_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, end - 2032, data, FFTGEN_FORWARD), FFTGEN_BUFFER_TOO_SMALL);
    expect_detail("the plan needs 2040 there");
    assert_int_equal(fftgen_exec(plan, data, end - 1016, FFTGEN_FORWARD), FFTGEN_BUFFER_TOO_SMALL);
    expect_detail("the plan needs 1024 there");
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);

    /* a work area, likewise */
    assert_int_equal(fftgen_plan_1d(&plan, 1 << 16, FFTGEN_FP16, 16, 0), FFTGEN_SUCCESS);
    size_t work = 0;
    assert_int_equal(fftgen_get_work_size(plan, &work), FFTGEN_SUCCESS);
    assert_true(work > 4096 && work <= 2 * piece);
    assert_int_equal(fftgen_set_work_area(plan, end - work + 4096), FFTGEN_BUFFER_TOO_SMALL);
    expect_detail("work_area ");
    assert_int_equal(fftgen_set_work_area(plan, end - work), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);

    for (int i = 0; i < 2; ++i) {
        assert_int_equal(unmap(range + i * piece, piece), CUDA_SUCCESS);
        assert_int_equal(release(handles[i]), CUDA_SUCCESS);
    }
    assert_int_equal(address_free(range, 3 * piece), CUDA_SUCCESS);
}

/* With two devices or more (else skipped): plans made on each device run there and match FFTW double
 * (fp16 4096 from the default pack, fp32 2^20 in two passes with its work area); a plan executed while
 * the other device is current is refused before any launch, runs again once its own is, and is
 * destroyed with the other current. */
static void plans_stay_on_their_device(void **state)
{
    (void)state;
    int devices = 0;
    if (!have_gpu || cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) skip();
    const struct { long long n; fftgen_precision precision; enum kernel_precision kp; double bound; } cases[] = {
        {4096, FFTGEN_FP16, KERNEL_FP16, FP16_ERROR_BOUND},
        {1 << 20, FFTGEN_FP32, KERNEL_FP32, FP32_ERROR_BOUND},
    };
    for (int device = 0; device < 2; ++device) {
        assert_int_equal(cudaSetDevice(device), cudaSuccess);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            const struct api_run run = {1, {cases[c].n, 0, 0}, cases[c].precision, FFTGEN_FORWARD, 0, 0, 0};
            const double error = transform_error((int)cases[c].n, cases[c].kp, 3, FFTGEN_FORWARD, 1.0, run_api, &run,
                                                 (unsigned long long)device * 7 + c);
            print_message("  device %d, %lld points %s, batch 3, forward: %.3e\n", device, cases[c].n,
                          cases[c].precision == FFTGEN_FP16 ? "fp16" : "fp32", error);
            assert_true(error >= 0.0 && error < cases[c].bound);
        }
    }
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_1d(&plan, 1 << 20, FFTGEN_FP32, 2, 0), FFTGEN_SUCCESS);
    float2 *data = NULL;
    assert_int_equal(cudaMalloc((void **)&data, sizeof(float2) << 21), cudaSuccess);
    assert_int_equal(cudaMemset(data, 0, sizeof(float2) << 21), cudaSuccess);
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, data, data, FFTGEN_FORWARD), FFTGEN_WRONG_DEVICE);
    expect_detail("the plan was made on device 0 and device 1 is current");
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, data, data, FFTGEN_FORWARD), FFTGEN_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    /* released with the other device current: its kernels and its own work area go all the same */
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaFree(data), cudaSuccess);
}

static void exec_checks_its_arguments(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    fftgen_plan plan = NULL;
    assert_int_equal(fftgen_plan_1d(&plan, 256, FFTGEN_FP32, 4, 0), FFTGEN_SUCCESS);
    char *buffer = NULL;
    assert_int_equal(cudaMalloc((void **)&buffer, 256 * 4 * 8 + 64), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, NULL, buffer, FFTGEN_FORWARD), FFTGEN_NULL_POINTER);
    assert_int_equal(fftgen_exec(plan, buffer + 4, buffer + 8, FFTGEN_FORWARD), FFTGEN_MISALIGNED_POINTER);
    expect_detail("is not aligned to one");
    assert_int_equal(fftgen_exec(plan, buffer, buffer, (fftgen_direction)0), FFTGEN_INVALID_DIRECTION);
    /* host memory: refused before a launch could fault (and end the context), unless the device reads
     * pageable memory */
    int pageable = 0;
    assert_int_equal(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0), cudaSuccess);
    float2 *host = malloc(256 * 4 * sizeof(float2));
    assert_non_null(host);
    if (!pageable) {
        assert_int_equal(fftgen_exec(plan, host, buffer, FFTGEN_FORWARD), FFTGEN_HOST_POINTER);
        expect_detail("in ");
        expect_detail("is host memory the device cannot read");
        assert_int_equal(fftgen_exec(plan, buffer, host, FFTGEN_FORWARD), FFTGEN_HOST_POINTER);
        expect_detail("out ");
        assert_int_equal(fftgen_exec(plan, host, host, FFTGEN_INVERSE), FFTGEN_HOST_POINTER);
    } else {
        print_message("  the device reads pageable host memory: host pointers are data there\n");
    }
    free(host);
    buffers_in_mapped_pieces();
    /* pinned host memory is mapped into the device's address space: the kernels may read it */
    float2 *pinned = NULL;
    assert_int_equal(cudaHostAlloc((void **)&pinned, 256 * 4 * sizeof(float2), cudaHostAllocDefault), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, pinned, buffer, FFTGEN_FORWARD), FFTGEN_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaFreeHost(pinned), cudaSuccess);
    assert_int_equal(fftgen_exec(plan, buffer, buffer, FFTGEN_FORWARD), FFTGEN_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    /* one kernel, different layouts: not in place */
    const long long n = 64, embed = 64;
    assert_int_equal(fftgen_plan_many(&plan, 1, &n, &embed, 2, 128, &embed, 1, 64, FFTGEN_FP32, 2, 0), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_exec(plan, buffer, buffer, FFTGEN_FORWARD), FFTGEN_OVERLAPPING_LAYOUT);
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    assert_int_equal(cudaFree(buffer), cudaSuccess);
    /* a two-pass plan: it needs a work area, allocates its own, and takes one of the caller's */
    size_t work = 0;
    assert_int_equal(fftgen_plan_1d(&plan, 1 << 16, FFTGEN_FP16, 8, 0), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_get_work_size(plan, &work), FFTGEN_SUCCESS);
    assert_int_equal(work, (size_t)(1 << 16) * 8 * 4);
    assert_int_equal(fftgen_set_work_area(plan, NULL), FFTGEN_NULL_POINTER);
    /* 16-byte aligned: a pass that prefetches its tiles copies them 16 bytes at a time */
    assert_int_equal(fftgen_set_work_area(plan, (void *)(uintptr_t)0x1008), FFTGEN_MISALIGNED_POINTER);
    if (!pageable) { /* an address nothing allocated, as host memory */
        assert_int_equal(fftgen_set_work_area(plan, (void *)(uintptr_t)0x10000), FFTGEN_HOST_POINTER);
        expect_detail("work_area ");
    }
    assert_int_equal(fftgen_destroy(plan), FFTGEN_SUCCESS);
    /* above 2^30 points */
    assert_int_equal(fftgen_plan_1d(&plan, 1LL << 31, FFTGEN_FP32, 1, 0), FFTGEN_SIZE_TOO_LARGE);
    assert_null(plan);
}

/* fftgen_exec captured into CUDA graphs, as cuFFT's can be, against FFTW double: one kernel, passes
 * through the plan's own work area, in place through the caller's, one pass on thread-block clusters
 * (fp32 2^15 on sm_90), a 2D shape (fp32 256x256: slices on clusters) and a 3D one, both directions. The
 * cluster cases' calls hold more than 2^22 points: the H200's table plans smaller ones otherwise. */
static void exec_in_cuda_graphs(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    static const struct {
        struct fft_shape shape;
        fftgen_precision precision;
        fftgen_direction direction;
        int in_place, batch;
    } cases[] = {
        {{1, {4096, 0, 0}}, FFTGEN_FP16, FFTGEN_FORWARD, 0, 64},
        {{1, {1 << 20, 0, 0}}, FFTGEN_FP16, FFTGEN_INVERSE, 0, 2},
        {{1, {1 << 24, 0, 0}}, FFTGEN_FP32, FFTGEN_FORWARD, 0, 1},
        {{1, {1 << 16, 0, 0}}, FFTGEN_FP16, FFTGEN_FORWARD, 1, 4},
        {{1, {1 << 15, 0, 0}}, FFTGEN_FP32, FFTGEN_INVERSE, 0, 129},
        {{2, {256, 256, 0}}, FFTGEN_FP32, FFTGEN_FORWARD, 0, 65},
        {{3, {64, 64, 64}}, FFTGEN_FP16, FFTGEN_INVERSE, 1, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const struct fft_shape shape = cases[c].shape;
        const int fp16 = cases[c].precision == FFTGEN_FP16;
        const struct api_run run = {shape.rank, {shape.n[0], shape.n[1], shape.n[2]}, cases[c].precision,
                                    cases[c].direction, 0, cases[c].in_place, 0};
        const double error = shape_transform_error(shape, fp16 ? KERNEL_FP16 : KERNEL_FP32, cases[c].batch,
                                                   cases[c].direction, 1.0, run_api_in_graph, &run, 900 + c);
        print_message("  graph case %zu (%zu points, %s, %s%s): relative L2 error %.3e\n", c, shape_points(shape),
                      fp16 ? "fp16" : "fp32", cases[c].direction == FFTGEN_FORWARD ? "forward" : "inverse",
                      cases[c].in_place ? ", in place" : "", error);
        assert_true(error >= 0.0 && error < (fp16 ? FP16_ERROR_BOUND : FP32_ERROR_BOUND));
    }
}

/* One thread's plan for threads_plan_and_execute: made, executed and destroyed in that thread. */
struct thread_job {
    struct fft_shape shape;
    fftgen_precision precision;
    int batch;
    const void *in; /* storage, batch transforms */
    void *out;
    size_t bytes;
    fftgen_result result; /* the first failed call's, else FFTGEN_SUCCESS */
    cudaError_t cuda;      /* the first failed CUDA call's, else cudaSuccess */
    char why[256];
};

#define THREAD_EXECUTIONS 3

/* Each CUDA call of a thread_job: the first failure is kept and ends the job. */
#define JOB_CUDA(call)                                                                                     \
    do {                                                                                                   \
        if ((job->cuda = (call)) != cudaSuccess) goto done;                                                \
    } while (0)
#define JOB_FFTGEN(call)                                                                                   \
    do {                                                                                                   \
        if ((job->result = (call)) != FFTGEN_SUCCESS) {                                                    \
            snprintf(job->why, sizeof job->why, "%s", fftgen_last_error());                                \
            goto done;                                                                                     \
        }                                                                                                  \
    } while (0)

static void *plan_and_execute(void *context)
{
    struct thread_job *job = context;
    const int *n = job->shape.n;
    fftgen_plan plan = NULL;
    cudaStream_t stream = NULL;
    void *d_in = NULL, *d_out = NULL;
    JOB_FFTGEN(job->shape.rank == 1   ? fftgen_plan_1d(&plan, n[0], job->precision, job->batch, 0)
               : job->shape.rank == 2 ? fftgen_plan_2d(&plan, n[0], n[1], job->precision, job->batch, 0)
                                      : fftgen_plan_3d(&plan, n[0], n[1], n[2], job->precision, job->batch, 0));
    JOB_CUDA(cudaStreamCreate(&stream));
    JOB_CUDA(cudaMalloc(&d_in, job->bytes));
    JOB_CUDA(cudaMalloc(&d_out, job->bytes));
    JOB_CUDA(cudaMemcpyAsync(d_in, job->in, job->bytes, cudaMemcpyHostToDevice, stream));
    JOB_CUDA(cudaMemsetAsync(d_out, 0xFF, job->bytes, stream));
    JOB_FFTGEN(fftgen_set_stream(plan, stream));
    /* the same transform again and again, while the other threads plan and execute theirs */
    for (int i = 0; i < THREAD_EXECUTIONS; ++i) JOB_FFTGEN(fftgen_exec(plan, d_in, d_out, FFTGEN_FORWARD));
    JOB_CUDA(cudaMemcpyAsync(job->out, d_out, job->bytes, cudaMemcpyDeviceToHost, stream));
    JOB_CUDA(cudaStreamSynchronize(stream));
    const fftgen_result destroyed = fftgen_destroy(plan); /* released even where it fails */
    plan = NULL;
    JOB_FFTGEN(destroyed);
done:
    fftgen_destroy(plan);
    cudaFree(d_in);
    cudaFree(d_out);
    if (stream) cudaStreamDestroy(stream);
    return NULL;
}

/* Eight threads at once, each planning (kernels from the default pack, the cache or NVRTC, all at
 * the same time), executing on a stream of its own and destroying its plan: every result against
 * FFTW double, computed before the threads start (FFTW's planner is not thread-safe). */
static void threads_plan_and_execute(void **state)
{
    (void)state;
    if (!have_gpu) skip();
    static const struct {
        struct fft_shape shape;
        fftgen_precision precision;
        int batch;
    } cases[] = {
        {{1, {4096, 0, 0}}, FFTGEN_FP16, 16},      {{1, {1 << 20, 0, 0}}, FFTGEN_FP32, 1},
        {{2, {128, 512, 0}}, FFTGEN_FP16, 2},      {{3, {32, 64, 16}}, FFTGEN_FP32, 2},
        {{1, {1 << 17, 0, 0}}, FFTGEN_FP16, 2},    {{1, {2048, 0, 0}}, FFTGEN_SPLIT, 8},
        {{2, {8, 8192, 0}}, FFTGEN_FP32, 1},       {{3, {16, 16, 256}}, FFTGEN_FP16, 3},
    };
    enum { JOBS = sizeof cases / sizeof cases[0] };
    static const enum kernel_precision KERNELS[] = {KERNEL_FP32, KERNEL_FP16, KERNEL_SPLIT, KERNEL_SPLIT_PAPERS};
    struct thread_job jobs[JOBS];
    double *want[JOBS];
    pthread_t threads[JOBS];
    for (int j = 0; j < JOBS; ++j) {
        const size_t count = shape_points(cases[j].shape) * (size_t)cases[j].batch;
        const enum kernel_precision kernel = KERNELS[cases[j].precision];
        double *points = malloc(2 * count * sizeof *points);
        want[j] = malloc(2 * count * sizeof *want[j]);
        void *in = malloc(count * storage_bytes(kernel)), *out = malloc(count * storage_bytes(kernel));
        assert_true(points && want[j] && in && out);
        random_points(points, count, 1000 + (unsigned long long)j);
        to_storage(kernel, points, in, count);
        from_storage(kernel, in, points, count); /* the reference transforms what the GPU reads */
        assert_int_equal(reference_fft_shape(points, want[j], cases[j].shape, cases[j].batch, -1), 0);
        free(points);
        poison_storage(kernel, out, count);
        jobs[j] = (struct thread_job){cases[j].shape, cases[j].precision, cases[j].batch, in, out,
                                      count * storage_bytes(kernel), FFTGEN_SUCCESS, cudaSuccess, ""};
    }
    for (int j = 0; j < JOBS; ++j) assert_int_equal(pthread_create(&threads[j], NULL, plan_and_execute, &jobs[j]), 0);
    for (int j = 0; j < JOBS; ++j) assert_int_equal(pthread_join(threads[j], NULL), 0);
    for (int j = 0; j < JOBS; ++j) {
        const size_t count = jobs[j].bytes / storage_bytes(KERNELS[cases[j].precision]);
        double *got = malloc(2 * count * sizeof *got);
        assert_non_null(got);
        from_storage(KERNELS[cases[j].precision], jobs[j].out, got, count);
        const double error = relative_l2_error(got, want[j], count);
        print_message("  thread %d (%zu points, %s, batch %d): %s, %s, relative L2 error %.3e %s\n", j,
                      shape_points(cases[j].shape), precision_label(KERNELS[cases[j].precision]), cases[j].batch,
                      fftgen_result_string(jobs[j].result), cudaGetErrorString(jobs[j].cuda), error, jobs[j].why);
        assert_int_equal(jobs[j].result, FFTGEN_SUCCESS);
        assert_int_equal(jobs[j].cuda, cudaSuccess);
        assert_true(error < error_bound(KERNELS[cases[j].precision]));
        free(got);
        free(want[j]);
        free((void *)jobs[j].in);
        free(jobs[j].out);
    }
}

/* Usage: test_api [PATTERN]: only the tests whose names match PATTERN (cmocka's * and ?), so that
 * the slow groups can run side by side on the GPU machine. */
int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows in a log while a long test runs */
    if (argc > 2) {
        fprintf(stderr, "usage: %s [test-name-pattern]\n", argv[0]);
        return 2;
    }
    if (argc == 2) cmocka_set_test_filter(argv[1]);
    int devices = 0;
    have_gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
    if (!have_gpu) printf("no CUDA device: the GPU parts of this test are skipped\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(failures_say_why),
        cmocka_unit_test(invalid_plans),
        cmocka_unit_test(every_result_has_a_message),
        cmocka_unit_test(no_device_is_reported),
        cmocka_unit_test(packs_on_the_device),
        cmocka_unit_test(transforms_match_fftw),
        cmocka_unit_test(strided_layouts_match_fftw),
        cmocka_unit_test(shapes_match_fftw),
        cmocka_unit_test(small_slices_match_fftw),
        cmocka_unit_test(columns_first_matches_fftw),
        cmocka_unit_test(tensor_cores_match_fftw),
        cmocka_unit_test(split_matches_fftw),
        cmocka_unit_test(wisdom_steers_plans),
        cmocka_unit_test(slices_through_wisdom),
        cmocka_unit_test(columns_split_through_wisdom),
        cmocka_unit_test(rows_radix_through_wisdom),
        cmocka_unit_test(tiles_prefetch_through_wisdom),
        cmocka_unit_test(column_pairs_match_fftw),
        cmocka_unit_test(row_registers_match_fftw),
        cmocka_unit_test(l2_fetch_256_matches_fftw),
        cmocka_unit_test(tma_columns_match_fftw),
        cmocka_unit_test(tile_pairs_match_fftw),
        cmocka_unit_test(four_step_splits_through_wisdom),
        cmocka_unit_test(four_step_splits_of_2d_shapes),
        cmocka_unit_test(pass_twiddles_computed_through_wisdom),
        cmocka_unit_test(fp16_intermediates_trade_accuracy),
        cmocka_unit_test(strided_shapes_match_fftw),
        cmocka_unit_test(exec_checks_its_arguments),
        cmocka_unit_test(exec_in_cuda_graphs),
        cmocka_unit_test(threads_plan_and_execute),
        cmocka_unit_test(plans_stay_on_their_device),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
