/* fftgen-bench: fftgen against cuFFT, in one process, on the same device buffers.
 * See usage() below. 2D and 3D shapes come with the 2D/3D plans. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cufft_compare.h"
#include "fftgen.h"

/* Relative L2 error bounds against cuFFT Z2Z; a transform above them fails the run. */
#define FP32_BOUND 1e-6
#define FP16_BOUND 1e-3

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen-bench [options] [N...]\n"
            "Times batched 1D complex FFTs through the fftgen API and cuFFT (cufftPlanMany for fp32,\n"
            "cufftXtMakePlanMany for fp16) on the same device buffers and the same random inputs,\n"
            "with CUDA events: warm-up runs, then the median and spread of many runs. Each row gives\n"
            "the time, GB/s, the %% of the device-to-device copy bandwidth measured in the same run,\n"
            "the speed-up over cuFFT and both relative L2 errors against cuFFT Z2Z (double) on the\n"
            "unrounded inputs.\n"
            "\n"
            "  N...               sizes (powers of two); default 16 to 2^27\n"
            "  --points TOTAL     points per size: batch = TOTAL / N (default 2^27)\n"
            "  --batch B          a fixed batch instead of --points\n"
            "  --precision P      fp32, fp16 or both (default both)\n"
            "  --direction D      forward or inverse (default forward)\n"
            "  --runs R           timed runs per transform (default 50)\n"
            "  --json FILE        also write the results, with the device, driver and versions\n"
            "  -h, --help         this text\n"
            "\n"
            "Exit status: 0; 1 when there is no GPU, a transform fails, or an error is above %g (fp32)\n"
            "or %g (fp16); 2 on bad arguments.\n",
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
                       int count)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return;
    }
    fprintf(f, "{\n  \"device\": \"%s\",\n  \"driver\": %d,\n  \"cuda_runtime\": %d,\n  \"fftgen\": \"%s\",\n", device,
            driver, runtime, fftgen_version());
    fprintf(f, "  \"copy_bandwidth_gbps\": %.1f,\n  \"results\": [\n", count ? rows[0].result.copy_gbps : 0.0);
    for (int i = 0; i < count; ++i) {
        const struct compare_config *c = &rows[i].config;
        const struct compare_result *r = &rows[i].result;
        fprintf(f,
                "    {\"shape\": [%d], \"batch\": %d, \"precision\": \"%s\", \"direction\": \"%s\", "
                "\"fftgen_ms\": %.5f, \"fftgen_ms_min\": %.5f, \"fftgen_ms_max\": %.5f, "
                "\"cufft_ms\": %.5f, \"cufft_ms_min\": %.5f, \"cufft_ms_max\": %.5f, "
                "\"bytes\": %.0f, \"copy_gbps\": %.1f, \"fftgen_error\": %.3e, \"cufft_error\": %.3e}%s\n",
                c->n, c->batch, c->fp16 ? "fp16" : "fp32", c->inverse ? "inverse" : "forward", r->fftgen_ms,
                r->fftgen_ms_min, r->fftgen_ms_max, r->cufft_ms, r->cufft_ms_min, r->cufft_ms_max, r->bytes,
                r->copy_gbps, r->fftgen_error, r->cufft_error, i + 1 < count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
}

int main(int argc, char **argv)
{
    long long total = 1LL << 27, fixed_batch = 0, sizes[64];
    int runs = 50, want[2] = {1, 1}, inverse = 0, count = 0;
    const char *json = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--points") && has_value) {
            total = atoll(argv[++i]);
        } else if (!strcmp(a, "--batch") && has_value) {
            fixed_batch = atoll(argv[++i]);
            if (fixed_batch < 1 || fixed_batch > 2147483647LL) {
                fprintf(stderr, "fftgen-bench: --batch must be from 1 to 2^31-1\n");
                return 2;
            }
        } else if (!strcmp(a, "--runs") && has_value) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(a, "--json") && has_value) {
            json = argv[++i];
        } else if (!strcmp(a, "--precision") && has_value) {
            const char *p = argv[++i];
            want[0] = !strcmp(p, "fp32") || !strcmp(p, "both");
            want[1] = !strcmp(p, "fp16") || !strcmp(p, "both");
            if (!want[0] && !want[1]) {
                fprintf(stderr, "fftgen-bench: unknown precision '%s' (fp32, fp16 or both)\n", p);
                return 2;
            }
        } else if (!strcmp(a, "--direction") && has_value) {
            const char *d = argv[++i];
            if (strcmp(d, "forward") && strcmp(d, "inverse")) {
                fprintf(stderr, "fftgen-bench: unknown direction '%s' (forward or inverse)\n", d);
                return 2;
            }
            inverse = !strcmp(d, "inverse");
        } else if (a[0] != '-' && count < 64) {
            char *end;
            sizes[count] = strtoll(a, &end, 10);
            if (*end != '\0' || sizes[count] < 2 || (sizes[count] & (sizes[count] - 1))) {
                fprintf(stderr, "fftgen-bench: '%s' is not a power of two >= 2\n", a);
                return 2;
            }
            ++count;
        } else {
            fprintf(stderr, "fftgen-bench: unknown or incomplete argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (runs < 3 || total < 2) {
        fprintf(stderr, "fftgen-bench: --runs must be >= 3 and --points >= 2\n");
        return 2;
    }
    if (count == 0)
        for (long long n = 16; n <= (1LL << 27); n *= 2) sizes[count++] = n;

    char device[256];
    int driver, runtime;
    if (describe_device(device, sizeof device, &driver, &runtime) != 0) {
        fprintf(stderr, "fftgen-bench: no CUDA device: nothing to measure\n");
        return 1;
    }
    if (fixed_batch)
        printf("device: %s, driver %d, CUDA runtime %d, fftgen %s; batch %lld, median of %d runs\n", device, driver,
               runtime, fftgen_version(), fixed_batch, runs);
    else
        printf("device: %s, driver %d, CUDA runtime %d, fftgen %s; %lld points per size, median of %d runs\n",
               device, driver, runtime, fftgen_version(), total, runs);
    print_compare_header();
    struct row *rows = calloc((size_t)count * 2, sizeof *rows);
    if (rows == NULL) return 1;
    int done = 0, failures = 0;
    const int jobs = count * (want[0] + want[1]);
    for (int s = 0; s < count; ++s)
        for (int p = 0; p < 2; ++p) {
            if (!want[p]) continue;
            const long long batch = fixed_batch ? fixed_batch : total / sizes[s] > 0 ? total / sizes[s] : 1;
            fprintf(stderr, "\r[%d/%d] %lld points %s...", done + failures + 1, jobs, sizes[s], p ? "fp16" : "fp32");
            const fftgen_result planned =
                fftgen_plan_1d(&current_plan, sizes[s], p ? FFTGEN_FP16 : FFTGEN_FP32, batch, 0);
            if (planned != FFTGEN_SUCCESS) {
                fprintf(stderr, "\nfftgen-bench: planning %lld points: %s\n", sizes[s], fftgen_result_string(planned));
                ++failures;
                continue;
            }
            current_direction = inverse ? FFTGEN_INVERSE : FFTGEN_FORWARD;
            struct row *row = &rows[done];
            row->config = (struct compare_config){(int)sizes[s], p, (int)batch, inverse, 5, runs,
                                                  1000u + (unsigned)(s * 2 + p)};
            const int compared = compare_with_cufft(&row->config, launch_current, &row->result);
            fftgen_destroy(current_plan);
            if (compared != 0) {
                ++failures;
                continue;
            }
            fprintf(stderr, "\r%60s\r", "");
            print_compare_row(&row->config, &row->result);
            fflush(stdout);
            const double bound = p ? FP16_BOUND : FP32_BOUND;
            if (!(row->result.fftgen_error < bound)) {
                fprintf(stderr, "fftgen-bench: %lld points %s: error %.3e is above %g\n", sizes[s], p ? "fp16" : "fp32",
                        row->result.fftgen_error, bound);
                ++failures;
            }
            ++done;
        }
    fprintf(stderr, "\r%60s\r", "");
    if (json != NULL) write_json(json, device, driver, runtime, rows, done);
    free(rows);
    return failures ? 1 : 0;
}
