/* fftgen-sim-check: runs one host-simulation kernel (fftgen --target sim, compiled into a shared
 * library) against FFTW double, in the layout it was generated for. tools/fuzz_plans.py writes the
 * kernels of random requests and calls it on each; it can be run by hand on any sim kernel too.
 *
 * Usage: fftgen-sim-check LIBRARY PREFIX PRECISION SHAPE [ISTRIDE IDIST OSTRIDE ODIST [INEMBED ONEMBED]]
 *   PREFIX     the kernel's --name (its entry points PREFIX_forward_sim and PREFIX_inverse_sim; either
 *              may be missing, as with --direction)
 *   PRECISION  fp32, fp16, split or split-papers
 *   SHAPE      as fftgen's --n: 4096, 512x256, 32x32x8
 *   the layout as fftgen took it: 0 for the defaults; embeds as E1[xE2], or 0
 * Prints each case's relative L2 error; exit status 0 when every one is under the precision's bound,
 * 1 when one is not (or writes outside its output layout), 2 on bad arguments. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "reference.h"
#include "shape_arg.h"

static const char *const PROGRAM = "fftgen-sim-check";

static int parse_precision(const char *text, enum kernel_precision *precision)
{
    static const char *const names[] = {"fp32", "fp16", "split", "split-papers"};
    for (int p = 0; p < 4; ++p)
        if (strcmp(text, names[p]) == 0) {
            *precision = (enum kernel_precision)p;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 9 && argc != 11) {
        fprintf(stderr, "usage: %s LIBRARY PREFIX PRECISION SHAPE [ISTRIDE IDIST OSTRIDE ODIST [INEMBED ONEMBED]]\n",
                PROGRAM);
        return 2;
    }
    enum kernel_precision precision;
    struct shape_arg parsed;
    if (parse_precision(argv[3], &precision) != 0) {
        fprintf(stderr, "%s: unknown precision '%s' (expected fp32, fp16, split or split-papers)\n", PROGRAM, argv[3]);
        return 2;
    }
    if (shape_arg_parse(argv[4], &parsed) != 0 || shape_arg_points(&parsed) > (1LL << 24)) {
        fprintf(stderr, "%s: '%s' is not a shape of powers of two of at most 2^24 points\n", PROGRAM, argv[4]);
        return 2;
    }
    struct fft_shape shape = {parsed.rank, {0, 0, 0}};
    for (int d = 0; d < parsed.rank; ++d) shape.n[d] = (int)parsed.n[d];
    const long long points = shape_arg_points(&parsed);
    struct strided_layout in = {1, points, {0}}, out = {1, points, {0}};
    int strided = 0;
    if (argc >= 9) {
        const char *names[] = {"ISTRIDE", "IDIST", "OSTRIDE", "ODIST"};
        long long values[4];
        for (int i = 0; i < 4; ++i)
            if ((values[i] = count_arg_parse(PROGRAM, names[i], argv[5 + i], 0, 1LL << 40)) < 0) return 2;
        in.stride = values[0] ? values[0] : 1;
        in.dist = values[1] ? values[1] : points;
        out.stride = values[2] ? values[2] : 1;
        out.dist = values[3] ? values[3] : points;
        strided = values[0] || values[1] || values[2] || values[3];
    }
    if (argc == 11) {
        if (embed_arg_parse(argv[9], &parsed, in.embed) != 0 || embed_arg_parse(argv[10], &parsed, out.embed) != 0) {
            fprintf(stderr, "%s: embeds '%s' and '%s' do not fit a %dD shape (E1[xE2], or 0)\n", PROGRAM, argv[9],
                    argv[10], shape.rank);
            return 2;
        }
        strided = 1;
    }

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "%s: cannot load %s: %s\n", PROGRAM, argv[1], dlerror());
        return 2;
    }
    char names[2][128];
    snprintf(names[0], sizeof names[0], "%s_forward_sim", argv[2]);
    snprintf(names[1], sizeof names[1], "%s_inverse_sim", argv[2]);
    sim_function functions[2];
    int found = 0;
    for (int d = 0; d < 2; ++d) {
        void *symbol = dlsym(library, names[d]);
        memcpy(&functions[d], &symbol, sizeof symbol); /* object to function pointer, as POSIX allows */
        found += symbol != NULL;
    }
    if (found == 0) {
        fprintf(stderr, "%s: %s has neither %s nor %s\n", PROGRAM, argv[1], names[0], names[1]);
        return 2;
    }

    /* batch 1 and 3 both ways; dense data also the inverse scaled by 1/n, as a normalized inverse */
    const double bound = error_bound(precision);
    const struct { int batch, scaled; } cases[] = {{1, 0}, {3, 0}, {3, 1}};
    int failed = 0;
    for (int d = 0; d < 2; ++d) {
        if (functions[d] == NULL) continue;
        const int sign = d == 0 ? -1 : 1;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            if (cases[c].scaled && (strided || d == 0)) continue;
            const double scale = cases[c].scaled ? 1.0 / (double)points : 1.0;
            const struct sim_run run = {functions[d], (float)scale};
            const unsigned long long seed = (unsigned long long)points * 7 + c;
            const double error =
                strided ? strided_shape_transform_error(shape, precision, cases[c].batch, sign, in, out, run_sim,
                                                        &run, seed)
                        : shape_transform_error(shape, precision, cases[c].batch, sign, scale, run_sim, &run, seed);
            const int bad = !(error >= 0.0 && error < bound);
            printf("%s %s %-7s batch %d%s: relative L2 error %.3e%s\n", argv[4], precision_label(precision),
                   d == 0 ? "forward" : "inverse", cases[c].batch, cases[c].scaled ? " scaled by 1/n" : "", error,
                   bad ? "  FAILED" : "");
            failed |= bad;
        }
    }
    dlclose(library);
    return failed;
}
