/* The kernel cache, without a GPU (NVRTC compiles for sm_90 anywhere): miss, memory hit, disk hit,
 * truncated and damaged entries (recompiled and replaced), an unwritable folder, the cache turned
 * off, two threads asking for the same kernel, JIT forbidden, NVRTC missing and NVRTC failing. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache.h"
#include "planner.h"
#include "render.h"

enum { ARCH = 90 };

static char cache_dir[256];
static char *source; /* a real generated kernel */

static char *render_kernel(int n)
{
    char why[256];
    fftgen_transform_plan plan;
    const fftgen_kernel_request request = {n, 0, FFTGEN_KERNEL_FP32, ARCH, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (fftgen_plan_transform(&request, &plan, why, sizeof why) != FFTGEN_PLAN_OK) return NULL;
    const fftgen_render_request render = {&plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
    return fftgen_render(&render, why, sizeof why);
}

static fftgen_cache_stats stats_now(void)
{
    fftgen_cache_stats s;
    fftgen_cache_get_stats(&s);
    return s;
}

static fftgen_result get(fftgen_cubin *cubin)
{
    char log[1024];
    return fftgen_cache_get(source, ARCH, 1, cubin, log, sizeof log);
}

static void entry_path(char *path, size_t len)
{
    assert_int_equal(fftgen_cache_entry_path(source, ARCH, path, len), 0);
    assert_non_null(strstr(path, cache_dir));
}

/* First: NVRTC is opened on first use, so a missing library must be seen before anything loads it. */
static void nvrtc_missing(void **state)
{
    (void)state;
    setenv("FFTGEN_NVRTC", "/nonexistent/libnvrtc.so.13", 1);
    fftgen_cubin cubin;
    assert_int_equal(get(&cubin), FFTGEN_NVRTC_UNAVAILABLE);
    unsetenv("FFTGEN_NVRTC");
}

static void miss_then_memory_hit(void **state)
{
    (void)state;
    fftgen_cache_reset_for_tests();
    fftgen_cubin first, second;
    assert_int_equal(get(&first), FFTGEN_SUCCESS);
    assert_true(first.size > 1000);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().disk_writes, 1);
    assert_int_equal(get(&second), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().memory_hits, 1);
    assert_ptr_equal(first.data, second.data);
}

static void disk_hit_in_a_new_process(void **state)
{
    (void)state;
    fftgen_cubin cubin;
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    void *copy = malloc(cubin.size);
    memcpy(copy, cubin.data, cubin.size);
    const size_t size = cubin.size;
    fftgen_cache_reset_for_tests(); /* as a second start of the program would see it */
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().disk_hits, 1);
    assert_int_equal(stats_now().compiles, 0);
    assert_int_equal(cubin.size, size);
    assert_memory_equal(cubin.data, copy, size);
    free(copy);
}

/* Damages the disk entry with `damage`, then checks it is rejected, recompiled and replaced. */
static void check_damage_is_repaired(void (*damage)(const char *path))
{
    char path[4200];
    fftgen_cubin cubin;
    fftgen_cache_reset_for_tests();
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS); /* make sure the entry exists */
    entry_path(path, sizeof path);
    damage(path);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().disk_rejects, 1);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().disk_writes, 1);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().disk_hits, 1); /* the replacement is good */
}

static void truncate_entry(const char *path)
{
    assert_int_equal(truncate(path, 100), 0);
}

static void flip_a_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 500, SEEK_SET), 0);
    const int c = fgetc(f);
    assert_int_equal(fseek(f, 500, SEEK_SET), 0);
    fputc(c ^ 0x40, f);
    fclose(f);
}

static void append_garbage(const char *path)
{
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    fputs("trailing garbage", f);
    fclose(f);
}

static void replace_with_text(const char *path)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("not a cubin at all", f);
    fclose(f);
}

static void truncated_entry_is_replaced(void **state) { (void)state; check_damage_is_repaired(truncate_entry); }
static void damaged_entry_is_replaced(void **state) { (void)state; check_damage_is_repaired(flip_a_byte); }
static void overlong_entry_is_replaced(void **state) { (void)state; check_damage_is_repaired(append_garbage); }
static void foreign_file_is_replaced(void **state) { (void)state; check_damage_is_repaired(replace_with_text); }

static void unwritable_folder_still_compiles(void **state)
{
    (void)state;
    char file[300];
    snprintf(file, sizeof file, "%s/a-file", cache_dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    char dir[320];
    snprintf(dir, sizeof dir, "%s/sub", file); /* a folder below a regular file cannot exist */
    setenv("FFTGEN_CACHE_DIR", dir, 1);
    fftgen_cache_reset_for_tests();
    fftgen_cubin cubin;
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().disk_writes, 0);
    setenv("FFTGEN_CACHE_DIR", cache_dir, 1);
    unlink(file);
}

static void cache_turned_off(void **state)
{
    (void)state;
    char path[4200];
    entry_path(path, sizeof path);
    unlink(path);
    setenv("FFTGEN_CACHE", "0", 1);
    fftgen_cache_reset_for_tests();
    fftgen_cubin cubin;
    assert_int_equal(get(&cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().disk_writes, 0);
    assert_int_equal(fftgen_cache_entry_path(source, ARCH, path, sizeof path), -1);
    unsetenv("FFTGEN_CACHE");
    entry_path(path, sizeof path);
    assert_int_equal(access(path, F_OK), -1);
}

static void *plan_in_thread(void *out)
{
    char log[256];
    fftgen_cubin *cubin = out;
    return (void *)(long)fftgen_cache_get(source, ARCH, 1, cubin, log, sizeof log);
}

static void two_threads_compile_once(void **state)
{
    (void)state;
    setenv("FFTGEN_CACHE", "0", 1); /* so that neither finds it on disk */
    fftgen_cache_reset_for_tests();
    pthread_t a, b;
    fftgen_cubin ca, cb;
    void *ra, *rb;
    assert_int_equal(pthread_create(&a, NULL, plan_in_thread, &ca), 0);
    assert_int_equal(pthread_create(&b, NULL, plan_in_thread, &cb), 0);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    unsetenv("FFTGEN_CACHE");
    assert_int_equal((long)ra, FFTGEN_SUCCESS);
    assert_int_equal((long)rb, FFTGEN_SUCCESS);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(stats_now().memory_hits, 1);
    assert_ptr_equal(ca.data, cb.data);
}

static void jit_forbidden(void **state)
{
    (void)state;
    setenv("FFTGEN_CACHE", "0", 1);
    fftgen_cache_reset_for_tests();
    fftgen_cubin cubin;
    char log[64];
    assert_int_equal(fftgen_cache_get(source, ARCH, 0, &cubin, log, sizeof log), FFTGEN_JIT_DISABLED);
    assert_int_equal(stats_now().compiles, 0);
    unsetenv("FFTGEN_CACHE");
}

static void nvrtc_failure_is_reported(void **state)
{
    (void)state;
    fftgen_cubin cubin;
    char log[1024];
    const char *broken = "extern \"C\" __global__ void broken(float* p) { p[0] = undeclared; }\n";
    assert_int_equal(fftgen_cache_get(broken, ARCH, 1, &cubin, log, sizeof log), FFTGEN_NVRTC_FAILED);
    print_message("  NVRTC log: %.120s\n", log);
    assert_non_null(strstr(log, "undeclared"));
}

int main(void)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/fftgen-test-cache-XXXXXX");
    if (mkdtemp(cache_dir) == NULL) return 1;
    setenv("FFTGEN_CACHE_DIR", cache_dir, 1);
    unsetenv("FFTGEN_CACHE");
    source = render_kernel(8); /* outside the default pack (16 to 2^20), so the cache is what serves it */
    if (source == NULL) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvrtc_missing),
        cmocka_unit_test(miss_then_memory_hit),
        cmocka_unit_test(disk_hit_in_a_new_process),
        cmocka_unit_test(truncated_entry_is_replaced),
        cmocka_unit_test(damaged_entry_is_replaced),
        cmocka_unit_test(overlong_entry_is_replaced),
        cmocka_unit_test(foreign_file_is_replaced),
        cmocka_unit_test(unwritable_folder_still_compiles),
        cmocka_unit_test(cache_turned_off),
        cmocka_unit_test(two_threads_compile_once),
        cmocka_unit_test(jit_forbidden),
        cmocka_unit_test(nvrtc_failure_is_reported),
    };
    const int failed = cmocka_run_group_tests_name("cache", tests, NULL, NULL);
    free(source);
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", cache_dir);
    if (system(command) != 0) return 1;
    return failed;
}
