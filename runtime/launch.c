#define _POSIX_C_SOURCE 200809L
#include "launch.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "error_detail.h"
#include "render.h"

fftgen_result fftgen_cuda_failed(const char *call, cudaError_t error)
{
    return fftgen_detail(FFTGEN_CUDA_ERROR, "%s: %s (%s)", call, cudaGetErrorName(error), cudaGetErrorString(error));
}

fftgen_result fftgen_current_device(int *device, int *arch, size_t *global_memory)
{
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count == 0)
        return fftgen_detail(FFTGEN_NO_DEVICE, "no CUDA device: cudaGetDeviceCount found none");
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
        return fftgen_detail(FFTGEN_NO_DEVICE, "no CUDA device (or no CUDA driver): cudaGetDeviceCount returned %s: %s",
                             cudaGetErrorName(status), cudaGetErrorString(status));
    if (status != cudaSuccess) return fftgen_cuda_failed("cudaGetDeviceCount", status);
    int major = 0, minor = 0;
    if ((status = cudaGetDevice(device)) != cudaSuccess) return fftgen_cuda_failed("cudaGetDevice", status);
    if ((status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, *device)) != cudaSuccess ||
        (status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, *device)) != cudaSuccess)
        return fftgen_cuda_failed("cudaDeviceGetAttribute (compute capability)", status);
    struct cudaDeviceProp prop;
    if ((status = cudaGetDeviceProperties(&prop, *device)) != cudaSuccess)
        return fftgen_cuda_failed("cudaGetDeviceProperties", status);
    *arch = 10 * major + minor;
    *global_memory = prop.totalGlobalMem;
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_device_sm_count(int device, int *sms)
{
    const cudaError_t status = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
    if (status != cudaSuccess) return fftgen_cuda_failed("cudaDeviceGetAttribute (multiprocessors)", status);
    return FFTGEN_SUCCESS;
}

/* The NVIDIA kernel module's version ("580.159.04"), else the CUDA driver API's ("cuda-13000"). */
static void driver_version(char *out, size_t len)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[512];
    if (f != NULL && fgets(line, sizeof line, f) != NULL) {
        /* "NVRM version: NVIDIA UNIX ... Kernel Module  580.159.04  Release Build ..." */
        char *save = NULL;
        for (char *word = strtok_r(line, " \t\n", &save); word != NULL; word = strtok_r(NULL, " \t\n", &save))
            if (word[0] >= '0' && word[0] <= '9' && strchr(word, '.') != NULL && strlen(word) < len) {
                snprintf(out, len, "%s", word);
                fclose(f);
                return;
            }
    }
    if (f != NULL) fclose(f);
    int version = 0;
    if (cudaDriverGetVersion(&version) != cudaSuccess) version = 0;
    snprintf(out, len, "cuda-%d", version);
}

/* Keys of the devices seen so far: every plan creation asks, and the answer never changes. */
enum { KEYED_DEVICES = 16 };
static fftgen_device_key device_keys[KEYED_DEVICES];
static int device_keyed[KEYED_DEVICES];
static pthread_mutex_t device_keys_lock = PTHREAD_MUTEX_INITIALIZER;

fftgen_result fftgen_device_key_of(int device, int arch, fftgen_device_key *key)
{
    const int cached = device >= 0 && device < KEYED_DEVICES;
    if (cached) {
        pthread_mutex_lock(&device_keys_lock);
        const int known = device_keyed[device];
        if (known) *key = device_keys[device];
        pthread_mutex_unlock(&device_keys_lock);
        if (known) return FFTGEN_SUCCESS;
    }
    struct cudaDeviceProp prop;
    const cudaError_t status = cudaGetDeviceProperties(&prop, device);
    if (status != cudaSuccess) return fftgen_cuda_failed("cudaGetDeviceProperties", status);
    memset(key, 0, sizeof *key);
    snprintf(key->device, sizeof key->device, "%s", prop.name);
    key->arch = arch;
    driver_version(key->driver, sizeof key->driver);
    snprintf(key->version, sizeof key->version, "%s", FFTGEN_VERSION);
    if (cached) {
        pthread_mutex_lock(&device_keys_lock);
        device_keys[device] = *key;
        device_keyed[device] = 1;
        pthread_mutex_unlock(&device_keys_lock);
    }
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_module_load(const fftgen_cubin *cubin, int count, const char *const *names,
                                 const int *shared_bytes, int device, fftgen_module *module)
{
    module->library = NULL;
    module->count = 0;
    if (count < 1 || count > FFTGEN_MODULE_MAX_KERNELS)
        return fftgen_detail(FFTGEN_CUDA_ERROR, "a module of %d kernels (at most %d)", count,
                             FFTGEN_MODULE_MAX_KERNELS);
    cudaError_t status = cudaLibraryLoadData(&module->library, cubin->data, NULL, NULL, 0, NULL, NULL, 0);
    if (status != cudaSuccess) {
        module->library = NULL;
        return fftgen_cuda_failed("cudaLibraryLoadData (the plan's cubin)", status);
    }
    char call[256];
    for (int i = 0; i < count; ++i) {
        if ((status = cudaLibraryGetKernel(&module->kernel[i], module->library, names[i])) != cudaSuccess) {
            snprintf(call, sizeof call, "cudaLibraryGetKernel(%s)", names[i]);
            goto fail;
        }
        if (shared_bytes[i] > 48 * 1024 &&
            (status = cudaKernelSetAttributeForDevice(module->kernel[i], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      shared_bytes[i], device)) != cudaSuccess) {
            snprintf(call, sizeof call, "cudaKernelSetAttributeForDevice(%s, %d bytes of shared memory)", names[i],
                     shared_bytes[i]);
            goto fail;
        }
    }
    module->count = count;
    return FFTGEN_SUCCESS;
fail:
    (void)cudaLibraryUnload(module->library); /* the failure above is the one reported */
    module->library = NULL;
    return fftgen_cuda_failed(call, status);
}

cudaError_t fftgen_module_unload(fftgen_module *module)
{
    const cudaError_t status = module->library != NULL ? cudaLibraryUnload(module->library) : cudaSuccess;
    module->library = NULL;
    return status;
}

fftgen_result fftgen_module_launch(cudaKernel_t kernel, unsigned grid, unsigned threads, unsigned shared_bytes,
                                   cudaStream_t stream, const void *in, void *out, int batch, float scale,
                                   const void *map)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&batch, (void *)&scale, (void *)map};
    const dim3 grid_dim = {grid, 1, 1}, block_dim = {threads, 1, 1};
    /* a cudaKernel_t stands in for the function pointer of a kernel compiled into the program */
    const cudaError_t status = cudaLaunchKernel((const void *)kernel, grid_dim, block_dim, args, shared_bytes, stream);
    if (status != cudaSuccess) {
        char call[128];
        snprintf(call, sizeof call, "cudaLaunchKernel(%u blocks of %u threads, %u bytes of shared memory)", grid,
                 threads, shared_bytes);
        return fftgen_cuda_failed(call, status);
    }
    return FFTGEN_SUCCESS;
}

fftgen_result fftgen_kernel_blocks_per_sm(cudaKernel_t kernel, int threads, int shared_bytes, int *blocks)
{
    const cudaError_t status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)kernel, threads, (size_t)shared_bytes);
    if (status != cudaSuccess) return fftgen_cuda_failed("cudaOccupancyMaxActiveBlocksPerMultiprocessor", status);
    return FFTGEN_SUCCESS;
}
