/* fftgen: writes specialized CUDA FFT kernels. See `fftgen --help`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_file.h"
#include "pack_command.h"
#include "planner.h"
#include "render.h"
#include "templates.h"

enum { EXIT_USAGE = 2 };

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen --n N[xN[xN]] [options]\n"
            "       fftgen pack --help      (kernel packs for libfftgen)\n"
            "       fftgen tune --help      (measure the kernel choices on this GPU, for libfftgen)\n"
            "Writes one self-contained CUDA C file with fused, fully unrolled FFT kernels of N points\n"
            "(batched, complex to complex, 1D, 2D or 3D) and a host function that launches them.\n"
            "\n"
            "Options:\n"
            "  --n N                 points per transform: a power of two from 2 to 2^30; up to 16384 on\n"
            "                        sm_90 one kernel, above that two or three strided passes (four-step);\n"
            "                        a 2D or 3D shape as N0xN1[xN2], row-major (N2 contiguous): powers of\n"
            "                        two, at most 2^30 points in all; a dimension longer than one kernel\n"
            "                        takes passes through a work area where the data are dense (rows: in\n"
            "                        and out; the others: the output), else each must fit one kernel\n"
            "  --radix R             largest radix per stage: 2, 4, 8, 16 or 32 (default 16, or N if\n"
            "                        smaller); each thread holds R points (single-kernel sizes, the\n"
            "                        fused slices of 2D/3D shapes whose last two dimensions fit a block,\n"
            "                        else the rows of dense 2D/3D shapes where they are one kernel;\n"
            "                        32: fewer stages, about 90 registers a thread)\n"
            "  --block-threads T     single-kernel sizes: at most T threads a block (a power of two from 32\n"
            "                        to 1024), in whole transforms, at least one; default 256, or fewer\n"
            "                        where shared memory caps a block's transforms (libfftgen chooses\n"
            "                        from measurements)\n"
            "  --prefetch K          sm_90 single-kernel sizes, and (sm_80 and newer) 2D/3D shapes whose last\n"
            "                        two dimensions fit a block: each block runs up to K transforms\n"
            "                        (slices) in turn (a power of two from 2 to 64; fewer where the batch\n"
            "                        is too small for a block on every SM) and copies the next one's input\n"
            "                        into shared memory while it computes the current one (a bulk copy,\n"
            "                        TMA; a slice's threads with cp.async); for kernels of one transform\n"
            "                        a block that fill an SM. 1D sizes of two passes (sm_80 and newer):\n"
            "                        pass 2, where it reads fp16 rows in runs of 16 bytes or more (after\n"
            "                        pass 1's tiles of 4 or 8 columns, --max-tile 4,0), runs up to K\n"
            "                        tiles a block, its threads copying the next tile's runs ahead\n"
            "                        (cp.async; the work area 16-byte aligned). Off by default (libfftgen\n"
            "                        chooses from measurements)\n"
            "  --l2-prefetch KB      sm_90 kernels and passes that read their input straight from global\n"
            "                        memory or transform whole slices (not with --prefetch, tensor\n"
            "                        cores or tiles on clusters): each block asks L2 for the input of\n"
            "                        the block (tile) KB further on (1 to 65536; 0: none), so that DRAM\n"
            "                        has more reads in flight; default 1024 in 1D sizes of one kernel\n"
            "                        off clusters and in the passes of 2D/3D slices (2048 for their\n"
            "                        blocks of 1024 threads), and in the passes of --l2-prefetch-passes\n"
            "  --l2-prefetch-passes[=P,..] 1D sizes of several passes and 2D/3D shapes: the passes\n"
            "                        listed (every one that can without a list) take the L2 prefetch.\n"
            "                        Off by default (libfftgen chooses pass by pass from measurements)\n"
            "  --l2-fetch-256[=P,..] sm_80 and newer: the passes listed (every one that can without a\n"
            "                        list) that read columns side by side load them with PTX's\n"
            "                        .L2::256B hint, so that L2 fetches the 256 bytes around each point\n"
            "                        and the tiles beside find their runs there. Column passes on\n"
            "                        clusters always do; off elsewhere by default (libfftgen chooses\n"
            "                        pass by pass from measurements)\n"
            "  --tma-columns[=P,..]  sm_90: the passes listed (every one that can without a list) that\n"
            "                        load columns side by side straight into registers run their tiles\n"
            "                        in turn, as many blocks an SM as fit, and one thread has the tensor\n"
            "                        memory accelerator copy the next tile into shared memory while the\n"
            "                        block computes the current one (tiles of whole 16-byte rows; not\n"
            "                        with the L2 prefetch, --l2-fetch-256 or --column-pairs on the same\n"
            "                        pass). A four-step pass 2, reading rows in runs from pass 1's\n"
            "                        tiles, takes the same: its tile's runs in boxes of 128-byte rows\n"
            "                        (swizzled), which its first stage reads. Off by default (libfftgen\n"
            "                        chooses pass by pass from measurements)\n"
            "  --tile-pairs[=P,..]   the passes listed (every one that can without a list) that store\n"
            "                        columns side by side from registers (rows written transposed)\n"
            "                        run two tiles a block in turn, keep the first one's outputs in\n"
            "                        shared memory, then store both together: rows of twice the tile's\n"
            "                        width, so that fp16 tiles of 4 write whole 32-byte sectors (not\n"
            "                        with --prefetch or --tma-columns on the same pass). Off by default\n"
            "                        (libfftgen chooses pass by pass from measurements)\n"
            "  --precision P         fp32 (float2 storage) or fp16 (__half2 storage, fp32 arithmetic);\n"
            "                        default fp32. Or a split precision: float2 storage, the radix-16\n"
            "                        stages on tensor cores with each fp32 operand (data and DFT matrix)\n"
            "                        split into a scaled fp16 high and low part, fp32 sums, the other\n"
            "                        stages and the twiddles in fp32 (sm_80 or newer, N >= 16):\n"
            "                          split         a power-of-two scale per butterfly, low parts\n"
            "                                        scaled by 2^11, hi*hi summed apart from the\n"
            "                                        corrections (the accurate one)\n"
            "                          split-papers  the papers' scales: s1 = max |x|, s2 = max |x - s1*hi|\n"
            "  --tensor-cores[=P,..] radix-16 stages on tensor cores (mma.sync m16n8k16: fp16 operands, each\n"
            "                        input split into hi + lo, fp32 sums) in every pass that has them, or in\n"
            "                        the passes listed (numbered from 1, as --explain shows); fp16 storage,\n"
            "                        sm_80 or newer. Off by default (libfftgen chooses from measurements)\n"
            "  --twiddle-powers[=P,..] fp16: the tiled passes listed (every one without a list) load\n"
            "                        each butterfly's first twiddle only and derive the others from it\n"
            "                        (Chebyshev's recurrence: two fused multiply-adds a twiddle), and their\n"
            "                        four-step twiddles likewise, as one-kernel transforms always do. Off\n"
            "                        by default (libfftgen chooses pass by pass from measurements)\n"
            "  --radix32-passes[=P,..] the tiled passes listed (every one of 32 points or more without a\n"
            "                        list) hold 32 points a thread: radix-32 stages, so a 1024-point pass\n"
            "                        exchanges through shared memory once instead of twice, for about\n"
            "                        twice the registers. Off by default (libfftgen chooses pass by pass\n"
            "                        from measurements)\n"
            "  --column-registers[=P,..] 2D and 3D: the passes listed (every one without a list) load\n"
            "                        columns of at most 256 points straight into registers and store them\n"
            "                        from there, as longer columns do, instead of copying them through\n"
            "                        shared memory. Off by default (libfftgen chooses pass by pass from\n"
            "                        measurements)\n"
            "  --computed-twiddles[=P,..] fp16: the passes listed (every one without a list; a fused\n"
            "                        slice's rows and columns with it) compute each butterfly's first\n"
            "                        twiddle with __sincosf (of the half angle) and derive the others from\n"
            "                        it, instead of reading twiddle tables, and a four-step pass its pass\n"
            "                        twiddles' base and ratio. Off by default (libfftgen chooses pass by\n"
            "                        pass from measurements)\n"
            "  --column-pairs[=P,..] fp16: the passes listed (every one that can without a list) load\n"
            "                        their columns two at a time: neighbouring lanes each read both\n"
            "                        columns of a row in 8 bytes and swap a point with a warp shuffle,\n"
            "                        half the load instructions (where the tile is whole and the buffer\n"
            "                        8-byte aligned; 4 bytes a point otherwise). Off by default\n"
            "                        (libfftgen chooses pass by pass from measurements)\n"
            "  --row-registers[=P,..] fp32: the passes listed (every one that can without a list) that\n"
            "                        read rows in runs from the pass before (in tiles of at most 8) load\n"
            "                        them straight into the first stage's registers instead of copying\n"
            "                        them through shared memory, as fp16 rows do. Off by default\n"
            "                        (libfftgen chooses pass by pass from measurements)\n"
            "  --max-tile T[,T..]    strided passes read at most T transforms side by side (a power of\n"
            "                        two up to 256; 0: the planner's choice, the default: at most 16,\n"
            "                        more for columns so short that 16 make a block of under 128\n"
            "                        threads); a list gives pass by pass (as --explain numbers them),\n"
            "                        the last value for the passes after it\n"
            "  --cluster C           sm_90 and newer: thread-block clusters of C blocks (2, 4 or 8) for\n"
            "                        dense 1D sizes above one block (one pass where n / C points fit a\n"
            "                        block, else the columns of two passes) and for the columns of dense\n"
            "                        2D and 3D shapes; 1: none; 0: the planner's choice (the default:\n"
            "                        fp32 2^15 and 2^16 in one pass, fp32 2^25 and 2^26 in two, and\n"
            "                        columns whose tiles in one block would not fill a 32-byte sector,\n"
            "                        but fp16 8192-point columns, which split in two passes where their\n"
            "                        tiles reach 16 columns)\n"
            "  --four-step N1        1D sizes above one kernel: two passes, the first over columns of N1\n"
            "                        points, the second over rows of N/N1, instead of the planner's\n"
            "                        split (the widest narrower tile, the most even among equals; three\n"
            "                        passes where none fits); a power of two. An error for sizes of one\n"
            "                        kernel or where the passes do not fit. Dense 2D shapes: two passes\n"
            "                        through a work area, the first over dimension 0's columns cut to\n"
            "                        N1 points (four-step, in tiles), the second over slices of the\n"
            "                        other (dimension 0)/N1 rows in one block: the rows, then the rest\n"
            "                        of each column (4096x4096 with 1024: 1024-point columns, then 4x4096\n"
            "                        slices), where the rows-first order gives long columns passes of\n"
            "                        their own. Off by default (libfftgen chooses from measurements)\n"
            "  --order O             dense 2D shapes: rows-first (the default: the rows, then the columns\n"
            "                        in place) or columns-first (the columns in tiles, each tile written\n"
            "                        as one block into a work area as large as the data, then the rows\n"
            "                        read from the blocks): only the input's column reads stay strided\n"
            "  --split-columns       dense 2D and 3D shapes: each column dimension after the first pass\n"
            "                        in two four-step passes of shorter columns (4096: 64 x 64) through\n"
            "                        a work area as large as the data, in wide tiles, instead of one\n"
            "                        pass in one block or on a cluster. Off by default (libfftgen\n"
            "                        chooses from measurements)\n"
            "  --intermediate F      fp16 plans of several passes: how they store the data between\n"
            "                        passes, in the same 32 bits per point: fp16 (__half2, the fastest),\n"
            "                        shared-exponent (a 4-bit exponent and two 14-bit mantissas,\n"
            "                        about half fp16's rounding error) or mixed (half the points each,\n"
            "                        where a pass of tiled columns reads them; else shared-exponent)\n"
            "                        everywhere; default: fp16 where the error stays under 3.9e-4 (two\n"
            "                        passes), mixed (else shared-exponent) for the last intermediate of\n"
            "                        three passes, shared-exponent for the last two of four or more\n"
            "  --direction D         forward, inverse or both (default both)\n"
            "  --arch sm_XY          target architecture, which sets the shared-memory limit (default\n"
            "                        sm_%d; known: %s)\n"
            "  -o, --output FILE     write to FILE (atomically: a temporary file, then a rename; a\n"
            "                        device or pipe such as /dev/stdout is written as it is) instead of\n"
            "                        standard output; '-' is standard output\n"
            "  --explain             print the plan (radix chain, stages, threads, shared memory) and\n"
            "                        write no code\n"
            "  --name PREFIX         prefix of the entry points (default fftgen_N_PRECISION)\n"
            "  --target T            cuda (default) or sim: the same kernel as plain C11 that runs the\n"
            "                        block's threads phase by phase on the CPU, for testing without a GPU\n"
            "  --templates DIR       read the Lua templates from DIR instead of the embedded copies\n"
            "  --istride S, --idist D, --ostride S, --odist D\n"
            "                        data layouts as in cufftPlanMany: element j of transform b at\n"
            "                        b*D + j*S; 2D and 3D: element (j0,j1,j2) at b*D + ((j0*E1 + j1)*E2 +\n"
            "                        j2)*S with the embeds below. Default: stride 1; distance the span of\n"
            "                        one transform (S*N, or S*N0*E1[*E2]), so transforms lie side by side.\n"
            "                        Output transforms may not share an element: D >= that span, or S >=\n"
            "                        2*D (interleaved, at most S/D transforms a call); input ones may\n"
            "                        (overlapping frames)\n"
            "  --inembed E1[xE2], --onembed E1[xE2]\n"
            "                        2D and 3D: the sizes of the storage's dimensions 1 and up, each >= the\n"
            "                        shape's (default: the shape), as inembed/onembed in cufftPlanMany\n"
            "  -h, --help            show this help\n"
            "  -V, --version         show the version\n"
            "\n"
            "Example:\n"
            "  fftgen --n 4096 --radix 16 -o fft4096.cu && nvcc -c -arch=sm_90 fft4096.cu\n"
            "\n"
            "Exit status: 0 on success, 2 on bad input (nothing is written), 1 on other failures.\n",
            FFTGEN_DEFAULT_ARCH, fftgen_known_archs());
}

static void fail(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("fftgen: error: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    exit(status);
}

static long long parse_integer(const char *flag, const char *text)
{
    char *end;
    errno = 0;
    const long long value = strtoll(text, &end, 10);
    if (end == text || *end != '\0') fail(EXIT_USAGE, "%s '%s' is not a number", flag, text);
    if (errno == ERANGE) fail(EXIT_USAGE, "%s %s is out of range", flag, text);
    return value;
}

/* "512x256" into sizes; returns the count (1 to 3). */
static int parse_shape(const char *flag, const char *text, long long *sizes, int most)
{
    int count = 0;
    const char *at = text;
    for (;;) {
        char *end;
        errno = 0;
        const long long value = strtoll(at, &end, 10);
        if (end == at || (*end != '\0' && *end != 'x') || errno == ERANGE)
            fail(EXIT_USAGE, "%s '%s' is not a size or a shape like 512x256", flag, text);
        if (count == most) fail(EXIT_USAGE, "%s '%s' has more than %d dimensions", flag, text, most);
        sizes[count++] = value;
        if (*end == '\0') return count;
        at = end + 1;
    }
}

static int parse_arch(const char *text)
{
    char *end;
    if (strncmp(text, "sm_", 3) != 0) fail(EXIT_USAGE, "--arch '%s' is not of the form sm_XY", text);
    errno = 0;
    const long value = strtol(text + 3, &end, 10);
    if (end == text + 3 || *end != '\0' || errno == ERANGE)
        fail(EXIT_USAGE, "--arch '%s' is not of the form sm_XY", text);
    if (fftgen_arch_shared_limit((int)value) < 0)
        fail(EXIT_USAGE, "unknown architecture %s: CUDA 13 builds for %s", text, fftgen_known_archs());
    return (int)value;
}

/* "--tensor-cores=1,3": passes numbered from 1, as --explain shows them; no list: every pass. */
static int parse_passes(const char *option, const char *text)
{
    if (text == NULL) return FFTGEN_EVERY_PASS;
    const int passes = fftgen_pass_mask_parse(text);
    if (passes <= 0)
        fail(EXIT_USAGE, "--%s=%s: expected pass numbers from 1 to %d, separated by commas", option, text,
             FFTGEN_MAX_PASSES);
    return passes;
}

/* `fftgen tune`: the fftgen-tune program beside this one (it links the CUDA runtime and libfftgen,
 * which the generator does not). */
static int run_tune(char **argv)
{
    char self[4096], program[4096 + 16];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) fail(EXIT_FAILURE, "tune: cannot find where fftgen is (/proc/self/exe): %s", strerror(errno));
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (slash != NULL) *slash = '\0';
    snprintf(program, sizeof program, "%s/fftgen-tune", self);
    argv[0] = program;
    execv(program, argv);
    fail(EXIT_FAILURE, "tune: cannot run %s (%s): it is built with libfftgen, beside fftgen", program, strerror(errno));
    return EXIT_FAILURE;
}

/* The elements one transform spans in a layout, from its first to one stride past its last: the
 * distance that puts transforms side by side. embed[d] of 0 is the shape's. */
static long long transform_span(int rank, const long long *shape, const long long *embed, long long stride)
{
    long long span = shape[0] > 0 ? shape[0] : 1;
    for (int d = 1; d < rank; ++d) {
        const long long e = embed[d] > shape[d] ? embed[d] : shape[d];
        span = span > (1LL << 50) / (e > 0 ? e : 1) ? (1LL << 50) : span * e;
    }
    return span > (1LL << 50) / stride ? (1LL << 50) : span * stride;
}

static int is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (; *s; ++s)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static void explain_pass(const fftgen_kernel_plan *plan, const char *indent)
{
    printf("%sradix chain:    ", indent);
    for (int s = 0; s < plan->stage_count; ++s) printf("%s%d", s ? " x " : "", plan->radices[s]);
    printf(" (%d stage%s)\n", plan->stage_count, plan->stage_count > 1 ? "s" : "");
    const int points = plan->slice_rows > 0 ? plan->n / plan->slice_rows : plan->n; /* a fused slice's rows */
    const int shuffle_tail = fftgen_shuffle_tail(plan), last = plan->stage_count - 1;
    /* tiled sides that skip the copy through shared memory go straight to and from the stages' registers */
    const int loads = fftgen_loads_to_registers(plan);
    /* (a fused slice's rows keep their results for its columns, whose stages are not listed) */
    const int stores = fftgen_stores_from_registers(plan) && plan->cluster < 2 && plan->slice_rows == 0;
    int span = 1;
    for (int s = 0; s < plan->stage_count; ++s) {
        span *= plan->radices[s];
        const int staged = plan->staged_io;
        const char *from = s == 0 && (!staged || loads)
                               ? (plan->tma_columns ? "the staging buffer (the tile, copied by the TMA)"
                                  : plan->column_pairs ? "global memory (both columns of a lane pair's row in 8 bytes)"
                                  : fftgen_reads_runs_across_lanes(plan) ? "global memory (lanes along the runs)"
                                                                         : "global memory")
                               : "shared memory";
        const char *to = s == last && ((!staged && plan->cluster < 2) || stores) ? "global memory" : "shared memory";
        if (s == last && fftgen_merges_whole_columns(plan)) to = "the columns in registers -> global memory";
        if (shuffle_tail && s == last - 1) to = "registers";
        if (shuffle_tail && s == last) {
            from = "registers (pairs swapped between lanes 16 apart by warp shuffles)";
            to = "global memory";
        }
        if (plan->tile_pairs && s == last) to = "shared memory (the tile pair's outputs)";
        const int tensor_cores = plan->tensor_cores && plan->radices[s] == 16;
        /* the first stage has no twiddles; a shuffle tail after radix 16 loads its one, after radix 32
         * (only where the pass computes them) takes its first from __sincosf and the others as
         * products with constants */
        const int powers = plan->twiddle_powers && s > 0 && plan->radices[s] >= 4 && !tensor_cores;
        const int tail = shuffle_tail && s == last;
        const int computed_tail = tail && fftgen_shuffle_tail_computes_twiddles(plan);
        const int computed = computed_tail || (plan->computed_twiddles && s > 0 && !tail);
        const int butterflies = points / plan->radices[s];
        printf("%sstage %d:        radix %d, %d butterfl%s per transform, sub-transforms of %d points,"
               " %s -> %s%s%s\n", indent, s + 1, plan->radices[s], butterflies, butterflies == 1 ? "y" : "ies", span,
               from, to, tensor_cores ? ", on tensor cores (mma.sync m16n8k16)" : "",
               computed_tail ? ", twiddles computed (__sincosf for the first, then products with constants)"
               : computed    ? (plan->radices[s] >= 4 ? ", twiddles computed (__sincosf, then Chebyshev's recurrence)"
                                                      : ", twiddles computed (__sincosf)")
               : powers ? ", twiddles from the first (Chebyshev's recurrence)"
                        : "");
    }
    if (plan->cluster > 1)
        printf("%sstage %d:        radix %d across the cluster's blocks, %d butterflies per transform, through"
               " distributed shared memory -> global memory\n", indent, plan->stage_count + 1, plan->cluster,
               plan->n);
    if (plan->cluster > 1 && plan->tiled)
        printf("%sthreads/block:  %d (%d per transform, %d transforms per block, %d blocks per tile, %d points per"
               " thread)\n", indent, plan->threads, plan->threads_per_fft, plan->ffts_per_block, plan->cluster,
               plan->radix_max);
    else if (plan->cluster > 1)
        printf("%sthreads/block:  %d (%d blocks per transform, %d points per thread)\n", indent, plan->threads,
               plan->cluster, plan->radix_max);
    else if (plan->prefetch > 1 && plan->tiled)
        printf("%sthreads/block:  %d (%d per transform, %d transforms per tile, up to %d tiles per block in turn, %d"
               " points per thread)\n", indent, plan->threads, plan->threads_per_fft, plan->ffts_per_block, plan->prefetch,
               plan->radix_max);
    else if (plan->prefetch > 1)
        printf("%sthreads/block:  %d (%d per %s, up to %d %ss per block in turn, %d points per thread)\n", indent,
               plan->threads, plan->threads_per_fft, plan->slice_rows > 0 ? "slice" : "transform", plan->prefetch,
               plan->slice_rows > 0 ? "slice" : "transform", plan->radix_max);
    else
        printf("%sthreads/block:  %d (%d per transform, %d transform%s per block, %d points per thread)\n", indent,
               plan->threads, plan->threads_per_fft, plan->ffts_per_block, plan->ffts_per_block > 1 ? "s" : "",
               plan->radix_max);
    const int exchanges = fftgen_shared_exchanges(plan);
    /* a cluster's last stage stores its outputs itself */
    const int copy_in = plan->staged_io && !loads,
              copy_out = plan->staged_io && !fftgen_stores_from_registers(plan) && plan->cluster < 2;
    printf("%sshared memory:  %d bytes per block (%d exchange%s through fp32 shared memory%s%s)\n", indent,
           plan->shared_bytes, exchanges, exchanges == 1 ? "" : "s",
           plan->cluster > 1 ? ", the last one across the cluster" : "",
           copy_in && copy_out ? ", plus coalesced copies in and out"
           : copy_in           ? ", plus a coalesced copy in"
           : copy_out          ? ", plus a coalesced copy out" : "");
    if (plan->prefetch > 1 && plan->slice_rows > 0)
        printf("%sprefetch:       the next slice's input copied (cp.async, by the block's threads%s) into a %d-byte"
               " staging buffer while they compute the current one\n", indent,
               plan->split_copies ? ", half at the block's first barrier and half at its last" : "",
               plan->shared_bytes - 8 * plan->smem_points);
    else if (plan->prefetch > 1 && plan->tiled)
        printf("%sprefetch:       the next tile's input copied (cp.async, by the block's threads, run by run) into a"
               " %d-byte staging buffer while they compute the current one\n", indent,
               plan->shared_bytes - 8 * plan->smem_points);
    else if (plan->prefetch > 1)
        printf("%sprefetch:       the next transform's input bulk-copied (TMA) into a %d-byte staging buffer while the"
               " block computes the current one\n", indent, plan->shared_bytes - 8 * plan->smem_points);
    if (plan->l2_prefetch_bytes > 0)
        printf("%sL2 prefetch:    each block asks L2 for the input %d KB further on (sm_90)\n", indent,
               plan->l2_prefetch_bytes / 1024);
    if (plan->l2_fetch_256)
        printf("%sL2 fetch:       the column loads ask L2 for the 256 bytes around each point (.L2::256B, sm_80)\n",
               indent);
    if (plan->tma_columns)
        printf("%sTMA %s    tiles in turn, as many blocks an SM as fit; the next tile%s copied by the tensor memory"
               " accelerator into a %d-byte staging buffer%s%s (sm_90)\n",
               indent, fftgen_tma_runs(plan) ? "runs:   " : "columns:", fftgen_tma_runs(plan) ? "'s runs" : "",
               plan->ffts_per_block * plan->n * (plan->precision == FFTGEN_KERNEL_FP16 ? 4 : 8),
               fftgen_tma_runs(plan) ? " (in 128-byte rows, swizzled)" : "",
               plan->tma_in_exchanges ? " inside the exchanges' shared memory, once the last stage has read them, while"
                                        " the block computes and stores the current one's outputs"
                                      : " while the block computes the current one");
    if (plan->tile_pairs)
        printf("%stile pairs:     two tiles a block in turn, each one's outputs kept in shared memory (the first past"
               " the exchanges, the second over them), then stored together in rows of %d transforms\n", indent,
               2 * plan->ffts_per_block);
}

static void explain_shape(const fftgen_transform_plan *plan)
{
    const fftgen_kernel_plan *first = &plan->pass[0];
    char shape[64];
    fftgen_shape_text(plan->rank, plan->shape, shape, sizeof shape);
    printf("fftgen plan: %s %dD %s FFT for sm_%d, %d pass%s over global memory (%s)\n", shape, plan->rank,
           fftgen_precision_name(first->precision), first->arch, plan->pass_count, plan->pass_count > 1 ? "es" : "",
           plan->columns_first ? "the columns first, through the work area"
           : plan->four_step_columns != 0 ? "dimension 0 split four-step: its short columns, then the rest of them"
                                            " fused with the rows in slices, through the work area"
                               : "the dimensions in turn, the last two fused where a slice fits a block");
    for (int i = 0; i < plan->pass_count; ++i) {
        const fftgen_kernel_plan *p = &plan->pass[i];
        if (plan->columns_first) {
            printf("  pass %d: FFTs of %d points along dimension %d, %s\n", i + 1, p->n, p->dimension,
                   i == 0 ? "columns in tiles side by side, each tile written as one block into the work area"
                          : "rows in tiles, read in runs from the blocks in the work area");
        } else if (p->slice_rows > 0 && p->cluster > 1) {
            printf("  pass %d: %d x %d slices (dimensions %d and %d) on thread-block clusters of %d blocks: block c"
                   " transforms the %d rows c + %d*j (chain below), then their columns (radix ", i + 1,
                   p->slice_rows * p->cluster, p->n / p->slice_rows, p->dimension - 1, p->dimension, p->cluster,
                   p->slice_rows, p->cluster);
            for (int s = 0; s < p->col_stage_count; ++s) printf("%s%d", s ? " x " : "", p->col_radices[s]);
            printf(") through shared memory, then a radix-%d stage across the blocks\n", p->cluster);
        } else if (p->slice_rows > 0) {
            printf("  pass %d: %d x %d slices (dimensions %d and %d) in one block: the rows (chain below", i + 1,
                   p->slice_rows, p->n / p->slice_rows, p->dimension - 1, p->dimension);
            if (p->row_rounds > 1) printf(", %d rows a thread in turn", p->row_rounds);
            printf("), then the columns (radix ");
            for (int s = 0; s < p->col_stage_count; ++s) printf("%s%d", s ? " x " : "", p->col_radices[s]);
            if (p->column_rounds > 1) printf(", %d columns a thread in turn", p->column_rounds);
            printf(")%s%s\n",
                   fftgen_merges_whole_columns(p) ? " in registers, in the rows' last stage, each thread the columns of"
                                                    " its rows' butterflies; that stage stores the outputs"
                   : p->merged_stage ? " through shared memory; the rows' last stage runs the columns' first on its"
                                       " outputs, in registers"
                                     : " through shared memory",
                   p->computed_twiddles && p->col_stage_count > 1 ? "; the columns' twiddles computed (__sincosf, then"
                                                                    " Chebyshev's recurrence)" : "");
            if (p->interleaved_slices > 1)
                printf("          slices of %d rows of the work area, each the last %d points of the four-step columns;"
                       " slice s's row k written to the output's row s mod %d + %d*k\n", p->slice_rows, p->slice_rows,
                       p->interleaved_slices, p->interleaved_slices);
            if (p->volume_depth > 0) {
                printf("          a whole transform a block (%d of them): its %d slices, then the columns along dimension"
                       " 0 (radix ", p->ffts_per_block / p->volume_depth, p->volume_depth);
                for (int s = 0; s < p->depth_stage_count; ++s) printf("%s%d", s ? " x " : "", p->depth_radices[s]);
                if (p->depth_rounds > 1) printf(", %d columns a thread in turn", p->depth_rounds);
                printf(") in the same shared memory\n");
            }
        } else if ((p->source == FFTGEN_BUFFER_WORK || p->target == FFTGEN_BUFFER_WORK) &&
                   p->dimension < plan->rank - 1) {
            printf("  pass %d: FFTs of %d points, a four-step pass of the %lld-point columns (dimension %d) in tiles"
                   " side by side, %s the work area%s\n", i + 1, p->n, plan->shape[p->dimension], p->dimension,
                   p->target == FFTGEN_BUFFER_WORK ? "into" : "from",
                   p->twiddle_by_group ? ", times the four-step twiddles" : "");
        } else if (p->source == FFTGEN_BUFFER_WORK || p->target == FFTGEN_BUFFER_WORK) {
            printf("  pass %d: FFTs of %d points, a four-step pass of the %lld-point rows (dimension %d), %s the"
                   " work area\n", i + 1, p->n, plan->shape[plan->rank - 1], p->dimension,
                   p->source == FFTGEN_BUFFER_WORK ? (p->target == FFTGEN_BUFFER_WORK ? "within" : "from") : "into");
        } else if (p->cluster > 1) {
            printf("  pass %d: FFTs of %d points along dimension %d on thread-block clusters of %d blocks, columns in"
                   " tiles of %d side by side: block c transforms the %d rows c + %d*j, then a radix-%d stage across"
                   " the blocks\n", i + 1, p->n * p->cluster, p->dimension, p->cluster, p->ffts_per_block, p->n,
                   p->cluster, p->cluster);
        } else {
            printf("  pass %d: FFTs of %d points along dimension %d, %s\n", i + 1, p->n, p->dimension,
                   p->tiled ? (p->in.elem_stride == 1 ? "rows in tiles" : "columns in tiles side by side")
                            : "contiguous rows");
        }
        explain_pass(p, "    ");
    }
}

/* What a split precision does on the stages marked "on tensor cores". */
static void explain_split(fftgen_kernel_precision precision)
{
    if (precision == FFTGEN_KERNEL_SPLIT)
        printf("  split: float2 in memory; on tensor cores, each butterfly's inputs are scaled by a power of two,"
               " split into fp16 hi + 2^-11 lo (the DFT matrix too), and hi*hi is summed apart from hi*lo + lo*hi"
               " (lo*lo dropped); everything else in fp32\n");
    else if (precision == FFTGEN_KERNEL_SPLIT_PAPERS)
        printf("  split-papers: float2 in memory; on tensor cores, each butterfly's inputs are split as in the papers,"
               " x = s1*hi + s2*lo with s1 = max |x|, s2 = max |x - s1*hi| (the DFT matrix as fp16 hi + lo),"
               " lo*lo dropped; everything else in fp32\n");
}

/* fp16 plans of several passes: how the data are stored between them. */
static void explain_intermediate(const fftgen_transform_plan *plan)
{
    if (plan->pass_count < 2 || plan->pass[0].precision != FFTGEN_KERNEL_FP16) return;
    int shared = 0, mixed = 0;
    for (int i = 0; i + 1 < plan->pass_count; ++i) {
        shared += plan->pass[i].shared_exponent_target;
        mixed += plan->pass[i].mixed_target_rows > 0;
    }
    printf("  between passes:");
    for (int i = 0; i + 1 < plan->pass_count; ++i) {
        const fftgen_kernel_plan *p = &plan->pass[i];
        if (p->mixed_target_rows > 0)
            printf("%s %d-%d mixed (fp16 in pass %d's rows r with r / %d odd, else shared-exponent)", i ? "," : "",
                   i + 1, i + 2, i + 2, p->mixed_target_rows);
        else
            printf("%s %d-%d %s", i ? "," : "", i + 1, i + 2,
                   p->shared_exponent_target ? "shared-exponent complexes" : "fp16");
    }
    if (shared > 0)
        printf(" (shared-exponent: 32 bits, a 4-bit exponent and two 14-bit mantissas, about half fp16's"
               " rounding error%s)", mixed > 0 ? "; mixed: half the points each, the error between" : "");
    printf("\n");
}

static void explain(const fftgen_transform_plan *plan)
{
    const fftgen_kernel_plan *first = &plan->pass[0];
    if (plan->rank > 1) {
        explain_shape(plan);
        explain_split(first->precision);
        explain_intermediate(plan);
        return;
    }
    if (plan->pass_count == 1 && first->cluster > 1) {
        printf("fftgen plan: %lld-point %s FFT for sm_%d, one kernel (one pass over global memory) on thread-block"
               " clusters of %d blocks: block c transforms the %d points c + %d*j, then a radix-%d stage across the"
               " blocks\n", plan->n, fftgen_precision_name(first->precision), first->arch, first->cluster, first->n,
               first->cluster, first->cluster);
        explain_pass(first, "  ");
        return;
    }
    if (plan->pass_count == 1) {
        printf("fftgen plan: %lld-point %s FFT for sm_%d, one kernel (one pass over global memory)\n", plan->n,
               fftgen_precision_name(first->precision), first->arch);
        explain_split(first->precision);
        explain_pass(first, "  ");
        return;
    }
    printf("fftgen plan: %lld-point %s FFT for sm_%d, %d passes over global memory (four-step, no transposes)\n",
           plan->n, fftgen_precision_name(first->precision), first->arch, plan->pass_count);
    explain_split(first->precision);
    explain_intermediate(plan);
    for (int i = 0; i < plan->pass_count; ++i) {
        const fftgen_kernel_plan *p = &plan->pass[i];
        const int on_cluster = p->cluster > 1;
        printf("  pass %d: %lld transforms of %d points per %lld-point transform, %s%s", i + 1,
               fftgen_pass_ffts(p, plan->n), on_cluster ? p->n * p->cluster : p->n, plan->n,
               p->in.run_points > 0 ? "rows (read in runs from the blocks of the pass before)"
               : p->in.elem_stride == 1 ? "rows (contiguous)" : "columns (strided, in tiles)",
               p->in.elem_stride == 1 ? ", written transposed"
               : p->twiddle_by_column ? ", times the four-step twiddles, each tile written as one block"
               : (p->twiddle_n ? ", times the four-step twiddles" : ""));
        if (fftgen_computes_pass_twiddles(p)) printf(" (computed: __sincosf, then Chebyshev's recurrence)");
        if (on_cluster)
            printf(", on thread-block clusters of %d blocks: block c transforms the %d rows c + %d*j, then a"
                   " radix-%d stage across the blocks", p->cluster, p->n, p->cluster, p->cluster);
        printf("\n");
        explain_pass(p, "    ");
    }
}

int main(int argc, char **argv)
{
    enum { OPT_N = 256, OPT_RADIX, OPT_PRECISION, OPT_DIRECTION, OPT_ARCH, OPT_EXPLAIN, OPT_NAME, OPT_TARGET,
           OPT_TEMPLATES, OPT_ISTRIDE, OPT_IDIST, OPT_OSTRIDE, OPT_ODIST, OPT_INEMBED, OPT_ONEMBED, OPT_TENSOR_CORES,
           OPT_TWIDDLE_POWERS, OPT_RADIX32_PASSES, OPT_COLUMN_REGISTERS, OPT_COMPUTED_TWIDDLES,
           OPT_MAX_TILE, OPT_CLUSTER, OPT_INTERMEDIATE, OPT_ORDER, OPT_BLOCK_THREADS, OPT_PREFETCH,
           OPT_SPLIT_COLUMNS, OPT_COLUMN_PAIRS, OPT_ROW_REGISTERS, OPT_L2_PREFETCH, OPT_L2_PREFETCH_PASSES,
           OPT_L2_FETCH_256, OPT_FOUR_STEP, OPT_TMA_COLUMNS, OPT_TILE_PAIRS };
    static const struct option options[] = {
        {"n", required_argument, 0, OPT_N},
        {"radix", required_argument, 0, OPT_RADIX},
        {"block-threads", required_argument, 0, OPT_BLOCK_THREADS},
        {"prefetch", required_argument, 0, OPT_PREFETCH},
        {"l2-prefetch", required_argument, 0, OPT_L2_PREFETCH},
        {"l2-prefetch-passes", optional_argument, 0, OPT_L2_PREFETCH_PASSES},
        {"l2-fetch-256", optional_argument, 0, OPT_L2_FETCH_256},
        {"tma-columns", optional_argument, 0, OPT_TMA_COLUMNS},
        {"tile-pairs", optional_argument, 0, OPT_TILE_PAIRS},
        {"precision", required_argument, 0, OPT_PRECISION},
        {"direction", required_argument, 0, OPT_DIRECTION},
        {"arch", required_argument, 0, OPT_ARCH},
        {"output", required_argument, 0, 'o'},
        {"explain", no_argument, 0, OPT_EXPLAIN},
        {"name", required_argument, 0, OPT_NAME},
        {"target", required_argument, 0, OPT_TARGET},
        {"templates", required_argument, 0, OPT_TEMPLATES},
        {"istride", required_argument, 0, OPT_ISTRIDE},
        {"idist", required_argument, 0, OPT_IDIST},
        {"ostride", required_argument, 0, OPT_OSTRIDE},
        {"odist", required_argument, 0, OPT_ODIST},
        {"inembed", required_argument, 0, OPT_INEMBED},
        {"onembed", required_argument, 0, OPT_ONEMBED},
        {"tensor-cores", optional_argument, 0, OPT_TENSOR_CORES},
        {"twiddle-powers", optional_argument, 0, OPT_TWIDDLE_POWERS},
        {"radix32-passes", optional_argument, 0, OPT_RADIX32_PASSES},
        {"column-registers", optional_argument, 0, OPT_COLUMN_REGISTERS},
        {"computed-twiddles", optional_argument, 0, OPT_COMPUTED_TWIDDLES},
        {"column-pairs", optional_argument, 0, OPT_COLUMN_PAIRS},
        {"row-registers", optional_argument, 0, OPT_ROW_REGISTERS},
        {"max-tile", required_argument, 0, OPT_MAX_TILE},
        {"cluster", required_argument, 0, OPT_CLUSTER},
        {"intermediate", required_argument, 0, OPT_INTERMEDIATE},
        {"order", required_argument, 0, OPT_ORDER},
        {"split-columns", no_argument, 0, OPT_SPLIT_COLUMNS},
        {"four-step", required_argument, 0, OPT_FOUR_STEP},
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0},
    };
    if (argc > 1 && strcmp(argv[1], "pack") == 0) return fftgen_pack_command(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "tune") == 0) return run_tune(argv + 1);
    fftgen_kernel_request request = {0, 0, FFTGEN_KERNEL_FP32, FFTGEN_DEFAULT_ARCH, 0, {{0}}, 0,
                                     FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int have_n = 0, explain_only = 0, directions = FFTGEN_RENDER_BOTH;
    const char *output = NULL, *name = NULL, *templates_dir = NULL;
    fftgen_target target = FFTGEN_TARGET_CUDA;
    long long layout[4] = {1, 0, 1, 0}; /* istride, idist, ostride, odist; a distance of 0 means n */
    long long shape[FFTGEN_MAX_RANK] = {0}, embeds[2][FFTGEN_MAX_RANK] = {{0}}; /* embeds[side][d]; 0: the shape */
    int rank = 0, embed_ranks[2] = {0, 0};

    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:hV", options, NULL)) != -1) {
        switch (c) {
        case OPT_N:
            rank = parse_shape("--n", optarg, shape, FFTGEN_MAX_RANK);
            have_n = 1;
            break;
        case OPT_INEMBED:
        case OPT_ONEMBED: {
            const int side = c == OPT_ONEMBED;
            embed_ranks[side] = parse_shape(side ? "--onembed" : "--inembed", optarg, embeds[side] + 1,
                                            FFTGEN_MAX_RANK - 1);
            break;
        }
        case OPT_RADIX: {
            const long long radix = parse_integer("--radix", optarg);
            if (!fftgen_radix_supported(radix))
                fail(EXIT_USAGE, "unknown radix %s (expected 2, 4, 8, 16 or 32)", optarg);
            request.max_radix = (int)radix;
            break;
        }
        case OPT_BLOCK_THREADS: {
            const long long threads = parse_integer("--block-threads", optarg);
            if (!fftgen_block_threads_supported(threads))
                fail(EXIT_USAGE, "unknown block size %s (expected a power of two from 32 to %d threads)", optarg,
                     FFTGEN_MAX_THREADS_PER_BLOCK);
            request.block_threads = (int)threads;
            break;
        }
        case OPT_PREFETCH: {
            const long long transforms = parse_integer("--prefetch", optarg);
            if (!fftgen_prefetch_supported(transforms))
                fail(EXIT_USAGE, "bad prefetch %s (expected a power of two from 2 to %d transforms a block)", optarg,
                     FFTGEN_MAX_PREFETCH);
            request.prefetch = (int)transforms;
            break;
        }
        case OPT_L2_PREFETCH: {
            request.l2_prefetch_kb = fftgen_l2_prefetch_parse(optarg);
            if (request.l2_prefetch_kb == 0)
                fail(EXIT_USAGE, "bad L2 prefetch %s (expected a distance from 1 to %d KB, or 0 for none)", optarg,
                     FFTGEN_MAX_L2_PREFETCH_KB);
            break;
        }
        case OPT_PRECISION: {
            const int precision = fftgen_precision_parse(optarg);
            if (precision < 0)
                fail(EXIT_USAGE, "unknown precision '%s' (expected fp32, fp16, split or split-papers)", optarg);
            request.precision = (fftgen_kernel_precision)precision;
            break;
        }
        case OPT_DIRECTION:
            if (strcmp(optarg, "forward") == 0) directions = FFTGEN_RENDER_FORWARD;
            else if (strcmp(optarg, "inverse") == 0) directions = FFTGEN_RENDER_INVERSE;
            else if (strcmp(optarg, "both") == 0) directions = FFTGEN_RENDER_BOTH;
            else fail(EXIT_USAGE, "unknown direction '%s' (expected forward, inverse or both)", optarg);
            break;
        case OPT_ARCH:
            request.arch = parse_arch(optarg);
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_EXPLAIN:
            explain_only = 1;
            break;
        case OPT_TENSOR_CORES:
            request.tensor_cores = parse_passes("tensor-cores", optarg);
            break;
        case OPT_TWIDDLE_POWERS:
            request.twiddle_powers = parse_passes("twiddle-powers", optarg);
            break;
        case OPT_RADIX32_PASSES:
            request.radix32_passes = parse_passes("radix32-passes", optarg);
            break;
        case OPT_COLUMN_REGISTERS:
            request.column_register_passes = parse_passes("column-registers", optarg);
            break;
        case OPT_COMPUTED_TWIDDLES:
            request.computed_twiddle_passes = parse_passes("computed-twiddles", optarg);
            break;
        case OPT_COLUMN_PAIRS:
            request.column_pair_passes = parse_passes("column-pairs", optarg);
            break;
        case OPT_ROW_REGISTERS:
            request.row_register_passes = parse_passes("row-registers", optarg);
            break;
        case OPT_L2_PREFETCH_PASSES:
            request.l2_prefetch_passes = parse_passes("l2-prefetch-passes", optarg);
            break;
        case OPT_L2_FETCH_256:
            request.l2_fetch_256_passes = parse_passes("l2-fetch-256", optarg);
            break;
        case OPT_TMA_COLUMNS:
            request.tma_column_passes = parse_passes("tma-columns", optarg);
            break;
        case OPT_TILE_PAIRS:
            request.tile_pair_passes = parse_passes("tile-pairs", optarg);
            break;
        case OPT_MAX_TILE:
            if (fftgen_tile_caps_parse(optarg, &request.max_tile) != 0)
                fail(EXIT_USAGE,
                     "--max-tile takes 0 or a power of two up to %d, or a comma-separated list of them (one per"
                     " pass), got '%s'", FFTGEN_MAX_TILE_CAP, optarg);
            break;
        case OPT_CLUSTER:
            request.cluster = fftgen_cluster_parse(optarg);
            if (request.cluster < 0) fail(EXIT_USAGE, "--cluster takes 0, 1, 2, 4 or 8, got '%s'", optarg);
            break;
        case OPT_INTERMEDIATE: {
            const int intermediate = fftgen_intermediate_parse(optarg);
            if (intermediate < 0)
                fail(EXIT_USAGE, "--intermediate takes fp16, shared-exponent, mixed or default, got '%s'", optarg);
            request.intermediate = (fftgen_intermediate)intermediate;
            break;
        }
        case OPT_ORDER:
            request.columns_first = fftgen_order_parse(optarg);
            if (request.columns_first < 0)
                fail(EXIT_USAGE, "--order takes rows-first or columns-first, got '%s'", optarg);
            break;
        case OPT_SPLIT_COLUMNS:
            request.split_columns = 1;
            break;
        case OPT_FOUR_STEP: {
            const long long n1 = parse_integer("--four-step", optarg);
            if (!fftgen_four_step_supported(n1))
                fail(EXIT_USAGE, "--four-step takes a power of two from 2 to 2^29, got '%s'", optarg);
            request.four_step_columns = (int)n1;
            break;
        }
        case OPT_NAME:
            if (!is_identifier(optarg)) fail(EXIT_USAGE, "--name '%s' is not a C identifier", optarg);
            if (strlen(optarg) > 64) fail(EXIT_USAGE, "--name '%s' is longer than 64 characters", optarg);
            name = optarg;
            break;
        case OPT_TARGET:
            if (strcmp(optarg, "cuda") == 0) target = FFTGEN_TARGET_CUDA;
            else if (strcmp(optarg, "sim") == 0) target = FFTGEN_TARGET_SIM;
            else fail(EXIT_USAGE, "unknown target '%s' (expected cuda or sim)", optarg);
            break;
        case OPT_TEMPLATES: {
            char why[512];
            if (fftgen_templates_check_dir(optarg, why, sizeof why) != 0) fail(EXIT_USAGE, "%s", why);
            templates_dir = optarg;
            break;
        }
        case OPT_ISTRIDE:
        case OPT_IDIST:
        case OPT_OSTRIDE:
        case OPT_ODIST: {
            const char *flags[] = {"--istride", "--idist", "--ostride", "--odist"};
            const int which = c - OPT_ISTRIDE;
            layout[which] = parse_integer(flags[which], optarg);
            if (layout[which] < 1) fail(EXIT_USAGE, "%s must be >= 1, got %s", flags[which], optarg);
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            printf("fftgen %s\n", FFTGEN_VERSION);
            return 0;
        case ':':
            fail(EXIT_USAGE, "option '%s' needs a value (see fftgen --help)", argv[optind - 1]);
            break;
        default:
            fail(EXIT_USAGE, "unknown option '%s' (see fftgen --help)", argv[optind - 1]);
        }
    }
    if (optind < argc) fail(EXIT_USAGE, "unexpected argument '%s' (see fftgen --help)", argv[optind]);
    if (!have_n) fail(EXIT_USAGE, "--n is required (see fftgen --help)");
    if (request.intermediate != FFTGEN_INTERMEDIATE_DEFAULT && request.precision != FFTGEN_KERNEL_FP16)
        fail(EXIT_USAGE, "--intermediate applies to fp16 only (%s keeps fp32 between passes)",
             fftgen_precision_name(request.precision));

    for (int side = 0; side < 2; ++side)
        if (embed_ranks[side] != 0 && rank == 1)
            fail(EXIT_USAGE, "--%s applies to 2D and 3D shapes (1D layouts take --%s and --%s)",
                 side ? "onembed" : "inembed", side ? "ostride" : "istride", side ? "odist" : "idist");
        else if (embed_ranks[side] != 0 && embed_ranks[side] != rank - 1)
            fail(EXIT_USAGE, "--%s needs %d size%s for a %dD shape (dimensions 1 and up)", side ? "onembed" : "inembed",
                 rank - 1, rank == 2 ? "" : "s", rank);

    char why[512];
    fftgen_transform_plan plan;
    long long points = 1;
    for (int d = 0; d < rank; ++d) points *= shape[d] > 0 && shape[d] <= (1LL << 31) ? shape[d] : 1;
    request.n = shape[0];
    fftgen_user_layout sides[2];
    for (int side = 0; side < 2; ++side) {
        const long long stride = layout[2 * side], asked_dist = layout[2 * side + 1];
        const long long span = transform_span(rank, shape, embeds[side], stride);
        sides[side] = (fftgen_user_layout){stride, asked_dist ? asked_dist : span, {0}};
        for (int d = 1; d < rank; ++d) sides[side].embed[d] = embeds[side][d];
        /* inputs may share elements (overlapping frames): only the output's would race */
        if (side == 1 && sides[side].dist < span && stride < 2 * sides[side].dist)
            fail(EXIT_USAGE,
                 "output layout: with stride %lld and distance %lld, two transforms would share elements (one "
                 "spans %lld; give a distance of at least that, or a stride of at least twice the distance)",
                 stride, sides[side].dist, span);
    }
    const fftgen_user_layout in = sides[0], out = sides[1];
    if (fftgen_plan_shape(&request, rank, shape, in, out, &plan, why, sizeof why) != FFTGEN_PLAN_OK)
        fail(EXIT_USAGE, "%s", why);
    if (explain_only) {
        explain(&plan);
        return 0;
    }

    const fftgen_render_request render = {&plan, target, directions, name, templates_dir};
    char *text = fftgen_render(&render, why, sizeof why);
    if (text == NULL) fail(EXIT_FAILURE, "%s", why);
    int status = 0;
    if (output != NULL) {
        if (fftgen_write_file(output, text, strlen(text), why, sizeof why) != 0) {
            free(text);
            fail(EXIT_USAGE, "%s", why);
        }
    } else if (fputs(text, stdout) == EOF || fflush(stdout) != 0) {
        fprintf(stderr, "fftgen: error: cannot write to standard output: %s\n", strerror(errno));
        status = EXIT_FAILURE;
    }
    free(text);
    return status;
}
