/* fftgen tune (the fftgen-tune program): measures every kernel choice the planner can make for each
 * transform on this GPU, and saves the fastest in the wisdom file libfftgen reads. See usage(). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "count_arg.h"
#include "fftgen.h"
#include "launch.h"
#include "plan_choice.h"
#include "planner.h"
#include "shape_arg.h"
#include "wisdom.h"

enum { MAX_CANDIDATES = 192, MAX_TRANSFORMS = 128, WARMUP_RUNS = 3, CHECKED_POINTS = 1 << 20 };
/* option rounds' near misses remembered for refine_near_misses, over all of a transform's rounds */
enum { MAX_NEAR_MISSES = 32 };
/* tiled passes of at most this many points try caps wider than 32 (refine_pass_tiles) */
enum { SHORT_PASS_POINTS = 64 };
/* A candidate must beat the planner's default by this much to be saved: below it, run-to-run noise. */
#define MIN_GAIN 0.02
/* An option added to the fastest plan so far (tensor cores or twiddle powers in some passes) must beat
 * that plan by this much: the default-relative MIN_GAIN alone let 2^26 and 2^27 fp16 keep twiddle
 * powers that three A/B rounds then measured 0.2-0.3% slower (results/notes.md). */
#define MIN_OPTION_GAIN 0.01
/* Candidates must agree with the default plan's output (relative L2): they are the same transform. */
#define FP32_AGREEMENT 1e-5
#define FP16_AGREEMENT 4e-3

static void usage(FILE *to)
{
    fprintf(to,
            "Usage: fftgen tune [options] [SHAPE...]\n"
            "Measures, on this GPU, each kernel choice the planner can make for each transform (radix-16 stages\n"
            "on tensor cores or on CUDA cores, pass by pass, for fp16; how many transforms the strided passes\n"
            "read side by side, for every pass and then pass by pass, up to 128 for passes of at most 64 points;\n"
            "on sm_90 and newer, thread-block clusters of 2, 4 or 8 blocks against none, for 1D sizes above one\n"
            "block and for the columns of 2D and 3D shapes; for 2D and 3D shapes, the columns in two four-step\n"
            "passes of shorter columns each; for 2D shapes, the columns first through a work area against the\n"
            "rows first, and dimension 0 split four-step, its columns cut short and the rest of them fused\n"
            "with the rows in slices of 2 to 64 rows; for 1D sizes of one kernel, radix 4, 8, 16 and 32, then\n"
            "blocks of 32 to 1024 threads at each of those radices; for 1D sizes of two passes, pass 1's\n"
            "columns twice and half as long as the planner's split; for 2D and 3D shapes, 32 points a thread\n"
            "against 16 in the fused slice (on sm_90 also with 32 slices a block prefetched), else in rows of\n"
            "one kernel; radix 32 in the tiled passes\n"
            "where it saves a shared-memory exchange or a stage, every set of them beside the passes at radix 32\n"
            "already (2D shapes: on the fastest plan of either order); for 2D and 3D shapes, the passes that load\n"
            "columns of at most 256 points straight into registers instead of copying them through shared memory,\n"
            "every set of them; for fp16, the tiled passes that derive their twiddles from the first, every\n"
            "set of them, then the passes that compute their twiddles, then those that load their columns a lane\n"
            "pair at a time (8 bytes a row), every set of each; for fp32, the passes that load rows in runs\n"
            "straight into registers instead of copying them through shared memory, every set of them; on sm_90,\n"
            "for 1D sizes of one kernel and the fused slices of 2D and 3D shapes, 2 to 64 transforms (slices) a\n"
            "block in turn, the next one's input copied into shared memory ahead (1D sizes of two passes: 2 to 64\n"
            "tiles of the fp16 rows read in runs); on sm_90, for plans of several passes, the passes that ask L2\n"
            "for their input 1 MB or 2 MB ahead, every set of them at each, then, for 1D sizes of one kernel and\n"
            "the passes chosen, the L2 prefetch 512 KB and 2 MB ahead or none against 1 MB; on sm_80 and newer,\n"
            "the passes off clusters that read columns side by side with loads that ask L2 for the 256 bytes\n"
            "around each point, every set of them; on sm_90, the passes that take their column tiles in turn\n"
            "through the tensor memory accelerator, every set of them, in the plan's tiles, twice as wide, and\n"
            "with one pass's tile twice as wide; then the options that gained less than %.0f%% each, together,\n"
            "the tiles pass by pass again where the options changed the plan, and radix 32 again where they\n"
            "changed it after radix 32's round; and the choice in use now, from the wisdom file or the table\n"
            "shipped with libfftgen, and for 1D sizes the choices of the sizes half and twice as large, as\n"
            "this run measured them, else from the wisdom file or the table); these rounds run on the fastest\n"
            "plan of the first round and again on the fastest of up to two other structures (another pass count,\n"
            "clusters against none, or another split), whose options may gain more; and it saves the fastest\n"
            "in the wisdom file that libfftgen reads, keyed by the device, the driver and the fftgen version.\n"
            "A choice is saved only where it beats the planner's default by %.0f%% or more, and tensor cores,\n"
            "radix-32 passes, column registers, twiddle powers, computed twiddles, column pairs, row registers,\n"
            "L2 prefetches, 256-byte L2 fetches or TMA columns are taken only where they beat the fastest plan\n"
            "without them by %.0f%%; every candidate must match the default's output.\n"
            "Batched forward transforms, out of place, CUDA events; each round's candidates are timed in\n"
            "turns (one run of each, then the next run of each), the median of many runs. Each\n"
            "transform's results go to stdout when it is done, with the round that first planned the\n"
            "fastest plan and the last other round that planned it again (the choice in use now may be\n"
            "one the rounds reach too), and the time of the choice in use now where another plan was\n"
            "faster; while it is measured, a status line on stderr, where stderr is a terminal, says\n"
            "which candidates it is compiling or timing.\n"
            "\n"
            "  SHAPE...           1D sizes (powers of two) and 2D or 3D shapes such as 512x256; default 16\n"
            "                     to 2^27 and the shapes 256x256, 512x256, 512x512, 1024x1024, 4096x4096,\n"
            "                     8192x8192, 64x64x64, 128x128x128, 256x256x256, 512x512x512\n"
            "  --precision LIST   comma-separated: fp16, fp32, split, split-papers (default fp16,fp32)\n"
            "  --points TOTAL     points per measurement: batch = TOTAL / points (default 2^27)\n"
            "  --bounded          save each choice for calls of at most that many points in all (a line\n"
            "                     with max-points=, beside the line for every call) instead of for every\n"
            "                     call: small calls, whose grids leave SMs idle, may want other plans.\n"
            "                     Calls of 10 to 100 us vary from run to run by as much as their options\n"
            "                     gain: check such a line with fftgen-bench, with and without it in\n"
            "                     FFTGEN_WISDOM, in interleaved rounds, before keeping it\n"
            "  --runs R           timed runs per candidate (default 20)\n"
            "  --jobs J           kernels compiled at once with NVRTC (default: the CPU count, at most 16)\n"
            "  -o, --output FILE  the wisdom file to update (default $FFTGEN_WISDOM, else wisdom.txt in the\n"
            "                     kernel cache's folder); other devices' sections, and this device's other\n"
            "                     transforms, are kept\n"
            "  -h, --help         this text\n"
            "\n"
            "Exit status: 0; 1 when there is no GPU or a measurement fails; 2 on bad arguments.\n",
            100 * MIN_OPTION_GAIN, 100 * MIN_GAIN, 100 * MIN_OPTION_GAIN);
}

struct transform {
    fftgen_precision precision;
    struct shape_arg shape;
};

struct candidate {
    fftgen_choice choice;
    fftgen_plan plan;
    fftgen_result created;
    char why[256]; /* fftgen_last_error() of a candidate that could not be planned */
    float ms;
    double disagreement;
    int held_back; /* an option round's candidate that did not beat its starting plan by MIN_OPTION_GAIN */
    /* the round that planned it first, and the last other round that planned it again (NULL: none), said
     * with the fastest: a plan that the choice in use now gave shows whether the rounds reach it too */
    const char *found_in, *again_in;
};

static const char *const PRECISION_NAMES[] = {"fp32", "fp16", "split", "split-papers"};
static const fftgen_kernel_precision KERNEL_PRECISIONS[] = {FFTGEN_KERNEL_FP32, FFTGEN_KERNEL_FP16,
                                                            FFTGEN_KERNEL_SPLIT, FFTGEN_KERNEL_SPLIT_PAPERS};

/* The passes the planner makes, for telling candidates apart. */
static int same_passes(const fftgen_transform_plan *a, const fftgen_transform_plan *b)
{
    if (a->pass_count != b->pass_count) return 0;
    for (int i = 0; i < a->pass_count; ++i) {
        const fftgen_kernel_plan *x = &a->pass[i], *y = &b->pass[i];
        if (x->n != y->n || x->ffts_per_block != y->ffts_per_block || x->tensor_cores != y->tensor_cores ||
            x->slice_rows != y->slice_rows || x->threads != y->threads || x->column_registers != y->column_registers ||
            x->cluster != y->cluster || x->dimension != y->dimension || x->source != y->source ||
            x->radix_max != y->radix_max || x->twiddle_powers != y->twiddle_powers ||
            x->computed_twiddles != y->computed_twiddles || x->prefetch != y->prefetch ||
            x->column_pairs != y->column_pairs || x->row_registers != y->row_registers ||
            x->l2_prefetch_bytes != y->l2_prefetch_bytes || x->l2_fetch_256 != y->l2_fetch_256 ||
            x->tma_columns != y->tma_columns || x->tile_pairs != y->tile_pairs)
            return 0;
    }
    return 1;
}

/* The candidates of one transform, planned on the host (no kernel compiled) to tell them apart. */
struct candidate_list {
    struct candidate items[MAX_CANDIDATES];
    fftgen_transform_plan plans[MAX_CANDIDATES];
    int count;
    /* what the option rounds did not take, said after the transform's line: tensor cores, radix 32 on up
     * to three plans, column registers, twiddle powers, computed twiddles, column pairs, row registers, L2
     * prefetch, the 256-byte L2 fetch, for each structure whose fastest plan went through the rounds
     * (refine_other_structures) */
    char option_notes[16][576];
    /* the option rounds' near misses (refine_near_misses): each round's fastest candidate where it beat
     * the plan before it by less than MIN_OPTION_GAIN, and the candidate its round varied */
    int near_miss[MAX_NEAR_MISSES];
    int near_miss_base[MAX_NEAR_MISSES];
    int near_miss_count;
    const char *round; /* the round adding candidates now, for candidate.found_in */
};

/* The plan libfftgen makes for `choice` (dense data, planned on the host: no kernel compiled). */
static fftgen_plan_status plan_choice(const struct transform *t, int arch, const fftgen_choice *choice,
                                      fftgen_transform_plan *plan)
{
    const long long points = shape_arg_points(&t->shape);
    const fftgen_user_layout dense = {1, points, {0}};
    fftgen_kernel_request request = {points, 0, KERNEL_PRECISIONS[t->precision], arch, 0, {{0}}, 0,
                                     FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    fftgen_choice_apply(choice, t->shape.rank, &request);
    char why[256];
    return fftgen_plan_shape(&request, t->shape.rank, t->shape.n, dense, dense, plan, why, sizeof why);
}

/* The candidate whose passes are `plan`'s, or -1. */
static int listed_candidate(const fftgen_transform_plan *plan, const struct candidate_list *list)
{
    for (int c = 0; c < list->count; ++c)
        if (same_passes(&list->plans[c], plan)) return c;
    return -1;
}

/* Adds the plan of `choice` unless the planner cannot make it or makes one already listed; 1 if
 * added. */
static int add_candidate(const struct transform *t, int arch, fftgen_choice choice, struct candidate_list *list)
{
    fftgen_transform_plan plan;
    if (list->count == MAX_CANDIDATES || plan_choice(t, arch, &choice, &plan) != FFTGEN_PLAN_OK) return 0;
    const int listed = listed_candidate(&plan, list);
    if (listed >= 0) {
        if (list->items[listed].found_in != list->round) list->items[listed].again_in = list->round;
        return 0;
    }
    struct candidate *k = &list->items[list->count];
    memset(k, 0, sizeof *k);
    k->choice = choice;
    k->found_in = list->round;
    /* the passes the plan does not have take its last pass's cap: the shortest text in the wisdom */
    for (int i = plan.pass_count; i < FFTGEN_MAX_PASSES; ++i)
        k->choice.max_tile.pass[i] = choice.max_tile.pass[plan.pass_count - 1];
    list->plans[list->count++] = plan;
    return 1;
}

/* The choice of `tile` for every pass, with `cluster` and the passes' order. */
static fftgen_choice tiles_choice(int tile, int cluster, int columns_first)
{
    fftgen_choice choice = {0, {{0}}, cluster, columns_first, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < FFTGEN_MAX_PASSES; ++i) choice.max_tile.pass[i] = tile;
    return choice;
}

/* The passes that can take tensor cores (fp16, sm_80 and newer), as a mask. */
static int tensor_core_passes(const struct transform *t, int arch)
{
    if (t->precision != FFTGEN_FP16 || arch < 80) return 0;
    const long long points = shape_arg_points(&t->shape);
    const fftgen_user_layout dense = {1, points, {0}};
    const fftgen_kernel_request every = {points, 0, FFTGEN_KERNEL_FP16, arch, FFTGEN_EVERY_PASS, {{0}}, 0,
                                         FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    fftgen_transform_plan plan;
    char why[256];
    int can = 0;
    if (fftgen_plan_shape(&every, t->shape.rank, t->shape.n, dense, dense, &plan, why, sizeof why) == FFTGEN_PLAN_OK)
        for (int i = 0; i < plan.pass_count; ++i) can |= plan.pass[i].tensor_cores << i;
    return can;
}

/* Plans (NVRTC compiles) from several threads: libfftgen plans are thread-safe. */
struct build_queue {
    const struct transform *t;
    struct candidate *candidates;
    int count, next;
    long long batch;
    pthread_mutex_t lock;
};

static void *build_worker(void *arg)
{
    struct build_queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        const int i = q->next < q->count ? q->next++ : -1;
        pthread_mutex_unlock(&q->lock);
        if (i < 0) return NULL;
        struct candidate *c = &q->candidates[i];
        const long long points = shape_arg_points(&q->t->shape);
        const long long *n = q->t->shape.n;
        /* the first candidate is the planner's default: built-in rules, no wisdom */
        c->created = fftgen_plan_many_with_choice(&c->plan, q->t->shape.rank, n, NULL, 1, points, NULL, 1, points,
                                                  q->t->precision, q->batch, FFTGEN_PLANNER_DEFAULTS,
                                                  i == 0 ? NULL : &c->choice);
        if (c->created != FFTGEN_SUCCESS) snprintf(c->why, sizeof c->why, "%s", fftgen_last_error());
    }
}

/* show_progress's status line is on stderr now */
static int status_on_screen;

/* Erases the status line, before another line takes its place. */
static void clear_progress(void)
{
    if (!status_on_screen) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    status_on_screen = 0;
}

static int cuda_ok(cudaError_t status, const char *what)
{
    if (status == cudaSuccess) return 1;
    clear_progress();
    fprintf(stderr, "fftgen tune: error: %s: %s\n", what, cudaGetErrorString(status));
    return 0;
}

/* Gives the plan the shared work area, where it needs one. 0, or -1 on failure. */
static int plan_ready(fftgen_plan plan, void *work)
{
    size_t work_bytes = 0;
    if (fftgen_get_work_size(plan, &work_bytes) != FFTGEN_SUCCESS) return -1;
    return work_bytes > 0 && fftgen_set_work_area(plan, work) != FFTGEN_SUCCESS ? -1 : 0;
}

static int compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Times `count` plans in turns, as fftgen-bench times fftgen against cuFFT: warm-up runs of each, then
 * `runs` rounds of one run of each between CUDA events; each plan's median in ms[]. In turns, each run
 * follows another plan's, as a call in an application follows other work, and all see the same clocks:
 * timed one after another (all runs of one, then the next), fp32 1024 on 2^22 points in all read the
 * planner's default 5-9% slower than radix 8 in blocks of 32 threads, where fftgen-bench's rounds read
 * them within 2% (results/notes.md). 0, or -1 on failure. */
static int time_in_turns(fftgen_plan *plans, int count, const void *in, void *out, int runs, float *ms)
{
    cudaEvent_t start, stop;
    if (!cuda_ok(cudaEventCreate(&start), "cudaEventCreate")) return -1;
    if (!cuda_ok(cudaEventCreate(&stop), "cudaEventCreate")) {
        cudaEventDestroy(start);
        return -1;
    }
    float *times = malloc(sizeof(float) * (size_t)runs * (size_t)count);
    int failed = times == NULL;
    for (int p = 0; p < count && !failed; ++p)
        for (int r = 0; r < WARMUP_RUNS && !failed; ++r)
            failed = fftgen_exec(plans[p], in, out, FFTGEN_FORWARD) != FFTGEN_SUCCESS;
    for (int r = 0; r < runs && !failed; ++r)
        for (int p = 0; p < count && !failed; ++p)
            failed = !cuda_ok(cudaEventRecord(start, 0), "cudaEventRecord") ||
                     fftgen_exec(plans[p], in, out, FFTGEN_FORWARD) != FFTGEN_SUCCESS ||
                     !cuda_ok(cudaEventRecord(stop, 0), "cudaEventRecord") ||
                     !cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize") ||
                     !cuda_ok(cudaEventElapsedTime(&times[(size_t)p * (size_t)runs + (size_t)r], start, stop),
                              "cudaEventElapsedTime");
    for (int p = 0; p < count && !failed; ++p) {
        float *mine = times + (size_t)p * (size_t)runs;
        qsort(mine, (size_t)runs, sizeof *mine, compare_floats);
        ms[p] = mine[runs / 2];
    }
    free(times);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return failed ? -1 : 0;
}

/* The first CHECKED_POINTS outputs as doubles (fp16 or float storage). */
static int fetch(const void *device, int half, size_t count, double *host)
{
    const size_t bytes = count * 2 * (half ? 2 : 4);
    void *raw = malloc(bytes);
    if (raw == NULL || !cuda_ok(cudaMemcpy(raw, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy")) {
        free(raw);
        return -1;
    }
    for (size_t i = 0; i < 2 * count; ++i) {
        if (!half) {
            host[i] = ((const float *)raw)[i];
            continue;
        }
        const unsigned short h = ((const unsigned short *)raw)[i];
        const int exponent = (h >> 10) & 31, mantissa = h & 1023;
        const double magnitude = exponent == 0    ? ldexp(mantissa, -24)
                                 : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                                  : ldexp(1024 + mantissa, exponent - 25);
        host[i] = (h & 0x8000) ? -magnitude : magnitude;
    }
    free(raw);
    return 0;
}

static double relative_difference(const double *a, const double *b, size_t count)
{
    double diff = 0, norm = 0;
    for (size_t i = 0; i < 2 * count; ++i) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        norm += b[i] * b[i];
    }
    return norm > 0 ? sqrt(diff / norm) : (diff > 0 ? INFINITY : 0);
}

/* Uniform in [-1, 1], stored as the precision's elements. */
static int fill_random(void *device, int half, size_t values, unsigned long long seed)
{
    const size_t bytes = values * (half ? 2 : 4);
    void *host = malloc(bytes);
    if (host == NULL) return -1;
    unsigned long long state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (size_t i = 0; i < values; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const float x = (float)((double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0);
        if (!half) {
            ((float *)host)[i] = x;
            continue;
        }
        /* round to fp16 (|x| <= 1: normal or subnormal, no overflow) */
        const double magnitude = fabs(x);
        int exponent;
        frexp(magnitude, &exponent);
        unsigned short bits;
        if (magnitude < ldexp(1, -14)) {
            bits = (unsigned short)lrint(magnitude * ldexp(1, 24));
        } else {
            const long scaled = lrint(ldexp(magnitude, 11 - exponent)); /* 1024..2048 */
            bits = (unsigned short)(((exponent + 14) << 10) + (scaled - 1024));
        }
        ((unsigned short *)host)[i] = (unsigned short)(bits | (x < 0 ? 0x8000 : 0));
    }
    const int ok = cuda_ok(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    free(host);
    return ok ? 0 : -1;
}

struct buffers {
    void *in, *out, *work;
    size_t bytes;
};

/* Where a transform stands, said on a status line while it is measured: a 3D shape takes minutes, and
 * stdout says nothing of a transform until it is done. Only where stderr is a terminal, so that logs
 * keep one line per result. */
struct progress {
    int live; /* stderr is a terminal */
    int index, count;
};

/* One transform's measurement state: the inputs, and the default plan's output to agree with. */
struct measurement {
    const struct transform *t;
    const char *shape;
    long long batch;
    size_t values, checked;
    double *reference, *output;
    const struct progress *progress;
};

/* The status line: what is being done to the transform now, and the fastest of the candidates timed
 * so far, [0, timed), that a round has not held back. */
static void show_progress(const struct measurement *m, const struct candidate_list *list, int timed,
                          const char *doing)
{
    const struct progress *p = m->progress;
    if (p == NULL || !p->live) return;
    float best = INFINITY;
    for (int c = 0; c < timed; ++c)
        if (!list->items[c].held_back && list->items[c].ms < best) best = list->items[c].ms;
    fprintf(stderr, "\r\033[K[%d/%d] %s %s: %s", p->index + 1, p->count, PRECISION_NAMES[m->t->precision], m->shape,
            doing);
    if (best < INFINITY) fprintf(stderr, ", fastest %.4f ms", best);
    fflush(stderr);
    status_on_screen = 1;
}

/* Plans (in parallel) and times candidates [first, list->count); the first candidate overall is the
 * planner's default, whose output the others must match. 0, or -1 when a measurement failed. */
static int measure(struct measurement *m, struct candidate_list *list, int first, int runs, int jobs,
                   struct buffers *b)
{
    const struct transform *t = m->t;
    const int half = t->precision == FFTGEN_FP16;
    struct build_queue queue = {t, list->items, list->count, first, m->batch, PTHREAD_MUTEX_INITIALIZER};
    pthread_t threads[16];
    const int todo = list->count - first;
    const int workers = jobs < todo ? jobs : todo;
    char doing[96];
    snprintf(doing, sizeof doing, "compiling %d candidate%s (%d in all)", todo, todo == 1 ? "" : "s", list->count);
    show_progress(m, list, first, doing);
    int started = 0;
    while (started < workers && pthread_create(&threads[started], NULL, build_worker, &queue) == 0) ++started;
    if (started == 0) build_worker(&queue); /* no thread to be had: plan them here, one at a time */
    for (int w = 0; w < started; ++w) pthread_join(threads[w], NULL);
    int failed = 0;
    /* each candidate's output first (the default's, for the others to match), then the times in turns */
    fftgen_plan timed_plans[MAX_CANDIDATES];
    int timed[MAX_CANDIDATES], timed_count = 0;
    for (int c = first; c < list->count && !failed; ++c) {
        struct candidate *k = &list->items[c];
        k->ms = INFINITY;
        snprintf(doing, sizeof doing, "checking %d of %d (%d candidates)", c - first + 1, todo, list->count);
        show_progress(m, list, c, doing);
        if (k->created != FFTGEN_SUCCESS) {
            clear_progress();
            printf("  %-5s %-12s candidate %d could not be planned: %s\n", PRECISION_NAMES[t->precision], m->shape,
                   c, k->why);
            failed = c == 0;
            continue;
        }
        /* poison the output, so that a kernel that writes nothing cannot agree */
        failed = plan_ready(k->plan, b->work) != 0 ||
                 !cuda_ok(cudaMemset(b->out, 0xff, m->values * (half ? 2 : 4)), "cudaMemset") ||
                 fftgen_exec(k->plan, b->in, b->out, FFTGEN_FORWARD) != FFTGEN_SUCCESS ||
                 !cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize") ||
                 fetch(b->out, half, m->checked, c == 0 ? m->reference : m->output) != 0;
        if (failed) break;
        k->disagreement = c == 0 ? 0 : relative_difference(m->output, m->reference, m->checked);
        if (!(k->disagreement <= (half ? FP16_AGREEMENT : FP32_AGREEMENT))) {
            clear_progress();
            printf("  %-5s %-12s candidate %d disagrees with the default plan (%.2e): not used\n",
                   PRECISION_NAMES[t->precision], m->shape, c, k->disagreement);
            continue;
        }
        timed[timed_count] = c;
        timed_plans[timed_count++] = k->plan;
    }
    if (!failed && timed_count > 0) {
        snprintf(doing, sizeof doing, "timing %d candidate%s in turns (%d in all)", timed_count,
                 timed_count == 1 ? "" : "s", list->count);
        show_progress(m, list, first, doing);
        float ms[MAX_CANDIDATES];
        failed = time_in_turns(timed_plans, timed_count, b->in, b->out, runs, ms) != 0;
        for (int i = 0; i < timed_count && !failed; ++i) list->items[timed[i]].ms = ms[i];
    }
    for (int c = first; c < list->count; ++c) {
        fftgen_destroy(list->items[c].plan);
        list->items[c].plan = NULL;
    }
    return failed ? -1 : 0;
}

/* The fastest candidate not held back (the default where every one is). */
static int fastest(const struct candidate_list *list)
{
    int best = -1;
    for (int c = 0; c < list->count; ++c)
        if (!list->items[c].held_back && (best < 0 || list->items[c].ms < list->items[best].ms)) best = c;
    return best < 0 ? 0 : best;
}

/* Tiles pass by pass: each tiled pass's cap varied alone around the fastest candidate so far, then
 * every pass's fastest cap together (the passes run one after another, so their times add up, and
 * a column pass may want wider tiles than the row pass). 32 gives fp16 columns 128-byte runs: on an
 * H200 fp16 64^3's column pass took 13% less time with it, 256^3's more; 64 and 128 give short
 * columns blocks of more threads. 0, or -1 when a measurement failed. */
static int refine_pass_tiles(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                             struct candidate_list *list)
{
    static const int tiles[] = {128, 64, 32, 16, 8, 4, 2};
    list->round = "tiles pass by pass";
    const int base = fastest(list), first = list->count;
    const fftgen_choice start = list->items[base].choice;
    const fftgen_transform_plan *plan = &list->plans[base];
    int varied[MAX_CANDIDATES]; /* the pass each new candidate varies */
    for (int i = 0; i < plan->pass_count; ++i)
        for (size_t k = 0; k < sizeof tiles / sizeof tiles[0] && plan->pass[i].tiled; ++k) {
            /* wider than 32 only for columns of up to SHORT_PASS_POINTS, whose default tiles the
             * planner widens to blocks of 128 threads (64^3 on an H200: within 1% from 128 to 512) */
            if (tiles[k] > 32 && plan->pass[i].n > SHORT_PASS_POINTS) continue;
            fftgen_choice varied_choice = start;
            varied_choice.max_tile.pass[i] = tiles[k];
            if (add_candidate(m->t, arch, varied_choice, list)) varied[list->count - 1] = i;
        }
    if (list->count == first) return 0;
    if (measure(m, list, first, runs, jobs, b) != 0) return -1;
    fftgen_choice together = start;
    int changed = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        float best = list->items[base].ms;
        for (int c = first; c < list->count; ++c)
            if (varied[c] == i && list->items[c].ms < best) {
                best = list->items[c].ms;
                together.max_tile.pass[i] = list->items[c].choice.max_tile.pass[i];
            }
        changed += together.max_tile.pass[i] != start.max_tile.pass[i];
    }
    const int last = list->count;
    if (changed < 2 || !add_candidate(m->t, arch, together, list)) return 0;
    return measure(m, list, last, runs, jobs, b);
}

/* The fastest plan so far with the choice field at `field` (offsetof(fftgen_choice, ...)) set to each of
 * `values`, measured; the planner drops what does not plan and what repeats a plan. 0, or -1 when a
 * measurement failed. */
static int measure_values(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                          struct candidate_list *list, size_t field, const int *values, size_t count)
{
    const int first = list->count;
    fftgen_choice varied = list->items[fastest(list)].choice;
    for (size_t k = 0; k < count; ++k) {
        *(int *)((char *)&varied + field) = values[k];
        add_candidate(m->t, arch, varied, list);
    }
    if (list->count == first) return 0;
    return measure(m, list, first, runs, jobs, b);
}

/* 1D sizes of one kernel: the fastest plan so far in blocks of other sizes, whole transforms each, at
 * every radix, not only the fastest one's (an H200's fp32 128 ran 3% faster in radix 4 on blocks of 64
 * threads, where radix 4 on the default block and radix 16 on 64 threads both lost). Smaller blocks let
 * more of them share an SM, each waiting at its own barriers: on an H200, fp16 256 ran 5% faster in
 * blocks of 128 threads than of 256, fp16 1024 (radix 32) 3% faster in blocks of 64 than of 128, while
 * fp16 32 and 64 ran slower in blocks of 64. The planner drops sizes of several passes, radices it
 * cannot use, and sizes that repeat a plan. 0, or -1 when a measurement failed. */
static int refine_block_threads(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                struct candidate_list *list)
{
    static const int radices[] = {0, 4, 8, 16, 32}; /* 0: the fastest plan's own */
    static const int threads[] = {32, 64, 128, 256, 512, 1024};
    list->round = "block sizes";
    const int first = list->count;
    const fftgen_choice start = list->items[fastest(list)].choice;
    for (size_t r = 0; r < sizeof radices / sizeof radices[0]; ++r)
        for (size_t k = 0; k < sizeof threads / sizeof threads[0]; ++k) {
            fftgen_choice varied = start;
            if (radices[r] != 0) varied.max_radix = radices[r];
            varied.block_threads = threads[k];
            add_candidate(m->t, arch, varied, list);
        }
    if (list->count == first) return 0;
    return measure(m, list, first, runs, jobs, b);
}

/* 2D and 3D shapes whose first pass is a fused slice, or where none fits, rows of one kernel: the
 * fastest plan so far with 32 points a thread in the slice or the rows (half the threads, and for
 * 128x128 one exchange fewer: the rows' last stage runs the columns' first; fp16 8192-point rows run
 * as the 1D size does on an H200), and in fp16 the same with that pass's twiddles computed. On an
 * H200, fp32 128x128 ran 2.5% faster; fp16 128x128 ran 7% slower with tables, and with computed
 * twiddles 0.4353 -> 0.4093 ms at 16 points a thread and 0.3866 at 32, which the later round, starting
 * from the fastest plan, would not reach. On sm_90 also the last of these with 32 slices a block in
 * turn, the next one copied ahead: a slice of 32 points a thread whose 512 threads fill the SM waits
 * for its loads without it (fftgen-kernel-ab, H200, fp16 64x256 with computed twiddles: 0.3505 ms at 32
 * points prefetching 32 slices, where 32 points alone lost to 16 and tune kept 16 at 0.4077), and the
 * later prefetch round starts from the fastest plan only. The planner drops shapes without such a
 * pass, and slices whose staging buffer does not fit. 0, or -1 when a measurement failed. */
static int refine_slice_radix(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                              struct candidate_list *list)
{
    list->round = "the slice's radix";
    const int first = list->count;
    fftgen_choice wide = list->items[fastest(list)].choice;
    wide.max_radix = 32;
    add_candidate(m->t, arch, wide, list);
    if (m->t->precision == FFTGEN_FP16) {
        /* the slice: the first pass, or the second after a four-step split's columns */
        wide.computed_twiddle_passes |= m->t->shape.rank == 2 && wide.four_step_columns != 0 ? 2 : 1;
        add_candidate(m->t, arch, wide, list);
    }
    if (arch >= 90 && wide.prefetch == 0) {
        wide.prefetch = 32;
        add_candidate(m->t, arch, wide, list);
    }
    if (list->count == first) return 0;
    return measure(m, list, first, runs, jobs, b);
}

/* sm_90, 1D sizes of one kernel and 2D/3D shapes' fused slices: the fastest plan so far with 2 to 64
 * transforms (slices) a block in turn, the next one's input copied ahead (a bulk copy; a slice's
 * threads' cp.async); 1D sizes of two passes: 2 to 64 tiles a block of the pass that reads fp16 rows in
 * runs (H200, fp16 2^22 with 64: 1.0036 -> 0.8841 ms). A kernel whose block fills an SM (fp16 16384
 * on an H200: 59.4% of copy -> 70.0% with 8; fp16 64x64 slices 0.433 -> 0.368 ms with 4) gains;
 * kernels of several blocks an SM lose (4096, 8192). 64 leaves one block an SM where the batch allows
 * no more (fp16 128^3 on an H200, 8192 slices: 0.6547 -> 0.6474 ms against 32, whose 256 blocks ran in
 * two uneven waves). The planner drops
 * the kernels that cannot take it. 0, or -1 when a measurement failed. */
static int refine_prefetch(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                           struct candidate_list *list)
{
    static const int transforms[] = {2, 4, 8, 16, 32, 64};
    if (arch < 90) return 0;
    list->round = "transforms a block in turn";
    return measure_values(m, arch, runs, jobs, b, list, offsetof(fftgen_choice, prefetch), transforms,
                          sizeof transforms / sizeof transforms[0]);
}

/* sm_90, 1D sizes of one kernel that read their input straight from global memory, passes of whole
 * slices, and plans whose passes ask for it: the fastest plan so far with the L2 prefetch at other distances, or none (the
 * planner's is 1 MB: on an H100 fp16 8192 ran 1.03x cuFFT fp16 with it and 1.05x at 2 MB, while on an
 * H200 fp16 16 lost 4% at 2 MB; the H200's fp16 2^25 and fp32 2^23 took 2 MB in their passes). The
 * planner drops the plans that cannot take it (plans of several passes that name none, and none with
 * passes named). 0, or -1 when a measurement failed. */
static int refine_l2_prefetch(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                              struct candidate_list *list)
{
    static const int kb[] = {FFTGEN_L2_PREFETCH_OFF, 512, 2048};
    if (arch < 90) return 0;
    list->round = "L2 prefetch distance";
    return measure_values(m, arch, runs, jobs, b, list, offsetof(fftgen_choice, l2_prefetch_kb), kb,
                          sizeof kb / sizeof kb[0]);
}

/* Every non-empty subset of `passes` (a pass mask), with the passes `kept` besides, as the choice field
 * at `field` (a pass mask too: offsetof(fftgen_choice, ...)) of `start`, added to the candidates; the
 * planner drops what does not plan and what repeats a plan. */
static void add_pass_sets(const struct measurement *m, int arch, struct candidate_list *list, fftgen_choice start,
                          int passes, int kept, size_t field)
{
    for (int mask = 1; mask <= passes; ++mask) {
        if ((mask & ~passes) != 0) continue;
        fftgen_choice set = start;
        *(int *)((char *)&set + field) = kept | mask;
        add_candidate(m->t, arch, set, list);
    }
}

/* The first empty note of the list (the last one, overwritten, when all are taken). */
static char *next_note(struct candidate_list *list)
{
    int slot = 0;
    const int slots = (int)(sizeof list->option_notes / sizeof list->option_notes[0]);
    while (slot < slots - 1 && list->option_notes[slot][0] != '\0') ++slot;
    return list->option_notes[slot];
}

/* Measures an option's candidates [first, list->count), which name passes in the choice field at
 * `field`. The option wins only where it beats `before`, the fastest candidate before them, by
 * MIN_OPTION_GAIN; otherwise its candidates are held back and `name` says so. 0, or -1 when a
 * measurement failed. */
static int measure_option(struct measurement *m, int runs, int jobs, struct buffers *b, struct candidate_list *list,
                          int base, int before, int first, size_t field, const char *name)
{
    if (list->count == first) return 0;
    if (measure(m, list, first, runs, jobs, b) != 0) return -1;
    const int best = fastest(list);
    const float without = list->items[before].ms, with = list->items[best].ms;
    if (best >= first && with > without * (1 - MIN_OPTION_GAIN)) {
        for (int c = first; c < list->count; ++c) list->items[c].held_back = 1;
        if (with < without && list->near_miss_count < MAX_NEAR_MISSES) {
            list->near_miss[list->near_miss_count] = best;
            list->near_miss_base[list->near_miss_count++] = base;
        }
        char *note = next_note(list), passes[32];
        fftgen_pass_mask_text(*(const int *)((const char *)&list->items[best].choice + field), passes, sizeof passes);
        snprintf(note, sizeof list->option_notes[0], "%s in passes %s: %.4f ms against %.4f ms for the plan before"
                 " them, less than %.0f%% faster: not taken", name, passes, with, without, 100 * MIN_OPTION_GAIN);
    }
    return 0;
}

/* Every non-empty subset of `passes`, with the passes `kept` besides, as the choice field at `field` of
 * candidate `base`, measured as one option (measure_option). 0, or -1 when a measurement failed. */
static int measure_pass_sets_keeping(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                     struct candidate_list *list, int base, int passes, int kept, size_t field,
                                     const char *name)
{
    const int before = fastest(list), first = list->count;
    list->round = name;
    add_pass_sets(m, arch, list, list->items[base].choice, passes, kept, field);
    return measure_option(m, runs, jobs, b, list, base, before, first, field, name);
}

/* The same with no passes kept: every set of `passes` replaces the base's. */
static int measure_pass_sets(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                             struct candidate_list *list, int base, int passes, size_t field, const char *name)
{
    return measure_pass_sets_keeping(m, arch, runs, jobs, b, list, base, passes, 0, field, name);
}

/* A plan's passes that satisfy `test`, as a mask. */
static int passes_that(const fftgen_transform_plan *plan, int (*test)(const fftgen_kernel_plan *))
{
    int mask = 0;
    for (int i = 0; i < plan->pass_count; ++i) mask |= (test(&plan->pass[i]) != 0) << i;
    return mask;
}

/* The fastest plan's passes that satisfy `test`: the passes an option round may name. */
static int fastest_passes_that(const struct candidate_list *list, int (*test)(const fftgen_kernel_plan *))
{
    return passes_that(&list->plans[fastest(list)], test);
}

static int is_tiled(const fftgen_kernel_plan *pass) { return pass->tiled; }

/* Plans of several passes on sm_90: the passes that ask L2 for their input ahead, every set of them at
 * the planner's 1 MB and at 2 MB, as one option. At 1 MB an H100's fp16 2^20 gained under the option's
 * 1% in pass 1 (tune: 0.8265 -> 0.8188 ms), so the distance round never saw it; at 2 MB 6.4%
 * (fftgen-bench: 0.8385 -> 0.7844). fp16 2^27 on an H200 lost 5.4% without it, fp16 512x512 gained
 * 4.9% without it in its columns. 0, or -1 when a measurement failed. */
static int measure_l2_prefetch_passes(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                      struct candidate_list *list)
{
    const int before = fastest(list), first = list->count;
    const size_t field = offsetof(fftgen_choice, l2_prefetch_passes);
    const int passes = fastest_passes_that(list, fftgen_can_l2_prefetch);
    list->round = "L2 prefetch";
    fftgen_choice start = list->items[before].choice;
    add_pass_sets(m, arch, list, start, passes, 0, field);
    start.l2_prefetch_kb = 2048;
    add_pass_sets(m, arch, list, start, passes, 0, field);
    return measure_option(m, runs, jobs, b, list, before, before, first, field, "L2 prefetch");
}

/* Shared-memory exchanges of a pass: one between each two stages, but for a shuffle tail. */
static int exchanges(const fftgen_kernel_plan *pass)
{
    return pass->stage_count - 1 - fftgen_shuffle_tail(pass);
}

/* The tiled passes of candidate `base` that radix 32 gives fewer exchanges (1024 points: 32 x 32, one
 * instead of two) or fewer stages (512 points: 32 x 16 in place of 16 x 16 x 2, whose radix-2 shuffle
 * tail costs no exchange but about 5 instructions a point: fp16 2^18 on an H200, fftgen-kernel-ab,
 * 0.6667 -> 0.6415 ms), as a mask; the others would only hold twice the registers. */
static int radix32_passes_worth(const struct transform *t, int arch, const struct candidate_list *list, int base)
{
    const fftgen_transform_plan *plan = &list->plans[base];
    fftgen_choice wider = list->items[base].choice;
    const int chosen = wider.radix32_passes;
    int worth = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        if (!plan->pass[i].tiled || plan->pass[i].radix_max == 32) continue;
        wider.radix32_passes = chosen | 1 << i;
        fftgen_transform_plan wide;
        if (plan_choice(t, arch, &wider, &wide) == FFTGEN_PLAN_OK &&
            (exchanges(&wide.pass[i]) < exchanges(&plan->pass[i]) ||
             wide.pass[i].stage_count < plan->pass[i].stage_count))
            worth |= 1 << i;
    }
    return worth;
}

/* Every set of the passes of candidate `base` that radix 32 is worth (radix32_passes_worth), added to
 * the passes the base holds at radix 32 already, as one option. (The sets used to replace those: an
 * H200's fp16 2^19, whose plan had pass 2 at radix 32, was tried with pass 1 alone at radix 32, never
 * with both; fftgen-bench, three rounds: 0.6628-0.6716 ms for the plan, 0.6522-0.6563 for pass 1 alone,
 * 0.6266-0.6283 for both.) 0, or -1 when a measurement failed. */
static int measure_radix32_sets(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                struct candidate_list *list, int base, const char *name)
{
    return measure_pass_sets_keeping(m, arch, runs, jobs, b, list, base, radix32_passes_worth(m->t, arch, list, base),
                                     list->items[base].choice.radix32_passes, offsetof(fftgen_choice, radix32_passes),
                                     name);
}

/* Whether a candidate is the planner's own plan in the given order: no tile caps, cluster or options. */
static int plain_in_order(const fftgen_choice *choice, int columns_first)
{
    const fftgen_choice plain = tiles_choice(0, 0, columns_first);
    return memcmp(choice, &plain, sizeof plain) == 0;
}

/* Radix 32 in the passes where it saves an exchange or a stage, on the fastest plan so far and, for 2D
 * shapes, on the other order's fastest plan and its planner's tiles (fp32 1024x1024 on an H200: the columns
 * first lost with radix 16 and won with radix 32, in the planner's tiles: 1.118 -> 1.083 ms against the rows
 * first with radix 32, which tune had chosen from the columns first's fastest tiles). 0, or -1 when a
 * measurement failed. */
static int measure_radix32_passes(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                  struct candidate_list *list)
{
    const int best = fastest(list), other_order = !list->items[best].choice.columns_first;
    int bases[3] = {best, -1, -1};
    for (int c = 0; c < list->count && m->t->shape.rank == 2; ++c) {
        const struct candidate *k = &list->items[c];
        if (k->held_back || !isfinite(k->ms) || k->choice.columns_first != other_order) continue;
        if (bases[1] < 0 || k->ms < list->items[bases[1]].ms) bases[1] = c;
        if (plain_in_order(&k->choice, other_order)) bases[2] = c;
    }
    if (bases[2] == bases[1]) bases[2] = -1;
    for (int i = 0; i < 3; ++i) {
        if (bases[i] < 0) continue;
        if (measure_radix32_sets(m, arch, runs, jobs, b, list, bases[i], i == 0 ? "radix 32" : "radix 32 (the other order)") != 0)
            return -1;
    }
    return 0;
}

/* The passes of the plan of `choice` whose tiles the TMA can copy, as a mask; 0 where it does not plan. */
static int tma_passes_of(const struct transform *t, int arch, const fftgen_choice *choice)
{
    fftgen_transform_plan plan;
    if (plan_choice(t, arch, choice, &plan) != FFTGEN_PLAN_OK) return 0;
    return passes_that(&plan, fftgen_can_copy_columns_by_tma);
}

/* The column tiles through the TMA: every set of the passes that can take them, on the fastest plan, on
 * it with those passes' tiles twice as wide, and on it with one tiled pass's tile twice as wide, each in
 * turn, as one option: the TMA copies a wider tile ahead as cheaply, and the tiles round ran without it.
 * An H200's fp16 2^19 as 1024 x 512 ran 0.6876 ms after the rounds in tiles of 4, and 0.5962 ms through
 * the TMA in tiles of 8; its rows, which the TMA cannot copy in tiles of 8 (their thread's points half a
 * swizzle period apart), ran 0.5775-0.5862 ms through it in tiles of 16 against 0.5969-0.6071, and fp16
 * 2^20's 0.5808-0.5868 against 0.5970-0.6073 (fftgen-bench, results/pass2-l2-fabric-2026-11-30.txt).
 * 0, or -1 when a measurement failed. */
static int measure_tma_columns(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                               struct candidate_list *list)
{
    const int before = fastest(list), first = list->count;
    const size_t field = offsetof(fftgen_choice, tma_column_passes);
    const int passes = fastest_passes_that(list, fftgen_can_copy_columns_by_tma);
    list->round = "TMA columns";
    const fftgen_choice base = list->items[before].choice;
    fftgen_choice start = base;
    add_pass_sets(m, arch, list, start, passes, 0, field);
    const fftgen_transform_plan *plan = &list->plans[before];
    for (int i = 0; i < plan->pass_count; ++i)
        if (passes >> i & 1) start.max_tile.pass[i] = 2 * plan->pass[i].ffts_per_block;
    add_pass_sets(m, arch, list, start, passes, 0, field);
    for (int i = 0; i < plan->pass_count; ++i) {
        if (!plan->pass[i].tiled) continue;
        fftgen_choice wider = base;
        wider.max_tile.pass[i] = 2 * plan->pass[i].ffts_per_block;
        const int can = tma_passes_of(m->t, arch, &wider);
        if (can >> i & 1) add_pass_sets(m, arch, list, wider, can, 0, field);
    }
    return measure_option(m, runs, jobs, b, list, before, before, first, field, "TMA columns");
}

/* Sets in `together` the choice fields in which `varied` differs from `base` (an option round's
 * candidate and the plan it varied: the option and its values), where the planner still plans the
 * result; 1 if it does. fftgen_choice is ints only, so it is compared int by int. */
static int take_varied_fields(const struct transform *t, int arch, const fftgen_choice *base,
                              const fftgen_choice *varied, fftgen_choice *together)
{
    _Static_assert(sizeof(fftgen_choice) % sizeof(int) == 0, "fftgen_choice holds ints only");
    enum { INTS = sizeof(fftgen_choice) / sizeof(int) };
    int from[INTS], to[INTS], with[INTS];
    memcpy(from, base, sizeof from);
    memcpy(to, varied, sizeof to);
    memcpy(with, together, sizeof with);
    for (int i = 0; i < INTS; ++i)
        if (from[i] != to[i]) with[i] = to[i];
    fftgen_choice next;
    memcpy(&next, with, sizeof next);
    fftgen_transform_plan plan;
    if (plan_choice(t, arch, &next, &plan) != FFTGEN_PLAN_OK) return 0;
    *together = next;
    return 1;
}

/* The near misses of the option rounds since `from` (list->near_miss) together on the fastest plan so
 * far, as one option that must beat it by MIN_OPTION_GAIN: each was faster than the plan it started
 * from by less than that, and small gains add up. Then, where a round since the tiles changed the
 * fastest plan (`after_tiles`: the fastest after the tile round), the tiles pass by pass again, on
 * the options chosen. On an H200 (median of 20 runs) fp32 2^21, on radix 32 in pass 1, took two near
 * misses together (pass 1's L2 prefetch, 0.5% alone, and pass 2's rows straight into registers, 0.7%:
 * 1.1733 -> 1.1596 ms, the default 1.2066), and 2^22 pass 1 in tiles of 8 once its L2 prefetch was
 * chosen (1.3020 -> 1.2907; the default 1.3303): without these rounds both kept their defaults
 * (results/notes.md). 0, or -1 when a measurement failed. */
static int refine_near_misses(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                              struct candidate_list *list, int from, int after_tiles)
{
    const int before = fastest(list), first = list->count;
    fftgen_choice together = list->items[before].choice;
    int taken = 0;
    list->round = "the near misses together";
    for (int i = from; i < list->near_miss_count; ++i)
        taken += take_varied_fields(m->t, arch, &list->items[list->near_miss_base[i]].choice,
                                    &list->items[list->near_miss[i]].choice, &together);
    /* one near miss alone is measured already */
    if (taken >= 2 && add_candidate(m->t, arch, together, list)) {
        if (measure(m, list, first, runs, jobs, b) != 0) return -1;
        const float without = list->items[before].ms, with = list->items[first].ms;
        const int kept = with <= without * (1 - MIN_OPTION_GAIN);
        if (!kept) list->items[first].held_back = 1;
        char choice[256];
        fftgen_choice_text(&together, choice, sizeof choice);
        char verdict[64] = "taken";
        if (!kept) snprintf(verdict, sizeof verdict, "less than %.0f%% faster, not taken", 100 * MIN_OPTION_GAIN);
        snprintf(next_note(list), sizeof list->option_notes[0], "the near misses together (%s): %.4f ms against"
                 " %.4f ms for the plan before them: %s", choice, with, without, verdict);
    }
    const int options = fastest(list);
    if (options == after_tiles) return 0;
    if (refine_pass_tiles(m, arch, runs, jobs, b, list) != 0) return -1;
    const int best = fastest(list);
    if (best != options) {
        char choice[256];
        fftgen_choice_text(&list->items[best].choice, choice, sizeof choice);
        snprintf(next_note(list), sizeof list->option_notes[0], "the tiles again on the options chosen: %s"
                 " %.4f ms against %.4f ms", choice, list->items[best].ms, list->items[options].ms);
    }
    return 0;
}

/* The rounds after the first, on the fastest plan so far: tiles pass by pass; (1D sizes of one kernel) block
 * sizes at every radix; (2D and 3D) the slices' radix; (fp16) the tensor-core pass masks; radix 32 in the
 * tiled passes where it saves an exchange or a stage; (2D and 3D) short columns straight into registers;
 * (fp16) the tiled passes that derive their twiddles from the first, then the passes that compute them, then
 * those that load their columns in lane pairs; (fp32) the passes that load rows in runs straight into
 * registers; the prefetches; the column passes that ask L2 for 256 bytes a point; the near misses of these
 * rounds together, the tiles again where the options changed the plan, and radix 32 again where they
 * changed it after radix 32's round. `can`: the passes that can take
 * tensor cores. 0, or -1 when a measurement failed. */
static int refine_fastest(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                          struct candidate_list *list, int can)
{
    const int near_from = list->near_miss_count;
    int failed = refine_pass_tiles(m, arch, runs, jobs, b, list) != 0;
    const int after_tiles = fastest(list);
    if (!failed && m->t->shape.rank == 1) failed = refine_block_threads(m, arch, runs, jobs, b, list) != 0;
    if (!failed && m->t->shape.rank > 1) failed = refine_slice_radix(m, arch, runs, jobs, b, list) != 0;
    if (!failed)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list), can,
                                   offsetof(fftgen_choice, tensor_cores), "tensor cores") != 0;
    if (!failed) failed = measure_radix32_passes(m, arch, runs, jobs, b, list) != 0;
    const int after_radix32 = fastest(list);
    /* 2D and 3D: the passes that copy their columns through shared memory may load them straight into
     * registers instead: an H200 gained (fp16 256^3 0.983 -> 0.915 ms), an H100 lost (1.194 -> 1.262) */
    if (!failed && m->t->shape.rank > 1)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list),
                                   fastest_passes_that(list, fftgen_copies_columns),
                                   offsetof(fftgen_choice, column_register_passes), "column registers") != 0;
    /* fp16: the tiled passes may derive their twiddles from the first (fewer loads, more arithmetic:
     * which wins depends on the pass, so every set is measured) */
    if (!failed && m->t->precision == FFTGEN_FP16)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list), fastest_passes_that(list, is_tiled),
                                   offsetof(fftgen_choice, twiddle_powers), "twiddle powers") != 0;
    /* fp16: compute the stage twiddles instead of reading tables (an H200's fp16 16384 and 8192 at
     * radix 32 gained 7-20%, 512 to 2048 lost 1-2%) */
    if (!failed && m->t->precision == FFTGEN_FP16)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list),
                                   fastest_passes_that(list, fftgen_can_compute_twiddles),
                                   offsetof(fftgen_choice, computed_twiddle_passes), "computed twiddles") != 0;
    /* fp16: load columns in lane pairs (an H100's 512^3 and 2^23..2^27 gained 1.4-4.7% in their
     * 512-thread passes in tiles of 16 and 32; tiles of 4 and 8, 256x256's columns first and an H200's
     * 2^26 and 2^27 lost up to 6.7%) */
    if (!failed && m->t->precision == FFTGEN_FP16)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list),
                                   fastest_passes_that(list, fftgen_can_pair_columns),
                                   offsetof(fftgen_choice, column_pair_passes), "column pairs") != 0;
    /* fp32: rows in runs straight into registers (an H200's 2^23 and 2^24 gained 2.8% and 3.3% in their
     * 1024-thread passes, its radix-32 pass of 2^19 lost 8.5%, and an H100 had lost at 2^17) */
    if (!failed && m->t->precision == FFTGEN_FP32)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list),
                                   fastest_passes_that(list, fftgen_can_load_rows_to_registers),
                                   offsetof(fftgen_choice, row_register_passes), "row registers") != 0;
    if (!failed) failed = refine_prefetch(m, arch, runs, jobs, b, list) != 0;
    if (!failed && arch >= 90 && list->plans[fastest(list)].pass_count > 1)
        failed = measure_l2_prefetch_passes(m, arch, runs, jobs, b, list) != 0;
    /* after the passes: the distance goes on the passes chosen, and a plan of several passes that names
     * none cannot take one */
    if (!failed) failed = refine_l2_prefetch(m, arch, runs, jobs, b, list) != 0;
    /* last, on the prefetches chosen: column loads that ask L2 for the 256 bytes around each point (an
     * H100's fp32 2^21 and fp16 256x256 gained 2%, an H200's fp16 2^21 3.4%, its fp16 2^24 lost 2.6%; a
     * pass that asks L2 for its tiles ahead gained nothing more) */
    if (!failed && arch >= 80)
        failed = measure_pass_sets(m, arch, runs, jobs, b, list, fastest(list),
                                   fastest_passes_that(list, fftgen_can_fetch_l2_256),
                                   offsetof(fftgen_choice, l2_fetch_256_passes), "L2 fetch of 256 bytes") != 0;
    /* then the column tiles through the TMA, which replace a pass's L2 requests (an H200's fp16 2^22 and 2^23
     * gained 11% and 13% with it in their pass 1, fftgen-kernel-ab) */
    if (!failed && arch >= 90) failed = measure_tma_columns(m, arch, runs, jobs, b, list) != 0;
    if (!failed) failed = refine_near_misses(m, arch, runs, jobs, b, list, near_from, after_tiles) != 0;
    /* radix 32 again where the rounds after it changed the plan: a radix-32 pass pays for its registers
     * differently once its twiddles are computed or from powers */
    if (!failed && fastest(list) != after_radix32)
        failed = measure_radix32_sets(m, arch, runs, jobs, b, list, fastest(list), "radix 32 on the options chosen") != 0;
    return failed ? -1 : 0;
}

/* Which rounds planned a candidate: round "<first>"[, again "<last other>"]. */
static void found_text(const struct candidate *k, char *text, size_t size)
{
    if (k->again_in != NULL)
        snprintf(text, size, "round \"%s\", again \"%s\"", k->found_in, k->again_in);
    else
        snprintf(text, size, "round \"%s\"", k->found_in);
}

/* A plan's structure, as the rounds start from it: its pass count, whether a pass runs on clusters, and
 * (1D sizes of two passes) the length of pass 1's columns, as STRUCTURE_SPLIT times it plus
 * 2 * passes + clustered. */
enum { STRUCTURE_SPLIT = 64 };
static int structure_of(const fftgen_transform_plan *plan)
{
    int clustered = 0;
    for (int i = 0; i < plan->pass_count; ++i) clustered |= plan->pass[i].cluster > 1;
    /* (a 2D shape's four-step split of dimension 0: its pass 1's columns too) */
    const int split = (plan->rank == 1 && plan->pass_count == 2) || (plan->rank == 2 && plan->four_step_columns != 0)
                          ? plan->pass[0].n : 0;
    return STRUCTURE_SPLIT * split + 2 * plan->pass_count + clustered;
}

/* The fastest plans of up to MAX_OTHER_STRUCTURES other structures (structure_of) than the fastest so far,
 * each through the same rounds, the others held back meanwhile: options change the order. H200, fp16
 * 2^23: three passes ran 0.94 ms after the rounds; two (4096-point columns in tiles of 4, then
 * 2048-point rows in tiles of 8) 1.13 ms before them and 0.90 ms with pass 2 prefetching 64 tiles and
 * pass 1 asking L2 for its input 2 MB ahead; an H100 1.155 against 0.985 ms (fftgen-bench). There the
 * first round's fastest two-pass plan runs on clusters, so the plans on clusters are a structure of
 * their own. 0, or -1 when a measurement failed. */
static int refine_other_structures(struct measurement *m, int arch, int runs, int jobs, struct buffers *b,
                                   struct candidate_list *list, int can)
{
    enum { MAX_OTHER_STRUCTURES = 2 };
    const int measured = list->count; /* the rounds start from these */
    int done[MAX_OTHER_STRUCTURES + 1] = {structure_of(&list->plans[fastest(list)])};
    for (int d = 1; d <= MAX_OTHER_STRUCTURES; ++d) {
        int start = -1;
        for (int c = 0; c < measured; ++c) {
            const struct candidate *k = &list->items[c];
            int seen = 0;
            for (int e = 0; e < d; ++e) seen |= structure_of(&list->plans[c]) == done[e];
            if (seen || k->held_back || !isfinite(k->ms)) continue;
            if (start < 0 || k->ms < list->items[start].ms) start = c;
        }
        if (start < 0) return 0;
        done[d] = structure_of(&list->plans[start]);
        const int count = list->count;
        unsigned char held[MAX_CANDIDATES];
        for (int c = 0; c < count; ++c) {
            held[c] = (unsigned char)list->items[c].held_back;
            if (structure_of(&list->plans[c]) != done[d]) list->items[c].held_back = 1;
        }
        const int status = refine_fastest(m, arch, runs, jobs, b, list, can);
        const int best = fastest(list);
        for (int c = 0; c < count; ++c) list->items[c].held_back = held[c];
        if (status != 0) return status;
        char choice[256], found[160];
        fftgen_choice_text(&list->items[best].choice, choice, sizeof choice);
        found_text(&list->items[best], found, sizeof found);
        const int passes = done[d] % STRUCTURE_SPLIT / 2, split = done[d] / STRUCTURE_SPLIT;
        char columns[48] = "";
        if (split != 0) snprintf(columns, sizeof columns, " (columns of %d points first)", split);
        snprintf(next_note(list), sizeof list->option_notes[0], "fastest of %d passes%s%s after the rounds: %s"
                 " %.4f ms (%s)", passes, done[d] % 2 ? " on clusters" : "", columns, choice, list->items[best].ms,
                 found);
    }
    return 0;
}

/* 1D: the choices of the sizes half and twice as large, as candidates: those this run has measured, else the
 * wisdom file's or the shipped table's. The rounds vary one option at a time from the fastest plan so far,
 * and a neighbour's combination can lie beyond them: on an H200 (2026-12-02) fp16 2^27's new line, on
 * fp16 2^25 and 2^26, ran 1.9% and 7.3% faster than their lines, which their own rounds had not reached.
 * The planner drops what does not plan at this size, and repeats. */
static void add_neighbours_choices(const struct transform *t, const fftgen_device_key *key, long long points_in_all,
                                   const fftgen_wisdom_entry *tuned, int tuned_count, struct candidate_list *list,
                                   int neighbour[2])
{
    neighbour[0] = neighbour[1] = -1;
    if (t->shape.rank != 1) return;
    for (int twice = 0; twice < 2; ++twice) {
        const long long n = twice ? 2 * t->shape.n[0] : t->shape.n[0] / 2;
        if (n < 2) continue;
        fftgen_choice choice;
        int found = 0;
        for (int i = tuned_count - 1; i >= 0 && !found; --i)
            if (tuned[i].precision == KERNEL_PRECISIONS[t->precision] && tuned[i].rank == 1 &&
                tuned[i].shape[0] == n && tuned[i].max_points == 0) {
                choice = tuned[i].choice;
                found = 1;
            }
        if (!found) found = fftgen_wisdom_find(key, KERNEL_PRECISIONS[t->precision], 1, &n, points_in_all, &choice);
        fftgen_transform_plan plan;
        if (!found || plan_choice(t, key->arch, &choice, &plan) != FFTGEN_PLAN_OK) continue;
        add_candidate(t, key->arch, choice, list);
        neighbour[twice] = listed_candidate(&plan, list);
    }
}

/* Measures one transform in rounds: the tile caps on CUDA cores, the same for every pass (and each
 * cluster size against none, the choice in use now and the neighbours' choices), then refine_fastest's
 * rounds on the fastest plan and on the fastest of other structures (refine_other_structures). `tuned`
 * holds the entries this run has measured so far. Fills `entry` (the default choice unless one is
 * MIN_GAIN faster). -1 when a measurement failed. */
static int tune_one(const struct transform *t, const fftgen_device_key *key, long long total, int bounded, int runs,
                    int jobs, struct buffers *b, const struct progress *progress, const fftgen_wisdom_entry *tuned,
                    int tuned_count, fftgen_wisdom_entry *entry, int *measured)
{
    static struct candidate_list list;
    const int arch = key->arch;
    list.count = 0;
    list.near_miss_count = 0;
    list.round = "tiles and clusters";
    const int slots = (int)(sizeof list.option_notes / sizeof list.option_notes[0]);
    for (int i = 0; i < slots; ++i) list.option_notes[i][0] = '\0';
    char shape[64];
    fftgen_shape_text(t->shape.rank, t->shape.n, shape, sizeof shape);
    *measured = 0;
    /* 16 is wider than the planner's default for fp16 four-step passes of more than 256 points */
    static const int tiles[] = {0, 16, 8, 4, 2};
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0]; ++k)
        add_candidate(t, arch, tiles_choice(tiles[k], 0, 0), &list);
    /* sm_90: no cluster, where the default has one, and each cluster size (1D sizes above one block: one
     * pass instead of passes; 2D and 3D: the columns); the planner drops what does not plan, or repeats */
    static const int clusters[] = {1, 2, 4, 8};
    for (size_t k = 0; k < sizeof clusters / sizeof clusters[0]; ++k) {
        /* no cluster: every tile cap; a 1D transform on one cluster has no tiles; clusters of columns:
         * tiles of a sector's run (the default), 16 and 8 */
        const size_t caps = clusters[k] == 1 ? sizeof tiles / sizeof tiles[0] : (t->shape.rank == 1 ? 1 : 3);
        for (size_t j = 0; j < caps; ++j) add_candidate(t, arch, tiles_choice(tiles[j], clusters[k], 0), &list);
    }
    /* 2D: the columns first, through the work area, with every tile cap */
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0] && t->shape.rank == 2; ++k)
        add_candidate(t, arch, tiles_choice(tiles[k], 0, 1), &list);
    /* 2D and 3D: the columns in two four-step passes of shorter columns, in the planner's wide tiles
     * (the rounds below vary them pass by pass) */
    if (t->shape.rank > 1) {
        fftgen_choice split = tiles_choice(0, 0, 0);
        split.split_columns = 1;
        add_candidate(t, arch, split, &list);
    }
    /* 1D sizes of two passes off clusters: pass 1's columns twice and half as long as the planner's split
     * (the default's), in the default's tiles and in tiles of 8 and 4. The planner's even split measured
     * fastest before the TMA's column tiles; with them, fp16 2^19 ran 3.5% faster as 1024 x 512 than as
     * 512 x 1024 (H200, fftgen-kernel-ab) */
    const fftgen_transform_plan *planned = list.count > 0 ? &list.plans[0] : NULL;
    if (t->shape.rank == 1 && planned != NULL && planned->pass_count == 2 && structure_of(planned) % 2 == 0) {
        static const int split_tiles[] = {0, 8, 4};
        list.round = "pass 1's column length";
        for (int longer = 0; longer < 2; ++longer) {
            const int n1 = longer ? 2 * planned->pass[0].n : planned->pass[0].n / 2;
            for (size_t k = 0; k < sizeof split_tiles / sizeof split_tiles[0]; ++k) {
                fftgen_choice split = tiles_choice(split_tiles[k], 0, 0);
                split.four_step_columns = n1;
                add_candidate(t, arch, split, &list);
            }
        }
    }
    /* dense 2D shapes: dimension 0 split four-step, its columns cut short in pass 1 and the rest fused with
     * the rows in slices of 2 to 64 rows in pass 2 (the planner refuses slices that do not fit a block), in
     * the planner's tiles and in tiles of 16. H200, fp16 4096x4096 as 1024 then 4x4096: see plan_row_slices */
    list.round = "dimension 0 split four-step";
    for (long long rows = 2; t->shape.rank == 2 && rows <= 64 && rows < t->shape.n[0]; rows *= 2) {
        static const int slice_tiles[] = {0, 16};
        for (size_t k = 0; k < sizeof slice_tiles / sizeof slice_tiles[0]; ++k) {
            fftgen_choice split = tiles_choice(slice_tiles[k], 0, 0);
            split.four_step_columns = (int)(t->shape.n[0] / rows);
            add_candidate(t, arch, split, &list);
        }
    }
    /* 1D sizes of one kernel: every radix from 4 up (radix 32: fewer stages and exchanges, about 90
     * registers a thread; radix 8 and 4: more threads a transform, which read and write straight from
     * 8 threads up in fp16); the planner refuses them above one kernel, and drops repeats of the default */
    static const int radices[] = {4, 8, 16, 32};
    list.round = "radices";
    for (size_t k = 0; k < sizeof radices / sizeof radices[0] && t->shape.rank == 1; ++k) {
        fftgen_choice radix = tiles_choice(0, 0, 0);
        radix.max_radix = radices[k];
        add_candidate(t, arch, radix, &list);
    }
    /* the choice libfftgen makes now (the user's wisdom, else the shipped table): the rounds below vary
     * only the fastest plan so far, and may not reach a combination measured on another device (the
     * H100's choice for fp16 256x256 ran 7% faster on an H200 than any plan of the H200's own rounds) */
    const long long points = shape_arg_points(&t->shape), batch = total / points > 0 ? total / points : 1;
    fftgen_choice current;
    list.round = "the choice in use now";
    int in_use = -1; /* its candidate, said beside the fastest */
    fftgen_transform_plan current_plan;
    if (fftgen_wisdom_find(key, KERNEL_PRECISIONS[t->precision], t->shape.rank, t->shape.n, points * batch, &current) &&
        plan_choice(t, arch, &current, &current_plan) == FFTGEN_PLAN_OK) {
        add_candidate(t, arch, current, &list);
        in_use = listed_candidate(&current_plan, &list);
    }
    list.round = "the neighbours' choices";
    int neighbour[2]; /* the candidates of n/2's and 2n's choices, said beside the fastest */
    add_neighbours_choices(t, key, points * batch, tuned, tuned_count, &list, neighbour);
    const int can = tensor_core_passes(t, arch);
    if (list.count < 2 && can == 0) {
        printf("  %-5s %-12s one plan only: nothing to choose\n", PRECISION_NAMES[t->precision], shape);
        return 0;
    }
    struct measurement m = {t, shape, batch, 0, 0, NULL, NULL, progress};
    m.values = (size_t)(points * m.batch) * 2;
    m.checked = (size_t)(points * m.batch) < CHECKED_POINTS ? (size_t)(points * m.batch) : CHECKED_POINTS;
    m.reference = malloc(sizeof(double) * 2 * m.checked);
    m.output = malloc(sizeof(double) * 2 * m.checked);
    int failed = m.reference == NULL || m.output == NULL ||
                 fill_random(b->in, t->precision == FFTGEN_FP16, m.values, (unsigned long long)points) != 0 ||
                 measure(&m, &list, 0, runs, jobs, b) != 0;
    if (!failed) failed = refine_fastest(&m, arch, runs, jobs, b, &list, can) != 0;
    if (!failed) failed = refine_other_structures(&m, arch, runs, jobs, b, &list, can) != 0;
    free(m.reference);
    free(m.output);
    clear_progress();
    if (failed) {
        fprintf(stderr, "fftgen tune: error: %s %s: a measurement failed\n", PRECISION_NAMES[t->precision], shape);
        return -1;
    }
    const int fast = fastest(&list);
    const float default_ms = list.items[0].ms;
    const int best = list.items[fast].ms <= default_ms * (1 - MIN_GAIN) ? fast : 0;
    memset(entry, 0, sizeof *entry);
    entry->precision = KERNEL_PRECISIONS[t->precision];
    entry->rank = t->shape.rank;
    for (int d = 0; d < t->shape.rank; ++d) entry->shape[d] = t->shape.n[d];
    entry->choice = list.items[best].choice;
    entry->max_points = bounded ? points * m.batch : 0;
    entry->ms = list.items[best].ms;
    entry->default_ms = default_ms;
    char choice[256], runner_up[256], found[160];
    fftgen_choice_text(&entry->choice, choice, sizeof choice);
    fftgen_choice_text(&list.items[fast].choice, runner_up, sizeof runner_up);
    found_text(&list.items[fast], found, sizeof found);
    printf("  %-5s %-12s %2d candidates, default %.4f ms; fastest %s %.4f ms (%.3fx; %s): %s\n",
           PRECISION_NAMES[t->precision], shape, list.count, default_ms, runner_up, list.items[fast].ms,
           default_ms / list.items[fast].ms, found, best == 0 ? "keeps the default" : "saved");
    /* the line in use now against the fastest: whether a new line is worth the change */
    if (in_use > 0 && in_use != fast && isfinite(list.items[in_use].ms))
        printf("  %-5s %-12s the choice in use now (the wisdom file's or the shipped table's): %.4f ms, %.1f%% slower"
               " than the fastest\n", PRECISION_NAMES[t->precision], shape, list.items[in_use].ms,
               100.0 * (list.items[in_use].ms / list.items[fast].ms - 1));
    else if (in_use > 0 && in_use != fast)
        printf("  %-5s %-12s the choice in use now (the wisdom file's or the shipped table's): not timed (candidate %d,"
               " above)\n", PRECISION_NAMES[t->precision], shape, in_use);
    /* so that a run shows what the neighbours' choices were worth here, even where they lost */
    for (int twice = 0; twice < 2; ++twice) {
        const int c = neighbour[twice];
        if (c < 0) continue;
        char text[256];
        fftgen_choice_text(&list.items[c].choice, text, sizeof text);
        const char *which = twice ? "twice as large" : "half as large";
        if (c == fast)
            printf("  %-5s %-12s the choice of the size %s plans the fastest: %s\n", PRECISION_NAMES[t->precision],
                   shape, which, text);
        else if (isfinite(list.items[c].ms))
            printf("  %-5s %-12s the choice of the size %s: %.4f ms, %.1f%% slower than the fastest (%s)\n",
                   PRECISION_NAMES[t->precision], shape, which, list.items[c].ms,
                   100.0 * (list.items[c].ms / list.items[fast].ms - 1), text);
        else
            printf("  %-5s %-12s the choice of the size %s: not timed (candidate %d, above)\n",
                   PRECISION_NAMES[t->precision], shape, which, c);
    }
    for (int i = 0; i < slots && list.option_notes[i][0] != '\0'; ++i)
        printf("  %-5s %-12s %s\n", PRECISION_NAMES[t->precision], shape, list.option_notes[i]);
    fflush(stdout);
    *measured = 1;
    return 0;
}

static int parse_precisions(const char *text, int want[4])
{
    char *copy = strdup(text), *save = NULL;
    if (copy == NULL) return -1;
    int any = 0;
    for (char *word = strtok_r(copy, ",", &save); word != NULL; word = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int p = 0; p < 4; ++p)
            if (strcmp(word, PRECISION_NAMES[p]) == 0) found = want[p] = any = 1;
        if (!found) {
            fprintf(stderr, "fftgen tune: error: unknown precision '%s' (expected fp16, fp32, split, split-papers)\n",
                    word);
            free(copy);
            return -1;
        }
    }
    free(copy);
    return any ? 0 : -1;
}

/* A whole-number option, or exit status 2 after a message that names it. */
static long long parse_count(const char *flag, const char *text, long long low, long long high)
{
    const long long value = count_arg_parse("fftgen tune: error", flag, text, low, high);
    if (value < 0) exit(2);
    return value;
}

int main(int argc, char **argv)
{
    static struct transform transforms[MAX_TRANSFORMS], shapes[MAX_TRANSFORMS];
    int want[4] = {0}, shape_count = 0, runs = 20;
    long long total = 1LL << 27;
    int bounded = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = cpus < 1 ? 1 : (cpus > 16 ? 16 : (int)cpus);
    const char *output = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--precision") == 0 && has_value) {
            if (parse_precisions(argv[++i], want) != 0) return 2;
        } else if (strcmp(a, "--points") == 0 && has_value) {
            total = parse_count("--points", argv[++i], 2, 1LL << 31);
        } else if (strcmp(a, "--bounded") == 0) {
            bounded = 1;
        } else if (strcmp(a, "--runs") == 0 && has_value) {
            runs = (int)parse_count("--runs", argv[++i], 3, 10000);
        } else if (strcmp(a, "--jobs") == 0 && has_value) {
            jobs = (int)parse_count("--jobs", argv[++i], 1, 16);
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && has_value) {
            output = argv[++i];
        } else if (a[0] == '-') {
            fprintf(stderr, "fftgen tune: error: unknown option or missing value '%s' (see fftgen tune --help)\n", a);
            return 2;
        } else if (shape_count == MAX_TRANSFORMS / 4 || shape_arg_parse(a, &shapes[shape_count++].shape) != 0) {
            fprintf(stderr, "fftgen tune: error: '%s' is not a size or shape of powers of two (at most 2^30 points)\n",
                    a);
            return 2;
        }
    }
    if (!want[0] && !want[1] && !want[2] && !want[3]) want[0] = want[1] = 1;
    if (shape_count == 0) {
        static const char *const defaults[] = {"256x256",  "512x256",  "512x512",     "1024x1024",   "4096x4096",
                                               "8192x8192", "64x64x64", "128x128x128", "256x256x256", "512x512x512"};
        for (long long n = 16; n <= (1LL << 27); n *= 2) {
            char text[32];
            snprintf(text, sizeof text, "%lld", n);
            shape_arg_parse(text, &shapes[shape_count++].shape);
        }
        for (size_t s = 0; s < sizeof defaults / sizeof defaults[0]; ++s)
            shape_arg_parse(defaults[s], &shapes[shape_count++].shape);
    }
    int count = 0;
    static const int order[] = {FFTGEN_FP16, FFTGEN_FP32, FFTGEN_SPLIT, FFTGEN_SPLIT_PAPERS}; /* fp16 has the most */
    for (int o = 0; o < 4; ++o)
        for (int s = 0, p = order[o]; s < shape_count && want[p]; ++s) {
            transforms[count] = shapes[s];
            transforms[count++].precision = (fftgen_precision)p;
        }

    char path[4096], why[512];
    if (output != NULL) snprintf(path, sizeof path, "%s", output);
    else if (fftgen_wisdom_default_path(path, sizeof path) != 0) {
        fprintf(stderr, "fftgen tune: error: no wisdom file to write (FFTGEN_WISDOM=0, or no cache folder): give"
                        " --output FILE\n");
        return 2;
    }
    int device, arch;
    size_t memory;
    const fftgen_result found = fftgen_current_device(&device, &arch, &memory);
    fftgen_device_key key;
    if (found != FFTGEN_SUCCESS || fftgen_device_key_of(device, arch, &key) != FFTGEN_SUCCESS) {
        fprintf(stderr, "fftgen tune: error: tune measures on a GPU: %s\n",
                fftgen_last_error()); /* both say why (the CUDA call and its error) */
        return 1;
    }
    fftgen_wisdom_load_defaults(); /* the choices in use now, candidates too */
    /* three buffers as large as the largest transform's data */
    long long most = 0;
    for (int i = 0; i < count; ++i) {
        const long long points = shape_arg_points(&transforms[i].shape);
        const long long values = (total / points > 0 ? total / points : 1) * points;
        const long long bytes = values * (transforms[i].precision == FFTGEN_FP16 ? 4 : 8);
        if (bytes > most) most = bytes;
    }
    struct buffers b = {NULL, NULL, NULL, (size_t)most};
    if (!cuda_ok(cudaMalloc(&b.in, b.bytes), "cudaMalloc") || !cuda_ok(cudaMalloc(&b.out, b.bytes), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&b.work, b.bytes), "cudaMalloc"))
        return 1;
    printf("fftgen tune on %s (sm_%d, driver %s, fftgen %s): %d transforms, %lld points each, median of %d runs%s\n",
           key.device, arch, key.driver, key.version, count, total, runs,
           bounded ? "; the choices saved for calls of at most as many points" : "");
    fftgen_wisdom_entry *entries = calloc((size_t)count, sizeof *entries);
    const int live = isatty(fileno(stderr));
    int saved = 0, failures = 0;
    fftgen_result written = FFTGEN_SUCCESS;
    for (int i = 0; i < count && entries != NULL && written == FFTGEN_SUCCESS; ++i) {
        int measured = 0;
        const struct progress progress = {live, i, count};
        printf("[%d/%d]", i + 1, count);
        if (tune_one(&transforms[i], &key, total, bounded, runs, jobs, &b, &progress, entries, saved, &entries[saved],
                     &measured) != 0)
            ++failures;
        saved += measured;
        /* saved as it goes: an interrupted run keeps what it measured */
        if (measured) written = fftgen_wisdom_write(path, &key, entries, saved, why, sizeof why);
    }
    cudaFree(b.in);
    cudaFree(b.out);
    cudaFree(b.work);
    if (entries == NULL) {
        fprintf(stderr, "fftgen tune: error: out of memory\n");
        return 1;
    }
    free(entries);
    if (written != FFTGEN_SUCCESS) {
        fprintf(stderr, "fftgen tune: error: %s\n", why);
        return 1;
    }
    printf("%d choices saved in %s\n", saved, path);
    if (failures) fprintf(stderr, "fftgen tune: %d transforms could not be measured (above)\n", failures);
    return failures ? 1 : 0;
}
