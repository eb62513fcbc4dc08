/* `fftgen pack`: compiles the kernels of a set of plans with NVRTC, for several architectures, into
 * one kernel pack (runtime/pack.h describes the file). */
#define _POSIX_C_SOURCE 200809L
#include "pack_command.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit.h"
#include "pack.h"
#include "planner.h"
#include "render.h"

enum { MAX_ENTRIES = 1024, MAX_ARCHS = 8 };

struct job {
    char name[96];      /* what it was made from, for messages */
    char *source;
    fftgen_pack_entry entry;
    void *cubin;
    char log[1024];
    fftgen_result result;
};

static struct job jobs[MAX_ENTRIES];
static int job_count, next_job, jobs_done;
/* progress: a status line on a terminal; in a log, a line at each tenth of the jobs */
static int live_progress;
static pthread_mutex_t queue = PTHREAD_MUTEX_INITIALIZER;

static void pack_usage(FILE *to)
{
    fprintf(to, "Usage: fftgen pack (--sizes LIST | --from DIR) [--precision LIST] [--arch LIST] [--tensor-cores]\n"
                "                   -o FILE.fgpack\n"
                "Compiles the kernels of whole transforms with NVRTC into one kernel pack, which libfftgen\n"
                "loads (fftgen_load_pack, FFTGEN_PACK_PATH) to plan with no run-time compilation.\n"
                "\n"
                "  --sizes LIST       sizes, as a comma-separated list and/or ranges of powers of two:\n"
                "                     e.g. 256,4096 or 16-1048576\n"
                "  --from DIR         instead of --sizes: the .cu files fftgen wrote in DIR (e.g. generated/)\n"
                "  --precision LIST   comma-separated: fp32, fp16, split, split-papers (default fp32,fp16;\n"
                "                     with --sizes; the split precisions need sm_80 or newer)\n"
                "  --arch LIST        e.g. sm_80,sm_90 (default sm_90)\n"
                "  --tensor-cores     with --sizes: the kernels with radix-16 stages on tensor cores, which\n"
                "                     plans with FFTGEN_TENSOR_CORES use (fp16 only, sm_80 and newer, in\n"
                "                     every pass that has them; the precision defaults to fp16)\n"
                "  -o FILE            the pack to write (atomically; '-': standard output)\n");
}

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "fftgen pack: error: ");
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

/* "fp32,split": each name once or more, at least one. */
static int parse_precisions(const char *text, int wanted[FFTGEN_KERNEL_PRECISION_COUNT])
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    int any = 0;
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name != NULL; name = strtok_r(NULL, ",", &save)) {
        const int p = fftgen_precision_parse(name);
        if (p < 0) {
            fail("unknown precision '%s' in --precision (expected fp32, fp16, split or split-papers)", name);
            return -1;
        }
        wanted[p] = any = 1;
    }
    if (!any) fail("empty --precision list '%s'", text);
    return any ? 0 : -1;
}

static int parse_archs(const char *text, int *archs, int *count)
{
    char *copy = strdup(text), *save = NULL;
    *count = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        const long arch = strncmp(t, "sm_", 3) == 0 ? strtol(t + 3, &end, 10) : -1;
        if (arch < 0 || *end != '\0' || fftgen_arch_shared_limit((int)arch) < 0 || *count == MAX_ARCHS) {
            fail("unknown architecture '%s' (known: %s)", t, fftgen_known_archs());
            free(copy);
            return -1;
        }
        archs[(*count)++] = (int)arch;
    }
    free(copy);
    return *count > 0 ? 0 : -1;
}

/* "16-1048576,3000" -> powers of two; -1 on anything that is not one */
static int parse_sizes(const char *text, long long *sizes, int *count)
{
    char *copy = strdup(text), *save = NULL;
    *count = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        const long long lo = strtoll(t, &end, 10);
        long long hi = lo;
        if (*end == '-') hi = strtoll(end + 1, &end, 10);
        if (*end != '\0' || lo < 2 || hi < lo || (lo & (lo - 1)) || (hi & (hi - 1))) {
            fail("'%s' is not a power of two >= 2 or a range of them", t);
            free(copy);
            return -1;
        }
        for (long long n = lo; n <= hi && *count < 64; n *= 2) sizes[(*count)++] = n;
    }
    free(copy);
    return *count > 0 ? 0 : -1;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    char *text = NULL;
    long size;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)size + 1)) != NULL) {
        if (fread(text, 1, (size_t)size, f) == (size_t)size) text[size] = '\0';
        else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

/* The descriptor's summary: directions, layout, and per pass its size, radix chain and threads. */
static void summarize(struct job *job, const fftgen_transform_plan *plan)
{
    enum { SUMMARY = 192 };
    static char summaries[MAX_ENTRIES][SUMMARY];
    char *s = summaries[job - jobs];
    int used = snprintf(s, SUMMARY, "%lld-point %s, forward and inverse, contiguous, sm_%d:", plan->n,
                        fftgen_precision_name(plan->pass[0].precision), job->entry.arch);
    for (int i = 0; i < plan->pass_count && used > 0 && used < SUMMARY; ++i) {
        const fftgen_kernel_plan *p = &plan->pass[i];
        used += snprintf(s + used, SUMMARY - (size_t)used, "%s %d-point radix ", i ? ";" : "", p->n);
        for (int r = 0; r < p->stage_count && used < SUMMARY; ++r)
            used += snprintf(s + used, SUMMARY - (size_t)used, "%s%d", r ? "x" : "", p->radices[r]);
        if (used < SUMMARY)
            used += snprintf(s + used, SUMMARY - (size_t)used, ", %d threads, %d B shared", p->threads,
                             p->shared_bytes);
    }
    job->entry.summary = s;
}

static void *worker(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&queue);
        const int i = next_job < job_count ? next_job++ : -1;
        pthread_mutex_unlock(&queue);
        if (i < 0) return NULL;
        struct job *job = &jobs[i];
        size_t size = 0;
        job->result = fftgen_jit_compile(job->source, job->name, job->entry.arch, &job->cubin, &size, job->log,
                                         sizeof job->log);
        job->entry.cubin = job->cubin;
        job->entry.cubin_size = size;
        pthread_mutex_lock(&queue);
        ++jobs_done;
        if (live_progress)
            fprintf(stderr, "\r[%d/%d] %s for sm_%d          ", jobs_done, job_count, job->name, job->entry.arch);
        else if (jobs_done * 10 / job_count != (jobs_done - 1) * 10 / job_count)
            fprintf(stderr, "fftgen pack: %d of %d kernels compiled\n", jobs_done, job_count);
        pthread_mutex_unlock(&queue);
    }
}

static int add_job(const char *name, char *source, int arch, const fftgen_transform_plan *plan)
{
    if (job_count == MAX_ENTRIES) {
        fail("more than %d kernels in one pack", MAX_ENTRIES);
        return -1;
    }
    struct job *job = &jobs[job_count++];
    snprintf(job->name, sizeof job->name, "%s", name);
    job->source = source;
    job->entry.source = source;
    job->entry.arch = arch;
    if (plan != NULL) {
        /* (the summary below reads entry.arch) */
        job->entry.precision = (int)plan->pass[0].precision;
        job->entry.n = plan->n;
        job->entry.passes = plan->pass_count;
        summarize(job, plan);
    } else {
        /* from a file: its name says what it is, fftgen_<n>_[tc_]<precision>.cu (split_papers for
         * split-papers); the precision is informational, so an unknown one reads as fp32 */
        long long n = 0;
        char precision[32] = "";
        sscanf(name, "fftgen_%lld_%31[a-z0-9_]", &n, precision);
        const char *bare = strncmp(precision, "tc_", 3) == 0 ? precision + 3 : precision;
        char spelled[32];
        snprintf(spelled, sizeof spelled, "%s", bare);
        for (char *ch = spelled; *ch; ++ch)
            if (*ch == '_') *ch = '-';
        const int parsed = fftgen_precision_parse(spelled);
        job->entry.n = n;
        job->entry.precision = parsed < 0 ? 0 : parsed;
        job->entry.passes = 0;
        job->entry.summary = job->name;
    }
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int fftgen_pack_command(int argc, char **argv)
{
    static const struct option options[] = {
        {"sizes", required_argument, 0, 's'}, {"from", required_argument, 0, 'f'},
        {"precision", required_argument, 0, 'p'}, {"arch", required_argument, 0, 'a'},
        {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
        {"tensor-cores", no_argument, 0, 't'}, {0, 0, 0, 0},
    };
    const char *sizes_text = NULL, *from = NULL, *output = NULL, *precisions = NULL;
    int tensor_cores = 0;
    int archs[MAX_ARCHS] = {FFTGEN_DEFAULT_ARCH}, arch_count = 1;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (c) {
        case 's': sizes_text = optarg; break;
        case 'f': from = optarg; break;
        case 'p': precisions = optarg; break;
        case 'a':
            if (parse_archs(optarg, archs, &arch_count) != 0) return 2;
            break;
        case 'o': output = optarg; break;
        case 't': tensor_cores = FFTGEN_EVERY_PASS; break;
        case 'h': pack_usage(stdout); return 0;
        case ':': fail("option '%s' needs a value", argv[optind - 1]); return 2;
        default: fail("unknown option '%s' (see fftgen pack --help)", argv[optind - 1]); return 2;
        }
    }
    if (optind < argc) {
        fail("unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (output == NULL || (sizes_text == NULL) == (from == NULL)) {
        fail("give -o FILE and one of --sizes or --from (see fftgen pack --help)");
        return 2;
    }
    if (tensor_cores && from != NULL) {
        fail("--tensor-cores goes with --sizes (a folder's files already say how they were made)");
        return 2;
    }
    if (precisions == NULL) precisions = tensor_cores ? "fp16" : "fp32,fp16";
    int wanted[FFTGEN_KERNEL_PRECISION_COUNT] = {0};
    if (parse_precisions(precisions, wanted) != 0) return 2;

    char why[512];
    if (from != NULL) {
        DIR *dir = opendir(from);
        if (dir == NULL) {
            fail("cannot read folder '%s': %s", from, strerror(errno));
            return 2;
        }
        char *names[MAX_ENTRIES];
        int count = 0;
        int too_many = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            const size_t len = strlen(e->d_name);
            if (len <= 3 || strcmp(e->d_name + len - 3, ".cu") != 0) continue;
            if (count == MAX_ENTRIES) {
                too_many = 1;
                break;
            }
            names[count++] = strdup(e->d_name);
        }
        closedir(dir);
        if (too_many) {
            fail("more than %d .cu files in '%s' (the most one pack holds)", MAX_ENTRIES, from);
            return 2;
        }
        qsort(names, (size_t)count, sizeof names[0], compare_names);
        if (count == 0) {
            fail("no .cu files in '%s'", from);
            return 2;
        }
        for (int i = 0; i < count; ++i) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", from, names[i]);
            char *source = read_text(path);
            if (source == NULL) {
                fail("cannot read '%s'", path);
                return 2;
            }
            /* kernels on thread-block clusters, and kernels that prefetch with bulk copies, exist from
             * sm_90 on; the planner gives older devices other kernels, so their sources are never asked
             * for there */
            const int sm90_only =
                strstr(source, "__cluster_dims__") != NULL || strstr(source, "cp.async.bulk") != NULL;
            int added = 0;
            for (int a = 0; a < arch_count; ++a) {
                if (sm90_only && archs[a] < FFTGEN_CLUSTER_ARCH) continue;
                if (add_job(names[i], added++ == 0 ? source : strdup(source), archs[a], NULL) != 0) return 2;
            }
            if (added == 0) free(source);
            free(names[i]);
        }
    } else {
        long long sizes[64];
        int size_count;
        if (parse_sizes(sizes_text, sizes, &size_count) != 0) return 2;
        for (int s = 0; s < size_count; ++s)
            for (int p = 0; p < FFTGEN_KERNEL_PRECISION_COUNT; ++p) {
                if (!wanted[p]) continue;
                for (int a = 0; a < arch_count; ++a) {
                    const fftgen_kernel_request request = {sizes[s], 0, (fftgen_kernel_precision)p, archs[a],
                                                           tensor_cores, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, 0,
                                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                    fftgen_transform_plan plan;
                    if (fftgen_plan_transform(&request, &plan, why, sizeof why) != FFTGEN_PLAN_OK) {
                        fail("%s", why);
                        return 2;
                    }
                    const fftgen_render_request render = {&plan, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
                    char *source = fftgen_render(&render, why, sizeof why);
                    char name[96];
                    fftgen_default_name(&plan, name, sizeof name);
                    if (source == NULL) {
                        fail("%s", why);
                        return 1;
                    }
                    if (add_job(name, source, archs[a], &plan) != 0) return 2;
                }
            }
    }

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const int workers = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
    pthread_t threads[16];
    live_progress = isatty(fileno(stderr));
    int started = 0;
    while (started < workers && pthread_create(&threads[started], NULL, worker, NULL) == 0) ++started;
    if (started == 0) worker(NULL); /* no thread to be had: compile them here, one at a time */
    for (int t = 0; t < started; ++t) pthread_join(threads[t], NULL);
    if (live_progress) fprintf(stderr, "\r%70s\r", "");
    int failed = 0;
    fftgen_pack_entry *entries = calloc((size_t)job_count, sizeof *entries);
    for (int i = 0; i < job_count; ++i) {
        if (jobs[i].result != FFTGEN_SUCCESS) {
            fprintf(stderr, "fftgen pack: error: %s for sm_%d: %s %s\n", jobs[i].name, jobs[i].entry.arch,
                    fftgen_result_string(jobs[i].result), jobs[i].log);
            failed = 1;
        }
        entries[i] = jobs[i].entry;
    }
    int status = failed ? 1 : 0;
    if (!failed) {
        const fftgen_result written = fftgen_pack_write(output, entries, job_count, why, sizeof why);
        if (written != FFTGEN_SUCCESS) {
            fprintf(stderr, "fftgen pack: error: %s\n", why);
            status = 2;
        } else {
            fprintf(stderr, "fftgen pack: wrote %d kernels to %s\n", job_count, output);
        }
    }
    free(entries);
    return status;
}
