/* Choices placed on a plan once the planner has split it into passes (plan_choices.h). Where a choice
 * is one measurements make (fftgen tune, the shipped table), its comment gives the measurements. */
#include "plan_choices.h"

#include <stdio.h>

/* Whether a pass can run its radix-16 stages on tensor cores: a warp's 32 butterflies make four
 * m16n8k16 products, so the block's threads fill whole warps. */
int fftgen_tensor_cores_fit(const fftgen_kernel_plan *p)
{
    return p->radix_max == 16 && p->threads % 32 == 0 && p->slice_rows == 0 && p->cluster < 2;
}

/* Radix-16 stages on tensor cores. Untiled, every stage then runs between shared-memory buffers
 * (staged I/O); tiled, the copies in and out go through shared memory too, where the tensor-core
 * stages read and write. */
fftgen_plan_status fftgen_move_to_tensor_cores(fftgen_kernel_plan *p)
{
    p->tensor_cores = 1;
    if (p->tiled) {
        p->column_registers = 0;
        return FFTGEN_PLAN_OK;
    }
    p->staged_io = 1;
    const long long points = (long long)p->ffts_per_block * p->n;
    p->smem_points = (int)(points + points / 16);
    p->shared_bytes = 8 * p->smem_points;
    return p->shared_bytes > fftgen_arch_shared_limit(p->arch) ? FFTGEN_PLAN_TOO_LARGE : FFTGEN_PLAN_OK;
}

static fftgen_plan_status check_tensor_core_arch(int arch, char *why, size_t why_len)
{
    if (arch >= 80) return FFTGEN_PLAN_OK;
    snprintf(why, why_len, "tensor-core kernels (mma.sync m16n8k16) need sm_80 or newer, not sm_%d", arch);
    return FFTGEN_PLAN_BAD_ARCH;
}

/* A single kernel's radix-16 stages on tensor cores (fftgen_plan_kernel): fp16 storage, sm_80 and newer. */
fftgen_plan_status fftgen_use_tensor_cores(fftgen_kernel_plan *p, char *why, size_t why_len)
{
    if (fftgen_precision_is_split(p->precision)) return FFTGEN_PLAN_OK; /* split plans use them anyway */
    if (!fftgen_tensor_cores_fit(p)) {
        snprintf(why, why_len, "tensor cores run radix-16 stages: they need radix 16 and at least 16 points");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return fftgen_move_to_tensor_cores(p);
}

/* What a request for tensor cores needs (split plans use them whether asked or not). */
fftgen_plan_status fftgen_check_tensor_core_request(const fftgen_kernel_request *request, char *why, size_t why_len)
{
    if (request->tensor_cores == 0 || fftgen_precision_is_split(request->precision)) return FFTGEN_PLAN_OK;
    if (request->precision != FFTGEN_KERNEL_FP16) {
        snprintf(why, why_len, "tensor cores take fp16 operands: use --precision fp16, or --precision split for"
                               " fp32 data");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return check_tensor_core_arch(request->arch, why, why_len);
}

/* Radix-16 stages on tensor cores in the passes the request names (fp16), or in every pass (split),
 * where they fit: a pass of fewer than 16 points (a short dimension of a 2D or 3D shape) or a fused
 * slice has none, and stays on CUDA cores. */
fftgen_plan_status fftgen_place_on_tensor_cores(const fftgen_kernel_request *request, fftgen_transform_plan *plan)
{
    const unsigned passes = fftgen_precision_is_split(request->precision) ? FFTGEN_EVERY_PASS
                                                                           : (unsigned)request->tensor_cores;
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        if (!(passes >> i & 1u) || pass->tensor_cores || !fftgen_tensor_cores_fit(pass)) continue;
        const fftgen_plan_status status = fftgen_move_to_tensor_cores(pass);
        if (status != FFTGEN_PLAN_OK) return status;
    }
    return FFTGEN_PLAN_OK;
}

/* A request for tensor cores that no pass could take is an error, not a silent CUDA-core plan. */
fftgen_plan_status fftgen_check_tensor_cores_placed(const fftgen_kernel_request *request,
                                                    const fftgen_transform_plan *plan, char *why, size_t why_len)
{
    if (request->tensor_cores == 0) return FFTGEN_PLAN_OK;
    for (int i = 0; i < plan->pass_count; ++i)
        if (plan->pass[i].tensor_cores) return FFTGEN_PLAN_OK;
    snprintf(why, why_len, "no pass of this plan has radix-16 stages that tensor cores can run (they need 16"
                           " points or more in a dimension, and no fused 2D slice)");
    return FFTGEN_PLAN_BAD_RADIX;
}

/* Whether a request's pass mask (`option`, as messages name it) names only passes the plan has;
 * FFTGEN_EVERY_PASS names them all. */
static fftgen_plan_status check_passes_exist(int mask, const fftgen_transform_plan *plan, const char *option,
                                             char *why, size_t why_len)
{
    if (mask == FFTGEN_EVERY_PASS || mask >> plan->pass_count == 0) return FFTGEN_PLAN_OK;
    int highest = plan->pass_count; /* the last pass named, which the plan lacks */
    while (mask >> highest != 0) ++highest;
    snprintf(why, why_len, "%s: pass %d named, but the plan has %d pass%s", option, highest, plan->pass_count,
             plan->pass_count > 1 ? "es" : "");
    return FFTGEN_PLAN_BAD_RADIX;
}

/* A choice a request makes pass by pass: a mask of passes, or FFTGEN_EVERY_PASS for every pass that can
 * take it. */
struct pass_choice {
    const char *name;                                        /* as messages name it */
    int (*can)(const fftgen_kernel_plan *pass);              /* whether a pass can take it */
    void (*take)(fftgen_kernel_plan *pass);
    const char *(*why_not)(const fftgen_kernel_plan *pass); /* why a pass cannot */
    const char *none;                                        /* why no pass of this plan can */
};

/* Places `choice` in the passes `asked` names, recording them in `*placed`: an error where a pass named
 * by number cannot take it, or where no pass took it. */
static fftgen_plan_status place_in_passes(int asked, const struct pass_choice *choice, fftgen_transform_plan *plan,
                                          int *placed, char *why, size_t why_len)
{
    if (asked == 0) return FFTGEN_PLAN_OK;
    const fftgen_plan_status named = check_passes_exist(asked, plan, choice->name, why, why_len);
    if (named != FFTGEN_PLAN_OK) return named;
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        if (!(asked >> i & 1)) continue;
        if (choice->can(pass)) {
            choice->take(pass);
            *placed |= 1 << i;
        } else if (asked != FFTGEN_EVERY_PASS) {
            snprintf(why, why_len, "%s: pass %d %s", choice->name, i + 1, choice->why_not(pass));
            return FFTGEN_PLAN_BAD_RADIX;
        }
    }
    if (*placed != 0) return FFTGEN_PLAN_OK;
    snprintf(why, why_len, "%s: %s", choice->name, choice->none);
    return FFTGEN_PLAN_BAD_RADIX;
}

/* Computed stage twiddles in the passes the request names (fftgen_kernel_plan.computed_twiddles). The
 * loads they replace are a table row per power of two and butterfly; at 8192 and 16384 points those rows
 * are 8 KB each, and the kernels measured faster without them on an H200 (fftgen-kernel-ab, 2^27 points:
 * fp16 16384 radix 32 45-54% -> 58% of copy, 8192 radix 32 62-70% -> 69-74%), while 512 to 2048 lost
 * 1-2%: a measured choice. A pass can take it on CUDA cores with two stages or more, and so can a fused
 * slice in one block whose rows or columns have two (its tables are short, but every load is an
 * instruction of the load/store pipe that fp16 slices wait on). */
static void compute_twiddles(fftgen_kernel_plan *pass)
{
    pass->twiddle_powers = pass->computed_twiddles = 1;
}

static const char *why_no_computed_twiddles(const fftgen_kernel_plan *pass)
{
    if (pass->tensor_cores) return "runs on tensor cores, whose stages keep their tables";
    if (pass->slice_rows > 0 && pass->cluster > 1) return "is a slice on a cluster, whose stages keep their tables";
    if (pass->slice_rows > 0) return "is a slice whose rows and columns have one stage each, with no twiddles";
    return "has one stage, with no twiddles";
}

static fftgen_plan_status place_computed_twiddles(const fftgen_kernel_request *request,
                                                  fftgen_transform_plan *plan, char *why, size_t why_len)
{
    static const struct pass_choice computed_twiddles = {
        "computed twiddles", fftgen_can_compute_twiddles, compute_twiddles, why_no_computed_twiddles,
        "this plan has no stage twiddles to compute (they need two stages or more on CUDA cores, in a pass or in a"
        " one-block slice's rows or columns)"};
    if (request->computed_twiddle_passes != 0 && request->precision != FFTGEN_KERNEL_FP16) {
        snprintf(why, why_len, "computed twiddles are an fp16 choice (their error, about 4e-7, is far below fp16's"
                               " rounding, not fp32's)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return place_in_passes(request->computed_twiddle_passes, &computed_twiddles, plan,
                           &plan->computed_twiddle_passes, why, why_len);
}

/* Which passes derive their twiddles from the first (fftgen_kernel_plan.twiddle_powers; measured when
 * they were still products of powers of two, before Chebyshev's recurrence made them cheaper): fp16
 * one-kernel transforms and slices always (H100, 2^27 points: 4096 97.6% -> 99.8% of copy bandwidth,
 * 8192 86.2% -> 88.8%, 16384 70.3% -> 72.7%, none slower); tiled passes where the request names them,
 * since there they measured faster in some passes and slower in others (2^22 4% faster with them in
 * its first pass, 2^27 3% slower; results/notes.md). Then the passes that compute them
 * (place_computed_twiddles), which take the powers too. */
fftgen_plan_status fftgen_place_twiddle_powers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                               char *why, size_t why_len)
{
    const int fp16 = request->precision == FFTGEN_KERNEL_FP16;
    if (request->twiddle_powers != 0 && !fp16) {
        snprintf(why, why_len, "twiddles derived from the first are an fp16 choice (fp32 kernels wait on memory"
                               " and keep their loads)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    const fftgen_plan_status named = check_passes_exist(request->twiddle_powers, plan, "twiddle powers", why, why_len);
    if (named != FFTGEN_PLAN_OK) return named;
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        pass->twiddle_powers = fp16 && (!pass->tiled || (request->twiddle_powers >> i & 1));
    }
    return place_computed_twiddles(request, plan, why, why_len);
}

/* Bytes of a point in global memory. */
static int point_bytes(const fftgen_kernel_plan *pass)
{
    return pass->precision == FFTGEN_KERNEL_FP16 ? 4 : 8;
}

/* Points between a prefetching slice's rows in its staging buffer (fftgen_kernel_plan.staged_row_points).
 * A warp reads 32 / THREADS_PER_FFT rows at once, each lane every THREADS_PER_FFT-th point of its row:
 * rows of a multiple of 128 bytes end to end put them on the same banks (4-way conflicts for fp16
 * 128x128), a pad of THREADS_PER_FFT points on banks of their own. The pad also holds the 16 bytes
 * more that a row's copies take from an input off a 16-byte boundary. */
static int staged_row_points(const fftgen_kernel_plan *pass)
{
    const int bytes = point_bytes(pass);
    const int columns = pass->n / pass->slice_rows, row_threads = columns / pass->radix_max;
    const int pad = row_threads < 32 && row_threads * bytes >= 16 ? row_threads : 16 / bytes;
    return columns + pad;
}

/* Bytes of a prefetching kernel's staging buffer: one transform's input, and 16 bytes for a bulk copy
 * that starts at the 16-byte boundary below an input that is only point-aligned; a slice's rows padded
 * apart. */
static int staging_bytes(const fftgen_kernel_plan *pass)
{
    if (pass->slice_rows > 0) return pass->slice_rows * staged_row_points(pass) * point_bytes(pass);
    return pass->n * point_bytes(pass) + 16;
}

/* Bytes of a tile's input in a prefetching tiled pass's staging buffer (prefetches_tiles). */
static int tile_staging_bytes(const fftgen_kernel_plan *pass)
{
    return pass->ffts_per_block * pass->n * (pass->precision == FFTGEN_KERNEL_FP16 ? 4 : 8);
}

/* Whether a tiled pass can run its tiles in turn, each block's threads copying the next tile's input
 * into shared memory (cp.async, 16 bytes each) while they compute the current one: fp16 rows read in
 * runs straight into registers (a four-step pass 2 reading pass 1's blocks), each run whole 16-byte
 * pieces, the tile's runs side by side (so a run of every transform is one contiguous piece), every address
 * 16-byte aligned where the work area is, and room for the tile in shared memory. At 2^21 and 2^22
 * such a pass is 1024 threads of 139 KB: one block an SM, whose loads nothing else hides. H200, fp16 2^22 (2048 x
 * 2048), pass 2 alone: 0.4249 -> 0.3625 ms; its pass 1 (two blocks an SM, columns) lost with a
 * prefetch (0.5166 -> 0.5806), so columns keep their loads; so did column passes copying their tiles
 * ahead a row at a time, in every plan tried (H200, fp16 2^20 to 2^23, fp32 2^22: 5-30% slower, with or
 * without the L2 prefetch; results/notes.md, 2026-11-27). */
static int prefetches_tiles(const fftgen_kernel_plan *pass, int arch)
{
    const fftgen_layout *in = &pass->in;
    /* (rows loaded with the lanes along their runs have no copy ahead: fftgen_reads_runs_across_lanes) */
    return pass->tiled && pass->precision == FFTGEN_KERNEL_FP16 && fftgen_loads_to_registers(pass) &&
           !fftgen_reads_runs_across_lanes(pass) && in->run_points % 4 == 0 && in->fft_stride == in->run_points &&
           in->run_stride % 4 == 0 &&
           in->group_stride % 4 == 0 && in->batch_stride % 4 == 0 && pass->source == FFTGEN_BUFFER_WORK &&
           pass->cluster < 2 && !pass->tensor_cores &&
           pass->shared_bytes + tile_staging_bytes(pass) <= fftgen_arch_shared_limit(arch);
}

/* A 1D plan of several passes: the request's prefetch on every pass that can take it (prefetches_tiles),
 * else an error that says why. */
static fftgen_plan_status place_tile_prefetch(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                              char *why, size_t why_len)
{
    int placed = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        if (!prefetches_tiles(pass, request->arch)) continue;
        pass->prefetch = request->prefetch;
        pass->shared_bytes += tile_staging_bytes(pass);
        placed = 1;
    }
    if (placed) return FFTGEN_PLAN_OK;
    snprintf(why, why_len, "prefetch %d: a 1D size of several passes takes it only in fp16 passes that read rows in"
             " runs of 16 bytes or more straight into registers (a four-step pass 2 after tiles of 4 or 8 columns);"
             " this plan has none", request->prefetch);
    return FFTGEN_PLAN_BAD_RADIX;
}

/* The request's prefetch (fftgen_kernel_plan.prefetch), on the pass that reads the input: a one-kernel
 * 1D transform on CUDA cores, one transform a block read straight from global memory (so two stages or
 * more: the next copy starts at the first barrier), or a 2D or 3D shape's fused slice whose rows load
 * straight into registers; and room for the staging buffer in the block's shared memory. H200, fp16
 * 16384 radix 32 (one block an SM): 59.4% -> 67.1% of copy bandwidth with 4 transforms a block, 70.0%
 * with 8; 4096 and 8192, which run several blocks an SM, slower (83.6% -> 77.8%, 79.1% -> 77.0%).
 * A slice's threads copy it themselves (cp.async, sm_80) into padded rows (staged_row_points); one bulk
 * copy left a warp's rows on the same banks, and a bulk copy per row was slower still. H200, fp16 ms
 * without -> with 4 slices a block: 64x64 0.433 -> 0.372, 64^3 0.780 -> 0.720; 256x64 0.620 -> 0.527
 * with 32. Slower: 128x128 (0.453 -> 0.453-0.475; its 1024-thread blocks issue as many instructions as
 * they can) and 16x1024. A 1D size of several passes takes it in its tiled passes that can
 * (place_tile_prefetch). So `fftgen tune` asks for it and the shipped table holds its choices. */
fftgen_plan_status fftgen_place_prefetch(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                         char *why, size_t why_len)
{
    if (request->prefetch == 0) return FFTGEN_PLAN_OK;
    /* (a 2D shape's four-step split runs its slices second) */
    fftgen_kernel_plan *pass = &plan->pass[plan->rank > 1 && plan->four_step_columns != 0 ? 1 : 0];
    const int slice = plan->rank > 1 && pass->slice_rows > 0 && !plan->columns_first;
    const int passes = plan->rank == 1 && plan->pass_count > 1;
    const char *refusal = !fftgen_prefetch_supported(request->prefetch)
                              ? "a prefetch is a power of two of transforms a block, from 2 to 64"
                          : request->arch < 80 ? "a prefetch needs sm_80 or newer (cp.async)"
                          : request->arch < 90 && !slice && !passes
                              ? "a prefetch of 1D transforms of one kernel needs sm_90 or newer (bulk copies)"
                          : passes ? NULL
                          : plan->rank > 1 && !slice
                              ? "a prefetch applies to 2D and 3D shapes only where the last two dimensions fit one"
                                " block (a fused slice)"
                          : pass->tensor_cores ? "a prefetch applies to kernels on CUDA cores, not tensor cores"
                          : pass->cluster > 1 ? "a prefetch applies to kernels of one block a transform, not clusters"
                          : slice && !fftgen_loads_to_registers(pass)
                              ? "a prefetch applies to fused slices whose rows load straight into registers (this"
                                " shape's are copied through shared memory)"
                          : slice && pass->n / pass->slice_rows * point_bytes(pass) < 16
                              ? "a prefetch copies a slice's rows in 16-byte pieces, and this shape's rows are"
                                " shorter"
                          : !slice && (pass->staged_io || pass->ffts_per_block != 1)
                              ? "a prefetch applies to kernels of one transform a block (this size's blocks hold"
                                " several)"
                          : pass->shared_bytes + staging_bytes(pass) > fftgen_arch_shared_limit(request->arch)
                              ? "the staging buffer does not fit in the block's shared memory"
                              : NULL;
    if (refusal != NULL) {
        snprintf(why, why_len, "prefetch %d: %s", request->prefetch, refusal);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (passes) return place_tile_prefetch(request, plan, why, why_len);
    pass->prefetch = request->prefetch;
    pass->shared_bytes += staging_bytes(pass);
    if (slice) {
        pass->staged_row_points = staged_row_points(pass);
        /* measured (H200, fftgen-kernel-ab, fp16, ms): 128x128 and 64x256 at 32 points a thread 0.375 -> 0.353
         * and 0.370 -> 0.351; 32x512 at 32 (no merged stage) 0.359 -> 0.362; 128x128 at 16 (1024 threads) 0.408
         * -> 0.460. In halves at the first two barriers: 64x64 (blocks that share an SM) 0.315 -> 0.322,
         * 256x64 at 16 (1024 threads) 0.499 -> 0.529. */
        pass->split_copies = pass->merged_stage && pass->threads <= 512 &&
                             2 * pass->shared_bytes > fftgen_arch_shared_limit(request->arch);
    }
    return FFTGEN_PLAN_OK;
}

/* Whether a pass's blocks read their input as contiguous runs that kernel.lua's L2 prefetch can name:
 * dense transforms (untiled), tiles of rows (dense, one run a row, or runs of every transform side by
 * side) or tiles of columns side by side (a run of the tile's width a row). */
static int reads_runs(const fftgen_kernel_plan *p)
{
    const fftgen_layout *in = &p->in;
    return !p->tiled || (in->elem_stride == 1 && in->run_points == 0) ||
           (in->elem_stride == 1 && in->fft_stride == in->run_points) || (in->elem_stride > 1 && in->fft_stride == 1);
}

/* Why a pass cannot ask L2 for its input ahead, or NULL where it can. */
static const char *why_no_l2_prefetch(const fftgen_kernel_plan *pass)
{
    if (pass->arch < 90) return "needs sm_90 or newer (bulk prefetches)";
    /* Built and measured (2026-11-29, a scratch patch: each block of a cluster asks for its share of the
     * cluster's tile ahead): no faster on the H200 at any distance from 1 to 32 MB. fp32 4096x4096 at 2 MB
     * read -1.2% in one run and +1.8% in another; fp16 4096x4096 and fp32 8192x8192 were 3-11% slower.
     * These columns already ask L2 for the 256 bytes around each point (results/notes.md). */
    if (pass->cluster > 1 && pass->tiled) return "runs its tiles on thread-block clusters";
    if (pass->tensor_cores || fftgen_precision_is_split(pass->precision)) return "runs on tensor cores";
    if (pass->prefetch > 1) return "copies its next transform (tile) into shared memory itself (--prefetch)";
    if (!pass->tiled && pass->staged_io && pass->slice_rows == 0 && pass->cluster <= 1)
        return "copies its input through shared memory";
    if (!reads_runs(pass)) return "reads its tiles in no runs side by side";
    return NULL;
}

int fftgen_can_l2_prefetch(const fftgen_kernel_plan *p)
{
    return why_no_l2_prefetch(p) == NULL;
}

/* The planner gives the L2 prefetch by default to 1D transforms of one kernel off clusters, and to the
 * passes that transform whole 2D slices (in one block or on a cluster). In the other passes of larger
 * sizes and of 2D and 3D shapes it measured faster in some plans and slower in others
 * (fftgen-kernel-ab, H200, all passes that read runs of 64 bytes or more, 1 MB ahead: fp16 2^27 -5.4%,
 * 4096x4096 -2.6%, fp32 2^22 -4.1%, but fp16 512x512 +4.9%, from its columns' pass; a bulk prefetch a
 * run lost everywhere, fp16 256^3 +12%), so there it is a measured choice, pass by pass. The slices
 * gained at every shape measured (H200, 1 MB ahead: fp16 32x32 -12%, 64x64 -3.8%, 128x128 -0.7%; fp32
 * 128x128 -6.2%, 64x256 -8.4%, 2048x2 -7.3%, 256x256 on clusters of 8 -3.5%; the slice pass of fp32
 * 128^3 -2.9% of the whole transform), and 1D sizes on clusters did not (fp32 2^15 +1.1%, 2^16 -0.2%):
 * those take it where a distance is asked. */
static int default_l2_prefetch(const fftgen_transform_plan *plan, const fftgen_kernel_plan *pass, int kb)
{
    if (pass->slice_rows > 0 && !pass->tiled) return 1;
    return plan->rank == 1 && plan->pass_count == 1 && (pass->cluster <= 1 || kb != 0); /* (a distance asked) */
}

/* The planner's distance for a pass: twice FFTGEN_L2_PREFETCH_DEFAULT_KB for slices of blocks of 1024
 * threads (one or two a SM), which gained more from it (H200, fftgen-kernel-ab, 1 MB -> 2 MB ahead:
 * fp32 128x128 -5.2% -> -7.5%, 64x256 -8.1% -> -12.1%, 1024x8 -9.2% -> -13.1%; fp16 128x128 -0.6% ->
 * -1.1%), while the slices of smaller blocks at copy bandwidth lost (fp32 16x16 +1.0% -> +2.1%). */
static int default_l2_prefetch_kb(const fftgen_kernel_plan *pass)
{
    const int largest_blocks = pass->slice_rows > 0 && pass->threads == FFTGEN_MAX_THREADS_PER_BLOCK;
    return (largest_blocks ? 2 : 1) * FFTGEN_L2_PREFETCH_DEFAULT_KB;
}

fftgen_plan_status fftgen_place_l2_prefetch(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                            char *why, size_t why_len)
{
    const int kb = request->l2_prefetch_kb, asked = request->l2_prefetch_passes;
    plan->l2_prefetch_passes = 0;
    if (!fftgen_l2_prefetch_supported(kb)) {
        snprintf(why, why_len, "L2 prefetch %d KB: a distance from 1 to 65536 KB, or 0 for none", kb);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (kb == FFTGEN_L2_PREFETCH_OFF && asked != 0) {
        snprintf(why, why_len, "L2 prefetch passes named with a distance of 0 (none)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (kb == FFTGEN_L2_PREFETCH_OFF) return FFTGEN_PLAN_OK;
    const fftgen_plan_status named = check_passes_exist(asked, plan, "L2 prefetch passes", why, why_len);
    if (named != FFTGEN_PLAN_OK) return named;
    int placed = 0;
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        const char *refusal = why_no_l2_prefetch(pass);
        const int wanted = asked == 0 ? default_l2_prefetch(plan, pass, kb) : (asked >> i & 1);
        if (wanted && refusal == NULL) {
            pass->l2_prefetch_bytes = (kb == 0 ? default_l2_prefetch_kb(pass) : kb) * 1024;
            placed |= 1 << i;
        } else if (wanted && asked != 0 && asked != FFTGEN_EVERY_PASS) { /* the default goes where it can */
            snprintf(why, why_len, "L2 prefetch: pass %d %s", i + 1, refusal);
            return FFTGEN_PLAN_BAD_RADIX;
        }
    }
    if (asked != 0) plan->l2_prefetch_passes = placed;
    if (placed != 0 || (kb == 0 && asked == 0)) return FFTGEN_PLAN_OK; /* the default goes where it can */
    const int bytes = (kb == 0 ? FFTGEN_L2_PREFETCH_DEFAULT_KB : kb) * 1024;
    const char *first = why_no_l2_prefetch(&plan->pass[0]);
    if (plan->rank == 1 && plan->pass_count == 1 && first != NULL)
        snprintf(why, why_len, "L2 prefetch %d KB: the kernel %s", bytes / 1024, first);
    else
        snprintf(why, why_len, "L2 prefetch %d KB: in 2D and 3D shapes and plans of several passes it goes on the"
                 " passes named (--l2-prefetch-passes)", bytes / 1024);
    return FFTGEN_PLAN_BAD_RADIX;
}

/* Whether every pass the request names for radix 32 took it (pass_radix): only tiled passes on CUDA
 * cores can, on thread-block clusters too (each block's part of its columns). FFTGEN_EVERY_PASS asks
 * for it where it applies, in one pass at least. */
fftgen_plan_status fftgen_check_radix32_placed(const fftgen_kernel_request *request,
                                               const fftgen_transform_plan *plan, char *why, size_t why_len)
{
    const int asked = request->radix32_passes;
    if (asked == 0) return FFTGEN_PLAN_OK;
    if (asked == FFTGEN_EVERY_PASS) {
        for (int i = 0; i < plan->pass_count; ++i)
            if (plan->pass[i].tiled && plan->pass[i].radix_max == 32) return FFTGEN_PLAN_OK;
        snprintf(why, why_len, "radix-32 passes: this plan has no tiled pass that can take them (one-kernel"
                               " sizes choose their radix with --radix)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    const fftgen_plan_status named = check_passes_exist(asked, plan, "radix-32 passes", why, why_len);
    if (named != FFTGEN_PLAN_OK) return named;
    for (int i = 0; i < plan->pass_count; ++i) {
        const fftgen_kernel_plan *pass = &plan->pass[i];
        if (!(asked >> i & 1) || (pass->tiled && pass->radix_max == 32)) continue;
        snprintf(why, why_len, "radix-32 passes: pass %d %s", i + 1,
                 !pass->tiled        ? "is not a tiled pass (only strided, tiled passes take this choice)"
                 : pass->n < 32      ? "has fewer than 32 points"
                                     : "keeps radix 16 (its stages run on tensor cores)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return FFTGEN_PLAN_OK;
}

/* Short columns of 2D and 3D shapes straight into registers in the passes the request names
 * (fftgen_kernel_request.column_register_passes): the copy through shared memory that plan_dimension
 * gives them measured faster on an H100 and slower on an H200, whose passes wait on shared memory
 * (fp16 256^3, 2^27 points: 0.983 -> 0.915 ms on an H200, 1.194 -> 1.262 on an H100), so it is a
 * measured choice. A pass can take it where it copies its columns: tiled, on CUDA cores. */
static void load_columns_to_registers(fftgen_kernel_plan *pass)
{
    pass->column_registers = 1;
}

static const char *why_no_column_registers(const fftgen_kernel_plan *pass)
{
    if (!pass->tiled) return "is not a tiled pass (it reads whole rows or slices)";
    if (pass->tensor_cores) return "runs on tensor cores, whose stages read shared memory";
    return "loads its columns straight already (only columns of 2D and 3D shapes of at most 256 points copy them)";
}

fftgen_plan_status fftgen_place_column_registers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                                 char *why, size_t why_len)
{
    static const struct pass_choice column_registers = {
        "column registers", fftgen_copies_columns, load_columns_to_registers, why_no_column_registers,
        "this plan has no pass that copies its columns through shared memory (only columns of 2D and 3D shapes of"
        " at most 256 points do)"};
    return place_in_passes(request->column_register_passes, &column_registers, plan, &plan->column_register_passes,
                           why, why_len);
}

int fftgen_can_pair_columns(const fftgen_kernel_plan *p)
{
    const fftgen_layout *in = &p->in;
    return p->tiled && p->precision == FFTGEN_KERNEL_FP16 && !p->shared_exponent_source &&
           fftgen_loads_to_registers(p) && in->run_points == 0 && in->elem_stride > 1 && in->fft_stride == 1 &&
           p->ffts_per_block % 2 == 0 && in->group_size % p->ffts_per_block == 0 && in->elem_stride % 2 == 0 &&
           in->group_stride % 2 == 0 && in->batch_stride % 2 == 0 && p->threads % 32 == 0 && p->radix_max % 2 == 0;
}

/* Column loads in lane pairs in the passes the request names (fftgen_kernel_plan.column_pairs). Measured
 * with fftgen-kernel-ab (results/kernel-ab.txt, 2^27 points): on an H100 fp16 512^3 -4.7%, 2^26 -2.3%,
 * 2^23 -1.4% with them in the 512-thread passes of tiles of 16 and 32, while tiles of 4 lost 5% (2^22),
 * 256x256's columns first 6.7%, and on an H200 2^26, 2^27 and 512x512 1.5-1.7%: a measured choice. Runs
 * after fftgen_place_intermediates, which says which passes read shared-exponent complexes. */
static void pair_columns(fftgen_kernel_plan *pass)
{
    pass->column_pairs = 1;
}

static const char *why_no_column_pairs(const fftgen_kernel_plan *pass)
{
    if (!pass->tiled) return "is not a tiled pass (it reads whole rows or slices)";
    if (pass->shared_exponent_source) return "reads shared-exponent complexes";
    if (!fftgen_loads_to_registers(pass) || pass->in.elem_stride == 1)
        return "does not load columns straight into registers";
    return "reads its columns in tiles of an odd width or at odd strides";
}

fftgen_plan_status fftgen_place_column_pairs(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                             char *why, size_t why_len)
{
    static const struct pass_choice column_pairs = {
        "column pairs", fftgen_can_pair_columns, pair_columns, why_no_column_pairs,
        "this plan has no pass that loads fp16 columns straight into registers in tiles of an even width"};
    if (request->column_pair_passes != 0 && request->precision != FFTGEN_KERNEL_FP16) {
        snprintf(why, why_len, "column pairs are an fp16 choice (two fp32 points fill the 8 bytes already)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return place_in_passes(request->column_pair_passes, &column_pairs, plan, &plan->column_pair_passes, why,
                           why_len);
}

/* fp32 rows in runs straight into registers in the passes the request names (fftgen_kernel_plan.row_registers).
 * Measured with fftgen-kernel-ab (H200, 2^27 points, one process, median of 30 runs x 4 rounds; the H200's
 * lines): 2^23 1.3748 -> 1.3366 ms, 2^24 1.5355 -> 1.4844, 2^21 and 2^22 -0.8% and -0.9%, but the radix-32
 * passes of 2^19 +8.5% and 2^20 +0.7%; an H100 had measured fp32 2^17 slower (MAX_TILE_FOR_RUNS_IN_REGISTERS):
 * a measured choice. */
static void load_rows_to_registers(fftgen_kernel_plan *pass)
{
    pass->row_registers = 1;
}

static const char *why_no_row_registers(const fftgen_kernel_plan *pass)
{
    if (!pass->tiled || pass->in.run_points == 0 || pass->in.elem_stride != 1)
        return "does not read rows in runs from the pass before";
    if (pass->tensor_cores) return "runs on tensor cores, whose stages read shared memory";
    return "reads its rows in tiles of more than 8, or in runs that its threads per transform do not divide";
}

fftgen_plan_status fftgen_place_row_registers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                              char *why, size_t why_len)
{
    static const struct pass_choice row_registers = {
        "row registers", fftgen_can_load_rows_to_registers, load_rows_to_registers, why_no_row_registers,
        "this plan has no pass that reads fp32 rows in runs in tiles of at most 8 (rows after a pass of columns)"};
    if (request->row_register_passes != 0 && request->precision != FFTGEN_KERNEL_FP32) {
        snprintf(why, why_len, "row registers are an fp32 choice (fp16 rows in runs load straight into registers"
                               " already)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return place_in_passes(request->row_register_passes, &row_registers, plan, &plan->row_register_passes, why,
                           why_len);
}

/* Whether a tiled pass reads its tile's columns side by side straight from the user's points or fp16 /
 * fp32 intermediates: the loads that .L2::256B serves (fftgen_kernel_plan.l2_fetch_256). */
static int loads_columns_side_by_side(const fftgen_kernel_plan *p)
{
    return p->tiled && !p->shared_exponent_source && p->in.fft_stride == 1 && p->in.elem_stride > 1;
}

int fftgen_can_fetch_l2_256(const fftgen_kernel_plan *p)
{
    return p->arch >= 80 && loads_columns_side_by_side(p) && p->cluster < 2 && !p->column_pairs;
}

static void fetch_l2_256(fftgen_kernel_plan *pass)
{
    pass->l2_fetch_256 = 1;
}

static const char *why_no_l2_fetch_256(const fftgen_kernel_plan *pass)
{
    if (pass->arch < 80) return "needs sm_80 or newer (ld.global.L2::256B)";
    if (pass->cluster > 1) return "runs on a thread-block cluster, whose column loads ask for 256 bytes already";
    if (!pass->tiled) return "is not a tiled pass (it reads whole rows or slices)";
    if (pass->shared_exponent_source) return "reads shared-exponent complexes";
    if (pass->column_pairs) return "loads its columns in lane pairs";
    return "reads rows, not columns side by side";
}

/* The 256-byte L2 fetch (fftgen_kernel_plan.l2_fetch_256): on every column pass of a cluster, and on the
 * passes the request names. Runs after fftgen_place_column_pairs. */
fftgen_plan_status fftgen_place_l2_fetch_256(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                             char *why, size_t why_len)
{
    static const struct pass_choice l2_fetch_256 = {
        "L2 fetch of 256 bytes", fftgen_can_fetch_l2_256, fetch_l2_256, why_no_l2_fetch_256,
        "this plan has no pass off clusters that loads columns side by side (on sm_80 or newer)"};
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        pass->l2_fetch_256 = pass->cluster > 1 && loads_columns_side_by_side(pass);
    }
    return place_in_passes(request->l2_fetch_256_passes, &l2_fetch_256, plan, &plan->l2_fetch_256_passes, why,
                           why_len);
}

/* Bytes of a TMA column pass's tile in its staging buffer (fftgen_kernel_plan.tma_columns). */
static long long tma_tile_bytes(const fftgen_kernel_plan *p)
{
    return (long long)p->ffts_per_block * p->n * point_bytes(p);
}

/* The staging buffer's offset: the exchanges' area rounded up to the 128 bytes a TMA box lands on (a run
 * pass's kernel moves its buffer on to the swizzle's period; see tma_tail_bytes). */
enum { TMA_SWIZZLE_PERIOD = 1024, TMA_SWIZZLE_ROW = 128, TMA_MAX_BOX = 256 };
static int tma_staging_offset(const fftgen_kernel_plan *p)
{
    return (p->shared_bytes + TMA_SWIZZLE_ROW - 1) / TMA_SWIZZLE_ROW * TMA_SWIZZLE_ROW;
}

/* Shared memory past the staging offset: the tile, the mbarrier (8 bytes, 16 kept), and for runs the
 * swizzle period once more, since the kernel moves the buffer up to the next 1024 bytes of the shared
 * window where its dynamic shared memory does not start on them. */
static long long tma_tail_bytes(const fftgen_kernel_plan *p, int runs)
{
    return tma_tile_bytes(p) + 16 + (runs ? TMA_SWIZZLE_PERIOD : 0);
}

/* Rows in runs from the tiles of a pass before (the four-step pass 2 of fp16 and fp32 1D sizes): the
 * shapes a TMA run pass takes (fftgen_tma_runs). */
static int reads_tile_runs(const fftgen_kernel_plan *p)
{
    return p->tiled && p->in.run_points > 0 && p->in.elem_stride == 1;
}

/* A box holds at most 256 runs (a box's dimension): a transform of more takes several, each whole swizzle
 * periods (8 runs of whole 128-byte rows) so that their swizzles join up. */
static int tma_box_runs(const fftgen_kernel_plan *p)
{
    const long long runs = p->n / p->in.run_points;
    return (int)(runs < TMA_MAX_BOX ? runs : TMA_MAX_BOX);
}

static int tma_maps_runs(const fftgen_kernel_plan *p)
{
    const long long bytes = point_bytes(p), run = p->in.run_points, tile = p->ffts_per_block;
    const fftgen_layout *in = &p->in;
    return in->fft_stride == run && in->group_count == 1 && in->group_size % tile == 0 &&
           p->threads_per_fft % run == 0 && tile * run * bytes % TMA_SWIZZLE_ROW == 0 &&
           in->group_size * run * bytes % TMA_SWIZZLE_ROW == 0 &&
           p->threads_per_fft * tile * bytes % TMA_SWIZZLE_PERIOD == 0 && tma_box_runs(p) % 8 == 0 &&
           tile * run * bytes / TMA_SWIZZLE_ROW <= 256 && in->run_stride >= in->group_size * run &&
           in->run_stride * bytes % 16 == 0 && in->batch_stride * bytes % 16 == 0;
}

int fftgen_tma_runs(const fftgen_kernel_plan *p)
{
    return p->tma_columns && reads_tile_runs(p);
}

void fftgen_tma_run_map(const fftgen_kernel_plan *p, long long dims[3], long long strides[2], int box[3])
{
    const long long bytes = point_bytes(p), run = p->in.run_points;
    dims[0] = TMA_SWIZZLE_ROW / bytes;
    dims[1] = p->in.group_size * run * bytes / TMA_SWIZZLE_ROW;
    dims[2] = p->n / run;
    strides[0] = p->in.run_stride * bytes;
    strides[1] = p->in.batch_stride * bytes;
    box[0] = (int)dims[0];
    box[1] = (int)(p->ffts_per_block * run * bytes / TMA_SWIZZLE_ROW);
    box[2] = tma_box_runs(p);
}

/* Whether a pass's input is a tensor the TMA can map: a group's columns side by side, then groups and
 * rows in the order of their strides (rows first where a pass before wrote its tiles as blocks), then
 * batch entries, each dimension nested in the next, every stride whole 16-byte pieces; and a tile within
 * one group, a whole number of 16-byte pieces wide. (A box cannot start off 16 bytes either: for an
 * input that is only point-aligned the kernel's threads copy the tiles themselves.) */
static int tma_maps_input(const fftgen_kernel_plan *p)
{
    const long long bytes = point_bytes(p);
    const fftgen_layout *in = &p->in;
    const int rows_first = fftgen_tma_rows_first(p);
    const long long group_stride = fftgen_tma_group_stride(p);
    const long long inner_stride = rows_first ? in->elem_stride : group_stride;
    const long long inner_count = rows_first ? p->n : in->group_count;
    const long long outer_stride = rows_first ? group_stride : in->elem_stride;
    const long long outer_count = rows_first ? in->group_count : p->n;
    return p->ffts_per_block * bytes % 16 == 0 && in->group_size % p->ffts_per_block == 0 &&
           inner_stride >= in->group_size && outer_stride >= inner_count * inner_stride &&
           in->batch_stride >= outer_count * outer_stride && in->elem_stride * bytes % 16 == 0 &&
           group_stride * bytes % 16 == 0 && in->batch_stride * bytes % 16 == 0;
}

long long fftgen_tma_group_stride(const fftgen_kernel_plan *p)
{
    /* one group (a pass of three whose columns are all side by side) has no stride of its own: its
     * columns' span stands in, nested in the rows */
    return p->in.group_count == 1 ? p->in.group_size : p->in.group_stride;
}

int fftgen_tma_rows_first(const fftgen_kernel_plan *p)
{
    return p->in.elem_stride < fftgen_tma_group_stride(p);
}

/* A pass that reads runs and could stage them for the TMA: see fftgen_can_copy_columns_by_tma. */
static int tma_can_read_runs(const fftgen_kernel_plan *p)
{
    /* (a pass reading its runs with the lanes along them reads them from the staging buffer instead) */
    return reads_tile_runs(p) && p->staged_io && p->column_registers && !p->shared_exponent_source &&
           !p->row_registers && tma_maps_runs(p);
}

/* Whether a TMA pass's tile fits beside its exchanges in shared memory. */
static int tma_fits_beside(const fftgen_kernel_plan *p, int runs)
{
    return tma_staging_offset(p) + tma_tail_bytes(p, runs) <= fftgen_arch_shared_limit(p->arch);
}

/* Whether it fits inside them instead (fftgen_kernel_plan.tma_in_exchanges): its first stage reads the tile
 * into registers (columns, or runs from the staging buffer) and its last reads the last exchange into
 * registers and writes global memory or registers, so that the exchanges are free from that read until
 * the next tile's first stage has read the tile. */
static int tma_fits_inside(const fftgen_kernel_plan *p, int runs)
{
    const long long exchange_bytes = 8LL * p->smem_points;
    const int copies_out = p->staged_io && !fftgen_stores_from_registers(p);
    return p->shared_bytes == exchange_bytes && !copies_out && p->slice_rows == 0 && !p->merged_stage &&
           !fftgen_shuffle_tail(p) && !fftgen_reads_runs_across_lanes(p) &&
           tma_tile_bytes(p) + (runs ? TMA_SWIZZLE_PERIOD : 0) <= exchange_bytes &&
           exchange_bytes + 16 <= fftgen_arch_shared_limit(p->arch);
}

int fftgen_can_copy_columns_by_tma(const fftgen_kernel_plan *p)
{
    /* the next tile's copy may overwrite the staging buffer once every thread has read it: at the block
     * barrier of the first exchange, which a pass of one stage (2D columns of 2 points) does not have */
    const int columns = loads_columns_side_by_side(p) && fftgen_loads_to_registers(p) && !p->column_pairs &&
                        tma_maps_input(p);
    const int runs = !columns && tma_can_read_runs(p);
    return p->arch >= 90 && (columns || runs) && p->cluster < 2 && !p->tensor_cores && p->prefetch <= 1 &&
           fftgen_shared_exchanges(p) > 0 && (tma_fits_beside(p, runs) || tma_fits_inside(p, runs));
}

static void copy_columns_by_tma(fftgen_kernel_plan *pass)
{
    const int runs = reads_tile_runs(pass);
    /* the tile comes whole, ahead, and the map asks L2 for 128 bytes a row: nothing more to ask L2 for */
    pass->l2_prefetch_bytes = 0;
    pass->l2_fetch_256 = 0;
    pass->tma_columns = 1;
    pass->tma_in_exchanges = !tma_fits_beside(pass, runs);
    if (pass->tma_in_exchanges) {
        pass->tma_staging_offset = 0;
        pass->shared_bytes += 16; /* the mbarrier, past the exchanges */
    } else {
        pass->tma_staging_offset = tma_staging_offset(pass);
        pass->shared_bytes = (int)(pass->tma_staging_offset + tma_tail_bytes(pass, runs));
    }
}

static const char *why_no_tma_columns(const fftgen_kernel_plan *pass)
{
    const int runs = reads_tile_runs(pass);
    if (pass->arch < 90) return "needs sm_90 or newer (the tensor memory accelerator)";
    if (!loads_columns_side_by_side(pass) && !runs)
        return "reads neither columns side by side nor rows in runs from the tiles of a pass before";
    if (pass->cluster > 1) return "runs on a thread-block cluster";
    if (pass->tensor_cores) return "runs on tensor cores";
    if (pass->prefetch > 1) return "copies its tiles ahead with its threads";
    if (runs && pass->shared_exponent_source) return "reads shared-exponent complexes";
    if (runs && pass->row_registers) return "loads its rows straight into registers from global memory";
    if (!runs && !fftgen_loads_to_registers(pass)) return "copies its columns through shared memory";
    if (pass->column_pairs) return "loads its columns in lane pairs";
    if (fftgen_shared_exchanges(pass) == 0)
        return "exchanges nothing through shared memory (no block barrier frees the staging buffer for the next tile)";
    if (!tma_fits_beside(pass, runs) && !tma_fits_inside(pass, runs))
        return "has no room for a tile in shared memory beside its exchanges, nor a last stage that frees them"
               " for the next tile while it computes";
    if (runs)
        return "reads runs whose tile is not whole 128-byte rows, or whose thread's points are not whole runs and"
               " 1024 bytes apart in the staging buffer";
    return "reads tiles that are not whole 16-byte pieces wide, or a layout whose strides are not, or whose"
           " dimensions overlap";
}

/* Column tiles through the TMA in the passes the request names. Runs after every other choice on the
 * passes: a pass that takes it drops its L2 prefetch and 256-byte L2 fetch (the TMA's map asks L2 for 256
 * bytes a row, and the tile comes ahead anyway), so that tune can try it on the plan it has chosen. */
fftgen_plan_status fftgen_place_tma_columns(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                            char *why, size_t why_len)
{
    static const struct pass_choice tma_columns = {
        "TMA columns", fftgen_can_copy_columns_by_tma, copy_columns_by_tma, why_no_tma_columns,
        "this plan has no pass on sm_90 that loads columns side by side straight into registers, off clusters,"
        " in tiles of whole 16-byte rows that fit beside the exchanges in shared memory, or that reads rows in"
        " runs from the tiles of a pass before, in whole 128-byte rows"};
    const fftgen_plan_status status =
        place_in_passes(request->tma_column_passes, &tma_columns, plan, &plan->tma_column_passes, why, why_len);
    plan->l2_prefetch_passes &= ~plan->tma_column_passes;
    plan->l2_fetch_256_passes &= ~plan->tma_column_passes;
    return status;
}

/* Bytes of a tile's outputs in shared memory (fftgen_kernel_plan.tile_pairs). */
static long long pair_tile_bytes(const fftgen_kernel_plan *p)
{
    return (long long)p->ffts_per_block * p->n * point_bytes(p);
}

/* The first tile's outputs lie past the exchanges, to 16 bytes (the stores copy 16 bytes at a time). */
static int pair_offset(const fftgen_kernel_plan *p)
{
    return (8 * p->smem_points + 15) / 16 * 16;
}

int fftgen_can_pair_tiles(const fftgen_kernel_plan *p)
{
    const long long pair = 2LL * p->ffts_per_block;
    return p->tiled && fftgen_stores_from_registers(p) && p->slice_rows == 0 && p->cluster < 2 &&
           p->prefetch <= 1 && !p->tma_columns && !p->tensor_cores && p->mixed_target_rows == 0 &&
           !fftgen_shuffle_tail(p) &&
           p->out.fft_stride == 1 && p->in.group_size % pair == 0 && p->out.group_size % pair == 0 &&
           8LL * p->smem_points >= pair_tile_bytes(p) &&
           pair_offset(p) + pair_tile_bytes(p) <= fftgen_arch_shared_limit(p->arch);
}

static void pair_tiles(fftgen_kernel_plan *pass)
{
    pass->tile_pairs = 1;
    pass->pair_offset = pair_offset(pass);
    pass->shared_bytes = (int)(pass->pair_offset + pair_tile_bytes(pass));
}

static const char *why_no_tile_pairs(const fftgen_kernel_plan *pass)
{
    if (!pass->tiled || pass->slice_rows > 0) return "is not a tiled pass";
    if (pass->cluster > 1) return "runs on a thread-block cluster";
    if (pass->tensor_cores) return "runs on tensor cores";
    if (pass->prefetch > 1) return "copies its tiles ahead with its threads";
    if (pass->tma_columns) return "takes its tiles through the TMA";
    if (!fftgen_stores_from_registers(pass)) return "does not store columns straight from its last stage's registers";
    if (pass->mixed_target_rows != 0) return "writes a mixed intermediate";
    /* its lanes swap points with their partners', which a barrier before the stores would not keep */
    if (fftgen_shuffle_tail(pass)) return "ends in a radix-2 stage of warp shuffles";
    if (pass->out.fft_stride != 1) return "writes transforms that do not lie side by side";
    if (pass->out.group_size == pass->ffts_per_block && pass->out.group_count > 1)
        return "writes each tile as one block, apart from the next tile's";
    if (pass->in.group_size % (2LL * pass->ffts_per_block) != 0 || pass->out.group_size % (2LL * pass->ffts_per_block) != 0)
        return "has groups that are not whole pairs of tiles";
    if (8LL * pass->smem_points < pair_tile_bytes(pass)) return "has exchanges too small for a tile's outputs";
    return "has no room for a second tile's outputs in shared memory beside its exchanges";
}

/* Tile pairs in the passes the request names. Runs after the TMA's columns, which a pass with tile pairs
 * cannot take (its shared memory holds the pair's outputs instead of a staging buffer). */
fftgen_plan_status fftgen_place_tile_pairs(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                           char *why, size_t why_len)
{
    static const struct pass_choice tile_pairs = {
        "tile pairs", fftgen_can_pair_tiles, pair_tiles, why_no_tile_pairs,
        "this plan has no tiled pass that stores its columns side by side from registers (not after a radix-2"
        " stage of warp shuffles), off clusters, copying nothing ahead, in groups of whole pairs of tiles, with"
        " room for a second tile's outputs in shared memory"};
    return place_in_passes(request->tile_pair_passes, &tile_pairs, plan, &plan->tile_pair_passes, why, why_len);
}

int fftgen_l2_prefetch_kb_kept(const fftgen_kernel_request *request, const fftgen_transform_plan *plan)
{
    const int taken = request->l2_prefetch_passes != 0 && plan->l2_prefetch_passes == 0 && plan->tma_column_passes != 0;
    return taken ? 0 : request->l2_prefetch_kb;
}

long long fftgen_tma_pass_blocks(const fftgen_kernel_plan *pass, long long ffts, int sms, int resident)
{
    const long long tiles = (ffts + pass->ffts_per_block - 1) / pass->ffts_per_block;
    const long long fill = (long long)sms * (resident > 0 ? resident : 1);
    return tiles < fill ? tiles : fill;
}

void fftgen_keep_column_choices_that_fit(fftgen_transform_plan *plan)
{
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        if (pass->l2_fetch_256 && !loads_columns_side_by_side(pass)) {
            pass->l2_fetch_256 = 0;
            plan->l2_fetch_256_passes &= ~(1 << i);
        }
        /* a lane pair's 8-byte load takes two neighbouring columns: at an input stride of 3 they lie
         * 3 points apart, and the load read the wrong points (fftgen-fuzz-gpu, fp16 65536) */
        if (pass->column_pairs && !fftgen_can_pair_columns(pass)) {
            pass->column_pairs = 0;
            plan->column_pair_passes &= ~(1 << i);
        }
        if (pass->row_registers && !fftgen_can_load_rows_to_registers(pass)) {
            pass->row_registers = 0;
            plan->row_register_passes &= ~(1 << i);
        }
        if (pass->tile_pairs) {
            fftgen_kernel_plan single = *pass;
            single.tile_pairs = 0;
            single.pair_offset = 0;
            single.shared_bytes = 8 * pass->smem_points;
            if (!fftgen_can_pair_tiles(&single)) {
                *pass = single;
                plan->tile_pair_passes &= ~(1 << i);
            }
        }
        if (pass->tma_columns) {
            /* judged as the pass it would be without the staging buffer; dropped, it is that pass again
             * (a pass copying nothing ahead holds its exchanges only: the kernel asserts so) */
            fftgen_kernel_plan plain = *pass;
            plain.tma_columns = 0;
            plain.tma_staging_offset = 0;
            plain.tma_in_exchanges = 0;
            plain.shared_bytes = 8 * pass->smem_points;
            if (!fftgen_can_copy_columns_by_tma(&plain)) {
                *pass = plain;
                plan->tma_column_passes &= ~(1 << i);
            }
        }
    }
}

/* What a split request needs before planning: tensor cores, and a radix-16 stage in 1D. */
fftgen_plan_status fftgen_check_split(const fftgen_kernel_request *request, int rank, char *why, size_t why_len)
{
    if (!fftgen_precision_is_split(request->precision)) return FFTGEN_PLAN_OK;
    const fftgen_plan_status status = check_tensor_core_arch(request->arch, why, why_len);
    if (status != FFTGEN_PLAN_OK) return status;
    if (request->max_radix != 0 && request->max_radix != 16) {
        snprintf(why, why_len, "--precision %s runs radix-16 stages on tensor cores: radix %d does not apply",
                 fftgen_precision_name(request->precision), request->max_radix);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (request->radix32_passes != 0) {
        snprintf(why, why_len, "--precision %s runs radix-16 stages on tensor cores: radix-32 passes do not apply",
                 fftgen_precision_name(request->precision));
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (rank == 1 && request->n >= 2 && request->n < 16 && (request->n & (request->n - 1)) == 0) {
        snprintf(why, why_len, "--precision %s needs at least 16 points (its radix-16 stages run on tensor cores);"
                 " use fp32 for %lld", fftgen_precision_name(request->precision), request->n);
        return FFTGEN_PLAN_BAD_SIZE;
    }
    return FFTGEN_PLAN_OK;
}

/* Whether a layout's digit of `rows` values at `row_stride` reads back from every offset: each other digit
 * (stride[i], count[i] values; 0: as many as the batch has) lies wholly below it or at multiples of its span. */
static int row_digit_reads_back(long long row_stride, long long rows, const long long *stride, const long long *count,
                                int digits)
{
    long long below = 0;
    for (int i = 0; i < digits; ++i) {
        if (count[i] == 1 || stride[i] % (row_stride * rows) == 0) continue;
        if (count[i] == 0) return 0;
        below += stride[i] * (count[i] - 1);
    }
    return below < row_stride;
}

/* Whether the boundary between `writer` and `reader` can hold a mixed intermediate
 * (fftgen_kernel_plan.mixed_target_rows): the reader loads tiles of columns, row
 * fft_thread + u * THREADS_PER_FFT into v[u]; each of the writer's tiles lies in one of its groups, and
 * its groups are the reader's rows (the same digit of the offsets, which each side's other digits leave
 * alone), so both kernels know each point's format without a test per point. Not beside passes on
 * tensor cores, whose fp16 operands add error that fftgen_place_intermediates does not count (64^3 with
 * tensor cores, H200: 4.07e-4 with shared-exponent complexes there, 4.27e-4 mixed). */
int fftgen_can_mix_intermediate(const fftgen_kernel_plan *writer, const fftgen_kernel_plan *reader)
{
    const fftgen_layout *out = &writer->out, *in = &reader->in;
    if (!(writer->precision == FFTGEN_KERNEL_FP16 && !writer->tensor_cores && !reader->tensor_cores &&
          writer->tiled && reader->tiled && writer->cluster < 2 &&
          reader->cluster < 2 && writer->prefetch < 2 && reader->prefetch < 2 && writer->slice_rows == 0 &&
          reader->slice_rows == 0 && out->run_points == 0 && in->run_points == 0 && in->elem_stride > 1 &&
          reader->radix_max >= 2 && reader->threads == reader->ffts_per_block * reader->threads_per_fft &&
          writer->in.group_size % writer->ffts_per_block == 0 && writer->in.group_count == reader->n &&
          out->group_stride == in->elem_stride))
        return 0;
    const long long writer_strides[] = {out->elem_stride, out->fft_stride, out->batch_stride};
    const long long writer_counts[] = {writer->n, writer->in.group_size, 0};
    const long long reader_strides[] = {in->fft_stride, in->group_stride, in->batch_stride};
    const long long reader_counts[] = {in->group_size, in->group_count, 0};
    return row_digit_reads_back(in->elem_stride, reader->n, writer_strides, writer_counts, 3) &&
           row_digit_reads_back(in->elem_stride, reader->n, reader_strides, reader_counts, 3);
}

/* How an fp16 plan stores between its passes (fftgen_intermediate). Each boundary adds its variance to
 * the error, measured on an H200 (fftgen-bench, 2^27 points, inputs in [-1, 1]): one pass 2.78e-4,
 * two passes with an fp16 boundary 3.47e-4, three with fp16 then shared-exponent complexes 3.61e-4 to
 * 3.64e-4, three with fp16 at both 4.0e-4; a mixed boundary adds the mean of the two. The planner starts
 * from fp16 everywhere and, from the last boundary back, raises each to mixed (where
 * fftgen_can_mix_intermediate) and then shared-exponent until the predicted error is at most
 * ERROR_BUDGET (3.9e-4, under the 4e-4 target), since shared-exponent complexes cost about 20 more
 * instructions a point (256^3: 7.8% of the transform): two passes keep fp16 (3.5e-4); three mix their
 * last boundary (3.8e-4) where they can, else take shared-exponent complexes there (3.6e-4); four take
 * them at the last two (3.8e-4), five at the last three and mixed or shared-exponent complexes at the
 * first. fp32 and the split precisions keep fp32 there. */
enum { /* variances, in units of 1e-10 */
    ONE_PASS_VARIANCE = 773, FP16_BOUNDARY = 431, SHARED_EXPONENT_BOUNDARY = 115,
    MIXED_BOUNDARY = (FP16_BOUNDARY + SHARED_EXPONENT_BOUNDARY) / 2, ERROR_BUDGET = 1521
};

typedef enum { BOUNDARY_FP16, BOUNDARY_MIXED, BOUNDARY_SHARED_EXPONENT } boundary_format;

static int boundary_variance(boundary_format format)
{
    return format == BOUNDARY_FP16 ? FP16_BOUNDARY : format == BOUNDARY_MIXED ? MIXED_BOUNDARY
                                                                                : SHARED_EXPONENT_BOUNDARY;
}

void fftgen_place_intermediates(const fftgen_kernel_request *request, fftgen_transform_plan *plan)
{
    const int boundaries = plan->pass_count - 1; /* boundary b lies between passes b and b + 1 */
    const int fp16 = request->precision == FFTGEN_KERNEL_FP16; /* the others keep fp32 there */
    boundary_format format[FFTGEN_MAX_PASSES];
    int can_mix[FFTGEN_MAX_PASSES];
    for (int b = 0; b < boundaries; ++b) {
        can_mix[b] = fftgen_can_mix_intermediate(&plan->pass[b], &plan->pass[b + 1]);
        const boundary_format asked = request->intermediate == FFTGEN_INTERMEDIATE_SHARED_EXPONENT
                                          ? BOUNDARY_SHARED_EXPONENT
                                      : request->intermediate == FFTGEN_INTERMEDIATE_MIXED
                                          ? (can_mix[b] ? BOUNDARY_MIXED : BOUNDARY_SHARED_EXPONENT)
                                          : BOUNDARY_FP16; /* fp16, and the planner's starting point */
        format[b] = fp16 ? asked : BOUNDARY_FP16;
    }
    int variance = ONE_PASS_VARIANCE + boundaries * FP16_BOUNDARY;
    if (fp16 && request->intermediate == FFTGEN_INTERMEDIATE_DEFAULT)
        for (int b = boundaries - 1; b >= 0 && variance > ERROR_BUDGET; --b) {
            if (can_mix[b]) {
                format[b] = BOUNDARY_MIXED;
                variance += MIXED_BOUNDARY - FP16_BOUNDARY;
                if (variance <= ERROR_BUDGET) break;
            }
            variance += SHARED_EXPONENT_BOUNDARY - boundary_variance(format[b]);
            format[b] = BOUNDARY_SHARED_EXPONENT;
        }
    for (int i = 0; i < plan->pass_count; ++i) {
        fftgen_kernel_plan *pass = &plan->pass[i];
        const boundary_format after = i < boundaries ? format[i] : BOUNDARY_FP16;
        const boundary_format before = i > 0 ? format[i - 1] : BOUNDARY_FP16;
        pass->shared_exponent_target = after != BOUNDARY_FP16;
        pass->shared_exponent_source = before != BOUNDARY_FP16;
        pass->mixed_target_rows = after == BOUNDARY_MIXED ? plan->pass[i + 1].threads_per_fft : 0;
        pass->mixed_source_rows = before == BOUNDARY_MIXED ? pass->threads_per_fft : 0;
    }
    plan->intermediate = request->intermediate;
}
