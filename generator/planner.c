/* The planner (planner.h): single kernels, passes in 1D, strided layouts, and 2D and 3D shapes. The
 * choices placed on a plan once it has its passes are in plan_choices.c; the text forms of names and
 * options in plan_names.c. */
#include "planner.h"
#include "plan_choices.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Threads a block should have at least: several transforms share a block when they are small. */
enum { TARGET_THREADS_PER_BLOCK = 256 };
/* Below this many threads per transform, the block copies its points through shared memory instead
 * of reading and writing them straight from the stages (whose warps then cover short runs). Chosen
 * by measurement on an H200 (results/notes.md): fp16 is faster direct from 8 threads (128 points:
 * 90% against 78% of copy bandwidth staged), fp32 staged up to 16 threads (256 points: 97% against
 * 96%; 128 points: 97% against 94%). */
enum { MIN_THREADS_FOR_DIRECT_IO_FP32 = 32, MIN_THREADS_FOR_DIRECT_IO_FP16 = 8 };

static int direct_io_too_narrow(int threads_per_fft, fftgen_kernel_precision precision)
{
    return threads_per_fft < (precision == FFTGEN_KERNEL_FP16 ? MIN_THREADS_FOR_DIRECT_IO_FP16
                                                              : MIN_THREADS_FOR_DIRECT_IO_FP32);
}
/* Small transforms share a block up to this many points, so their shared memory stays modest. */
enum { MAX_SHARED_POINTS = 4096 };
/* Transforms per tile in a strided pass: at most 16 side by side (64- or 128-byte runs; 32 fp16
 * transforms measured slower on an H100), and at most TILE_POINTS points per block: smaller blocks
 * keep more of them per SM, which measured faster for long transforms (H100, results/notes.md:
 * 2^20 points fp32 43.5% of copy bandwidth with 8192-point tiles against 40.8% with 16384). The
 * four-step passes of fp16 1D transforms (twiddled, or written transposed) measured faster still
 * with 4096-point tiles; the plain strided passes of 2D and 3D shapes did not. */
enum { TILE_FFTS = 16, TILE_POINTS = 8192, TILE_POINTS_FOUR_STEP_FP16 = 4096 };
/* Columns so short that TILE_FFTS of them make a small block take tiles wider than TILE_FFTS, up to
 * this many threads a block (see plan_columns). H200, 2^27 points, fp16, the whole transform in ms
 * with the column pass in blocks of 16 / 32 / 64 / 128 / 256 threads (results/notes.md): 4x128x128
 * 1.716 / 1.080 / 0.766 / 0.719 / 0.728; 16x64x64 0.803 / 0.623 / 0.623 / 0.624 / 0.639; 32x32x32
 * 0.685 (64) / 0.640 (128) / 0.645 (256); 64^3 0.575 (128) / 0.571 (256) / 0.577 (512) / 0.622 (1024). */
enum { MIN_COLUMN_BLOCK_THREADS = 128 };
/* Columns of 2D and 3D shapes up to this long copy through shared memory by default (see
 * plan_dimension and fftgen_place_column_registers). */
enum { SHORT_COLUMN_POINTS = 256 };
/* A 1D pass split takes two passes only where both read and write runs of at least a 32-byte
 * sector; narrower tiles waste part of each sector, and three passes do better. */
enum { MIN_RUN_BYTES = 32 };
/* Dense columns whose one-pass tiles would hold fewer transforms than this split into two passes.
 * H100, 2^27 points: 8192^2 fp16 (tiles of 2) 18.2% -> 27.6% of copy bandwidth, fp32 (tiles of 2)
 * 28.9% -> 31.1%; 4096^2 fp16 (tiles of 4, 16-byte runs) gained only 28.5% -> 29.8% for a third
 * rounding to fp16 (relative error 3.5e-4 -> 4.0e-4), so it stays one pass. */
enum { SPLIT_COLUMN_TILE = 4 };
/* fp16 columns of this many points split in two passes rather than run on a cluster where the split's
 * tiles are at least SPLIT_DEFAULT_TILE wide (plan_shape) */
enum { SPLIT_FP16_COLUMN_POINTS = 8192, SPLIT_DEFAULT_TILE = 16 };
/* Split plans take one kernel only up to 512 threads a block: with 1024, each thread gets 64
 * registers for the tensor-core fragments and spills (H100: 16384 points in one kernel 12.6% of
 * copy bandwidth, 32768 in two passes 37.2%). */
enum { SPLIT_MAX_THREADS = 512 };
/* Thread-block clusters: at most 8 blocks (the portable limit). By default the fewest blocks of at
 * most CLUSTER_BLOCK_POINTS points each (512 threads, two blocks per SM); see fewest_cluster_blocks. */
enum { MAX_CLUSTER = FFTGEN_MAX_CLUSTER, CLUSTER_BLOCK_POINTS = 8192 };

struct arch_limit {
    int arch;
    int shared_bytes; /* opt-in dynamic shared memory per block */
};

/* The architectures CUDA 13 compiles for; sm_70 and older are gone from the toolkit. */
static const struct arch_limit ARCHS[] = {
    {75, 64 * 1024},  {80, 163 * 1024}, {86, 99 * 1024},  {87, 163 * 1024},
    {89, 99 * 1024},  {90, 227 * 1024}, {100, 227 * 1024}, {120, 99 * 1024},
};

int fftgen_arch_shared_limit(int arch)
{
    for (size_t i = 0; i < sizeof ARCHS / sizeof ARCHS[0]; ++i)
        if (ARCHS[i].arch == arch) return ARCHS[i].shared_bytes;
    return -1;
}

const char *fftgen_known_archs(void)
{
    return "sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120";
}

int fftgen_computes_pass_twiddles(const fftgen_kernel_plan *p)
{
    return p->tiled && p->twiddle_n > 0 && p->computed_twiddles && p->cluster <= 1;
}

int fftgen_smem_pad_every(const fftgen_kernel_plan *p)
{
    const int fp32_runs = p->precision != FFTGEN_KERNEL_FP16 && p->in.run_points > 0;
    const int sparse = p->tiled && p->radix_max == 32 && p->ffts_per_block < 16 && p->threads % 32 == 0 &&
                       p->slice_rows == 0 && !p->tensor_cores && p->cluster < 2 && !fp32_runs;
    return sparse ? 32 : 16;
}

int fftgen_shuffle_tail(const fftgen_kernel_plan *p)
{
    const int last = p->stage_count - 1;
    if (last < 1) return 0;
    /* after radix 16 (512, 8192 points) or 32 (2048), one butterfly a thread. The radix-32 stage's tail is
     * slower than a third exchange where its twiddles come from a table (fp32; H200, fftgen-kernel-ab: fp32
     * 2^22's rows 1.2947 -> 1.3126 ms, the 2048-point kernel 0.5111 -> 0.5215) or its tile through the TMA
     * (fp16 2^22's columns 0.7312 -> 0.8708), and faster in fp16 rows that compute them (fp16 2^21 with
     * its rows at radix 32 0.6970 -> 0.6611) */
    const int tail_radix_ok = p->radix_max == 16 || (p->radix_max == 32 && p->computed_twiddles && !p->tma_columns);
    if (p->radices[last] != 2 || p->radices[last - 1] != p->radix_max || !tail_radix_ok || p->tensor_cores ||
        p->slice_rows != 0 || p->cluster > 1)
        return 0;
    if (!p->tiled) return p->threads_per_fft % 32 == 0 && !p->staged_io;
    /* Tiled, threads go transform-fastest: lanes l and l ^ 16 are fft_thread f and f ^ (16 / tile), so a tile
     * of at most 16 transforms keeps the pairs in one warp (a chain of three stages or more is at least 512
     * points: 32 threads per transform). The radix-16 or -32 stage reads shared memory (the first stage's
     * registers come straight from the columns in their own order), and the outputs go straight from
     * registers to columns. */
    return last >= 2 && p->ffts_per_block <= 16 && p->column_registers && p->out.elem_stride != 1;
}

int fftgen_shared_exchanges(const fftgen_kernel_plan *p)
{
    return p->stage_count - 1 - fftgen_shuffle_tail(p) + (p->slice_rows > 0 ? p->col_stage_count : 0) +
           (p->cluster > 1) - p->merged_stage;
}

int fftgen_shuffle_tail_computes_twiddles(const fftgen_kernel_plan *p)
{
    /* radix-16 tails keep their table: computed, fp16 512^3's line ran 1.8% slower (templates/stage.lua) */
    return fftgen_shuffle_tail(p) && p->computed_twiddles && p->radix_max == 32;
}

/* Rows in runs (a four-step pass 2 reading pass 1's blocks): a warp's 32 threads take
 * 32 / FFTS_PER_BLOCK consecutive points of each of its transforms, so tiles of at most 8 read at
 * least 16 bytes of each run, and the rest of the tile's F*T contiguous points a warp later, from L1.
 * fp16 passes, bound by instructions and shared memory, gain the copy they skip; fp32 passes measured
 * slower on an H100 and faster on an H200 in their 512- and 1024-thread passes, so for fp32 it is a
 * choice (fftgen_kernel_plan.row_registers); contiguous rows far apart (three-pass fp16, pass 3)
 * measured slower. H100, 2^27 points, fp16 ms before -> after: 2^19 0.875 -> 0.830, 2^20 0.962 ->
 * 0.917, 2^21 1.047 -> 0.969, 2^22 1.179 -> 1.095 (tiles of 8); 2^15 0.745 -> 0.764 (tiles of 16);
 * fp32 2^17 1.456 -> 1.596; contiguous rows, fp16 2^27 1.352 -> 1.437. */
enum { MAX_TILE_FOR_RUNS_IN_REGISTERS = 8 };

/* Runs of 16 in tiles of 16 (fp16 2^16 = 256 x 256, pass 2): transform-fastest, a warp would read 8 bytes
 * of each of 16 runs, so these load with the lanes along the runs instead (fftgen_reads_runs_across_lanes),
 * and the first exchange pads one element more every 16 * 16 (padded_wide), which keeps the first stage's
 * stores, 256 elements apart across lanes, off each other's banks. H200, 2^27 points, the generated
 * kernel against a hand edit of it, same process, outputs bitwise equal: pass 2 0.292-0.303 ->
 * 0.262-0.267 ms, the transform 0.586-0.609 -> 0.554-0.571 ms. */
enum { RUNS_ACROSS_LANES = 16 };

static int runs_across_lanes_shape(const fftgen_kernel_plan *p)
{
    return p->tiled && p->precision == FFTGEN_KERNEL_FP16 && p->in.run_points == RUNS_ACROSS_LANES &&
           p->in.fft_stride == RUNS_ACROSS_LANES && p->ffts_per_block == RUNS_ACROSS_LANES &&
           p->stage_count >= 2 && p->radices[0] == 16 && p->radix_max == 16 &&
           p->threads_per_fft % RUNS_ACROSS_LANES == 0;
}

/* Float2 elements of a pass's shared memory: one pad every 16, and one more every 256 where its first
 * exchange may need it (runs_across_lanes_shape). */
static long long padded_points(const fftgen_kernel_plan *p, long long points)
{
    return points + points / 16 + (runs_across_lanes_shape(p) ? points / 256 : 0);
}

int fftgen_reads_runs_across_lanes(const fftgen_kernel_plan *p)
{
    return runs_across_lanes_shape(p) && p->staged_io && p->column_registers && !p->tensor_cores &&
           !p->tma_columns && p->cluster <= 1 && p->prefetch <= 1 && p->slice_rows == 0 && fftgen_smem_pad_every(p) == 16 &&
           p->smem_points >= padded_points(p, (long long)p->ffts_per_block * p->n);
}

/* A fused slice's rows load straight into registers where an untiled kernel of their length would
 * (direct_io_too_narrow), and in fp16 from rows of 64 points (4 threads a row), and its columns
 * store straight from registers: one exchange and one barrier fewer each way. H100, 2^27 points, ms
 * before -> after: fp16 128x128 0.612 -> 0.504, 16x1024 0.614 -> 0.518, 128^3 (128x128 slices, then
 * the columns) 1.019 -> 0.914, 64x64 0.461 -> 0.445, 64^3 0.869 -> 0.850; fp32 128x128 0.829 ->
 * 0.791, 256x64 0.851 -> 0.810. fp16 columns of 256 points stored straight measured slower (256x64:
 * 0.623 -> 0.743 ms, the same traffic at 21 against 16 cycles per issued instruction), so longer fp16
 * columns keep the copy. */
enum { MAX_FP16_SLICE_COLUMN_FOR_DIRECT_STORES = 128, MIN_FP16_SLICE_ROW_THREADS_FOR_DIRECT_LOADS = 4 };

/* Rows in runs that a warp can load straight into registers: see MAX_TILE_FOR_RUNS_IN_REGISTERS. */
static int runs_fit_registers(const fftgen_kernel_plan *p)
{
    return p->in.elem_stride == 1 && p->in.run_points > 0 && p->ffts_per_block <= MAX_TILE_FOR_RUNS_IN_REGISTERS &&
           p->threads_per_fft % p->in.run_points == 0;
}

int fftgen_can_load_rows_to_registers(const fftgen_kernel_plan *p)
{
    return p->precision == FFTGEN_KERNEL_FP32 && p->tiled && p->staged_io && p->column_registers &&
           !p->tensor_cores && runs_fit_registers(p);
}

int fftgen_loads_to_registers(const fftgen_kernel_plan *p)
{
    if (p->slice_rows > 0) { /* a fused slice's rows */
        if (p->row_rounds > 1) return 1; /* a thread's whole row: a warp's loads one run */
        const int row_threads = p->n / p->slice_rows / p->radix_max;
        if (p->cluster > 1) return 0;
        return p->precision == FFTGEN_KERNEL_FP16 ? row_threads >= MIN_FP16_SLICE_ROW_THREADS_FOR_DIRECT_LOADS
                                                  : !direct_io_too_narrow(row_threads, p->precision);
    }
    if (!p->tiled || !p->staged_io || !p->column_registers) return 0;
    if (p->in.elem_stride != 1) return 1;
    if (fftgen_tma_runs(p)) return 1; /* from the staging buffer the TMA fills */
    if (fftgen_reads_runs_across_lanes(p)) return 1;
    return (p->precision == FFTGEN_KERNEL_FP16 || p->row_registers) && runs_fit_registers(p);
}

int fftgen_copies_columns(const fftgen_kernel_plan *p)
{
    return p->tiled && !p->tensor_cores && !p->column_registers;
}

int fftgen_can_compute_twiddles(const fftgen_kernel_plan *p)
{
    if (p->tensor_cores) return 0;
    if (p->slice_rows > 0) /* a fused slice in one block: twiddles where its rows or its columns have two stages */
        return p->cluster < 2 && (p->stage_count >= 2 || p->col_stage_count >= 2);
    return p->stage_count >= 2;
}

int fftgen_stores_from_registers(const fftgen_kernel_plan *p)
{
    if (p->slice_rows > 0) /* a fused slice's columns: a warp stores 32 of them side by side (a volume's
                              stay in shared memory for the columns along dimension 0) */
        return p->cluster < 2 && p->volume_depth == 0 &&
               (p->precision != FFTGEN_KERNEL_FP16 || p->slice_rows <= MAX_FP16_SLICE_COLUMN_FOR_DIRECT_STORES);
    return p->tiled && p->staged_io && p->column_registers && p->out.elem_stride != 1;
}

int fftgen_merges_whole_columns(const fftgen_kernel_plan *p)
{
    return p->slice_rows > 0 && p->merged_stage && p->col_stage_count == 1;
}

int fftgen_block_threads_supported(long long threads)
{
    return threads >= 32 && threads <= FFTGEN_MAX_THREADS_PER_BLOCK && (threads & (threads - 1)) == 0;
}

int fftgen_four_step_supported(long long n1)
{
    return n1 >= 2 && n1 <= (1LL << 29) && (n1 & (n1 - 1)) == 0;
}

int fftgen_prefetch_supported(long long transforms)
{
    return transforms >= 2 && transforms <= FFTGEN_MAX_PREFETCH && (transforms & (transforms - 1)) == 0;
}

int fftgen_l2_prefetch_supported(long long kb)
{
    return kb == FFTGEN_L2_PREFETCH_OFF || (kb >= 0 && kb <= FFTGEN_MAX_L2_PREFETCH_KB);
}

int fftgen_l2_prefetch_parse(const char *text)
{
    char *end = NULL;
    const long long kb = text != NULL ? strtoll(text, &end, 10) : -1;
    if (text == NULL || end == text || *end != '\0' || kb < 0 || kb > FFTGEN_MAX_L2_PREFETCH_KB) return 0;
    return kb == 0 ? FFTGEN_L2_PREFETCH_OFF : (int)kb;
}

int fftgen_l2_prefetch_written(int l2_prefetch_kb)
{
    return l2_prefetch_kb == FFTGEN_L2_PREFETCH_OFF ? 0 : l2_prefetch_kb;
}

int fftgen_radix_supported(long long radix)
{
    return radix == 2 || radix == 4 || radix == 8 || radix == 16 || radix == 32;
}

static int log2_exact(long long n)
{
    int k = 0;
    while (k < 62 && (1LL << k) < n) ++k;
    return (1LL << k) == n ? k : -1;
}

/* Computes the plan; the caller has checked the architecture. The status alone says what failed.
 * `block_threads`: at most this many threads a block, in whole transforms (at least one); 0 for
 * TARGET_THREADS_PER_BLOCK. */
static fftgen_plan_status build_plan(long long n, int radix, int block_threads, fftgen_kernel_precision precision,
                                     int arch, fftgen_kernel_plan *out)
{
    const int log_n = log2_exact(n);
    if (n < 2 || log_n < 0) return FFTGEN_PLAN_BAD_SIZE;
    if (radix == 0) radix = n < 16 ? (int)n : 16;
    if (!fftgen_radix_supported(radix)) return FFTGEN_PLAN_BAD_RADIX;
    if (n % radix != 0) return FFTGEN_PLAN_RADIX_NOT_DIVIDING;

    fftgen_kernel_plan p = {0};
    p.arch = arch;
    p.precision = precision;
    p.radix_max = radix;
    if (n / radix > FFTGEN_MAX_THREADS_PER_BLOCK) {
        p.threads = n / radix > (1 << 30) ? (1 << 30) : (int)(n / radix); /* for the message */
        *out = p;
        return FFTGEN_PLAN_TOO_LARGE;
    }
    p.n = (int)n;
    const int log_r = log2_exact(radix);
    for (int s = 0; s < log_n / log_r; ++s) p.radices[p.stage_count++] = radix;
    if (log_n % log_r != 0) p.radices[p.stage_count++] = 1 << (log_n % log_r);
    p.threads_per_fft = (int)(n / radix);
    const int target = block_threads != 0 ? block_threads : TARGET_THREADS_PER_BLOCK;
    p.ffts_per_block = p.threads_per_fft >= target ? 1 : target / p.threads_per_fft;
    if (p.ffts_per_block > 1 && p.ffts_per_block * p.n > MAX_SHARED_POINTS)
        p.ffts_per_block = MAX_SHARED_POINTS / p.n > 0 ? MAX_SHARED_POINTS / p.n : 1;
    p.threads = p.threads_per_fft * p.ffts_per_block;
    p.staged_io = direct_io_too_narrow(p.threads_per_fft, precision);
    if (p.stage_count > 1 || p.staged_io) {
        /* float2 exchanges even for fp16 storage: data stay fp32 until the final store;
         * one pad element every 16 */
        const long long points = (long long)p.ffts_per_block * p.n;
        p.smem_points = (int)(points + points / 16);
        p.shared_bytes = 8 * p.smem_points;
    }
    *out = p;
    return p.shared_bytes > fftgen_arch_shared_limit(arch) ? FFTGEN_PLAN_TOO_LARGE : FFTGEN_PLAN_OK;
}

/* The radix of a 1D transform in one kernel when the request names none. fp16 transforms of 32 and 64
 * points would get 2 and 4 threads each from radix 16, too few to read and write straight
 * (direct_io_too_narrow), so they would copy their points through shared memory on the way in and
 * out as well as exchange them between the stages. H100, 2^27 points, median of 50 runs, two rounds
 * (results/notes.md): 32 points in one thread (radix 32, no exchange) 101.0% and 100.8% of copy
 * bandwidth against 96.1% and 96.2% with radix 16; 64 points on 8 threads (radix 8: straight loads
 * and stores, one exchange) 100.5% and 99.6% against 95.6% and 95.4%. Radix 8 at 32 points (4
 * threads, staged) measured 88%, radix 4 (8 threads, two exchanges) 73%. 128 points on 16 threads
 * (radix 8: 8 x 8 x 2, an exchange more, but a warp reads 64 bytes of a transform instead of 32)
 * measured 1% faster in five rounds (100.4-100.5% against 99.2-99.3% in the last three). fp32 is at
 * copy speed with radix 16 there; tensor-core requests keep the radix-16 stages that they run. */
static int default_single_kernel_radix(const fftgen_kernel_request *request)
{
    if (request->max_radix != 0 || request->precision != FFTGEN_KERNEL_FP16 || request->tensor_cores != 0)
        return request->max_radix;
    if (request->n == 32) return 32;
    if (request->n == 64 || request->n == 128) return 8;
    return 0;
}

/* Split plans put every radix-16 stage that fits on tensor cores whether asked or not; the
 * --tensor-cores request (one fp16 kernel) is a different thing, so it is dropped for them. */
static fftgen_kernel_request normalized(const fftgen_kernel_request *request)
{
    fftgen_kernel_request r = *request;
    if (fftgen_precision_is_split(r.precision)) r.tensor_cores = 0;
    return r;
}

long long fftgen_single_kernel_limit(fftgen_kernel_precision precision, int arch)
{
    if (fftgen_arch_shared_limit(arch) < 0) return 0;
    long long best = 0;
    fftgen_kernel_plan plan;
    for (long long n = 2; n <= (1LL << 30); n *= 2) {
        if (build_plan(n, 0, 0, precision, arch, &plan) != FFTGEN_PLAN_OK) break;
        best = n;
    }
    return best;
}

fftgen_plan_status fftgen_plan_kernel(const fftgen_kernel_request *asked, fftgen_kernel_plan *plan,
                                      char *why, size_t why_len)
{
    const fftgen_kernel_request normal = normalized(asked), *request = &normal;
    const long long n = request->n;
    const int arch = request->arch;
    const char *precision = fftgen_precision_name(request->precision);
    const int shared_limit = fftgen_arch_shared_limit(arch);
    if (shared_limit < 0) {
        snprintf(why, why_len, "unknown architecture sm_%d (known: %s)", arch, fftgen_known_archs());
        return FFTGEN_PLAN_BAD_ARCH;
    }
    fftgen_plan_status status = fftgen_check_split(request, 1, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_check_tensor_core_request(request, why, why_len);
    if (status != FFTGEN_PLAN_OK) return status;
    if (request->block_threads != 0 && !fftgen_block_threads_supported(request->block_threads)) {
        snprintf(why, why_len, "unknown block size of %d threads (expected a power of two from 32 to %d)",
                 request->block_threads, FFTGEN_MAX_THREADS_PER_BLOCK);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    fftgen_kernel_plan p;
    status = build_plan(n, default_single_kernel_radix(request), request->block_threads, request->precision, arch,
                        &p);
    if (status == FFTGEN_PLAN_OK && request->tensor_cores) {
        status = fftgen_use_tensor_cores(&p, why, why_len);
        if (status != FFTGEN_PLAN_OK) return status;
    }
    if (status == FFTGEN_PLAN_OK && fftgen_precision_is_split(request->precision) && fftgen_tensor_cores_fit(&p))
        status = fftgen_move_to_tensor_cores(&p);
    switch (status) {
    case FFTGEN_PLAN_OK:
        *plan = p;
        break;
    case FFTGEN_PLAN_BAD_SIZE:
        snprintf(why, why_len, "size %lld is not a power of two >= 2", n);
        break;
    case FFTGEN_PLAN_BAD_RADIX:
        snprintf(why, why_len, "unknown radix %d (expected 2, 4, 8, 16 or 32)", request->max_radix);
        break;
    case FFTGEN_PLAN_RADIX_NOT_DIVIDING:
        snprintf(why, why_len, "radix %d does not divide size %lld", request->max_radix, n);
        break;
    case FFTGEN_PLAN_TOO_LARGE:
        if (p.threads > FFTGEN_MAX_THREADS_PER_BLOCK)
            snprintf(why, why_len,
                     "size %lld exceeds the single-kernel limit of %lld points for %s on sm_%d"
                     " (radix %d would need %d threads per block, at most %d)",
                     n, fftgen_single_kernel_limit(request->precision, arch), precision, arch, p.radix_max,
                     p.threads, FFTGEN_MAX_THREADS_PER_BLOCK);
        else
            snprintf(why, why_len,
                     "size %lld exceeds the single-kernel limit of %lld points for %s on sm_%d"
                     " (it needs %d bytes of shared memory per block, at most %d)",
                     n, fftgen_single_kernel_limit(request->precision, arch), precision, arch, p.shared_bytes,
                     shared_limit);
        break;
    case FFTGEN_PLAN_BAD_ARCH:
    case FFTGEN_PLAN_BAD_LAYOUT:
        break;
    }
    return status;
}

/* One strided pass of `n` points: tiles of `tile` transforms, staged through shared memory; `radix`
 * points a thread (0: the planner's). */
static fftgen_plan_status plan_tile(long long n, int radix, int tile, fftgen_kernel_precision precision, int arch,
                                    fftgen_layout in, fftgen_layout out, long long twiddle_n, fftgen_kernel_plan *p)
{
    const fftgen_plan_status status = build_plan(n, radix, 0, precision, arch, p);
    if (status != FFTGEN_PLAN_OK && status != FFTGEN_PLAN_TOO_LARGE) return status;
    if (p->n == 0) return FFTGEN_PLAN_TOO_LARGE; /* more threads than a block has, even for one transform */
    p->tiled = 1;
    p->staged_io = 1;
    p->ffts_per_block = tile;
    p->threads = p->threads_per_fft * tile;
    const long long points = (long long)tile * n;
    p->smem_points = (int)(points + points / 16); /* the most a pad takes: fftgen_smem_pad_every */
    p->shared_bytes = 8 * p->smem_points;
    p->in = in;
    p->out = out;
    p->twiddle_n = twiddle_n;
    p->column_registers = 1;
    if (p->threads > FFTGEN_MAX_THREADS_PER_BLOCK || p->shared_bytes > fftgen_arch_shared_limit(arch))
        return FFTGEN_PLAN_TOO_LARGE;
    return FFTGEN_PLAN_OK;
}

static int storage_bytes(fftgen_kernel_precision precision)
{
    return precision == FFTGEN_KERNEL_FP16 ? 4 : 8;
}

/* Transforms a tile needs so that its runs fill a sector. */
static int min_sector_tile(fftgen_kernel_precision precision)
{
    return MIN_RUN_BYTES / storage_bytes(precision);
}

/* The widest tile tried for transforms of n points in strided pass `pass`: TILE_FFTS, fewer where
 * the block would pass its points (but not below a sector's run), or the request's cap for the pass
 * (measured by `fftgen tune`; FFTGEN_MAX_TILE). */
static int tile_limit(const fftgen_kernel_request *request, int pass, long long n, int four_step)
{
    if (request->max_tile.pass[pass] > 0) return request->max_tile.pass[pass];
    const long long points =
        four_step && request->precision == FFTGEN_KERNEL_FP16 ? TILE_POINTS_FOUR_STEP_FP16 : TILE_POINTS;
    int tile = TILE_FFTS;
    while (tile > min_sector_tile(request->precision) && (long long)tile * n > points) tile /= 2;
    return tile;
}

/* The points a thread of tiled pass `pass` holds: 32 where the request names the pass (and it has that
 * many points), else 0 for the planner's radix. */
static int pass_radix(const fftgen_kernel_request *request, int pass, long long n)
{
    return (request->radix32_passes >> pass & 1) && n >= 32 ? 32 : 0;
}

/* A tiled pass as wide as threads and shared memory allow, from `widest` down to `narrowest`
 * transforms per tile (powers of two), `radix` points a thread (0: the planner's). */
static fftgen_plan_status plan_widest_tile(long long n, int radix, int widest, int narrowest,
                                           fftgen_kernel_precision precision, int arch, fftgen_layout in,
                                           fftgen_layout out, long long twiddle_n, fftgen_kernel_plan *p)
{
    fftgen_plan_status status = FFTGEN_PLAN_TOO_LARGE;
    for (int tile = widest; tile >= narrowest && tile >= 1; tile /= 2) {
        status = plan_tile(n, radix, tile, precision, arch, in, out, twiddle_n, p);
        if (status != FFTGEN_PLAN_TOO_LARGE) return status;
    }
    return status;
}

/* A tiled pass of a 1D split; `sector_runs`: no tile narrower than a sector's run (else down to 1). */
static fftgen_plan_status plan_tiled_pass(const fftgen_kernel_request *request, int pass, int sector_runs,
                                          long long n, fftgen_layout in, fftgen_layout out, long long twiddle_n,
                                          fftgen_kernel_plan *p)
{
    const int widest = tile_limit(request, pass, n, 1);
    const int sector = min_sector_tile(request->precision);
    int narrowest = 1;
    if (sector_runs) narrowest = sector < widest ? sector : widest;
    return plan_widest_tile(n, pass_radix(request, pass, n), widest, narrowest, request->precision, request->arch, in,
                            out, twiddle_n, p);
}

/* The default cluster size for `points` points: the fewest blocks of at most CLUSTER_BLOCK_POINTS
 * points, up to MAX_CLUSTER; 1 (none) where more would be needed. */
static int fewest_cluster_blocks(long long points)
{
    int size = 2;
    while (size < MAX_CLUSTER && points / size > CLUSTER_BLOCK_POINTS) size *= 2;
    return points / size <= CLUSTER_BLOCK_POINTS ? size : 1;
}

/* Whether a plan can take clusters of `size` blocks: 2, 4 or 8, sm_90 and newer, stages on CUDA cores. */
static int cluster_allowed(const fftgen_kernel_request *request, int size)
{
    return size >= 2 && size <= MAX_CLUSTER && (size & (size - 1)) == 0 && request->arch >= FFTGEN_CLUSTER_ARCH &&
           request->tensor_cores == 0 && !fftgen_precision_is_split(request->precision);
}

/* Columns of n points (layout: fft_stride 1) on thread-block clusters (sm_90), times the pass twiddles
 * of twiddle_n where > 0: each cluster takes a tile of columns side by side, as many as fill a 32-byte
 * sector (or the request's tile); block c of the cluster transforms the rows c + C*j of each (n/C
 * points) and keeps them in shared memory, and the last stage, radix C, reads every block's results
 * through distributed shared memory. C: the request's, else the fewest blocks of at most
 * CLUSTER_BLOCK_POINTS. H100, 2^27 points, against cuFFT in the same run: 8192x8192 fp32 0.97x -> 1.19x
 * with 4 blocks (1.10x with 2, 1.12x with 8); 4096x4096 fp16 2.90x -> 3.19x with 4 (2.93x with 2,
 * 3.17x with 8); 8192x8192 fp16 2.84x in two four-step passes against 2.80x with 8, at 3.5e-4 instead
 * of 4.0e-4 (one rounding to fp16 fewer). A block's n/C points take radix 32 where the request names
 * the pass, a measured choice: H200, fp16 4096x4096 on 8 blocks 0.919 -> 0.875 ms (but 0.852 in the
 * shipped line's three passes), on 4 0.986 -> 1.060; fp32 4096x4096 on 8 1.2579 -> 1.2566
 * (results/notes.md). */
static fftgen_plan_status plan_cluster_tile(const fftgen_kernel_request *request, int index, long long n,
                                            fftgen_layout layout, long long twiddle_n, fftgen_kernel_plan *pass)
{
    /* a sector's run, or the request's tile (measured by `fftgen tune`) */
    int tile = request->max_tile.pass[index] > 0 ? request->max_tile.pass[index] : min_sector_tile(request->precision);
    while (tile > layout.group_size) tile /= 2;
    const int size = request->cluster != 0 ? request->cluster : fewest_cluster_blocks(n * tile);
    if (!cluster_allowed(request, size) || n / size < 2) return FFTGEN_PLAN_TOO_LARGE;
    /* short columns: more of them side by side, so that the block is whole warps */
    const long long threads_per_fft = n / size / (n / size < 16 ? n / size : 16);
    while (tile < TILE_FFTS && tile * 2 <= layout.group_size && tile * threads_per_fft < 32) tile *= 2;
    fftgen_kernel_plan k;
    const fftgen_plan_status status =
        plan_tile(n / size, pass_radix(request, index, n / size), tile, request->precision, request->arch, layout,
                  layout, twiddle_n, &k);
    if (status != FFTGEN_PLAN_OK) return status;
    /* the last stage gives each thread radix_max / size of the block's outputs per column, a warp's
     * reads THREADS apart in each block's shared memory */
    if (k.stage_count < 2 || k.radix_max % size != 0 || k.threads % 32 != 0) return FFTGEN_PLAN_TOO_LARGE;
    k.cluster = size;
    *pass = k;
    return FFTGEN_PLAN_OK;
}

/* Pass 1 of a two-pass split writes each tile of T columns as one contiguous block, point k1 of column
 * c at block*T*n1 + k1*T + c mod T, and pass 2 reads its rows from those blocks in runs of T points:
 * F rows of a pass-2 tile are F*T contiguous points per run. So pass 1 writes whole lines instead of
 * T-element runs n2 apart, and pass 2 still reads runs of F*T (256 bytes for fp16 tiles of 8). H100,
 * 2^27 points, both passes: fp16 2^18 0.898 -> 0.805 ms, 2^21 1.128 -> 1.048, fp32 2^20 1.539 ->
 * 1.513 (results/notes.md). Plans on clusters, tiles of one, and rows whose threads do not cover
 * whole copies of a tile's runs (short rows) keep plain columns. */
static void write_tiles_as_blocks(long long n1, long long n2, fftgen_kernel_plan *columns, fftgen_kernel_plan *rows)
{
    const long long tile = columns->ffts_per_block, run_block = (long long)rows->ffts_per_block * tile;
    if (columns->cluster > 1 || tile < 2 || n2 % tile != 0 || rows->threads % run_block != 0 ||
        rows->threads % 16 != 0)
        return;
    columns->in.group_size = columns->out.group_size = tile;
    columns->in.group_count = columns->out.group_count = n2 / tile;
    columns->in.group_stride = tile;
    columns->out.group_stride = tile * n1;
    columns->out.elem_stride = tile;
    columns->twiddle_by_column = 1;
    rows->in.fft_stride = tile;
    rows->in.run_points = tile;
    rows->in.run_stride = tile * n1;
    /* room for padded_wide where the rows' lanes may read along the runs (and fit; else they do not) */
    const int wide = (int)padded_points(rows, (long long)rows->ffts_per_block * rows->n) - rows->smem_points;
    if (wide > 0 && rows->shared_bytes + 8 * wide <= fftgen_arch_shared_limit(rows->arch)) {
        rows->smem_points += wide;
        rows->shared_bytes += 8 * wide;
    }
}

/* n = n1 * n2: n2 columns of n1 points, then n1 rows of n2 points written transposed; the columns on
 * thread-block clusters where `on_cluster`, else written tile by tile as blocks (write_tiles_as_blocks). */
static fftgen_plan_status plan_two_pass_split(const fftgen_kernel_request *request, long long n1, int on_cluster,
                                              fftgen_transform_plan *plan)
{
    const long long n = request->n, n2 = n / n1;
    /* pass 1: n2 columns of n1 points (stride n2), twiddled by exp(-2*pi*i*column*k1/n) */
    const fftgen_layout columns = {n2, 1, n2, 1, 0, n, 0, 0};
    /* pass 2: n1 rows of n2 points (contiguous), written transposed: X[k1 + n1*k2] */
    const fftgen_layout rows = {1, n2, n1, 1, 0, n, 0, 0};
    const fftgen_layout transposed = {n1, 1, n1, 1, 0, n, 0, 0};
    fftgen_plan_status status = on_cluster ? plan_cluster_tile(request, 0, n1, columns, n, &plan->pass[0])
                                           : plan_tiled_pass(request, 0, 1, n1, columns, columns, n, &plan->pass[0]);
    if (status == FFTGEN_PLAN_OK) status = plan_tiled_pass(request, 1, 1, n2, rows, transposed, 0, &plan->pass[1]);
    if (status == FFTGEN_PLAN_OK) write_tiles_as_blocks(n1, n2, &plan->pass[0], &plan->pass[1]);
    plan->pass_count = 2;
    return status;
}

/* Two tiled passes: of the splits whose tiles fill sectors, the one with the widest narrower tile
 * (the run length that bounds the slower pass), the most even one among equals, the shorter columns
 * first where n is an odd power (H100, 2^27 points, 2^19 as 512 x 1024 against 1024 x 512: fp16
 * 0.830 against 0.883 ms, fp32 1.461 against 1.495; results/notes.md); the columns on thread-block
 * clusters where `on_cluster`. */
static fftgen_plan_status plan_two_passes(const fftgen_kernel_request *request, int on_cluster,
                                          fftgen_transform_plan *plan)
{
    const int log_n = log2_exact(request->n);
    fftgen_plan_status status = FFTGEN_PLAN_TOO_LARGE;
    int best_tile = 0;
    for (int k = 0; k <= log_n; ++k) {
        /* log2(n1) = floor(log_n/2), then one up, one down, ...; or only the request's */
        const int log_n1 = request->four_step_columns != 0 ? (k == 0 ? log2_exact(request->four_step_columns) : -1)
                                                            : log_n / 2 + (k % 2 ? (k + 1) / 2 : -(k / 2));
        if (log_n1 < 1 || log_n1 >= log_n) continue;
        fftgen_transform_plan candidate = *plan;
        if (plan_two_pass_split(request, 1LL << log_n1, on_cluster, &candidate) != FFTGEN_PLAN_OK) continue;
        const int narrower = candidate.pass[0].ffts_per_block < candidate.pass[1].ffts_per_block
                                 ? candidate.pass[0].ffts_per_block : candidate.pass[1].ffts_per_block;
        if (narrower > best_tile) {
            best_tile = narrower;
            *plan = candidate;
            status = FFTGEN_PLAN_OK;
        }
    }
    return status;
}

/* n = n1 * n2 * n3 (m = n2 * n3): the n1-point columns of the n1 x m array, then on each row the
 * two-pass scheme, whose last pass writes X[k1 + n1*k2 + n1*n2*k3]. */
static fftgen_plan_status plan_three_passes(const fftgen_kernel_request *request, fftgen_transform_plan *plan)
{
    const long long n = request->n;
    const int log_n = log2_exact(n);
    const long long n1 = 1LL << (log_n / 3), n2 = 1LL << ((log_n - log_n / 3) / 2), n3 = n / (n1 * n2);
    const long long m = n2 * n3;
    /* pass 1: m columns of n1 points (stride m), twiddled by exp(-2*pi*i*column*k1/n) */
    const fftgen_layout columns1 = {m, 1, m, 1, 0, n, 0, 0};
    /* pass 2: in each of the n1 rows, n3 columns of n2 points (stride n3), twiddled by
     * exp(-2*pi*i*column*k2/m) */
    const fftgen_layout columns2 = {n3, 1, n3, n1, m, n, 0, 0};
    /* pass 3: rows (k1, k2) of n3 points, k1 fastest so that the transposed writes are side by side */
    const fftgen_layout rows = {1, m, n1, n2, n3, n, 0, 0};
    const fftgen_layout transposed = {n1 * n2, 1, n1, n2, n1, n, 0, 0};
    /* the last resort: narrower tiles where shared memory is small (sm_75) */
    fftgen_plan_status status = plan_tiled_pass(request, 0, 0, n1, columns1, columns1, n, &plan->pass[0]);
    if (status == FFTGEN_PLAN_OK) status = plan_tiled_pass(request, 1, 0, n2, columns2, columns2, m, &plan->pass[1]);
    if (status == FFTGEN_PLAN_OK) status = plan_tiled_pass(request, 2, 0, n3, rows, transposed, 0, &plan->pass[2]);
    plan->pass_count = 3;
    return status;
}

/* A 1D chain of passes: the input to the work area, through it, to the output. */
static void route_through_work(fftgen_transform_plan *plan)
{
    for (int i = 0; i < plan->pass_count; ++i) {
        plan->pass[i].source = i == 0 ? FFTGEN_BUFFER_INPUT : FFTGEN_BUFFER_WORK;
        plan->pass[i].target = i == plan->pass_count - 1 ? FFTGEN_BUFFER_OUTPUT : FFTGEN_BUFFER_WORK;
    }
}

int fftgen_plan_needs_work(const fftgen_transform_plan *plan)
{
    for (int i = 0; i < plan->pass_count; ++i)
        if (plan->pass[i].source == FFTGEN_BUFFER_WORK || plan->pass[i].target == FFTGEN_BUFFER_WORK) return 1;
    return 0;
}

long long fftgen_pass_ffts(const fftgen_kernel_plan *pass, long long points)
{
    const long long covered = pass->tiled && pass->cluster > 1 ? (long long)pass->n * pass->cluster : pass->n;
    return points / covered;
}

long long fftgen_pass_blocks(const fftgen_kernel_plan *pass, long long ffts, int sms)
{
    if (pass->prefetch > 1) {
        /* prefetch transforms (a tiled pass: tiles) a block, but a block on every SM where the batch has
         * enough: a small batch would leave SMs idle (the kernel strides over them by the grid) */
        const long long units = pass->tiled ? (ffts + pass->ffts_per_block - 1) / pass->ffts_per_block : ffts;
        const long long turns = (units + pass->prefetch - 1) / pass->prefetch, spread = units < sms ? units : sms;
        return turns > spread ? turns : spread;
    }
    const long long tiles = (ffts + pass->ffts_per_block - 1) / pass->ffts_per_block;
    if (pass->tile_pairs) return (tiles + 1) / 2;
    return pass->tiled && pass->cluster > 1 ? tiles * pass->cluster : tiles;
}

/* The cluster size a 1D transform too large for one block takes by default; 1: passes instead.
 * H100, 2^27 points, % of copy bandwidth against two passes: fp32 2^15 69.4% with 4 blocks of 8192
 * points (63.6% with 2 of 16384, passes 49.2%), 2^16 53.7% with 8 of 8192 (50.0% with 4 of 16384,
 * passes 49.8%), 2^17 38.4% with 8 of 16384 (passes 49.0%). fp16 stays in passes: 2^15 42.6% with 4
 * against 48.1%, 2^16 35.0% with 8 against 47.9% (the traffic between the blocks costs more than a
 * second pass; results/notes.md). */
static int default_cluster(const fftgen_kernel_request *request)
{
    return request->precision == FFTGEN_KERNEL_FP32 ? fewest_cluster_blocks(request->n) : 1;
}

/* One pass on a thread-block cluster (see fftgen_kernel_plan.cluster): each block holds n / size
 * points, one transform per block, loaded straight from global memory. */
static fftgen_plan_status plan_cluster(const fftgen_kernel_request *request, fftgen_kernel_plan *p)
{
    const int size = request->cluster != 0 ? request->cluster : default_cluster(request);
    if (!cluster_allowed(request, size)) return FFTGEN_PLAN_TOO_LARGE;
    fftgen_kernel_plan k;
    const fftgen_plan_status status = build_plan(request->n / size, 0, 0, request->precision, request->arch, &k);
    if (status != FFTGEN_PLAN_OK) return status;
    /* the last stage gives each thread radix_max / size of the block's outputs' columns */
    if (k.ffts_per_block != 1 || k.staged_io || k.stage_count < 2 || k.radix_max % size != 0)
        return FFTGEN_PLAN_TOO_LARGE;
    k.cluster = size;
    *p = k;
    return FFTGEN_PLAN_OK;
}

/* The whole-transform decision, without messages. */
static fftgen_plan_status plan_transform_quietly(const fftgen_kernel_request *request, fftgen_transform_plan *plan)
{
    fftgen_transform_plan p = {0};
    p.n = request->n;
    p.rank = 1;
    p.shape[0] = request->n;
    p.in.stride = p.out.stride = 1;
    p.in.dist = p.out.dist = request->n;
    fftgen_plan_status status = build_plan(request->n, default_single_kernel_radix(request), request->block_threads,
                                           request->precision, request->arch, &p.pass[0]);
    if (status == FFTGEN_PLAN_OK && fftgen_precision_is_split(request->precision) &&
        p.pass[0].threads > SPLIT_MAX_THREADS)
        status = FFTGEN_PLAN_TOO_LARGE; /* two passes instead */
    if (status == FFTGEN_PLAN_OK) {
        p.pass_count = 1;
    } else if (status == FFTGEN_PLAN_TOO_LARGE && request->max_radix == 0) {
        /* one pass on a cluster, else the fewest passes that fit (two where the request splits them) */
        status = request->four_step_columns != 0 ? FFTGEN_PLAN_TOO_LARGE : plan_cluster(request, &p.pass[0]);
        if (status == FFTGEN_PLAN_OK)
            p.pass_count = 1;
        else if (request->cluster > 1 && plan_two_passes(request, 1, &p) == FFTGEN_PLAN_OK)
            status = FFTGEN_PLAN_OK; /* the request's cluster size for the columns of two passes */
        else
            status = plan_two_passes(request, 0, &p);
        /* fp32 sizes that would take three passes: two, the columns on clusters (sm_90). H100, against
         * three passes: 2^25 31.2% -> 33.8% of copy bandwidth (8192-point columns on 4 blocks), 2^26
         * 30.9% -> 32.3% (16384 on 8); where two passes plan without them, clusters measured slower
         * (2^21..2^24), and fp16 slower at every size */
        if (status != FFTGEN_PLAN_OK && request->cluster == 0 && request->precision == FFTGEN_KERNEL_FP32 &&
            plan_two_passes(request, 1, &p) == FFTGEN_PLAN_OK)
            status = FFTGEN_PLAN_OK;
        if (status != FFTGEN_PLAN_OK && request->n <= (1LL << 30) && request->four_step_columns == 0)
            status = plan_three_passes(request, &p);
    }
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_on_tensor_cores(request, &p);
    if (status == FFTGEN_PLAN_OK) {
        route_through_work(&p);
        *plan = p;
    }
    return status;
}

/* A request's split of a 1D size into two passes (fftgen_kernel_request.four_step_columns), given
 * fftgen_plan_kernel's status for the size: one kernel fits it, so it takes no passes. */
static fftgen_plan_status check_four_step_columns(const fftgen_kernel_request *request,
                                                  fftgen_plan_status single, char *why, size_t why_len)
{
    const int n1 = request->four_step_columns;
    if (n1 < 2 || log2_exact(n1) < 0 || n1 >= request->n) {
        snprintf(why, why_len, "four-step columns of %d points: not a power of two from 2 to half the size %lld",
                 n1, request->n);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (single == FFTGEN_PLAN_OK) {
        snprintf(why, why_len, "size %lld is one kernel for %s on sm_%d: a four-step split applies to sizes of"
                               " two passes", request->n, fftgen_precision_name(request->precision), request->arch);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    return FFTGEN_PLAN_OK;
}

fftgen_plan_status fftgen_plan_transform(const fftgen_kernel_request *asked, fftgen_transform_plan *plan,
                                         char *why, size_t why_len)
{
    const fftgen_kernel_request normal = normalized(asked), *request = &normal;
    fftgen_kernel_plan single;
    fftgen_plan_status status = fftgen_plan_kernel(request, &single, why, why_len);
    if (status != FFTGEN_PLAN_OK && status != FFTGEN_PLAN_TOO_LARGE) return status;
    if (status == FFTGEN_PLAN_TOO_LARGE && request->max_radix != 0) return status; /* its message stands */
    if (status == FFTGEN_PLAN_TOO_LARGE && request->block_threads != 0) {
        snprintf(why, why_len,
                 "a block size can be chosen for 1D sizes of one kernel only (%s: up to %lld points on sm_%d)",
                 fftgen_precision_name(request->precision),
                 fftgen_single_kernel_limit(request->precision, request->arch), request->arch);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (request->four_step_columns != 0) {
        status = check_four_step_columns(request, status, why, why_len);
        if (status != FFTGEN_PLAN_OK) return status;
    }
    status = plan_transform_quietly(request, plan);
    if (status == FFTGEN_PLAN_TOO_LARGE && request->four_step_columns != 0) {
        snprintf(why, why_len, "size %lld: no two-pass plan takes columns of %d points for %s on sm_%d (their tiles"
                               " or the rows' do not fit a block)", request->n, request->four_step_columns,
                 fftgen_precision_name(request->precision), request->arch);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (status == FFTGEN_PLAN_TOO_LARGE)
        snprintf(why, why_len, "size %lld exceeds the largest size fftgen plans yet, %lld points for %s on sm_%d",
                 request->n, fftgen_transform_limit(request->precision, request->arch),
                 fftgen_precision_name(request->precision), request->arch);
    if (status == FFTGEN_PLAN_OK) status = fftgen_check_tensor_cores_placed(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_check_radix32_placed(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_column_registers(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_twiddle_powers(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_prefetch(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) fftgen_place_intermediates(request, plan);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_column_pairs(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_row_registers(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_l2_fetch_256(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_l2_prefetch(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_tma_columns(request, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_tile_pairs(request, plan, why, why_len);
    plan->max_tile = request->max_tile;
    plan->cluster = request->cluster;
    plan->block_threads = request->block_threads;
    plan->prefetch = request->prefetch;
    plan->l2_prefetch_kb = fftgen_l2_prefetch_kb_kept(request, plan);
    plan->four_step_columns = request->four_step_columns;
    return status;
}

long long fftgen_transform_limit(fftgen_kernel_precision precision, int arch)
{
    if (fftgen_arch_shared_limit(arch) < 0) return 0;
    long long best = 0;
    for (long long n = 2; n <= (1LL << 30); n *= 2) {
        const fftgen_kernel_request request = {n, 0, precision, arch, 0, {{0}}, 0, FFTGEN_INTERMEDIATE_DEFAULT,
                                               0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        fftgen_transform_plan plan;
        if (plan_transform_quietly(&request, &plan) != FFTGEN_PLAN_OK) break;
        best = n;
    }
    return best;
}

/* A user layout as a pass layout over tiles of `tile` transforms: transform f at f*dist. */
static fftgen_layout user_pass_layout(fftgen_user_layout user, int tile)
{
    const fftgen_layout layout = {user.stride, user.dist, tile, 1, 0, user.dist * tile, 0, 0};
    return layout;
}

/* Composes a pass layout with a user layout: element e of transform b lies at b*dist + e*stride. */
static void apply_user_layout(fftgen_layout *layout, fftgen_user_layout user)
{
    layout->elem_stride *= user.stride;
    layout->fft_stride *= user.stride;
    layout->group_stride *= user.stride;
    layout->batch_stride = user.dist;
}

fftgen_plan_status fftgen_plan_strided(const fftgen_kernel_request *asked, fftgen_user_layout in,
                                       fftgen_user_layout out, fftgen_transform_plan *plan, char *why,
                                       size_t why_len)
{
    fftgen_kernel_request normal = normalized(asked);
    const fftgen_kernel_request *request = &normal;
    const long long n = request->n;
    const int contiguous = in.stride == 1 && in.dist == n && out.stride == 1 && out.dist == n;
    if (!contiguous) normal.cluster = 1; /* a cluster's blocks read and write dense transforms */
    if (!contiguous && request->max_radix != 0) {
        /* strided layouts take tiled passes, whose chains are the planner's */
        snprintf(why, why_len, "a radix can be chosen for contiguous layouts only (stride 1, distance n)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (!contiguous && request->block_threads != 0) {
        snprintf(why, why_len, "a block size can be chosen for contiguous layouts only (stride 1, distance n)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (!contiguous && request->prefetch != 0) {
        snprintf(why, why_len, "a prefetch applies to contiguous layouts only (stride 1, distance n)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (!contiguous && (request->l2_prefetch_kb > 0 || request->l2_prefetch_passes != 0)) {
        snprintf(why, why_len, "an L2 prefetch applies to contiguous layouts only (stride 1, distance n)");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    /* the contiguous plan's passes take the user's strides below: none keeps an L2 prefetch placed for
     * dense data (fftgen_can_l2_prefetch) */
    if (!contiguous) normal.l2_prefetch_kb = FFTGEN_L2_PREFETCH_OFF;
    /* a strided size of one kernel is planned again below as one tiled pass, which takes the radix-32
     * request: the untiled plan it replaces cannot */
    fftgen_kernel_request untiled = normal;
    if (!contiguous) untiled.radix32_passes = 0;
    fftgen_plan_status status = fftgen_plan_transform(&untiled, plan, why, why_len);
    if (status == FFTGEN_PLAN_OK && !contiguous && plan->pass_count > 1 && normal.radix32_passes != 0)
        status = fftgen_plan_transform(request, plan, why, why_len);
    plan->cluster = asked->cluster;
    plan->l2_prefetch_kb = fftgen_l2_prefetch_kb_kept(asked, plan);
    if (status != FFTGEN_PLAN_OK || contiguous) return status;
    if (in.stride < 1 || in.dist < 1 || out.stride < 1 || out.dist < 1) {
        snprintf(why, why_len, "strides and distances must be >= 1");
        return FFTGEN_PLAN_BAD_LAYOUT;
    }
    if (plan->pass_count == 1) {
        /* one tiled pass: as many transforms per tile as threads and shared memory allow, up to 16 */
        for (int tile = tile_limit(request, 0, n, 0); tile >= 1; tile /= 2) {
            fftgen_transform_plan p = {0};
            p.n = n;
            p.rank = 1;
            p.shape[0] = n;
            p.pass_count = 1;
            p.in = in;
            p.out = out;
            status = plan_tile(n, pass_radix(request, 0, n), tile, request->precision, request->arch,
                               user_pass_layout(in, tile), user_pass_layout(out, tile), 0, &p.pass[0]);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_on_tensor_cores(request, &p);
            if (status == FFTGEN_PLAN_OK) status = fftgen_check_tensor_cores_placed(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_check_radix32_placed(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_column_registers(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_twiddle_powers(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_column_pairs(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_row_registers(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_l2_fetch_256(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_tma_columns(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) status = fftgen_place_tile_pairs(request, &p, why, why_len);
            if (status == FFTGEN_PLAN_OK) {
                route_through_work(&p);
                p.max_tile = request->max_tile;
                *plan = p;
                return status;
            }
        }
        snprintf(why, why_len, "size %lld in a strided layout does not fit one block on sm_%d", n, request->arch);
        return FFTGEN_PLAN_TOO_LARGE;
    }
    /* passes: the first reads the user's layout, the last writes it; between, the work area */
    apply_user_layout(&plan->pass[0].in, in);
    apply_user_layout(&plan->pass[plan->pass_count - 1].out, out);
    fftgen_keep_column_choices_that_fit(plan);
    plan->in = in;
    plan->out = out;
    return FFTGEN_PLAN_OK;
}

/* ------------------------------------------------------------------ 2D and 3D shapes */

static long long embed_of(const fftgen_user_layout *layout, const long long *shape, int d)
{
    return layout->embed[d] > 0 ? layout->embed[d] : shape[d];
}

/* Elements between neighbours along dimension d. */
static long long dimension_step(const fftgen_user_layout *layout, int rank, const long long *shape, int d)
{
    long long step = layout->stride;
    for (int k = rank - 1; k > d; --k) step *= embed_of(layout, shape, k);
    return step;
}

/* Pass `index`: columns of n points side by side, as many per tile as the request's cap, threads and
 * shared memory allow, and no more than there are (`columns`: a tile stays within a group). */
static fftgen_plan_status plan_columns(const fftgen_kernel_request *request, int index, long long n,
                                       long long columns, fftgen_layout in, fftgen_layout out, long long twiddle_n,
                                       fftgen_kernel_plan *pass)
{
    int widest = tile_limit(request, index, n, 0);
    while (widest > columns) widest /= 2;
    const int radix = pass_radix(request, index, n);
    const fftgen_plan_status status =
        plan_widest_tile(n, radix, widest, 1, request->precision, request->arch, in, out, twiddle_n, pass);
    if (status != FFTGEN_PLAN_OK || request->max_tile.pass[index] > 0) return status;
    /* short columns: TILE_FFTS of them leave a block a warp or less (4 points: 16 threads), and an SM
     * holds too few blocks to cover the latency of its loads, so the tile widens to a block of
     * MIN_COLUMN_BLOCK_THREADS */
    fftgen_kernel_plan wider;
    for (int tile = pass->ffts_per_block * 2; pass->threads < MIN_COLUMN_BLOCK_THREADS && tile <= columns &&
                                              (long long)tile * n <= TILE_POINTS;
         tile *= 2) {
        if (plan_tile(n, radix, tile, request->precision, request->arch, in, out, twiddle_n, &wider) != FFTGEN_PLAN_OK)
            break;
        *pass = wider;
    }
    return FFTGEN_PLAN_OK;
}

/* Dimension d of dense data in two tiled passes, the four-step way, when its columns are too long for
 * one block or would be read in tiles narrower than SPLIT_COLUMN_TILE: with n0 = n1 * n2 points along d and
 * `inner` points after it, the n1-point columns (rows r2 + n2*r1) into the work area, each output k1
 * times exp(-2*pi*i*r2*k1/n0) (r2: the transform's group), then the n2-point columns, written to rows
 * k1 + n1*k2. The tiles run along the `inner` columns side by side, as wide as the planner allows. */
static fftgen_plan_status plan_split_column(const fftgen_kernel_request *request, int rank, const long long *shape,
                                            int d, int index, fftgen_kernel_plan pass[2])
{
    const long long n0 = shape[d], n1 = 1LL << (log2_exact(n0) / 2), n2 = n0 / n1;
    long long inner = 1;
    for (int k = d + 1; k < rank; ++k) inner *= shape[k];
    const long long entry = n0 * inner;
    const fftgen_layout first = {n2 * inner, 1, inner, n2, inner, entry, 0, 0};
    const fftgen_layout second_in = {inner, 1, inner, n1, n2 * inner, entry, 0, 0};
    const fftgen_layout second_out = {n1 * inner, 1, inner, n1, inner, entry, 0, 0};
    for (int i = 0; i < 2; ++i) {
        const fftgen_plan_status status = plan_columns(request, index + i, i ? n2 : n1, inner, i ? second_in : first,
                                                       i ? second_out : first, i ? 0 : n0, &pass[i]);
        if (status != FFTGEN_PLAN_OK) return status;
        pass[i].dimension = d;
    }
    pass[0].twiddle_by_group = 1;
    pass[0].source = FFTGEN_BUFFER_OUTPUT;
    pass[0].target = pass[1].source = FFTGEN_BUFFER_WORK;
    pass[1].target = FFTGEN_BUFFER_OUTPUT;
    return FFTGEN_PLAN_OK;
}

static int narrower_tile(const fftgen_kernel_plan pass[2])
{
    return pass[0].ffts_per_block < pass[1].ffts_per_block ? pass[0].ffts_per_block : pass[1].ffts_per_block;
}

/* Transform after transform, each dense (what the untiled and fused kernels read and write). */
static int is_contiguous(const fftgen_user_layout *layout, int rank, const long long *shape, long long points)
{
    if (layout->stride != 1 || layout->dist != points) return 0;
    for (int d = 1; d < rank; ++d)
        if (embed_of(layout, shape, d) != shape[d]) return 0;
    return 1;
}

/* The transforms along dimension d as a pass layout: the other dimensions, fastest first, are the
 * group member and the group; the user's batch is the batch. */
static fftgen_layout dimension_layout(const fftgen_user_layout *layout, int rank, const long long *shape, int d)
{
    long long sizes[2] = {1, 1}, steps[2] = {0, 0};
    int others = 0;
    for (int k = rank - 1; k >= 0; --k)
        if (k != d) {
            sizes[others] = shape[k];
            steps[others] = dimension_step(layout, rank, shape, k);
            ++others;
        }
    const fftgen_layout pass = {dimension_step(layout, rank, shape, d), steps[0], sizes[0], sizes[1], steps[1],
                                layout->dist, 0, 0};
    return pass;
}

/* Whether a layout's groups follow one another with no gap, so that they are one group. */
static int groups_adjoin(const fftgen_layout *layout)
{
    return layout->group_count > 1 && layout->group_stride == layout->group_size * layout->fft_stride;
}

/* Dimension d in tiles, as wide as threads and shared memory allow (a tile stays within a group). */
static fftgen_plan_status plan_dimension(const fftgen_kernel_request *request, int rank, const long long *shape,
                                         int d, const fftgen_user_layout *in, const fftgen_user_layout *out,
                                         int index, fftgen_kernel_plan *pass)
{
    fftgen_layout from = dimension_layout(in, rank, shape, d), to = dimension_layout(out, rank, shape, d);
    /* the first dimension of dense 3D data: its columns run through both other dimensions, so a tile
     * may cross rows (16x64x64: tiles of 128 instead of 64) */
    if (groups_adjoin(&from) && groups_adjoin(&to)) {
        fftgen_layout *sides[2] = {&from, &to};
        for (int i = 0; i < 2; ++i) {
            sides[i]->group_size *= sides[i]->group_count;
            sides[i]->group_stride *= sides[i]->group_count;
            sides[i]->group_count = 1;
        }
    }
    const fftgen_plan_status status = plan_columns(request, index, shape[d], from.group_size, from, to, 0, pass);
    /* short columns of 2D and 3D shapes measured faster through shared memory (H100: 256x256 fp16
     * 48.2% of copy bandwidth against 45.0%, 64^3 41.8% against 39.9%); longer ones, and every
     * four-step pass, faster straight from registers (1024x1024 fp16 42.1% against 38.4%) */
    pass->column_registers = shape[d] > SHORT_COLUMN_POINTS;
    return status;
}

/* Dimension d of dense data on thread-block clusters (sm_90): see plan_cluster_tile. One pass where the
 * one-block tiles would be too narrow or the columns too long, instead of two four-step passes through
 * the work area. */
static fftgen_plan_status plan_cluster_columns(const fftgen_kernel_request *request, int rank, const long long *shape,
                                               int d, const fftgen_user_layout *out, int index,
                                               fftgen_kernel_plan *pass)
{
    const fftgen_layout layout = dimension_layout(out, rank, shape, d);
    const fftgen_plan_status status = plan_cluster_tile(request, index, shape[d], layout, 0, pass);
    pass->dimension = d;
    return status;
}

/* A fused slice of `points` points in one block, `points_per_thread` a thread: its threads, and its
 * shared memory (padded one element every 16). */
static void size_one_block_slice(long long points, int points_per_thread, fftgen_kernel_plan *p)
{
    p->threads = (int)(points / points_per_thread);
    p->threads_per_fft = p->threads;
    p->ffts_per_block = 1;
    p->staged_io = 1;
    p->smem_points = (int)(points + points / 16);
    p->shared_bytes = 8 * p->smem_points;
}

/* A whole slice of few rows (slice_rows, g) whose rows' last stage, radix r, leaves each thread h =
 * radix_max / (r * g) butterflies of each row: thread t takes butterflies t + i * (its row's threads)
 * of all g rows, so it holds every input of g-point columns, runs them in registers after the rows'
 * butterflies and stores their outputs, the slice's rows, from there (merged_stage with a one-stage
 * column chain): the exchange before the columns and their rounds through shared memory go. Only
 * where the columns' stores leave registers (fftgen_stores_from_registers), off clusters and rounds.
 * H200, 2^27 points, fftgen-bench in turns against the column rounds (ms, three rounds each): fp16
 * 2x2048 0.343 -> 0.292-0.296, 4x512 0.309-0.311 -> 0.266-0.269, 2x8192 0.552-0.556 -> 0.449-0.452,
 * 8x512 0.316-0.319 -> 0.273-0.276, 4x1024 0.336-0.341 -> 0.284-0.288, 4x64 0.349-0.351 -> 0.275-0.281;
 * fp32 2x8192 0.687-0.689 -> 0.582-0.584; fp32 slices already at the copy's speed within the spread;
 * the 4x4096 slices of fp16 4096x4096's split (interleaved) 415 -> 361 us (ncu). */
static void merge_whole_columns(fftgen_kernel_plan *p)
{
    const int g = p->slice_rows, r = p->radices[p->stage_count - 1];
    if (p->stage_count < 2 || g < 2 || p->radix_max % (r * g) != 0 || p->cluster > 1 || p->row_rounds > 1 ||
        p->volume_depth > 0 || p->ffts_per_block != 1 || !fftgen_stores_from_registers(p))
        return;
    p->merged_stage = 1;
    p->col_radices[0] = g;
    p->col_stage_count = 1;
    p->column_rounds = 0;
}

/* A slice of few rows (2x2048: columns of 2 points) in one block: its rows at `radix` points a thread
 * (at most their length), and each thread transforms whole columns, radix / rows of them in turn
 * (column_rounds), straight from shared memory to the outputs. One pass where the rows and columns at
 * the shorter dimension's points a thread need more than a block's threads (2x2048: 2048), and fewer
 * threads doing more work where they fit. H200, 2^27 points, fftgen-kernel-ab against the slices at the
 * shorter dimension's points a thread or two passes: fp32 2x2048 1.026 -> 0.520 ms (two passes before),
 * 2x512 0.960 -> 0.520, 4x64 0.572 -> 0.530; fp16 2x512 0.907 -> 0.310, 8x1024 0.647 -> 0.390; but rows
 * of one thread (2x16: 0.792 -> 1.405) lost, so the rows need at least ROUNDS_MIN_ROW_THREADS threads
 * each (results/notes.md). Not where the columns' outputs go through shared memory (fp16 slices whose
 * columns store through it), where a round would have to wait on the others. */
enum { ROUNDS_MIN_ROW_THREADS = 4 };
static fftgen_plan_status plan_slice_with_column_rounds(long long rows, long long columns, int radix,
                                                        fftgen_kernel_precision precision, int arch,
                                                        fftgen_kernel_plan *pass)
{
    const long long points = rows * columns;
    const int row_radix = columns < radix ? (int)columns : radix;
    fftgen_kernel_plan p;
    if (rows >= row_radix || columns / row_radix < ROUNDS_MIN_ROW_THREADS ||
        points / row_radix > FFTGEN_MAX_THREADS_PER_BLOCK ||
        build_plan(columns, row_radix, 0, precision, arch, &p) != FFTGEN_PLAN_OK || p.radix_max != row_radix)
        return FFTGEN_PLAN_TOO_LARGE;
    p.n = (int)points;
    p.slice_rows = (int)rows;
    p.merged_stage = 0;
    p.col_radices[0] = (int)rows;
    p.col_stage_count = 1;
    p.column_rounds = row_radix / (int)rows;
    size_one_block_slice(points, row_radix, &p);
    if (!fftgen_stores_from_registers(&p) || p.shared_bytes > fftgen_arch_shared_limit(arch))
        return FFTGEN_PLAN_TOO_LARGE;
    *pass = p;
    return FFTGEN_PLAN_OK;
}

/* The mirror: a slice of short rows (2048x2: rows of 2 points) in one block, its columns at `radix`
 * points a thread and each thread whole rows, radix / columns of them in turn (row_rounds), straight
 * from the inputs into shared memory. One pass where the shorter dimension's points a thread need more
 * than a block's threads (2048x2: 2048 threads; it took a cluster of two), and fewer threads doing
 * more work where they fit. H200, 2^27 points, fftgen-kernel-ab, before -> after: fp32 2048x2 1.524 ->
 * 0.555 ms (a cluster before), 256x4 0.653 -> 0.522, 4096x4 (two passes) 1.128 -> 0.693; fp16 128x2
 * 0.880 -> 0.286, 1024x4 1.073 -> 0.426, 128x8 0.402 -> 0.345. But rows of MAX_ROUNDS_ROW_BYTES a thread
 * (fp32 rows of 8) measured slower where the slice fits a block at their points a thread (512x8
 * 0.555 -> 0.634, 128x8 0.521 -> 0.528), so those keep that plan. The columns need
 * ROUNDS_MIN_ROW_THREADS threads each, as the rows do in plan_slice_with_column_rounds. */
enum { MAX_ROUNDS_ROW_BYTES = 32 };
static fftgen_plan_status plan_slice_with_row_rounds(long long rows, long long columns, int radix,
                                                     fftgen_kernel_precision precision, int arch,
                                                     fftgen_kernel_plan *pass)
{
    const long long points = rows * columns;
    fftgen_kernel_plan p;
    if (columns * storage_bytes(precision) > MAX_ROUNDS_ROW_BYTES && points / columns <= FFTGEN_MAX_THREADS_PER_BLOCK)
        return FFTGEN_PLAN_TOO_LARGE;
    if (columns >= radix || rows / radix < ROUNDS_MIN_ROW_THREADS || points / radix > FFTGEN_MAX_THREADS_PER_BLOCK ||
        build_plan(rows, radix, 0, precision, arch, &p) != FFTGEN_PLAN_OK || p.radix_max != radix)
        return FFTGEN_PLAN_TOO_LARGE;
    for (int s = 0; s < p.stage_count; ++s) p.col_radices[s] = p.radices[s];
    p.col_stage_count = p.stage_count;
    p.radices[0] = (int)columns;
    p.stage_count = 1;
    p.n = (int)points;
    p.slice_rows = (int)rows;
    p.merged_stage = 0;
    p.row_rounds = radix / (int)columns;
    size_one_block_slice(points, radix, &p);
    if (p.shared_bytes > fftgen_arch_shared_limit(arch)) return FFTGEN_PLAN_TOO_LARGE;
    *pass = p;
    return FFTGEN_PLAN_OK;
}

/* Whether a slice of few rows has a column-round plan at `radix` whose rows' last stage runs the whole columns
 * (*pass: that plan, whatever the answer). */
static int merged_column_rounds(long long rows, long long columns, int radix, fftgen_kernel_precision precision,
                                int arch, fftgen_kernel_plan *pass)
{
    if (plan_slice_with_column_rounds(rows, columns, radix, precision, arch, pass) != FFTGEN_PLAN_OK) return 0;
    merge_whole_columns(pass);
    return pass->merged_stage;
}

/* The last two dimensions in one block: rows, then columns, in shared memory, each thread holding
 * `radix` points (0: 16, or the shorter dimension). Where the rows' last stage leaves a thread several
 * butterflies (radix / its radix of them), they come from rows apart by the columns' first stride and
 * the columns' first stage runs on them in registers, in the same phase (merged_stage), where that
 * saves an exchange through shared memory. `whole`: the block holds the whole slice, which may then
 * merge those stages and take short rows or columns in rounds; 0: a cluster block's share of it. */
static fftgen_plan_status plan_fused_slice(long long rows, long long columns, int radix, int whole,
                                           fftgen_kernel_precision precision, int arch, fftgen_kernel_plan *pass)
{
    const long long points = rows * columns, shorter = rows < columns ? rows : columns;
    /* The planner's radix for a slice of few rows: 32 where only there its rows' last stage can run the
     * whole columns (merge_whole_columns; 4096 = 32 x 32 x 4 against 16 x 16 x 16). H200, 2^27 points,
     * fftgen-bench, radix 16 against 32, three rounds (ms): fp16 4x4096 0.437-0.439 -> 0.384-0.385, 8x2048
     * 0.419-0.421 -> 0.374-0.378, 2x4096 0.395-0.397 -> 0.326-0.330, 64x4x4096 0.755-0.761 -> 0.703-0.709,
     * 16x8x2048 0.680-0.685 -> 0.637-0.642; fp32 4x4096 0.587-0.591 -> 0.564-0.567, 2x4096 0.525-0.528 ->
     * 0.520-0.524, 64x4x4096 1.100-1.108 -> 1.081-1.087, but slices of 8 rows slower (8x2048 0.580-0.587
     * -> 0.597-0.604, 16x8x2048 1.094-1.100 -> 1.111-1.116), so fp32 takes it up to 4 rows. */
    const int radix32_measured_faster = precision == FFTGEN_KERNEL_FP16 || rows <= 4;
    if (radix == 0 && whole && columns > rows && rows < 16 &&
        (merged_column_rounds(rows, columns, 16, precision, arch, pass) ||
         (radix32_measured_faster && merged_column_rounds(rows, columns, 32, precision, arch, pass))))
        return FFTGEN_PLAN_OK;
    if (radix == 0) radix = 16;
    if (whole && columns > rows && rows < radix &&
        plan_slice_with_column_rounds(rows, columns, radix, precision, arch, pass) == FFTGEN_PLAN_OK) {
        merge_whole_columns(pass);
        return FFTGEN_PLAN_OK;
    }
    if (whole && rows > columns && columns < radix &&
        plan_slice_with_row_rounds(rows, columns, radix, precision, arch, pass) == FFTGEN_PLAN_OK)
        return FFTGEN_PLAN_OK;
    if (shorter < radix) radix = (int)shorter;
    fftgen_kernel_plan row_plan, column_plan, rest_plan;
    if (points / radix > FFTGEN_MAX_THREADS_PER_BLOCK) return FFTGEN_PLAN_TOO_LARGE;
    if (build_plan(columns, radix, 0, precision, arch, &row_plan) == FFTGEN_PLAN_BAD_SIZE ||
        build_plan(rows, radix, 0, precision, arch, &column_plan) == FFTGEN_PLAN_BAD_SIZE)
        return FFTGEN_PLAN_BAD_SIZE;
    fftgen_kernel_plan p = row_plan;
    p.n = (int)points;
    p.slice_rows = (int)rows;
    const int merged_radix = radix / row_plan.radices[row_plan.stage_count - 1];
    const long long rest = rows / merged_radix;
    if (whole && merged_radix > 1 && rest >= 2 &&
        build_plan(rest, rest < radix ? (int)rest : radix, 0, precision, arch, &rest_plan) != FFTGEN_PLAN_BAD_SIZE &&
        rest_plan.stage_count < column_plan.stage_count) {
        p.merged_stage = 1;
        p.col_radices[0] = merged_radix;
        for (int s = 0; s < rest_plan.stage_count; ++s) p.col_radices[s + 1] = rest_plan.radices[s];
        p.col_stage_count = rest_plan.stage_count + 1;
    } else {
        for (int s = 0; s < column_plan.stage_count; ++s) p.col_radices[s] = column_plan.radices[s];
        p.col_stage_count = column_plan.stage_count;
    }
    size_one_block_slice(points, radix, &p);
    *pass = p;
    return p.shared_bytes > fftgen_arch_shared_limit(arch) ? FFTGEN_PLAN_TOO_LARGE : FFTGEN_PLAN_OK;
}

/* The threads a block of small fused slices (or volumes) gathers: group_small_slices, plan_fused_volume. */
enum { SLICE_BLOCK_THREADS = 128 };

/* How many units (slices, or volumes) of `threads` threads and `smem_points` float2 of shared memory a
 * block runs side by side: doubled while the block stays within SLICE_BLOCK_THREADS and shared memory. */
static int units_per_block(long long threads, long long smem_points, int arch)
{
    int units = 1;
    while (threads * units * 2 <= SLICE_BLOCK_THREADS && 8 * smem_points * units * 2 <= fftgen_arch_shared_limit(arch))
        units *= 2;
    return units;
}

/* The longest dimension 0 of a volume of slices of 4 or 8 points (2x2, 2x4, 4x2), whose phases hold 2
 * points a thread. Longer ones take the columns in a pass of their own: the volume's radix-2 stages along
 * dimension 0 measured slower beyond (H200, 2^27 points, fftgen-kernel-ab, two passes -> one: fp32
 * 64x2x2 1.116 -> 1.006 ms, 128x2x2 1.032 -> 1.039, 128x2x4 1.203 -> 1.169, 256x2x4 1.205 -> 1.310;
 * fp16 32x2x2 1.404 -> 0.856, 64x2x2 0.927 -> 0.953, 32x2x4 1.098 -> 1.015, 64x2x4 0.894 -> 1.044). */
static long long tiny_slice_max_depth(fftgen_kernel_precision precision)
{
    return precision == FFTGEN_KERNEL_FP16 ? 32 : 64;
}

/* A 3D transform whose slices all fit one block (at most 16384 fp32 points on sm_90): the fused
 * slices of dimensions 1 and 2, then the columns along dimension 0 in the same shared memory, one pass
 * instead of two. The slices hold `radix` points a thread (their shorter dimension's, at most 16), and
 * their threads take the columns too: `radix` points a thread of a longer column, else a whole column
 * of n0 points, radix / n0 of them in turn (depth_rounds). H200, 2^27 points, against every phase at
 * n0 points a thread (or two passes where that needed more than 1024 threads): fp32 2x16x16 1.050 ->
 * 0.522 ms, 4x32x32 1.223 -> 0.516, 2x64x64 (two passes) 1.032 -> 0.526; fp16 2x32x32 0.965 -> 0.389,
 * 8x32x32 (two passes) 0.609 -> 0.427; each of 28 shapes measured faster (results/notes.md). Slice j
 * starts at padded(j*n1*n2), where the columns' layout puts point j of column c: that needs n1*n2 a
 * multiple of 16, or a divisor of it (slices of 4 or 8 points, with the volume padded to whole pads of
 * 16). Those tiny slices had their columns in blocks of 4 or 8 threads: fp32 2x2x2 10.600 -> 0.714 ms,
 * 8x2x4 1.943 -> 0.893; fp16 2x2x2 10.490 -> 0.612. Several transforms a block where they have fewer
 * than SLICE_BLOCK_THREADS threads. */
static fftgen_plan_status plan_fused_volume(const long long *shape, fftgen_kernel_precision precision, int arch,
                                            fftgen_kernel_plan *pass)
{
    const long long slice_points = shape[1] * shape[2], depth = shape[0];
    if (slice_points % 16 != 0 && (16 % slice_points != 0 || depth > tiny_slice_max_depth(precision)))
        return FFTGEN_PLAN_TOO_LARGE;
    const long long shortest = shape[1] < shape[2] ? shape[1] : shape[2];
    const int radix = shortest < 16 ? (int)shortest : 16;
    /* (the slices' radix; dimension 0 in rounds where it is shorter) */
    const int rounds = depth < radix ? radix / (int)depth : 1;
    /* fp16 volumes of more than 4096 points at fewer than 16 points a thread measured slower than the
     * two passes (H100, 2^27 points: fp16 32x32x8 0.887 against 0.789 ms; fp32 0.884 against 1.441, and
     * fp16 4x32x32 0.677 against 0.769, 16x16x64 0.530 against 0.737) */
    if (precision == FFTGEN_KERNEL_FP16 && radix < 16 && depth * slice_points > 4096) return FFTGEN_PLAN_TOO_LARGE;
    fftgen_kernel_plan slice, column;
    if (radix < 2 || plan_fused_slice(shape[1], shape[2], radix, 1, precision, arch, &slice) != FFTGEN_PLAN_OK ||
        slice.radix_max != radix ||
        build_plan(depth, rounds > 1 ? (int)depth : radix, 0, precision, arch, &column) == FFTGEN_PLAN_BAD_SIZE)
        return FFTGEN_PLAN_TOO_LARGE;
    /* slice j at padded(j * slice_points), the volume whole pads (2x2x2: 8 points in 16 + 1) */
    const long long volume_points = (depth * slice_points + 15) / 16 * 16;
    const long long threads = depth * slice.threads, smem_points = volume_points + volume_points / 16;
    if (threads > FFTGEN_MAX_THREADS_PER_BLOCK || 8 * smem_points > fftgen_arch_shared_limit(arch))
        return FFTGEN_PLAN_TOO_LARGE;
    const int volumes = units_per_block(threads, smem_points, arch);
    slice.volume_depth = (int)depth;
    for (int s = 0; s < column.stage_count; ++s) slice.depth_radices[s] = column.radices[s];
    slice.depth_stage_count = column.stage_count;
    slice.depth_rounds = rounds;
    slice.ffts_per_block = (int)depth * volumes;
    slice.threads = (int)threads * volumes;
    slice.smem_points = (int)smem_points * volumes;
    slice.shared_bytes = 8 * slice.smem_points;
    *pass = slice;
    return FFTGEN_PLAN_OK;
}

/* Whether a request leaves a 3D shape's plan to the planner alone, so that it may take one pass over a
 * volume: every choice a request can make names passes or kernels of the plan of several passes, but
 * the L2 prefetch in pass 1 (or every pass), which a volume's one pass can take as well. */
static int asks_nothing_of_passes(const fftgen_kernel_request *r)
{
    for (int i = 0; i < FFTGEN_MAX_PASSES; ++i)
        if (r->max_tile.pass[i] != 0) return 0;
    return r->max_radix == 0 && r->tensor_cores == 0 && r->cluster <= 1 && !r->columns_first && !r->split_columns &&
           r->prefetch <= 1 && r->twiddle_powers == 0 && r->radix32_passes == 0 && r->column_register_passes == 0 &&
           r->computed_twiddle_passes == 0 && r->column_pair_passes == 0 &&
           (r->l2_prefetch_passes == 0 || r->l2_prefetch_passes == 1 || r->l2_prefetch_passes == FFTGEN_EVERY_PASS) &&
           r->l2_fetch_256_passes == 0 && r->tma_column_passes == 0 && r->tile_pair_passes == 0 &&
           r->intermediate == FFTGEN_INTERMEDIATE_DEFAULT;
}

/* A fused slice of fewer than SLICE_BLOCK_THREADS threads (4x4 has 4, 16x16 16, 32x32 64) runs several
 * slices a block, side by side, each on threads_per_fft threads of its own and its own part of shared
 * memory, so that the block has that many threads: one slice a block left an SM 32 blocks of 4 threads
 * (H100, 2^27 points: 2x4x4 ran at 0.29x cuFFT, 4x4x4 at 0.34x). Not a slice on a cluster, on tensor
 * cores, or one that prefetches the next slice into its block. */
static void group_small_slices(fftgen_kernel_plan *slice)
{
    if (slice->slice_rows == 0 || slice->cluster > 1 || slice->tensor_cores || slice->prefetch > 1 ||
        slice->ffts_per_block != 1)
        return;
    const int slices = units_per_block(slice->threads, slice->smem_points, slice->arch);
    slice->ffts_per_block = slices;
    slice->threads *= slices;
    slice->smem_points *= slices;
    slice->shared_bytes = 8 * slice->smem_points;
}

/* The last two dimensions on a thread-block cluster (sm_90) where a slice does not fit one block: block
 * c transforms the rows c + C*j of the slice (its rows, then its columns of rows / C points, in shared
 * memory), and the last stage, radix C, runs across the cluster (see fftgen_kernel_plan.cluster).
 * Which size: the request's, else for fp32 the fewest blocks of at most CLUSTER_BLOCK_POINTS points.
 * H100, 2^27 points: 256x256 fp32 49.6% -> 70.0% of copy bandwidth (1.02x -> 1.45x cuFFT), 256^3
 * fp32 32.4% -> 39.9% (two passes instead of three); with 16384-point blocks (512x256, 256x512) no
 * faster than two passes, and fp16 slower (256x256: 39.9% against 48.1%). By default each block takes
 * at least CLUSTER_MIN_BLOCK_ROWS rows: fp32 64x1024 on 8 blocks of 8 rows measured slower than two
 * passes (H200, 2^27 points: 1.033 -> 1.151 ms; 32x1024 on 4 blocks 1.031 -> 0.964). */
enum { CLUSTER_MIN_BLOCK_ROWS = 16 };
static fftgen_plan_status plan_cluster_slice(const fftgen_kernel_request *request, long long rows, long long columns,
                                             fftgen_kernel_plan *pass)
{
    const int size = request->cluster != 0 ? request->cluster
                     : request->precision == FFTGEN_KERNEL_FP32 ? fewest_cluster_blocks(rows * columns) : 1;
    if (!cluster_allowed(request, size) || rows / size < 2 ||
        (request->cluster == 0 && rows / size < CLUSTER_MIN_BLOCK_ROWS))
        return FFTGEN_PLAN_TOO_LARGE;
    fftgen_kernel_plan k;
    const fftgen_plan_status status =
        plan_fused_slice(rows / size, columns, 0, 0, request->precision, request->arch, &k);
    if (status != FFTGEN_PLAN_OK) return status;
    /* the block's rows load in whole rows per copy; the last stage gives each thread radix_max / size of
     * the outputs, a warp's reads THREADS apart in each block's shared memory */
    if (k.threads % columns != 0 || k.radix_max % size != 0 || k.threads % 32 != 0) return FFTGEN_PLAN_TOO_LARGE;
    k.cluster = size;
    *pass = k;
    return FFTGEN_PLAN_OK;
}

/* A dense n0 x n1 shape with its columns first (fftgen_kernel_request.columns_first): pass 1 reads the
 * n0-point columns in tiles of T side by side and writes each tile as one contiguous block of the work
 * area, as pass 1 of a 1D split does (write_tiles_as_blocks, with no twiddle); pass 2 reads the n1-point
 * rows from those blocks in runs of T points and writes them to the output as whole rows. Only the
 * input's column reads are runs of T elements; the rows-first order (the default) reads and writes
 * them in the column pass, in place. The cost is a work area as large as the data. */
static fftgen_plan_status plan_columns_first(const fftgen_kernel_request *request, const long long *shape,
                                             fftgen_kernel_plan pass[2], char *why, size_t why_len)
{
    const long long n0 = shape[0], n1 = shape[1], points = n0 * n1;
    const fftgen_layout columns = {n1, 1, n1, 1, 0, points, 0, 0};
    const fftgen_layout rows = {1, n1, n0, 1, 0, points, 0, 0};
    char text[64];
    fftgen_shape_text(2, shape, text, sizeof text);
    fftgen_plan_status status = plan_columns(request, 0, n0, n1, columns, columns, 0, &pass[0]);
    if (status == FFTGEN_PLAN_OK) status = plan_columns(request, 1, n1, n0, rows, rows, 0, &pass[1]);
    if (status != FFTGEN_PLAN_OK) {
        snprintf(why, why_len, "shape %s cannot take the columns first: its columns or rows do not fit one block",
                 text);
        return status;
    }
    write_tiles_as_blocks(n0, n1, &pass[0], &pass[1]);
    if (pass[1].in.run_points == 0) {
        snprintf(why, why_len, "shape %s cannot take the columns first: its rows cannot read the column tiles'"
                 " blocks in whole runs", text);
        return FFTGEN_PLAN_TOO_LARGE;
    }
    pass[0].dimension = 0;
    pass[1].dimension = 1;
    pass[0].source = FFTGEN_BUFFER_INPUT;
    pass[0].target = pass[1].source = FFTGEN_BUFFER_WORK;
    pass[1].target = FFTGEN_BUFFER_OUTPUT;
    return FFTGEN_PLAN_OK;
}

/* A dense n0 x n1 shape whose columns split four-step (fftgen_kernel_request.four_step_columns = c, n0 =
 * c * s): pass 1 transforms the c-point columns (rows r2 + s*r1) from the input into the work area, each
 * output k1 times exp(-2*pi*i*r2*k1/n0), as plan_split_column's first pass does; pass 2 takes slices of
 * the s contiguous rows s*k1 .. s*k1 + s - 1 of the work area in one block, transforms their rows (the
 * shape's) and then their s-point columns, and writes slice row k2 to the output's row k1 + c*k2
 * (interleaved_slices). Two passes where the rows-first order takes three for columns too long for wide
 * tiles: H200, fp16 4096x4096 as 1024 x 4 in 0.74 ms against 0.84 (results/row-slices-2026-12-01.txt). */
static fftgen_plan_status plan_row_slices(const fftgen_kernel_request *request, const long long *shape,
                                          fftgen_kernel_plan pass[2], char *why, size_t why_len)
{
    const long long n0 = shape[0], n1 = shape[1], c = request->four_step_columns, s = n0 / c, points = n0 * n1;
    char text[64];
    fftgen_shape_text(2, shape, text, sizeof text);
    if (c >= n0) {
        snprintf(why, why_len, "shape %s: four-step %lld must be shorter than dimension 0 (%lld points)", text, c, n0);
        return FFTGEN_PLAN_BAD_SIZE;
    }
    const fftgen_layout columns = {s * n1, 1, n1, s, n1, points, 0, 0};
    fftgen_plan_status status = plan_columns(request, 0, c, n1, columns, columns, n0, &pass[0]);
    if (status != FFTGEN_PLAN_OK) {
        snprintf(why, why_len, "shape %s: four-step %lld: its %lld-point columns do not fit one block", text, c, c);
        return status;
    }
    status = plan_fused_slice(s, n1, request->max_radix, 1, request->precision, request->arch, &pass[1]);
    if (status != FFTGEN_PLAN_OK) {
        snprintf(why, why_len, "shape %s: four-step %lld: a slice of %lld rows of %lld points does not fit one block"
                 "%s", text, c, s, n1, request->max_radix != 0 ? " at the radix asked for" : "");
        return status;
    }
    if (!fftgen_stores_from_registers(&pass[1])) { /* (the copy out writes the slice whole) */
        snprintf(why, why_len, "shape %s: four-step %lld: slices of %lld rows copy their outputs out whole through"
                 " shared memory, and their rows must interleave with the other slices'", text, c, s);
        return FFTGEN_PLAN_TOO_LARGE;
    }
    merge_whole_columns(&pass[1]);
    pass[0].twiddle_by_group = 1;
    pass[0].dimension = 0;
    pass[1].interleaved_slices = (int)c;
    pass[1].dimension = 1;
    pass[0].source = FFTGEN_BUFFER_INPUT;
    pass[0].target = pass[1].source = FFTGEN_BUFFER_WORK;
    pass[1].target = FFTGEN_BUFFER_OUTPUT;
    return FFTGEN_PLAN_OK;
}

static fftgen_plan_status check_shape_layout(int rank, const long long *shape, const fftgen_user_layout *layout,
                                             const char *side, char *why, size_t why_len)
{
    if (layout->stride < 1 || layout->dist < 1) {
        snprintf(why, why_len, "%s strides and distances must be >= 1", side);
        return FFTGEN_PLAN_BAD_LAYOUT;
    }
    for (int d = 1; d < rank; ++d)
        if (layout->embed[d] != 0 && layout->embed[d] < shape[d]) {
            snprintf(why, why_len, "%s embed %lld of dimension %d is smaller than its size %lld", side,
                     layout->embed[d], d, shape[d]);
            return FFTGEN_PLAN_BAD_LAYOUT;
        }
    return FFTGEN_PLAN_OK;
}

fftgen_plan_status fftgen_plan_shape(const fftgen_kernel_request *asked, int rank, const long long *shape,
                                     fftgen_user_layout in, fftgen_user_layout out, fftgen_transform_plan *plan,
                                     char *why, size_t why_len)
{
    const fftgen_kernel_request normal = normalized(asked), *request = &normal;
    if (request->columns_first && rank != 2 && rank >= 1 && rank <= FFTGEN_MAX_RANK) {
        snprintf(why, why_len, "the columns can go first in 2D shapes only, not in %dD", rank);
        return FFTGEN_PLAN_BAD_SIZE;
    }
    if (request->split_columns && rank == 1) {
        snprintf(why, why_len, "columns split in two passes in 2D and 3D shapes only, not in 1D");
        return FFTGEN_PLAN_BAD_SIZE;
    }
    if (request->four_step_columns != 0 && rank > 2) {
        snprintf(why, why_len, "a four-step split applies to 1D sizes of two passes and to 2D shapes, not to 3D");
        return FFTGEN_PLAN_BAD_SIZE;
    }
    if (rank == 1) {
        fftgen_kernel_request single = *request;
        single.n = shape[0];
        return fftgen_plan_strided(&single, in, out, plan, why, why_len);
    }
    if (rank < 1 || rank > FFTGEN_MAX_RANK) {
        snprintf(why, why_len, "rank %d is not 1, 2 or 3", rank);
        return FFTGEN_PLAN_BAD_SIZE;
    }
    if (fftgen_arch_shared_limit(request->arch) < 0) {
        snprintf(why, why_len, "unknown architecture sm_%d (known: %s)", request->arch, fftgen_known_archs());
        return FFTGEN_PLAN_BAD_ARCH;
    }
    if (request->max_radix != 0 && !fftgen_radix_supported(request->max_radix)) {
        snprintf(why, why_len, "unknown radix %d (expected 2, 4, 8, 16 or 32)", request->max_radix);
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (request->block_threads != 0 && rank > 1) {
        snprintf(why, why_len, "a block size can be chosen for 1D single-kernel sizes only");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    long long points = 1;
    for (int d = 0; d < rank; ++d) {
        if (shape[d] < 2 || log2_exact(shape[d]) < 0) {
            snprintf(why, why_len, "size %lld of dimension %d is not a power of two >= 2", shape[d], d);
            return FFTGEN_PLAN_BAD_SIZE;
        }
        if (shape[d] > (1LL << 30) || points * shape[d] > (1LL << 30)) {
            snprintf(why, why_len, "the shape has more than 2^30 points");
            return FFTGEN_PLAN_TOO_LARGE;
        }
        points *= shape[d];
    }
    fftgen_plan_status status = fftgen_check_split(request, rank, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_check_tensor_core_request(request, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = check_shape_layout(rank, shape, &in, "input", why, why_len);
    if (status == FFTGEN_PLAN_OK) status = check_shape_layout(rank, shape, &out, "output", why, why_len);
    if (status != FFTGEN_PLAN_OK) return status;

    fftgen_transform_plan p = {0};
    p.n = points;
    p.rank = rank;
    for (int d = 0; d < rank; ++d) p.shape[d] = shape[d];
    p.in = in;
    p.out = out;
    for (int d = 1; d < rank; ++d) {
        p.in.embed[d] = embed_of(&in, shape, d);
        p.out.embed[d] = embed_of(&out, shape, d);
    }
    p.in.embed[0] = p.out.embed[0] = 0;
    /* The first pass reads the input and writes the output; dense data on both sides take the
     * untiled kernels: the last two dimensions fused when a slice fits a block, else the rows. */
    const int dense = is_contiguous(&in, rank, shape, points) && is_contiguous(&out, rank, shape, points);
    /* fused slices have no tensor-core stages yet: where the first pass should use them (split, or
     * the fp16 request), each dimension takes a pass of its own */
    const int fuse = dense && !fftgen_precision_is_split(request->precision) && !(request->tensor_cores & 1);
    /* where a radix is asked for: whether a slice fits a block at the default radix (the slice then
     * takes the radix, else the rows do); probed only then, as every other plan tries the slice below */
    fftgen_kernel_plan slice_probe;
    const int slice_fits = request->max_radix != 0 && fuse &&
                           plan_fused_slice(shape[rank - 2], shape[rank - 1], 0, 1, request->precision,
                                            request->arch, &slice_probe) == FFTGEN_PLAN_OK;
    /* the rows' passes are the shape's first passes, so they take the same tensor-core bits (and with
     * them the radix-16 stages that those run: default_single_kernel_radix), and the radix asked for
     * where no slice fits a block (rows of one kernel: fp16 8192x8192's at 32 points a thread, as its
     * 1D kernel takes them) */
    const fftgen_kernel_request rows = {shape[rank - 1], slice_fits ? 0 : request->max_radix, request->precision,
                                        request->arch, request->tensor_cores, request->max_tile, 1,
                                        FFTGEN_INTERMEDIATE_DEFAULT, 0, 0, 0, request->radix32_passes, 0, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0};
    fftgen_transform_plan row_plan;
    int next = rank - 2, rows_take_radix = 0; /* the highest dimension still to transform */
    int slice_index = 0; /* the pass that may be a fused slice: the first, but after a four-step split's columns */
    p.pass_count = 1;
    if (request->columns_first) {
        if (!dense) {
            char text[64];
            fftgen_shape_text(rank, shape, text, sizeof text);
            snprintf(why, why_len, "shape %s: the columns can go first only in dense layouts (stride 1, no embeds)",
                     text);
            return FFTGEN_PLAN_BAD_LAYOUT;
        }
        status = plan_columns_first(request, shape, p.pass, why, why_len);
        if (status != FFTGEN_PLAN_OK) return status;
        p.pass_count = 2;
        p.columns_first = 1;
        next = -1;
    } else if (request->four_step_columns != 0) {
        char text[64];
        fftgen_shape_text(rank, shape, text, sizeof text);
        const char *refusal = !dense ? "takes dense layouts only (stride 1, no embeds)"
                              : fftgen_precision_is_split(request->precision) || (request->tensor_cores & 2)
                                  ? "runs its slices (pass 2) on CUDA cores: fused slices have no tensor-core stages"
                              : request->split_columns ? "and the columns split in two column passes exclude each other"
                              : request->cluster > 1 ? "takes no clusters (its columns and slices each fit one block)"
                                                     : NULL;
        if (refusal != NULL) {
            snprintf(why, why_len, "shape %s: a four-step split of dimension 0 %s", text, refusal);
            return FFTGEN_PLAN_BAD_LAYOUT;
        }
        status = plan_row_slices(request, shape, p.pass, why, why_len);
        if (status != FFTGEN_PLAN_OK) return status;
        p.pass_count = 2;
        p.four_step_columns = request->four_step_columns;
        next = -1;
        slice_index = 1;
    } else if (rank == 3 && fuse && asks_nothing_of_passes(request) &&
               plan_fused_volume(shape, request->precision, request->arch, &p.pass[0]) == FFTGEN_PLAN_OK) {
        next = -1;
    } else if (fuse && plan_fused_slice(shape[rank - 2], shape[rank - 1], request->max_radix, 1, request->precision,
                                        request->arch, &p.pass[0]) == FFTGEN_PLAN_OK) {
        next = rank - 3;
    } else if (fuse && plan_cluster_slice(request, shape[rank - 2], shape[rank - 1], &p.pass[0]) == FFTGEN_PLAN_OK) {
        next = rank - 3;
    } else if (dense && plan_transform_quietly(&rows, &row_plan) == FFTGEN_PLAN_OK) {
        /* dense rows: one kernel, or the 1D passes through the work area when longer */
        for (int i = 0; i < row_plan.pass_count; ++i) p.pass[i] = row_plan.pass[i];
        p.pass_count = row_plan.pass_count;
        rows_take_radix = rows.max_radix != 0;
    } else {
        status = plan_dimension(request, rank, shape, rank - 1, &in, &out, 0, &p.pass[0]);
    }
    if (request->max_radix != 0 && !rows_take_radix &&
        (p.pass[slice_index].slice_rows == 0 || p.pass[slice_index].cluster > 1)) {
        if (slice_fits)
            snprintf(why, why_len, "radix %d does not fit the %lldx%lld slices in one block (16 or 32 points a"
                                   " thread, at most %d threads)", request->max_radix, shape[rank - 2],
                     shape[rank - 1], FFTGEN_MAX_THREADS_PER_BLOCK);
        else
            snprintf(why, why_len, "a radix can be chosen for 1D single-kernel sizes and for 2D/3D shapes whose last"
                                   " two dimensions fit one block's slice or, where none does, whose dense rows are"
                                   " one kernel");
        return FFTGEN_PLAN_BAD_RADIX;
    }
    if (!p.columns_first && request->four_step_columns == 0)
        for (int i = 0; i < p.pass_count; ++i) p.pass[i].dimension = rank - 1;
    if (p.pass_count == 1) {
        p.pass[0].source = FFTGEN_BUFFER_INPUT;
        p.pass[0].target = FFTGEN_BUFFER_OUTPUT;
    }
    const int out_dense = is_contiguous(&out, rank, shape, points);
    int splits = 0;
    for (int d = next; d >= 0 && status == FFTGEN_PLAN_OK; --d) {
        const int index = p.pass_count++;
        fftgen_kernel_plan *column = &p.pass[index];
        status = plan_dimension(request, rank, shape, d, &out, &out, index, column);
        column->source = column->target = FFTGEN_BUFFER_OUTPUT; /* in place */
        column->dimension = d;
        /* columns too long for a block, or so long that shared memory holds too few of them side by
         * side: on a cluster (sm_90) where their tiles would not fill a 32-byte sector (or the request
         * asks for one), else two passes with wider tiles through the work area where narrower than
         * SPLIT_COLUMN_TILE */
        fftgen_kernel_plan split[2], on_cluster;
        const int more_columns = column->ffts_per_block < column->in.group_size; /* than a tile holds */
        const int narrow = status == FFTGEN_PLAN_TOO_LARGE ||
                           (status == FFTGEN_PLAN_OK && column->ffts_per_block < SPLIT_COLUMN_TILE && more_columns);
        const int sector = min_sector_tile(request->precision), cap = request->max_tile.pass[index];
        const int short_runs = status == FFTGEN_PLAN_TOO_LARGE ||
                               (status == FFTGEN_PLAN_OK && column->ffts_per_block < sector && more_columns &&
                                (cap == 0 || cap >= sector)); /* not where a measured choice narrows them */
        /* fp16 8192-point columns: two passes of 64 and 128 points in wide tiles, not one on a cluster
         * (fftgen-bench, the default against the split, H200 / H100: 8192x4096 1.139 -> 0.935 / 1.247 ->
         * 1.192 ms, 8192x16384 1.337 -> 1.149 / 1.404 -> 1.347, 2x8192x8192 1.724 -> 1.521 / 1.821 ->
         * 1.703; 4096-point columns gained on the H200 only: 4096x8192 1.136 -> 1.011 / 1.176 -> 1.200) */
        const int split_fp16 = short_runs && request->cluster == 0 && request->precision == FFTGEN_KERNEL_FP16 &&
                               shape[d] == SPLIT_FP16_COLUMN_POINTS;
        if ((request->split_columns || split_fp16) && out_dense && index + 2 <= FFTGEN_MAX_PASSES &&
            plan_split_column(request, rank, shape, d, index, split) == FFTGEN_PLAN_OK &&
            (request->split_columns || narrower_tile(split) >= SPLIT_DEFAULT_TILE)) {
            p.pass[index] = split[0];
            p.pass[p.pass_count++] = split[1];
            status = FFTGEN_PLAN_OK;
            ++splits;
        } else if ((short_runs || request->cluster > 1) && out_dense &&
            plan_cluster_columns(request, rank, shape, d, &out, index, &on_cluster) == FFTGEN_PLAN_OK) {
            *column = on_cluster;
            column->source = column->target = FFTGEN_BUFFER_OUTPUT;
            status = FFTGEN_PLAN_OK;
        } else if (narrow && out_dense && index + 2 <= FFTGEN_MAX_PASSES &&
            plan_split_column(request, rank, shape, d, index, split) == FFTGEN_PLAN_OK &&
            (status == FFTGEN_PLAN_TOO_LARGE || narrower_tile(split) > column->ffts_per_block)) {
            p.pass[index] = split[0];
            p.pass[p.pass_count++] = split[1];
            status = FFTGEN_PLAN_OK;
        }
    }
    if (status == FFTGEN_PLAN_TOO_LARGE) {
        char text[64];
        fftgen_shape_text(rank, shape, text, sizeof text);
        snprintf(why, why_len,
                 "shape %s: in strided layouts every dimension of a 2D or 3D transform must fit one kernel (%lld"
                 " points for %s on sm_%d, fewer when strided); only dense data split longer dimensions into"
                 " passes",
                 text, fftgen_single_kernel_limit(request->precision, request->arch),
                 fftgen_precision_name(request->precision), request->arch);
        return status;
    }
    if (status == FFTGEN_PLAN_OK && request->split_columns && splits == 0) {
        char text[64];
        fftgen_shape_text(rank, shape, text, sizeof text);
        snprintf(why, why_len,
                 "shape %s: no column dimension splits in two passes (dense data only, a dimension outside"
                 " the first pass, at most %d passes in all)",
                 text, FFTGEN_MAX_PASSES);
        return FFTGEN_PLAN_BAD_LAYOUT;
    }
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_on_tensor_cores(request, &p);
    if (status != FFTGEN_PLAN_OK) {
        snprintf(why, why_len, "planning failed");
        return status;
    }
    status = fftgen_check_tensor_cores_placed(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_check_radix32_placed(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_column_registers(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_twiddle_powers(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_prefetch(request, &p, why, why_len);
    if (status != FFTGEN_PLAN_OK) return status;
    fftgen_place_intermediates(request, &p);
    status = fftgen_place_column_pairs(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_row_registers(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_l2_fetch_256(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_l2_prefetch(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_tma_columns(request, &p, why, why_len);
    if (status == FFTGEN_PLAN_OK) status = fftgen_place_tile_pairs(request, &p, why, why_len);
    if (status != FFTGEN_PLAN_OK) return status;
    group_small_slices(&p.pass[slice_index]);
    p.max_tile = request->max_tile;
    p.l2_prefetch_kb = fftgen_l2_prefetch_kb_kept(request, &p);
    p.cluster = request->cluster;
    p.prefetch = request->prefetch;
    p.split_columns = request->split_columns;
    p.rows_radix = rows_take_radix ? request->max_radix : 0;
    *plan = p;
    return FFTGEN_PLAN_OK;
}
