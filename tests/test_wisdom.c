/* Wisdom (runtime/wisdom.h), without a GPU: a user's section is used only on its own device, driver
 * and fftgen version, the shipped table's first section of an architecture for every device of it
 * and a later one for its own device first, the user's first;
 * damaged files (and the shipped table damaged at random) are refused whole and name the line;
 * writing keeps other devices' sections and this device's transforms not measured again, and never
 * overwrites a damaged file; the defaults load
 * once and serve every device of a process, and a thread that plans while another loads them waits for
 * them; the shipped table parses; the planner follows a choice. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "planner.h"
#include "threads_at_once.h"
#include "wisdom.h"

extern const char fftgen_shipped_wisdom_data[];
extern const unsigned long long fftgen_shipped_wisdom_size;

static const fftgen_device_key H100 = {"NVIDIA H100 80GB HBM3", 90, "580.159.04", "0.1.0"};

static const char TWO_DEVICES[] = "fftgen-wisdom 1\n"
                                  "# a comment\n"
                                  "device \"NVIDIA H100 80GB HBM3\" sm_90 driver 580.159.04 fftgen 0.1.0\n"
                                  "fp16 65536 tensor-cores=2 max-tile=8 ms=0.5 default-ms=0.6\n"
                                  "fp32 512x256 tensor-cores=none max-tile=4   # narrower columns\n"
                                  "fp16 134217728 tensor-cores=none max-tile=16,16,8\n"
                                  "\n"
                                  "device \"NVIDIA H200\" sm_90 driver 580.159.04 fftgen 0.1.0\n"
                                  "fp16 65536 tensor-cores=1,2 max-tile=0\n";

static int add(const char *text, int shipped, char *why, size_t len)
{
    return fftgen_wisdom_add_text(text, strlen(text), shipped, why, len);
}

/* A call of 2^27 points in all, as tune and the bench measure: beyond every max-points of the table. */
#define LARGE_CALL (1LL << 27)

static int find(const fftgen_device_key *key, fftgen_kernel_precision precision, int rank, long long a, long long b,
                fftgen_choice *choice)
{
    const long long shape[3] = {a, b, 0};
    return fftgen_wisdom_find(key, precision, rank, shape, LARGE_CALL, choice);
}

static void assert_caps(const fftgen_tile_caps *caps, int first, int second, int third)
{
    assert_int_equal(caps->pass[0], first);
    assert_int_equal(caps->pass[1], second);
    assert_int_equal(caps->pass[2], third);
}

static fftgen_tile_caps caps_of(const char *text)
{
    fftgen_tile_caps caps;
    assert_int_equal(fftgen_tile_caps_parse(text, &caps), 0);
    return caps;
}

static int teardown(void **state)
{
    (void)state;
    fftgen_wisdom_reset_for_tests();
    return 0;
}

static void users_section_is_for_its_device_only(void **state)
{
    (void)state;
    char why[256];
    fftgen_choice choice;
    assert_int_equal(add(TWO_DEVICES, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 65536, 0, &choice));
    assert_int_equal(choice.tensor_cores, 2);
    assert_caps(&choice.max_tile, 8, 8, 8);
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 2, 512, 256, &choice));
    assert_int_equal(choice.tensor_cores, 0);
    assert_caps(&choice.max_tile, 4, 4, 4);
    /* pass by pass, the last value for the passes after it */
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 1LL << 27, 0, &choice));
    assert_caps(&choice.max_tile, 16, 16, 8);
    assert_int_equal(choice.max_tile.pass[FFTGEN_MAX_PASSES - 1], 8);
    assert_false(find(&H100, FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice)); /* not measured */
    assert_false(find(&H100, FFTGEN_KERNEL_FP32, 2, 256, 512, &choice)); /* another shape */
    /* another driver or fftgen version: the section is not this device's */
    fftgen_wisdom_reset_for_tests();
    fftgen_device_key newer = H100;
    snprintf(newer.driver, sizeof newer.driver, "590.1");
    assert_int_equal(add(TWO_DEVICES, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_false(find(&newer, FFTGEN_KERNEL_FP16, 1, 65536, 0, &choice));
}

/* The choice found for fp16 65536 on `key`: tensor-core passes and one tile cap for every pass. */
static void assert_fp16_65536_choice(const fftgen_device_key *key, int tensor_cores, int cap)
{
    fftgen_choice choice;
    assert_true(find(key, FFTGEN_KERNEL_FP16, 1, 65536, 0, &choice));
    assert_int_equal(choice.tensor_cores, tensor_cores);
    assert_caps(&choice.max_tile, cap, cap, cap);
}

static void shipped_table_is_per_architecture_and_comes_second(void **state)
{
    (void)state;
    char why[256];
    fftgen_choice choice;
    /* any sm_90 device takes the architecture's section, the first one (measured on the H100) */
    const fftgen_device_key other = {"NVIDIA GH200", 90, "1.0", "0.1.0"};
    assert_int_equal(add(TWO_DEVICES, 1, why, sizeof why), FFTGEN_SUCCESS);
    assert_fp16_65536_choice(&other, 2, 8);
    const fftgen_device_key ampere = {"NVIDIA A100", 80, "1.0", "0.1.0"};
    assert_false(find(&ampere, FFTGEN_KERNEL_FP16, 1, 65536, 0, &choice));
    /* the user's own wisdom comes first */
    assert_int_equal(add(TWO_DEVICES, 0, why, sizeof why), FFTGEN_SUCCESS);
    const char mine[] = "fftgen-wisdom 1\ndevice \"NVIDIA GH200\" sm_90 driver 1.0 fftgen 0.1.0\n"
                        "fp16 65536 tensor-cores=none max-tile=2\n";
    assert_int_equal(add(mine, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_fp16_65536_choice(&other, 0, 2);
}

/* A later shipped section of the architecture serves only the device it names, ahead of the first
 * section, which still serves that device's other transforms; any driver and fftgen version. */
static void shipped_section_of_a_device_comes_first_there(void **state)
{
    (void)state;
    char why[256];
    fftgen_choice choice;
    const fftgen_device_key h200 = {"NVIDIA H200", 90, "999.1", "0.2.0"};
    assert_int_equal(add(TWO_DEVICES, 1, why, sizeof why), FFTGEN_SUCCESS);
    assert_fp16_65536_choice(&h200, 3, 0);
    assert_true(find(&h200, FFTGEN_KERNEL_FP32, 2, 512, 256, &choice));
    assert_caps(&choice.max_tile, 4, 4, 4);
    /* and the H100, in the same process, is not served by the H200's section */
    assert_fp16_65536_choice(&H100, 2, 8);
    /* nor the H200 by the H100's user section, nor the H100 by the H200's */
    assert_int_equal(add(TWO_DEVICES, 0, why, sizeof why), FFTGEN_SUCCESS);
    const char mine[] = "fftgen-wisdom 1\ndevice \"NVIDIA H200\" sm_90 driver 999.1 fftgen 0.2.0\n"
                        "fp16 65536 tensor-cores=none max-tile=4\n";
    assert_int_equal(add(mine, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_fp16_65536_choice(&h200, 0, 4);
    assert_fp16_65536_choice(&H100, 2, 8);
}

static void damaged_files_are_refused_whole(void **state)
{
    (void)state;
    static const struct {
        const char *text, *reason;
    } cases[] = {
        {"", "empty"},
        {"hello world\n", "line 1: not a wisdom file"},
        {"\x7f" "ELF\x02\x01\n", "line 1: not a wisdom file"},
        {"fftgen-wisdom 2\n", "line 1: wisdom format 2"},
        {"fftgen-wisdom 1\nfp16 64 tensor-cores=none max-tile=0\n", "line 2: an entry before any 'device' line"},
        {"fftgen-wisdom 1\ndevice NVIDIA sm_90 driver 1 fftgen 0.1.0\n", "line 2: a device line"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_91 driver 1 fftgen 0.1.0\n", "line 2: expected: device"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp8 64 tensor-cores=none max-tile=0\n",
         "line 3: 'fp8' is not a precision"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 48 tensor-cores=none max-tile=0\n",
         "line 3: '48' is not a size"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=6 max-tile=0\n",
         "line 3: bad value '6' for tensor-cores"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=1 max-tile=3\n",
         "line 3: bad value '3' for max-tile"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=1 max-tile=16,512\n",
         "line 3: bad value '16,512' for max-tile"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=1 max-tile=8,\n",
         "line 3: bad value '8,' for max-tile"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=1 max-tile=1,2,4,8,16,8\n",
         "line 3: bad value '1,2,4,8,16,8' for max-tile"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 max-tile=0\n",
         "line 3: an entry needs"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 64 tensor-cores=none max-tile=0 max-points=0\n",
         "line 3: bad value '0' for max-points"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 64 tensor-cores=none max-tile=0 max-points=-8\n",
         "line 3: bad value '-8' for max-points"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 64 tensor-cores=none max-tile=0 max-points=1e6\n",
         "line 3: bad value '1e6' for max-points"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 64 tensor-cores=none max-tile=0"
         " max-points=99999999999999999999\n",
         "line 3: bad value '99999999999999999999' for max-points"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 64 tensor-cores=none max-tile=0"
         " max-points=1099511627777\n",
         "line 3: bad value '1099511627777' for max-points"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 32768 tensor-cores=none max-tile=0 cluster=3\n",
         "line 3: bad value '3' for cluster"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 32768 tensor-cores=none max-tile=0 cluster=\n",
         "line 3: bad value '' for cluster"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64 tensor-cores=1 max-tile=0 speed=9\n",
         "line 3: unknown key 'speed'"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64x64 tensor-cores=none max-tile=0 order=up\n",
         "line 3: bad value 'up' for order"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096 tensor-cores=none max-tile=0 order=columns-first\n",
         "line 3: order=columns-first applies to 2D shapes only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096 tensor-cores=none max-tile=0 radix=64\n",
         "line 3: bad value '64' for radix"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 256 tensor-cores=none max-tile=0 block-threads=48\n",
         "line 3: bad value '48' for block-threads"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 256 tensor-cores=none max-tile=0 block-threads=2048\n",
         "line 3: bad value '2048' for block-threads"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64x64 tensor-cores=none max-tile=0 block-threads=64\n",
         "line 3: block-threads= applies to 1D sizes only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 16384 tensor-cores=none max-tile=0 prefetch=3\n",
         "line 3: bad value '3' for prefetch"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096 tensor-cores=none max-tile=0 l2-prefetch=-1\n",
         "line 3: bad value '-1' for l2-prefetch"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096 tensor-cores=none max-tile=0 l2-prefetch=65537\n",
         "line 3: bad value '65537' for l2-prefetch"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64x64 tensor-cores=none max-tile=0 l2-prefetch=0"
         " l2-prefetch-passes=2\n",
         "line 3: l2-prefetch-passes= names passes for an L2 prefetch that l2-prefetch=0 turns off"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64x64 tensor-cores=none max-tile=0"
         " l2-prefetch-passes=9\n",
         "line 3: bad value '9' for l2-prefetch-passes"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 65536 tensor-cores=none max-tile=0 twiddle-powers=0\n",
         "line 3: bad value '0' for twiddle-powers"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 65536 tensor-cores=none max-tile=0 twiddle-powers=1\n",
         "line 3: twiddle-powers= applies to fp16 only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 65536 tensor-cores=none max-tile=0 radix32-passes=0\n",
         "line 3: bad value '0' for radix32-passes"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 64x64x64 tensor-cores=none max-tile=0 column-registers=x\n",
         "line 3: bad value 'x' for column-registers"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 16384 tensor-cores=none max-tile=0 computed-twiddles=0\n",
         "line 3: bad value '0' for computed-twiddles"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 16384 tensor-cores=none max-tile=0 computed-twiddles=1\n",
         "line 3: computed-twiddles= applies to fp16 only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096x4096 tensor-cores=none max-tile=0 split-columns=2\n",
         "line 3: bad value '2' for split-columns"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4096 tensor-cores=none max-tile=0 split-columns=1\n",
         "line 3: split-columns=1 applies to 2D and 3D shapes only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 512x512 tensor-cores=none max-tile=0 column-pairs=0\n",
         "line 3: bad value '0' for column-pairs"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 512x512 tensor-cores=none max-tile=0 column-pairs=2\n",
         "line 3: column-pairs= applies to fp16 only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 2097152 tensor-cores=none max-tile=0 l2-fetch-256=0\n",
         "line 3: bad value '0' for l2-fetch-256"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp32 4194304 tensor-cores=none max-tile=0 row-registers=0\n",
         "line 3: bad value '0' for row-registers"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 4194304 tensor-cores=none max-tile=0 row-registers=2\n",
         "line 3: row-registers= applies to fp32 only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 524288 tensor-cores=none max-tile=0 four-step=1000\n",
         "line 3: bad value '1000' for four-step"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 524288 tensor-cores=none max-tile=0 four-step=1\n",
         "line 3: bad value '1' for four-step"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 512x1024 tensor-cores=none max-tile=0 four-step=512\n",
         "line 3: four-step= applies to 1D sizes and 2D shapes only, with columns shorter than the size (2D: than"
         " dimension 0)"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 8x8x64 tensor-cores=none max-tile=0 four-step=4\n",
         "line 3: four-step= applies to 1D sizes and 2D shapes only"},
        {"fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\nfp16 65536 tensor-cores=none max-tile=0 four-step=65536\n",
         "line 3: four-step= applies to 1D sizes and 2D shapes only"},
        {"fftgen-wisdom 1\nfftgen-wisdom 1\n", "line 2: a second 'fftgen-wisdom' line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char why[256] = "";
        assert_int_equal(add(cases[i].text, 0, why, sizeof why), FFTGEN_WISDOM_CORRUPT);
        if (strncmp(why, cases[i].reason, strlen(cases[i].reason)) != 0)
            print_error("case %zu: got '%s', want '%s...'\n", i, why, cases[i].reason);
        assert_int_equal(strncmp(why, cases[i].reason, strlen(cases[i].reason)), 0);
    }
    /* a good section followed by a bad line: nothing is taken */
    char why[256];
    fftgen_choice choice;
    const char half_good[] = "fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\n"
                             "fp16 64 tensor-cores=1 max-tile=0\nfp16 64 tensor-cores=1 max-tile=0 ms=-1\n";
    const fftgen_device_key x = {"X", 90, "1", "0.1.0"};
    assert_int_equal(add(half_good, 0, why, sizeof why), FFTGEN_WISDOM_CORRUPT);
    assert_false(find(&x, FFTGEN_KERNEL_FP16, 1, 64, 0, &choice));
    /* prefetch= and radix= on a 2D shape (its fused slices) are taken, and reach the planner's request */
    const char slices[] = "fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\n"
                          "fp16 128x128 tensor-cores=none max-tile=0 radix=32 prefetch=4\n";
    assert_int_equal(add(slices, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_true(find(&x, FFTGEN_KERNEL_FP16, 2, 128, 128, &choice));
    assert_int_equal(choice.prefetch, 4);
    assert_int_equal(choice.max_radix, 32);
    fftgen_kernel_request request = {0};
    fftgen_choice_apply(&choice, 2, &request);
    assert_int_equal(request.prefetch, 4);
    assert_int_equal(request.max_radix, 32);
    /* a line too long, and a NUL byte */
    char *long_line = malloc(2000);
    assert_non_null(long_line);
    snprintf(long_line, 2000, "fftgen-wisdom 1\n#%01500d\n", 0);
    assert_int_equal(add(long_line, 0, why, sizeof why), FFTGEN_WISDOM_CORRUPT);
    assert_non_null(strstr(why, "line 2: line longer"));
    free(long_line);
    const char nul[] = "fftgen-wisdom 1\n#\0\n";
    assert_int_equal(fftgen_wisdom_add_text(nul, sizeof nul - 1, 0, why, sizeof why), FFTGEN_WISDOM_CORRUPT);
    assert_int_equal(fftgen_wisdom_add_file("/nonexistent/wisdom.txt", why, sizeof why),
                     FFTGEN_WISDOM_UNREADABLE);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[8192];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void writing_keeps_what_it_does_not_replace(void **state)
{
    (void)state;
    char path[] = "/tmp/fftgen-wisdom-XXXXXX", why[256];
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, TWO_DEVICES, strlen(TWO_DEVICES)), (ssize_t)strlen(TWO_DEVICES));
    close(fd);
    /* measure 65536 fp16 again on the H100, and 4096 fp16 for the first time */
    const fftgen_wisdom_entry entries[] = {
        {FFTGEN_KERNEL_FP16, 1, {65536}, {0, caps_of("4"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.45, 0.6, 0},
        {FFTGEN_KERNEL_FP16, 1, {4096}, {1, caps_of("0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.2, 0.3, 0},
        {FFTGEN_KERNEL_FP16, 1, {1LL << 26}, {0, caps_of("16,8,8,8"), 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1.2, 1.3, 0},
        {FFTGEN_KERNEL_FP32, 1, {32768}, {0, caps_of("0"), 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1.1, 1.2, 0},
        {FFTGEN_KERNEL_FP16, 1, {2048}, {0, caps_of("0"), 0, 0, 32, 0, 64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.29, 0.31, 0},
        {FFTGEN_KERNEL_FP32, 2, {1024, 1024}, {0, caps_of("0"), 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1.08, 1.13, 0},
        {FFTGEN_KERNEL_FP16, 2, {256, 128}, {0, caps_of("0"), 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.5, 0.55, 0},
        {FFTGEN_KERNEL_FP16, 1, {16384}, {0, caps_of("0"), 0, 0, 32, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.37, 0.44, 0},
        {FFTGEN_KERNEL_FP16, 2, {4096, 4096}, {0, caps_of("0,64,0"), 0, 0, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, 0.91, 1.05, 0},
        {FFTGEN_KERNEL_FP16, 1, {1LL << 27}, {0, caps_of("16,16,8"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}, 1.33, 1.54, 0},
        {FFTGEN_KERNEL_FP16, 1, {8192}, {0, caps_of("0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048, 0, 0, 0, 0, 0, 0}, 0.38, 0.39, 0},
        {FFTGEN_KERNEL_FP32, 1, {16}, {0, caps_of("0"), 0, 0, 8, 0, 32, 0, 0, 0, 0, 0, 0, FFTGEN_L2_PREFETCH_OFF, 0, 0, 0, 0, 0, 0}, 0.5, 0.52, 0},
        {FFTGEN_KERNEL_FP16, 2, {512, 512}, {0, caps_of("0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048, 3, 0, 0, 0, 0, 0}, 0.59, 0.6, 0},
        {FFTGEN_KERNEL_FP32, 1, {1LL << 21}, {0, caps_of("0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048, 2, 1, 0, 0, 0, 0}, 1.5, 1.55, 0},
        {FFTGEN_KERNEL_FP32, 1, {1LL << 24}, {0, caps_of("0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}, 1.48, 1.53, 0},
        {FFTGEN_KERNEL_FP16, 1, {524288}, {0, caps_of("8,0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1024, 0}, 0.6, 0.62, 0},
        {FFTGEN_KERNEL_FP16, 2, {8192, 2048}, {0, caps_of("16,0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048, 0}, 0.7, 0.8, 0},
    };
    const int count = (int)(sizeof entries / sizeof entries[0]);
    assert_int_equal(fftgen_wisdom_write(path, &H100, entries, count, why, sizeof why), FFTGEN_SUCCESS);
    const char *text = slurp(path);
    assert_non_null(strstr(text, "fp16 65536 tensor-cores=none max-tile=4 ms=0.4500 default-ms=0.6000"));
    assert_non_null(strstr(text, "fp16 4096 tensor-cores=1 max-tile=0"));
    assert_non_null(strstr(text, "fp16 67108864 tensor-cores=none max-tile=16,8 twiddle-powers=1,3 ms=1.2000"));
    assert_non_null(strstr(text, "fp32 32768 tensor-cores=none max-tile=0 cluster=2 ms=1.1000"));
    assert_non_null(strstr(text, "fp16 2048 tensor-cores=none max-tile=0 radix=32 block-threads=64 computed-twiddles=1"
                                  " ms=0.2900"));
    assert_non_null(
        strstr(text, "fp32 1024x1024 tensor-cores=none max-tile=0 order=columns-first radix32-passes=1,2 ms=1.0800"));
    assert_non_null(strstr(text, "fp16 256x128 tensor-cores=none max-tile=0 column-registers=2 ms=0.5000"));
    assert_non_null(strstr(text, "fp16 16384 tensor-cores=none max-tile=0 radix=32 prefetch=8 computed-twiddles=1"
                                  " ms=0.3700"));
    assert_non_null(strstr(text, "fp16 4096x4096 tensor-cores=none max-tile=0,64,0 split-columns=1 twiddle-powers=3"
                                  " ms=0.9100"));
    assert_non_null(strstr(text, "fp16 134217728 tensor-cores=none max-tile=16,16,8 column-pairs=1,2 ms=1.3300"));
    assert_non_null(strstr(text, "fp16 8192 tensor-cores=none max-tile=0 l2-prefetch=2048 ms=0.3800"));
    assert_non_null(strstr(text, "fp32 16 tensor-cores=none max-tile=0 radix=8 block-threads=32 l2-prefetch=0 ms=0.5000"));
    assert_non_null(strstr(text, "fp16 512x512 tensor-cores=none max-tile=0 l2-prefetch=2048 l2-prefetch-passes=1,2"
                                  " ms=0.5900"));
    assert_non_null(strstr(text, "fp32 2097152 tensor-cores=none max-tile=0 l2-prefetch=2048 l2-prefetch-passes=2"
                                  " l2-fetch-256=1 ms=1.5000"));
    assert_non_null(strstr(text, "fp32 16777216 tensor-cores=none max-tile=0 row-registers=2 ms=1.4800"));
    assert_non_null(strstr(text, "fp16 524288 tensor-cores=none max-tile=8,0 four-step=1024 tma-columns=1 ms=0.6000"));
    assert_non_null(strstr(text, "fp16 8192x2048 tensor-cores=none max-tile=16,0 four-step=2048 ms=0.7000"));
    assert_null(strstr(text, "fp16 65536 tensor-cores=2 max-tile=8"));      /* replaced */
    assert_non_null(strstr(text, "fp32 512x256 tensor-cores=none max-tile=4")); /* kept */
    assert_non_null(strstr(text, "device \"NVIDIA H200\""));
    assert_non_null(strstr(text, "fp16 65536 tensor-cores=1,2 max-tile=0"));
    assert_int_equal(strncmp(text, "fftgen-wisdom 1\n", 16), 0);
    /* writing again changes nothing: the header comment is not repeated */
    char first[8192];
    snprintf(first, sizeof first, "%s", text);
    assert_int_equal(fftgen_wisdom_write(path, &H100, entries, count, why, sizeof why), FFTGEN_SUCCESS);
    assert_string_equal(slurp(path), first);
    /* and it reads back */
    fftgen_choice choice;
    assert_int_equal(fftgen_wisdom_add_file(path, why, sizeof why), FFTGEN_SUCCESS);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 65536, 0, &choice));
    assert_int_equal(choice.tensor_cores, 0);
    assert_caps(&choice.max_tile, 4, 4, 4);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 1LL << 26, 0, &choice));
    assert_caps(&choice.max_tile, 16, 8, 8);
    assert_int_equal(choice.twiddle_powers, 5);
    assert_int_equal(choice.cluster, 0); /* no cluster= word: the planner's default */
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 1, 32768, 0, &choice));
    assert_int_equal(choice.cluster, 2);
    assert_int_equal(choice.four_step_columns, 0); /* no four-step= word: the planner's split */
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 524288, 0, &choice));
    assert_int_equal(choice.four_step_columns, 1024);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 2, 8192, 2048, &choice)); /* a 2D shape's split of dimension 0 */
    assert_int_equal(choice.four_step_columns, 2048);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 2048, 0, &choice));
    assert_int_equal(choice.max_radix, 32);
    assert_int_equal(choice.block_threads, 64);
    assert_int_equal(choice.computed_twiddle_passes, 1);
    assert_int_equal(choice.prefetch, 0);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 16384, 0, &choice));
    assert_int_equal(choice.prefetch, 8);
    assert_int_equal(choice.l2_prefetch_kb, 0); /* no l2-prefetch= word: the planner's distance */
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 8192, 0, &choice));
    assert_int_equal(choice.l2_prefetch_kb, 2048);
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 1, 16, 0, &choice));
    assert_int_equal(choice.l2_prefetch_kb, FFTGEN_L2_PREFETCH_OFF);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 2, 512, 512, &choice));
    assert_int_equal(choice.l2_prefetch_kb, 2048);
    assert_int_equal(choice.l2_prefetch_passes, 3);
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 2, 1024, 1024, &choice));
    assert_int_equal(choice.radix32_passes, 3);
    assert_int_equal(choice.columns_first, 1);
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 1, 1LL << 24, 0, &choice));
    assert_int_equal(choice.row_register_passes, 2);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 2, 256, 128, &choice));
    assert_int_equal(choice.column_register_passes, 2);
    assert_int_equal(choice.split_columns, 0);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 2, 4096, 4096, &choice));
    assert_int_equal(choice.split_columns, 1);
    assert_int_equal(choice.twiddle_powers, 4);
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 2, 512, 256, &choice));
    /* a damaged file is left as it was */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not wisdom\n", f);
    fclose(f);
    assert_int_equal(fftgen_wisdom_write(path, &H100, entries, 2, why, sizeof why), FFTGEN_WISDOM_CORRUPT);
    assert_non_null(strstr(why, "left as it is"));
    assert_string_equal(slurp(path), "not wisdom\n");
    unlink(path);
    /* a new file */
    assert_int_equal(fftgen_wisdom_write(path, &H100, entries, 1, why, sizeof why), FFTGEN_SUCCESS);
    assert_non_null(strstr(slurp(path), "device \"NVIDIA H100 80GB HBM3\" sm_90 driver 580.159.04 fftgen 0.1.0\n"));
    unlink(path);
    /* a device holds no sections to keep, is written through and stays a device (`tune -o /dev/null`) */
    assert_int_equal(fftgen_wisdom_write("/dev/null", &H100, entries, 1, why, sizeof why), FFTGEN_SUCCESS);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

/* Lines for small calls (max-points=): a call takes its section's line of the smallest bound at or above
 * its points in all, else the section's line for every call; sections keep their order of precedence
 * (a user's line for every call comes before a shipped line for small calls); tune writes and keeps them
 * apart from the line for every call. */
static void lines_for_small_calls(void **state)
{
    (void)state;
    char why[256], path[] = "/tmp/fftgen-wisdom-XXXXXX";
    const fftgen_device_key x = {"X", 90, "1", "0.1.0"}, y = {"Y", 90, "1", "0.1.0"};
    const char shipped[] = "fftgen-wisdom 1\n"
                           "device \"X\" sm_90 driver 1 fftgen 0.1.0\n"
                           "fp32 256x256 tensor-cores=none max-tile=0 cluster=8\n"
                           "fp32 32768 tensor-cores=none max-tile=0 cluster=4\n"
                           "device \"Y\" sm_90 driver 1 fftgen 0.1.0\n"
                           "fp32 32768 tensor-cores=none max-tile=0 cluster=2 max-points=4194304\n"
                           "fp32 32768 tensor-cores=none max-tile=0 cluster=8\n"
                           "fp32 32768 tensor-cores=none max-tile=0 cluster=1 max-points=1048576\n"
                           "fp32 256x256 tensor-cores=none max-tile=0 cluster=1 max-points=2097152\n";
    assert_int_equal(add(shipped, 1, why, sizeof why), FFTGEN_SUCCESS);
    const long long n32768[1] = {32768}, square[2] = {256, 256};
    static const struct {
        long long points;
        int cluster;
    } calls[] = {{32768, 1}, {1 << 20, 1}, {(1 << 20) + 1, 2}, {1 << 22, 2}, {(1 << 22) + 1, 8}, {1LL << 27, 8}};
    fftgen_choice choice;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i) {
        assert_true(fftgen_wisdom_find(&y, FFTGEN_KERNEL_FP32, 1, n32768, calls[i].points, &choice));
        assert_int_equal(choice.cluster, calls[i].cluster);
        /* the first section of the architecture has no line for small calls */
        assert_true(fftgen_wisdom_find(&x, FFTGEN_KERNEL_FP32, 1, n32768, calls[i].points, &choice));
        assert_int_equal(choice.cluster, 4);
    }
    /* Y's own section has a line for small calls of 256x256 only: larger calls take the architecture's */
    assert_true(fftgen_wisdom_find(&y, FFTGEN_KERNEL_FP32, 2, square, 1 << 21, &choice));
    assert_int_equal(choice.cluster, 1);
    assert_true(fftgen_wisdom_find(&y, FFTGEN_KERNEL_FP32, 2, square, 1 << 22, &choice));
    assert_int_equal(choice.cluster, 8);
    /* the user's line for every call comes first, even for small calls */
    const char users[] = "fftgen-wisdom 1\ndevice \"Y\" sm_90 driver 1 fftgen 0.1.0\n"
                         "fp32 256x256 tensor-cores=none max-tile=0 cluster=4\n";
    assert_int_equal(add(users, 0, why, sizeof why), FFTGEN_SUCCESS);
    assert_true(fftgen_wisdom_find(&y, FFTGEN_KERNEL_FP32, 2, square, 1 << 20, &choice));
    assert_int_equal(choice.cluster, 4);

    /* tune's lines: a line for small calls keeps the line for every call of the same shape, and the
     * other way round; written again, each replaces its own */
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* a new file: an empty one is not wisdom */
    fftgen_wisdom_entry small = {FFTGEN_KERNEL_FP32, 1, {32768}, {0}, 0.017, 0.02, 1 << 20};
    small.choice.cluster = 1;
    fftgen_wisdom_entry every = {FFTGEN_KERNEL_FP32, 1, {32768}, {0}, 0.9, 0.9, 0};
    every.choice.cluster = 4;
    assert_int_equal(fftgen_wisdom_write(path, &x, &small, 1, why, sizeof why), FFTGEN_SUCCESS);
    assert_int_equal(fftgen_wisdom_write(path, &x, &every, 1, why, sizeof why), FFTGEN_SUCCESS);
    small.choice.cluster = 2;
    assert_int_equal(fftgen_wisdom_write(path, &x, &small, 1, why, sizeof why), FFTGEN_SUCCESS);
    const char *text = slurp(path);
    assert_non_null(strstr(text, "fp32 32768 tensor-cores=none max-tile=0 cluster=2 max-points=1048576 ms=0.0170"
                                 " default-ms=0.0200\n"));
    assert_non_null(strstr(text, "fp32 32768 tensor-cores=none max-tile=0 cluster=4 ms=0.9000"));
    assert_null(strstr(text, "cluster=1"));
    fftgen_wisdom_reset_for_tests();
    assert_int_equal(fftgen_wisdom_add_file(path, why, sizeof why), FFTGEN_SUCCESS);
    assert_true(fftgen_wisdom_find(&x, FFTGEN_KERNEL_FP32, 1, n32768, 1 << 19, &choice));
    assert_int_equal(choice.cluster, 2);
    assert_true(fftgen_wisdom_find(&x, FFTGEN_KERNEL_FP32, 1, n32768, 1 << 21, &choice));
    assert_int_equal(choice.cluster, 4);
    unlink(path);
}

static void default_path_follows_the_environment(void **state)
{
    (void)state;
    char path[4096];
    setenv("FFTGEN_WISDOM", "/somewhere/wisdom.txt", 1);
    assert_int_equal(fftgen_wisdom_default_path(path, sizeof path), 0);
    assert_string_equal(path, "/somewhere/wisdom.txt");
    setenv("FFTGEN_WISDOM", "0", 1);
    assert_int_equal(fftgen_wisdom_default_path(path, sizeof path), -1);
    unsetenv("FFTGEN_WISDOM");
    setenv("FFTGEN_CACHE_DIR", "/tmp/fftgen-wisdom-test-cache", 1);
    assert_int_equal(fftgen_wisdom_default_path(path, sizeof path), 0);
    assert_string_equal(path, "/tmp/fftgen-wisdom-test-cache/wisdom.txt");
    rmdir("/tmp/fftgen-wisdom-test-cache");
    unsetenv("FFTGEN_CACHE_DIR");
}

/* What the library loads at its first plan: the shipped table, then the user's file ($FFTGEN_WISDOM),
 * once; each device of the process is then served by its own sections. */
static void defaults_load_once_and_serve_each_device(void **state)
{
    (void)state;
    char path[] = "/tmp/fftgen-wisdom-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char mine[] = "fftgen-wisdom 1\ndevice \"NVIDIA H100 80GB HBM3\" sm_90 driver 580.159.04 fftgen 0.1.0\n"
                        "fp32 65536 tensor-cores=none max-tile=2\n";
    assert_int_equal(write(fd, mine, strlen(mine)), (ssize_t)strlen(mine));
    close(fd);
    setenv("FFTGEN_WISDOM", path, 1);
    fftgen_wisdom_load_defaults();
    fftgen_choice choice;
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice)); /* the user's */
    assert_caps(&choice.max_tile, 2, 2, 2);
    const fftgen_device_key h200 = {"NVIDIA H200", 90, "580.159.04", "0.1.0"};
    assert_true(find(&h200, FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice)); /* the H200's shipped line */
    assert_int_equal(choice.cluster, 1);
    assert_true(find(&H100, FFTGEN_KERNEL_FP16, 1, 16384, 0, &choice)); /* the H100's shipped line */
    assert_int_equal(choice.max_radix, 32);
    /* once per process: a later change of the file is not read */
    unlink(path);
    fftgen_wisdom_load_defaults();
    assert_true(find(&H100, FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice));
    assert_caps(&choice.max_tile, 2, 2, 2);
    unsetenv("FFTGEN_WISDOM");
}

/* Threads that plan at once: each finds the shipped choices, however the loading falls among them (a
 * thread that came while another was loading used to go on without them: 206 of 320 here). */
static int load_and_find_h200_choice(void)
{
    fftgen_wisdom_load_defaults();
    const fftgen_device_key h200 = {"NVIDIA H200", 90, "580.159.04", "0.1.0"};
    fftgen_choice choice;
    return find(&h200, FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice) && choice.cluster == 1;
}

static void defaults_are_there_for_every_thread(void **state)
{
    (void)state;
    setenv("FFTGEN_WISDOM", "0", 1);
    const int missed = threads_at_once(8, 40, fftgen_wisdom_reset_for_tests, load_and_find_h200_choice);
    unsetenv("FFTGEN_WISDOM");
    assert_int_equal(missed, 0);
}

/* The table shipped in the library is valid wisdom, and its choices are ones the planner can make. */
static void shipped_table_parses_and_plans(void **state)
{
    (void)state;
    char why[256];
    /* every sm_90 device, and the H200, whose own section comes first */
    static const fftgen_device_key devices[] = {{"any", 90, "1", "0.1.0"}, {"NVIDIA H200", 90, "1", "0.1.0"}};
    /* every 1D size, then the shapes fftgen tune measures by default */
    long long shapes[32 + 9][3] = {{256, 256}, {512, 512}, {1024, 1024}, {4096, 4096}, {8192, 8192}, {64, 64, 64},
                                   {128, 128, 128}, {256, 256, 256}, {512, 512, 512}};
    int count = 9;
    for (long long n = 16; n <= (1LL << 27); n *= 2) shapes[count++][0] = n;
    assert_int_equal(fftgen_wisdom_add_text(fftgen_shipped_wisdom_data, (size_t)fftgen_shipped_wisdom_size, 1, why,
                                            sizeof why),
                     FFTGEN_SUCCESS);
    for (size_t d = 0; d < sizeof devices / sizeof devices[0]; ++d)
        for (int p = 0; p < 2; ++p)
            for (int s = 0; s < count; ++s)
                for (long long call = 1LL << 20; call <= LARGE_CALL; call *= 2) { /* lines for small calls too */
                    const fftgen_kernel_precision precision = p ? FFTGEN_KERNEL_FP16 : FFTGEN_KERNEL_FP32;
                    const int rank = shapes[s][2] != 0 ? 3 : shapes[s][1] != 0 ? 2 : 1;
                    long long points = 1;
                    for (int i = 0; i < rank; ++i) points *= shapes[s][i];
                    fftgen_choice choice;
                    if (!fftgen_wisdom_find(&devices[d], precision, rank, shapes[s], call > points ? call : points,
                                            &choice))
                        continue;
                    fftgen_kernel_request request = {points, 0, precision, 90, 0, {{0}}, 0,
                                                     FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0, 0};
                    fftgen_choice_apply(&choice, rank, &request); /* as libfftgen does */
                    const fftgen_user_layout dense = {1, points, {0}};
                    fftgen_transform_plan plan;
                    assert_int_equal(
                        fftgen_plan_shape(&request, rank, shapes[s], dense, dense, &plan, why, sizeof why),
                        FFTGEN_PLAN_OK);
                    /* (the one kernel, the rows, or the fused slice: second after a four-step split's columns) */
                    const int radix_pass = rank == 2 && plan.four_step_columns != 0 ? 1 : 0;
                    if (choice.max_radix != 0) assert_int_equal(plan.pass[radix_pass].radix_max, choice.max_radix);
                    for (int i = 0; i < plan.pass_count; ++i)
                        if (choice.radix32_passes >> i & 1) assert_int_equal(plan.pass[i].radix_max, 32);
                    for (int i = 0; i < plan.pass_count; ++i)
                        assert_int_equal(plan.pass[i].computed_twiddles, choice.computed_twiddle_passes >> i & 1);
                    if (choice.block_threads != 0 && plan.pass[0].ffts_per_block > 1)
                        assert_true(plan.pass[0].threads <= choice.block_threads);
                    /* a prefetch on the one kernel or fused slice, or on the passes of a 1D size of two that
                     * read fp16 rows in runs */
                    int prefetched = 0;
                    for (int i = 0; i < plan.pass_count; ++i)
                        if (plan.pass[i].prefetch != 0) {
                            assert_int_equal(plan.pass[i].prefetch, choice.prefetch);
                            prefetched = 1;
                        }
                    assert_int_equal(prefetched, choice.prefetch != 0);
                }
    /* fp16 16384 takes radix 32, computed twiddles and a prefetch on sm_90: 8 transforms a block
     * (tune, H100: 0.5014 -> 0.4019 ms), 64 on the H200 (0.4828 -> 0.3389) */
    fftgen_choice choice;
    assert_true(find(&devices[1], FFTGEN_KERNEL_FP16, 1, 16384, 0, &choice));
    assert_int_equal(choice.max_radix, 32);
    char text[160];
    fftgen_choice_text(&choice, text, sizeof text);
    assert_string_equal(text, "tensor-cores=none max-tile=0 radix=32 prefetch=64 computed-twiddles=1");
    assert_true(find(&devices[0], FFTGEN_KERNEL_FP16, 1, 16384, 0, &choice));
    assert_int_equal(choice.prefetch, 8);
    /* fp32 65536 on the H200: two passes, not the planner's cluster (1.2407 -> 1.0418 ms there) */
    assert_true(find(&devices[1], FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice));
    assert_int_equal(choice.cluster, 1);
    assert_true(find(&devices[0], FFTGEN_KERNEL_FP32, 1, 65536, 0, &choice));
    assert_int_equal(choice.cluster, 0);
    /* fp16 4096x4096 on the H200: two passes, dimension 0 split four-step as 1024 then slices of 4 rows
     * (0.84 -> 0.74 ms), not on a cluster */
    assert_true(find(&devices[1], FFTGEN_KERNEL_FP16, 2, 4096, 4096, &choice));
    assert_int_equal(choice.four_step_columns, 1024);
    assert_int_equal(choice.split_columns, 0);
    assert_true(find(&devices[0], FFTGEN_KERNEL_FP16, 2, 4096, 4096, &choice));
    assert_int_equal(choice.split_columns, 0);
    assert_int_equal(choice.four_step_columns, 0);
    /* fp32 4096x4096 on the H200 too, as 1024 then slices of 4 rows (1.25 -> 1.16 ms) */
    assert_true(find(&devices[1], FFTGEN_KERNEL_FP32, 2, 4096, 4096, &choice));
    assert_int_equal(choice.four_step_columns, 1024);
}

/* The plan of a dense shape (stride 1, no embeds). */
static fftgen_plan_status plan_dense(const fftgen_kernel_request *request, int rank, const long long *shape,
                                     fftgen_transform_plan *plan, char *why, size_t why_len)
{
    long long points = 1;
    for (int d = 0; d < rank; ++d) points *= shape[d];
    const fftgen_user_layout dense = {1, points, {0}};
    return fftgen_plan_shape(request, rank, shape, dense, dense, plan, why, why_len);
}

/* fp16 one-kernel transforms always take twiddles from powers of two; tiled passes where the choice
 * names them; fp32 never */
/* The shipped table with random damage (bytes changed, cut, deleted, repeated, and words of the format
 * put anywhere), a seed that repeats: each text is taken whole or refused whole with a reason that
 * names its line, and taking or refusing one never crashes. */
static size_t damage_text(char *text, size_t size, size_t capacity, unsigned *seed)
{
    static const char *const words[] = {"max-points=", "99999999999999999999", "-1", "cluster=", "fp32 ", "fp16 ", "x",
                                        "device \"", "\n", "sm_", "=", ",,", "1,2,3,4,5,6,7,8,9", "0", "\"", " ",
                                        "max-tile=", "4096x4096x4096x2", "ms=nan", "1e999", "tensor-cores=", "radix=",
                                        "#", "fftgen-wisdom 1\n", "split-papers", "\t", "block-threads=0", "\r\n"};
    const size_t at = size ? (size_t)rand_r(seed) % size : 0;
    size_t length = (size_t)rand_r(seed) % 200;
    switch (rand_r(seed) % 5) {
    case 0: /* a byte changed */
        if (size) text[at] = (char)(rand_r(seed) % 256);
        return size;
    case 1: /* cut */
        return at;
    case 2: { /* a word of the format put in */
        const char *word = words[(size_t)rand_r(seed) % (sizeof words / sizeof words[0])];
        length = strlen(word);
        if (size + length > capacity) return size;
        memmove(text + at + length, text + at, size - at);
        memcpy(text + at, word, length);
        return size + length;
    }
    case 3: /* bytes deleted */
        if (length > size - at) length = size - at;
        memmove(text + at, text + at + length, size - at - length);
        return size - length;
    default: /* bytes repeated */
        if (length > size - at || size + length > capacity) return size;
        memmove(text + at + length, text + at, size - at);
        return size + length;
    }
}

static void damaged_tables_are_taken_or_refused_whole(void **state)
{
    (void)state;
    const size_t size = (size_t)fftgen_shipped_wisdom_size, capacity = size + 4096;
    char *text = malloc(capacity), why[512];
    assert_non_null(text);
    static const fftgen_device_key devices[] = {{"any", 90, "1", "0.1.0"}, {"NVIDIA H200", 90, "1", "0.1.0"}};
    const long long shapes[][3] = {{1024, 0, 0}, {65536, 0, 0}, {4096, 4096, 0}, {256, 256, 256}};
    unsigned seed = 2026;
    int taken = 0, refused = 0;
    for (int i = 0; i < 1000; ++i) {
        memcpy(text, fftgen_shipped_wisdom_data, size);
        size_t damaged = size;
        for (int edits = 1 + i % 4; edits > 0; --edits) damaged = damage_text(text, damaged, capacity, &seed);
        why[0] = '\0';
        const fftgen_result result = fftgen_wisdom_add_text(text, damaged, i % 2, why, sizeof why);
        if (result != FFTGEN_SUCCESS && result != FFTGEN_WISDOM_CORRUPT) fail_msg("text %d: result %d", i, (int)result);
        if (result == FFTGEN_WISDOM_CORRUPT && strncmp(why, "line ", 5) != 0 && strncmp(why, "empty", 5) != 0)
            fail_msg("text %d refused without its line: '%s'", i, why);
        for (size_t d = 0; d < sizeof devices / sizeof devices[0]; ++d)
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
                const int rank = shapes[k][2] ? 3 : shapes[k][1] ? 2 : 1;
                fftgen_choice choice;
                const int found = fftgen_wisdom_find(&devices[d], FFTGEN_KERNEL_FP16, rank, shapes[k], 1LL << 22, &choice);
                if (result != FFTGEN_SUCCESS && found) fail_msg("text %d was refused, but a line of it is served", i);
            }
        result == FFTGEN_SUCCESS ? ++taken : ++refused;
        fftgen_wisdom_reset_for_tests();
    }
    /* both outcomes, often: the damage is neither always harmless nor always fatal */
    assert_true(taken > 100);
    assert_true(refused > 100);
    free(text);
}

static void planner_places_twiddle_powers(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        int rank;
        long long shape[3];
        fftgen_kernel_precision precision;
        int mask, want_passes, want; /* want: the passes' twiddle_powers as a mask */
    } cases[] = {
        {1, {4096}, FFTGEN_KERNEL_FP16, 0, 1, 1},         {1, {4096}, FFTGEN_KERNEL_FP32, 0, 1, 0},
        {1, {1 << 22}, FFTGEN_KERNEL_FP16, 0, 2, 0},      {1, {1 << 22}, FFTGEN_KERNEL_FP16, 1, 2, 1},
        {1, {1 << 22}, FFTGEN_KERNEL_FP16, FFTGEN_EVERY_PASS, 2, 3}, {1, {1 << 27}, FFTGEN_KERNEL_FP16, 4, 3, 4},
        {2, {1024, 1024}, FFTGEN_KERNEL_FP16, 0, 2, 1},   {2, {1024, 1024}, FFTGEN_KERNEL_FP16, 2, 2, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, cases[i].precision, 90, 0, {{0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, cases[i].mask, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(plan_dense(&request, cases[i].rank, cases[i].shape, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, cases[i].want_passes);
        int got = 0;
        for (int p = 0; p < plan.pass_count; ++p) got |= plan.pass[p].twiddle_powers << p;
        assert_int_equal(got, cases[i].want);
    }
    /* fp16 only, and passes the plan has */
    const long long n = 1 << 22;
    const fftgen_user_layout dense = {1, n, {0}};
    fftgen_kernel_request fp32 = {0, 0, FFTGEN_KERNEL_FP32, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT, 0, 1, 0, 0,
                                  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&fp32, 1, &n, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "fp16"));
    fftgen_kernel_request third = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT, 0, 4, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&third, 1, &n, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "pass 3 named, but the plan has 2 passes"));
}

/* A choice the dense plan cannot take: refused, with a message that says why. */
static void expect_choice_refused(const fftgen_kernel_request *request, int rank, const long long *shape,
                                  const char *expected)
{
    char why[256];
    fftgen_transform_plan plan;
    assert_int_equal(plan_dense(request, rank, shape, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, expected));
}

/* Radix-32 tiled passes with tiles under 16 pad shared memory every 32 points (their first stage's
 * stores would share bank pairs four to a pair with a pad every 16), except fp32 rows copied in runs;
 * every other pass pads every 16, and shared memory is sized for that */
static void planner_pads_radix32_tiles_every_32(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const long long n = 1 << 20;
    const struct {
        fftgen_kernel_precision precision;
        int tile1, radix32, want1, want2; /* pass 1's tile cap (0: the planner's), the radix-32 passes */
    } cases[] = {
        {FFTGEN_KERNEL_FP16, 8, 1, 32, 16},  /* the H100's line: pass 1 of tiles of 8 at radix 32 */
        {FFTGEN_KERNEL_FP16, 8, 3, 32, 32},  /* pass 2 reads fp16 runs straight into registers */
        {FFTGEN_KERNEL_FP16, 16, 1, 16, 16}, /* tiles of 16: a warp's two butterflies, no conflict */
        {FFTGEN_KERNEL_FP16, 8, 0, 16, 16},  /* radix 16: the pad every 16 spreads its stores */
        {FFTGEN_KERNEL_FP32, 4, 2, 16, 16},  /* fp32 rows in runs of 4 copy through shared memory */
        {FFTGEN_KERNEL_FP32, 4, 1, 32, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, cases[i].precision, 90, 0, {{cases[i].tile1, 0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, cases[i].radix32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(plan_dense(&request, 1, &n, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, 2);
        assert_int_equal(fftgen_smem_pad_every(&plan.pass[0]), cases[i].want1);
        assert_int_equal(fftgen_smem_pad_every(&plan.pass[1]), cases[i].want2);
        for (int p = 0; p < 2; ++p) {
            const fftgen_kernel_plan *pass = &plan.pass[p];
            const int points = pass->ffts_per_block * pass->n;
            const int wide = fftgen_reads_runs_across_lanes(pass) ? points / 256 : 0; /* padded_wide */
            assert_int_equal(pass->smem_points, points + points / 16 + wide);
        }
    }
}

/* fp16 rows in runs of 16, in tiles of 16 (pass 2 of 2^16 = 256 x 256), load with the lanes along the
 * runs, and shared memory has room for the first exchange's extra pad every 256; tiles of 8, fp32 and
 * tensor cores keep the transform-fastest lanes, and such rows take no copies ahead (--prefetch) */
static void planner_reads_runs_across_lanes(void **state)
{
    (void)state;
    char why[256];
    const struct {
        long long n;
        fftgen_kernel_precision precision;
        int tile2, tensor_cores, want; /* pass 2's tile cap (0: the planner's), bits of tensor-core passes */
    } cases[] = {
        {1 << 16, FFTGEN_KERNEL_FP16, 0, 0, 1}, /* 256 x 256, both in tiles of 16 */
        {1 << 15, FFTGEN_KERNEL_FP16, 0, 0, 1}, /* 128 x 256 */
        {1 << 16, FFTGEN_KERNEL_FP16, 8, 0, 0}, /* pass 2 in tiles of 8 */
        {1 << 16, FFTGEN_KERNEL_FP16, 0, 2, 0}, /* pass 2 on tensor cores */
        {1 << 17, FFTGEN_KERNEL_FP32, 0, 0, 0}, /* fp32 rows copy their runs through shared memory */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, cases[i].precision, 90, cases[i].tensor_cores,
                                               {{0, cases[i].tile2}}, 1, FFTGEN_INTERMEDIATE_DEFAULT,
                                               0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        fftgen_transform_plan plan;
        assert_int_equal(plan_dense(&request, 1, &cases[i].n, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, 2);
        assert_false(fftgen_reads_runs_across_lanes(&plan.pass[0]));
        const fftgen_kernel_plan *rows = &plan.pass[1];
        assert_int_equal(fftgen_reads_runs_across_lanes(rows), cases[i].want);
        if (cases[i].want) {
            const int points = rows->ffts_per_block * rows->n;
            assert_int_equal(rows->in.run_points, 16);
            assert_true(fftgen_loads_to_registers(rows));
            assert_int_equal(rows->smem_points, points + points / 16 + points / 256);
            assert_int_equal(rows->shared_bytes, 8 * rows->smem_points);
        }
    }
    fftgen_kernel_request ahead = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0, 0}}, 1, FFTGEN_INTERMEDIATE_DEFAULT,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    ahead.prefetch = 4;
    fftgen_transform_plan plan;
    const long long n = 1 << 16;
    assert_int_equal(plan_dense(&ahead, 1, &n, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "prefetch 4"));
}

/* Tiled passes hold 32 points a thread where the choice names them (every tiled pass for
 * FFTGEN_EVERY_PASS); a named pass that cannot is an error */
static void planner_places_radix32_passes(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        int rank;
        long long shape[3];
        fftgen_kernel_precision precision;
        int mask, columns_first, want; /* want: the passes of radix 32, as a mask */
    } cases[] = {
        {1, {1 << 20}, FFTGEN_KERNEL_FP32, 3, 0, 3},     {1, {1 << 20}, FFTGEN_KERNEL_FP16, 2, 0, 2},
        {1, {1 << 20}, FFTGEN_KERNEL_FP16, 0, 0, 0},     {2, {1024, 1024}, FFTGEN_KERNEL_FP32, 2, 0, 2},
        {2, {1024, 1024}, FFTGEN_KERNEL_FP32, FFTGEN_EVERY_PASS, 0, 2}, /* the rows are one kernel */
        {2, {1024, 1024}, FFTGEN_KERNEL_FP32, 3, 1, 3},  {3, {64, 64, 64}, FFTGEN_KERNEL_FP16, 2, 0, 2},
        {1, {1 << 25}, FFTGEN_KERNEL_FP32, 1, 0, 1}, /* the columns on a cluster: 2048 points a block */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, cases[i].precision, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                               cases[i].columns_first, 0, 0, cases[i].mask, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(plan_dense(&request, cases[i].rank, cases[i].shape, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        int got = 0;
        for (int p = 0; p < plan.pass_count; ++p) {
            got |= (plan.pass[p].radix_max == 32) << p;
            if (plan.pass[p].radix_max == 32) assert_int_equal(plan.pass[p].threads_per_fft, plan.pass[p].n / 32);
        }
        assert_int_equal(got, cases[i].want);
    }
    const struct {
        int rank;
        long long shape[2];
        fftgen_kernel_precision precision;
        int mask;
        const char *why;
    } errors[] = {
        {2, {1024, 1024}, FFTGEN_KERNEL_FP32, 1, "pass 1 is not a tiled pass"},
        {1, {1 << 20}, FFTGEN_KERNEL_FP16, 4, "pass 3 named, but the plan has 2 passes"},
        {1, {1 << 20}, FFTGEN_KERNEL_SPLIT, 1, "radix-32 passes do not apply"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, errors[i].precision, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                               0, 0, 0, errors[i].mask, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        expect_choice_refused(&request, errors[i].rank, errors[i].shape, errors[i].why);
    }
}

/* Short columns load straight into registers in the passes the choice names (every pass that copies
 * them for FFTGEN_EVERY_PASS); a named pass that has none to copy is an error */
static void planner_places_column_registers(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        int rank;
        long long shape[3];
        int mask, want; /* want: the passes that load straight, as a mask */
    } cases[] = {
        {3, {256, 256, 256}, 0, 0},
        {3, {256, 256, 256}, 6, 6},
        {3, {256, 256, 256}, 4, 4},
        {2, {256, 128}, FFTGEN_EVERY_PASS, 2},
        {3, {64, 64, 64}, 2, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                               0, 0, 0, 0, cases[i].mask, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(plan_dense(&request, cases[i].rank, cases[i].shape, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        int got = 0;
        for (int p = 1; p < plan.pass_count; ++p) got |= plan.pass[p].column_registers << p;
        assert_int_equal(got, cases[i].want);
        assert_int_equal(plan.column_register_passes, cases[i].want);
    }
    const struct {
        int rank;
        long long shape[3];
        int tensor_cores, mask;
        const char *why;
    } errors[] = {
        {3, {256, 256, 256}, 0, 1, "pass 1 is not a tiled pass"},
        {3, {256, 256, 256}, 0, 8, "pass 4 named, but the plan has 3 passes"},
        {3, {512, 512, 512}, 0, 2, "pass 2 loads its columns straight already"},
        {2, {256, 128}, 2, 2, "pass 2 runs on tensor cores"},
        {1, {4096}, 0, FFTGEN_EVERY_PASS, "this plan has no pass that copies its columns"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
        const fftgen_kernel_request request = {0, 0, FFTGEN_KERNEL_FP16, 90, errors[i].tensor_cores, {{0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, errors[i].mask, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        expect_choice_refused(&request, errors[i].rank, errors[i].shape, errors[i].why);
    }
}

/* The planner's L2 prefetch on a plan's passes, bit i for pass i */
static int l2_prefetch_mask(const fftgen_transform_plan *plan)
{
    int mask = 0;
    for (int p = 0; p < plan->pass_count; ++p) mask |= (plan->pass[p].l2_prefetch_bytes > 0) << p;
    return mask;
}

/* The L2 prefetch: by default on sm_90 one-kernel 1D sizes that read their input straight from global
 * memory; in plans of several passes and 2D/3D shapes on the passes named; at the distance asked;
 * refused, naming why, where a named pass cannot take it */
static void planner_places_l2_prefetch(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        fftgen_kernel_precision precision;
        long long n;
        int arch, tensor_cores, prefetch, kb, passes, tile, want_mask, want_bytes;
    } cases[] = {
        {FFTGEN_KERNEL_FP16, 4096, 90, 0, 0, 0, 0, 0, 1, FFTGEN_L2_PREFETCH_DEFAULT_KB * 1024},
        {FFTGEN_KERNEL_FP32, 8192, 90, 0, 0, 0, 0, 0, 1, FFTGEN_L2_PREFETCH_DEFAULT_KB * 1024},
        {FFTGEN_KERNEL_FP16, 4096, 90, 0, 0, 2048, 0, 0, 1, 2048 * 1024},
        {FFTGEN_KERNEL_FP16, 4096, 90, 0, 0, FFTGEN_L2_PREFETCH_OFF, 0, 0, 0, 0},
        {FFTGEN_KERNEL_FP16, 4096, 80, 0, 0, 0, 0, 0, 0, 0},                    /* no bulk prefetch before sm_90 */
        {FFTGEN_KERNEL_FP16, 4096, 90, 1, 0, 0, 0, 0, 0, 0},                    /* tensor cores */
        {FFTGEN_KERNEL_SPLIT, 4096, 90, 0, 0, 0, 0, 0, 0, 0},                   /* tensor cores too */
        {FFTGEN_KERNEL_FP16, 16384, 90, 0, 8, 0, 0, 0, 0, 0},                   /* its own bulk copies */
        {FFTGEN_KERNEL_FP32, 1 << 15, 90, 0, 0, 0, 0, 0, 0, 0},                 /* a cluster, by default */
        {FFTGEN_KERNEL_FP32, 1 << 15, 90, 0, 0, 512, 0, 0, 1, 512 * 1024},      /* on request */
        /* two passes: none by default; pass 1's tiles of 8 fp16 columns, pass 2 rows in runs */
        {FFTGEN_KERNEL_FP16, 1 << 20, 90, 0, 0, 0, 0, 8, 0, 0},
        {FFTGEN_KERNEL_FP16, 1 << 20, 90, 0, 0, 0, FFTGEN_EVERY_PASS, 8, 3, FFTGEN_L2_PREFETCH_DEFAULT_KB * 1024},
        {FFTGEN_KERNEL_FP16, 1 << 20, 90, 0, 0, 512, 1, 8, 1, 512 * 1024},
        {FFTGEN_KERNEL_FP16, 1 << 20, 90, 0, 0, 2048, 2, 16, 2, 2048 * 1024},
        {FFTGEN_KERNEL_FP16, 1 << 20, 80, 0, 0, 0, 0, 16, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fftgen_kernel_request request = {cases[i].n, 0, cases[i].precision, cases[i].arch, cases[i].tensor_cores,
                                         {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        request.prefetch = cases[i].prefetch;
        request.l2_prefetch_kb = cases[i].kb;
        request.l2_prefetch_passes = cases[i].passes;
        request.max_tile.pass[0] = cases[i].tile;
        assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(l2_prefetch_mask(&plan), cases[i].want_mask);
        for (int p = 0; p < plan.pass_count; ++p)
            if (plan.pass[p].l2_prefetch_bytes > 0) assert_int_equal(plan.pass[p].l2_prefetch_bytes, cases[i].want_bytes);
        assert_int_equal(plan.l2_prefetch_kb, cases[i].kb);
        assert_int_equal(plan.l2_prefetch_passes, cases[i].passes ? cases[i].want_mask : 0);
    }
    /* 2D and 3D: by default on the passes of whole slices only (2 MB ahead for blocks of 1024 threads),
     * else on the passes named; not on a slice that copies its next slice in itself */
    const long long square[2] = {256, 256}, cube[3] = {64, 64, 64}, slice[2] = {128, 128}, small[2] = {32, 32};
    fftgen_kernel_request dense = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(plan_dense(&dense, 2, square, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 0);
    assert_int_equal(plan_dense(&dense, 3, cube, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 1);
    assert_int_equal(plan.pass[0].l2_prefetch_bytes, 1024 * 1024);
    assert_int_equal(plan_dense(&dense, 2, slice, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 1);
    assert_int_equal(plan.pass[0].threads, 1024);
    assert_int_equal(plan.pass[0].l2_prefetch_bytes, 2048 * 1024);
    assert_int_equal(plan_dense(&dense, 2, small, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].l2_prefetch_bytes, 1024 * 1024);
    dense.l2_prefetch_kb = 512; /* a distance asked holds for slices too */
    assert_int_equal(plan_dense(&dense, 2, slice, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].l2_prefetch_bytes, 512 * 1024);
    dense.l2_prefetch_kb = FFTGEN_L2_PREFETCH_OFF;
    assert_int_equal(plan_dense(&dense, 2, slice, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 0);
    dense.l2_prefetch_kb = 0;
    dense.l2_prefetch_passes = FFTGEN_EVERY_PASS;
    assert_int_equal(plan_dense(&dense, 2, square, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 3);
    assert_int_equal(plan_dense(&dense, 3, cube, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 3);
    dense.l2_prefetch_passes = 1;
    dense.prefetch = 4;
    expect_choice_refused(&dense, 3, cube, "L2 prefetch: pass 1 copies its next transform (tile) into shared memory");
    dense.prefetch = 0;
    dense.l2_prefetch_passes = 0;
    const struct {
        long long n;
        int arch, prefetch, kb, passes;
        const char *why;
    } errors[] = {
        {4096, 80, 0, 1024, 0, "L2 prefetch 1024 KB: the kernel needs sm_90 or newer"},
        {16384, 90, 8, 1024, 0, "copies its next transform (tile) into shared memory itself (--prefetch)"},
        {4096, 90, 0, FFTGEN_MAX_L2_PREFETCH_KB + 1, 0, "a distance from 1 to 65536 KB"},
        {4096, 90, 0, 0, 2, "L2 prefetch passes: pass 2 named, but the plan has 1 pass"},
        {1 << 20, 90, 0, 0, 4, "L2 prefetch passes: pass 3 named, but the plan has 2 passes"},
        {1 << 20, 90, 0, FFTGEN_L2_PREFETCH_OFF, 1, "with a distance of 0 (none)"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
        fftgen_kernel_request request = {errors[i].n, 0, FFTGEN_KERNEL_FP16, errors[i].arch, 0, {{0}}, 0,
                                         FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        request.prefetch = errors[i].prefetch;
        request.l2_prefetch_kb = errors[i].kb;
        request.l2_prefetch_passes = errors[i].passes;
        expect_choice_refused(&request, 1, &errors[i].n, errors[i].why);
    }
    fftgen_kernel_request cluster = {1 << 15, 0, FFTGEN_KERNEL_FP32, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    /* named, a 1D cluster's pass takes it: its blocks ask for their parts of the transform ahead */
    assert_int_equal(plan_dense(&cluster, 1, &cluster.n, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].cluster, 4);
    assert_int_equal(l2_prefetch_mask(&plan), 1);
    dense.l2_prefetch_kb = 1024;
    expect_choice_refused(&dense, 2, square, "in 2D and 3D shapes and plans of several passes it goes on the passes"
                                             " named");
    const fftgen_user_layout strided = {2, 8192, {0}}, packed = {1, 4096, {0}};
    const long long n = 4096;
    fftgen_kernel_request one = dense;
    one.n = n;
    assert_int_equal(fftgen_plan_shape(&one, 1, &n, strided, packed, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "contiguous layouts only"));
    /* a strided layout takes none by default: the passes it replaces or restrides were placed for dense data */
    one.l2_prefetch_kb = 0;
    const long long big = 1 << 20;
    one.n = big;
    const fftgen_user_layout wide = {2, 2 * big, {0}}, dense_out = {1, big, {0}};
    assert_int_equal(fftgen_plan_shape(&one, 1, &big, wide, dense_out, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(l2_prefetch_mask(&plan), 0);
}

/* The planner follows a choice: tensor cores in the passes named, tiles no wider than the cap. */
static void planner_follows_a_choice(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    /* clusters: fp32 2^15 on 4 blocks by default; a choice of 2, or of passes (1); not before sm_90, not
     * with tensor cores; where n / C points do not fit a block, two passes with the columns on clusters
     * of C (by default fp32 2^25 and 2^26, which would otherwise take three passes) */
    const struct {
        long long n;
        fftgen_kernel_precision precision;
        int arch, tensor_cores, cluster, want_blocks, want_passes;
    } clusters[] = {
        {1 << 15, FFTGEN_KERNEL_FP32, 90, 0, 0, 4, 1}, {1 << 16, FFTGEN_KERNEL_FP32, 90, 0, 0, 8, 1},
        {1 << 17, FFTGEN_KERNEL_FP32, 90, 0, 0, 0, 2}, {1 << 15, FFTGEN_KERNEL_FP16, 90, 0, 0, 0, 2},
        {1 << 15, FFTGEN_KERNEL_FP32, 90, 0, 2, 2, 1}, {1 << 15, FFTGEN_KERNEL_FP32, 90, 0, 1, 0, 2},
        {1 << 15, FFTGEN_KERNEL_FP32, 80, 0, 4, 0, 2}, {1 << 15, FFTGEN_KERNEL_FP16, 90, 2, 4, 0, 2},
        {1 << 17, FFTGEN_KERNEL_FP16, 90, 0, 8, 8, 1}, {1 << 18, FFTGEN_KERNEL_FP16, 90, 0, 8, 8, 2},
        {1 << 15, FFTGEN_KERNEL_SPLIT, 90, 0, 4, 0, 2}, {1 << 25, FFTGEN_KERNEL_FP32, 90, 0, 0, 4, 2},
        {1 << 26, FFTGEN_KERNEL_FP32, 90, 0, 0, 8, 2}, {1 << 27, FFTGEN_KERNEL_FP32, 90, 0, 0, 0, 3},
        {1 << 25, FFTGEN_KERNEL_FP16, 90, 0, 0, 0, 3}, {1 << 25, FFTGEN_KERNEL_FP32, 80, 0, 0, 0, 3},
        {1 << 25, FFTGEN_KERNEL_FP32, 90, 0, 1, 0, 3},
    };
    for (size_t i = 0; i < sizeof clusters / sizeof clusters[0]; ++i) {
        const fftgen_kernel_request request = {clusters[i].n, 0, clusters[i].precision, clusters[i].arch,
                                               clusters[i].tensor_cores, {{0}}, clusters[i].cluster,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, clusters[i].want_passes);
        assert_int_equal(plan.pass[0].cluster, clusters[i].want_blocks);
        if (clusters[i].want_blocks && clusters[i].want_passes == 1)
            assert_int_equal(plan.pass[0].n * clusters[i].want_blocks, clusters[i].n);
        if (clusters[i].want_blocks && clusters[i].want_passes == 2) { /* twiddled columns, then rows */
            assert_true(plan.pass[0].tiled && plan.pass[0].twiddle_n == clusters[i].n && plan.pass[1].cluster < 2);
            assert_int_equal(fftgen_pass_ffts(&plan.pass[0], clusters[i].n) * plan.pass[0].n * clusters[i].want_blocks,
                             clusters[i].n);
        }
    }
    /* 2D columns on clusters: where one block's tiles would not fill a 32-byte sector, with tiles that
     * do (fp32 4, fp16 8) and the fewest blocks of at most 8192 points; a choice of a size or of none;
     * never before sm_90, with tensor cores, or in a split precision; fp16 8192-point columns split in
     * two passes instead where those tiles reach 16 (8192x8192), not where they would not (8192x8) */
    const struct {
        long long rows, columns;
        fftgen_kernel_precision precision;
        int arch, tensor_cores, cluster, want_blocks, want_tile, want_passes;
    } column_clusters[] = {
        {8192, 8192, FFTGEN_KERNEL_FP32, 90, 0, 0, 4, 4, 2}, {4096, 4096, FFTGEN_KERNEL_FP32, 90, 0, 0, 0, 4, 2},
        {4096, 4096, FFTGEN_KERNEL_FP16, 90, 0, 0, 4, 8, 2}, {8192, 8192, FFTGEN_KERNEL_FP16, 90, 0, 0, 0, 0, 3},
        {4096, 4096, FFTGEN_KERNEL_FP32, 90, 0, 2, 2, 4, 2}, {8192, 8192, FFTGEN_KERNEL_FP32, 90, 0, 1, 0, 2, 3},
        {8192, 8192, FFTGEN_KERNEL_FP32, 80, 0, 0, 0, 4, 3}, {8192, 8192, FFTGEN_KERNEL_FP16, 90, 2, 0, 0, 4, 3},
        {8192, 8192, FFTGEN_KERNEL_SPLIT, 90, 0, 0, 0, 4, 3}, {32768, 2, FFTGEN_KERNEL_FP32, 90, 0, 0, 8, 2, 2},
        {512, 512, FFTGEN_KERNEL_FP16, 90, 0, 0, 0, 16, 2},  {8192, 8, FFTGEN_KERNEL_FP16, 90, 0, 0, 8, 8, 2},
        {8192, 8192, FFTGEN_KERNEL_FP16, 90, 0, 8, 8, 8, 2},
    };
    for (size_t i = 0; i < sizeof column_clusters / sizeof column_clusters[0]; ++i) {
        const long long shape[2] = {column_clusters[i].rows, column_clusters[i].columns};
        const long long points = shape[0] * shape[1];
        const fftgen_user_layout dense = {1, points, {0}};
        const fftgen_kernel_request request = {points, 0, column_clusters[i].precision, column_clusters[i].arch,
                                               column_clusters[i].tensor_cores, {{0}}, column_clusters[i].cluster,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(fftgen_plan_shape(&request, 2, shape, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, column_clusters[i].want_passes);
        const fftgen_kernel_plan *columns = &plan.pass[1];
        assert_int_equal(columns->cluster, column_clusters[i].want_blocks);
        if (column_clusters[i].want_blocks) {
            assert_int_equal(columns->n * column_clusters[i].want_blocks, shape[0]);
            assert_int_equal(columns->ffts_per_block, column_clusters[i].want_tile);
            assert_true(columns->n * columns->ffts_per_block <= 8192);
            /* the kernel's batch counts the columns, its grid a cluster of blocks per tile */
            assert_int_equal(fftgen_pass_ffts(columns, points), shape[1]);
            assert_int_equal(fftgen_pass_blocks(columns, shape[1], 132),
                             (shape[1] + columns->ffts_per_block - 1) / columns->ffts_per_block *
                                 column_clusters[i].want_blocks);
        } else if (column_clusters[i].want_passes == 2) {
            assert_int_equal(columns->ffts_per_block, column_clusters[i].want_tile);
        }
    }
    const fftgen_kernel_request second = {1 << 20, 0, FFTGEN_KERNEL_FP16, 90, 2, caps_of("4"), 0,
                                          FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&second, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_false(plan.pass[0].tensor_cores);
    assert_true(plan.pass[1].tensor_cores);
    assert_int_equal(plan.pass[0].ffts_per_block, 4);
    assert_int_equal(plan.pass[1].ffts_per_block, 4);
    assert_caps(&plan.max_tile, 4, 4, 4);
    /* tiles pass by pass: the columns wide, the rows at the planner's default (8 for 512 fp16 points) */
    const fftgen_kernel_request per_pass = {1LL << 27, 0, FFTGEN_KERNEL_FP16, 90, 0, caps_of("16,16,0"), 0,
                                            FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&per_pass, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 3);
    assert_int_equal(plan.pass[0].ffts_per_block, 16);
    assert_int_equal(plan.pass[1].ffts_per_block, 16);
    assert_int_equal(plan.pass[2].ffts_per_block, 8);
    /* 3D: the pass numbers are the plan's (the fused 64x64 slices first, then the 64-point columns) */
    const long long cube[3] = {64, 64, 64};
    const fftgen_user_layout dense_cube = {1, 1 << 18, {0}};
    const fftgen_kernel_request columns = {1 << 18, 0, FFTGEN_KERNEL_FP16, 90, 0, caps_of("0,4"), 0,
                                           FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&columns, 3, cube, dense_cube, dense_cube, &plan, why, sizeof why),
                     FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_int_equal(plan.pass[1].ffts_per_block, 4);
    /* fp32 cannot take tensor cores; 8 points have no radix-16 stage; sm_75 has no mma.m16n8k16 */
    const fftgen_kernel_request fp32 = {4096, 0, FFTGEN_KERNEL_FP32, 90, 1, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&fp32, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    const fftgen_kernel_request tiny = {8, 0, FFTGEN_KERNEL_FP16, 90, 1, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&tiny, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    const fftgen_kernel_request turing = {4096, 0, FFTGEN_KERNEL_FP16, 75, 1, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&turing, &plan, why, sizeof why), FFTGEN_PLAN_BAD_ARCH);
    /* a 2D shape whose first pass asks for tensor cores is not fused */
    const long long shape[2] = {64, 64};
    const fftgen_user_layout dense = {1, 4096, {0}};
    const fftgen_kernel_request all = {4096, 0, FFTGEN_KERNEL_FP16, 90, FFTGEN_EVERY_PASS, {{0}}, 0,
                                       FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&all, 2, shape, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_true(plan.pass[0].tensor_cores && plan.pass[1].tensor_cores);
    const fftgen_kernel_request none = {4096, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&none, 2, shape, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 1);
    assert_true(plan.pass[0].slice_rows > 0);
}

/* order=columns-first: read and written back, and the planner then takes the columns first through
 * the work area, each tile of columns written as a block that the rows read in runs; strided
 * layouts and other ranks refuse it. */
/* A block size: whole transforms up to that many threads (at least one), one-kernel 1D sizes only. */
static void planner_takes_a_block_size(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        long long n;
        int radix, block_threads, want_threads, want_ffts;
    } sizes[] = {
        {256, 0, 0, 256, 16},  {256, 0, 128, 128, 8}, {256, 0, 64, 64, 4},   {256, 0, 32, 32, 2},
        {256, 0, 1024, 256, 16}, /* shared memory caps a block at 4096 points */
        {2048, 32, 0, 128, 2}, {2048, 32, 64, 64, 1}, {2048, 32, 32, 64, 1}, /* one transform at least */
        {16, 0, 64, 64, 64},   {4096, 0, 64, 256, 1},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const fftgen_kernel_request request = {sizes[i].n, sizes[i].radix, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0,
                                               FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, sizes[i].block_threads, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, 1);
        assert_int_equal(plan.pass[0].threads, sizes[i].want_threads);
        assert_int_equal(plan.pass[0].ffts_per_block, sizes[i].want_ffts);
        assert_int_equal(plan.block_threads, sizes[i].block_threads);
    }
    /* not a power of two from 32 to 1024; a size of several passes; a 2D shape; a strided layout */
    const long long n = 65536, square[2] = {64, 64};
    const fftgen_kernel_request odd = {256, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                       0, 0, 48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&odd, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "block size of 48 threads"));
    const fftgen_kernel_request passes = {n, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                          0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_transform(&passes, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "1D sizes of one kernel only"));
    const fftgen_user_layout dense = {1, 4096, {0}}, strided = {2, 8192, {0}};
    assert_int_equal(fftgen_plan_shape(&passes, 2, square, dense, dense, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "single-kernel sizes only"));
    const long long small = 256;
    const fftgen_kernel_request one = {small, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                       0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(fftgen_plan_shape(&one, 1, &small, strided, strided, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "contiguous layouts only"));
}

/* Short columns widen their tiles to a block of 128 threads, across the rows of a 3D shape's other two
 * dimensions where those are dense; a cap (a choice from wisdom) keeps its width; strided 3D data
 * whose rows have gaps keep their tiles within a row. */
static void planner_widens_short_column_tiles(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        int rank;
        long long shape[3];
        int cap, tile, threads; /* of the last pass */
    } cases[] = {
        {3, {4, 128, 128}, 0, 128, 128},  {3, {16, 64, 64}, 0, 128, 128}, {3, {32, 32, 32}, 0, 64, 128},
        {3, {64, 64, 64}, 0, 32, 128},    {3, {128, 128, 128}, 0, 16, 128}, {2, {8, 16384}, 0, 128, 128},
        {3, {4, 128, 128}, 16, 16, 16},   {3, {256, 256, 256}, 0, 16, 256},
    };
    const fftgen_kernel_request fp16 = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fftgen_kernel_request request = fp16;
        for (int p = 1; p < FFTGEN_MAX_PASSES; ++p) request.max_tile.pass[p] = cases[i].cap;
        assert_int_equal(plan_dense(&request, cases[i].rank, cases[i].shape, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        const fftgen_kernel_plan *last = &plan.pass[plan.pass_count - 1];
        if (last->ffts_per_block != cases[i].tile || last->threads != cases[i].threads)
            print_error("case %zu: tiles of %d, %d threads\n", i, last->ffts_per_block, last->threads);
        assert_int_equal(last->ffts_per_block, cases[i].tile);
        assert_int_equal(last->threads, cases[i].threads);
    }
    /* rows 20 points apart for 16 points: the groups do not adjoin, so a tile stays within 16 columns */
    const long long shape[3] = {16, 8, 16};
    const fftgen_user_layout gaps = {1, 16 * 8 * 20, {0, 8, 20}};
    assert_int_equal(fftgen_plan_shape(&fp16, 3, shape, gaps, gaps, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[plan.pass_count - 1].ffts_per_block, 16);
}

/* Columns in two four-step passes where asked (the split-columns choice): each column dimension after
 * the first pass, in the planner's wide tiles, through the work area; an error where none can split. */
static void planner_splits_columns(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    const struct {
        int rank;
        long long shape[3];
        int passes, dimension, first, second; /* the split dimension, its passes' points */
    } cases[] = {
        {2, {4096, 4096}, 3, 0, 64, 64}, /* on sm_90 a cluster pass without the choice */
        {2, {8192, 8192}, 3, 0, 64, 128},
        {3, {16, 64, 64}, 3, 0, 4, 4},      /* after a fused slice */
        {3, {2, 1024, 1024}, 4, 1, 32, 32}, /* the 2-point dimension stays one pass */
    };
    fftgen_kernel_request split = {0, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                   0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        assert_int_equal(plan_dense(&split, cases[i].rank, cases[i].shape, &plan, why, sizeof why), FFTGEN_PLAN_OK);
        assert_int_equal(plan.pass_count, cases[i].passes);
        assert_true(plan.split_columns);
        const fftgen_kernel_plan *first = &plan.pass[1], *second = &plan.pass[2];
        assert_int_equal(first->n, cases[i].first);
        assert_int_equal(second->n, cases[i].second);
        assert_int_equal(first->cluster, 0);
        assert_true(first->twiddle_by_group);
        assert_int_equal(first->twiddle_n, cases[i].first * cases[i].second);
        assert_int_equal(first->target, FFTGEN_BUFFER_WORK);
        assert_int_equal(second->source, FFTGEN_BUFFER_WORK);
        assert_int_equal(second->target, FFTGEN_BUFFER_OUTPUT);
        assert_int_equal(first->dimension, cases[i].dimension);
        assert_int_equal(second->dimension, cases[i].dimension);
        assert_true(first->ffts_per_block >= 16);
        assert_true(fftgen_plan_needs_work(&plan));
    }
    /* nothing to split: 1D, a shape that is one fused slice, a strided layout */
    const long long line[1] = {4096}, slice[2] = {64, 64}, square[2] = {4096, 4096};
    const fftgen_user_layout dense_line = {1, 4096, {0}}, dense_slice = {1, 64 * 64, {0}},
                             spread = {2, 2 * 4096 * 4096, {0}};
    assert_int_equal(fftgen_plan_shape(&split, 1, line, dense_line, dense_line, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_SIZE);
    assert_string_equal(why, "columns split in two passes in 2D and 3D shapes only, not in 1D");
    assert_int_equal(fftgen_plan_shape(&split, 2, slice, dense_slice, dense_slice, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_LAYOUT);
    assert_non_null(strstr(why, "shape 64x64: no column dimension splits in two passes"));
    assert_int_equal(fftgen_plan_shape(&split, 2, square, spread, spread, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_LAYOUT);
    /* the wisdom word reaches 2D and 3D requests only */
    fftgen_choice choice = {0};
    choice.split_columns = 1;
    fftgen_kernel_request request = {0};
    fftgen_choice_apply(&choice, 3, &request);
    assert_int_equal(request.split_columns, 1);
    fftgen_choice_apply(&choice, 1, &request);
    assert_int_equal(request.split_columns, 0);
}

/* A radix for a 2D or 3D shape: its fused slice's where one fits a block, else its rows' where they are
 * one kernel (radix=32 from fftgen tune for fp16 8192x8192's rows); an error otherwise. */
static void planner_gives_rows_a_radix(void **state)
{
    (void)state;
    char why[256];
    fftgen_transform_plan plan;
    fftgen_kernel_request radix32 = {0, 32, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const long long square[3] = {8192, 8192}, cube[3] = {2, 8192, 8192}, slices[3] = {128, 128, 128},
                    long_rows[3] = {4, 65536}, slice[3] = {64, 64};
    assert_int_equal(plan_dense(&radix32, 2, square, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].radix_max, 32);
    assert_int_equal(plan.pass[0].slice_rows, 0);
    assert_int_equal(plan.rows_radix, 32);
    assert_int_equal(plan.pass[1].radix_max, 16); /* the columns keep theirs */
    assert_int_equal(plan_dense(&radix32, 3, cube, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].radix_max, 32);
    assert_int_equal(plan_dense(&radix32, 3, slices, &plan, why, sizeof why), FFTGEN_PLAN_OK); /* the slice's */
    assert_true(plan.pass[0].slice_rows > 0);
    assert_int_equal(plan.rows_radix, 0);
    assert_int_equal(plan_dense(&radix32, 2, long_rows, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "whose dense rows are one kernel"));
    radix32.max_radix = 2;
    assert_int_equal(plan_dense(&radix32, 2, slice, &plan, why, sizeof why), FFTGEN_PLAN_BAD_RADIX);
    assert_non_null(strstr(why, "radix 2 does not fit the 64x64 slices in one block"));
}

/* The choice a 1D wisdom line makes on device X, once it reads back as the line's own words; and the
 * planner's request for sm_90 with it applied. */
static fftgen_choice choice_of_line(fftgen_kernel_precision precision, long long n, const char *words)
{
    char wisdom[512], why[256], text[256];
    snprintf(wisdom, sizeof wisdom, "fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\n%s %lld %s\n",
             fftgen_precision_name(precision), n, words);
    assert_int_equal(add(wisdom, 0, why, sizeof why), FFTGEN_SUCCESS);
    const fftgen_device_key x = {"X", 90, "1", "0.1.0"};
    fftgen_choice choice;
    assert_true(find(&x, precision, 1, n, 0, &choice));
    fftgen_choice_text(&choice, text, sizeof text);
    assert_string_equal(text, words);
    return choice;
}

static fftgen_kernel_request request_with(fftgen_kernel_precision precision, long long n, const fftgen_choice *choice)
{
    fftgen_kernel_request request = {n, 0, precision, 90, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (choice != NULL) fftgen_choice_apply(choice, 1, &request);
    return request;
}

/* l2-fetch-256=P from wisdom reaches the planner: the named column passes ask L2 for 256 bytes a point,
 * the columns on clusters always do, and the others do not. */
static void planner_follows_an_l2_fetch(void **state)
{
    (void)state;
    char why[256];
    const fftgen_choice choice =
        choice_of_line(FFTGEN_KERNEL_FP32, 1 << 21, "tensor-cores=none max-tile=0 l2-fetch-256=1");
    assert_int_equal(choice.l2_fetch_256_passes, 1);
    fftgen_kernel_request request = request_with(FFTGEN_KERNEL_FP32, 1 << 21, &choice);
    const long long line[1] = {1 << 21};
    const fftgen_user_layout dense = {1, 1 << 21, {0}};
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_shape(&request, 1, line, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_true(plan.pass[0].l2_fetch_256);
    assert_false(plan.pass[1].l2_fetch_256); /* rows */
    assert_int_equal(plan.l2_fetch_256_passes, 1);
    /* fp32 8192x8192's columns run on clusters, and ask without being named */
    const long long square[2] = {8192, 8192};
    const fftgen_user_layout dense_square = {1, 8192 * 8192, {0}};
    request.n = 8192 * 8192;
    request.l2_fetch_256_passes = 0;
    assert_int_equal(fftgen_plan_shape(&request, 2, square, dense_square, dense_square, &plan, why, sizeof why),
                     FFTGEN_PLAN_OK);
    assert_true(plan.pass[plan.pass_count - 1].cluster > 1);
    assert_true(plan.pass[plan.pass_count - 1].l2_fetch_256);
    assert_false(plan.pass[0].l2_fetch_256);
    assert_int_equal(plan.l2_fetch_256_passes, 0);
}

/* tma-columns=P from wisdom reaches the planner: the named column pass takes its tiles through the TMA, with
 * the staging buffer after its exchanges, and drops the L2 prefetch the same line names for it; a user's
 * stride that leaves the columns no longer side by side drops the TMA (fftgen_keep_column_choices_that_fit). */
static void planner_follows_tma_columns(void **state)
{
    (void)state;
    char why[256];
    const fftgen_choice choice = choice_of_line(
        FFTGEN_KERNEL_FP16, 1 << 22, "tensor-cores=none max-tile=4,0 l2-prefetch=2048 l2-prefetch-passes=1 tma-columns=1");
    assert_int_equal(choice.tma_column_passes, 1);
    fftgen_kernel_request request = request_with(FFTGEN_KERNEL_FP16, 1 << 22, &choice);
    const long long line[1] = {1 << 22};
    const fftgen_user_layout dense = {1, 1 << 22, {0}};
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_shape(&request, 1, line, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_true(plan.pass[0].tma_columns);
    assert_false(plan.pass[1].tma_columns); /* rows */
    assert_int_equal(plan.tma_column_passes, 1);
    assert_int_equal(plan.pass[0].l2_prefetch_bytes, 0);
    assert_int_equal(plan.l2_prefetch_passes, 0);
    assert_int_equal(plan.l2_prefetch_kb, 0); /* the command line names no L2 prefetch */
    /* 4 columns of 2048 fp16 points after the exchanges' 69632 bytes, and the mbarrier */
    assert_int_equal(plan.pass[0].tma_staging_offset, 69632);
    assert_int_equal(plan.pass[0].shared_bytes, 69632 + 4 * 2048 * 4 + 16);
    /* a user's input stride of 3 (without the L2 prefetch, which strided layouts refuse): the columns no
     * longer lie side by side */
    request.l2_prefetch_kb = 0;
    request.l2_prefetch_passes = 0;
    const fftgen_user_layout strided = {3, 3 * (1 << 22), {0}};
    assert_int_equal(fftgen_plan_shape(&request, 1, line, strided, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_false(plan.pass[0].tma_columns);
    assert_int_equal(plan.tma_column_passes, 0);
    assert_int_equal(plan.pass[0].shared_bytes, 8 * plan.pass[0].smem_points); /* no staging buffer left */
}

/* tma-columns=P on fp32 2^23 as 2048 x 4096 in tiles of 8 and 4: both passes hold 16384 points a block, whose
 * 139264 bytes of exchanges leave no room beside them for a 128 KB tile, so the staging buffer lies inside
 * them and the mbarrier just past them; pass 2 reads 512 runs a transform, in two boxes of 256. An fp16
 * pass's 64 KB tile still fits beside its exchanges. */
static void planner_stages_tma_tiles_inside_the_exchanges(void **state)
{
    (void)state;
    char why[256];
    const fftgen_choice choice = choice_of_line(FFTGEN_KERNEL_FP32, 1 << 23, "tensor-cores=none max-tile=32,0 tma-columns=1,2");
    fftgen_kernel_request request = request_with(FFTGEN_KERNEL_FP32, 1 << 23, &choice);
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    for (int i = 0; i < 2; ++i) {
        assert_true(plan.pass[i].tma_columns);
        assert_true(plan.pass[i].tma_in_exchanges);
        assert_int_equal(plan.pass[i].ffts_per_block * plan.pass[i].n, 16384);
        assert_int_equal(plan.pass[i].tma_staging_offset, 0);
        assert_int_equal(plan.pass[i].shared_bytes, 139264 + 16);
    }
    long long dims[3], strides[2];
    int box[3];
    fftgen_tma_run_map(&plan.pass[1], dims, strides, box);
    assert_int_equal(dims[2], 512);
    assert_int_equal(box[2], 256);
    const fftgen_choice fp16 = choice_of_line(FFTGEN_KERNEL_FP16, 1 << 23, "tensor-cores=none max-tile=4,32 tma-columns=1,2");
    request = request_with(FFTGEN_KERNEL_FP16, 1 << 23, &fp16);
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_true(plan.pass[0].tma_columns && plan.pass[1].tma_columns);
    assert_false(plan.pass[0].tma_in_exchanges || plan.pass[1].tma_in_exchanges);
    assert_true(plan.pass[0].tma_staging_offset >= 8 * plan.pass[0].smem_points);
}

/* tile-pairs=P from wisdom reaches the planner: fp16 2^24 as 4096 x 4096 in tiles of 4, its rows pass two
 * tiles a block (half the blocks), the first tile's outputs after the exchanges' 139264 bytes; the line
 * writes back in its words. */
static void planner_follows_tile_pairs(void **state)
{
    (void)state;
    char why[256];
    const fftgen_choice choice =
        choice_of_line(FFTGEN_KERNEL_FP16, 1 << 24, "tensor-cores=none max-tile=4 four-step=4096 tile-pairs=2");
    assert_int_equal(choice.tile_pair_passes, 2);
    char text[256];
    fftgen_choice_text(&choice, text, sizeof text);
    assert_non_null(strstr(text, "tile-pairs=2"));
    fftgen_kernel_request request = request_with(FFTGEN_KERNEL_FP16, 1 << 24, &choice);
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_false(plan.pass[0].tile_pairs);
    assert_true(plan.pass[1].tile_pairs);
    assert_int_equal(plan.tile_pair_passes, 2);
    assert_int_equal(plan.pass[1].pair_offset, 139264);
    assert_int_equal(plan.pass[1].shared_bytes, 139264 + 4 * 4096 * 4);
    assert_int_equal(fftgen_pass_blocks(&plan.pass[1], 4096, 132), 512);
    assert_int_equal(fftgen_pass_blocks(&plan.pass[0], 4096, 132), 1024);
}

/* four-step=N1 from wisdom reaches the planner: pass 1 takes columns of N1 points instead of the planner's
 * split (fp16 2^19: 1024 x 512, not 512 x 1024), written back in the line's words; a 2D shape's request
 * never takes it. */
static void planner_follows_a_four_step_split(void **state)
{
    (void)state;
    char why[256];
    const fftgen_choice choice =
        choice_of_line(FFTGEN_KERNEL_FP16, 1 << 19, "tensor-cores=none max-tile=8,0 four-step=1024 tma-columns=1");
    assert_int_equal(choice.four_step_columns, 1024);
    fftgen_kernel_request request = request_with(FFTGEN_KERNEL_FP16, 1 << 19, NULL);
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass[0].n, 512); /* the planner's own split */
    request = request_with(FFTGEN_KERNEL_FP16, 1 << 19, &choice);
    assert_int_equal(request.four_step_columns, 1024);
    assert_int_equal(fftgen_plan_transform(&request, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_int_equal(plan.pass_count, 2);
    assert_int_equal(plan.pass[0].n, 1024);
    assert_int_equal(plan.pass[1].n, 512);
    assert_int_equal(plan.pass[0].ffts_per_block, 8);
    assert_true(plan.pass[0].tma_columns);
    fftgen_kernel_request square = {0}, cube = {0};
    fftgen_choice_apply(&choice, 2, &square); /* a 2D shape's split of dimension 0 */
    assert_int_equal(square.four_step_columns, 1024);
    fftgen_choice_apply(&choice, 3, &cube);
    assert_int_equal(cube.four_step_columns, 0);
}

static void planner_follows_an_order(void **state)
{
    (void)state;
    char why[256], text[160];
    const fftgen_device_key x = {"X", 90, "1", "0.1.0"};
    const char wisdom[] = "fftgen-wisdom 1\ndevice \"X\" sm_90 driver 1 fftgen 0.1.0\n"
                          "fp16 4096x4096 tensor-cores=none max-tile=0 order=columns-first\n"
                          "fp16 1024x1024 tensor-cores=none max-tile=0 order=rows-first\n";
    assert_int_equal(add(wisdom, 0, why, sizeof why), FFTGEN_SUCCESS);
    fftgen_choice choice;
    const long long square[2] = {4096, 4096}, smaller[2] = {1024, 1024};
    assert_true(fftgen_wisdom_find(&x, FFTGEN_KERNEL_FP16, 2, square, LARGE_CALL, &choice));
    assert_int_equal(choice.columns_first, 1);
    fftgen_choice_text(&choice, text, sizeof text);
    assert_string_equal(text, "tensor-cores=none max-tile=0 order=columns-first");
    assert_true(fftgen_wisdom_find(&x, FFTGEN_KERNEL_FP16, 2, smaller, LARGE_CALL, &choice));
    assert_int_equal(choice.columns_first, 0);

    const fftgen_user_layout dense = {1, 4096 * 4096, {0}};
    const fftgen_kernel_request first = {4096 * 4096, 0, FFTGEN_KERNEL_FP16, 90, 0, {{0}}, 0,
                                         FFTGEN_INTERMEDIATE_DEFAULT, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    fftgen_transform_plan plan;
    assert_int_equal(fftgen_plan_shape(&first, 2, square, dense, dense, &plan, why, sizeof why), FFTGEN_PLAN_OK);
    assert_true(plan.columns_first);
    assert_int_equal(plan.pass_count, 2);
    assert_int_equal(plan.pass[0].dimension, 0);
    assert_int_equal(plan.pass[0].source, FFTGEN_BUFFER_INPUT);
    assert_int_equal(plan.pass[0].target, FFTGEN_BUFFER_WORK);
    assert_int_equal(plan.pass[0].out.elem_stride, plan.pass[0].ffts_per_block); /* a block per tile */
    assert_int_equal(plan.pass[0].twiddle_n, 0);
    assert_int_equal(plan.pass[1].dimension, 1);
    assert_int_equal(plan.pass[1].source, FFTGEN_BUFFER_WORK);
    assert_int_equal(plan.pass[1].target, FFTGEN_BUFFER_OUTPUT);
    assert_int_equal(plan.pass[1].in.run_points, plan.pass[0].ffts_per_block);
    assert_int_equal(plan.pass[1].out.elem_stride, 1); /* whole rows */
    assert_true(fftgen_plan_needs_work(&plan));
    /* not in strided layouts (libfftgen then plans without the choice), nor where the rows cannot read
     * the blocks in whole runs (16-point rows: one thread a row) */
    const fftgen_user_layout spread = {2, 2 * 4096 * 4096, {0}};
    assert_int_equal(fftgen_plan_shape(&first, 2, square, spread, dense, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_LAYOUT);
    assert_string_equal(why, "shape 4096x4096: the columns can go first only in dense layouts (stride 1, no embeds)");
    const long long narrow[2] = {4096, 16};
    const fftgen_user_layout dense_narrow = {1, 4096 * 16, {0}};
    assert_int_equal(fftgen_plan_shape(&first, 2, narrow, dense_narrow, dense_narrow, &plan, why, sizeof why),
                     FFTGEN_PLAN_TOO_LARGE);
    assert_string_equal(why, "shape 4096x16 cannot take the columns first: its rows cannot read the column tiles'"
                             " blocks in whole runs");
    /* 1D and 3D refuse it */
    const long long line[1] = {4096}, cube[3] = {64, 64, 64};
    const fftgen_user_layout dense_line = {1, 4096, {0}}, dense_cube = {1, 1 << 18, {0}};
    assert_int_equal(fftgen_plan_shape(&first, 1, line, dense_line, dense_line, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_SIZE);
    assert_string_equal(why, "the columns can go first in 2D shapes only, not in 1D");
    assert_int_equal(fftgen_plan_shape(&first, 3, cube, dense_cube, dense_cube, &plan, why, sizeof why),
                     FFTGEN_PLAN_BAD_SIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(users_section_is_for_its_device_only, teardown),
        cmocka_unit_test_teardown(shipped_table_is_per_architecture_and_comes_second, teardown),
        cmocka_unit_test_teardown(shipped_section_of_a_device_comes_first_there, teardown),
        cmocka_unit_test_teardown(damaged_files_are_refused_whole, teardown),
        cmocka_unit_test_teardown(writing_keeps_what_it_does_not_replace, teardown),
        cmocka_unit_test_teardown(lines_for_small_calls, teardown),
        cmocka_unit_test_teardown(default_path_follows_the_environment, teardown),
        cmocka_unit_test_teardown(defaults_load_once_and_serve_each_device, teardown),
        cmocka_unit_test_teardown(defaults_are_there_for_every_thread, teardown),
        cmocka_unit_test_teardown(shipped_table_parses_and_plans, teardown),
        cmocka_unit_test_teardown(damaged_tables_are_taken_or_refused_whole, teardown),
        cmocka_unit_test(planner_follows_a_choice),
        cmocka_unit_test(planner_takes_a_block_size),
        cmocka_unit_test(planner_places_l2_prefetch),
        cmocka_unit_test(planner_places_twiddle_powers),
        cmocka_unit_test(planner_places_radix32_passes),
        cmocka_unit_test(planner_pads_radix32_tiles_every_32),
        cmocka_unit_test(planner_reads_runs_across_lanes),
        cmocka_unit_test(planner_places_column_registers),
        cmocka_unit_test(planner_widens_short_column_tiles),
        cmocka_unit_test(planner_splits_columns),
        cmocka_unit_test(planner_gives_rows_a_radix),
        cmocka_unit_test_teardown(planner_follows_an_order, teardown),
        cmocka_unit_test_teardown(planner_follows_an_l2_fetch, teardown),
        cmocka_unit_test_teardown(planner_follows_tma_columns, teardown),
        cmocka_unit_test_teardown(planner_follows_tile_pairs, teardown),
        cmocka_unit_test_teardown(planner_stages_tma_tiles_inside_the_exchanges, teardown),
        cmocka_unit_test_teardown(planner_follows_a_four_step_split, teardown),
    };
    return cmocka_run_group_tests_name("wisdom", tests, NULL, NULL);
}
