/* fftgen-bench: fftgen against cuFFT, in one process, on the same device buffers.
 * See usage() below. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count_arg.h"
#include "cufft_compare.h"
#include "fftgen.h"
#include "shape_arg.h"

/* Relative L2 error bounds against cuFFT Z2Z; a transform above them fails the run. */
#define FP32_BOUND 1e-6
#define FP16_BOUND 1e-3

enum { PRECISIONS = 4 }; /* fftgen_precision: fp32, fp16, split, split-papers */
static const char *const PRECISION_NAMES[PRECISIONS] = {"fp32", "fp16", "split", "split-papers"};

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen-bench [options] [SHAPE...]\n"
            "Times batched complex FFTs through the fftgen API and cuFFT (cufftPlanMany for fp32 and\n"
            "the split precisions, cufftXtMakePlanMany for fp16) on the same device buffers and the\n"
            "same random inputs,\n"
            "with CUDA events: warm-up runs of each, then many rounds of one run of each in turns\n"
            "(fftgen, cuFFT, a device-to-device copy of the same bytes), their medians and spreads.\n"
            "Each row gives the time, GB/s, the %% of that row's copy bandwidth,\n"
            "the speed-up over cuFFT and both relative L2 errors against cuFFT Z2Z (double) on the\n"
            "unrounded inputs. Where stderr is a terminal, a status line there says which transform\n"
            "is being measured.\n"
            "\n"
            "  SHAPE...           1D sizes (powers of two) and 2D or 3D shapes such as 512x256 or\n"
            "                     64x64x64; default 16 to 2^27, then the 2D shapes 256x256, 512x256,\n"
            "                     256x512, 512x512, 1024x1024, 4096x4096, 8192x8192 and the cubes 64^3,\n"
            "                     128^3, 256^3, 512^3\n"
            "  --points TOTAL     points per shape: batch = TOTAL / points (default 2^27)\n"
            "  --batch B          a fixed batch instead of --points\n"
            "  --precision LIST   comma-separated: fp32, fp16, split, split-papers, or both (= fp32,fp16;\n"
            "                     the default). The split precisions (float2 data, radix-16 stages on\n"
            "                     tensor cores with fp16 hi + lo operands) run against cuFFT fp32\n"
            "  --direction D      forward or inverse (default forward)\n"
            "  --runs R           timed runs per transform (default 50)\n"
            "  --warmup W         untimed runs of each before them (default 5). Under a sanitizer or a\n"
            "                     profiler, --warmup 0 --runs 1 runs each kernel twice: checked, then timed\n"
            "  --back-to-back K   each timed run is K calls in a row between the events, and the times\n"
            "                     are per call (default 1): the GPU stays busy, as in an application\n"
            "                     that runs many transforms, and may reach its power limit\n"
            "  --tensor-cores     fftgen plans with FFTGEN_TENSOR_CORES (radix-16 stages on tensor cores;\n"
            "                     fp16 only, so it implies --precision fp16; 1D sizes 16 to 16384)\n"
            "  --json FILE        also write the results, with the device, driver and versions\n"
            "  -h, --help         this text\n"
            "\n"
            "Exit status: 0; 1 when there is no GPU, a transform fails, or an error is above %g (fp32,\n"
            "split) or %g (fp16); 2 on bad arguments.\n",
            FP32_BOUND, FP16_BOUND);
}

/* The plan the launch adaptor runs: compare_with_cufft takes a launch function. */
static fftgen_plan current_plan;
static fftgen_direction current_direction;

static cudaError_t launch_current(const void *in, void *out, int batch, cudaStream_t stream)
{
    (void)batch;
    (void)stream; /* the plan's stream is the default stream, as compare_with_cufft's events */
    return fftgen_exec(current_plan, in, out, current_direction) == FFTGEN_SUCCESS ? cudaSuccess
                                                                                   : cudaErrorLaunchFailure;
}

struct row {
    struct compare_config config;
    struct compare_result result;
};

static void write_json(const char *path, const char *device, int driver, int runtime, const struct row *rows,
                       int count, int tensor_cores, int back_to_back)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return;
    }
    fprintf(f, "{\n  \"tensor_cores\": %s,\n  \"back_to_back\": %d,\n", tensor_cores ? "true" : "false",
            back_to_back);
    /* "precision" of a row: fftgen's; cuFFT ran fp16 for fp16 rows and fp32 for all others */
    fprintf(f, "  \"device\": \"%s\",\n  \"driver\": %d,\n  \"cuda_runtime\": %d,\n  \"fftgen\": \"%s\",\n", device,
            driver, runtime, fftgen_version());
    fprintf(f, "  \"copy_bandwidth_gbps\": %.1f,\n  \"results\": [\n", count ? rows[0].result.copy_gbps : 0.0);
    for (int i = 0; i < count; ++i) {
        const struct compare_config *c = &rows[i].config;
        const struct compare_result *r = &rows[i].result;
        char shape[64] = "";
        const int rank = c->rank > 1 ? c->rank : 1;
        for (int d = 0; d < rank; ++d)
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%d", d ? ", " : "",
                     rank > 1 ? c->shape[d] : c->n);
        fprintf(f,
                "    {\"shape\": [%s], \"batch\": %d, \"precision\": \"%s\", \"direction\": \"%s\", "
                "\"fftgen_ms\": %.5f, \"fftgen_ms_min\": %.5f, \"fftgen_ms_max\": %.5f, "
                "\"cufft_ms\": %.5f, \"cufft_ms_min\": %.5f, \"cufft_ms_max\": %.5f, "
                "\"bytes\": %.0f, \"copy_gbps\": %.1f, \"fftgen_error\": %.3e, \"cufft_error\": %.3e}%s\n",
                shape, c->batch, c->label, c->inverse ? "inverse" : "forward", r->fftgen_ms,
                r->fftgen_ms_min, r->fftgen_ms_max, r->cufft_ms, r->cufft_ms_min, r->cufft_ms_max, r->bytes,
                r->copy_gbps, r->fftgen_error, r->cufft_error, i + 1 < count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
}

/* The shapes the README reports, after the 1D sweep. */
static const int DEFAULT_SHAPES[][4] = {
    {2, 256, 256, 0}, {2, 512, 256, 0}, {2, 256, 512, 0},   {2, 512, 512, 0},   {2, 1024, 1024, 0}, {2, 4096, 4096, 0},
    {2, 8192, 8192, 0}, {3, 64, 64, 64}, {3, 128, 128, 128}, {3, 256, 256, 256}, {3, 512, 512, 512},
};

/* "fp32,split": the precisions to run, in fftgen_precision order; 0 on success. */
static int parse_precisions(const char *text, int want[PRECISIONS])
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    for (int p = 0; p < PRECISIONS; ++p) want[p] = 0;
    for (char *name = strtok(copy, ","); name != NULL; name = strtok(NULL, ",")) {
        int found = !strcmp(name, "both");
        if (found) want[FFTGEN_FP32] = want[FFTGEN_FP16] = 1;
        for (int p = 0; p < PRECISIONS; ++p)
            if (!strcmp(name, PRECISION_NAMES[p])) want[p] = found = 1;
        if (!found) {
            fprintf(stderr, "fftgen-bench: unknown precision '%s' (fp32, fp16, split, split-papers or both)\n", name);
            return 2;
        }
    }
    for (int p = 0; p < PRECISIONS; ++p)
        if (want[p]) return 0;
    fprintf(stderr, "fftgen-bench: empty --precision list\n");
    return 2;
}

int main(int argc, char **argv)
{
    long long total = 1LL << 27, fixed_batch = 0;
    struct shape_arg sizes[64];
    int runs = 50, warmup = 5, back_to_back = 1, want[PRECISIONS] = {1, 1, 0, 0}, inverse = 0, count = 0;
    unsigned plan_flags = 0;
    const char *json = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--points") && has_value) {
            if ((total = count_arg_parse("fftgen-bench", a, argv[++i], 2, 1LL << 31)) < 0) return 2;
        } else if (!strcmp(a, "--batch") && has_value) {
            if ((fixed_batch = count_arg_parse("fftgen-bench", a, argv[++i], 1, 2147483647LL)) < 0) return 2;
        } else if (!strcmp(a, "--tensor-cores")) {
            plan_flags |= FFTGEN_TENSOR_CORES;
        } else if (!strcmp(a, "--runs") && has_value) {
            const long long value = count_arg_parse("fftgen-bench", a, argv[++i], 1, 100000);
            if (value < 0) return 2;
            runs = (int)value;
        } else if (!strcmp(a, "--warmup") && has_value) {
            const long long value = count_arg_parse("fftgen-bench", a, argv[++i], 0, 100000);
            if (value < 0) return 2;
            warmup = (int)value;
        } else if (!strcmp(a, "--back-to-back") && has_value) {
            const long long value = count_arg_parse("fftgen-bench", a, argv[++i], 1, 10000);
            if (value < 0) return 2;
            back_to_back = (int)value;
        } else if (!strcmp(a, "--json") && has_value) {
            json = argv[++i];
        } else if (!strcmp(a, "--precision") && has_value) {
            if (parse_precisions(argv[++i], want) != 0) return 2;
        } else if (!strcmp(a, "--direction") && has_value) {
            const char *d = argv[++i];
            if (strcmp(d, "forward") && strcmp(d, "inverse")) {
                fprintf(stderr, "fftgen-bench: unknown direction '%s' (forward or inverse)\n", d);
                return 2;
            }
            inverse = !strcmp(d, "inverse");
        } else if (a[0] != '-' && count < 64) {
            if (shape_arg_parse(a, &sizes[count]) != 0) {
                fprintf(stderr, "fftgen-bench: '%s' is not a power of two >= 2 or a shape like 512x256 of at most"
                                " 2^30 points\n", a);
                return 2;
            }
            ++count;
        } else {
            fprintf(stderr, "fftgen-bench: unknown or incomplete argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (plan_flags & FFTGEN_TENSOR_CORES) {
        for (int p = 0; p < PRECISIONS; ++p) want[p] = p == FFTGEN_FP16; /* tensor cores take fp16 */
    }
    if (count == 0 && (plan_flags & FFTGEN_TENSOR_CORES)) {
        for (long long n = 16; n <= 16384; n *= 2) sizes[count++] = (struct shape_arg){1, {n, 0, 0}};
    } else if (count == 0) {
        for (long long n = 16; n <= (1LL << 27); n *= 2) sizes[count++] = (struct shape_arg){1, {n, 0, 0}};
        for (size_t i = 0; i < sizeof DEFAULT_SHAPES / sizeof DEFAULT_SHAPES[0]; ++i)
            sizes[count++] = (struct shape_arg){DEFAULT_SHAPES[i][0], {DEFAULT_SHAPES[i][1], DEFAULT_SHAPES[i][2],
                                                                   DEFAULT_SHAPES[i][3]}};
    }

    char device[256];
    int driver, runtime;
    if (describe_device(device, sizeof device, &driver, &runtime) != 0) {
        fprintf(stderr, "fftgen-bench: no CUDA device: nothing to measure\n");
        return 1;
    }
    char timing[96];
    if (back_to_back > 1)
        snprintf(timing, sizeof timing, "median of %d runs of %d calls back to back (per call)", runs, back_to_back);
    else
        snprintf(timing, sizeof timing, "median of %d runs", runs);
    if (fixed_batch)
        printf("device: %s, driver %d, CUDA runtime %d, fftgen %s; batch %lld, %s\n", device, driver, runtime,
               fftgen_version(), fixed_batch, timing);
    else
        printf("device: %s, driver %d, CUDA runtime %d, fftgen %s; %lld points per size, %s\n", device, driver,
               runtime, fftgen_version(), total, timing);
    print_compare_header();
    struct row *rows = calloc((size_t)count * PRECISIONS, sizeof *rows);
    if (rows == NULL) return 1;
    /* a status line only where it is seen: a log gets the rows alone */
    const int live = isatty(fileno(stderr));
    const char *after_status = live ? "\n" : "";
    int done = 0, failures = 0, jobs = 0;
    for (int p = 0; p < PRECISIONS; ++p) jobs += count * want[p];
    for (int s = 0; s < count; ++s)
        for (int p = 0; p < PRECISIONS; ++p) {
            if (!want[p]) continue;
            const int fp16 = p == FFTGEN_FP16;
            const long long points = shape_arg_points(&sizes[s]);
            const long long batch = fixed_batch ? fixed_batch : total / points > 0 ? total / points : 1;
            struct row *row = &rows[done];
            /* the same inputs for every precision of a shape */
            row->config = (struct compare_config){.n = (int)points, .fp16 = fp16, .batch = (int)batch,
                                                  .inverse = inverse, .warmup = warmup, .runs = runs,
                                                  .back_to_back = back_to_back,
                                                  .seed = 1000u + (unsigned)(s * 2 + fp16), .rank = sizes[s].rank,
                                                  .label = PRECISION_NAMES[p]};
            for (int d = 0; d < sizes[s].rank; ++d) row->config.shape[d] = (int)sizes[s].n[d];
            char shape[48];
            compare_shape_text(&row->config, shape, sizeof shape);
            if (live) fprintf(stderr, "\r[%d/%d] %s %s...", done + failures + 1, jobs, shape, PRECISION_NAMES[p]);
            if ((double)points * (double)batch > 2147483647.0) {
                fprintf(stderr, "%sfftgen-bench: %s: batch %lld makes more than 2^31 points\n", after_status, shape,
                        batch);
                ++failures;
                continue;
            }
            const fftgen_result planned = fftgen_plan_many(&current_plan, sizes[s].rank, sizes[s].n, NULL, 1, points,
                                                           NULL, 1, points, (fftgen_precision)p, batch,
                                                           plan_flags);
            if (planned != FFTGEN_SUCCESS) {
                fprintf(stderr, "%sfftgen-bench: planning %s: %s (%s)\n", after_status, shape,
                        fftgen_result_string(planned), fftgen_last_error());
                ++failures;
                continue;
            }
            current_direction = inverse ? FFTGEN_INVERSE : FFTGEN_FORWARD;
            const int compared = compare_with_cufft(&row->config, launch_current, &row->result);
            fftgen_destroy(current_plan);
            if (compared != 0) {
                ++failures;
                continue;
            }
            if (live) fprintf(stderr, "\r%60s\r", "");
            print_compare_row(&row->config, &row->result);
            fflush(stdout);
            const double bound = fp16 ? FP16_BOUND : FP32_BOUND;
            if (!(row->result.fftgen_error < bound)) {
                fprintf(stderr, "fftgen-bench: %s %s: error %.3e is above %g\n", shape, PRECISION_NAMES[p],
                        row->result.fftgen_error, bound);
                ++failures;
            }
            ++done;
        }
    if (live) fprintf(stderr, "\r%60s\r", "");
    release_compare_buffers();
    if (json != NULL) write_json(json, device, driver, runtime, rows, done, (plan_flags & FFTGEN_TENSOR_CORES) != 0,
                                  back_to_back);
    free(rows);
    return failures ? 1 : 0;
}
