/* Choices placed on a plan once the planner has split it into passes (plan_choices.c): tensor
 * cores, twiddles computed or from their powers, prefetch, radix-32 passes, column registers and
 * pairs, row registers, and the format between fp16 passes. Each applies what the request asks
 * where a pass can take it; where a named pass cannot, it returns an error status and says why in
 * `why`. Internal to the planner (planner.c is their only caller). */
#ifndef FFTGEN_PLAN_CHOICES_H
#define FFTGEN_PLAN_CHOICES_H

#include "planner.h"

/* Tensor cores: whether a pass can run its radix-16 stages there, moving one pass there, a single
 * kernel's request, what a request needs, the passes a request names, and whether any pass took them. */
int fftgen_tensor_cores_fit(const fftgen_kernel_plan *p);
fftgen_plan_status fftgen_move_to_tensor_cores(fftgen_kernel_plan *p);
fftgen_plan_status fftgen_use_tensor_cores(fftgen_kernel_plan *p, char *why, size_t why_len);
fftgen_plan_status fftgen_check_tensor_core_request(const fftgen_kernel_request *request, char *why, size_t why_len);
fftgen_plan_status fftgen_place_on_tensor_cores(const fftgen_kernel_request *request, fftgen_transform_plan *plan);
fftgen_plan_status fftgen_check_tensor_cores_placed(const fftgen_kernel_request *request,
                                                   const fftgen_transform_plan *plan, char *why, size_t why_len);

/* Stage twiddles derived from the first, then computed ones, in the passes the request names. */
fftgen_plan_status fftgen_place_twiddle_powers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                               char *why, size_t why_len);
/* The request's prefetch on the pass (or passes) that can take it. */
fftgen_plan_status fftgen_place_prefetch(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                         char *why, size_t why_len);
/* The L2 prefetch ahead of each block (fftgen_kernel_plan.l2_prefetch_bytes): in the passes the request
 * names, else on 1D transforms of one kernel. */
fftgen_plan_status fftgen_place_l2_prefetch(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                            char *why, size_t why_len);
/* Whether every pass the request names for radix 32 took it. */
fftgen_plan_status fftgen_check_radix32_placed(const fftgen_kernel_request *request,
                                               const fftgen_transform_plan *plan, char *why, size_t why_len);
/* Short columns straight into registers, and fp16 columns loaded a lane pair at a time. */
fftgen_plan_status fftgen_place_column_registers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                                 char *why, size_t why_len);
fftgen_plan_status fftgen_place_column_pairs(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                             char *why, size_t why_len);
/* fp32 rows in runs straight into registers instead of copied through shared memory. */
fftgen_plan_status fftgen_place_row_registers(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                              char *why, size_t why_len);
/* Column loads that ask L2 for the 256 bytes around each point: on clusters, and where the request names. */
fftgen_plan_status fftgen_place_l2_fetch_256(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                             char *why, size_t why_len);
/* Column tiles copied ahead by the tensor memory accelerator, where the request names. */
fftgen_plan_status fftgen_place_tma_columns(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                            char *why, size_t why_len);
/* Two tiles a block, stored together, where the request names. */
fftgen_plan_status fftgen_place_tile_pairs(const fftgen_kernel_request *request, fftgen_transform_plan *plan,
                                           char *why, size_t why_len);
/* The request's L2 prefetch distance, for the command line: none where the TMA columns took every pass
 * the request named for it (fftgen_place_tma_columns). */
int fftgen_l2_prefetch_kb_kept(const fftgen_kernel_request *request, const fftgen_transform_plan *plan);
/* A 1D plan's passes after the user's strides reached them: the column-load choices that the dense plan
 * placed and that change no value are dropped where the strides no longer allow them: the 256-byte L2
 * fetch where the columns no longer lie side by side, the lane pairs where two neighbouring columns
 * no longer lie next to each other at even strides (fftgen_can_pair_columns), and fp32 rows' straight loads
 * where a pass no longer reads rows in runs (fftgen_can_load_rows_to_registers), and the TMA's copies where
 * the strides are no longer whole 16-byte pieces (fftgen_can_copy_columns_by_tma), and the tile pairs where
 * the output's transforms no longer lie side by side (fftgen_can_pair_tiles). */
void fftgen_keep_column_choices_that_fit(fftgen_transform_plan *plan);
/* What a split-precision request needs before planning. */
fftgen_plan_status fftgen_check_split(const fftgen_kernel_request *request, int rank, char *why, size_t why_len);
/* fp16, mixed or shared-exponent complexes at each boundary between passes. */
int fftgen_can_mix_intermediate(const fftgen_kernel_plan *writer, const fftgen_kernel_plan *reader);
void fftgen_place_intermediates(const fftgen_kernel_request *request, fftgen_transform_plan *plan);

#endif
