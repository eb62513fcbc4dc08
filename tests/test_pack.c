/* Kernel packs, without a GPU: the default pack built from generated/ serves plans with no NVRTC at
 * all; `fftgen pack` writes packs that load and serve; damaged, foreign, other-version and
 * other-architecture packs are rejected with their own result codes, and every damaged byte of a pack
 * is refused; bad `fftgen pack` input fails;
 * threads that plan at once all find the default pack's kernels. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache.h"
#include "pack.h"
#include "planner.h"
#include "render.h"
#include "threads_at_once.h"
#include "wisdom.h"

extern const char fftgen_shipped_wisdom_data[];
extern const unsigned long long fftgen_shipped_wisdom_size;

static char work_dir[256];

/* computed: the passes that compute their twiddles (fftgen_kernel_request.computed_twiddle_passes);
 * prefetch: transforms a block in turn (fftgen_kernel_request.prefetch) */
static char *render_choice(long long n, int radix, int computed, int prefetch, fftgen_kernel_precision precision,
                           int arch, int tensor_cores)
{
    char why[256];
    fftgen_transform_plan plan;
    const fftgen_kernel_request request = {n, radix, precision, arch, tensor_cores, {{0}}, 0,
                                           FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, computed, prefetch, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (fftgen_plan_transform(&request, &plan, why, sizeof why) != FFTGEN_PLAN_OK) return NULL;
    const fftgen_render_request r = {&plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
    return fftgen_render(&r, why, sizeof why);
}

static char *render(long long n, fftgen_kernel_precision precision, int arch, int tensor_cores)
{
    return render_choice(n, 0, 0, 0, precision, arch, tensor_cores);
}

/* First, before anything loads NVRTC: plans of the default pack need none. */
static int restore_environment(void **state)
{
    (void)state;
    unsetenv("FFTGEN_NVRTC");
    unsetenv("FFTGEN_CACHE");
    return 0;
}

static void default_pack_needs_no_nvrtc(void **state)
{
    (void)state;
    setenv("FFTGEN_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    setenv("FFTGEN_CACHE", "0", 1);
    const struct { long long n; fftgen_kernel_precision p; int arch, radix, computed, prefetch; } plans[] = {
        {16, FFTGEN_KERNEL_FP32, 90, 0, 0, 0}, {4096, FFTGEN_KERNEL_FP32, 90, 0, 0, 0},
        {16384, FFTGEN_KERNEL_FP16, 80, 0, 0, 0}, {65536, FFTGEN_KERNEL_FP16, 90, 0, 0, 0},
        {1 << 20, FFTGEN_KERNEL_FP32, 80, 0, 0, 0},
        /* fp32 2^15: on clusters of 4 blocks on sm_90 (built for sm_90 only), in two passes on sm_80 */
        {32768, FFTGEN_KERNEL_FP32, 90, 0, 0, 0}, {32768, FFTGEN_KERNEL_FP32, 80, 0, 0, 0},
        /* the shipped table's choices: fp16 16384 with radix 32, computed twiddles and 8 transforms a
         * block (the H100's; built for sm_90 only: bulk copies) */
        {16384, FFTGEN_KERNEL_FP16, 90, 32, 1, 8},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i) {
        char *source = render_choice(plans[i].n, plans[i].radix, plans[i].computed, plans[i].prefetch, plans[i].p,
                                     plans[i].arch, 0);
        assert_non_null(source);
        fftgen_cubin cubin;
        char log[256];
        assert_int_equal(fftgen_cache_get(source, plans[i].arch, 0, &cubin, log, sizeof log), FFTGEN_SUCCESS);
        assert_true(cubin.size > 1000);
        free(source);
    }
    fftgen_cache_stats stats;
    fftgen_cache_get_stats(&stats);
    assert_int_equal(stats.pack_hits, 8);
    assert_int_equal(stats.compiles, 0);
    /* a size outside the pack, JIT forbidden and NVRTC missing: a clear refusal */
    char *source = render(1 << 21, FFTGEN_KERNEL_FP32, 90, 0);
    fftgen_cubin cubin;
    char log[64];
    assert_int_equal(fftgen_cache_get(source, 90, 0, &cubin, log, sizeof log), FFTGEN_JIT_DISABLED);
    free(source);
    unsetenv("FFTGEN_NVRTC");
    unsetenv("FFTGEN_CACHE");
}

/* Every 1D plan an sm_90 device of the shipped table makes from 16 to 2^20 points, its measured choice
 * applied (for calls of 2^20 to 2^27 points in all: a line may serve small calls only), is in the default
 * pack: none of them waits for NVRTC on first use. */
static void default_pack_serves_every_shipped_choice(void **state)
{
    (void)state;
    setenv("FFTGEN_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    setenv("FFTGEN_CACHE", "0", 1);
    fftgen_wisdom_load_defaults();
    fftgen_device_key keys[8];
    const int devices = fftgen_wisdom_sections(fftgen_shipped_wisdom_data, (size_t)fftgen_shipped_wisdom_size, keys, 8);
    assert_true(devices >= 2); /* the H100's section and the H200's */
    int chosen = 0, bounded = 0;
    for (int d = 0; d < devices; ++d) {
        if (keys[d].arch != 90) continue;
        for (long long n = 16; n <= (1 << 20); n *= 2) {
            for (int p = 0; p < 2; ++p) {
                const fftgen_kernel_precision precision = p ? FFTGEN_KERNEL_FP16 : FFTGEN_KERNEL_FP32;
                fftgen_choice checked;
                int any_checked = 0, found_large = 0;
                for (long long total = 1LL << 27; total >= (1LL << 20); total /= 2) {
                    fftgen_kernel_request request = {n, 0, precision, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                    fftgen_choice choice;
                    memset(&choice, 0, sizeof choice);
                    const int found = fftgen_wisdom_find(&keys[d], precision, 1, &n, total > n ? total : n, &choice);
                    if (total == (1LL << 27)) found_large = found;
                    if (any_checked && memcmp(&choice, &checked, sizeof choice) == 0) continue;
                    bounded += any_checked;
                    checked = choice;
                    any_checked = 1;
                    if (found) fftgen_choice_apply(&choice, 1, &request);
                    char why[256];
                    fftgen_transform_plan plan;
                    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
                    const fftgen_render_request r = {&plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
                    char *source = fftgen_render(&r, why, sizeof why);
                    assert_non_null(source);
                    fftgen_cubin cubin;
                    char log[256];
                    const fftgen_result in_pack = fftgen_cache_get(source, 90, 0, &cubin, log, sizeof log);
                    if (in_pack != FFTGEN_SUCCESS)
                        print_error("not in the default pack: %s %s %lld points, calls of %lld\n", keys[d].device,
                                    p ? "fp16" : "fp32", n, total);
                    assert_int_equal(in_pack, FFTGEN_SUCCESS);
                    free(source);
                }
                chosen += found_large;
            }
        }
    }
    assert_true(chosen >= 2 * 17); /* every size has a line in the first section */
    assert_true(bounded >= 2);     /* the H200's fp32 32768 for small calls */
}

static int run(const char *command)
{
    const int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Threads that plan at once: each finds the default pack's kernel, however the loading falls among
 * them (a thread that came while another was loading used to miss it, 280 of 320 here, and compile
 * with NVRTC, or fail under FFTGEN_NO_JIT). */
static char *pack_kernel_source;

static int load_and_find_pack_kernel(void)
{
    fftgen_pack_load_defaults();
    fftgen_cubin cubin;
    return fftgen_pack_find(pack_kernel_source, 90, &cubin);
}

static void default_pack_is_there_for_every_thread(void **state)
{
    (void)state;
    pack_kernel_source = render(4096, FFTGEN_KERNEL_FP32, 90, 0);
    assert_non_null(pack_kernel_source);
    const int missed = threads_at_once(8, 40, fftgen_pack_reset_for_tests, load_and_find_pack_kernel);
    free(pack_kernel_source);
    assert_int_equal(missed, 0);
}

static void write_pack(const char *path)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' pack --sizes 64,128 --precision fp32 --arch sm_80,sm_90 -o '%s' 2>/dev/null",
             FFTGEN_EXE, path);
    assert_int_equal(run(command), 0);
}

static void written_pack_loads_and_serves(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/small.fgpack", work_dir);
    write_pack(path);
    fftgen_pack_reset_for_tests();
    assert_int_equal(fftgen_pack_add_file(path, 90), FFTGEN_SUCCESS);
    char *source = render(128, FFTGEN_KERNEL_FP32, 80, 0);
    fftgen_cubin cubin;
    assert_true(fftgen_pack_find(source, 80, &cubin));
    assert_false(fftgen_pack_find(source, 75, &cubin));
    free(source);
    source = render(256, FFTGEN_KERNEL_FP32, 90, 0); /* not in this pack */
    assert_false(fftgen_pack_find(source, 90, &cubin));
    free(source);
    fftgen_pack_reset_for_tests();
}

/* Runs `fftgen pack <arguments> -o <work_dir>/<name>` and makes that pack the only one loaded. */
static void write_and_load_pack(const char *name, const char *arguments)
{
    char path[300], command[1024];
    snprintf(path, sizeof path, "%s/%s", work_dir, name);
    snprintf(command, sizeof command, "'%s' pack %s -o '%s' 2>/dev/null", FFTGEN_EXE, arguments, path);
    assert_int_equal(run(command), 0);
    fftgen_pack_reset_for_tests();
    assert_int_equal(fftgen_pack_add_file(path, 90), FFTGEN_SUCCESS);
}

/* fftgen pack --tensor-cores: the tensor-core kernels, found for plans that ask for them only. */
static void tensor_core_pack_serves_tensor_core_plans(void **state)
{
    (void)state;
    write_and_load_pack("tc.fgpack", "--sizes 256 --tensor-cores --arch sm_80,sm_90");
    fftgen_cubin cubin;
    char *source = render(256, FFTGEN_KERNEL_FP16, 90, 1);
    assert_non_null(source);
    assert_true(fftgen_pack_find(source, 90, &cubin));
    free(source);
    source = render(256, FFTGEN_KERNEL_FP16, 90, 0); /* the CUDA-core kernel is another */
    assert_false(fftgen_pack_find(source, 90, &cubin));
    free(source);
    fftgen_pack_reset_for_tests();
}

/* `fftgen pack --precision split,split-papers` serves the split plans, not the fp32 ones. */
static void split_pack_serves_split_plans(void **state)
{
    (void)state;
    write_and_load_pack("split.fgpack", "--sizes 64 --precision split,split-papers");
    fftgen_cubin cubin;
    const fftgen_kernel_precision served[] = {FFTGEN_KERNEL_SPLIT, FFTGEN_KERNEL_SPLIT_PAPERS, FFTGEN_KERNEL_FP32};
    for (int i = 0; i < 3; ++i) {
        char *source = render(64, served[i], 90, 0);
        assert_non_null(source);
        assert_int_equal(fftgen_pack_find(source, 90, &cubin), i < 2);
        free(source);
    }
    fftgen_pack_reset_for_tests();
}

/* Writes a damaged copy of a good pack and expects `want` when it is loaded. */
static void expect_damage(const char *good, void (*damage)(unsigned char *data, long *size), fftgen_result want,
                          int arch)
{
    FILE *f = fopen(good, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)size);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    if (damage) damage(data, &size);
    char bad[300];
    snprintf(bad, sizeof bad, "%s/bad.fgpack", work_dir);
    f = fopen(bad, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    free(data);
    assert_int_equal(fftgen_pack_add_file(bad, arch), want);
    unlink(bad);
}

static void truncate_pack(unsigned char *data, long *size) { (void)data; *size /= 2; }
static void flip_cubin_byte(unsigned char *data, long *size) { data[*size - 100] ^= 0x10; }
static void other_version(unsigned char *data, long *size) { (void)size; memcpy(data + 16, "9.9.9", 6); }
static void not_a_pack(unsigned char *data, long *size) { memcpy(data, "hello, world", 12); *size = 12; }

static void bad_packs_are_rejected(void **state)
{
    (void)state;
    char path[300], missing[300];
    snprintf(path, sizeof path, "%s/good.fgpack", work_dir);
    snprintf(missing, sizeof missing, "%s/missing.fgpack", work_dir);
    write_pack(path);
    fftgen_pack_reset_for_tests();
    assert_int_equal(fftgen_pack_add_file(missing, 0), FFTGEN_PACK_UNREADABLE);
    expect_damage(path, truncate_pack, FFTGEN_PACK_CORRUPT, 0);
    expect_damage(path, flip_cubin_byte, FFTGEN_PACK_CORRUPT, 0);
    expect_damage(path, not_a_pack, FFTGEN_PACK_CORRUPT, 0);
    expect_damage(path, other_version, FFTGEN_PACK_WRONG_VERSION, 0);
    expect_damage(path, NULL, FFTGEN_PACK_WRONG_ARCH, 75); /* only sm_80 and sm_90 inside */
    expect_damage(path, NULL, FFTGEN_SUCCESS, 90);
    fftgen_pack_reset_for_tests();
}

/* Every byte of a pack's header and descriptors changed in turn, every truncation of them, and bytes
 * spread through its kernels: none loads (the header is checked field by field, the rest by its
 * checksum), and none crashes the loader. */
static void every_damaged_byte_is_refused(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/whole.fgpack", work_dir);
    write_pack(path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *good = malloc((size_t)size), *bad = malloc((size_t)size);
    assert_non_null(good);
    assert_non_null(bad);
    assert_int_equal(fread(good, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    fftgen_pack_reset_for_tests();
    assert_int_equal(fftgen_pack_add(good, (size_t)size, 1, 90), FFTGEN_SUCCESS);
    fftgen_pack_reset_for_tests();
    enum { HEADER_BYTES = 48, DESCRIPTOR_BYTES = 256 };        /* runtime/pack.c's layout */
    const long count = (long)good[12] | (long)good[13] << 8; /* a little-endian u32: a few kernels */
    const long described = HEADER_BYTES + DESCRIPTOR_BYTES * count;
    assert_true(count > 0 && described < size);
    const long spread = (size - described) / 64;
    for (long at = 0; at < size; at += at < described ? 1 : spread) {
        memcpy(bad, good, (size_t)size);
        bad[at] ^= 0x5a;
        if (fftgen_pack_add(bad, (size_t)size, 1, 90) == FFTGEN_SUCCESS) fail_msg("byte %ld changed: loaded", at);
        fftgen_pack_reset_for_tests();
        if (fftgen_pack_add(good, (size_t)at, 1, 90) == FFTGEN_SUCCESS) fail_msg("cut at %ld bytes: loaded", at);
        fftgen_pack_reset_for_tests();
    }
    free(good);
    free(bad);
}

static void pack_command_rejects_bad_input(void **state)
{
    (void)state;
    char command[1024];
    const char *bad[] = {
        "pack --sizes 1000 -o x.fgpack", "pack --sizes 64 --arch sm_70 -o x.fgpack", "pack --sizes 64",
        "pack --sizes 64 --precision fp64 -o x.fgpack", "pack --from /nonexistent -o x.fgpack",
        "pack --sizes 64 --tensor-cores --precision fp32 -o x.fgpack", "pack --sizes 8 --tensor-cores -o x.fgpack",
        "pack --sizes 64 --tensor-cores --arch sm_75 -o x.fgpack", "pack --from . --tensor-cores -o x.fgpack",
        "pack --sizes 64 --precision fp32,fp64 -o x.fgpack", "pack --sizes 64 --precision , -o x.fgpack",
        "pack --sizes 64 --precision split --arch sm_75 -o x.fgpack", "pack --sizes 8 --precision split -o x.fgpack",
        "pack --from many -o x.fgpack", /* more .cu files than one pack holds */
    };
    snprintf(command, sizeof command, "mkdir '%s/many' && cd '%s/many' && for i in $(seq 0 1024); do : > k$i.cu; done",
             work_dir, work_dir);
    assert_int_equal(run(command), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>/dev/null", work_dir, FFTGEN_EXE, bad[i]);
        assert_int_equal(run(command), 2);
        snprintf(command, sizeof command, "%s/x.fgpack", work_dir);
        assert_int_equal(access(command, F_OK), -1);
    }
}

int main(void)
{
    snprintf(work_dir, sizeof work_dir, "/tmp/fftgen-test-pack-XXXXXX");
    if (mkdtemp(work_dir) == NULL) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(default_pack_needs_no_nvrtc, restore_environment),
        cmocka_unit_test_teardown(default_pack_serves_every_shipped_choice, restore_environment),
        cmocka_unit_test(default_pack_is_there_for_every_thread),
        cmocka_unit_test(written_pack_loads_and_serves),
        cmocka_unit_test(tensor_core_pack_serves_tensor_core_plans),
        cmocka_unit_test(split_pack_serves_split_plans),
        cmocka_unit_test(bad_packs_are_rejected),
        cmocka_unit_test(every_damaged_byte_is_refused),
        cmocka_unit_test(pack_command_rejects_bad_input),
    };
    const int failed = cmocka_run_group_tests_name("packs", tests, NULL, NULL);
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", work_dir);
    return failed + (system(command) != 0);
}
