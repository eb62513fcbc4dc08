/* Wisdom: the kernel choices `fftgen tune` measured fastest on one device, and the table of them that
 * ships with the library. Plain C, no CUDA: the tests parse and look up without a GPU.
 *
 * A wisdom file is text. Its first line is "fftgen-wisdom 1"; then sections, each opened by a line
 *   device "NVIDIA H100 80GB HBM3" sm_90 driver 580.159.04 fftgen 0.1.0
 * and holding one line per measured transform:
 *   fp16 65536 tensor-cores=2 max-tile=8 ms=0.412 default-ms=0.450
 * (tensor-cores: the passes, numbered from 1, whose radix-16 stages run on tensor cores, or "none";
 * max-tile: the widest tile of the strided passes, 0 for the planner's default, or pass by pass as
 * in "max-tile=16,16,8" (the last value for the passes after it); an optional cluster=N: the
 * thread-block cluster size of fftgen_kernel_request.cluster (1: none); an optional
 * order=columns-first (2D shapes: fftgen_kernel_request.columns_first; order=rows-first is the
 * default, and may be written); an optional radix=R (1D sizes of one kernel: the largest radix, R
 * points a thread, fftgen_kernel_request.max_radix); an optional block-threads=T (1D sizes of one
 * kernel: at most T threads a block, fftgen_kernel_request.block_threads); an optional
 * radix32-passes=P,.. (the tiled passes, numbered from 1, that hold 32 points a thread,
 * fftgen_kernel_request.radix32_passes); an optional column-registers=P,.. (2D and 3D: the passes whose
 * short columns load straight into registers, fftgen_kernel_request.column_register_passes); an
 * optional computed-twiddles=P,.. (fp16: the passes that compute their stage twiddles instead of reading
 * tables, fftgen_kernel_request.computed_twiddle_passes); an optional prefetch=K (sm_90, 1D sizes of
 * one kernel and 2D/3D shapes' fused slices: K transforms a block in turn, the next one's input
 * bulk-copied into shared memory while the block computes, fftgen_kernel_request.prefetch); an
 * optional l2-prefetch=KB (sm_90: each block asks L2 for the input KB further on, 0 for none,
 * fftgen_kernel_request.l2_prefetch_kb); an optional l2-prefetch-passes=P,.. (the passes that take it,
 * fftgen_kernel_request.l2_prefetch_passes); an optional twiddle-powers=P,.. (fp16: the tiled passes
 * that derive their twiddles from the first,
 * fftgen_kernel_request.twiddle_powers); an optional column-pairs=P,.. (fp16: the passes that load their
 * columns in lane pairs, fftgen_kernel_request.column_pair_passes); an optional row-registers=P,.. (fp32:
 * the passes that load rows in runs straight into registers, fftgen_kernel_request.row_register_passes);
 * an optional l2-fetch-256=P,.. (the
 * passes whose column loads ask L2 for the 256 bytes around each point,
 * fftgen_kernel_request.l2_fetch_256_passes); an optional tma-columns=P,.. (sm_90: the passes whose
 * column tiles the TMA copies ahead, fftgen_kernel_request.tma_column_passes); an optional tile-pairs=P,..
 * (the passes that run two tiles a block and store them together, fftgen_kernel_request.tile_pair_passes);
 * an optional four-step=N1
 * (1D sizes of two passes: pass 1's columns of N1 points instead of the planner's split; dense 2D shapes:
 * dimension 0's columns cut to N1 points in pass 1, the rest with the rows in slices in pass 2,
 * fftgen_kernel_request.four_step_columns); an optional max-points=P (the line serves calls of at most P
 * points in all, the transform's points times the batch: where the best choice for a small call differs
 * from a large one's; a line without it serves every call); the times are what tune measured,
 * for the reader). '#' starts
 * a comment; blank lines are skipped.
 *
 * libfftgen uses a user's section only where the device, driver and fftgen version all match. In the
 * shipped table, the first section of an architecture serves every device of it, and a later section
 * of the same architecture serves only the device it names, ahead of the first (driver and fftgen
 * version aside). */
#ifndef FFTGEN_RUNTIME_WISDOM_H
#define FFTGEN_RUNTIME_WISDOM_H

#include <stddef.h>

#include "fftgen.h"
#include "planner.h"

#define FFTGEN_WISDOM_FORMAT 1

/* What a measured choice sets in the planner's request. */
typedef struct {
    int tensor_cores; /* the request's pass mask (fp16) */
    fftgen_tile_caps max_tile; /* pass by pass; 0: the planner's default */
    int cluster;      /* the request's cluster size (1: none); 0: the planner's default */
    int columns_first; /* dense 2D shapes: the columns first (fftgen_kernel_request.columns_first) */
    int max_radix;    /* 1D single kernels: the largest radix (fftgen_kernel_request.max_radix); 0: the
                         planner's */
    int twiddle_powers; /* fp16: the tiled passes that derive their twiddles from the first
                           (fftgen_kernel_request.twiddle_powers) */
    int block_threads; /* 1D single kernels: at most this many threads a block
                          (fftgen_kernel_request.block_threads); 0: the planner's */
    int radix32_passes; /* the tiled passes that hold 32 points a thread
                           (fftgen_kernel_request.radix32_passes) */
    int column_register_passes; /* 2D and 3D: the passes whose short columns load straight into
                                   registers (fftgen_kernel_request.column_register_passes) */
    int computed_twiddle_passes; /* fp16: the passes that compute their stage twiddles
                                    (fftgen_kernel_request.computed_twiddle_passes) */
    int prefetch; /* sm_90, 1D single kernels and fused slices: transforms a block runs in turn, each
                     one's input bulk-copied while the one before computes
                     (fftgen_kernel_request.prefetch); 0: one */
    int split_columns; /* 2D and 3D: the columns in two four-step passes each
                          (fftgen_kernel_request.split_columns) */
    int column_pair_passes; /* fp16: the passes that load their columns in lane pairs
                               (fftgen_kernel_request.column_pair_passes) */
    int l2_prefetch_kb; /* sm_90: how far ahead a block asks L2 for input, in KB
                           (fftgen_kernel_request.l2_prefetch_kb); 0: the planner's distance,
                           FFTGEN_L2_PREFETCH_OFF: none */
    int l2_prefetch_passes; /* the passes that take it (fftgen_kernel_request.l2_prefetch_passes); 0:
                               the planner's */
    int l2_fetch_256_passes; /* sm_80: the passes whose column loads ask L2 for 256 bytes around each point
                                (fftgen_kernel_request.l2_fetch_256_passes) */
    int row_register_passes; /* fp32: the passes that load rows in runs straight into registers
                                (fftgen_kernel_request.row_register_passes) */
    int tma_column_passes; /* sm_90: the passes whose column tiles the TMA copies ahead
                              (fftgen_kernel_request.tma_column_passes) */
    int four_step_columns; /* 1D sizes of two passes: the length of pass 1's columns
                              (fftgen_kernel_request.four_step_columns); 0: the planner's split */
    int tile_pair_passes; /* the passes that run two tiles a block and store them together
                             (fftgen_kernel_request.tile_pair_passes) */
} fftgen_choice;

/* The device a section was measured on. */
typedef struct {
    char device[256]; /* the CUDA device name */
    int arch;         /* 90 for sm_90 */
    char driver[32];  /* the NVIDIA kernel module's version, else the CUDA driver API version */
    char version[16]; /* fftgen's */
} fftgen_device_key;

typedef struct {
    fftgen_kernel_precision precision;
    int rank;
    long long shape[FFTGEN_MAX_RANK];
    fftgen_choice choice;
    double ms, default_ms; /* as measured, for the reader */
    long long max_points; /* the line serves calls of at most this many points in all; 0: every call */
} fftgen_wisdom_entry;

/* The largest max-points a line may name: a call's points in all, as fftgen_plan_many allows them. */
#define FFTGEN_WISDOM_MAX_POINTS (1LL << 40)

/* Checks the whole text, then adds all its sections to the process's wisdom (shipped: as the shipped
 * table); a later entry for the same transform in a section of the same key replaces an earlier one.
 * On FFTGEN_WISDOM_CORRUPT, nothing is added and `why` names the line. */
fftgen_result fftgen_wisdom_add_text(const char *text, size_t size, int shipped, char *why, size_t why_len);

/* The same from a file (FFTGEN_WISDOM_UNREADABLE if it cannot be read). */
fftgen_result fftgen_wisdom_add_file(const char *path, char *why, size_t why_len);

/* Once per process, for the first plan (a plan that comes while another loads them waits for them):
 * the shipped table, then the user's wisdom file ($FFTGEN_WISDOM, else wisdom.txt in the kernel
 * cache's folder; FFTGEN_WISDOM=0: none). A damaged file is skipped and said once on stderr; a
 * missing one is not an error. */
void fftgen_wisdom_load_defaults(void);

/* The choice for a call of `points` points in all (the transform's points times the batch) on `key`'s
 * device: the user's section for this device, driver and fftgen version first, then the shipped section
 * named for the device, then the first shipped section of its architecture; within the first of those
 * that has a line serving the call, the line of the smallest max-points at or above `points`, else its
 * line without max-points. 1 if found. */
int fftgen_wisdom_find(const fftgen_device_key *key, fftgen_kernel_precision precision, int rank,
                       const long long *shape, long long points, fftgen_choice *choice);

/* The user's wisdom file: $FFTGEN_WISDOM, else wisdom.txt in the cache folder. -1 if none. */
int fftgen_wisdom_default_path(char *path, size_t len);

/* Writes `path` atomically: its sections for other devices kept, the one for `key` replaced by
 * `entries`. A damaged existing file is left as it is (FFTGEN_WISDOM_CORRUPT, `why` says where). */
fftgen_result fftgen_wisdom_write(const char *path, const fftgen_device_key *key, const fftgen_wisdom_entry *entries,
                                  int count, char *why, size_t why_len);

/* The sections of a wisdom text that hold entries, in order (at most `max`): their count, or -1 if the
 * text is not wisdom. */
int fftgen_wisdom_sections(const char *text, size_t size, fftgen_device_key *keys, int max);
/* Sets what `choice` measured in a planner request for a transform of `rank` dimensions: the tensor-core
 * passes and twiddle powers (fp16 only), the tiles, the cluster, the order (2D), the radix (1D). */
void fftgen_choice_apply(const fftgen_choice *choice, int rank, fftgen_kernel_request *request);
/* "tensor-cores=2 max-tile=8" for a choice (the words of a wisdom line; " cluster=N" where set). */
void fftgen_choice_text(const fftgen_choice *choice, char *out, size_t len);

/* Tests only: forgets all wisdom, and lets the defaults load again. */
void fftgen_wisdom_reset_for_tests(void);

#endif
