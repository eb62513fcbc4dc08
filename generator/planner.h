/* The planner: the only place that decides how a transform is split into radix stages,
 * threads and blocks. Plain C, no CUDA, shared by the CLI, the tests and (later) the runtime. */
#ifndef FFTGEN_PLANNER_H
#define FFTGEN_PLANNER_H

#include <stddef.h>

#define FFTGEN_MAX_STAGES 32
#define FFTGEN_MAX_THREADS_PER_BLOCK 1024
#define FFTGEN_DEFAULT_ARCH 90
#define FFTGEN_MAX_PASSES 5 /* 3D with rows of three passes */
#define FFTGEN_CLUSTER_ARCH 90 /* thread-block clusters (and distributed shared memory) from sm_90 on */
#define FFTGEN_MAX_CLUSTER 8   /* blocks a cluster at most: the portable limit */

/* fp32 and fp16: the storage (fp32 arithmetic in both). The split precisions store fp32 and run the
 * radix-16 merges on tensor cores, each fp32 operand split into a scaled fp16 high and low part
 * (papers/000, papers/001); the other stages run in fp32 on CUDA cores.
 *   split:         a power-of-two scale per butterfly, the low parts scaled by 2^11, hi*hi summed
 *                  apart from the two correction products, lo*lo dropped;
 *   split-papers:  the papers' scales: s1 = max |x| of the butterfly, s2 = max |x - s1*hi|. */
typedef enum {
    FFTGEN_KERNEL_FP32,
    FFTGEN_KERNEL_FP16,
    FFTGEN_KERNEL_SPLIT,
    FFTGEN_KERNEL_SPLIT_PAPERS
} fftgen_kernel_precision;

#define FFTGEN_KERNEL_PRECISION_COUNT 4

/* Caps on the transforms a strided pass reads side by side, pass by pass (0: the planner's default).
 * Wider tiles make longer runs in global memory and take more shared memory; which wins depends on
 * the pass (measured by `fftgen tune`). A cap is a power of two up to FFTGEN_MAX_TILE_CAP (wide tiles
 * serve short columns: 4-point columns take 128 threads a block in tiles of 128). */
#define FFTGEN_MAX_TILE_CAP 256
typedef struct {
    int pass[FFTGEN_MAX_PASSES];
} fftgen_tile_caps;

/* Text form: "8" caps every pass; "16,16,8" caps pass by pass, the last value applying to the passes
 * after it. Values: 0 (the default) or a power of two up to FFTGEN_MAX_TILE_CAP. Parse: 0, or -1 for
 * anything else. */
int fftgen_tile_caps_parse(const char *text, fftgen_tile_caps *caps);
void fftgen_tile_caps_text(const fftgen_tile_caps *caps, char *out, size_t len);
int fftgen_tile_caps_any(const fftgen_tile_caps *caps); /* whether any pass has a cap */

/* A set of passes as text: "1,3" (numbered from 1, as --explain shows them) or "none". Parse: the
 * mask (bit i for pass i + 1), or -1. */
int fftgen_pass_mask_parse(const char *text);
void fftgen_pass_mask_text(int mask, char *out, size_t len);

/* A cluster size as text: "0", "1", "2", "4" or "8"; -1 for anything else. */
int fftgen_cluster_parse(const char *text);

/* How an fp16 plan of several passes stores the data between its passes (in the work area, or in
 * the output for the later passes of 2D and 3D shapes). Each rounding there adds as much error as
 * the input's own rounding to fp16 (2.1e-4 relative for gaussian data): two passes measure 3.5e-4,
 * three 4.0e-4. A shared-exponent complex takes the same 32 bits and rounds about half as coarsely:
 * a 4-bit exponent e shared by both parts and two 14-bit mantissas m offset by 2^13, value =
 * (m - 2^13) * 2^(2e - 24), so the larger part keeps 12 or 13 significant bits (fp16: 11). Its range
 * is fp16's and more: 2^-24 steps below 2^-11, up to 131064; e = 15 holds what is out of range or
 * not finite, and reads back as NaN. A mixed intermediate holds half its points each way
 * (fftgen_kernel_plan.mixed_target_rows): three passes then measure 3.8e-4. */
typedef enum {
    FFTGEN_INTERMEDIATE_DEFAULT,        /* the planner's choice */
    FFTGEN_INTERMEDIATE_FP16,           /* __half2: faster where the kernels are bound by instructions */
    FFTGEN_INTERMEDIATE_SHARED_EXPONENT,
    FFTGEN_INTERMEDIATE_MIXED           /* half the points each (fftgen_kernel_plan.mixed_target_rows),
                                           shared-exponent where a boundary cannot mix them */
} fftgen_intermediate;

/* The order of a dense 2D shape's passes (fftgen_kernel_request.columns_first): "rows-first" (0) or
 * "columns-first" (1); parse: the value, or -1. */
const char *fftgen_order_name(int columns_first);
int fftgen_order_parse(const char *text);

/* "fp16", "shared-exponent" or "mixed" ("default" for the planner's choice); parse: the value, or -1. */
const char *fftgen_intermediate_name(fftgen_intermediate intermediate);
int fftgen_intermediate_parse(const char *text);

typedef enum { FFTGEN_BUFFER_INPUT, FFTGEN_BUFFER_OUTPUT, FFTGEN_BUFFER_WORK } fftgen_buffer;

typedef struct {
    long long n;          /* points per transform */
    int max_radix;        /* 2, 4, 8, 16 or 32 (fftgen_radix_supported); 0 picks the default (16, or n
                             if smaller; in one fp16 kernel, 32 for 32 points, 8 for 64 and 128) */
    fftgen_kernel_precision precision;
    int arch;             /* compute capability as 10*major+minor, e.g. 90 for sm_90 */
    int tensor_cores;     /* fp16: bit i puts pass i's radix-16 stages on tensor cores where the pass
                             has them (sm_80 and newer); FFTGEN_EVERY_PASS: all passes.
                             An error if no pass takes them. Split plans use them in every pass. */
    fftgen_tile_caps max_tile; /* strided passes: at most this many transforms side by side */
    int cluster;          /* sm_90 and newer: the thread-block cluster size (2, 4 or 8) of a 1D size
                             above one block (one pass, else the columns of two passes), and of the
                             slices and columns of dense 2D and 3D shapes; 1 for none, 0 the planner's
                             default */
    fftgen_intermediate intermediate; /* fp16 plans of several passes: how they store between them */
    int columns_first;    /* dense 2D shapes: 1 transforms the columns first, writing them tile by tile
                             as blocks into the work area, then the rows, read from the blocks in runs
                             and written to the output (plan_columns_first); 0 the planner's order
                             (the rows first, then the columns in place). An error in other
                             layouts and ranks, and where the rows cannot read the blocks in runs. */
    int twiddle_powers;   /* fp16: bit i has tiled pass i multiply its stages' twiddles from their powers
                             of two (fftgen_kernel_plan.twiddle_powers), as one-kernel transforms always
                             do; FFTGEN_EVERY_PASS: every tiled pass. An error in other precisions. */
    int block_threads;    /* 1D sizes of one kernel: at most this many threads a block, in whole
                             transforms (at least one), a power of two from 32 to 1024
                             (fftgen_block_threads_supported); fewer blocks' threads let more blocks
                             share an SM, each waiting at its own barriers. 0: the planner's (256, or
                             fewer where shared memory caps a block's transforms) */
    int radix32_passes;   /* bit i: tiled pass i holds 32 points a thread (radix-32 stages): a 1024-point
                             pass exchanges through shared memory once instead of twice, for about
                             twice the registers; FFTGEN_EVERY_PASS: every tiled pass of 32 points
                             or more. An error where a named pass is not tiled or cannot take it
                             (a cluster's, or tensor cores'). 0: the planner's radix 16 */
    int column_register_passes; /* bit i: tiled pass i, columns of a 2D or 3D shape of at most 256
                             points, loads them straight into its stages' registers and stores them
                             from there, as longer columns do, instead of copying them through shared
                             memory; FFTGEN_EVERY_PASS: every such pass. An error where a named pass
                             has no such columns. 0: the planner's copies */
    int computed_twiddle_passes; /* fp16, bit i: pass i computes its stages' twiddles instead of loading
                             them (fftgen_kernel_plan.computed_twiddles); FFTGEN_EVERY_PASS: every pass
                             that can. An error in other precisions, and where a named pass runs on
                             tensor cores, is a fused slice or has one stage. 0: the tables */
    int prefetch;         /* sm_90, 1D sizes of one kernel and 2D/3D shapes' fused slices: each block
                             runs this many transforms (slices) in turn (a power of two from 2 to
                             FFTGEN_MAX_PREFETCH), copying the next one's input into shared memory with
                             a bulk copy while it computes the current one (fftgen_kernel_plan.prefetch);
                             1D sizes of two passes (sm_80): the tiles of fp16 rows read in runs, copied
                             by the block's threads. An error where no kernel can take it. 0: one
                             transform (tile) a block, read straight from global memory */
    int split_columns;    /* dense 2D and 3D shapes: 1 runs every column dimension outside the first pass
                             as two four-step passes of shorter columns through the work area
                             (64x64 for 4096 points), in wide tiles, instead of one pass in one block or
                             on a cluster; an error where no dimension can split. 0: the planner's
                             choice (a split where one-block tiles would be narrower than
                             SPLIT_COLUMN_TILE and no cluster takes them, and for fp16 columns of
                             SPLIT_FP16_COLUMN_POINTS) */
    int column_pair_passes; /* fp16, bit i: tiled pass i loads its columns a lane pair at a time, 8 bytes
                             a row and one shuffle a pair of points (fftgen_kernel_plan.column_pairs);
                             FFTGEN_EVERY_PASS: every pass that can (fftgen_can_pair_columns). An error
                             where a named pass cannot. 0: four bytes a point */
    int l2_prefetch_kb;   /* sm_90, passes that read their input straight from global memory: each block
                             asks L2 (bulk prefetches) for the input of the block this many KB further
                             on (fftgen_kernel_plan.l2_prefetch_bytes), in the passes of
                             l2_prefetch_passes. 0: the planner's (FFTGEN_L2_PREFETCH_DEFAULT_KB),
                             FFTGEN_L2_PREFETCH_OFF: none; an error where no pass can take it */
    int l2_prefetch_passes; /* bit i: pass i takes the L2 prefetch (FFTGEN_EVERY_PASS: every pass that
                             can); an error where a named pass cannot. 0: the planner's (a 1D transform
                             of one kernel; none in plans of several passes) */
    int l2_fetch_256_passes; /* sm_80, bit i: tiled pass i, which loads columns side by side straight from
                             global memory, asks L2 to fetch the 256 bytes around each point
                             (fftgen_kernel_plan.l2_fetch_256); FFTGEN_EVERY_PASS: every pass that can
                             (fftgen_can_fetch_l2_256). An error where a named pass cannot. 0: only the
                             column passes on clusters, which always ask */
    int four_step_columns; /* 1D sizes of two passes: the length n1 of pass 1's columns (n = n1 x n2, a
                             power of two), so that pass 2 transforms rows of n / n1 points; an error where
                             no two-pass plan takes it. 0: the planner's split (plan_two_passes). Dense 2D
                             shapes n0 x n1: pass 1 transforms dimension 0's columns of this many points,
                             pass 2 the rest of each column (n0 / this) with the rows, in slices of that
                             many rows (plan_row_slices); an error where the slice does not fit a block */
    int row_register_passes; /* fp32, bit i: tiled pass i, reading rows in runs from the pass before, loads
                             them straight into its first stage's registers (fftgen_kernel_plan.row_registers)
                             instead of copying them through shared memory; FFTGEN_EVERY_PASS: every pass
                             that can (fftgen_can_load_rows_to_registers). An error in other precisions and
                             where a named pass cannot. 0: the copy */
    int tma_column_passes; /* sm_90, bit i: tiled pass i, which loads columns side by side straight into
                             registers (or reads rows in runs from a pass 1's tiles), runs its tiles in
                             turn and has the tensor memory accelerator copy the next tile into shared
                             memory while it computes the current one
                             (fftgen_kernel_plan.tma_columns); FFTGEN_EVERY_PASS: every pass that can
                             (fftgen_can_copy_columns_by_tma). An error where a named pass cannot. 0: the
                             loads */
    int tile_pair_passes; /* bit i: tiled pass i, which stores its columns side by side from registers, runs
                             two tiles a block in turn and stores both together
                             (fftgen_kernel_plan.tile_pairs); FFTGEN_EVERY_PASS: every pass that can
                             (fftgen_can_pair_tiles). An error where a named pass cannot. 0: one tile a
                             block */
} fftgen_kernel_request;

/* Where a pass finds its data: transform f is member c = f mod group_size of group
 * g = (f / group_size) mod group_count of batch entry b = f / (group_size * group_count); it starts at
 * b*batch_stride + g*group_stride + c*fft_stride, and its point j lies j*elem_stride further. With
 * run_points > 0 (rows only, elem_stride 1) the points come in runs: point j lies
 * (j / run_points)*run_stride + j mod run_points further (rows read from the blocks a four-step
 * pass 1 wrote, fftgen_kernel_plan.twiddle_by_column). */
typedef struct {
    long long elem_stride, fft_stride, group_size, group_count, group_stride, batch_stride;
    long long run_points, run_stride;
} fftgen_layout;

typedef struct {
    int n;
    int radices[FFTGEN_MAX_STAGES];
    int stage_count;
    int radix_max;            /* points each thread holds */
    int threads_per_fft;
    int ffts_per_block;
    int threads;              /* per block */
    int staged_io;            /* global memory <-> shared memory copies (small n), else direct */
    int smem_points;          /* float2 elements in shared memory, padding included */
    int shared_bytes;         /* dynamic shared memory per block */
    int arch;
    fftgen_kernel_precision precision;
    /* Passes of a multi-pass transform work on tiles of transforms that lie side by side in memory
     * (threads and shared memory ordered transform-fastest), through these layouts: */
    int tiled;
    fftgen_layout in, out;
    long long twiddle_n; /* > 0: output j of group member c is multiplied by exp(-2*pi*i*c*j/twiddle_n) */
    int twiddle_by_group; /* c is the transform's group, not its member (a column split in two passes,
                             whose members are the columns side by side) */
    int twiddle_by_column; /* c is the transform's index over all groups (group * group_size + member):
                              a four-step pass 1 whose groups are its tiles, each written as one block */
    int column_registers; /* tiled columns (and fp16 rows in runs) load into and store from the stages'
                             registers, not shared memory: fftgen_loads_to_registers */
    /* A fused 2D slice (slice_rows > 0): each transform is slice_rows rows of n / slice_rows points,
     * contiguous. The block transforms the rows (chain `radices`), then the columns (chain
     * `col_radices`) in shared memory; both chains hold radix_max points per thread. Small slices run
     * ffts_per_block of them a block, each on threads_per_fft threads and smem_points /
     * ffts_per_block elements of shared memory of its own (group_small_slices). */
    int slice_rows;
    int col_radices[FFTGEN_MAX_STAGES];
    int col_stage_count;
    /* A fused slice (one block): its rows' last stage leaves each thread col_radices[0] butterflies
     * from rows slice_rows / col_radices[0] apart, and the columns' first stage runs on their outputs
     * in registers, in the same phase: one exchange through shared memory fewer. */
    int merged_stage;
    /* A whole small 3D transform in one block (volume_depth > 0): the block holds volume_depth fused
     * slices of one transform (several transforms where they are small), each on its own threads as
     * above; then all of their threads transform the columns along dimension 0 (chain depth_radices,
     * radix_max points a thread, or whole columns in turn: depth_rounds), which lie side by side in the
     * slices' shared memory, and store the outputs. One pass instead of two (plan_fused_volume in
     * planner.c). n stays the slice's points, so the kernel's batch counts slices, volume_depth a
     * transform. */
    int volume_depth;
    int depth_radices[FFTGEN_MAX_STAGES];
    int depth_stage_count;
    /* Where dimension 0 is shorter than the slices' radix_max points a thread (2x64x64: 2 against 16),
     * each thread transforms depth_rounds columns of volume_depth points in turn, one stage each, instead
     * of the slices taking that few points a thread too (which gave 2x64x64 4096 threads). 1: one column
     * (or part of one) a thread. */
    int depth_rounds;
    /* A fused slice of fewer rows than its rows' radix_max (2x2048): each thread transforms whole
     * columns of slice_rows points, column_rounds of them in turn, from shared memory to the outputs
     * (plan_slice_with_column_rounds). 0 or 1: the columns at radix_max points a thread. */
    int column_rounds;
    /* The mirror, a fused slice of fewer columns than its columns' radix_max (2048x2): each thread
     * transforms whole rows of n / slice_rows points, row_rounds of them in turn, from the inputs to shared
     * memory (plan_slice_with_row_rounds). 0 or 1: the rows at radix_max points a thread. */
    int row_rounds;
    /* Radix-16 stages as mma.sync m16n8k16 on tensor cores: the DFT matrix times the inputs of eight
     * butterflies, fp16 operands (the matrix rounded once, each twiddled input split into fp16
     * hi + lo), fp32 sums. */
    int tensor_cores;
    /* Where the pass reads and writes: the user's input or output, or the plan's work area. */
    fftgen_buffer source, target;
    int dimension; /* 2D and 3D: the dimension it transforms (a fused slice: the last) */
    /* A transform of cluster * n points on one thread-block cluster (cluster > 1, sm_90): block c
     * of the cluster transforms the n points c + cluster*j in its shared memory, then each block
     * reads every block's results at its share of the outputs (distributed shared memory) for the
     * last radix-`cluster` stage. Tiled: the cluster takes a tile of columns, block c their rows
     * c + cluster*j (the pass's batch counts columns). A fused slice: block c takes the slice's rows
     * c + cluster*j (slice_rows of cluster * slice_rows). */
    int cluster;
    /* fp16: the pass reads (shared_exponent_source) or writes (shared_exponent_target) the data between
     * passes as shared-exponent complexes (fftgen_intermediate), not __half2 */
    int shared_exponent_source, shared_exponent_target;
    /* fp16, > 0 with shared_exponent_*: a mixed intermediate, half __half2 and half shared-exponent
     * complexes, which costs about half the instructions of shared-exponent complexes and adds about
     * half their error above them (fftgen_place_intermediates). Row r of the reading pass's transforms
     * holds __half2 where r / mixed_*_rows is odd: the reader loads row fft_thread + u * THREADS_PER_FFT
     * into v[u], so the format of each load is u's parity, known as the kernel is written; each of the
     * writer's tiles lies in one group, which is one row of the reader, so a block branches once on its
     * group (fftgen_can_mix_intermediate). Every output sums as many points of each format. */
    int mixed_source_rows, mixed_target_rows;
    /* fp16: each CUDA-core radix-r stage loads the first twiddle of its butterflies and derives the
     * others from it by Chebyshev's recurrence, two fused multiply-adds each, instead of loading all
     * r - 1 (templates/stage.lua, emit_twiddle_recurrence: errors at most 3e-5, far below fp16's
     * rounding); a tiled pass's four-step twiddles follow the same recurrence. One-kernel transforms and
     * slices always; tiled passes where the request says so (measured pass by pass: `fftgen tune`). */
    int twiddle_powers;
    /* fp16, with twiddle_powers: each butterfly computes its first twiddle with __sincosf of the half
     * angle (error about 4e-7, far below fp16's rounding) and derives the others from it, so its stages
     * read no twiddle tables; a shuffle tail keeps its loads. A tiled pass computes its four-step twiddles
     * too (fftgen_computes_pass_twiddles). Where the request says so (measured: `fftgen tune`). */
    int computed_twiddles;
    /* > 1 (sm_90, a 1D transform of one kernel, one transform a block, or a fused 2D slice whose rows
     * load straight into registers; or a tiled pass of fp16 rows in runs, whose tiles it counts): each
     * block runs up to `prefetch` transforms (slices) in turn
     * (the launch gives every SM a block where the batch has enough, and the blocks stride over the
     * transforms by the grid); one thread bulk-copies (cp.async.bulk, the TMA) the next one's input
     * into a staging buffer after the shared memory while the block computes the current one, and the
     * first stage reads from there. A block that holds the whole SM (fp16 16384 or 128x128: 139 KB of
     * shared memory) otherwise waits for its loads with nothing else to run. A fused slice's threads
     * copy it themselves instead (cp.async, 16 bytes each), into rows staged_row_points apart. */
    int prefetch;
    /* With prefetch, a fused slice's rows lie this many points apart in the staging buffer: the row
     * and a pad that puts each of a warp's rows on banks of its own and holds the 16 bytes more that a
     * row's copies take where the input is not 16-byte aligned. 0: the transform lies there in one piece. */
    int staged_row_points;
    /* With prefetch, a fused slice's threads copy the next slice in two halves, at the block's first
     * and last barriers, instead of all of it at the first: where the slice's 512 or fewer threads
     * are alone on the SM and its rows' last stage runs the columns' first (merged_stage), the copies
     * issued at once filled the memory pipe's queue that the merged stage's loads wait on. */
    int split_copies;
    /* fp16 columns loaded straight into registers, a lane pair at a time: lanes l and l ^ 1 hold
     * neighbouring columns, each loads both columns of one row in 8 bytes, and one shuffle hands each
     * lane the other's point of its own column (fftgen_can_pair_columns). Half the load instructions
     * for three selects a pair more: faster on an H100 in its 512-thread passes of tiles of 16 and
     * 32, slower in others and on an H200, so a measured choice. The kernel keeps the 4-byte loads for
     * a partial tile and a buffer that is not 8-byte aligned. */
    int column_pairs;
    /* fp32 rows in runs (a four-step pass 2, or rows after columns) loaded straight into the first stage's
     * registers, as fp16 rows always are, instead of copied through shared memory: one exchange and one
     * barrier fewer for the same DRAM traffic. Faster on an H200 in the 512- and 1024-thread passes of 2^21
     * to 2^24, slower in the radix-32 passes of 2^19 and 2^20 and on an H100 at 2^17, so a measured
     * choice (fftgen_can_load_rows_to_registers). */
    int row_registers;
    /* > 0 (sm_90; a pass on CUDA cores that reads its input straight from global memory, not on a
     * cluster, not a fused slice and without `prefetch`): the block asks L2 for the input of the block
     * (tile) about this many bytes further on, holding no registers and waited on by nothing: one
     * bulk prefetch (cp.async.bulk.prefetch.L2) by thread 0 for dense transforms and tiles of dense
     * rows, a prefetch.global.L2 a line, one thread a run, for other tiles (fftgen_can_l2_prefetch). A
     * block's own loads keep only so many reads in flight, which on an H200 leaves DRAM short of
     * requests; the prefetch issues them about a microsecond ahead. Measured (fftgen-kernel-ab, H200
     * and H100): one-kernel fp16 and fp32 sizes 0.5-8% faster at 1-2 MB ahead; 6 MB and more evicts
     * data before its block reads it; passes of larger sizes and 2D/3D shapes up to 6% faster or 5%
     * slower, by plan and GPU. */
    int l2_prefetch_bytes;
    /* The tile's column loads carry PTX's .L2::256B hint (sm_80): L2 fetches the 256 bytes around each
     * point from DRAM, so the runs of the tiles beside this one, which other blocks read soon after,
     * come from L2 instead of a half-used sector fetch each. Columns on clusters always ask (no L2
     * prefetch there; fftgen-kernel-ab, H100 / H200: fp32 8192x8192 -3.7% / -4.2%, fp16 4096x4096
     * -2.4% / -2.5%); other column passes where the request names them, since there it measured
     * faster in some plans and slower in others (H100 up to -2.1%, H200 from -3.4% to +2.6%;
     * results/kernel-ab.txt), and a pass that asks L2 for its tiles ahead gains nothing more. */
    int l2_fetch_256;
    /* sm_90: the tile's columns come through the tensor memory accelerator (TMA). The launch gives each
     * SM as many blocks as fit, each runs tiles blockIdx.x, + gridDim.x, .. in turn, and one thread asks
     * for the next tile (cp.async.bulk.tensor, boxes of up to 256 rows of the tile's width, from a tensor
     * map the launch encodes for the input) while the block computes the current one; the first stage
     * reads the tile from that staging buffer, row by row, and an mbarrier says when it has landed.
     * One instruction a box, where a copy ahead by the threads (cp.async) or a bulk copy a row cost as
     * many as the loads and measured slower; H200, fp16 2^22 and 2^23 (fftgen-kernel-ab): 0.8251 ->
     * 0.7369 ms and 0.9057 -> 0.7839 ms. A measured choice (fftgen_can_copy_columns_by_tma).
     * A pass that reads rows in runs from a four-step pass 1's tiles takes the same (fftgen_tma_runs):
     * a box a tile (of up to 256 runs: more take several), each run of its rows F*R contiguous points,
     * landing with the TMA's 128-byte swizzle,
     * and the first stage reads its points from there, in place of the loads, the copy through shared
     * memory and its barrier. H200, fp16 2^18, pass 2 (fftgen-kernel-ab, outputs bit for bit the same):
     * 0.5894 -> 0.5637 ms for the transform, 384 -> 326 us for the pass (ncu). */
    int tma_columns;
    int tma_staging_offset; /* with tma_columns: the staging buffer's byte offset in shared memory (the
                               exchanges' area rounded up to the 128 bytes a box lands on; a run pass's
                               kernel moves the buffer on to the swizzle's 1024 bytes); the mbarrier
                               follows the tile */
    /* With tma_columns, where the tile does not fit beside the exchanges: the staging buffer lies inside
     * the exchanges' shared memory (the mbarrier past them), and thread 0 asks for the next tile once every
     * thread has read the last exchange, so the copy overlaps the last stage and its stores only. A block
     * barrier more there, and one after the first stage has read its tile into registers, before its
     * outputs go over it. fp32 passes of 16384 points a block (4096-point rows and columns in tiles of 4,
     * 2048-point columns in tiles of 8: 136 KB of exchanges, one block an SM that loads, computes and
     * stores in turn) have no room for their 128 KB tile beside the exchanges (fftgen_can_copy_columns_by_tma). */
    int tma_in_exchanges;
    /* A block runs two tiles of F transforms in turn (tiles 2b and 2b + 1, side by side in one group) and
     * keeps each one's outputs in shared memory, the first tile's past the exchanges and the second's over
     * them once its last stage has read them; then it stores both tiles' outputs together, rows of 2F
     * points. A pass that writes its columns transposed in tiles of F = 4 fp16 points writes 16 of each
     * 32-byte sector, and the other half comes from another block at another time: H100, fp16 4096-point
     * rows in tiles of 4 written as columns, a copy's access pattern alone, 26.8% of copy bandwidth, in
     * tiles of 8 93-97% (results/access-patterns-h100.txt). Tiles of 8 of 4096 points hold 32768 points,
     * more than a block's registers and exchanges take; two tiles of 4 in turn need 64 KB more shared
     * memory. A measured choice (fftgen_can_pair_tiles). */
    int tile_pairs;
    int pair_offset; /* with tile_pairs: the byte offset in shared memory of the first tile's outputs (past
                        the exchanges, to 16 bytes) */
    /* > 1: a fused slice whose outputs interleave (pass 2 of plan_row_slices): slice b's row k goes to row
     * (b mod interleaved_slices) + interleaved_slices * k of transform b / interleaved_slices, the four-step
     * order of dimension 0, instead of rows b * slice_rows + k. Its input is dense, as any slice's. */
    int interleaved_slices;
} fftgen_kernel_plan;

#define FFTGEN_EVERY_PASS ((1 << FFTGEN_MAX_PASSES) - 1) /* a request's pass mask: all of them */
#define FFTGEN_MAX_PREFETCH 64 /* transforms a block runs in turn (fftgen_kernel_request.prefetch) */
#define FFTGEN_L2_PREFETCH_OFF (-1)          /* fftgen_kernel_request.l2_prefetch_kb: none */
#define FFTGEN_L2_PREFETCH_DEFAULT_KB 1024   /* the planner's distance where a kernel can take it */
#define FFTGEN_MAX_L2_PREFETCH_KB (64 * 1024) /* a request's largest distance */
#define FFTGEN_MAX_RANK 3

/* A user layout as cufftPlanMany's advanced layout: element x (a multi-index) of transform b at
 * b*dist + stride * (x linearized row-major over embed). embed[0] is never used, and an embed of 0
 * means the shape's size. Rank 1 (contiguous: stride 1, dist n): point j at b*dist + j*stride. */
typedef struct {
    long long stride, dist;
    long long embed[FFTGEN_MAX_RANK];
} fftgen_user_layout;

/* A whole transform. Rank 1: one kernel, or passes over global memory (four-step, no transposes)
 * through a work area. Rank 2 and 3: one pass per dimension (the last two fused into one kernel
 * when a slice fits a block, rows longer than one kernel in the 1D passes through the work area);
 * the first pass reads the input, the others run in place on the output. Each pass says which
 * buffers it reads and writes. */
typedef struct {
    long long n;                       /* points per transform: the product of the shape */
    int rank;
    long long shape[FFTGEN_MAX_RANK];  /* row-major: shape[rank - 1] varies fastest */
    int pass_count;
    fftgen_kernel_plan pass[FFTGEN_MAX_PASSES];
    fftgen_user_layout in, out; /* the data's layouts */
    fftgen_tile_caps max_tile;  /* the request's caps on tile widths, for the command line */
    int cluster;                /* the request's cluster size (0: the default), for the command line */
    int block_threads;          /* the request's (0: the default), for the command line */
    fftgen_intermediate intermediate; /* the request's, for the command line */
    int columns_first;          /* whether the columns of a 2D shape went first (plan_columns_first) */
    int column_register_passes; /* the passes whose short columns load straight into registers because
                                   the request named them (fftgen_kernel_request.column_register_passes) */
    int computed_twiddle_passes; /* the passes that compute their stages' twiddles
                                    (fftgen_kernel_request.computed_twiddle_passes) */
    int prefetch;               /* the request's (0: none), for the command line */
    int split_columns;          /* the request's, for the command line */
    int rows_radix;             /* 2D/3D: the radix asked for the rows' one-kernel pass (0: the default), for
                                   the command line */
    int column_pair_passes;     /* the passes that load their columns in lane pairs
                                   (fftgen_kernel_request.column_pair_passes) */
    int row_register_passes;    /* the passes that load fp32 rows in runs straight into registers
                                   (fftgen_kernel_request.row_register_passes) */
    int l2_prefetch_kb;         /* the request's (0: the planner's), for the command line */
    int l2_prefetch_passes;     /* the passes that took the L2 prefetch because the request named them */
    int l2_fetch_256_passes;    /* the passes whose column loads ask L2 for 256 bytes because the request
                                   named them (fftgen_kernel_request.l2_fetch_256_passes) */
    int four_step_columns;      /* the request's (0: the planner's split), for the command line */
    int tma_column_passes;      /* the passes whose column tiles come through the TMA
                                   (fftgen_kernel_request.tma_column_passes) */
    int tile_pair_passes;       /* the passes that run two tiles a block and store them together
                                   (fftgen_kernel_request.tile_pair_passes) */
} fftgen_transform_plan;

typedef enum {
    FFTGEN_PLAN_OK = 0,
    FFTGEN_PLAN_BAD_SIZE,      /* not a power of two >= 2 */
    FFTGEN_PLAN_TOO_LARGE,     /* above what one block holds */
    FFTGEN_PLAN_BAD_RADIX,     /* a radix, block size or tensor-core request that does not apply */
    FFTGEN_PLAN_RADIX_NOT_DIVIDING,
    FFTGEN_PLAN_BAD_ARCH,
    FFTGEN_PLAN_BAD_LAYOUT     /* a stride, distance or embed that is not >= 1 (embed: >= the shape) */
} fftgen_plan_status;

/* Whether `threads` can be a request's block_threads: a power of two from 32 to 1024. */
int fftgen_block_threads_supported(long long threads);
/* Whether `n1` can be a request's four_step_columns: a power of two from 2 to 2^29. */
int fftgen_four_step_supported(long long n1);
/* Whether `transforms` can be a request's prefetch: a power of two from 2 to FFTGEN_MAX_PREFETCH. */
int fftgen_prefetch_supported(long long transforms);
/* Whether `kb` can be a request's l2_prefetch_kb: FFTGEN_L2_PREFETCH_OFF, 0 (the planner's), or 1 to
 * FFTGEN_MAX_L2_PREFETCH_KB. */
int fftgen_l2_prefetch_supported(long long kb);
/* An L2 prefetch distance as the command line, wisdom and FFTGEN_L2_PREFETCH write it (KB, 0 for none)
 * -> a request's l2_prefetch_kb (FFTGEN_L2_PREFETCH_OFF for 0); 0 when `text` is not a whole number
 * from 0 to FFTGEN_MAX_L2_PREFETCH_KB. And back: the KB to write for a request's value. */
int fftgen_l2_prefetch_parse(const char *text);
int fftgen_l2_prefetch_written(int l2_prefetch_kb);

/* Plans one fused single-kernel FFT. On failure, `why` holds a one-line reason. */
fftgen_plan_status fftgen_plan_kernel(const fftgen_kernel_request *request, fftgen_kernel_plan *plan,
                                      char *why, size_t why_len);

/* Plans a whole transform: one kernel when it fits in a block, else two strided passes
 * (n = n1 * n2 up to 2^20: n2 columns of n1 points, then n1 rows of n2 points written transposed),
 * else three (n = n1 * n2 * n3 up to 2^30: the columns of n1, then the two-pass scheme on each row).
 * `request->max_radix` and `request->block_threads` apply to single-kernel plans only. */
fftgen_plan_status fftgen_plan_transform(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                         char *why, size_t why_len);

/* As fftgen_plan_transform, for data in the given layouts. Contiguous layouts give the same plan;
 * others read and write through tiled passes (one up to 16384 points, else two or three). */
fftgen_plan_status fftgen_plan_strided(const fftgen_kernel_request *request, fftgen_user_layout in,
                                       fftgen_user_layout out, fftgen_transform_plan *plan, char *why,
                                       size_t why_len);

/* Plans a transform of rank 1, 2 or 3 of the given shape (row-major, shape[rank - 1] fastest), for
 * data in the given layouts; request->n is ignored, and request->max_radix and request->block_threads
 * must be 0 above rank 1.
 * Rank 1 is fftgen_plan_strided. Above, in strided layouts every dimension must fit one kernel;
 * dense data take longer rows as 1D passes and split long columns into two passes. */
fftgen_plan_status fftgen_plan_shape(const fftgen_kernel_request *request, int rank, const long long *shape,
                                     fftgen_user_layout in, fftgen_user_layout out, fftgen_transform_plan *plan,
                                     char *why, size_t why_len);

/* "512x256" for a shape, "4096" for rank 1. */
void fftgen_shape_text(int rank, const long long *shape, char *out, size_t len);

/* The `batch` a pass's kernel takes per transform of `points` points: its transforms, or, for a 1D
 * transform on one cluster, its blocks (cluster per transform); a cluster of tiled columns counts
 * the columns. fftgen_pass_blocks: the grid for a kernel batch of `ffts` on a device of `sms`
 * multiprocessors (a prefetching kernel takes a block on each where the batch has enough; other kernels
 * ignore it). */
long long fftgen_pass_ffts(const fftgen_kernel_plan *pass, long long points);
long long fftgen_pass_blocks(const fftgen_kernel_plan *pass, long long ffts, int sms);

/* Whether any pass reads or writes the work area (as large as the data). */
int fftgen_plan_needs_work(const fftgen_transform_plan *plan);

/* The largest n fftgen_plan_transform handles. */
long long fftgen_transform_limit(fftgen_kernel_precision precision, int arch);

/* Opt-in shared memory per block of an architecture, or -1 if fftgen does not know it. */
int fftgen_arch_shared_limit(int arch);

/* Comma-separated list of the architectures fftgen knows, e.g. "sm_75, sm_80, ...". */
const char *fftgen_known_archs(void);

/* The largest n that one kernel handles at this precision and architecture (default radix). */
long long fftgen_single_kernel_limit(fftgen_kernel_precision precision, int arch);

/* Whether `radix` is a largest radix per stage the kernels have: 2, 4, 8, 16 or 32. */
int fftgen_radix_supported(long long radix);

/* "fp32", "fp16", "split" or "split-papers"; fftgen_precision_parse is its inverse (-1: unknown). */
const char *fftgen_precision_name(fftgen_kernel_precision precision);
int fftgen_precision_parse(const char *name);

/* A split precision: fp32 storage, radix-16 merges on tensor cores. */
int fftgen_precision_is_split(fftgen_kernel_precision precision);

/* Whether a pass computes its four-step twiddles (base and ratio, with __sincosf) instead of reading
 * their tables: a tiled pass with pass twiddles and computed_twiddles, not on a cluster. */
int fftgen_computes_pass_twiddles(const fftgen_kernel_plan *plan);

/* Shared memory holds one pad float2 every this many points: 16, so that strided accesses spread over
 * the banks (smem_points counts those pads), or 32 in a tiled pass of 32 points a thread with tiles of
 * fewer than 16 transforms. Its first stage writes a warp's 32 / tile butterflies 32 * tile points
 * apart; padded every 16, they share 8-byte bank pairs four to a pair, and each store takes twice the
 * wavefronts it needs (H100, fp16 2^20's pass 1, tiles of 8: 8.7M of its 17.1M; with the pad every
 * 32, 0.3M of 8.7M). Not where fp32 rows in runs copy into shared memory by transform: runs of 16
 * would take twice the wavefronts with the pad every 32. */
int fftgen_smem_pad_every(const fftgen_kernel_plan *plan);

/* Whether the pass's last stage, a radix-2 tail after a radix-16 stage of one butterfly per thread,
 * runs in registers: lanes 16 apart hold the two halves of each pair and swap them with warp
 * shuffles, so the pass has one shared-memory exchange fewer (untiled direct-I/O passes on CUDA cores, and
 * tiled passes that store columns from registers). */
int fftgen_shuffle_tail(const fftgen_kernel_plan *plan);

/* Whether that shuffle tail computes its twiddles (after radix 32, in a pass that computes its own) rather
 * than reading its table (after radix 16, even where the pass computes the others). */
int fftgen_shuffle_tail_computes_twiddles(const fftgen_kernel_plan *plan);

/* How many times the pass's block exchanges its data through shared memory between stages (each behind a
 * block barrier): a fused slice once more between its rows and its columns, a cluster once more before
 * its last stage (across the blocks); a shuffle tail and a merged stage need none. */
int fftgen_shared_exchanges(const fftgen_kernel_plan *plan);

/* Whether a pass loads its input (stores its output) straight between global memory and its
 * stages' registers, with no copy through shared memory. A tiled pass: thread i takes point
 * i / FFTS_PER_BLOCK + u * THREADS_PER_FFT of transform i % FFTS_PER_BLOCK, the point that the first
 * stage's butterfly reads into v[u] and the last stage's writes as output u. Columns (elem_stride
 * != 1) where the planner says so (column_registers); in fp16 (and fp32 where row_registers) also
 * input rows in runs (pass 2 of a four-step split, from pass 1's blocks), in tiles of at most 8 and
 * where THREADS_PER_FFT is a whole number of runs: a warp then reads at least 16 bytes of each
 * transform's run. A fused slice (not on
 * a cluster): its rows load straight into the row stages' registers where rows that long would in an
 * untiled kernel (fp16: rows of 64 points and more), and its columns store straight from the last
 * column stage (fp16: columns of at most 128 points). */
int fftgen_loads_to_registers(const fftgen_kernel_plan *p);
int fftgen_stores_from_registers(const fftgen_kernel_plan *p);

/* Whether a fused slice's rows' last stage runs its whole columns (merged_stage with a one-stage column
 * chain) and stores the outputs from registers: no column phase of its own. */
int fftgen_merges_whole_columns(const fftgen_kernel_plan *p);

/* Whether a tiled pass's loads, straight into registers, put the lanes along its runs: fp16 rows in runs
 * of 16, tiles of 16, a first stage of radix 16. Thread i then takes point i % 16 (plus 16 times
 * i / 256) of its run of transform (i / 16) % 16: a warp reads two whole runs, 128 contiguous bytes.
 * The first stage's butterfly j (its points j + u * THREADS_PER_FFT) writes shared memory padded one
 * element more every 256 (padded_wide) for the second stage, which takes the usual threads again. */
int fftgen_reads_runs_across_lanes(const fftgen_kernel_plan *p);

/* Whether a pass copies its columns through shared memory where it could load them straight into
 * registers (fftgen_kernel_request.column_register_passes): tiled, on CUDA cores, not column_registers
 * (short columns of 2D and 3D shapes, by default). */
int fftgen_copies_columns(const fftgen_kernel_plan *p);

/* Whether a pass can load its rows in runs straight into registers on request
 * (fftgen_kernel_request.row_register_passes): fp32 rows read in runs from the pass before, on CUDA cores,
 * in tiles of at most 8 whose THREADS_PER_FFT is a whole number of runs (as fp16 rows take by default). */
int fftgen_can_load_rows_to_registers(const fftgen_kernel_plan *p);

/* Whether a pass can load its columns in lane pairs (fftgen_kernel_plan.column_pairs): fp16 (not
 * shared-exponent) columns side by side, loaded straight into registers, in tiles of an even width
 * whose every column pair starts 8 bytes aligned where the buffer does. */
int fftgen_can_pair_columns(const fftgen_kernel_plan *p);

/* Whether a pass can compute its stage twiddles (fftgen_kernel_request.computed_twiddle_passes): on CUDA
 * cores, with two stages or more; a fused slice in one block where its rows or its columns have two. */
int fftgen_can_compute_twiddles(const fftgen_kernel_plan *p);

/* Whether a pass can ask L2 for its input ahead (fftgen_kernel_request.l2_prefetch_passes): sm_90, on
 * CUDA cores, off clusters, not a fused slice, copying nothing ahead itself, reading dense transforms or
 * tiles whose runs lie side by side. */
int fftgen_can_l2_prefetch(const fftgen_kernel_plan *p);

/* Whether a pass can ask L2 for the 256 bytes around each point it loads (fftgen_kernel_plan.l2_fetch_256)
 * where the request names it: sm_80, a tiled pass reading columns side by side (not shared-exponent
 * complexes, not in lane pairs), off clusters, whose column passes ask already. */
int fftgen_can_fetch_l2_256(const fftgen_kernel_plan *p);

/* Whether a pass can have its column tiles copied ahead by the TMA (fftgen_kernel_plan.tma_columns):
 * sm_90, a tiled pass on CUDA cores, off clusters, loading fp16 or fp32 columns side by side straight into
 * registers (not in lane pairs, with no other copy or L2 request ahead), a tile a whole number of 16-byte
 * pieces wide within one group, strides of whole 16-byte pieces, and room for the tile in shared memory.
 * Or a pass reading rows in runs from a pass 1's tiles, side by side in one group (not shared-exponent
 * complexes, not along the lanes, not fp32's rows into registers), whose runs of the tile's rows are
 * whole 128-byte rows, a thread's points a whole number of runs apart and 1024 bytes apart in the
 * staging buffer (the swizzle's period, so that one swizzled base serves them all), at most 256 rows
 * a box, and up to 256 runs a box or whole boxes of 256. */
int fftgen_can_copy_columns_by_tma(const fftgen_kernel_plan *p);

/* Whether a TMA pass (fftgen_kernel_plan.tma_columns) reads rows in runs from the tiles of a pass before
 * rather than columns side by side: its staging buffer holds the tile's runs, F*R points each, in
 * 128-byte rows swizzled as CU_TENSOR_MAP_SWIZZLE_128B lays them out. */
int fftgen_tma_runs(const fftgen_kernel_plan *p);

/* A TMA run pass's tensor map (fftgen_tma_runs), without its batch entries: dimensions (in the order the
 * map takes them) the 128 bytes of a staged row, a run block's 128-byte rows, and the runs of a transform;
 * the byte strides of the last two; and the box: a staged row, the tile's rows of each run block, and
 * every run or, for more than 256, 256 of them (a tile is then several boxes). */
void fftgen_tma_run_map(const fftgen_kernel_plan *p, long long dims[3], long long strides[2], int box[3]);

/* The stride between a TMA column pass's groups in its tensor map: the layout's, or a group's columns
 * where there is one group (whose stride the layout leaves 0). */
long long fftgen_tma_group_stride(const fftgen_kernel_plan *p);

/* Whether a TMA column pass's tensor map takes the rows before the groups (their stride is the smaller:
 * the tiles of a pass before written as blocks), else the groups before the rows. */
int fftgen_tma_rows_first(const fftgen_kernel_plan *p);

/* Whether a pass can run two tiles a block and store them together (fftgen_kernel_plan.tile_pairs): a
 * tiled pass on CUDA cores, off clusters, copying nothing ahead (no prefetch, no TMA), not a slice, that
 * stores its columns side by side (transforms one element apart) from the last stage's registers (not
 * after a shuffle tail), not in a mixed intermediate, whose groups are whole pairs of tiles, and whose exchanges hold a tile's
 * outputs, with room for another tile's beside them. */
int fftgen_can_pair_tiles(const fftgen_kernel_plan *p);

/* The blocks a TMA column pass (fftgen_kernel_plan.tma_columns) launches: `resident` blocks an SM on
 * each of `sms` SMs (as many as fit, from the occupancy API), but no more than it has tiles. */
long long fftgen_tma_pass_blocks(const fftgen_kernel_plan *pass, long long ffts, int sms, int resident);

#endif
