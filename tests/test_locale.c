/* libfftgen in a program that has set a locale with a decimal comma (de_DE.UTF-8, built here with
 * localedef): the kernel sources are the same text as in the "C" locale (so the default pack serves
 * them, and NVRTC reads their constants), the shipped wisdom table and a user's wisdom file parse, and
 * a written wisdom file has decimal points; the program's own locale is left as it was. No GPU. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache.h"
#include "planner.h"
#include "render.h"
#include "wisdom.h"

extern const char fftgen_shipped_wisdom_data[];
extern const unsigned long long fftgen_shipped_wisdom_size;

static const char COMMA_LOCALE[] = "de_DE.UTF-8";
static char work_dir[256];

static const fftgen_device_key H200 = {"NVIDIA H200", 90, "580.159.04", "0.1.0"};

/* Builds de_DE.UTF-8 into the work folder (localedef, from the Debian package locales, which
 * tools/install-deps.sh installs) and points glibc there. */
static int build_comma_locale(void **state)
{
    (void)state;
    snprintf(work_dir, sizeof work_dir, "/tmp/fftgen_locale_XXXXXX");
    if (mkdtemp(work_dir) == NULL) return -1;
    char command[512];
    snprintf(command, sizeof command, "localedef -i de_DE -f UTF-8 %s/%s 2>&1", work_dir, COMMA_LOCALE);
    const int status = system(command);
    if (status != 0) {
        fprintf(stderr, "test_locale: '%s' failed (status %d): install the Debian package locales\n", command,
                status);
        return -1;
    }
    setenv("LOCPATH", work_dir, 1);
    return 0;
}

static int remove_work_dir(void **state)
{
    (void)state;
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", work_dir);
    return system(command) == 0 ? 0 : -1;
}

/* Sets the comma locale for the whole program, as an application would with setlocale(LC_ALL, ""). */
static void enter_comma_locale(void)
{
    assert_non_null(setlocale(LC_ALL, COMMA_LOCALE));
    char text[16];
    snprintf(text, sizeof text, "%.1f", 0.5);
    assert_string_equal(text, "0,5"); /* the locale this test is about */
}

/* The program's locale is still the comma one after fftgen's calls, then back to "C". */
static void leave_comma_locale(void)
{
    char text[16];
    snprintf(text, sizeof text, "%.1f", 0.5);
    assert_string_equal(text, "0,5");
    assert_non_null(setlocale(LC_ALL, "C"));
}

static char *render(long long n, fftgen_kernel_precision precision, int arch)
{
    char why[256];
    fftgen_transform_plan plan;
    const fftgen_kernel_request request = {n, 0, precision, arch, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (fftgen_plan_transform(&request, &plan, why, sizeof why) != FFTGEN_PLAN_OK) return NULL;
    const fftgen_render_request render_request = {&plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
    return fftgen_render(&render_request, why, sizeof why);
}

/* One-kernel, two-pass and fp16 plans (twiddle tables, butterfly constants, computed twiddles): the
 * same text in both locales, found in the default pack with NVRTC forbidden. */
static void kernels_are_the_same_text(void **state)
{
    (void)state;
    setenv("FFTGEN_CACHE", "0", 1);
    const struct { long long n; fftgen_kernel_precision precision; } plans[] = {
        {4096, FFTGEN_KERNEL_FP32}, {65536, FFTGEN_KERNEL_FP16}, {16384, FFTGEN_KERNEL_FP16}};
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i) {
        char *c_text = render(plans[i].n, plans[i].precision, 90);
        assert_non_null(c_text);
        enter_comma_locale();
        char *comma_text = render(plans[i].n, plans[i].precision, 90);
        assert_non_null(comma_text);
        assert_string_equal(comma_text, c_text);
        fftgen_cubin cubin;
        char log[256];
        assert_int_equal(fftgen_cache_get(comma_text, 90, 0, &cubin, log, sizeof log), FFTGEN_SUCCESS);
        leave_comma_locale();
        free(c_text);
        free(comma_text);
    }
    fftgen_cache_stats stats;
    fftgen_cache_get_stats(&stats);
    assert_int_equal(stats.pack_hits, (int)(sizeof plans / sizeof plans[0]));
    assert_int_equal(stats.compiles, 0);
    unsetenv("FFTGEN_CACHE");
}

static void wisdom_reads_and_writes_decimal_points(void **state)
{
    (void)state;
    char why[256], path[512];
    enter_comma_locale();
    /* the shipped table, whose lines end in ms=0.2831 default-ms=..., and a user's file */
    assert_int_equal(fftgen_wisdom_add_text(fftgen_shipped_wisdom_data, (size_t)fftgen_shipped_wisdom_size, 1, why,
                                            sizeof why),
                     FFTGEN_SUCCESS);
    static const char users[] = "fftgen-wisdom 1\n"
                                "device \"NVIDIA H200\" sm_90 driver 580.159.04 fftgen 0.1.0\n"
                                "fp16 65536 tensor-cores=none max-tile=4 ms=0.5875 default-ms=0.6125\n";
    assert_int_equal(fftgen_wisdom_add_text(users, sizeof users - 1, 0, why, sizeof why), FFTGEN_SUCCESS);
    fftgen_choice choice;
    const long long shape[3] = {65536, 0, 0};
    assert_true(fftgen_wisdom_find(&H200, FFTGEN_KERNEL_FP16, 1, shape, 1LL << 27, &choice));
    assert_int_equal(choice.max_tile.pass[0], 4);

    /* what fftgen tune writes, read back in the "C" locale by the next program */
    snprintf(path, sizeof path, "%s/wisdom.txt", work_dir);
    fftgen_wisdom_entry entry = {FFTGEN_KERNEL_FP16, 1, {4096}, {0}, 0.2875, 0.3, 0};
    assert_int_equal(fftgen_wisdom_write(path, &H200, &entry, 1, why, sizeof why), FFTGEN_SUCCESS);
    leave_comma_locale();
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[1024];
    const size_t length = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[length] = '\0';
    assert_non_null(strstr(text, "fp16 4096 tensor-cores=none max-tile=0 ms=0.2875 default-ms=0.3000\n"));
    fftgen_wisdom_reset_for_tests();
    assert_int_equal(fftgen_wisdom_add_file(path, why, sizeof why), FFTGEN_SUCCESS);
    fftgen_wisdom_reset_for_tests();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_are_the_same_text),
        cmocka_unit_test(wisdom_reads_and_writes_decimal_points),
    };
    return cmocka_run_group_tests(tests, build_comma_locale, remove_work_dir);
}
