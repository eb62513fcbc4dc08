#include "tensor_map.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "error_detail.h"
#include "launch.h"

/* The driver's encoder, looked up once per process (every execution of a TMA pass encodes a map). */
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;
static PFN_cuTensorMapEncodeTiled_v12000 encoder;
static cudaError_t lookup_status;
static enum cudaDriverEntryPointQueryResult lookup_found = cudaDriverEntryPointSymbolNotFound;

static void look_up_encoder(void)
{
    lookup_status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encoder, 12000,
                                                     cudaEnableDefault, &lookup_found);
}

/* Encodes a 4D map of `in` (points of `bytes`) with the given dimensions, byte strides and box; `kind`
 * names the pass in an error. */
static fftgen_result encode_map(PFN_cuTensorMapEncodeTiled_v12000 encode, const void *in, cuuint64_t bytes,
                                const cuuint64_t dims[4], const cuuint64_t strides[3], const cuuint32_t box[4],
                                CUtensorMapSwizzle swizzle, const char *kind, fftgen_tensor_map *map)
{
    const cuuint32_t steps[4] = {1, 1, 1, 1};
    CUtensorMap encoded;
    /* L2 fetches the 128 bytes around each row of a box: the tiles beside read the rest soon after (256
     * bytes fetched more than the passes read: fftgen-kernel-ab, H200, fp32 2^23 1.2893 -> 1.2602 ms with
     * 128, 1.3816 with none) */
    const CUresult result =
        encode(&encoded, bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT64, 4, (void *)in,
               dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        return fftgen_detail(FFTGEN_CUDA_ERROR,
                             "cuTensorMapEncodeTiled for a TMA %s pass's input %p returned %d (dimensions %llu x %llu x %llu x"
                             " %llu, strides %llu, %llu, %llu bytes)",
                             kind, in, (int)result, (unsigned long long)dims[0], (unsigned long long)dims[1],
                             (unsigned long long)dims[2], (unsigned long long)dims[3], (unsigned long long)strides[0],
                             (unsigned long long)strides[1], (unsigned long long)strides[2]);
    _Static_assert(sizeof encoded == sizeof *map, "a tensor map is 128 bytes");
    memcpy(map, &encoded, sizeof encoded);
    return FFTGEN_SUCCESS;
}

/* A run pass's map (fftgen_tma_run_map): a box a tile (or several of 256 runs), landing with the
 * 128-byte swizzle that the kernel's first stage reads it through. */
static fftgen_result encode_run_tiles(PFN_cuTensorMapEncodeTiled_v12000 encode, const fftgen_kernel_plan *pass,
                                      const void *in, cuuint64_t bytes, long long entries, fftgen_tensor_map *map)
{
    long long shape[3], spans[2];
    int tile[3];
    fftgen_tma_run_map(pass, shape, spans, tile);
    const cuuint64_t dims[4] = {(cuuint64_t)shape[0], (cuuint64_t)shape[1], (cuuint64_t)shape[2], (cuuint64_t)entries};
    const cuuint64_t strides[3] = {(cuuint64_t)shape[0] * bytes, (cuuint64_t)spans[0], (cuuint64_t)spans[1]};
    const cuuint32_t box[4] = {(cuuint32_t)tile[0], (cuuint32_t)tile[1], (cuuint32_t)tile[2], 1};
    return encode_map(encode, in, bytes, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B, "run", map);
}

fftgen_result fftgen_encode_column_tiles(const fftgen_kernel_plan *pass, const void *in, long long ffts,
                                         fftgen_tensor_map *map)
{
    memset(map, 0, sizeof *map);
    if ((uintptr_t)in % 16 != 0) return FFTGEN_SUCCESS;
    pthread_once(&lookup_once, look_up_encoder);
    if (lookup_status != cudaSuccess)
        return fftgen_cuda_failed("cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)", lookup_status);
    if (lookup_found != cudaDriverEntryPointSuccess || encoder == NULL)
        return fftgen_detail(FFTGEN_CUDA_ERROR, "the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or newer)");
    const PFN_cuTensorMapEncodeTiled_v12000 encode = encoder;
    const fftgen_layout *l = &pass->in;
    const cuuint64_t bytes = pass->precision == FFTGEN_KERNEL_FP16 ? 4 : 8;
    const long long per_entry = l->group_size * l->group_count;
    if (fftgen_tma_runs(pass)) return encode_run_tiles(encode, pass, in, bytes, (ffts + per_entry - 1) / per_entry, map);
    /* the groups and the rows in the order of their strides (fftgen_tma_rows_first), as the kernel's boxes
     * name them */
    const int rows_first = fftgen_tma_rows_first(pass);
    const cuuint64_t groups[2] = {(cuuint64_t)l->group_count, (cuuint64_t)fftgen_tma_group_stride(pass) * bytes};
    const cuuint64_t rows[2] = {(cuuint64_t)pass->n, (cuuint64_t)l->elem_stride * bytes};
    const cuuint64_t *middle = rows_first ? rows : groups, *outer = rows_first ? groups : rows;
    const cuuint64_t dims[4] = {(cuuint64_t)l->group_size, middle[0], outer[0], (cuuint64_t)((ffts + per_entry - 1) / per_entry)};
    const cuuint64_t strides[3] = {middle[1], outer[1], (cuuint64_t)l->batch_stride * bytes};
    const cuuint32_t box_rows = (cuuint32_t)(pass->n < 256 ? pass->n : 256);
    const cuuint32_t box[4] = {(cuuint32_t)pass->ffts_per_block, rows_first ? box_rows : 1, rows_first ? 1 : box_rows, 1};
    return encode_map(encode, in, bytes, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_NONE, "column", map);
}
