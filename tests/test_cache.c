/* The kernel cache, without a GPU (NVRTC compiles for sm_90 anywhere): miss, memory hit, disk hit,
 * truncated and damaged entries (recompiled and replaced), an unwritable folder, the cache turned
 * off, two threads asking for the same kernel, JIT forbidden, NVRTC missing and NVRTC failing; the
 * render index (a request seen before skips the templates), its damage and its limits. */
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
                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
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

/* The render index: a plan's render request seen before finds its kernel without the templates. */
static fftgen_transform_plan plan_of(int n)
{
    char why[256];
    fftgen_transform_plan plan;
    const fftgen_kernel_request request = {n, 0, FFTGEN_KERNEL_FP32, ARCH, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    return plan;
}

static fftgen_result get_rendered(const fftgen_transform_plan *plan, int directions, const char *templates_dir,
                                  fftgen_cubin *cubin)
{
    const fftgen_render_request request = {plan, FFTGEN_TARGET_CUDA, directions, NULL, templates_dir};
    char why[1024];
    return fftgen_cache_get_rendered(&request, ARCH, 1, cubin, why, sizeof why);
}

/* The render index's files in the cache folder: how many, and the path of one. */
static int index_files(char *path, size_t len)
{
    char command[400];
    snprintf(command, sizeof command, "ls '%s'/*.source 2>/dev/null", cache_dir);
    FILE *listing = popen(command, "r");
    assert_non_null(listing);
    int count = 0;
    char line[4200];
    while (fgets(line, sizeof line, listing) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (count++ == 0 && path != NULL) snprintf(path, len, "%s", line);
    }
    pclose(listing);
    return count;
}

static void remove_index_files(void)
{
    char command[400];
    snprintf(command, sizeof command, "rm -f '%s'/*.source", cache_dir);
    assert_int_equal(system(command), 0);
}

static void render_index_skips_the_templates(void **state)
{
    (void)state;
    remove_index_files();
    fftgen_cache_reset_for_tests();
    /* forward only: no pack holds it, so the cache is what serves it */
    const fftgen_transform_plan plan = plan_of(8);
    fftgen_cubin first, again;
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &first), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 0);
    assert_int_equal(index_files(NULL, 0), 1);
    /* the same process: the index in memory */
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &again), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 1);
    assert_ptr_equal(first.data, again.data);
    void *copy = malloc(first.size);
    memcpy(copy, first.data, first.size);
    const size_t size = first.size;
    /* a new process: the index on disk, then the cubin on disk */
    fftgen_cache_reset_for_tests();
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &again), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 1);
    assert_int_equal(stats_now().disk_hits, 1);
    assert_int_equal(stats_now().compiles, 0);
    assert_int_equal(again.size, size);
    assert_memory_equal(again.data, copy, size);
    free(copy);
    /* another request (the inverse) is not taken for it */
    fftgen_cubin inverse;
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_INVERSE, NULL, &inverse), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 1);
    assert_int_equal(stats_now().compiles, 1);
    assert_int_equal(index_files(NULL, 0), 2);
    assert_true(inverse.size != again.size || memcmp(inverse.data, again.data, size) != 0);
}

static void render_index_damage_is_repaired(void **state)
{
    (void)state;
    remove_index_files();
    fftgen_cache_reset_for_tests();
    const fftgen_transform_plan plan = plan_of(8);
    fftgen_cubin cubin;
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &cubin), FFTGEN_SUCCESS);
    char path[4200];
    assert_int_equal(index_files(path, sizeof path), 1);
    /* a damaged hash: not trusted, rendered again and rewritten */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 20, SEEK_SET), 0);
    assert_int_equal(fputc('x', f), 'x');
    fclose(f);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 0);
    assert_int_equal(stats_now().disk_hits, 1);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 1);
    /* a truncated file likewise */
    assert_int_equal(truncate(path, 20), 0);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 0);
    /* an index whose cubin is gone: rendered and compiled again */
    char command[400];
    snprintf(command, sizeof command, "rm -f '%s'/*.cubin", cache_dir);
    assert_int_equal(system(command), 0);
    fftgen_cache_reset_for_tests();
    assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, NULL, &cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 0);
    assert_int_equal(stats_now().compiles, 1);
}

/* Templates read from a folder may change under the program: never indexed. */
static void render_index_leaves_template_folders_alone(void **state)
{
    (void)state;
    remove_index_files();
    fftgen_cache_reset_for_tests();
    const fftgen_transform_plan plan = plan_of(8);
    fftgen_cubin cubin;
    for (int i = 0; i < 2; ++i)
        assert_int_equal(get_rendered(&plan, FFTGEN_RENDER_FORWARD, FFTGEN_TEMPLATES_DIR, &cubin), FFTGEN_SUCCESS);
    assert_int_equal(stats_now().renders_skipped, 0);
    assert_int_equal(index_files(NULL, 0), 0);
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
        cmocka_unit_test(render_index_skips_the_templates),
        cmocka_unit_test(render_index_damage_is_repaired),
        cmocka_unit_test(render_index_leaves_template_folders_alone),
    };
    const int failed = cmocka_run_group_tests_name("cache", tests, NULL, NULL);
    free(source);
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", cache_dir);
    if (system(command) != 0) return 1;
    return failed;
}
