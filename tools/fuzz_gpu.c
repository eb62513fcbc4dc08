/* fftgen-fuzz-gpu: one case of tools/fuzz_plans.py's GPU sweep. It plans a transform through the
 * library, with the kernel choices of one wisdom line, in a layout of cufftPlanMany's, runs it on the
 * GPU and compares it with FFTW double. See usage() below. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "fftgen.h"
#include "launch.h"
#include "plan_choice.h"
#include "reference.h"
#include "shape_arg.h"

static const char *const PROGRAM = "fftgen-fuzz-gpu";

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen-fuzz-gpu [--wisdom WORDS] [--layout IS ID OS OD IE OE] [--in-place] [--scale]\n"
            "                       PRECISION SHAPE BATCH forward|inverse\n"
            "Plans BATCH transforms of SHAPE (fftgen_plan_many), runs one on the GPU and prints its relative\n"
            "L2 error against FFTW double on the same inputs (uniform in [-1, 1], rounded to the storage).\n"
            "  --wisdom WORDS   the plan's kernel choices as a wisdom line's words, e.g. \"tensor-cores=none\n"
            "                   max-tile=4,0 l2-fetch-256=1\"; a plan that cannot follow them fails\n"
            "  --layout ...     istride idist ostride odist inembed onembed, embeds as E1[xE2] (the input's\n"
            "                   span is random, the output's poisoned: a write outside its layout fails)\n"
            "  --in-place       in == out (dense layouts only)\n"
            "  --scale          FFTGEN_SCALE_INVERSE (dense layouts only)\n"
            "Exit status 0 when the error is under the precision's bound, 1 when not (or the library\n"
            "refused), 2 on bad arguments, 3 where there is no GPU.\n");
}

#define CHECK_CUDA(call)                                                                                     \
    do {                                                                                                     \
        const cudaError_t status_ = (call);                                                                  \
        if (status_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "%s: %s: %s\n", PROGRAM, #call, cudaGetErrorString(status_));                    \
            goto done;                                                                                       \
        }                                                                                                    \
    } while (0)

struct fuzz_run {
    fftgen_plan plan;
    size_t in_bytes, out_bytes; /* the layouts' spans */
    int in_place;
    fftgen_direction direction;
};

/* Copies the input (and the poisoned output) to the GPU, executes, copies the output back. */
static int run_on_gpu(const void *context, const void *in, void *out, int batch)
{
    (void)batch; /* the plan's */
    const struct fuzz_run *run = context;
    void *d_in = NULL, *d_out = NULL;
    int result = -1;
    CHECK_CUDA(cudaMalloc(&d_in, run->in_bytes));
    CHECK_CUDA(cudaMemcpy(d_in, in, run->in_bytes, cudaMemcpyHostToDevice));
    if (run->in_place) {
        d_out = d_in;
    } else {
        CHECK_CUDA(cudaMalloc(&d_out, run->out_bytes));
        CHECK_CUDA(cudaMemcpy(d_out, out, run->out_bytes, cudaMemcpyHostToDevice));
    }
    const fftgen_result executed = fftgen_exec(run->plan, d_in, d_out, run->direction);
    if (executed != FFTGEN_SUCCESS) {
        fprintf(stderr, "%s: fftgen_exec: %s: %s\n", PROGRAM, fftgen_result_string(executed), fftgen_last_error());
        goto done;
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(out, d_out, run->out_bytes, cudaMemcpyDeviceToHost));
    result = 0;
done:
    cudaFree(d_in);
    if (d_out != d_in) cudaFree(d_out);
    return result;
}

/* The choice that a wisdom line's words make for this transform on the current device: the words
 * go through the wisdom parser as a section for this device, then back out of it. */
static int parse_choice(int precision, const struct shape_arg *shape, const char *shape_text, const char *words,
                        fftgen_choice *choice)
{
    static const char *const names[] = {"fp32", "fp16", "split", "split-papers"};
    int device = 0, arch = 0;
    size_t memory = 0;
    fftgen_device_key key;
    if (fftgen_current_device(&device, &arch, &memory) != FFTGEN_SUCCESS ||
        fftgen_device_key_of(device, arch, &key) != FFTGEN_SUCCESS)
        return -1;
    char text[1024], why[512] = "";
    const int length =
        snprintf(text, sizeof text, "fftgen-wisdom 1\ndevice \"%s\" sm_%d driver %s fftgen %s\n%s %s %s\n", key.device,
                 key.arch, key.driver, key.version, names[precision], shape_text, words);
    if (length <= 0 || (size_t)length >= sizeof text) return -1;
    if (fftgen_wisdom_add_text(text, (size_t)length, 0, why, sizeof why) != FFTGEN_SUCCESS) {
        fprintf(stderr, "%s: --wisdom '%s': %s\n", PROGRAM, words, why);
        return -1;
    }
    /* the one line just added, whatever calls it serves */
    return fftgen_wisdom_find(&key, (fftgen_kernel_precision)precision, shape->rank, shape->n, 1, choice) ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *words = NULL, *layout_args[6] = {NULL};
    int in_place = 0, scale = 0, at = 1;
    for (; at < argc && strncmp(argv[at], "--", 2) == 0; ++at) {
        if (strcmp(argv[at], "--wisdom") == 0 && at + 1 < argc) {
            words = argv[++at];
        } else if (strcmp(argv[at], "--layout") == 0 && at + 6 < argc) {
            for (int i = 0; i < 6; ++i) layout_args[i] = argv[++at];
        } else if (strcmp(argv[at], "--in-place") == 0) {
            in_place = 1;
        } else if (strcmp(argv[at], "--scale") == 0) {
            scale = 1;
        } else if (strcmp(argv[at], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (argc - at != 4) {
        usage(stderr);
        return 2;
    }
    const char *precision_name = argv[at], *shape_text = argv[at + 1];
    static const char *const precisions[] = {"fp32", "fp16", "split", "split-papers"};
    int precision = -1;
    for (int p = 0; p < 4; ++p)
        if (strcmp(precision_name, precisions[p]) == 0) precision = p;
    struct shape_arg shape;
    const long long batch = count_arg_parse(PROGRAM, "BATCH", argv[at + 2], 1, 1 << 20);
    const int forward = strcmp(argv[at + 3], "forward") == 0;
    if (precision < 0 || shape_arg_parse(shape_text, &shape) != 0 || batch < 1 ||
        (!forward && strcmp(argv[at + 3], "inverse") != 0)) {
        usage(stderr);
        return 2;
    }
    const long long points = shape_arg_points(&shape);
    long long layout[4] = {1, points, 1, points}, inembed[3], onembed[3];
    embed_arg_parse("0", &shape, inembed);
    embed_arg_parse("0", &shape, onembed);
    const int strided = layout_args[0] != NULL;
    if (strided) {
        for (int i = 0; i < 4; ++i)
            if ((layout[i] = count_arg_parse(PROGRAM, "--layout", layout_args[i], 1, 1LL << 40)) < 0) return 2;
        if (embed_arg_parse(layout_args[4], &shape, inembed) != 0 ||
            embed_arg_parse(layout_args[5], &shape, onembed) != 0) {
            fprintf(stderr, "%s: embeds '%s' and '%s' do not fit %s\n", PROGRAM, layout_args[4], layout_args[5],
                    shape_text);
            return 2;
        }
    }
    if (strided && (in_place || scale)) {
        fprintf(stderr, "%s: --in-place and --scale take dense layouts only\n", PROGRAM);
        return 2;
    }

    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("%s: no GPU: skipped\n", PROGRAM);
        return 3;
    }
    fftgen_choice choice;
    if (words != NULL && parse_choice(precision, &shape, shape_text, words, &choice) != 0) {
        printf("FAILED: the words '%s' are not a wisdom line's choice\n", words);
        return 1;
    }
    struct fuzz_run run = {NULL, 0, 0, in_place, forward ? FFTGEN_FORWARD : FFTGEN_INVERSE};
    long long n[3];
    for (int d = 0; d < shape.rank; ++d) n[d] = shape.n[d];
    const fftgen_result planned =
        fftgen_plan_many_with_choice(&run.plan, shape.rank, n, strided ? inembed : NULL, layout[0], layout[1],
                                     strided ? onembed : NULL, layout[2], layout[3], (fftgen_precision)precision,
                                     batch, scale ? FFTGEN_SCALE_INVERSE : 0, words != NULL ? &choice : NULL);
    if (planned != FFTGEN_SUCCESS) {
        printf("FAILED: fftgen_plan_many: %s: %s\n", fftgen_result_string(planned), fftgen_last_error());
        return 1;
    }
    const fftgen_transform_plan *passes = fftgen_plan_layout(run.plan);
    const int pass_count = passes->pass_count;
    char structure[256] = "";
    for (int i = 0, used = 0; i < passes->pass_count && used < (int)sizeof structure - 40; ++i) {
        const fftgen_kernel_plan *p = &passes->pass[i];
        used += snprintf(structure + used, sizeof structure - (size_t)used, "%s%d pts x%d%s%s", i ? ", " : "", p->n,
                         p->ffts_per_block, p->cluster > 1 ? " cluster" : "", p->tensor_cores ? " tc" : "");
    }

    const struct fft_shape fft_shape = {shape.rank, {(int)shape.n[0], (int)shape.n[1], (int)shape.n[2]}};
    const enum kernel_precision kernel_precision = (enum kernel_precision)precision;
    const size_t point = storage_bytes(kernel_precision);
    struct strided_layout in = {layout[0], layout[1], {0}}, out = {layout[2], layout[3], {0}};
    /* the span from the first element to one past the last, as the reference lays the data out (its
     * host buffers hold exactly that) */
    long long in_last = 0, out_last = 0;
    for (int d = 0; d < shape.rank; ++d) {
        if (d > 0) {
            in.embed[d] = inembed[d];
            out.embed[d] = onembed[d];
        }
        in_last = in_last * (d > 0 ? inembed[d] : 1) + shape.n[d] - 1;
        out_last = out_last * (d > 0 ? onembed[d] : 1) + shape.n[d] - 1;
    }
    run.in_bytes = point * (size_t)((batch - 1) * layout[1] + in_last * layout[0] + 1);
    run.out_bytes = point * (size_t)((batch - 1) * layout[3] + out_last * layout[2] + 1);
    const double reference_scale = scale && !forward ? 1.0 / (double)points : 1.0;
    const int sign = forward ? -1 : 1;
    const unsigned long long seed = (unsigned long long)points * 31 + (unsigned long long)batch;
    double error;
    if (strided) {
        error = strided_shape_transform_error(fft_shape, kernel_precision, (int)batch, sign, in, out, run_on_gpu, &run,
                                              seed);
    } else {
        run.in_bytes = run.out_bytes = point * (size_t)(points * batch);
        error = shape_transform_error(fft_shape, kernel_precision, (int)batch, sign, reference_scale, run_on_gpu, &run,
                                      seed);
    }
    fftgen_destroy(run.plan);
    const int bad = !(error >= 0.0 && error < error_bound(kernel_precision));
    printf("%s %s %s batch %lld %s%s%s: %d passes (%s): relative L2 error %.3e%s\n", bad ? "FAILED:" : "ok:",
           precision_name, shape_text, batch, forward ? "forward" : "inverse", in_place ? " in place" : "",
           scale ? " scaled" : "", pass_count, structure, error, bad ? " (over the bound)" : "");
    return bad;
}
