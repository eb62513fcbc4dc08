/* Every size the planner can produce (single kernels and two-pass plans), and the 2D and 3D shapes
 * the GPU tests run, rendered in-process and compiled with NVRTC for sm_75, sm_80 and sm_90 (CUDA 13
 * has no sm_70), and the tensor-core kernels for sm_80 and sm_90: the JIT path's text must compile
 * with no header, and hold the kernels under their extern "C" names. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <nvrtc.h>

#include "planner.h"
#include "render.h"

enum { MAX_JOBS = 512, WORKERS = 2 };

struct job {
    fftgen_transform_plan plan;
    char name[64];
    int ok;
    char log[2048];
};

static struct job jobs[MAX_JOBS];
static int job_count;
static int next_job;
static pthread_mutex_t queue = PTHREAD_MUTEX_INITIALIZER;

static int contains(const char *data, size_t size, const char *needle)
{
    const size_t n = strlen(needle);
    for (size_t i = 0; i + n <= size; ++i)
        if (memcmp(data + i, needle, n) == 0) return 1;
    return 0;
}

static void compile(struct job *job)
{
    char why[512], option[64];
    const fftgen_render_request request = {&job->plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
    char *source = fftgen_render(&request, why, sizeof why);
    if (source == NULL) {
        snprintf(job->log, sizeof job->log, "render failed: %s", why);
        return;
    }
    nvrtcProgram program;
    nvrtcResult rc = nvrtcCreateProgram(&program, source, job->name, 0, NULL, NULL);
    if (rc != NVRTC_SUCCESS) {
        snprintf(job->log, sizeof job->log, "nvrtcCreateProgram: %s", nvrtcGetErrorString(rc));
        free(source);
        return;
    }
    snprintf(option, sizeof option, "--gpu-architecture=sm_%d", job->plan.pass[0].arch);
    const char *options[] = {option};
    rc = nvrtcCompileProgram(program, 1, options);
    size_t log_size = 0;
    nvrtcGetProgramLogSize(program, &log_size);
    char *log = malloc(log_size + 1);
    if (log != NULL && nvrtcGetProgramLog(program, log) == NVRTC_SUCCESS)
        snprintf(job->log, sizeof job->log, "%s: %s", nvrtcGetErrorString(rc), log);
    free(log);
    size_t cubin_size = 0;
    if (rc == NVRTC_SUCCESS && nvrtcGetCUBINSize(program, &cubin_size) == NVRTC_SUCCESS && cubin_size > 0) {
        char *cubin = malloc(cubin_size);
        char forward[96], inverse[96];
        char prefix[64];
        fftgen_default_name(&job->plan, prefix, sizeof prefix);
        const char *pass = job->plan.pass_count > 1 ? "_pass2" : "";
        snprintf(forward, sizeof forward, "%s%s_forward", prefix, pass);
        snprintf(inverse, sizeof inverse, "%s%s_inverse", prefix, pass);
        /* the kernels are extern "C": their plain names must be in the cubin's symbol table */
        job->ok = cubin != NULL && nvrtcGetCUBIN(program, cubin) == NVRTC_SUCCESS &&
                  contains(cubin, cubin_size, forward) && contains(cubin, cubin_size, inverse);
        if (!job->ok) snprintf(job->log, sizeof job->log, "cubin lacks %s or %s", forward, inverse);
        free(cubin);
    }
    nvrtcDestroyProgram(&program);
    free(source);
}

static void *worker(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&queue);
        const int i = next_job < job_count ? next_job++ : -1;
        pthread_mutex_unlock(&queue);
        if (i < 0) return NULL;
        compile(&jobs[i]);
    }
}

static void compile_all_with_nvrtc(void **state)
{
    (void)state;
    const int archs[] = {75, 80, 90};
    const fftgen_kernel_precision precisions[] = {FFTGEN_KERNEL_FP32, FFTGEN_KERNEL_FP16};
    for (size_t a = 0; a < 3; ++a)
        for (size_t p = 0; p < 2; ++p) {
            assert_true(fftgen_single_kernel_limit(precisions[p], archs[a]) >= (archs[a] >= 80 ? 16384 : 4096));
            const long long limit = fftgen_transform_limit(precisions[p], archs[a]);
            assert_true(limit >= (archs[a] >= 80 ? (1 << 20) : (1 << 16)));
            for (long long n = 2; n <= limit; n *= 2) {
                assert_true(job_count < MAX_JOBS);
                struct job *job = &jobs[job_count++];
                char why[256];
                const fftgen_kernel_request request = {n, 0, precisions[p], archs[a], 0, {{0}}, 0,
                                                       FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                assert_int_equal(fftgen_plan_transform(&request, &job->plan, why, sizeof why), FFTGEN_PLAN_OK);
                snprintf(job->name, sizeof job->name, "fftgen_%lld_%s_sm_%d.cu", n,
                         fftgen_precision_name(precisions[p]), archs[a]);
            }
        }
    /* 2D and 3D: fused slices, contiguous rows, tiled columns from 16 transforms a tile down to 2 */
    static const long long shapes[][4] = {
        {2, 8, 16, 0},         {2, 512, 256, 0},     {2, 4096, 4096, 0},   {2, 8192, 8192, 0}, {3, 4, 8, 16},
        {3, 64, 64, 64},       {3, 128, 128, 128},   {3, 256, 256, 256},   {3, 512, 512, 512},
        {2, 8, 65536, 0},      {3, 2, 2, 2097152},
    };
    for (size_t a = 0; a < 3; ++a)
        for (size_t p = 0; p < 2; ++p)
            for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
                assert_true(job_count < MAX_JOBS);
                struct job *job = &jobs[job_count];
                char why[256], text[32];
                const int rank = (int)shapes[i][0];
                long long points = 1;
                for (int d = 0; d < rank; ++d) points *= shapes[i][1 + d];
                const fftgen_kernel_request request = {points, 0, precisions[p], archs[a], 0, {{0}}, 0,
                                                       FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                const fftgen_user_layout dense = {1, points, {0}};
                const fftgen_plan_status status =
                    fftgen_plan_shape(&request, rank, shapes[i] + 1, dense, dense, &job->plan, why, sizeof why);
                if (archs[a] == 75 && status == FFTGEN_PLAN_TOO_LARGE) continue; /* rows above sm_75's limit */
                assert_int_equal(status, FFTGEN_PLAN_OK);
                fftgen_shape_text(rank, shapes[i] + 1, text, sizeof text);
                snprintf(job->name, sizeof job->name, "fftgen_%s_%s_sm_%d.cu", text,
                         fftgen_precision_name(precisions[p]), archs[a]);
                ++job_count;
            }
    /* fp16 with radix-16 stages on tensor cores (sm_80 and newer) */
    for (size_t a = 1; a < 3; ++a)
        for (long long n = 16; n <= 16384; n *= 4) {
            assert_true(job_count < MAX_JOBS);
            struct job *job = &jobs[job_count++];
            char why[256];
            const fftgen_kernel_request request = {n, 0, FFTGEN_KERNEL_FP16, archs[a], 1, {{0}}, 0,
                                                   FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            assert_int_equal(fftgen_plan_transform(&request, &job->plan, why, sizeof why), FFTGEN_PLAN_OK);
            assert_true(job->plan.pass[0].tensor_cores);
            snprintf(job->name, sizeof job->name, "fftgen_%lld_tc_fp16_sm_%d.cu", n, archs[a]);
        }
    /* fp16 with tensor cores in tiled passes, every pass or some (what measured choices ask for) */
    static const long long tc_shapes[][5] = {
        {1, 65536, 0, 0, FFTGEN_EVERY_PASS}, {1, 1 << 20, 0, 0, 2}, {1, 1 << 24, 0, 0, 5},
        {2, 512, 256, 0, FFTGEN_EVERY_PASS}, {3, 128, 128, 128, 2},
    };
    for (size_t i = 0; i < sizeof tc_shapes / sizeof tc_shapes[0]; ++i) {
        assert_true(job_count < MAX_JOBS);
        struct job *job = &jobs[job_count++];
        char why[256], text[32];
        const int rank = (int)tc_shapes[i][0];
        long long points = 1;
        for (int d = 0; d < rank; ++d) points *= tc_shapes[i][1 + d];
        const fftgen_kernel_request request = {points, 0, FFTGEN_KERNEL_FP16, 90, (int)tc_shapes[i][4], {{0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        const fftgen_user_layout dense = {1, points, {0}};
        assert_int_equal(
            fftgen_plan_shape(&request, rank, tc_shapes[i] + 1, dense, dense, &job->plan, why, sizeof why),
            FFTGEN_PLAN_OK);
        fftgen_shape_text(rank, tc_shapes[i] + 1, text, sizeof text);
        snprintf(job->name, sizeof job->name, "fftgen_%s_tc%lld_fp16_sm_90.cu", text, tc_shapes[i][4]);
    }
    /* radix 32 (--radix 32; the shipped table's choice for fp16 16384 on sm_90), both precisions */
    for (size_t p = 0; p < 2; ++p)
        for (long long n = 1024; n <= 16384; n *= 4) {
            assert_true(job_count < MAX_JOBS);
            struct job *job = &jobs[job_count++];
            char why[256];
            const fftgen_kernel_request request = {n, 32, precisions[p], 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            assert_int_equal(fftgen_plan_transform(&request, &job->plan, why, sizeof why), FFTGEN_PLAN_OK);
            assert_int_equal(job->plan.pass[0].radix_max, 32);
            snprintf(job->name, sizeof job->name, "fftgen_%lld_r32_%s_sm_90.cu", n, fftgen_precision_name(precisions[p]));
        }
    /* prefetching kernels (--prefetch, sm_90: bulk copies): fp16 16384 radix 32 with computed twiddles,
     * the shipped table's choice for an H200, and fp32 8192 */
    static const struct { long long n; int radix; fftgen_kernel_precision precision; int computed, prefetch; }
        prefetched[] = {{16384, 32, FFTGEN_KERNEL_FP16, 1, 8}, {8192, 0, FFTGEN_KERNEL_FP32, 0, 2}};
    for (size_t i = 0; i < sizeof prefetched / sizeof prefetched[0]; ++i) {
        assert_true(job_count < MAX_JOBS);
        struct job *job = &jobs[job_count++];
        char why[256];
        const fftgen_kernel_request request = {prefetched[i].n, prefetched[i].radix, prefetched[i].precision, 90, 0,
                                               {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0,
                                               prefetched[i].computed, prefetched[i].prefetch, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(fftgen_plan_transform(&request, &job->plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(job->plan.pass[0].prefetch, prefetched[i].prefetch);
        snprintf(job->name, sizeof job->name, "fftgen_%lld_pf%d_%s_sm_90.cu", prefetched[i].n, prefetched[i].prefetch,
                 fftgen_precision_name(prefetched[i].precision));
    }
    /* the L2 prefetch in every pass that can take it (sm_90): tiles of columns and rows in runs (fp16
     * 2^20), untiled rows and tiles of columns (fp16 512x512), tiles of dense rows (fp32 2^25) */
    static const struct { int rank; long long n[2]; fftgen_kernel_precision precision; } l2_passes[] = {
        {1, {1 << 20, 0}, FFTGEN_KERNEL_FP16}, {2, {512, 512}, FFTGEN_KERNEL_FP16}, {1, {1 << 25, 0}, FFTGEN_KERNEL_FP32}};
    for (size_t i = 0; i < sizeof l2_passes / sizeof l2_passes[0]; ++i) {
        assert_true(job_count < MAX_JOBS);
        struct job *job = &jobs[job_count++];
        char why[256], text[32];
        const long long points = l2_passes[i].n[0] * (l2_passes[i].rank == 2 ? l2_passes[i].n[1] : 1);
        const fftgen_kernel_request request = {points, 0, l2_passes[i].precision, 90, 0, {{0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               FFTGEN_EVERY_PASS, 0, 0, 0, 0, 0};
        const fftgen_user_layout dense = {1, points, {0}};
        assert_int_equal(fftgen_plan_shape(&request, l2_passes[i].rank, l2_passes[i].n, dense, dense, &job->plan, why,
                                           sizeof why),
                         FFTGEN_PLAN_OK);
        int prefetching = 0;
        for (int k = 0; k < job->plan.pass_count; ++k) {
            prefetching += job->plan.pass[k].l2_prefetch_bytes > 0;
            assert_int_equal(job->plan.pass[k].l2_prefetch_bytes > 0, fftgen_can_l2_prefetch(&job->plan.pass[k]));
        }
        assert_true(prefetching > 0); /* fp32 2^25's first pass runs on clusters */
        fftgen_shape_text(l2_passes[i].rank, l2_passes[i].n, text, sizeof text);
        snprintf(job->name, sizeof job->name, "fftgen_%s_l2_%s_sm_90.cu", text,
                 fftgen_precision_name(l2_passes[i].precision));
    }
    /* copies ahead by the block's threads (cp.async): fused slices at 16 and 32 points a thread (the
     * shipped choices for fp16 128x128 and 128^3 on sm_90), a slice whose rows have more 16-byte pieces
     * than its block has threads (2 x 1024 fp16: 256 pieces a row, 128 threads), and the tiles of 1D
     * sizes of two passes (sm_80 too); each holds the rolled copies of inputs off 16 bytes as well */
    static const struct { int rank; long long n[3]; int radix, prefetch, arch; const char *tiles; }
        copied[] = {{2, {256, 64, 0}, 0, 4, 90, "0"},          {2, {128, 128, 0}, 32, 64, 90, "0"},
                    {3, {128, 128, 128}, 32, 64, 90, "0,32"}, {3, {512, 2, 1024}, 0, 64, 90, "0"},
                    {1, {1 << 21, 0, 0}, 0, 4, 90, "8,0"},    {1, {1 << 17, 0, 0}, 0, 2, 80, "4,0"}};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; ++i) {
        assert_true(job_count < MAX_JOBS);
        struct job *job = &jobs[job_count++];
        char why[256], text[32];
        long long points = 1;
        for (int d = 0; d < copied[i].rank; ++d) points *= copied[i].n[d];
        fftgen_kernel_request request = {.n = points, .max_radix = copied[i].radix, .precision = FFTGEN_KERNEL_FP16,
                                         .arch = copied[i].arch, .intermediate = FFTGEN_INTERMEDIATE_DEFAULT,
                                         .prefetch = copied[i].prefetch, 0};
        assert_int_equal(fftgen_tile_caps_parse(copied[i].tiles, &request.max_tile), 0);
        const fftgen_user_layout dense = {1, points, {0}};
        const fftgen_plan_status status =
            fftgen_plan_shape(&request, copied[i].rank, copied[i].n, dense, dense, &job->plan, why, sizeof why);
        if (status != FFTGEN_PLAN_OK) print_error("%s\n", why);
        assert_int_equal(status, FFTGEN_PLAN_OK);
        int prefetching = 0; /* the slices' pass, or pass 2 of a 1D size */
        for (int k = 0; k < job->plan.pass_count; ++k) prefetching |= job->plan.pass[k].prefetch == copied[i].prefetch;
        assert_true(prefetching);
        fftgen_shape_text(copied[i].rank, copied[i].n, text, sizeof text);
        snprintf(job->name, sizeof job->name, "fftgen_%s_pf%d_fp16_sm_%d.cu", text, copied[i].prefetch,
                 copied[i].arch);
    }
    /* 2D with the columns first (--order columns-first): fp16 rows loading their runs into registers
     * (tiles of 4 and 8), fp32 copying them through shared memory */
    static const long long first_shapes[][2] = {{4096, 4096}, {1024, 1024}};
    for (size_t p = 0; p < 2; ++p)
        for (size_t i = 0; i < sizeof first_shapes / sizeof first_shapes[0]; ++i) {
            assert_true(job_count < MAX_JOBS);
            struct job *job = &jobs[job_count++];
            char why[256], text[32];
            const long long points = first_shapes[i][0] * first_shapes[i][1];
            const fftgen_kernel_request request = {points, 0, precisions[p], 90, 0, {{0}}, 0,
                                                   FFTGEN_INTERMEDIATE_DEFAULT, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            const fftgen_user_layout dense = {1, points, {0}};
            assert_int_equal(fftgen_plan_shape(&request, 2, first_shapes[i], dense, dense, &job->plan, why, sizeof why),
                             FFTGEN_PLAN_OK);
            assert_true(job->plan.columns_first);
            fftgen_shape_text(2, first_shapes[i], text, sizeof text);
            snprintf(job->name, sizeof job->name, "fftgen_%s_cf_%s_sm_90.cu", text, fftgen_precision_name(precisions[p]));
        }
    /* the split precisions: one kernel, two and three tiled passes, a 2D and a 3D shape (sm_80 and sm_90);
     * the papers' variant on sm_90 */
    static const long long split_shapes[][4] = {
        {1, 16, 0, 0}, {1, 4096, 0, 0}, {1, 65536, 0, 0}, {1, 1 << 25, 0, 0}, {2, 512, 256, 0}, {3, 8, 32, 64},
    };
    for (size_t a = 1; a < 3; ++a)
        for (int v = 0; v < 2; ++v)
            for (size_t i = 0; i < sizeof split_shapes / sizeof split_shapes[0]; ++i) {
                const fftgen_kernel_precision precision = v ? FFTGEN_KERNEL_SPLIT_PAPERS : FFTGEN_KERNEL_SPLIT;
                if (v && (archs[a] != 90 || i == 0 || i > 2)) continue;
                assert_true(job_count < MAX_JOBS);
                struct job *job = &jobs[job_count++];
                char why[256], text[32];
                const int rank = (int)split_shapes[i][0];
                long long points = 1;
                for (int d = 0; d < rank; ++d) points *= split_shapes[i][1 + d];
                const fftgen_kernel_request request = {points, 0, precision, archs[a], 0, {{0}}, 0,
                                                       FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                const fftgen_user_layout dense = {1, points, {0}};
                assert_int_equal(fftgen_plan_shape(&request, rank, split_shapes[i] + 1, dense, dense, &job->plan, why,
                                                   sizeof why),
                                 FFTGEN_PLAN_OK);
                assert_true(job->plan.pass[0].tensor_cores);
                fftgen_shape_text(rank, split_shapes[i] + 1, text, sizeof text);
                snprintf(job->name, sizeof job->name, "fftgen_%s_%s_sm_%d.cu", text, fftgen_precision_name(precision),
                         archs[a]);
            }
    pthread_t threads[WORKERS];
    for (int t = 0; t < WORKERS; ++t) assert_int_equal(pthread_create(&threads[t], NULL, worker, NULL), 0);
    for (int t = 0; t < WORKERS; ++t) pthread_join(threads[t], NULL);
    int failures = 0;
    for (int i = 0; i < job_count; ++i)
        if (!jobs[i].ok) {
            print_error("%s: %s\n", jobs[i].name, jobs[i].log);
            ++failures;
        }
    print_message("compiled %d kernel files with NVRTC, %d failed\n", job_count, failures);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(compile_all_with_nvrtc)};
    return cmocka_run_group_tests_name("nvrtc", tests, NULL, NULL);
}
