/* The tensor maps of the passes whose column tiles the TMA copies (fftgen_kernel_plan.tma_columns):
 * encoded at each launch for the buffer the pass reads, through the driver entry point the CUDA runtime
 * hands out (never -lcuda). */
#ifndef FFTGEN_RUNTIME_TENSOR_MAP_H
#define FFTGEN_RUNTIME_TENSOR_MAP_H

#include "fftgen.h"
#include "planner.h"

/* The driver's CUtensorMap, as the kernels take it by value: 128 opaque bytes, 64-byte aligned. */
typedef struct {
    _Alignas(64) unsigned long long opaque[16];
} fftgen_tensor_map;

/* Encodes `pass`'s input tensor map for `in`, a kernel batch of `ffts` transforms: dimensions a group's
 * columns, groups, rows and batch entries, boxes of the tile's width by up to 256 rows, as the kernel's
 * fetch_tile_boxes asks for them; for a pass reading rows in runs (fftgen_tma_runs), the map of
 * fftgen_tma_run_map, a box a tile (or several), swizzled. An `in` off 16 bytes gets a zeroed map: the kernel's
 * threads copy the tiles themselves there (copy_tile). */
fftgen_result fftgen_encode_column_tiles(const fftgen_kernel_plan *pass, const void *in, long long ffts,
                                         fftgen_tensor_map *map);

#endif
