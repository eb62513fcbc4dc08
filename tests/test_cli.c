/* The fftgen command: help, version, explain, a good run, and each bad input: a one-line error
 * that names the problem, exit status 2, and no file (and no temporary file) left behind. Also
 * fftgen-bench's arguments, which it checks before it looks for a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char work_dir[256];
static char output[65536];

/* Runs `exe` with the arguments (NULL-terminated); stdout and stderr land in `output`. Returns the
 * exit status. */
static int run_program(const char *exe, const char *first, ...)
{
    const char *argv[32] = {exe};
    int argc = 1;
    va_list args;
    va_start(args, first);
    for (const char *a = first; a != NULL && argc < 31; a = va_arg(args, const char *)) argv[argc++] = a;
    va_end(args);
    argv[argc] = NULL;

    char log_path[300];
    snprintf(log_path, sizeof log_path, "%s/log.txt", work_dir);
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    FILE *log = fopen(log_path, "r");
    size_t n = log ? fread(output, 1, sizeof output - 1, log) : 0;
    output[n] = '\0';
    if (log) fclose(log);
    unlink(log_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define run_fftgen(...) run_program(FFTGEN_EXE, __VA_ARGS__)
#define run_bench(...) run_program(FFTGEN_BENCH_EXE, __VA_ARGS__)

/* Files in the work folder other than `keep` (the temporary files fftgen must clean up). */
static int stray_files(const char *keep)
{
    DIR *dir = opendir(work_dir);
    int count = 0;
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (e->d_name[0] != '.' && (keep == NULL || strcmp(e->d_name, keep) != 0)) ++count;
    if (dir) closedir(dir);
    return count;
}

static int one_line(const char *text)
{
    const char *newline = strchr(text, '\n');
    return newline != NULL && newline[1] == '\0';
}

/* A bad command: exit status 2, one line naming the problem, no output file. */
/* The same with a second option (`flag2` NULL: none; `value2` NULL: a flag alone). */
static void expect_rejected_with(const char *needle, const char *n, const char *flag, const char *value,
                                 const char *flag2, const char *value2)
{
    char path[300];
    snprintf(path, sizeof path, "%s/k.cu", work_dir);
    const int status = run_fftgen("--n", n, "-o", path, flag, value, flag2, value2, NULL);
    print_message("  fftgen --n %s %s %s %s %s -> %d: %s", n, flag ? flag : "", value ? value : "", flag2 ? flag2 : "",
                  value2 ? value2 : "", status, output);
    assert_int_equal(status, 2);
    assert_non_null(strstr(output, needle));
    assert_true(one_line(output));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(stray_files(NULL), 0);
}

static void expect_rejected(const char *needle, const char *n, const char *flag, const char *value)
{
    expect_rejected_with(needle, n, flag, value, NULL, NULL);
}

static void bad_sizes(void **state)
{
    (void)state;
    expect_rejected("not a power of two", "1000", NULL, NULL);
    expect_rejected("not a power of two", "0", NULL, NULL);
    expect_rejected("not a power of two", "-16", NULL, NULL);
    expect_rejected("not a size or a shape", "abc", NULL, NULL);
    expect_rejected("not a size or a shape", "16x", NULL, NULL);
    /* 2D and 3D shapes */
    expect_rejected("size 1000 of dimension 1 is not a power of two", "512x1000", NULL, NULL);
    expect_rejected("more than 3 dimensions", "2x2x2x2", NULL, NULL);
    expect_rejected("more than 2^30 points", "65536x65536", NULL, NULL);
    expect_rejected("in strided layouts every dimension of a 2D or 3D transform must fit one kernel", "32768x2",
                    "--ostride", "2"); /* the columns run on the output: a strided input is no matter */
    expect_rejected("only dense data split longer dimensions into passes", "2x32768", "--istride", "2");
    expect_rejected("a radix can be chosen for 1D single-kernel sizes and for 2D/3D shapes whose last two"
                    " dimensions fit one block's slice or, where none does, whose dense rows are one kernel",
                    "4x65536", "--radix", "32");
    expect_rejected("radix 8 does not fit the 128x128 slices in one block", "128x128", "--radix", "8");
    expect_rejected("a block size can be chosen for 1D", "64x64", "--block-threads", "64");
    expect_rejected("a block size can be chosen for 1D sizes of one kernel only (fp32: up to 16384 points",
                    "65536", "--block-threads", "64");
    expect_rejected("input embed 8 of dimension 1 is smaller than its size 64", "64x64", "--inembed", "8");
    expect_rejected("--onembed needs 2 sizes for a 3D shape", "8x8x8", "--onembed", "8");
    expect_rejected("--inembed applies to 2D and 3D shapes", "64", "--inembed", "80");
    /* tensor cores: fp16, sm_80 and newer, radix-16 single kernels */
    expect_rejected("tensor cores take fp16 operands", "4096", "--tensor-cores", NULL);
    /* twiddle powers: fp16, passes the plan has */
    expect_rejected("twiddles derived from the first are an fp16 choice", "2097152", "--twiddle-powers", NULL);
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--twiddle-powers=3", NULL), 2);
    assert_non_null(strstr(output, "twiddle powers: pass 3 named, but the plan has 2 passes"));
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--twiddle-powers=0", NULL), 2);
    assert_non_null(strstr(output, "--twiddle-powers=0: expected pass numbers from 1 to 5"));
    /* split: a radix-16 stage, on sm_80 or newer */
    expect_rejected("--precision split needs at least 16 points", "8", "--precision", "split");
    assert_int_equal(run_fftgen("--n", "64", "--precision", "split-papers", "--arch", "sm_75", NULL), 2);
    assert_non_null(strstr(output, "tensor-core kernels (mma.sync m16n8k16) need sm_80 or newer, not sm_75"));
    assert_int_equal(run_fftgen("--n", "8", "--precision", "fp16", "--tensor-cores", NULL), 2);
    assert_non_null(strstr(output, "tensor cores run radix-16 stages: they need radix 16 and at least 16 points"));
    expect_rejected("exceeds the largest size fftgen plans yet, 1073741824 points", "2147483648", NULL, NULL);
    expect_rejected("exceeds the largest size fftgen plans yet, 1073741824 points for fp32 on sm_75", "2147483648",
                    "--arch", "sm_75");
    expect_rejected("exceeds the single-kernel limit of 16384", "32768", "--radix", "16");
}

static void bad_options(void **state)
{
    (void)state;
    expect_rejected("--tensor-cores=6: expected pass numbers from 1 to 5", "4096", "--tensor-cores=6", NULL);
    expect_rejected("--tensor-cores=1,x: expected pass numbers", "4096", "--tensor-cores=1,x", NULL);
    expect_rejected("--max-tile takes 0 or a power of two up to 256, or a comma-separated list of them (one per"
                    " pass), got '3'", "65536", "--max-tile", "3");
    expect_rejected("got 'wide'", "65536", "--max-tile", "wide");
    expect_rejected("got '16,'", "65536", "--max-tile", "16,");
    expect_rejected("got '512'", "65536", "--max-tile", "512");
    expect_rejected("got '1,2,4,8,16,2'", "65536", "--max-tile", "1,2,4,8,16,2"); /* more than 5 passes */
    expect_rejected("--cluster takes 0, 1, 2, 4 or 8, got '3'", "65536", "--cluster", "3");
    expect_rejected("--cluster takes 0, 1, 2, 4 or 8, got '16'", "65536", "--cluster", "16");
    expect_rejected("got '-2'", "65536", "--cluster", "-2");
    expect_rejected("--intermediate takes fp16, shared-exponent, mixed or default, got 'bf16'", "65536", "--intermediate",
                    "bf16");
    expect_rejected("--intermediate applies to fp16 only (fp32 keeps fp32 between passes)", "65536", "--intermediate",
                    "fp16");
    /* strided layouts take the planner's chains (tiled passes) */
    assert_int_equal(run_fftgen("--n", "1024", "--radix", "8", "--istride", "2", "--explain", NULL), 2);
    assert_non_null(strstr(output, "a radix can be chosen for contiguous layouts only (stride 1, distance n)"));
    expect_rejected("--order takes rows-first or columns-first, got 'columns'", "64x64", "--order", "columns");
    expect_rejected("the columns can go first in 2D shapes only, not in 1D", "4096", "--order", "columns-first");
    expect_rejected("the columns can go first in 2D shapes only, not in 3D", "16x16x16", "--order", "columns-first");
    expect_rejected("columns split in two passes in 2D and 3D shapes only, not in 1D", "4096", "--split-columns", NULL);
    expect_rejected("shape 64x64: no column dimension splits in two passes", "64x64", "--split-columns", NULL);
    /* fftgen tune checks its arguments before it looks for a GPU */
    assert_int_equal(run_fftgen("tune", "--help", NULL), 0);
    assert_non_null(strstr(output, "Usage: fftgen tune [options] [SHAPE...]"));
    assert_int_equal(run_fftgen("tune", "48", NULL), 2);
    assert_non_null(strstr(output, "'48' is not a size or shape of powers of two"));
    assert_int_equal(run_fftgen("tune", "--precision", "fp64", NULL), 2);
    assert_non_null(strstr(output, "unknown precision 'fp64'"));
    assert_int_equal(run_fftgen("tune", "--runs", "1", NULL), 2);
    assert_non_null(strstr(output, "--runs must be a whole number from 3 to 10000, not '1'"));
    expect_rejected("unknown radix 3", "64", "--radix", "3");
    expect_rejected("unknown radix 64 (expected 2, 4, 8, 16 or 32)", "64", "--radix", "64");
    expect_rejected("radix 32 does not divide size 16", "16", "--radix", "32");
    expect_rejected("radix 16 does not divide size 8", "8", "--radix", "16");
    expect_rejected("unknown precision 'fp64'", "64", "--precision", "fp64");
    expect_rejected("unknown direction 'sideways'", "64", "--direction", "sideways");
    expect_rejected("unknown architecture sm_70", "64", "--arch", "sm_70");
    expect_rejected("unknown option '--bogus'", "64", "--bogus", NULL);
    expect_rejected("--istride must be >= 1", "64", "--istride", "0");
    expect_rejected("--odist 'x' is not a number", "64", "--odist", "x");
    expect_rejected("needs a value", "64", "--radix", NULL);
    expect_rejected("unknown block size 48 (expected a power of two from 32 to 1024 threads)", "64",
                    "--block-threads", "48");
    expect_rejected("unknown block size 2048", "64", "--block-threads", "2048");
}

/* A stride or an embed without a distance puts the transforms side by side, not N apart (where a
 * stride of 2 would have two transforms write the same elements); a distance that makes two output
 * transforms share elements is refused, input ones may overlap; an interleaved layout says how many
 * transforms a call takes. */
static void layout_defaults_and_overlaps(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "64", "--ostride", "2", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "output element k at b*128 + k*2"));
    assert_int_equal(run_fftgen("--n", "64x64", "--onembed", "80", "--istride", "3", "--direction", "forward", NULL),
                     0);
    assert_non_null(strstr(output, "input  b*12288 + (j0*64 + j1)*3"));
    assert_non_null(strstr(output, "output b*5120 + (j0*80 + j1)*1"));
    assert_null(strstr(output, "transforms interleave"));
    assert_int_equal(run_fftgen("--n", "64x8", "--istride", "8", "--idist", "1", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "The input's transforms interleave (stride >= batch * distance): at most 8 a call."));
    expect_rejected("output layout: with stride 2 and distance 40, two transforms would share elements (one spans "
                    "128; give a distance of at least that, or a stride of at least twice the distance)",
                    "64", "--ostride=2", "--odist=40");
    expect_rejected("output layout: with stride 1 and distance 4096, two transforms would share elements (one "
                    "spans 5120", "64x64", "--onembed=80", "--odist=4096");
    /* input transforms may overlap (frames of a short-time FFT): nothing writes them */
    assert_int_equal(run_fftgen("--n", "256", "--idist", "64", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "input element j of transform b at b*64 + j*1"));
}

static void unwritable_output(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/no-such-folder/k.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "64", "-o", path, NULL), 2);
    assert_non_null(strstr(output, "cannot write"));
    assert_non_null(strstr(output, "No such file or directory"));
    assert_true(one_line(output));
    /* a folder in the way of the output file */
    snprintf(path, sizeof path, "%s/folder", work_dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(run_fftgen("--n", "64", "-o", path, NULL), 2);
    assert_non_null(strstr(output, "cannot write"));
    assert_int_equal(stray_files("folder"), 0);
    rmdir(path);
}

static void failure_keeps_existing_file(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/keep.cu", work_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("precious", f);
    fclose(f);
    assert_int_equal(run_fftgen("--n", "1000", "-o", path, NULL), 2);
    char text[32] = {0};
    f = fopen(path, "r");
    assert_non_null(f);
    assert_true(fread(text, 1, sizeof text - 1, f) > 0);
    fclose(f);
    assert_string_equal(text, "precious");
    unlink(path);
}

static void help_and_version(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--help", NULL), 0);
    assert_non_null(strstr(output, "Usage: fftgen --n N"));
    assert_non_null(strstr(output, "--explain"));
    assert_int_equal(run_fftgen("--version", NULL), 0);
    assert_non_null(strstr(output, "fftgen 0."));
    assert_int_equal(run_fftgen(NULL), 2);
    assert_non_null(strstr(output, "--n is required"));
}

/* Counts must be whole numbers in range: atoi once read "--runs 3x" as 3 and "--batch 1e6" as 1. */
static void bench_checks_its_counts(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        {"--runs", "0", "--runs must be a whole number from 1"},
        {"--runs", "3x", "--runs must be a whole number from 1"},
        {"--warmup", "-1", "--warmup must be a whole number from 0"},
        {"--warmup", "", "--warmup must be a whole number from 0"},
        {"--batch", "1e6", "--batch must be a whole number from 1"},
        {"--points", "1", "--points must be a whole number from 2"},
        {"--back-to-back", "0", "--back-to-back must be a whole number from 1"},
        {"--back-to-back", "20000", "--back-to-back must be a whole number from 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const int status = run_bench(bad[i][0], bad[i][1], "4096", NULL);
        print_message("  fftgen-bench %s '%s' 4096 -> %d: %s", bad[i][0], bad[i][1], status, output);
        assert_int_equal(status, 2);
        assert_non_null(strstr(output, bad[i][2]));
        assert_true(one_line(output));
    }
    assert_int_equal(run_bench("--help", NULL), 0);
    assert_non_null(strstr(output, "--warmup W"));
    assert_non_null(strstr(output, "--back-to-back K"));
}

static void explain_prints_plan(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4096", "--radix", "16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "16 x 16 x 16 (3 stages)"));
    assert_non_null(strstr(output, "threads/block:  256"));
    assert_non_null(strstr(output, "shared memory:  34816 bytes"));
    /* radix 32: 32 points a thread, two exchanges for 8192 points instead of two and a shuffle tail */
    assert_int_equal(run_fftgen("--n", "8192", "--radix", "32", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "32 x 32 x 8 (3 stages)"));
    assert_non_null(strstr(output, "threads/block:  256 (256 per transform, 1 transform per block, 32 points per"
                                   " thread)"));
    assert_non_null(strstr(output, "(2 exchanges through fp32 shared memory)"));
    assert_int_equal(run_fftgen("--n", "16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "stage 1:        radix 16, 1 butterfly per transform,"));
    /* a block size: whole transforms up to that many threads, at least one transform */
    assert_int_equal(run_fftgen("--n", "256", "--block-threads", "64", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "threads/block:  64 (16 per transform, 4 transforms per block, 16 points per"
                                   " thread)"));
    assert_int_equal(run_fftgen("--n", "2048", "--radix", "32", "--block-threads", "32", "--explain", NULL), 0);
    assert_non_null(strstr(output, "threads/block:  64 (64 per transform, 1 transform per block, 32 points per"
                                   " thread)"));
    assert_int_equal(run_fftgen("--n", "16384", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "16 x 16 x 16 x 4 (4 stages)"));
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "2 passes over global memory"));
    /* fp32 2^15 and 2^16 on sm_90: one pass on thread-block clusters; older devices, or --cluster 1: passes */
    assert_int_equal(run_fftgen("--n", "65536", "--explain", NULL), 0);
    assert_non_null(strstr(output, "one kernel (one pass over global memory) on thread-block clusters of 8 blocks:"
                                   " block c transforms the 8192 points c + 8*j, then a radix-8 stage across the"
                                   " blocks"));
    assert_non_null(strstr(output, "stage 4:        radix 2, 4096 butterflies per transform, sub-transforms of 8192"
                                   " points, shared memory -> shared memory\n"
                                   "  stage 5:        radix 8 across the cluster's blocks, 8192 butterflies per"
                                   " transform, through distributed shared memory -> global memory\n"
                                   "  threads/block:  512 (8 blocks per transform, 16 points per thread)\n"
                                   "  shared memory:  69632 bytes per block (4 exchanges through fp32 shared memory,"
                                   " the last one across the cluster)\n"));
    assert_int_equal(run_fftgen("--n", "32768", "--explain", NULL), 0);
    assert_non_null(strstr(output, "on thread-block clusters of 4 blocks"));
    assert_int_equal(run_fftgen("--n", "65536", "--cluster", "1", "--explain", NULL), 0);
    assert_non_null(strstr(output, "2 passes over global memory"));
    assert_int_equal(run_fftgen("--n", "65536", "--arch", "sm_80", "--explain", NULL), 0);
    assert_non_null(strstr(output, "2 passes over global memory"));
    assert_int_equal(run_fftgen("--n", "65536", "--istride", "2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "2 passes over global memory")); /* a cluster reads dense transforms */
    assert_int_equal(run_fftgen("--n", "131072", "--precision", "fp16", "--cluster", "8", "--explain", NULL), 0);
    assert_non_null(strstr(output, "on thread-block clusters of 8 blocks: block c transforms the 16384 points"));
    assert_int_equal(run_fftgen("--n", "131072", "--precision", "fp16", "--cluster", "8", NULL), 0);
    assert_non_null(strstr(output, " * One pass on thread-block clusters of 8 blocks (sm_90 and newer)"));
    assert_non_null(strstr(output, "fftgen --n 131072 --cluster 8 --precision fp16"));
    assert_int_equal(run_fftgen("--n", "134217728", "--explain", NULL), 0);
    assert_non_null(strstr(output, "3 passes over global memory"));
    /* fp32 2^25 and 2^26 on sm_90: two passes, the twiddled columns on clusters; a requested size applies
     * to the columns of two passes where one pass on a cluster does not fit */
    assert_int_equal(run_fftgen("--n", "33554432", "--explain", NULL), 0);
    assert_non_null(strstr(output, "2 passes over global memory"));
    assert_non_null(strstr(output, "pass 1: 4096 transforms of 8192 points per 33554432-point transform, columns"
                                   " (strided, in tiles), times the four-step twiddles, on thread-block clusters of 4"
                                   " blocks: block c transforms the 2048 rows c + 4*j, then a radix-4 stage across the"
                                   " blocks\n"));
    assert_int_equal(run_fftgen("--n", "33554432", "--arch", "sm_80", "--explain", NULL), 0);
    assert_non_null(strstr(output, "3 passes over global memory"));
    assert_int_equal(run_fftgen("--n", "4194304", "--precision", "fp16", "--cluster", "2", NULL), 0);
    assert_non_null(strstr(output, "fftgen --n 4194304 --cluster 2 --precision fp16"));
    assert_non_null(strstr(output, " *      on thread-block clusters of 2 blocks (sm_90 and newer): block c transforms the"
                                   " rows\n"));
    assert_int_equal(run_fftgen("--n", "32", "--radix", "4", "--explain", NULL), 0);
    assert_non_null(strstr(output, "4 x 4 x 2 (3 stages)"));
    assert_int_equal(run_fftgen("--n", "512x256", "--explain", NULL), 0);
    assert_non_null(strstr(output, "512x256 2D fp32 FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "FFTs of 512 points along dimension 0, columns in tiles side by side"));
    assert_int_equal(run_fftgen("--n", "512", "--precision", "fp16", "--tensor-cores", "--explain", NULL), 0);
    assert_non_null(strstr(output, "sub-transforms of 256 points, shared memory -> shared memory, on tensor cores"));
    /* tensor cores pass by pass, and narrower tiles: what libfftgen's measured choices ask for */
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--tensor-cores=2", "--max-tile", "4",
                                "--explain", NULL), 0);
    const char *second = strstr(output, "  pass 2:");
    assert_non_null(second);
    const char *first_on_tensor_cores = strstr(output, "on tensor cores");
    assert_true(first_on_tensor_cores != NULL && first_on_tensor_cores > second); /* none in pass 1 */
    assert_non_null(strstr(output, "threads/block:  64 (16 per transform, 4 transforms per block"));
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--tensor-cores=2", "--max-tile", "4", NULL), 0);
    assert_non_null(strstr(output, "fftgen --n 65536 --tensor-cores=2 --max-tile 4 --precision fp16"));
    /* tiles pass by pass, the last value for the passes after it: wide columns, the rows at 8 */
    assert_int_equal(run_fftgen("--n", "134217728", "--precision", "fp16", "--max-tile", "16,16,8", "--explain",
                                NULL), 0);
    const char *third = strstr(output, "  pass 3:");
    assert_non_null(third);
    assert_non_null(strstr(output, "threads/block:  512 (32 per transform, 16 transforms per block"));
    assert_non_null(strstr(third, "threads/block:  256 (32 per transform, 8 transforms per block"));
    assert_int_equal(run_fftgen("--n", "134217728", "--precision", "fp16", "--max-tile", "16,16,8,8", NULL), 0);
    assert_non_null(strstr(output, "fftgen --n 134217728 --max-tile 16,16,8 --precision fp16"));
    assert_int_equal(run_fftgen("--n", "512x256", "--precision", "fp16", "--tensor-cores", "--explain", NULL), 0);
    assert_non_null(strstr(output, "FFTs of 256 points along dimension 1, contiguous rows"));
    /* split: every pass's radix-16 stages on tensor cores, tiled ones too; no fused 2D slices */
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "split", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1048576-point split FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "split into fp16 hi + 2^-11 lo"));
    assert_non_null(strstr(output, "    stage 2:        radix 16, 64 butterflies per transform, sub-transforms of 256 points,"
                                   " shared memory -> shared memory, on tensor cores"));
    assert_int_equal(run_fftgen("--n", "512x256", "--precision", "split-papers", "--explain", NULL), 0);
    assert_non_null(strstr(output, "512x256 2D split-papers FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "x = s1*hi + s2*lo"));
    assert_int_equal(run_fftgen("--n", "8x65536", "--explain", NULL), 0);
    assert_non_null(strstr(output, "a four-step pass of the 65536-point rows (dimension 1), into the work area"));
    /* dense columns too long for one block, or whose tiles would not fill a sector: on sm_90 one pass on
     * thread-block clusters, with tiles that fill one; elsewhere (or --cluster 1) two four-step passes */
    assert_int_equal(run_fftgen("--n", "32768x2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "32768x2 2D fp32 FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "pass 2: FFTs of 32768 points along dimension 0 on thread-block clusters of 8"
                                   " blocks, columns in tiles of 2 side by side: block c transforms the 4096 rows"
                                   " c + 8*j, then a radix-8 stage across the blocks"));
    assert_int_equal(run_fftgen("--n", "32768x2", "--arch", "sm_80", "--explain", NULL), 0);
    assert_non_null(strstr(output, "32768x2 2D fp32 FFT for sm_80, 3 passes"));
    assert_non_null(strstr(output, "pass 2: FFTs of 128 points, a four-step pass of the 32768-point columns"
                                   " (dimension 0) in tiles side by side, into the work area, times the four-step"
                                   " twiddles"));
    assert_non_null(strstr(output, "pass 3: FFTs of 256 points, a four-step pass of the 32768-point columns"
                                   " (dimension 0) in tiles side by side, from the work area"));
    assert_int_equal(run_fftgen("--n", "8192x8192", "--explain", NULL), 0);
    assert_non_null(strstr(output, "8192x8192 2D fp32 FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "on thread-block clusters of 4 blocks, columns in tiles of 4 side by side"));
    assert_non_null(strstr(output, "  stage 4:        radix 4 across the cluster's blocks, 2048 butterflies per"
                                   " transform, through distributed shared memory -> global memory\n"
                                   "    threads/block:  512 (128 per transform, 4 transforms per block, 4 blocks per"
                                   " tile, 16 points per thread)\n"));
    assert_int_equal(run_fftgen("--n", "8192x8192", "--cluster", "1", "--explain", NULL), 0);
    assert_non_null(strstr(output, "8192x8192 2D fp32 FFT for sm_90, 3 passes"));
    assert_int_equal(run_fftgen("--n", "8192x8192", "--cluster", "1", NULL), 0);
    assert_non_null(strstr(output, "fftgen --n 8192x8192 --cluster 1 --precision fp32"));
    /* fp32 tiles of 4 fill a sector: one block; fp16 ones do not: a cluster, tiles of 8 */
    assert_int_equal(run_fftgen("--n", "4096x4096", "--explain", NULL), 0);
    assert_non_null(strstr(output, "4096x4096 2D fp32 FFT for sm_90, 2 passes"));
    assert_null(strstr(output, "cluster"));
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "4096x4096 2D fp16 FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "on thread-block clusters of 4 blocks, columns in tiles of 8 side by side"));
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", NULL), 0);
    assert_non_null(strstr(output, " *   2. FFTs of 4096 points along dimension 0, in tiles of 8 side by side on"
                                   " clusters of 4\n"));
    assert_non_null(strstr(output, "grid = 4 * ceil(transforms / 8) blocks"));
    assert_non_null(strstr(output, "Runs on sm_90 and newer (thread-block clusters)"));
    assert_int_equal(run_fftgen("--n", "64x64x64", "--explain", NULL), 0);
    assert_non_null(strstr(output, "64 x 64 slices (dimensions 1 and 2) in one block"));
    /* fp32 slices of 65536 points on clusters of 8 blocks (sm_90); fp16, and sm_80, in two passes */
    assert_int_equal(run_fftgen("--n", "256x256x256", "--explain", NULL), 0);
    assert_non_null(strstr(output, "256x256x256 3D fp32 FFT for sm_90, 2 passes"));
    assert_non_null(strstr(output, "pass 1: 256 x 256 slices (dimensions 1 and 2) on thread-block clusters of 8 blocks:"
                                   " block c transforms the 32 rows c + 8*j (chain below), then their columns (radix"
                                   " 16 x 2) through shared memory, then a radix-8 stage across the blocks\n"));
    assert_int_equal(run_fftgen("--n", "256x256", NULL), 0);
    assert_non_null(strstr(output, " *   1. 256 x 256 slices on clusters of 8 blocks (sm_90 and newer): block c transforms"
                                   " the rows\n"));
    assert_int_equal(run_fftgen("--n", "256x256", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "256x256 2D fp16 FFT for sm_90, 2 passes"));
    assert_int_equal(run_fftgen("--n", "256x256", "--arch", "sm_80", "--explain", NULL), 0);
    assert_non_null(strstr(output, "256x256 2D fp32 FFT for sm_80, 2 passes"));
    /* fp16 between passes: fp16 for two passes; the last intermediate of three mixed where pass 3 reads
     * tiles of columns, else as shared-exponent complexes; the last two of four as shared-exponent
     * complexes; the request's choice shows in the command line */
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  between passes: 1-2 fp16\n"));
    assert_int_equal(run_fftgen("--n", "8388608", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  between passes: 1-2 fp16, 2-3 shared-exponent complexes (shared-exponent: 32 bits"));
    assert_int_equal(run_fftgen("--n", "2x4x131072", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  between passes: 1-2 fp16, 2-3 shared-exponent complexes, 3-4 shared-exponent"
                                   " complexes ("));
    assert_int_equal(run_fftgen("--n", "256x256x256", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  between passes: 1-2 fp16, 2-3 mixed (fp16 in pass 3's rows r with r / 16 odd,"
                                   " else shared-exponent) (shared-exponent: 32 bits"));
    assert_int_equal(run_fftgen("--n", "16x256x256", "--precision", "fp16", "--intermediate", "mixed", "--direction",
                                "forward", NULL), 0);
    assert_non_null(strstr(output, " * Between passes: 1-2 shared-exponent, 2-3 mixed (fp16 in pass 3's rows r with"
                                   " r / 1 odd, else shared-exponent) (store_shared_exponent below"));
    assert_non_null(strstr(output, "constexpr int MIXED_ROWS = 1;"));
    assert_non_null(strstr(output, "fftgen --n 16x256x256 --intermediate mixed --precision fp16"));
    /* passes on tensor cores keep shared-exponent complexes beside them (more error than the model counts) */
    assert_int_equal(run_fftgen("--n", "64x64x64", "--precision", "fp16", "--tensor-cores", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  between passes: 1-2 fp16, 2-3 shared-exponent complexes ("));
    assert_int_equal(run_fftgen("--n", "8388608", "--precision", "fp16", "--intermediate", "fp16", "--direction",
                                "forward", NULL), 0);
    assert_non_null(strstr(output, " * Between passes: 1-2 fp16, 2-3 fp16\n"));
    assert_non_null(strstr(output, "fftgen --n 8388608 --intermediate fp16 --precision fp16"));
    assert_null(strstr(output, "shared_exponent"));
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--intermediate", "shared-exponent",
                                "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, " * Between passes: 1-2 shared-exponent (store_shared_exponent below"));
    /* a radix-2 tail after radix 16 runs in registers, one exchange fewer; not after radix 8 */
    assert_int_equal(run_fftgen("--n", "8192", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "sub-transforms of 4096 points, shared memory -> registers, twiddles from the"
                                   " first (Chebyshev's recurrence)\n"));
    assert_non_null(strstr(output, "registers (pairs swapped between lanes 16 apart by warp shuffles) -> global memory"));
    assert_non_null(strstr(output, "(2 exchanges through fp32 shared memory)"));
    assert_int_equal(run_fftgen("--n", "8192", "--radix", "8", "--explain", NULL), 0);
    assert_null(strstr(output, "warp shuffles"));
    assert_non_null(strstr(output, "(4 exchanges through fp32 shared memory)"));
    /* strided 512-point passes that store columns from registers have it too */
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "pass 2: FFTs of 512 points along dimension 0, columns in tiles side by side\n"
                                   "    radix chain:    16 x 16 x 2 (3 stages)\n"
                                   "    stage 1:        radix 16, 32 butterflies per transform, sub-transforms of 16"
                                   " points, global memory -> shared memory\n"
                                   "    stage 2:        radix 16, 32 butterflies per transform, sub-transforms of 256"
                                   " points, shared memory -> registers\n"
                                   "    stage 3:        radix 2, 256 butterflies per transform, sub-transforms of 512"
                                   " points, registers (pairs swapped between lanes 16 apart by warp shuffles) ->"
                                   " global memory\n"));
}

/* Fused slices read their rows and write their columns straight between global memory and registers,
 * except where measured slower or not measured: fp32 rows under 512 points, fp16 rows under 64, fp16
 * columns longer than 128 points. */
static void slices_skip_the_copies_where_faster(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "128x128x128", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "    stage 1:        radix 16, 8 butterflies per transform, sub-transforms of 16"
                                   " points, global memory -> shared memory\n"
                                   "    stage 2:        radix 8, 16 butterflies per transform, sub-transforms of 128"
                                   " points, shared memory -> shared memory, twiddles from the first (Chebyshev's recurrence)\n"));
    assert_non_null(strstr(output, "139264 bytes per block (3 exchanges through fp32 shared memory)\n"));
    assert_int_equal(run_fftgen("--n", "128x128", "--explain", NULL), 0); /* fp32 rows of 128: a copy in */
    assert_non_null(strstr(output, "(3 exchanges through fp32 shared memory, plus a coalesced copy in)\n"));
    assert_int_equal(run_fftgen("--n", "256x64", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "(3 exchanges through fp32 shared memory, plus a coalesced copy out)\n"));
    /* rows of 32 (16 x 2), whose last stage runs the columns' first (radix 8) */
    assert_int_equal(run_fftgen("--n", "512x32", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "(3 exchanges through fp32 shared memory, plus coalesced copies in and out)\n"));
    assert_int_equal(run_fftgen("--n", "256x256", "--explain", NULL), 0); /* on a cluster: its last stage stores */
    assert_non_null(strstr(output, "(4 exchanges through fp32 shared memory, the last one across the cluster, plus a"
                                   " coalesced copy in)\n"));
}

/* The whole text of a file fftgen wrote (a static buffer: the next call overwrites it). */
static const char *file_text(const char *path)
{
    static char text[1 << 20];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* Two-pass plans: pass 1 writes each tile of columns as one contiguous block and pass 2 reads its rows
 * from those blocks in runs, in fp16 tiles of up to 8 straight into registers; on clusters, and in three
 * passes, the passes keep plain columns. */
static void two_passes_write_tiles_as_blocks(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "pass 1: 1024 transforms of 1024 points per 1048576-point transform, columns"
                                   " (strided, in tiles), times the four-step twiddles, each tile written as one"
                                   " block\n"));
    assert_non_null(strstr(output, "pass 2: 1024 transforms of 1024 points per 1048576-point transform, rows (read in"
                                   " runs from the blocks of the pass before), written transposed\n"
                                   "    radix chain:    16 x 16 x 4 (3 stages)\n"
                                   "    stage 1:        radix 16, 64 butterflies per transform, sub-transforms of 16"
                                   " points, global memory -> shared memory\n"));
    assert_null(strstr(output, "coalesced cop")); /* both passes go between global memory and registers */
    /* fp32 passes wait on DRAM and copy the runs through shared memory; fp16 tiles of 16 rows in runs of
     * 16 load with the lanes along the runs */
    assert_int_equal(run_fftgen("--n", "1048576", "--explain", NULL), 0);
    assert_non_null(strstr(output, "(2 exchanges through fp32 shared memory, plus a coalesced copy in)\n"));
    assert_int_equal(run_fftgen("--n", "32768", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "rows (read in runs from the blocks of the pass before), written transposed\n"
                                   "    radix chain:    16 x 16 (2 stages)\n"
                                   "    stage 1:        radix 16, 16 butterflies per transform, sub-transforms of 16"
                                   " points, global memory (lanes along the runs) -> shared memory\n"));
    assert_int_equal(run_fftgen("--n", "32768", "--precision", "fp16", "--max-tile", "16,8", "--explain", NULL), 0);
    assert_non_null(strstr(output, "sub-transforms of 16 points, global memory -> shared memory\n"));
    char path[300];
    snprintf(path, sizeof path, "%s/k1048576.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--direction", "forward", "-o", path, NULL), 0);
    assert_non_null(strstr(file_text(path), "// coalesced loads of the tile's rows in runs, straight into the first"
                                            " stage's registers"));
    unlink(path);
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, " *      each tile of 8 columns written as one block: point j of column c at j*8 +"
                                   " c mod 8\n"));
    assert_non_null(strstr(output, "per transform: rows, read in runs of 8 points from pass 1's blocks, written"
                                   " transposed\n"));
    assert_non_null(strstr(output, "constexpr int OUT_ELEM_STRIDE = 8; // elements between points of one transform"));
    assert_int_equal(run_fftgen("--n", "134217728", "--precision", "fp16", "--explain", NULL), 0);
    assert_null(strstr(output, "written as one block"));
    assert_int_equal(run_fftgen("--n", "33554432", "--explain", NULL), 0); /* fp32: columns on clusters */
    assert_non_null(strstr(output, "2 passes over global memory"));
    assert_null(strstr(output, "written as one block"));
}

/* --column-pairs: the passes listed load their fp16 columns a lane pair at a time, 8 bytes a row, with
 * the 4-byte loads kept for a partial tile or a buffer off 8 bytes; --explain and the file's command
 * say so; none without the flag; errors name the pass or the precision. */
static void column_pairs_on_request(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/pairs.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--column-pairs", "--direction", "forward",
                                "-o", path, NULL),
                     0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 512x512 --column-pairs=2 --precision fp16 --direction forward\n"));
    assert_non_null(strstr(text, "void load_point_pair(const point_t* pair, bool odd, long long step"));
    assert_non_null(strstr(text, "if (tile_ffts == FFTS_PER_BLOCK && ((size_t)in & 7) == 0) {"));
    assert_non_null(strstr(text, "load_point_pair(pair_src + 0 * IN_ELEM_STRIDE, odd, 32 * (long long)IN_ELEM_STRIDE,"
                                 " &v[0], &v[1]);"));
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--direction", "forward", "-o", path, NULL), 0);
    assert_null(strstr(file_text(path), "load_point_pair"));
    unlink(path);
    assert_int_equal(run_fftgen("--n", "16777216", "--precision", "fp16", "--max-tile", "32,32,8", "--column-pairs=1,2",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "global memory (both columns of a lane pair's row in 8 bytes) -> shared memory"));
    expect_rejected("column pairs are an fp16 choice", "512x512", "--column-pairs", NULL);
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--column-pairs=1", "--explain", NULL), 2);
    assert_non_null(strstr(output, "column pairs: pass 1 is not a tiled pass"));
    assert_int_equal(run_fftgen("--n", "1024", "--precision", "fp16", "--column-pairs", "--explain", NULL), 2);
    assert_non_null(strstr(output, "column pairs: this plan has no pass that loads fp16 columns"));
    /* a strided 1D input: pass 1's neighbouring columns lie 3 (or 2) points apart, so its loads take a
     * point each (the 8-byte pair load had read the wrong points on the GPU); at stride 1 and a padded
     * distance they still pair */
    const char *const strides[] = {"3", "2"};
    for (int i = 0; i < 2; ++i) {
        assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--column-pairs=1", "--istride", strides[i],
                                    "--explain", NULL),
                         0);
        assert_null(strstr(output, "lane pair"));
    }
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--column-pairs=1", "--idist", "65538",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "both columns of a lane pair's row in 8 bytes"));
}

/* --row-registers: fp32 rows in runs load straight into the first stage's registers in the passes listed;
 * the file's command and its loads say so, none without the flag; errors name the pass or the precision. */
static void row_registers_on_request(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/rows.cu", work_dir);
    const char *const straight =
        "coalesced loads of the tile's rows in runs, straight into the first stage's registers";
    assert_int_equal(run_fftgen("--n", "4194304", "--row-registers", "--direction", "forward", "-o", path, NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 4194304 --row-registers=2 --precision fp32 --direction forward\n"));
    assert_non_null(strstr(text, straight));
    assert_int_equal(run_fftgen("--n", "4194304", "--direction", "forward", "-o", path, NULL), 0);
    assert_null(strstr(file_text(path), straight));
    unlink(path);
    /* pass 2's first stage reads global memory; the rows after 64x4096's columns too */
    assert_int_equal(run_fftgen("--n", "4194304", "--row-registers=2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "sub-transforms of 16 points, global memory -> shared memory\n"
                                   "    stage 2:        radix 16, 128 butterflies per transform"));
    assert_null(strstr(output, "coalesced copy in"));
    assert_int_equal(run_fftgen("--n", "64x4096", "--order", "columns-first", "--max-tile", "0,4", "--row-registers",
                                "--explain", NULL),
                     0);
    assert_null(strstr(output, "coalesced copy in"));
    expect_rejected("row registers: this plan has no pass that reads fp32 rows in runs", "4096", "--row-registers",
                    NULL);
    assert_int_equal(run_fftgen("--n", "4194304", "--precision", "fp16", "--row-registers", "--explain", NULL), 2);
    assert_non_null(strstr(output, "row registers are an fp32 choice"));
    assert_int_equal(run_fftgen("--n", "4194304", "--row-registers=1", "--explain", NULL), 2);
    assert_non_null(strstr(output, "row registers: pass 1 does not read rows in runs from the pass before"));
    assert_int_equal(run_fftgen("--n", "4194304", "--row-registers=3", "--explain", NULL), 2);
    assert_non_null(strstr(output, "row registers"));
}

/* A 3D shape whose slices all fit one block takes one pass: its slices, then the columns along
 * dimension 0 in the same shared memory; not where a request names a pass, nor fp16 volumes above
 * 4096 points at fewer than 16 points a thread, nor slices of 4 or 8 points along a long dimension 0
 * (measured slower). Slices of few rows or short rows take one pass too, in rounds. */
static void small_volumes_in_one_pass(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "8x8x8", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_non_null(strstr(output, "a whole transform a block (2 of them): its 8 slices, then the columns along"
                                   " dimension 0 (radix 8) in the same shared memory"));
    assert_int_equal(run_fftgen("--n", "16x16x64", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_int_equal(run_fftgen("--n", "8x8x8", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "constexpr int VOLUME_DEPTH = 8; // slices per transform, all in one block"));
    assert_non_null(strstr(output, "const int volume_in_block = block_thread / (VOLUME_DEPTH * SLICE_THREADS);"));
    /* dimension 0 shorter than the slices' 16 points a thread: 8 of its columns a thread, in turn */
    assert_int_equal(run_fftgen("--n", "2x64x64", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_non_null(strstr(output, "the columns along dimension 0 (radix 2, 8 columns a thread in turn)"));
    assert_non_null(strstr(output, "512 (256 per transform, 2 transforms per block, 16 points per thread)"));
    assert_int_equal(run_fftgen("--n", "2x64x64", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "constexpr int DEPTH_ROUNDS = 8; // columns along dimension 0 a thread transforms"
                                   " in turn"));
    assert_non_null(strstr(output, "for (int round = 0; round < DEPTH_ROUNDS; ++round)"));
    /* a slice of eight rows: its rows at 16 points a thread, its 8-point columns 2 a thread in turn */
    assert_int_equal(run_fftgen("--n", "8x1024", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_non_null(strstr(output, "the columns (radix 8, 2 columns a thread in turn) through shared memory"));
    assert_int_equal(run_fftgen("--n", "8x1024", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "constexpr int COLUMN_ROUNDS = 2; // columns of a slice a thread transforms in turn"));
    /* a slice of two rows: the rows' last stage (radix 8, 16 points a thread) holds the same butterfly of
     * both rows, runs the 2-point columns in registers and stores them: no column phase */
    assert_int_equal(run_fftgen("--n", "2x2048", "--explain", NULL), 0);
    assert_non_null(strstr(output, "the columns (radix 2) in registers, in the rows' last stage"));
    assert_non_null(strstr(output, "shared memory -> the columns in registers -> global memory"));
    assert_non_null(strstr(output, "34816 bytes per block (2 exchanges through fp32 shared memory)"));
    assert_int_equal(run_fftgen("--n", "2x2048", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, " *      the rows' last stage runs the whole columns in registers and stores the"
                                   " outputs"));
    assert_null(strstr(output, "COLUMN_ROUNDS"));
    /* 4096-point rows take radix 32 for it (32 x 32 x 4; 16 x 16 x 16 ends on radix 16) */
    assert_int_equal(run_fftgen("--n", "4x4096", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "radix chain:    32 x 32 x 4"));
    assert_non_null(strstr(output, "the columns (radix 4) in registers, in the rows' last stage"));
    /* the mirror, rows of two points: its columns at 16 points a thread, its rows 8 a thread in turn */
    assert_int_equal(run_fftgen("--n", "2048x2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_non_null(strstr(output, "in one block: the rows (chain below, 8 rows a thread in turn), then the columns"
                                   " (radix 16 x 16 x 8)"));
    assert_int_equal(run_fftgen("--n", "2048x2", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "constexpr int ROW_ROUNDS = 8; // rows of a slice a thread transforms in turn"));
    /* fp32 rows of 8 points keep 8 points a thread where that fits a block (measured faster) */
    assert_int_equal(run_fftgen("--n", "512x8", "--direction", "forward", NULL), 0);
    assert_null(strstr(output, "ROW_ROUNDS"));
    /* slices of 4 points, slice j at padded(4j): the volume of 8 points in 16 and a pad */
    assert_int_equal(run_fftgen("--n", "2x2x2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "1 pass over global memory"));
    assert_int_equal(run_fftgen("--n", "2x2x2", "--direction", "forward", NULL), 0);
    assert_non_null(strstr(output, "constexpr int VOLUME_SMEM_POINTS = 17;"));
    assert_non_null(strstr(output, "padded((slice_in_block % VOLUME_DEPTH) * POINTS);"));
    const char *const two_passes[][6] = {
        {"8x8x8", "--max-tile", "256", NULL},             /* a request that names passes */
        {"32x32x8", "--precision", "fp16", NULL},          /* fp16, 8192 points at 8 a thread */
        {"128x2x2", NULL},                                /* slices of 4 points, dimension 0 over 64 */
        {"64x2x2", "--precision", "fp16", NULL},           /* the same in fp16, over 32 */
        {"32x32x32", NULL},                               /* 32768 points: more than a block holds */
    };
    for (size_t i = 0; i < sizeof two_passes / sizeof two_passes[0]; ++i) {
        assert_int_equal(run_fftgen("--n", two_passes[i][0], "--explain", two_passes[i][1], two_passes[i][2], NULL), 0);
        assert_non_null(strstr(output, "2 passes over global memory"));
    }
    assert_int_equal(run_fftgen("--n", "32x32x8", "--explain", NULL), 0); /* fp32: one */
    assert_non_null(strstr(output, "1 pass over global memory"));
}

/* --order columns-first: the columns into the work area, each tile as a block, then the rows read from
 * the blocks and written whole; the generated file says so and names the option in its command. */
static void columns_first_through_the_work_area(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", "--order", "columns-first", "--explain",
                                NULL), 0);
    assert_non_null(strstr(output, "fftgen plan: 4096x4096 2D fp16 FFT for sm_90, 2 passes over global memory (the"
                                   " columns first, through the work area)\n"
                                   "  pass 1: FFTs of 4096 points along dimension 0, columns in tiles side by side,"
                                   " each tile written as one block into the work area\n"));
    assert_non_null(strstr(output, "  pass 2: FFTs of 4096 points along dimension 1, rows in tiles, read in runs from"
                                   " the blocks in the work area\n"));
    assert_non_null(strstr(output, "    threads/block:  1024 (256 per transform, 4 transforms per block, 16 points per"
                                   " thread)\n"));
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", "--order", "rows-first", "--explain", NULL),
                     0);
    assert_null(strstr(output, "the columns first"));
    char path[300];
    snprintf(path, sizeof path, "%s/k1024x512.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "1024x512", "--order", "columns-first", "--direction", "forward", "-o", path,
                                NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 1024x512 --order columns-first --precision fp32 --direction forward"));
    assert_non_null(strstr(text, " * Passes, the columns first (`in` to `work` to `out`):\n"
                                   " *   1. FFTs of 1024 points (radix 16 x 16 x 4) along dimension 0, in tiles of 8"
                                   " columns side by side; each\n"
                                   " *      tile written to `work` as one block: point j of column c at j*8 + c mod 8\n"));
    assert_non_null(strstr(text, "constexpr int IN_RUN_POINTS = 8; // points per run of one transform"));
    assert_non_null(strstr(text, "constexpr int IN_RUN_STRIDE = 8192; // elements between runs of one transform"));
    unlink(path);
}

/* --split-columns: the 4096-point columns in two four-step passes of 64 points, the first with the
 * four-step twiddles into the work area; the generated file names the option in its command. */
static void columns_split_in_two_passes(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", "--split-columns", "--explain", NULL), 0);
    assert_non_null(strstr(output, "fftgen plan: 4096x4096 2D fp16 FFT for sm_90, 3 passes over global memory"));
    assert_non_null(strstr(output, "  pass 2: FFTs of 64 points, a four-step pass of the 4096-point columns (dimension"
                                   " 0) in tiles side by side, into the work area, times the four-step twiddles\n"));
    assert_non_null(strstr(output, "  pass 3: FFTs of 64 points, a four-step pass of the 4096-point columns (dimension"
                                   " 0) in tiles side by side, from the work area\n"));
    assert_non_null(strstr(output, "    threads/block:  128 (4 per transform, 32 transforms per block, 16 points per"
                                   " thread)\n"));
    assert_null(strstr(output, "cluster"));
    char path[300];
    snprintf(path, sizeof path, "%s/k_split.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "64x8192", "--split-columns", "--direction", "forward", "-o", path, NULL), 0);
    assert_non_null(strstr(file_text(path), "fftgen --n 64x8192 --split-columns --precision fp32 --direction forward"));
    unlink(path);
}

/* --four-step N1: a 1D size in two passes split as asked (columns of N1 points, then rows of n / N1),
 * also where the planner would take one pass on a cluster; the generated file names the option in its
 * command, and requests it cannot take are refused with the reason. */
static void four_step_split_as_asked(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4194304", "--four-step", "1024", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  pass 1: 4096 transforms of 1024 points per 4194304-point transform, columns"));
    assert_non_null(strstr(output, "  pass 2: 1024 transforms of 4096 points per 4194304-point transform, rows"));
    assert_int_equal(run_fftgen("--n", "65536", "--four-step", "256", "--explain", NULL), 0);
    assert_non_null(strstr(output, "65536-point fp32 FFT for sm_90, 2 passes over global memory"));
    assert_null(strstr(output, "cluster"));
    char path[300];
    snprintf(path, sizeof path, "%s/k_four_step.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "32768", "--four-step", "64", "--precision", "fp16", "--direction", "forward",
                                "-o", path, NULL), 0);
    assert_non_null(strstr(file_text(path), "fftgen --n 32768 --four-step 64 --precision fp16 --direction forward"));
    unlink(path);
    expect_rejected("--four-step takes a power of two from 2 to 2^29, got '3'", "65536", "--four-step", "3");
    expect_rejected("--four-step takes a power of two from 2 to 2^29, got '1'", "65536", "--four-step", "1");
    expect_rejected("four-step columns of 65536 points: not a power of two from 2 to half the size 65536", "65536",
                    "--four-step", "65536");
    expect_rejected("size 4096 is one kernel for fp32 on sm_90: a four-step split applies to sizes of two passes",
                    "4096", "--four-step", "64");
    expect_rejected("size 4194304: no two-pass plan takes columns of 512 points for fp32 on sm_90", "4194304",
                    "--four-step", "512");
    expect_rejected("a four-step split applies to 1D sizes of two passes and to 2D shapes, not to 3D", "64x64x64",
                    "--four-step", "16");
}

/* --four-step on a dense 2D shape: dimension 0's columns cut short in pass 1 (twiddled, into the work
 * area), the rest of each column fused with the rows in slices in pass 2, whose rows go to every N1-th
 * row of the output; the file names the option in its command and describes the order; shapes and
 * layouts it cannot take are refused with the reason. */
static void four_step_split_of_a_2d_shape(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4096x4096", "--precision", "fp16", "--four-step", "1024", "--explain", NULL), 0);
    assert_non_null(strstr(output, "4096x4096 2D fp16 FFT for sm_90, 2 passes over global memory (dimension 0 split"
                                   " four-step: its short columns, then the rest of them fused with the rows in"
                                   " slices, through the work area)"));
    assert_non_null(strstr(output, "  pass 1: FFTs of 1024 points, a four-step pass of the 4096-point columns"
                                   " (dimension 0) in tiles side by side, into the work area, times the four-step"
                                   " twiddles\n"));
    assert_non_null(strstr(output, "  pass 2: 4 x 4096 slices (dimensions 0 and 1) in one block"));
    assert_non_null(strstr(output, "slices of 4 rows of the work area, each the last 4 points of the four-step"
                                   " columns; slice s's row k written to the output's row s mod 1024 + 1024*k\n"));
    char path[300];
    snprintf(path, sizeof path, "%s/k_four_step_2d.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "64x256", "--four-step", "16", "--direction", "forward", "-o", path, NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 64x256 --four-step 16 --precision fp32 --direction forward"));
    assert_non_null(strstr(text, " *      written to `out`'s row s mod 16 + 16*k\n"));
    assert_non_null(strstr(text, "constexpr int OUT_ROW_STRIDE = 4096; // elements between a slice's output rows"));
    unlink(path);
    expect_rejected("shape 512x512: four-step 512 must be shorter than dimension 0 (512 points)", "512x512",
                    "--four-step", "512");
    expect_rejected("shape 4096x8192: four-step 1024: a slice of 4 rows of 8192 points does not fit one block",
                    "4096x8192", "--four-step", "1024");
    expect_rejected_with("shape 512x512: a four-step split of dimension 0 takes dense layouts only (stride 1, no"
                         " embeds)", "512x512", "--four-step", "64", "--istride", "2");
    expect_rejected_with("shape 4096x4096: a four-step split of dimension 0 and the columns split in two column"
                         " passes exclude each other", "4096x4096", "--four-step", "1024", "--split-columns", NULL);
    expect_rejected_with("shape 4096x4096: a four-step split of dimension 0 runs its slices (pass 2) on CUDA cores:"
                         " fused slices have no tensor-core stages", "4096x4096", "--precision", "split", "--four-step",
                         "1024");
    expect_rejected_with("shape 512x16: four-step 2: slices of 256 rows copy their outputs out whole through shared"
                         " memory, and their rows must interleave with the other slices'", "512x16", "--precision",
                         "fp16", "--four-step", "2");
}

/* --radix on a 2D shape whose slices do not fit a block: its rows (one kernel) take it, as a 1D size
 * would, and the generated file names it in its command. */
static void rows_take_a_radix(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "8192x8192", "--precision", "fp16", "--radix", "32", "--explain", NULL), 0);
    assert_non_null(strstr(output, "  pass 1: FFTs of 8192 points along dimension 1, contiguous rows\n"
                                   "    radix chain:    32 x 32 x 8 (3 stages)\n"));
    char path[300];
    snprintf(path, sizeof path, "%s/k_rows.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "64x8192", "--radix", "32", "--direction", "forward", "-o", path, NULL), 0);
    assert_non_null(strstr(file_text(path), "fftgen --n 64x8192 --radix 32 --precision fp32 --direction forward"));
    unlink(path);
}

/* An odd power of two splits with the shorter columns first: measured faster in both precisions
 * (planner.c, plan_two_passes) */
static void odd_powers_take_the_shorter_columns_first(void **state)
{
    (void)state;
    const char *const precisions[] = {"fp16", "fp32"};
    for (size_t i = 0; i < sizeof precisions / sizeof precisions[0]; ++i) {
        assert_int_equal(run_fftgen("--n", "524288", "--precision", precisions[i], "--explain", NULL), 0);
        assert_non_null(strstr(output, "pass 1: 1024 transforms of 512 points per 524288-point transform, columns"));
        assert_non_null(strstr(output, "pass 2: 512 transforms of 1024 points per 524288-point transform, rows"));
        assert_int_equal(run_fftgen("--n", "2097152", "--precision", precisions[i], "--explain", NULL), 0);
        assert_non_null(strstr(output, "pass 1: 2048 transforms of 1024 points per 2097152-point transform, columns"));
    }
}

/* The measured radices of the smallest fp16 kernels (planner.c, default_single_kernel_radix): 32 points
 * in one thread, 64 and 128 on radix 8; fp32, a named radix and tensor cores keep radix 16. Twiddles
 * of untiled fp16 radix-16 stages come from four loads (templates/stage.lua, emit_twiddle_powers). */
static void small_fp16_sizes_take_their_measured_radix(void **state)
{
    (void)state;
    static const char *const chains[][3] = {{"32", "fp16", "radix chain:    32 (1 stage)"},
                                            {"64", "fp16", "radix chain:    8 x 8 (2 stages)"},
                                            {"128", "fp16", "radix chain:    8 x 8 x 2 (3 stages)"},
                                            {"256", "fp16", "radix chain:    16 x 16 (2 stages)"},
                                            {"32", "fp32", "radix chain:    16 x 2 (2 stages)"},
                                            {"64", "fp32", "radix chain:    16 x 4 (2 stages)"}};
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; ++i) {
        assert_int_equal(run_fftgen("--n", chains[i][0], "--precision", chains[i][1], "--explain", NULL), 0);
        assert_non_null(strstr(output, chains[i][2]));
    }
    assert_int_equal(run_fftgen("--n", "64", "--precision", "fp16", "--radix", "16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "radix chain:    16 x 4 (2 stages)"));
    assert_int_equal(run_fftgen("--n", "64", "--precision", "fp16", "--tensor-cores", "--explain", NULL), 0);
    assert_non_null(strstr(output, "radix chain:    16 x 4 (2 stages)"));
    /* one twiddle load a radix-16 butterfly (row 1, offset 0) in an untiled fp16 kernel, the other
     * fourteen by Chebyshev's recurrence from it (two fused multiply-adds each); all fifteen in fp32 */
    char path[300];
    snprintf(path, sizeof path, "%s/fft256.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "256", "--precision", "fp16", "-o", path, NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "const float2 w1_0 = load_twiddle(tw, 0);"));
    assert_non_null(strstr(text, "const float two_cos_0 = 2.0f * w1_0.x;"));
    assert_non_null(strstr(text, "const float2 w15_0 = chebyshev_next_conj(two_cos8_0, w7_0, w1_0);"));
    assert_null(strstr(text, "load_twiddle(tw, 16)"));
    assert_int_equal(run_fftgen("--n", "256", "--precision", "fp32", "-o", path, NULL), 0);
    text = file_text(path);
    assert_null(strstr(text, "w8_0"));
    assert_non_null(strstr(text, "load_twiddle(tw, 32)"));
    /* radix 8 the same way: twiddle 1 loaded, 2 to 7 from it */
    assert_int_equal(run_fftgen("--n", "64", "--precision", "fp16", "-o", path, NULL), 0);
    text = file_text(path);
    assert_non_null(strstr(text, "const float2 w1_0 = load_twiddle(tw, 0);"));
    assert_non_null(strstr(text, "const float2 w4_0 = chebyshev_double(two_cos2_0, w2_0);"));
    assert_null(strstr(text, "load_twiddle(tw, 8)"));
    unlink(path);
}

/* Tiled passes load all their twiddles unless asked (fftgen tune measures which passes gain). */
/* The header of the file that `fftgen --n N --precision fp16 FLAG` writes gives the command that makes
 * it again, `command` among its words. */
static void expect_fp16_command(const char *n, const char *flag, const char *command)
{
    char path[300];
    snprintf(path, sizeof path, "%s/command.cu", work_dir);
    assert_int_equal(run_fftgen("--n", n, "--precision", "fp16", flag, "-o", path, NULL), 0);
    assert_non_null(strstr(file_text(path), command));
    unlink(path);
}

static void tiled_passes_take_twiddle_powers_on_request(void **state)
{
    (void)state;
    static const char *const powers = "twiddles from the first (Chebyshev's recurrence)";
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--explain", NULL), 0);
    assert_null(strstr(output, powers));
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--twiddle-powers=2", "--explain", NULL), 0);
    const char *second = strstr(output, "pass 2:");
    assert_non_null(second);
    const char *first_powers = strstr(output, powers);
    assert_true(first_powers != NULL && first_powers > second); /* in pass 2 only */
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--twiddle-powers", "--explain", NULL), 0);
    assert_true(strstr(output, powers) < strstr(output, "pass 2:"));
    expect_fp16_command("2097152", "--twiddle-powers=2", "--twiddle-powers=2 --precision fp16");
}

/* 1024-point tiled passes in radix 32 (32 x 32, one exchange) where asked; rows of one kernel cannot */
static void tiled_passes_take_radix_32_on_request(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "1024x1024", "--radix32-passes=2", "--explain", NULL), 0);
    const char *second = strstr(output, "pass 2:"), *wide = strstr(output, "radix chain:    32 x 32 (2 stages)");
    assert_true(second != NULL && wide != NULL && wide > second);
    assert_non_null(strstr(output, "threads/block:  256 (32 per transform, 8 transforms per block, 32 points per"
                                   " thread)"));
    assert_non_null(strstr(output, "1 exchange through fp32 shared memory"));
    assert_int_equal(run_fftgen("--n", "1024x1024", "--radix32-passes=1", "--explain", NULL), 2);
    assert_non_null(strstr(output, "radix-32 passes: pass 1 is not a tiled pass"));
    assert_int_equal(run_fftgen("--n", "1048576", "--radix32-passes=3", "--explain", NULL), 2);
    assert_non_null(strstr(output, "radix-32 passes: pass 3 named, but the plan has 2 passes"));
    /* a cluster's blocks too: fp32 2^25's 8192-point columns on 4 blocks, 2048 points each as 32 x 32 x 2 */
    assert_int_equal(run_fftgen("--n", "33554432", "--radix32-passes=1", "--explain", NULL), 0);
    const char *clustered = strstr(output, "on thread-block clusters of 4 blocks");
    assert_true(clustered != NULL && clustered < strstr(output, "pass 2:"));
    assert_non_null(strstr(output, "radix chain:    32 x 32 x 2 (3 stages)"));
    expect_rejected("--radix32-passes=0: expected pass numbers from 1 to 5", "1048576", "--radix32-passes=0", NULL);
    expect_rejected("radix-32 passes: this plan has no tiled pass that can take them", "4096", "--radix32-passes",
                    NULL);
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "split", "--radix32-passes", "--explain", NULL), 2);
    assert_non_null(strstr(output, "--precision split runs radix-16 stages on tensor cores: radix-32 passes do not"
                                   " apply"));
    expect_fp16_command("1048576", "--radix32-passes", "--radix32-passes=1,2 --precision fp16");
}

/* Short columns of 2D and 3D shapes straight into registers where asked, not through shared memory */
static void short_columns_load_into_registers_on_request(void **state)
{
    (void)state;
    static const char *const copies = "plus coalesced copies in and out";
    assert_int_equal(run_fftgen("--n", "256x128", "--precision", "fp16", "--explain", NULL), 0);
    assert_true(strstr(output, copies) > strstr(output, "pass 2:"));
    assert_int_equal(run_fftgen("--n", "256x128", "--precision", "fp16", "--column-registers=2", "--explain", NULL),
                     0);
    assert_null(strstr(output, copies));
    assert_int_equal(run_fftgen("--n", "256x128", "--column-registers=1", "--explain", NULL), 2);
    assert_non_null(strstr(output, "column registers: pass 1 is not a tiled pass"));
    assert_int_equal(run_fftgen("--n", "512x512x512", "--column-registers=2", "--explain", NULL), 2);
    assert_non_null(strstr(output, "column registers: pass 2 loads its columns straight already"));
    expect_rejected("column registers: this plan has no pass that copies its columns", "4096", "--column-registers",
                    NULL);
    expect_rejected("--column-registers=9: expected pass numbers from 1 to 5", "256x128", "--column-registers=9",
                    NULL);
    expect_fp16_command("256x256x256", "--column-registers", "--column-registers=2,3 --precision fp16");
}

/* Each of the NULL-terminated `needles` occurs in `text`. */
static void expect_all(const char *text, const char *const *needles)
{
    for (; *needles != NULL; ++needles) {
        if (strstr(text, *needles) == NULL) print_message("  missing: %s\n", *needles);
        assert_non_null(strstr(text, *needles));
    }
}

/* fp16 stage twiddles computed with __sincosf and Chebyshev's recurrence where asked (passes, and fused slices in one block); the tables stay out of the file */
static void passes_compute_twiddles_on_request(void **state)
{
    (void)state;
    static const char *const computed = "twiddles computed (__sincosf, then Chebyshev's recurrence)";
    assert_int_equal(run_fftgen("--n", "16384", "--precision", "fp16", "--radix", "32", "--explain", NULL), 0);
    assert_null(strstr(output, computed));
    assert_int_equal(run_fftgen("--n", "16384", "--precision", "fp16", "--radix", "32", "--computed-twiddles",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, computed));
    /* both passes of a four-step split, or only the second */
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--computed-twiddles=2", "--explain", NULL),
                     0);
    const char *second = strstr(output, "pass 2:"), *first_computed = strstr(output, computed);
    assert_true(second != NULL && first_computed != NULL && first_computed > second);
    static const char *const computed_pass = "times the four-step twiddles, each tile written as one block (computed:"
                                             " __sincosf, then Chebyshev's recurrence)";
    assert_null(strstr(output, computed_pass));
    char path[300];
    /* a four-step pass that computes its stage twiddles computes its pass twiddles too: no tables */
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--computed-twiddles=1", "--explain", NULL),
                     0);
    assert_non_null(strstr(output, computed_pass));
    snprintf(path, sizeof path, "%s/computed_pass.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "1048576", "--precision", "fp16", "--computed-twiddles=1", "-o", path, NULL),
                     0);
    const char *pass_text = file_text(path);
    assert_non_null(strstr(pass_text, "computed_twiddle((column * fft_thread) & (TWIDDLE_N - 1), TWIDDLE_N)"));
    assert_null(strstr(pass_text, "post_twiddles_0"));
    unlink(path);
    snprintf(path, sizeof path, "%s/computed.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "16384", "--precision", "fp16", "--radix", "32", "--computed-twiddles", "-o",
                                path, NULL),
                     0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "computed_twiddle_step(k, 16384, &two_cos_0)"));
    assert_null(strstr(text, "__device__ const float2 twiddles_"));
    unlink(path);
    expect_rejected("computed twiddles are an fp16 choice", "4096", "--computed-twiddles", NULL);
    /* a fused slice in one block: its rows' stages list it, its columns' chain says it */
    assert_int_equal(run_fftgen("--n", "128x128x128", "--precision", "fp16", "--radix", "32", "--computed-twiddles=1",
                                "--explain", NULL),
                     0);
    static const char *const slice[] = {"the columns' twiddles computed (__sincosf, then Chebyshev's recurrence)",
                                        "radix 4, 32 butterflies per transform, sub-transforms of 128 points, shared"
                                        " memory -> shared memory, twiddles computed (__sincosf, then Chebyshev's recurrence)",
                                        NULL};
    expect_all(output, slice);
    assert_null(strstr(strstr(output, "pass 2:"), computed));
    assert_int_equal(run_fftgen("--n", "16x16", "--precision", "fp16", "--computed-twiddles=1", "--explain", NULL), 2);
    assert_non_null(strstr(output, "computed twiddles: pass 1 is a slice whose rows and columns have one stage each"));
    assert_int_equal(run_fftgen("--n", "16x16", "--precision", "fp16", "--computed-twiddles", "--explain", NULL), 2);
    assert_non_null(strstr(output, "computed twiddles: this plan has no stage twiddles to compute"));
    assert_int_equal(run_fftgen("--n", "256x256", "--precision", "fp16", "--cluster", "8", "--computed-twiddles=1",
                                "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "computed twiddles: pass 1 is a slice on a cluster"));
    assert_int_equal(run_fftgen("--n", "4096", "--precision", "fp16", "--tensor-cores", "--computed-twiddles=1",
                                "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "computed twiddles: pass 1 runs on tensor cores"));
    assert_int_equal(run_fftgen("--n", "4096", "--precision", "fp16", "--computed-twiddles=2", "--explain", NULL), 2);
    assert_non_null(strstr(output, "computed twiddles: pass 2 named, but the plan has 1 pass"));
    expect_fp16_command("8192", "--computed-twiddles", "--computed-twiddles=1 --precision fp16");
}

/* A stage that derives its twiddles from the first (fp16) holds only its table's first row; tensor-core
 * stages and fp32 read every row */
static void derived_twiddles_keep_one_table_row(void **state)
{
    (void)state;
    static const struct {
        const char *precision, *tensor_cores, *stage2, *stage3;
    } cases[] = {
        {"fp16", NULL, "twiddles_2[16] =", "twiddles_3[256] ="},
        {"fp16", "--tensor-cores", "twiddles_2[240] =", "twiddles_3[3840] ="},
        {"fp32", NULL, "twiddles_2[240] =", "twiddles_3[3840] ="},
    };
    char path[300];
    snprintf(path, sizeof path, "%s/table_rows.cu", work_dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        assert_int_equal(run_fftgen("--n", "4096", "--precision", cases[i].precision, "-o", path,
                                    cases[i].tensor_cores, NULL),
                         0);
        const char *text = file_text(path);
        assert_non_null(strstr(text, cases[i].stage2));
        assert_non_null(strstr(text, cases[i].stage3));
        unlink(path);
    }
}

/* Fused slices: where the rows' last stage leaves a thread several butterflies, it runs the columns'
 * first stage on them (64x64 at 16 points a thread, 128x128 at 32): one exchange fewer */
static void slices_merge_a_stage(void **state)
{
    (void)state;
    /* (and their 3D columns in tiles of 32 on request: 128-byte fp16 runs, wider than the default 16) */
    assert_int_equal(run_fftgen("--n", "64x64x64", "--precision", "fp16", "--max-tile", "0,32", "--explain", NULL), 0);
    assert_non_null(strstr(output, "threads/block:  128 (4 per transform, 32 transforms per block, 16 points per"
                                   " thread)"));
    static const char *const merged_64[] = {
        "the columns (radix 4 x 16) through shared memory; the rows' last stage runs the columns' first on its"
        " outputs, in registers",
        "(2 exchanges through fp32 shared memory)", NULL};
    assert_int_equal(run_fftgen("--n", "64x64", "--precision", "fp16", "--explain", NULL), 0);
    expect_all(output, merged_64);
    /* 128x128 at 16 points a thread: 16 x 8 rows, and the columns' 16 x 8 need three exchanges either way */
    static const char *const plain_128[] = {"the columns (radix 16 x 8) through shared memory\n",
                                            "(3 exchanges through fp32 shared memory)", NULL};
    assert_int_equal(run_fftgen("--n", "128x128", "--precision", "fp16", "--explain", NULL), 0);
    expect_all(output, plain_128);
    static const char *const merged_128[] = {
        "the columns (radix 8 x 16) through shared memory; the rows' last stage", "radix chain:    32 x 4 (2 stages)",
        "threads/block:  512 (512 per transform, 1 transform per block, 32 points per thread)",
        "(2 exchanges through fp32 shared memory)", NULL};
    assert_int_equal(run_fftgen("--n", "128x128", "--precision", "fp16", "--radix", "32", "--explain", NULL), 0);
    expect_all(output, merged_128);
    char path[300];
    snprintf(path, sizeof path, "%s/slice32.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "128x128", "--radix", "32", "-o", path, NULL), 0);
    static const char *const source_128[] = {
        "fftgen --n 128x128 --radix 32 --precision fp32",
        "the rows' last stage and the columns' first run in one phase, in registers",
        "then the columns' first stage (radix 8)", NULL};
    expect_all(file_text(path), source_128);
    unlink(path);
}

/* sm_90 one-kernel 1D sizes and 2D/3D slices ask L2 for the input of the block a distance on: by default,
 * at the distance asked, not at all with 0; refused, naming why, where no kernel can take it */
static void l2_prefetch_on_request(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "4096", "--precision", "fp16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "L2 prefetch:    each block asks L2 for the input 1024 KB further on (sm_90)"));
    /* the file: by default (1 MB of 16 KB transforms: 64 blocks on; the command line as it was), at the
     * distance asked (64 KB transforms: 32 blocks on), none with 0, none for sm_80 */
    static const struct { const char *n, *precision, *arch, *kb, *present[2], *absent; } files[] = {
        {"4096", "fp16", "sm_90", NULL,
         {"fftgen --n 4096 --radix 16 --precision fp16", "constexpr int L2_PREFETCH_BLOCKS = 64;"}, NULL},
        {"8192", "fp32", "sm_90", "2048",
         {"fftgen --n 8192 --radix 16 --l2-prefetch 2048 --precision fp32", "constexpr int L2_PREFETCH_BLOCKS = 32;"},
         NULL},
        {"4096", "fp32", "sm_90", "0", {"fftgen --n 4096 --radix 16 --l2-prefetch 0", "__global__"}, "prefetch_to_l2"},
        /* slices: 2 MB on for blocks of 1024 threads (128x128 fp32: 128 KB a block), 1 MB for the others
         * (32x32 fp16: two 4 KB slices a block, their block's first thread asking once) */
        {"128x128", "fp32", "sm_90", NULL,
         {"constexpr int L2_PREFETCH_BLOCKS = 16; // blocks ahead whose input a block asks L2 for (2048 KB)",
          "if (threadIdx.x == 0 && ahead < batch)"},
         NULL},
        {"32x32", "fp16", "sm_90", NULL,
         {"constexpr int L2_PREFETCH_BLOCKS = 128; // blocks ahead whose input a block asks L2 for (1024 KB)",
          "if (threadIdx.x == 0 && ahead < batch)"},
         NULL},
        {"32x32", "fp16", "sm_90", "0", {"fftgen --n 32x32 --l2-prefetch 0", "__global__"}, "prefetch_to_l2"},
        {"4096", "fp16", "sm_80", NULL, {"fftgen --n 4096 --radix 16 --precision fp16", "__global__"}, "prefetch_to_l2"},
    };
    char path[300];
    snprintf(path, sizeof path, "%s/l2.cu", work_dir);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        assert_int_equal(run_fftgen("--n", files[i].n, "--precision", files[i].precision, "--arch", files[i].arch, "-o",
                                    path, files[i].kb ? "--l2-prefetch" : NULL, files[i].kb, NULL),
                         0);
        const char *text = file_text(path);
        for (int k = 0; k < 2; ++k) assert_non_null(strstr(text, files[i].present[k]));
        if (files[i].absent) assert_null(strstr(text, files[i].absent));
        else assert_non_null(strstr(text, "cp.async.bulk.prefetch.L2.global"));
    }
    unlink(path);
    expect_rejected("bad L2 prefetch 65537 (expected a distance from 1 to 65536 KB, or 0 for none)", "4096",
                    "--l2-prefetch", "65537");
    expect_rejected("bad L2 prefetch -1 (expected a distance from 1 to 65536 KB, or 0 for none)", "4096",
                    "--l2-prefetch", "-1");
    static const struct { const char *n, *arch, *passes, *why; } refusals[] = {
        {"4096", "sm_80", NULL, "L2 prefetch 512 KB: the kernel needs sm_90 or newer (bulk prefetches)"},
        {"1048576", "sm_90", NULL, "L2 prefetch 512 KB: in 2D and 3D shapes and plans of several passes it goes on"},
        {"512x256", "sm_90", "--l2-prefetch-passes=3", "L2 prefetch passes: pass 3 named, but the plan has 2 passes"},
        {"64x64", "sm_80", "--l2-prefetch-passes=1", "L2 prefetch: pass 1 needs sm_90 or newer"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; ++i) {
        assert_int_equal(run_fftgen("--n", refusals[i].n, "--arch", refusals[i].arch, "--l2-prefetch", "512",
                                    "--explain", refusals[i].passes, NULL),
                         2);
        assert_non_null(strstr(output, refusals[i].why));
    }
    /* the passes of larger sizes and 2D/3D shapes where named: columns ask L2 for the lines of their runs,
     * tiles of dense rows for the whole tile, untiled rows for the block's transforms */
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--l2-prefetch-passes", "--direction",
                                "forward", "-o", path, NULL),
                     0);
    const char *text = file_text(path);
    static const char *const passes[] = {
        "fftgen --n 512x512 --l2-prefetch-passes=1,2 --precision fp16 --direction forward",
        "prefetch_tile_to_l2(in, block + L2_PREFETCH_BLOCKS, batch, thread);",
        "asm volatile(\"prefetch.global.L2 [%0];\" :: \"l\"(line));",
        "prefetch_to_l2(in + (size_t)ahead * POINTS, in + (size_t)(ahead + ahead_ffts) * POINTS);", NULL};
    expect_all(text, passes);
    unlink(path);
    assert_int_equal(run_fftgen("--n", "134217728", "--precision", "fp16", "--max-tile", "16,16,8",
                                "--l2-prefetch-passes=3", "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "L2 prefetch:    each block asks L2 for the input 1024 KB further on"));
    /* fp32 2^25's pass 2 reads its tiles' rows side by side: one bulk prefetch a tile */
    assert_int_equal(run_fftgen("--n", "33554432", "--l2-prefetch-passes=2", "--direction", "forward", "-o", path,
                                NULL),
                     0);
    assert_non_null(strstr(file_text(path), "if (thread == 0) prefetch_to_l2(from, from + (size_t)tile_ffts * POINTS);"));
    unlink(path);
    expect_rejected("--l2-prefetch-passes=0: expected pass numbers", "65536", "--l2-prefetch-passes=0", NULL);
}

/* Columns side by side on a cluster (which takes no L2 prefetch) load with PTX's .L2::256B, so that L2
 * fetches the runs of the tiles beside theirs; columns off clusters load as before, and no file carries
 * the helper it does not use */
static void cluster_columns_ask_l2_for_256_bytes(void **state)
{
    (void)state;
    static const struct { const char *precision, *cluster, *load; int asks; } cases[] = {
        {"fp16", NULL, "ld.global.L2::256B.v2.b16", 1},
        {"fp32", NULL, "ld.global.L2::256B.v2.f32", 1},
        {"fp16", "1", "ld.global.L2::256B", 0}, /* the columns in two passes of wide tiles, off clusters */
    };
    char path[300];
    snprintf(path, sizeof path, "%s/cluster-columns.cu", work_dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        assert_int_equal(run_fftgen("--n", "8192x4", "--precision", cases[i].precision, "-o", path,
                                    cases[i].cluster ? "--cluster" : NULL, cases[i].cluster, NULL),
                         0);
        const char *text = file_text(path);
        if (cases[i].asks) {
            assert_non_null(strstr(text, cases[i].load));
            assert_non_null(strstr(text, "? load_point_asking_256(src + "));
        } else {
            assert_null(strstr(text, cases[i].load));
            assert_null(strstr(text, "load_point_asking_256"));
        }
    }
    unlink(path);
}

/* Each refusal: fftgen --n SIZE --explain with up to five more arguments (NULL after the last), then the
 * text its message must hold; each must exit 2. */
static void expect_refusals(const char *const (*refused)[9], size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        const char *const *a = refused[i];
        int n = 0;
        while (a[n] != NULL) ++n;
        assert_int_equal(run_fftgen("--n", a[0], "--explain", n > 1 ? a[1] : NULL, n > 2 ? a[2] : NULL,
                                    n > 3 ? a[3] : NULL, n > 4 ? a[4] : NULL, n > 5 ? a[5] : NULL, NULL),
                         2);
        assert_non_null(strstr(output, a[n + 1]));
    }
}

/* --l2-fetch-256: the column passes listed load with .L2::256B off clusters too; --explain and the file's
 * command say so; errors name the pass that cannot (rows, a cluster's columns, lane pairs) or the plan
 * that has none. */
static void l2_fetch_256_on_request(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/l2-fetch.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "2097152", "--l2-fetch-256", "--direction", "forward", "-o", path, NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 2097152 --l2-fetch-256=1 --precision fp32 --direction forward\n"));
    assert_non_null(strstr(text, "ld.global.L2::256B.v2.f32"));
    assert_non_null(strstr(text, "? load_point_asking_256(src + "));
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--l2-fetch-256=2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "L2 fetch:       the column loads ask L2 for the 256 bytes around each point"));
    assert_int_equal(run_fftgen("--n", "512x512", "--precision", "fp16", "--explain", NULL), 0);
    assert_null(strstr(output, "L2 fetch:"));
    unlink(path);
    /* a strided input: pass 1's columns no longer side by side (stride 2) load plainly; at stride 1 and
     * a padded distance they still ask */
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--l2-fetch-256=1", "--istride", "2", "--idist",
                                "131075", "-o", path, NULL),
                     0);
    assert_null(strstr(file_text(path), "load_point_asking_256"));
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--l2-fetch-256=1", "--idist", "65600", "-o",
                                path, NULL),
                     0);
    assert_non_null(strstr(file_text(path), "? load_point_asking_256(src + "));
    unlink(path);
    /* each refusal: fftgen's arguments, then what its message says */
    static const char *const refused[][9] = {
        {"2097152", "--l2-fetch-256=2", NULL, "L2 fetch of 256 bytes: pass 2 reads rows, not columns side by side"},
        {"4096x4096", "--cluster", "8", "--max-tile", "8", "--l2-fetch-256=2", NULL,
         "pass 2 runs on a thread-block cluster, whose column loads ask for 256 bytes"},
        {"512x512", "--precision", "fp16", "--column-pairs=2", "--l2-fetch-256=2", NULL,
         "pass 2 loads its columns in lane pairs"},
        {"4096", "--l2-fetch-256", NULL, "L2 fetch of 256 bytes: this plan has no pass off clusters"},
        {"2097152", "--arch", "sm_75", "--l2-fetch-256=1", NULL, "pass 1 needs sm_80 or newer"},
    };
    expect_refusals(refused, sizeof refused / sizeof refused[0]);
    expect_rejected("--l2-fetch-256=x: expected pass numbers", "2097152", "--l2-fetch-256=x", NULL);
}

/* --tma-columns: the passes listed take their column tiles through the TMA (tiles in turn, a tensor map the
 * launch encodes), and a four-step pass 2 its runs of pass 1's tiles (swizzled boxes of up to 256 runs); fp32
 * tiles that do not fit beside the exchanges stage inside them; --explain
 * and the file's command say so; a pass that takes it drops its L2 requests, and the command then names
 * none; errors name the pass that cannot or the plan that has none. */
static void tma_columns_on_request(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/tma.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "262144", "--precision", "fp16", "--tma-columns", "--direction", "forward", "-o",
                                path, NULL),
                     0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 262144 --tma-columns=1,2 --precision fp16 --direction forward\n"));
    assert_non_null(strstr(text, "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"));
    assert_non_null(strstr(text, "CU_TENSOR_MAP_SWIZZLE_128B")); /* pass 2's runs */
    assert_non_null(strstr(text, "const point_t* src = staging + swizzled("));
    assert_non_null(strstr(text, "const __grid_constant__ tensor_map input_map"));
    assert_non_null(strstr(text, "copy_tile(staging, in, block, batch, thread);")); /* an input off 16 bytes */
    assert_non_null(strstr(text, "cudaOccupancyMaxActiveBlocksPerMultiprocessor"));
    assert_int_equal(run_fftgen("--n", "262144", "--precision", "fp16", "--tma-columns=1", "--explain", NULL), 0);
    assert_non_null(strstr(output, "TMA columns:    tiles in turn"));
    assert_non_null(strstr(output, "the staging buffer (the tile, copied by the TMA) -> shared memory"));
    assert_int_equal(run_fftgen("--n", "262144", "--precision", "fp16", "--tma-columns=2", "--explain", NULL), 0);
    assert_non_null(strstr(output, "TMA runs:       tiles in turn"));
    assert_non_null(strstr(output, "16384-byte staging buffer (in 128-byte rows, swizzled)"));
    assert_int_equal(run_fftgen("--n", "4194304", "--precision", "fp16", "--max-tile", "4,0", "--l2-prefetch", "2048",
                                "--l2-prefetch-passes=1", "--tma-columns=1", "--direction", "forward", "-o", path, NULL),
                     0);
    text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 4194304 --max-tile 4,0 --tma-columns=1 --precision fp16 --direction forward\n"));
    assert_null(strstr(text, "prefetch_tile_to_l2"));
    unlink(path);
    /* a strided input: pass 1's columns no longer side by side, so it loads them as before, and the file
     * holds no staging buffer (its shared-memory size is the exchanges' again) */
    assert_int_equal(run_fftgen("--n", "65536", "--precision", "fp16", "--tma-columns=1", "--istride", "3", "--idist",
                                "196610", "-o", path, NULL),
                     0);
    text = file_text(path);
    assert_null(strstr(text, "fetch_tile_boxes"));
    assert_non_null(strstr(text, "static_assert(SHARED_BYTES == 4352 * sizeof(float2)"));
    assert_non_null(strstr(text, "[[maybe_unused]] constexpr int SHARED_BYTES = 34816;"));
    unlink(path);
    /* fp32 tiles of 16384 points: no room beside the exchanges, so the staging buffer lies inside them and
     * the next tile is asked for after the last stage's reads; pass 2's 512 runs a transform in two boxes */
    assert_int_equal(run_fftgen("--n", "4194304", "--max-tile", "32,0", "--tma-columns", "--explain", NULL), 0);
    assert_non_null(strstr(output, "131072-byte staging buffer inside the exchanges' shared memory, once the last stage"));
    assert_non_null(strstr(output, "shared memory:  139280 bytes per block"));
    assert_int_equal(run_fftgen("--n", "8388608", "--max-tile", "32,0", "--tma-columns", "--direction", "forward", "-o",
                                path, NULL),
                     0);
    static const char *const inside[] = {"reinterpret_cast<char*>(smem) + SHARED_BYTES - 16);",
                                         "constexpr int TMA_BOX_RUNS = 256;", "\"inside the exchanges\");",
                                         "for (int box = 0; box < POINTS / IN_RUN_POINTS / TMA_BOX_RUNS; ++box)"};
    text = file_text(path);
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; ++i) assert_non_null(strstr(text, inside[i]));
    unlink(path);
    /* pass 1 of three: its columns all side by side in one group */
    assert_int_equal(run_fftgen("--n", "8388608", "--precision", "fp16", "--max-tile", "16,16,8", "--tma-columns=1",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "TMA columns:    tiles in turn"));
    /* 2-point columns, one stage: no barrier frees the staging buffer, so every pass that can but that one
     * (the host fuzz found the templates refusing it, seed 31000) */
    assert_int_equal(run_fftgen("--n", "2x512x4", "--column-registers", "--inembed", "516x5", "--tma-columns",
                                "--explain", NULL),
                     0);
    const char *tma = strstr(output, "TMA columns:    tiles in turn");
    assert_non_null(tma);
    assert_null(strstr(tma + 1, "TMA columns:"));
    assert_non_null(strstr(output, "pass 3: FFTs of 2 points along dimension 0"));
    static const char *const refused[][9] = {
        {"1024x1024", "--tma-columns=1", NULL,
         "TMA columns: pass 1 reads neither columns side by side nor rows in runs from the tiles of a pass before"},
        {"131072", "--max-tile", "8", "--row-registers=2", "--tma-columns=2", NULL,
         "TMA columns: pass 2 loads its rows straight into registers from global memory"},
        {"262144", "--arch", "sm_80", "--tma-columns=1", NULL, "pass 1 needs sm_90 or newer"},
        {"4096", "--tma-columns", NULL, "TMA columns: this plan has no pass on sm_90 that loads columns side by side"},
        {"262144", "--precision", "fp16", "--column-pairs=1", "--tma-columns=1", NULL, "pass 1 loads its columns in lane pairs"},
        {"2048x2048", "--order", "columns-first", "--max-tile", "0,8", "--tma-columns=2", NULL,
         "pass 2 has no room for a tile in shared memory beside its exchanges, nor a last stage that frees them"},
        {"262144", "--tma-columns=4", NULL, "TMA columns: pass 4 named, but the plan has 2 passes"},
        {"2x512x4", "--column-registers", "--inembed", "516x5", "--tma-columns=3", NULL,
         "TMA columns: pass 3 exchanges nothing through shared memory"},
    };
    expect_refusals(refused, sizeof refused / sizeof refused[0]);
    expect_rejected("--tma-columns=x: expected pass numbers", "262144", "--tma-columns=x", NULL);
}

/* --tile-pairs: the passes listed run two tiles a block in turn, keep each one's outputs in shared memory
 * and store both together; --explain and the file say so; a strided output whose transforms no longer lie
 * side by side drops it; errors name the pass that cannot or the plan that has none. */
static void tile_pairs_on_request(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/pairs.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "16777216", "--precision", "fp16", "--four-step", "4096", "--max-tile", "4",
                                "--tile-pairs=2", "--direction", "forward", "-o", path, NULL),
                     0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 16777216 --max-tile 4 --tile-pairs=2 --four-step 4096 --precision fp16"
                                 " --direction forward\n"));
    assert_non_null(strstr(text, "store_tile_pair(out, smem, blockIdx.x, batch, thread);"));
    assert_non_null(strstr(text, "static_assert(SHARED_BYTES == PAIR_OFFSET + FFTS_PER_BLOCK * POINTS * sizeof(point_t)"));
    assert_non_null(strstr(text, "*reinterpret_cast<uint4*>(dst + (size_t)row * OUT_ELEM_STRIDE")); /* 16-byte pieces */
    assert_int_equal(run_fftgen("--n", "16777216", "--precision", "fp16", "--four-step", "4096", "--max-tile", "4",
                                "--tile-pairs=2", "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "tile pairs:     two tiles a block in turn"));
    assert_non_null(strstr(output, "shared memory -> shared memory (the tile pair's outputs)"));
    assert_non_null(strstr(output, "shared memory:  204800 bytes per block"));
    /* an output stride of 3: the rows' transforms no longer lie side by side, so each block stores its own */
    assert_int_equal(run_fftgen("--n", "65536", "--four-step", "256", "--max-tile", "4", "--tile-pairs=2", "--ostride",
                                "3", "--odist", "196610", "-o", path, NULL),
                     0);
    text = file_text(path);
    assert_null(strstr(text, "store_tile_pair"));
    unlink(path);
    assert_int_equal(run_fftgen("--n", "2097152", "--precision", "fp16", "--max-tile", "8,0", "--prefetch", "64",
                                "--tile-pairs=2", "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "tile pairs: pass 2 copies its tiles ahead with its threads"));
    assert_int_equal(run_fftgen("--n", "16777216", "--precision", "fp16", "--four-step", "4096", "--max-tile", "4",
                                "--tile-pairs=2", "--arch", "sm_80", "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "tile pairs: pass 2 has no room for a second tile's outputs in shared memory"));
    static const char *const refused[][9] = {
        {"65536", "--four-step", "256", "--max-tile", "4", "--tile-pairs=1", NULL,
         "tile pairs: pass 1 writes each tile as one block, apart from the next tile's"},
        {"262144", "--precision", "fp16", "--tma-columns=2", "--tile-pairs=2", NULL,
         "tile pairs: pass 2 takes its tiles through the TMA"},
        {"512x256", "--precision", "fp16", "--tile-pairs=2", NULL,
         "tile pairs: pass 2 ends in a radix-2 stage of warp shuffles"},
        {"4096", "--tile-pairs", NULL, "tile pairs: this plan has no tiled pass that stores its columns side by side"},
        {"262144", "--tile-pairs=4", NULL, "tile pairs: pass 4 named, but the plan has 2 passes"},
    };
    expect_refusals(refused, sizeof refused / sizeof refused[0]);
    expect_rejected("--tile-pairs=x: expected pass numbers", "262144", "--tile-pairs=x", NULL);
}

/* sm_90: several transforms a block, the next one's input bulk-copied ahead, where asked and where the
 * kernel can take it */
static void prefetches_on_request(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "16384", "--precision", "fp16", "--radix", "32", "--prefetch", "8",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "threads/block:  512 (512 per transform, up to 8 transforms per block in turn, 32 points"
                                   " per thread)"));
    /* the exchanges' 139264 bytes and the staging buffer: one transform's input and 16 bytes */
    assert_non_null(strstr(output, "shared memory:  204816 bytes per block"));
    assert_non_null(strstr(output, "into a 65552-byte staging buffer"));
    char path[300];
    snprintf(path, sizeof path, "%s/prefetch.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "8192", "--prefetch", "2", "-o", path, NULL), 0);
    const char *text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 8192 --radix 16 --prefetch 2 --precision fp32"));
    assert_non_null(strstr(text, "constexpr int PREFETCH_FFTS = 2;"));
    assert_non_null(strstr(text, "cp.async.bulk.shared::cluster.global"));
    assert_non_null(strstr(text, "const point_t* src = staging + staged_skew + fft_thread;"));
    assert_non_null(strstr(text, "Runs on sm_90 and newer (bulk copies)"));
    unlink(path);
    expect_rejected("bad prefetch 3 (expected a power of two from 2 to 64 transforms a block)", "4096", "--prefetch",
                    "3");
    /* 1D transforms take a bulk copy (sm_90); a slice's threads copy it themselves (cp.async, sm_80) */
    static const struct { const char *n, *arch; int status; const char *text; } architectures[] = {
        {"4096", "sm_80", 2, "prefetch 2: a prefetch of 1D transforms of one kernel needs sm_90 or newer (bulk copies)"},
        {"64x64", "sm_80", 0, "the next slice's input copied (cp.async, by the block's threads)"},
        {"64x64", "sm_75", 2, "prefetch 2: a prefetch needs sm_80 or newer (cp.async)"},
    };
    for (size_t i = 0; i < sizeof architectures / sizeof architectures[0]; ++i) {
        assert_int_equal(run_fftgen("--n", architectures[i].n, "--precision", "fp16", "--arch", architectures[i].arch,
                                    "--prefetch", "2", "--explain", NULL),
                         architectures[i].status);
        assert_non_null(strstr(output, architectures[i].text));
    }
    static const struct { const char *n, *why; } refusals[] = {
        {"1048576", "prefetch 4: a 1D size of several passes takes it only in fp16 passes that read rows in runs of"
                    " 16 bytes or more straight into registers"},
        {"65536", "prefetch 4: a prefetch applies to kernels of one block a transform, not clusters"},
        {"256", "prefetch 4: a prefetch applies to kernels of one transform a block"},
        {"4096x4096", "prefetch 4: a prefetch applies to 2D and 3D shapes only where the last two dimensions fit one"
                      " block (a fused slice)"},
        {"256x256", "prefetch 4: a prefetch applies to kernels of one block a transform, not clusters"},
        {"64x64", "prefetch 4: a prefetch applies to fused slices whose rows load straight into registers"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; ++i) {
        assert_int_equal(run_fftgen("--n", refusals[i].n, "--arch", "sm_90", "--prefetch", "4", "--explain", NULL), 2);
        assert_non_null(strstr(output, refusals[i].why));
    }
    /* fp16 slices of rows of 2 points (8 bytes, in rounds) would copy no 16-byte piece a row; rows of 4
     * points take it (found by tools/fuzz-gpu.sh: NVRTC refused the copy's division by zero pieces) */
    assert_int_equal(run_fftgen("--n", "128x512x2", "--precision", "fp16", "--prefetch", "16", "--explain", NULL), 2);
    assert_non_null(strstr(output, "prefetch 16: a prefetch copies a slice's rows in 16-byte pieces, and this"
                                   " shape's rows are shorter"));
    assert_int_equal(run_fftgen("--n", "512x4", "--precision", "fp16", "--prefetch", "16", "--explain", NULL), 0);
    assert_non_null(strstr(output, "4 rows a thread in turn"));
    assert_non_null(strstr(output, "the next slice's input copied (cp.async, by the block's threads)"));
    assert_int_equal(run_fftgen("--n", "16384", "--arch", "sm_90", "--prefetch", "2", "--explain", NULL), 2);
    assert_non_null(strstr(output, "the staging buffer does not fit in the block's shared memory"));
    assert_int_equal(run_fftgen("--n", "4096", "--arch", "sm_90", "--precision", "fp16", "--tensor-cores",
                                "--prefetch", "2", "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "not tensor cores"));
    assert_int_equal(run_fftgen("--n", "4096", "--arch", "sm_90", "--istride", "2", "--prefetch", "2", "--explain",
                                NULL),
                     2);
    assert_non_null(strstr(output, "a prefetch applies to contiguous layouts only"));
    /* a 1D size of two passes: pass 2 (fp16 rows in runs of 4 points from pass 1's tiles of 4) runs its tiles in
     * turn, the block's threads copying the next tile's runs ahead; pass 1 (columns) keeps its loads */
    assert_int_equal(run_fftgen("--n", "4194304", "--precision", "fp16", "--max-tile", "4,0", "--prefetch", "64",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "threads/block:  1024 (128 per transform, 8 transforms per tile, up to 64 tiles per"
                                   " block in turn, 16 points per thread)"));
    /* the exchanges' 139264 bytes and the tile's 8 x 2048 fp16 points */
    assert_non_null(strstr(output, "shared memory:  204800 bytes per block"));
    assert_non_null(strstr(output, "the next tile's input copied (cp.async, by the block's threads, run by run) into a"
                                   " 65536-byte staging buffer"));
    snprintf(path, sizeof path, "%s/prefetch-tiles.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "131072", "--precision", "fp16", "--max-tile", "4,0", "--prefetch", "2", "-o",
                                path, NULL),
                     0);
    text = file_text(path);
    static const char *const tile_copies[] = {"--prefetch 2", "constexpr int PREFETCH_TILES = 2;",
                                              "fetch_tile(staging, in, block + gridDim.x, batch, thread);",
                                              "return cudaErrorMisalignedAddress;", NULL};
    expect_all(text, tile_copies);
    assert_null(strstr(text, "PREFETCH_FFTS"));
    unlink(path);
    /* a 3D shape's fused slices: the rows read the staged slice, fft_in_block rows in */
    assert_int_equal(run_fftgen("--n", "128x128x128", "--precision", "fp16", "--prefetch", "8", "--explain", NULL), 0);
    assert_non_null(strstr(output, "threads/block:  1024 (1024 per slice, up to 8 slices per block in turn"));
    /* 128 rows of 128 points, each padded by 8 points (a warp's four rows on banks of their own) */
    assert_non_null(strstr(output, "the next slice's input copied (cp.async, by the block's threads) into a 69632-byte"
                                   " staging buffer"));
    /* 512 threads alone on the SM, the rows' last stage merged with the columns' first: the copies in two halves */
    assert_int_equal(run_fftgen("--n", "128x128x128", "--precision", "fp16", "--radix", "32", "--prefetch", "8",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "the next slice's input copied (cp.async, by the block's threads, half at the"
                                   " block's first barrier and half at its last) into a 67584-byte staging buffer"));
    assert_int_equal(run_fftgen("--n", "32x512", "--precision", "fp16", "--radix", "32", "--prefetch", "8",
                                "--explain", NULL),
                     0);
    assert_non_null(strstr(output, "(cp.async, by the block's threads) into a"));
    snprintf(path, sizeof path, "%s/prefetch-halves.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "128x128", "--precision", "fp16", "--radix", "32", "--prefetch", "4", "-o",
                                path, NULL),
                     0);
    text = file_text(path);
    static const char *const halves[] = {"fetch_slice<SLICE_ROWS, SLICE_COLUMNS, STAGED_ROW_POINTS, THREADS, 2, 0>",
                                         "fetch_slice<SLICE_ROWS, SLICE_COLUMNS, STAGED_ROW_POINTS, THREADS, 2, 1>",
                                         "half of it at the block's first barrier and half at its last.", NULL};
    expect_all(text, halves);
    unlink(path);
    snprintf(path, sizeof path, "%s/prefetch-slices.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "2x16x128", "--precision", "fp16", "--prefetch", "2", "-o", path, NULL), 0);
    text = file_text(path);
    assert_non_null(strstr(text, "const point_t* src = staging + staged_skew + fft_in_block * STAGED_ROW_POINTS + fft_thread;"));
    /* rows of 128 fp16 points, 16 a thread: 8 threads a row, so a pad of 8 points */
    assert_non_null(strstr(text, "constexpr int STAGED_ROW_POINTS = 136;"));
    assert_non_null(strstr(text, "cp.async.cg.shared.global"));
    assert_null(strstr(text, "cp.async.bulk.shared")); /* no bulk copies (the column pass asks L2 ahead) */
    assert_non_null(strstr(text, "fetch_slice<SLICE_ROWS, SLICE_COLUMNS, STAGED_ROW_POINTS, THREADS, 1, 0>"));
    unlink(path);
    assert_int_equal(run_fftgen("--n", "256x256", "--precision", "fp16", "--order", "columns-first", "--prefetch", "2",
                                "--explain", NULL),
                     2);
    assert_non_null(strstr(output, "where the last two dimensions fit one block"));
}

static void writes_self_contained_file(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/fft4096.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "4096", "--radix", "16", "-o", path, NULL), 0);
    assert_string_equal(output, "");
    const char *text = file_text(path);
    assert_non_null(strstr(text, "extern \"C\" __global__ void __launch_bounds__(THREADS)\nfftgen_4096_fp32_forward("));
    assert_non_null(strstr(text, "extern \"C\" cudaError_t fftgen_4096_fp32_inverse_launch("));
    assert_null(strstr(text, "#include \""));
    assert_int_equal(stray_files("fft4096.cu"), 0);
    unlink(path);
    /* the header's command line gives the block size that was asked for */
    assert_int_equal(run_fftgen("--n", "1024", "--block-threads", "128", "-o", path, NULL), 0);
    text = file_text(path);
    assert_non_null(strstr(text, "fftgen --n 1024 --radix 16 --block-threads 128 --precision fp32"));
    assert_non_null(strstr(text, "constexpr int THREADS = 128;"));
    unlink(path);
    /* standard output when there is no -o */
    assert_int_equal(run_fftgen("--n", "8", "--direction", "inverse", NULL), 0);
    assert_non_null(strstr(output, "fftgen_8_fp32_inverse("));
    assert_null(strstr(output, "fftgen_8_fp32_forward("));
}

/* -o names where the file goes: '-' is standard output; a FIFO (as /dev/stdout or /dev/null would
 * be) is written through, not replaced by a plain file; a symbolic link keeps naming its file, which
 * gets the text; a replaced file keeps its mode. No temporary file is left anywhere. */
static void output_goes_where_asked(void **state)
{
    (void)state;
    assert_int_equal(run_fftgen("--n", "64", "-o", "-", NULL), 0);
    assert_non_null(strstr(output, "fftgen_64_fp32_forward("));
    assert_int_equal(stray_files(NULL), 0);

    char fifo[300];
    snprintf(fifo, sizeof fifo, "%s/fifo", work_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const pid_t reader = fork();
    if (reader == 0) { /* reads the FIFO to its end; exits 0 when the kernel came through */
        static char got[1 << 20];
        const int fd = open(fifo, O_RDONLY);
        size_t n = 0;
        for (ssize_t r; fd >= 0 && n < sizeof got - 1 && (r = read(fd, got + n, sizeof got - 1 - n)) > 0;) n += (size_t)r;
        got[n] = '\0';
        _exit(strstr(got, "fftgen_64_fp32_inverse_launch(") != NULL ? 0 : 1);
    }
    assert_int_equal(run_fftgen("--n", "64", "-o", fifo, NULL), 0);
    int status = -1;
    waitpid(reader, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(stray_files("fifo"), 0);
    unlink(fifo);

    char target[300], link[300];
    snprintf(target, sizeof target, "%s/target.cu", work_dir);
    snprintf(link, sizeof link, "%s/link.cu", work_dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    assert_int_equal(chmod(target, 0640), 0);
    assert_int_equal(symlink("target.cu", link), 0);
    assert_int_equal(run_fftgen("--n", "64", "-o", link, NULL), 0);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_non_null(strstr(file_text(target), "fftgen_64_fp32_forward("));
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    unlink(link);
    assert_int_equal(stray_files("target.cu"), 0);
    unlink(target);
}

/* --templates naming no folder, a file, or a folder without every template: a usage error that names
 * the folder and the missing file, before any template runs, and no output file. */
static void template_folder_is_checked(void **state)
{
    (void)state;
    char dir[300], command[1024], path[300];
    snprintf(path, sizeof path, "%s/k.cu", work_dir);
    snprintf(dir, sizeof dir, "%s/no-such-folder", work_dir);
    assert_int_equal(run_fftgen("--n", "64", "--templates", dir, "-o", path, NULL), 2);
    print_message("  %s", output);
    assert_non_null(strstr(output, "no-such-folder"));
    assert_non_null(strstr(output, "No such file or directory"));
    assert_true(one_line(output));
    assert_int_equal(run_fftgen("--n", "64", "--templates", FFTGEN_TEMPLATES_DIR "/kernel.lua", "-o", path, NULL), 2);
    print_message("  %s", output);
    assert_non_null(strstr(output, "is not a folder"));
    snprintf(dir, sizeof dir, "%s/partial-templates", work_dir);
    snprintf(command, sizeof command, "cp -r '%s' '%s' && rm '%s/stage.lua'", FFTGEN_TEMPLATES_DIR, dir, dir);
    assert_int_equal(system(command), 0);
    assert_int_equal(run_fftgen("--n", "64", "--templates", dir, "-o", path, NULL), 2);
    print_message("  %s", output);
    assert_non_null(strstr(output, "stage.lua"));
    assert_true(one_line(output));
    assert_int_equal(access(path, F_OK), -1);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

/* A broken template read with --templates is reported with its file and line. */
static void template_errors_name_file_and_line(void **state)
{
    (void)state;
    char dir[300], command[1024], path[300];
    snprintf(dir, sizeof dir, "%s/templates", work_dir);
    snprintf(command, sizeof command, "cp -r '%s' '%s' && printf 'local broken = = 1\\n' >> '%s/radix.lua'",
             FFTGEN_TEMPLATES_DIR, dir, dir);
    assert_int_equal(system(command), 0);
    snprintf(path, sizeof path, "%s/k.cu", work_dir);
    assert_int_equal(run_fftgen("--n", "64", "--templates", dir, "-o", path, NULL), 1);
    print_message("  %s", output);
    /* the broken line is the one appended after the original's last line */
    char original[300], location[64];
    snprintf(original, sizeof original, "%s/radix.lua", FFTGEN_TEMPLATES_DIR);
    FILE *f = fopen(original, "r");
    assert_non_null(f);
    int lines = 0;
    for (int c; (c = fgetc(f)) != EOF;) lines += c == '\n';
    fclose(f);
    snprintf(location, sizeof location, "templates/radix.lua:%d:", lines + 1);
    assert_non_null(strstr(output, location));
    assert_true(one_line(output));
    assert_int_equal(access(path, F_OK), -1);
    /* the embedded copies are untouched */
    assert_int_equal(run_fftgen("--n", "64", "-o", path, NULL), 0);
    unlink(path);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

int main(void)
{
    snprintf(work_dir, sizeof work_dir, "/tmp/fftgen-test-cli-XXXXXX");
    if (mkdtemp(work_dir) == NULL) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_sizes),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(layout_defaults_and_overlaps),
        cmocka_unit_test(small_volumes_in_one_pass),
        cmocka_unit_test(unwritable_output),
        cmocka_unit_test(failure_keeps_existing_file),
        cmocka_unit_test(output_goes_where_asked),
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(bench_checks_its_counts),
        cmocka_unit_test(explain_prints_plan),
        cmocka_unit_test(two_passes_write_tiles_as_blocks),
        cmocka_unit_test(column_pairs_on_request),
        cmocka_unit_test(row_registers_on_request),
        cmocka_unit_test(l2_fetch_256_on_request),
        cmocka_unit_test(tma_columns_on_request),
        cmocka_unit_test(tile_pairs_on_request),
        cmocka_unit_test(slices_skip_the_copies_where_faster),
        cmocka_unit_test(odd_powers_take_the_shorter_columns_first),
        cmocka_unit_test(small_fp16_sizes_take_their_measured_radix),
        cmocka_unit_test(tiled_passes_take_twiddle_powers_on_request),
        cmocka_unit_test(tiled_passes_take_radix_32_on_request),
        cmocka_unit_test(short_columns_load_into_registers_on_request),
        cmocka_unit_test(passes_compute_twiddles_on_request),
        cmocka_unit_test(derived_twiddles_keep_one_table_row),
        cmocka_unit_test(slices_merge_a_stage),
        cmocka_unit_test(prefetches_on_request),
        cmocka_unit_test(l2_prefetch_on_request),
        cmocka_unit_test(cluster_columns_ask_l2_for_256_bytes),
        cmocka_unit_test(columns_first_through_the_work_area),
        cmocka_unit_test(columns_split_in_two_passes),
        cmocka_unit_test(four_step_split_as_asked),
        cmocka_unit_test(four_step_split_of_a_2d_shape),
        cmocka_unit_test(rows_take_a_radix),
        cmocka_unit_test(writes_self_contained_file),
        cmocka_unit_test(template_folder_is_checked),
        cmocka_unit_test(template_errors_name_file_and_line),
    };
    const int failed = cmocka_run_group_tests_name("cli", tests, NULL, NULL);
    rmdir(work_dir);
    return failed;
}
