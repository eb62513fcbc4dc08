#include "buffers.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>

#include "error_detail.h"

size_t fftgen_layout_bytes(const fftgen_user_layout *layout, int rank, const long long *shape, long long batch,
                           size_t element)
{
    /* the last element's offset within a transform, row-major over the embeds (embed[0] unused) */
    long long last = 0, step = 1;
    for (int d = rank - 1; d >= 0; --d) {
        last += (shape[d] - 1) * step;
        step *= (d > 0 && layout->embed[d] > 0) ? layout->embed[d] : shape[d];
    }
    /* in unsigned 128 bits: a distance and batch the device's memory could never hold must not wrap
     * around to a small span */
    const unsigned __int128 elements =
        (unsigned __int128)(batch - 1) * (unsigned long long)layout->dist + (unsigned __int128)last * layout->stride + 1;
    const unsigned __int128 bytes = elements * element;
    return bytes > (unsigned __int128)SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

/* cuMemGetAddressRange (the allocation a device pointer lies in), from the driver through the runtime:
 * libfftgen links no libcuda. CUresult is an int, CUdeviceptr an unsigned long long. */
typedef int (*address_range_fn)(unsigned long long *base, size_t *size, unsigned long long pointer);
static address_range_fn address_range;
static pthread_once_t address_range_once = PTHREAD_ONCE_INIT;

static void find_address_range(void)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
        address_range = (address_range_fn)fn;
    else
        (void)cudaGetLastError();
}

fftgen_result fftgen_check_buffer(const char *name, const void *p, size_t bytes, int reads_pageable)
{
    struct cudaPointerAttributes attributes;
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
        (void)cudaGetLastError(); /* a pointer the driver cannot place: left to the launch */
        return FFTGEN_SUCCESS;
    }
    if (attributes.type == cudaMemoryTypeUnregistered) {
        if (reads_pageable) return FFTGEN_SUCCESS; /* host memory the device reads, of any size */
        return fftgen_detail(FFTGEN_HOST_POINTER,
                             "%s %p is host memory the device cannot read: allocate it with cudaMalloc (or "
                             "cudaMallocManaged, or cudaHostAlloc for pinned host memory)",
                             name, p);
    }
    pthread_once(&address_range_once, find_address_range);
    unsigned long long base = 0;
    size_t size = 0;
    const unsigned long long first = (unsigned long long)(uintptr_t)p;
    if (address_range == NULL || address_range(&base, &size, first) != 0)
        return FFTGEN_SUCCESS; /* memory the driver does not size (pinned host memory, say) */
    /* memory mapped in pieces (cuMemMap, as PyTorch's expandable segments do) is sized piece by piece:
     * a piece that starts where the one before ends continues the buffer (so an allocation that just
     * happens to follow another is not told apart from it: the check never refuses a good buffer) */
    unsigned long long end = base + size;
    while (end - first < bytes) {
        unsigned long long next = 0;
        size_t next_size = 0;
        if (address_range(&next, &next_size, end) != 0 || next != end) break;
        end = next + next_size;
    }
    if (end - first >= bytes) return FFTGEN_SUCCESS;
    return fftgen_detail(FFTGEN_BUFFER_TOO_SMALL,
                         "%s %p has %llu bytes of device memory from it on (its allocation starts at 0x%llx); "
                         "the plan needs %zu there",
                         name, p, end - first, base, bytes);
}
