/* Plans: argument checks, the planner's decision, the kernels (from the cache or NVRTC), execution. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "cache.h"
#include "error_detail.h"
#include "fftgen.h"
#include "launch.h"
#include "pack.h"
#include "plan_choice.h"
#include "planner.h"
#include "render.h"
#include "tensor_map.h"
#include "wisdom.h"

/* Marks a live plan, so that a destroyed one is (usually) caught instead of used. */
#define PLAN_MAGIC 0x66667467u

struct fftgen_plan_s {
    unsigned magic;
    fftgen_transform_plan transform;
    long long batch;
    fftgen_precision precision;
    unsigned flags;
    unsigned grid[FFTGEN_MAX_PASSES];
    long long ffts[FFTGEN_MAX_PASSES]; /* each pass's transforms: batch * n / pass n */
    fftgen_module module;              /* kernel 2*i: pass i forward, 2*i + 1: pass i inverse */
    cudaStream_t stream;
    size_t work_bytes;
    void *work_area;
    int owns_work_area; /* allocated at plan creation, until the caller gives one */
    int device;         /* the device current at creation: the plan's kernels run there only */
    int reads_pageable; /* the device reads pageable host memory (HMM, ATS): any pointer may be data */
    size_t in_bytes, out_bytes;     /* the layouts' spans, from a buffer's pointer on */
    const void *checked_in, *checked_out; /* the last pointers that passed fftgen_check_buffer */
};

/* A TMA column pass (fftgen_kernel_plan.tma_columns) launches as many blocks as fit on the SMs at once,
 * as its loaded kernel's registers and shared memory allow, each taking tiles in turn. */
static fftgen_result size_tma_grids(struct fftgen_plan_s *p, int device)
{
    for (int i = 0; i < p->transform.pass_count; ++i) {
        const fftgen_kernel_plan *pass = &p->transform.pass[i];
        if (!pass->tma_columns) continue;
        int sms = 0, resident = 0;
        fftgen_result result = fftgen_device_sm_count(device, &sms);
        if (result == FFTGEN_SUCCESS)
            result = fftgen_kernel_blocks_per_sm(p->module.kernel[2 * i], pass->threads, pass->shared_bytes, &resident);
        if (result != FFTGEN_SUCCESS) return result;
        p->grid[i] = (unsigned)fftgen_tma_pass_blocks(pass, p->ffts[i], sms, resident);
    }
    return FFTGEN_SUCCESS;
}

static int is_power_of_two(long long n)
{
    return n >= 2 && (n & (n - 1)) == 0;
}

/* One layout, as cufftPlanMany's: element x of transform b at b*dist + stride * (x row-major over
 * embed); embed[0] is not used. Output transforms must not share an element (their writes would race);
 * input transforms may (overlapping frames, as a short-time FFT reads them), since no pass writes the
 * input and in place needs the output's layout. */
static fftgen_result check_layout(const char *side, int rank, const long long *n, const long long *embed,
                                  long long stride, long long dist, long long batch, int may_share)
{
    if (embed == NULL) return FFTGEN_SUCCESS; /* contiguous: the strides are ignored, as in cuFFT */
    if (stride < 1 || dist < 1)
        return fftgen_detail(FFTGEN_INVALID_LAYOUT, "%s stride %lld and distance %lld: both must be >= 1", side, stride,
                             dist);
    long long extent = n[0]; /* elements of one transform's span, in strides */
    for (int d = 1; d < rank; ++d) {
        if (embed[d] < n[d])
            return fftgen_detail(FFTGEN_INVALID_LAYOUT, "%s embed[%d] = %lld is smaller than n[%d] = %lld", side, d,
                                 embed[d], d, n[d]);
        if (extent > (1LL << 40) / embed[d])
            return fftgen_detail(FFTGEN_INVALID_LAYOUT, "the %s embeds span more than 2^40 elements", side);
        extent *= embed[d];
    }
    const int side_by_side = dist >= extent * stride;
    const int interleaved = stride >= batch * dist;
    if (batch > 1 && !side_by_side && !interleaved && !may_share)
        return fftgen_detail(FFTGEN_OVERLAPPING_LAYOUT,
                             "%s layout: with stride %lld, distance %lld and %lld elements a transform, the %lld "
                             "transforms would share elements",
                             side, stride, dist, extent, batch);
    return FFTGEN_SUCCESS;
}

/* The layout the kernels see: NULL embed means contiguous, as in cuFFT. */
static fftgen_user_layout user_layout(int rank, const long long *embed, long long stride, long long dist,
                                      long long points)
{
    fftgen_user_layout layout = {1, points, {0}};
    if (embed == NULL) return layout;
    layout.stride = stride;
    layout.dist = dist;
    for (int d = 1; d < rank; ++d) layout.embed[d] = embed[d];
    return layout;
}

static int same_layout(const fftgen_user_layout *a, const fftgen_user_layout *b, int rank)
{
    if (a->stride != b->stride || a->dist != b->dist) return 0;
    for (int d = 1; d < rank; ++d)
        if (a->embed[d] != b->embed[d]) return 0;
    return 1;
}

/* FFTGEN_MAX_TILE caps the transforms a strided pass reads side by side, as fftgen's --max-tile
 * ("8", or pass by pass "16,16,8"), for measuring tile widths with fftgen-bench; unset, empty or
 * not such a list: no override. */
static fftgen_tile_caps max_tile_override(void)
{
    fftgen_tile_caps caps = {{0}};
    const char *text = getenv("FFTGEN_MAX_TILE");
    if (text != NULL) fftgen_tile_caps_parse(text, &caps); /* leaves caps as they were if not a list */
    return caps;
}

/* FFTGEN_ORDER: the order of a 2D shape's passes to measure ("columns-first" or "rows-first"), as
 * fftgen's --order; -1 where unset, or not a 2D shape. */
static int order_override(int rank)
{
    return rank == 2 ? fftgen_order_parse(getenv("FFTGEN_ORDER")) : -1;
}

/* The planner's request for this device: FFTGEN_TENSOR_CORES asks for tensor cores in every pass
 * that has them; else the measured choice (the user's wisdom, then the shipped table) unless
 * FFTGEN_PLANNER_DEFAULTS; FFTGEN_MAX_TILE overrides the tile either way. */
static fftgen_kernel_request planner_request(long long points, long long batch, int rank, const long long *n,
                                            fftgen_kernel_precision precision, int device, int arch, unsigned flags,
                                            const fftgen_choice *forced, const fftgen_tile_caps *tile_override)
{
    fftgen_kernel_request request = {points, 0, precision, arch, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    fftgen_choice choice = {0, {{0}}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (forced != NULL) {
        choice = *forced;
    } else if (!(flags & FFTGEN_PLANNER_DEFAULTS)) {
        fftgen_device_key key;
        if (fftgen_device_key_of(device, arch, &key) == FFTGEN_SUCCESS) {
            fftgen_wisdom_load_defaults();
            fftgen_wisdom_find(&key, precision, rank, n, points * batch, &choice);
        } else {
            fftgen_detail_clear(); /* no key, no measured choice: the planner's own rules, and no failure */
        }
    }
    fftgen_choice_apply(&choice, rank, &request);
    if (flags & FFTGEN_TENSOR_CORES) request.tensor_cores = FFTGEN_EVERY_PASS;
    if (fftgen_tile_caps_any(tile_override)) request.max_tile = *tile_override;
    /* FFTGEN_CLUSTER: a cluster size to measure ("1": passes), as fftgen's --cluster */
    const int cluster = fftgen_cluster_parse(getenv("FFTGEN_CLUSTER")); /* -1 when unset or not a size */
    if (cluster >= 0) request.cluster = cluster;
    const int order = order_override(rank);
    if (order >= 0) request.columns_first = order;
    /* FFTGEN_INTERMEDIATE: how fp16 passes store between them, to measure ("fp16", "shared-exponent" or
     * "mixed"), as fftgen's --intermediate */
    const int intermediate = fftgen_intermediate_parse(getenv("FFTGEN_INTERMEDIATE"));
    if (intermediate >= 0 && precision == FFTGEN_KERNEL_FP16) request.intermediate = (fftgen_intermediate)intermediate;
    if (flags & FFTGEN_FP16_INTERMEDIATES) request.intermediate = FFTGEN_INTERMEDIATE_FP16;
    /* FFTGEN_L2_PREFETCH: the distance of the L2 prefetch to measure, in KB ("0": none), as fftgen's
     * --l2-prefetch; not a whole number from 0 to 65536: no override. FFTGEN_L2_PREFETCH_PASSES: the
     * passes that take it ("1,3"; "all": every one that can), as --l2-prefetch-passes */
    const int l2 = fftgen_l2_prefetch_parse(getenv("FFTGEN_L2_PREFETCH"));
    if (l2 != 0) request.l2_prefetch_kb = l2;
    if (l2 == FFTGEN_L2_PREFETCH_OFF) request.l2_prefetch_passes = 0; /* none, whatever passes a choice names */
    const char *l2_passes = getenv("FFTGEN_L2_PREFETCH_PASSES");
    const int l2_mask = l2_passes != NULL && strcmp(l2_passes, "all") == 0 ? FFTGEN_EVERY_PASS
                                                                             : fftgen_pass_mask_parse(l2_passes);
    if (l2_mask > 0 && request.l2_prefetch_kb != FFTGEN_L2_PREFETCH_OFF) request.l2_prefetch_passes = l2_mask;
    /* FFTGEN_SPLIT_COLUMNS: "1" splits the columns of 2D and 3D shapes in two passes, "0" keeps the
     * planner's passes, to measure, as fftgen's --split-columns */
    const char *split = getenv("FFTGEN_SPLIT_COLUMNS");
    if (split != NULL && rank > 1 && (strcmp(split, "0") == 0 || strcmp(split, "1") == 0))
        request.split_columns = split[0] == '1';
    return request;
}

fftgen_result fftgen_plan_many(fftgen_plan *plan, int rank, const long long *n, const long long *inembed,
                               long long istride, long long idist, const long long *onembed, long long ostride,
                               long long odist, fftgen_precision precision, long long batch, unsigned flags)
{
    return fftgen_plan_many_with_choice(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, precision,
                                        batch, flags, NULL);
}

static fftgen_result create_plan(fftgen_plan *plan, int rank, const long long *n, const long long *inembed,
                                 long long istride, long long idist, const long long *onembed, long long ostride,
                                 long long odist, fftgen_precision precision, long long batch, unsigned flags,
                                 const fftgen_choice *choice)
{
    if (plan == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "plan is NULL");
    *plan = NULL;
    if (rank < 1 || rank > 3) return fftgen_detail(FFTGEN_INVALID_RANK, "rank %d: expected 1, 2 or 3", rank);
    if (n == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "n (the sizes) is NULL");
    long long points = 1;
    for (int i = 0; i < rank; ++i) {
        if (!is_power_of_two(n[i]))
            return fftgen_detail(FFTGEN_INVALID_SIZE, "n[%d] = %lld is not a power of two >= 2", i, n[i]);
        if (n[i] > (1LL << 30) || points * n[i] > (1LL << 30))
            return fftgen_detail(FFTGEN_SIZE_TOO_LARGE, "more than 2^30 points a transform (n[%d] = %lld)", i, n[i]);
        points *= n[i];
    }
    if (batch < 1) return fftgen_detail(FFTGEN_INVALID_BATCH, "batch %lld: expected 1 or more", batch);
    if (precision != FFTGEN_FP32 && precision != FFTGEN_FP16 && precision != FFTGEN_SPLIT &&
        precision != FFTGEN_SPLIT_PAPERS)
        return fftgen_detail(FFTGEN_INVALID_PRECISION, "precision %d is none of fftgen_precision's", (int)precision);
    const int split = precision == FFTGEN_SPLIT || precision == FFTGEN_SPLIT_PAPERS;
    if (split && rank == 1 && n[0] < 16)
        return fftgen_detail(FFTGEN_NOT_SUPPORTED_YET,
                             "the split precisions need at least 16 points (their radix-16 stages run on tensor "
                             "cores), not %lld",
                             n[0]);
    const unsigned known = FFTGEN_SCALE_INVERSE | FFTGEN_NO_JIT | FFTGEN_TENSOR_CORES | FFTGEN_PLANNER_DEFAULTS |
                           FFTGEN_FP16_INTERMEDIATES;
    if (flags & ~known) return fftgen_detail(FFTGEN_INVALID_FLAGS, "unknown flag bits 0x%x", flags & ~known);
    if ((flags & FFTGEN_FP16_INTERMEDIATES) && precision != FFTGEN_FP16)
        return fftgen_detail(FFTGEN_INVALID_FLAGS, "FFTGEN_FP16_INTERMEDIATES applies to FFTGEN_FP16 plans only");
    const int tensor_cores = (flags & FFTGEN_TENSOR_CORES) != 0;
    /* tensor cores take fp16 operands: fp16 storage, or the split precisions' hi + lo (fftgen.h) */
    if (tensor_cores && !split && precision != FFTGEN_FP16)
        return fftgen_detail(FFTGEN_NOT_SUPPORTED_YET, "FFTGEN_TENSOR_CORES takes fp16 operands: FFTGEN_FP16, or a "
                                                       "split precision for fp32 data");
    fftgen_result result = check_layout("input", rank, n, inembed, istride, idist, batch, 1);
    if (result == FFTGEN_SUCCESS) result = check_layout("output", rank, n, onembed, ostride, odist, batch, 0);
    if (result != FFTGEN_SUCCESS) return result;
    if (batch > INT32_MAX) return fftgen_detail(FFTGEN_INVALID_BATCH, "batch %lld: above 2^31 - 1", batch);

    int device, arch;
    size_t memory;
    result = fftgen_current_device(&device, &arch, &memory);
    if (result != FFTGEN_SUCCESS) return result;
    if (fftgen_arch_shared_limit(arch) < 0)
        return fftgen_detail(FFTGEN_UNSUPPORTED_DEVICE, "sm_%d: fftgen plans for sm_75 to sm_120", arch);
    if ((tensor_cores || split) && arch < 80)
        return fftgen_detail(FFTGEN_UNSUPPORTED_DEVICE, "tensor-core kernels need sm_80 or newer, not sm_%d", arch);
    static const fftgen_kernel_precision KERNEL_PRECISIONS[] = {FFTGEN_KERNEL_FP32, FFTGEN_KERNEL_FP16,
                                                                FFTGEN_KERNEL_SPLIT, FFTGEN_KERNEL_SPLIT_PAPERS};
    const fftgen_kernel_precision kernel_precision = KERNEL_PRECISIONS[precision];
    const size_t element = precision == FFTGEN_FP16 ? 4 : 8;
    if ((double)points * (double)batch * (double)element > (double)memory)
        return fftgen_detail(FFTGEN_SIZE_TOO_LARGE, "%.2f GB of data; the device has %.2f GB",
                             (double)points * (double)batch * (double)element / 1e9, (double)memory / 1e9);

    struct fftgen_plan_s *p = calloc(1, sizeof *p);
    if (p == NULL) return FFTGEN_OUT_OF_MEMORY;
    char why[4096] = "";
    const fftgen_tile_caps tile_override = max_tile_override(); /* read once: the fallback below uses it too */
    const fftgen_kernel_request request =
        planner_request(points, batch, rank, n, kernel_precision, device, arch, flags, choice, &tile_override);
    const fftgen_user_layout in = user_layout(rank, inembed, istride, idist, points);
    const fftgen_user_layout out = user_layout(rank, onembed, ostride, odist, points);
    fftgen_plan_status planned = fftgen_plan_shape(&request, rank, n, in, out, &p->transform, why, sizeof why);
    if (planned != FFTGEN_PLAN_OK && choice == NULL) {
        /* a measured choice that does not fit this layout, or not FFTGEN_TENSOR_CORES (a radix-32
         * kernel has no radix-16 stage): the planner's own plan instead, with what the flags ask.
         * Whatever the choice holds; where it held nothing, this plan fails as the first did. The order
         * FFTGEN_ORDER asks for stays: a choice's passes, numbered in its own order, may not fit the
         * other one. */
        const int order = order_override(rank);
        const fftgen_kernel_request plain = {points, 0, kernel_precision, arch,
                                             tensor_cores ? FFTGEN_EVERY_PASS : 0, tile_override, 0,
                                             request.intermediate, order > 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        planned = fftgen_plan_shape(&plain, rank, n, in, out, &p->transform, why, sizeof why);
    }
    if (planned != FFTGEN_PLAN_OK) {
        free(p);
        /* 1D: more than three passes' worth; 2D and 3D: a dimension larger than one kernel;
         * tensor cores: a plan with no pass that can take them */
        return fftgen_detail(rank == 1 && !tensor_cores && choice == NULL ? FFTGEN_SIZE_TOO_LARGE
                                                                           : FFTGEN_NOT_SUPPORTED_YET,
                             "no plan: %s", why);
    }
    /* one launch per pass covers the batch: each grid must fit */
    for (int i = 0; i < p->transform.pass_count; ++i) {
        const fftgen_kernel_plan *pass = &p->transform.pass[i];
        p->ffts[i] = batch * fftgen_pass_ffts(pass, points);
        int sms = 0;
        if (pass->prefetch > 1 && (result = fftgen_device_sm_count(device, &sms)) != FFTGEN_SUCCESS) {
            free(p);
            return result;
        }
        const long long grid = fftgen_pass_blocks(pass, p->ffts[i], sms);
        if (p->ffts[i] > INT32_MAX || grid > INT32_MAX) {
            const long long ffts = p->ffts[i];
            free(p);
            return fftgen_detail(FFTGEN_INVALID_BATCH,
                                 "batch %lld: pass %d would launch %lld transforms in %lld blocks, above 2^31 - 1",
                                 batch, i + 1, ffts, grid);
        }
        p->grid[i] = (unsigned)grid;
    }

    const fftgen_render_request render = {&p->transform, FFTGEN_TARGET_CUDA, FFTGEN_RENDER_BOTH, NULL, NULL};
    fftgen_cubin cubin;
    result = fftgen_cache_get_rendered(&render, arch, !(flags & FFTGEN_NO_JIT), &cubin, why, sizeof why);
    if (result == FFTGEN_GENERATOR_FAILED) {
        free(p);
        return fftgen_detail(FFTGEN_GENERATOR_FAILED, "%s", why);
    }
    char prefix[128];
    fftgen_default_name(&p->transform, prefix, sizeof prefix);
    if (result == FFTGEN_NVRTC_FAILED)
        fftgen_detail(result, "NVRTC failed to compile %s for sm_%d: %s", prefix, arch, why);
    else if (result == FFTGEN_JIT_DISABLED)
        fftgen_detail(result, "FFTGEN_NO_JIT, and no loaded kernel pack holds %s for sm_%d (fftgen pack writes one)",
                      prefix, arch);
    if (result == FFTGEN_SUCCESS) {
        char names[2 * FFTGEN_MAX_PASSES][192];
        const char *name_list[2 * FFTGEN_MAX_PASSES];
        int shared[2 * FFTGEN_MAX_PASSES];
        const int passes = p->transform.pass_count;
        for (int i = 0; i < passes; ++i)
            for (int d = 0; d < 2; ++d) {
                char pass_part[16] = "";
                if (passes > 1) snprintf(pass_part, sizeof pass_part, "_pass%d", i + 1);
                snprintf(names[2 * i + d], sizeof names[0], "%s%s_%s", prefix, pass_part, d ? "inverse" : "forward");
                name_list[2 * i + d] = names[2 * i + d];
                shared[2 * i + d] = p->transform.pass[i].shared_bytes;
            }
        result = fftgen_module_load(&cubin, 2 * passes, name_list, shared, device, &p->module);
        if (result == FFTGEN_SUCCESS && (result = size_tma_grids(p, device)) != FFTGEN_SUCCESS)
            (void)fftgen_module_unload(&p->module); /* the failure above is the one reported */
    }
    if (result == FFTGEN_SUCCESS && fftgen_plan_needs_work(&p->transform)) {
        /* 1D passes (and long 2D/3D rows and columns, and 2D shapes with the columns first) go through a
         * work area as large as the data */
        p->work_bytes = (size_t)points * (size_t)batch * element;
        const cudaError_t status = cudaMalloc(&p->work_area, p->work_bytes);
        if (status != cudaSuccess) {
            (void)fftgen_module_unload(&p->module); /* the allocation's failure is the one reported */
            char call[64];
            snprintf(call, sizeof call, "cudaMalloc(%zu bytes) for the work area", p->work_bytes);
            result = fftgen_cuda_failed(call, status);
        }
        p->owns_work_area = 1;
    }
    if (result != FFTGEN_SUCCESS) {
        free(p);
        return result;
    }
    int pageable = 0;
    if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device) != cudaSuccess) {
        (void)cudaGetLastError();
        pageable = 0;
    }
    p->reads_pageable = pageable;
    p->device = device;
    p->in_bytes = fftgen_layout_bytes(&p->transform.in, rank, p->transform.shape, batch, element);
    p->out_bytes = fftgen_layout_bytes(&p->transform.out, rank, p->transform.shape, batch, element);
    p->magic = PLAN_MAGIC;
    p->batch = batch;
    p->precision = precision;
    p->flags = flags;
    *plan = p;
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_plan_many_with_choice(fftgen_plan *plan, int rank, const long long *n, const long long *inembed,
                                           long long istride, long long idist, const long long *onembed,
                                           long long ostride, long long odist, fftgen_precision precision,
                                           long long batch, unsigned flags, const fftgen_choice *choice)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(create_plan(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, precision,
                                            batch, flags, choice));
}

fftgen_result fftgen_plan_1d(fftgen_plan *plan, long long n, fftgen_precision precision, long long batch,
                             unsigned flags)
{
    return fftgen_plan_many(plan, 1, &n, NULL, 1, n, NULL, 1, n, precision, batch, flags);
}

fftgen_result fftgen_plan_2d(fftgen_plan *plan, long long n0, long long n1, fftgen_precision precision,
                             long long batch, unsigned flags)
{
    const long long n[2] = {n0, n1};
    return fftgen_plan_many(plan, 2, n, NULL, 1, 0, NULL, 1, 0, precision, batch, flags);
}

fftgen_result fftgen_plan_3d(fftgen_plan *plan, long long n0, long long n1, long long n2, fftgen_precision precision,
                             long long batch, unsigned flags)
{
    const long long n[3] = {n0, n1, n2};
    return fftgen_plan_many(plan, 3, n, NULL, 1, 0, NULL, 1, 0, precision, batch, flags);
}

static int is_live(fftgen_plan plan)
{
    return plan != NULL && plan->magic == PLAN_MAGIC;
}

static fftgen_result work_size(fftgen_plan plan, size_t *bytes)
{
    if (!is_live(plan)) return FFTGEN_INVALID_PLAN;
    if (bytes == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "bytes is NULL");
    *bytes = plan->work_bytes;
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_get_work_size(fftgen_plan plan, size_t *bytes)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(work_size(plan, bytes));
}

/* A buffer is checked once: the same pointer on the plan's next calls passes as it did (a buffer
 * freed and allocated again smaller at the same address is not caught). */
static fftgen_result check_once(const struct fftgen_plan_s *plan, const char *name, const void *p, size_t bytes,
                                const void **checked)
{
    if (p == *checked) return FFTGEN_SUCCESS;
    const fftgen_result result = fftgen_check_buffer(name, p, bytes, plan->reads_pageable);
    if (result == FFTGEN_SUCCESS) *checked = p;
    return result;
}

static fftgen_result take_work_area(fftgen_plan plan, void *work_area)
{
    if (!is_live(plan)) return FFTGEN_INVALID_PLAN;
    if (plan->work_bytes == 0) return FFTGEN_SUCCESS; /* nothing to do with it */
    if (work_area == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "work_area is NULL");
    /* 16 bytes: a pass that prefetches its tiles copies them 16 bytes at a time (cudaMalloc's are 256) */
    if ((uintptr_t)work_area % 16 != 0)
        return fftgen_detail(FFTGEN_MISALIGNED_POINTER, "work_area %p is not 16-byte aligned", work_area);
    const fftgen_result checked = fftgen_check_buffer("work_area", work_area, plan->work_bytes, plan->reads_pageable);
    if (checked != FFTGEN_SUCCESS) return checked;
    if (plan->owns_work_area) {
        const cudaError_t status = cudaFree(plan->work_area);
        if (status != cudaSuccess) return fftgen_cuda_failed("cudaFree of the plan's own work area", status);
    }
    plan->owns_work_area = 0;
    plan->work_area = work_area;
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_set_work_area(fftgen_plan plan, void *work_area)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(take_work_area(plan, work_area));
}

fftgen_result fftgen_set_stream(fftgen_plan plan, cudaStream_t stream)
{
    fftgen_detail_clear();
    if (!is_live(plan)) return fftgen_detail_finish(FFTGEN_INVALID_PLAN);
    plan->stream = stream;
    return FFTGEN_SUCCESS;
}

static fftgen_result execute(fftgen_plan plan, const void *in, void *out, fftgen_direction direction)
{
    if (!is_live(plan)) return FFTGEN_INVALID_PLAN;
    if (in == NULL || out == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "%s is NULL", in == NULL ? "in" : "out");
    const uintptr_t alignment = plan->precision == FFTGEN_FP16 ? 4 : 8;
    if ((uintptr_t)in % alignment != 0 || (uintptr_t)out % alignment != 0)
        return fftgen_detail(FFTGEN_MISALIGNED_POINTER, "%s %p is not aligned to one %s (%d bytes)",
                             (uintptr_t)in % alignment != 0 ? "in" : "out", (uintptr_t)in % alignment != 0 ? in : out,
                             alignment == 4 ? "__half2" : "float2", (int)alignment);
    if (direction != FFTGEN_FORWARD && direction != FFTGEN_INVERSE)
        return fftgen_detail(FFTGEN_INVALID_DIRECTION,
                             "direction %d: expected FFTGEN_FORWARD (-1) or FFTGEN_INVERSE (1)", (int)direction);
    /* launched now, the kernels would run on the current device against the plan's device's buffers
     * (and its work area), which that device need not be able to read */
    int current;
    const cudaError_t got = cudaGetDevice(&current);
    if (got != cudaSuccess) return fftgen_cuda_failed("cudaGetDevice", got);
    if (current != plan->device)
        return fftgen_detail(FFTGEN_WRONG_DEVICE, "the plan was made on device %d and device %d is current: "
                             "cudaSetDevice(%d) before fftgen_exec", plan->device, current, plan->device);
    fftgen_result checked = check_once(plan, "in", in, plan->in_bytes, &plan->checked_in);
    if (checked == FFTGEN_SUCCESS) checked = check_once(plan, "out", out, plan->out_bytes, &plan->checked_out);
    if (checked != FFTGEN_SUCCESS) return checked;
    const int inverse = direction == FFTGEN_INVERSE;
    const int passes = plan->transform.pass_count;
    /* a pass from the input to the output reads and writes tile by tile: in place, the two layouts
     * must be the same */
    const int rank = plan->transform.rank;
    const int input_to_output = plan->transform.pass[0].target == FFTGEN_BUFFER_OUTPUT;
    if (in == out && input_to_output && !same_layout(&plan->transform.in, &plan->transform.out, rank))
        return fftgen_detail(FFTGEN_OVERLAPPING_LAYOUT,
                             "in place (in == out) needs the same input and output layouts in this plan");
    const float scale = inverse && (plan->flags & FFTGEN_SCALE_INVERSE) ? (float)(1.0 / (double)plan->transform.n)
                                                                         : 1.0f;
    for (int i = 0; i < passes; ++i) {
        const fftgen_kernel_plan *pass = &plan->transform.pass[i];
        const void *const sources[] = {in, out, plan->work_area};
        void *const targets[] = {NULL, out, plan->work_area}; /* no pass writes the input */
        const void *src = sources[pass->source];
        void *dst = targets[pass->target];
        fftgen_tensor_map map;
        if (pass->tma_columns) {
            const fftgen_result encoded = fftgen_encode_column_tiles(pass, src, plan->ffts[i], &map);
            if (encoded != FFTGEN_SUCCESS) return encoded;
        }
        const fftgen_result result =
            fftgen_module_launch(plan->module.kernel[2 * i + inverse], plan->grid[i], (unsigned)pass->threads,
                                 (unsigned)pass->shared_bytes, plan->stream, src, dst, (int)plan->ffts[i],
                                 i == passes - 1 ? scale : 1.0f, pass->tma_columns ? &map : NULL);
        if (result != FFTGEN_SUCCESS) return result;
    }
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_exec(fftgen_plan plan, const void *in, void *out, fftgen_direction direction)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(execute(plan, in, out, direction));
}

fftgen_result fftgen_destroy(fftgen_plan plan)
{
    fftgen_detail_clear();
    if (plan == NULL) return FFTGEN_SUCCESS;
    if (!is_live(plan)) return fftgen_detail_finish(FFTGEN_INVALID_PLAN);
    /* the plan is gone whatever fails: a failure is reported, and nothing is left to release twice */
    const cudaError_t unloaded = fftgen_module_unload(&plan->module);
    const cudaError_t freed = plan->owns_work_area ? cudaFree(plan->work_area) : cudaSuccess;
    plan->magic = 0;
    free(plan);
    fftgen_result result = FFTGEN_SUCCESS;
    if (unloaded != cudaSuccess)
        result = fftgen_cuda_failed("cudaLibraryUnload (the plan's kernels)", unloaded);
    else if (freed != cudaSuccess)
        result = fftgen_cuda_failed("cudaFree of the plan's own work area", freed);
    return fftgen_detail_finish(result);
}

const fftgen_transform_plan *fftgen_plan_layout(fftgen_plan plan)
{
    return is_live(plan) ? &plan->transform : NULL;
}

static fftgen_result load_wisdom(const char *path)
{
    if (path == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "path is NULL");
    int device, arch;
    size_t memory;
    const fftgen_result found = fftgen_current_device(&device, &arch, &memory);
    if (found != FFTGEN_SUCCESS) return found;
    fftgen_wisdom_load_defaults(); /* so that the default file does not come later, over this one */
    char why[512] = "";
    const fftgen_result added = fftgen_wisdom_add_file(path, why, sizeof why);
    if (added != FFTGEN_SUCCESS && why[0] != '\0') return fftgen_detail(added, "%s", why);
    return added;
}

fftgen_result fftgen_load_wisdom(const char *path)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(load_wisdom(path));
}

static fftgen_result load_pack(const char *path)
{
    if (path == NULL) return fftgen_detail(FFTGEN_NULL_POINTER, "path is NULL");
    int device, arch = 0;
    size_t memory;
    const fftgen_result found = fftgen_current_device(&device, &arch, &memory);
    if (found == FFTGEN_NO_DEVICE) arch = 0; /* no device to match: check everything else */
    else if (found != FFTGEN_SUCCESS) return found;
    fftgen_pack_load_defaults(); /* so that the defaults do not come later, ahead of this pack */
    errno = 0;
    const fftgen_result added = fftgen_pack_add_file(path, arch);
    /* unreadable: the errno of the failed open or read (closing a file read from leaves it) */
    if (added == FFTGEN_PACK_UNREADABLE)
        return fftgen_detail(added, "%s: %s", path, errno != 0 ? strerror(errno) : "cannot be read");
    if (added == FFTGEN_PACK_WRONG_ARCH) return fftgen_detail(added, "%s: no kernel for sm_%d", path, arch);
    if (added != FFTGEN_SUCCESS) return fftgen_detail(added, "%s: %s", path, fftgen_result_string(added));
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_load_pack(const char *path)
{
    fftgen_detail_clear();
    return fftgen_detail_finish(load_pack(path));
}
